//! A tumbling capsule on a terrain: a capsule that can turn (the solid
//! inertia of its shape), thrown at 40 m/s down and sideways with a 15 rad/s
//! spin onto the walker's height field. SPHERE_MESH_CCD sweeps it as a
//! turning body, in certified sub-steps (docs/turning-bodies.md); its
//! budgets are raised to the largest valid values because a spinning shape
//! pressing on a surface takes many sub-steps and impacts.

use parapet::prelude::*;

use crate::scene::{Measure, Scene};
use crate::walker::terrain;
use crate::SceneError;

/// Capsule radius (m).
pub const RADIUS: f32 = 0.2;
/// Capsule half height (m), caps excluded.
pub const HALF_HEIGHT: f32 = 0.4;
/// Mass (kg).
pub const MASS: f32 = 10.0;
/// Step (s).
pub const DT: f32 = 1.0 / 60.0;

/// The scene in `mode`, for `steps` steps (the demo runs 120: 2 s).
///
/// # Errors
///
/// [`SceneError`] if a body is refused (never for these fixed values).
pub fn tumbling_capsule(mode: CollisionDetection, steps: usize) -> Result<Scene, SceneError> {
    let field = terrain();
    let mut world = PhysicsWorld::new();
    world.collision_detection = mode;
    // The largest valid budgets (1..=1024 impacts, 1..=65536 sub-steps):
    // pressing contacts of a spinning shape need many (turning-bodies.md).
    world.ccd_max_impacts = 1024;
    world.ccd_max_substeps = 65536;
    world.add_body(RigidBody::new_static(field.mesh()?))?;
    let ground = field.height_at(2.0, 2.0).unwrap_or(0.0) as f32;
    let tilt = Quat::from_axis_angle(&Vec3::x_axis(), 0.7);
    let capsule = RigidBody::new_dynamic(Shape::capsule(RADIUS, HALF_HEIGHT)?, MASS)?
        .with_position(Vec3::new(2.0, 2.0, ground + 1.2))
        .with_rotation(tilt)
        .with_linear_velocity(Vec3::new(-3.0, 1.0, -40.0))
        .with_angular_velocity(Vec3::new(15.0, 5.0, 0.0));
    let capsule = world.add_body(capsule)?;
    Ok(Scene {
        name: "tumbling_capsule",
        title: "a turning capsule (r 0.2 m, 1.2 m long) thrown at 40 m/s with a 15 rad/s spin onto the terrain",
        world,
        dt: DT,
        steps,
        subject: capsule,
        watched: vec![capsule],
        measure: Measure::AboveTerrain {
            field,
            half_height: HALF_HEIGHT as f64,
            radius: RADIUS as f64,
        },
        controls: Vec::new(),
    })
}
