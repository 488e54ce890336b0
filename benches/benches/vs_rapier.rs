//! parapet against rapier3d: the scenes of `parapet_scenes::bench_versus`
//! (crowds of 64 and 256 rotation-locked capsule walkers 1.0, 1.8 and 4 m
//! apart on 2,048 and 8,192 triangles, steered along circles; 64 head-on
//! sphere pairs at 100 m/s; 64 spheres falling at 40 m/s onto a terrain;
//! 16 and 64 crates tumbling onto 8,192 triangles, two cars head-on at
//! 25 m/s, a car rolling over, a column of 20 cubes and pyramids of 55 and
//! 210) stepped in one process by parapet (DISCRETE and SPHERE_MESH_CCD)
//! and by rapier3d 0.36 with its defaults (sleeping on), CCD off
//! (`rapier_discrete`) and on every dynamic body (`ccd_enabled(true)`),
//! both engines combining friction by the geometric mean and restitution
//! by the maximum.
//! rapier's CCD bodies ("bullets") sweep fixed, kinematic and dynamic
//! bodies except other bullets, so two head-on bullets pass through each
//! other; the head-on array is also stepped with CCD on one sphere of each
//! pair (`rapier_ccd_one`), the configuration in which rapier sweeps the
//! pair.
//!
//! Each engine builds its world from the same description and takes one
//! untimed step (parapet's triangle index, rapier's broad phase). Timing:
//! `iter_custom` times only the step. The crowds step on from step to step
//! (the controller sets each walker's horizontal velocity before every
//! step, outside the timing) and start again from the prepared state every
//! `run` steps; the impact scenes time their second step, from a copy of
//! the prepared state each time. After every timed step, outside the
//! timing, the scene's independent check (`VersusScene::judge`: walkers
//! sunk into the terrain or passed into each other, pairs passed through,
//! spheres below the terrain, from positions alone) runs on both engines'
//! bodies; the totals are recorded for the report's section "parapet
//! against rapier3d".
//!
//! Run briefly: `cargo bench -p parapet-benches --bench vs_rapier --
//! --warm-up-time 1 --measurement-time 3`.

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, Criterion};
use parapet::prelude::*;
use parapet_benches::checks::record;
use parapet_scenes::bench_versus::{Verdict, VersusCheck, VersusScene, DT};
use parapet_scenes::versus_scenes::versus_scenes;
use rapier3d::prelude::PhysicsPipeline;

#[path = "../examples/versus/engines.rs"]
mod engines;
use engines::{Parapet, Rapier, RapierCcd};

/// What the checks of one engine found over its timed steps.
#[derive(Default)]
struct Tally {
    steps: usize,
    verdict: Verdict,
    refused: Option<String>,
}

impl Tally {
    fn add(&mut self, v: Verdict) {
        self.steps += 1;
        self.verdict.sunk += v.sunk;
        self.verdict.crossed += v.crossed;
        self.verdict.displaced += v.displaced;
    }

    fn record(&self, case: &str) {
        record("vs_rapier", case, "steps", self.steps);
        record("vs_rapier", case, "sunk", self.verdict.sunk);
        record("vs_rapier", case, "crossed", self.verdict.crossed);
        record("vs_rapier", case, "displaced", self.verdict.displaced);
        record(
            "vs_rapier",
            case,
            "outcome",
            self.refused.as_deref().unwrap_or("stepped"),
        );
    }
}

fn bench_parapet(c: &mut Criterion, s: &VersusScene, mode: CollisionDetection, label: &str) {
    let case = format!("{}/{label}", s.name);
    let prepared = match Parapet::new(s, mode) {
        Ok(p) => p,
        Err(e) => {
            record("vs_rapier", &case, "outcome", format!("refused: {e}"));
            return;
        }
    };
    let mut tally = Tally::default();
    let mut w = prepared.clone();
    let mut steps = 0usize;
    c.bench_function(&format!("vs_rapier/{case}"), |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                if steps == s.run {
                    w = prepared.clone();
                    steps = 0;
                }
                s.drive_parapet(&mut w.world, &w.ids);
                let t = Instant::now();
                let r = black_box(w.world.step(DT));
                total += t.elapsed();
                steps += 1;
                match r {
                    Ok(()) => tally.add(s.judge(&w.poses())),
                    Err(e) => {
                        tally.refused.get_or_insert(e.to_string());
                        w = prepared.clone();
                        steps = 0;
                    }
                }
            }
            total
        })
    });
    tally.record(&case);
}

fn bench_rapier(c: &mut Criterion, s: &VersusScene, ccd: RapierCcd) {
    let label = match ccd {
        RapierCcd::Off => "rapier_discrete",
        RapierCcd::Every => "rapier_ccd",
        RapierCcd::Half => "rapier_ccd_one",
    };
    let case = format!("{}/{label}", s.name);
    let mut pipeline = PhysicsPipeline::new();
    let prepared = Rapier::new(s, &mut pipeline, ccd);
    let mut tally = Tally::default();
    let mut w = prepared.clone();
    let mut steps = 0usize;
    c.bench_function(&format!("vs_rapier/{case}"), |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                if steps == s.run {
                    w = prepared.clone();
                    steps = 0;
                }
                w.drive(s);
                let t = Instant::now();
                w.step(&mut pipeline);
                black_box(&w.bodies);
                total += t.elapsed();
                steps += 1;
                tally.add(s.judge(&w.poses()));
            }
            total
        })
    });
    tally.record(&case);
}

fn bench(c: &mut Criterion) {
    for s in versus_scenes() {
        record("vs_rapier", &s.name, "title", &s.title);
        bench_parapet(c, &s, DISCRETE, "parapet_discrete");
        bench_parapet(c, &s, SPHERE_MESH_CCD, "parapet_ccd");
        bench_rapier(c, &s, RapierCcd::Off);
        bench_rapier(c, &s, RapierCcd::Every);
        if matches!(s.check, VersusCheck::Pairs) {
            bench_rapier(c, &s, RapierCcd::Half);
        }
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
