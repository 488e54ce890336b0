//! Held bands: a deeper floor for a triangle that a slow contact rests on.
//!
//! # Method
//! The tolerance band keeps a shape within `tol` of every triangle's front.
//! A caller that holds a resting contact by other means (a world's discrete
//! contact solver, which resolves slow contacts at the start of every step
//! and keeps a resting overlap) may give a triangle a [`HeldBand`]: the
//! shape may then sink into it down to the held floor `skin − depth`, but
//! only with points that approach its plane slowly. Point by point, for
//! the triangle's separating plane (normal `n`) and the conservative
//! approach rate `r₀ = −(n · u_i)` of core point `i` (rounded up as in
//! [`super::bound::admissible_time`]):
//!
//! * a point with `r₀ >= slow / 2` keeps the usual floor: its time is
//!   `T_tight`, that of [`super::bound::sub_step_floor`];
//! * a slower point may sink to the held floor while its rate stays below
//!   `slow`: the rate grows by at most `2 b t` in `t` (`b` the bend along
//!   `n`, half the largest normal acceleration of a rigid point), so it
//!   stays below `slow` until `T_slow = (slow − r₀) / (2 b)`, at least
//!   `slow / (4 b)`; its time is `min(T_soft, max(T_tight, T_slow))`, with
//!   `T_soft` the time of the floor `min(skin − depth, separation − g)`
//!   (`g` the smallest sub-step gap).
//!
//! The sub-step is the smallest time over the points. During it every
//! point either stays above the usual floor or stays above the held floor
//! while approaching slower than `slow`. The start threshold `slow / 2`
//! gives `T_slow` that lower bound, so a point nearing `slow` does not
//! take ever shorter sub-steps: it returns to the usual floor, and the
//! caller's contact stage (which holds a triangle only while every touch
//! point on it approaches slower than `slow / 2`, [`hold`]) takes an
//! impact once it touches and closes there.
//!
//! A fast approach (a face slapping onto a surface it pivots on) thus meets
//! the usual floor of its plane from wherever it is, and a slow one (the
//! pivot itself, a body resting under a contact solver) sinks by at most
//! `depth` without impacts.
//!
//! # Precision domain
//! That of [`super::bound`]: the same conservative rate and bend.

use parapet_math::Vec3d;

use super::bound::{concave_root, PointMotion, ADVANCE_ROUNDING_FACTOR, MIN_GAP_FRACTION};
use super::{Plane, Separation};

/// The fraction of [`HeldBand::slow`] below which a point starts to sink
/// into a held band (dimensionless): 1/2, so that the time until its rate
/// could reach `slow` is at least `slow / (4 b)` (see the module docs).
pub const HOLD_START_FRACTION: f64 = 0.5;

/// A deeper band for one triangle (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HeldBand {
    /// How far (m, `>= tol`) the shape's surface may sink below the
    /// triangle while held.
    pub depth: f64,
    /// The approach speed (m/s) below which the band applies.
    pub slow: f64,
}

/// How a held band takes a triangle at one pose ([`hold`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Hold {
    /// Not held: some point within the skin approaches at `slow / 2` or
    /// faster; the usual band and its impacts apply.
    Free,
    /// Held and more than `tol` above the held floor: the caller takes no
    /// impact on it.
    Sinking,
    /// Held but within `tol` of the held floor: the usual impacts apply
    /// again (a shape pressed to the bottom of the band would otherwise
    /// sink by the smallest gap per sub-step), and the caller may lift the
    /// pose back.
    AtFloor,
}

/// The conservative approach rates (m/s) of the points along `plane`, and
/// their conservative heights (m) above it, in point order.
fn rates_and_heights<'a>(
    points: &'a [Vec3d],
    motion: &'a PointMotion,
    plane: &'a Plane,
) -> impl Iterator<Item = (f64, f64)> + 'a {
    let eps = ADVANCE_ROUNDING_FACTOR * f64::EPSILON;
    let (n, o) = (plane.normal, plane.point);
    points.iter().zip(&motion.velocities).map(move |(e, u)| {
        let rate = -(n.dot(u) - eps * u.amax() - motion.rate_slack);
        let h = n.dot(&(e - o));
        let height = h - eps * (e.amax() + o.amax() + h.abs()) - plane.slack;
        (rate, height)
    })
}

