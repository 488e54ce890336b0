//! Shared helpers of the world scenario tests (`world_*.rs`, `discrete_*.rs`):
//! floors, materials and a bit-for-bit capture of a world's complete state.

#![allow(dead_code)]

use parapet_geometry::{Material, Shape};
use parapet_math::Vec3;
use parapet_solver::RigidBody;
use parapet_world::{BodyId, ContactKind, PhysicsWorld};

/// A static floor mesh: the square `[-half, half]^2` at height `z`, two
/// counter-clockwise triangles facing +z (the diagonal from (-h,-h) to (h,h)).
pub fn floor(half: f32, z: f32, material: Material) -> RigidBody {
    let v = vec![
        Vec3::new(-half, -half, z),
        Vec3::new(half, -half, z),
        Vec3::new(half, half, z),
        Vec3::new(-half, half, z),
    ];
    let shape = Shape::mesh(v, vec![[0, 1, 2], [0, 2, 3]]).unwrap();
    RigidBody::new_static(shape).with_material(material)
}

/// A material with the given friction and restitution and the default
/// bounce threshold (0.5 m/s).
pub fn material(friction: f32, restitution: f32) -> Material {
    Material::new(friction, restitution, 0.5).unwrap()
}

fn v(out: &mut Vec<u64>, x: Vec3) {
    out.extend(x.iter().map(|c| c.to_bits() as u64));
}

pub use parapet_tests::state::body_bits;

/// One body as captured: id, field bits, shape, mesh snapshot.
pub type BodyState = (BodyId, Vec<u64>, Shape, Option<Vec<[Vec3; 3]>>);

/// The complete observable state of a world, as bits: configuration, every
/// body (id, fields, shape, mesh snapshot) in insertion order, events and
/// contact count, and the answers of a fan of rays (which read the mesh
/// index and its dirty state).
#[derive(Debug, Clone, PartialEq)]
pub struct WorldState {
    pub config: Vec<u64>,
    pub bodies: Vec<BodyState>,
    pub events: Vec<Vec<u64>>,
    pub contact_count: usize,
    pub rays: Vec<Option<(BodyId, Vec<u64>)>>,
}

pub fn capture(w: &PhysicsWorld) -> WorldState {
    let mut config = Vec::new();
    v(&mut config, w.gravity);
    config.push(w.collision_detection.code() as u64);
    config.push(w.ccd_max_impacts as u64);
    config.push(w.ccd_max_substeps as u64);
    config.push(w.sleeping as u64);
    config.extend(
        [
            w.sleep_linear_threshold,
            w.sleep_angular_threshold,
            w.time_to_sleep,
        ]
        .map(|x| x.to_bits() as u64),
    );
    let bodies = w
        .bodies()
        .map(|(id, b)| {
            (
                id,
                body_bits(b),
                b.shape().clone(),
                w.mesh_snapshot(id).map(|s| s.to_vec()),
            )
        })
        .collect();
    let events = w
        .events()
        .iter()
        .map(|e| {
            let mut out = vec![
                e.body_a.generation(),
                e.body_a.index() as u64,
                e.body_b.generation(),
                e.body_b.index() as u64,
                (e.kind == ContactKind::Swept) as u64,
                e.time.to_bits() as u64,
            ];
            v(&mut out, e.point);
            v(&mut out, e.normal);
            v(&mut out, e.normal_impulse);
            out
        })
        .collect();
    let mut rays = Vec::new();
    for i in -3..=3 {
        for j in -3..=3 {
            let origin = Vec3::new(i as f32 * 0.7, j as f32 * 0.7, 5.0);
            let hit = w
                .cast_ray(origin, Vec3::new(0.0, 0.0, -1.0), 100.0)
                .map(|h| {
                    let mut out = vec![h.distance.to_bits() as u64];
                    v(&mut out, h.point);
                    v(&mut out, h.normal);
                    (h.body, out)
                });
            rays.push(hit);
        }
    }
    WorldState {
        config,
        bodies,
        events,
        contact_count: w.contact_count(),
        rays,
    }
}
