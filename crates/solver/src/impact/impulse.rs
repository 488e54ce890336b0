//! The impulse physics the impact response builds on, written once: a
//! body's inverse mass and world inverse inertia at an impact, applying an
//! impulse, the representability check and the `f32` velocity
//! reconstruction (the couplings, the plastic solve and the friction are
//! `contacts.rs`'s).
//!
//! # Method
//! - **Impulse**: `j` at lever arm `a` changes the velocity by `j / m` and
//!   the spin by `A (a × j)` (`A` the world inverse inertia tensor).
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

use parapet_math::{Mat3d, Vec3, Vec3d};

use super::ImpactError;

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
    /// Applies the impulse `j` (N s, world) at lever arm `arm` to the
    /// velocity `v` and spin `w`.
    pub(crate) fn apply(&self, v: &mut Vec3d, w: &mut Vec3d, arm: &Vec3d, j: &Vec3d) {
        *v += j * self.inverse_mass;
        *w += self.inverse_inertia * arm.cross(j);
    }
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
