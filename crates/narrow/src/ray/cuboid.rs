//! Ray against a solid cuboid.
//!
//! Method: the slab test in the cuboid's frame (Kay and Kajiya 1986; Ericson
//! 5.3.3): the entry is the latest slab entry, the exit the earliest slab
//! exit, and the normal is the axis of the latest entry. Precision domain:
//! `f64` in the cuboid's local frame.

use parapet_math::{promote, Vec3, Vec3d};

use super::{check_length, check_pose, checked_ray, LocalHit, RayError, RayIntersection};
use crate::contact::{working_rotation, Pose};

/// The first hit of the ray on a cuboid of half extents `half` at `pose`.
/// Conventions as [`super::cast_sphere`].
///
/// # Errors
/// [`RayError`] for a ray without meaning, a non-finite pose, a negative or
/// non-finite half extent, or a hit beyond `f32` (see [`super`]).
pub fn cast_cuboid(
    half: Vec3,
    pose: &Pose,
    origin: Vec3,
    direction: Vec3,
    max_distance: f32,
) -> Result<Option<RayIntersection>, RayError> {
    let d = checked_ray(origin, direction, max_distance)?;
    check_pose(pose)?;
    for h in half.iter() {
        check_length("half extents", *h)?;
    }
    let rot = working_rotation(pose);
    let o = rot.transpose() * (promote(origin) - promote(pose.translation.vector));
    ray_cuboid(o, rot.transpose() * d, promote(half), max_distance as f64)
        .map(|hit| {
            LocalHit {
                t: hit.t,
                normal: rot * hit.normal,
            }
            .into_world(promote(origin), d)
        })
        .transpose()
}

/// [`cast_cuboid`] in the cuboid's frame with a unit direction.
pub(crate) fn ray_cuboid(o: Vec3d, d: Vec3d, half: Vec3d, max: f64) -> Option<LocalHit> {
    let mut t_enter = f64::NEG_INFINITY;
    let mut t_exit = max;
    let mut normal = -d;
    for i in 0..3 {
        if d[i] == 0.0 {
            if o[i].abs() > half[i] {
                return None;
            }
            continue;
        }
        let inv = 1.0 / d[i];
        let (mut t0, mut t1) = ((-half[i] - o[i]) * inv, (half[i] - o[i]) * inv);
        let mut sign = -1.0;
        if t0 > t1 {
            std::mem::swap(&mut t0, &mut t1);
            sign = 1.0;
        }
        if t0 > t_enter {
            t_enter = t0;
            normal = Vec3d::zeros();
            normal[i] = sign;
        }
        t_exit = t_exit.min(t1);
        if t_enter > t_exit {
            return None;
        }
    }
    if t_exit < 0.0 {
        return None;
    }
    if t_enter <= 0.0 {
        return Some(LocalHit::inside(d));
    }
    Some(LocalHit { t: t_enter, normal })
}

#[cfg(test)]
mod tests {
    use super::*;
    use parapet_math::nalgebra::Isometry3;

    #[test]
    fn ray_along_x_hits_the_minus_x_face() {
        let hit = cast_cuboid(
            Vec3::new(1.0, 2.0, 3.0),
            &Isometry3::identity(),
            Vec3::new(-5.0, 1.0, 1.0),
            Vec3::x(),
            10.0,
        )
        .unwrap()
        .unwrap();
        assert!((hit.distance - 4.0).abs() < 1e-6);
        assert_eq!(hit.normal, -Vec3::x());
    }
}
