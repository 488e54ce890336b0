//! Hostile scalars, vectors and rotations from an [`Unstructured`] byte
//! string: mostly ordinary values, with a steady share of the values that
//! break code (zeros, NaN, infinities, subnormals, extremes, raw bits).

use arbitrary::{Result, Unstructured};
use parapet_math::{Quat, Vec3};

/// The `f32` values that break numeric code, and the edges of parapet's
/// documented limits (the precision domain's 1e6 m coordinates, 1e-4 m and
/// 1e4 m radii, the 1e38 masses of the hostile probe).
pub const SPECIAL_F32: [f32; 30] = [
    0.0,
    -0.0,
    f32::NAN,
    f32::INFINITY,
    f32::NEG_INFINITY,
    f32::MAX,
    f32::MIN,
    f32::MIN_POSITIVE,
    1e-45,
    -1e-45,
    f32::EPSILON,
    1e38,
    -1e38,
    3.4e38,
    1e-38,
    5e-13,
    1e-7,
    1e-4,
    9.9e-5,
    1e4,
    1.0001e4,
    1e6,
    2e6,
    1e7,
    1e20,
    -1.0,
    1.0,
    0.5,
    65536.0,
    1048576.0,
];

/// An `f32` of any kind: ordinary in 3 cases of 4 (a multiple of 0.01 in
/// `[-10, 10]`, or a value with a decimal exponent in `[-12, 12]`), else a
/// special value or raw bits.
pub fn any_f32(u: &mut Unstructured<'_>) -> Result<f32> {
    Ok(match u.int_in_range(0u8..=15)? {
        0..=7 => u.int_in_range(-1000i32..=1000)? as f32 / 100.0,
        8..=11 => {
            let mantissa = u.int_in_range(-999i32..=999)? as f32 / 100.0;
            let exponent = u.int_in_range(-12i32..=12)?;
            mantissa * 10f32.powi(exponent)
        }
        12..=14 => *u.choose(&SPECIAL_F32)?,
        _ => f32::from_bits(u.arbitrary()?),
    })
}

/// A length that is ordinary (0.05 m to 2 m) in 7 cases of 8, else any
/// `f32` ([`any_f32`], which may be negative, zero or not finite).
pub fn length(u: &mut Unstructured<'_>) -> Result<f32> {
    if u.ratio(7u8, 8u8)? {
        Ok(u.int_in_range(5u32..=200)? as f32 / 100.0)
    } else {
        any_f32(u)
    }
}

/// A sane positive length in `[lo, hi]` (m), on a 1 mm grid.
pub fn sane_length(u: &mut Unstructured<'_>, lo: f32, hi: f32) -> Result<f32> {
    let steps = ((hi - lo) * 1000.0) as u32;
    Ok(lo + u.int_in_range(0..=steps)? as f32 / 1000.0)
}

/// A value in `[lo, hi]` on a grid of `steps` intervals.
pub fn in_range(u: &mut Unstructured<'_>, lo: f32, hi: f32, steps: u32) -> Result<f32> {
    Ok(lo + (hi - lo) * u.int_in_range(0..=steps)? as f32 / steps as f32)
}

/// A vector with three [`any_f32`] components, or (one case in four) an
/// ordinary vector with components in `[-scale, scale]`.
pub fn any_vec(u: &mut Unstructured<'_>, scale: f32) -> Result<Vec3> {
    if u.ratio(1u8, 4u8)? {
        ordinary_vec(u, scale)
    } else {
        Ok(Vec3::new(any_f32(u)?, any_f32(u)?, any_f32(u)?))
    }
}

/// A vector with components in `[-scale, scale]` (a 1/1000 grid of it).
pub fn ordinary_vec(u: &mut Unstructured<'_>, scale: f32) -> Result<Vec3> {
    Ok(Vec3::new(
        in_range(u, -scale, scale, 2000)?,
        in_range(u, -scale, scale, 2000)?,
        in_range(u, -scale, scale, 2000)?,
    ))
}

/// A rotation: the identity, a unit quaternion from an ordinary axis-angle,
/// or (one case in eight) a quaternion built without normalisation from
/// any four floats (zero, NaN, far from unit).
pub fn any_quat(u: &mut Unstructured<'_>) -> Result<Quat> {
    Ok(match u.int_in_range(0u8..=7)? {
        0..=1 => Quat::identity(),
        2..=6 => Quat::from_scaled_axis(ordinary_vec(u, 3.2)?),
        _ => Quat::new_unchecked(parapet_math::nalgebra::Quaternion::new(
            any_f32(u)?,
            any_f32(u)?,
            any_f32(u)?,
            any_f32(u)?,
        )),
    })
}

/// A step length: 1/60 s, an ordinary step in `[1/1000, 0.1]` s, or any
/// `f32` (zero, negative, NaN, huge).
pub fn any_dt(u: &mut Unstructured<'_>) -> Result<f32> {
    Ok(match u.int_in_range(0u8..=7)? {
        0..=2 => 1.0 / 60.0,
        3..=6 => in_range(u, 0.001, 0.1, 99)?,
        _ => any_f32(u)?,
    })
}

/// An `f64` of any kind: [`any_f32`] widened, or raw `f64` bits.
pub fn any_f64(u: &mut Unstructured<'_>) -> Result<f64> {
    if u.ratio(1u8, 8u8)? {
        Ok(f64::from_bits(u.arbitrary()?))
    } else {
        Ok(any_f32(u)? as f64)
    }
}

/// Whether every component of `v` is finite.
pub fn finite(v: &Vec3) -> bool {
    v.iter().all(|c| c.is_finite())
}
