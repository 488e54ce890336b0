//! Shared helpers of the group CCD tests (`ccd_group_*.rs`):
//! bodies, totals (momentum, kinetic energy) in `f64`, and an independent
//! segment-segment distance (Ericson, Real-Time Collision Detection 5.1.9,
//! written here in plain `f64`, sharing no code with parapet's sweeps).

#![allow(dead_code)]

use parapet_geometry::{Material, Shape};
use parapet_math::{Mat3, Vec3};
use parapet_solver::RigidBody;
use parapet_world::{BodyId, PhysicsWorld, SPHERE_MESH_CCD};

/// A material (friction, restitution, bounce threshold 0.5 m/s).
pub fn mat(friction: f32, restitution: f32) -> Material {
    Material::new(friction, restitution, 0.5).unwrap()
}

/// A world in SPHERE_MESH_CCD without gravity.
pub fn ccd_world() -> PhysicsWorld {
    let mut w = PhysicsWorld::new();
    w.collision_detection = SPHERE_MESH_CCD;
    w.gravity = Vec3::zeros();
    w
}

/// A dynamic sphere.
pub fn ball(r: f32, m: f32, p: Vec3, v: Vec3, material: Material) -> RigidBody {
    RigidBody::new_dynamic(Shape::sphere(r).unwrap(), m)
        .unwrap()
        .with_position(p)
        .with_linear_velocity(v)
        .with_material(material)
}

/// A dynamic capsule that cannot turn (zero inverse inertia), axis along
/// the body's local z turned by `rotation`.
pub fn locked_capsule(
    r: f32,
    half: f32,
    m: f32,
    p: Vec3,
    rotation: parapet_math::Quat,
    v: Vec3,
    material: Material,
) -> RigidBody {
    let mut b = RigidBody::new_dynamic(Shape::capsule(r, half).unwrap(), m)
        .unwrap()
        .with_position(p)
        .with_rotation(rotation)
        .with_linear_velocity(v)
        .with_material(material);
    b.set_inverse_inertia(Mat3::zeros()).unwrap();
    b
}

/// Total linear momentum (kg m/s) of the dynamic bodies, `f64`.
pub fn momentum(w: &PhysicsWorld, ids: &[BodyId]) -> [f64; 3] {
    let mut p = [0.0; 3];
    for id in ids {
        let b = w.body(*id).unwrap();
        for (k, x) in p.iter_mut().enumerate() {
            *x += b.mass() as f64 * b.linear_velocity()[k] as f64;
        }
    }
    p
}

/// Sum of `m |v_k|` over bodies and components (kg m/s): the scale of the
/// momentum's rounding.
pub fn momentum_scale(w: &PhysicsWorld, ids: &[BodyId]) -> f64 {
    ids.iter()
        .map(|id| {
            let b = w.body(*id).unwrap();
            b.linear_velocity()
                .iter()
                .map(|v| b.mass() as f64 * (*v as f64).abs())
                .sum::<f64>()
        })
        .sum()
}

/// Total kinetic energy (J), translational plus rotational, `f64`.
pub fn kinetic_energy(w: &PhysicsWorld, ids: &[BodyId]) -> f64 {
    ids.iter()
        .map(|id| {
            let b = w.body(*id).unwrap();
            let v = b.linear_velocity().cast::<f64>();
            // A body that cannot turn has no angular momentum to count.
            b.kinetic_energy()
                .unwrap_or(0.5 * b.mass() as f64 * v.norm_squared())
        })
        .sum()
}

fn sub(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}
fn dot(a: [f64; 3], b: [f64; 3]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}
fn at(p: [f64; 3], d: [f64; 3], s: f64) -> [f64; 3] {
    [p[0] + s * d[0], p[1] + s * d[1], p[2] + s * d[2]]
}

/// The distance between segments `p1 q1` and `p2 q2` (Ericson 5.1.9), `f64`.
pub fn segment_distance(p1: [f64; 3], q1: [f64; 3], p2: [f64; 3], q2: [f64; 3]) -> f64 {
    let d1 = sub(q1, p1);
    let d2 = sub(q2, p2);
    let r = sub(p1, p2);
    let (a, e, f) = (dot(d1, d1), dot(d2, d2), dot(d2, r));
    let (s, t);
    if a <= 1e-300 && e <= 1e-300 {
        return dot(r, r).sqrt();
    }
    if a <= 1e-300 {
        s = 0.0;
        t = (f / e).clamp(0.0, 1.0);
    } else {
        let c = dot(d1, r);
        if e <= 1e-300 {
            t = 0.0;
            s = (-c / a).clamp(0.0, 1.0);
        } else {
            let b = dot(d1, d2);
            let denom = a * e - b * b;
            let mut s0 = if denom > 0.0 {
                ((b * f - c * e) / denom).clamp(0.0, 1.0)
            } else {
                0.0
            };
            let mut t0 = (b * s0 + f) / e;
            if t0 < 0.0 {
                t0 = 0.0;
                s0 = (-c / a).clamp(0.0, 1.0);
            } else if t0 > 1.0 {
                t0 = 1.0;
                s0 = ((b - c) / a).clamp(0.0, 1.0);
            }
            s = s0;
            t = t0;
        }
    }
    let c1 = at(p1, d1, s);
    let c2 = at(p2, d2, t);
    let d = sub(c1, c2);
    dot(d, d).sqrt()
}

/// A body's axis segment in `f64`: a capsule's two ends (its local z axis
/// of half length `half` turned by its rotation), a sphere's centre twice.
pub fn axis(b: &RigidBody, half: f32) -> ([f64; 3], [f64; 3]) {
    let c = b.position().cast::<f64>();
    let q = b.rotation().cast::<f64>();
    let a = q * parapet_math::Vec3d::new(0.0, 0.0, half as f64);
    let (p, r) = (c - a, c + a);
    ([p.x, p.y, p.z], [r.x, r.y, r.z])
}

/// The exact clearance (m) between two bodies' surfaces: axis distance
/// minus both radii (negative when they overlap).
pub fn clearance(a: &RigidBody, ra: f32, ha: f32, b: &RigidBody, rb: f32, hb: f32) -> f64 {
    let (p1, q1) = axis(a, ha);
    let (p2, q2) = axis(b, hb);
    segment_distance(p1, q1, p2, q2) - ra as f64 - rb as f64
}
