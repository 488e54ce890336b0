//! Ray against one one-sided triangle.
//!
//! Method: plane intersection then the three edge-side tests (the
//! Moller-Trumbore conditions written with cross products), in `f64`
//! relative to the ray origin. One-sided: a ray hits a triangle only from
//! its front, the side its counter-clockwise normal `(b - a) x (c - a)`
//! points to; a ray arriving from behind, or running in the plane, passes
//! through. This is what a user of a one-sided mesh expects: rays hit the
//! visible face, and a probe cast from under a floor does not stop on it.

use parapet_math::{promote, Vec3, Vec3d};

use super::{check_point, checked_ray, LocalHit, RayError, RayIntersection};
use crate::triangle::{inside, raw_normal, relative_triangle};

/// The hit of the ray on the front of the triangle (world vertices,
/// counter-clockwise seen from the front). The normal is the unit front
/// normal. Edges and vertices count as inside.
///
/// # Errors
/// [`RayError`] for a ray without meaning, a non-finite vertex or a hit
/// beyond `f32` (see [`super`]).
pub fn cast_triangle(
    triangle: &[Vec3; 3],
    origin: Vec3,
    direction: Vec3,
    max_distance: f32,
) -> Result<Option<RayIntersection>, RayError> {
    let d = checked_ray(origin, direction, max_distance)?;
    for v in triangle {
        check_point("triangle vertex", v)?;
    }
    let o = promote(origin);
    let tri = relative_triangle(triangle, o);
    ray_triangle(&tri, d, max_distance as f64)
        .map(|hit| hit.into_world(o, d))
        .transpose()
}

/// [`cast_triangle`] with the ray origin at zero and a unit direction.
pub(crate) fn ray_triangle(tri: &[Vec3d; 3], d: Vec3d, max: f64) -> Option<LocalHit> {
    let n = raw_normal(tri);
    let rate = n.dot(&d);
    if rate.partial_cmp(&0.0) != Some(std::cmp::Ordering::Less) {
        return None;
    }
    let t = n.dot(&tri[0]) / rate;
    if !(0.0..=max).contains(&t) {
        return None;
    }
    let p = d * t;
    if !inside(p, tri, &n) {
        return None;
    }
    Some(LocalHit {
        t,
        normal: n / n.norm(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn floor() -> [Vec3; 3] {
        crate::triangle::test_floor(1.0)
    }

    #[test]
    fn ray_from_above_hits_and_ray_from_below_passes() {
        let hit = cast_triangle(&floor(), Vec3::new(0.0, 0.0, 2.0), -Vec3::z(), 5.0)
            .unwrap()
            .unwrap();
        assert!((hit.distance - 2.0).abs() < 1e-6);
        assert_eq!(hit.normal, Vec3::z());
        assert!(
            cast_triangle(&floor(), Vec3::new(0.0, 0.0, -2.0), Vec3::z(), 5.0)
                .unwrap()
                .is_none()
        );
    }
}
