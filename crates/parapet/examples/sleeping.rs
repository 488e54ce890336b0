//! Sleeping: a column of three cubes on a floor comes to rest and falls
//! asleep (a sleeping body costs nothing in a step), then a ball rolled
//! into it wakes the column, which falls and sleeps again
//! (docs/physics.md, "Sleeping").
//! Run with `cargo run -p parapet --example sleeping`.

use parapet::prelude::*;

/// Step (s).
const DT: f32 = 1.0 / 60.0;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut world = PhysicsWorld::new();
    // Sleeping is on by default; these are the defaults, spelled out.
    world.sleep_linear_threshold = parapet::world::DEFAULT_SLEEP_LINEAR_THRESHOLD;
    world.sleep_angular_threshold = parapet::world::DEFAULT_SLEEP_ANGULAR_THRESHOLD;
    world.time_to_sleep = parapet::world::DEFAULT_TIME_TO_SLEEP;
    let corners = vec![
        Vec3::new(-20.0, -20.0, 0.0),
        Vec3::new(20.0, -20.0, 0.0),
        Vec3::new(20.0, 20.0, 0.0),
        Vec3::new(-20.0, 20.0, 0.0),
    ];
    world.add_body(RigidBody::new_static(Shape::mesh(
        corners,
        vec![[0, 1, 2], [0, 2, 3]],
    )?))?;
    let mut cubes = Vec::new();
    for level in 0..3 {
        let cube = RigidBody::new_dynamic(Shape::cuboid(Vec3::repeat(0.5))?, 100.0)?
            .with_position(Vec3::new(0.0, 0.0, 0.5 + 1.01 * level as f32));
        cubes.push(world.add_body(cube)?);
    }
    let asleep = |w: &PhysicsWorld| {
        cubes
            .iter()
            .filter(|id| w.body(**id).is_some_and(|b| b.is_sleeping()))
            .count()
    };
    let mut step = 0;
    while asleep(&world) < cubes.len() && step < 300 {
        world.step(DT)?;
        step += 1;
    }
    let fell_asleep = step as f32 * DT;
    // A step of the sleeping column tests no contact.
    world.step(DT)?;
    println!(
        "after {fell_asleep:.2} s: {} of 3 cubes asleep; the next step found {} contacts",
        asleep(&world),
        world.contact_count()
    );
    let top = world.body(cubes[2]).map_or(0.0, |b| b.position().z);
    let ball = RigidBody::new_dynamic(Shape::sphere(0.25)?, 200.0)?
        .with_position(Vec3::new(-3.0, 0.0, top))
        .with_linear_velocity(Vec3::new(15.0, 0.0, 0.0));
    world.add_body(ball)?;
    for _ in 0..30 {
        world.step(DT)?;
    }
    println!("struck: {} of 3 cubes asleep", asleep(&world));
    for _ in 0..600 {
        world.step(DT)?;
    }
    println!("10 s later: {} of 3 cubes asleep", asleep(&world));
    Ok(())
}
