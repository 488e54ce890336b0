//! Contact normals at the inactive edges of a mesh triangle: a contact that
//! touches a triangle of a mesh only at seams of the tessellation (edges
//! that [`parapet_geometry::mesh_edges`] finds inactive) takes the face
//! normal, so that solids slide over flat or gently curved meshes without
//! ghost contacts. Discrete contacts go through `admit_in_place` (crate-private,
//! used by `shape_mesh_triangle`), swept impacts through [`admit_impact`]:
//! the same topology-aware feature admission for swept and initial contacts
//! on a tessellated floor (docs/physics.md, "Tessellated surfaces").
//!
//! Swept impacts: an impact at a seam keeps its time and point (the shape
//! does touch the surface there, so nothing passes through) and takes the
//! face normal; when the shape's motion does not close along that normal
//! (sliding along the surface) the impact is no impact at all and becomes a
//! miss, since the face plane is all that the seam stands for.
//!
//! Method (Jolt's `ActiveEdges::FixNormal`, J. Rouwe; Bullet's
//! `btAdjustInternalEdgeContacts`): the pair test runs as for a lone
//! triangle; when its normal differs from the face normal, each contact
//! point is classified by the triangle edges it lies on (within half its
//! depth, where the midpoint convention puts it, plus a rounding
//! tolerance). If some point lies on an active edge (or an active vertex,
//! one of whose edges is active), the contact is a real edge or vertex
//! contact and keeps its normal; otherwise the normal becomes the face
//! normal, with the same points and depths. A one-sided mesh triangle can
//! then push only along its face normal except at real creases and rims.
//! Precision domain: `f64` in the pair's working frame.

use parapet_geometry::ActiveEdges;
use parapet_math::{promote, Vec3, Vec3d};

use super::{LocalManifold, FACE_NORMAL_COS};
use crate::sweep::{Impact, SweepOutcome};
use crate::triangle::{edge, edge_ends, unit_normal};

/// Relative tolerance (dimensionless, times the triangle's longest edge)
/// within which a contact point lies on an edge: 1e-6, about eight `f32`
/// ulps of the triangle's size (the rounding of its vertices), so a point
/// computed on an edge is not missed through roundoff.
pub(crate) const EDGE_TOUCH_TOLERANCE_REL: f64 = 1.0e-6;

/// Distance (m) from `p` to the segment `a`-`b`.
fn segment_distance(p: Vec3d, a: Vec3d, b: Vec3d) -> f64 {
    let ab = b - a;
    let len_sq = ab.norm_squared();
    let t = if len_sq > 0.0 {
        ((p - a).dot(&ab) / len_sq).clamp(0.0, 1.0)
    } else {
        0.0
    };
    (p - (a + ab * t)).norm()
}

/// [`admit_in_place`] by value (the unit tests' form).
#[cfg(test)]
pub(crate) fn admit(mut m: LocalManifold, tri: &[Vec3d; 3], edges: ActiveEdges) -> LocalManifold {
    admit_in_place(&mut m, tri, edges);
    m
}

/// The manifold `m` (in place) of a shape with triangle `tri` (working frame, normal
/// from the shape to the triangle), with its normal replaced by the face
/// normal when it touches no active feature of `edges` (see the module
/// documentation). Unchanged for [`ActiveEdges::ALL`], an empty manifold, a
/// face-normal contact or a triangle without area.
pub(crate) fn admit_in_place(m: &mut LocalManifold, tri: &[Vec3d; 3], edges: ActiveEdges) {
    if edges.all() || m.is_empty() {
        return;
    }
    let Some(n) = super::front_normal(tri) else {
        return;
    };
    let face = -n;
    if m.normal.dot(&face) >= FACE_NORMAL_COS {
        return;
    }
    let size = (0..3).map(|k| edge(tri, k).1.norm()).fold(0.0, f64::max);
    let slack = EDGE_TOUCH_TOLERANCE_REL * size;
    let on_active_feature = m
        .points()
        .iter()
        .any(|&(p, depth)| on_active_edge(p, tri, edges, 0.5 * depth.abs() + slack));
    if !on_active_feature {
        m.normal = face;
    }
}

/// Whether some active edge of `tri` passes within `tol` (m) of `p`.
fn on_active_edge(p: Vec3d, tri: &[Vec3d; 3], edges: ActiveEdges, tol: f64) -> bool {
    (0..3).any(|k| {
        edges.edge(k) && {
            let (a, b) = edge_ends(tri, k);
            segment_distance(p, a, b) <= tol
        }
    })
}

