//! Plastic cascades (docs/continuous-collision.md "How a step works"): a
//! body falling onto a resting stack settles in one step without overlap
//! beyond the promised depth or energy gain, forty simultaneous contacts as
//! one event; an elastic stack still bounces.

mod ccd_group_support;
mod world_support;

use ccd_group_support::*;
use parapet_math::Vec3;
use parapet_world::{BodyId, ContactKind, PhysicsWorld};

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

/// The depth (m) no ball ends inside another or the floor beyond: the
/// continuous step's promise for these balls (held contacts may sink by
/// their held depth), plus a few ulps of f32 positions below 12 m.
fn overlap_tolerance() -> f64 {
    parapet::ccd::tolerances::promised_depth(&parapet::shape::Shape::sphere(R).unwrap()) + 1e-5
}

fn assert_no_overlap(w: &PhysicsWorld, ids: &[BodyId]) {
    for (i, a) in ids.iter().enumerate() {
        let pa = w.body(*a).unwrap().position();
        assert!(
            pa.z as f64 >= R as f64 - overlap_tolerance(),
            "ball {i} below the floor: {}",
            pa.z
        );
        for b in &ids[i + 1..] {
            let pb = w.body(*b).unwrap().position();
            let d = (pa.cast::<f64>() - pb.cast::<f64>()).norm();
            assert!(
                d >= 2.0 * R as f64 - overlap_tolerance(),
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
fn a_ball_falling_onto_a_column_of_forty_settles_in_one_impact() {
    // Forty resting balls plus the falling one: 41 simultaneous contacts,
    // far beyond what the old settling solved (ten), solved as one event
    // (one strike, every ball charged once), without overlap beyond the
    // promised depth.
    let (mut w, ids) = stack(40, 40.0, 0.2, 0.0, false);
    w.step(DT).unwrap();
    assert_no_overlap(&w, &ids);
    assert!(w.ccd_report().settled_cascades >= 1, "{:?}", w.ccd_report());
    for id in &ids {
        let v = w.body(*id).unwrap().linear_velocity();
        assert!(v.norm() <= 1e-4, "{v:?}");
        let stats = w.ccd_stats(*id).unwrap();
        assert!(stats.impacts <= 2, "{stats:?}");
    }
}
