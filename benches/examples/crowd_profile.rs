//! Steps one crowd of `parapet_scenes::bench_crowds` (walkers steered along
//! circles on a terrain) so that a profiler sees only its steps, and prints
//! the mean wall time per step (indicative only), the crowd's check and a
//! digest of the last state (every body's pose and velocities, bit for bit).
//!
//! `cargo run --release -p parapet-benches --example crowd_profile --
//! <walkers> <spacing m> <triangles> <discrete|ccd> <steps>`, e.g. under
//! `valgrind --tool=callgrind --toggle-collect='crowd_profile::timed_step'`
//! (the measured steps only, not the scene's first step, which builds the
//! triangle index).

use std::time::Instant;

use parapet::prelude::*;
use parapet_benches::digest::Fnv1a;
use parapet_scenes::bench_crowds::{crowd, DT};

/// One measured step (not inlined: the profiler's toggle).
#[inline(never)]
fn timed_step(w: &mut PhysicsWorld) -> Result<(), StepError> {
    std::hint::black_box(w.step(DT))
}

fn usage() -> ! {
    eprintln!("usage: crowd_profile <walkers> <spacing m> <triangles> <discrete|ccd> <steps>");
    std::process::exit(2);
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() != 6 {
        usage();
    }
    let count: usize = args[1].parse().unwrap_or_else(|_| usage());
    let spacing: f64 = args[2].parse().unwrap_or_else(|_| usage());
    let triangles: usize = args[3].parse().unwrap_or_else(|_| usage());
    let mode = match args[4].as_str() {
        "discrete" => DISCRETE,
        "ccd" => SPHERE_MESH_CCD,
        _ => usage(),
    };
    let steps: u32 = args[5].parse().unwrap_or_else(|_| usage());
    let c = crowd(mode, count, spacing, triangles).unwrap_or_else(|e| {
        eprintln!("crowd not built: {e}");
        std::process::exit(1);
    });
    let mut w = c.world.clone();
    let mut total = 0.0;
    let mut failed = 0u32;
    let (mut swept, mut initial) = (0usize, 0usize);
    for _ in 0..steps {
        c.drive(&mut w);
        let t = Instant::now();
        let r = timed_step(&mut w);
        total += t.elapsed().as_secs_f64();
        if r.is_err() {
            failed += 1;
        }
        for e in w.events() {
            match e.kind {
                ContactKind::Swept => swept += 1,
                _ => initial += 1,
            }
        }
    }
    let check = c.layout.check(&c.centres(&w));
    let mut h = Fnv1a::new();
    h.bodies(&w);
    println!(
        "crowd {count} x {spacing} m on {triangles} triangles, {}: {steps} steps, {:.1} us per step, {failed} failed, sunk {}, crossed {}, min gap {:.4} m, {initial} initial and {swept} swept events, digest {:016x}",
        args[4],
        total / f64::from(steps.max(1)) * 1e6,
        check.sunk,
        check.crossed,
        check.min_gap,
        h.value()
    );
}