/// The normal a contact at `point` with normal `normal` (unit, from the
/// triangle towards the shape) takes at triangle `tri` of a mesh whose
/// active edges are `edges`: the triangle's unit face normal when `normal`
/// is not already the face normal and `point` lies on no active edge (a
/// seam contact), else `normal` itself. Any frame, as long as `point` and
/// `tri` share it; a triangle without area keeps `normal`.
pub fn seam_normal(normal: Vec3d, point: Vec3d, tri: &[Vec3d; 3], edges: ActiveEdges) -> Vec3d {
    if edges.all() {
        return normal;
    }
    match unit_normal(tri) {
        Some(n) => seam_normal_of(normal, point, tri, n, edges),
        None => normal,
    }
}

/// [`seam_normal`] with the triangle's unit face normal `n` already known.
fn seam_normal_of(
    normal: Vec3d,
    point: Vec3d,
    tri: &[Vec3d; 3],
    n: Vec3d,
    edges: ActiveEdges,
) -> Vec3d {
    if normal.dot(&n) >= FACE_NORMAL_COS {
        return normal;
    }
    let size = (0..3).map(|k| edge(tri, k).1.norm()).fold(0.0, f64::max);
    if on_active_edge(point, tri, edges, EDGE_TOUCH_TOLERANCE_REL * size) {
        normal
    } else {
        n
    }
}

