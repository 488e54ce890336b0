//! Checks and conversions of local inertia tensors (the numeric range of
//! mass properties: "Mass properties" and "Numeric boundaries" in
//! docs/physics.md).
//!
//! Method: a solid inertia tensor must be finite, exactly symmetric and
//! positive definite, decided by the exact signs of its three leading
//! principal minors (Sylvester's criterion). The signs come from an
//! error-free determinant expansion, so exact singularity is refused and no
//! determinant tolerance exists. The inverse is computed in `f64` from the
//! symmetric cofactors (so the result is exactly symmetric), rounded to `f32`
//! and checked again: finite, and positive definite after rounding.
//!
//! Source: Sylvester's criterion (Horn and Johnson, "Matrix Analysis",
//! section 7.2); the exact signs come from `parapet_math::det3_sign_f32`.
//!
//! Precision domain: `f32` entries of any magnitude; the `f64` cofactor
//! inverse loses relative accuracy in proportion to the tensor's condition
//! number, and the re-check after rounding refuses inverses whose definiteness
//! that loss destroyed.

use parapet_math::{demote_scalar, det3_sign_f32, Mat3, Mat3d, Sign};

use super::error::BodyError;

/// Refuses a tensor with a non-finite entry.
pub(crate) fn check_finite(quantity: &'static str, m: &Mat3) -> Result<(), BodyError> {
    for row in 0..3 {
        for col in 0..3 {
            let value = m[(row, col)];
            if !value.is_finite() {
                return Err(BodyError::TensorNotFinite {
                    quantity,
                    row,
                    col,
                    value,
                });
            }
        }
    }
    Ok(())
}

/// Refuses a tensor that is not exactly symmetric.
pub(crate) fn check_symmetric(quantity: &'static str, m: &Mat3) -> Result<(), BodyError> {
    for (row, col) in [(0, 1), (0, 2), (1, 2)] {
        let (value, transposed) = (m[(row, col)], m[(col, row)]);
        if value != transposed {
            return Err(BodyError::TensorNotSymmetric {
                quantity,
                row,
                col,
                value,
                transposed,
            });
        }
    }
    Ok(())
}

/// The exact sign of the leading 2x2 minor `m00 m11 - m01 m10`: each `f32`
/// product is exact in `f64` (48 significant bits, no overflow or underflow
/// since |f32|² lies within the `f64` range), and the rounded difference of
/// two exact values has the sign of the exact difference.
fn minor2_sign(m: &Mat3) -> i8 {
    let a = m[(0, 0)] as f64 * m[(1, 1)] as f64;
    let b = m[(0, 1)] as f64 * m[(1, 0)] as f64;
    match a.partial_cmp(&b) {
        Some(std::cmp::Ordering::Greater) => 1,
        Some(std::cmp::Ordering::Less) => -1,
        _ => 0,
    }
}

/// Refuses a finite tensor whose exact leading principal minors are not all
/// positive (Sylvester's criterion for a symmetric tensor).
pub(crate) fn check_positive_definite(quantity: &'static str, m: &Mat3) -> Result<(), BodyError> {
    let first = m[(0, 0)];
    let signs = [
        if first > 0.0 {
            1
        } else if first < 0.0 {
            -1
        } else {
            0
        },
        minor2_sign(m),
        // Entries are finite here (checked first), and the exact sign is
        // defined for every finite f32 matrix; an error would mean a
        // non-finite entry and is treated as "not positive".
        det3_sign_f32(m).map_or(0, Sign::as_i8),
    ];
    for (i, sign) in signs.into_iter().enumerate() {
        if sign != 1 {
            return Err(BodyError::TensorNotPositiveDefinite {
                quantity,
                order: i + 1,
                sign,
            });
        }
    }
    Ok(())
}

