//! The impact response of a turning body at one contact point with a static
//! triangle.
//!
//! # Method
//! At the contact (lever arm `a` from the mass centre, unit normal `n` from
//! the triangle towards the body, contact velocity `u = v + ω × a` with
//! `u_n = n · u < 0`), with the coupling `K(d, e)` of `impulse.rs` and
//! `A` the world inverse tensor at the step's start orientation:
//! 1. **Normal impulse** `j_n = (u_n' − u_n) / K(n, n)` with the target
//!    `u_n' = max(b, min(−u_n, s))`: `b = −e u_n` when the closing speed
//!    exceeds the mixed bounce threshold, else `0`, and `s` the caller's
//!    separation speed (a micro-collision: a contact point that the spin
//!    keeps pressing into the surface leaves it at `s = sqrt(2 tol a)`, `a`
//!    its centripetal acceleration, so that it does not sink again by the
//!    tolerance before the next sub-step). Since `0 <= u_n' <= −u_n`, it
//!    changes the energy by `(u_n'² − u_n²) / (2 K(n, n)) <= 0`.
//! 2. **Coulomb friction**: the tangential impulse `−K_t⁻¹ u_t` that stops
//!    the slip, scaled onto the cone `|j_t| <= μ j_n`; it changes the energy
//!    by `−(α − α²/2) u_tᵀ K_t⁻¹ u_t <= 0`.
//! 3. **Re-closing**: on a turning body the friction impulse also changes
//!    the normal contact velocity (`K(t, n) ≠ 0` when the lever arm is not
//!    along the normal). When it closes the contact again (`u_n'' < 0`), a
//!    further normal impulse `−u_n'' / K(n, n)` opens it to zero closing
//!    speed; it changes the energy by `u_n'' j / 2 <= 0`.
//!
//! No step adds kinetic energy (measured with the same tensor `A`), so a
//! reach bound measured at the step's start holds through every impact. The
//! velocities stay in `f64`: the caller keeps them until the end of its
//! step. The impulse is reported, so it is refused here when `f32` cannot
//! hold it (the total and its normal part, which the contact event
//! carries), as the sphere's and the pair's responses refuse theirs.
//!
//! # Source and precision domain
//! Mirtich, "Impulse-based Dynamic Simulation of Rigid Body Systems" (1996),
//! chapter 4; Mirtich and Canny, "Impulse-based Simulation of Rigid Bodies"
//! (1995) for micro-collisions. `f64` from `f32` state; the caller checks
//! that the velocities are finite `f32` values when it stores them.

use parapet_geometry::Material;
use parapet_math::Vec3d;

use super::impulse::{coulomb_friction, normal_target, representable};
use super::{ImpactError, ImpactMass};

/// The result of a turning body's impact.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TurningResponse {
    /// New linear velocity of the mass centre (m/s).
    pub linear_velocity: Vec3d,
    /// New angular velocity (rad/s).
    pub angular_velocity: Vec3d,
    /// The total impulse on the body (N s, world).
    pub impulse: Vec3d,
    /// The total normal impulse (N s, `>= 0`).
    pub normal_impulse: f64,
}

