//! Steps one of the worlds whose continuous step is compared with its
//! discrete one (the crossroads of `parapet_scenes::crossroads` at 1/60 or
//! 1/20 s, driven by its controllers; 64 tumbling boxes on 8,192
//! triangles, `parapet_scenes::bench_vehicles`; a crowd of 64 or 256
//! walkers 1 or 1.8 m apart on a terrain, `parapet_scenes::bench_crowds`,
//! steered along their circles) so that a profiler sees only the measured
//! steps: `warm` steps first, untimed, then `steps` steps through
//! `timed_step`. Prints the mean wall time per step (indicative only), the
//! steps that succeeded and a digest of the last state.
//!
//! `cargo run --release -p parapet-benches --example town_profile --
//! <world> <discrete|ccd> <warm> <steps>`, worlds `crossroads`,
//! `crossroads_coarse`, `boxes_64`, `crowd_64_1`, `crowd_64_1.8`,
//! `crowd_256_1`, `crowd_256_1.8`; under
//! `valgrind --tool=callgrind --toggle-collect='town_profile::timed_step'`
//! (one thread: `RAYON_NUM_THREADS=1`) for the instructions of the
//! measured steps alone; `cargo xtask instructions` does that.

use std::time::Instant;

use parapet::prelude::*;
use parapet_benches::digest::Fnv1a;
use parapet_scenes::bench_crowds::crowd;
use parapet_scenes::bench_vehicles::vehicle_world;
use parapet_scenes::crossroads::{crossroads, crossroads_coarse};
use parapet_scenes::Scene;

/// One measured step (not inlined: the profiler's toggle).
#[inline(never)]
fn timed_step(w: &mut PhysicsWorld, dt: f32) -> Result<(), StepError> {
    std::hint::black_box(w.step(dt))
}

fn usage() -> ! {
    eprintln!(
        "usage: town_profile <crossroads|crossroads_coarse|boxes_64|crowd_64_1|crowd_64_1.8|crowd_256_1|crowd_256_1.8> <discrete|ccd> <warm> <steps>"
    );
    std::process::exit(2);
}

/// A world and what to do before each of its steps.
enum Stepped {
    Scene(Box<Scene>),
    World(PhysicsWorld, f32),
    Crowd(Box<parapet_scenes::bench_crowds::Crowd>, PhysicsWorld),
}

impl Stepped {
    /// The world as it is.
    fn state(&self) -> &PhysicsWorld {
        match self {
            Stepped::Scene(s) => &s.world,
            Stepped::World(w, _) | Stepped::Crowd(_, w) => w,
        }
    }

    /// The world, its controllers applied for the next step, and its step.
    fn world(&mut self) -> (&mut PhysicsWorld, f32) {
        match self {
            Stepped::Scene(s) => {
                s.apply_controls();
                let dt = s.dt;
                (&mut s.world, dt)
            }
            Stepped::World(w, dt) => (w, *dt),
            Stepped::Crowd(c, w) => {
                c.drive(w);
                (w, parapet_scenes::bench_crowds::DT)
            }
        }
    }
}

fn build(name: &str, mode: CollisionDetection) -> Result<Stepped, String> {
    let e = |e: &dyn std::fmt::Display| e.to_string();
    let crowd_of = |count: usize, spacing: f64| -> Result<Stepped, String> {
        let c = crowd(mode, count, spacing, 8192).map_err(|x| e(&x))?;
        let w = c.world.clone();
        Ok(Stepped::Crowd(Box::new(c), w))
    };
    Ok(match name {
        "crossroads" => Stepped::Scene(Box::new(crossroads(mode, 0).map_err(|x| e(&x))?)),
        "crossroads_coarse" => {
            Stepped::Scene(Box::new(crossroads_coarse(mode, 0).map_err(|x| e(&x))?))
        }
        "boxes_64" => Stepped::World(
            vehicle_world(64, mode).map_err(|x| e(&x))?,
            parapet_scenes::bench_vehicles::DT,
        ),
        "crowd_64_1" => crowd_of(64, 1.0)?,
        "crowd_64_1.8" => crowd_of(64, 1.8)?,
        "crowd_256_1" => crowd_of(256, 1.0)?,
        "crowd_256_1.8" => crowd_of(256, 1.8)?,
        _ => usage(),
    })
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() != 5 {
        usage();
    }
    let mode = match args[2].as_str() {
        "discrete" => DISCRETE,
        "ccd" => SPHERE_MESH_CCD,
        _ => usage(),
    };
    let warm: usize = args[3].parse().unwrap_or_else(|_| usage());
    let steps: usize = args[4].parse().unwrap_or_else(|_| usage());
    let mut stepped = build(&args[1], mode).unwrap_or_else(|e| {
        eprintln!("{} not built: {e}", args[1]);
        std::process::exit(1);
    });
    for k in 0..warm {
        let (w, dt) = stepped.world();
        if let Err(e) = w.step(dt) {
            eprintln!("{} warm-up step {k} refused: {e}", args[1]);
            std::process::exit(1);
        }
    }
    let (mut total, mut stepped_ok) = (0.0, 0usize);
    let mut refused = None;
    for k in 0..steps {
        let (w, dt) = stepped.world();
        let t = Instant::now();
        let r = timed_step(w, dt);
        total += t.elapsed().as_secs_f64();
        match r {
            Ok(()) => stepped_ok += 1,
            Err(e) => {
                refused = Some(format!("step {} refused: {e}", warm + k));
                break;
            }
        }
    }
    let mut h = Fnv1a::new();
    h.bodies(stepped.state());
    println!(
        "{} {}: {warm} warm-up steps, {:.1} us per step, {stepped_ok} of {steps} stepped, {}, digest {:016x}",
        args[1],
        args[2],
        total / stepped_ok.max(1) as f64 * 1e6,
        refused.unwrap_or_else(|| "none refused".to_string()),
        h.value()
    );
}
