//! The tunnelling example of docs/continuous-collision.md: a 0.1 m sphere at z = 0.15 m moving at -30 m/s with a 0.01 s
//! step over a plastic horizontal mesh. SPHERE_MESH_CCD stops it at
//! z = 0.1 m; DISCRETE still reaches z = -0.15 m (minus the gravity term).

mod ccd_support;

use ccd_support::{mat, plate};
use parapet_geometry::Shape;
use parapet_math::Vec3;
use parapet_solver::RigidBody;
use parapet_world::{
    BodyId, CollisionDetection, ContactKind, PhysicsWorld, DISCRETE, SPHERE_MESH_CCD,
};

fn scene(mode: CollisionDetection) -> (PhysicsWorld, BodyId, BodyId) {
    let plastic = mat(0.5, 0.0, 0.5);
    let mut w = PhysicsWorld::new();
    w.collision_detection = mode;
    let floor = w
        .add_body(plate(Vec3::zeros(), Vec3::z(), 10.0, plastic))
        .unwrap();
    let ball = RigidBody::new_dynamic(Shape::sphere(0.1).unwrap(), 1.0)
        .unwrap()
        .with_material(plastic)
        .with_position(Vec3::new(0.0, 0.0, 0.15))
        .with_linear_velocity(Vec3::new(0.0, 0.0, -30.0));
    let ball = w.add_body(ball).unwrap();
    (w, floor, ball)
}

#[test]
fn ccd_stops_the_fast_sphere_at_one_radius_above_the_floor() {
    let (mut w, floor, ball) = scene(SPHERE_MESH_CCD);
    w.step(0.01).unwrap();
    let b = w.body(ball).unwrap();
    // Plastic impact at t = 0.05 / (30 + g dt) dt: the sphere stays on the
    // floor for the rest of the step. f32 storage of z = 0.1 rounds by
    // at most 4e-9 m.
    assert!(
        (b.position().z - 0.1).abs() < 1e-6,
        "z = {}",
        b.position().z
    );
    assert!(
        b.linear_velocity().z.abs() < 1e-6,
        "{:?}",
        b.linear_velocity()
    );
    // One swept impact, reported with kind Swept at about 1/6 of the step.
    assert_eq!(w.contact_count(), 1);
    let e = w.events()[0];
    assert_eq!(e.kind, ContactKind::Swept);
    assert_eq!((e.body_a, e.body_b), (floor, ball));
    let expected = 0.05 / (30.0 + 9.8 * 0.01) / 0.01;
    assert!((e.time as f64 - expected).abs() < 1e-5, "time {}", e.time);
    // The impulse on the ball (body B) points up: m * 30.098 N s.
    assert!(
        (e.normal_impulse.z - 30.098).abs() < 1e-3,
        "{:?}",
        e.normal_impulse
    );
    assert_eq!(e.normal, Vec3::z());
    // The next steps keep it resting on the floor (discrete contact path).
    for _ in 0..50 {
        w.step(0.01).unwrap();
    }
    let z = w.body(ball).unwrap().position().z;
    assert!(z > 0.1 - 0.006 && z < 0.1 + 1e-3, "z = {z}");
}

#[test]
fn discrete_mode_still_reaches_minus_0_15() {
    let (mut w, _, ball) = scene(DISCRETE);
    w.step(0.01).unwrap();
    let z = w.body(ball).unwrap().position().z;
    // z = 0.15 - (30 + g dt) dt = -0.15 - g dt^2 (9.8e-4 m).
    assert!((z - (-0.15 - 9.8e-4)).abs() < 1e-6, "z = {z}");
}

/// A negative-depth contact whose closing travel exceeds the contact margin
/// is deferred to the sweep: an elastic sphere 0.01 m above the floor (inside
/// the 0.02 m margin) at 30 m/s does not bounce early from 0.01 m away; it
/// reaches the floor and rebounds from there.
#[test]
fn a_fast_contact_inside_the_margin_is_deferred_to_the_sweep() {
    let elastic = mat(0.0, 1.0, 0.5);
    let mut w = PhysicsWorld::new();
    w.collision_detection = SPHERE_MESH_CCD;
    w.gravity = Vec3::zeros();
    w.add_body(plate(Vec3::zeros(), Vec3::z(), 10.0, elastic))
        .unwrap();
    let id = w
        .add_body(
            RigidBody::new_dynamic(Shape::sphere(0.1).unwrap(), 1.0)
                .unwrap()
                .with_material(elastic)
                .with_position(Vec3::new(0.0, 0.0, 0.11))
                .with_linear_velocity(Vec3::new(0.0, 0.0, -30.0)),
        )
        .unwrap();
    w.step(0.01).unwrap();
    let b = w.body(id).unwrap();
    // Impact after 0.01 m, then 0.29 m back up: z = 0.1 + 0.29. An early
    // (speculative) bounce would end at 0.11 + 0.3 = 0.41.
    assert!(
        (b.position().z - 0.39).abs() < 1e-5,
        "z = {}",
        b.position().z
    );
    assert!((b.linear_velocity().z - 30.0).abs() < 1e-5);
    assert!(w.events().iter().all(|e| e.kind == ContactKind::Swept));
    assert_eq!(w.contact_count(), 1);
}

/// Backface rule (one-sided triangles): CCD does not catch a sphere that starts behind
/// a one-sided triangle and crosses towards its front, nor one that overlaps
/// the back of the face.
#[test]
fn a_sphere_behind_the_floor_crosses_it_towards_the_front() {
    for start in [-0.15f32, -0.05] {
        let mut w = PhysicsWorld::new();
        w.collision_detection = SPHERE_MESH_CCD;
        w.gravity = Vec3::zeros();
        w.add_body(plate(Vec3::zeros(), Vec3::z(), 10.0, mat(0.5, 0.0, 0.5)))
            .unwrap();
        let id = w
            .add_body(
                RigidBody::new_dynamic(Shape::sphere(0.1).unwrap(), 1.0)
                    .unwrap()
                    .with_position(Vec3::new(0.0, 0.0, start))
                    .with_linear_velocity(Vec3::new(0.0, 0.0, 30.0)),
            )
            .unwrap();
        w.step(0.01).unwrap();
        let z = w.body(id).unwrap().position().z;
        assert!((z - (start + 0.3)).abs() < 1e-6, "start {start}: z = {z}");
        assert_eq!(w.body(id).unwrap().linear_velocity().z, 30.0);
    }
}
