//! The impact response of two moving bodies (spheres, and capsules that
//! cannot turn) at one contact point; either side may be kinematic.
//!
//! # Method
//! Unit normal `n` from B's closest point towards A's (the direction of the
//! impulse on A), lever arms `a_A`, `a_B` from the mass centres to the
//! contact, relative contact velocity `u = (v_A + ω_A × a_A) − (v_B + ω_B ×
//! a_B)`, `u_n = n · u < 0` when closing; `K(d, e)` is the sum of both
//! bodies' couplings (`impulse.rs`), zero for a kinematic side
//! (infinite mass).
//! 1. **Normal impulse** `j_n = (u_n' − u_n) / K(n, n)` towards the target
//!    `u_n' = e u_n` above the mixed bounce threshold, else `0`; it removes
//!    `(1 − e²) u_n² / (2 K(n, n)) >= 0` of kinetic energy.
//! 2. **Coulomb friction** at the contact with the summed 2 x 2 effective
//!    mass, scaled onto the cone `|j_t| <= μ j_n`; it removes slip energy.
//! 3. **Velocity reconstruction**: both new velocities are rounded to `f32`;
//!    when plain rounding leaves the relative normal velocity below the
//!    target, one dynamic side's component of largest `|n_k|` is recomputed
//!    so that it is at or just above it: a plastic pair impact cannot leave
//!    a closing residue that repeats at zero time.
//!
//! A kinematic side takes no impulse. In its frame the impact removes
//! energy, so the dynamic side's speed grows by at most twice the kinematic
//! speed.
//!
//! # Source and precision domain
//! Mirtich, "Impulse-based Dynamic Simulation of Rigid Body Systems" (1996),
//! chapter 4 (two-body collisions). `f64` from `f32` state; new velocities
//! and the impulse must be finite `f32` values.

use parapet_geometry::Material;
use parapet_math::{promote, Vec3, Vec3d};

use super::impulse::{coulomb_friction, normal_target, reconstruct, representable};
use super::{ImpactError, ImpactMass};

/// One side of a pair impact.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PairSide {
    /// Inverse mass and world inverse inertia (both zero: kinematic).
    pub body: ImpactMass,
    /// Linear velocity (m/s).
    pub velocity: Vec3,
    /// Angular velocity (rad/s).
    pub spin: Vec3,
    /// Lever arm from the mass centre to the contact (m, world).
    pub arm: Vec3d,
}

impl PairSide {
    /// Whether the side takes impulses (a dynamic body).
    fn dynamic(&self) -> bool {
        self.body.inverse_mass > 0.0
    }
}

/// The new state of both sides.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PairResponse {
    /// A's new linear and angular velocity.
    pub a: (Vec3, Vec3),
    /// B's new linear and angular velocity.
    pub b: (Vec3, Vec3),
    /// The impulse on A (N s, world); B takes its negative.
    pub impulse: Vec3d,
    /// The normal contact velocity before the impact (m/s, negative).
    pub closing_velocity: f64,
}

fn contact_velocity(v: &Vec3d, w: &Vec3d, arm: &Vec3d) -> Vec3d {
    v + w.cross(arm)
}

