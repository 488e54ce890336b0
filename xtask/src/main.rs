//! parapet's developer tasks, run as `cargo xtask <task>`.
//!
//! - `demo`: runs the demo scenes that exist today and prints what they show.
//! - `help`: lists the tasks.

mod demo;

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (task, rest) = match args.split_first() {
        Some((task, rest)) => (task.as_str(), rest),
        None => ("help", &[][..]),
    };
    match task {
        "demo" => demo::run(rest),
        "help" | "--help" | "-h" => {
            println!("usage: cargo xtask <task>");
            println!("  demo [--quick]   run the demo scenes and print what they show");
            ExitCode::SUCCESS
        }
        other => {
            eprintln!("xtask: unknown task `{other}` (try `cargo xtask help`)");
            ExitCode::from(2)
        }
    }
}
