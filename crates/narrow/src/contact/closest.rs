//! Closest points between points, segments and triangles in `f64`.
//!
//! Method: Ericson, "Real-Time Collision Detection" (2005), 5.1.2 (point to
//! segment), 5.1.5 (point to triangle, by Voronoi regions) and 5.1.9 (segment
//! to segment, clamped parametric solution). Precision domain: inputs are
//! `f32` values promoted to `f64` and expressed relative to a nearby working
//! origin, so the products here carry about 29 spare bits beyond the inputs.

use parapet_math::Vec3d;

use crate::triangle::{edge_ends, inside, raw_normal};

/// Squared length (m^2) below which a segment counts as a point: far below
/// any `f32` length at the scales parapet accepts (1e-12 m).
pub(crate) const DEGENERATE_LENGTH_SQ: f64 = 1.0e-24;

/// Closest point of segment `[a, b]` to `p`: its parameter in [0, 1] and the point.
pub(crate) fn point_segment(p: Vec3d, a: Vec3d, b: Vec3d) -> (f64, Vec3d) {
    let ab = b - a;
    let len_sq = ab.norm_squared();
    if len_sq <= DEGENERATE_LENGTH_SQ {
        return (0.0, a);
    }
    let t = ((p - a).dot(&ab) / len_sq).clamp(0.0, 1.0);
    (t, a + ab * t)
}

