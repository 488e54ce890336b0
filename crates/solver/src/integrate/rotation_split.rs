//! Free rotational drift of an anisotropic rigid body: the second-order
//! symmetric Hamiltonian split ("Rotation integration" in docs/physics.md).
//!
//! Method. Write the local inverse inertia tensor as `A = L D Lᵀ` (an `f64`
//! LDLᵀ factorization, [`InverseInertiaSplit::factor`]). Column `i` of `L`,
//! normalized, is a body-frame axis `uᵢ`; `cᵢ = Dᵢ |Lᵢ|²` absorbs the norm.
//! The kinetic energy of the local angular momentum `m` is then
//! `H = Σ Hᵢ` with `Hᵢ = cᵢ (uᵢ · m)² / 2`. Each term has an exact flow: the
//! body turns about its own axis `uᵢ` at the constant rate `cᵢ (uᵢ · m)`
//! while `m` turns about `uᵢ` by the opposite angle, which leaves the world
//! momentum `R m` unchanged. The drift over `h` composes the flows of terms
//! 1, 2, 3, 2, 1 for durations h/2, h/2, h, h/2, h/2 (Strang splitting):
//! five rotations, no iteration, no convergence fallback, no spin-dependent
//! loop.
//!
//! Source: the exact-flow splitting
//! principle of Dullweber, Leimkuhler and McLachlan, "Symplectic splitting
//! methods for rigid body molecular dynamics", J. Chem. Phys. 107 (1997).
//! The LDLᵀ axes need not be orthogonal: this is not a principal-axis solver.
//!
//! Precision domain. The factorization, the momentum and the five rotations
//! are `f64`; pose and angular velocity are stored as `f32`. The angular
//! velocity is reconstructed from the final *stored* (`f32`) pose and the
//! world momentum held at the start of the drift, so the world momentum
//! carried from step to step only sees the `f32` rounding of the stored
//! velocity. Each sub-flow conserves world momentum exactly in exact
//! arithmetic; the composition has second-order trajectory and energy error
//! at resolved steps and does not conserve energy exactly. For a positive
//! definite `A` the conserved momentum norm bounds the energy between the
//! smallest and largest eigenvalue of `A` times `|m|²/2` (a stability bound,
//! not an accuracy bound).

use parapet_math::nalgebra::{Quaternion, Unit};
use parapet_math::{
    demote, promote, promote_quat, DemoteError, Mat3, Mat3d, Quat, Quatd, Vec3, Vec3d,
};

/// The LDLᵀ factorization of a symmetric positive-definite local inverse
/// inertia tensor, as the three energy terms `Hᵢ = cᵢ (uᵢ · m)² / 2`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct InverseInertiaSplit {
    /// The inverse tensor itself, widened to `f64` (units 1/(kg m²)).
    pub tensor: Mat3d,
    /// The unit body-frame axes `uᵢ` (the normalized columns of `L`).
    pub axes: [Vec3d; 3],
    /// The rates `cᵢ = Dᵢ |Lᵢ|²` (units 1/(kg m²)), all positive and finite.
    pub rates: [f64; 3],
    /// The pivots `Dᵢ` of the factorization (units 1/(kg m²)).
    pivots: [f64; 3],
    /// The sub-diagonal entries of the unit lower-triangular `L`: `l21, l31, l32`.
    lower: [f64; 3],
}

