//! The one-call contact functions of a cuboid against a sphere, a
//! capsule, another cuboid or a triangle: each checks its input (module
//! documentation of [`crate::contact`], "Pair functions"), places its
//! shapes once ([`PlacedShape`]) and asks the placed pair, which runs the
//! pair's algorithm (`cuboid_triangle.rs`, `solid_solid.rs`). A caller
//! testing many pairs places its shapes itself and keeps a
//! [`ContactScratch`].
//!
//! Precision domain: that of [`PlacedShape`].

use parapet_math::{promote, Vec3};

use super::input_checks::{check_pair, RawShape};
use super::placed_shape::PlacedShape;
use super::scratch::ContactScratch;
use super::{ContactError, Manifold, Pose};

/// Contact of cuboid A (half extents `half_a`, pose `pose_a`) with cuboid B.
/// The normal runs from A to B; face contacts carry up to four points.
///
/// # Errors
/// The refusals of every pair function (module documentation, "Pair
/// functions"): [`ContactError::InvalidMargin`], [`ContactError::InvalidSize`],
/// [`ContactError::NonFinitePose`], [`ContactError::OutsidePrecisionDomain`].
pub fn contact_cuboid_cuboid(
    half_a: Vec3,
    pose_a: &Pose,
    half_b: Vec3,
    pose_b: &Pose,
    margin: f32,
) -> Result<Manifold, ContactError> {
    check_pair(
        RawShape::Cuboid(&half_a, pose_a),
        RawShape::Cuboid(&half_b, pose_b),
        margin,
    )?;
    let a = PlacedShape::cuboid(promote(half_a), pose_a);
    let b = PlacedShape::cuboid(promote(half_b), pose_b);
    Ok(a.pair(&b, margin, &mut ContactScratch::new()))
}

/// Contact of sphere A with cuboid B (half extents `half_b`, pose `pose_b`).
/// The normal runs from the sphere to the cuboid.
///
/// # Errors
/// The refusals of every pair function (module documentation, "Pair
/// functions"): [`ContactError::InvalidMargin`], [`ContactError::InvalidSize`],
/// [`ContactError::NonFinitePose`], [`ContactError::OutsidePrecisionDomain`].
pub fn contact_sphere_cuboid(
    center_a: Vec3,
    radius_a: f32,
    half_b: Vec3,
    pose_b: &Pose,
    margin: f32,
) -> Result<Manifold, ContactError> {
    check_pair(
        RawShape::Sphere(&center_a, radius_a),
        RawShape::Cuboid(&half_b, pose_b),
        margin,
    )?;
    let a = PlacedShape::sphere(promote(center_a), radius_a as f64);
    let b = PlacedShape::cuboid(promote(half_b), pose_b);
    Ok(a.pair(&b, margin, &mut ContactScratch::new()))
}

/// Contact of cuboid A with sphere B: [`contact_sphere_cuboid`] with the
/// roles swapped (the normal runs from the cuboid to the sphere).
///
/// # Errors
/// The refusals of every pair function (module documentation, "Pair
/// functions"): [`ContactError::InvalidMargin`], [`ContactError::InvalidSize`],
/// [`ContactError::NonFinitePose`], [`ContactError::OutsidePrecisionDomain`].
pub fn contact_cuboid_sphere(
    half_a: Vec3,
    pose_a: &Pose,
    center_b: Vec3,
    radius_b: f32,
    margin: f32,
) -> Result<Manifold, ContactError> {
    check_pair(
        RawShape::Cuboid(&half_a, pose_a),
        RawShape::Sphere(&center_b, radius_b),
        margin,
    )?;
    contact_sphere_cuboid(center_b, radius_b, half_a, pose_a, margin).map(Manifold::flipped)
}

/// Contact of capsule A (core `segment_a`, `radius_a`) with cuboid B. The
/// normal runs from the capsule to the cuboid; a capsule lying on a face
/// gets two points.
///
/// # Errors
/// The refusals of every pair function (module documentation, "Pair
/// functions"): [`ContactError::InvalidMargin`], [`ContactError::InvalidSize`],
/// [`ContactError::NonFinitePose`], [`ContactError::OutsidePrecisionDomain`].
pub fn contact_capsule_cuboid(
    segment_a: [Vec3; 2],
    radius_a: f32,
    half_b: Vec3,
    pose_b: &Pose,
    margin: f32,
) -> Result<Manifold, ContactError> {
    check_pair(
        RawShape::Capsule(&segment_a, radius_a),
        RawShape::Cuboid(&half_b, pose_b),
        margin,
    )?;
    let a = PlacedShape::capsule(segment_a.map(promote), radius_a as f64);
    let b = PlacedShape::cuboid(promote(half_b), pose_b);
    Ok(a.pair(&b, margin, &mut ContactScratch::new()))
}

/// Contact of cuboid A with capsule B: [`contact_capsule_cuboid`] with the
/// roles swapped.
///
/// # Errors
/// The refusals of every pair function (module documentation, "Pair
/// functions"): [`ContactError::InvalidMargin`], [`ContactError::InvalidSize`],
/// [`ContactError::NonFinitePose`], [`ContactError::OutsidePrecisionDomain`].
pub fn contact_cuboid_capsule(
    half_a: Vec3,
    pose_a: &Pose,
    segment_b: [Vec3; 2],
    radius_b: f32,
    margin: f32,
) -> Result<Manifold, ContactError> {
    check_pair(
        RawShape::Cuboid(&half_a, pose_a),
        RawShape::Capsule(&segment_b, radius_b),
        margin,
    )?;
    contact_capsule_cuboid(segment_b, radius_b, half_a, pose_a, margin).map(Manifold::flipped)
}

