//! Spinning sticks on a static box floor: a thin capsule (r 2 cm, 1.24 m
//! long) and a long box (1.2 x 0.04 x 0.04 m), each falling at 3 m/s
//! while spinning at 60 rad/s about a horizontal axis: their tips move at
//! 36 m/s, 0.6 m per 1/60 s step, so DISCRETE drives them deep into the
//! floor; the judge ([`crate::judge`]) counts them.

use parapet::prelude::*;

use crate::scene::Scene;
use crate::town::Cast;
use crate::SceneError;

/// Step (s).
pub const DT: f32 = 1.0 / 60.0;
/// Spin (rad/s).
pub const SPIN: f32 = 60.0;
/// The sticks' half length (m) and thickness radius (m).
pub const STICK: (f32, f32) = (0.6, 0.02);

/// The sticks in `mode` for `steps` steps (the demo: 60, 1 s).
///
/// # Errors
/// [`SceneError`] if a body is refused (never for these fixed values).
pub fn spinning_sticks(mode: CollisionDetection, steps: usize) -> Result<Scene, SceneError> {
    let mut cast = Cast::new(mode);
    let m = Material::new(0.5, 0.3, 0.5)?;
    cast.floor(10.0, 10.0, m)?;
    let (half, r) = STICK;
    // The capsule's axis is its local z: laid along x by a quarter turn
    // about y, spun about y.
    let capsule = RigidBody::new_dynamic(Shape::capsule(r, half)?, 1.0)?
        .with_rotation(Quat::from_axis_angle(&Vec3::y_axis(), 1.3))
        .with_position(Vec3::new(-2.0, 0.0, 1.0))
        .with_linear_velocity(Vec3::new(0.0, 0.0, -3.0))
        .with_angular_velocity(Vec3::new(0.0, SPIN, 0.0))
        .with_material(m);
    let stick = RigidBody::new_dynamic(Shape::cuboid(Vec3::new(half, r, r))?, 1.0)?
        .with_rotation(Quat::from_axis_angle(&Vec3::y_axis(), 0.3))
        .with_position(Vec3::new(2.0, 0.0, 1.0))
        .with_linear_velocity(Vec3::new(0.0, 0.0, -3.0))
        .with_angular_velocity(Vec3::new(0.0, SPIN, 0.0))
        .with_material(m);
    let watched = vec![
        cast.add(capsule, "capsule stick")?,
        cast.add(stick, "box stick")?,
    ];
    Ok(cast.scene(
        "spinning_sticks",
        "a thin capsule and a long box spinning at 60 rad/s onto a static box floor",
        (DT, steps),
        watched,
        None,
        Vec::new(),
    ))
}
