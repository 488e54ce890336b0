//! The impact response of two group members (seed 000 "Moving sphere
//! pairs", "Supported worlds" for kinematic spheres).
//!
//! # Method
//! Unit normal `n` from B's closest axis point towards A's (the direction
//! of the impulse on A), contact point `x`, lever arms `a_A = x - c_A`,
//! `a_B = x - c_B` (for a sphere the arm is its radius along the normal),
//! relative contact velocity `u = (v_A + ω_A × a_A) - (v_B + ω_B × a_B)`,
//! `u_n = n · u < 0` when closing.
//! 1. **Normal impulse** `j_n = (u_n' - u_n) / K_n`, `K_n` the sum of both
//!    bodies' couplings (`1/m + n · ((A (a × n)) × a)`), zero for a kinematic
//!    sphere (infinite mass); `u_n' = -e u_n` above the mixed bounce
//!    threshold, else `0`. The normal response removes
//!    `(1 - e²) u_n² / (2 K_n) >= 0` of kinetic energy.
//! 2. **Coulomb friction** at the contact: the tangential impulse that stops
//!    the slip with the summed 2 x 2 effective mass, scaled onto the cone
//!    `|j_t| <= μ j_n`; any fraction of the stopping impulse removes slip
//!    energy. Each sphere uses its world inverse inertia at its orientation
//!    at the start of the step; capsules cannot turn.
//! 3. **Velocity reconstruction**: both new velocities are rounded to `f32`;
//!    then one dynamic member's component of largest `|n_k|` is recomputed
//!    so that the rounded relative normal velocity is at or just above the
//!    target (`super::response::reconstruct`): a plastic pair impact
//!    cannot leave a closing residue that repeats at zero time.
//!
//! A kinematic sphere takes no impulse. In its frame the impact removes
//! energy, so the dynamic member's speed grows by at most twice the
//! kinematic speed.
//!
//! # Precision domain
//! `f64` from `f32` state; new velocities must be finite `f32`.

use parapet_geometry::Material;
use parapet_math::{promote, Vec3, Vec3d};

use super::error::CcdError;
use super::response::{reconstruct, ResponseBody};

/// One side of a pair impact.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PairSide {
    /// Inverse mass and world inverse inertia (both zero: kinematic).
    pub body: ResponseBody,
    /// Linear velocity (m/s).
    pub velocity: Vec3,
    /// Angular velocity (rad/s).
    pub spin: Vec3,
    /// Lever arm from the mass centre to the contact (m, world).
    pub arm: Vec3d,
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

fn coupling(body: &ResponseBody, arm: &Vec3d, d: &Vec3d, e: &Vec3d) -> f64 {
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
    [t1, n.cross(&t1)]
}

