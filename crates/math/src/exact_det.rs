//! Exact signs of 2x2 and 3x3 determinants, and the exact test of symmetric
//! positive definiteness built on them (Sylvester's criterion).
//!
//! Method: each row is first scaled by a power of two so that its largest
//! magnitude lies in [1, 2) (exact, and it multiplies the determinant by a
//! positive factor, so the sign is unchanged). The cofactor expansion is then
//! evaluated as a sum of six exact triple products in expansion arithmetic
//! ([`crate::expansion`], after Shewchuk 1997), and the sign is read from the
//! most significant component. No tolerance is involved: a singular matrix
//! reports [`Sign::Zero`] exactly.
//!
//! Precision domain (the range of tensors docs/physics.md, "Mass properties",
//! accepts):
//! - every finite `f32` matrix, whatever its scale or conditioning (a row of
//!   `f32` values spans at most 2^277 between its largest and smallest nonzero
//!   magnitudes);
//! - every finite `f64` matrix in which each nonzero entry is at least
//!   2^-300 times the largest magnitude of its row ([`ROW_RATIO_LIMIT_LOG2`]).
//!   After row scaling all nonzero entries then lie in [2^-300, 2), so every
//!   triple product and its low-order bits stay above 2^-1074 and below 8.
//!
//! Outside that domain (or for non-finite entries) the functions return an
//! error rather than a sign they cannot guarantee.

use crate::expansion::Expansion;
use crate::{Mat3, Mat3d};

/// log2 of the smallest ratio, within one row, between a nonzero entry and the
/// row's largest magnitude for which [`det3_sign`] is exact (dimensionless).
///
/// 300 keeps every scaled entry's lowest bit at or above 2^-352, so the lowest
/// bit of a triple product stays at or above 2^-1056 > 2^-1074 (no underflow).
pub const ROW_RATIO_LIMIT_LOG2: i32 = 300;

/// The sign of an exactly evaluated quantity.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Sign {
    /// Strictly below zero.
    Negative,
    /// Exactly zero.
    Zero,
    /// Strictly above zero.
    Positive,
}

impl Sign {
    /// The sign as -1, 0 or +1.
    pub fn as_i8(self) -> i8 {
        match self {
            Sign::Negative => -1,
            Sign::Zero => 0,
            Sign::Positive => 1,
        }
    }

    pub(crate) fn from_i8(s: i8) -> Self {
        match s.cmp(&0) {
            core::cmp::Ordering::Less => Sign::Negative,
            core::cmp::Ordering::Equal => Sign::Zero,
            core::cmp::Ordering::Greater => Sign::Positive,
        }
    }
}

/// Why an exact sign could not be decided.
#[derive(Debug, Clone, Copy, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ExactSignError {
    /// An entry is NaN or infinite.
    #[error("matrix entry ({row}, {column}) = {value} is not finite")]
    NotFinite {
        /// Row of the entry.
        row: usize,
        /// Column of the entry.
        column: usize,
        /// The entry.
        value: f64,
    },
    /// An entry is too small relative to its row's largest entry for exact
    /// expansion arithmetic in `f64`.
    #[error(
        "matrix entry ({row}, {column}) = {value} is below 2^-{limit_log2} times its row's largest magnitude {row_max}"
    )]
    OutsideExactDomain {
        /// Row of the entry.
        row: usize,
        /// Column of the entry.
        column: usize,
        /// The entry.
        value: f64,
        /// The largest magnitude in its row.
        row_max: f64,
        /// [`ROW_RATIO_LIMIT_LOG2`].
        limit_log2: i32,
    },
}

/// floor(log2 |x|) for a finite nonzero `x`, exact (subnormals included).
fn exponent_of(x: f64) -> i32 {
    let bits = x.abs().to_bits();
    let biased = (bits >> 52) as i32;
    if biased == 0 {
        let mantissa = bits & ((1u64 << 52) - 1);
        -1074 + (63 - mantissa.leading_zeros() as i32)
    } else {
        biased - 1023
    }
}

