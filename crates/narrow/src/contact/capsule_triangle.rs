//! Contact between a capsule and one static, one-sided triangle.
//!
//! Method: while the core segment does not touch the triangle, the closest
//! points of core and triangle (Ericson 5.1.5 and 5.1.9). When the closest
//! direction is the face normal, the segment is clipped to the triangle's
//! prism and each clipped end becomes a point (two points for a capsule
//! lying on the face); otherwise one point at the closest pair. When the
//! core crosses the face, the separating-axis test over the front normal
//! and the edges crossed with the core gives the least overlap.
//! One-sided rule (as the capsule sweep's, docs/continuous-collision.md,
//! "How a step works"): the capsule is
//! behind the face only when both segment ends are strictly behind its
//! plane; a capsule partly in front is pushed out to the front. Precision
//! domain: `f64` relative to the first segment end.

use parapet_math::{promote, Vec3, Vec3d};

use super::closest::{point_triangle, segment_segment, segment_triangle, TriangleFeature};
use super::input_checks::{check_pair, RawShape};
use super::sphere_sphere::cores_contact;
use super::{
    front_normal, within_margin, ContactError, LocalManifold, Manifold, AXIS_TOLERANCE_ABS,
    AXIS_TOLERANCE_REL, FACE_NORMAL_COS, ONE_SIDED_TOLERANCE, PARALLEL_SIN_SQ,
};
use crate::triangle::{edge, edge_ends, relative_triangle};

/// Contact of capsule A (core `segment_a`, `radius_a`) with triangle B
/// (world, counter-clockwise from the front). The normal runs from the
/// capsule to the triangle (`-face_normal` for a face contact).
///
/// # Errors
/// The refusals of every pair function (module documentation, "Pair
/// functions"): [`ContactError::InvalidMargin`], [`ContactError::InvalidSize`],
/// [`ContactError::NonFinitePose`], [`ContactError::OutsidePrecisionDomain`].
pub fn contact_capsule_triangle(
    segment_a: [Vec3; 2],
    radius_a: f32,
    triangle_b: &[Vec3; 3],
    margin: f32,
) -> Result<Manifold, ContactError> {
    check_pair(
        RawShape::Capsule(&segment_a, radius_a),
        RawShape::Triangle(triangle_b),
        margin,
    )?;
    let origin = promote(segment_a[0]);
    let seg = segment_a.map(|v| promote(v) - origin);
    let tri = relative_triangle(triangle_b, origin);
    Ok(capsule_triangle(seg, radius_a as f64, &tri, margin as f64).into_world(origin))
}

