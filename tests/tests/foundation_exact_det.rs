//! Exact determinant and orientation signs of parapet-math checked against
//! exact rational arithmetic (num-rational `BigRational`, which shares no code
//! with the expansion arithmetic under test): singular, near-singular and
//! scaled matrices, `f32` extremes, and randomized matrices (proptest).

use num_rational::BigRational;
use num_traits::{Signed, Zero};
use parapet_math::{
    det3_sign, det3_sign_f32, is_symmetric_positive_definite, orient3d, ExactSignError, Mat3,
    Mat3d, Sign, Vec3,
};
use proptest::prelude::*;
use rstest::rstest;

fn q(x: f64) -> BigRational {
    BigRational::from_float(x).expect("finite")
}

/// The determinant of a matrix in exact rationals.
fn rational_det(m: &Mat3d) -> BigRational {
    let e = |r: usize, c: usize| q(m[(r, c)]);
    e(0, 0) * (e(1, 1) * e(2, 2) - e(1, 2) * e(2, 1))
        - e(0, 1) * (e(1, 0) * e(2, 2) - e(1, 2) * e(2, 0))
        + e(0, 2) * (e(1, 0) * e(2, 1) - e(1, 1) * e(2, 0))
}

fn rational_sign(x: &BigRational) -> Sign {
    if x.is_zero() {
        Sign::Zero
    } else if x.is_positive() {
        Sign::Positive
    } else {
        Sign::Negative
    }
}

fn oracle(m: &Mat3d) -> Sign {
    rational_sign(&rational_det(m))
}

fn rows(r: [[f64; 3]; 3]) -> Mat3d {
    Mat3d::from_row_slice(&r.concat())
}

/// One ulp of perturbation of entry (2, 2).
fn nudge(m: Mat3d, up: bool) -> Mat3d {
    nudge_entry(m, 2, 2, up)
}

/// One ulp of perturbation of entry (r, c).
fn nudge_entry(m: Mat3d, r: usize, c: usize, up: bool) -> Mat3d {
    let mut m = m;
    m[(r, c)] = if up {
        m[(r, c)].next_up()
    } else {
        m[(r, c)].next_down()
    };
    m
}

#[rstest]
#[case::repeated_row(rows([[0.1, 0.2, 0.3], [0.7, 0.11, 0.13], [0.1, 0.2, 0.3]]))]
#[case::zero_column(rows([[0.0, 0.2, 0.3], [0.0, 0.11, 0.13], [0.0, 5.0, 7.0]]))]
// Row 3 = row 1 + row 2 with exactly representable sums.
#[case::sum_of_rows(rows([[0.5, 0.25, 3.0], [1.5, -0.75, 2.0], [2.0, -0.5, 5.0]]))]
// Rank one outer product u v^T with entries exact in f64.
#[case::rank_one(rows([[1.0, 3.0, 5.0], [2.0, 6.0, 10.0], [0.5, 1.5, 2.5]]))]
#[case::rank_one_scaled_up(rows([[1.0, 3.0, 5.0], [2.0, 6.0, 10.0], [0.5, 1.5, 2.5]]) * 2f64.powi(200))]
#[case::rank_one_scaled_down(rows([[1.0, 3.0, 5.0], [2.0, 6.0, 10.0], [0.5, 1.5, 2.5]]) * 2f64.powi(-200))]
fn exactly_singular_matrices_have_sign_zero(#[case] m: Mat3d) {
    assert_eq!(oracle(&m), Sign::Zero, "the case itself must be singular");
    assert_eq!(det3_sign(&m), Ok(Sign::Zero));
    // One ulp away in any entry the sign must follow the exact determinant
    // (nonzero when that entry's cofactor is nonzero; a rank-one matrix stays
    // singular under any single-entry change).
    // Zero entries are skipped: one ulp above zero is 2^-1074, outside the
    // documented f64 domain next to entries near 1 (tested separately below).
    for r in 0..3 {
        for c in (0..3).filter(|&c| m[(r, c)] != 0.0) {
            for up in [true, false] {
                let n = nudge_entry(m, r, c, up);
                assert_eq!(det3_sign(&n), Ok(oracle(&n)), "entry ({r}, {c}) up {up}");
            }
        }
    }
}

