//! A proven bound on the rounding error of evaluating the gap function F at
//! one corner of a parameter box in `f64`: the floating-point filter that
//! makes the corner-hull inclusion sound, every rounding taken in the
//! conservative direction (Wang et al. 2021 section 4.2 use a filter of the
//! same role).
//!
//! # Model
//!
//! IEEE 754 binary64, round to nearest, unit roundoff `u = 2^-53`,
//! `gamma_n = n u / (1 - n u)`, `eta = 2^-1075` (half the smallest
//! subnormal). For finite operands and a finite result:
//! `fl(a +- b) = (a +- b)(1 + e)` (exact when the result is subnormal) and
//! `fl(a * b) = a b (1 + e) + n` with `|e| <= u`, `|n| <= eta`.
//!
//! # Evaluation order (the code follows it exactly)
//!
//! Per axis, with `t, u, v` any `f64` values in `[0, 1]` (box corners, which
//! are dyadic, or witness points),
//! `d_i = fl(x1_i - x0_i)` precomputed once per query, and a point's position
//! `X_i = fl(x0_i + fl(t * d_i))`:
//!
//! - vertex-face: `F = fl(fl(fl(P - A) - fl(u * fl(B - A))) - fl(v * fl(C - A)))`;
//! - edge-edge: `F = fl(fl(A0 + fl(u * fl(A1 - A0))) - fl(B0 + fl(v * fl(B1 - B0))))`.
//!
//! # Theorem
//!
//! Let `M` be the largest magnitude of the query's 8 coordinates on this
//! axis. Then for every corner, `|fl(F) - F| <= 18 gamma_7 M + 20 eta`.
//!
//! # Proof
//!
//! 1. Expand F into signed monomials `s m`, each a product of parameters from
//!    `{t, u, v}` with one coordinate. Ignoring underflow, the computed value
//!    is `sum s m prod_j (1 + e_j)` over the operations j on the path from
//!    that coordinate to the root of the expression tree (Higham, "Accuracy
//!    and Stability of Numerical Algorithms", 2nd ed., section 3.1). The
//!    longest path has 7 operations: vertex-face `x1 - x0`, `t *`, `x0 +`,
//!    `B - A`, `u *`, `(P - A) - .`, `. - v(C - A)`; edge-edge `x1 - x0`,
//!    `t *`, `x0 +`, `A1 - A0`, `u *`, `A0 + .`, `A - B`. By Higham's Lemma
//!    3.1, `|prod (1 + e_j) - 1| <= gamma_7`, hence the error is at most
//!    `gamma_7 sum |m|`.
//! 2. `sum |m|` is the tree evaluated on absolute values with every
//!    subtraction turned into an addition. For a position,
//!    `|x0| + t (|x1| + |x0|) <= 3M` (`t <= 1`). Vertex-face:
//!    `3M + 3M + u (3M + 3M) + v (3M + 3M) <= 18M`; edge-edge:
//!    `3M + u (6M) + 3M + v (6M) <= 18M` (`u, v <= 1`).
//! 3. Underflow: each of the 6 multiplications (4 of `t * d`, `u *`, `v *`)
//!    adds at most `eta`, which later operations scale by at most
//!    `1 + gamma_5 < 2` (and by `u` or `v <= 1`): at most `12 eta`.
//! 4. Rescaling (only when the query's largest coordinate is outside
//!    `[2^-500, 2^500]`): scaling down by a power of two in two steps moves a
//!    subnormal coordinate by at most `2 eta`, and F's coefficients on the 8
//!    coordinates sum to at most 4 in magnitude (`|1 - u - v| + u + v + 1`
//!    for vertex-face, `2` for edge-edge, times `(1 - t) + t`): at most
//!    `8 eta`. Scaling up is exact.
//! 5. Overflow cannot happen: after rescaling `M <= 2^500`, so every
//!    intermediate is below `18 (1 + gamma_7) 2^500`.
//!
//! Summing, `18 gamma_7 M + 20 eta`. The code computes
//! `next_up(fl(C M) + 2^-1069)` with `C = 1.4e-14 >= 18 gamma_7 / (1 - u)`
//! (`18 gamma_7 = 1.39888...e-14`): `fl(C M) >= 18 gamma_7 M - eta`,
//! `2^-1069 = 64 eta` covers the rest, and `next_up` of a rounded positive
//! sum is at least the exact sum. The bound is linear in M, not cubic: F is
//! of degree 1 in the coordinates (the cube of the coordinates appears only in
//! the univariate coplanarity cubic, which this method never forms), and it
//! uses max, not min, of the magnitudes.
//!
//! # Use
//!
//! With `lo`, `hi` the computed min and max of the 8 corner values on an
//! axis, the exact range of F over the box (the hull of the exact corner
//! values, since F is multilinear) lies in `[lo - err, hi + err]`. It meets
//! `[-d, d]` only if `lo <= err + d` and `hi >= -(err + d)`; the code rounds
//! `err + d` up, so the test never drops a box where F enters the cube.

