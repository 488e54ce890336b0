//! The motion bound of a turning core over one sub-step, and the longest
//! sub-step that it certifies against one separating plane.
//!
//! # Method
//! In the working frame (mass centre at the origin at the sub-step start) a
//! core point `p` follows `x(t) = v t + exp([ω] t) p`: the mass centre moves
//! at constant velocity `v` and the body turns by `|ω| t` about `ω`. Its
//! velocity at the start is `u = v + ω × p`, and its acceleration
//! `ω × (ω × R(t) p)` has length `|ω|² ρ`, `ρ` the point's distance from the
//! spin axis. By Taylor's theorem with integral remainder the deviation
//! `D(t) = x(t) − p − u t` has `|D(t)| <= |ω|² ρ t² / 2`. Every core point's
//! deviation is bounded by the `bend` coefficient `b = |ω|² r / 2`, `r` the
//! farthest core point's distance from the axis (computed as
//! `|ω| · max |ω × p| / 2`, rounded up). The rotation moves a point only in
//! the plane orthogonal to `ω`, and so does its velocity's spin part, so `D`
//! is orthogonal to `ω` and along a unit normal `n` only
//! `|n · D| <= |n × ω̂| b t²` remains ([`BendMode::AlongNormal`]): a box
//! spinning about the normal of the floor it slides on has no bend towards
//! it. (Mirtich 1996, ch. 4, bounds the approach by `|v · n| + |ω| r` over
//! the whole sub-step; Zhang, Redon, Lee and Manocha 2007 keep the Taylor
//! terms: the per-point rates `n · u_i` used here are at most that bound,
//! because `|n · (ω × p)| <= |ω| |p|`.)
//!
//! For a plane `(n, o)` with the obstacle behind it, the shape is the convex
//! hull of its core points grown by its skin, so its plane distance at time
//! `t` is at least `min_i (h_i + (n · u_i) t − b_n t²)`, `h_i = n · (p_i − o)`.
//! [`admissible_time`] is the largest `T` such that every term stays at or
//! above the floor on `[0, T]`: each is concave in `t`, so the admissible set
//! is `[0, T_i]` with `T_i` its positive root, in the cancellation-free form;
//! `T_i >= g / (|n · u| + sqrt(b g))` for the gap `g` above the floor.
//!
//! The floor is [`sub_step_floor`]: `skin − tol` for a clear shape,
//! lowered to `separation − tol · MIN_GAP_FRACTION` for a deeper one, so
//! that every sub-step has a gap of at least that fraction of the tolerance
//! and its length stays bounded below (no stall).
//!
//! # Precision domain
//! `f64` in the working frame. The plane distance is lowered and the rate
//! made more negative by [`ADVANCE_ROUNDING_FACTOR`] `ε` of the magnitude of
//! their operands, the bend is raised by the same relative amount, the
//! root is shrunk by `8 ε`; the plane's own slack is subtracted from every
//! gap. [`BendMode::AlongNormal`] also covers the rounding of the point
//! velocities themselves (`v + ω × p` may cancel). [`BendMode::Isotropic`]
//! is the bound of the world's turning-capsule loop, bit for bit.

use parapet_math::rounding::{add_up, mul_up, sqrt_up};
use parapet_math::Vec3d;

use super::Plane;

/// Multiple of `f64::EPSILON` (dimensionless) by which plane distances,
/// approach rates and the bend are made conservative: a dot product of three
/// terms, a subtraction and the rotation of a point round by a few `ε`
/// relative to their operands; 64 leaves a tenfold margin. The value of
/// `ADVANCE_ROUNDING_FACTOR` in `sweep/certified_advance.rs` (crate-private).
pub const ADVANCE_ROUNDING_FACTOR: f64 = crate::sweep::certified_advance::ADVANCE_ROUNDING_FACTOR;

/// The smallest gap of a sub-step as a fraction of the tolerance
/// (dimensionless): 1/256, the value of
/// [`crate::sweep::certified_advance::MIN_GAP_FRACTION`]. A sub-step always
/// has at least this much room above its floor, so its length is bounded
/// below; a shape pressed onto a triangle at the bottom of the band can sink
/// by this much in one sub-step. Warning: larger values let a pressed shape
/// sink further per sub-step; smaller ones shorten the sub-steps of a
/// pressed shape (by the square root).
pub const MIN_GAP_FRACTION: f64 = crate::sweep::certified_advance::MIN_GAP_FRACTION;

/// Multiple of `f64::EPSILON` (dimensionless) of the absolute slack that
/// [`BendMode::AlongNormal`] adds to `|n × ω|`: a cross product of two
/// vectors rounds each component by at most `2 ε |n| |ω|`, so 8 covers the
/// norm with a margin.
const CROSS_SLACK_FACTOR: f64 = 8.0;

