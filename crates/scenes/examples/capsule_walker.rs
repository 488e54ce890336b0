//! A capsule walker on a terrain: a rotation-locked capsule (a character body
//! that only translates) dropped at 60 m/s onto a 3200-triangle height field,
//! then walked across it by setting its horizontal velocity before each step.
//! In SPHERE_MESH_CCD it lands and walks; in DISCRETE the drop carries it
//! through the ground in the first step. The scene is
//! `parapet_scenes::capsule_walker`, shared with the demo and the tests (it
//! needs the scenes' terrain generator and their independent height-field
//! check, so it is this crate's example, not the facade's).
//! Run with `cargo run -p parapet-scenes --example capsule_walker`.

use parapet::prelude::*;
use parapet_scenes::{capsule_walker, run, SceneRun};

/// The walker scene in `mode` for `steps` steps of 1/30 s.
pub fn walk(
    mode: CollisionDetection,
    steps: usize,
) -> Result<SceneRun, Box<dyn std::error::Error>> {
    Ok(run(capsule_walker(mode, steps)?, &mut |_, _| {}))
}

/// Prints what the example shows (the test `tests/tests/examples_demo.rs` runs it too).
pub fn main() -> Result<(), Box<dyn std::error::Error>> {
    for mode in [DISCRETE, SPHERE_MESH_CCD] {
        let r = walk(mode, 90)?;
        let name = if mode == DISCRETE {
            "DISCRETE"
        } else {
            "SPHERE_MESH_CCD"
        };
        println!(
            "{name}: {} steps, {} swept impacts",
            r.steps_taken, r.swept_impacts
        );
        for s in r.samples.iter().step_by(15) {
            println!(
                "  t = {:>5.2} s   gap above the terrain = {:>9.3} m",
                s.time, s.gap
            );
        }
        match r.crossed_at {
            Some(t) => println!("  fell through the terrain at t = {t:.3} s"),
            None => println!("  never crossed the terrain (independent height-field check)"),
        }
    }
    Ok(())
}
