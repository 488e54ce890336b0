//! Contact between a sphere and a capsule.
//!
//! Method: the closest point of the capsule's core segment to the sphere
//! centre (Ericson 5.1.2), then the contact of two balls. Precision domain:
//! `f64` relative to the sphere centre.

use parapet_math::{promote, Vec3, Vec3d};

use super::closest::point_segment;
use super::input_checks::{check_pair, RawShape};
use super::sphere_sphere::sphere_sphere;
use super::{ContactError, LocalManifold, Manifold};

/// Contact of sphere A with capsule B, whose core segment runs from
/// `segment_b[0]` to `segment_b[1]` (world). The normal runs from A to B.
///
/// # Errors
/// The refusals of every pair function (module documentation, "Pair
/// functions"): [`ContactError::InvalidMargin`], [`ContactError::InvalidSize`],
/// [`ContactError::NonFinitePose`], [`ContactError::OutsidePrecisionDomain`].
pub fn contact_sphere_capsule(
    center_a: Vec3,
    radius_a: f32,
    segment_b: [Vec3; 2],
    radius_b: f32,
    margin: f32,
) -> Result<Manifold, ContactError> {
    check_pair(
        RawShape::Sphere(&center_a, radius_a),
        RawShape::Capsule(&segment_b, radius_b),
        margin,
    )?;
    let origin = promote(center_a);
    Ok(sphere_capsule(
        Vec3d::zeros(),
        radius_a as f64,
        [
            promote(segment_b[0]) - origin,
            promote(segment_b[1]) - origin,
        ],
        radius_b as f64,
        margin as f64,
    )
    .into_world(origin))
}

/// Contact of capsule A with sphere B: [`contact_sphere_capsule`] with the
/// roles swapped (the normal runs from the capsule to the sphere).
///
/// # Errors
/// The refusals of every pair function (module documentation, "Pair
/// functions"): [`ContactError::InvalidMargin`], [`ContactError::InvalidSize`],
/// [`ContactError::NonFinitePose`], [`ContactError::OutsidePrecisionDomain`].
pub fn contact_capsule_sphere(
    segment_a: [Vec3; 2],
    radius_a: f32,
    center_b: Vec3,
    radius_b: f32,
    margin: f32,
) -> Result<Manifold, ContactError> {
    check_pair(
        RawShape::Capsule(&segment_a, radius_a),
        RawShape::Sphere(&center_b, radius_b),
        margin,
    )?;
    contact_sphere_capsule(center_b, radius_b, segment_a, radius_a, margin).map(Manifold::flipped)
}

/// [`contact_sphere_capsule`] in the working frame.
pub(crate) fn sphere_capsule(
    ca: Vec3d,
    ra: f64,
    segment_b: [Vec3d; 2],
    rb: f64,
    margin: f64,
) -> LocalManifold {
    let (_, cb) = point_segment(ca, segment_b[0], segment_b[1]);
    sphere_sphere(ca, ra, cb, rb, margin)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sphere_beside_the_capsule_side_touches_the_cylinder() {
        let seg = [Vec3::new(0.0, 0.0, -1.0), Vec3::new(0.0, 0.0, 1.0)];
        let m = contact_sphere_capsule(Vec3::new(-0.9, 0.0, 0.5), 0.5, seg, 0.5, 0.0).unwrap();
        assert_eq!(m.normal(), Vec3::x());
        assert!((m.points()[0].depth - 0.1).abs() < 1e-6);
        let r = contact_capsule_sphere(seg, 0.5, Vec3::new(-0.9, 0.0, 0.5), 0.5, 0.0).unwrap();
        assert_eq!(r.normal(), -Vec3::x());
    }
}
