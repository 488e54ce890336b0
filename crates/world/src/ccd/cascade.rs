//! Plastic cascade settling (seed 000 "Moving sphere pairs": a body falling
//! onto a resting stack makes several impacts at one instant).
//!
//! # Method
//! The contacts that touch at one instant (member pairs and member
//! triangles) are solved together as one plastic, frictionless contact
//! problem: find normal impulses `λ >= 0` with post-impulse separating
//! velocities `w = u + A λ >= 0` and `λ_c w_c = 0` for every contact (a
//! linear complementarity problem). `u_c = n_c · (v_a - v_b)` is the
//! contact's normal velocity (`n_c` from b towards a), and
//! `A_cd = Σ_k m_k⁻¹ (s_ck n_c) · (s_dk n_d)` with `s_ck = +1` when body `k`
//! is contact `c`'s `a`, `-1` when it is its `b`. The normals of spheres and
//! of capsules that cannot turn pass through the mass centre (or the body
//! cannot turn), so the impulses are purely linear. A kinematic sphere and
//! a triangle have `m⁻¹ = 0`.
//!
//! The solver tries active sets `S` in one fixed order, fewest contacts
//! first and then by ascending bit mask (deterministic), solves
//! `A_SS λ_S = -u_S` in `f64` by Gaussian elimination with partial
//! pivoting, and accepts the first set whose impulses are non-negative and
//! whose inactive contacts do not close (each within [`SETTLE_RELATIVE_TOLERANCE`]).
//! A singular `A_SS` is skipped. For `C` contacts this is at most `2^C`
//! trials; `C` is at most [`MAX_SETTLED_CONTACTS`].
//!
//! Energy: with complementarity, the change of kinetic energy in the frame
//! where the non-dynamic bodies rest is `λᵀ u + ½ λᵀ A λ = -½ λᵀ A λ <= 0`,
//! so settled impulses cannot add kinetic energy; the caller checks it.
//!
//! # Source and precision domain
//! Seed 000 "Moving sphere pairs"; Cottle, Pang and Stone, "The Linear
//! Complementarity Problem" (1992), enumeration of complementary bases.
//! `f64` from `f32` velocities.

/// The largest number of simultaneous contacts the settling solves (seed
/// 000: "The settling refuses more than ten simultaneous contacts").
pub const MAX_SETTLED_CONTACTS: usize = 10;

/// Relative tolerance (dimensionless, of the largest `|u_c|`, m/s) for the
/// complementarity checks: `λ >= -tol / A_cc`-scale and `w >= -tol`. The
/// `f64` elimination of at most ten contacts loses far less than 1e-9 for
/// the well-conditioned sets it accepts; a set that needs more is not a
/// solution at this arithmetic scale.
pub const SETTLE_RELATIVE_TOLERANCE: f64 = 1.0e-9;

/// A body of the settling problem.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SettleBody {
    /// Inverse mass (1/kg); zero for a kinematic sphere.
    pub inverse_mass: f64,
    /// Linear velocity (m/s).
    pub velocity: parapet_math::Vec3d,
}

/// A contact of the settling problem.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SettleContact {
    /// Body `a` (index into the bodies).
    pub a: usize,
    /// Body `b`, `None` for a static triangle.
    pub b: Option<usize>,
    /// Unit normal from b towards a (the impulse on `a` is `λ n`).
    pub normal: parapet_math::Vec3d,
}

/// Why the settling fails.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SettleFailure {
    /// More than [`MAX_SETTLED_CONTACTS`] contacts.
    TooMany,
    /// No active set gives non-negative impulses that open every contact.
    NoOpening,
}

fn sign(c: &SettleContact, k: usize) -> f64 {
    if c.a == k {
        1.0
    } else if c.b == Some(k) {
        -1.0
    } else {
        0.0
    }
}

/// The normal velocities `u` and the matrix `A` (row-major `C x C`).
pub fn problem(bodies: &[SettleBody], contacts: &[SettleContact]) -> (Vec<f64>, Vec<f64>) {
    let n = contacts.len();
    let u = contacts
        .iter()
        .map(|c| {
            let vb = c.b.map_or(parapet_math::Vec3d::zeros(), |b| bodies[b].velocity);
            c.normal.dot(&(bodies[c.a].velocity - vb))
        })
        .collect();
    let mut a = vec![0.0; n * n];
    for (i, ci) in contacts.iter().enumerate() {
        for (j, cj) in contacts.iter().enumerate() {
            let mut s = 0.0;
            for (k, body) in bodies.iter().enumerate() {
                let (si, sj) = (sign(ci, k), sign(cj, k));
                if si != 0.0 && sj != 0.0 {
                    s += body.inverse_mass * si * sj * ci.normal.dot(&cj.normal);
                }
            }
            a[i * n + j] = s;
        }
    }
    (u, a)
}

