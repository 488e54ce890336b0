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
pub mod clearance;
mod error;
mod obb;
pub mod prng;
pub mod scene;
pub mod stack;
pub mod terrain;
pub mod tumbler;
pub mod tunneling;
pub mod vehicles;
pub mod walker;
pub mod wall;

pub use error::SceneError;
pub use scene::{run, Measure, Refusal, Sample, Scene, SceneRun};
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
