//! The boundary between parapet (nalgebra, f32 storage) and parry3d 0.31
//! (glam types through glamx): the only conversions the oracles and benches use.

use parapet_math::{Quat, Vec3};

pub use parry3d;

/// parry3d's vector type.
pub type ParryVec = parry3d::math::Vector;
/// parry3d's rigid pose type.
pub type ParryPose = parry3d::math::Pose;

/// A parapet vector as a parry3d vector (same f32 components).
#[inline]
pub fn to_parry(v: Vec3) -> ParryVec {
    ParryVec::new(v.x, v.y, v.z)
}

/// A parry3d vector as a parapet vector.
#[inline]
pub fn from_parry(v: ParryVec) -> Vec3 {
    Vec3::new(v.x, v.y, v.z)
}

/// A parapet pose (translation, unit quaternion) as a parry3d pose.
#[inline]
pub fn pose_to_parry(translation: Vec3, rotation: Quat) -> ParryPose {
    let q = rotation.into_inner();
    let rot = parry3d::math::Rotation::from_xyzw(q.i, q.j, q.k, q.w);
    ParryPose::from_parts(to_parry(translation), rot)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vectors_round_trip_exactly() {
        let v = Vec3::new(1.5, -2.25, 3.0e-7);
        assert_eq!(from_parry(to_parry(v)), v);
    }

    #[test]
    fn a_pose_moves_a_point_like_nalgebra_does() {
        let rotation = Quat::from_axis_angle(&Vec3::z_axis(), 0.5);
        let translation = Vec3::new(1.0, 2.0, 3.0);
        let p = Vec3::new(0.3, -0.7, 1.1);
        let expected = rotation * p + translation;
        let got = from_parry(pose_to_parry(translation, rotation) * to_parry(p));
        // Both sides round one quaternion rotation in f32: a few ulps of |p| + |t|.
        assert!((got - expected).norm() < 1e-5, "{got} vs {expected}");
    }
}