/// How the bend of the motion bound enters the gap along a plane normal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BendMode {
    /// The whole bend `|ω|² r / 2` along every normal, and the rate slack of
    /// the rates alone: the bound of the world's turning-capsule loop, kept
    /// bit for bit for segment cores.
    Isotropic,
    /// The bend times `|n × ω̂|` (the deviation is orthogonal to `ω`), and a
    /// rate slack that also covers the rounding of the point velocities.
    AlongNormal,
}

/// The length of `v`, rounded up (`0` for the zero vector).
pub fn norm_up(v: &Vec3d) -> f64 {
    if *v == Vec3d::zeros() {
        return 0.0;
    }
    sqrt_up(add_up(
        add_up(mul_up(v.x, v.x), mul_up(v.y, v.y)),
        mul_up(v.z, v.z),
    ))
}

/// The motion of a posed core's points over one sub-step: their present
/// velocities and the bend that bounds their deviation from straight lines.
#[derive(Debug, Clone, PartialEq)]
pub struct PointMotion {
    /// The points' present velocities `v + ω × p_i` (m/s), in point order.
    pub velocities: Vec<Vec3d>,
    /// The bend coefficient `|ω|² r / 2` (m/s²), rounded up.
    pub bend: f64,
    /// The spin `ω` (rad/s).
    pub spin: Vec3d,
    /// `|ω|` rounded up (rad/s).
    pub spin_norm: f64,
    /// Subtracted from every approach rate (m/s): `0` for
    /// [`BendMode::Isotropic`], the velocity rounding for
    /// [`BendMode::AlongNormal`].
    pub rate_slack: f64,
    /// How the bend is taken along a normal.
    pub mode: BendMode,
}

impl PointMotion {
    /// The motion of `points` (working frame) for the mass-centre velocity
    /// `velocity` (m/s) and the spin `spin` (rad/s).
    pub fn new(points: &[Vec3d], velocity: Vec3d, spin: Vec3d, mode: BendMode) -> Self {
        let spin_norm = norm_up(&spin);
        let lever = points
            .iter()
            .fold(0.0f64, |m, p| m.max(norm_up(&spin.cross(p))));
        let velocities = points.iter().map(|p| velocity + spin.cross(p)).collect();
        // |ω|² r / 2 with r |ω| = |ω × p|, rounded up.
        let bend = mul_up(mul_up(spin_norm, lever), 0.5) * (1.0 + 8.0 * f64::EPSILON);
        let rate_slack = match mode {
            BendMode::Isotropic => 0.0,
            BendMode::AlongNormal => {
                let reach = points.iter().fold(0.0f64, |m, p| m.max(p.amax()));
                ADVANCE_ROUNDING_FACTOR
                    * f64::EPSILON
                    * (velocity.amax() + 2.0 * spin.amax() * reach)
            }
        };
        PointMotion {
            velocities,
            bend,
            spin,
            spin_norm,
            rate_slack,
            mode,
        }
    }

    /// The bend (m/s²) along the normal `n` (unit up to rounding).
    pub fn bend_along(&self, n: &Vec3d) -> f64 {
        match self.mode {
            BendMode::Isotropic => self.bend,
            BendMode::AlongNormal => {
                if !(self.bend > 0.0 && self.spin_norm > 0.0) {
                    return self.bend;
                }
                let across =
                    n.cross(&self.spin).norm() + CROSS_SLACK_FACTOR * f64::EPSILON * self.spin_norm;
                let factor = (across / self.spin_norm).min(1.0);
                factor * self.bend * (1.0 + 8.0 * f64::EPSILON)
            }
        }
    }
}

/// The floor (m) of one sub-step for a triangle whose certified plane
/// distance is `separation` (m) from a core grown by `skin` (m) with
/// tolerance `tolerance` (m): `skin − tolerance`, lowered only as far as
/// needed to leave a gap of [`MIN_GAP_FRACTION`] of the tolerance.
pub fn sub_step_floor(separation: f64, skin: f64, tolerance: f64) -> f64 {
    (skin - tolerance).min(separation - tolerance * MIN_GAP_FRACTION)
}

/// The largest `T >= 0` such that `g + c t − k t² >= 0` on all of `[0, T]`
/// (`+∞` when it holds for all `t >= 0`), for `g >= 0`, `k >= 0`.
pub(crate) fn concave_root(g: f64, c: f64, k: f64) -> f64 {
    if g.is_nan() || g <= 0.0 {
        return 0.0;
    }
    if k.is_nan() || k <= 0.0 {
        return if c >= 0.0 { f64::INFINITY } else { g / -c };
    }
    let disc = (c * c + 4.0 * k * g).sqrt();
    let t = if c >= 0.0 {
        (c + disc) / (2.0 * k)
    } else {
        2.0 * g / (disc - c)
    };
    if t.is_nan() {
        0.0
    } else {
        t
    }
}

