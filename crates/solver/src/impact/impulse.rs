//! The impulse physics that every impact response shares, written once:
//! the effective-mass coupling of a contact, the normal target with
//! restitution and bounce threshold, the Coulomb friction impulse, the
//! representability check and the `f32` velocity reconstruction.
//!
//! # Method
//! At a contact with lever arm `a` from a body's mass centre, unit normal
//! `n` and relative contact velocity `u` (`u_n = n · u < 0` when closing):
//! - **Coupling** `K(d, e) = e · (d / m + (A (a × d)) × a)`: the velocity
//!   change along `e` of the contact point per unit impulse along `d`
//!   (`A` the world inverse inertia tensor); a pair sums both bodies' terms.
//! - **Normal target** `u_n' = e_r (−u_n)` when the closing speed `−u_n`
//!   exceeds the mixed bounce threshold, else `0` (plastic). The normal
//!   impulse `(u_n' − u_n) / K(n, n)` changes the kinetic energy by
//!   `(u_n'² − u_n²) / (2 K(n, n)) <= 0` for restitution in `[0, 1]`.
//! - **Coulomb friction**: the tangential impulse `j_t = −K_t⁻¹ u_t` that
//!   stops the slip (`K_t` the 2 x 2 tangential block of the coupling, `u_t`
//!   the slip in a tangent basis), scaled onto the cone `|j_t| <= μ j_n`
//!   when it lies outside. Any `−α K_t⁻¹ u_t` with `0 <= α <= 1` changes
//!   the energy by `−(α − α²/2) u_tᵀ K_t⁻¹ u_t <= 0`. The impulse does not
//!   depend on the basis (the cone is round and `K_t⁻¹ u_t` is a vector of
//!   the tangent plane), only its rounding does; it uses the solver's one
//!   tangent basis (`tangent_basis.rs`).
//! - **Velocity reconstruction**: a new velocity is rounded to `f32`, then
//!   its component of largest `|n_k|` is recomputed so that `n · v` plus the
//!   caller's offset is at or just above the target, choosing among the `f32`
//!   neighbours the one that leaves the contact at or above the target
//!   (never closing): an almost axial impact that cancels most of the
//!   incoming speed then cannot leave a projection residue that triggers
//!   repeated zero-time impacts.
//!
//! # Source and precision domain
//! Mirtich, "Impulse-based Dynamic Simulation of Rigid Body Systems" (1996),
//! chapter 4 (collision impulses with Coulomb friction); Catto, "Iterative
//! Dynamics with Temporal Coherence" (GDC 2005) for the effective mass.
//! `f64` from `f32` state; the reconstruction keeps the normal contact
//! velocity within dot-product roundoff of the final `f32` operands.

use parapet_geometry::Material;
use parapet_math::nalgebra::{Matrix2, Vector2};
use parapet_math::{Mat3d, Vec3, Vec3d};

use super::ImpactError;
use crate::tangent_basis::tangent_basis;

/// The dynamic properties of one body at an impact.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ImpactMass {
    /// Inverse mass (1/kg); zero for a kinematic body, which takes no
    /// impulse (infinite mass).
    pub inverse_mass: f64,
    /// World inverse inertia tensor at the step's start orientation
    /// (1/(kg m²)); zero for a body that cannot turn.
    pub inverse_inertia: Mat3d,
}

impl ImpactMass {
    /// `K(d, e)`: the velocity change along `e` of the contact point at lever
    /// arm `arm` per unit impulse along `d` (m/s per N s).
    pub(crate) fn coupling(&self, arm: &Vec3d, d: &Vec3d, e: &Vec3d) -> f64 {
        let spin = self.inverse_inertia * arm.cross(d);
        self.inverse_mass * d.dot(e) + spin.cross(arm).dot(e)
    }

    /// Applies the impulse `j` (N s, world) at lever arm `arm` to the
    /// velocity `v` and spin `w`.
    pub(crate) fn apply(&self, v: &mut Vec3d, w: &mut Vec3d, arm: &Vec3d, j: &Vec3d) {
        *v += j * self.inverse_mass;
        *w += self.inverse_inertia * arm.cross(j);
    }
}