impl InverseInertiaSplit {
    /// Factors an exactly symmetric local inverse tensor as `L D Lᵀ` in `f64`.
    ///
    /// Returns `None` when the tensor is not exactly symmetric or when a pivot
    /// `Dᵢ` is not positive and finite in `f64` (a singular, negative or
    /// numerically indefinite tensor): such tensors keep the prescribed
    /// velocity update (`quaternion_update`). An `f32` tensor whose exact leading minors
    /// are positive but whose `f64` pivots are not (conditioning beyond about
    /// 2⁵⁰) is treated the same way: this is the precision boundary of the
    /// drift.
    pub fn factor(inverse_inertia: &Mat3) -> Option<Self> {
        let a = inverse_inertia;
        for (r, c) in [(0, 1), (0, 2), (1, 2)] {
            if a[(r, c)] != a[(c, r)] {
                return None;
            }
        }
        let a: Mat3d = a.cast::<f64>();
        let d1 = a[(0, 0)];
        if !(d1 > 0.0 && d1.is_finite()) {
            return None;
        }
        let l21 = a[(1, 0)] / d1;
        let l31 = a[(2, 0)] / d1;
        let d2 = a[(1, 1)] - l21 * l21 * d1;
        if !(d2 > 0.0 && d2.is_finite()) {
            return None;
        }
        let l32 = (a[(2, 1)] - l31 * l21 * d1) / d2;
        let d3 = a[(2, 2)] - l31 * l31 * d1 - l32 * l32 * d2;
        if !(d3 > 0.0 && d3.is_finite()) {
            return None;
        }
        let columns = [
            Vec3d::new(1.0, l21, l31),
            Vec3d::new(0.0, 1.0, l32),
            Vec3d::new(0.0, 0.0, 1.0),
        ];
        let pivots = [d1, d2, d3];
        let mut axes = [Vec3d::zeros(); 3];
        let mut rates = [0.0; 3];
        for i in 0..3 {
            let norm_squared = columns[i].norm_squared();
            axes[i] = columns[i] / norm_squared.sqrt();
            rates[i] = pivots[i] * norm_squared;
            let usable =
                rates[i] > 0.0 && rates[i].is_finite() && axes[i].iter().all(|x| x.is_finite());
            if !usable {
                return None;
            }
        }
        Some(Self {
            tensor: a,
            axes,
            rates,
            pivots,
            lower: [l21, l31, l32],
        })
    }

    /// Solves `A m = ω` for the local angular momentum `m` of a local angular
    /// velocity `ω`, by forward and back substitution through `L D Lᵀ`.
    pub(crate) fn momentum(&self, local_angular_velocity: &Vec3d) -> Vec3d {
        let [l21, l31, l32] = self.lower;
        let w = local_angular_velocity;
        // L y = ω
        let y1 = w.x;
        let y2 = w.y - l21 * y1;
        let y3 = w.z - l31 * y1 - l32 * y2;
        // D z = y
        let z = [
            y1 / self.pivots[0],
            y2 / self.pivots[1],
            y3 / self.pivots[2],
        ];
        // Lᵀ m = z
        let m3 = z[2];
        let m2 = z[1] - l32 * m3;
        let m1 = z[0] - l21 * m2 - l31 * m3;
        Vec3d::new(m1, m2, m3)
    }

    /// The exact flow of term `i` for a duration `tau`: turns the pose about
    /// the body axis `uᵢ` by `cᵢ (uᵢ · m) tau` and the local momentum by the
    /// opposite angle.
    fn sub_flow(&self, i: usize, tau: f64, pose: &mut Quatd, momentum: &mut Vec3d) {
        let u = self.axes[i];
        let projection = u.dot(momentum);
        let angle = self.rates[i] * projection * tau;
        if angle == 0.0 {
            return;
        }
        let (sin_half, cos_half) = (0.5 * angle).sin_cos();
        let turn = Quatd::new_unchecked(Quaternion::from_parts(cos_half, u * sin_half));
        *pose *= turn;
        // Rodrigues' formula for a rotation of m by -angle about u.
        let (sin, cos) = angle.sin_cos();
        *momentum = *momentum * cos - u.cross(momentum) * sin + u * (projection * (1.0 - cos));
    }
}

/// The outcome of one free drift: the stored (`f32`) pose and angular velocity.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Drift {
    /// The body rotation after the drift (body to world), renormalized in `f64`
    /// and rounded to `f32`.
    pub rotation: Quat,
    /// The world angular velocity (rad/s) reconstructed from [`Drift::rotation`]
    /// and the world momentum at the start of the drift.
    pub angular_velocity: Vec3,
}

/// Widens a stored `f32` rotation to a unit `f64` quaternion (normalized in
/// `f64`, so that the stored rounding does not scale the tensor).
pub fn widen_rotation(rotation: &Quat) -> Quatd {
    Unit::new_normalize(promote_quat(*rotation).into_inner())
}

