//! A kinematic bus through a crowd: 32 walkers (the crowds' capsules)
//! standing 1 m apart in a block of 4 by 8 on a static box floor, and the
//! bus (a kinematic box, 2.5 x 12 x 3 m) driving into them at 12 m/s,
//! 0.2 m per 1/60 s step: ten times the contact margin. DISCRETE lets the
//! bus into the walkers and the walkers into each other; the judge
//! ([`crate::judge`]) counts them.

use parapet::prelude::*;

use crate::bench_crowds::FRICTION;
use crate::scene::Scene;
use crate::town::{bus, walker, Cast};
use crate::SceneError;

/// Step (s).
pub const DT: f32 = 1.0 / 60.0;
/// Bus speed (m/s), along +y.
pub const BUS_SPEED: f32 = 12.0;
/// Walker spacing (m).
pub const SPACING: f32 = 1.0;

/// The bus and the crowd in `mode` for `steps` steps (the demo: 180,
/// 3 s; the bus reaches the crowd at 0.75 s).
///
/// # Errors
/// [`SceneError`] if a body is refused (never for these fixed values).
pub fn bus_crowd(mode: CollisionDetection, steps: usize) -> Result<Scene, SceneError> {
    let mut cast = Cast::new(mode);
    cast.floor(15.0, 45.0, Material::new(FRICTION, 0.0, 0.5)?)?;
    let mut watched = Vec::new();
    for row in 0..8 {
        for col in 0..4 {
            let x = (col as f32 - 1.5) * SPACING;
            let y = row as f32 * SPACING;
            watched.push(cast.add(walker(x, y, 0.0)?, "walker")?);
        }
    }
    let bus = cast.add(bus(0.0, -15.0, 0.0, Vec3::new(0.0, BUS_SPEED, 0.0))?, "bus")?;
    watched.insert(0, bus);
    Ok(cast.scene(
        "bus_crowd",
        "a kinematic bus at 12 m/s through a crowd of 32 walkers standing 1 m apart",
        (DT, steps),
        watched,
        None,
        Vec::new(),
    ))
}
