//! `cargo xtask demo`: runs every demo scene that parapet can run today and
//! prints a table per scene. Scenes are added as capabilities land.

use std::process::ExitCode;

/// Runs the demo; `--quick` is accepted for the test that keeps it from rotting.
pub fn run(args: &[String]) -> ExitCode {
    let quick = args.iter().any(|a| a == "--quick");
    println!(
        "parapet {} demo{}",
        env!("CARGO_PKG_VERSION"),
        if quick { " (quick)" } else { "" }
    );
    let v = parapet::math::Vec3::new(1.0, 2.0, 3.0);
    println!(
        "math: f32 storage, f64 intermediates; |{:?}| = {}",
        v.as_slice(),
        v.norm()
    );
    ExitCode::SUCCESS
}
