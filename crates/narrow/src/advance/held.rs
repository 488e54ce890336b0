//! Held bands: a deeper floor for a triangle that a slow contact rests on.
//!
//! # Method
//! The tolerance band keeps a shape within `tol` of every triangle's front.
//! A caller that holds a resting contact by other means (a world's discrete
//! contact solver, which resolves slow contacts at the start of every step
//! and allows a resting overlap) may give a triangle a [`HeldBand`]: the
//! shape may then sink into it by up to `depth`, but only while every core
//! point approaches its plane slower than `slow`. For the triangle's
//! separating plane (normal `n`), with the tight time `T_tight` of the
//! usual floor, the soft time `T_soft` of the floor
//! `min(skin − depth, separation − tol · MIN_GAP_FRACTION)` and the initial
//! approach-rate bound `r₀ = max_i −(n · u_i)` (made conservative as in
//! [`super::bound::admissible_time`]), the approach rate of every point is
//! at most `r₀ + 2 b t` at time `t` (`b` the bend along `n`), so it stays
//! below `slow` until `T_slow = (slow − r₀) / (2 b)`. The held sub-step is
//! `min(T_soft, max(T_tight, T_slow))` when `r₀ < slow`, else `T_tight`:
//! during it the shape either stays above the usual floor (`t <= T_tight`),
//! or stays above the held floor while no point approaches faster than
//! `slow`.
//!
//! A fast approach (a face slapping onto a surface it pivots on) thus meets
//! the usual floor from wherever it is, and a slow one (the pivot itself,
//! a body resting under a contact solver) sinks by at most `depth` without
//! sub-steps or impacts.
//!
//! # Precision domain
//! That of [`super::bound`]: the same conservative rate and bend.

use parapet_math::Vec3d;

use super::bound::{admissible_time, PointMotion, ADVANCE_ROUNDING_FACTOR, MIN_GAP_FRACTION};
use super::{Plane, Separation};

/// A deeper band for one triangle (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HeldBand {
    /// How far (m, `>= tol`) the shape's surface may sink below the
    /// triangle while held.
    pub depth: f64,
    /// The approach speed (m/s) below which the band applies.
    pub slow: f64,
}

/// The largest approach rate (m/s) of any point along `plane.normal` at the
/// sub-step start, rounded up as [`admissible_time`] rounds the rates.
pub fn approach_rate(points: &[Vec3d], motion: &PointMotion, plane: &Plane) -> f64 {
    let eps = ADVANCE_ROUNDING_FACTOR * f64::EPSILON;
    let n = plane.normal;
    points
        .iter()
        .zip(&motion.velocities)
        .map(|(_, u)| -(n.dot(u) - eps * u.amax() - motion.rate_slack))
        .fold(f64::NEG_INFINITY, f64::max)
}

/// Whether a triangle whose separation is `sep` is held at this pose: its
/// certified plane distance is more than `tolerance` above the held floor
/// `skin − depth` (the held band's own touch threshold, as `skin` is the
/// usual band's, `tolerance` above its floor `skin − tolerance`), and no
/// core point approaches its plane at [`HeldBand::slow`] or faster (the
/// rate [`held_time`] tests, from the same [`PointMotion`]). A caller's
/// contact stage takes no impact on a held triangle, and the driver's held
/// sub-step lets the shape sink towards the held floor: while `holds` is
/// false the usual band applies on both sides, so they never disagree.
pub fn holds(
    points: &[Vec3d],
    motion: &PointMotion,
    sep: &Separation,
    skin: f64,
    tolerance: f64,
    band: &HeldBand,
) -> bool {
    let separation = sep.separation - sep.plane.slack;
    separation > skin - band.depth + tolerance
        && approach_rate(points, motion, &sep.plane) < band.slow
}

/// The held sub-step (s) against `plane` (see the module docs), given the
/// tight time `tight` (s) of the usual floor, the certified plane distance
/// `separation` (m, its slack already subtracted), the core's `skin` and
/// `tolerance` (m).
#[allow(clippy::too_many_arguments)]
pub fn held_time(
    points: &[Vec3d],
    motion: &PointMotion,
    plane: &Plane,
    separation: f64,
    skin: f64,
    tolerance: f64,
    band: &HeldBand,
    tight: f64,
) -> f64 {
    let r0 = approach_rate(points, motion, plane);
    if !(r0 < band.slow) {
        return tight;
    }
    let floor = (skin - band.depth).min(separation - tolerance * MIN_GAP_FRACTION);
    let soft = admissible_time(points, motion, plane, floor);
    let eps = ADVANCE_ROUNDING_FACTOR * f64::EPSILON;
    let bend = motion.bend_along(&plane.normal) * (1.0 + eps);
    let slow_until = if bend > 0.0 {
        (band.slow - r0) / (2.0 * bend) * (1.0 - 8.0 * f64::EPSILON)
    } else {
        f64::INFINITY
    };
    soft.min(tight.max(slow_until))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::advance::bound::{sub_step_floor, BendMode};
    use crate::advance::test_rng::Lcg;
    use parapet_math::Quatd;

    #[test]
    fn a_held_sub_step_keeps_above_the_held_floor_and_slow_below_the_usual_one() {
        // Random points near a plane, random motions: over the held
        // sub-step every true point stays above the held floor, and
        // wherever it is below the usual floor its true approach speed is
        // below `slow` (central differences: 1e-6 m/s of slack for their
        // error at these scales).
        let mut rng = Lcg::new(17);
        let plane = Plane {
            normal: Vec3d::z(),
            point: Vec3d::zeros(),
            slack: 0.0,
        };
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
            let tight = admissible_time(&pts, &m, &plane, floor);
            let t = held_time(&pts, &m, &plane, sep, 0.0, tol, &band, tight).min(1.0);
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
        assert!(held_longer > 300, "{held_longer}");
    }

    #[test]
    fn a_resting_body_keeps_one_long_held_sub_step_and_a_fast_one_the_usual_one() {
        let plane = Plane {
            normal: Vec3d::z(),
            point: Vec3d::zeros(),
            slack: 0.0,
        };
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
        let tight = admissible_time(&pts, &slow, &plane, -1e-3);
        let t = held_time(&pts, &slow, &plane, 0.0, 0.0, 1e-3, &band, tight);
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
        let tight = admissible_time(&pts, &fast, &plane, -1e-3);
        assert_eq!(
            held_time(&pts, &fast, &plane, 0.0, 0.0, 1e-3, &band, tight),
            tight
        );
    }
}
