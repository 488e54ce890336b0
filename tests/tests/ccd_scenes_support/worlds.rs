//! The worlds of the `ccd_scenes_*` families, one builder per family, so
//! that `ccd_scenes_defects.rs` rebuilds a failing case from its seed.

use parapet::ccd::tolerances::inner_size;
use parapet::prelude::*;
use parapet_scenes::prng::SplitMix64;
use parapet_scenes::terrain::HeightField;
use parapet_scenes::town::{box_mesh, bus, ground_under, walker, BUS_HALF};

use super::{direction, rotation, shape, Oracle, Surface};

/// Bodies per world of the drops.
pub const DROP_BODIES: usize = 8;
/// Head-on pairs per world.
pub const PAIRS: usize = 4;

pub fn material(rng: &mut SplitMix64) -> Material {
    Material::new(rng.range_f32(0.0, 0.9), rng.range_f32(0.0, 0.6), 0.5).unwrap()
}

/// A world of [`DROP_BODIES`] random bodies over `ground` (true: a terrain; false:
/// static boxes), and its oracle.
pub fn drops(seed: u64, terrain: bool) -> (PhysicsWorld, Oracle) {
    let mut rng = SplitMix64::new(seed);
    let mut w = PhysicsWorld::new();
    w.collision_detection = SPHERE_MESH_CCD;
    let mut oracle = Oracle::default();
    let top;
    if terrain {
        let field = HeightField::generate(seed ^ 0x7E44, 16, 16, 1.0, 0.4);
        w.add_body(RigidBody::new_static(field.mesh().unwrap()).with_material(material(&mut rng)))
            .unwrap();
        top = field.heights.iter().fold(f32::MIN, |a, &h| a.max(h));
        oracle.surfaces.push(Surface::Terrain(field));
    } else {
        let floor = RigidBody::new_static(Shape::cuboid(Vec3::new(8.0, 8.0, 0.5)).unwrap())
            .with_position(Vec3::new(0.0, 0.0, -0.5))
            .with_material(material(&mut rng));
        w.add_body(floor).unwrap();
        oracle.surfaces.push(Surface::FloorTop {
            top: 0.0,
            half: 8.0,
        });
        // Three blocks on the floor under the drop, turned about z.
        for _ in 0..3 {
            let h = Vec3::new(
                rng.range_f32(0.3, 1.0),
                rng.range_f32(0.3, 1.0),
                rng.range_f32(0.1, 0.4),
            );
            let block = RigidBody::new_static(Shape::cuboid(h).unwrap())
                .with_position(Vec3::new(
                    rng.range_f32(-2.0, 2.0),
                    rng.range_f32(-1.0, 1.0),
                    h.z,
                ))
                .with_rotation(Quat::from_axis_angle(
                    &Vec3::z_axis(),
                    rng.range_f32(0.0, 3.0),
                ))
                .with_material(material(&mut rng));
            w.add_body(block).unwrap();
        }
        top = 0.8;
    }
    // Two rows of four, 1.1 sizes apart, 1 to 2 m above the ground's top.
    let size = 0.45f32;
    let spacing = 2.2 * size * 1.1;
    for k in 0..DROP_BODIES {
        let kind = rng.below(4);
        let s = shape(&mut rng, kind, size);
        let mass = rng.range_f32(1.0, 40.0);
        let x = (k % 4) as f32 * spacing - 1.5 * spacing;
        let y = (k / 4) as f32 * spacing - 0.5 * spacing;
        let z = top + size + rng.range_f32(1.0, 2.0);
        let v = Vec3::new(
            rng.range_f32(-3.0, 3.0),
            rng.range_f32(-3.0, 3.0),
            -rng.range_f32(5.0, 25.0),
        );
        let spin = rng.range_f32(0.0, 20.0);
        let body = RigidBody::new_dynamic(s, mass)
            .unwrap()
            .with_position(Vec3::new(x, y, z))
            .with_rotation(rotation(&mut rng))
            .with_linear_velocity(v)
            .with_angular_velocity(direction(&mut rng, spin))
            .with_material(material(&mut rng));
        w.add_body(body).unwrap();
    }
    (w, oracle)
}

/// The kinematic body of kind `kind` (0 to 3: a solid shape; 4: a closed
/// box mesh) and, for the mesh, the box it closes.
fn driver(rng: &mut SplitMix64, kind: usize) -> (Shape, Option<Vec3>) {
    if kind == 4 {
        let h = Vec3::new(
            rng.range_f32(0.3, 1.0),
            rng.range_f32(0.3, 1.0),
            rng.range_f32(0.1, 0.5),
        );
        (box_mesh(h).unwrap(), Some(h))
    } else {
        (shape(rng, kind, 0.6), None)
    }
}

