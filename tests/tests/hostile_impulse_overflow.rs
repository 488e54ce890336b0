//! Regression: an Ok DISCRETE step reported an infinite contact impulse.
//! A 1e38 kg sphere landing at 10 m/s on a one-triangle floor: the solver's
//! `f64` impulse (about 1e39 N s) was rounded to `f32` unchecked, both into
//! the step's events and into the warm-start cache; the next step read the
//! cached infinity back, its velocities became NaN, and since the rollback
//! restores that cache every later step failed the same way, even after
//! the user zeroed the body's velocity.
//!
//! Now such a step is refused with `StepError::NotRepresentable` naming the
//! body and the impulse, the world is left as it was, and once the user
//! removes the cause (the velocity) the world steps again.

mod world_support;

use parapet_geometry::Shape;
use parapet_math::{Mat3, Quat, Vec3};
use parapet_solver::{BodyError, RigidBody};
use parapet_world::{BodyId, PhysicsWorld, StepError, DISCRETE};
use world_support::capture;

const DT: f32 = 1.0 / 60.0;

/// The static one-triangle floor of the report (z = 0, facing +z).
fn floor() -> RigidBody {
    let v = vec![
        Vec3::new(-10.0, -10.0, 0.0),
        Vec3::new(10.0, -10.0, 0.0),
        Vec3::new(0.0, 10.0, 0.0),
    ];
    RigidBody::new_static(Shape::mesh(v, vec![[0, 1, 2]]).unwrap())
}

/// The report's world: the floor and a sphere of radius 0.5 and `mass` at
/// z = 0.51 moving at `vz`.
fn world_with_sphere(mass: f32, vz: f32) -> (PhysicsWorld, BodyId) {
    let mut w = PhysicsWorld::new();
    w.collision_detection = DISCRETE;
    w.add_body(floor()).unwrap();
    let id = w
        .add_body(
            RigidBody::new_dynamic(Shape::sphere(0.5).unwrap(), mass)
                .unwrap()
                .with_position(Vec3::new(0.0, 0.0, 0.51))
                .with_linear_velocity(Vec3::new(0.0, 0.0, vz)),
        )
        .unwrap();
    (w, id)
}

fn all_finite(w: &PhysicsWorld) -> bool {
    let v = |x: Vec3| x.iter().all(|c| c.is_finite());
    w.events()
        .iter()
        .all(|e| v(e.point) && v(e.normal) && v(e.normal_impulse) && e.time.is_finite())
        && w.bodies().all(|(_, b)| {
            v(b.position())
                && b.rotation().coords.iter().all(|c| c.is_finite())
                && v(b.linear_velocity())
                && v(b.angular_velocity())
        })
}

#[test]
fn a_1e38_kg_sphere_landing_at_10_m_s_is_refused_naming_it_and_the_impulse() {
    let (mut w, ball) = world_with_sphere(1e38, -10.0);
    let before = capture(&w);
    let err = w.step(DT).unwrap_err();
    // The impulse that stops 1e38 kg at 10 m/s is 1e39 N s, beyond f32.
    match &err {
        StepError::NotRepresentable {
            body,
            source: BodyError::NotRepresentable { quantity, value },
        } => {
            assert_eq!(*body, ball);
            assert_eq!(*quantity, "contact normal impulse");
            assert!(*value > f32::MAX as f64, "{value}");
        }
        other => panic!("expected NotRepresentable, got {other:?}"),
    }
    assert!(err.to_string().contains("contact normal impulse"), "{err}");
    assert_eq!(capture(&w), before, "a refused step changes nothing");
    // The same refusal again: nothing hidden changed either.
    assert_eq!(w.step(DT).unwrap_err(), err);
    assert_eq!(capture(&w), before);
}

#[test]
fn zeroing_the_velocity_lets_the_refused_world_step_again_with_finite_reports() {
    let (mut w, ball) = world_with_sphere(1e38, -10.0);
    assert!(w.step(DT).is_err());
    w.body_mut(ball).unwrap().set_linear_velocity(Vec3::zeros());
    for i in 0..30 {
        w.step(DT)
            .unwrap_or_else(|e| panic!("step {i} after the fix: {e}"));
        assert!(all_finite(&w), "step {i}: {:?}", w.events());
    }
    // It rests on the floor: held within the contact margin of z = 0.5
    // (the split correction keeps it there; 0.02 m is the margin).
    let z = w.body(ball).unwrap().position().z;
    assert!((z - 0.5).abs() < 0.02, "z = {z}");
    // And its weight shows in the events: m g dt = 1.6e37 N s per step, to
    // within the 2% a settling sequential-impulse solve leaves.
    let jz: f32 = w.events().iter().map(|e| e.normal_impulse.z).sum();
    let weight = 1e38_f64 * 9.8 * DT as f64;
    assert!(
        ((jz as f64) - weight).abs() < 0.02 * weight,
        "{jz} vs {weight}"
    );
}

