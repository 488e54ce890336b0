//! The impact response of a body alone against a static triangle (seed 000
//! "Step and contact behavior", "Precision and refusal limits").
//!
//! # Method
//! At the contact point (lever arm `a` from the mass centre, unit normal `n`
//! from the triangle towards the body, relative velocity `u = v + ω × a`
//! with `u_n = n · u < 0`):
//! 1. **Normal impulse** `j_n = (u_n' - u_n) / K_n` with
//!    `K_n = 1/m + n · ((A (a × n)) × a)` and the target
//!    `u_n' = -e u_n` when the closing speed `-u_n` exceeds the mixed bounce
//!    threshold, else `0` (plastic).
//! 2. **Coulomb friction**: the tangential impulse that stops the slip,
//!    `j_t = -K_t⁻¹ u_t` in a tangent basis (2 x 2 effective mass), scaled
//!    onto the cone `|j_t| <= μ j_n` when it lies outside. Any impulse
//!    `-α K_t⁻¹ u_t` with `0 <= α <= 1` removes slip energy
//!    (`ΔE = -(α - α²/2) u_tᵀ K_t⁻¹ u_t <= 0`), and the normal response with
//!    `e` in `[0, 1]` removes `(1 - e²) u_n² / (2 K_n) >= 0`: the ideal
//!    response never adds kinetic energy.
//! 3. **Velocity reconstruction**: the new velocity is rounded to `f32`,
//!    then the component with the largest normal component is recomputed so
//!    that `n · u'` equals the target within dot-product roundoff of the
//!    final operands, choosing the `f32` neighbour that leaves the contact
//!    at or above the target (never closing): an almost axial impact that
//!    cancels most of the incoming speed then cannot leave a projection
//!    residue that triggers repeated zero-time impacts.
//!
//! `A` is the world inverse tensor at the step's start orientation (the one
//! the reach bound measured), zero for bodies that cannot turn.
//!
//! # Precision domain
//! `f64` throughout from `f32` state; new velocities must be finite `f32`.

use parapet_geometry::Material;
use parapet_math::{promote, Mat3d, Vec3, Vec3d};

use super::error::CcdError;

/// The body's dynamic properties used by the response.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ResponseBody {
    /// Inverse mass (1/kg), positive.
    pub inverse_mass: f64,
    /// World inverse inertia tensor at the step's start orientation
    /// (1/(kg m²)); zero for a body that cannot turn.
    pub inverse_inertia: Mat3d,
}

/// The result of one impact response.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Response {
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

/// A unit tangent basis of the plane orthogonal to the unit vector `n`.
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

/// The velocity change at the contact per unit impulse along `d`, projected on `e`.
fn coupling(body: &ResponseBody, arm: &Vec3d, d: &Vec3d, e: &Vec3d) -> f64 {
    let spin = body.inverse_inertia * arm.cross(d);
    body.inverse_mass * d.dot(e) + spin.cross(arm).dot(e)
}

/// Rounds `v` to `f32` and recomputes its component of largest `|n_k|` so
/// that `n · v + offset` is at or just above `target` (see the module docs).
pub(crate) fn reconstruct(v: Vec3d, n: &Vec3d, target: f64, offset: f64) -> Vec3 {
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
    for cand in [c.next_down(), c, c.next_up()] {
        let d = dot(cand);
        if d >= target && best.is_none_or(|(b, _)| d < b) {
            best = Some((d, cand));
        }
    }
    out[k] = best.map_or(c, |(_, vk)| vk);
    out
}

fn finite(body: usize, quantity: &'static str, v: &Vec3d) -> Result<(), CcdError> {
    match v
        .iter()
        .find(|x| !(x.is_finite() && x.abs() <= f32::MAX as f64))
    {
        Some(&value) => Err(CcdError::NotRepresentable {
            body,
            quantity,
            value,
        }),
        None => Ok(()),
    }
}

