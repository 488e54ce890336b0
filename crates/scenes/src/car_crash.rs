//! Car crashes on a static box floor: two cars head-on at 25 m/s each
//! (50 m/s closing, 0.83 m per 1/60 s step), and a car into a bollard (a
//! static capsule of 0.12 m radius) at 40 m/s. DISCRETE lets the cars
//! sink into each other and the car through the bollard's rim; the
//! judge ([`crate::judge`]) counts them.

use parapet::prelude::*;

use crate::scene::Scene;
use crate::town::{bollard, car, Cast};
use crate::SceneError;

/// Step (s).
pub const DT: f32 = 1.0 / 60.0;
/// Speed (m/s) of each head-on car.
pub const HEAD_ON_SPEED: f32 = 25.0;
/// Speed (m/s) of the car into the bollard.
pub const BOLLARD_SPEED: f32 = 40.0;
/// The bollard's position (m).
pub const BOLLARD_AT: [f32; 2] = [4.0, 6.0];

/// The crashes in `mode` for `steps` steps (the demo: 90, 1.5 s; the
/// head-on cars meet at 0.23 s, the bollard is struck at 0.4 s).
///
/// # Errors
/// [`SceneError`] if a body is refused (never for these fixed values).
pub fn car_crash(mode: CollisionDetection, steps: usize) -> Result<Scene, SceneError> {
    let mut cast = Cast::new(mode);
    cast.floor(30.0, 15.0, Material::new(0.8, 0.1, 0.5)?)?;
    let pi = std::f32::consts::PI;
    let a = cast.add(car(-8.0, -6.0, 0.0, 0.0, HEAD_ON_SPEED)?, "car")?;
    let b = cast.add(car(8.0, -6.0, 0.0, pi, HEAD_ON_SPEED)?, "car")?;
    let c = cast.add(car(-14.0, BOLLARD_AT[1], 0.0, 0.0, BOLLARD_SPEED)?, "car")?;
    cast.add(bollard(BOLLARD_AT[0], BOLLARD_AT[1], 0.0)?, "bollard")?;
    Ok(cast.scene(
        "car_crash",
        "two cars head-on at 25 m/s each, and a car into a bollard at 40 m/s, on a static box floor",
        (DT, steps),
        vec![a, b, c],
        None,
        Vec::new(),
    ))
}
