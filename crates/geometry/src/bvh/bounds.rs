//! Closed axis-aligned `f64` bounds of the triangle bounds tree, and the
//! directed roundings its conservative tests use.
//!
//! Method: a box is the closed set `min <= p <= max` per axis. Stored node
//! bounds are `f32`; every `f32` converts exactly to `f64`, so a stored box is
//! exactly the `f64` box it stands for. Query boxes are `f64`; the traversal
//! compares them with `f32` node bounds through [`ceil_f32`] / [`floor_f32`],
//! which turn each `f64` comparison into an exactly equivalent `f32` one.
//!
//! Precision domain: any finite `f32` node bound, any non-NaN `f64` query
//! bound (infinite query bounds are allowed). The rounding helpers
//! [`down`] / [`up`] widen a computed value by a few units of its last place,
//! without branches, so that it bounds the exact value it approximates.

use parapet_math::{Vec3, Vec3d};

use super::BvhError;

/// A closed axis-aligned box in `f64`: the points `p` with `min <= p <= max`
/// on every axis. Named `Bounds` so that it never clashes with the geometry
/// crate's own AABB type. Never NaN and never inverted: the corners are
/// private, and every constructor checks or guarantees that.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Bounds {
    /// Lower corner (inclusive).
    pub(crate) min: Vec3d,
    /// Upper corner (inclusive).
    pub(crate) max: Vec3d,
}

impl Bounds {
    /// The lower corner (inclusive).
    #[inline]
    pub fn min(&self) -> Vec3d {
        self.min
    }

    /// The upper corner (inclusive).
    #[inline]
    pub fn max(&self) -> Vec3d {
        self.max
    }

    /// A box from its corners.
    ///
    /// # Errors
    /// [`BvhError::InvalidQuery`] when a coordinate is NaN or `min > max` on an
    /// axis. Infinite coordinates are allowed (an unbounded box).
    pub fn new(min: Vec3d, max: Vec3d) -> Result<Self, BvhError> {
        for k in 0..3 {
            if min[k].is_nan() {
                return Err(BvhError::InvalidQuery {
                    quantity: "bounds minimum",
                    value: min[k],
                    requirement: "a number (infinity allowed)",
                });
            }
            if max[k].is_nan() {
                return Err(BvhError::InvalidQuery {
                    quantity: "bounds maximum",
                    value: max[k],
                    requirement: "a number (infinity allowed)",
                });
            }
            if min[k] > max[k] {
                return Err(BvhError::InvalidQuery {
                    quantity: "bounds minimum",
                    value: min[k],
                    requirement: "at most the maximum on the same axis",
                });
            }
        }
        Ok(Self { min, max })
    }

    /// The exact bounds of an `f32` triangle: componentwise min and max of
    /// its vertices (exact, no rounding happens).
    pub fn of_triangle(triangle: &[Vec3; 3]) -> Self {
        let [a, b, c] = triangle;
        let min = a.inf(b).inf(c);
        let max = a.sup(b).sup(c);
        Self {
            min: min.cast::<f64>(),
            max: max.cast::<f64>(),
        }
    }

    /// Whether the two closed boxes share at least one point (touching counts).
    #[inline]
    pub fn intersects(&self, other: &Bounds) -> bool {
        (0..3).all(|k| self.min[k] <= other.max[k] && other.min[k] <= self.max[k])
    }

    /// Whether `other` lies inside this closed box (equal boxes contain each other).
    #[inline]
    pub fn contains(&self, other: &Bounds) -> bool {
        (0..3).all(|k| self.min[k] <= other.min[k] && other.max[k] <= self.max[k])
    }

    /// The smallest box containing both.
    #[inline]
    pub fn union(&self, other: &Bounds) -> Bounds {
        Bounds {
            min: self.min.inf(&other.min),
            max: self.max.sup(&other.max),
        }
    }
}

/// Relative widening per rounding to nearest: `2^-51`, four times the unit
/// roundoff `2^-53` (dimensionless). One unit covers the error the rounding
/// made, one more the rounding of the widening subtraction itself, and the
/// rest the second-order terms, so [`down`] and [`up`] stay bounds.
const WIDEN_PER_ROUNDING: f64 = 1.0 / (1u64 << 51) as f64;

/// Absolute widening: the smallest subnormal `f64`, a bound on the error of
/// a rounding that underflows (2^-1075) and what keeps a zero result moving.
const WIDEN_ABS: f64 = 5e-324;

/// A lower bound of the exact value that the computed `x` approximates
/// within `roundings` roundings to nearest (each of relative error at most
/// 2^-53, or absolute error 2^-1075 when it underflows). Branchless:
/// `x - (|x| * roundings * 2^-51 + 2^-1074)`. `-inf` stays `-inf`; a `+inf`
/// stays `+inf` (the exact value then exceeds every finite bound).
#[inline]
pub(crate) fn down(x: f64, roundings: u32) -> f64 {
    let lowered = x - (x.abs() * (roundings as f64 * WIDEN_PER_ROUNDING) + WIDEN_ABS);
    // NaN only from inf - inf (x = +inf); the comparison then keeps x.
    if lowered < x {
        lowered
    } else {
        x
    }
}

