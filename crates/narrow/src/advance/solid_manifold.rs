//! The touch points of a posed convex solid on a triangle it touches: every
//! point of the solid within the manifold band of the triangle, so that a
//! box landing flat reports its four corners at one instant.
//!
//! # Method
//! The contact region of two convex polytopes a band apart is the clipped
//! overlap of their nearest features (Ericson, *Real-Time Collision
//! Detection*, 5.5; the clipping of Sutherland and Hodgman, 1974). Its
//! corners are of three kinds, found here directly by feature pairs within
//! [`MANIFOLD_BAND_TOLERANCES`] tolerances, in this order:
//!
//! 1. a solid vertex near the triangle (its closest triangle point, 5.1.5);
//! 2. a triangle vertex near a solid face, projecting inside the face
//!    polygon (the vertex's projection on the face plane);
//! 3. a solid edge near a triangle edge, with the closest point inside the
//!    solid edge (5.1.9): an edge crossing or a triangle vertex near a solid
//!    edge.
//!
//! Points within [`DUPLICATE_TOLERANCES`] tolerances of an earlier point are
//! dropped. Each point's gap is its signed distance along the contact
//! normal. Should none be found (a solid deeper than the band), the vertex
//! deepest along the contact normal is the one point.
//!
//! # Precision domain
//! `f64` in the working frame, as for the separating planes; the band is
//! many orders of magnitude above the closest points' rounding.

use parapet_math::Vec3d;

use super::solid::{PosedSolid, SolidCore};
use super::{CoreShape, Separation, Touch};
use crate::contact::closest::{point_triangle, segment_segment};

/// Width of the manifold band in tolerances (dimensionless): a solid point
/// within two tolerances of the triangle touches it. The deepest point of a
/// reported contact is at most a tolerance and a sub-step gap below the
/// surface, so the band keeps every point up to about a tolerance above it:
/// the corners of a box landing flat, even slightly tilted, arrive together.
pub const MANIFOLD_BAND_TOLERANCES: f64 = 2.0;

/// Points closer than this many tolerances (dimensionless) to an earlier
/// point of the manifold are the same point (a crossing found from both of
/// its edges, a vertex on an edge).
pub const DUPLICATE_TOLERANCES: f64 = 1.0e-3;

/// Relative slack (dimensionless) of the inside test of a projected point
/// against a face polygon's edges: `1e-12` of the edge length times the
/// point's offset, far above the rounding of the cross products.
const INSIDE_SLACK: f64 = 1.0e-12;

fn push(out: &mut Vec<Touch>, start: usize, touch: Touch, same: f64) {
    if out[start..]
        .iter()
        .any(|t| (t.on_shape - touch.on_shape).norm() <= same)
    {
        return;
    }
    out.push(touch);
}

/// Whether `p` (on the plane of face `f`) lies inside the face polygon.
fn inside_face(core: &SolidCore, posed: &PosedSolid, f: usize, p: &Vec3d) -> bool {
    let n = posed.normals[f];
    let l = core.face_loop(f);
    (0..l.len()).all(|k| {
        let a = posed.points[l[k]];
        let b = posed.points[l[(k + 1) % l.len()]];
        let e = b - a;
        let side = e.cross(&(p - a)).dot(&n);
        side >= -INSIDE_SLACK * e.norm() * ((p - a).norm() + e.norm())
    })
}