/// The world momentum `R A⁻¹ Rᵀ ω` (units kg m²/s) of the world angular
/// velocity `ω` for the stored rotation.
pub(crate) fn world_momentum(
    split: &InverseInertiaSplit,
    rotation: &Quat,
    angular_velocity: &Vec3,
) -> Vec3d {
    let r = widen_rotation(rotation);
    let local = r.inverse_transform_vector(&promote(*angular_velocity));
    r.transform_vector(&split.momentum(&local))
}

/// The world angular velocity `R A Rᵀ L` of the world momentum `L` for the
/// stored rotation (rad/s, `f64`).
pub(crate) fn world_angular_velocity(tensor: &Mat3d, rotation: &Quat, momentum: &Vec3d) -> Vec3d {
    let r = widen_rotation(rotation);
    r.transform_vector(&(tensor * r.inverse_transform_vector(momentum)))
}

/// One torque-free drift of duration `h` (seconds) by the symmetric split
/// 1, 2, 3, 2, 1 over h/2, h/2, h, h/2, h/2.
///
/// # Errors
/// [`DemoteError`] when the reconstructed angular velocity is not
/// representable as `f32` (the pose, a unit quaternion, always is).
pub(crate) fn drift(
    split: &InverseInertiaSplit,
    rotation: &Quat,
    angular_velocity: &Vec3,
    h: f64,
) -> Result<Drift, DemoteError> {
    let mut pose = widen_rotation(rotation);
    let mut m = split.momentum(&pose.inverse_transform_vector(&promote(*angular_velocity)));
    let world_l = pose.transform_vector(&m);
    let half = 0.5 * h;
    for (term, tau) in [(0, half), (1, half), (2, h), (1, half), (0, half)] {
        split.sub_flow(term, tau, &mut pose, &mut m);
    }
    let pose = pose.into_inner();
    let norm = pose.norm();
    let stored = Quat::new_unchecked((pose / norm).cast::<f32>());
    let w = world_angular_velocity(&split.tensor, &stored, &world_l);
    Ok(Drift {
        rotation: stored,
        angular_velocity: demote(w)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn full_tensor() -> Mat3 {
        Mat3::new(0.9, 0.12, -0.05, 0.12, 0.5, 0.08, -0.05, 0.08, 0.3)
    }

    #[test]
    fn factorization_reproduces_the_tensor() {
        let a = full_tensor();
        let split = InverseInertiaSplit::factor(&a).unwrap();
        let mut sum = Mat3d::zeros();
        for i in 0..3 {
            sum += split.axes[i] * split.axes[i].transpose() * split.rates[i];
        }
        // f64 factorization of O(1) entries: a few ulps of 1.
        assert!((sum - a.cast::<f64>()).abs().max() < 1e-15);
    }

    #[test]
    fn momentum_solve_inverts_the_tensor() {
        let split = InverseInertiaSplit::factor(&full_tensor()).unwrap();
        let w = Vec3d::new(0.3, -1.7, 2.2);
        let m = split.momentum(&w);
        assert!((split.tensor * m - w).norm() < 1e-14);
    }

    #[test]
    fn singular_negative_and_nonsymmetric_tensors_are_not_split() {
        let locked = Mat3::from_diagonal(&Vec3::new(1.0, 0.0, 1.0));
        let negative = Mat3::from_diagonal(&Vec3::new(1.0, -2.0, 1.0));
        let mut nonsymmetric = full_tensor();
        nonsymmetric[(0, 1)] = 0.13;
        for a in [locked, negative, nonsymmetric] {
            assert!(InverseInertiaSplit::factor(&a).is_none());
        }
    }

    #[test]
    fn each_drift_keeps_the_world_momentum() {
        let split = InverseInertiaSplit::factor(&full_tensor()).unwrap();
        let q = Quat::from_euler_angles(0.3, -0.4, 1.1);
        let w = Vec3::new(1.0, 2.0, -0.5);
        let before = world_momentum(&split, &q, &w);
        let after = drift(&split, &q, &w, 0.01).unwrap();
        let l = world_momentum(&split, &after.rotation, &after.angular_velocity);
        // Only the f32 rounding of the stored velocity (relative 2^-24 per
        // component, amplified by the tensor's condition number ~5) remains.
        assert!((l - before).norm() < 1e-6 * before.norm());
    }
}
