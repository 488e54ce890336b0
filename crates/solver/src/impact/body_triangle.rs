//! The impact response of a body alone against a static triangle.
//!
//! # Method
//! At the contact point (lever arm `a` from the mass centre, unit normal `n`
//! from the triangle towards the body, contact velocity `u = v + ω × a`
//! with `u_n = n · u < 0`), with the shared impulse physics of
//! `impulse.rs`:
//! 1. **Normal impulse** `j_n = (u_n' − u_n) / K(n, n)` towards the target
//!    `u_n' = e u_n` above the mixed bounce threshold, else `0` (plastic);
//!    it removes `(1 − e²) u_n² / (2 K(n, n)) >= 0` of kinetic energy.
//! 2. **Coulomb friction**: the impulse that stops the slip with the 2 x 2
//!    tangential effective mass, scaled onto the cone `|j_t| <= μ j_n`; it
//!    removes slip energy. The ideal response never adds kinetic energy.
//! 3. **Velocity reconstruction**: the new velocity is rounded to `f32` and
//!    its component of largest `|n_k|` recomputed so that `n · u'` is at or
//!    just above the target.
//!
//! `A` is the world inverse tensor at the step's start orientation (the one
//! the world's reach bound measured), zero for bodies that cannot turn.
//!
//! # Source and precision domain
//! Mirtich, "Impulse-based Dynamic Simulation of Rigid Body Systems" (1996),
//! chapter 4. `f64` throughout from `f32` state; new velocities and the
//! impulse must be finite `f32` values.

use parapet_geometry::Material;
use parapet_math::{promote, Vec3, Vec3d};

use super::impulse::{coulomb_friction, normal_target, reconstruct, representable};
use super::{ImpactError, ImpactMass};

/// The result of a body's impact with a static triangle.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TriangleResponse {
    /// New linear velocity (m/s).
    pub linear_velocity: Vec3,
    /// New angular velocity (rad/s).
    pub angular_velocity: Vec3,
    /// The total impulse applied to the body (N s, world).
    pub impulse: Vec3d,
    /// The normal contact velocity before the impact (m/s, negative).
    pub closing_velocity: f64,
    /// The normal contact velocity the response aimed at (m/s).
    pub target_velocity: f64,
}

