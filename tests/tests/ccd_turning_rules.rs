//! The rules around turning bodies in SPHERE_MESH_CCD (docs/turning-bodies.md;
//! docs/continuous-collision.md "Supported worlds", "Ordering, limits and rollback"): turning
//! capsules and off-centre shapes are accepted; a turning body that reaches
//! another moving body strikes it, conserving momentum; offsets beyond
//! 10000 m are refused; an exhausted impact budget rolls back and a retried
//! step matches a world that never failed, bit for bit; swept events of a
//! turning body are well formed; runs are deterministic.

mod ccd_turning_support;
#[path = "world_support/mod.rs"]
mod world_support;

use ccd_turning_support::{mat, off_center_sphere, plate, rotation, turning_capsule};
use parapet_math::{Quat, Vec3};
use parapet_world::{ContactKind, PhysicsWorld, StepError, SPHERE_MESH_CCD};
use world_support::capture;

fn floor_world() -> PhysicsWorld {
    let mut w = PhysicsWorld::new();
    w.collision_detection = SPHERE_MESH_CCD;
    w.add_body(plate(Vec3::zeros(), Vec3::z(), 20.0, mat(0.5, 0.3, 0.5)))
        .unwrap();
    w
}

#[test]
fn turning_capsules_and_off_centre_shapes_are_accepted_and_swept() {
    let mut w = floor_world();
    let a = w
        .add_body(turning_capsule(0.1, 0.3, 1.0).with_position(Vec3::new(-3.0, 0.0, 1.0)))
        .unwrap();
    let b = w
        .add_body(
            off_center_sphere(0.1, 1.0, Vec3::new(0.05, 0.0, 0.0))
                .with_position(Vec3::new(3.0, 0.0, 1.0)),
        )
        .unwrap();
    let mut locked = turning_capsule(0.1, 0.3, 1.0).with_position(Vec3::new(0.0, 3.0, 1.0));
    locked
        .set_inverse_inertia(parapet_math::Mat3::zeros())
        .unwrap();
    locked
        .set_shape_offset(Vec3::new(0.2, 0.0, 0.0), Quat::identity())
        .unwrap();
    let c = w.add_body(locked).unwrap();
    let plain = w
        .add_body(
            parapet_solver::RigidBody::new_dynamic(
                parapet_geometry::Shape::sphere(0.1).unwrap(),
                1.0,
            )
            .unwrap()
            .with_position(Vec3::new(0.0, -3.0, 1.0)),
        )
        .unwrap();
    w.step(0.01).unwrap();
    for id in [a, b, c, plain] {
        let stats = w.ccd_stats(id).unwrap();
        // Every dynamic body of a continuous world is swept; none of these
        // can meet anything within the step (they fall 0.1 mm towards a
        // floor 0.9 m below), so no time-of-impact query runs for them.
        assert_eq!(stats.mode, parapet_solver::CcdMode::Continuous, "{id}");
        assert_eq!(stats.group_size, 1, "{id}");
        assert_eq!(stats.substeps, 0, "{id}");
    }
}

#[test]
fn a_turning_body_that_reaches_another_moving_body_strikes_it_and_conserves_momentum() {
    let mut w = floor_world();
    w.gravity = Vec3::zeros();
    // The capsule closes on the sphere at 20 m/s: 0.2 m in the step, more
    // than the at most 0.15 m between their surfaces (0.3 m between the
    // body origins, less the two radii of 0.1 m, give or take the sphere's
    // 0.05 m offset between its shape and its mass centre), so the two meet
    // within the step.
    let a = w
        .add_body(
            turning_capsule(0.1, 0.3, 1.0)
                .with_position(Vec3::new(0.0, 0.0, 1.0))
                .with_linear_velocity(Vec3::new(20.0, 0.0, 0.0)),
        )
        .unwrap();
    let b = w
        .add_body(
            off_center_sphere(0.1, 1.0, Vec3::new(0.05, 0.0, 0.0))
                .with_position(Vec3::new(0.3, 0.0, 1.0)),
        )
        .unwrap();
    w.step(0.01).unwrap();
    let swept: Vec<_> = w
        .events()
        .iter()
        .filter(|e| e.kind == ContactKind::Swept)
        .collect();
    assert!(
        swept
            .iter()
            .any(|e| (e.body_a, e.body_b) == (a, b) || (e.body_a, e.body_b) == (b, a)),
        "{swept:?}"
    );
    // Equal masses (1 kg), no gravity, no other impulse: the linear
    // momentum along x stays 20 N s, up to the f32 storage of the two
    // velocities (relative 1.2e-7 of 20 m/s each).
    let px = w.body(a).unwrap().linear_velocity().x + w.body(b).unwrap().linear_velocity().x;
    assert!((px - 20.0).abs() <= 1e-5, "momentum {px}");
    // The sphere was struck forward.
    assert!(w.body(b).unwrap().linear_velocity().x > 0.0);
}

