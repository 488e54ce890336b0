//! parapet's developer tasks, run as `cargo xtask <task>`.
//!
//! - `demo [--quick]`: runs the demo scenes, prints a table per scene and
//!   writes an SVG plot per scene under `target/parapet/demo/`.
//! - `bench-report [--quick]`: runs the benches and writes the report.
//! - `instructions [--quick]`: callgrind instruction counts against rapier3d
//!   and parry3d, written to `docs/reports/instructions.md`.
//! - `test [-- ARGS]`: the README's test command: sets up what the tests
//!   need outside Cargo (the replay page's browser), then `cargo test
//!   --workspace ARGS`, then the Python package's tests (pytest, in a
//!   virtual environment under the target directory).
//! - `help`: lists the tasks.

mod bench_report;
mod instructions;
mod test;

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (task, rest) = match args.split_first() {
        Some((task, rest)) => (task.as_str(), rest),
        None => ("help", &[][..]),
    };
    match task {
        "demo" => {
            let quick = rest.iter().any(|a| a == "--quick");
            if let Some(bad) = rest.iter().find(|a| *a != "--quick") {
                eprintln!("xtask demo: unknown argument `{bad}` (only --quick)");
                return ExitCode::from(2);
            }
            let out_dir = xtask::demo::default_out_dir();
            let mut stdout = std::io::stdout();
            match xtask::demo::run(quick, &out_dir, &mut stdout, true) {
                Ok(report) if report.all_as_expected() => ExitCode::SUCCESS,
                Ok(_) => {
                    eprintln!("xtask demo: a continuous run crossed a surface (see the tables)");
                    ExitCode::FAILURE
                }
                Err(e) => {
                    eprintln!("xtask demo: {e}");
                    ExitCode::FAILURE
                }
            }
        }
        "bench-report" => bench_report::run(rest),
        "instructions" => instructions::run(rest),
        "test" => test::run(rest),
        "help" | "--help" | "-h" => {
            println!("usage: cargo xtask <task>");
            println!("  demo [--quick]   run the demo scenes, print a table per scene and");
            println!("                   write an SVG plot per scene under target/parapet/demo/");
            println!(
                "  test [-- ARGS]   the tests: find or install the replay page's browser, then"
            );
            println!("                   cargo test --workspace ARGS, then the Python package's pytest suite");
            println!("  bench-report [--quick]   run the benches, write docs/reports/ccd-performance.md (--quick: target/parapet/bench-report/)");
            println!("  instructions [--quick]   callgrind instruction counts against rapier3d and parry3d, write docs/reports/instructions.md");
            ExitCode::SUCCESS
        }
        other => {
            eprintln!("xtask: unknown task `{other}` (try `cargo xtask help`)");
            ExitCode::from(2)
        }
    }
}
