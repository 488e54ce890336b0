//! Steps one scene of `parapet_scenes::bench_ccd` many times (a fresh clone
//! each time) so that a profiler sees only that scene's steps: the criterion
//! bench `ccd_step` builds every scene (and steps each once) before timing,
//! which pollutes a whole-process profile.
//!
//! `cargo run --release -p parapet-benches --example step_profile --
//! <scene> <discrete|ccd> <steps>`, e.g. under
//! `valgrind --tool=callgrind --toggle-collect='parapet_world::step::*::step'`
//! or `perf record`. Prints the mean wall time per step (indicative only: the
//! criterion bench is the measurement).

use std::time::Instant;

use parapet::prelude::*;
use parapet_scenes::bench_ccd::{by_name, SCENES};

fn usage() -> ! {
    eprintln!(
        "usage: step_profile <scene> <discrete|ccd> <steps>; scenes: {}",
        SCENES.join(", ")
    );
    std::process::exit(2);
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() != 4 {
        usage();
    }
    let mode = match args[2].as_str() {
        "discrete" => DISCRETE,
        "ccd" => SPHERE_MESH_CCD,
        _ => usage(),
    };
    let steps: u32 = args[3].parse().unwrap_or_else(|_| usage());
    let scene = match by_name(&args[1], mode) {
        Some(Ok(s)) => s,
        Some(Err(e)) => {
            eprintln!("scene {} not built: {e}", args[1]);
            std::process::exit(1);
        }
        None => usage(),
    };
    let mut worlds: Vec<PhysicsWorld> = (0..steps).map(|_| scene.world.clone()).collect();
    let start = Instant::now();
    let mut failed = 0u32;
    for w in &mut worlds {
        if std::hint::black_box(w.step(scene.dt)).is_err() {
            failed += 1;
        }
    }
    let per_step = start.elapsed().as_secs_f64() / f64::from(steps.max(1));
    println!(
        "{} {}: {steps} steps, {:.1} us per step, {failed} failed",
        args[1],
        args[2],
        per_step * 1e6
    );
}
