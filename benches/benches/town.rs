//! The town crossroads (`parapet_scenes::crossroads`: 101 bodies, 20 cars,
//! a kinematic bus, a mesh lift, 40 walkers, kerbs, bollards and
//! projectiles on a 2,048-triangle road) one step at a time in DISCRETE and
//! in SPHERE_MESH_CCD, at 1/60 s after a second of driving (60 steps) and
//! at 1/20 s after 0.25 s (5 steps). Each iteration steps a clone of the
//! prepared world with its controllers applied (the clone is outside the
//! timing); outside the timing, the step is checked to succeed. The
//! instruction counts of the same steps, one thread, are in
//! `cargo xtask instructions` (the example `town_profile`).
//!
//! Run briefly: `cargo bench -p parapet-benches --bench town --
//! --warm-up-time 1 --measurement-time 3`.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use parapet::prelude::*;
use parapet_scenes::crossroads::{crossroads, crossroads_coarse};
use parapet_scenes::Scene;

/// The scene after `warm` steps, its controllers applied for the next.
fn prepared(mut s: Scene, warm: usize) -> Scene {
    for _ in 0..warm {
        s.apply_controls();
        s.world.step(s.dt).expect("the crossroads steps");
    }
    s.apply_controls();
    s
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("town");
    group.sample_size(10);
    type Build = fn(CollisionDetection, usize) -> Result<Scene, parapet_scenes::SceneError>;
    let worlds: [(&str, Build, usize); 2] = [
        ("crossroads", crossroads, 60),
        ("crossroads_coarse", crossroads_coarse, 5),
    ];
    for (name, build, warm) in worlds {
        for (mode_name, mode) in [("discrete", DISCRETE), ("ccd", SPHERE_MESH_CCD)] {
            let s = prepared(build(mode, 0).expect("the crossroads builds"), warm);
            s.world
                .clone()
                .step(s.dt)
                .expect("the measured step succeeds");
            group.bench_function(format!("{name}_{mode_name}"), |b| {
                b.iter_batched_ref(
                    || s.world.clone(),
                    |w| black_box(w.step(s.dt)),
                    BatchSize::LargeInput,
                )
            });
        }
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
