//! Steps one world of the filters' and sensors' workloads
//! (`parapet_benches::filters`) a number of runs, for a profiler, and
//! prints the mean wall time per step (indicative only: the criterion
//! bench `filters` is the measurement) with what the world reported.
//!
//! `cargo run --release -p parapet-benches --example filters_profile --
//! <groups|excluded|apart|sensors|bare> <discrete|ccd> <runs>`: the
//! filtered-pairs world in one of its three layouts (each run: 6 steps
//! from a clone of the prepared world), or the sensors' workload with its
//! 10 sensors or without them (each run: the policy workload's 6 steps).
//! For instruction counts, run it under `RAYON_NUM_THREADS=1 valgrind
//! --tool=callgrind` with 0 runs and with N runs: the difference of the
//! inclusive counts of `PhysicsWorld::step` over the `6 N` timed steps is
//! the steps' cost alone (the preparation steps cancel).

use std::time::Instant;

use parapet::prelude::*;
use parapet_benches::filters::{pairs_world, sensor_scene, Layout};
use parapet_benches::policy::{Policy, DT, RUN};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let arg = |k: usize| args.get(k).map(String::as_str);
    let mode = match arg(2) {
        Some("discrete") => Some((DISCRETE, Policy::Discrete)),
        Some("ccd") => Some((SPHERE_MESH_CCD, Policy::Continuous)),
        _ => None,
    };
    let runs: Option<usize> = arg(3).and_then(|r| r.parse().ok());
    let (Some(world), Some((mode, policy)), Some(runs)) = (arg(1), mode, runs) else {
        eprintln!(
            "usage: filters_profile <groups|excluded|apart|sensors|bare> <discrete|ccd> <runs>"
        );
        std::process::exit(2);
    };
    let (mut elapsed, mut steps, mut contacts, mut sensed) = (0.0, 0usize, 0usize, 0usize);
    let mut step = |w: &mut PhysicsWorld| {
        let t = Instant::now();
        let r = std::hint::black_box(w.step(DT));
        elapsed += t.elapsed().as_secs_f64();
        if let Err(e) = r {
            eprintln!("step refused: {e}");
            std::process::exit(1);
        }
        steps += 1;
        contacts += w.events().len();
        sensed += w.sensor_events().len();
    };
    if let Some(layout) = Layout::ALL.into_iter().find(|l| l.name() == world) {
        let prepared = pairs_world(layout, mode).unwrap_or_else(|e| {
            eprintln!("the workload was refused: {e}");
            std::process::exit(1);
        });
        for _ in 0..runs {
            let mut live = prepared.world.clone();
            for _ in 0..RUN {
                step(&mut live);
            }
        }
    } else if world == "sensors" || world == "bare" {
        let scene = sensor_scene(policy, world == "sensors").unwrap_or_else(|e| {
            eprintln!("the workload was refused: {e}");
            std::process::exit(1);
        });
        for _ in 0..runs {
            let mut live = scene.clone();
            for _ in 0..RUN {
                live.drive();
                step(&mut live.world);
            }
        }
    } else {
        eprintln!("unknown world {world}");
        std::process::exit(2);
    }
    let per_step = |n: usize| n as f64 / steps.max(1) as f64;
    println!(
        "{world} {}: {:.1} us per step over {steps} steps; per step: contact events {:.1}, \
         sensor events {:.2}",
        arg(2).unwrap_or("?"),
        1e6 * elapsed / steps.max(1) as f64,
        per_step(contacts),
        per_step(sensed),
    );
}
