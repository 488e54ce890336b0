//! The demo scenes of `parapet-scenes` (the very worlds `cargo xtask demo`
//! runs and `tests/tests/examples_demo.rs` checks), timed one step at a time
//! in DISCRETE and SPHERE_MESH_CCD: the capsule walker on its 3200-triangle
//! terrain while walking (after landing) and the fast box on the step that it
//! strikes the wall. Each iteration steps a clone of the prepared world (the
//! clone is outside the timing); the step is checked to succeed outside the
//! timing.
//!
//! Run briefly: `cargo bench -p parapet-benches --bench demo_scenes --
//! --warm-up-time 1 --measurement-time 3`.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use parapet::prelude::*;
use parapet_scenes::{capsule_walker, fast_box_wall, Scene};

/// The scene's world after `warm` steps (with its controllers applied).
fn advanced(scene: Scene, warm: usize) -> (PhysicsWorld, Scene) {
    let mut s = scene;
    for _ in 0..warm {
        s.apply_controls();
        s.world.step(s.dt).expect("the scene steps");
    }
    (s.world.clone(), s)
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("demo_scenes");
    for (name, mode) in [("discrete", DISCRETE), ("sphere_mesh_ccd", SPHERE_MESH_CCD)] {
        // Walking: 30 steps (1 s) after the drop, on the terrain in CCD (in
        // DISCRETE the walker has fallen through: the step is the free fall).
        let (world, scene) = advanced(capsule_walker(mode, 31).unwrap(), 30);
        world.clone().step(scene.dt).unwrap();
        group.bench_function(format!("{name}/capsule_walker_walking"), |b| {
            b.iter_batched(
                || world.clone(),
                |mut w| black_box(w.step(scene.dt)),
                BatchSize::SmallInput,
            )
        });
        // The box is 1.33 m per step from its start at x = 0 towards the wall
        // face at x = 5.75: step 5 (from x = 5.33) strikes it.
        let (world, scene) = advanced(fast_box_wall(mode, 5).unwrap(), 4);
        world.clone().step(scene.dt).unwrap();
        group.bench_function(format!("{name}/fast_box_wall_impact"), |b| {
            b.iter_batched(
                || world.clone(),
                |mut w| black_box(w.step(scene.dt)),
                BatchSize::SmallInput,
            )
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
