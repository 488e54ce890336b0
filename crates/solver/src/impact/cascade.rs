//! Plastic cascade settling: a body falling onto a resting stack makes
//! several impacts at one instant, solved together.
//!
//! # Method
//! The contacts that touch at one instant (body pairs and body triangles)
//! are solved together as one plastic, frictionless contact problem: find
//! normal impulses `λ >= 0` with post-impulse separating velocities
//! `w = u + A λ >= 0` and `λ_c w_c = 0` for every contact (a linear
//! complementarity problem). `u_c = n_c · (v_a - v_b)` is the contact's
//! normal velocity (`n_c` from b towards a), and
//! `A_cd = Σ_k m_k⁻¹ (s_ck n_c) · (s_dk n_d)` with `s_ck = +1` when body `k`
//! is contact `c`'s `a`, `-1` when it is its `b`. The caller builds the
//! problem only for contacts whose normals pass through the mass centres (or
//! whose bodies cannot turn), so the impulses are purely linear. A kinematic
//! body and a triangle have `m⁻¹ = 0`.
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
//! Cottle, Pang and Stone, "The Linear Complementarity Problem" (1992),
//! enumeration of complementary bases; the user-facing contract is the
//! "Moving groups" section of docs/continuous-collision.md. `f64` from `f32`
//! velocities.

use super::ImpactError;

/// The largest number of simultaneous contacts the settling solves. The
/// enumeration makes up to `2^C` trials for `C` contacts: ten contacts cost
/// at most 1024 eliminations of at most ten unknowns, and a larger set is
/// refused ("Moving groups" in docs/continuous-collision.md).
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
    /// Inverse mass (1/kg); zero for a kinematic body.
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

/// The bodies of contact `c` with their signs (`+1` for `a`, `-1` for
/// `b`), in ascending body order.
fn signed_bodies(c: &SettleContact) -> ([(usize, f64); 2], usize) {
    match c.b {
        None => ([(c.a, 1.0), (0, 0.0)], 1),
        Some(b) if b < c.a => ([(b, -1.0), (c.a, 1.0)], 2),
        Some(b) if b > c.a => ([(c.a, 1.0), (b, -1.0)], 2),
        // A contact of a body with itself counts it as `a` only.
        Some(_) => ([(c.a, 1.0), (0, 0.0)], 1),
    }
}

/// `u_c = n_c · (v_a - v_b)` (m/s).
fn normal_velocity(bodies: &[SettleBody], c: &SettleContact) -> f64 {
    let vb =
        c.b.map_or(parapet_math::Vec3d::zeros(), |b| bodies[b].velocity);
    c.normal.dot(&(bodies[c.a].velocity - vb))
}

/// `A_ij`: the sum, over the bodies that contacts `ci` and `cj` share in
/// ascending body order, of `m_k⁻¹ s_ik s_jk n_i · n_j`.
fn coupling(bodies: &[SettleBody], ci: &SettleContact, cj: &SettleContact) -> f64 {
    let (bi, ni) = signed_bodies(ci);
    let (bj, nj) = signed_bodies(cj);
    let mut s = 0.0;
    for &(k, si) in &bi[..ni] {
        if si == 0.0 {
            continue;
        }
        if let Some(&(_, sj)) = bj[..nj].iter().find(|(kj, _)| *kj == k) {
            if sj != 0.0 {
                s += bodies[k].inverse_mass * si * sj * ci.normal.dot(&cj.normal);
            }
        }
    }
    s
}

/// One active set's system: rows of at most [`MAX_SETTLED_CONTACTS`]
/// entries, of which the first `k` are used.
type Rows = [[f64; MAX_SETTLED_CONTACTS]; MAX_SETTLED_CONTACTS];

