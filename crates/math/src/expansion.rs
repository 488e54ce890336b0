//! Error-free transformations and floating-point expansion arithmetic.
//!
//! Method: Shewchuk, "Adaptive Precision Floating-Point Arithmetic and Fast
//! Robust Geometric Predicates" (Discrete Comput. Geom. 18, 1997). A number is
//! held as an *expansion*: a sum of `f64` components that do not overlap,
//! ordered by increasing magnitude, whose exact sum is the value. Sums
//! (`Grow-Expansion`, Shewchuk Theorem 10) and products by a double
//! (`Scale-Expansion`, Theorem 19, with `two_product` from a fused
//! multiply-add) are exact; the sign of an expansion is the sign of its most
//! significant nonzero component.
//!
//! Precision domain: every operation is exact as long as no intermediate
//! overflows and no product's low-order part falls below the smallest
//! subnormal (2^-1074). The callers ([`crate::exact_det`], [`crate::orient`])
//! state the input ranges that guarantee this.

/// Sum of two doubles as `(s, e)` with `s = fl(a + b)` and `a + b = s + e` exactly
/// (Knuth's branch-free TwoSum; exact whenever `a + b` does not overflow).
#[inline]
pub fn two_sum(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    let bv = s - a;
    let av = s - bv;
    let e = (a - av) + (b - bv);
    (s, e)
}

/// `(s, e)` with `s = fl(a + b)` and `a + b = s + e` exactly, valid when
/// `|a| >= |b|` or `a == 0` (Dekker's FastTwoSum).
#[inline]
fn fast_two_sum(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    let e = b - (s - a);
    (s, e)
}

/// Product of two doubles as `(p, e)` with `p = fl(a * b)` and `a * b = p + e`
/// exactly, computed with one fused multiply-add. Exact whenever the product
/// neither overflows nor has a low part below 2^-1074 (underflow).
#[inline]
pub fn two_product(a: f64, b: f64) -> (f64, f64) {
    let p = a * b;
    let e = a.mul_add(b, -p);
    (p, e)
}

/// A nonoverlapping expansion: the exact sum of its components, which are
/// ordered by increasing magnitude with zeros removed.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Expansion {
    components: Vec<f64>,
}

impl Expansion {
    /// The expansion of one double (exact).
    pub fn from_f64(value: f64) -> Self {
        let components = if value == 0.0 {
            Vec::new()
        } else {
            vec![value]
        };
        Self { components }
    }

    /// The exact difference `a - b` of two doubles (two components at most).
    pub fn difference(a: f64, b: f64) -> Self {
        let (s, e) = two_sum(a, -b);
        Self::from_pair(s, e)
    }

    /// The exact product `a * b` of two doubles (two components at most).
    pub fn product_of(a: f64, b: f64) -> Self {
        let (p, e) = two_product(a, b);
        Self::from_pair(p, e)
    }

    fn from_pair(high: f64, low: f64) -> Self {
        let mut components = Vec::with_capacity(2);
        if low != 0.0 {
            components.push(low);
        }
        if high != 0.0 {
            components.push(high);
        }
        Self { components }
    }

    /// The components, least significant first.
    pub fn components(&self) -> &[f64] {
        &self.components
    }

    /// The exact sum `self + b` (Shewchuk's Grow-Expansion with zero elimination).
    pub fn grow(&self, b: f64) -> Self {
        let mut out = Vec::with_capacity(self.components.len() + 1);
        let mut q = b;
        for &c in &self.components {
            let (s, e) = two_sum(q, c);
            if e != 0.0 {
                out.push(e);
            }
            q = s;
        }
        if q != 0.0 {
            out.push(q);
        }
        Self { components: out }
    }

    /// The exact sum `self + other`.
    pub fn add(&self, other: &Self) -> Self {
        let mut acc = self.clone();
        for &c in &other.components {
            acc = acc.grow(c);
        }
        acc
    }

    /// The exact negation.
    pub fn neg(&self) -> Self {
        Self {
            components: self.components.iter().map(|c| -c).collect(),
        }
    }

    /// The exact difference `self - other`.
    pub fn sub(&self, other: &Self) -> Self {
        self.add(&other.neg())
    }

    /// The exact product `self * b` (Shewchuk's Scale-Expansion with zero elimination).
    pub fn scale(&self, b: f64) -> Self {
        let mut out = Vec::with_capacity(2 * self.components.len());
        let mut iter = self.components.iter();
        let Some(&first) = iter.next() else {
            return Self::default();
        };
        let (mut q, h0) = two_product(first, b);
        if h0 != 0.0 {
            out.push(h0);
        }
        for &c in iter {
            let (t_high, t_low) = two_product(c, b);
            let (s, h) = two_sum(q, t_low);
            if h != 0.0 {
                out.push(h);
            }
            let (s2, h2) = fast_two_sum(t_high, s);
            if h2 != 0.0 {
                out.push(h2);
            }
            q = s2;
        }
        if q != 0.0 {
            out.push(q);
        }
        Self { components: out }
    }

    /// The exact product `self * other` (a sum of scaled expansions).
    pub fn mul(&self, other: &Self) -> Self {
        let mut acc = Self::default();
        for &c in &other.components {
            acc = acc.add(&self.scale(c));
        }
        acc
    }

    /// The sign of the exact value: -1, 0 or +1.
    pub fn signum(&self) -> i8 {
        match self.components.iter().rev().find(|c| **c != 0.0) {
            Some(c) if *c > 0.0 => 1,
            Some(_) => -1,
            None => 0,
        }
    }

    /// The value rounded to a double (the sum of the components, most
    /// significant last; within a few ulps, for display and estimates).
    pub fn estimate(&self) -> f64 {
        self.components.iter().sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_sum_recovers_the_lost_low_part() {
        let (s, e) = two_sum(1.0, 1.0e-20);
        assert_eq!(s, 1.0);
        assert_eq!(e, 1.0e-20);
    }

    #[test]
    fn two_product_recovers_the_lost_low_part() {
        let a = 1.0 + f64::EPSILON;
        let (p, e) = two_product(a, a);
        // (1 + eps)^2 = 1 + 2 eps + eps^2: the eps^2 term is the error.
        assert_eq!(p, 1.0 + 2.0 * f64::EPSILON);
        assert_eq!(e, f64::EPSILON * f64::EPSILON);
    }

    #[test]
    fn a_cancelling_sum_has_the_sign_of_its_tiny_remainder() {
        let big = Expansion::from_f64(1.0e30);
        let sum = big.grow(1.0e-30).grow(-1.0e30);
        assert_eq!(sum.signum(), 1);
        assert_eq!(sum.estimate(), 1.0e-30);
        assert_eq!(sum.grow(-1.0e-30).signum(), 0);
    }

    #[test]
    fn products_of_expansions_are_exact() {
        // (1 + 2^-60)(1 - 2^-60) = 1 - 2^-120.
        let t = 2f64.powi(-60);
        let a = Expansion::from_f64(1.0).grow(t);
        let b = Expansion::from_f64(1.0).grow(-t);
        let p = a.mul(&b);
        let rest = p.grow(-1.0);
        assert_eq!(rest.components(), &[-(t * t)]);
    }
}
