//! Limits of a turning box or hull under SPHERE_MESH_CCD: exhausting
//! `ccd_max_substeps` or `ccd_max_impacts` returns `SubstepLimit` or
//! `ImpactLimit` naming the body, its count and the limit; the failed step
//! leaves the world bit for bit as it was, pending forces and torques
//! included; and the step retried with the default limits matches, bit for
//! bit, a world that never failed, as do the steps after it.
//!
//! Each case tumbles the solid onto a rough terrain with a pending force
//! and torque added before every step, and steps it with the low limit
//! until a step fails (the test asserts one does, so it is not vacuous).

#[path = "world_support/mod.rs"]
mod world_support;

use parapet_geometry::{Material, Shape};
use parapet_math::{Quat, Vec3};
use parapet_scenes::terrain::HeightField;
use parapet_solver::RigidBody;
use parapet_world::{BodyId, PhysicsWorld, StepError, SPHERE_MESH_CCD};
use world_support::capture;

const DT: f32 = 1.0 / 60.0;

#[derive(Clone, Copy, Debug, PartialEq)]
enum Limit {
    Substeps,
    Impacts,
}

fn hull() -> Shape {
    // An irregular crate: a box with two corners cut and an apex.
    Shape::convex_hull(&[
        Vec3::new(-0.4, -0.25, -0.2),
        Vec3::new(0.4, -0.25, -0.2),
        Vec3::new(0.4, 0.25, -0.2),
        Vec3::new(-0.3, 0.25, -0.2),
        Vec3::new(-0.4, -0.25, 0.2),
        Vec3::new(0.3, -0.25, 0.2),
        Vec3::new(0.4, 0.25, 0.2),
        Vec3::new(-0.4, 0.25, 0.2),
        Vec3::new(0.0, 0.0, 0.32),
    ])
    .unwrap()
}

fn world(shape: Shape) -> (PhysicsWorld, BodyId) {
    let field = HeightField::generate(5, 24, 24, 0.5, 0.2);
    let m = Material::new(0.3, 0.6, 0.5).unwrap();
    let mut w = PhysicsWorld::new();
    w.collision_detection = SPHERE_MESH_CCD;
    w.add_body(RigidBody::new_static(field.mesh().unwrap()).with_material(m))
        .unwrap();
    let id = w
        .add_body(
            RigidBody::new_dynamic(shape, 40.0)
                .unwrap()
                .with_material(m)
                .with_rotation(Quat::from_scaled_axis(Vec3::new(0.3, 0.7, -0.2)))
                .with_position(Vec3::new(0.0, 0.0, 0.8))
                .with_linear_velocity(Vec3::new(3.0, -1.0, -12.0))
                .with_angular_velocity(Vec3::new(9.0, -14.0, 5.0)),
        )
        .unwrap();
    (w, id)
}

/// Loads the body with a pending force and torque (different each step).
fn push(w: &mut PhysicsWorld, id: BodyId, step: usize) {
    let b = w.body_mut(id).unwrap();
    b.add_force(Vec3::new(20.0 + step as f32, -15.0, 30.0));
    b.add_torque(Vec3::new(-2.0, 3.0 + 0.1 * step as f32, 1.0));
}

fn fails_and_rolls_back(shape: Shape, limit: Limit) {
    let (mut w, id) = world(shape);
    for step in 0..120 {
        push(&mut w, id, step);
        let mut control = w.clone();
        match limit {
            Limit::Substeps => w.ccd_max_substeps = 1,
            Limit::Impacts => w.ccd_max_impacts = 1,
        }
        let before = capture(&w);
        let Err(err) = w.step(DT) else {
            // Not exhausted: the low limit changed nothing.
            control.step(DT).unwrap();
            w.ccd_max_substeps = control.ccd_max_substeps;
            w.ccd_max_impacts = control.ccd_max_impacts;
            assert_eq!(capture(&w), capture(&control), "step {step}");
            continue;
        };
        match (&err, limit) {
            (
                StepError::SubstepLimit {
                    body,
                    substeps,
                    limit,
                },
                Limit::Substeps,
            ) => assert_eq!((*body, *substeps, *limit), (id, 1, 1), "{err}"),
            (
                StepError::ImpactLimit {
                    body,
                    impacts,
                    limit,
                },
                Limit::Impacts,
            ) => assert_eq!((*body, *impacts, *limit), (id, 1, 1), "{err}"),
            _ => panic!("step {step}: expected {limit:?}, got {err}"),
        }
        // Bit for bit as before, the pending force and torque still there.
        assert_eq!(
            capture(&w),
            before,
            "step {step}: the failed step changed the world"
        );
        let b = w.body(id).unwrap();
        assert!(b.force() != Vec3::zeros() && b.torque() != Vec3::zeros());
        // Retried with the default limits: the world that never failed.
        w.ccd_max_substeps = control.ccd_max_substeps;
        w.ccd_max_impacts = control.ccd_max_impacts;
        for later in 0..10 {
            w.step(DT).unwrap();
            control.step(DT).unwrap();
            assert_eq!(capture(&w), capture(&control), "step {step} + {later}");
            assert_eq!(
                w.ccd_stats(id).map(|s| s.substeps),
                control.ccd_stats(id).map(|s| s.substeps)
            );
            push(&mut w, id, step + later + 1);
            push(&mut control, id, step + later + 1);
        }
        return;
    }
    panic!("no step exhausted the {limit:?} limit");
}

#[test]
fn a_box_that_exhausts_its_substeps_is_rolled_back_and_retried_bit_for_bit() {
    fails_and_rolls_back(
        Shape::cuboid(Vec3::new(0.4, 0.25, 0.2)).unwrap(),
        Limit::Substeps,
    );
}

#[test]
fn a_box_that_exhausts_its_impacts_is_rolled_back_and_retried_bit_for_bit() {
    fails_and_rolls_back(
        Shape::cuboid(Vec3::new(0.4, 0.25, 0.2)).unwrap(),
        Limit::Impacts,
    );
}

#[test]
fn a_hull_that_exhausts_its_substeps_is_rolled_back_and_retried_bit_for_bit() {
    fails_and_rolls_back(hull(), Limit::Substeps);
}

#[test]
fn a_hull_that_exhausts_its_impacts_is_rolled_back_and_retried_bit_for_bit() {
    fails_and_rolls_back(hull(), Limit::Impacts);
}