/// The response of a body with `mass`, velocity `velocity` and spin `spin`
/// at a contact with lever arm `arm` (world, from the mass centre) and unit
/// normal `normal` (from the triangle towards the body), with the mixed
/// `material`. Returns `None` when the contact does not close
/// (`u_n >= 0`): exact tangency takes no impulse.
///
/// # Errors
/// [`ImpactError::NotRepresentable`] when a new velocity or the impulse is
/// not a finite `f32`.
pub fn respond_body_triangle(
    mass: &ImpactMass,
    velocity: Vec3,
    spin: Vec3,
    arm: Vec3d,
    normal: Vec3d,
    material: &Material,
) -> Result<Option<TriangleResponse>, ImpactError> {
    let n = normal;
    let mut v = promote(velocity);
    let mut w = promote(spin);
    let un = n.dot(&(v + w.cross(&arm)));
    if !(un < 0.0) {
        return Ok(None);
    }
    let target = normal_target(-un, material);
    let jn = (target - un) / mass.coupling(&arm, &n, &n);
    // The normal step scales the unit normal by `m⁻¹ j_n` (one product),
    // where `ImpactMass::apply` scales the impulse vector by `m⁻¹`: the two
    // round differently, and this response keeps its rounding.
    v += n * (mass.inverse_mass * jn);
    w += mass.inverse_inertia * arm.cross(&(n * jn));
    let mut impulse = n * jn;

    let slip = v + w.cross(&arm);
    let coupling = |d: &Vec3d, e: &Vec3d| mass.coupling(&arm, d, e);
    if let Some(jt) = coulomb_friction(coupling, &n, &slip, material.friction as f64, jn) {
        mass.apply(&mut v, &mut w, &arm, &jt);
        impulse += jt;
    }
    representable("linear velocity", &v)?;
    representable("angular velocity", &w)?;
    representable("impulse", &impulse)?;
    let spin32: Vec3 = w.map(|x| x as f32);
    let offset = n.dot(&promote(spin32).cross(&arm));
    let linear = reconstruct(v, &n, target, offset);
    representable("linear velocity", &promote(linear))?;
    Ok(Some(TriangleResponse {
        linear_velocity: linear,
        angular_velocity: spin32,
        impulse,
        closing_velocity: un,
        target_velocity: target,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use parapet_math::Mat3d;

    fn material(friction: f32, restitution: f32) -> Material {
        Material {
            friction,
            restitution,
            bounce_threshold: 0.5,
        }
    }

    fn sphere(r: f64) -> ImpactMass {
        // Solid sphere of 1 kg: I = 0.4 r^2.
        ImpactMass {
            inverse_mass: 1.0,
            inverse_inertia: Mat3d::identity() / (0.4 * r * r),
        }
    }

    /// Kinetic energy (J) of a 1 kg body with the isotropic tensor of `b`.
    fn energy(b: &ImpactMass, v: Vec3, w: Vec3) -> f64 {
        let inertia = 1.0 / b.inverse_inertia[(0, 0)];
        0.5 * promote(v).norm_squared() + 0.5 * inertia * promote(w).norm_squared()
    }

    #[test]
    fn restitution_sets_the_rebound_speed_and_the_threshold_makes_it_plastic() {
        let b = sphere(0.1);
        let arm = Vec3d::new(0.0, 0.0, -0.1);
        let n = Vec3d::z();
        let fast = Vec3::new(0.0, 0.0, -10.0);
        let r = respond_body_triangle(&b, fast, Vec3::zeros(), arm, n, &material(0.0, 0.5))
            .unwrap()
            .unwrap();
        assert_eq!(r.linear_velocity, Vec3::new(0.0, 0.0, 5.0));
        let slow = Vec3::new(0.0, 0.0, -0.4);
        let slow = respond_body_triangle(&b, slow, Vec3::zeros(), arm, n, &material(0.0, 0.5))
            .unwrap()
            .unwrap();
        assert_eq!(slow.linear_velocity, Vec3::zeros());
    }

    #[test]
    fn friction_makes_a_sliding_sphere_roll_without_adding_energy() {
        // Enough friction to stop the slip: v_t' = 5/7 v_t, w = v_t'/r
        // (within 1e-5 m/s and 1e-3 rad/s: f32 rounding of 5 and 50).
        let b = sphere(0.1);
        let arm = Vec3d::new(0.0, 0.0, -0.1);
        let v = Vec3::new(7.0, 0.0, -1.0);
        let r = respond_body_triangle(&b, v, Vec3::zeros(), arm, Vec3d::z(), &material(10.0, 0.0))
            .unwrap()
            .unwrap();
        assert!((r.linear_velocity.x - 5.0).abs() < 1e-5);
        assert!((r.angular_velocity.y - 50.0).abs() < 1e-3);
        assert!(energy(&b, r.linear_velocity, r.angular_velocity) <= energy(&b, v, Vec3::zeros()));
    }

    #[test]
    fn no_restitution_in_zero_to_one_adds_energy() {
        // Spinning, sliding impacts on slopes for restitution 0 to 1 and
        // several friction coefficients: the energy never grows beyond the
        // f32 rounding of the stored velocities (relative 1e-6, a few f32
        // ulps of each squared component).
        let b = sphere(0.2);
        for i in 0..40 {
            let a = 0.05 * i as f64;
            let n = Vec3d::new(a.sin() * 0.6, a.cos() * 0.3, 1.0).normalize();
            let arm = -n * 0.2;
            let v = Vec3::new(2.0 - 0.1 * i as f32, 1.0, -3.0);
            let w = Vec3::new(0.5, -4.0 + 0.2 * i as f32, 1.0);
            let e0 = energy(&b, v, w);
            for e in [0.0, 0.25, 0.5, 1.0] {
                for mu in [0.0, 0.2, 1.0] {
                    let Some(r) =
                        respond_body_triangle(&b, v, w, arm, n, &material(mu, e)).unwrap()
                    else {
                        continue;
                    };
                    let e1 = energy(&b, r.linear_velocity, r.angular_velocity);
                    assert!(e1 <= e0 * (1.0 + 1e-6), "{i} e {e} mu {mu}: {e1} > {e0}");
                }
            }
        }
    }

    #[test]
    fn a_receding_or_tangent_contact_takes_no_impulse() {
        let b = sphere(0.1);
        let arm = Vec3d::new(0.0, 0.0, -0.1);
        for v in [Vec3::new(3.0, 0.0, 0.0), Vec3::new(0.0, 0.0, 1.0)] {
            let r =
                respond_body_triangle(&b, v, Vec3::zeros(), arm, Vec3d::z(), &material(0.5, 0.0));
            assert_eq!(r, Ok(None));
        }
    }

    #[test]
    fn an_unrepresentable_velocity_is_refused() {
        // A body with a huge inverse tensor (1e30 1/(kg m²)) struck off
        // centre at 3e38 m/s: K(n, n) = 1 + 0.09e30, j_n = 6e38 / K = 6.7e9 N s,
        // and the spin change 1e30 * 0.3 * j_n = 2e39 rad/s exceeds f32::MAX.
        let b = ImpactMass {
            inverse_mass: 1.0,
            inverse_inertia: Mat3d::identity() * 1.0e30,
        };
        let v = Vec3::new(0.0, 0.0, -3.0e38);
        let arm = Vec3d::new(0.3, 0.0, -0.1);
        let r = respond_body_triangle(&b, v, Vec3::zeros(), arm, Vec3d::z(), &material(0.0, 1.0));
        assert!(
            matches!(r, Err(ImpactError::NotRepresentable { .. })),
            "{r:?}"
        );
    }
}
