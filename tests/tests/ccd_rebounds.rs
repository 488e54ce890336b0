//! Several impacts in one step, and the impact limit with its rollback
//! (docs/continuous-collision.md "How a step works": more than one impact can occur in
//! a step; "Ordering, limits and rollback": exhausting `ccd_max_impacts`
//! raises an error and restores the complete state; a retried step after
//! fixing the cause matches a world that never failed, bit for bit).

mod ccd_support;
#[path = "world_support/mod.rs"]
mod world_support;

use ccd_support::{mat, plate};
use parapet_geometry::Shape;
use parapet_math::Vec3;
use parapet_solver::RigidBody;
use parapet_world::{BodyId, ContactKind, PhysicsWorld, StepError, SPHERE_MESH_CCD};
use world_support::capture;

/// A slot: two facing walls at x = -half and x = +half (a V of zero
/// opening angle), elastic and frictionless, and a 0.1 m sphere at x = 0
/// moving along +x at `speed` (and 1 m/s along y).
fn slot(half: f32, speed: f32, max_impacts: u32) -> (PhysicsWorld, BodyId) {
    let m = mat(0.0, 1.0, 0.5);
    let mut w = PhysicsWorld::new();
    w.collision_detection = SPHERE_MESH_CCD;
    w.gravity = Vec3::zeros();
    w.ccd_max_impacts = max_impacts;
    w.add_body(plate(Vec3::new(-half, 0.0, 0.0), Vec3::x(), 20.0, m))
        .unwrap();
    w.add_body(plate(Vec3::new(half, 0.0, 0.0), -Vec3::x(), 20.0, m))
        .unwrap();
    let id = w
        .add_body(
            RigidBody::new_dynamic(Shape::sphere(0.1).unwrap(), 1.0)
                .unwrap()
                .with_material(m)
                .with_position(Vec3::new(0.0, 0.0, 0.0))
                .with_linear_velocity(Vec3::new(speed, 1.0, 0.0)),
        )
        .unwrap();
    (w, id)
}

#[test]
fn an_elastic_sphere_rebounds_four_times_in_one_step_in_a_narrow_slot() {
    // Walls 0.15 m from the centre: the centre travels 0.05 m to the first
    // wall, then 0.1 m between walls; 10 m/s for 0.04 s is 0.4 m: impacts
    // after 0.05, 0.15, 0.25, 0.35 m (step fractions 1/8, 3/8, 5/8, 7/8) and
    // the sphere ends back at x = 0 moving +x.
    let (mut w, id) = slot(0.15, 10.0, 16);
    w.step(0.04).unwrap();
    let b = w.body(id).unwrap();
    let swept: Vec<_> = w
        .events()
        .iter()
        .filter(|e| e.kind == ContactKind::Swept)
        .collect();
    assert_eq!(swept.len(), 4, "{:?}", w.events());
    assert_eq!(w.contact_count(), w.events().len());
    for (k, e) in swept.iter().enumerate() {
        let expected = (2 * k + 1) as f32 / 8.0;
        // f32 positions rounded at each impact: times within 1e-5.
        assert!((e.time - expected).abs() < 1e-5, "impact {k} at {}", e.time);
        // Sorted by time.
        if k > 0 {
            assert!(e.time >= swept[k - 1].time);
        }
    }
    // Elastic and frictionless: speed kept, x velocity back to +10.
    assert!(
        (b.linear_velocity().x - 10.0).abs() < 1e-5,
        "{:?}",
        b.linear_velocity()
    );
    assert!((b.linear_velocity().y - 1.0).abs() < 1e-6);
    assert!(b.position().x.abs() < 1e-5, "x = {}", b.position().x);
    assert!((b.position().y - 0.04).abs() < 1e-6);
}