/// `C >= 18 gamma_7 / (1 - u)` (dimensionless), see the module proof.
/// `18 gamma_7 = 1.3988810110276972e-14`; the margin is about `8e-4`
/// relative, far above the rounding of the constant itself.
pub(crate) const CORNER_ERROR_FACTOR: f64 = 1.4e-14;

/// `2^-1069` (length, the query's units after rescaling): covers underflow in
/// the corner evaluation, in the rescaling and in the product `C M`.
pub(crate) const CORNER_ERROR_ABSOLUTE: f64 = f64::from_bits(1u64 << 5);

/// Proven bound on `|fl(F) - F|` at any corner of any box, for one axis whose
/// 8 query coordinates have largest magnitude `max_magnitude` (after the
/// optional power-of-two rescaling; see the module proof).
#[inline]
pub(crate) fn corner_error_bound(max_magnitude: f64) -> f64 {
    (CORNER_ERROR_FACTOR * max_magnitude + CORNER_ERROR_ABSOLUTE).next_up()
}

/// `err + d` rounded up: the half-width of the cube that each axis of the
/// computed corner hull must meet for the box to be kept.
#[inline]
pub(crate) fn inclusion_radius(error_bound: f64, min_separation: f64) -> f64 {
    (error_bound + min_separation).next_up()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn factor_covers_eighteen_gamma_seven() {
        // gamma_7 = 7u / (1 - 7u) with u = 2^-53, computed with a relative
        // slack of 1e-12 that dwarfs the rounding of these few operations.
        let u = f64::EPSILON / 2.0;
        let gamma7 = 7.0 * u / (1.0 - 7.0 * u);
        let needed = 18.0 * gamma7 / (1.0 - u) * (1.0 + 1e-12);
        assert!(
            CORNER_ERROR_FACTOR >= needed,
            "{CORNER_ERROR_FACTOR} < {needed}"
        );
        // and it is not wastefully loose (within 0.1 %).
        assert!(CORNER_ERROR_FACTOR <= needed * 1.001);
    }

    #[test]
    fn absolute_term_is_2_pow_minus_1069() {
        // 2^-1074 is the smallest subnormal; 2^-1069 = 32 * 2^-1074 = 64 eta.
        let smallest = f64::from_bits(1);
        assert_eq!(CORNER_ERROR_ABSOLUTE, 32.0 * smallest);
        assert_eq!(CORNER_ERROR_ABSOLUTE * 2f64.powi(1000) * 2f64.powi(69), 1.0);
    }

    #[test]
    fn bound_grows_linearly_and_never_vanishes() {
        assert!(corner_error_bound(0.0) >= CORNER_ERROR_ABSOLUTE);
        let one = corner_error_bound(1.0);
        let thousand = corner_error_bound(1000.0);
        assert!((1.39e-14..=1.41e-14).contains(&one));
        assert!((thousand / one - 1000.0).abs() < 1e-9);
    }

    #[test]
    fn radius_rounds_up() {
        let err = corner_error_bound(1.0);
        let d = 0.1;
        assert!(inclusion_radius(err, d) > err + d - 1e-30);
        assert!(inclusion_radius(err, d) >= d);
    }
}
