//! Every refusal of SPHERE_MESH_CCD for bodies alone (docs/continuous-collision.md
//! "Supported worlds", "What it refuses, and why"): each test shows the error,
//! that it names the body, and that the world is unchanged bit for bit
//! (`world_support::capture`). Also: the mesh snapshot check runs once per
//! snapshot (adding a mesh invalidates it, adding a sphere does not), bodies
//! with collisions off stay outside collision handling, and a kinematic
//! sphere alone passes through meshes.

mod ccd_support;
#[path = "world_support/mod.rs"]
mod world_support;

use ccd_support::{mat, mesh, plate};
use parapet_geometry::triangle::TriangleError;
use parapet_geometry::Shape;
use parapet_math::{Mat3, Vec3};
use parapet_solver::RigidBody;
use parapet_world::{BodyId, PhysicsWorld, StepError, WorldError, SPHERE_MESH_CCD};
use world_support::capture;

fn world_with_floor() -> PhysicsWorld {
    let mut w = PhysicsWorld::new();
    w.collision_detection = SPHERE_MESH_CCD;
    w.add_body(plate(Vec3::zeros(), Vec3::z(), 10.0, mat(0.5, 0.0, 0.5)))
        .unwrap();
    w
}

fn ball(r: f32) -> RigidBody {
    RigidBody::new_dynamic(Shape::sphere(r).unwrap(), 1.0)
        .unwrap()
        .with_position(Vec3::new(0.0, 0.0, 1.0))
}

/// Steps `w` expecting an error; checks the world is unchanged and returns it.
fn refused(w: &mut PhysicsWorld) -> StepError {
    let before = capture(w);
    let err = w.step(0.01).unwrap_err();
    assert_eq!(
        capture(w),
        before,
        "the refused step changed the world: {err}"
    );
    // A refused step is refused again, identically.
    assert_eq!(w.step(0.01).unwrap_err(), err);
    err
}

fn unsupported(w: &mut PhysicsWorld, id: BodyId, words: &[&str]) {
    let err = refused(w);
    match &err {
        StepError::Unsupported { body, mode, .. } => {
            assert_eq!(*body, id, "{err}");
            assert_eq!(*mode, "SPHERE_MESH_CCD");
        }
        other => panic!("expected Unsupported, got {other}"),
    }
    let msg = err.to_string();
    for w in words {
        assert!(msg.contains(w), "{msg} lacks {w}");
    }
}

fn precision(w: &mut PhysicsWorld, id: BodyId, quantity: &str) -> (f64, f64) {
    let err = refused(w);
    match &err {
        StepError::Precision {
            body,
            quantity: q,
            value,
            limit,
        } => {
            assert_eq!(*body, id, "{err}");
            assert!(q.contains(quantity), "{err}");
            (*value, *limit)
        }
        other => panic!("expected Precision, got {other}"),
    }
}

#[test]
fn boxes_and_hulls_that_can_turn_are_turning_bodies_unless_their_tensor_is_degenerate() {
    // A box that can turn is a turning body (docs/turning-bodies.md): it
    // takes certified sub-steps.
    let mut w = world_with_floor();
    let b = RigidBody::new_dynamic(Shape::cuboid(Vec3::new(0.2, 0.2, 0.2)).unwrap(), 1.0)
        .unwrap()
        .with_position(Vec3::new(0.0, 0.0, 1.0))
        .with_angular_velocity(Vec3::new(3.0, 0.0, 1.0));
    let id = w.add_body(b).unwrap();
    w.step(0.01).unwrap();
    assert!(w.ccd_substeps(id).is_some_and(|n| n >= 1));

    let mut w = world_with_floor();
    let pts = [
        Vec3::new(0.3, 0.0, 0.0),
        Vec3::new(-0.2, 0.2, 0.0),
        Vec3::new(-0.2, -0.2, 0.0),
        Vec3::new(0.0, 0.0, 0.3),
    ];
    let mut h = RigidBody::new_dynamic(Shape::convex_hull(&pts).unwrap(), 1.0)
        .unwrap()
        .with_position(Vec3::new(0.0, 0.0, 1.0));
    // Locked tensor but a pending torque (an angular push): a body that
    // turns without a tensor to turn with is refused.
    h.set_inverse_inertia(Mat3::zeros()).unwrap();
    h.add_torque(Vec3::new(0.0, 0.0, 1.0));
    let id = w.add_body(h).unwrap();
    unsupported(&mut w, id, &["hull", "inverse inertia"]);

    // A box free to turn about one axis only (a rank-one inverse tensor).
    let mut w = world_with_floor();
    let mut b = RigidBody::new_dynamic(Shape::cuboid(Vec3::new(0.2, 0.2, 0.2)).unwrap(), 1.0)
        .unwrap()
        .with_position(Vec3::new(0.0, 0.0, 1.0));
    b.set_inverse_inertia(Mat3::from_diagonal(&Vec3::new(0.0, 0.0, 5.0)))
        .unwrap();
    let id = w.add_body(b).unwrap();
    unsupported(&mut w, id, &["box", "inverse inertia"]);
}

