//! Contact between a solid (a box or a convex hull) and one static,
//! one-sided triangle.
//!
//! Method: the triangle becomes a flat solid whose only face is its
//! front, and the pair goes through the separating-axis test of
//! [`super::solid_solid`] (face axes of both, edge-pair axes by full
//! projection). One-sided rule (as every contact with a triangle): a solid whose centre
//! (the mean of its vertices) is strictly behind the triangle's plane gets
//! no contact, and no edge axis may push the solid behind the face
//! unless it separates. Precision domain: `f64` relative to the solid's
//! position.

use parapet_math::{promote, Vec3, Vec3d};

use super::placed_solid::PlacedSolid;
use super::solid_solid::solid_solid;
use super::{within_margin, working_rotation, LocalManifold, Manifold, Pose};
use crate::solid::ConvexSolid;
use crate::triangle::{relative_triangle, unit_normal};

/// Contact of cuboid A (half extents `half_a`, pose `pose_a`) with triangle
/// B (world, counter-clockwise from the front). The normal runs from the
/// cuboid to the triangle (`-face_normal` for a box resting on the front).
pub fn contact_cuboid_triangle(
    half_a: Vec3,
    pose_a: &Pose,
    triangle_b: &[Vec3; 3],
    margin: f32,
) -> Manifold {
    let origin = promote(pose_a.translation.vector);
    let solid = ConvexSolid::cuboid(promote(half_a));
    let a = PlacedSolid::new(&solid, &working_rotation(pose_a), Vec3d::zeros());
    let tri = relative_triangle(triangle_b, origin);
    solid_triangle(&a, &tri, margin as f64).into_world(origin)
}

/// Contact of solid A with triangle B, both in the working frame.
pub(crate) fn solid_triangle(a: &PlacedSolid<'_>, tri: &[Vec3d; 3], margin: f64) -> LocalManifold {
    let Some(n) = unit_normal(tri) else {
        return LocalManifold::empty();
    };
    if n.dot(&(a.center - tri[0])) < 0.0 {
        return LocalManifold::empty();
    }
    solid_solid(a, &PlacedSolid::triangle(tri, n), margin)
}

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
    let mut candidates: Vec<(Vec3d, f64)> = Vec::new();
    let mut consider = |x: Vec3d, h: f64| {
        if within_margin(h, margin) {
            candidates.push((x - front * (h * 0.5), -h));
        }
    };
    for &x in &a.vertices {
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
    let mut out = LocalManifold {
        normal: -front,
        points: Vec::new(),
    };
    let merge = DOMINATED_DISTANCE_FRACTION * margin.max(PRISM_MIN_MERGE);
    candidates.sort_by(|x, y| y.1.total_cmp(&x.1));
    for (x, depth) in candidates {
        let dominated = out.points.iter().any(|(y, _)| {
            let d = x - y;
            (d - front * front.dot(&d)).norm() <= merge
        });
        if !dominated {
            out.points.push((x, depth));
        }
    }
    out
}

/// The height over the triangle's plane of the lowest point of solid `a`
/// on the line through `corner` along `front` (Cyrus-Beck against A's face
/// planes), `None` when the line misses A.
fn lowest_on_line(a: &PlacedSolid<'_>, corner: Vec3d, front: Vec3d) -> Option<f64> {
    let (mut lo, mut hi) = (f64::NEG_INFINITY, f64::INFINITY);
    for f in 0..a.planes.len() {
        let start = a.face_distance(f, corner);
        let rate = a.planes[f].normal.dot(&front);
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
    }
    (lo <= hi && lo.is_finite()).then_some(lo)
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
    use parapet_math::nalgebra::{Isometry3, Translation3, UnitQuaternion};

    fn floor() -> [Vec3; 3] {
        crate::triangle::test_floor(10.0)
    }

    fn at(z: f32) -> Pose {
        Isometry3::from_parts(Translation3::new(0.0, 0.0, z), UnitQuaternion::identity())
    }

    #[test]
    fn box_sinking_into_the_floor_gets_four_face_points() {
        let m = contact_cuboid_triangle(Vec3::new(0.5, 0.5, 0.5), &at(0.48), &floor(), 0.0);
        assert_eq!(m.len(), 4);
        assert_eq!(m.normal(), -Vec3::z());
        for p in m.points() {
            assert!((p.depth - 0.02).abs() < 1e-6);
            assert!((p.point.z + 0.01).abs() < 1e-6);
        }
    }

    #[test]
    fn box_centred_behind_the_floor_gets_nothing() {
        let m = contact_cuboid_triangle(Vec3::new(0.5, 0.5, 0.5), &at(-0.1), &floor(), 0.1);
        assert!(m.is_empty());
    }
}
