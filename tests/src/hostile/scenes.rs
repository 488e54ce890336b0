//! Regression scenes of hostile crowds, for the tests, the benches and the
//! fuzz targets (which use them with small counts): the elastic room and
//! the crowded point, both from a hostile probe of the public API.
//!
//! - [`elastic_room`]: `count` spheres of radius 0.2 m and restitution 1
//!   in a closed 10 m box of 12 inward-facing triangles, at up to 50 m/s
//!   per axis, `ccd_max_impacts = 1024`, stepped with [`ELASTIC_ROOM_DT`]
//!   (0.5 s). The probe measured one step at 1 s for 200 spheres, 3.3 s
//!   for 300, 8.7 s for 400 and 20 s for 500 (about the cube of the count,
//!   in the group sweep and its pair meetings).
//! - [`crowded_point`]: `count` spheres of radius 0.2 m all at one point
//!   (the probe: 3,000 of them take 12 s per DISCRETE step and 16.5 s per
//!   continuous step, which then refuses as `Unresolvable`).

use parapet_geometry::{Material, Shape};
use parapet_math::Vec3;
use parapet_scenes::prng::SplitMix64;
use parapet_solver::RigidBody;
use parapet_world::{CollisionDetection, PhysicsWorld, SPHERE_MESH_CCD};

use super::build::room;

/// The step of the elastic room (s).
pub const ELASTIC_ROOM_DT: f32 = 0.5;

/// Half the side of the elastic room (m).
pub const ELASTIC_ROOM_HALF: f32 = 5.0;

/// The spheres' radius in both scenes (m).
pub const CROWD_RADIUS: f32 = 0.2;

/// The elastic room of `count` spheres (see the module docs), in
/// SPHERE_MESH_CCD: spheres on a grid of 0.5 m cells inside the box (at
/// most 8,000; no two overlap and none touches a wall), velocities uniform
/// in `[-50, 50]` m/s per axis from `seed`, frictionless and elastic
/// walls and spheres. Returns the world and the room's half extents.
pub fn elastic_room(count: usize, seed: u64) -> (PhysicsWorld, Vec3) {
    let half = Vec3::repeat(ELASTIC_ROOM_HALF);
    let mut w = PhysicsWorld::new();
    w.collision_detection = SPHERE_MESH_CCD;
    w.ccd_max_impacts = 1024;
    let elastic = Material {
        friction: 0.0,
        restitution: 1.0,
        bounce_threshold: 0.0,
    };
    let (v, t) = room(half);
    w.add_body(RigidBody::new_static(Shape::mesh(v, t).expect("a room")).with_material(elastic))
        .expect("a room");
    let mut rng = SplitMix64::new(seed);
    let cells = 20usize;
    let spacing = 2.0 * ELASTIC_ROOM_HALF / cells as f32;
    for k in 0..count.min(cells * cells * cells) {
        let (i, j, l) = (k % cells, (k / cells) % cells, k / (cells * cells));
        let at = |n: usize| -ELASTIC_ROOM_HALF + spacing * (n as f32 + 0.5);
        let velocity = Vec3::new(
            rng.range_f32(-50.0, 50.0),
            rng.range_f32(-50.0, 50.0),
            rng.range_f32(-50.0, 50.0),
        );
        let ball = RigidBody::new_dynamic(Shape::sphere(CROWD_RADIUS).expect("r > 0"), 1.0)
            .expect("1 kg")
            .with_position(Vec3::new(at(i), at(j), at(l)))
            .with_linear_velocity(velocity)
            .with_material(elastic);
        w.add_body(ball).expect("a sphere");
    }
    (w, half)
}

/// `count` 1 kg spheres of radius 0.2 m all centred at `(0, 0, 1)`, at
/// rest, in `mode`.
pub fn crowded_point(count: usize, mode: CollisionDetection) -> PhysicsWorld {
    let mut w = PhysicsWorld::new();
    w.collision_detection = mode;
    for _ in 0..count {
        let ball = RigidBody::new_dynamic(Shape::sphere(CROWD_RADIUS).expect("r > 0"), 1.0)
            .expect("1 kg")
            .with_position(Vec3::new(0.0, 0.0, 1.0));
        w.add_body(ball).expect("a sphere");
    }
    w
}
