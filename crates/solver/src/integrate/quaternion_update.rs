//! The prescribed-velocity rotation update: `q ← normalize(q + ½ h (ω, 0) q)`.
//!
//! Method: one explicit step of the quaternion kinematic equation
//! `q̇ = ½ (ω, 0) ⊗ q` for a world angular velocity `ω`, followed by
//! normalization. It is the update of isotropic bodies (whose torque-free
//! world angular velocity is constant), kinematic bodies (whose velocity is
//! prescribed), the pose-only split correction, and bodies with singular,
//! negative or nonsymmetric custom inverse tensors (which do not describe an
//! unconstrained solid).
//!
//! Source: the quaternion kinematic equation (Baraff, "Physically Based
//! Modeling: Rigid Body Simulation", SIGGRAPH 2001 course notes).
//!
//! Precision domain: the product and the normalization are computed in `f64`
//! from the stored `f32` values and rounded once to `f32`. The rotation angle
//! per step should stay well below one radian for the update to follow the
//! motion; it never produces a non-unit quaternion.

use parapet_math::nalgebra::Quaternion;
use parapet_math::Vec3;
use parapet_math::{promote, promote_quat, Quat};

/// Turns `rotation` by the world angular velocity `angular_velocity` (rad/s)
/// for `h` seconds with the normalized first-order quaternion update.
///
/// Returns `None` when the result cannot be normalized (a non-finite input).
pub fn quaternion_update(rotation: &Quat, angular_velocity: &Vec3, h: f64) -> Option<Quat> {
    let q = promote_quat(*rotation).into_inner();
    let w = promote(*angular_velocity);
    let spin = Quaternion::from_parts(0.0, w * (0.5 * h));
    let next = q + spin * q;
    let norm = next.norm();
    if !(norm.is_finite() && norm > 0.0) {
        return None;
    }
    Some(Quat::new_unchecked((next / norm).cast::<f32>()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zero_velocity_keeps_the_rotation_up_to_normalization() {
        let q = Quat::from_euler_angles(0.1, 0.2, 0.3);
        let next = quaternion_update(&q, &Vec3::zeros(), 0.01).unwrap();
        // Renormalizing an f32 unit quaternion moves it by at most an ulp or two.
        assert!(next.angle_to(&q) < 1e-6);
    }

    #[test]
    fn small_step_turns_about_the_world_axis() {
        let q = Quat::identity();
        let w = Vec3::new(0.0, 0.0, 2.0);
        let next = quaternion_update(&q, &w, 0.001).unwrap();
        // First-order update: angle h|w| up to O((h|w|)^3) = 8e-9, plus f32 rounding.
        assert!((next.angle() - 0.002).abs() < 1e-6);
        assert!(next.axis().unwrap().z > 0.999_999);
    }

    #[test]
    fn non_finite_velocity_is_refused() {
        let w = Vec3::new(f32::NAN, 0.0, 0.0);
        assert!(quaternion_update(&Quat::identity(), &w, 0.01).is_none());
    }
}
