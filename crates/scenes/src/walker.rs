//! A capsule walker on a terrain: a rotation-locked capsule (a character
//! body: zero inverse inertia, it only translates) dropped fast onto a
//! generated height field and then walked across it by a controller that sets
//! its horizontal velocity before each step.

use parapet::prelude::*;

use crate::control::Control;
use crate::scene::{Measure, Scene};
use crate::terrain::HeightField;
use crate::SceneError;

/// Capsule radius (m).
pub const RADIUS: f32 = 0.25;
/// Capsule half height (m), caps excluded: a 1.5 m tall walker.
pub const HALF_HEIGHT: f32 = 0.5;
/// Walker mass (kg).
pub const MASS: f32 = 70.0;
/// The walking velocity (m/s) the controller holds.
pub const WALK: [f32; 2] = [2.0, 0.75];
/// The drop speed (m/s): fast enough that one step (1/30 s) carries the
/// walker 2 m, more than its height.
pub const DROP_SPEED: f32 = 60.0;
/// Step (s).
pub const DT: f32 = 1.0 / 30.0;
/// Terrain seed.
pub const TERRAIN_SEED: u64 = 2026;

/// The terrain of the scene: 40 by 40 cells of 0.5 m (3200 triangles), heights
/// within about 0.55 m of zero.
pub fn terrain() -> HeightField {
    HeightField::generate(TERRAIN_SEED, 40, 40, 0.5, 0.5)
}

/// The scene in `mode`, for `steps` steps (the demo runs 150: 5 s).
///
/// # Errors
///
/// [`SceneError`] if a body is refused (never for these fixed values).
pub fn capsule_walker(mode: CollisionDetection, steps: usize) -> Result<Scene, SceneError> {
    let field = terrain();
    let mut world = PhysicsWorld::new();
    world.collision_detection = mode;
    world.add_body(RigidBody::new_static(field.mesh()?))?;
    let start = Vec3::new(-6.0, -3.0, 0.0);
    let ground = field
        .height_at(start.x as f64, start.y as f64)
        .unwrap_or(0.0) as f32;
    let mut walker = RigidBody::new_dynamic(Shape::capsule(RADIUS, HALF_HEIGHT)?, MASS)?
        .with_position(Vec3::new(start.x, start.y, ground + 1.5))
        .with_linear_velocity(Vec3::new(WALK[0], WALK[1], -DROP_SPEED));
    // A character: locked rotation (zero inverse inertia), it only translates.
    walker.set_inverse_inertia(Mat3::zeros())?;
    let walker = world.add_body(walker)?;
    Ok(Scene {
        name: "capsule_walker",
        title: "a rotation-locked capsule (r 0.25 m, 1.5 m tall) dropped at 60 m/s onto a 3200-triangle terrain, then walked at 2.1 m/s",
        world,
        dt: DT,
        steps,
        subject: walker,
        watched: vec![walker],
        measure: Measure::AboveTerrain {
            field,
            half_height: HALF_HEIGHT as f64,
            radius: RADIUS as f64,
        },
        controls: vec![Control::Walk {
            body: walker,
            velocity: [WALK[0], WALK[1]],
        }],
    })
}