#[test]
fn locked_capsules_that_spin_and_turning_capsules_without_a_positive_definite_tensor_are_refused() {
    // Capsules that turn, and capsules off their centre, are turning bodies
    // (docs/turning-bodies.md, tests ccd_turning_*.rs); these stay refused.
    let c = RigidBody::new_dynamic(Shape::capsule(0.1, 0.3).unwrap(), 1.0)
        .unwrap()
        .with_position(Vec3::new(0.0, 0.0, 1.0));
    let mut w = world_with_floor();
    let mut spinning = c.clone().with_angular_velocity(Vec3::new(0.0, 0.0, 2.0));
    spinning.set_inverse_inertia(Mat3::zeros()).unwrap();
    let id = w.add_body(spinning).unwrap();
    unsupported(&mut w, id, &["capsule", "2"]);

    let mut w = world_with_floor();
    let mut singular = c;
    singular
        .set_inverse_inertia(Mat3::from_diagonal(&Vec3::new(1.0, 0.0, 1.0)))
        .unwrap();
    let id = w.add_body(singular).unwrap();
    unsupported(&mut w, id, &["capsule", "positive definite"]);
}

#[test]
fn spheres_with_a_tensor_that_is_not_positive_definite_are_refused() {
    // A sphere off its centre is a turning body (ccd_turning_*.rs).
    let mut w = world_with_floor();
    let mut s = ball(0.1);
    s.set_inverse_inertia(Mat3::from_diagonal(&Vec3::new(1.0, 0.0, 1.0)))
        .unwrap();
    let id = w.add_body(s).unwrap();
    unsupported(&mut w, id, &["positive definite"]);
}

#[test]
fn kinematic_shapes_other_than_still_spheres_and_static_primitives_are_refused() {
    let mut w = world_with_floor();
    let k = RigidBody::new_kinematic(Shape::capsule(0.1, 0.2).unwrap())
        .with_position(Vec3::new(0.0, 0.0, 1.0));
    let id = w.add_body(k).unwrap();
    unsupported(&mut w, id, &["kinematic capsule"]);

    let mut w = world_with_floor();
    let k = RigidBody::new_kinematic(Shape::sphere(0.1).unwrap())
        .with_position(Vec3::new(0.0, 0.0, 1.0))
        .with_angular_velocity(Vec3::new(1.5, 0.0, 0.0));
    let id = w.add_body(k).unwrap();
    unsupported(&mut w, id, &["spin", "1.5"]);

    let mut w = world_with_floor();
    let s =
        RigidBody::new_static(Shape::sphere(0.5).unwrap()).with_position(Vec3::new(3.0, 0.0, 0.5));
    let id = w.add_body(s).unwrap();
    unsupported(&mut w, id, &["static sphere"]);
}