/// The response of a body with velocity `velocity` and spin `spin` at a
/// contact with lever arm `arm` (world, from the mass centre) and unit
/// normal `normal` (from the triangle towards the body), with the mixed
/// `material`. Returns `None` when the contact does not close
/// (`u_n >= 0`): exact tangency takes no impulse.
///
/// # Errors
/// [`CcdError::NotRepresentable`] when a new velocity or the impulse is not
/// a finite `f32`.
pub fn respond(
    index: usize,
    body: &ResponseBody,
    velocity: Vec3,
    spin: Vec3,
    arm: Vec3d,
    normal: Vec3d,
    material: &Material,
) -> Result<Option<Response>, CcdError> {
    let n = normal;
    let mut v = promote(velocity);
    let mut w = promote(spin);
    let u = v + w.cross(&arm);
    let un = n.dot(&u);
    if !(un < 0.0) {
        return Ok(None);
    }
    let closing = -un;
    let target = if closing > material.bounce_threshold as f64 {
        material.restitution as f64 * closing
    } else {
        0.0
    };
    let kn = coupling(body, &arm, &n, &n);
    let jn = (target - un) / kn;
    v += n * (body.inverse_mass * jn);
    w += body.inverse_inertia * arm.cross(&(n * jn));
    let mut impulse = n * jn;

    let mu = material.friction as f64;
    let u = v + w.cross(&arm);
    let ut = u - n * n.dot(&u);
    if mu > 0.0 && ut.norm_squared() > 0.0 {
        let t = tangent_basis(&n);
        let k = parapet_math::nalgebra::Matrix2::new(
            coupling(body, &arm, &t[0], &t[0]),
            coupling(body, &arm, &t[1], &t[0]),
            coupling(body, &arm, &t[0], &t[1]),
            coupling(body, &arm, &t[1], &t[1]),
        );
        let slip = parapet_math::nalgebra::Vector2::new(t[0].dot(&ut), t[1].dot(&ut));
        if let Some(kinv) = k.try_inverse() {
            let mut j = -(kinv * slip);
            let limit = mu * jn;
            let len = j.norm();
            if len > limit {
                j *= limit / len;
            }
            let jt = t[0] * j.x + t[1] * j.y;
            v += jt * body.inverse_mass;
            w += body.inverse_inertia * arm.cross(&jt);
            impulse += jt;
        }
    }
    finite(index, "linear velocity", &v)?;
    finite(index, "angular velocity", &w)?;
    finite(index, "impulse", &impulse)?;
    let spin32: Vec3 = w.map(|x| x as f32);
    let offset = n.dot(&promote(spin32).cross(&arm));
    let linear = reconstruct(v, &n, target, offset);
    finite(index, "linear velocity", &promote(linear))?;
    Ok(Some(Response {
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

    fn material(friction: f32, restitution: f32) -> Material {
        Material {
            friction,
            restitution,
            bounce_threshold: 0.5,
        }
    }

    fn sphere(r: f64) -> ResponseBody {
        // Solid sphere of 1 kg: I = 0.4 r^2.
        ResponseBody {
            inverse_mass: 1.0,
            inverse_inertia: Mat3d::identity() / (0.4 * r * r),
        }
    }

    #[test]
    fn restitution_sets_the_rebound_speed_and_the_threshold_makes_it_plastic() {
        let b = sphere(0.1);
        let arm = Vec3d::new(0.0, 0.0, -0.1);
        let n = Vec3d::z();
        let r = respond(
            0,
            &b,
            Vec3::new(0.0, 0.0, -10.0),
            Vec3::zeros(),
            arm,
            n,
            &material(0.0, 0.5),
        )
        .unwrap()
        .unwrap();
        assert_eq!(r.linear_velocity, Vec3::new(0.0, 0.0, 5.0));
        let slow = respond(
            0,
            &b,
            Vec3::new(0.0, 0.0, -0.4),
            Vec3::zeros(),
            arm,
            n,
            &material(0.0, 0.5),
        )
        .unwrap()
        .unwrap();
        assert_eq!(slow.linear_velocity, Vec3::zeros());
    }

    #[test]
    fn friction_makes_a_sliding_sphere_roll_without_adding_energy() {
        // Enough friction to stop the slip: v_t' = 5/7 v_t, w = v_t'/r.
        let b = sphere(0.1);
        let arm = Vec3d::new(0.0, 0.0, -0.1);
        let r = respond(
            0,
            &b,
            Vec3::new(7.0, 0.0, -1.0),
            Vec3::zeros(),
            arm,
            Vec3d::z(),
            &material(10.0, 0.0),
        )
        .unwrap()
        .unwrap();
        assert!((r.linear_velocity.x - 5.0).abs() < 1e-5);
        assert!((r.angular_velocity.y - 50.0).abs() < 1e-3);
        let e0 = 0.5 * 50.0;
        let v = promote(r.linear_velocity);
        let w = promote(r.angular_velocity);
        let e1 = 0.5 * v.norm_squared() + 0.5 * 0.004 * w.norm_squared();
        assert!(e1 <= e0);
    }

    #[test]
    fn a_receding_or_tangent_contact_takes_no_impulse() {
        let b = sphere(0.1);
        let arm = Vec3d::new(0.0, 0.0, -0.1);
        for v in [Vec3::new(3.0, 0.0, 0.0), Vec3::new(0.0, 0.0, 1.0)] {
            assert!(respond(
                0,
                &b,
                v,
                Vec3::zeros(),
                arm,
                Vec3d::z(),
                &material(0.5, 0.0)
            )
            .unwrap()
            .is_none());
        }
    }

    #[test]
    fn reconstruction_never_leaves_a_closing_residue_on_a_slope() {
        // Plastic impacts on many slopes: the reconstructed normal velocity
        // is at or above zero and within a few f32 ulps of it.
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