#[test]
fn a_warm_start_from_before_a_mass_change_never_makes_the_world_fail() {
    // A 1e38 kg box sliding slowly on the floor caches about 1e36 to 1e37
    // N s at each of its points. When the user then makes it 1e-20 kg, the
    // cached impulses alone would move it at about 1e56 m/s; the solve's
    // correction back leaves an f64 residue far beyond f32 (3e54 m/s
    // measured), so a warm-started step can only be refused, and since a
    // refused step restores the cache, every later one would be too. The
    // stage solves cold instead, and the step succeeds as in a fresh world.
    let mut w = PhysicsWorld::new();
    w.add_body(floor()).unwrap();
    let id = w
        .add_body(
            RigidBody::new_dynamic(Shape::cuboid(Vec3::new(0.5, 0.3, 0.2)).unwrap(), 1e38)
                .unwrap()
                .with_position(Vec3::new(0.0, 0.0, 0.2))
                .with_rotation(Quat::from_scaled_axis(Vec3::new(0.0, 0.0, 0.3)))
                .with_linear_velocity(Vec3::new(0.1, 0.0, 0.0)),
        )
        .unwrap();
    for _ in 0..5 {
        w.step(DT).unwrap();
    }
    assert!(w.events().iter().any(|e| e.normal_impulse.z > 1e36));
    w.body_mut(id).unwrap().set_mass(1e-20).unwrap();
    for i in 0..10 {
        w.step(DT)
            .unwrap_or_else(|e| panic!("step {i} after the mass change: {e}"));
        assert!(all_finite(&w));
    }
    // Resting as a light box: no speed beyond what gravity adds in one
    // step (9.8 / 60 m/s).
    let v = w.body(id).unwrap().linear_velocity();
    assert!(v.norm() <= 9.8 * DT, "v = {v:?}");
}

/// A fresh world holding copies of `w`'s bodies, added in the same order
/// (the same ids): the visible state without the warm-start cache.
fn rebuilt(w: &PhysicsWorld) -> PhysicsWorld {
    let mut fresh = PhysicsWorld::new();
    fresh.gravity = w.gravity;
    fresh.collision_detection = w.collision_detection;
    for (id, b) in w.bodies() {
        assert_eq!(fresh.add_body(b.clone()).unwrap(), id);
    }
    fresh
}

/// Ordinary 1 kg spheres in a cluster falling onto the floor, with one
/// more body whose single extreme but accepted value `extreme` sets.
fn cluster(extreme: impl Fn(RigidBody) -> RigidBody) -> PhysicsWorld {
    let mut w = PhysicsWorld::new();
    w.add_body(floor()).unwrap();
    for i in 0..4 {
        let b = RigidBody::new_dynamic(Shape::sphere(0.3).unwrap(), 1.0)
            .unwrap()
            .with_position(Vec3::new(0.5 * (i % 2) as f32, 0.5 * (i / 2) as f32, 0.35))
            .with_linear_velocity(Vec3::new(0.0, 0.0, -2.0))
            .with_angular_velocity(Vec3::new(1.0, -2.0, 0.5));
        w.add_body(b).unwrap();
    }
    let b = RigidBody::new_dynamic(Shape::sphere(0.3).unwrap(), 1.0)
        .unwrap()
        .with_position(Vec3::new(0.25, 0.25, 0.8))
        .with_linear_velocity(Vec3::new(0.3, 0.0, -5.0))
        .with_angular_velocity(Vec3::new(0.0, 3.0, 0.0));
    w.add_body(extreme(b)).unwrap();
    w
}

#[test]
fn clusters_with_one_extreme_body_step_finitely_or_refuse_for_a_visible_reason() {
    // Each step either succeeds with finite bodies and events, or fails
    // leaving the world unchanged, for a reason of the visible state alone:
    // a fresh world of the same bodies (no warm-start cache) refuses the
    // same way.
    type Extreme = fn(RigidBody) -> RigidBody;
    let extremes: [(&str, Extreme); 3] = [
        ("5e-13 kg", |mut b| {
            b.set_mass(5e-13).unwrap();
            b
        }),
        ("inverse tensor 3.4e38", |mut b| {
            b.set_inverse_inertia(Mat3::from_diagonal(&Vec3::new(3.4e38, 3.4e38, 1.0)))
                .unwrap();
            b
        }),
        ("1e38 kg", |mut b| {
            b.set_mass(1e38).unwrap();
            b
        }),
    ];
    for (name, extreme) in extremes {
        let mut w = cluster(extreme);
        let (mut ok, mut refused) = (0, 0);
        for i in 0..60 {
            let before = capture(&w);
            match w.step(DT) {
                Ok(()) => {
                    ok += 1;
                    assert!(all_finite(&w), "{name}, step {i}: {:?}", w.events());
                }
                Err(e) => {
                    refused += 1;
                    assert_eq!(capture(&w), before, "{name}, step {i}: {e}");
                    assert_eq!(rebuilt(&w).step(DT), Err(e.clone()), "{name}, step {i}");
                    // The user's way out: still the bodies (the cluster's
                    // only energy source left is gravity).
                    let ids: Vec<BodyId> = w.bodies().map(|(id, _)| id).collect();
                    for id in ids {
                        let body = w.body_mut(id).unwrap();
                        body.set_linear_velocity(Vec3::zeros());
                        body.set_angular_velocity(Vec3::zeros());
                    }
                }
            }
        }
        println!("{name}: {ok} ok, {refused} refused");
    }
}
