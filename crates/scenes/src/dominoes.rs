//! Dominoes struck by a box: twelve dominoes (boxes 0.1 x 0.8 x 1.6 m,
//! 20 kg) standing 1 m apart on a static box floor, struck at 40 m/s by a
//! 0.5 m box (50 kg) that can turn: 0.67 m per 1/60 s step, more than a
//! domino's thickness plus the box's, so DISCRETE lets the box through
//! the first dominoes; the judge ([`crate::judge`]) sees the pass.

use parapet::prelude::*;

use crate::scene::Scene;
use crate::town::Cast;
use crate::SceneError;

/// Step (s).
pub const DT: f32 = 1.0 / 60.0;
/// Domino half extents (m).
pub const DOMINO_HALF: [f32; 3] = [0.05, 0.4, 0.8];
/// Domino spacing (m).
pub const SPACING: f32 = 1.0;
/// The striker's half extent (m) and speed (m/s).
pub const STRIKER: (f32, f32) = (0.25, 40.0);

/// The dominoes in `mode` for `steps` steps (the demo: 120, 2 s).
///
/// # Errors
/// [`SceneError`] if a body is refused (never for these fixed values).
pub fn dominoes(mode: CollisionDetection, steps: usize) -> Result<Scene, SceneError> {
    let mut cast = Cast::new(mode);
    let wood = Material::new(0.6, 0.1, 0.5)?;
    cast.floor(20.0, 4.0, wood)?;
    let mut watched = Vec::new();
    let (h, speed) = STRIKER;
    let striker = RigidBody::new_dynamic(Shape::cuboid(Vec3::new(h, h, h))?, 50.0)?
        .with_material(wood)
        .with_position(Vec3::new(-6.0, 0.0, 1.2))
        .with_linear_velocity(Vec3::new(speed, 0.0, 0.0))
        .with_angular_velocity(Vec3::new(0.0, 2.0, 1.0));
    watched.push(cast.add(striker, "box")?);
    for k in 0..12 {
        let domino = RigidBody::new_dynamic(Shape::cuboid(Vec3::from(DOMINO_HALF))?, 20.0)?
            .with_material(wood)
            .with_position(Vec3::new(k as f32 * SPACING, 0.0, DOMINO_HALF[2] + 0.005));
        watched.push(cast.add(domino, "domino")?);
    }
    Ok(cast.scene(
        "dominoes",
        "twelve dominoes 1 m apart struck at 40 m/s by a turning box",
        (DT, steps),
        watched,
        None,
        Vec::new(),
    ))
}