#[test]
fn an_offset_beyond_ten_kilometres_is_refused() {
    let mut w = floor_world();
    let mut s = off_center_sphere(0.1, 1.0, Vec3::new(0.05, 0.0, 0.0))
        .with_position(Vec3::new(0.0, 0.0, 1.0));
    s.set_shape_offset(Vec3::new(20_000.0, 0.0, 0.0), Quat::identity())
        .unwrap();
    let id = w.add_body(s).unwrap();
    let before = capture(&w);
    let err = w.step(0.01).unwrap_err();
    match &err {
        StepError::Precision {
            body, value, limit, ..
        } => {
            assert_eq!(*body, id);
            assert!(*value >= 20_000.0 && *limit == 10_000.0, "{err}");
        }
        other => panic!("expected Precision, got {other}"),
    }
    assert_eq!(capture(&w), before);
}

/// A tilted capsule dropped fast onto the floor: one end strikes, the body
/// turns, the other end strikes within the same step.
fn tilted_drop() -> (PhysicsWorld, parapet_world::BodyId) {
    let mut w = floor_world();
    let c = turning_capsule(0.1, 0.5, 1.0)
        .with_rotation(rotation(Vec3::new(1.2, 0.0, 0.0)))
        .with_position(Vec3::new(0.0, 0.0, 0.75))
        .with_linear_velocity(Vec3::new(0.0, 0.0, -30.0));
    let id = w.add_body(c).unwrap();
    (w, id)
}

#[test]
fn an_exhausted_impact_budget_rolls_back_and_a_retry_matches_a_world_that_never_failed() {
    let (mut w, id) = tilted_drop();
    let mut control = w.clone();
    w.ccd_max_impacts = 1;
    let before = capture(&w);
    let err = w.step(1.0 / 30.0).unwrap_err();
    match &err {
        StepError::ImpactLimit {
            body,
            impacts,
            limit,
        } => {
            // One impact charged when the second would exceed the limit.
            assert_eq!((*body, *impacts, *limit), (id, 1, 1), "{err}");
        }
        other => panic!("expected ImpactLimit, got {other}"),
    }
    assert_eq!(capture(&w), before);
    w.ccd_max_impacts = control.ccd_max_impacts;
    for _ in 0..20 {
        w.step(1.0 / 30.0).unwrap();
        control.step(1.0 / 30.0).unwrap();
        assert_eq!(capture(&w), capture(&control));
    }
}

#[test]
fn swept_events_of_a_turning_body_are_well_formed_and_runs_are_deterministic() {
    let (mut w, id) = tilted_drop();
    let (mut twin, _) = tilted_drop();
    w.step(1.0 / 30.0).unwrap();
    twin.step(1.0 / 30.0).unwrap();
    assert_eq!(capture(&w), capture(&twin));
    let swept: Vec<_> = w
        .events()
        .iter()
        .filter(|e| e.kind == ContactKind::Swept)
        .collect();
    assert!(swept.len() >= 2, "{:?}", w.events());
    let mut last = 0.0;
    for e in &swept {
        // The floor was added first: it is body A, the capsule body B, and
        // the normal points from A to B (up); the impulse on B pushes it up.
        assert_eq!(e.body_b, id);
        assert!(e.normal.z > 0.99, "{e:?}");
        assert!(e.normal_impulse.z > 0.0, "{e:?}");
        assert!((0.0..=1.0).contains(&e.time) && e.time >= last, "{e:?}");
        last = e.time;
        // The point lies on the floor (within the tolerance).
        assert!(e.point.z.abs() < 1e-3, "{e:?}");
    }
    assert_eq!(w.contact_count(), w.events().len());
}

/// Twenty turning bodies, each alone (8 m apart), dropped spinning onto a
/// floor: enough for the sweeps of bodies alone to run in parallel.
fn crowd() -> world_support::WorldState {
    let mut w = PhysicsWorld::new();
    w.collision_detection = SPHERE_MESH_CCD;
    w.add_body(plate(Vec3::zeros(), Vec3::z(), 60.0, mat(0.6, 0.4, 0.5)))
        .unwrap();
    let mut ids = Vec::new();
    for i in 0..20 {
        let x = -36.0 + (i % 5) as f32 * 18.0;
        let y = -27.0 + (i / 5) as f32 * 18.0;
        let spin = Vec3::new(20.0 - i as f32, 3.0 * i as f32 - 25.0, 7.0);
        let b = if i % 2 == 0 {
            turning_capsule(0.1, 0.3, 1.0)
        } else {
            off_center_sphere(0.15, 1.0, Vec3::new(0.08, -0.04, 0.0))
        };
        let b = b
            .with_position(Vec3::new(x, y, 0.8))
            .with_rotation(rotation(Vec3::new(0.2 * i as f32, 1.0, -0.5)))
            .with_linear_velocity(Vec3::new(1.0, -2.0, -12.0))
            .with_angular_velocity(spin);
        ids.push(w.add_body(b).unwrap());
    }
    w.ccd_max_impacts = 256;
    for _ in 0..20 {
        w.step(1.0 / 60.0).unwrap();
        for id in &ids {
            assert!(w.ccd_stats(*id).map(|s| s.substeps).is_some());
        }
    }
    capture(&w)
}

#[test]
fn turning_bodies_give_the_same_bits_on_one_thread_and_on_several() {
    let on = |threads: usize| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(crowd)
    };
    assert_eq!(on(1), on(3));
}