/// `x * 2^k`, exact when the result is normal (steps keep intermediates normal).
fn scale_by_power_of_two(mut x: f64, mut k: i32) -> f64 {
    const STEP: i32 = 1000;
    while k > STEP {
        x *= 2f64.powi(STEP);
        k -= STEP;
    }
    while k < -STEP {
        x *= 2f64.powi(-STEP);
        k += STEP;
    }
    x * 2f64.powi(k)
}

/// Scales the rows of an `N x 3` array so each row's largest magnitude is in
/// [1, 2), refusing entries outside the exact domain.
fn normalized_rows<const N: usize>(rows: [[f64; 3]; N]) -> Result<[[f64; 3]; N], ExactSignError> {
    let mut out = rows;
    for (r, row) in rows.iter().enumerate() {
        for (c, &value) in row.iter().enumerate() {
            if !value.is_finite() {
                return Err(ExactSignError::NotFinite {
                    row: r,
                    column: c,
                    value,
                });
            }
        }
        let row_max = row.iter().fold(0.0f64, |m, v| m.max(v.abs()));
        if row_max == 0.0 {
            continue;
        }
        let e = exponent_of(row_max);
        for (c, &value) in row.iter().enumerate() {
            if value != 0.0 && exponent_of(value) < e - ROW_RATIO_LIMIT_LOG2 {
                return Err(ExactSignError::OutsideExactDomain {
                    row: r,
                    column: c,
                    value,
                    row_max,
                    limit_log2: ROW_RATIO_LIMIT_LOG2,
                });
            }
            out[r][c] = scale_by_power_of_two(value, -e);
        }
    }
    Ok(out)
}

fn triple(a: f64, b: f64, c: f64) -> Expansion {
    Expansion::product_of(a, b).scale(c)
}

/// The exact sign of the determinant of a 3x3 `f64` matrix.
///
/// # Errors
/// [`ExactSignError::NotFinite`] for a NaN or infinite entry;
/// [`ExactSignError::OutsideExactDomain`] for an entry smaller than 2^-300
/// times its row's largest magnitude (see the module documentation).
pub fn det3_sign(m: &Mat3d) -> Result<Sign, ExactSignError> {
    let rows = [
        [m[(0, 0)], m[(0, 1)], m[(0, 2)]],
        [m[(1, 0)], m[(1, 1)], m[(1, 2)]],
        [m[(2, 0)], m[(2, 1)], m[(2, 2)]],
    ];
    let [r0, r1, r2] = normalized_rows(rows)?;
    let det = triple(r0[0], r1[1], r2[2])
        .sub(&triple(r0[0], r1[2], r2[1]))
        .sub(&triple(r0[1], r1[0], r2[2]))
        .add(&triple(r0[1], r1[2], r2[0]))
        .add(&triple(r0[2], r1[0], r2[1]))
        .sub(&triple(r0[2], r1[1], r2[0]));
    Ok(Sign::from_i8(det.signum()))
}

/// The exact sign of the determinant of a 3x3 `f32` matrix: exact for every
/// finite `f32` matrix.
///
/// # Errors
/// [`ExactSignError::NotFinite`] for a NaN or infinite entry (the only error
/// possible for `f32` input).
pub fn det3_sign_f32(m: &Mat3) -> Result<Sign, ExactSignError> {
    det3_sign(&m.cast::<f64>())
}

/// The exact sign of `a * d - b * c` (the determinant of `[[a, b], [c, d]]`).
///
/// # Errors
/// As [`det3_sign`], with the rows `(a, b)` and `(c, d)`.
pub fn det2_sign(a: f64, b: f64, c: f64, d: f64) -> Result<Sign, ExactSignError> {
    let [r0, r1] = normalized_rows([[a, b, 0.0], [c, d, 0.0]])?;
    let det = Expansion::product_of(r0[0], r1[1]).sub(&Expansion::product_of(r0[1], r1[0]));
    Ok(Sign::from_i8(det.signum()))
}

