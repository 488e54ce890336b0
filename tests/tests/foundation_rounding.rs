//! Outward rounding of parapet-math checked against exact rational results
//! (num-rational `BigRational`): every rounded bound must contain the exact
//! sum, difference, product, quotient or square root, and be tight (at most
//! one ulp away). Also the `f64` to `f32` directed roundings and the outward
//! growth of `Aabbd`.

use num_rational::BigRational;
use num_traits::Zero;
use parapet_geometry::Aabbd;
use parapet_math::rounding::{
    add_bounds, div_down, div_up, f32_down, f32_up, mul_bounds, sqrt_down, sqrt_up, sub_down,
    sub_up, sum_down, sum_up, Interval,
};
use parapet_math::Vec3d;
use proptest::prelude::*;

fn q(x: f64) -> BigRational {
    BigRational::from_float(x).expect("finite")
}

/// Finite doubles across the whole range, with extra weight on exact
/// cancellations, tiny values and simple numbers.
fn any_finite() -> impl Strategy<Value = f64> {
    prop_oneof![
        4 => any::<f64>().prop_filter("finite", |x| x.is_finite()),
        3 => -1.0e6f64..1.0e6,
        1 => -1.0e-300f64..1.0e-300,
        1 => (-20i32..20).prop_map(|k| f64::from(k) * 0.1),
    ]
}