/// The normal contact velocity an impact aims at (m/s) for the closing
/// speed `closing = −u_n > 0`: restitution above the mixed bounce
/// threshold, plastic below it.
pub(crate) fn normal_target(closing: f64, material: &Material) -> f64 {
    if closing > material.bounce_threshold as f64 {
        material.restitution as f64 * closing
    } else {
        0.0
    }
}

/// The Coulomb friction impulse (N s, world) at a contact with unit normal
/// `n`, relative contact velocity `u` after the normal impulse, friction
/// coefficient `friction` and normal impulse `normal_impulse`; `coupling`
/// is `K(d, e)` of the contact (see the module docs). `None` when there is
/// no friction, no slip, or the tangential block is singular.
pub(crate) fn coulomb_friction(
    coupling: impl Fn(&Vec3d, &Vec3d) -> f64,
    n: &Vec3d,
    u: &Vec3d,
    friction: f64,
    normal_impulse: f64,
) -> Option<Vec3d> {
    let ut = u - n * n.dot(u);
    if !(friction > 0.0 && ut.norm_squared() > 0.0) {
        return None;
    }
    let t = tangent_basis(n);
    let k = Matrix2::new(
        coupling(&t[0], &t[0]),
        coupling(&t[1], &t[0]),
        coupling(&t[0], &t[1]),
        coupling(&t[1], &t[1]),
    );
    let slip = Vector2::new(t[0].dot(&ut), t[1].dot(&ut));
    let kinv = k.try_inverse()?;
    let mut j = -(kinv * slip);
    let limit = friction * normal_impulse;
    let len = j.norm();
    if len > limit {
        j *= limit / len;
    }
    Some(t[0] * j.x + t[1] * j.y)
}

/// `Ok` when every component of `v` is a finite `f32` value.
///
/// # Errors
/// [`ImpactError::NotRepresentable`] naming `quantity` and the first
/// offending component.
pub(crate) fn representable(quantity: &'static str, v: &Vec3d) -> Result<(), ImpactError> {
    match v
        .iter()
        .find(|x| !(x.is_finite() && x.abs() <= f32::MAX as f64))
    {
        Some(&value) => Err(ImpactError::NotRepresentable { quantity, value }),
        None => Ok(()),
    }
}

