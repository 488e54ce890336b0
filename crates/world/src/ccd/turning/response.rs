//! The impact response of a turning body at one contact point with a static
//! triangle (seed 000 "Turning bodies").
//!
//! # Method
//! At the contact (lever arm `a` from the mass centre, unit normal `n` from
//! the triangle towards the body, contact velocity `u = v + ω × a` with
//! `u_n = n · u < 0`), with `K(d, e) = e · (d / m + (A (a × d)) × a)` the
//! velocity change along `e` per unit impulse along `d` and `A` the world
//! inverse tensor at the step's start orientation:
//! 1. **Normal impulse** `j_n = (u_n' − u_n) / K(n, n)` with the target
//!    `u_n' = max(b, min(−u_n, s))`: `b = −e u_n` when the closing speed
//!    exceeds the mixed bounce threshold, else `0`, and `s` the caller's
//!    separation speed (a micro-collision: a contact point that the spin
//!    keeps pressing into the surface leaves it at `s = sqrt(2 tol a)`, `a`
//!    its centripetal acceleration, so that it does not sink again by the
//!    tolerance before the next sub-step; see `turning.rs`). Since
//!    `0 <= u_n' <= −u_n`, it changes the energy by
//!    `(u_n'² − u_n²) / (2 K(n, n)) <= 0`.
//! 2. **Coulomb friction**: the tangential impulse `−K_t⁻¹ u_t` that stops
//!    the slip (2 x 2 tangential block of the effective mass), scaled onto the
//!    cone `|j_t| <= μ j_n`. Any `−α K_t⁻¹ u_t`, `0 <= α <= 1`, changes the
//!    energy by `−(α − α²/2) u_tᵀ K_t⁻¹ u_t <= 0`.
//! 3. **Re-closing**: on a turning body the friction impulse also changes
//!    the normal contact velocity (`K(t, n) ≠ 0` when the lever arm is not
//!    along the normal). When it closes the contact again (`u_n'' < 0`), a
//!    further normal impulse `−u_n'' / K(n, n)` opens it to zero closing
//!    speed; it changes the energy by `u_n'' j / 2 <= 0`.
//!
//! No step adds kinetic energy (measured with the same tensor `A`), so the
//! reach bound measured at the step's start holds through every impact. The
//! velocities stay in `f64` until the end of the step.
//!
//! # Precision domain
//! `f64` from `f32` state; the caller checks that the results are finite
//! `f32` values when it stores them.

use parapet_geometry::Material;
use parapet_math::nalgebra::{Matrix2, Vector2};
use parapet_math::{Mat3d, Vec3d};

/// The body's dynamic properties used by the response.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TurningMass {
    /// Inverse mass (1/kg).
    pub inverse_mass: f64,
    /// World inverse inertia tensor at the step's start orientation
    /// (1/(kg m²)); zero for a capsule that cannot turn.
    pub inverse_inertia: Mat3d,
}

/// The result of one impact.
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

fn coupling(body: &TurningMass, arm: &Vec3d, d: &Vec3d, e: &Vec3d) -> f64 {
    let spin = body.inverse_inertia * arm.cross(d);
    body.inverse_mass * d.dot(e) + spin.cross(arm).dot(e)
}

fn tangent_basis(n: &Vec3d) -> [Vec3d; 2] {
    let helper = if n.x.abs() < 0.57 {
        Vec3d::x()
    } else if n.y.abs() < 0.57 {
        Vec3d::y()
    } else {
        Vec3d::z()
    };
    let t1 = n.cross(&helper).normalize();
    let t2 = n.cross(&t1);
    [t1, t2]
}

/// Applies the impulse `j` at `arm` to `(v, ω)`.
fn apply(body: &TurningMass, v: &mut Vec3d, w: &mut Vec3d, arm: &Vec3d, j: &Vec3d) {
    *v += j * body.inverse_mass;
    *w += body.inverse_inertia * arm.cross(j);
}

