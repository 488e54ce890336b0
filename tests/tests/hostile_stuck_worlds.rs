//! A world is never left where every later step fails for a reason the
//! user cannot see or clear.
//!
//! Regression, found by the `world` fuzz target (its check: a refused step
//! is refused the same way by a world rebuilt from the visible bodies): a
//! static mesh added 1e7 m from the origin was accepted by `add_body`, whose
//! world-space snapshot only had to fit in `f32`, but every step refused it
//! (the mesh index allows coordinates up to 1e6 m). The snapshot is taken
//! once, so moving the body back changed nothing: every later step failed,
//! while a world built from the same bodies stepped. `add_body` now makes
//! the index's triangle checks on the snapshot and refuses such a mesh,
//! leaving the world unchanged.
//!
//! The contact and warm-start side of the same rule (a refusal never rests
//! on the cache) is `hostile_impulse_overflow.rs`.

use parapet_geometry::triangle::TriangleError;
use parapet_geometry::Shape;
use parapet_math::Vec3;
use parapet_solver::RigidBody;
use parapet_world::{PhysicsWorld, WorldError, DISCRETE, SPHERE_MESH_CCD};

const DT: f32 = 1.0 / 60.0;

/// The limit of mesh coordinates from the origin (m) that the step's mesh
/// index accepts (the precision domain).
const MAX_COORDINATE: f32 = 1e6;

/// A static one-triangle floor (facing +z) whose body sits at `at`.
fn floor_at(at: Vec3) -> RigidBody {
    let v = vec![
        Vec3::new(-10.0, -10.0, 0.0),
        Vec3::new(10.0, -10.0, 0.0),
        Vec3::new(0.0, 10.0, 0.0),
    ];
    RigidBody::new_static(Shape::mesh(v, vec![[0, 1, 2]]).unwrap()).with_position(at)
}

fn ball() -> RigidBody {
    RigidBody::new_dynamic(Shape::sphere(0.5).unwrap(), 1.0)
        .unwrap()
        .with_position(Vec3::new(0.0, 0.0, 0.6))
}

#[test]
fn a_mesh_beyond_the_index_limit_is_refused_when_added_not_at_every_step() {
    for mode in [DISCRETE, SPHERE_MESH_CCD] {
        let mut w = PhysicsWorld::new();
        w.collision_detection = mode;
        w.add_body(ball()).unwrap();
        let before = format!("{:?}", w.bodies().collect::<Vec<_>>());
        let err = w
            .add_body(floor_at(Vec3::new(1e7, 0.0, 0.0)))
            .expect_err("a mesh 1e7 m away");
        match err {
            WorldError::MeshSnapshot {
                source: TriangleError::CoordinateOutOfRange { value, limit, .. },
            } => {
                assert!(value > MAX_COORDINATE, "{value}");
                assert_eq!(limit, f64::from(MAX_COORDINATE));
            }
            other => panic!("expected a snapshot refusal, got {other:?}"),
        }
        assert_eq!(format!("{:?}", w.bodies().collect::<Vec<_>>()), before);
        assert_eq!(w.body_count(), 1);
        // The world still steps.
        for _ in 0..3 {
            w.step(DT).unwrap();
        }
    }
}

#[test]
fn a_mesh_within_the_limit_is_accepted_and_every_step_succeeds() {
    // 9.9e5 m: inside the limit with its 10 m extent.
    let mut w = PhysicsWorld::new();
    w.add_body(floor_at(Vec3::new(9.9e5, 0.0, 0.0))).unwrap();
    w.add_body(ball()).unwrap();
    for _ in 0..3 {
        w.step(DT).unwrap();
    }
}

#[test]
fn moving_an_accepted_mesh_far_away_does_not_make_the_world_fail() {
    // The snapshot stays where the mesh was added (documented on
    // add_body): a later pose edit never turns a stepping world into one
    // that every step refuses.
    let mut w = PhysicsWorld::new();
    let floor = w.add_body(floor_at(Vec3::zeros())).unwrap();
    let b = w.add_body(ball()).unwrap();
    w.body_mut(floor)
        .unwrap()
        .set_position(Vec3::new(1e7, 0.0, 0.0));
    for i in 0..30 {
        w.step(DT).unwrap_or_else(|e| panic!("step {i}: {e}"));
    }
    // The ball rests on the snapshot at z = 0 (within the 0.02 m contact
    // margin of its radius).
    let z = w.body(b).unwrap().position().z;
    assert!((z - 0.5).abs() < 0.02, "z = {z}");
}
