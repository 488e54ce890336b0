//! Steps one dense scene of `parapet_scenes::bench_dense` once (the
//! elastic room or the crowded point) so that a profiler sees only that
//! step, and prints its wall time (indicative only), its outcome and the
//! continuous stage's work counters.
//!
//! `cargo run --release -p parapet-benches --example dense_profile --
//! <room|point> <count> <discrete|ccd>`, e.g. under
//! `valgrind --tool=callgrind --toggle-collect='dense_profile::timed_step'`.

use std::time::Instant;

use parapet::prelude::*;
use parapet_scenes::bench_dense::{crowded_point, elastic_room, ROOM_DT};

fn usage() -> ! {
    eprintln!("usage: dense_profile <room|point> <count> <discrete|ccd>");
    std::process::exit(2);
}

/// The measured step (not inlined: the profiler's toggle).
#[inline(never)]
fn timed_step(w: &mut PhysicsWorld, dt: f32) -> Result<(), StepError> {
    std::hint::black_box(w.step(dt))
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() != 4 {
        usage();
    }
    let count: usize = args[2].parse().unwrap_or_else(|_| usage());
    let mode = match args[3].as_str() {
        "discrete" => DISCRETE,
        "ccd" => SPHERE_MESH_CCD,
        _ => usage(),
    };
    let (world, dt) = match args[1].as_str() {
        "room" => (elastic_room(mode, count), ROOM_DT),
        "point" => (crowded_point(mode, count), 1.0 / 60.0),
        _ => usage(),
    };
    let mut w = world.unwrap_or_else(|e| {
        eprintln!("scene not built: {e}");
        std::process::exit(1);
    });
    let t = Instant::now();
    let r = timed_step(&mut w, dt);
    let took = t.elapsed().as_secs_f64();
    println!(
        "{} {count} {}: {:.1} ms, {}, {} events, {:?}",
        args[1],
        args[3],
        took * 1e3,
        match &r {
            Ok(()) => "ok".to_string(),
            Err(e) => format!("refused: {e}"),
        },
        w.events().len(),
        w.ccd_report()
    );
}
