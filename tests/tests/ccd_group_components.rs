//! Cascade settling per connected component (docs/continuous-collision.md
//! "Moving groups": the settling refuses more than ten simultaneous
//! contacts; the bench's groups of stacks). Stacks close enough to share one group are struck
//! at the same instant: their contacts form one component per stack (a
//! floor triangle passes no impulse from one stack to the next), so more
//! than ten simultaneous contacts in the group settle as long as no stack
//! holds more than ten; a stack of eleven is still refused, naming its own
//! count, and the step rolls back.

mod ccd_group_support;
mod world_support;

use ccd_group_support::*;
use parapet_math::Vec3;
use parapet_world::{BodyId, ContactKind, PhysicsWorld};

const DT: f32 = 0.01;
const R: f32 = 0.125;

/// Positions are f32 below 8 m (ulp 9.5e-7 m): a few ulps of overlap.
const OVERLAP_TOLERANCE: f64 = 4e-6;

/// Stacks of `sizes[k]` resting balls (radius 0.125 m, centres exact in
/// f32) `spacing` metres apart along x on one floor, each struck by a ball
/// falling at 40 m/s from 0.2 m above it (impact at half the step). A
/// struck stack's member reaches 0.125 m + 40 m/s x 0.01 s = 0.525 m, so
/// stacks 1 m apart share one group.
fn stacks(sizes: &[usize], spacing: f32) -> (PhysicsWorld, Vec<Vec<BodyId>>) {
    let mut w = ccd_world();
    let m = mat(0.0, 0.0);
    w.add_body(world_support::floor(40.0, 0.0, m)).unwrap();
    let mut all = Vec::new();
    for (s, &n) in sizes.iter().enumerate() {
        let x = s as f32 * spacing;
        let mut ids = Vec::new();
        for k in 0..n {
            let z = R + 2.0 * R * k as f32;
            ids.push(
                w.add_body(ball(R, 1.0, Vec3::new(x, 0.5, z), Vec3::zeros(), m))
                    .unwrap(),
            );
        }
        let top = R + 2.0 * R * n as f32 + 0.2;
        ids.push(
            w.add_body(ball(
                R,
                1.0,
                Vec3::new(x, 0.5, top),
                Vec3::new(0.0, 0.0, -40.0),
                m,
            ))
            .unwrap(),
        );
        all.push(ids);
    }
    (w, all)
}

fn assert_settled(w: &PhysicsWorld, ids: &[BodyId]) {
    for (i, a) in ids.iter().enumerate() {
        let b = w.body(*a).unwrap();
        let pa = b.position();
        assert!(
            pa.z as f64 >= R as f64 - OVERLAP_TOLERANCE,
            "ball {i} below the floor: {}",
            pa.z
        );
        // Plastic and without gravity: the whole column stops.
        assert!(
            b.linear_velocity().norm() < 1e-4,
            "{:?}",
            b.linear_velocity()
        );
        for c in &ids[i + 1..] {
            let pc = w.body(*c).unwrap().position();
            let d = (pa.cast::<f64>() - pc.cast::<f64>()).norm();
            assert!(
                d >= 2.0 * R as f64 - OVERLAP_TOLERANCE,
                "overlap {}",
                2.0 * R as f64 - d
            );
        }
    }
}

#[test]
fn four_struck_stacks_in_one_group_settle_more_than_ten_contacts_at_once() {
    // Four stacks of four resting balls and a falling one: five contacts
    // each (four pairs and the floor), twenty at the instant of impact.
    let (mut w, all) = stacks(&[4, 4, 4, 4], 1.0);
    let ids: Vec<BodyId> = all.iter().flatten().copied().collect();
    let e0 = kinetic_energy(&w, &ids);
    w.step(DT).unwrap();
    for stack in &all {
        assert_settled(&w, stack);
    }
    // Every contact of the four cascades is reported at one instant.
    let swept: Vec<f32> = w
        .events()
        .iter()
        .filter(|e| e.kind == ContactKind::Swept)
        .map(|e| e.time)
        .collect();
    let at_impact = swept.iter().filter(|&&t| t == swept[0]).count();
    assert!(
        at_impact > 10,
        "{at_impact} contacts at the instant: {swept:?}"
    );
    // Plastic: the kinetic energy is gone, none was added.
    let e1 = kinetic_energy(&w, &ids);
    assert!(e1 <= 1e-6 * e0, "{e0} -> {e1}");
}

#[test]
fn stacks_sharing_a_group_end_where_each_ends_alone() {
    let (mut together, all) = stacks(&[4, 2, 4], 1.0);
    together.step(DT).unwrap();
    for (s, &n) in [4usize, 2, 4].iter().enumerate() {
        let (mut alone, single) = stacks(&[n], 1.0);
        alone.step(DT).unwrap();
        for (a, b) in all[s].iter().zip(&single[0]) {
            let p = together.body(*a).unwrap().position();
            let q = alone.body(*b).unwrap().position();
            // The same column translated by s metres along x (exact in f32):
            // z settles to the same contact heights within a few f32 ulps of
            // 1.5 m (1.2e-7 m each), whichever order the group took the
            // impacts in.
            assert!((p.x - (q.x + s as f32)).abs() == 0.0, "{p:?} {q:?}");
            assert!(((p.z - q.z) as f64).abs() <= 1e-6, "stack {s}: {p:?} {q:?}");
        }
    }
}

#[test]
fn a_component_of_eleven_contacts_settles_beside_a_small_one() {
    // A stack of ten and a falling ball (eleven contacts) beside a stack of
    // two (three contacts): each settles as its own event.
    let (mut w, all) = stacks(&[10, 2], 1.0);
    w.step(DT).unwrap();
    for stack in &all {
        assert_settled(&w, stack);
    }
}
