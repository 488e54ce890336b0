//! A lift carrying 16 spheres up at 30 m/s: a kinematic lift (a closed box
//! mesh, 5 x 5 x 0.2 m) starting at 30 m/s under 16 spheres (r 0.25 m)
//! resting 5 cm above it, 0.5 m per 1/60 s step: DISCRETE lets the lift
//! through the spheres in its first step. The lift turns back 30 m up.
//! The ground is a flat height field 2 m below.

use parapet::prelude::*;

use crate::control::Control;
use crate::overlap::Solid;
use crate::scene::Scene;
use crate::terrain::HeightField;
use crate::town::{box_mesh, Cast};
use crate::SceneError;

/// Step (s).
pub const DT: f32 = 1.0 / 60.0;
/// Lift speed (m/s).
pub const LIFT_SPEED: f32 = 30.0;
/// Lift platform half extents (m).
pub const LIFT_HALF: [f32; 3] = [2.5, 2.5, 0.1];
/// Lowest height (m) of the lift's centre; it travels 30 m up.
pub const LIFT_LOW: f32 = 2.0;
/// Sphere radius (m).
pub const RADIUS: f32 = 0.25;
/// Gap (m) between the spheres and the lift at the start: more than the
/// contact margin, so no discrete contact holds them.
pub const GAP: f32 = 0.05;

/// The lift in `mode` for `steps` steps (the demo: 90, 1.5 s).
///
/// # Errors
/// [`SceneError`] if a body is refused (never for these fixed values).
pub fn lift_spheres(mode: CollisionDetection, steps: usize) -> Result<Scene, SceneError> {
    let field = HeightField::generate(0x11F7, 16, 16, 2.0, 0.0);
    let mut cast = Cast::new(mode);
    cast.ground(RigidBody::new_static(field.mesh()?))?;
    let lift = RigidBody::new_kinematic(box_mesh(Vec3::from(LIFT_HALF))?)
        .with_position(Vec3::new(0.0, 0.0, LIFT_LOW))
        .with_linear_velocity(Vec3::new(0.0, 0.0, LIFT_SPEED));
    let half = LIFT_HALF.map(f64::from);
    let lift = cast.add_as(lift, Solid::Cuboid { half }, "lift")?;
    let mut watched = vec![lift];
    let z = LIFT_LOW + LIFT_HALF[2] + RADIUS + GAP;
    for i in 0..4 {
        for j in 0..4 {
            let (x, y) = (-1.5 + i as f32, -1.5 + j as f32);
            let ball = RigidBody::new_dynamic(Shape::sphere(RADIUS)?, 5.0)?
                .with_material(Material::new(0.5, 0.0, 0.5)?)
                .with_position(Vec3::new(x, y, z));
            watched.push(cast.add(ball, "sphere")?);
        }
    }
    let controls = vec![Control::Shuttle {
        body: lift,
        low: LIFT_LOW,
        high: LIFT_LOW + 30.0,
        speed: LIFT_SPEED,
    }];
    Ok(cast.scene(
        "lift_spheres",
        "a kinematic mesh lift starting at 30 m/s under 16 spheres resting 5 cm above it",
        (DT, steps),
        watched,
        Some(field),
        controls,
    ))
}