#[test]
fn an_elastic_sphere_thrown_into_a_box_corner_comes_straight_back() {
    // Floor z = 0, walls x = 0 and y = 0, all facing into the corner's
    // octant; the sphere hits each of the three once (in some order) in one
    // step and every velocity component is reversed.
    let m = mat(0.0, 1.0, 0.5);
    let mut w = PhysicsWorld::new();
    w.collision_detection = SPHERE_MESH_CCD;
    w.gravity = Vec3::zeros();
    w.add_body(plate(Vec3::new(5.0, 5.0, 0.0), Vec3::z(), 5.0, m))
        .unwrap();
    w.add_body(plate(Vec3::new(0.0, 5.0, 5.0), Vec3::x(), 5.0, m))
        .unwrap();
    w.add_body(plate(Vec3::new(5.0, 0.0, 5.0), Vec3::y(), 5.0, m))
        .unwrap();
    let v = Vec3::new(-30.0, -40.0, -50.0);
    let id = w
        .add_body(
            RigidBody::new_dynamic(Shape::sphere(0.2).unwrap(), 1.0)
                .unwrap()
                .with_material(m)
                .with_position(Vec3::new(0.5, 0.6, 0.7))
                .with_linear_velocity(v),
        )
        .unwrap();
    w.step(0.05).unwrap();
    let b = w.body(id).unwrap();
    let swept = w
        .events()
        .iter()
        .filter(|e| e.kind == ContactKind::Swept)
        .count();
    assert_eq!(swept, 3, "{:?}", w.events());
    // Reversed within the f32 velocity storage (1e-5 relative).
    assert!(
        (b.linear_velocity() + v).norm() < 1e-4,
        "{:?}",
        b.linear_velocity()
    );
    let p = b.position();
    assert!(
        p.x >= 0.2 - 1e-6 && p.y >= 0.2 - 1e-6 && p.z >= 0.2 - 1e-6,
        "{p:?}"
    );
}

#[test]
fn exhausting_the_impact_limit_raises_an_error_and_restores_everything() {
    // Walls 0.11 m from the centre: 0.02 m between impacts, 100 m/s for
    // 0.01 s is 1 m of travel: about 50 impacts, beyond a limit of 16.
    let (mut w, id) = slot(0.11, 100.0, 16);
    // A first successful step leaves events and a contact count to restore.
    w.ccd_max_impacts = 1024;
    w.step(0.001).unwrap();
    w.ccd_max_impacts = 16;
    // Pending loads, split state and a mixed history must come back too.
    w.body_mut(id).unwrap().add_force(Vec3::new(0.0, 3.0, 0.0));
    w.body_mut(id).unwrap().add_torque(Vec3::new(0.0, 0.0, 0.5));
    let before = capture(&w);
    let err = w.step(0.01).unwrap_err();
    match err {
        StepError::ImpactLimit {
            body,
            impacts,
            limit,
        } => {
            assert_eq!(body, id);
            assert_eq!(limit, 16);
            assert_eq!(impacts, 16);
        }
        other => panic!("expected ImpactLimit, got {other}"),
    }
    let msg = err.to_string();
    assert!(
        msg.contains("16") && msg.contains("ccd_max_impacts"),
        "{msg}"
    );
    // Field by field: configuration, every body's pose, velocities, split
    // velocities, pending force and torque, events, contact count, rays.
    let after = capture(&w);
    assert_eq!(after.config, before.config);
    assert_eq!(after.bodies, before.bodies);
    assert_eq!(after.events, before.events);
    assert_eq!(after.contact_count, before.contact_count);
    assert_eq!(after.rays, before.rays);
    assert_eq!(w.body(id).unwrap().force(), Vec3::new(0.0, 3.0, 0.0));

    // Fix the cause and retry: the result equals a world that never failed.
    w.ccd_max_impacts = 1024;
    w.step(0.01).unwrap();
    let (mut fresh, fid) = slot(0.11, 100.0, 1024);
    fresh.step(0.001).unwrap();
    fresh
        .body_mut(fid)
        .unwrap()
        .add_force(Vec3::new(0.0, 3.0, 0.0));
    fresh
        .body_mut(fid)
        .unwrap()
        .add_torque(Vec3::new(0.0, 0.0, 0.5));
    fresh.step(0.01).unwrap();
    assert_eq!(capture(&w), capture(&fresh));
    assert!(
        w.events()
            .iter()
            .filter(|e| e.kind == ContactKind::Swept)
            .count()
            > 16
    );
}

