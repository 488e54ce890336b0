//! The family of kinematic bodies of every kind (sphere, capsule, box,
//! hull, and a closed box mesh) driven through dynamic ones: a cluster of
//! six random dynamic shapes floating at rest (no gravity, so nothing
//! pins them against a static surface), and one kinematic body starting
//! 4 m away, moving through the cluster at 5 to 30 m/s and turning at up
//! to 6 rad/s, in SPHERE_MESH_CCD at 1/60 s for 30 steps; SplitMix64 seeds,
//! three worlds per kind.
//!
//! After every step, the oracle of `ccd_scenes_support` (parry3d's
//! contact depth of every pair with a dynamic body; the mesh as the box
//! it closes): no body ends inside another deeper than the pair's
//! promised depth plus the `f32` rounding.
//!
//! A refused step must be a limit's (impacts, advancement iterations,
//! events) and change nothing; the cases so refused are counted and the
//! measured count is the bound (with the default limits, bodies in
//! sustained, grinding contact take many small strikes: the loop's known
//! limit, docs/continuous-collision.md, "Known limitations").

mod ccd_scenes_support;

use ccd_scenes_support::worlds::kinematic;
use ccd_scenes_support::{assert_all_hold, run_checked};

/// Worlds per kinematic kind.
const CASES: u64 = 30;
/// Steps per world: 0.5 s, the kinematic body crosses the cluster.
const STEPS: usize = 30;
const DT: f32 = 1.0 / 60.0;

#[test]
fn kinematic_shapes_of_every_kind_driven_through_dynamic_ones_never_end_inside_one() {
    let mut failures = Vec::new();
    let names = ["sphere", "capsule", "box", "hull", "box mesh"];
    for (kind, name) in names.iter().enumerate() {
        for seed in 0..CASES {
            let seed = 0x41A3_0000 + 0x100 * kind as u64 + seed;
            let (mut w, oracle) = kinematic(seed, kind);
            let case = format!("seed {seed:#x} (kinematic {name})");
            if let Err(e) = run_checked(&case, &mut w, &oracle, DT, STEPS) {
                failures.push(e);
            }
        }
    }
    assert_all_hold(
        "kinematic drivers",
        names.len() * CASES as usize,
        &failures,
        0,
    );
}