/// The sweep `outcome` of a shape against triangle `tri` of a mesh whose
/// active edges are `edges`, with seam impacts admitted as face contacts
/// (see the module documentation and [`seam_normal`]): an impact at a seam
/// takes the face normal, and a [`SweepOutcome::Hit`] whose `motion` (the
/// moving shape's velocity or displacement relative to the triangle: only
/// its direction along the face normal matters) does not close along the
/// face normal becomes [`SweepOutcome::Miss`]. Every other outcome, and
/// every outcome for [`ActiveEdges::ALL`], is returned as is.
///
/// ```
/// use parapet_geometry::ActiveEdges;
/// use parapet_math::Vec3;
/// use parapet_narrow::contact::active_edges::admit_impact;
/// use parapet_narrow::sweep::{sweep_sphere_triangle, SweepOutcome};
/// // A sphere overlapping a flat floor by 1 mm slides along +x into the
/// // seam x = 0 of the next triangle: an edge hit, a ghost.
/// let next = [
///     Vec3::new(0.0, -1.0, 0.0),
///     Vec3::new(1.0, -1.0, 0.0),
///     Vec3::new(0.0, 1.0, 0.0),
/// ];
/// let (c, v) = (Vec3::new(-0.2, 0.0, 0.099), Vec3::new(6.0, 0.0, 0.0));
/// let out = sweep_sphere_triangle(c, 0.1, v, 0.1, &next);
/// assert!(matches!(out, SweepOutcome::Hit(_)));
/// // With the seam inactive it is no impact: the sphere slides on.
/// let seam = ActiveEdges::from_edges([true, true, false]);
/// assert_eq!(admit_impact(out, v, &next, seam), SweepOutcome::Miss);
/// ```
pub fn admit_impact<F>(
    outcome: SweepOutcome<F>,
    motion: Vec3,
    tri: &[Vec3; 3],
    edges: ActiveEdges,
) -> SweepOutcome<F> {
    if edges.all() {
        return outcome;
    }
    let tri = tri.map(promote);
    let Some(n) = unit_normal(&tri) else {
        return outcome;
    };
    let admitted = |i: &Impact<F>| seam_normal_of(i.normal, i.point, &tri, n, edges);
    match outcome {
        SweepOutcome::Hit(mut i) => {
            let normal = admitted(&i);
            if normal == i.normal {
                SweepOutcome::Hit(i)
            } else if promote(motion).dot(&n) >= 0.0 {
                SweepOutcome::Miss
            } else {
                i.normal = normal;
                SweepOutcome::Hit(i)
            }
        }
        SweepOutcome::InitiallyTouching(mut i) => {
            i.normal = admitted(&i);
            SweepOutcome::InitiallyTouching(i)
        }
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn floor() -> [Vec3d; 3] {
        floor_f32().map(parapet_math::promote)
    }

    fn edge_contact() -> LocalManifold {
        // A ghost: normal +y (from the shape to the triangle) at a point on
        // the triangle's bottom edge (edge 0, y = 0).
        LocalManifold::single(Vec3d::y(), Vec3d::new(0.5, 0.0, 0.0), 0.0)
    }

    #[test]
    fn an_edge_contact_at_an_inactive_edge_takes_the_face_normal() {
        let m = admit(edge_contact(), &floor(), ActiveEdges::NONE);
        assert_eq!(m.normal, -Vec3d::z());
        assert_eq!(m.points(), edge_contact().points());
    }

    #[test]
    fn an_edge_contact_at_an_active_edge_keeps_its_normal() {
        let m = admit(
            edge_contact(),
            &floor(),
            ActiveEdges::from_edges([true, false, false]),
        );
        assert_eq!(m.normal, Vec3d::y());
        // Another edge active does not make edge 0 a feature.
        let m = admit(
            edge_contact(),
            &floor(),
            ActiveEdges::from_edges([false, true, true]),
        );
        assert_eq!(m.normal, -Vec3d::z());
    }

    #[test]
    fn a_vertex_contact_keeps_its_normal_when_either_edge_is_active() {
        let at_vertex = LocalManifold::single(
            Vec3d::new(1.0, -1.0, 0.0).normalize(),
            Vec3d::new(1.0, 0.0, 0.0),
            0.0,
        );
        // Vertex 1 lies on edges 0 and 1.
        for edges in [[false, true, false], [true, false, false]] {
            let m = admit(at_vertex, &floor(), ActiveEdges::from_edges(edges));
            assert_eq!(m.normal, at_vertex.normal, "{edges:?}");
        }
        let m = admit(
            at_vertex,
            &floor(),
            ActiveEdges::from_edges([false, false, true]),
        );
        assert_eq!(m.normal, -Vec3d::z());
    }

    #[test]
    fn lone_triangles_and_face_contacts_are_unchanged() {
        assert_eq!(
            admit(edge_contact(), &floor(), ActiveEdges::ALL),
            edge_contact()
        );
        let face = LocalManifold::single(-Vec3d::z(), Vec3d::new(0.2, 0.2, 0.0), 0.01);
        assert_eq!(admit(face, &floor(), ActiveEdges::NONE), face);
    }

    #[test]
    fn a_point_half_its_depth_off_the_edge_still_touches_it() {
        // Midpoint convention: a 2 cm overlap puts the point 1 cm from the
        // triangle's edge along the normal.
        let m = LocalManifold::single(Vec3d::y(), Vec3d::new(0.5, -0.01, 0.0), 0.02);
        let kept = admit(m, &floor(), ActiveEdges::from_edges([true, false, false]));
        assert_eq!(kept.normal, Vec3d::y());
    }

    fn floor_f32() -> [Vec3; 3] {
        [
            Vec3::new(0.0, 0.0, 0.0),
            Vec3::new(1.0, 0.0, 0.0),
            Vec3::new(0.0, 1.0, 0.0),
        ]
    }

    /// An edge impact on edge 0 (y = 0) with a tilted normal.
    fn edge_hit() -> SweepOutcome<()> {
        SweepOutcome::Hit(Impact {
            time: 0.5,
            point: Vec3d::new(0.5, 0.0, 0.0),
            normal: Vec3d::new(0.0, -0.6, 0.8),
            feature: (),
        })
    }

    #[test]
    fn a_seam_impact_sliding_along_the_face_is_no_impact() {
        let out = admit_impact(
            edge_hit(),
            Vec3::new(0.0, 1.0, 0.0),
            &floor_f32(),
            ActiveEdges::NONE,
        );
        assert_eq!(out, SweepOutcome::Miss);
    }

    #[test]
    fn a_seam_impact_closing_on_the_face_keeps_its_time_with_the_face_normal() {
        // Falling into a (concave) seam: the motion closes along +z.
        let out = admit_impact(
            edge_hit(),
            Vec3::new(0.0, 1.0, -0.5),
            &floor_f32(),
            ActiveEdges::NONE,
        );
        let SweepOutcome::Hit(i) = out else {
            panic!("expected a hit, got {out:?}")
        };
        assert_eq!(i.time, 0.5);
        assert_eq!(i.point, Vec3d::new(0.5, 0.0, 0.0));
        assert_eq!(i.normal, Vec3d::z());
    }

    #[test]
    fn active_edges_and_face_impacts_are_unchanged() {
        let motion = Vec3::new(0.0, 1.0, 0.0);
        let active = ActiveEdges::from_edges([true, false, false]);
        assert_eq!(
            admit_impact(edge_hit(), motion, &floor_f32(), active),
            edge_hit()
        );
        assert_eq!(
            admit_impact(edge_hit(), motion, &floor_f32(), ActiveEdges::ALL),
            edge_hit()
        );
        let face = SweepOutcome::Hit(Impact {
            time: 0.25,
            point: Vec3d::new(0.2, 0.2, 0.0),
            normal: Vec3d::z(),
            feature: (),
        });
        let down = Vec3::new(0.0, 0.0, -1.0);
        assert_eq!(
            admit_impact(face.clone(), down, &floor_f32(), ActiveEdges::NONE),
            face
        );
    }

    #[test]
    fn an_initial_seam_contact_takes_the_face_normal() {
        let SweepOutcome::Hit(i) = edge_hit() else {
            unreachable!()
        };
        let out = admit_impact(
            SweepOutcome::InitiallyTouching(Impact { time: 0.0, ..i }),
            Vec3::new(0.0, 1.0, 0.0),
            &floor_f32(),
            ActiveEdges::NONE,
        );
        let SweepOutcome::InitiallyTouching(j) = out else {
            panic!("expected an initial contact, got {out:?}")
        };
        assert_eq!(j.normal, Vec3d::z());
    }
}