/// Rounds `v` to `f32` and recomputes its component of largest `|n_k|` so
/// that `n · v + offset` is at or just above `target` (see the module docs):
/// a struck body's velocity stored in `f32` never leaves its last contact
/// closing by rounding.
pub fn reconstruct(v: Vec3d, n: &Vec3d, target: f64, offset: f64) -> Vec3 {
    let mut out: Vec3 = v.map(|x| x as f32);
    let k = n.iamax();
    if n[k] == 0.0 {
        return out;
    }
    let rest: f64 = (0..3)
        .filter(|&j| j != k)
        .map(|j| n[j] * out[j] as f64)
        .sum::<f64>()
        + offset;
    let x = (target - rest) / n[k];
    if !x.is_finite() {
        return out;
    }
    let c = x as f32;
    let dot = |vk: f32| rest + n[k] * vk as f64;
    let mut best: Option<(f64, f32)> = None;
    // The rounded value first: among candidates with the same dot product
    // (a neighbour one ulp away may not move it), the nearest wins.
    for cand in [c, c.next_down(), c.next_up()] {
        let d = dot(cand);
        if d >= target && best.is_none_or(|(b, _)| d < b) {
            best = Some((d, cand));
        }
    }
    out[k] = best.map_or(c, |(_, vk)| vk);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use parapet_math::promote;

    /// A 1 kg body with the tensor `A = s I` (1/(kg m²)).
    fn mass(s: f64) -> ImpactMass {
        ImpactMass {
            inverse_mass: 1.0,
            inverse_inertia: Mat3d::identity() * s,
        }
    }

    #[test]
    fn the_coupling_is_symmetric_and_positive_along_the_normal() {
        // K(d, e) = K(e, d) for a symmetric tensor: e · (A (a × d)) × a
        // = (a × d) · A (a × e). Relative 1e-15: a few roundings of unit terms.
        let m = mass(6.0);
        let arm = Vec3d::new(0.3, -0.2, 0.5);
        let (d, e) = (
            Vec3d::new(1.0, 2.0, -0.5).normalize(),
            Vec3d::new(-0.3, 0.1, 1.0).normalize(),
        );
        let (kde, ked) = (m.coupling(&arm, &d, &e), m.coupling(&arm, &e, &d));
        assert!(
            (kde - ked).abs() <= 1e-15 * kde.abs().max(1.0),
            "{kde} {ked}"
        );
        assert!(m.coupling(&arm, &d, &d) > 0.0);
    }

    #[test]
    fn the_target_is_plastic_at_or_below_the_bounce_threshold() {
        let m = Material {
            friction: 0.0,
            restitution: 0.5,
            bounce_threshold: 0.5,
        };
        assert_eq!(normal_target(0.5, &m), 0.0);
        assert_eq!(normal_target(4.0, &m), 2.0);
    }

    #[test]
    fn friction_stays_inside_the_cone_and_never_adds_energy() {
        // Sliding contacts at arms tilted from the normal, with every
        // friction coefficient: the impulse is at most mu j_n (relative 1e-12
        // for the scaling's roundoff) and the kinetic energy does not grow
        // (relative 1e-14: a few roundings of the energy's terms).
        let m = mass(6.0);
        let n = Vec3d::z();
        let energy = |v: &Vec3d, w: &Vec3d| 0.5 * v.norm_squared() + 0.5 * w.norm_squared() / 6.0;
        for (i, mu) in [0.05, 0.3, 1.0, 5.0].into_iter().enumerate() {
            let arm = Vec3d::new(0.5 - 0.2 * i as f64, 0.1, -0.5);
            let (mut v, mut w) = (Vec3d::new(3.0, -1.0, 0.0), Vec3d::new(0.2, 1.0, -0.4));
            let e0 = energy(&v, &w);
            let jn = 0.7;
            let u = v + w.cross(&arm);
            let jt = coulomb_friction(|d, e| m.coupling(&arm, d, e), &n, &u, mu, jn).unwrap();
            assert!(jt.dot(&n).abs() < 1e-15);
            assert!(jt.norm() <= mu * jn * (1.0 + 1e-12), "{mu}: {}", jt.norm());
            m.apply(&mut v, &mut w, &arm, &jt);
            // The tangential impulse alone: its normal coupling can change u_n,
            // but the energy change is -(α - α²/2) u_tᵀ K_t⁻¹ u_t <= 0.
            assert!(energy(&v, &w) <= e0 * (1.0 + 1e-14), "{mu}");
        }
    }

    #[test]
    fn no_slip_or_no_friction_takes_no_tangential_impulse() {
        let m = mass(6.0);
        let arm = Vec3d::new(0.0, 0.0, -0.5);
        let k = |d: &Vec3d, e: &Vec3d| m.coupling(&arm, d, e);
        let normal_only = Vec3d::new(0.0, 0.0, -2.0);
        assert_eq!(
            coulomb_friction(k, &Vec3d::z(), &normal_only, 1.0, 1.0),
            None
        );
        let sliding = Vec3d::new(1.0, 0.0, -2.0);
        assert_eq!(coulomb_friction(k, &Vec3d::z(), &sliding, 0.0, 1.0), None);
    }

    #[test]
    fn only_finite_f32_values_are_representable() {
        assert_eq!(
            representable("impulse", &Vec3d::new(1.0, -3.0e38, 0.0)),
            Ok(())
        );
        let big = f32::MAX as f64 * 2.0;
        assert_eq!(
            representable("impulse", &Vec3d::new(0.0, big, f64::NAN)),
            Err(ImpactError::NotRepresentable {
                quantity: "impulse",
                value: big
            })
        );
    }

    #[test]
    fn reconstruction_never_leaves_a_closing_residue_on_a_slope() {
        // Plastic impacts on many slopes: the reconstructed normal velocity
        // is at or above zero and within 1e-6 m/s of it (a few f32 ulps of
        // the unit-scale components).
        for i in 1..200 {
            let a = i as f64 * 0.0157;
            let n = Vec3d::new(a.sin(), 0.3 * a.cos(), a.cos()).normalize();
            let v = Vec3d::new(1.3, -0.7, 2.1) - n * n.dot(&Vec3d::new(1.3, -0.7, 2.1));
            let out = reconstruct(v, &n, 0.0, 0.0);
            let dot = n.dot(&promote(out));
            assert!((0.0..1e-6).contains(&dot), "{dot}");
        }
    }
}
