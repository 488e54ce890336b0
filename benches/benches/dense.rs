//! Dense scenes (`parapet_scenes::bench_dense`): the elastic room (50,
//! 100 and 200 elastic spheres at up to 50 m/s per axis in a closed 10 m
//! box of 12 triangles, one 0.5 s step in SPHERE_MESH_CCD: one group of
//! every sphere, hundreds of impacts) and the crowded point (100 and 300
//! spheres at one point, one 1/60 s step: DISCRETE reports every pair once,
//! SPHERE_MESH_CCD refuses the step and rolls it back). Each timed step
//! runs from a copy of the prepared world; outside the timing the step's
//! outcome and its continuous work counters (`PhysicsWorld::ccd_work`:
//! passes, pair and triangle sweeps, pair decisions) are recorded, so that
//! the cost per pass can be read beside the time: a pass costs `O(n)` for
//! `n` members plus the pairs near an impact (docs/continuous-collision.md,
//! "Performance").
//!
//! Run briefly: `cargo bench -p parapet-benches --bench dense --
//! --warm-up-time 1 --measurement-time 3 --sample-size 10`.

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, Criterion};
use parapet::prelude::*;
use parapet_benches::checks::record;
use parapet_scenes::bench_dense::{crowded_point, elastic_room, ROOM_DT};

/// Times one step of `prepared` (a fresh copy each iteration) and records
/// its outcome and work counters under `case`.
fn bench_step(c: &mut Criterion, case: &str, prepared: &PhysicsWorld, dt: f32) {
    let mut last = None;
    c.bench_function(&format!("dense/{case}"), |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                let mut w = prepared.clone();
                let t = Instant::now();
                let r = black_box(w.step(dt));
                total += t.elapsed();
                last = Some((
                    r.map_err(|e| e.to_string()),
                    *w.ccd_report(),
                    w.contact_count(),
                ));
            }
            total
        })
    });
    if let Some((r, work, contacts)) = last {
        record(
            "dense",
            case,
            "outcome",
            r.err().unwrap_or_else(|| "stepped".into()),
        );
        record("dense", case, "contacts", contacts);
        record("dense", case, "events", work.passes);
        record("dense", case, "toi_queries", work.toi_queries);
        record("dense", case, "arbiter_iterations", work.certified_substeps);
        record("dense", case, "held_contacts", work.held_contacts);
    }
}

fn bench(c: &mut Criterion) {
    for n in [50, 100, 200] {
        let w = elastic_room(SPHERE_MESH_CCD, n).expect("the room's bodies are valid");
        bench_step(c, &format!("room_{n}/ccd"), &w, ROOM_DT);
    }
    for n in [100, 300] {
        for (mode, label) in [(DISCRETE, "discrete"), (SPHERE_MESH_CCD, "ccd")] {
            let w = crowded_point(mode, n).expect("the point's bodies are valid");
            bench_step(c, &format!("point_{n}/{label}"), &w, 1.0 / 60.0);
        }
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
