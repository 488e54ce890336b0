//! Spheres dropped on a mesh: a block of spheres (r 0.2 m, 0.5 m apart,
//! four layers) falling at 30 m/s onto a rough terrain of 512 triangles,
//! 0.5 m per 1/60 s step: more than a sphere's diameter, so DISCRETE lets
//! the lowest layer through the terrain; in SPHERE_MESH_CCD the lowest
//! layer strikes the terrain and every layer above strikes the one below,
//! a cascade of contacts within one step. The demo drops 1,024.

use parapet::prelude::*;

use crate::scene::Scene;
use crate::terrain::HeightField;
use crate::town::Cast;
use crate::SceneError;

/// Step (s).
pub const DT: f32 = 1.0 / 60.0;
/// Sphere radius (m).
pub const RADIUS: f32 = 0.2;
/// Spacing (m) of the block.
pub const SPACING: f32 = 0.5;
/// Fall speed (m/s).
pub const FALL_SPEED: f32 = 30.0;
/// Layers of the block.
pub const LAYERS: usize = 4;

/// `count` spheres (rounded to a square of four layers) in `mode` for
/// `steps` steps (the demo: 1,024 for 90 steps, 1.5 s).
///
/// # Errors
/// [`SceneError`] if a body is refused (never for these fixed values).
pub fn sphere_rain(
    mode: CollisionDetection,
    count: usize,
    steps: usize,
) -> Result<Scene, SceneError> {
    let field = HeightField::generate(0x5EED_0A1A, 16, 16, 1.0, 0.3);
    let top = field.heights.iter().fold(f32::MIN, |a, &h| a.max(h));
    let mut cast = Cast::new(mode);
    let ground = Material::new(0.5, 0.1, 0.5)?;
    cast.ground(RigidBody::new_static(field.mesh()?).with_material(ground))?;
    let side = ((count / LAYERS) as f64).sqrt().ceil().max(1.0) as usize;
    let offset = (side as f32 - 1.0) * SPACING / 2.0;
    let mut watched = Vec::new();
    for layer in 0..LAYERS {
        for k in 0..side * side {
            let x = (k % side) as f32 * SPACING - offset;
            let y = (k / side) as f32 * SPACING - offset;
            let z = top + 1.0 + RADIUS + layer as f32 * SPACING;
            let ball = RigidBody::new_dynamic(Shape::sphere(RADIUS)?, 1.0)?
                .with_material(Material::new(0.5, 0.1, 0.5)?)
                .with_position(Vec3::new(x, y, z))
                .with_linear_velocity(Vec3::new(0.0, 0.0, -FALL_SPEED));
            watched.push(cast.add(ball, "sphere")?);
        }
    }
    Ok(cast.scene(
        "sphere_rain",
        "a block of spheres (r 0.2 m, four layers, 0.5 m apart) falling at 30 m/s onto a 512-triangle terrain",
        (DT, steps),
        watched,
        Some(field),
        Vec::new(),
    ))
}
