//! The tunnelling sphere, DISCRETE vs SPHERE_MESH_CCD side by side:
//! a sphere of radius 0.1 m at height 0.15 m falling at 30 m/s onto a plastic
//! one-sided triangle, steps of 0.01 s. Run with
//! `cargo run -p parapet --example tunneling`.

use parapet::prelude::*;

/// The sphere's height (m) after each of `steps` steps in `mode`.
pub fn heights(
    mode: CollisionDetection,
    steps: usize,
) -> Result<Vec<f32>, Box<dyn std::error::Error>> {
    let mut world = PhysicsWorld::new(); // gravity (0, 0, -9.8) m/s^2
    world.collision_detection = mode;
    // One counter-clockwise triangle seen from above: its front faces +z.
    let floor = Shape::mesh(
        vec![
            Vec3::new(-10.0, -10.0, 0.0),
            Vec3::new(10.0, -10.0, 0.0),
            Vec3::new(0.0, 10.0, 0.0),
        ],
        vec![[0, 1, 2]],
    )?;
    world.add_body(RigidBody::new_static(floor))?; // material: restitution 0 (plastic)
    let ball = RigidBody::new_dynamic(Shape::sphere(0.1)?, 1.0)?
        .with_position(Vec3::new(0.0, 0.0, 0.15))
        .with_linear_velocity(Vec3::new(0.0, 0.0, -30.0));
    let ball = world.add_body(ball)?;
    let mut out = Vec::with_capacity(steps);
    for _ in 0..steps {
        world.step(0.01)?;
        out.push(
            world
                .body(ball)
                .ok_or("the ball left the world")?
                .position()
                .z,
        );
    }
    Ok(out)
}

/// Both modes over `steps` steps: (DISCRETE heights, SPHERE_MESH_CCD heights).
pub fn side_by_side(steps: usize) -> Result<(Vec<f32>, Vec<f32>), Box<dyn std::error::Error>> {
    Ok((heights(DISCRETE, steps)?, heights(SPHERE_MESH_CCD, steps)?))
}

/// Prints what the example shows (the test `tests/tests/examples_demo.rs` runs it too).
pub fn main() -> Result<(), Box<dyn std::error::Error>> {
    let (discrete, ccd) = side_by_side(5)?;
    println!("sphere r = 0.1 m from z = 0.15 m at -30 m/s onto a triangle at z = 0, dt = 0.01 s");
    println!(
        "{:>6} {:>16} {:>18}",
        "step", "DISCRETE z (m)", "SPHERE_MESH_CCD z (m)"
    );
    for (i, (d, c)) in discrete.iter().zip(&ccd).enumerate() {
        println!("{:>6} {:>16.4} {:>18.4}", i + 1, d, c);
    }
    println!("DISCRETE passed through the floor; SPHERE_MESH_CCD stopped on it (z = radius).");
    Ok(())
}