/// The response of a body moving at `(velocity, spin)` to a closing contact
/// at lever arm `arm` with unit normal `normal` and the mixed `material`
/// (see the module docs), leaving the contact at least at the separation
/// speed `separation` (m/s) when the closing speed allows it. Returns `None`
/// when the contact does not close (`u_n >= 0`) or the normal effective mass
/// is not positive.
pub fn respond_turning(
    body: &TurningMass,
    velocity: Vec3d,
    spin: Vec3d,
    arm: Vec3d,
    normal: Vec3d,
    material: &Material,
    separation: f64,
) -> Option<TurningResponse> {
    let n = normal;
    let mut v = velocity;
    let mut w = spin;
    let un = n.dot(&(v + w.cross(&arm)));
    if !(un < 0.0) {
        return None;
    }
    let kn = coupling(body, &arm, &n, &n);
    if !(kn > 0.0 && kn.is_finite()) {
        return None;
    }
    let closing = -un;
    let bounce = if closing > material.bounce_threshold as f64 {
        material.restitution as f64 * closing
    } else {
        0.0
    };
    let target = bounce.max(closing.min(separation));
    let mut jn = (target - un) / kn;
    let mut impulse = n * jn;
    apply(body, &mut v, &mut w, &arm, &(n * jn));

    let mu = material.friction as f64;
    let u = v + w.cross(&arm);
    let ut = u - n * n.dot(&u);
    if mu > 0.0 && ut.norm_squared() > 0.0 {
        let t = tangent_basis(&n);
        let k = Matrix2::new(
            coupling(body, &arm, &t[0], &t[0]),
            coupling(body, &arm, &t[1], &t[0]),
            coupling(body, &arm, &t[0], &t[1]),
            coupling(body, &arm, &t[1], &t[1]),
        );
        let slip = Vector2::new(t[0].dot(&ut), t[1].dot(&ut));
        if let Some(kinv) = k.try_inverse() {
            let mut j = -(kinv * slip);
            let limit = mu * jn;
            let len = j.norm();
            if len > limit {
                j *= limit / len;
            }
            let jt = t[0] * j.x + t[1] * j.y;
            apply(body, &mut v, &mut w, &arm, &jt);
            impulse += jt;
        }
    }
    let un2 = n.dot(&(v + w.cross(&arm)));
    if un2 < 0.0 {
        let extra = -un2 / kn;
        apply(body, &mut v, &mut w, &arm, &(n * extra));
        impulse += n * extra;
        jn += extra;
    }
    Some(TurningResponse {
        linear_velocity: v,
        angular_velocity: w,
        impulse,
        normal_impulse: jn,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn energy(body: &TurningMass, v: &Vec3d, w: &Vec3d) -> f64 {
        let inertia = body.inverse_inertia.try_inverse().unwrap();
        0.5 * v.norm_squared() / body.inverse_mass + 0.5 * w.dot(&(inertia * w))
    }

    #[test]
    fn a_struck_rod_end_follows_the_rigid_impulse_formula_and_loses_energy() {
        // A 1 kg rod of length 2 lying along x, falling at 1 m/s, hits with
        // its end (arm (1, 0, 0)); I = 1/3 kg m^2 about y. Plastic,
        // frictionless: K = 1 + 3 = 4, j = 1/4, v_z' = -3/4, w_y' = 3/4.
        let body = TurningMass {
            inverse_mass: 1.0,
            inverse_inertia: Mat3d::from_diagonal(&Vec3d::new(100.0, 3.0, 3.0)),
        };
        let m = Material {
            friction: 0.0,
            restitution: 0.0,
            bounce_threshold: 0.5,
        };
        let r = respond_turning(
            &body,
            Vec3d::new(0.0, 0.0, -1.0),
            Vec3d::zeros(),
            Vec3d::new(1.0, 0.0, 0.0),
            Vec3d::z(),
            &m,
            0.0,
        )
        .unwrap();
        assert!((r.normal_impulse - 0.25).abs() < 1e-15);
        assert!((r.linear_velocity.z + 0.75).abs() < 1e-15);
        // The end (x = 1) has zero normal velocity: w x arm along z = -w_y.
        let un = (r.linear_velocity + r.angular_velocity.cross(&Vec3d::x())).z;
        assert!(un.abs() < 1e-15);
    }

    #[test]
    fn friction_that_recloses_the_contact_is_followed_by_an_opening_impulse() {
        // An arm tilted 45 degrees from the normal: a tangential impulse
        // drives the contact point along the normal too.
        let body = TurningMass {
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
            let r = respond_turning(&body, v, w, arm, Vec3d::z(), &m, 0.05).unwrap();
            let u = r.linear_velocity + r.angular_velocity.cross(&arm);
            assert!(u.z >= -1e-12, "{vx} {vz}: re-closed at {}", u.z);
            let e1 = energy(&body, &r.linear_velocity, &r.angular_velocity);
            assert!(e1 <= e0 * (1.0 + 1e-14), "{vx} {vz}: {e1} > {e0}");
            let jt = r.impulse - Vec3d::z() * r.impulse.z;
            assert!(jt.norm() <= m.friction as f64 * r.normal_impulse * (1.0 + 1e-12));
        }
    }
}