#[rstest]
#[case::unit(1.0)]
#[case::tiny_power_of_two(2f64.powi(-900))]
#[case::huge_power_of_two(2f64.powi(900))]
#[case::millimetre(1.0e-3)]
#[case::kilometre(1.0e3)]
#[case::awkward(1.0e-30)]
#[case::awkward_large(3.7e+45)]
fn scaled_near_singular_matrices_agree_with_rationals(#[case] scale: f64) {
    // Hilbert-like, nearly singular, then scaled (scaling by a non-power of
    // two rounds the entries; the oracle sees the rounded matrix).
    let base = rows([
        [1.0, 0.5, 1.0 / 3.0],
        [0.5, 1.0 / 3.0, 0.25],
        [1.0 / 3.0, 0.25, 0.2],
    ]);
    for m in [base, nudge(base, true), nudge(base, false)] {
        let s = m * scale;
        assert_eq!(det3_sign(&s), Ok(oracle(&s)), "scale {scale}");
    }
}

#[test]
fn rows_of_very_different_scales_keep_their_sign() {
    // Each row lives at its own scale; the determinant is tiny but positive.
    let m = rows([
        [2f64.powi(500), 0.0, 0.0],
        [0.0, 2f64.powi(-500), 0.0],
        [0.0, 0.0, 1.0e-300],
    ]);
    assert_eq!(det3_sign(&m), Ok(Sign::Positive));
    assert_eq!(oracle(&m), Sign::Positive);
}

