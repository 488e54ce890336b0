//! The randomized fast-body scene for shapes that cannot turn: 120 locked
//! capsules, boxes and hulls (random size, tilt, speed 15 to 50 m/s down,
//! restitution and friction) dropped onto the rough terrain of
//! `ccd_terrain.rs` (25,088 triangles), fifteen 1/60 s steps.
//!
//! Oracle, independent of parapet: the terrain is a heightfield, so a point
//! lies below it when it projects inside a triangle and sits under that
//! triangle's plane. After every step, no body's support points (capsule
//! segment ends lowered by the radius along the face normal, box corners,
//! hull vertices) may lie deeper than `DEPTH_TOLERANCE` under the surface,
//! and no body's centre may be under it (a pass-through). The same scene in
//! DISCRETE is the control.

mod ccd_support;

use ccd_support::{mat, mesh, plane_height, projects_inside, terrain};
use parapet_geometry::Shape;
use parapet_math::{promote, Mat3, Quat, Vec3, Vec3d};
use parapet_solver::RigidBody;
use parapet_tests::meshes::SplitMix64;
use parapet_world::{BodyId, CollisionDetection, PhysicsWorld, DISCRETE, SPHERE_MESH_CCD};

/// Largest accepted depth of a support point under the terrain (m): the
/// discrete solver's split correction leaves resting overlaps up to its 5 mm
/// slop, plus one step of gravity (2.7 mm) and f32 storage.
const DEPTH_TOLERANCE: f64 = 0.01;

fn hull() -> Shape {
    Shape::convex_hull(&[
        Vec3::new(0.35, 0.0, 0.0),
        Vec3::new(-0.25, 0.25, 0.0),
        Vec3::new(-0.25, -0.25, 0.05),
        Vec3::new(0.0, 0.1, 0.3),
        Vec3::new(0.05, -0.05, -0.3),
    ])
    .unwrap()
}

/// Support points of the shape at its pose, with the capsule radius.
fn support(shape: &Shape, p: Vec3, q: Quat) -> (Vec<Vec3d>, f64) {
    let qd = q.cast::<f64>();
    let pd = promote(p);
    match shape {
        Shape::Capsule(c) => {
            let a = qd * Vec3d::new(0.0, 0.0, c.half_height() as f64);
            (vec![pd - a, pd + a], c.radius() as f64)
        }
        Shape::Cuboid(b) => {
            let h = promote(b.half_extents());
            let mut out = Vec::new();
            for s in 0..8 {
                let sx = if s & 1 == 0 { -1.0 } else { 1.0 };
                let sy = if s & 2 == 0 { -1.0 } else { 1.0 };
                let sz = if s & 4 == 0 { -1.0 } else { 1.0 };
                out.push(pd + qd * Vec3d::new(sx * h.x, sy * h.y, sz * h.z));
            }
            (out, 0.0)
        }
        Shape::ConvexHull(h) => (
            h.vertices().iter().map(|v| pd + qd * promote(*v)).collect(),
            0.0,
        ),
        _ => unreachable!(),
    }
}

/// Depth (m, positive below) of `x` under the terrain surface, if above a triangle.
fn depth_under(x: Vec3d, tris: &[[Vec3; 3]]) -> Option<f64> {
    let p = x.cast::<f32>();
    tris.iter()
        .filter(|t| (t[0] - p).amax() <= 3.0)
        .find(|t| projects_inside(p, t))
        .map(|t| -plane_height(p, t))
}

struct Outcome {
    pass_throughs: usize,
    worst_depth: f64,
}

fn run(mode: CollisionDetection, seed: u64) -> Outcome {
    let (v, t) = terrain(112, 1.0, 0.15, seed);
    let tris: Vec<[Vec3; 3]> = t
        .iter()
        .map(|i| [v[i[0] as usize], v[i[1] as usize], v[i[2] as usize]])
        .collect();
    let mut w = PhysicsWorld::new();
    w.collision_detection = mode;
    w.add_body(mesh(v, t, mat(0.5, 0.0, 0.5))).unwrap();
    let mut rng = SplitMix64::new(seed ^ 0xb0c5);
    let mut bodies: Vec<(BodyId, Shape, Quat)> = Vec::new();
    for k in 0..120 {
        let (i, j) = (k % 11, k / 11);
        let shape = match k % 3 {
            0 => Shape::capsule(rng.range_f32(0.08, 0.3), rng.range_f32(0.1, 0.5)).unwrap(),
            1 => Shape::cuboid(Vec3::new(
                rng.range_f32(0.1, 0.4),
                rng.range_f32(0.1, 0.4),
                rng.range_f32(0.1, 0.4),
            ))
            .unwrap(),
            _ => hull(),
        };
        let q = Quat::from_euler_angles(
            rng.range_f32(-1.5, 1.5),
            rng.range_f32(-1.5, 1.5),
            rng.range_f32(-3.0, 3.0),
        );
        let x = -49.0 + 9.5 * i as f32;
        let y = -49.0 + 9.5 * j as f32;
        let vel = Vec3::new(
            rng.range_f32(-2.0, 2.0),
            rng.range_f32(-2.0, 2.0),
            -rng.range_f32(15.0, 50.0),
        );
        let mut b = RigidBody::new_dynamic(shape.clone(), rng.range_f32(0.5, 5.0))
            .unwrap()
            .with_material(mat(rng.range_f32(0.0, 1.0), rng.range_f32(0.0, 0.5), 0.5))
            .with_rotation(q)
            .with_position(Vec3::new(x, y, 2.0 + rng.range_f32(0.0, 1.5)))
            .with_linear_velocity(vel);
        b.set_inverse_inertia(Mat3::zeros()).unwrap();
        bodies.push((w.add_body(b).unwrap(), shape, q));
    }
    let mut out = Outcome {
        pass_throughs: 0,
        worst_depth: f64::NEG_INFINITY,
    };
    let mut passed = vec![false; bodies.len()];
    for _ in 0..15 {
        w.step(1.0 / 60.0).unwrap();
        for (k, (id, shape, q)) in bodies.iter().enumerate() {
            let p = w.body(*id).unwrap().position();
            if depth_under(promote(p), &tris).is_some_and(|d| d > 0.0) {
                if !passed[k] {
                    passed[k] = true;
                    out.pass_throughs += 1;
                }
                continue;
            }
            let (pts, r) = support(shape, p, *q);
            for x in pts {
                if let Some(d) = depth_under(x, &tris) {
                    // Depth along the face normal of the triangle under the
                    // point; a capsule's cap reaches r deeper than its end.
                    out.worst_depth = out.worst_depth.max(d + r);
                }
            }
        }
    }
    out
}

#[test]
fn locked_capsules_boxes_and_hulls_never_pass_through_rough_terrain() {
    let ccd = run(SPHERE_MESH_CCD, 5);
    println!(
        "CCD: pass-throughs {}, deepest support point {:.3e} m",
        ccd.pass_throughs, ccd.worst_depth
    );
    assert_eq!(ccd.pass_throughs, 0);
    assert!(ccd.worst_depth <= DEPTH_TOLERANCE, "{} m", ccd.worst_depth);
    let discrete = run(DISCRETE, 5);
    println!(
        "DISCRETE: pass-throughs {}, deepest support point {:.3e} m",
        discrete.pass_throughs, discrete.worst_depth
    );
    assert!(discrete.pass_throughs > 10, "{}", discrete.pass_throughs);
}
