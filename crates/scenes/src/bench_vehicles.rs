//! The vehicle bench world: `n` turning boxes (0.5 x 0.3 x 0.2 m half
//! extents, 50 kg) dropped in a grid 8 m apart onto the vehicles' rough
//! terrain ([`crate::vehicles::vehicle_terrain`], 8,192 triangles), each
//! moving at 5 m/s with a 3 rad/s spin, and stepped [`WARM_UP`] steps so
//! that every box has landed and is sliding, rolling or resting: the
//! steady state of a vehicle simulation, which the bench `ccd_vehicles`
//! and the example `vehicle_profile` step further.
//!
//! 8 m apart: a turning box's reach (its farthest point plus the travel and
//! the spin that all of its energy could give it in one step) is about a
//! metre here, so no two boxes share a group (a turning body in a shared
//! group is refused).

use parapet::prelude::*;

use crate::vehicles::vehicle_terrain;
use crate::SceneError;

/// Steps taken before the bench state (count): 1 s at 60 Hz; the boxes are
/// dropped 1 m above the terrain and land within 0.5 s.
pub const WARM_UP: usize = 60;
/// Step (s).
pub const DT: f32 = 1.0 / 60.0;
/// Grid spacing (m).
pub const SPACING: f32 = 8.0;

/// The world of `bodies` boxes (at most 64: an 8 x 8 grid) in `mode`, after
/// [`WARM_UP`] steps.
///
/// # Errors
/// [`SceneError`] if a body is refused (never for these fixed values).
///
/// # Panics
/// If a warm-up step fails (the bench's state would not be the steady one).
pub fn vehicle_world(bodies: usize, mode: CollisionDetection) -> Result<PhysicsWorld, SceneError> {
    let field = vehicle_terrain();
    let mut world = PhysicsWorld::new();
    world.collision_detection = mode;
    world.ccd_max_impacts = 1024;
    world.ccd_max_substeps = 65536;
    let material = Material::new(0.6, 0.2, 0.5)?;
    world.add_body(RigidBody::new_static(field.mesh()?).with_material(material))?;
    let side = (bodies as f64).sqrt().ceil() as usize;
    let offset = (side as f32 - 1.0) * SPACING / 2.0;
    for i in 0..bodies {
        let x = (i % side) as f32 * SPACING - offset;
        let y = (i / side) as f32 * SPACING - offset;
        let ground = field.height_at(x as f64, y as f64).unwrap_or(0.0) as f32;
        let heading = i as f32 * 0.7;
        let b = RigidBody::new_dynamic(Shape::cuboid(Vec3::new(0.5, 0.3, 0.2))?, 50.0)?
            .with_material(material)
            .with_position(Vec3::new(x, y, ground + 1.0))
            .with_rotation(Quat::from_scaled_axis(Vec3::new(0.2, -0.1, heading)))
            .with_linear_velocity(Vec3::new(5.0 * heading.cos(), 5.0 * heading.sin(), -2.0))
            .with_angular_velocity(Vec3::new(3.0 * heading.sin(), 1.0, 3.0 * heading.cos()));
        world.add_body(b)?;
    }
    for step in 0..WARM_UP {
        if let Err(e) = world.step(DT) {
            panic!("vehicle bench warm-up step {step}: {e}");
        }
    }
    Ok(world)
}
