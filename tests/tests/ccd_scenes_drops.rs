//! The family of mixed shapes dropped close together: spheres, capsules,
//! boxes and hulls that can turn, eight to a world, packed a little more
//! than their size apart, thrown down at 5 to 25 m/s and spinning at up to
//! 20 rad/s onto a rough terrain (a static mesh) or onto static boxes (a
//! floor box with three blocks on it), in SPHERE_MESH_CCD at 1/60 s for 40
//! steps, random materials; SplitMix64 seeds, one world per seed.
//!
//! After every step, the oracle of `ccd_scenes_support` (parry3d's
//! contact depth of every pair with a dynamic body, the height field and
//! the floor's top face as one-sided surfaces): no body ends inside
//! another or behind a surface deeper than the pair's promised depth plus
//! the `f32` rounding.
//!
//! A refused step must be a limit's (impacts, advancement iterations,
//! events) and change nothing; the cases so refused are counted and the
//! measured count is the bound (with the default limits, bodies in
//! sustained, grinding contact take many small strikes: the loop's known
//! limit, docs/continuous-collision.md, "Known limitations").

mod ccd_scenes_support;

use ccd_scenes_support::worlds::drops;
use ccd_scenes_support::{assert_all_hold, run_checked};

/// Worlds per ground kind.
const CASES: u64 = 100;
/// Steps per world: 0.67 s, the bodies land and tumble.
const STEPS: usize = 40;
const DT: f32 = 1.0 / 60.0;

fn family(terrain: bool, first_seed: u64) -> Vec<String> {
    let mut failures = Vec::new();
    for seed in first_seed..first_seed + CASES {
        let (mut w, oracle) = drops(seed, terrain);
        let case = format!(
            "seed {seed} ({})",
            if terrain { "terrain" } else { "boxes" }
        );
        if let Err(e) = run_checked(&case, &mut w, &oracle, DT, STEPS) {
            failures.push(e);
        }
    }
    failures
}

#[test]
fn mixed_shapes_dropped_spinning_onto_a_terrain_never_end_inside_a_body_or_behind_it() {
    let failures = family(true, 0xD809_0000);
    assert_all_hold("drops on a terrain", CASES as usize, &failures, 0);
}

#[test]
fn mixed_shapes_dropped_spinning_onto_static_boxes_never_end_inside_one_another() {
    let failures = family(false, 0xB0C5_0000);
    assert_all_hold("drops on static boxes", CASES as usize, &failures, 0);
}
