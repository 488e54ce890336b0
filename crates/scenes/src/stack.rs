//! A struck sphere stack: four spheres of radius 0.25 m resting in a column on
//! a floor, struck at the height of the second sphere by a sphere flying at
//! 120 m/s (2 m per step of 1/60 s, four diameters). Touching spheres are
//! interacting moving bodies: the continuous mode sweeps them together as
//! one group, and the striker never passes through the stack.

use parapet::prelude::*;

use crate::scene::{Measure, Scene};
use crate::SceneError;

/// Radius (m) of every sphere.
pub const RADIUS: f32 = 0.25;
/// Number of stacked spheres.
pub const LEVELS: usize = 4;
/// The striker's speed (m/s).
pub const STRIKE_SPEED: f32 = 120.0;
/// Step (s).
pub const DT: f32 = 1.0 / 60.0;

/// The floor: two counter-clockwise triangles in `z = 0`, 40 m square.
pub fn floor() -> Result<Shape, ShapeError> {
    Shape::mesh(
        vec![
            Vec3::new(-20.0, -20.0, 0.0),
            Vec3::new(20.0, -20.0, 0.0),
            Vec3::new(20.0, 20.0, 0.0),
            Vec3::new(-20.0, 20.0, 0.0),
        ],
        vec![[0, 1, 2], [0, 2, 3]],
    )
}

/// The scene in `mode`, for `steps` steps (the demo runs 60: 1 s).
///
/// # Errors
///
/// [`SceneError`] if a body is refused (never for these fixed values).
pub fn sphere_stack(mode: CollisionDetection, steps: usize) -> Result<Scene, SceneError> {
    let mut world = PhysicsWorld::new();
    world.collision_detection = mode;
    world.add_body(RigidBody::new_static(floor()?))?;
    let mut stack = Vec::with_capacity(LEVELS);
    for level in 0..LEVELS {
        let z = RADIUS * (1.0 + 2.0 * level as f32);
        let sphere = RigidBody::new_dynamic(Shape::sphere(RADIUS)?, 1.0)?
            .with_position(Vec3::new(0.0, 0.0, z));
        stack.push(world.add_body(sphere)?);
    }
    let striker = RigidBody::new_dynamic(Shape::sphere(RADIUS)?, 1.0)?
        .with_position(Vec3::new(-3.0, 0.0, 3.0 * RADIUS))
        .with_linear_velocity(Vec3::new(STRIKE_SPEED, 0.0, 0.0));
    let striker = world.add_body(striker)?;
    let mut watched = stack.clone();
    watched.push(striker);
    Ok(Scene {
        name: "sphere_stack",
        title: "four stacked spheres (r 0.25 m) struck at 120 m/s by a fifth",
        world,
        dt: DT,
        steps,
        subject: striker,
        watched,
        measure: Measure::ToStack {
            stack,
            radius_sum: 2.0 * RADIUS as f64,
        },
        controls: Vec::new(),
    })
}
