//! Steps the vehicle bench world (`parapet_scenes::bench_vehicles`: turning
//! boxes on 8,192 triangles) so that a profiler sees only those steps, and
//! prints the sub-steps per body per step and the swept impacts per step.
//!
//! `cargo run --release -p parapet-benches --example vehicle_profile --
//! <bodies> <discrete|ccd> <steps>`, e.g. under
//! `valgrind --tool=callgrind --toggle-collect='parapet_world::step::*::step'`
//! for the instruction counts of the stepped steps alone (the warm-up steps
//! are counted too: subtract a run with 0 steps). Wall times printed here are
//! indicative only.

use std::time::Instant;

use parapet::prelude::*;
use parapet_scenes::bench_vehicles::{vehicle_world, DT};

fn usage() -> ! {
    eprintln!("usage: vehicle_profile <bodies 1..=64> <discrete|ccd> <steps>");
    std::process::exit(2);
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() != 4 {
        usage();
    }
    let bodies: usize = args[1].parse().unwrap_or_else(|_| usage());
    let mode = match args[2].as_str() {
        "discrete" => DISCRETE,
        "ccd" => SPHERE_MESH_CCD,
        _ => usage(),
    };
    let steps: u32 = args[3].parse().unwrap_or_else(|_| usage());
    if !(1..=64).contains(&bodies) {
        usage();
    }
    let mut w = vehicle_world(bodies, mode).unwrap_or_else(|e| {
        eprintln!("world not built: {e}");
        std::process::exit(1);
    });
    let ids: Vec<BodyId> = w
        .bodies()
        .filter(|(_, b)| b.kind() == BodyKind::Dynamic)
        .map(|(id, _)| id)
        .collect();
    let (mut substeps, mut impacts, mut busiest) = (0u64, 0usize, 0u32);
    let start = Instant::now();
    for step in 0..steps {
        if let Err(e) = w.step(DT) {
            eprintln!("step {step} refused: {e}");
            std::process::exit(1);
        }
        for id in &ids {
            let n = w.ccd_stats(*id).map(|s| s.substeps).unwrap_or(0);
            substeps += u64::from(n);
            busiest = busiest.max(n);
        }
        impacts += w
            .events()
            .iter()
            .filter(|e| e.kind == ContactKind::Swept)
            .count();
    }
    let per_step = start.elapsed().as_secs_f64() / f64::from(steps.max(1));
    let body_steps = (bodies as f64) * f64::from(steps.max(1));
    println!(
        "{bodies} boxes {} {steps} steps: {:.1} us per step, {:.2} sub-steps per body per step \
         (busiest body-step {busiest}), {:.2} swept events per step",
        args[2],
        per_step * 1e6,
        substeps as f64 / body_steps,
        impacts as f64 / f64::from(steps.max(1)),
    );
}