/// Contact of cuboid A (half extents `half_a`, pose `pose_a`) with triangle
/// B (world, counter-clockwise from the front). The normal runs from the
/// cuboid to the triangle (`-face_normal` for a box resting on the front).
///
/// # Errors
/// The refusals of every pair function (module documentation, "Pair
/// functions"): [`ContactError::InvalidMargin`], [`ContactError::InvalidSize`],
/// [`ContactError::NonFinitePose`], [`ContactError::OutsidePrecisionDomain`].
pub fn contact_cuboid_triangle(
    half_a: Vec3,
    pose_a: &Pose,
    triangle_b: &[Vec3; 3],
    margin: f32,
) -> Result<Manifold, ContactError> {
    check_pair(
        RawShape::Cuboid(&half_a, pose_a),
        RawShape::Triangle(triangle_b),
        margin,
    )?;
    let placed = PlacedShape::cuboid(promote(half_a), pose_a);
    Ok(placed.triangle_manifold(triangle_b, margin, &mut ContactScratch::new()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contact::closest::point_triangle;
    use parapet_math::nalgebra::{Isometry3, Quaternion, Translation3, UnitQuaternion};

    fn floor() -> [Vec3; 3] {
        crate::triangle::test_floor(10.0)
    }

    fn at(z: f32) -> Pose {
        Isometry3::from_parts(Translation3::new(0.0, 0.0, z), UnitQuaternion::identity())
    }

    #[test]
    fn box_sinking_into_the_floor_gets_four_face_points() {
        let m =
            contact_cuboid_triangle(Vec3::new(0.5, 0.5, 0.5), &at(0.48), &floor(), 0.0).unwrap();
        assert_eq!(m.len(), 4);
        assert_eq!(m.normal(), -Vec3::z());
        for p in m.points() {
            assert!((p.depth - 0.02).abs() < 1e-6);
            assert!((p.point.z + 0.01).abs() < 1e-6);
        }
    }

    #[test]
    fn box_centred_behind_the_floor_gets_nothing() {
        let m =
            contact_cuboid_triangle(Vec3::new(0.5, 0.5, 0.5), &at(-0.1), &floor(), 0.1).unwrap();
        assert!(m.is_empty());
    }

    #[test]
    fn a_tilted_box_touches_the_floor_with_its_lowest_edge_only() {
        // A unit cube turned 30 degrees about x: its lowest edge runs along
        // x at depth 1 cm; the point lies on that edge, not on a far one.
        let angle = 30.0f32.to_radians();
        let low = 0.5 * (angle.cos() + angle.sin());
        let pose = Isometry3::from_parts(
            Translation3::new(0.0, 0.0, low - 0.01),
            UnitQuaternion::from_scaled_axis(Vec3::x() * angle),
        );
        let m = contact_cuboid_triangle(Vec3::new(0.5, 0.5, 0.5), &pose, &floor(), 0.0).unwrap();
        assert!(!m.is_empty());
        for p in m.points() {
            assert!((p.depth - 0.01).abs() < 1e-5, "{m:?}");
            // Midway between the edge (z = -0.01) and the floor.
            assert!((p.point.z + 0.005).abs() < 1e-5, "{m:?}");
        }
    }

    /// The `contacts` fuzz finding of a box against a triangle whose
    /// vertices are collinear (a segment along y through the box's centre):
    /// turned into the box's frame, rounding gave it an area of about 1e-16
    /// m² and a front in an arbitrary direction, and the box's face clipped
    /// to that front's prism put a point 1.92 m from the segment at a depth
    /// of 1.72 m. Without a resolvable front there is no contact; the same
    /// triangle made 0.1 mm wide keeps its front and its contact, every
    /// point within half its depth of the triangle.
    #[test]
    fn a_collinear_triangle_has_no_front_in_the_box_frame() {
        let h = Vec3::new(1.98, 1.88, 1.77);
        let q = [-0.4430246f32, -0.4430246, -0.4430246, -0.641239];
        let pose = Isometry3::from_parts(
            Translation3::new(-2.454, -2.454, -2.454),
            UnitQuaternion::new_unchecked(Quaternion::new(q[3], q[0], q[1], q[2])),
        );
        let segment = [
            Vec3::new(-2.454, -2.454, -2.454),
            Vec3::new(-2.454, -2.832, -2.454),
            Vec3::new(-2.454, -1.152, -2.454),
        ];
        assert!(contact_cuboid_triangle(h, &pose, &segment, 0.02)
            .unwrap()
            .is_empty());
        let mut thin = segment;
        thin[2].x += 1e-4;
        let m = contact_cuboid_triangle(h, &pose, &thin, 0.02).unwrap();
        assert!(!m.is_empty());
        // Each point within half its depth of the triangle (plus 1e-5 m of
        // f32 rounding a few metres from the origin).
        let t = thin.map(promote);
        for c in m.points() {
            let p = promote(c.point);
            let (q, _) = point_triangle(p, &t);
            assert!((q - p).norm() <= c.depth.abs() as f64 * 0.5 + 1e-5, "{m:?}");
        }
    }
}