fn contact_velocity(v: &Vec3d, w: &Vec3d, arm: &Vec3d) -> Vec3d {
    v + w.cross(arm)
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

/// Whether a side takes impulses (a dynamic member).
fn dynamic(s: &PairSide) -> bool {
    s.body.inverse_mass > 0.0
}

/// The response of the pair (A, B) at unit normal `normal` (B towards A)
/// with the mixed `material`; `None` when the contact does not close.
/// `index` names A in errors.
///
/// # Errors
/// [`CcdError::NotRepresentable`] when a new velocity or the impulse is not
/// a finite `f32`.
pub fn respond_pair(
    index: usize,
    a: &PairSide,
    b: &PairSide,
    normal: Vec3d,
    material: &Material,
) -> Result<Option<PairResponse>, CcdError> {
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
    let closing = -un;
    let target = if closing > material.bounce_threshold as f64 {
        material.restitution as f64 * closing
    } else {
        0.0
    };
    let k =
        |d: &Vec3d, e: &Vec3d| coupling(&a.body, &a.arm, d, e) + coupling(&b.body, &b.arm, d, e);
    let kn = k(&n, &n);
    if !(kn > 0.0) {
        return Ok(None);
    }
    let jn = (target - un) / kn;
    let apply = |v: &mut Vec3d, w: &mut Vec3d, side: &PairSide, j: Vec3d| {
        *v += j * side.body.inverse_mass;
        *w += side.body.inverse_inertia * side.arm.cross(&j);
    };
    apply(&mut va, &mut wa, a, n * jn);
    apply(&mut vb, &mut wb, b, -n * jn);
    let mut impulse = n * jn;

    let mu = material.friction as f64;
    let u = rel(&va, &wa, &vb, &wb);
    let ut = u - n * n.dot(&u);
    if mu > 0.0 && ut.norm_squared() > 0.0 {
        let t = tangent_basis(&n);
        let km = parapet_math::nalgebra::Matrix2::new(
            k(&t[0], &t[0]),
            k(&t[1], &t[0]),
            k(&t[0], &t[1]),
            k(&t[1], &t[1]),
        );
        let slip = parapet_math::nalgebra::Vector2::new(t[0].dot(&ut), t[1].dot(&ut));
        if let Some(kinv) = km.try_inverse() {
            let mut j = -(kinv * slip);
            let limit = mu * jn;
            let len = j.norm();
            if len > limit {
                j *= limit / len;
            }
            let jt = t[0] * j.x + t[1] * j.y;
            apply(&mut va, &mut wa, a, jt);
            apply(&mut vb, &mut wb, b, -jt);
            impulse += jt;
        }
    }
    for (q, v) in [
        ("linear velocity", &va),
        ("angular velocity", &wa),
        ("linear velocity", &vb),
        ("angular velocity", &wb),
        ("impulse", &impulse),
    ] {
        finite(index, q, v)?;
    }
    let (wa32, wb32): (Vec3, Vec3) = (wa.map(|x| x as f32), wb.map(|x| x as f32));
    let spin_term = |w: Vec3, arm: &Vec3d| n.dot(&promote(w).cross(arm));
    let (mut va32, mut vb32): (Vec3, Vec3) = (va.map(|x| x as f32), vb.map(|x| x as f32));
    if !dynamic(a) {
        va32 = a.velocity;
    }
    if !dynamic(b) {
        vb32 = b.velocity;
    }
    // Reconstruct one dynamic side so that the rounded relative normal
    // velocity is at or above the target (only when plain rounding leaves
    // it below: exact results such as an elastic exchange stay exact).
    let rounded =
        n.dot(&(promote(va32) - promote(vb32))) + spin_term(wa32, &a.arm) - spin_term(wb32, &b.arm);
    if rounded >= target {
        // Plain rounding keeps the contact at or above the target.
    } else if dynamic(a) {
        let offset = spin_term(wa32, &a.arm) - n.dot(&promote(vb32)) - spin_term(wb32, &b.arm);
        va32 = reconstruct(va, &n, target, offset);
    } else if dynamic(b) {
        // (-n) . v_B + (n . u_A - n . (ω_B × a_B)) >= target  <=>  n . u >= target.
        let offset = n.dot(&promote(va32)) + spin_term(wa32, &a.arm) - spin_term(wb32, &b.arm);
        vb32 = reconstruct(vb, &-n, target, offset);
    }
    finite(index, "linear velocity", &promote(va32))?;
    finite(index, "linear velocity", &promote(vb32))?;
    Ok(Some(PairResponse {
        a: (va32, if dynamic(a) { wa32 } else { a.spin }),
        b: (vb32, if dynamic(b) { wb32 } else { b.spin }),
        impulse,
        closing_velocity: un,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use parapet_math::Mat3d;

    fn side(m: f64, r: f64, v: Vec3, arm: Vec3d) -> PairSide {
        PairSide {
            body: ResponseBody {
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
            body: ResponseBody {
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
        let r = respond_pair(0, &a, &b, -Vec3d::x(), &mat(1.0, 0.0))
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
        let r = respond_pair(0, &a, &b, -Vec3d::x(), &mat(0.0, 0.0))
            .unwrap()
            .unwrap();
        // Common velocity 3 / 3 = 1 m/s.
        assert!((r.a.0.x - 1.0).abs() < 1e-6 && (r.b.0.x - 1.0).abs() < 1e-6);
        // Never closing after rounding.
        assert!(r.a.0.x <= r.b.0.x);
    }

    #[test]
    fn a_kinematic_striker_gains_the_target_at_most_twice_its_speed() {
        // Kinematic B at left moving +x at 5 m/s strikes A at rest; n from B to A is +x.
        let a = side(1.0, 0.5, Vec3::zeros(), Vec3d::new(-0.5, 0.0, 0.0));
        let b = kinematic(Vec3::new(5.0, 0.0, 0.0), Vec3d::new(0.5, 0.0, 0.0));
        let r = respond_pair(0, &a, &b, Vec3d::x(), &mat(1.0, 0.5))
            .unwrap()
            .unwrap();
        assert_eq!(r.a.0, Vec3::new(10.0, 0.0, 0.0));
        assert_eq!(r.b.0, Vec3::new(5.0, 0.0, 0.0));
    }
}
