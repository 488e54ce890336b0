//! Sweep of a translating convex solid (a box or hull that cannot turn)
//! against a static one-sided triangle by the separating-axis test over
//! time: [`sweep_solid_triangle`]. The test itself is in `solid_sat.rs`;
//! the prepared form, which sweeps one solid against many triangles, in
//! `solid_prepared.rs`.
//!
//! # Method
//! The solid and the triangle overlap exactly when their projections
//! overlap on every candidate axis: the solid's face normals, the
//! triangle's normal, and the cross product of each solid edge direction
//! with each triangle edge (parallel pairs give no axis: the faces of the
//! Minkowski difference come only from face normals and non-parallel edge
//! pairs). Along each axis the solid's interval moves linearly in time, so
//! the two overlap along that axis during one interval of time; the first
//! contact is the latest entry over all axes, when it comes strictly before
//! the earliest exit (an entry equal to the exit is a tangency, no hit), and
//! its normal is the axis that entered last (the triangle normal, then solid
//! faces, then edge pairs on equal entries).
//!
//! An axis along which the solid does not move (`axis . d` unresolved at the
//! approach bound [`super::APPROACH_EPS_FACTOR`]) separates it for the whole
//! step when the projections are disjoint *or only touch*: a face or edge
//! sliding along a triangle with zero clearance is no impact. A solid that
//! already touches or overlaps the triangle on every axis is reported as
//! [`SweepOutcome::InitiallyTouching`](super::SweepOutcome::InitiallyTouching) with the axis of least overlap as its
//! normal, so a box resting on a floor and sliding does not close on it (the
//! normal is the floor normal and the sliding velocity is tangent to it).
//!
//! One-sided: a solid that starts wholly behind the face plane (every vertex
//! at or below it) is not caught.
//!
//! # Layers
//! Each layer only skips work whose outcome it already knows, so every
//! sweep gives bit for bit the plain test's outcome (a unit test of each
//! layer shows it): the prepared sweep (`solid_prepared`), the rejection of
//! triangles outside the path's bounds (`solid_path_bounds`), the closed
//! form of centred boxes (`solid/centred_box.rs`), the Gauss-map pruning of a
//! hull's edge pairs (`solid/gauss_map.rs`), the silhouettes seen along each
//! edge direction (`solid/silhouette.rs`) and the inscribed-ball test
//! (`solid_inscribed_ball`); the contact point is found by
//! `solid_contact_point`, the placement checked by `solid_placement`.
//!
//! # Source and precision domain
//! Ericson, *Real-Time Collision Detection* 5.5.8 (intervals of overlap of
//! moving projections); Akenine-Moller, "Fast 3D triangle-box overlap
//! testing" (the 13 axes of a box and a triangle). `f64` intermediates,
//! re-centred on the solid's world centre and turned into its shape frame.
//! The solid's farthest-vertex radius sets its radius-relative limits
//! (docs/continuous-collision.md, "Precision limits"): radius
//! within [`super::MIN_RADIUS`], [`super::MAX_RADIUS`]; coordinates within
//! 65536 radii; reach within 1048576 radii; the shape offset at most
//! [`super::MAX_SHAPE_OFFSET`].

use parapet_math::Vec3;

use super::placement::Placement;
use super::solid_prepared::SolidSweep;
use super::solid_sat::SatAxis;
use super::SweepOutcome;
use crate::solid::ConvexSolid;