/// The response of a body with `mass` moving at `(velocity, spin)` to a
/// closing contact at lever arm `arm` with unit normal `normal` and the
/// mixed `material` (see the module docs), leaving the contact at least at
/// the separation speed `separation` (m/s) when the closing speed allows it.
/// Returns `Ok(None)` when the contact does not close (`u_n >= 0`) or the
/// normal effective mass is not positive and finite.
///
/// # Errors
/// [`ImpactError::NotRepresentable`] (quantity "impulse") when the total
/// impulse or its normal part has a component beyond `f32`.
pub fn respond_turning_point(
    mass: &ImpactMass,
    velocity: Vec3d,
    spin: Vec3d,
    arm: Vec3d,
    normal: Vec3d,
    material: &Material,
    separation: f64,
) -> Result<Option<TurningResponse>, ImpactError> {
    let n = normal;
    let mut v = velocity;
    let mut w = spin;
    let un = n.dot(&(v + w.cross(&arm)));
    if !(un < 0.0) {
        return Ok(None);
    }
    let kn = mass.coupling(&arm, &n, &n);
    if !(kn > 0.0 && kn.is_finite()) {
        return Ok(None);
    }
    let closing = -un;
    let target = normal_target(closing, material).max(closing.min(separation));
    let mut jn = (target - un) / kn;
    let mut impulse = n * jn;
    mass.apply(&mut v, &mut w, &arm, &(n * jn));

    let slip = v + w.cross(&arm);
    let coupling = |d: &Vec3d, e: &Vec3d| mass.coupling(&arm, d, e);
    if let Some(jt) = coulomb_friction(coupling, &n, &slip, material.friction as f64, jn) {
        mass.apply(&mut v, &mut w, &arm, &jt);
        impulse += jt;
    }
    let un2 = n.dot(&(v + w.cross(&arm)));
    if un2 < 0.0 {
        let extra = -un2 / kn;
        mass.apply(&mut v, &mut w, &arm, &(n * extra));
        impulse += n * extra;
        jn += extra;
    }
    representable("impulse", &impulse)?;
    representable("impulse", &(n * jn))?;
    Ok(Some(TurningResponse {
        linear_velocity: v,
        angular_velocity: w,
        impulse,
        normal_impulse: jn,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use parapet_math::Mat3d;

    fn energy(body: &ImpactMass, v: &Vec3d, w: &Vec3d) -> f64 {
        let inertia = body.inverse_inertia.try_inverse().unwrap();
        0.5 * v.norm_squared() / body.inverse_mass + 0.5 * w.dot(&(inertia * w))
    }

    #[test]
    fn a_struck_rod_end_follows_the_rigid_impulse_formula_and_loses_energy() {
        // A 1 kg rod of length 2 lying along x, falling at 1 m/s, hits with
        // its end (arm (1, 0, 0)); I = 1/3 kg m^2 about y. Plastic,
        // frictionless: K = 1 + 3 = 4, j = 1/4, v_z' = -3/4, w_y' = 3/4
        // (within 1e-15: a few roundings of quarter values).
        let body = ImpactMass {
            inverse_mass: 1.0,
            inverse_inertia: Mat3d::from_diagonal(&Vec3d::new(100.0, 3.0, 3.0)),
        };
        let m = Material {
            friction: 0.0,
            restitution: 0.0,
            bounce_threshold: 0.5,
        };
        let v0 = Vec3d::new(0.0, 0.0, -1.0);
        let arm = Vec3d::new(1.0, 0.0, 0.0);
        let r = respond_turning_point(&body, v0, Vec3d::zeros(), arm, Vec3d::z(), &m, 0.0)
            .unwrap()
            .unwrap();
        assert!((r.normal_impulse - 0.25).abs() < 1e-15);
        assert!((r.linear_velocity.z + 0.75).abs() < 1e-15);
        // The end (x = 1) has zero normal velocity: w x arm along z = -w_y.
        let un = (r.linear_velocity + r.angular_velocity.cross(&Vec3d::x())).z;
        assert!(un.abs() < 1e-15);
        assert!(
            energy(&body, &r.linear_velocity, &r.angular_velocity)
                < energy(&body, &v0, &Vec3d::zeros())
        );
    }

    #[test]
    fn friction_that_recloses_the_contact_is_followed_by_an_opening_impulse() {
        // An arm tilted 45 degrees from the normal: a tangential impulse
        // drives the contact point along the normal too. Tolerances: 1e-12
        // m/s of roundoff on unit-scale velocities, relative 1e-14 on the
        // energy and 1e-12 on the cone scaling.
        let body = ImpactMass {
            inverse_mass: 1.0,
            inverse_inertia: Mat3d::identity() * 6.0,
        };
        let m = Material {
            friction: 1.0,
            restitution: 0.0,
            bounce_threshold: 0.5,
        };
        let arm = Vec3d::new(0.5, 0.0, -0.5);
        for (vx, vz) in [(5.0, -1.5), (-5.0, -1.5), (3.0, -1.2), (-0.4, -3.0)] {
            let v = Vec3d::new(vx, 0.7, vz);
            let w = Vec3d::new(0.3, -2.0, 1.0);
            let e0 = energy(&body, &v, &w);
            let r = respond_turning_point(&body, v, w, arm, Vec3d::z(), &m, 0.05)
                .unwrap()
                .unwrap();
            let u = r.linear_velocity + r.angular_velocity.cross(&arm);
            assert!(u.z >= -1e-12, "{vx} {vz}: re-closed at {}", u.z);
            let e1 = energy(&body, &r.linear_velocity, &r.angular_velocity);
            assert!(e1 <= e0 * (1.0 + 1e-14), "{vx} {vz}: {e1} > {e0}");
            let jt = r.impulse - Vec3d::z() * r.impulse.z;
            assert!(jt.norm() <= m.friction as f64 * r.normal_impulse * (1.0 + 1e-12));
        }
    }

    #[test]
    fn the_separation_speed_is_capped_by_the_closing_speed_and_by_the_bounce() {
        // A sphere (arm along the normal, no coupling to the spin) closing at
        // 0.2 m/s: separation 1 m/s leaves at the closing speed 0.2; a
        // separation of 0.05 m/s leaves at 0.05; restitution 1 above the
        // threshold leaves at the full closing speed. 1 kg, K = 1: within
        // 1e-15 m/s, the roundoff of one subtraction of 0.2 m/s.
        let body = ImpactMass {
            inverse_mass: 1.0,
            inverse_inertia: Mat3d::identity() * 10.0,
        };
        let arm = Vec3d::new(0.0, 0.0, -0.5);
        let plastic = Material {
            friction: 0.0,
            restitution: 0.0,
            bounce_threshold: 0.5,
        };
        let v = Vec3d::new(0.0, 0.0, -0.2);
        let leave = |m: &Material, s: f64| {
            respond_turning_point(&body, v, Vec3d::zeros(), arm, Vec3d::z(), m, s)
                .unwrap()
                .unwrap()
                .linear_velocity
                .z
        };
        assert!((leave(&plastic, 1.0) - 0.2).abs() < 1e-15);
        assert!((leave(&plastic, 0.05) - 0.05).abs() < 1e-15);
        let elastic = Material {
            restitution: 1.0,
            bounce_threshold: 0.1,
            ..plastic
        };
        assert!((leave(&elastic, 0.0) - 0.2).abs() < 1e-15);
    }

    #[test]
    fn an_impulse_beyond_f32_is_refused_and_one_within_it_is_not() {
        // 1e38 kg closing at 30 m/s along the normal (a sphere's arm): the
        // plastic impulse is 3e39 N s, beyond f32; at 1e37 kg it is 3e38.
        let arm = Vec3d::new(0.0, 0.0, -0.5);
        let plastic = Material {
            friction: 0.0,
            restitution: 0.0,
            bounce_threshold: 0.5,
        };
        let v = Vec3d::new(0.0, 0.0, -30.0);
        let respond = |m: f64| {
            let body = ImpactMass {
                inverse_mass: 1.0 / m,
                inverse_inertia: Mat3d::identity() * (10.0 / m),
            };
            respond_turning_point(&body, v, Vec3d::zeros(), arm, Vec3d::z(), &plastic, 0.0)
        };
        assert!(matches!(
            respond(1e38),
            Err(ImpactError::NotRepresentable {
                quantity: "impulse",
                value
            }) if value > f32::MAX as f64
        ));
        let ok = respond(1e37).unwrap().unwrap();
        assert!((ok.normal_impulse - 3e38).abs() < 1e24);
    }
}
