//! A lying capsule spun fast about the vertical next to a wall, without
//! gravity (docs/turning-bodies.md: a shape that turns quickly near a
//! surface needs many sub-steps). Its ends sweep circles that reach
//! the wall: the arbiter approaches each pass of a tip in several
//! iterations, strikes the wall and never passes through it. With a too-small `ccd_max_substeps` the step fails
//! with `StepError::SubstepLimit` naming the body, the count and the limit,
//! leaves the world bit for bit unchanged, and a retried step with the
//! default limit matches a world that never failed, bit for bit.

mod ccd_turning_support;
#[path = "world_support/mod.rs"]
mod world_support;

use ccd_turning_support::{
    allowance, deepest_front_overlap, mat, plate, rotation, turning_capsule, world_segment,
};
use parapet_math::Vec3;
use parapet_world::{BodyId, PhysicsWorld, StepError, SPHERE_MESH_CCD};
use world_support::capture;

const RADIUS: f32 = 0.1;
const HALF: f32 = 0.5;
/// The wall plane x = WALL faces -x; the capsule's tip reaches
/// HALF + RADIUS = 0.6 m from its centre, so the wall at 0.55 m is struck.
const WALL: f32 = 0.55;

fn world(spin: f32, wall_x: f32) -> (PhysicsWorld, BodyId, Vec<[Vec3; 3]>) {
    let mut w = PhysicsWorld::new();
    w.collision_detection = SPHERE_MESH_CCD;
    w.gravity = Vec3::zeros();
    let wall = plate(
        Vec3::new(wall_x, 0.0, 0.0),
        -Vec3::x(),
        5.0,
        mat(0.3, 0.5, 0.5),
    );
    let wid = w.add_body(wall).unwrap();
    let tris = w.mesh_snapshot(wid).unwrap().to_vec();
    // Lying along y (tips at y = +-0.5), spinning about z: the tip turns
    // towards +x and meets the wall after about 1.15 rad.
    let c = turning_capsule(RADIUS, HALF, 1.0)
        .with_rotation(rotation(Vec3::new(std::f32::consts::FRAC_PI_2, 0.0, 0.0)))
        .with_angular_velocity(Vec3::new(0.0, 0.0, spin));
    let id = w.add_body(c).unwrap();
    (w, id, tris)
}

/// Steps the capsule for 30 steps of 1/60 s at 150 rad/s next to the wall
/// at `wall_x`, checking the clearance oracle after every step; returns
/// (sub-steps of the busiest step, all sub-steps, whether any event).
fn spin_next_to(wall_x: f32) -> (u32, u32, bool) {
    let (mut w, id, tris) = world(150.0, wall_x);
    let (mut most, mut total, mut struck) = (0, 0, false);
    for _ in 0..30 {
        w.step(1.0 / 60.0).unwrap();
        let n = w.ccd_stats(id).map(|s| s.substeps).unwrap();
        total += n;
        most = most.max(n);
        struck |= !w.events().is_empty();
        let b = w.body(id).unwrap();
        let over = deepest_front_overlap(b, &tris);
        assert!(
            over <= allowance(b),
            "wall {wall_x}: overlap {over} m beyond {} m",
            allowance(b)
        );
        // Never behind the wall: both segment ends stay in front.
        for e in world_segment(b) {
            assert!(
                e.x < wall_x as f64,
                "wall {wall_x}: end {e:?} passed the wall"
            );
        }
    }
    (most, total, struck)
}

#[test]
fn a_capsule_spun_fast_just_clear_of_a_wall_takes_many_substeps_without_touching_it() {
    // The tip's cap reaches x = 0.6 m: walls 10 and 1 mm beyond it. The
    // capsule turns 2.5 rad per step, so its tips pass the wall about once
    // a step; each pass near the wall takes the arbiter more than one
    // iteration (a body moving freely away from everything takes one), so
    // the 30 steps take at least two a step.
    for wall_x in [0.61, 0.601] {
        let (most, total, struck) = spin_next_to(wall_x);
        assert!(
            !struck,
            "wall {wall_x}: a tip that only passes by took an impact"
        );
        assert!(most >= 2, "wall {wall_x}: busiest step {most} iterations");
        assert!(total >= 60, "wall {wall_x}: {total} iterations in 30 steps");
    }
}

#[test]
fn a_capsule_spun_fast_into_a_wall_strikes_it_and_never_passes_through() {
    // Grazing (the tip reaches 5 mm into the wall's plane) and deep (50 mm).
    for wall_x in [0.595, WALL] {
        let (_, _, struck) = spin_next_to(wall_x);
        assert!(struck, "wall {wall_x}: the tip should strike the wall");
    }
}

#[test]
fn too_few_substeps_fail_with_rollback_and_a_retry_matches_a_world_that_never_failed() {
    let (mut w, id, _) = world(60.0, WALL);
    // Bring the tip next to the wall first.
    for _ in 0..1 {
        w.step(1.0 / 60.0).unwrap();
    }
    let mut control = w.clone();
    w.ccd_max_substeps = 1;
    let before = capture(&w);
    let err = w.step(1.0 / 60.0).unwrap_err();
    match &err {
        StepError::SubstepLimit {
            body,
            substeps,
            limit,
        } => {
            assert_eq!(*body, id);
            assert_eq!(*limit, 1);
            // The iterations the query took when it ran out (over the
            // shortest window it was asked again over).
            assert_eq!(*substeps, 1);
        }
        other => panic!("expected SubstepLimit, got {other}"),
    }
    let msg = err.to_string();
    assert!(
        msg.contains("ccd_max_substeps = 1") && msg.contains("so far: 1"),
        "{msg}"
    );
    assert_eq!(capture(&w), before, "the failed step changed the world");
    // Retried with the default limit, the step matches the world that never
    // failed, bit for bit, and so does every later step.
    w.ccd_max_substeps = control.ccd_max_substeps;
    for _ in 0..10 {
        w.step(1.0 / 60.0).unwrap();
        control.step(1.0 / 60.0).unwrap();
        assert_eq!(capture(&w), capture(&control));
        assert_eq!(
            w.ccd_stats(id).map(|s| s.substeps),
            control.ccd_stats(id).map(|s| s.substeps)
        );
    }
}

#[test]
fn the_substep_limit_is_validated_at_step_entry() {
    let (mut w, _, _) = world(60.0, WALL);
    for bad in [0, 65537] {
        w.ccd_max_substeps = bad;
        let before = capture(&w);
        let err = w.step(1.0 / 60.0).unwrap_err();
        assert!(
            matches!(
                err,
                StepError::InvalidConfig {
                    quantity: "ccd_max_substeps",
                    ..
                }
            ),
            "{err}"
        );
        assert_eq!(capture(&w), before);
    }
    for good in [1, 65536] {
        w.ccd_max_substeps = good;
        let mut probe = w.clone();
        // 1 may fail with SubstepLimit near the wall, never as a config error.
        if let Err(e) = probe.step(1.0 / 60.0) {
            assert!(matches!(e, StepError::SubstepLimit { .. }), "{e}");
        }
    }
}
