//! The per-body CCD policy's cost: 1,000 slow spheres (half resting, half
//! walking at 1 m/s) and 10 fast ones falling at 60 m/s on a terrain of
//! 8,192 triangles (`parapet_benches::policy`), stepped in three worlds:
//! `DISCRETE` with every body at `Inherit`, every body `Auto` (the 10 fast
//! ones resolve `Continuous`, the slow ones stay discrete), and
//! `SPHERE_MESH_CCD` with every body at `Inherit` (all 1,010 swept). The aim:
//! the `Auto` step at most 1.2 times the `DISCRETE` one.
//!
//! Timing: `iter_custom` times only `step`. The world runs on across
//! iterations, reset from the prepared world every `RUN` steps outside the
//! timing; the walkers' controller also runs outside it. After every timed
//! step, outside the timing, each fast sphere's centre is checked against
//! the terrain with the height field's own interpolation: in the `Auto` and
//! continuous worlds a fast sphere whose centre falls below the terrain
//! panics the bench; in `DISCRETE` the crossings are counted for the
//! report, with the `Auto` world's continuous bodies per step.
//!
//! Run briefly: `cargo bench -p parapet-benches --bench ccd_policy --
//! --warm-up-time 1 --measurement-time 3`.

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, Criterion};
use parapet_benches::checks::record;
use parapet_benches::policy::{policy_scene, Policy, DT, RUN};

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("ccd_policy");
    for policy in Policy::ALL {
        let case = format!("1000_slow_10_fast_8192_triangles/{}", policy.name());
        let scene = match policy_scene(policy) {
            Ok(s) => s,
            Err(e) => {
                record("ccd_policy", &case, "outcome", format!("refused: {e}"));
                continue;
            }
        };
        let mut live = scene.clone();
        let mut steps = 0usize;
        let (mut timed, mut crossings, mut continuous) = (0usize, 0usize, 0u64);
        let mut refused = None;
        group.bench_function(case.clone(), |b| {
            b.iter_custom(|iters| {
                let mut total = Duration::ZERO;
                for _ in 0..iters {
                    if steps == RUN {
                        live = scene.clone();
                        steps = 0;
                    }
                    live.drive();
                    let t = Instant::now();
                    let r = black_box(live.world.step(DT));
                    total += t.elapsed();
                    steps += 1;
                    if let Err(e) = r {
                        refused.get_or_insert(e.to_string());
                        live = scene.clone();
                        steps = 0;
                        continue;
                    }
                    timed += 1;
                    let crossed = scene.crossed(&live.world);
                    assert!(
                        crossed == 0 || policy == Policy::Discrete,
                        "{case}: {crossed} fast spheres crossed the terrain"
                    );
                    crossings += crossed;
                    continuous += u64::from(live.world.ccd_report().continuous_bodies);
                }
                total
            })
        });
        record(
            "ccd_policy",
            &case,
            "outcome",
            refused.as_deref().unwrap_or("stepped"),
        );
        record("ccd_policy", &case, "timed_steps", timed);
        record("ccd_policy", &case, "fast_crossings", crossings);
        record(
            "ccd_policy",
            &case,
            "continuous_bodies_per_step",
            format!("{:.2}", continuous as f64 / timed.max(1) as f64),
        );
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
