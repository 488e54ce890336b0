//! A struck sphere stack: four spheres resting in a column, struck at 120 m/s
//! by a fifth. In DISCRETE the striker passes through the stack between two
//! steps. SPHERE_MESH_CCD sweeps moving bodies alone today: touching moving
//! spheres form an interacting group, which it refuses with an error naming
//! both bodies, leaving the world exactly as it was (see
//! docs/continuous-collision.md, "Supported worlds"). The scene is
//! `parapet_scenes::sphere_stack`. Run with
//! `cargo run -p parapet --example sphere_stack`.

use parapet::prelude::*;
use parapet_scenes::{run, sphere_stack, SceneRun};

/// The stack scene in `mode` for `steps` steps of 1/60 s.
pub fn strike(
    mode: CollisionDetection,
    steps: usize,
) -> Result<SceneRun, Box<dyn std::error::Error>> {
    Ok(run(sphere_stack(mode, steps)?, &mut |_, _| {}))
}

/// Prints what the example shows (the test `tests/tests/examples_demo.rs` runs it too).
pub fn main() -> Result<(), Box<dyn std::error::Error>> {
    for mode in [DISCRETE, SPHERE_MESH_CCD] {
        let r = strike(mode, 30)?;
        let name = if mode == DISCRETE {
            "DISCRETE"
        } else {
            "SPHERE_MESH_CCD"
        };
        println!("{name}: {} steps", r.steps_taken);
        for (id, p) in &r.final_positions {
            println!("  {id} at ({:.3}, {:.3}, {:.3})", p.x, p.y, p.z);
        }
        if let Some(t) = r.crossed_at {
            println!("  the striker passed through a stacked sphere at t = {t:.3} s");
        }
        if let Some(f) = &r.refusal {
            println!("  refused step {}: {}", f.step, f.error);
            println!("  world unchanged: {}", f.world_unchanged);
        }
    }
    Ok(())
}