/// [`contact_capsule_triangle`] in the working frame.
pub(crate) fn capsule_triangle(
    seg: [Vec3d; 2],
    r: f64,
    tri: &[Vec3d; 3],
    margin: f64,
) -> LocalManifold {
    let Some(n) = front_normal(tri) else {
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
    if d == 0.0 {
        // The core crosses the face: least overlap over the axes of the
        // segment-triangle prism (the front normal and each edge crossed
        // with the core), so that the normal and depth always separate.
        return crossing_contact(seg, r, tri, n, margin);
    }
    let face = feature == TriangleFeature::Face || (q - s).dot(&-n) >= FACE_NORMAL_COS * d;
    if !face {
        return cores_contact(s, r, q, 0.0, (q - s) / d);
    }
    let out = face_points(seg, r, tri, n, margin);
    if out.is_empty() {
        return cores_contact(s, r, q, 0.0, -n);
    }
    out
}

/// Face contact: the core clipped to the triangle's prism, one point per
/// clipped end within the margin (normal `-n`).
fn face_points(seg: [Vec3d; 2], r: f64, tri: &[Vec3d; 3], n: Vec3d, margin: f64) -> LocalManifold {
    let mut out = LocalManifold::empty();
    out.normal = -n;
    if let Some((t0, t1)) = clip_segment_to_prism(seg, tri, n) {
        let dir = seg[1] - seg[0];
        let ends: &[f64] = if t1 > t0 { &[t0, t1] } else { &[t0] };
        for &t in ends {
            let x = seg[0] + dir * t;
            let hx = n.dot(&(x - tri[0]));
            let depth = r - hx;
            if within_margin(-depth, margin) {
                out.push((x - n * r + x - n * hx) * 0.5, depth);
            }
        }
    }
    out
}

/// Contact of a capsule whose core crosses the triangle: the separating-axis
/// test of the core against the triangle over the front normal (one-sided:
/// the back is never an axis) and the three cross products of an edge with
/// the core, each reduced by the radius. Edge axes that would push the
/// capsule behind the face are refused unless they separate.
fn crossing_contact(
    seg: [Vec3d; 2],
    r: f64,
    tri: &[Vec3d; 3],
    n: Vec3d,
    margin: f64,
) -> LocalManifold {
    let h0 = n.dot(&(seg[0] - tri[0]));
    let h1 = n.dot(&(seg[1] - tri[0]));
    let face_sep = h0.min(h1) - r;
    let dir = seg[1] - seg[0];
    let tol = AXIS_TOLERANCE_ABS + AXIS_TOLERANCE_REL * (dir.norm() + r);
    let mut best_edge: Option<(f64, usize, Vec3d)> = None;
    for i in 0..3 {
        let e = edge(tri, i).1;
        let cross = e.cross(&dir);
        let len_sq = cross.norm_squared();
        if len_sq <= PARALLEL_SIN_SQ * e.norm_squared() * dir.norm_squared() || len_sq == 0.0 {
            continue;
        }
        let axis = cross / len_sq.sqrt();
        let proj = tri.map(|v| axis.dot(&v));
        let (min_b, max_b) = (
            proj[0].min(proj[1]).min(proj[2]),
            proj[0].max(proj[1]).max(proj[2]),
        );
        let (s0, s1) = (axis.dot(&seg[0]), axis.dot(&seg[1]));
        let (min_a, max_a) = (s0.min(s1) - r, s0.max(s1) + r);
        for (sep, normal, lowest) in [(min_b - max_a, axis, min_b), (min_a - max_b, -axis, -max_b)]
        {
            let allowed = sep > 0.0 || normal.dot(&n) <= ONE_SIDED_TOLERANCE;
            if allowed
                && best_edge.is_none_or(|(b, ..)| sep > b)
                && (sep > 0.0 || edge_realizes(seg, tri, i, normal, lowest, tol))
            {
                best_edge = Some((sep, i, normal));
            }
        }
    }
    if let Some((sep, i, normal)) = best_edge {
        if sep > face_sep + tol {
            if !within_margin(sep, margin) {
                return LocalManifold::empty();
            }
            let (a, b) = edge_ends(tri, i);
            let (_, _, cs, ct) = segment_segment(seg[0], seg[1], a, b);
            return LocalManifold::single(normal, (cs + normal * r + ct) * 0.5, -sep);
        }
    }
    if !within_margin(face_sep, margin) {
        return LocalManifold::empty();
    }
    // The clipped core, plus its deepest end when the clip misses it, so
    // that the deepest point carries the axis depth.
    let mut out = face_points(seg, r, tri, n, margin);
    out.normal = -n;
    let x = if h0 <= h1 { seg[0] } else { seg[1] };
    let hx = h0.min(h1);
    let foot = x - n * hx;
    let over_face = (point_triangle(foot, tri).0 - foot).norm_squared() <= tol * tol;
    if over_face && r - hx > out.deepest() + AXIS_TOLERANCE_ABS {
        out.push((x - n * r + x - n * hx) * 0.5, r - hx);
    }
    out
}

/// Whether the overlap of the edge axis `normal` (from the capsule to the
/// triangle, built on edge `i` crossed with the core) is realized: the
/// triangle's support along `-normal` is edge `i` itself (both its ends
/// within `tol` of the lowest projection `lowest`), and the core and the
/// edge pass each other along the axis (their closest points aligned along
/// it within `tol`). Full projections give every axis an overlap; one that
/// no pair of surface points realizes (the triangle's deepest vertex along
/// it lies off the edge, the edge passes beside the core) would put the
/// point off both shapes.
fn edge_realizes(
    seg: [Vec3d; 2],
    tri: &[Vec3d; 3],
    i: usize,
    normal: Vec3d,
    lowest: f64,
    tol: f64,
) -> bool {
    let (a, b) = edge_ends(tri, i);
    if normal.dot(&a).max(normal.dot(&b)) > lowest + tol {
        return false;
    }
    let (_, _, cs, ct) = segment_segment(seg[0], seg[1], a, b);
    let d = ct - cs;
    (d - normal * normal.dot(&d)).norm() <= 2.0 * tol
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
        let inward = n.cross(&edge(tri, i).1);
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
        crate::triangle::test_floor(10.0)
    }

    #[test]
    fn capsule_lying_on_the_floor_gets_two_face_points() {
        let seg = [Vec3::new(-1.0, 0.0, 0.45), Vec3::new(1.0, 0.0, 0.45)];
        let m = contact_capsule_triangle(seg, 0.5, &floor(), 0.0).unwrap();
        assert_eq!(m.len(), 2);
        assert_eq!(m.normal(), -Vec3::z());
        for p in m.points() {
            assert!((p.depth - 0.05).abs() < 1e-6);
        }
    }

    #[test]
    fn capsule_wholly_behind_gets_nothing_but_one_end_in_front_is_pushed_out() {
        let behind = [Vec3::new(0.0, 0.0, -0.1), Vec3::new(0.0, 0.0, -2.0)];
        assert!(contact_capsule_triangle(behind, 0.5, &floor(), 0.1)
            .unwrap()
            .is_empty());
        let through = [Vec3::new(0.0, 0.0, 0.3), Vec3::new(0.0, 0.0, -0.2)];
        let m = contact_capsule_triangle(through, 0.5, &floor(), 0.0).unwrap();
        assert_eq!(m.normal(), -Vec3::z());
        let deepest = m.max_depth().unwrap();
        assert!((deepest - 0.7).abs() < 1e-6, "{deepest}");
    }
}
