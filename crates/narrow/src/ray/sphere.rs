//! Ray against a solid sphere.
//!
//! Method: the smaller root of `|o + t d|^2 = r^2` with `b = o . d`,
//! `c = |o|^2 - r^2`, `t = -b - sqrt(b^2 - c)` (Ericson 5.3.2). Precision
//! domain: `f64` relative to the sphere centre.

use parapet_math::{promote, Vec3, Vec3d};

use super::{check_length, check_point, checked_ray, LocalHit, RayError, RayIntersection};

/// The first hit of the ray `origin + t * direction` (t in metres along the
/// normalised direction, `0 <= t <= max_distance`) on the solid sphere. An
/// origin inside the sphere hits at distance 0 with normal `-direction`.
///
/// # Errors
/// [`RayError`] for a ray without meaning, a non-finite centre, a negative
/// or non-finite radius, or a hit beyond `f32` (see [`super`]).
pub fn cast_sphere(
    center: Vec3,
    radius: f32,
    origin: Vec3,
    direction: Vec3,
    max_distance: f32,
) -> Result<Option<RayIntersection>, RayError> {
    let d = checked_ray(origin, direction, max_distance)?;
    check_point("centre", &center)?;
    check_length("radius", radius)?;
    let c = promote(center);
    ray_sphere(promote(origin) - c, d, radius as f64, max_distance as f64)
        .map(|hit| hit.into_world(promote(origin), d))
        .transpose()
}

/// [`cast_sphere`] with the origin relative to the centre and a unit direction.
pub(crate) fn ray_sphere(o: Vec3d, d: Vec3d, r: f64, max: f64) -> Option<LocalHit> {
    let c = o.norm_squared() - r * r;
    if c <= 0.0 {
        return Some(LocalHit::inside(d));
    }
    let b = o.dot(&d);
    if b >= 0.0 {
        return None;
    }
    let disc = b * b - c;
    if disc < 0.0 {
        return None;
    }
    // c / (-b + sqrt(disc)) is the same root without cancellation.
    let t = c / (-b + disc.sqrt());
    if t.partial_cmp(&max).is_none_or(|o| o.is_gt()) {
        return None;
    }
    let p = o + d * t;
    let len = p.norm();
    let normal = if len > 0.0 { p / len } else { -d };
    Some(LocalHit { t, normal })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ray_down_the_axis_hits_the_near_pole() {
        let hit = cast_sphere(
            Vec3::zeros(),
            1.0,
            Vec3::new(0.0, 0.0, 5.0),
            -Vec3::z(),
            10.0,
        )
        .unwrap()
        .unwrap();
        assert!((hit.distance - 4.0).abs() < 1e-6);
        assert_eq!(hit.normal, Vec3::z());
        assert!(cast_sphere(
            Vec3::zeros(),
            1.0,
            Vec3::new(0.0, 0.0, 5.0),
            -Vec3::z(),
            3.9
        )
        .unwrap()
        .is_none());
    }
}
