//! Moving pairs in SPHERE_MESH_CCD (docs/continuous-collision.md "Moving
//! groups"): head-on spheres and rotation-locked capsules at speeds far above
//! radius / dt never pass through each other, conserve momentum, never gain
//! kinetic energy, and follow restitution 0 and 1; Newton's cradle; a
//! plastic chain; determinism and insertion-equivalent orders; pair routing.

mod ccd_group_support;
mod world_support;

use ccd_group_support::*;
use parapet_math::{Quat, Vec3};
use parapet_world::{BodyId, ContactKind, PhysicsWorld};
use world_support::body_bits;

const DT: f32 = 0.01;

/// Momentum tolerance: every stored velocity component is an `f32`, rounded
/// once per impulse (half an ulp, 2^-24 relative) and possibly moved one
/// more ulp by the normal reconstruction (2^-23); a few impulses per step
/// and a few steps stay below 16 epsilons of the scale `Σ m |v_k|`.
fn momentum_tolerance(scale: f64) -> f64 {
    16.0 * f32::EPSILON as f64 * scale
}

/// Energy tolerance: the ideal response is dissipative; the stored `f32`
/// velocities may exceed it by their rounding, relative 2^-23 per velocity,
/// so 2^-23 * 8 of the energy (16 relative epsilons of the squared speeds).
fn energy_tolerance(e: f64) -> f64 {
    16.0 * f32::EPSILON as f64 * e
}

struct Scene {
    w: PhysicsWorld,
    a: BodyId,
    b: BodyId,
    shape: (f32, f32, f32, f32),
    /// Exactly head on (centres on the x line): the order along x must
    /// hold. An offset pair may slide round each other and pass by.
    head_on: bool,
}

fn spheres(speed: f32, restitution: f32, friction: f32, mass_b: f32, offset: f32) -> Scene {
    let mut w = ccd_world();
    let m = mat(friction, restitution);
    let a = w
        .add_body(ball(
            0.1,
            1.0,
            Vec3::new(-1.0, 0.0, 0.0),
            Vec3::new(speed, 0.0, 0.0),
            m,
        ))
        .unwrap();
    let b = w
        .add_body(ball(
            0.1,
            mass_b,
            Vec3::new(1.0, offset, 0.0),
            Vec3::new(-speed, 0.0, 0.0),
            m,
        ))
        .unwrap();
    Scene {
        w,
        a,
        b,
        shape: (0.1, 0.0, 0.1, 0.0),
        head_on: offset == 0.0,
    }
}

fn capsules(speed: f32, restitution: f32, crossed: bool, offset: f32) -> Scene {
    let mut w = ccd_world();
    let m = mat(0.4, restitution);
    // A's axis along y; B's along y or z (crossed); both move along x.
    let ry = Quat::from_axis_angle(&Vec3::x_axis(), std::f32::consts::FRAC_PI_2);
    let rb = if crossed { Quat::identity() } else { ry };
    let a = w
        .add_body(locked_capsule(
            0.05,
            0.3,
            1.0,
            Vec3::new(-1.0, 0.0, 0.0),
            ry,
            Vec3::new(speed, 0.0, 0.0),
            m,
        ))
        .unwrap();
    let b = w
        .add_body(locked_capsule(
            0.05,
            0.3,
            2.0,
            Vec3::new(1.0, offset, offset),
            rb,
            Vec3::new(-speed, 0.0, 0.0),
            m,
        ))
        .unwrap();
    Scene {
        w,
        a,
        b,
        shape: (0.05, 0.3, 0.05, 0.3),
        head_on: offset == 0.0,
    }
}

/// Steps the scene `steps` times checking, at every step end, the exact
/// clearance, the order along the approach line (x), momentum and energy.
fn run_checked(s: &mut Scene, steps: usize) -> usize {
    let ids = [s.a, s.b];
    let p0 = momentum(&s.w, &ids);
    let scale = momentum_scale(&s.w, &ids);
    let mut e = kinetic_energy(&s.w, &ids);
    let mut swept = 0;
    for step in 0..steps {
        s.w.step(DT).unwrap();
        swept +=
            s.w.events()
                .iter()
                .filter(|e| e.kind == ContactKind::Swept)
                .count();
        let (ba, bb) = (s.w.body(s.a).unwrap(), s.w.body(s.b).unwrap());
        let (ra, ha, rb, hb) = s.shape;
        let gap = clearance(ba, ra, ha, bb, rb, hb);
        // Positions are f32 near 1 m (ulp 1.2e-7 m): a touching end state
        // may round into overlap by a few ulps, never more.
        assert!(gap > -1e-6, "step {step}: the bodies overlap by {}", -gap);
        assert!(
            !s.head_on || ba.position().x < bb.position().x,
            "step {step}: the order along x flipped: {} vs {}",
            ba.position().x,
            bb.position().x
        );
        let p = momentum(&s.w, &ids);
        for k in 0..3 {
            assert!(
                (p[k] - p0[k]).abs() <= momentum_tolerance(scale),
                "step {step}: momentum {k} moved from {} to {}",
                p0[k],
                p[k]
            );
        }
        let e1 = kinetic_energy(&s.w, &ids);
        assert!(
            e1 <= e + energy_tolerance(e),
            "step {step}: energy {e} -> {e1}"
        );
        e = e1;
    }
    swept
}

