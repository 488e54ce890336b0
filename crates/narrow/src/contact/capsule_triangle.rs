//! Contact between a capsule and one static, one-sided triangle.
//!
//! Method: closest points of the core segment and the triangle (Ericson
//! 5.1.5 and 5.1.9, plus the segment's crossing of the face). When the
//! closest direction is the face normal, the segment is clipped to the
//! triangle's prism and each clipped end becomes a point (two points for a
//! capsule lying on the face); otherwise one point at the closest pair.
//! One-sided rule (seed 000 "Step and contact behavior"): the capsule is
//! behind the face only when both segment ends are strictly behind its
//! plane; a capsule partly in front is pushed out to the front. Precision
//! domain: `f64` relative to the first segment end.

use parapet_math::{promote, Vec3, Vec3d};

use super::closest::{segment_triangle, TriangleFeature};
use super::sphere_sphere::cores_contact;
use super::{triangle_normal, within_margin, LocalManifold, Manifold, FACE_NORMAL_COS};

/// Contact of capsule A (core `segment_a`, `radius_a`) with triangle B
/// (world, counter-clockwise from the front). The normal runs from the
/// capsule to the triangle (`-face_normal` for a face contact).
pub fn contact_capsule_triangle(
    segment_a: [Vec3; 2],
    radius_a: f32,
    triangle_b: &[Vec3; 3],
    margin: f32,
) -> Manifold {
    let origin = promote(segment_a[0]);
    let seg = segment_a.map(|v| promote(v) - origin);
    let tri = triangle_b.map(|v| promote(v) - origin);
    capsule_triangle(seg, radius_a as f64, &tri, margin as f64).into_world(origin)
}

/// [`contact_capsule_triangle`] in the working frame.
pub(crate) fn capsule_triangle(
    seg: [Vec3d; 2],
    r: f64,
    tri: &[Vec3d; 3],
    margin: f64,
) -> LocalManifold {
    let Some(n) = triangle_normal(tri) else {
        return LocalManifold::empty();
    };
    let h = |x: Vec3d| n.dot(&(x - tri[0]));
    if h(seg[0]) < 0.0 && h(seg[1]) < 0.0 {
        return LocalManifold::empty();
    }
    let (s, q, feature) = segment_triangle(seg[0], seg[1], tri);
    let d = (q - s).norm();
    if !within_margin(d - r, margin) {
        return LocalManifold::empty();
    }
    let face =
        feature == TriangleFeature::Face || d == 0.0 || (q - s).dot(&-n) >= FACE_NORMAL_COS * d;
    if !face {
        return cores_contact(s, r, q, 0.0, (q - s) / d);
    }
    let mut out = LocalManifold::empty();
    out.normal = -n;
    if let Some((t0, t1)) = clip_segment_to_prism(seg, tri, n) {
        let dir = seg[1] - seg[0];
        let ends: &[f64] = if t1 > t0 { &[t0, t1] } else { &[t0] };
        for &t in ends {
            let x = seg[0] + dir * t;
            let hx = h(x);
            let depth = r - hx;
            if -depth < margin {
                let surface_a = x - n * r;
                let surface_b = x - n * hx;
                out.points.push(((surface_a + surface_b) * 0.5, depth));
            }
        }
    }
    if out.is_empty() {
        return cores_contact(s, r, q, 0.0, -n);
    }
    out
}

/// The parameter range of `seg` inside the infinite prism over the
/// triangle (the three side planes through its edges, parallel to `n`).
pub(crate) fn clip_segment_to_prism(
    seg: [Vec3d; 2],
    tri: &[Vec3d; 3],
    n: Vec3d,
) -> Option<(f64, f64)> {
    let dir = seg[1] - seg[0];
    let (mut lo, mut hi) = (0.0_f64, 1.0_f64);
    for i in 0..3 {
        let a = tri[i];
        let inward = n.cross(&(tri[(i + 1) % 3] - a));
        let start = inward.dot(&(seg[0] - a));
        let rate = inward.dot(&dir);
        if rate == 0.0 {
            if start < 0.0 {
                return None;
            }
            continue;
        }
        let t = -start / rate;
        if rate > 0.0 {
            lo = lo.max(t);
        } else {
            hi = hi.min(t);
        }
    }
    (lo <= hi).then_some((lo, hi))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn floor() -> [Vec3; 3] {
        [
            Vec3::new(-10.0, -10.0, 0.0),
            Vec3::new(10.0, -10.0, 0.0),
            Vec3::new(0.0, 10.0, 0.0),
        ]
    }

    #[test]
    fn capsule_lying_on_the_floor_gets_two_face_points() {
        let seg = [Vec3::new(-1.0, 0.0, 0.45), Vec3::new(1.0, 0.0, 0.45)];
        let m = contact_capsule_triangle(seg, 0.5, &floor(), 0.0);
        assert_eq!(m.len(), 2);
        assert_eq!(m.normal(), -Vec3::z());
        for p in m.points() {
            assert!((p.depth - 0.05).abs() < 1e-6);
        }
    }

    #[test]
    fn capsule_wholly_behind_gets_nothing_but_one_end_in_front_is_pushed_out() {
        let behind = [Vec3::new(0.0, 0.0, -0.1), Vec3::new(0.0, 0.0, -2.0)];
        assert!(contact_capsule_triangle(behind, 0.5, &floor(), 0.1).is_empty());
        let through = [Vec3::new(0.0, 0.0, 0.3), Vec3::new(0.0, 0.0, -0.2)];
        let m = contact_capsule_triangle(through, 0.5, &floor(), 0.0);
        assert_eq!(m.normal(), -Vec3::z());
        let deepest = m.max_depth().unwrap();
        assert!((deepest - 0.7).abs() < 1e-6, "{deepest}");
    }
}