/// The response of the pair (A, B) at unit normal `normal` (B towards A)
/// with the mixed `material`; `None` when the contact does not close or
/// neither side can take an impulse.
///
/// # Errors
/// [`ImpactError::NotRepresentable`] when a new velocity or the impulse is
/// not a finite `f32`.
pub fn respond_pair(
    a: &PairSide,
    b: &PairSide,
    normal: Vec3d,
    material: &Material,
) -> Result<Option<PairResponse>, ImpactError> {
    let n = normal;
    let (mut va, mut wa) = (promote(a.velocity), promote(a.spin));
    let (mut vb, mut wb) = (promote(b.velocity), promote(b.spin));
    let rel = |va: &Vec3d, wa: &Vec3d, vb: &Vec3d, wb: &Vec3d| {
        contact_velocity(va, wa, &a.arm) - contact_velocity(vb, wb, &b.arm)
    };
    let un = n.dot(&rel(&va, &wa, &vb, &wb));
    if !(un < 0.0) {
        return Ok(None);
    }
    let target = normal_target(-un, material);
    let k = |d: &Vec3d, e: &Vec3d| a.body.coupling(&a.arm, d, e) + b.body.coupling(&b.arm, d, e);
    let kn = k(&n, &n);
    if !(kn > 0.0) {
        return Ok(None);
    }
    let jn = (target - un) / kn;
    a.body.apply(&mut va, &mut wa, &a.arm, &(n * jn));
    b.body.apply(&mut vb, &mut wb, &b.arm, &(-n * jn));
    let mut impulse = n * jn;

    let slip = rel(&va, &wa, &vb, &wb);
    if let Some(jt) = coulomb_friction(k, &n, &slip, material.friction as f64, jn) {
        a.body.apply(&mut va, &mut wa, &a.arm, &jt);
        b.body.apply(&mut vb, &mut wb, &b.arm, &-jt);
        impulse += jt;
    }
    for (q, v) in [
        ("linear velocity", &va),
        ("angular velocity", &wa),
        ("linear velocity", &vb),
        ("angular velocity", &wb),
        ("impulse", &impulse),
    ] {
        representable(q, v)?;
    }
    let (wa32, wb32): (Vec3, Vec3) = (wa.map(|x| x as f32), wb.map(|x| x as f32));
    let (va32, vb32) = rounded_linear(a, b, (va, vb), (wa32, wb32), &n, target);
    representable("linear velocity", &promote(va32))?;
    representable("linear velocity", &promote(vb32))?;
    Ok(Some(PairResponse {
        a: (va32, if a.dynamic() { wa32 } else { a.spin }),
        b: (vb32, if b.dynamic() { wb32 } else { b.spin }),
        impulse,
        closing_velocity: un,
    }))
}

/// Both new linear velocities in `f32` (a kinematic side keeps its own):
/// plainly rounded, unless that leaves the relative normal velocity with
/// the rounded spins `(wa32, wb32)` below `target`; then one dynamic side
/// (A first) is reconstructed so that it is at or above the target. Exact
/// results such as an elastic exchange stay exact.
fn rounded_linear(
    a: &PairSide,
    b: &PairSide,
    (va, vb): (Vec3d, Vec3d),
    (wa32, wb32): (Vec3, Vec3),
    n: &Vec3d,
    target: f64,
) -> (Vec3, Vec3) {
    let spin_term = |w: Vec3, arm: &Vec3d| n.dot(&promote(w).cross(arm));
    let (mut va32, mut vb32): (Vec3, Vec3) = (va.map(|x| x as f32), vb.map(|x| x as f32));
    if !a.dynamic() {
        va32 = a.velocity;
    }
    if !b.dynamic() {
        vb32 = b.velocity;
    }
    let rounded =
        n.dot(&(promote(va32) - promote(vb32))) + spin_term(wa32, &a.arm) - spin_term(wb32, &b.arm);
    if rounded >= target {
        // Plain rounding keeps the contact at or above the target.
    } else if a.dynamic() {
        let offset = spin_term(wa32, &a.arm) - n.dot(&promote(vb32)) - spin_term(wb32, &b.arm);
        va32 = reconstruct(va, n, target, offset);
    } else if b.dynamic() {
        // (-n) . v_B + (n . u_A - n . (ω_B × a_B)) >= target  <=>  n . u >= target.
        let offset = n.dot(&promote(va32)) + spin_term(wa32, &a.arm) - spin_term(wb32, &b.arm);
        vb32 = reconstruct(vb, &-n, target, offset);
    }
    (va32, vb32)
}

#[cfg(test)]
mod tests {
    use super::*;
    use parapet_math::Mat3d;

    fn side(m: f64, r: f64, v: Vec3, arm: Vec3d) -> PairSide {
        PairSide {
            body: ImpactMass {
                inverse_mass: 1.0 / m,
                inverse_inertia: Mat3d::identity() / (0.4 * m * r * r),
            },
            velocity: v,
            spin: Vec3::zeros(),
            arm,
        }
    }

    fn kinematic(v: Vec3, arm: Vec3d) -> PairSide {
        PairSide {
            body: ImpactMass {
                inverse_mass: 0.0,
                inverse_inertia: Mat3d::zeros(),
            },
            velocity: v,
            spin: Vec3::zeros(),
            arm,
        }
    }

    fn mat(e: f32, mu: f32) -> Material {
        Material {
            friction: mu,
            restitution: e,
            bounce_threshold: 0.5,
        }
    }

    /// Kinetic energy (J) of a side with its isotropic tensor.
    fn energy(s: &PairSide, (v, w): (Vec3, Vec3)) -> f64 {
        let inertia = 1.0 / s.body.inverse_inertia[(0, 0)];
        0.5 * promote(v).norm_squared() / s.body.inverse_mass
            + 0.5 * inertia * promote(w).norm_squared()
    }