/// Solves `m x = r` (size `k`, the first `k` entries of the first `k` rows
/// of `m`) by Gaussian elimination with partial pivoting into `x`; `false`
/// when a pivot is below `1e-12` of the largest diagonal element (singular
/// at this scale) or the solution is not finite. The same operations in
/// the same order as the reference elimination of the tests
/// (`solve_reference`): the same pivot (the last of equal magnitudes), the
/// same row updates, the same back substitution sums, so the same bits.
fn solve(
    m: &mut Rows,
    r: &mut [f64; MAX_SETTLED_CONTACTS],
    k: usize,
    x: &mut [f64; MAX_SETTLED_CONTACTS],
) -> bool {
    let k = k.min(MAX_SETTLED_CONTACTS);
    let scale = (0..k).map(|i| m[i][i].abs()).fold(0.0, f64::max);
    if !(scale > 0.0) {
        return false;
    }
    for col in 0..k {
        // `max_by` keeps the last of equal maxima.
        let mut p = col;
        for row in col + 1..k {
            if m[row][col].abs().total_cmp(&m[p][col].abs()) != std::cmp::Ordering::Less {
                p = row;
            }
        }
        if !(m[p][col].abs() > 1.0e-12 * scale) {
            return false;
        }
        if p != col {
            m.swap(p, col);
            r.swap(p, col);
        }
        let (upper, lower) = m.split_at_mut(col + 1);
        let pivot_row = &upper[col];
        for (row, target) in lower[..k - col - 1].iter_mut().enumerate() {
            let f = target[col] / pivot_row[col];
            for (t, &q) in target[col..k].iter_mut().zip(&pivot_row[col..k]) {
                *t -= f * q;
            }
            r[col + 1 + row] -= f * r[col];
        }
    }
    for i in (0..k).rev() {
        let s: f64 = (i + 1..k).map(|j| m[i][j] * x[j]).sum();
        x[i] = (r[i] - s) / m[i][i];
    }
    x[..k].iter().all(|v| v.is_finite())
}

/// The next larger mask with as many bits set (Gosper's hack); `None`
/// past `limit` bits.
fn next_same_count(mask: u32, limit: u32) -> Option<u32> {
    if mask == 0 {
        return None;
    }
    let low = mask & mask.wrapping_neg();
    let ripple = mask + low;
    // `low` is a power of two: the division of the hack is a shift.
    let next = (((ripple ^ mask) >> 2) >> low.trailing_zeros()) | ripple;
    (next < 1u32 << limit).then_some(next)
}

/// The active sets of `c` contacts in the fixed trial order: fewer
/// contacts first, then ascending bit mask.
fn trial_order(c: usize) -> impl Iterator<Item = u32> {
    let c = c as u32;
    (0..=c).flat_map(move |k| {
        let first = if k == 0 { 0 } else { (1u32 << k) - 1 };
        std::iter::successors(Some(first), move |&m| next_same_count(m, c))
    })
}

