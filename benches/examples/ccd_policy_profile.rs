//! Steps one world of the per-body policy's workload
//! (`parapet_benches::policy`) a number of runs, for a profiler: each run
//! clones the prepared world and takes `RUN` steps, the walkers' controller
//! before each. Prints the mean wall time per step (indicative only: the
//! criterion bench `ccd_policy` is the measurement), the fast spheres that
//! crossed the terrain, and the `Auto` world's continuous bodies per step.
//!
//! `cargo run --release -p parapet-benches --example ccd_policy_profile --
//! <discrete|auto|continuous> <runs>`, e.g. under `valgrind --tool=callgrind
//! --toggle-collect='parapet_world::step::*::step'` for the instruction
//! count of the steps alone.

use std::time::Instant;

use parapet_benches::policy::{policy_scene, Policy, DT, RUN};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let policy = Policy::ALL
        .into_iter()
        .find(|p| args.get(1).map(String::as_str) == Some(p.name()));
    let runs: Option<usize> = args.get(2).and_then(|r| r.parse().ok());
    let (Some(policy), Some(runs)) = (policy, runs) else {
        eprintln!("usage: ccd_policy_profile <discrete|auto|continuous> <runs>");
        std::process::exit(2);
    };
    let scene = match policy_scene(policy) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("the workload was refused: {e}");
            std::process::exit(1);
        }
    };
    let (mut elapsed, mut steps, mut crossed, mut continuous) = (0.0, 0usize, 0usize, 0u64);
    for _ in 0..runs {
        let mut live = scene.clone();
        for _ in 0..RUN {
            live.drive();
            let t = Instant::now();
            let r = std::hint::black_box(live.world.step(DT));
            elapsed += t.elapsed().as_secs_f64();
            if let Err(e) = r {
                eprintln!("step refused: {e}");
                std::process::exit(1);
            }
            steps += 1;
            crossed += scene.crossed(&live.world);
            continuous += u64::from(live.world.ccd_report().continuous_bodies);
        }
    }
    println!(
        "{}: {:.1} us per step over {steps} steps; fast-sphere crossings {crossed}; continuous bodies per step {:.2}",
        policy.name(),
        1e6 * elapsed / steps.max(1) as f64,
        continuous as f64 / steps.max(1) as f64
    );
}
