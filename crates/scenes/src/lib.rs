//! parapet-scenes: the scenes shared by the tests, the benchmarks, the
//! examples and the demo (after Box2D's `shared/benchmarks.c`): one definition
//! of each scene, so a figure in a report and an assertion in a test speak of
//! the same world.
//!
//! - [`tunneling()`]: the tunnelling sphere, DISCRETE vs SPHERE_MESH_CCD.
//! - [`capsule_walker()`]: a rotation-locked capsule dropped onto a generated
//!   terrain and walked across it.
//! - [`sphere_stack()`]: a stack of spheres struck by a fast sphere.
//! - [`fast_box_wall()`]: a box that cannot turn fired into a wall.
//! - [`tumbling_capsule()`]: a capsule that can turn, thrown spinning onto
//!   the terrain (a turning body: certified sub-steps).
//! - [`chassis_kerb()`], [`car_rollover()`], [`hull_crate()`]: vehicle
//!   scenes, boxes and hulls that turn (turning solids).
//! - [`box_stacks`]: a column of 20 cubes and pyramids of 55 and 210 on a
//!   tessellated floor, with an independent judge of whether they stand.
//! - [`town_scenes`]: the scenes users build, each judged body against
//!   body by [`judge`]: a town crossroads of 101 bodies at 1/60 and 1/20 s
//!   ([`crossroads`]), car crashes ([`car_crash`]), a kinematic bus through
//!   a crowd ([`bus_crowd`]), a lift carrying spheres up at 30 m/s
//!   ([`lift`]), 1,024 spheres dropped on a mesh ([`sphere_rain`]),
//!   dominoes struck by a box ([`dominoes`]) and spinning sticks on a
//!   static box floor ([`spinning_stick`]); their bodies are in [`town`],
//!   their drivers, walkers and lifts in [`control`].
//!
//! Each scene function takes the collision-detection mode and a step count
//! and returns a [`Scene`]: the world plus what to measure; [`run`] steps it
//! and returns a [`SceneRun`] (gaps over time, impacts, energy, whether
//! anything crossed a surface by the independent checks of [`clearance`],
//! and a refusal if the world refused a step). Terrains come from
//! [`terrain::HeightField`] with the [`prng::SplitMix64`] generator: the same
//! seed gives the same triangles on every machine.

pub mod bench_boxes;
pub mod bench_ccd;
pub mod bench_crowds;
pub mod bench_dense;
pub mod bench_vehicles;
pub mod bench_versus;
pub mod bench_walkers;
pub mod box_stacks;
pub mod bus_crowd;
pub mod car_crash;
pub mod clearance;
pub mod control;
pub mod crossroads;
pub mod dominoes;
mod error;
pub mod judge;
pub mod lift;
mod obb;
pub mod overlap;
pub mod prng;
pub mod scene;
pub mod sphere_rain;
pub mod spinning_stick;
pub mod stack;
pub mod terrain;
pub mod town;
pub mod tumbler;
pub mod tunneling;
pub mod vehicles;
pub mod versus_scenes;
pub mod walker;
pub mod wall;

pub use error::SceneError;
pub use scene::{run, Measure, Refusal, Sample, Scene, SceneRun, Verdict};
pub use stack::sphere_stack;
pub use tumbler::tumbling_capsule;
pub use tunneling::tunneling;
pub use vehicles::{car_rollover, chassis_kerb, hull_crate};
pub use walker::capsule_walker;
pub use wall::fast_box_wall;

use parapet::prelude::CollisionDetection;

/// The eight demo scenes in `mode`, with their demo step counts, or a tenth of
/// them (at least 5) when `quick`.
///
/// # Errors
///
/// [`SceneError`] if a scene cannot be built.
pub fn demo_scenes(mode: CollisionDetection, quick: bool) -> Result<Vec<Scene>, SceneError> {
    let n = |full: usize| if quick { (full / 10).max(5) } else { full };
    Ok(vec![
        tunneling(mode, n(50))?,
        capsule_walker(mode, n(150))?,
        sphere_stack(mode, n(60))?,
        fast_box_wall(mode, n(30))?,
        tumbling_capsule(mode, n(120))?,
        chassis_kerb(mode, n(60))?,
        car_rollover(mode, n(120))?,
        hull_crate(mode, n(90))?,
    ])
}

/// The town scenes in `mode` ([`town_scenes`]'s list), with their demo
/// step counts, or, when `quick`, the few steps that show what DISCRETE
/// crosses (a second of the crossroads; 256 spheres of the rain instead of
/// 1,024).
///
/// # Errors
///
/// [`SceneError`] if a scene cannot be built.
pub fn town_scenes(mode: CollisionDetection, quick: bool) -> Result<Vec<Scene>, SceneError> {
    let n = |full: usize, short: usize| if quick { short } else { full };
    Ok(vec![
        crossroads::crossroads(mode, n(600, 60))?,
        crossroads::crossroads_coarse(mode, n(200, 20))?,
        car_crash::car_crash(mode, n(90, 20))?,
        bus_crowd::bus_crowd(mode, n(180, 60))?,
        lift::lift_spheres(mode, n(90, 5))?,
        sphere_rain::sphere_rain(mode, n(1024, 256), n(90, 10))?,
        dominoes::dominoes(mode, n(120, 12))?,
        spinning_stick::spinning_sticks(mode, n(60, 15))?,
    ])
}
