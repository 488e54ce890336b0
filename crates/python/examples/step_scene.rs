//! The Rust side of `bench/step_overhead.py`: loads a scene file, steps it
//! N times and prints the same digest as the Python side (FNV-1a of every
//! body's position and velocities as little-endian f32, body order).
//!
//! `cargo run --release -p parapet-python --example step_scene -- SCENE N`

use std::path::Path;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let [_, path, steps] = args.as_slice() else {
        return Err("usage: step_scene SCENE.json STEPS".into());
    };
    let steps: usize = steps.parse()?;
    let mut scene = parapet_cli::scene::load_scene(Path::new(path))?;
    for _ in 0..steps {
        scene.world.step(scene.scene.dt)?;
    }
    let mut bytes = Vec::new();
    for read in [
        |b: &parapet::body::RigidBody| b.position(),
        |b: &parapet::body::RigidBody| b.linear_velocity(),
        |b: &parapet::body::RigidBody| b.angular_velocity(),
    ] {
        for (_, body) in scene.world.bodies() {
            for x in read(body).iter() {
                bytes.extend_from_slice(&x.to_le_bytes());
            }
        }
    }
    println!(
        "{} bodies, {steps} steps, digest {:016x}",
        scene.world.body_count(),
        fnv1a(&bytes)
    );
    Ok(())
}

/// FNV-1a (64-bit) of `data`: the bench's digest, the same on both sides,
/// kept here so that the example needs no hashing dependency.
fn fnv1a(data: &[u8]) -> u64 {
    data.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}
