//! Outward (directed) rounding of `f64` arithmetic for conservative bounds.
//!
//! Rust offers round-to-nearest only. A bound that must contain an exact value
//! (a swept box, a reach radius, an energy) is therefore computed with
//! round-to-nearest and then widened. The widening is *tight*: the error-free
//! transformations of [`crate::expansion`] say on which side of the exact
//! result the rounded one lies, and only that side is moved by one ulp
//! (`f64::next_down` / `f64::next_up`). Division and square root, which have
//! no cheap error-free form here, are widened by one ulp on both sides (they
//! are correctly rounded, so one ulp always suffices).
//!
//! Precision domain: finite inputs. A result that overflows has the bound
//! `±f64::MAX` on its finite side and `±inf` on the other; tiny products whose
//! error term would underflow are widened on both sides. NaN inputs give NaN.
//! Used where the continuous mode promises conservative bounds
//! (docs/continuous-collision.md, "Performance": swept query bounds use
//! `f64`, each endpoint addition and radius expansion rounds outward).

use crate::expansion::{two_product, two_sum};
use std::ops::{Add, Mul, Neg, Sub};

/// Below this magnitude (2^-969) the error term of a product may underflow,
/// so [`mul_down`] and [`mul_up`] widen both sides instead of trusting it.
const PRODUCT_ERROR_UNDERFLOW: f64 = f64::MIN_POSITIVE * 9007199254740992.0 * 2.0;

fn directed(rounded: f64, error: f64) -> (f64, f64) {
    if rounded.is_infinite() {
        // Finite operands whose exact result exceeds the range.
        return if rounded > 0.0 {
            (f64::MAX, f64::INFINITY)
        } else {
            (f64::NEG_INFINITY, f64::MIN)
        };
    }
    if error > 0.0 {
        (rounded, rounded.next_up())
    } else if error < 0.0 {
        (rounded.next_down(), rounded)
    } else {
        (rounded, rounded)
    }
}

/// Lower and upper `f64` bounds of the exact `a + b`.
#[inline]
pub fn add_bounds(a: f64, b: f64) -> (f64, f64) {
    let (s, e) = two_sum(a, b);
    directed(s, e)
}

/// A value `<= a + b` (exact sum), at most one ulp below it.
#[inline]
pub fn add_down(a: f64, b: f64) -> f64 {
    add_bounds(a, b).0
}

/// A value `>= a + b` (exact sum), at most one ulp above it.
#[inline]
pub fn add_up(a: f64, b: f64) -> f64 {
    add_bounds(a, b).1
}

/// A value `<= a - b` (exact difference).
#[inline]
pub fn sub_down(a: f64, b: f64) -> f64 {
    add_bounds(a, -b).0
}

/// A value `>= a - b` (exact difference).
#[inline]
pub fn sub_up(a: f64, b: f64) -> f64 {
    add_bounds(a, -b).1
}

/// Lower and upper `f64` bounds of the exact `a * b`.
#[inline]
pub fn mul_bounds(a: f64, b: f64) -> (f64, f64) {
    let (p, e) = two_product(a, b);
    if p.is_finite() && p.abs() < PRODUCT_ERROR_UNDERFLOW {
        if p == 0.0 && (a == 0.0 || b == 0.0) {
            return (0.0, 0.0);
        }
        return (p.next_down(), p.next_up());
    }
    directed(p, e)
}

/// A value `<= a * b` (exact product).
#[inline]
pub fn mul_down(a: f64, b: f64) -> f64 {
    mul_bounds(a, b).0
}

/// A value `>= a * b` (exact product).
#[inline]
pub fn mul_up(a: f64, b: f64) -> f64 {
    mul_bounds(a, b).1
}

/// A value `<= a / b` (exact quotient); `b` must be nonzero.
#[inline]
pub fn div_down(a: f64, b: f64) -> f64 {
    let q = a / b;
    if q.is_infinite() && a.is_finite() {
        return if q > 0.0 { f64::MAX } else { q };
    }
    q.next_down()
}

/// A value `>= a / b` (exact quotient); `b` must be nonzero.
#[inline]
pub fn div_up(a: f64, b: f64) -> f64 {
    let q = a / b;
    if q.is_infinite() && a.is_finite() {
        return if q < 0.0 { f64::MIN } else { q };
    }
    q.next_up()
}

/// A value `<= sqrt(x)` for `x >= 0` (never below zero).
#[inline]
pub fn sqrt_down(x: f64) -> f64 {
    let r = x.sqrt();
    if r == 0.0 {
        0.0
    } else {
        r.next_down()
    }
}

/// A value `>= sqrt(x)` for `x >= 0`.
#[inline]
pub fn sqrt_up(x: f64) -> f64 {
    let r = x.sqrt();
    if r == 0.0 && x == 0.0 {
        0.0
    } else {
        r.next_up()
    }
}

/// A value `<=` the exact sum of `values` (each partial sum rounded down).
pub fn sum_down(values: impl IntoIterator<Item = f64>) -> f64 {
    values.into_iter().fold(0.0, add_down)
}

/// A value `>=` the exact sum of `values` (each partial sum rounded up).
pub fn sum_up(values: impl IntoIterator<Item = f64>) -> f64 {
    values.into_iter().fold(0.0, add_up)
}

/// The largest `f32` that is `<= x`: `f32::MAX` for `x` above the `f32`
/// range, `-inf` for `x` below it, NaN for NaN.
pub fn f32_down(x: f64) -> f32 {
    if x.is_nan() {
        return f32::NAN;
    }
    let r = x as f32;
    if f64::from(r) > x {
        if r == f32::INFINITY {
            f32::MAX
        } else {
            r.next_down()
        }
    } else {
        r
    }
}