#[test]
fn head_on_spheres_far_faster_than_radius_per_step_never_pass_through() {
    // r / dt = 10 m/s; closing at 2 x 150 m/s the pair crosses 30 radii a step.
    for speed in [40.0, 150.0, 600.0] {
        for (e, mu, mb) in [
            (0.0, 0.0, 1.0),
            (1.0, 0.0, 1.0),
            (0.5, 0.7, 3.0),
            (1.0, 0.3, 0.25),
        ] {
            for offset in [0.0, 0.02, 0.15] {
                let mut s = spheres(speed, e, mu, mb, offset);
                let swept = run_checked(&mut s, 20);
                assert!(
                    swept >= 1,
                    "speed {speed} e {e} offset {offset}: no swept impact"
                );
            }
        }
    }
}

#[test]
fn elastic_equal_spheres_exchange_velocities_and_plastic_ones_move_together() {
    // Exactly head on (no offset): 1D collision.
    let mut w = ccd_world();
    let m1 = mat(0.0, 1.0);
    let a = w
        .add_body(ball(
            0.1,
            1.0,
            Vec3::new(-0.5, 0.0, 0.0),
            Vec3::new(100.0, 0.0, 0.0),
            m1,
        ))
        .unwrap();
    let b = w
        .add_body(ball(
            0.1,
            1.0,
            Vec3::new(0.5, 0.0, 0.0),
            Vec3::new(-60.0, 0.0, 0.0),
            m1,
        ))
        .unwrap();
    w.step(DT).unwrap();
    assert_eq!(
        w.body(a).unwrap().linear_velocity(),
        Vec3::new(-60.0, 0.0, 0.0)
    );
    assert_eq!(
        w.body(b).unwrap().linear_velocity(),
        Vec3::new(100.0, 0.0, 0.0)
    );
    let ev: Vec<_> = w
        .events()
        .iter()
        .filter(|e| e.kind == ContactKind::Swept)
        .collect();
    assert_eq!(ev.len(), 1);
    // Gap 0.8 m closing 1.6 m per step: they meet at t = 0.5, and B (body
    // b of the event, inserted second) takes 160 kg m/s along +x.
    assert!((ev[0].time - 0.5).abs() < 1e-6, "{:?}", ev[0]);
    assert!((ev[0].normal_impulse.x - 160.0).abs() < 1e-3, "{:?}", ev[0]);

    let m0 = mat(0.0, 0.0);
    let mut w = ccd_world();
    let a = w
        .add_body(ball(
            0.1,
            1.0,
            Vec3::new(-0.5, 0.0, 0.0),
            Vec3::new(100.0, 0.0, 0.0),
            m0,
        ))
        .unwrap();
    let b = w
        .add_body(ball(0.1, 3.0, Vec3::new(0.5, 0.0, 0.0), Vec3::zeros(), m0))
        .unwrap();
    w.step(DT).unwrap();
    // Common velocity 100 / 4 = 25 m/s.
    let (va, vb) = (
        w.body(a).unwrap().linear_velocity(),
        w.body(b).unwrap().linear_velocity(),
    );
    assert!(
        (va.x - 25.0).abs() < 1e-5 && (vb.x - 25.0).abs() < 1e-5,
        "{va:?} {vb:?}"
    );
    assert!(va.x <= vb.x, "a plastic pair never closes after the impact");
    let gap = w.body(b).unwrap().position().x - w.body(a).unwrap().position().x - 0.2;
    assert!(
        gap.abs() < 1e-6,
        "they travel together, touching: gap {gap}"
    );
}