/// Sweeps a convex solid that only translates, at `velocity` (m/s) for `dt`
/// seconds, against one static one-sided triangle by the separating-axis
/// test over time.
///
/// Returns the first contact (time as a fraction of the step, a point of the
/// contact region, the unit normal from the triangle towards the solid, and
/// the axis that entered last), an initial contact with the axis of least
/// overlap, a miss (including a solid that starts wholly behind the face,
/// and sliding contact with zero clearance) or a refusal.
///
/// The same as [`SolidSweep::new`] followed by [`SolidSweep::triangle`]
/// (which is what it does); a caller that sweeps one solid against many
/// triangles prepares the [`SolidSweep`] once instead.
pub fn sweep_solid_triangle(
    solid: &ConvexSolid,
    placement: &Placement,
    velocity: Vec3,
    dt: f32,
    triangle: &[Vec3; 3],
) -> SweepOutcome<SatAxis> {
    match SolidSweep::new(solid, placement, velocity, dt) {
        Ok(sweep) => sweep.triangle(triangle),
        Err(e) => SweepOutcome::Refused(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sweep::test_fixtures::{solid_floor as floor, unit_box};
    use parapet_math::{Quat, Vec3d};

    #[test]
    fn a_falling_box_lands_flat_on_the_floor() {
        let o = sweep_solid_triangle(
            &unit_box(),
            &Placement::at(Vec3::new(0.0, 0.0, 2.5), Quat::identity()),
            Vec3::new(0.0, 0.0, -4.0),
            1.0,
            &floor(),
        );
        let SweepOutcome::Hit(i) = o else {
            panic!("{o:?}")
        };
        // Bottom face at z = 2 reaches z = 0 after 2 of 4 m.
        assert!((i.time - 0.5).abs() < 1e-15);
        assert_eq!(i.feature, SatAxis::TriangleNormal);
        assert_eq!(i.normal, Vec3d::new(0.0, 0.0, 1.0));
        // The contact region is the whole bottom face: its centre.
        assert!(
            (i.point - Vec3d::new(0.0, 0.0, 0.0)).norm() < 1e-12,
            "{:?}",
            i.point
        );
    }

    #[test]
    fn a_box_sliding_on_the_floor_with_zero_clearance_is_no_impact() {
        let o = sweep_solid_triangle(
            &unit_box(),
            &Placement::at(Vec3::new(0.0, 0.0, 0.5), Quat::identity()),
            Vec3::new(3.0, 1.0, 0.0),
            0.5,
            &floor(),
        );
        assert_eq!(o, SweepOutcome::Miss);
    }

    #[test]
    fn a_resting_box_that_overlaps_slightly_reports_the_floor_normal() {
        let o = sweep_solid_triangle(
            &unit_box(),
            &Placement::at(Vec3::new(0.0, 0.0, 0.499), Quat::identity()),
            Vec3::new(3.0, 0.0, 0.0),
            0.1,
            &floor(),
        );
        let SweepOutcome::InitiallyTouching(i) = o else {
            panic!("{o:?}")
        };
        assert_eq!(i.normal, Vec3d::new(0.0, 0.0, 1.0));
        assert_eq!(i.feature, SatAxis::TriangleNormal);
    }

    #[test]
    fn a_box_wholly_behind_the_face_is_not_caught() {
        let o = sweep_solid_triangle(
            &unit_box(),
            &Placement::at(Vec3::new(0.0, 0.0, -0.5), Quat::identity()),
            Vec3::new(0.0, 0.0, 4.0),
            1.0,
            &floor(),
        );
        assert_eq!(o, SweepOutcome::Miss);
    }

    #[test]
    fn a_tilted_box_lands_on_its_lowest_corner() {
        // Rotated so that one corner points straight down: the corner sits
        // sqrt(3) / 2 below the centre.
        let axis = parapet_math::nalgebra::Unit::new_normalize(Vec3::new(1.0, -1.0, 0.0));
        let rot = Quat::from_axis_angle(&axis, (1.0f32 / 3.0f32.sqrt()).acos());
        let o = sweep_solid_triangle(
            &unit_box(),
            &Placement::at(Vec3::new(0.0, 0.0, 2.0), rot),
            Vec3::new(0.0, 0.0, -2.0),
            1.0,
            &floor(),
        );
        let SweepOutcome::Hit(i) = o else {
            panic!("{o:?}")
        };
        let expected = (2.0 - 3f64.sqrt() / 2.0) / 2.0;
        // f32 rotation of the corner: a few f32 ulps of a unit length.
        assert!((i.time - expected).abs() < 1e-6, "{} vs {expected}", i.time);
        assert!(
            i.point.z.abs() < 1e-6 && i.point.xy().norm() < 1e-6,
            "{:?}",
            i.point
        );
    }

    #[test]
    fn an_offset_shape_is_swept_where_it_sits() {
        // Body at z = 5, shape 2 m below its origin: bottom face at z = 2.5.
        let place = Placement {
            body_position: Vec3::new(0.0, 0.0, 5.0),
            body_rotation: Quat::identity(),
            shape_offset: Vec3::new(0.0, 0.0, -2.0),
            shape_rotation: Quat::identity(),
        };
        let o = sweep_solid_triangle(
            &unit_box(),
            &place,
            Vec3::new(0.0, 0.0, -5.0),
            1.0,
            &floor(),
        );
        assert!((o.time().unwrap() - 0.5).abs() < 1e-15, "{o:?}");
    }

    #[test]
    fn a_hull_from_points_matches_the_same_box() {
        let b = unit_box();
        let faces: [[u32; 3]; 12] = [
            [0, 2, 1],
            [1, 2, 3],
            [4, 5, 6],
            [5, 7, 6],
            [0, 1, 4],
            [1, 5, 4],
            [2, 6, 3],
            [3, 6, 7],
            [0, 4, 2],
            [2, 4, 6],
            [1, 3, 5],
            [3, 7, 5],
        ];
        let pts: Vec<Vec3> = b.vertices().iter().map(|v| v.cast::<f32>()).collect();
        let hull = ConvexSolid::from_points(&pts, &faces).unwrap();
        assert_eq!(hull.face_normals().len(), 6);
        let place = Placement::at(
            Vec3::new(0.3, -0.2, 3.0),
            Quat::from_euler_angles(0.3, 0.2, 0.1),
        );
        let v = Vec3::new(1.0, 0.5, -6.0);
        let (x, y) = (
            sweep_solid_triangle(&b, &place, v, 1.0, &floor()),
            sweep_solid_triangle(&hull, &place, v, 1.0, &floor()),
        );
        // The hull adds face-diagonal edge axes, which never separate more
        // than the box's own axes: the same time to roundoff.
        assert!(
            (x.time().unwrap() - y.time().unwrap()).abs() < 1e-12,
            "{x:?} {y:?}"
        );
    }

    #[test]
    fn a_box_edge_grazing_a_triangle_edge_is_no_hit() {
        // A box beside the triangle whose face x = 4 touches vertex 1 at
        // (4, -4, 0) with zero clearance, moving straight down.
        let o = sweep_solid_triangle(
            &unit_box(),
            &Placement::at(Vec3::new(4.5, 0.0, 0.5), Quat::identity()),
            Vec3::new(0.0, 0.0, -1.0),
            1.0,
            &floor(),
        );
        // The solid-face axis x does not move and only touches: no hit.
        assert_eq!(o, SweepOutcome::Miss);
    }
}