/// The plastic frictionless impulses `λ` (N s, one per contact), see the
/// module docs.
///
/// # Errors
/// [`ImpactError::TooManyContacts`] above [`MAX_SETTLED_CONTACTS`];
/// [`ImpactError::NoOpening`] when no active set solves the problem.
pub fn settle(bodies: &[SettleBody], contacts: &[SettleContact]) -> Result<Vec<f64>, ImpactError> {
    let c = contacts.len();
    if c > MAX_SETTLED_CONTACTS {
        return Err(too_many(c));
    }
    // The problem (`u` and `A` of the module docs) in fixed arrays: `A` is symmetric bit for
    // bit (each term's factors commute exactly and the shared bodies are
    // summed in the same ascending order), so each pair is computed once.
    let mut u = [0.0f64; MAX_SETTLED_CONTACTS];
    let mut a: Rows = [[0.0; MAX_SETTLED_CONTACTS]; MAX_SETTLED_CONTACTS];
    for (i, ci) in contacts.iter().enumerate() {
        u[i] = normal_velocity(bodies, ci);
        for (j, cj) in contacts.iter().enumerate().skip(i) {
            let v = coupling(bodies, ci, cj);
            a[i][j] = v;
            a[j][i] = v;
        }
    }
    let u = &u[..c];
    let scale = u.iter().fold(0.0f64, |s, x| s.max(x.abs()));
    let tol = SETTLE_RELATIVE_TOLERANCE * scale;
    // Per contact: the contacts whose impulse opens it (`A_ji > 0`), and the
    // contacts that close beyond the tolerance.
    let mut opened_by = [0u32; MAX_SETTLED_CONTACTS];
    let mut closing = 0u32;
    for (j, (row, uj)) in a.iter().zip(u).enumerate() {
        for (i, &aji) in row[..c].iter().enumerate() {
            if aji > 0.0 {
                opened_by[j] |= 1 << i;
            }
        }
        if *uj < -tol {
            closing |= 1 << j;
        }
    }
    let mut set = [0usize; MAX_SETTLED_CONTACTS];
    let mut m: Rows = [[0.0; MAX_SETTLED_CONTACTS]; MAX_SETTLED_CONTACTS];
    let mut r = [0.0f64; MAX_SETTLED_CONTACTS];
    let mut x = [0.0f64; MAX_SETTLED_CONTACTS];
    'trials: for mask in trial_order(c) {
        // An inactive closing contact that no active contact opens keeps
        // `w_j = u_j + Σ_i A_ji λ_i <= u_j < -tol`: every term is a product
        // of `A_ji <= 0` (or NaN, which fails the test anyway) and a finite
        // `λ_i >= 0` (zero when inactive), a sum of non-positive terms is
        // non-positive in floating point too, and adding it to `u_j` rounds
        // to at most `u_j`. The set fails the opening test below, so it is
        // skipped without solving (the accepted set is unchanged).
        let mut inactive_closing = closing & !mask;
        while inactive_closing != 0 {
            let j = inactive_closing.trailing_zeros() as usize;
            if opened_by[j] & mask == 0 {
                continue 'trials;
            }
            inactive_closing &= inactive_closing - 1;
        }
        let mut k = 0;
        let mut bits = mask;
        while bits != 0 {
            set[k] = bits.trailing_zeros() as usize;
            k += 1;
            bits &= bits - 1;
        }
        if k > 0 {
            for (row, &i) in set[..k].iter().enumerate() {
                for (dst, &j) in m[row][..k].iter_mut().zip(&set[..k]) {
                    *dst = a[i][j];
                }
                r[row] = -u[i];
            }
            if !solve(&mut m, &mut r, k, &mut x) {
                continue;
            }
        }
        let mut lambda = [0.0f64; MAX_SETTLED_CONTACTS];
        let mut ok = true;
        for (xv, &i) in x[..k].iter().zip(&set[..k]) {
            // A negative impulse beyond roundoff (scaled by the diagonal).
            if *xv * a[i][i] < -tol {
                ok = false;
            }
            lambda[i] = xv.max(0.0);
        }
        if !ok {
            continue;
        }
        let opens = a[..c].iter().zip(u).all(|(row, uj)| {
            let w = uj
                + row[..c]
                    .iter()
                    .zip(&lambda[..c])
                    .map(|(x, l)| x * l)
                    .sum::<f64>();
            w >= -tol
        });
        if opens {
            return Ok(lambda[..c].to_vec());
        }
    }
    Err(ImpactError::NoOpening { contacts: c })
}