#[test]
fn rotation_locked_capsules_never_pass_through_each_other() {
    for speed in [30.0, 200.0] {
        for e in [0.0, 1.0] {
            for (crossed, offset) in [(false, 0.0), (true, 0.0), (false, 0.05), (true, 0.05)] {
                let mut s = capsules(speed, e, crossed, offset);
                let swept = run_checked(&mut s, 20);
                assert!(
                    swept >= 1,
                    "speed {speed} e {e} crossed {crossed}: no swept impact"
                );
                // They never turn.
                for id in [s.a, s.b] {
                    assert_eq!(s.w.body(id).unwrap().angular_velocity(), Vec3::zeros());
                }
            }
        }
    }
}

/// A row of `n` touching balls (radius 0.125 m, spacing 0.25 m: exact in
/// f32) and a striker 1 m to the left moving at 50 m/s.
fn row(n: usize, restitution: f32) -> (PhysicsWorld, Vec<BodyId>) {
    let mut w = ccd_world();
    let m = mat(0.0, restitution);
    let mut ids = vec![w
        .add_body(ball(
            0.125,
            1.0,
            Vec3::new(-1.0, 0.0, 0.0),
            Vec3::new(50.0, 0.0, 0.0),
            m,
        ))
        .unwrap()];
    for k in 0..n {
        ids.push(
            w.add_body(ball(
                0.125,
                1.0,
                Vec3::new(0.25 * k as f32, 0.0, 0.0),
                Vec3::zeros(),
                m,
            ))
            .unwrap(),
        );
    }
    (w, ids)
}

#[test]
fn newtons_cradle_transmits_the_impulse_to_the_last_ball() {
    let (mut w, ids) = row(4, 1.0);
    w.step(DT).unwrap();
    w.step(DT).unwrap();
    let v: Vec<f32> = ids
        .iter()
        .map(|id| w.body(*id).unwrap().linear_velocity().x)
        .collect();
    // Equal elastic balls: each impact exchanges velocities exactly.
    assert_eq!(v, vec![0.0, 0.0, 0.0, 0.0, 50.0], "{v:?}");
    for pair in ids.windows(2) {
        let gap = w.body(pair[1]).unwrap().position().x - w.body(pair[0]).unwrap().position().x;
        assert!(gap >= 0.25 - 1e-6, "overlap {gap}");
    }
}

#[test]
fn a_plastic_chain_moves_together() {
    let (mut w, ids) = row(4, 0.0);
    let p0 = momentum(&w, &ids);
    let e0 = kinetic_energy(&w, &ids);
    w.step(DT).unwrap();
    w.step(DT).unwrap();
    // Five equal balls share 50 kg m/s: 10 m/s each.
    for id in &ids {
        let v = w.body(*id).unwrap().linear_velocity();
        assert!(
            (v.x - 10.0).abs() < 1e-4 && v.y == 0.0 && v.z == 0.0,
            "{v:?}"
        );
    }
    let p = momentum(&w, &ids);
    assert!((p[0] - p0[0]).abs() < momentum_tolerance(50.0));
    assert!(kinetic_energy(&w, &ids) <= e0);
    for pair in ids.windows(2) {
        let gap = w.body(pair[1]).unwrap().position().x - w.body(pair[0]).unwrap().position().x;
        assert!(gap >= 0.25 - 1e-6, "overlap {gap}");
    }
}

fn bits(w: &PhysicsWorld, ids: &[BodyId]) -> Vec<Vec<u64>> {
    ids.iter()
        .map(|id| body_bits(w.body(*id).unwrap()))
        .collect()
}

#[test]
fn the_same_scene_gives_the_same_bits_and_mesh_insertion_order_does_not_matter() {
    let run = |floor_first: bool| {
        let mut w = ccd_world();
        let floor = world_support::floor(20.0, -5.0, mat(0.5, 0.0));
        if floor_first {
            w.add_body(floor.clone()).unwrap();
        }
        let (_, mut ids) = (0, Vec::new());
        let m = mat(0.3, 0.6);
        ids.push(
            w.add_body(ball(
                0.1,
                1.0,
                Vec3::new(-1.0, 0.0, 0.0),
                Vec3::new(90.0, 3.0, -40.0),
                m,
            ))
            .unwrap(),
        );
        if !floor_first {
            w.add_body(floor).unwrap();
        }
        ids.push(
            w.add_body(ball(
                0.2,
                2.0,
                Vec3::new(1.0, 0.05, 0.0),
                Vec3::new(-70.0, 0.0, -40.0),
                m,
            ))
            .unwrap(),
        );
        ids.push(
            w.add_body(ball(
                0.1,
                1.0,
                Vec3::new(0.0, 0.6, 0.0),
                Vec3::new(0.0, -50.0, -40.0),
                m,
            ))
            .unwrap(),
        );
        let mut trace = Vec::new();
        for _ in 0..30 {
            w.step(DT).unwrap();
            trace.push(bits(&w, &ids));
        }
        trace
    };
    let first = run(true);
    assert_eq!(first, run(true), "repeat run");
    assert_eq!(first, run(false), "mesh inserted between the spheres");
}