    #[test]
    fn an_elastic_head_on_pair_of_equal_masses_exchanges_velocities() {
        // A at left moving +x, B at right moving -x; n from B to A is -x.
        let a = side(
            1.0,
            0.5,
            Vec3::new(4.0, 0.0, 0.0),
            Vec3d::new(0.5, 0.0, 0.0),
        );
        let b = side(
            1.0,
            0.5,
            Vec3::new(-2.0, 0.0, 0.0),
            Vec3d::new(-0.5, 0.0, 0.0),
        );
        let r = respond_pair(&a, &b, -Vec3d::x(), &mat(1.0, 0.0))
            .unwrap()
            .unwrap();
        assert_eq!(r.a.0, Vec3::new(-2.0, 0.0, 0.0));
        assert_eq!(r.b.0, Vec3::new(4.0, 0.0, 0.0));
    }

    #[test]
    fn a_plastic_pair_moves_together_and_conserves_momentum() {
        let a = side(
            1.0,
            0.5,
            Vec3::new(3.0, 0.0, 0.0),
            Vec3d::new(0.5, 0.0, 0.0),
        );
        let b = side(
            2.0,
            0.5,
            Vec3::new(0.0, 0.0, 0.0),
            Vec3d::new(-0.5, 0.0, 0.0),
        );
        let r = respond_pair(&a, &b, -Vec3d::x(), &mat(0.0, 0.0))
            .unwrap()
            .unwrap();
        // Common velocity 3 / 3 = 1 m/s (within 1e-6: f32 rounding of 1).
        assert!((r.a.0.x - 1.0).abs() < 1e-6 && (r.b.0.x - 1.0).abs() < 1e-6);
        // Never closing after rounding.
        assert!(r.a.0.x <= r.b.0.x);
    }

    #[test]
    fn a_kinematic_striker_gains_the_target_at_most_twice_its_speed() {
        // Kinematic B at left moving +x at 5 m/s strikes A at rest; n from B to A is +x.
        let a = side(1.0, 0.5, Vec3::zeros(), Vec3d::new(-0.5, 0.0, 0.0));
        let b = kinematic(Vec3::new(5.0, 0.0, 0.0), Vec3d::new(0.5, 0.0, 0.0));
        let r = respond_pair(&a, &b, Vec3d::x(), &mat(1.0, 0.5))
            .unwrap()
            .unwrap();
        assert_eq!(r.a.0, Vec3::new(10.0, 0.0, 0.0));
        assert_eq!(r.b.0, Vec3::new(5.0, 0.0, 0.0));
    }

    #[test]
    fn an_oblique_pair_impact_never_adds_energy_and_friction_stays_in_the_cone() {
        // Oblique, spinning impacts of unequal spheres for restitution 0 to
        // 1: the total energy never grows beyond the f32 rounding of the
        // stored velocities (relative 1e-6), and the tangential impulse is
        // at most mu j_n (relative 1e-12 for the cone scaling's roundoff).
        for i in 0..30 {
            let t = 0.1 * i as f64;
            let n = Vec3d::new(-1.0, 0.4 * t.sin(), 0.3 * t.cos()).normalize();
            let mut a = side(
                1.5,
                0.3,
                Vec3::new(3.0, 1.0 - 0.1 * i as f32, 0.5),
                -n * 0.3,
            );
            let mut b = side(0.7, 0.2, Vec3::new(-1.0, 0.0, 0.2), n * 0.2);
            a.spin = Vec3::new(0.0, 2.0, -1.0);
            b.spin = Vec3::new(1.0, 0.0, 3.0);
            let e0 = energy(&a, (a.velocity, a.spin)) + energy(&b, (b.velocity, b.spin));
            for e in [0.0, 0.5, 1.0] {
                let mu = 0.4f32;
                let r = respond_pair(&a, &b, n, &mat(e, mu)).unwrap().unwrap();
                let e1 = energy(&a, r.a) + energy(&b, r.b);
                assert!(e1 <= e0 * (1.0 + 1e-6), "{i} e {e}: {e1} > {e0}");
                let jn = r.impulse.dot(&n);
                let jt = r.impulse - n * jn;
                assert!(jt.norm() <= mu as f64 * jn * (1.0 + 1e-12), "{i} e {e}");
            }
        }
    }
}