/// Checks a solid inertia tensor (finite, exactly symmetric, positive
/// definite) and returns its inverse, itself checked after rounding to `f32`.
pub(crate) fn solid_inverse(inertia: &Mat3) -> Result<Mat3, BodyError> {
    check_finite("inertia", inertia)?;
    check_symmetric("inertia", inertia)?;
    check_positive_definite("inertia", inertia)?;
    let a: Mat3d = inertia.cast::<f64>();
    // Symmetric cofactors: only the upper triangle is computed, so the
    // inverse is exactly symmetric.
    let c00 = a[(1, 1)] * a[(2, 2)] - a[(1, 2)] * a[(1, 2)];
    let c01 = a[(0, 2)] * a[(1, 2)] - a[(0, 1)] * a[(2, 2)];
    let c02 = a[(0, 1)] * a[(1, 2)] - a[(0, 2)] * a[(1, 1)];
    let c11 = a[(0, 0)] * a[(2, 2)] - a[(0, 2)] * a[(0, 2)];
    let c12 = a[(0, 1)] * a[(0, 2)] - a[(0, 0)] * a[(1, 2)];
    let c22 = a[(0, 0)] * a[(1, 1)] - a[(0, 1)] * a[(0, 1)];
    let det = a[(0, 0)] * c00 + a[(0, 1)] * c01 + a[(0, 2)] * c02;
    let entries = [c00, c01, c02, c11, c12, c22].map(|c| c / det);
    let mut rounded = [0.0_f32; 6];
    for (slot, value) in rounded.iter_mut().zip(entries) {
        *slot = demote_scalar(value).map_err(|_| BodyError::NotRepresentable {
            quantity: "inverse inertia",
            value,
        })?;
    }
    let [i00, i01, i02, i11, i12, i22] = rounded;
    let inverse = Mat3::new(i00, i01, i02, i01, i11, i12, i02, i12, i22);
    check_positive_definite("inverse inertia", &inverse)?;
    Ok(inverse)
}

#[cfg(test)]
mod tests {
    use super::*;
    use parapet_math::Vec3;

    #[test]
    fn diagonal_inverse_is_the_reciprocal() {
        let inverse = solid_inverse(&Mat3::from_diagonal(&Vec3::new(2.0, 4.0, 8.0))).unwrap();
        assert_eq!(inverse, Mat3::from_diagonal(&Vec3::new(0.5, 0.25, 0.125)));
    }

    #[test]
    fn full_inverse_is_symmetric_and_inverts() {
        let i = Mat3::new(2.0, 0.3, -0.2, 0.3, 1.5, 0.1, -0.2, 0.1, 1.0);
        let inverse = solid_inverse(&i).unwrap();
        assert_eq!(inverse, inverse.transpose());
        // f32 rounding of O(1) entries: a few ulps.
        assert!((inverse * i - Mat3::identity()).abs().max() < 1e-6);
    }

    #[test]
    fn exactly_singular_and_indefinite_tensors_are_refused() {
        // Rank two: rows 1 and 2 equal.
        let singular = Mat3::new(1.0, 1.0, 0.0, 1.0, 1.0, 0.0, 0.0, 0.0, 1.0);
        assert!(matches!(
            solid_inverse(&singular),
            Err(BodyError::TensorNotPositiveDefinite {
                order: 2,
                sign: 0,
                ..
            })
        ));
        let indefinite = Mat3::new(1.0, 0.0, 2.0, 0.0, 1.0, 0.0, 2.0, 0.0, 1.0);
        assert!(matches!(
            solid_inverse(&indefinite),
            Err(BodyError::TensorNotPositiveDefinite {
                order: 3,
                sign: -1,
                ..
            })
        ));
    }

    #[test]
    fn inverse_underflow_or_overflow_is_refused() {
        let huge = Mat3::from_diagonal(&Vec3::new(3.0e38, 3.0e38, 3.0e38));
        // 1/3e38 is about 3.3e-39, subnormal but positive: accepted.
        assert!(solid_inverse(&huge).is_ok());
        let tiny = Mat3::from_diagonal(&Vec3::new(1.0e-40, 1.0, 1.0));
        assert!(matches!(
            solid_inverse(&tiny),
            Err(BodyError::NotRepresentable { .. })
        ));
    }
}
