//! One pair's time-of-impact queries for an instruction count under
//! callgrind (`parapet_benches::toi`):
//! `valgrind --tool=callgrind target/release/examples/toi_profile <pair> <translating|turning> <parapet|parapet_public|parry3d> [repeats]`.
//! Prints the sum of the answered times, so the work is not optimized away.

use parapet_benches::toi::{parapet, parapet_public, parry, queries, shape, PAIRS};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 4 {
        eprintln!("usage: toi_profile <pair> <translating|turning> <parapet|parapet_public|parry3d> [repeats]");
        std::process::exit(2);
    }
    let Some((k, (_, ka, kb))) = PAIRS.iter().enumerate().find(|(_, p)| p.0 == args[1]) else {
        eprintln!("unknown pair {}", args[1]);
        std::process::exit(2);
    };
    let turning = args[2] == "turning";
    let repeats: usize = args.get(4).and_then(|s| s.parse().ok()).unwrap_or(10);
    let (a, b) = (shape(*ka), shape(*kb));
    let qs = queries(0x27 + k as u64, turning);
    let mut sum = 0.0f64;
    for _ in 0..repeats {
        let times = match args[3].as_str() {
            "parapet" => parapet(&a, &b, &qs),
            "parapet_public" => parapet_public(&a, &b, &qs),
            _ => parry(&a, &b, &qs),
        };
        sum += times.iter().map(|t| f64::from(*t)).sum::<f64>();
    }
    println!("{sum}");
}
