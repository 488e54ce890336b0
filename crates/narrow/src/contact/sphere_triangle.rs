//! Contact between a sphere and one static, one-sided triangle.
//!
//! Method: closest point of the triangle to the sphere centre by Voronoi
//! regions (Ericson 5.1.5). One-sided rule (as every contact with a
//! triangle): a triangle's
//! front is the side its counter-clockwise normal `(b - a) x (c - a)` points
//! to; a sphere whose centre is strictly behind the plane gets no contact.
//! Face contacts use the face normal; edge and vertex contacts use the
//! direction between the closest points. Precision domain: `f64` relative
//! to the sphere centre.

use parapet_math::{promote, Vec3, Vec3d};

use super::closest::{point_triangle, TriangleFeature};
use super::input_checks::{check_pair, RawShape};
use super::sphere_sphere::cores_contact;
use super::{front_normal, within_margin, ContactError, LocalManifold, Manifold};
use crate::triangle::relative_triangle;

/// Contact of sphere A with triangle B (world vertices, counter-clockwise
/// seen from the front). The normal runs from the sphere to the triangle, so
/// a sphere resting on the front of a floor triangle gets `-face_normal`.
/// A degenerate (zero-area) triangle has no front and gives no contact.
///
/// # Errors
/// The refusals of every pair function (module documentation, "Pair
/// functions"): [`ContactError::InvalidMargin`], [`ContactError::InvalidSize`],
/// [`ContactError::NonFinitePose`], [`ContactError::OutsidePrecisionDomain`].
pub fn contact_sphere_triangle(
    center_a: Vec3,
    radius_a: f32,
    triangle_b: &[Vec3; 3],
    margin: f32,
) -> Result<Manifold, ContactError> {
    check_pair(
        RawShape::Sphere(&center_a, radius_a),
        RawShape::Triangle(triangle_b),
        margin,
    )?;
    let origin = promote(center_a);
    let tri = relative_triangle(triangle_b, origin);
    Ok(sphere_triangle(Vec3d::zeros(), radius_a as f64, &tri, margin as f64).into_world(origin))
}

/// [`contact_sphere_triangle`] in the working frame.
pub(crate) fn sphere_triangle(c: Vec3d, r: f64, tri: &[Vec3d; 3], margin: f64) -> LocalManifold {
    let Some(n) = front_normal(tri) else {
        return LocalManifold::empty();
    };
    if n.dot(&(c - tri[0])) < 0.0 {
        return LocalManifold::empty();
    }
    let (q, feature) = point_triangle(c, tri);
    let d = (q - c).norm();
    if !within_margin(d - r, margin) {
        return LocalManifold::empty();
    }
    let normal = if feature == TriangleFeature::Face || d == 0.0 {
        -n
    } else {
        (q - c) / d
    };
    cores_contact(c, r, q, 0.0, normal)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn floor() -> [Vec3; 3] {
        crate::triangle::test_floor(10.0)
    }

    #[test]
    fn sphere_sinking_into_the_front_gets_the_face_normal() {
        let m = contact_sphere_triangle(Vec3::new(1.0, 1.0, 0.4), 0.5, &floor(), 0.0).unwrap();
        assert_eq!(m.normal(), -Vec3::z());
        assert!((m.points()[0].depth - 0.1).abs() < 1e-6);
        assert!((m.points()[0].point - Vec3::new(1.0, 1.0, -0.05)).norm() < 1e-6);
    }

    #[test]
    fn sphere_centred_behind_the_face_gets_nothing() {
        let m = contact_sphere_triangle(Vec3::new(1.0, 1.0, -0.1), 0.5, &floor(), 0.1).unwrap();
        assert!(m.is_empty());
    }
}
