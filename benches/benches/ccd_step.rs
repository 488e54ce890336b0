//! The SPHERE_MESH_CCD step against the DISCRETE step on the scenes of
//! `parapet_scenes::bench_ccd` (the scenes of docs/reports/ccd-performance.md):
//! 64 bodies alone falling onto a terrain (spheres, rotation-locked capsules,
//! rotation-locked boxes), 64 head-on pairs, 64 struck chains, 64 struck
//! stacks (and one alone), and a rolled-back step (64 spheres needing more
//! impacts than `ccd_max_impacts`: the continuous step fails and restores
//! the world). Each scene is built one step before impact with its mesh
//! index built; each iteration steps a fresh clone.
//!
//! Timing: `iter_custom` times only `step`; the clone before it and the
//! check after it (bodies behind the ground, group neighbours overlapping
//! or out of order, by the scene's independent check) run outside the
//! timing. The outcome and violations of each case are recorded through
//! `parapet_benches::checks` for the report; a continuous step that lets a
//! body through panics the bench.
//!
//! Run briefly: `cargo bench -p parapet-benches --bench ccd_step --
//! --warm-up-time 1 --measurement-time 3`.

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, Criterion};
use parapet::prelude::*;
use parapet_benches::checks::record;
use parapet_scenes::bench_ccd::{by_name, SCENES};

fn outcome(r: &Result<(), StepError>) -> &'static str {
    match r {
        Ok(()) => "stepped",
        Err(StepError::ImpactLimit { .. }) => "rolled back (ImpactLimit)",
        Err(StepError::Unresolvable { .. }) => "refused (Unresolvable)",
        Err(StepError::Unsupported { .. }) => "refused (Unsupported)",
        Err(_) => "refused (other)",
    }
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("ccd_step");
    for name in SCENES {
        for (label, mode) in [("discrete", DISCRETE), ("sphere_mesh_ccd", SPHERE_MESH_CCD)] {
            let scene = match by_name(name, mode) {
                Some(Ok(s)) => s,
                Some(Err(e)) => {
                    record(
                        "ccd_step",
                        &format!("{name}/{label}"),
                        "outcome",
                        format!("not built: {e}"),
                    );
                    continue;
                }
                None => continue,
            };
            // Outside the timing: one step, its outcome and its violations.
            let mut w = scene.world.clone();
            let r = w.step(scene.dt);
            let violations = if r.is_ok() { scene.violations(&w) } else { 0 };
            let case = format!("{name}/{label}");
            record("ccd_step", &case, "outcome", outcome(&r));
            record("ccd_step", &case, "violations", violations);
            record("ccd_step", &case, "bodies", scene.movers.len());
            record("ccd_step", &case, "title", scene.title);
            if let Err(e) = &r {
                eprintln!("ccd_step {case}: {e}");
            }
            let mut worst = 0usize;
            group.bench_function(case.clone(), |b| {
                b.iter_custom(|iters| {
                    let mut total = Duration::ZERO;
                    for _ in 0..iters {
                        let mut w = scene.world.clone();
                        let t = Instant::now();
                        let r = black_box(w.step(scene.dt));
                        total += t.elapsed();
                        if r.is_ok() {
                            worst = worst.max(scene.violations(&w));
                        }
                    }
                    total
                })
            });
            if mode == SPHERE_MESH_CCD {
                assert_eq!(worst, 0, "{case}: a continuous step let a body through");
            }
        }
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