/// The smallest `f32` that is `>= x`: `f32::MIN` for `x` below the `f32`
/// range, `+inf` for `x` above it, NaN for NaN.
pub fn f32_up(x: f64) -> f32 {
    if x.is_nan() {
        return f32::NAN;
    }
    let r = x as f32;
    if f64::from(r) < x {
        if r == f32::NEG_INFINITY {
            f32::MIN
        } else {
            r.next_up()
        }
    } else {
        r
    }
}

/// A closed `f64` interval `[lo, hi]` whose arithmetic rounds outward, so the
/// result always contains every exact result of its operands' members.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Interval {
    /// Lower end.
    pub lo: f64,
    /// Upper end.
    pub hi: f64,
}

impl Interval {
    /// The interval `[lo, hi]`; the ends are swapped when given in reverse.
    pub fn new(lo: f64, hi: f64) -> Self {
        if lo <= hi {
            Self { lo, hi }
        } else {
            Self { lo: hi, hi: lo }
        }
    }

    /// The degenerate interval `[x, x]`.
    pub fn point(x: f64) -> Self {
        Self { lo: x, hi: x }
    }

    /// Whether `x` lies in the interval (ends included).
    pub fn contains(&self, x: f64) -> bool {
        self.lo <= x && x <= self.hi
    }

    /// Width `hi - lo`, rounded up.
    pub fn width(&self) -> f64 {
        sub_up(self.hi, self.lo)
    }

    /// The smallest interval containing both.
    pub fn hull(&self, other: &Self) -> Self {
        Self {
            lo: self.lo.min(other.lo),
            hi: self.hi.max(other.hi),
        }
    }

    /// An interval containing `{x^2 : x in self}` (tighter than `self * self`).
    pub fn square(&self) -> Self {
        let (lo_sq_lo, lo_sq_hi) = mul_bounds(self.lo, self.lo);
        let (hi_sq_lo, hi_sq_hi) = mul_bounds(self.hi, self.hi);
        if self.lo >= 0.0 {
            Self::new(lo_sq_lo, hi_sq_hi)
        } else if self.hi <= 0.0 {
            Self::new(hi_sq_lo, lo_sq_hi)
        } else {
            Self::new(0.0, lo_sq_hi.max(hi_sq_hi))
        }
    }

    /// An interval containing `{sqrt(x) : x in self, x >= 0}`; the negative
    /// part is clipped to zero.
    pub fn sqrt(&self) -> Self {
        Self::new(sqrt_down(self.lo.max(0.0)), sqrt_up(self.hi.max(0.0)))
    }
}

impl Add for Interval {
    type Output = Interval;
    fn add(self, rhs: Interval) -> Interval {
        Interval {
            lo: add_down(self.lo, rhs.lo),
            hi: add_up(self.hi, rhs.hi),
        }
    }
}

impl Sub for Interval {
    type Output = Interval;
    fn sub(self, rhs: Interval) -> Interval {
        Interval {
            lo: sub_down(self.lo, rhs.hi),
            hi: sub_up(self.hi, rhs.lo),
        }
    }
}

impl Neg for Interval {
    type Output = Interval;
    fn neg(self) -> Interval {
        Interval {
            lo: -self.hi,
            hi: -self.lo,
        }
    }
}

impl Mul for Interval {
    type Output = Interval;
    fn mul(self, rhs: Interval) -> Interval {
        let candidates = [
            mul_bounds(self.lo, rhs.lo),
            mul_bounds(self.lo, rhs.hi),
            mul_bounds(self.hi, rhs.lo),
            mul_bounds(self.hi, rhs.hi),
        ];
        let lo = candidates.iter().map(|c| c.0).fold(f64::INFINITY, f64::min);
        let hi = candidates
            .iter()
            .map(|c| c.1)
            .fold(f64::NEG_INFINITY, f64::max);
        Interval { lo, hi }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_exact_sum_is_not_widened() {
        assert_eq!(add_bounds(1.0, 2.0), (3.0, 3.0));
    }

    #[test]
    fn an_inexact_sum_is_widened_on_one_side_only() {
        // 1 + 2^-60 rounds to 1, below the exact value.
        let (lo, hi) = add_bounds(1.0, 2f64.powi(-60));
        assert_eq!(lo, 1.0);
        assert_eq!(hi, 1.0f64.next_up());
    }

    #[test]
    fn overflow_keeps_a_finite_lower_bound() {
        assert_eq!(add_bounds(f64::MAX, f64::MAX), (f64::MAX, f64::INFINITY));
        assert_eq!(mul_bounds(-1e200, 1e200), (f64::NEG_INFINITY, f64::MIN));
    }

    #[test]
    fn underflowing_products_still_bracket_the_exact_value() {
        // The exact product 1e-400 is below the smallest subnormal: the
        // rounded product is 0 and both sides must move.
        let (lo, hi) = mul_bounds(1e-200, 1e-200);
        assert!(lo <= 0.0);
        assert!(hi >= f64::from_bits(1));
    }

    #[test]
    fn f32_rounding_is_directed() {
        let x = 0.1f64;
        assert!(f64::from(f32_down(x)) <= x && x <= f64::from(f32_up(x)));
        assert_eq!(f32_down(1e300), f32::MAX);
        assert_eq!(f32_up(1e300), f32::INFINITY);
        assert_eq!(f32_up(-1e300), f32::MIN);
        assert_eq!(f32_down(-1e300), f32::NEG_INFINITY);
        assert_eq!(f32_down(0.5), 0.5);
    }
}