pub fn kinematic(seed: u64, kind: usize) -> (PhysicsWorld, Oracle) {
    let mut rng = SplitMix64::new(seed);
    let mut w = PhysicsWorld::new();
    w.collision_detection = SPHERE_MESH_CCD;
    w.gravity = Vec3::zeros();
    let mut oracle = Oracle::default();
    // Six bodies in a 3 x 2 cluster, 1.2 m apart, jittered.
    for k in 0..6 {
        let kind = rng.below(4);
        let s = shape(&mut rng, kind, 0.4);
        let p = Vec3::new(
            (k % 3) as f32 * 1.2 - 1.2 + rng.range_f32(-0.1, 0.1),
            (k / 3) as f32 * 1.2 - 0.6 + rng.range_f32(-0.1, 0.1),
            rng.range_f32(-0.3, 0.3),
        );
        let body = RigidBody::new_dynamic(s, rng.range_f32(1.0, 50.0))
            .unwrap()
            .with_position(p)
            .with_rotation(rotation(&mut rng))
            .with_material(
                Material::new(rng.range_f32(0.0, 0.9), rng.range_f32(0.0, 0.8), 0.5).unwrap(),
            );
        w.add_body(body).unwrap();
    }
    let (s, closes) = driver(&mut rng, kind);
    // From 4 m away on a random side, aimed at a point of the cluster.
    let aim = Vec3::new(rng.range_f32(-1.0, 1.0), rng.range_f32(-0.5, 0.5), 0.0);
    let from = direction(&mut rng, 4.0 + 1.0) + aim;
    let speed = rng.range_f32(5.0, 30.0);
    let v = (aim - from).normalize() * speed;
    let rate = rng.range_f32(0.0, 6.0);
    let spin = direction(&mut rng, rate);
    let body = RigidBody::new_kinematic(s)
        .with_position(from)
        .with_rotation(rotation(&mut rng))
        .with_linear_velocity(v)
        .with_angular_velocity(spin);
    let id = w.add_body(body).unwrap();
    if let Some(h) = closes {
        oracle.boxes.push((id, h));
    }
    (w, oracle)
}

/// A world of [`PAIRS`] head-on pairs, and each pair's ids.
pub fn head_on(seed: u64) -> (PhysicsWorld, Vec<(BodyId, BodyId)>) {
    let mut rng = SplitMix64::new(seed);
    let mut w = PhysicsWorld::new();
    w.collision_detection = SPHERE_MESH_CCD;
    w.gravity = Vec3::zeros();
    let mut pairs = Vec::new();
    for p in 0..PAIRS {
        let (ka, kb) = (rng.below(4), rng.below(4));
        let (sa, sb) = (shape(&mut rng, ka, 0.5), shape(&mut rng, kb, 0.5));
        let offset = 0.25 * (inner_size(&sa) + inner_size(&sb)) as f32 * rng.range_f32(0.0, 1.0);
        let y = 12.0 * p as f32;
        let mut ids = Vec::with_capacity(2);
        for (s, side) in [(sa, -1.0f32), (sb, 1.0)] {
            let speed = rng.range_f32(5.0, 40.0);
            let spin = rng.range_f32(0.0, 30.0);
            let body = RigidBody::new_dynamic(s, rng.range_f32(1.0, 30.0))
                .unwrap()
                .with_position(Vec3::new(3.0 * side, y + side * offset * 0.5, 0.0))
                .with_rotation(rotation(&mut rng))
                .with_linear_velocity(Vec3::new(-side * speed, 0.0, 0.0))
                .with_angular_velocity(direction(&mut rng, spin))
                .with_material(
                    Material::new(rng.range_f32(0.0, 0.9), rng.range_f32(0.0, 1.0), 0.5).unwrap(),
                );
            ids.push(w.add_body(body).unwrap());
        }
        pairs.push((ids[0], ids[1]));
    }
    (w, pairs)
}

/// A crowd and a bus over a terrain (`terrain`) or a static floor, and
/// its oracle.
pub fn bus_crowd(seed: u64, terrain: bool) -> (PhysicsWorld, Oracle) {
    let mut rng = SplitMix64::new(seed);
    let mut w = PhysicsWorld::new();
    w.collision_detection = SPHERE_MESH_CCD;
    let mut oracle = Oracle::default();
    let field = HeightField::generate(seed ^ 0xB05, 24, 24, 2.0, 0.2);
    if terrain {
        w.add_body(RigidBody::new_static(field.mesh().unwrap()))
            .unwrap();
        oracle.surfaces.push(Surface::Terrain(field.clone()));
    } else {
        let floor = RigidBody::new_static(Shape::cuboid(Vec3::new(24.0, 24.0, 0.5)).unwrap())
            .with_position(Vec3::new(0.0, 0.0, -0.5));
        w.add_body(floor).unwrap();
        oracle.surfaces.push(Surface::FloorTop {
            top: 0.0,
            half: 24.0,
        });
    }
    let base = |x: f32, y: f32, hx: f32, hy: f32| {
        if terrain {
            ground_under(&field, x, y, hx, hy)
        } else {
            0.0
        }
    };
    let (cols, rows) = (3 + rng.below(2), 4 + rng.below(3));
    let spacing = rng.range_f32(0.8, 1.6);
    for r in 0..rows {
        for c in 0..cols {
            let x = (c as f32 - 0.5 * (cols - 1) as f32) * spacing + rng.range_f32(-0.05, 0.05);
            let y = r as f32 * spacing + rng.range_f32(-0.05, 0.05);
            w.add_body(walker(x, y, base(x, y, 0.3, 0.3)).unwrap())
                .unwrap();
        }
    }
    // The bus from 10 m behind the crowd's first row along -y, heading
    // within 0.3 rad of +y, its long axis along its heading.
    let heading = rng.range_f32(-0.3, 0.3);
    let speed = rng.range_f32(8.0, 20.0);
    let (s, c) = heading.sin_cos();
    let start = Vec3::new(10.0 * s, -10.0 - BUS_HALF[1], 0.0);
    let v = Vec3::new(-s, c, 0.0) * speed;
    let b = bus(start.x, start.y, base(start.x, start.y, 3.0, 6.0) + 0.2, v)
        .unwrap()
        .with_rotation(Quat::from_axis_angle(&Vec3::z_axis(), heading));
    w.add_body(b).unwrap();
    (w, oracle)
}