#[test]
fn slow_pairs_keep_the_speculative_contact_and_fast_ones_go_to_the_sweep() {
    // 5 mm apart (inside the contact margin): closing at 0.5 m/s moves 5 mm
    // a step, below the margin: an initial (speculative) contact. At 50 m/s
    // the sweep takes it: a swept event and no initial one.
    for (speed, kind) in [(0.5, ContactKind::Initial), (50.0, ContactKind::Swept)] {
        let mut w = ccd_world();
        let m = mat(0.0, 0.0);
        w.add_body(ball(
            0.1,
            1.0,
            Vec3::new(0.0, 0.0, 0.0),
            Vec3::new(speed, 0.0, 0.0),
            m,
        ))
        .unwrap();
        w.add_body(ball(0.1, 1.0, Vec3::new(0.205, 0.0, 0.0), Vec3::zeros(), m))
            .unwrap();
        w.step(DT).unwrap();
        let kinds: Vec<_> = w.events().iter().map(|e| e.kind).collect();
        assert_eq!(kinds, vec![kind], "speed {speed}");
    }
}

#[test]
fn cradle_events_keep_pass_order_at_one_instant() {
    // Striker -> 1 -> 2 -> 3 -> 4: four swept events at one time, in the
    // order the passes applied them (the report sorts stably by time).
    let (mut w, ids) = row(4, 1.0);
    w.step(DT).unwrap();
    w.step(DT).unwrap();
    let swept: Vec<_> = w
        .events()
        .iter()
        .filter(|e| e.kind == ContactKind::Swept)
        .collect();
    let pairs: Vec<(BodyId, BodyId)> = swept.iter().map(|e| (e.body_a, e.body_b)).collect();
    let expected: Vec<(BodyId, BodyId)> = ids.windows(2).map(|p| (p[0], p[1])).collect();
    assert_eq!(pairs, expected);
    assert!(swept.iter().all(|e| e.time == swept[0].time));
    // Each event pushes body B along +x (the normal from A to B).
    for e in &swept {
        assert!(e.normal.x > 0.99 && e.normal_impulse.x > 0.0, "{e:?}");
    }
}

#[test]
fn each_impact_counts_for_every_body_it_moves_and_exhaustion_rolls_back() {
    // Ball 1 of the cradle is moved by two impacts (struck, then striking
    // ball 2): with ccd_max_impacts = 1 the step fails naming it.
    let (mut w, ids) = row(4, 1.0);
    w.step(DT).unwrap();
    w.ccd_max_impacts = 1;
    let before = world_support::capture(&w);
    match w.step(DT).unwrap_err() {
        parapet_world::StepError::ImpactLimit { body, limit, .. } => {
            assert_eq!((body, limit), (ids[1], 1));
        }
        other => panic!("expected ImpactLimit, got {other}"),
    }
    assert_eq!(world_support::capture(&w), before);
    w.ccd_max_impacts = 2;
    w.step(DT).unwrap();
}

#[test]
fn many_groups_give_the_same_bits_on_one_thread_and_on_several() {
    // 16 pairs far apart: 16 groups, swept in parallel above a few groups.
    let run = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| {
            let mut w = ccd_world();
            let mut ids = Vec::new();
            for g in 0..16 {
                let o = Vec3::new(g as f32 * 5.0, (g % 3) as f32 * 0.03, 0.0);
                let m = mat(0.2 * (g % 4) as f32, 0.25 * (g % 5) as f32);
                ids.push(
                    w.add_body(ball(0.1, 1.0, o, Vec3::new(70.0, 0.0, 1.0), m))
                        .unwrap(),
                );
                let p = o + Vec3::new(0.9, 0.05, 0.0);
                ids.push(
                    w.add_body(ball(0.1, 2.0, p, Vec3::new(-70.0, 0.0, 0.0), m))
                        .unwrap(),
                );
            }
            let mut trace = Vec::new();
            for _ in 0..5 {
                w.step(DT).unwrap();
                trace.push(bits(&w, &ids));
                trace.push(vec![vec![w.events().len() as u64]]);
            }
            trace
        })
    };
    assert_eq!(run(1), run(2));
}
