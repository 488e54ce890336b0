//! Walkers: rotation-locked
//! capsule walkers and spinning spheres with an anisotropic inertia on a
//! terrain of 2,048 or 8,192 triangles, 1 and 64 bodies, in
//! SPHERE_MESH_CCD, driven along +x by a controller before every step.
//!
//! Timing: `iter_custom` times only `step`. The world runs on across
//! iterations (reset from the prepared scene every 90 steps, outside the
//! timing). After every timed step, outside the timing, each body is
//! checked: whether it has a contact event with the terrain, its
//! independent clearance (the `f64` distance from its core, sampled, to the
//! terrain triangles near it, less its radius: `parapet_benches::checks`),
//! and its height above the local terrain (`HeightField::height_at`). A
//! body whose core point falls behind the terrain panics the bench; the
//! smallest clearance and the share of body-steps with a terrain event are
//! recorded for the report.
//!
//! Run briefly: `cargo bench -p parapet-benches --bench walkers --
//! --warm-up-time 1 --measurement-time 3`.

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, Criterion};
use parapet::prelude::*;
use parapet_benches::checks::{record, sampled_segment_distance};
use parapet_scenes::bench_walkers::{walkers, WalkerKind, Walkers, DT};
use parapet_scenes::clearance::height_above;
use parapet_scenes::scene::CROSSING_TOLERANCE;

/// Steps before the world is reset from the prepared scene (1.5 s: the
/// walkers stay on the terrain).
const RUN: usize = 90;

#[derive(Default)]
struct Tally {
    body_steps: usize,
    terrain_events: usize,
    min_clearance: f64,
    min_height: f64,
}

fn check(s: &Walkers, w: &PhysicsWorld, tally: &mut Tally) {
    let events = w.events();
    for id in &s.bodies {
        let b = w.body(*id).expect("walker present");
        let p = b.position();
        let (x, y, z) = (p.x as f64, p.y as f64, p.z as f64);
        let hc = s.kind.half_core();
        let near = s.triangles_near(x, y, hc + s.kind.radius() + 1.0);
        let clearance =
            sampled_segment_distance([x, y, z - hc], [x, y, z + hc], 8, &near) - s.kind.radius();
        let low = Vec3::new(p.x, p.y, (z - hc) as f32);
        let height = height_above(&s.field, low).expect("walker over the terrain");
        assert!(
            height > -CROSSING_TOLERANCE,
            "{:?} {id}: core point {height} m below the terrain",
            s.kind
        );
        let touched = events.iter().any(|e| {
            (e.body_a == *id && e.body_b == s.terrain_body)
                || (e.body_b == *id && e.body_a == s.terrain_body)
        });
        tally.body_steps += 1;
        tally.terrain_events += usize::from(touched);
        tally.min_clearance = tally.min_clearance.min(clearance);
        tally.min_height = tally.min_height.min(height - s.kind.radius());
    }
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("walkers");
    for kind in [WalkerKind::LockedCapsule, WalkerKind::SpinningSphere] {
        for triangles in [2048, 8192] {
            for count in [1, 64] {
                let case = format!("{}/{triangles}_triangles/{count}_bodies", kind.name());
                let s = match walkers(kind, count, triangles) {
                    Ok(s) => s,
                    Err(e) => {
                        record("walkers", &case, "outcome", format!("refused: {e}"));
                        continue;
                    }
                };
                let mut tally = Tally {
                    min_clearance: f64::INFINITY,
                    min_height: f64::INFINITY,
                    ..Tally::default()
                };
                let mut w = s.world.clone();
                let mut steps = 0usize;
                let mut refused = None;
                group.bench_function(case.clone(), |b| {
                    b.iter_custom(|iters| {
                        let mut total = Duration::ZERO;
                        for _ in 0..iters {
                            if steps == RUN {
                                w = s.world.clone();
                                steps = 0;
                            }
                            s.drive(&mut w);
                            let t = Instant::now();
                            let r = black_box(w.step(DT));
                            total += t.elapsed();
                            steps += 1;
                            match r {
                                Ok(()) => check(&s, &w, &mut tally),
                                Err(e) => {
                                    refused.get_or_insert(e.to_string());
                                    w = s.world.clone();
                                    steps = 0;
                                }
                            }
                        }
                        total
                    })
                });
                record(
                    "walkers",
                    &case,
                    "outcome",
                    refused.as_deref().unwrap_or("stepped"),
                );
                record("walkers", &case, "body_steps", tally.body_steps);
                record(
                    "walkers",
                    &case,
                    "terrain_event_share",
                    format!(
                        "{:.3}",
                        tally.terrain_events as f64 / tally.body_steps.max(1) as f64
                    ),
                );
                record(
                    "walkers",
                    &case,
                    "min_clearance_m",
                    format!("{:.5}", tally.min_clearance),
                );
                record(
                    "walkers",
                    &case,
                    "min_height_gap_m",
                    format!("{:.5}", tally.min_height),
                );
            }
        }
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
