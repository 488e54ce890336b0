//! Contact of a solid (a box or a convex hull) with a one-sided triangle
//! along the triangle's normal, by the part of the solid inside the
//! triangle's prism (the triangle extruded along its normal): the answer
//! of [`super::solid_solid`] and [`super::cuboid_triangle`] when the least
//! overlap would push the solid behind the triangle.
//!
//! Method: the vertices of the polytope "solid ∩ prism" lower than the
//! margin above the face plane (see [`prism_contact`]), the lines through
//! the triangle's corners clipped against the solid's face planes
//! (Cyrus-Beck). Precision domain: `f64` in the working frame of the
//! solid.

use parapet_math::Vec3d;

use super::placed_solid::PlacedSolid;
use super::scratch::Work;
use super::{within_margin, LocalManifold};

/// Contact of solid A with the one-sided triangle `tri` (a flat placed
/// solid) along the triangle's front normal, by the exact part of A inside
/// the triangle's prism (the triangle extruded along its normal) lower
/// than `margin` above the face plane. The lowest points of that part are
/// vertices of the polytope A ∩ prism: A's vertices inside the prism, A's
/// edges crossing a side plane of the prism, and the lowest point of A on
/// each of the prism's edges (the lines through the triangle's vertices
/// along the normal). Each lies on A's surface and over the triangle, so
/// each point is on both surfaces, and moving A along the normal by the
/// deepest depth lifts everything of A over the triangle above it: the
/// pair separates. A point within [`DOMINATED_DISTANCE_FRACTION`] of the
/// margin (seen along the normal) of a deeper one is dropped (the deeper
/// one carries that support), then the manifold keeps the deepest point
/// and the widest patch.
pub(crate) fn prism_contact(
    a: &PlacedSolid<'_>,
    tri: &PlacedSolid<'_>,
    margin: f64,
    work: &mut Work,
) -> LocalManifold {
    let front = tri.planes[0].normal;
    let offset = tri.planes[0].offset;
    let v = [tri.vertices[0], tri.vertices[1], tri.vertices[2]];
    let sides: [(Vec3d, f64); 3] = std::array::from_fn(|k| {
        let o = (v[(k + 1) % 3] - v[k]).cross(&front);
        (o, o.dot(&v[k]))
    });
    let size = tri.radius().max(a.radius());
    let slack = PRISM_SIDE_TOLERANCE_REL * size;
    let in_prism = |x: Vec3d, skip: usize| {
        (0..3).all(|k| k == skip || sides[k].0.dot(&x) - sides[k].1 <= slack * sides[k].0.norm())
    };
    let candidates = &mut work.candidates;
    candidates.clear();
    let mut consider = |x: Vec3d, h: f64| {
        if within_margin(h, margin) {
            candidates.push((x - front * (h * 0.5), -h));
        }
    };
    for &x in a.vertices {
        if in_prism(x, 3) {
            consider(x, front.dot(&x) - offset);
        }
    }
    for e in 0..a.edges.len() {
        let (p, q) = a.edge_points(e);
        for (k, (o, c)) in sides.iter().enumerate() {
            let (dp, dq) = (o.dot(&p) - c, o.dot(&q) - c);
            if (dp < 0.0 && dq > 0.0) || (dp > 0.0 && dq < 0.0) {
                let x = p + (q - p) * (dp / (dp - dq));
                if in_prism(x, k) {
                    consider(x, front.dot(&x) - offset);
                }
            }
        }
    }
    for &corner in &v {
        if let Some(t) = lowest_on_line(a, corner, front) {
            consider(corner + front * t, t);
        }
    }
    let mut out = LocalManifold::with_normal(-front);
    let merge = DOMINATED_DISTANCE_FRACTION * margin.max(PRISM_MIN_MERGE);
    candidates.sort_by(|x, y| y.1.total_cmp(&x.1));
    let mut kept = 0;
    for k in 0..candidates.len() {
        let (x, depth) = candidates[k];
        let dominated = candidates[..kept].iter().any(|(y, _)| {
            let d = x - y;
            (d - front * front.dot(&d)).norm() <= merge
        });
        if !dominated {
            candidates[kept] = (x, depth);
            kept += 1;
        }
    }
    for &(x, depth) in &candidates[..kept] {
        out.push(x, depth);
    }
    out
}