/// Checks `lo <= exact <= hi` for a finite pair, treating infinite ends as
/// unbounded, and that a finite end is at most one ulp from the exact value.
fn brackets(lo: f64, hi: f64, exact: &BigRational) -> Result<(), TestCaseError> {
    if lo.is_finite() {
        prop_assert!(q(lo) <= *exact, "lower bound {lo} above the exact value");
        // Tight: the next double up is not below the exact value, unless the
        // bound was moved from an already exact result (then lo is exact).
        let next = lo.next_up();
        prop_assert!(
            !next.is_finite() || q(next) >= *exact || q(lo) == *exact,
            "lower bound {lo} is not tight"
        );
    } else {
        prop_assert!(lo == f64::NEG_INFINITY);
    }
    if hi.is_finite() {
        prop_assert!(q(hi) >= *exact, "upper bound {hi} below the exact value");
        let prev = hi.next_down();
        prop_assert!(
            !prev.is_finite() || q(prev) <= *exact || q(hi) == *exact,
            "upper bound {hi} is not tight"
        );
    } else {
        prop_assert!(hi == f64::INFINITY);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn sums_are_bracketed(a in any_finite(), b in any_finite()) {
        let (lo, hi) = add_bounds(a, b);
        brackets(lo, hi, &(q(a) + q(b)))?;
    }

    #[test]
    fn differences_are_bracketed(a in any_finite(), b in any_finite()) {
        brackets(sub_down(a, b), sub_up(a, b), &(q(a) - q(b)))?;
    }

    #[test]
    fn products_are_bracketed(a in any_finite(), b in any_finite()) {
        let (lo, hi) = mul_bounds(a, b);
        let exact = q(a) * q(b);
        // Products whose error term may underflow are widened on both sides:
        // containment still holds; tightness is then two ulps at most.
        prop_assert!(!lo.is_finite() || q(lo) <= exact);
        prop_assert!(!hi.is_finite() || q(hi) >= exact);
        if (a * b).abs() > 1.0e-290 {
            brackets(lo, hi, &exact)?;
        }
    }

    #[test]
    fn quotients_are_bracketed(a in any_finite(), b in any_finite()) {
        prop_assume!(b != 0.0);
        let exact = q(a) / q(b);
        let (lo, hi) = (div_down(a, b), div_up(a, b));
        prop_assert!(!lo.is_finite() || q(lo) <= exact, "{lo} > {a}/{b}");
        prop_assert!(!hi.is_finite() || q(hi) >= exact, "{hi} < {a}/{b}");
    }

    #[test]
    fn square_roots_are_bracketed(x in any_finite()) {
        let x = x.abs();
        let (lo, hi) = (sqrt_down(x), sqrt_up(x));
        // lo^2 <= x <= hi^2 in exact arithmetic, with lo >= 0.
        prop_assert!(lo >= 0.0);
        prop_assert!(q(lo) * q(lo) <= q(x));
        prop_assert!(q(hi) * q(hi) >= q(x));
    }

    #[test]
    fn long_sums_are_bracketed(values in proptest::collection::vec(any_finite(), 0..20)) {
        let exact = values.iter().fold(BigRational::zero(), |acc, v| acc + q(*v));
        let lo = sum_down(values.iter().copied());
        let hi = sum_up(values.iter().copied());
        prop_assert!(!lo.is_finite() || q(lo) <= exact);
        prop_assert!(!hi.is_finite() || q(hi) >= exact);
    }

    #[test]
    fn interval_arithmetic_contains_every_exact_result(
        a in -1.0e3f64..1.0e3, wa in 0.0f64..10.0, b in -1.0e3f64..1.0e3, wb in 0.0f64..10.0,
        ta in 0.0f64..=1.0, tb in 0.0f64..=1.0,
    ) {
        let x = Interval::new(a, a + wa);
        let y = Interval::new(b, b + wb);
        // Members of each interval (rounded into it).
        let xm = (a + ta * wa).clamp(x.lo, x.hi);
        let ym = (b + tb * wb).clamp(y.lo, y.hi);
        let (qx, qy) = (q(xm), q(ym));
        for (r, exact) in [
            (x + y, &qx + &qy),
            (x - y, &qx - &qy),
            (x * y, &qx * &qy),
            (x.square(), &qx * &qx),
            (-x, -qx.clone()),
        ] {
            prop_assert!(q(r.lo) <= exact && exact <= q(r.hi), "{r:?}");
        }
        let s = x.square().sqrt();
        prop_assert!(q(s.lo) * q(s.lo) <= &qx * &qx && &qx * &qx <= q(s.hi) * q(s.hi));
    }

    #[test]
    fn f32_roundings_are_directed_and_tight(x in any_finite()) {
        let (lo, hi) = (f32_down(x), f32_up(x));
        prop_assert!(lo == f32::NEG_INFINITY || q(f64::from(lo)) <= q(x));
        prop_assert!(hi == f32::INFINITY || q(f64::from(hi)) >= q(x));
        // Tight: no f32 strictly between the bound and x.
        prop_assert!(lo == f32::MAX || !lo.next_up().is_finite() || f64::from(lo.next_up()) > x || f64::from(lo) == x);
        prop_assert!(hi == f32::MIN || !hi.next_down().is_finite() || f64::from(hi.next_down()) < x || f64::from(hi) == x);
    }

    #[test]
    fn grown_and_swept_boxes_contain_the_exact_sets(
        c in proptest::array::uniform3(-1.0e6f64..1.0e6), h in proptest::array::uniform3(0.0f64..10.0),
        r in 0.0f64..5.0, d in proptest::array::uniform3(-100.0f64..100.0), t in 0.0f64..=1.0,
    ) {
        let min = Vec3d::new(c[0] - h[0], c[1] - h[1], c[2] - h[2]);
        let max = Vec3d::new(c[0] + h[0], c[1] + h[1], c[2] + h[2]);
        let b = Aabbd::new(min, max);
        let grown = b.grown(r);
        let disp = Vec3d::new(d[0], d[1], d[2]);
        let swept = b.swept(&disp);
        let small = swept.to_f32_outward();
        for i in 0..3 {
            prop_assert!(q(grown.min[i]) <= q(min[i]) - q(r));
            prop_assert!(q(grown.max[i]) >= q(max[i]) + q(r));
            // The corner max moved by t d (exactly) stays in the swept box
            // when t is 0 or 1; in between, min/max of the two ends cover it.
            let moved_max = q(max[i]) + q(t) * q(disp[i]);
            let moved_min = q(min[i]) + q(t) * q(disp[i]);
            prop_assert!(q(swept.min[i]) <= moved_min && moved_max <= q(swept.max[i]));
            prop_assert!(q(f64::from(small.min[i])) <= q(swept.min[i]));
            prop_assert!(q(f64::from(small.max[i])) >= q(swept.max[i]));
        }
    }
}

#[test]
fn an_exact_operation_is_not_widened() {
    // Bounds of exactly representable results collapse to the result: the
    // tightness that keeps swept bounds from growing step after step.
    assert_eq!(add_bounds(0.5, 0.25), (0.75, 0.75));
    assert_eq!(mul_bounds(3.0, 0.125), (0.375, 0.375));
}