/// The largest sub-step (s, `+∞` when unbounded) during which every point of
/// the core grown by its skin stays above `floor` (m) from `plane`, for the
/// motion bound of the module docs, made conservative for `f64` rounding.
/// `points` and `motion.velocities` are in the same order.
pub fn admissible_time(points: &[Vec3d], motion: &PointMotion, plane: &Plane, floor: f64) -> f64 {
    let eps = ADVANCE_ROUNDING_FACTOR * f64::EPSILON;
    let n = plane.normal;
    let o = plane.point;
    let bend = motion.bend_along(&n) * (1.0 + eps);
    let mut t = f64::INFINITY;
    for (e, u) in points.iter().zip(&motion.velocities) {
        let h = n.dot(&(e - o));
        let g = h - floor - eps * (e.amax() + o.amax() + floor.abs() + h.abs()) - plane.slack;
        let rate = n.dot(u) - eps * u.amax() - motion.rate_slack;
        t = t.min(concave_root(g, rate, bend));
    }
    t * (1.0 - 8.0 * f64::EPSILON)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::advance::test_rng::Lcg;
    use parapet_math::Quatd;

    fn unit(v: Vec3d) -> Vec3d {
        v / v.norm()
    }

    /// The true plane distance of a rigid point at time `t`.
    fn true_height(p: &Vec3d, v: &Vec3d, w: &Vec3d, n: &Vec3d, o: &Vec3d, t: f64) -> f64 {
        let x = v * t + Quatd::from_scaled_axis(w * t) * p;
        n.dot(&(x - o))
    }

    #[test]
    fn the_gap_bound_stays_below_the_true_gap_along_random_rigid_motions() {
        // For random points, motions and normals, the bound
        // h + (n.u - slack) t - b_n t^2 never exceeds the true plane distance
        // on [0, 1 / |w|] (up to a quarter turn and beyond), in both modes.
        let mut rng = Lcg::new(11);
        for case in 0..4000 {
            let p = rng.vec(2.0);
            let v = rng.vec(20.0);
            let w = rng.vec(40.0);
            let n = unit(rng.vec(1.0));
            let mode = if case % 2 == 0 {
                BendMode::Isotropic
            } else {
                BendMode::AlongNormal
            };
            let m = PointMotion::new(&[p], v, w, mode);
            let b = m.bend_along(&n);
            let rate = n.dot(&m.velocities[0]) - m.rate_slack;
            let o = Vec3d::zeros();
            let h = n.dot(&p);
            let span = 1.5 / w.norm().max(1e-9);
            for k in 1..=64 {
                let t = span * k as f64 / 64.0;
                let bound = h + rate * t - b * t * t;
                let truth = true_height(&p, &v, &w, &n, &o, t);
                // f64 rounding of the true path: 1e-12 of its scale.
                let scale = p.norm() + v.norm() * t;
                assert!(
                    bound <= truth + 1e-12 * scale,
                    "case {case} t {t}: bound {bound} > true {truth}"
                );
            }
        }
    }

    #[test]
    fn the_closing_rate_bound_is_above_the_numerical_derivative() {
        // The initial approach rate -(n.u) + slack bounds -dh/dt at t = 0,
        // and -(n.u) + 2 b t its value at t (central differences).
        let mut rng = Lcg::new(12);
        for _ in 0..2000 {
            let p = rng.vec(3.0);
            let v = rng.vec(10.0);
            let w = rng.vec(30.0);
            let n = unit(rng.vec(1.0));
            let m = PointMotion::new(&[p], v, w, BendMode::AlongNormal);
            let b = m.bend_along(&n);
            let o = Vec3d::zeros();
            let closing = -(n.dot(&m.velocities[0]) - m.rate_slack);
            for k in 0..16 {
                let t = 0.02 * k as f64;
                let dt = 1e-6;
                let d = (true_height(&p, &v, &w, &n, &o, t + dt)
                    - true_height(&p, &v, &w, &n, &o, t - dt))
                    / (2.0 * dt);
                // Central difference error: |x'''| dt^2 / 6 <= |w|^3 |p| dt^2,
                // plus the rounding of the heights (1e-15 / dt).
                let err = w.norm().powi(3) * p.norm() * dt * dt + 1e-8;
                assert!(
                    -d <= closing + 2.0 * b * t + err,
                    "t {t}: -dh/dt {} > {}",
                    -d,
                    closing + 2.0 * b * t
                );
            }
        }
    }

    #[test]
    fn a_spin_about_the_normal_has_no_bend_along_it() {
        let p = [Vec3d::new(1.0, 0.5, -0.5), Vec3d::new(-1.0, -0.5, -0.5)];
        let m = PointMotion::new(
            &p,
            Vec3d::zeros(),
            Vec3d::new(0.0, 0.0, 9.0),
            BendMode::AlongNormal,
        );
        // |w|^2 r / 2 = 81 * sqrt(1.25) / 2.
        assert!((m.bend - 81.0 * 1.25f64.sqrt() / 2.0).abs() < 1e-12);
        // Only the cross-product slack remains: 8 eps of the bend.
        assert!(m.bend_along(&Vec3d::z()) <= 16.0 * f64::EPSILON * m.bend);
        assert_eq!(
            PointMotion::new(
                &p,
                Vec3d::zeros(),
                Vec3d::new(0.0, 0.0, 9.0),
                BendMode::Isotropic
            )
            .bend_along(&Vec3d::z()),
            m.bend
        );
        // Orthogonal to the spin: the whole bend (up to 9 eps).
        let along_x = m.bend_along(&Vec3d::x());
        assert!(along_x >= m.bend && along_x <= m.bend * (1.0 + 1e-14));
    }

    #[test]
    fn the_admissible_time_of_a_straight_fall_reaches_the_floor_exactly() {
        // A point 1 m above a plane falling at 10 m/s with no spin reaches
        // the floor -tol at (1 + tol) / 10; the slacks shorten it by 1e-13.
        let tol = 1e-3;
        let plane = Plane {
            normal: Vec3d::z(),
            point: Vec3d::zeros(),
            slack: 0.0,
        };
        let p = [Vec3d::new(0.3, 0.2, 1.0)];
        let m = PointMotion::new(
            &p,
            Vec3d::new(0.0, 0.0, -10.0),
            Vec3d::zeros(),
            BendMode::AlongNormal,
        );
        let floor = sub_step_floor(1.0, 0.0, tol);
        assert_eq!(floor, -tol);
        let t = admissible_time(&p, &m, &plane, floor);
        let exact = (1.0 + tol) / 10.0;
        assert!(t <= exact && t > exact * (1.0 - 1e-12), "{t} vs {exact}");
    }

    #[test]
    fn the_floor_keeps_a_minimum_gap_below_a_deep_separation() {
        let tol = 0.01;
        // Clear: skin - tol.
        assert_eq!(sub_step_floor(0.5, 0.1, tol), 0.1 - tol);
        // Deeper than the band: the separation less tol / 256.
        assert_eq!(
            sub_step_floor(0.05, 0.1, tol),
            0.05 - tol * MIN_GAP_FRACTION
        );
        // A solid (no skin) resting exactly on its plane: -tol.
        assert_eq!(sub_step_floor(0.0, 0.0, tol), -tol);
        // Every floor leaves at least tol / 256 below the separation.
        for k in 0..100 {
            let s = -0.02 + 0.001 * k as f64;
            assert!(s - sub_step_floor(s, 0.0, tol) >= tol * MIN_GAP_FRACTION * (1.0 - 1e-12));
        }
    }

    #[test]
    fn the_admissible_time_is_certified_along_true_rigid_motions() {
        // Random points above a plane, random motions: at the admissible
        // time and at every sub-time before it the true point stays above
        // the floor.
        let mut rng = Lcg::new(13);
        for case in 0..3000 {
            let pts: Vec<Vec3d> = (0..4)
                .map(|_| rng.vec(1.0) + Vec3d::new(0.0, 0.0, 1.5))
                .collect();
            let v = rng.vec(15.0);
            let w = rng.vec(30.0);
            let n = Vec3d::z();
            let plane = Plane {
                normal: n,
                point: Vec3d::zeros(),
                slack: 0.0,
            };
            let mode = if case % 3 == 0 {
                BendMode::Isotropic
            } else {
                BendMode::AlongNormal
            };
            let m = PointMotion::new(&pts, v, w, mode);
            let sep = pts.iter().map(|p| p.z).fold(f64::INFINITY, f64::min);
            let floor = sub_step_floor(sep, 0.0, 1e-3);
            let t = admissible_time(&pts, &m, &plane, floor).min(2.0);
            for p in &pts {
                for k in 0..=200 {
                    let s = t * k as f64 / 200.0;
                    let h = true_height(p, &v, &w, &n, &Vec3d::zeros(), s);
                    assert!(h >= floor, "case {case} s {s}: {h} < {floor}");
                }
            }
        }
    }
}