#[test]
fn entries_outside_the_exact_domain_are_refused_not_guessed() {
    let m = rows([[1.0, 1.0e-200, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]);
    assert!(matches!(
        det3_sign(&m),
        Err(ExactSignError::OutsideExactDomain {
            row: 0,
            column: 1,
            ..
        })
    ));
}

#[test]
fn extreme_f32_matrices_are_decided_exactly() {
    let tiny = f32::from_bits(1);
    let cases = [
        Mat3::new(
            f32::MAX,
            tiny,
            0.0,
            tiny,
            f32::MAX,
            tiny,
            0.0,
            tiny,
            f32::MAX,
        ),
        Mat3::new(
            tiny,
            tiny,
            tiny,
            tiny,
            tiny,
            tiny,
            tiny,
            tiny,
            tiny.next_up(),
        ),
        Mat3::new(
            f32::MAX,
            f32::MAX,
            0.0,
            f32::MAX,
            f32::MAX,
            0.0,
            0.0,
            0.0,
            1.0,
        ),
        Mat3::new(
            f32::MAX,
            f32::MAX,
            0.0,
            f32::MAX,
            f32::MAX.next_down(),
            0.0,
            0.0,
            0.0,
            tiny,
        ),
    ];
    for m in cases {
        assert_eq!(det3_sign_f32(&m), Ok(oracle(&m.cast())), "{m}");
    }
}

/// Whether an f32 matrix is symmetric positive definite, in rationals
/// (Sylvester's criterion on exact minors).
fn rational_spd(m: &Mat3) -> bool {
    let e = |r: usize, c: usize| q(f64::from(m[(r, c)]));
    let symmetric = (0..3).all(|r| (0..3).all(|c| m[(r, c)] == m[(c, r)]));
    let minor1 = e(0, 0);
    let minor2 = e(0, 0) * e(1, 1) - e(0, 1) * e(1, 0);
    symmetric
        && minor1.is_positive()
        && minor2.is_positive()
        && rational_det(&m.cast()).is_positive()
}

#[test]
fn positive_definiteness_at_the_edge_is_exact() {
    // [[1, 1, 0], [1, 1 + d, 0], [0, 0, 1]] is positive definite for every d > 0.
    let one_plus = 1.0f32.next_up();
    let barely = Mat3::new(1.0, 1.0, 0.0, 1.0, one_plus, 0.0, 0.0, 0.0, 1.0);
    let singular = Mat3::new(1.0, 1.0, 0.0, 1.0, 1.0, 0.0, 0.0, 0.0, 1.0);
    assert!(is_symmetric_positive_definite(&barely));
    assert!(rational_spd(&barely));
    assert!(!is_symmetric_positive_definite(&singular));
    assert!(!rational_spd(&singular));
}

fn orient_oracle(a: Vec3, b: Vec3, c: Vec3, d: Vec3) -> Sign {
    let p = |v: Vec3| [q(f64::from(v.x)), q(f64::from(v.y)), q(f64::from(v.z))];
    let [a, b, c, d] = [p(a), p(b), p(c), p(d)];
    let sub =
        |u: &[BigRational; 3], v: &[BigRational; 3]| [&u[0] - &v[0], &u[1] - &v[1], &u[2] - &v[2]];
    let (u, v, w) = (sub(&b, &a), sub(&c, &a), sub(&d, &a));
    let n = [
        &u[1] * &v[2] - &u[2] * &v[1],
        &u[2] * &v[0] - &u[0] * &v[2],
        &u[0] * &v[1] - &u[1] * &v[0],
    ];
    rational_sign(&(&n[0] * &w[0] + &n[1] * &w[1] + &n[2] * &w[2]))
}

/// An f64 in the exact domain: mantissa with a random exponent in [-300, 300]
/// times a shared row scale, or zero.
fn domain_f64() -> impl Strategy<Value = f64> {
    prop_oneof![
        1 => Just(0.0),
        6 => (any::<u64>(), -60i32..60, any::<bool>()).prop_map(|(bits, e, neg)| {
            let mantissa = 1.0 + (bits >> 12) as f64 * 2f64.powi(-52);
            let v = mantissa * 2f64.powi(e);
            if neg { -v } else { v }
        }),
        1 => (-4i64..=4).prop_map(|k| k as f64),
    ]
}

fn f32_coordinate() -> impl Strategy<Value = f32> {
    prop_oneof![
        4 => -8.0f32..8.0,
        1 => (-64i32..64).prop_map(|k| k as f32 * 0.125),
        1 => any::<f32>().prop_filter("finite", |x| x.is_finite()),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn det3_sign_matches_rationals(entries in proptest::array::uniform9(domain_f64()),
                                   scale_exp in -400i32..400) {
        let m = Mat3d::from_row_slice(&entries) * 2f64.powi(scale_exp / 2) * 2f64.powi(scale_exp - scale_exp / 2);
        prop_assert_eq!(det3_sign(&m), Ok(oracle(&m)));
    }

    #[test]
    fn det3_sign_matches_rationals_on_built_singular_matrices(
        a in proptest::array::uniform3(-1000i64..1000),
        b in proptest::array::uniform3(-1000i64..1000),
        s in -50i64..50, t in -50i64..50,
        scale_exp in -300i32..300,
    ) {
        // Row 3 = s row1 + t row2 in small integers (exact), scaled by 2^k.
        let k = 2f64.powi(scale_exp);
        let r3: Vec<f64> = (0..3).map(|i| (s * a[i] + t * b[i]) as f64 * k).collect();
        let m = Mat3d::new(a[0] as f64 * k, a[1] as f64 * k, a[2] as f64 * k,
                           b[0] as f64 * k, b[1] as f64 * k, b[2] as f64 * k,
                           r3[0], r3[1], r3[2]);
        prop_assert_eq!(oracle(&m), Sign::Zero);
        prop_assert_eq!(det3_sign(&m), Ok(Sign::Zero));
    }

    #[test]
    fn det3_sign_f32_matches_rationals(entries in proptest::array::uniform9(f32_coordinate())) {
        let m = Mat3::from_row_slice(&entries);
        prop_assert_eq!(det3_sign_f32(&m), Ok(oracle(&m.cast())));
    }

    #[test]
    fn orient3d_matches_rationals(p in proptest::array::uniform12(f32_coordinate())) {
        let v = |i: usize| Vec3::new(p[3 * i], p[3 * i + 1], p[3 * i + 2]);
        prop_assert_eq!(orient3d(v(0), v(1), v(2), v(3)), orient_oracle(v(0), v(1), v(2), v(3)));
    }

    #[test]
    fn orient3d_matches_rationals_near_a_plane(p in proptest::array::uniform9(-4.0f32..4.0),
                                                 u in 0.0f32..1.0, w in 0.0f32..1.0, ulps in -2i32..=2) {
        // d is an f32-rounded affine combination of a, b, c, then nudged by
        // a few ulps: near-coplanar where the filter must hand over.
        let v = |i: usize| Vec3::new(p[3 * i], p[3 * i + 1], p[3 * i + 2]);
        let (a, b, c) = (v(0), v(1), v(2));
        let mut d = a + (b - a) * u + (c - a) * w;
        d.z = f32::from_bits(d.z.to_bits().wrapping_add_signed(ulps));
        prop_assume!(d.z.is_finite());
        prop_assert_eq!(orient3d(a, b, c, d), orient_oracle(a, b, c, d));
    }

    #[test]
    fn positive_definiteness_matches_rationals(d in proptest::array::uniform3(-2.0f32..4.0),
                                               o in proptest::array::uniform3(-2.0f32..2.0)) {
        let m = Mat3::new(d[0], o[0], o[1], o[0], d[1], o[2], o[1], o[2], d[2]);
        prop_assert_eq!(is_symmetric_positive_definite(&m), rational_spd(&m));
    }
}