/// Closest points of segments `[p1, q1]` and `[p2, q2]`: parameters `s`, `t`
/// and the points `c1 = p1 + s (q1 - p1)`, `c2 = p2 + t (q2 - p2)`.
/// Parallel segments return one of the closest pairs (Ericson 5.1.9).
pub(crate) fn segment_segment(
    p1: Vec3d,
    q1: Vec3d,
    p2: Vec3d,
    q2: Vec3d,
) -> (f64, f64, Vec3d, Vec3d) {
    let d1 = q1 - p1;
    let d2 = q2 - p2;
    let r = p1 - p2;
    let a = d1.norm_squared();
    let e = d2.norm_squared();
    let f = d2.dot(&r);
    let (s, t);
    if a <= DEGENERATE_LENGTH_SQ && e <= DEGENERATE_LENGTH_SQ {
        return (0.0, 0.0, p1, p2);
    }
    if a <= DEGENERATE_LENGTH_SQ {
        s = 0.0;
        t = (f / e).clamp(0.0, 1.0);
    } else {
        let c = d1.dot(&r);
        if e <= DEGENERATE_LENGTH_SQ {
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
    (s, t, p1 + d1 * s, p2 + d2 * t)
}

/// The feature of a triangle that holds a closest point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TriangleFeature {
    /// The interior of the face.
    Face,
    /// Edge `i` runs from vertex `i` to vertex `(i + 1) % 3`.
    Edge(usize),
    /// Vertex `i`.
    Vertex(usize),
}

/// Closest point of triangle `[a, b, c]` to `p`, and the feature it lies on
/// (Ericson 5.1.5, Voronoi regions).
pub(crate) fn point_triangle(p: Vec3d, tri: &[Vec3d; 3]) -> (Vec3d, TriangleFeature) {
    let [a, b, c] = *tri;
    let ab = b - a;
    let ac = c - a;
    let ap = p - a;
    let d1 = ab.dot(&ap);
    let d2 = ac.dot(&ap);
    if d1 <= 0.0 && d2 <= 0.0 {
        return (a, TriangleFeature::Vertex(0));
    }
    let bp = p - b;
    let d3 = ab.dot(&bp);
    let d4 = ac.dot(&bp);
    if d3 >= 0.0 && d4 <= d3 {
        return (b, TriangleFeature::Vertex(1));
    }
    let vc = d1 * d4 - d3 * d2;
    if vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 {
        let v = d1 / (d1 - d3);
        return (a + ab * v, TriangleFeature::Edge(0));
    }
    let cp = p - c;
    let d5 = ab.dot(&cp);
    let d6 = ac.dot(&cp);
    if d6 >= 0.0 && d5 <= d6 {
        return (c, TriangleFeature::Vertex(2));
    }
    let vb = d5 * d2 - d1 * d6;
    if vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 {
        let w = d2 / (d2 - d6);
        return (a + ac * w, TriangleFeature::Edge(2));
    }
    let va = d3 * d6 - d5 * d4;
    if va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0 {
        let w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
        return (b + (c - b) * w, TriangleFeature::Edge(1));
    }
    let denom = va + vb + vc;
    if denom.abs() <= f64::MIN_POSITIVE || !denom.is_finite() {
        // Degenerate (zero-area) triangle: the closest point of its edges.
        return closest_on_edges(p, tri);
    }
    let v = vb / denom;
    let w = vc / denom;
    (a + ab * v + ac * w, TriangleFeature::Face)
}

fn closest_on_edges(p: Vec3d, tri: &[Vec3d; 3]) -> (Vec3d, TriangleFeature) {
    let mut best = (tri[0], TriangleFeature::Vertex(0));
    let mut best_d = f64::INFINITY;
    for i in 0..3 {
        let (a, b) = edge_ends(tri, i);
        let (_, q) = point_segment(p, a, b);
        let d = (q - p).norm_squared();
        if d < best_d {
            best_d = d;
            best = (q, TriangleFeature::Edge(i));
        }
    }
    best
}

/// Closest points of segment `[p, q]` and a triangle: the point on the
/// segment, the point on the triangle and the triangle feature. A segment
/// that crosses the face returns its crossing point twice (distance 0).
pub(crate) fn segment_triangle(
    p: Vec3d,
    q: Vec3d,
    tri: &[Vec3d; 3],
) -> (Vec3d, Vec3d, TriangleFeature) {
    let n = raw_normal(tri);
    let hp = n.dot(&(p - tri[0]));
    let hq = n.dot(&(q - tri[0]));
    if (hp <= 0.0 && hq >= 0.0) || (hp >= 0.0 && hq <= 0.0) {
        let span = hp - hq;
        if span != 0.0 {
            let x = p + (q - p) * (hp / span);
            if inside(x, tri, &n) {
                return (x, x, TriangleFeature::Face);
            }
        }
    }
    let (tp, fp) = point_triangle(p, tri);
    let mut best = (p, tp, fp);
    let mut best_d = (tp - p).norm_squared();
    let (tq, fq) = point_triangle(q, tri);
    let dq = (tq - q).norm_squared();
    if dq < best_d {
        best_d = dq;
        best = (q, tq, fq);
    }
    for i in 0..3 {
        let (a, b) = edge_ends(tri, i);
        let (_, t, cs, ct) = segment_segment(p, q, a, b);
        let d = (ct - cs).norm_squared();
        if d < best_d {
            best_d = d;
            let feature = if t <= 0.0 {
                TriangleFeature::Vertex(i)
            } else if t >= 1.0 {
                TriangleFeature::Vertex((i + 1) % 3)
            } else {
                TriangleFeature::Edge(i)
            };
            best = (cs, ct, feature);
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tri() -> [Vec3d; 3] {
        [
            Vec3d::new(0.0, 0.0, 0.0),
            Vec3d::new(1.0, 0.0, 0.0),
            Vec3d::new(0.0, 1.0, 0.0),
        ]
    }

    #[test]
    fn point_above_the_face_projects_onto_it() {
        let (q, f) = point_triangle(Vec3d::new(0.2, 0.3, 5.0), &tri());
        assert_eq!(f, TriangleFeature::Face);
        assert!((q - Vec3d::new(0.2, 0.3, 0.0)).norm() < 1e-15);
    }

    #[test]
    fn point_beyond_the_hypotenuse_lands_on_edge_one() {
        let (q, f) = point_triangle(Vec3d::new(1.0, 1.0, 0.0), &tri());
        assert_eq!(f, TriangleFeature::Edge(1));
        assert!((q - Vec3d::new(0.5, 0.5, 0.0)).norm() < 1e-15);
    }

    #[test]
    fn crossed_segments_meet_at_their_crossing() {
        let (s, t, c1, c2) = segment_segment(
            Vec3d::new(-1.0, 0.0, 0.0),
            Vec3d::new(1.0, 0.0, 0.0),
            Vec3d::new(0.0, -1.0, 1.0),
            Vec3d::new(0.0, 1.0, 1.0),
        );
        assert!((s - 0.5).abs() < 1e-15 && (t - 0.5).abs() < 1e-15);
        assert!((c2 - c1 - Vec3d::z()).norm() < 1e-15);
    }

    #[test]
    fn a_segment_through_the_face_has_zero_distance() {
        let (a, b, f) = segment_triangle(
            Vec3d::new(0.25, 0.25, 1.0),
            Vec3d::new(0.25, 0.25, -1.0),
            &tri(),
        );
        assert_eq!(f, TriangleFeature::Face);
        assert!((a - b).norm() == 0.0 && a.z.abs() < 1e-15);
    }
}