/// An upper bound of the exact value that the computed `x` approximates
/// within `roundings` roundings to nearest (see [`down`]). `+inf` stays
/// `+inf`; a `-inf` stays `-inf`.
#[inline]
pub(crate) fn up(x: f64, roundings: u32) -> f64 {
    let raised = x + (x.abs() * (roundings as f64 * WIDEN_PER_ROUNDING) + WIDEN_ABS);
    // NaN only from -inf + inf (x = -inf); the comparison then keeps x.
    if raised > x {
        raised
    } else {
        x
    }
}

/// The smallest `f32` that is `>= x` (`+inf` when `x` exceeds `f32::MAX`).
///
/// For every `f32` value `b`: `b as f64 >= x` exactly when `b >= ceil_f32(x)`.
/// `x` must not be NaN. Both candidates are computed and one is selected,
/// so that a coin-flip rounding direction need cost no mispredicted branch.
#[inline]
pub(crate) fn ceil_f32(x: f64) -> f32 {
    // Zero as +0, so that its successor is the smallest positive subnormal.
    let r = (x as f32) + 0.0;
    let b = r.to_bits();
    // The next f32 up: one more bit pattern above zero, one less below
    // (branchless; +inf's successor is garbage but never selected, since
    // +inf >= x always).
    let above = f32::from_bits(b.wrapping_add(1).wrapping_sub((b >> 31) << 1));
    if (r as f64) < x {
        above
    } else {
        r
    }
}

/// The largest `f32` that is `<= x` (`-inf` when `x` is below `-f32::MAX`).
///
/// For every `f32` value `b`: `b as f64 <= x` exactly when `b <= floor_f32(x)`.
/// `x` must not be NaN.
#[inline]
pub(crate) fn floor_f32(x: f64) -> f32 {
    let r = x as f32;
    // Zero as -0, so that its predecessor is the largest negative subnormal.
    let r = if r == 0.0 { -0.0 } else { r };
    let b = r.to_bits();
    // The next f32 down (branchless; -inf's predecessor is never selected).
    let below = f32::from_bits(b.wrapping_sub(1).wrapping_add((b >> 31) << 1));
    if (r as f64) > x {
        below
    } else {
        r
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn directed_f32_conversions_bracket_the_f64() {
        let xs = [
            0.1f64,
            -0.1,
            1.0,
            -1.0,
            0.0,
            1.0e-50,
            -1.0e-50,
            3.5e38,
            -3.5e38,
            f64::INFINITY,
            f64::NEG_INFINITY,
        ];
        for x in xs {
            let c = ceil_f32(x);
            let f = floor_f32(x);
            assert!(c as f64 >= x, "ceil {c} < {x}");
            assert!(f as f64 <= x, "floor {f} > {x}");
            // Tightness: the next f32 inward is on the wrong side.
            if c.is_finite() && c > f32::MIN {
                assert!((c.next_down() as f64) < x, "ceil of {x} not tight");
            }
            if f.is_finite() && f < f32::MAX {
                assert!((f.next_up() as f64) > x, "floor of {x} not tight");
            }
        }
    }

    #[test]
    fn exact_f32_values_convert_to_themselves() {
        for v in [0.1f32, -7.25, f32::MAX, f32::MIN, 1.0e-45] {
            assert_eq!(ceil_f32(v as f64), v);
            assert_eq!(floor_f32(v as f64), v);
        }
    }

    #[test]
    fn widening_moves_by_a_few_ulps_per_rounding() {
        // One rounding: at least one ulp (the exact value may be half an ulp
        // away and the widening subtraction rounds too), at most four.
        for x in [1.0f64, 1.5, -3.0, 1.0e-300, 123456.789] {
            let d = down(x, 1);
            let u = up(x, 1);
            let ulp = x.abs().next_up() - x.abs();
            assert!(d <= x.next_down() && x - d <= 4.0 * ulp, "{x}: {d}");
            assert!(u >= x.next_up() && u - x <= 4.0 * ulp, "{x}: {u}");
        }
        // Zero moves off zero; infinities stay.
        assert!(down(0.0, 1) < 0.0 && up(0.0, 1) > 0.0);
        assert_eq!(down(f64::NEG_INFINITY, 1), f64::NEG_INFINITY);
        assert_eq!(up(f64::INFINITY, 1), f64::INFINITY);
        // Subnormals: still a bound.
        assert!(down(5e-324, 1) <= 0.0);
    }

    #[test]
    fn bounds_refuse_nan_and_inverted_corners() {
        let z = Vec3d::zeros();
        assert!(Bounds::new(Vec3d::new(f64::NAN, 0.0, 0.0), z).is_err());
        assert!(Bounds::new(z, Vec3d::new(0.0, f64::NAN, 0.0)).is_err());
        assert!(Bounds::new(Vec3d::new(1.0, 0.0, 0.0), z).is_err());
        assert!(Bounds::new(z, Vec3d::repeat(f64::INFINITY)).is_ok());
    }

    #[test]
    fn touching_boxes_intersect_and_separated_ones_do_not() {
        let a = Bounds::new(Vec3d::zeros(), Vec3d::repeat(1.0)).unwrap();
        let b = Bounds::new(Vec3d::new(1.0, 0.0, 0.0), Vec3d::repeat(2.0)).unwrap();
        let c = Bounds::new(Vec3d::new(1.0f64.next_up(), 0.0, 0.0), Vec3d::repeat(2.0)).unwrap();
        assert!(a.intersects(&b) && b.intersects(&a));
        assert!(!a.intersects(&c) && !c.intersects(&a));
        assert!(a.union(&b).contains(&a) && a.union(&b).contains(&b));
    }
}