/// Whether an `f32` matrix is exactly symmetric and positive definite.
///
/// Sylvester's criterion: a symmetric matrix is positive definite exactly when
/// its three leading principal minors are positive; each sign is exact, so
/// singular and indefinite tensors are never accepted by rounding. Returns
/// `false` for non-finite entries and for any mirrored off-diagonal pair that
/// is not bit-for-bit equal.
pub fn is_symmetric_positive_definite(m: &Mat3) -> bool {
    if m.iter().any(|v| !v.is_finite()) {
        return false;
    }
    let symmetric = m[(0, 1)] == m[(1, 0)] && m[(0, 2)] == m[(2, 0)] && m[(1, 2)] == m[(2, 1)];
    if !symmetric || m[(0, 0)] <= 0.0 {
        return false;
    }
    let minor2 = det2_sign(
        f64::from(m[(0, 0)]),
        f64::from(m[(0, 1)]),
        f64::from(m[(1, 0)]),
        f64::from(m[(1, 1)]),
    );
    matches!(minor2, Ok(Sign::Positive)) && matches!(det3_sign_f32(m), Ok(Sign::Positive))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_identity_is_positive_and_a_repeated_row_is_exactly_singular() {
        assert_eq!(det3_sign(&Mat3d::identity()), Ok(Sign::Positive));
        let m = Mat3d::new(0.1, 0.2, 0.3, 0.1, 0.2, 0.3, 0.7, 0.5, 0.11);
        assert_eq!(det3_sign(&m), Ok(Sign::Zero));
    }

    #[test]
    fn a_perturbation_below_rounding_is_still_seen() {
        // Rows (1, 1, 0), (1, 1 + 2^-52, 0), (0, 0, 1): det = 2^-52, which
        // a naive f64 evaluation of a rescaled copy could lose.
        let e = f64::EPSILON;
        let m = Mat3d::new(1.0, 1.0, 0.0, 1.0, 1.0 + e, 0.0, 0.0, 0.0, 1.0);
        assert_eq!(det3_sign(&m), Ok(Sign::Positive));
        let m = Mat3d::new(1.0, 1.0 + e, 0.0, 1.0, 1.0, 0.0, 0.0, 0.0, 1.0);
        assert_eq!(det3_sign(&m), Ok(Sign::Negative));
    }

    #[test]
    fn extreme_f32_scales_are_in_the_domain() {
        let tiny = f32::from_bits(1); // smallest subnormal
        let m = Mat3::new(f32::MAX, tiny, 0.0, 0.0, tiny, 0.0, 0.0, 0.0, f32::MAX);
        assert_eq!(det3_sign_f32(&m), Ok(Sign::Positive));
    }

    #[test]
    fn entries_too_small_for_their_row_are_refused() {
        let m = Mat3d::new(1.0, 1.0e-100, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0);
        assert!(matches!(
            det3_sign(&m),
            Err(ExactSignError::OutsideExactDomain {
                row: 0,
                column: 1,
                ..
            })
        ));
        let m = Mat3d::new(f64::NAN, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0);
        assert!(matches!(
            det3_sign(&m),
            Err(ExactSignError::NotFinite { .. })
        ));
    }

    #[test]
    fn positive_definiteness_is_decided_exactly() {
        assert!(is_symmetric_positive_definite(&Mat3::identity()));
        // Singular: a rank-2 tensor.
        let singular = Mat3::new(1.0, 1.0, 0.0, 1.0, 1.0, 0.0, 0.0, 0.0, 1.0);
        assert!(!is_symmetric_positive_definite(&singular));
        // Asymmetric by one ulp.
        let mut asym = Mat3::identity();
        asym[(0, 1)] = 1.0e-8;
        assert!(!is_symmetric_positive_definite(&asym));
        // Indefinite with positive diagonal.
        let indefinite = Mat3::new(1.0, 2.0, 0.0, 2.0, 1.0, 0.0, 0.0, 0.0, 1.0);
        assert!(!is_symmetric_positive_definite(&indefinite));
    }
}
