//! The family of a crowd against a moving bus: 12 to 24 walkers (the
//! crowds' rotation-locked capsules) standing on a jittered grid 0.8 to
//! 1.6 m apart, on a rough terrain (a static mesh) or a static box floor,
//! and a kinematic bus (a 2.5 x 12 x 3 m box, its floor 0.3 m up) driving
//! into them at 8 to 20 m/s on a random heading, in SPHERE_MESH_CCD at
//! 1/60 s for 60 steps; SplitMix64 seeds.
//!
//! After every step, the oracle of `ccd_scenes_support` (parry3d's
//! contact depth of every pair with a dynamic body; the height field and
//! the floor's top face as one-sided surfaces): no walker ends inside the
//! bus, another walker or the ground deeper than the pair's promised depth
//! plus the `f32` rounding.
//!
//! A refused step must be a limit's (impacts, advancement iterations,
//! events) and change nothing; the cases so refused are counted and the
//! measured count is the bound (with the default limits, bodies in
//! sustained, grinding contact take many small strikes: the loop's known
//! limit, docs/continuous-collision.md, "Known limitations").

mod ccd_scenes_support;

use ccd_scenes_support::worlds::bus_crowd;
use ccd_scenes_support::{assert_all_hold, run_checked};

/// Worlds per ground kind.
const CASES: u64 = 30;
/// Steps per world: 1 s.
const STEPS: usize = 60;
const DT: f32 = 1.0 / 60.0;

fn family(terrain: bool, first: u64) -> Vec<String> {
    (first..first + CASES)
        .filter_map(|seed| {
            let (mut w, oracle) = bus_crowd(seed, terrain);
            let case = format!(
                "seed {seed:#x} ({})",
                if terrain { "terrain" } else { "floor" }
            );
            run_checked(&case, &mut w, &oracle, DT, STEPS).err()
        })
        .collect()
}

#[test]
fn a_crowd_on_a_terrain_against_a_moving_bus_never_ends_inside_it_or_each_other() {
    let failures = family(true, 0xC40D_0000);
    assert_all_hold("crowd and bus on a terrain", CASES as usize, &failures, 0);
}

#[test]
fn a_crowd_on_a_static_floor_against_a_moving_bus_never_ends_inside_it_or_each_other() {
    let failures = family(false, 0xF100_0000);
    assert_all_hold("crowd and bus on a floor", CASES as usize, &failures, 0);
}
