//! Brute-force oracles, independent of the code they check: point-triangle
//! and sampled segment distances in `f64`, shape support along a direction,
//! and the containment of bodies in a closed box room.
//!
//! Sampled distances are upper bounds of the true distance (a minimum over
//! fewer points), so a violation they report is real: a "too close" found
//! by sampling is closer still in truth.

use parapet_geometry::Shape;
use parapet_math::nalgebra::UnitQuaternion;
use parapet_math::{promote, Vec3, Vec3d};
use parapet_solver::RigidBody;

/// Samples along a segment or a time interval.
pub const SAMPLES: usize = 64;

/// The closest point of triangle `t` to `p` (Ericson, "Real-Time Collision
/// Detection", 5.1.5), in `f64`.
pub fn closest_on_triangle(p: Vec3d, t: &[Vec3d; 3]) -> Vec3d {
    let (a, b, c) = (t[0], t[1], t[2]);
    let (ab, ac, ap) = (b - a, c - a, p - a);
    let (d1, d2) = (ab.dot(&ap), ac.dot(&ap));
    if d1 <= 0.0 && d2 <= 0.0 {
        return a;
    }
    let bp = p - b;
    let (d3, d4) = (ab.dot(&bp), ac.dot(&bp));
    if d3 >= 0.0 && d4 <= d3 {
        return b;
    }
    let vc = d1 * d4 - d3 * d2;
    if vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 {
        return a + ab * (d1 / (d1 - d3));
    }
    let cp = p - c;
    let (d5, d6) = (ab.dot(&cp), ac.dot(&cp));
    if d6 >= 0.0 && d5 <= d6 {
        return c;
    }
    let vb = d5 * d2 - d1 * d6;
    if vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 {
        return a + ac * (d2 / (d2 - d6));
    }
    let va = d3 * d6 - d5 * d4;
    if va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0 {
        return b + (c - b) * ((d4 - d3) / ((d4 - d3) + (d5 - d6)));
    }
    let denom = 1.0 / (va + vb + vc);
    a + ab * (vb * denom) + ac * (vc * denom)
}

/// Distance (m) from `p` to triangle `t`.
pub fn triangle_distance(p: Vec3d, t: &[Vec3d; 3]) -> f64 {
    (closest_on_triangle(p, t) - p).norm()
}

/// An upper bound of the distance from segment `[p, q]` to triangle `t`:
/// the least distance over [`SAMPLES`] + 1 points of the segment.
pub fn segment_triangle_distance(p: Vec3d, q: Vec3d, t: &[Vec3d; 3]) -> f64 {
    (0..=SAMPLES)
        .map(|k| triangle_distance(p + (q - p) * (k as f64 / SAMPLES as f64), t))
        .fold(f64::INFINITY, f64::min)
}

/// The closest distance between segments `[p1, q1]` and `[p2, q2]`
/// (Ericson 5.1.9), in `f64`.
pub fn segment_segment_distance(p1: Vec3d, q1: Vec3d, p2: Vec3d, q2: Vec3d) -> f64 {
    let (d1, d2, r) = (q1 - p1, q2 - p2, p1 - p2);
    let (a, e, f) = (d1.norm_squared(), d2.norm_squared(), d2.dot(&r));
    let (s, t);
    if a <= 1e-300 && e <= 1e-300 {
        return r.norm();
    }
    if a <= 1e-300 {
        s = 0.0;
        t = (f / e).clamp(0.0, 1.0);
    } else {
        let c = d1.dot(&r);
        if e <= 1e-300 {
            t = 0.0;
            s = (-c / a).clamp(0.0, 1.0);
        } else {
            let b = d1.dot(&d2);
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
    ((p1 + d1 * s) - (p2 + d2 * t)).norm()
}

/// The time fraction in `[0, 1]` at which the straight path from `p0` to
/// `p1` crosses triangle `t` from its front to its back through the
/// interior (strictly inside, by a margin of `inset` of its size), if it
/// does: any shape containing that path's point must then have met the
/// triangle by that time.
pub fn front_to_back_crossing(p0: Vec3d, p1: Vec3d, t: &[Vec3d; 3], inset: f64) -> Option<f64> {
    let n = (t[1] - t[0]).cross(&(t[2] - t[0]));
    let len = n.norm();
    if len.is_nan() || len <= 0.0 {
        return None;
    }
    let n = n / len;
    let (s0, s1) = (n.dot(&(p0 - t[0])), n.dot(&(p1 - t[0])));
    if !(s0 > 0.0 && s1 < 0.0) {
        return None;
    }
    let s = s0 / (s0 - s1);
    let x = p0 + (p1 - p0) * s;
    // Barycentric inside test with a margin.
    let size = (t[1] - t[0]).norm().max((t[2] - t[0]).norm());
    for k in 0..3 {
        let (a, b) = (t[k], t[(k + 1) % 3]);
        let inward = n.cross(&(b - a)).normalize();
        if inward.dot(&(x - a)) < inset * size {
            return None;
        }
    }
    Some(s)
}

/// The world rotation (f64) and position of `body`'s shape.
fn shape_frame(body: &RigidBody) -> (UnitQuaternion<f64>, Vec3d) {
    let q = UnitQuaternion::new_normalize(parapet_math::promote_quat(body.rotation()).into_inner());
    let (t, r) = body.shape_offset();
    let qs = UnitQuaternion::new_normalize(parapet_math::promote_quat(r).into_inner());
    (
        q * qs,
        promote(body.position()) + q.transform_vector(&promote(t)),
    )
}

/// The support of `body`'s solid shape along unit `d` (the largest `d . x`
/// over the shape's points, m), `None` for a mesh.
pub fn support(body: &RigidBody, d: &Vec3d) -> Option<f64> {
    let (q, c) = shape_frame(body);
    let local = q.inverse_transform_vector(d);
    let along = match body.shape() {
        Shape::Sphere(s) => s.radius() as f64,
        Shape::Capsule(cap) => (cap.half_height() as f64) * local.z.abs() + cap.radius() as f64,
        Shape::Cuboid(b) => {
            let h = promote(b.half_extents());
            h.x * local.x.abs() + h.y * local.y.abs() + h.z * local.z.abs()
        }
        Shape::ConvexHull(h) => h
            .vertices()
            .iter()
            .map(|v| promote(*v).dot(&local))
            .fold(f64::NEG_INFINITY, f64::max),
        _ => return None,
    };
    Some(d.dot(&c) + along)
}

/// How far (m) `body`'s shape reaches beyond the room `[-half, half]`
/// along the worst of the six wall normals (negative when inside with
/// clearance), `None` for a mesh.
pub fn room_overreach(body: &RigidBody, half: Vec3) -> Option<f64> {
    let mut worst = f64::NEG_INFINITY;
    for k in 0..3 {
        for sign in [1.0, -1.0] {
            let mut d = Vec3d::zeros();
            d[k] = sign;
            worst = worst.max(support(body, &d)? - half[k] as f64);
        }
    }
    Some(worst)
}

/// The tolerance (m) of the room check for a body of shape `shape`: the
/// depth the continuous step promises no body ends beyond
/// (`parapet::ccd::tolerances::promised_depth`), plus 1e-5 m for the `f32`
/// storage of a pose a few metres from the origin (an ulp there is below
/// 1e-6 m).
pub fn room_tolerance(shape: &parapet::shape::Shape) -> f64 {
    parapet::ccd::tolerances::promised_depth(shape) + 1e-5
}