/// The touch points of the posed solid on `tri` (see the module docs),
/// appended to `out` (working frame).
pub(crate) fn touch_points(
    core: &SolidCore,
    posed: &PosedSolid,
    tri: &[Vec3d; 3],
    separation: &Separation,
    out: &mut Vec<Touch>,
) {
    let tol = core.tolerance();
    let band = MANIFOLD_BAND_TOLERANCES * tol;
    let same = DUPLICATE_TOLERANCES * tol;
    let n = separation.normal;
    let start = out.len();
    let points = &posed.points;
    for p in points {
        let q = point_triangle(*p, tri).0;
        if (p - q).norm() <= band {
            let touch = Touch {
                on_shape: *p,
                on_triangle: q,
                gap: n.dot(&(p - q)),
            };
            push(out, start, touch, same);
        }
    }
    for q in tri {
        for f in 0..posed.normals.len() {
            let nf = posed.normals[f];
            let height = nf.dot(q) - posed.offsets[f];
            if !(height.abs() <= band) {
                continue;
            }
            let p = q - nf * height;
            if inside_face(core, posed, f, &p) {
                let touch = Touch {
                    on_shape: p,
                    on_triangle: *q,
                    gap: n.dot(&(p - q)),
                };
                push(out, start, touch, same);
            }
        }
    }
    for &[i, j] in core.edges() {
        for k in 0..3 {
            let (s, _, x, y) = segment_segment(points[i], points[j], tri[k], tri[(k + 1) % 3]);
            if s > 0.0 && s < 1.0 && (x - y).norm() <= band {
                let touch = Touch {
                    on_shape: x,
                    on_triangle: y,
                    gap: n.dot(&(x - y)),
                };
                push(out, start, touch, same);
            }
        }
    }
    if out.len() == start {
        let deepest = points
            .iter()
            .min_by(|a, b| n.dot(a).total_cmp(&n.dot(b)))
            .copied()
            .unwrap_or_else(Vec3d::zeros);
        let q = point_triangle(deepest, tri).0;
        out.push(Touch {
            on_shape: deepest,
            on_triangle: q,
            gap: n.dot(&(deepest - q)),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::advance::Placement;
    use parapet_math::Quatd;

    fn floor(z: f64, size: f64) -> [Vec3d; 3] {
        [
            Vec3d::new(-size, -size, z),
            Vec3d::new(size, -size, z),
            Vec3d::new(0.0, size, z),
        ]
    }

    fn manifold(core: &SolidCore, rotation: &Quatd, tri: &[Vec3d; 3]) -> Vec<Touch> {
        let posed = core.pose(rotation);
        let s = core.separation(&posed, tri).unwrap();
        let mut out = Vec::new();
        core.touch_points(&posed, tri, &s, &mut out);
        out
    }

    #[test]
    fn a_box_flat_on_a_large_triangle_touches_with_its_four_bottom_corners() {
        let core = SolidCore::cuboid(Vec3d::new(1.0, 0.5, 0.25), &Placement::centred()).unwrap();
        let tol = core.tolerance();
        // Sunk by half a tolerance.
        let tri = floor(-0.25 + 0.5 * tol, 20.0);
        let m = manifold(&core, &Quatd::identity(), &tri);
        assert_eq!(m.len(), 4, "{m:?}");
        for t in &m {
            assert!((t.on_shape.z + 0.25).abs() < 1e-15);
            assert!((t.gap + 0.5 * tol).abs() < 1e-12, "{}", t.gap);
        }
    }

    #[test]
    fn a_slightly_tilted_box_keeps_the_corners_within_the_band() {
        let core = SolidCore::cuboid(Vec3d::new(1.0, 0.5, 0.25), &Placement::centred()).unwrap();
        let tol = core.tolerance();
        // Tilted about y so that the +x corners sit 1.5 tol higher than the
        // -x corners: all four within two tolerances.
        let tilt = Quatd::from_scaled_axis(Vec3d::new(0.0, -0.75 * tol, 0.0));
        let posed = core.pose(&tilt);
        let low = posed
            .points
            .iter()
            .map(|p| p.z)
            .fold(f64::INFINITY, f64::min);
        let tri = floor(low, 20.0);
        assert_eq!(manifold(&core, &tilt, &tri).len(), 4);
        // Tilted three times as much: only the two low corners.
        let steep = Quatd::from_scaled_axis(Vec3d::new(0.0, -3.0 * tol, 0.0));
        let posed = core.pose(&steep);
        let low = posed
            .points
            .iter()
            .map(|p| p.z)
            .fold(f64::INFINITY, f64::min);
        assert_eq!(manifold(&core, &steep, &floor(low, 20.0)).len(), 2);
    }

    #[test]
    fn a_box_over_a_triangle_edge_touches_at_its_inner_corners_and_the_crossings() {
        // The triangle's edge from (-20, 0) to (20, 0) runs under the box's
        // middle; the triangle lies at y <= 0: the manifold is the two
        // corners at y = -0.5 and the two crossings of the bottom x edges.
        let core = SolidCore::cuboid(Vec3d::new(1.0, 0.5, 0.25), &Placement::centred()).unwrap();
        let tri = [
            Vec3d::new(20.0, 0.0, -0.25),
            Vec3d::new(-20.0, 0.0, -0.25),
            Vec3d::new(0.0, -20.0, -0.25),
        ];
        let m = manifold(&core, &Quatd::identity(), &tri);
        let mut xy: Vec<(f64, f64)> = m.iter().map(|t| (t.on_shape.x, t.on_shape.y)).collect();
        xy.sort_by(|a, b| a.partial_cmp(b).unwrap());
        assert_eq!(xy.len(), 4, "{xy:?}");
        let expected = [(-1.0, -0.5), (-1.0, 0.0), (1.0, -0.5), (1.0, 0.0)];
        for (got, want) in xy.iter().zip(expected) {
            assert!(
                (got.0 - want.0).abs() < 1e-12 && (got.1 - want.1).abs() < 1e-12,
                "{xy:?}"
            );
        }
    }

    #[test]
    fn a_small_triangle_under_a_box_face_touches_at_its_vertices() {
        let core = SolidCore::cuboid(Vec3d::new(1.0, 1.0, 0.25), &Placement::centred()).unwrap();
        let tri = floor(-0.25, 0.3);
        let m = manifold(&core, &Quatd::identity(), &tri);
        assert_eq!(m.len(), 3, "{m:?}");
        for (t, q) in m.iter().zip(&tri) {
            assert_eq!(t.on_triangle, *q);
            assert!(t.gap.abs() < 1e-15);
        }
    }
}
