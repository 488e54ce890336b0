//! The step cost of a scene at rest: the 16 crates of the rapier comparison
//! on the 8,192-triangle terrain, stepped `warmup` steps (to come to rest
//! and, with sleeping on, fall asleep) and then `steps` more inside
//! [`measured`], the one function to count under
//! `valgrind --tool=callgrind --toggle-collect='resting_profile::measured'`.
//! Prints how many crates sleep and a digest of every body and event of the
//! measured steps.
//!
//! `cargo run --release -p parapet-benches --example resting_profile --
//! <discrete|ccd> <warmup> <steps>`

use parapet::prelude::*;
use parapet_benches::digest::Fnv1a;
use parapet_scenes::bench_boxes::crates_scene;

/// Step (s) of the scene.
const DT: f32 = 1.0 / 60.0;

/// The measured steps, digested after each.
#[inline(never)]
fn measured(w: &mut PhysicsWorld, steps: u32, h: &mut Fnv1a) {
    for _ in 0..steps {
        w.step(DT).expect("the crates step");
        h.bodies(w);
        h.events(w);
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let usage = || -> ! {
        eprintln!("usage: resting_profile <discrete|ccd> <warmup> <steps>");
        std::process::exit(2)
    };
    if args.len() != 4 {
        usage();
    }
    let mode = match args[1].as_str() {
        "discrete" => DISCRETE,
        "ccd" => SPHERE_MESH_CCD,
        _ => usage(),
    };
    let warmup: u32 = args[2].parse().unwrap_or_else(|_| usage());
    let steps: u32 = args[3].parse().unwrap_or_else(|_| usage());
    let mut w = crates_scene(16)
        .parapet(mode)
        .expect("the crates scene builds");
    for _ in 0..warmup {
        w.step(DT).expect("the crates step");
    }
    let mut h = Fnv1a::new();
    measured(&mut w, steps, &mut h);
    let asleep = w.bodies().filter(|(_, b)| b.is_sleeping()).count();
    println!(
        "crates_16 {}: {warmup} + {steps} steps, {asleep} asleep, digest {:016x}",
        args[1],
        h.value()
    );
}
