//! Saving a world mid-run and resuming it: a ball bouncing on a one-sided
//! floor in SPHERE_MESH_CCD is stepped 60 times, written as a snapshot (JSON
//! and CBOR), read back, and both the original and the copy are stepped 60
//! more times: the copy ends at the same bits. Run with
//! `cargo run -p parapet --features serde --example snapshot`.

use parapet::prelude::*;
use parapet::snapshot::{from_bytes, from_json, to_bytes, to_json};

/// Step (s).
const DT: f32 = 1.0 / 60.0;

/// The world: a floor triangle and a ball dropped onto it at 20 m/s.
pub fn bouncing_ball() -> Result<(PhysicsWorld, BodyId), Box<dyn std::error::Error>> {
    let mut world = PhysicsWorld::new();
    world.collision_detection = SPHERE_MESH_CCD;
    let floor = Shape::mesh(
        vec![
            Vec3::new(-10.0, -10.0, 0.0),
            Vec3::new(10.0, -10.0, 0.0),
            Vec3::new(0.0, 10.0, 0.0),
        ],
        vec![[0, 1, 2]],
    )?;
    world.add_body(RigidBody::new_static(floor).with_material(Material::new(0.5, 0.6, 0.1)?))?;
    let ball = RigidBody::new_dynamic(Shape::sphere(0.2)?, 1.0)?
        .with_position(Vec3::new(0.0, 0.0, 1.0))
        .with_linear_velocity(Vec3::new(0.5, 0.0, -20.0));
    let ball = world.add_body(ball)?;
    Ok((world, ball))
}

/// Steps `world` `steps` times.
fn run(world: &mut PhysicsWorld, steps: usize) -> Result<(), StepError> {
    for _ in 0..steps {
        world.step(DT)?;
    }
    Ok(())
}

/// The ball's final state in the original and in the copies resumed from
/// the JSON and from the CBOR snapshot, with the snapshots' sizes (bytes).
pub fn resumed() -> Result<([RigidBody; 3], usize, usize), Box<dyn std::error::Error>> {
    let (mut world, ball) = bouncing_ball()?;
    run(&mut world, 60)?;
    let json = to_json(&world)?;
    let bytes = to_bytes(&world)?;
    let mut from_text = from_json(&json)?;
    let mut from_cbor = from_bytes(&bytes)?;
    for w in [&mut world, &mut from_text, &mut from_cbor] {
        run(w, 60)?;
    }
    let body = |w: &PhysicsWorld| w.body(ball).cloned().ok_or("the ball is in the world");
    Ok((
        [body(&world)?, body(&from_text)?, body(&from_cbor)?],
        json.len(),
        bytes.len(),
    ))
}

/// Prints the snapshot sizes and that the resumed copies match.
pub fn main() -> Result<(), Box<dyn std::error::Error>> {
    let ([original, text, cbor], json_len, cbor_len) = resumed()?;
    println!("snapshot after 60 steps: {json_len} bytes of JSON, {cbor_len} bytes of CBOR");
    let p = original.position();
    println!(
        "after 120 steps the ball is at ({:.4}, {:.4}, {:.4}) m",
        p.x, p.y, p.z
    );
    println!(
        "resumed from JSON: same bits {}; from CBOR: same bits {}",
        text == original && text.position().map(f32::to_bits) == p.map(f32::to_bits),
        cbor == original && cbor.position().map(f32::to_bits) == p.map(f32::to_bits),
    );
    Ok(())
}