#[test]
fn a_box_that_can_reach_another_moving_body_is_refused() {
    // Spheres that can reach each other are swept as a group
    // (tests/tests/ccd_group_*.rs); a box or hull stays refused.
    let locked_box = |p: Vec3| {
        let mut b = RigidBody::new_dynamic(Shape::cuboid(Vec3::repeat(0.1)).unwrap(), 1.0)
            .unwrap()
            .with_position(p);
        b.set_inverse_inertia(Mat3::zeros()).unwrap();
        b
    };
    // A locked box 0.5 m from a sphere moving towards it at 60 m/s.
    let mut w = world_with_floor();
    w.add_body(ball(0.1).with_linear_velocity(Vec3::new(60.0, 0.0, 0.0)))
        .unwrap();
    let b = w.add_body(locked_box(Vec3::new(0.5, 0.0, 1.0))).unwrap();
    unsupported(&mut w, b, &["reach", "overlaps"]);

    // A kinematic sphere sweeping past a locked box.
    let mut w = world_with_floor();
    w.add_body(
        RigidBody::new_kinematic(Shape::sphere(0.2).unwrap())
            .with_position(Vec3::new(-1.0, 0.0, 1.0))
            .with_linear_velocity(Vec3::new(100.0, 0.0, 0.0)),
    )
    .unwrap();
    let b = w.add_body(locked_box(Vec3::new(0.0, 0.0, 1.0))).unwrap();
    unsupported(&mut w, b, &["overlaps"]);

    // Far apart: both are swept alone.
    let mut w = world_with_floor();
    w.add_body(ball(0.1).with_linear_velocity(Vec3::new(0.0, 0.0, -50.0)))
        .unwrap();
    w.add_body(ball(0.1).with_position(Vec3::new(5.0, 0.0, 1.0)))
        .unwrap();
    w.step(0.01).unwrap();
}

#[test]
fn radii_coordinates_and_reach_outside_the_precision_domain_are_refused() {
    let mut w = world_with_floor();
    let id = w.add_body(ball(5.0e-5)).unwrap();
    let (value, limit) = precision(&mut w, id, "radius");
    assert_eq!((value as f32, limit), (5.0e-5, 1.0e-4));

    let mut w = world_with_floor();
    let id = w
        .add_body(ball(1.0).with_position(Vec3::new(2.0e6, 0.0, 1.0)))
        .unwrap();
    let (value, limit) = precision(&mut w, id, "position coordinate (m)");
    assert_eq!((value, limit), (2.0e6, 1.0e6));

    // 100 m from the origin with a 1 mm radius: 100000 radii > 65536.
    let mut w = world_with_floor();
    let id = w
        .add_body(ball(0.001).with_position(Vec3::new(100.0, 0.0, 1.0)))
        .unwrap();
    let (value, limit) = precision(&mut w, id, "radii");
    assert!(value > 65536.0 && limit == 65536.0);

    // 1 mm sphere at 200 km/s for 0.01 s: reach 2000 m = 2e6 radii > 2^20.
    let mut w = world_with_floor();
    let id = w
        .add_body(ball(0.001).with_linear_velocity(Vec3::new(2.0e5, 0.0, 0.0)))
        .unwrap();
    let (value, limit) = precision(&mut w, id, "reachable radius");
    assert!(value > 1.99e6 && limit == 1_048_576.0, "{value}");
}

#[test]
fn a_sweep_outside_the_precision_domain_is_refused() {
    // 1 mm sphere at 100 km/s for 0.01 s: within the reach limit (1e6
    // radii) but the end of its path lies 1e6 radii from the origin, beyond
    // the 65536 radii that every swept position must keep.
    let mut w = world_with_floor();
    let id = w
        .add_body(ball(0.001).with_linear_velocity(Vec3::new(1.0e5, 0.0, 0.0)))
        .unwrap();
    let err = refused(&mut w);
    match &err {
        StepError::SweepRefused { body, triangle, .. } => {
            assert_eq!(*body, id);
            assert_eq!(*triangle, 0);
        }
        other => panic!("expected SweepRefused, got {other}"),
    }
    assert!(err.to_string().contains("65536"), "{err}");
}