/// The height over the triangle's plane of the lowest point of solid `a`
/// on the line through `corner` along `front` (Cyrus-Beck against A's face
/// planes: [`clip_line`]), `None` when the line misses A.
fn lowest_on_line(a: &PlacedSolid<'_>, corner: Vec3d, front: Vec3d) -> Option<f64> {
    clip_line(a, corner, front, (f64::NEG_INFINITY, f64::INFINITY))
        .map(|(lo, _)| lo)
        .filter(|lo| lo.is_finite())
}

/// The parameter range within `range` of the line `p + t dir` inside
/// solid `b` (Cyrus-Beck clipping against every face plane), `None` when
/// it misses the solid there.
pub(super) fn clip_line(
    b: &PlacedSolid<'_>,
    p: Vec3d,
    dir: Vec3d,
    (mut lo, mut hi): (f64, f64),
) -> Option<(f64, f64)> {
    for f in 0..b.planes.len() {
        let start = b.face_distance(f, p);
        let rate = b.planes[f].normal.dot(&dir);
        if rate == 0.0 {
            if start > 0.0 {
                return None;
            }
            continue;
        }
        let t = -start / rate;
        if rate < 0.0 {
            lo = lo.max(t);
        } else {
            hi = hi.min(t);
        }
        if lo > hi {
            return None;
        }
    }
    Some((lo, hi))
}

/// Relative slack (dimensionless, times the larger of the two shapes'
/// radii) by which a point may lie outside a side plane of the triangle's
/// prism and still count as over the triangle: 1e-9, far below `f32`
/// rounding of the vertices, so that a vertex exactly over an edge counts.
const PRISM_SIDE_TOLERANCE_REL: f64 = 1.0e-9;

/// Fraction of the contact margin (dimensionless) within which (seen along
/// the normal) a shallower candidate point of [`prism_contact`] is dropped
/// for a deeper one: 0.5, so that an overhanging side face crossing the
/// prism just above a bottom corner does not displace that corner from the
/// reduced manifold (it would carry no load: it is a gap point).
const DOMINATED_DISTANCE_FRACTION: f64 = 0.5;

/// Smallest merge distance (m) of [`prism_contact`], for a zero margin:
/// 1e-6 m, coincident points only.
const PRISM_MIN_MERGE: f64 = 1.0e-6;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contact::placed_solid::{Placement, TrianglePlacement};
    use crate::contact::scratch::ContactScratch;
    use crate::contact::solid_triangle::tests::pyramid;
    use parapet_math::Mat3d;

    #[test]
    fn a_hull_deep_through_a_small_triangle_is_pushed_out_along_its_normal() {
        // The pyramid's apex pokes 0.5 m up through a small triangle whose
        // least overlap would push the pyramid behind it: the prism
        // contact pushes it down along the normal by the apex's height.
        let solid = pyramid();
        let mut placement = Placement::default();
        let turned = Mat3d::from_diagonal(&Vec3d::new(1.0, -1.0, -1.0));
        let a = placement.place(&solid, &turned, Vec3d::new(0.0, 0.0, 0.5));
        // The apex is now at z = -0.5, the base at z = 0.5.
        let tri = [
            Vec3d::new(-0.1, -0.1, 0.0),
            Vec3d::new(0.1, -0.1, 0.0),
            Vec3d::new(0.0, 0.1, 0.0),
        ];
        let placed = TrianglePlacement::new(&tri, Vec3d::z());
        let mut scratch = ContactScratch::new();
        let m = prism_contact(&a, &placed.placed(), 0.0, &mut scratch.work);
        assert_eq!(m.normal, -Vec3d::z());
        // Deepest: the apex region over the triangle, 0.5 m below it.
        assert!((m.deepest() - 0.5).abs() < 0.1, "{m:?}");
    }
}
