//! Dense scenes for the cost of a crowded step: the elastic room (elastic
//! spheres at up to 50 m/s per axis in a closed box of 12 triangles, a
//! half-second step, a high impact limit: every sphere reaches every other,
//! one group of all) and the crowded point (many spheres started at one
//! point: every pair overlaps).
//!
//! Both are stress scenes: what they measure is how the step's work grows
//! with the count (the benches time them, the tests count their work), not
//! a physical outcome.

use parapet::prelude::*;

use crate::bench_ccd::BenchSceneError;
use crate::prng::SplitMix64;

/// Half side (m) of the elastic room's box: a 10 m cube centred on the
/// origin.
pub const ROOM_HALF: f32 = 5.0;
/// Radius (m) of the spheres of both scenes.
pub const DENSE_RADIUS: f32 = 0.2;
/// Largest speed (m/s) per axis in the elastic room.
pub const ROOM_SPEED: f64 = 50.0;
/// The elastic room's step (s).
pub const ROOM_DT: f32 = 0.5;
/// The elastic room's impact limit.
pub const ROOM_MAX_IMPACTS: u32 = 1024;
/// Seed of the room's positions and velocities.
pub const ROOM_SEED: u64 = 0xE1A5_71C0;

/// The closed box of the elastic room: 12 triangles, two per face, every
/// front (counter-clockwise normal) facing inwards.
///
/// # Errors
///
/// The mesh validation of [`Shape::mesh`] (never for this box).
pub fn room_box() -> Result<Shape, ShapeError> {
    let h = ROOM_HALF;
    let v: Vec<Vec3> = (0..8)
        .map(|k| {
            let s = |bit: u32| if k & bit != 0 { h } else { -h };
            Vec3::new(s(1), s(2), s(4))
        })
        .collect();
    // Each face as four corners counter-clockwise seen from inside.
    let faces: [[u32; 4]; 6] = [
        [0, 1, 3, 2], // z = -h, seen from above: normal +z
        [4, 6, 7, 5], // z = +h: normal -z
        [0, 4, 5, 1], // y = -h: normal +y
        [2, 3, 7, 6], // y = +h: normal -y
        [0, 2, 6, 4], // x = -h: normal +x
        [1, 5, 7, 3], // x = +h: normal -x
    ];
    let mut t = Vec::with_capacity(12);
    for [a, b, c, d] in faces {
        t.push([a, b, c]);
        t.push([a, c, d]);
    }
    Shape::mesh(v, t)
}

/// `count` elastic spheres (r [`DENSE_RADIUS`], restitution 1, no
/// friction) in the closed room ([`room_box`]), on a lattice with a random
/// jitter (never overlapping), each at a random velocity of up to
/// [`ROOM_SPEED`] per axis; gravity on, `ccd_max_impacts` =
/// [`ROOM_MAX_IMPACTS`]. Step it with [`ROOM_DT`].
///
/// # Errors
///
/// [`BenchSceneError`] if a body is refused.
pub fn elastic_room(
    mode: CollisionDetection,
    count: usize,
) -> Result<PhysicsWorld, BenchSceneError> {
    let mut w = PhysicsWorld::new();
    w.collision_detection = mode;
    w.ccd_max_impacts = ROOM_MAX_IMPACTS;
    let elastic = Material::new(0.0, 1.0, 0.0)?;
    w.add_body(RigidBody::new_static(room_box()?).with_material(elastic))?;
    let mut rng = SplitMix64::new(ROOM_SEED);
    let side = (count as f64).cbrt().ceil() as usize;
    let inner = 2.0 * (ROOM_HALF - 2.0 * DENSE_RADIUS) as f64;
    let cell = inner / side as f64;
    // Room for a jitter of a quarter cell while 2 r stays below the cell.
    let jitter = 0.25 * (cell - 2.0 * DENSE_RADIUS as f64).max(0.0);
    for k in 0..count {
        let (i, j, l) = (k % side, (k / side) % side, k / (side * side));
        let at = |n: usize, rng: &mut SplitMix64| {
            -inner / 2.0 + cell * (n as f64 + 0.5) + rng.range(-jitter, jitter)
        };
        let p = Vec3::new(
            at(i, &mut rng) as f32,
            at(j, &mut rng) as f32,
            at(l, &mut rng) as f32,
        );
        let v = Vec3::new(
            rng.range(-ROOM_SPEED, ROOM_SPEED) as f32,
            rng.range(-ROOM_SPEED, ROOM_SPEED) as f32,
            rng.range(-ROOM_SPEED, ROOM_SPEED) as f32,
        );
        let b = RigidBody::new_dynamic(Shape::sphere(DENSE_RADIUS)?, 1.0)?
            .with_material(elastic)
            .with_position(p)
            .with_linear_velocity(v);
        w.add_body(b)?;
    }
    Ok(w)
}

/// `count` spheres (r [`DENSE_RADIUS`], 1 kg, at rest) all at the origin,
/// nothing else; gravity on. Step it with 1/60 s.
///
/// # Errors
///
/// [`BenchSceneError`] if a body is refused.
pub fn crowded_point(
    mode: CollisionDetection,
    count: usize,
) -> Result<PhysicsWorld, BenchSceneError> {
    let mut w = PhysicsWorld::new();
    w.collision_detection = mode;
    for _ in 0..count {
        w.add_body(RigidBody::new_dynamic(Shape::sphere(DENSE_RADIUS)?, 1.0)?)?;
    }
    Ok(w)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The room's spheres start inside the box and apart.
    #[test]
    fn the_room_starts_with_every_sphere_inside_and_apart() {
        let w = elastic_room(DISCRETE, 200).unwrap();
        let p: Vec<Vec3> = w.bodies().skip(1).map(|(_, b)| b.position()).collect();
        assert_eq!(p.len(), 200);
        let lim = ROOM_HALF - DENSE_RADIUS;
        for a in &p {
            assert!(a.iter().all(|x| x.abs() < lim), "{a:?}");
        }
        for (i, a) in p.iter().enumerate() {
            for b in &p[i + 1..] {
                assert!((a - b).norm() > 2.0 * DENSE_RADIUS, "{a:?} {b:?}");
            }
        }
    }

    /// The box is closed and faces inwards: a short step of a few fast
    /// spheres keeps every one inside (the sweep catches the walls).
    #[test]
    fn the_room_holds_its_spheres() {
        let mut w = elastic_room(SPHERE_MESH_CCD, 8).unwrap();
        for _ in 0..4 {
            w.step(ROOM_DT).unwrap();
        }
        for (_, b) in w.bodies().skip(1) {
            let p = b.position();
            assert!(p.iter().all(|x| x.abs() < ROOM_HALF), "{p:?}");
        }
    }
}
