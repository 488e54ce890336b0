//! Lossless promotion of `f32` storage to `f64`, and checked demotion back.
//!
//! Every `f32` is exactly representable as an `f64`, so promotion never
//! rounds. Demotion rounds to nearest and is refused when the result is not
//! finite (an `f64` beyond `f32::MAX`, or a NaN or infinity on input).

use crate::{Quat, Quatd, Vec3, Vec3d};

/// Why an `f64` value could not become `f32` storage.
#[derive(Debug, Clone, Copy, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum DemoteError {
    /// The value is NaN or infinite.
    #[error("value {value} is not finite")]
    NotFinite {
        /// The offending value.
        value: f64,
    },
    /// The value is finite in `f64` but its magnitude exceeds `f32::MAX`.
    #[error("value {value} exceeds the f32 range (limit {limit})", limit = f32::MAX)]
    OutOfRange {
        /// The offending value.
        value: f64,
    },
}

/// Widens an `f32` vector to `f64` (exact).
#[inline]
pub fn promote(v: Vec3) -> Vec3d {
    v.cast::<f64>()
}

/// Widens an `f32` unit quaternion to `f64` (exact componentwise; the norm is
/// whatever the `f32` quaternion had).
#[inline]
pub fn promote_quat(q: Quat) -> Quatd {
    Quatd::new_unchecked(q.into_inner().cast::<f64>())
}

/// Rounds one `f64` to the nearest `f32`, refusing non-finite results.
///
/// # Errors
/// [`DemoteError::NotFinite`] for NaN or infinite input,
/// [`DemoteError::OutOfRange`] when the rounded value would overflow to infinity.
#[inline]
pub fn demote_scalar(value: f64) -> Result<f32, DemoteError> {
    if !value.is_finite() {
        return Err(DemoteError::NotFinite { value });
    }
    let rounded = value as f32;
    if rounded.is_finite() {
        Ok(rounded)
    } else {
        Err(DemoteError::OutOfRange { value })
    }
}

/// Rounds an `f64` vector to the nearest `f32` vector, refusing any component
/// that is not finite or not representable.
///
/// # Errors
/// The first offending component's [`DemoteError`].
#[inline]
pub fn demote(v: Vec3d) -> Result<Vec3, DemoteError> {
    Ok(Vec3::new(
        demote_scalar(v.x)?,
        demote_scalar(v.y)?,
        demote_scalar(v.z)?,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn promotion_then_demotion_is_the_identity() {
        let v = Vec3::new(f32::MAX, f32::MIN_POSITIVE, -1.0e-45);
        assert_eq!(demote(promote(v)).unwrap(), v);
    }

    #[test]
    fn demotion_refuses_overflow_and_nan() {
        assert!(matches!(
            demote_scalar(1.0e39),
            Err(DemoteError::OutOfRange { .. })
        ));
        assert!(matches!(
            demote_scalar(f64::NAN),
            Err(DemoteError::NotFinite { .. })
        ));
        // The largest f64 that still rounds to f32::MAX is accepted.
        assert_eq!(demote_scalar(f32::MAX as f64).unwrap(), f32::MAX);
    }
}
