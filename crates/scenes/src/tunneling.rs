//! The tunnelling sphere of docs/continuous-collision.md: a sphere of radius 0.1 m at height 0.15 m falling at 30 m/s onto a
//! plastic (restitution 0) horizontal one-sided triangle, steps of 0.01 s.
//! DISCRETE reaches z = -0.15 m after one step; SPHERE_MESH_CCD stops it at
//! z = 0.1 m.

use parapet::prelude::*;

use crate::scene::{Measure, Scene};
use crate::SceneError;

/// Sphere radius (m).
pub const RADIUS: f32 = 0.1;
/// Initial centre height (m).
pub const START_HEIGHT: f32 = 0.15;
/// Initial vertical velocity (m/s).
pub const START_VELOCITY: f32 = -30.0;
/// Step (s).
pub const DT: f32 = 0.01;

/// The floor: one counter-clockwise triangle in `z = 0` (front up), 20 m across.
pub fn floor() -> Result<Shape, ShapeError> {
    Shape::mesh(
        vec![
            Vec3::new(-10.0, -10.0, 0.0),
            Vec3::new(10.0, -10.0, 0.0),
            Vec3::new(0.0, 10.0, 0.0),
        ],
        vec![[0, 1, 2]],
    )
}

/// The scene in `mode`, run for `steps` steps (the documented case is one step;
/// the demo runs 50 to show the sphere resting, or falling forever).
///
/// # Errors
///
/// [`SceneError`] if a body is refused (never for these fixed values).
pub fn tunneling(mode: CollisionDetection, steps: usize) -> Result<Scene, SceneError> {
    let mut world = PhysicsWorld::new();
    world.collision_detection = mode;
    world.add_body(RigidBody::new_static(floor()?))?;
    let ball = RigidBody::new_dynamic(Shape::sphere(RADIUS)?, 1.0)?
        .with_position(Vec3::new(0.0, 0.0, START_HEIGHT))
        .with_linear_velocity(Vec3::new(0.0, 0.0, START_VELOCITY));
    let ball = world.add_body(ball)?;
    Ok(Scene {
        name: "tunneling",
        title: "a fast sphere: r 0.1 m, z 0.15 m, -30 m/s, dt 0.01 s, onto a plastic triangle",
        world,
        dt: DT,
        steps,
        subject: ball,
        watched: vec![ball],
        measure: Measure::AboveFloor {
            floor: 0.0,
            core_drop: 0.0,
            radius: RADIUS as f64,
        },
        controls: Vec::new(),
    })
}
