//! Steps one scene of `parapet_scenes::bench_ccd` many times (a fresh clone
//! each time) so that a profiler sees only that scene's steps: the criterion
//! bench `ccd_step` builds every scene (and steps each once) before timing,
//! which pollutes a whole-process profile.
//!
//! `cargo run --release -p parapet-benches --example step_profile --
//! <scene> <discrete|ccd> <steps>`, e.g. under
//! `valgrind --tool=callgrind --toggle-collect='parapet_world::step::*::step'`
//! or `perf record`. Prints the mean wall time per step (indicative only: the
//! criterion bench is the measurement) and a digest of the first stepped
//! world (every body's position, rotation and velocities, bit for bit, and
//! the step's outcome), so that a change meant to make the step faster can
//! show it leaves the step's result unchanged.

use std::time::Instant;

use parapet::prelude::*;
use parapet_benches::digest::Fnv1a;
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
    // Outside the timing: the state one step leaves, digested.
    let mut w = scene.world.clone();
    let outcome = w.step(scene.dt).map_err(|e| e.to_string());
    // Also outside the timing: the same world stepped CHAIN_STEPS times in
    // sequence (stopping at the first failure), digested after every step
    // with its events, so that a change that alters only a later step, or
    // only a report, shows too.
    let mut chain = scene.world.clone();
    let mut chained: u64 = 0;
    for _ in 0..CHAIN_STEPS {
        let outcome = chain.step(scene.dt).map_err(|e| e.to_string());
        chained = chained.rotate_left(5) ^ digest(&chain, &outcome) ^ events_digest(&chain);
        if outcome.is_err() {
            break;
        }
    }
    println!(
        "{} {}: {steps} steps, {:.1} us per step, {failed} failed, state digest {:016x}, chain digest {chained:016x}",
        args[1],
        args[2],
        per_step * 1e6,
        digest(&w, &outcome)
    );
}

/// Steps of the chained digest.
const CHAIN_STEPS: u32 = 40;

/// FNV-1a over the bits of every event of the last step and the contact count.
fn events_digest(world: &PhysicsWorld) -> u64 {
    let mut h = Fnv1a::new();
    h.events(world);
    h.value()
}

/// FNV-1a over the bits of every body's pose and velocities (in insertion
/// order) and the step's outcome: equal digests mean equal results.
fn digest(world: &PhysicsWorld, outcome: &Result<(), String>) -> u64 {
    let mut h = Fnv1a::new();
    h.bodies(world);
    match outcome {
        Ok(()) => h.eat(b"ok"),
        Err(e) => h.eat(e.as_bytes()),
    }
    h.value()
}
