//! Steps one world of the per-body policy's workload
//! (`parapet_benches::policy`) a number of runs, for a profiler: each run
//! clones the prepared world and takes `RUN` steps, the walkers' controller
//! before each. Prints the mean wall time per step (indicative only: the
//! criterion bench `ccd_policy` is the measurement), the fast spheres that
//! crossed the terrain, and per step the continuous bodies, swept impacts,
//! sweep passes and triangle candidates of `ccd_report`.
//!
//! `cargo run --release -p parapet-benches --example ccd_policy_profile --
//! <discrete|auto|continuous> <runs>`. For instruction counts, run it under
//! `RAYON_NUM_THREADS=1 valgrind --tool=callgrind` with 0 runs and with N
//! runs: the difference of the inclusive counts of `PhysicsWorld::step`
//! over the `N * RUN` timed steps is the steps' cost alone (the preparation
//! steps cancel), and `step::report::start_ledger` and
//! `step::report::count_impacts` (kept out of line) are the report's.

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
    let (mut elapsed, mut steps, mut crossed) = (0.0, 0usize, 0usize);
    let mut sums = [0u64; 4];
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
            let r = live.world.ccd_report();
            let counts = [
                u64::from(r.continuous_bodies),
                u64::from(r.swept_impacts),
                r.passes,
                r.candidate_triangles,
            ];
            for (sum, n) in sums.iter_mut().zip(counts) {
                *sum += n;
            }
        }
    }
    let per_step = |sum: u64| sum as f64 / steps.max(1) as f64;
    println!(
        "{}: {:.1} us per step over {steps} steps; fast-sphere crossings {crossed}; per step: \
         continuous bodies {:.2}, swept impacts {:.2}, passes {:.2}, candidate triangles {:.2}",
        policy.name(),
        1e6 * elapsed / steps.max(1) as f64,
        per_step(sums[0]),
        per_step(sums[1]),
        per_step(sums[2]),
        per_step(sums[3]),
    );
}
