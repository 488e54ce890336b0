//! Plastic cascade settling (docs/continuous-collision.md "Moving groups"): a
//! body falling onto a resting stack settles in one step without
//! interpenetration or energy gain; an elastic stack still bounces; eleven
//! simultaneous contacts are refused and the step rolls back bit for bit.

mod ccd_group_support;
mod world_support;

use ccd_group_support::*;
use parapet_math::Vec3;
use parapet_world::{BodyId, ContactKind, PhysicsWorld, StepError};
use world_support::capture;

const DT: f32 = 0.01;
const R: f32 = 0.125;

/// A floor at z = 0 (off its diagonal: one floor triangle) and a resting column of `n` touching balls (radius
/// 0.125 m, centres at 0.125 + 0.25 k: exact in f32), and a ball falling
/// onto it at `speed` from `gap` metres above the top ball.
fn stack(
    n: usize,
    speed: f32,
    gap: f32,
    restitution: f32,
    gravity: bool,
) -> (PhysicsWorld, Vec<BodyId>) {
    let mut w = ccd_world();
    if gravity {
        w.gravity = Vec3::new(0.0, 0.0, -9.8);
    }
    let m = mat(0.0, restitution);
    w.add_body(world_support::floor(5.0, 0.0, m)).unwrap();
    let mut ids = Vec::new();
    for k in 0..n {
        let z = R + 2.0 * R * k as f32;
        ids.push(
            w.add_body(ball(R, 1.0, Vec3::new(1.0, -1.0, z), Vec3::zeros(), m))
                .unwrap(),
        );
    }
    let top = R + 2.0 * R * n as f32 + gap;
    ids.push(
        w.add_body(ball(
            R,
            1.0,
            Vec3::new(1.0, -1.0, top),
            Vec3::new(0.0, 0.0, -speed),
            m,
        ))
        .unwrap(),
    );
    (w, ids)
}

/// Mechanical energy (J): kinetic plus `m g z`.
fn mechanical(w: &PhysicsWorld, ids: &[BodyId]) -> f64 {
    let g = -w.gravity.z as f64;
    kinetic_energy(w, ids)
        + ids
            .iter()
            .map(|id| {
                let b = w.body(*id).unwrap();
                b.mass() as f64 * g * b.position().z as f64
            })
            .sum::<f64>()
}

/// Positions are f32 below 3 m (ulp 2.4e-7 m): a few ulps of overlap.
const OVERLAP_TOLERANCE: f64 = 2e-6;

fn assert_no_overlap(w: &PhysicsWorld, ids: &[BodyId]) {
    for (i, a) in ids.iter().enumerate() {
        let pa = w.body(*a).unwrap().position();
        assert!(
            pa.z as f64 >= R as f64 - OVERLAP_TOLERANCE,
            "ball {i} below the floor: {}",
            pa.z
        );
        for b in &ids[i + 1..] {
            let pb = w.body(*b).unwrap().position();
            let d = (pa.cast::<f64>() - pb.cast::<f64>()).norm();
            assert!(
                d >= 2.0 * R as f64 - OVERLAP_TOLERANCE,
                "overlap {}",
                2.0 * R as f64 - d
            );
        }
    }
}

#[test]
fn a_ball_falling_onto_a_resting_stack_settles_in_one_step() {
    // Stacks of 1..9 resting balls plus the falling one: 2..10 balls, and
    // as many simultaneous contacts (pairs plus the floor).
    for n in 1..=9 {
        for gravity in [false, true] {
            // 40 m/s from 0.2 m: impact at t = 0.5 of the step (r/dt = 12.5 m/s).
            let (mut w, ids) = stack(n, 40.0, 0.2, 0.0, gravity);
            let e0 = mechanical(&w, &ids);
            w.step(DT).unwrap();
            assert_no_overlap(&w, &ids);
            // Settled: nothing moves faster than one step of gravity.
            for id in &ids {
                let v = w.body(*id).unwrap().linear_velocity();
                assert!(v.norm() <= 9.8 * DT + 1e-4, "n {n}: {v:?}");
            }
            let swept = w
                .events()
                .iter()
                .filter(|e| e.kind == ContactKind::Swept)
                .count();
            assert!(swept > n, "n {n}: {swept} swept events");
            // Energy: the semi-implicit gravity step changes mechanical
            // energy by at most m g^2 dt^2 per ball (0.0096 J); no gain
            // beyond that.
            let e1 = mechanical(&w, &ids);
            let slack = ids.len() as f64 * 9.8 * 9.8 * (DT as f64).powi(2);
            assert!(e1 <= e0 + slack, "n {n} gravity {gravity}: {e0} -> {e1}");
            // The following steps rest without error or overlap.
            for _ in 0..20 {
                w.step(DT).unwrap();
                assert_no_overlap(&w, &ids);
            }
        }
    }
}

#[test]
fn an_elastic_stack_still_bounces() {
    // Exchange down the column, rebound from the floor, exchange back up:
    // the falling ball leaves upwards at its incoming speed; the stack rests.
    let (mut w, ids) = stack(3, 20.0, 0.1, 1.0, false);
    w.step(DT).unwrap();
    let top = w.body(*ids.last().unwrap()).unwrap().linear_velocity();
    assert!((top.z - 20.0).abs() < 1e-4, "{top:?}");
    for id in &ids[..3] {
        assert!(w.body(*id).unwrap().linear_velocity().norm() < 1e-4);
    }
    assert_no_overlap(&w, &ids);
}

#[test]
fn eleven_simultaneous_contacts_are_refused_and_the_step_rolls_back() {
    let (mut w, ids) = stack(10, 40.0, 0.2, 0.0, false);
    let before = capture(&w);
    match w.step(DT).unwrap_err() {
        StepError::Unresolvable {
            body,
            contacts,
            limit,
            ..
        } => {
            assert_eq!((contacts, limit), (11, 10));
            assert!(ids.contains(&body));
        }
        other => panic!("expected Unresolvable, got {other}"),
    }
    assert_eq!(capture(&w), before, "the failed step changed the world");
    // Ten are accepted (the previous test), so the limit is exactly ten.
}