#[test]
fn a_bad_snapshot_triangle_is_refused_even_far_away_and_with_collisions_off() {
    // A 1 mm triangle placed 100 km away collapses in f32 storage: its raw
    // normal is zero. Its owner does not even collide. Since every step
    // would refuse that snapshot and no pose edit can change it (it is
    // taken once), add_body refuses it, naming the triangle, and the world
    // is left as it was.
    let mut w = world_with_floor();
    w.add_body(ball(0.1)).unwrap();
    let tiny = mesh(
        vec![
            Vec3::zeros(),
            Vec3::new(1e-3, 0.0, 0.0),
            Vec3::new(0.0, 1e-3, 0.0),
        ],
        vec![[0, 1, 2]],
        mat(0.5, 0.0, 0.5),
    )
    .with_position(Vec3::new(1.0e5, 0.0, 0.0));
    let mut tiny = tiny;
    tiny.set_collides(false);
    let count = w.body_count();
    let err = w.add_body(tiny).unwrap_err();
    match &err {
        WorldError::MeshSnapshot {
            source: TriangleError::ZeroRawNormal { triangle },
        } => assert_eq!(*triangle, 0),
        other => panic!("expected a snapshot refusal, got {other}"),
    }
    assert!(err.to_string().contains("triangle 0"), "{err}");
    assert_eq!(w.body_count(), count);
    w.step(0.01).unwrap();
}

#[test]
fn the_snapshot_is_checked_once_per_snapshot() {
    let mut w = world_with_floor();
    w.add_body(ball(0.1)).unwrap();
    assert_eq!(w.ccd_mesh_checks(), 0);
    for _ in 0..5 {
        w.step(0.01).unwrap();
    }
    assert_eq!(w.ccd_mesh_checks(), 1);
    // A sphere invalidates neither the check nor the index.
    w.add_body(ball(0.1).with_position(Vec3::new(4.0, 0.0, 1.0)))
        .unwrap();
    w.step(0.01).unwrap();
    assert_eq!(w.ccd_mesh_checks(), 1);
    // A mesh invalidates both: the next step checks the whole snapshot again.
    w.add_body(plate(
        Vec3::new(0.0, 0.0, -5.0),
        Vec3::z(),
        3.0,
        mat(0.5, 0.0, 0.5),
    ))
    .unwrap();
    w.step(0.01).unwrap();
    w.step(0.01).unwrap();
    assert_eq!(w.ccd_mesh_checks(), 2);
}

#[test]
fn bodies_with_collisions_off_are_integrated_but_not_collided() {
    // A box free to turn about one axis only would be refused; with
    // collisions off it just falls, through the floor, as its integration
    // rules say.
    let mut w = world_with_floor();
    let mut b = RigidBody::new_dynamic(Shape::cuboid(Vec3::new(0.2, 0.2, 0.2)).unwrap(), 1.0)
        .unwrap()
        .with_position(Vec3::new(0.0, 0.0, 0.3))
        .with_linear_velocity(Vec3::new(0.0, 0.0, -50.0));
    b.set_inverse_inertia(Mat3::from_diagonal(&Vec3::new(0.0, 0.0, 5.0)))
        .unwrap();
    b.set_collides(false);
    let id = w.add_body(b).unwrap();
    w.step(0.01).unwrap();
    assert!(w.body(id).unwrap().position().z < -0.1);
    // Turning collisions back on restores the support checks next step.
    w.body_mut(id).unwrap().set_collides(true);
    unsupported(&mut w, id, &["box", "inverse inertia"]);
}

#[test]
fn a_kinematic_sphere_alone_passes_through_the_floor() {
    let mut w = world_with_floor();
    let id = w
        .add_body(
            RigidBody::new_kinematic(Shape::sphere(0.1).unwrap())
                .with_position(Vec3::new(0.0, 0.0, 0.15))
                .with_linear_velocity(Vec3::new(0.0, 0.0, -30.0)),
        )
        .unwrap();
    w.step(0.01).unwrap();
    assert!((w.body(id).unwrap().position().z + 0.15).abs() < 1e-6);
}

#[test]
fn invalid_ccd_limits_are_refused_at_step_entry() {
    for (impacts, substeps, field) in [
        (0, 256, "ccd_max_impacts"),
        (1025, 256, "ccd_max_impacts"),
        (16, 0, "ccd_max_substeps"),
        (16, 65537, "ccd_max_substeps"),
    ] {
        let mut w = world_with_floor();
        w.add_body(ball(0.1)).unwrap();
        w.ccd_max_impacts = impacts;
        w.ccd_max_substeps = substeps;
        match refused(&mut w) {
            StepError::InvalidConfig { quantity, .. } => assert_eq!(quantity, field),
            other => panic!("expected InvalidConfig, got {other}"),
        }
    }
}