/// The impact limit and its rollback for every supported shape: a locked
/// capsule, box and hull (and a sphere) rattling in a slot 1 cm wider than
/// the body. The failed step restores every field; the retried step, after
/// raising the limit, matches a world that never failed, bit for bit.
#[test]
fn every_shape_rolls_back_an_exhausted_impact_limit_and_retries_bit_for_bit() {
    use parapet_math::Mat3;
    let hull = Shape::convex_hull(&[
        Vec3::new(0.2, 0.0, 0.0),
        Vec3::new(-0.2, 0.1, 0.0),
        Vec3::new(-0.2, -0.1, 0.1),
        Vec3::new(0.0, 0.0, -0.2),
    ])
    .unwrap();
    // (shape, half width along x)
    let shapes = [
        (Shape::sphere(0.1).unwrap(), 0.1f32),
        (Shape::capsule(0.1, 0.3).unwrap(), 0.1),
        (Shape::cuboid(Vec3::new(0.15, 0.2, 0.1)).unwrap(), 0.15),
        (hull, 0.2),
    ];
    for (shape, half) in shapes {
        let name = shape.kind_name();
        let build = |limit: u32| {
            let m = mat(0.0, 1.0, 0.5);
            let mut w = PhysicsWorld::new();
            w.collision_detection = SPHERE_MESH_CCD;
            w.gravity = Vec3::zeros();
            w.ccd_max_impacts = limit;
            let wall = half + 0.01;
            w.add_body(plate(Vec3::new(-wall, 0.0, 0.0), Vec3::x(), 20.0, m))
                .unwrap();
            w.add_body(plate(Vec3::new(wall, 0.0, 0.0), -Vec3::x(), 20.0, m))
                .unwrap();
            let mut b = RigidBody::new_dynamic(shape.clone(), 2.0)
                .unwrap()
                .with_material(m)
                .with_linear_velocity(Vec3::new(50.0, 0.5, 0.0));
            if name != "sphere" {
                b.set_inverse_inertia(Mat3::zeros()).unwrap();
            }
            let id = w.add_body(b).unwrap();
            (w, id)
        };
        let (mut w, id) = build(16);
        w.body_mut(id).unwrap().add_force(Vec3::new(0.0, 1.0, 0.0));
        let before = capture(&w);
        match w.step(0.01).unwrap_err() {
            StepError::ImpactLimit { body, limit, .. } => {
                assert_eq!((body, limit), (id, 16), "{name}");
            }
            other => panic!("{name}: expected ImpactLimit, got {other}"),
        }
        assert_eq!(capture(&w), before, "{name}: rollback");
        w.ccd_max_impacts = 1024;
        w.step(0.01).unwrap();
        let (mut fresh, fid) = build(1024);
        fresh
            .body_mut(fid)
            .unwrap()
            .add_force(Vec3::new(0.0, 1.0, 0.0));
        fresh.step(0.01).unwrap();
        assert_eq!(capture(&w), capture(&fresh), "{name}: retry");
        let swept = w
            .events()
            .iter()
            .filter(|e| e.kind == ContactKind::Swept)
            .count();
        assert!(swept > 16, "{name}: {swept} impacts");
        // Still between the walls (the slot's clearance is 1 cm per side).
        let x = w.body(id).unwrap().position().x;
        assert!(x.abs() <= 0.01 + 1e-5, "{name}: x = {x}");
    }
}
