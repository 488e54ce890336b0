//! Contact between two spheres.
//!
//! Method: the centre distance minus the radii (exact closest points of two
//! balls). Precision domain: `f64` relative to sphere A's centre, so the
//! result keeps `f64` resolution however far from the world origin the pair
//! is; only the final world point rounds to `f32`.

use parapet_math::{promote, Vec3, Vec3d};

use super::input_checks::{check_pair, RawShape};
use super::{within_margin, ContactError, LocalManifold, Manifold, COINCIDENT_NORMAL};

/// Contact of sphere A (`center_a`, `radius_a`) with sphere B, reported when
/// the gap is smaller than `margin` (m). The normal runs from A's centre to
/// B's; coincident centres use world +Z (the "up" of the default
/// gravity, so that a degenerate contact pushes B upwards).
///
/// # Errors
/// The refusals of every pair function (module documentation, "Pair
/// functions"): [`ContactError::InvalidMargin`], [`ContactError::InvalidSize`],
/// [`ContactError::NonFinitePose`], [`ContactError::OutsidePrecisionDomain`].
pub fn contact_sphere_sphere(
    center_a: Vec3,
    radius_a: f32,
    center_b: Vec3,
    radius_b: f32,
    margin: f32,
) -> Result<Manifold, ContactError> {
    check_pair(
        RawShape::Sphere(&center_a, radius_a),
        RawShape::Sphere(&center_b, radius_b),
        margin,
    )?;
    let origin = promote(center_a);
    Ok(sphere_sphere(
        Vec3d::zeros(),
        radius_a as f64,
        promote(center_b) - origin,
        radius_b as f64,
        margin as f64,
    )
    .into_world(origin))
}

/// [`contact_sphere_sphere`] in the working frame.
pub(crate) fn sphere_sphere(ca: Vec3d, ra: f64, cb: Vec3d, rb: f64, margin: f64) -> LocalManifold {
    let d = cb - ca;
    let dist = d.norm();
    let gap = dist - ra - rb;
    if !within_margin(gap, margin) {
        return LocalManifold::empty();
    }
    let normal = if dist > 0.0 {
        d / dist
    } else {
        COINCIDENT_NORMAL
    };
    cores_contact(ca, ra, cb, rb, normal)
}

/// One contact between two rounded cores: points `ca` on A's core and `cb`
/// on B's core, radii `ra`, `rb`, unit normal `n` from A to B. The depth is
/// measured along `n` and the point is the midpoint of the two surfaces.
pub(crate) fn cores_contact(ca: Vec3d, ra: f64, cb: Vec3d, rb: f64, n: Vec3d) -> LocalManifold {
    let depth = ra + rb - (cb - ca).dot(&n);
    let surface_a = ca + n * ra;
    let surface_b = cb - n * rb;
    LocalManifold::single(n, (surface_a + surface_b) * 0.5, depth)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overlapping_spheres_report_the_overlap_along_the_centre_line() {
        let m =
            contact_sphere_sphere(Vec3::zeros(), 1.0, Vec3::new(1.5, 0.0, 0.0), 1.0, 0.0).unwrap();
        assert_eq!(m.len(), 1);
        assert_eq!(m.normal(), Vec3::x());
        assert!((m.points()[0].depth - 0.5).abs() < 1e-7);
        assert!((m.points()[0].point - Vec3::new(0.75, 0.0, 0.0)).norm() < 1e-7);
    }

    #[test]
    fn coincident_centres_use_the_fallback_normal() {
        let m = contact_sphere_sphere(Vec3::zeros(), 1.0, Vec3::zeros(), 0.5, 0.0).unwrap();
        assert_eq!(m.normal(), COINCIDENT_NORMAL.cast::<f32>());
        assert!((m.points()[0].depth - 1.5).abs() < 1e-7);
    }
}
