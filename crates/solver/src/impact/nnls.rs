//! Plastic projection of a body's velocity onto its contact constraints:
//! the non-negative impulses `λ` that leave no contact closing, by the
//! active-set method of Lawson and Hanson in Gram form.
//!
//! # Method
//! For contact rows with pre-impulse normal velocities `u` and the coupling
//! matrix `K` (`K_ij` the normal velocity change of row `i` per unit normal
//! impulse at row `j`, symmetric positive semi-definite: `K = Gᵀ G` for the
//! rows' generalized directions `g_i` in mass-weighted velocity space), the
//! plastic impulses solve the linear complementarity problem
//! `w = u + K λ >= 0`, `λ >= 0`, `λᵀ w = 0`. It is the optimality condition
//! of the least-squares problem `min ‖y₀ + G λ‖²` over `λ >= 0` (`y₀` the
//! mass-weighted velocity, so `½ ‖y₀ + G λ‖²` is the kinetic energy after
//! the impulses in the frame where the surfaces rest), which Lawson and
//! Hanson's NNLS algorithm solves with a passive set `P` of at most `rank K`
//! rows:
//!
//! 1. `λ = 0`; the dual `d = −(u + K λ)` (the closing speed of each row).
//! 2. While some row outside `P` closes faster than the stopping tolerance,
//!    the fastest (lowest index among equals) joins `P`.
//! 3. Inner loop: solve `K_PP z = −u_P` (Gaussian elimination with partial
//!    pivoting); if every `z_P` is positive, `λ = z`; otherwise move from
//!    `λ` towards `z` until the first passive impulse reaches zero, drop the
//!    rows at zero from `P` and solve again.
//!
//! Each iterate is feasible (`λ >= 0`) and lowers `‖y₀ + G λ‖²`, so every
//! iterate, including one cut short by the iteration cap, never adds kinetic
//! energy; in exact arithmetic the method ends after finitely many steps
//! (Lawson and Hanson, Theorem 23.10). A row whose column depends on the
//! passive rows' (a fourth corner of a box landing flat) has a zero dual
//! there in exact arithmetic and does not join; one that makes `K_PP`
//! singular at this scale (a pivot below [`PIVOT_RELATIVE`] of the largest
//! diagonal element) is set aside for the rest of the outer iteration.
//!
//! # Source and precision domain
//! Lawson and Hanson, *Solving Least Squares Problems* (Prentice-Hall 1974;
//! SIAM 1995), chapter 23, algorithm NNLS; the plastic impact as a
//! projection: Moreau, "Unilateral contact and dry friction in finite
//! freedom dynamics" (1988). `f64`; the stopping tolerance is the caller's
//! (a relative `1e-10` of the largest closing speed in the manifold
//! response), far above the elimination's rounding for the at most six
//! independent rows of one rigid body.

/// A pivot smaller than this fraction (dimensionless) of the largest
/// diagonal element of `K_PP` makes the passive set singular at `f64`
/// scale: `1e-12`, the cascade settling's value; dependent rows of one rigid
/// body (coplanar corners) give pivots at rounding level (`1e-16`).
pub(crate) const PIVOT_RELATIVE: f64 = 1.0e-12;

/// Outer iterations (count) per row of the problem before the method stops
/// with its current (feasible, energy-lowering) iterate: 3, Lawson and
/// Hanson's own cap (`3 n`).
const ITERATIONS_PER_ROW: usize = 3;

/// Solves `k x = r` for the rows/columns `set` of the `n x n` row-major
/// matrix `k` into `x` (indexed like `set`); `false` when a pivot falls
/// below [`PIVOT_RELATIVE`] of the largest diagonal element or the solution
/// is not finite.
fn solve_subset(k: &[f64], n: usize, set: &[usize], r: &[f64], x: &mut [f64]) -> bool {
    let m = set.len();
    let mut a: Vec<f64> = Vec::with_capacity(m * m);
    for &i in set {
        for &j in set {
            a.push(k[i * n + j]);
        }
    }
    let mut b: Vec<f64> = set.iter().map(|&i| r[i]).collect();
    let scale = (0..m).map(|i| a[i * m + i].abs()).fold(0.0, f64::max);
    if !(scale > 0.0 && scale.is_finite()) {
        return false;
    }
    for col in 0..m {
        let mut p = col;
        for row in col + 1..m {
            if a[row * m + col].abs() > a[p * m + col].abs() {
                p = row;
            }
        }
        if !(a[p * m + col].abs() > PIVOT_RELATIVE * scale) {
            return false;
        }
        if p != col {
            for j in 0..m {
                a.swap(p * m + j, col * m + j);
            }
            b.swap(p, col);
        }
        for row in col + 1..m {
            let f = a[row * m + col] / a[col * m + col];
            for j in col..m {
                a[row * m + j] -= f * a[col * m + j];
            }
            b[row] -= f * b[col];
        }
    }
    for i in (0..m).rev() {
        let s: f64 = (i + 1..m).map(|j| a[i * m + j] * x[j]).sum();
        x[i] = (b[i] - s) / a[i * m + i];
    }
    x[..m].iter().all(|v| v.is_finite())
}

