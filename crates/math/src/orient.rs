//! Exact orientation of four points (`orient3d`) and collinearity of three,
//! for `f32` input points.
//!
//! Method: Shewchuk 1997. A floating-point filter evaluates the determinant
//! `det[b - a, c - a, d - a]` in `f64` and accepts its sign when its magnitude
//! exceeds Shewchuk's forward error bound (`o3derrboundA = (7 + 56 eps) eps`
//! times the permanent); otherwise the determinant is evaluated exactly in
//! expansion arithmetic ([`crate::expansion`]) from the exact coordinate
//! differences.
//!
//! Precision domain: exact for all finite `f32` points. Every coordinate
//! difference of two `f32` values is a two-component expansion with lowest bit
//! at or above 2^-149, so triple products have lowest bit at or above 2^-447
//! and magnitude below 2^390: no underflow or overflow in `f64`. The filter is
//! skipped when its permanent is below 2^-900 (where its error analysis would
//! meet underflow).

use crate::exact_det::Sign;
use crate::expansion::Expansion;
use crate::Vec3;

/// Shewchuk's `o3derrboundA`: relative error bound of the filtered `f64`
/// orientation determinant (dimensionless), eps = 2^-53.
const ORIENT3D_ERROR_BOUND: f64 = (7.0 + 56.0 * (f64::EPSILON / 2.0)) * (f64::EPSILON / 2.0);

/// Smallest permanent (m^3) for which the `f64` filter is trusted; below it
/// subnormal rounding could exceed the relative bound.
const FILTER_MIN_PERMANENT: f64 = 1.0e-270;

/// The exact sign of `((b - a) x (c - a)) . (d - a)`: positive when `d` lies on
/// the side that the counter-clockwise normal of triangle `(a, b, c)` points to,
/// zero when the four points are exactly coplanar.
///
/// Non-finite coordinates give [`Sign::Zero`] only if the filter cannot
/// decide; callers validate finiteness first (every parapet shape does).
pub fn orient3d(a: Vec3, b: Vec3, c: Vec3, d: Vec3) -> Sign {
    let [ax, ay, az] = [f64::from(a.x), f64::from(a.y), f64::from(a.z)];
    let (bx, by, bz) = (
        f64::from(b.x) - ax,
        f64::from(b.y) - ay,
        f64::from(b.z) - az,
    );
    let (cx, cy, cz) = (
        f64::from(c.x) - ax,
        f64::from(c.y) - ay,
        f64::from(c.z) - az,
    );
    let (dx, dy, dz) = (
        f64::from(d.x) - ax,
        f64::from(d.y) - ay,
        f64::from(d.z) - az,
    );

    let bycz = by * cz;
    let bzcy = bz * cy;
    let bzcx = bz * cx;
    let bxcz = bx * cz;
    let bxcy = bx * cy;
    let bycx = by * cx;
    let det = dx * (bycz - bzcy) + dy * (bzcx - bxcz) + dz * (bxcy - bycx);
    let permanent = dx.abs() * (bycz.abs() + bzcy.abs())
        + dy.abs() * (bzcx.abs() + bxcz.abs())
        + dz.abs() * (bxcy.abs() + bycx.abs());
    if permanent >= FILTER_MIN_PERMANENT && permanent.is_finite() {
        let bound = ORIENT3D_ERROR_BOUND * permanent;
        if det > bound {
            return Sign::Positive;
        }
        if -det > bound {
            return Sign::Negative;
        }
    }
    orient3d_exact(a, b, c, d)
}

fn diff(p: f32, q: f32) -> Expansion {
    Expansion::difference(f64::from(p), f64::from(q))
}

/// The exact orientation without the filter (always expansion arithmetic).
pub fn orient3d_exact(a: Vec3, b: Vec3, c: Vec3, d: Vec3) -> Sign {
    let (bx, by, bz) = (diff(b.x, a.x), diff(b.y, a.y), diff(b.z, a.z));
    let (cx, cy, cz) = (diff(c.x, a.x), diff(c.y, a.y), diff(c.z, a.z));
    let (dx, dy, dz) = (diff(d.x, a.x), diff(d.y, a.y), diff(d.z, a.z));
    let nx = by.mul(&cz).sub(&bz.mul(&cy));
    let ny = bz.mul(&cx).sub(&bx.mul(&cz));
    let nz = bx.mul(&cy).sub(&by.mul(&cx));
    let det = dx.mul(&nx).add(&dy.mul(&ny)).add(&dz.mul(&nz));
    Sign::from_i8(det.signum())
}

/// Whether three `f32` points are exactly collinear (including coincident):
/// every component of `(b - a) x (c - a)` is exactly zero.
pub fn collinear(a: Vec3, b: Vec3, c: Vec3) -> bool {
    let (bx, by, bz) = (diff(b.x, a.x), diff(b.y, a.y), diff(b.z, a.z));
    let (cx, cy, cz) = (diff(c.x, a.x), diff(c.y, a.y), diff(c.z, a.z));
    by.mul(&cz).sub(&bz.mul(&cy)).signum() == 0
        && bz.mul(&cx).sub(&bx.mul(&cz)).signum() == 0
        && bx.mul(&cy).sub(&by.mul(&cx)).signum() == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_counter_clockwise_normal_side_is_positive() {
        let a = Vec3::zeros();
        let b = Vec3::x();
        let c = Vec3::y();
        assert_eq!(orient3d(a, b, c, Vec3::z()), Sign::Positive);
        assert_eq!(orient3d(a, b, c, -Vec3::z()), Sign::Negative);
        assert_eq!(orient3d(a, b, c, Vec3::new(5.0, -3.0, 0.0)), Sign::Zero);
    }

    #[test]
    fn near_coplanar_points_agree_with_the_unfiltered_evaluation() {
        // Points on the plane x + y + z = 1 in f32, and one ulp off it.
        let a = Vec3::new(0.1, 0.2, 0.7);
        let b = Vec3::new(0.6, 0.3, 0.1);
        let c = Vec3::new(0.3, 0.3, 0.4);
        for k in -3i32..=3 {
            let z = f32::from_bits((0.5f32).to_bits().wrapping_add_signed(k));
            let d = Vec3::new(0.25, 0.25, z);
            assert_eq!(orient3d(a, b, c, d), orient3d_exact(a, b, c, d), "k = {k}");
        }
    }

    #[test]
    fn collinearity_is_exact() {
        let a = Vec3::new(1.0, 2.0, 3.0);
        let b = Vec3::new(2.0, 4.0, 6.0);
        assert!(collinear(a, b, Vec3::new(3.0, 6.0, 9.0)));
        assert!(!collinear(a, b, Vec3::new(3.0, 6.0, 9.000001)));
        assert!(collinear(a, a, b));
    }
}
