//! Scaling: the step time of spheres falling onto a terrain against the
//! number of bodies (1 to 4,096, powers of 4, on 8,192 triangles) and the
//! number of triangles (512 to 131,072, powers of 4, with 64 bodies), in
//! DISCRETE and SPHERE_MESH_CCD (`parapet_scenes::bench_ccd::terrain_spheres`:
//! one step before impact, index built). `cargo xtask bench-report` fits the
//! exponent of each series by least squares on the logarithms.
//!
//! Timing: `iter_custom` times only `step`; the clone before it and the
//! check after it (no body behind the terrain in the continuous mode) run
//! outside the timing.
//!
//! Run briefly: `cargo bench -p parapet-benches --bench scaling --
//! --warm-up-time 1 --measurement-time 3`.

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, Criterion};
use parapet::prelude::*;
use parapet_benches::checks::record;
use parapet_scenes::bench_ccd::terrain_spheres;

/// Body counts of the body series.
pub const BODIES: [usize; 7] = [1, 4, 16, 64, 256, 1024, 4096];
/// Triangle counts of the triangle series.
pub const TRIANGLES: [usize; 5] = [512, 2048, 8192, 32768, 131072];

fn run(c: &mut Criterion, series: &str, cases: &[(usize, usize)]) {
    let mut group = c.benchmark_group(format!("scaling/{series}"));
    group.sample_size(10);
    for &(triangles, bodies) in cases {
        for (label, mode) in [("discrete", DISCRETE), ("sphere_mesh_ccd", SPHERE_MESH_CCD)] {
            let x = if series == "bodies" {
                bodies
            } else {
                triangles
            };
            let case = format!("{label}/{x}");
            let s = match terrain_spheres(mode, triangles, bodies) {
                Ok(s) => s,
                Err(e) => {
                    record(
                        "scaling",
                        &format!("{series}/{case}"),
                        "outcome",
                        format!("refused: {e}"),
                    );
                    continue;
                }
            };
            let mut worst = 0;
            group.bench_function(case, |b| {
                b.iter_custom(|iters| {
                    let mut total = Duration::ZERO;
                    for _ in 0..iters {
                        let mut w = s.world.clone();
                        let t = Instant::now();
                        let r = black_box(w.step(s.dt));
                        total += t.elapsed();
                        if r.is_ok() {
                            worst = worst.max(s.violations(&w));
                        }
                    }
                    total
                })
            });
            if mode == SPHERE_MESH_CCD {
                assert_eq!(worst, 0, "scaling {series} {x}: a body passed through");
            }
        }
    }
    group.finish();
}

fn bench(c: &mut Criterion) {
    let bodies: Vec<_> = BODIES.iter().map(|&b| (8192, b)).collect();
    run(c, "bodies", &bodies);
    let triangles: Vec<_> = TRIANGLES.iter().map(|&t| (t, 64)).collect();
    run(c, "triangles", &triangles);
}

criterion_group!(benches, bench);
criterion_main!(benches);
