//! Collision filters' and sensors' cost (`parapet_benches::filters`).
//!
//! - `filters/512_pairs/<layout>/<mode>`: 512 sphere pairs on a floor,
//!   half of them touching and interacting, the other half overlapping and
//!   filtered by collision groups (`groups`), overlapping and excluded by
//!   `ignore_pair` (`excluded`), or apart (`apart`), in `DISCRETE` and
//!   `SPHERE_MESH_CCD`. The aim: `groups` and `excluded` cost no more than
//!   `apart`. Each iteration steps a clone of the prepared world (the
//!   clone outside the timing); after every timed step, outside the
//!   timing, a contact event naming a filtered pair fails the bench.
//! - `filters/1000_bodies_10_sensors/<sensors|bare>/<discrete|continuous>`:
//!   the per-body policy's workload (1,000 slow spheres, 10 fast ones,
//!   8,192 triangles) with 10 sensors (five zones a walker enters, five
//!   1 cm plates the fast spheres cross within a step) and without them,
//!   reset every `RUN` steps outside the timing. Outside the timing the
//!   sensor events are counted; in the world with sensors, a run that
//!   reports fewer crossings than there are plates fails the bench.
//!
//! Run briefly: `cargo bench -p parapet-benches --bench filters --
//! --warm-up-time 1 --measurement-time 3`. For instruction counts (the
//! figures that do not move with the machine's load), the example
//! `filters_profile` under callgrind.

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use parapet::prelude::*;
use parapet_benches::checks::record;
use parapet_benches::filters::{pairs_world, sensor_scene, Layout, PAIRS, PLATES};
use parapet_benches::policy::{Policy, DT, RUN};

fn pairs(c: &mut Criterion) {
    let mut group = c.benchmark_group("filters");
    for (mode, mode_name) in [(DISCRETE, "discrete"), (SPHERE_MESH_CCD, "ccd")] {
        for layout in Layout::ALL {
            let case = format!("{PAIRS}_pairs/{}/{mode_name}", layout.name());
            let prepared = match pairs_world(layout, mode) {
                Ok(p) => p,
                Err(e) => {
                    record("filters", &case, "outcome", format!("refused: {e}"));
                    continue;
                }
            };
            let (mut timed, mut contacts) = (0usize, 0usize);
            group.bench_function(case.clone(), |b| {
                b.iter_batched_ref(
                    || prepared.clone(),
                    |live| {
                        black_box(live.world.step(DT)).expect("the pairs world steps");
                    },
                    BatchSize::LargeInput,
                );
            });
            // The check, outside the timing: RUN steps from the prepared
            // world, no contact between a filtered pair.
            let mut live = prepared.clone();
            for _ in 0..RUN {
                live.world.step(DT).expect("the pairs world steps");
                let named = live.filtered_contacts();
                assert_eq!(named, 0, "{case}: contact events name a filtered pair");
                timed += 1;
                contacts += live.world.events().len();
            }
            record("filters", &case, "outcome", "stepped");
            record(
                "filters",
                &case,
                "contact_events_per_step",
                format!("{:.1}", contacts as f64 / timed as f64),
            );
        }
    }
    group.finish();
}

fn sensors(c: &mut Criterion) {
    let mut group = c.benchmark_group("filters");
    for policy in [Policy::Discrete, Policy::Continuous] {
        for with_sensors in [false, true] {
            let case = format!(
                "1000_bodies_10_sensors/{}/{}",
                if with_sensors { "sensors" } else { "bare" },
                policy.name()
            );
            let scene = match sensor_scene(policy, with_sensors) {
                Ok(s) => s,
                Err(e) => {
                    record("filters", &case, "outcome", format!("refused: {e}"));
                    continue;
                }
            };
            let mut live = scene.clone();
            let mut steps = 0usize;
            let (mut timed, mut events, mut run_crossings) = (0usize, 0usize, 0usize);
            let mut runs = 0usize;
            let mut refused = None;
            group.bench_function(case.clone(), |b| {
                b.iter_custom(|iters| {
                    let mut total = Duration::ZERO;
                    for _ in 0..iters {
                        if steps == RUN {
                            assert!(
                                !with_sensors || run_crossings >= PLATES,
                                "{case}: {run_crossings} crossings in a run, fewer than \
                                 the {PLATES} plates"
                            );
                            live = scene.clone();
                            (steps, run_crossings) = (0, 0);
                            runs += 1;
                        }
                        live.drive();
                        let t = Instant::now();
                        let r = black_box(live.world.step(DT));
                        total += t.elapsed();
                        steps += 1;
                        if let Err(e) = r {
                            refused.get_or_insert(e.to_string());
                            live = scene.clone();
                            (steps, run_crossings) = (0, 0);
                            continue;
                        }
                        timed += 1;
                        let sensed = live.world.sensor_events();
                        events += sensed.len();
                        run_crossings += sensed
                            .iter()
                            .filter(|e| e.kind == SensorEventKind::Crossed)
                            .count();
                    }
                    total
                })
            });
            record(
                "filters",
                &case,
                "outcome",
                refused.as_deref().unwrap_or("stepped"),
            );
            record("filters", &case, "timed_steps", timed);
            record("filters", &case, "checked_runs", runs);
            record(
                "filters",
                &case,
                "sensor_events_per_step",
                format!("{:.2}", events as f64 / timed.max(1) as f64),
            );
        }
    }
    group.finish();
}

criterion_group!(benches, pairs, sensors);
criterion_main!(benches);