/// Solves `m x = r` (size `k`, row-major) by Gaussian elimination with
/// partial pivoting; `None` when a pivot is below `1e-12` of the largest
/// diagonal element (singular at this scale).
fn solve(mut m: Vec<f64>, mut r: Vec<f64>, k: usize) -> Option<Vec<f64>> {
    let scale = (0..k).map(|i| m[i * k + i].abs()).fold(0.0, f64::max);
    if !(scale > 0.0) {
        return None;
    }
    for col in 0..k {
        let p = (col..k).max_by(|&x, &y| m[x * k + col].abs().total_cmp(&m[y * k + col].abs()))?;
        if !(m[p * k + col].abs() > 1.0e-12 * scale) {
            return None;
        }
        if p != col {
            for j in 0..k {
                m.swap(p * k + j, col * k + j);
            }
            r.swap(p, col);
        }
        for row in col + 1..k {
            let f = m[row * k + col] / m[col * k + col];
            for j in col..k {
                m[row * k + j] -= f * m[col * k + j];
            }
            r[row] -= f * r[col];
        }
    }
    let mut x = vec![0.0; k];
    for i in (0..k).rev() {
        let s: f64 = (i + 1..k).map(|j| m[i * k + j] * x[j]).sum();
        x[i] = (r[i] - s) / m[i * k + i];
    }
    x.iter().all(|v| v.is_finite()).then_some(x)
}

/// The active sets of `c` contacts in the fixed trial order: fewer
/// contacts first, then ascending bit mask.
fn trial_order(c: usize) -> Vec<u32> {
    let mut masks: Vec<u32> = (0..1u32 << c).collect();
    masks.sort_by_key(|m| (m.count_ones(), *m));
    masks
}

/// The plastic frictionless impulses `λ` (N s, one per contact), see the
/// module docs.
///
/// # Errors
/// [`SettleFailure::TooMany`] above [`MAX_SETTLED_CONTACTS`];
/// [`SettleFailure::NoOpening`] when no active set solves the problem.
pub fn settle(bodies: &[SettleBody], contacts: &[SettleContact]) -> Result<Vec<f64>, SettleFailure> {
    let c = contacts.len();
    if c > MAX_SETTLED_CONTACTS {
        return Err(SettleFailure::TooMany);
    }
    let (u, a) = problem(bodies, contacts);
    let scale = u.iter().fold(0.0f64, |s, x| s.max(x.abs()));
    let tol = SETTLE_RELATIVE_TOLERANCE * scale;
    for mask in trial_order(c) {
        let set: Vec<usize> = (0..c).filter(|&i| mask >> i & 1 == 1).collect();
        let k = set.len();
        let lambda_s = if k == 0 {
            Vec::new()
        } else {
            let m: Vec<f64> = set
                .iter()
                .flat_map(|&i| set.iter().map(move |&j| (i, j)))
                .map(|(i, j)| a[i * c + j])
                .collect();
            let r: Vec<f64> = set.iter().map(|&i| -u[i]).collect();
            match solve(m, r, k) {
                Some(x) => x,
                None => continue,
            }
        };
        let mut lambda = vec![0.0; c];
        let mut ok = true;
        for (x, &i) in lambda_s.iter().zip(&set) {
            // A negative impulse beyond roundoff (scaled by the diagonal).
            if *x * a[i * c + i] < -tol {
                ok = false;
            }
            lambda[i] = x.max(0.0);
        }
        if !ok {
            continue;
        }
        let opens = (0..c).all(|j| {
            let w = u[j] + (0..c).map(|i| a[j * c + i] * lambda[i]).sum::<f64>();
            w >= -tol
        });
        if opens {
            return Ok(lambda);
        }
    }
    Err(SettleFailure::NoOpening)
}

#[cfg(test)]
mod tests {
    use super::*;
    use parapet_math::Vec3d;

    fn body(m: f64, vz: f64) -> SettleBody {
        SettleBody {
            inverse_mass: 1.0 / m,
            velocity: Vec3d::new(0.0, 0.0, vz),
        }
    }

    #[test]
    fn a_falling_ball_on_a_resting_ball_on_the_floor_stops_all() {
        // Ball 1 rests on the floor, ball 0 falls onto it at 3 m/s.
        let bodies = [body(1.0, -3.0), body(1.0, 0.0)];
        let contacts = [
            SettleContact {
                a: 0,
                b: Some(1),
                normal: Vec3d::z(),
            },
            SettleContact {
                a: 1,
                b: None,
                normal: Vec3d::z(),
            },
        ];
        let l = settle(&bodies, &contacts).unwrap();
        // Everything stops: λ_pair = 3, λ_floor = 3.
        assert!((l[0] - 3.0).abs() < 1e-12 && (l[1] - 3.0).abs() < 1e-12, "{l:?}");
    }

    #[test]
    fn a_kinematic_drive_into_the_floor_has_no_opening_impulse() {
        let bodies = [
            body(1.0, 0.0),
            SettleBody {
                inverse_mass: 0.0,
                velocity: Vec3d::new(0.0, 0.0, -5.0),
            },
        ];
        let contacts = [
            SettleContact {
                a: 0,
                b: Some(1),
                normal: -Vec3d::z(),
            },
            SettleContact {
                a: 0,
                b: None,
                normal: Vec3d::z(),
            },
        ];
        assert_eq!(settle(&bodies, &contacts), Err(SettleFailure::NoOpening));
    }

    #[test]
    fn eleven_contacts_are_refused_and_the_order_is_fixed() {
        let bodies = [body(1.0, 0.0)];
        let contacts = vec![
            SettleContact {
                a: 0,
                b: None,
                normal: Vec3d::z(),
            };
            11
        ];
        assert_eq!(settle(&bodies, &contacts), Err(SettleFailure::TooMany));
        assert_eq!(trial_order(2), vec![0, 1, 2, 3]);
        assert_eq!(trial_order(3)[..4], [0, 1, 2, 4]);
    }
}