/// How the held band takes the triangle of separation `sep` (see [`Hold`]):
/// `Free` when one of the shape's touch points on it approaches its plane
/// at [`HOLD_START_FRACTION`] of `slow` or faster (`touch_rates`: their
/// approach rates `−(n · u)`, m/s, along `sep.plane.normal`), else
/// `AtFloor` when the certified plane distance is within `tolerance` of
/// the held floor `skin − depth` (the held band's own touch threshold, as
/// `skin` is the usual band's, `tolerance` above its floor), else
/// `Sinking`. The driver's held sub-step ([`held_time`]) lets a point sink
/// only below the same start threshold, so a point that it keeps at the
/// usual floor frees the triangle once it touches.
pub fn hold(
    touch_rates: impl IntoIterator<Item = f64>,
    sep: &Separation,
    skin: f64,
    tolerance: f64,
    band: &HeldBand,
) -> Hold {
    let start = band.slow * HOLD_START_FRACTION;
    if touch_rates.into_iter().any(|rate| !(rate < start)) {
        Hold::Free
    } else if sep.separation - sep.plane.slack > skin - band.depth + tolerance {
        Hold::Sinking
    } else {
        Hold::AtFloor
    }
}

/// The held sub-step (s) against `plane` (see the module docs), given the
/// certified plane distance `separation` (m, its slack already
/// subtracted), the core's `skin` and `tolerance` (m).
pub fn held_time(
    points: &[Vec3d],
    motion: &PointMotion,
    plane: &Plane,
    separation: f64,
    geometry: (f64, f64),
    band: &HeldBand,
) -> f64 {
    let (skin, tolerance) = geometry;
    let eps = ADVANCE_ROUNDING_FACTOR * f64::EPSILON;
    let tight = super::bound::sub_step_floor(separation, skin, tolerance);
    let soft = (skin - band.depth).min(separation - tolerance * MIN_GAP_FRACTION);
    let bend = motion.bend_along(&plane.normal) * (1.0 + eps);
    let start = band.slow * HOLD_START_FRACTION;
    let mut t = f64::INFINITY;
    for (rate, height) in rates_and_heights(points, motion, plane) {
        let room = |floor: f64| height - floor - eps * floor.abs();
        let t_tight = concave_root(room(tight), -rate, bend);
        let point = if rate < start {
            let t_slow = if bend > 0.0 {
                (band.slow - rate) / (2.0 * bend) * (1.0 - 8.0 * f64::EPSILON)
            } else {
                f64::INFINITY
            };
            concave_root(room(soft), -rate, bend).min(t_tight.max(t_slow))
        } else {
            t_tight
        };
        t = t.min(point);
    }
    t * (1.0 - 8.0 * f64::EPSILON)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::advance::bound::{admissible_time, sub_step_floor, BendMode};
    use crate::advance::test_rng::Lcg;
    use parapet_math::Quatd;

    const Z_PLANE: Plane = Plane {
        normal: Vec3d::new(0.0, 0.0, 1.0),
        point: Vec3d::new(0.0, 0.0, 0.0),
        slack: 0.0,
    };

    #[test]
    fn a_held_sub_step_keeps_above_the_held_floor_and_slow_below_the_usual_one() {
        // Random points near a plane, random motions: over the held
        // sub-step every true point stays above the held floor, and
        // wherever it is below the usual floor its true approach speed is
        // below `slow` (central differences: 1e-6 m/s of slack for their
        // error at these scales).
        let mut rng = Lcg::new(17);
        let mut held_longer = 0;
        for case in 0..3000 {
            let pts: Vec<Vec3d> = (0..4)
                .map(|_| rng.vec(0.5) + Vec3d::new(0.0, 0.0, 0.6))
                .collect();
            let v = rng.vec(2.0);
            let w = rng.vec(10.0);
            let m = PointMotion::new(&pts, v, w, BendMode::AlongNormal);
            let sep = pts.iter().map(|p| p.z).fold(f64::INFINITY, f64::min);
            let tol = 1e-3;
            let band = HeldBand {
                depth: 0.02,
                slow: 1.2,
            };
            let floor = sub_step_floor(sep, 0.0, tol);
            let tight = admissible_time(&pts, &m, &Z_PLANE, floor);
            let t = held_time(&pts, &m, &Z_PLANE, sep, (0.0, tol), &band).min(1.0);
            assert!(
                t >= tight.min(1.0) * (1.0 - 1e-12),
                "case {case}: {t} < {tight}"
            );
            if t > tight {
                held_longer += 1;
            }
            let at = |p: &Vec3d, s: f64| (v * s + Quatd::from_scaled_axis(w * s) * p).z;
            for p in &pts {
                for k in 0..=200 {
                    let s = t * k as f64 / 200.0;
                    let h = at(p, s);
                    let held_floor = (-band.depth).min(sep - tol / 256.0);
                    assert!(h >= held_floor, "case {case} s {s}: {h} < {held_floor}");
                    if h < floor {
                        let d = 1e-7;
                        let rate = -(at(p, s + d) - at(p, s - d)) / (2.0 * d);
                        assert!(
                            rate <= band.slow + 1e-6,
                            "case {case}: {rate} m/s below the floor"
                        );
                    }
                }
            }
        }
        // Not vacuous: the held band lengthens a good share of the sub-steps
        // (239 of these 3000 cases).
        assert!(held_longer > 150, "{held_longer}");
    }

    #[test]
    fn a_resting_body_keeps_one_long_held_sub_step_and_a_fast_one_the_usual_one() {
        let pts = [Vec3d::new(0.5, 0.5, 0.0), Vec3d::new(-0.5, 0.5, 0.0)];
        let band = HeldBand {
            depth: 0.02,
            slow: 1.2,
        };
        // Resting and closing at 0.01 m/s: the usual floor (tol below)
        // allows 0.1 s, the held one 2 s.
        let slow = PointMotion::new(
            &pts,
            Vec3d::new(0.0, 0.0, -0.01),
            Vec3d::zeros(),
            BendMode::AlongNormal,
        );
        let tight = admissible_time(&pts, &slow, &Z_PLANE, -1e-3);
        let t = held_time(&pts, &slow, &Z_PLANE, 0.0, (0.0, 1e-3), &band);
        assert!(
            (tight - 0.1).abs() < 1e-9 && (t - 2.0).abs() < 1e-9,
            "{tight} {t}"
        );
        // Closing at 5 m/s: faster than `slow`, the usual floor.
        let fast = PointMotion::new(
            &pts,
            Vec3d::new(0.0, 0.0, -5.0),
            Vec3d::zeros(),
            BendMode::AlongNormal,
        );
        let tight = admissible_time(&pts, &fast, &Z_PLANE, -1e-3);
        assert_eq!(
            held_time(&pts, &fast, &Z_PLANE, 0.0, (0.0, 1e-3), &band),
            tight
        );
    }

    #[test]
    fn a_fast_touch_point_frees_the_triangle_and_the_held_floor_is_told_apart() {
        let band = HeldBand {
            depth: 0.02,
            slow: 1.2,
        };
        let sep = |lowest: f64| Separation {
            plane: Z_PLANE,
            separation: lowest,
            lower_bound: lowest,
            distance: 0.0,
            on_core: Vec3d::zeros(),
            on_triangle: Vec3d::zeros(),
            normal: Z_PLANE.normal,
            face_normal: Z_PLANE.normal,
        };
        // Touch points approaching at 0.1 and 0.5 m/s (below 0.6): held.
        assert_eq!(hold([0.1, 0.5], &sep(0.0), 0.0, 1e-3, &band), Hold::Sinking);
        // One at 0.6 m/s, the start threshold: free.
        assert_eq!(hold([0.1, 0.6], &sep(0.0), 0.0, 1e-3, &band), Hold::Free);
        // Within the tolerance of the held floor (-0.02 m): at the floor.
        assert_eq!(hold([0.1], &sep(-0.0195), 0.0, 1e-3, &band), Hold::AtFloor);
        assert_eq!(hold([0.1], &sep(-0.0185), 0.0, 1e-3, &band), Hold::Sinking);
    }
}
