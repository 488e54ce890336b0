//! Steps one scene of `parapet_scenes::bench_versus` (the parapet against
//! rapier3d scenes) in one engine so that a profiler sees only its steps,
//! and prints the mean wall time per step (indicative only) and the scene's
//! independent check over those steps (walkers sunk or passed into each
//! other, pairs passed through, spheres below the terrain), and parapet's
//! swept events.
//!
//! `cargo run --release -p parapet-benches --example versus_profile --
//! <scene> <parapet_discrete|parapet_ccd|rapier_discrete|rapier_ccd|rapier_ccd_one> <steps>`
//! (`list` as the scene prints the names), e.g. under
//! `valgrind --tool=callgrind --toggle-collect='versus_profile::timed_*'`:
//! the measured steps only, not the prepared first step. The crowds step
//! on from step to step; the impact scenes time their second step from the
//! prepared state each time, as the bench does.

#[path = "versus/engines.rs"]
mod engines;

use std::time::Instant;

use engines::{Parapet, Rapier, RapierCcd};
use parapet::prelude::*;
use parapet_scenes::bench_versus::{Verdict, DT};
use parapet_scenes::versus_scenes::versus_scenes;
use rapier3d::prelude::PhysicsPipeline;

/// One measured parapet step (not inlined: the profiler's toggle).
#[inline(never)]
fn timed_parapet(w: &mut PhysicsWorld) -> Result<(), StepError> {
    std::hint::black_box(w.step(DT))
}

/// One measured rapier step (not inlined: the profiler's toggle).
#[inline(never)]
fn timed_rapier(w: &mut Rapier, pipeline: &mut PhysicsPipeline) {
    w.step(pipeline);
    std::hint::black_box(&w.bodies);
}

fn usage() -> ! {
    eprintln!(
        "usage: versus_profile <scene|list> <parapet_discrete|parapet_ccd|rapier_discrete|rapier_ccd|rapier_ccd_one> <steps>"
    );
    std::process::exit(2);
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let scenes = versus_scenes();
    if args.get(1).map(String::as_str) == Some("list") {
        for s in &scenes {
            println!("{}: {}", s.name, s.title);
        }
        return;
    }
    if args.len() != 4 {
        usage();
    }
    let Some(s) = scenes.iter().find(|s| s.name == args[1]) else {
        usage()
    };
    let steps: usize = args[3].parse().unwrap_or_else(|_| usage());
    let mut verdict = Verdict::default();
    let mut refused = None;
    let mut total = 0.0;
    let mut swept = 0usize;
    let mut add = |v: Verdict| {
        verdict.sunk += v.sunk;
        verdict.crossed += v.crossed;
        verdict.displaced += v.displaced;
    };
    match args[2].as_str() {
        engine @ ("parapet_discrete" | "parapet_ccd") => {
            let mode = if engine == "parapet_ccd" {
                SPHERE_MESH_CCD
            } else {
                DISCRETE
            };
            let prepared = Parapet::new(s, mode).unwrap_or_else(|e| {
                eprintln!("scene not built: {e}");
                std::process::exit(1);
            });
            let mut w = prepared.clone();
            for k in 0..steps {
                if k % s.run == 0 {
                    w = prepared.clone();
                }
                s.drive_parapet(&mut w.world, &w.ids);
                let t = Instant::now();
                let r = timed_parapet(&mut w.world);
                total += t.elapsed().as_secs_f64();
                swept += w
                    .world
                    .events()
                    .iter()
                    .filter(|e| e.kind == ContactKind::Swept)
                    .count();
                match r {
                    Ok(()) => add(s.judge(&w.poses())),
                    Err(e) => {
                        refused.get_or_insert(e.to_string());
                    }
                }
            }
        }
        engine @ ("rapier_discrete" | "rapier_ccd" | "rapier_ccd_one") => {
            let ccd = match engine {
                "rapier_discrete" => RapierCcd::Off,
                "rapier_ccd" => RapierCcd::Every,
                _ => RapierCcd::Half,
            };
            let mut pipeline = PhysicsPipeline::new();
            let prepared = Rapier::new(s, &mut pipeline, ccd);
            let mut w = prepared.clone();
            for k in 0..steps {
                if k % s.run == 0 {
                    w = prepared.clone();
                }
                w.drive(s);
                let t = Instant::now();
                timed_rapier(&mut w, &mut pipeline);
                total += t.elapsed().as_secs_f64();
                add(s.judge(&w.poses()));
            }
        }
        _ => usage(),
    }
    println!(
        "{} {} x{steps}: {:.3} ms per step, sunk {}, crossed {}, displaced {}, {} swept events (parapet), {}",
        s.name,
        args[2],
        total * 1e3 / steps.max(1) as f64,
        verdict.sunk,
        verdict.crossed,
        verdict.displaced,
        swept,
        refused.map_or("stepped".to_string(), |e| format!("refused: {e}"))
    );
}