fn too_many(contacts: usize) -> ImpactError {
    ImpactError::TooManyContacts {
        contacts,
        limit: MAX_SETTLED_CONTACTS,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use parapet_math::Vec3d;
    use proptest::prelude::*;

    /// The settling as first written (a sum over every body for each matrix
    /// entry, the trial order by sorting all masks, fresh vectors per
    /// trial): the oracle of the allocation-free version.
    mod reference {
        #![allow(clippy::neg_cmp_op_on_partial_ord)]
        use super::super::*;

        fn sign_reference(c: &SettleContact, k: usize) -> f64 {
            if c.a == k {
                1.0
            } else if c.b == Some(k) {
                -1.0
            } else {
                0.0
            }
        }

        /// The normal velocities `u` and the matrix `A` (row-major `C x C`).
        fn problem_reference(
            bodies: &[SettleBody],
            contacts: &[SettleContact],
        ) -> (Vec<f64>, Vec<f64>) {
            let n = contacts.len();
            let u = contacts
                .iter()
                .map(|c| {
                    let vb =
                        c.b.map_or(parapet_math::Vec3d::zeros(), |b| bodies[b].velocity);
                    c.normal.dot(&(bodies[c.a].velocity - vb))
                })
                .collect();
            let mut a = vec![0.0; n * n];
            for (i, ci) in contacts.iter().enumerate() {
                for (j, cj) in contacts.iter().enumerate() {
                    let mut s = 0.0;
                    for (k, body) in bodies.iter().enumerate() {
                        let (si, sj) = (sign_reference(ci, k), sign_reference(cj, k));
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
        fn solve_reference(mut m: Vec<f64>, mut r: Vec<f64>, k: usize) -> Option<Vec<f64>> {
            let scale = (0..k).map(|i| m[i * k + i].abs()).fold(0.0, f64::max);
            if !(scale > 0.0) {
                return None;
            }
            for col in 0..k {
                let p = (col..k)
                    .max_by(|&x, &y| m[x * k + col].abs().total_cmp(&m[y * k + col].abs()))?;
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
        fn trial_order_reference(c: usize) -> Vec<u32> {
            let mut masks: Vec<u32> = (0..1u32 << c).collect();
            masks.sort_by_key(|m| (m.count_ones(), *m));
            masks
        }

        /// The plastic frictionless impulses `λ` (N s, one per contact), see the
        /// module docs.
        ///
        /// # Errors
        /// [`ImpactError::TooManyContacts`] above [`MAX_SETTLED_CONTACTS`];
        /// [`ImpactError::NoOpening`] when no active set solves the problem.
        fn settle_reference(
            bodies: &[SettleBody],
            contacts: &[SettleContact],
        ) -> Result<Vec<f64>, ImpactError> {
            let c = contacts.len();
            if c > MAX_SETTLED_CONTACTS {
                return Err(ImpactError::TooManyContacts {
                    contacts: c,
                    limit: MAX_SETTLED_CONTACTS,
                });
            }
            let (u, a) = problem_reference(bodies, contacts);
            let scale = u.iter().fold(0.0f64, |s, x| s.max(x.abs()));
            let tol = SETTLE_RELATIVE_TOLERANCE * scale;
            for mask in trial_order_reference(c) {
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
                    match solve_reference(m, r, k) {
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
            Err(ImpactError::NoOpening { contacts: c })
        }
        pub(super) fn settle_oracle(
            bodies: &[SettleBody],
            contacts: &[SettleContact],
        ) -> Result<Vec<f64>, ImpactError> {
            settle_reference(bodies, contacts)
        }

        pub(super) fn trial_order_oracle(c: usize) -> Vec<u32> {
            trial_order_reference(c)
        }

        pub(super) fn solve_oracle(m: Vec<f64>, r: Vec<f64>, k: usize) -> Option<Vec<f64>> {
            solve_reference(m, r, k)
        }
    }

    /// A random settling problem: up to 6 bodies (some kinematic), up to 12
    /// contacts between them (a body with itself included, which callers
    /// never build) or with the static world, nearly parallel normals
    /// included.
    fn random_problem() -> impl Strategy<Value = (Vec<SettleBody>, Vec<SettleContact>)> {
        (1usize..7).prop_flat_map(|nb| {
            (
                prop::collection::vec(
                    (
                        prop_oneof![3 => 0.2f64..5.0, 1 => Just(0.0)],
                        prop::array::uniform3(-5.0f64..5.0),
                    ),
                    nb,
                ),
                prop::collection::vec(
                    (
                        0..nb,
                        prop_oneof![Just(None), (0..nb).prop_map(Some)],
                        prop::array::uniform3(-1.0f64..1.0),
                        prop_oneof![Just(0.0f64), 0.0f64..1.0],
                    ),
                    0..12,
                ),
            )
                .prop_map(|(bodies, contacts)| {
                    let bodies = bodies
                        .into_iter()
                        .map(|(im, v)| SettleBody {
                            inverse_mass: im,
                            velocity: Vec3d::from(v),
                        })
                        .collect();
                    let contacts = contacts
                        .into_iter()
                        .map(|(a, b, n, blend)| {
                            let n = Vec3d::from(n) * blend + Vec3d::z() * (1.0 - blend);
                            SettleContact {
                                a,
                                b,
                                normal: n.try_normalize(1e-9).unwrap_or(Vec3d::z()),
                            }
                        })
                        .collect();
                    (bodies, contacts)
                })
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(3000))]

        /// The allocation-free settling is the first version bit for bit
        /// (Debug prints every f64 exactly), failures included.
        #[test]
        fn the_settling_is_the_reference_bit_for_bit((bodies, contacts) in random_problem()) {
            prop_assert_eq!(
                format!("{:?}", settle(&bodies, &contacts)),
                format!("{:?}", reference::settle_oracle(&bodies, &contacts))
            );
        }
    }

    /// A random system of size 1 to 10: entries drawn from a few values
    /// (ties between pivot candidates, zeros, exact singularity) or at
    /// random, with rare tiny or huge entries.
    fn random_system() -> impl Strategy<Value = (usize, Vec<f64>, Vec<f64>)> {
        (1usize..=MAX_SETTLED_CONTACTS).prop_flat_map(|k| {
            let entry = prop_oneof![
                3 => -4.0f64..4.0,
                2 => prop::sample::select(vec![0.0, 1.0, -1.0, 2.0, -0.5]),
                1 => prop::sample::select(vec![1.0e-300, -3.0e-14, 1.0e300, f64::MAX]),
            ];
            (
                Just(k),
                prop::collection::vec(entry.clone(), k * k),
                prop::collection::vec(entry, k),
            )
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(3000))]

        /// The elimination on fixed rows is the reference elimination bit
        /// for bit: the same refusals and the same solution bits.
        #[test]
        fn the_solve_is_the_reference_bit_for_bit((k, entries, rhs) in random_system()) {
            let mut m: Rows = [[0.0; MAX_SETTLED_CONTACTS]; MAX_SETTLED_CONTACTS];
            let mut r = [0.0f64; MAX_SETTLED_CONTACTS];
            for i in 0..k {
                m[i][..k].copy_from_slice(&entries[i * k..(i + 1) * k]);
                r[i] = rhs[i];
            }
            let mut x = [0.0f64; MAX_SETTLED_CONTACTS];
            let solved = solve(&mut m, &mut r, k, &mut x);
            let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            let oracle = reference::solve_oracle(entries, rhs, k);
            prop_assert_eq!(solved.then(|| bits(&x[..k])), oracle.map(|x| bits(&x)));
        }
    }

    #[test]
    fn the_trial_order_is_the_sorted_one() {
        for c in 0..=MAX_SETTLED_CONTACTS {
            assert_eq!(
                trial_order(c).collect::<Vec<_>>(),
                reference::trial_order_oracle(c),
                "{c} contacts"
            );
        }
    }

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
        assert!(
            (l[0] - 3.0).abs() < 1e-12 && (l[1] - 3.0).abs() < 1e-12,
            "{l:?}"
        );
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
        assert_eq!(
            settle(&bodies, &contacts),
            Err(ImpactError::NoOpening { contacts: 2 })
        );
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
        assert_eq!(
            settle(&bodies, &contacts),
            Err(ImpactError::TooManyContacts {
                contacts: 11,
                limit: MAX_SETTLED_CONTACTS
            })
        );
        assert_eq!(trial_order(2).collect::<Vec<_>>(), vec![0, 1, 2, 3]);
        assert_eq!(trial_order(3).take(4).collect::<Vec<_>>(), [0, 1, 2, 4]);
    }
}