/// The dual `d = −(u + K λ)` (m/s: the closing speed of each row).
fn dual(k: &[f64], u: &[f64], lambda: &[f64], d: &mut [f64]) {
    let n = u.len();
    for i in 0..n {
        let s: f64 = (0..n).map(|j| k[i * n + j] * lambda[j]).sum();
        d[i] = -(u[i] + s);
    }
}

/// The plastic impulses `λ >= 0` (one per row) for normal velocities `u`
/// (m/s) and the `n x n` row-major coupling `k` (m/s per N s), stopping
/// when no row closes faster than `tolerance` (m/s, `> 0`); see the module
/// docs. Rows that never close and are never driven closed keep `λ = 0`.
pub(crate) fn plastic_impulses(k: &[f64], u: &[f64], tolerance: f64) -> Vec<f64> {
    let n = u.len();
    debug_assert_eq!(k.len(), n * n);
    let mut lambda = vec![0.0f64; n];
    let mut d = vec![0.0f64; n];
    let mut passive: Vec<usize> = Vec::with_capacity(n.min(8));
    let mut z = vec![0.0f64; n];
    let mut set_aside = vec![false; n];
    let rhs: Vec<f64> = u.iter().map(|x| -x).collect();
    dual(k, u, &lambda, &mut d);
    for _ in 0..ITERATIONS_PER_ROW * n.max(1) {
        let mut best: Option<usize> = None;
        for i in 0..n {
            if passive.contains(&i) || set_aside[i] || !(d[i] > tolerance) {
                continue;
            }
            if best.is_none_or(|b| d[i] > d[b]) {
                best = Some(i);
            }
        }
        let Some(j) = best else {
            break;
        };
        let (kept_lambda, kept_passive) = (lambda.clone(), passive.clone());
        passive.push(j);
        passive.sort_unstable();
        // Inner loop: at least one row leaves the passive set per pass that
        // does not end it, so it ends within the passive set's size.
        let mut joined = false;
        for _ in 0..=n {
            if !solve_subset(k, n, &passive, &rhs, &mut z) {
                break;
            }
            if z[..passive.len()].iter().all(|&x| x > 0.0) {
                for (slot, &i) in passive.iter().enumerate() {
                    lambda[i] = z[slot];
                }
                // `j` left again at once (rounding): no progress with it.
                joined = passive.contains(&j);
                break;
            }
            // The step towards z stops where the first passive impulse
            // reaches zero; that row (the first in passive order among
            // equals) leaves exactly, whatever the rounding of the step.
            let mut alpha = 1.0f64;
            let mut leaving = None;
            for (slot, &i) in passive.iter().enumerate() {
                if z[slot] <= 0.0 {
                    let a = lambda[i] / (lambda[i] - z[slot]);
                    if leaving.is_none() || a < alpha {
                        alpha = a.clamp(0.0, 1.0);
                        leaving = Some(i);
                    }
                }
            }
            for (slot, &i) in passive.iter().enumerate() {
                lambda[i] += alpha * (z[slot] - lambda[i]);
            }
            if let Some(i) = leaving {
                lambda[i] = 0.0;
            }
            passive.retain(|&i| {
                if lambda[i] > 0.0 {
                    true
                } else {
                    lambda[i] = 0.0;
                    false
                }
            });
        }
        if joined {
            // A row set aside may join once the passive set has changed.
            set_aside.iter_mut().for_each(|s| *s = false);
        } else {
            // Singular at this scale, or `j` left at once: back to the
            // iterate before `j` (the same or a lower energy).
            lambda = kept_lambda;
            passive = kept_passive;
            set_aside[j] = true;
        }
        dual(k, u, &lambda, &mut d);
    }
    lambda
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A deterministic generator for the tests.
    struct Lcg(u64);

    impl Lcg {
        fn next(&mut self) -> f64 {
            self.0 = self
                .0
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (self.0 >> 11) as f64 / (1u64 << 53) as f64
        }
    }

    fn gram(g: &[Vec<f64>]) -> Vec<f64> {
        let n = g.len();
        let mut k = vec![0.0; n * n];
        for i in 0..n {
            for j in 0..n {
                k[i * n + j] = g[i].iter().zip(&g[j]).map(|(a, b)| a * b).sum();
            }
        }
        k
    }

    #[test]
    fn random_problems_end_complementary_and_lower_the_energy() {
        // Random rows in a 6-dimensional velocity space (up to 12 rows, so
        // many dependent): w = u + K λ >= -tol, λ >= 0, λ_i w_i = 0 up to
        // the tolerance, and ‖y0 + G λ‖ <= ‖y0‖. Tolerance 1e-10 of the
        // largest |u|, as the manifold response uses; the energy within
        // 1e-12 relative (a few roundings of the sums).
        let mut rng = Lcg(7);
        for case in 0..3000 {
            let n = 1 + (rng.next() * 12.0) as usize;
            let g: Vec<Vec<f64>> = (0..n)
                .map(|_| (0..6).map(|_| rng.next() * 2.0 - 1.0).collect())
                .collect();
            let y0: Vec<f64> = (0..6).map(|_| (rng.next() * 2.0 - 1.0) * 5.0).collect();
            let u: Vec<f64> = g
                .iter()
                .map(|gi| gi.iter().zip(&y0).map(|(a, b)| a * b).sum())
                .collect();
            let k = gram(&g);
            let scale = u.iter().fold(0.0f64, |m, x| m.max(x.abs()));
            let tol = 1e-10 * scale.max(1e-300);
            let lambda = plastic_impulses(&k, &u, tol);
            let mut y = y0.clone();
            for (gi, li) in g.iter().zip(&lambda) {
                assert!(*li >= 0.0, "case {case}");
                for (yk, gk) in y.iter_mut().zip(gi) {
                    *yk += gk * li;
                }
            }
            for (i, gi) in g.iter().enumerate() {
                let w: f64 = gi.iter().zip(&y).map(|(a, b)| a * b).sum();
                assert!(w >= -2.0 * tol, "case {case} row {i}: w {w}");
                if lambda[i] > 0.0 {
                    assert!(w.abs() <= 1e-8 * scale.max(1.0), "case {case} row {i}: {w}");
                }
            }
            let e0: f64 = y0.iter().map(|x| x * x).sum();
            let e1: f64 = y.iter().map(|x| x * x).sum();
            assert!(e1 <= e0 * (1.0 + 1e-12), "case {case}: {e1} > {e0}");
        }
    }

    #[test]
    fn four_coplanar_corners_landing_flat_stop_the_fall_without_spin() {
        // A unit-mass box (inverse tensor I) falling at 2 m/s onto its four
        // bottom corners (±1, ±1, -1): the rows are dependent (rank 3); the
        // impulses stop the fall (each corner's w = 0) and sum to 2 N s.
        let corners = [(1.0, 1.0), (-1.0, 1.0), (-1.0, -1.0), (1.0, -1.0)];
        // g = (n / sqrt(m), L^T (a x n)) with n = z, L = I: a x z = (a_y, -a_x, 0).
        let g: Vec<Vec<f64>> = corners
            .iter()
            .map(|&(x, y)| vec![0.0, 0.0, 1.0, y, -x, 0.0])
            .collect();
        let k = gram(&g);
        let u = vec![-2.0; 4];
        let lambda = plastic_impulses(&k, &u, 1e-10 * 2.0);
        let total: f64 = lambda.iter().sum();
        // Exact for these small integers up to a few roundings.
        assert!((total - 2.0).abs() < 1e-12, "{lambda:?}");
        let torque_x: f64 = corners.iter().zip(&lambda).map(|(c, l)| c.1 * l).sum();
        let torque_y: f64 = corners.iter().zip(&lambda).map(|(c, l)| c.0 * l).sum();
        assert!(
            torque_x.abs() < 1e-12 && torque_y.abs() < 1e-12,
            "{lambda:?}"
        );
    }

    #[test]
    fn rows_that_open_take_no_impulse() {
        let g = vec![
            vec![1.0, 0.0, 0.0, 0.0, 0.0, 0.0],
            vec![0.0, 1.0, 0.0, 0.0, 0.0, 0.0],
        ];
        let k = gram(&g);
        let lambda = plastic_impulses(&k, &[-3.0, 2.0], 3e-10);
        assert_eq!(lambda, vec![3.0, 0.0]);
    }
}
