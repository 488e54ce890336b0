//! Kinematic spheres in SPHERE_MESH_CCD groups (docs/continuous-collision.md
//! "Supported worlds", "Moving groups"): they strike dynamic spheres as infinite masses and
//! keep the pose their velocity gives; each strike raises a dynamic speed by
//! at most twice the kinematic speed; they pass through static meshes; a
//! dynamic sphere driven into a mesh is refused and the step rolls back.

mod ccd_group_support;
mod world_support;

use ccd_group_support::*;
use parapet_geometry::Shape;
use parapet_math::Vec3;
use parapet_solver::RigidBody;
use parapet_world::{BodyId, ContactKind, PhysicsWorld, StepError};
use world_support::{body_bits, capture};

const DT: f32 = 0.01;

fn kinematic(r: f32, p: Vec3, v: Vec3, restitution: f32) -> RigidBody {
    RigidBody::new_kinematic(Shape::sphere(r).unwrap())
        .with_position(p)
        .with_linear_velocity(v)
        .with_material(mat(0.3, restitution))
}

/// A kinematic sphere at 30 m/s and a row of dynamic spheres in its path.
fn striker(n: usize, restitution: f32, with_targets: bool) -> (PhysicsWorld, BodyId, Vec<BodyId>) {
    let mut w = ccd_world();
    let k = w
        .add_body(kinematic(
            0.2,
            Vec3::new(-1.0, 0.0, 0.0),
            Vec3::new(30.0, 0.0, 0.0),
            restitution,
        ))
        .unwrap();
    let mut ids = Vec::new();
    if with_targets {
        for i in 0..n {
            let p = Vec3::new(0.5 * i as f32, 0.01 * i as f32, 0.0);
            let v = Vec3::new(-3.0 + i as f32, 0.0, 0.0);
            ids.push(
                w.add_body(ball(0.1, 1.0 + i as f32, p, v, mat(0.3, restitution)))
                    .unwrap(),
            );
        }
    }
    (w, k, ids)
}

#[test]
fn a_kinematic_sphere_keeps_its_pose_and_gains_each_target_at_most_twice_its_speed() {
    for e in [0.0, 0.5, 1.0] {
        let (mut w, k, ids) = striker(3, e, true);
        let (mut alone, ka, _) = striker(3, e, false);
        let vk = 30.0f64;
        let mut struck = 0;
        for step in 0..10 {
            let speeds: Vec<f64> = ids
                .iter()
                .map(|id| w.body(*id).unwrap().linear_velocity().cast::<f64>().norm())
                .collect();
            w.step(DT).unwrap();
            alone.step(DT).unwrap();
            // The kinematic pose is the one its velocity gives: bit for bit
            // as in a world without targets.
            assert_eq!(
                body_bits(w.body(k).unwrap()),
                body_bits(alone.body(ka).unwrap()),
                "e {e} step {step}"
            );
            for (id, s0) in ids.iter().zip(&speeds) {
                let strikes = w
                    .events()
                    .iter()
                    .filter(|ev| {
                        ev.kind == ContactKind::Swept
                            && ((ev.body_a == k && ev.body_b == *id)
                                || (ev.body_a == *id && ev.body_b == k))
                    })
                    .count();
                struck += strikes;
                let others = w
                    .events()
                    .iter()
                    .filter(|ev| ev.body_a == *id || ev.body_b == *id)
                    .count();
                let s1 = w.body(*id).unwrap().linear_velocity().cast::<f64>().norm();
                // Only strikes by the kinematic sphere can add speed to a
                // ball hit by nothing else; f32 rounding: 1e-5 relative.
                if others == strikes {
                    assert!(
                        s1 <= s0 + 2.0 * vk * strikes as f64 + 1e-5 * (s0 + vk),
                        "e {e} step {step}: {s0} -> {s1} after {strikes} strikes"
                    );
                }
            }
        }
        assert!(struck >= 1, "e {e}: the kinematic sphere struck nothing");
    }
}

#[test]
fn an_elastic_strike_on_a_resting_sphere_gives_exactly_twice_the_kinematic_speed() {
    let mut w = ccd_world();
    let k = w
        .add_body(kinematic(
            0.2,
            Vec3::new(-1.0, 0.0, 0.0),
            Vec3::new(30.0, 0.0, 0.0),
            1.0,
        ))
        .unwrap();
    let d = w
        .add_body(ball(0.1, 1.0, Vec3::zeros(), Vec3::zeros(), mat(0.0, 1.0)))
        .unwrap();
    // Gap 0.7 m at 0.3 m per step: the strike comes in the third step.
    for _ in 0..3 {
        w.step(DT).unwrap();
    }
    assert_eq!(
        w.body(d).unwrap().linear_velocity(),
        Vec3::new(60.0, 0.0, 0.0)
    );
    assert_eq!(
        w.body(k).unwrap().linear_velocity(),
        Vec3::new(30.0, 0.0, 0.0)
    );
    // Clear of the striker.
    let gap = w.body(d).unwrap().position().x - w.body(k).unwrap().position().x;
    assert!(gap >= 0.3 - 1e-6, "{gap}");
}

#[test]
fn a_kinematic_sphere_passes_through_static_meshes() {
    let mut w = ccd_world();
    w.add_body(world_support::floor(5.0, 0.0, mat(0.5, 0.0)))
        .unwrap();
    let k = w
        .add_body(kinematic(
            0.2,
            Vec3::new(0.3, 0.2, 0.5),
            Vec3::new(0.0, 0.0, -100.0),
            0.0,
        ))
        .unwrap();
    w.step(DT).unwrap();
    assert!((w.body(k).unwrap().position().z - -0.5).abs() < 1e-6);
    assert!(w.events().is_empty());
}

#[test]
fn a_sphere_driven_into_the_floor_by_a_kinematic_sphere_is_refused_and_rolls_back() {
    for gravity in [false, true] {
        let mut w = ccd_world();
        if gravity {
            w.gravity = Vec3::new(0.0, 0.0, -9.8);
        }
        w.add_body(world_support::floor(5.0, 0.0, mat(0.5, 0.0)))
            .unwrap();
        let d = w
            .add_body(ball(
                0.1,
                1.0,
                Vec3::new(1.0, -1.0, 0.1),
                Vec3::zeros(),
                mat(0.5, 0.0),
            ))
            .unwrap();
        w.add_body(kinematic(
            0.2,
            Vec3::new(1.0, -1.0, 0.6),
            Vec3::new(0.0, 0.0, -40.0),
            0.0,
        ))
        .unwrap();
        let before = capture(&w);
        match w.step(DT).unwrap_err() {
            StepError::Unresolvable { body, contacts, .. } => {
                assert_eq!(body, d);
                assert_eq!(contacts, 2);
            }
            other => panic!("expected Unresolvable, got {other}"),
        }
        assert_eq!(capture(&w), before, "gravity {gravity}: not rolled back");
        // A retry fails the same way, and a world without the drive steps.
        assert!(matches!(w.step(DT), Err(StepError::Unresolvable { .. })));
    }
}
