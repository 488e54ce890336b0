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
use super::{working_rotation, LocalManifold, Manifold, Pose};
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
