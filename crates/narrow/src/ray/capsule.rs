//! Ray against a solid capsule (core segment along local +Z, `half_height`
//! excluding the caps).
//!
//! Method: the ray in the capsule's frame against the infinite cylinder
//! (kept where `|z| <= half_height`) and the two cap spheres (kept beyond
//! their end), the smallest parameter wins (Ericson 5.3.7). Precision
//! domain: `f64` in the capsule's local frame.

use parapet_math::{promote, Vec3, Vec3d};

use super::sphere::ray_sphere;
use super::{check_length, check_pose, checked_ray, LocalHit, RayError, RayIntersection};
use crate::contact::Pose;

/// The first hit of the ray on a capsule of `radius` and `half_height` at
/// `pose` (axis = the pose's local +Z). Conventions as
/// [`super::cast_sphere`].
///
/// # Errors
/// [`RayError`] for a ray without meaning, a non-finite pose, a negative or
/// non-finite radius or half height, or a hit beyond `f32` (see [`super`]).
pub fn cast_capsule(
    radius: f32,
    half_height: f32,
    pose: &Pose,
    origin: Vec3,
    direction: Vec3,
    max_distance: f32,
) -> Result<Option<RayIntersection>, RayError> {
    let d = checked_ray(origin, direction, max_distance)?;
    check_pose(pose)?;
    check_length("radius", radius)?;
    check_length("half height", half_height)?;
    let rot = crate::contact::working_rotation(pose);
    let o = rot.transpose() * (promote(origin) - promote(pose.translation.vector));
    let dl = rot.transpose() * d;
    ray_capsule(
        o,
        dl,
        radius as f64,
        half_height as f64,
        max_distance as f64,
    )
    .map(|hit| {
        LocalHit {
            t: hit.t,
            normal: rot * hit.normal,
        }
        .into_world(promote(origin), d)
    })
    .transpose()
}

/// [`cast_capsule`] in the capsule's frame with a unit direction.
pub(crate) fn ray_capsule(o: Vec3d, d: Vec3d, r: f64, h: f64, max: f64) -> Option<LocalHit> {
    // A negative half height or radius (not a valid shape) is read by magnitude.
    let (r, h) = (r.abs(), h.abs());
    let mut best: Option<LocalHit> = None;
    let mut keep = |hit: LocalHit| {
        if best.as_ref().is_none_or(|b| hit.t < b.t) {
            best = Some(hit);
        }
    };
    // Inside the solid: distance to the core segment within the radius.
    let zc = o.z.clamp(-h, h);
    if (o - Vec3d::new(0.0, 0.0, zc)).norm_squared() <= r * r {
        return Some(LocalHit::inside(d));
    }
    let a = d.x * d.x + d.y * d.y;
    if a > 0.0 {
        let b = o.x * d.x + o.y * d.y;
        let c = o.x * o.x + o.y * o.y - r * r;
        let disc = b * b - a * c;
        if disc >= 0.0 && c > 0.0 && b < 0.0 {
            let t = c / (-b + disc.sqrt());
            let p = o + d * t;
            if t <= max && p.z.abs() <= h {
                let radial = Vec3d::new(p.x, p.y, 0.0);
                let len = radial.norm();
                let normal = if len > 0.0 { radial / len } else { -d };
                keep(LocalHit { t, normal });
            }
        }
    }
    for end in [h, -h] {
        let center = Vec3d::new(0.0, 0.0, end);
        if let Some(hit) = ray_sphere(o - center, d, r, max) {
            let p = o + d * hit.t;
            if (end > 0.0 && p.z >= h) || (end <= 0.0 && p.z <= -h) || h == 0.0 {
                keep(hit);
            }
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use parapet_math::nalgebra::Isometry3;

    #[test]
    fn rays_hit_the_side_and_the_cap() {
        let pose = Isometry3::identity();
        let side = cast_capsule(0.5, 1.0, &pose, Vec3::new(3.0, 0.0, 0.5), -Vec3::x(), 10.0)
            .unwrap()
            .unwrap();
        assert!((side.distance - 2.5).abs() < 1e-6);
        assert_eq!(side.normal, Vec3::x());
        let cap = cast_capsule(0.5, 1.0, &pose, Vec3::new(0.0, 0.0, 4.0), -Vec3::z(), 10.0)
            .unwrap()
            .unwrap();
        assert!((cap.distance - 2.5).abs() < 1e-6);
        assert_eq!(cap.normal, Vec3::z());
    }
}
