//! Conservative advancement along one axis, fixed or turning with a body:
//! the longest time during which the separation of two moving cores along
//! that axis certainly stays above a level.
//!
//! # Method
//! Conservative advancement (Mirtich, "Impulse-based Dynamic Simulation of
//! Rigid Body Systems", PhD thesis, UC Berkeley 1996, ch. 4) with per-point
//! Taylor bounds (Zhang, Redon, Lee and Manocha, "Continuous collision
//! detection for articulated models using Taylor models and temporal
//! culling", SIGGRAPH 2007). A point at arm `r` from its body's mass centre
//! moves at `u = v + ω × r`, and its deviation from that straight line
//! after `h` seconds has length at most `|ω|² ρ h² / 2` (`ρ = |ω̂ × r|`,
//! its distance from the spin axis) and is orthogonal to `ω`, so along a
//! unit axis `n` at most `|n × ω̂| |ω| |ω × r| h² / 2`: its *bend*. So along
//! a FIXED axis `n`, A's point `i` is at most `α_i + s_i h + k_i h²` and B's
//! point `j` at least `β_j + σ_j h − k_j h²`, and the separation along `n`
//! (which bounds the signed distance from below) is at least
//! `min_{i,j} (β_j − α_i) + (σ_j − s_i) h − (k_i + k_j) h²`. Each term is
//! concave in `h`, so the first time it reaches the level is its smaller
//! positive root, in the cancellation-free form.
//!
//! A turn is also bounded outright: the arm's part along `ω̂` stays, the
//! rest runs on a circle of radius `ρ`, so along `n` a point stays within
//! `n·c(h) + n·r_∥ ± |n × ω̂| ρ`, linear in `h` at the mass centre's rate
//! `n·v` (the *bounded turn*). Either bound holds, so a pair of points keeps
//! the level until the latest of the roots of their four combinations, and
//! the step is the least of those times over the pairs.
//!
//! So the bound is per pair of features: each pair of points (a vertex of
//! one core against a vertex of the other, and through the axis a vertex
//! against a face or an edge against an edge) closes at its own rate, and
//! the axis is the closest-feature direction of the moment, a plane tilted
//! about the edge that a body slides past rather than the face it is beside.
//! Points far below the support cost nothing until late; a spin about `n`
//! (a stick spinning flat over a floor) bends nothing along `n`; a body
//! turning fast while it drifts slowly (a stick tumbling over a floor) is
//! held back by its drift, not its tip speed; under a pure relative
//! translation the rates are exact and nothing bends, so the advancement
//! is a GJK ray cast.
//!
//! # An axis that turns with a body
//! The same axis may instead turn with one side's spin ([`attached_time`]):
//! that side's points then keep their heights along it, and only the other
//! side's points move, at their velocity seen from the turning body, bent
//! by that frame's curvature (`|ω|² |d|`) and Coriolis term (`2 |ω| |d'|`).
//! A face that tilts as its body turns is followed, so its far corners,
//! which rise along a fixed axis, cost nothing; either bound holds, and the
//! caller takes the longer certified time.
//!
//! # Precision domain
//! `f64` in the working frame. Every position carries the caller's slack
//! (`super::domain::position_slack`), which the caller has already
//! subtracted from the level's margin; here each rate is lowered by
//! `8 ε` of its operands plus `|ω|` times the position slack, each bend
//! raised by the same relative amount plus `|ω|²` times half the slack, the
//! bounded turn's radius raised by the slack and its offset by `8 ε` of its
//! operands, and the root shrunk by `8 ε`.

use parapet_math::Vec3d;

/// The kinematics of one posed core at the start of a step (working frame).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Kinematics {
    /// The mass centre (m).
    pub(crate) center: Vec3d,
    /// Its velocity (m/s).
    pub(crate) velocity: Vec3d,
    /// The angular velocity (rad/s).
    pub(crate) spin: Vec3d,
    /// The bound of each position's rounding (m).
    pub(crate) slack: f64,
}

/// One point's two bounds along the axis: the Taylor bound
/// `value + rate h ± bend h²`, and the bound of a bounded turn
/// `far_value + far_rate h` (module docs).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct PointBound {
    value: f64,
    rate: f64,
    bend: f64,
    far_value: f64,
    far_rate: f64,
}

/// `|n × ω̂|` for the unit axis `n` and the spin `w` (0 without a spin),
/// raised for the rounding of `n` and of the cross product: how much of a
/// turn about `w` moves a point along `n`, or turns `n` itself.
fn across(n: &Vec3d, w: &Vec3d) -> f64 {
    let wn = w.norm();
    if wn > 0.0 {
        (n.cross(w).norm() / wn + 8.0 * f64::EPSILON).min(1.0)
    } else {
        0.0
    }
}

/// Fills `out` with the bounds along `n` of `points`, upper bounds for A
/// (`upper`), lower bounds for B.
pub(crate) fn point_bounds(
    points: &[Vec3d],
    k: &Kinematics,
    n: &Vec3d,
    upper: bool,
    out: &mut Vec<PointBound>,
) {
    out.clear();
    let eps = f64::EPSILON;
    let w = k.spin;
    let wn = w.norm();
    let axis = if wn > 0.0 { w / wn } else { Vec3d::zeros() };
    let across = across(n, &w);
    let sign = if upper { 1.0 } else { -1.0 };
    let center = n.dot(&k.center);
    let far_rate = n.dot(&k.velocity) + sign * 8.0 * eps * k.velocity.amax();
    for p in points {
        let r = p - k.center;
        let wr = w.cross(&r);
        let u = k.velocity + wr;
        let rate_slack =
            8.0 * eps * (k.velocity.amax() + 2.0 * w.amax() * r.amax() + u.amax()) + wn * k.slack;
        let bend = 0.5 * wn * (wr.norm() + wn * k.slack) * across * (1.0 + 16.0 * eps);
        // The turn keeps the arm's part along the spin axis and moves the
        // rest (length rho) on a circle: along n, within |n x w^| rho.
        let along = axis * axis.dot(&r);
        let rho = (r - along).norm() + k.slack;
        let far_slack = k.slack + 8.0 * eps * (k.center.amax() + r.amax());
        out.push(PointBound {
            value: n.dot(p),
            rate: n.dot(&u) + sign * rate_slack,
            bend,
            far_value: center
                + n.dot(&along)
                + sign * (across * rho * (1.0 + 4.0 * eps) + far_slack),
            far_rate,
        });
    }
}

/// Moves every bound of `bounds` by `by` (m) along their axis: the bounds
/// of the same body's points displaced by `by` along it, when the body does
/// not turn (its points share one rate and bend nothing). Each sum is
/// rounded to nearest: `ε` of the scene's scale and the target, inside the
/// `8 ε` of them that the caller's slack carries.
pub(crate) fn shift_bounds(bounds: &mut [PointBound], by: f64) {
    for b in bounds {
        b.value += by;
        b.far_value += by;
    }
}

/// The largest `T >= 0` such that `g + c t − k t² >= 0` on all of `[0, T]`
/// (`+∞` when it holds for every `t >= 0`), for `k >= 0`.
fn concave_root(g: f64, c: f64, k: f64) -> f64 {
    if !(g > 0.0) {
        return 0.0;
    }
    if !(k > 0.0) {
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

/// [`admissible_time`] when neither core turns: every point moves at its
/// mass centre's velocity, so the separation along `n` is exactly
/// `separation + n·(v_B − v_A) h` (the rates lowered as in
/// [`point_bounds`]); no pair needs its own root.
pub(crate) fn translating_time(
    separation: f64,
    level: f64,
    n: &Vec3d,
    a: &Kinematics,
    b: &Kinematics,
) -> f64 {
    let slack = 16.0 * f64::EPSILON * (a.velocity.amax() + b.velocity.amax());
    let rate = n.dot(&b.velocity) - n.dot(&a.velocity) - slack;
    concave_root(separation - level, rate, 0.0) * (1.0 - 8.0 * f64::EPSILON)
}

/// The longest time (s, `+∞` when unbounded) during which the separation
/// along the axis of the bounds stays above `level` (m): over the point
/// pairs the least of each pair's certified time, the latest root over the
/// combinations of its points' bounds (either bound holds, so the gap is
/// above the level while any of them is), shrunk for its rounding.
/// `a_turns` and `b_turns` say whether A and B spin (without a spin the
/// two bounds coincide).
pub(crate) fn admissible_time(
    a: &[PointBound],
    b: &[PointBound],
    level: f64,
    a_turns: bool,
    b_turns: bool,
) -> f64 {
    let mut t = f64::INFINITY;
    for pb in b {
        for pa in a {
            let g = pb.value - pa.value - level;
            let c = pb.rate - pa.rate;
            let k = pa.bend + pb.bend;
            // A cheap lower bound of this pair's root: skip it when it
            // cannot beat the best so far.
            let closing = (-c).max(0.0);
            if g > 0.0 && k <= 0.0 && closing * t <= g {
                continue;
            }
            let mut pair = concave_root(g, c, k);
            if pair >= t {
                continue;
            }
            if a_turns {
                let g = pb.value - pa.far_value - level;
                pair = pair.max(concave_root(g, pb.rate - pa.far_rate, pb.bend));
            }
            if b_turns {
                let g = pb.far_value - pa.value - level;
                pair = pair.max(concave_root(g, pb.far_rate - pa.rate, pa.bend));
            }
            if a_turns && b_turns {
                let g = pb.far_value - pa.far_value - level;
                pair = pair.max(concave_root(g, pb.far_rate - pa.far_rate, 0.0));
            }
            t = t.min(pair);
        }
    }
    t * (1.0 - 8.0 * f64::EPSILON)
}

/// Which body an axis turns with in [`attached_time`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Attached {
    /// The axis turns with A: A's points keep their separation from A's
    /// mass centre along it, B's points move.
    ToA,
    /// The axis turns with B.
    ToB,
}

/// The longest time (s, at most `horizon`) during which the separation
/// along an axis that turns with one body stays above `level` (m): the
/// axis is `n` now and turns with A's spin (or B's), so that body's points
/// keep their heights along it and only the other body's points move
/// (module docs, "An axis that turns with a body").
///
/// Along an axis `m(s)` turning with A about A's mass centre `c_A(s)`, B's
/// point `p(s)` is at height `f(s) = m·(p − c_A)`, with
/// `f'(0) = n·(u − v_A − ω_A × (p − c_A))` (B's point's velocity seen from
/// A's frame) and `|f''| <= |ω_A|² x |d| + 2 |ω_A| x |d'| + |ω_B| |ω_B × r|`,
/// where `x = |n × ω̂_A|`, `d = p − c_A`, `d' = v_B − v_A + ω_B × r` and
/// `r` is B's arm; `|d'| <= S = |v_B − v_A| + |ω_B × r|` and
/// `|d| <= |d(0)| + S h` over the horizon. So a face that tilts as its body
/// turns is followed by the axis, and its far corners, which rise along a
/// fixed axis, cost nothing: a box turning while it grinds past a small
/// body advances in steps of the relative motion's curvature, not of its
/// corners' speed. Rounding as in [`point_bounds`]: the rates lowered by
/// `8 ε` of their operands plus the spins times the slacks, the bends
/// raised by `16 ε` relative plus the spins squared times the slacks, and
/// the time shrunk by `8 ε`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn attached_time(
    points_a: &[Vec3d],
    ka: &Kinematics,
    points_b: &[Vec3d],
    kb: &Kinematics,
    n: &Vec3d,
    level: f64,
    horizon: f64,
    attached: Attached,
) -> f64 {
    // Mirror B onto A: the axis turns with the "frame" body F and the
    // other body O moves; heights along the axis from F's mass centre,
    // measured towards O (sign +1 when F is A: O = B lies along +n).
    let (frame, frame_points, other, other_points, sign) = match attached {
        Attached::ToA => (ka, points_a, kb, points_b, 1.0),
        Attached::ToB => (kb, points_b, ka, points_a, -1.0),
    };
    let eps = f64::EPSILON;
    let axis = n * sign;
    let wf = frame.spin;
    let wf_norm = wf.norm();
    let across = across(&axis, &wf);
    // The frame's nearest height towards O: its highest point along the
    // axis, fixed in the turning frame.
    let top = frame_points
        .iter()
        .map(|p| axis.dot(&(p - frame.center)))
        .fold(f64::NEG_INFINITY, f64::max);
    let slack = frame.slack + other.slack;
    let relative = other.velocity - frame.velocity;
    let relative_speed = relative.norm();
    let speeds = other.velocity.amax() + frame.velocity.amax();
    let wo = other.spin;
    let wo_norm = wo.norm();
    // The certified time over a horizon `h`: the bends hold on `[0, h]`.
    let over = |h: f64| -> f64 {
        let mut t = f64::INFINITY;
        for p in other_points {
            let d = p - frame.center;
            let r = p - other.center;
            let wr = wo.cross(&r);
            let seen = relative + wr - wf.cross(&d);
            let rate_slack = 8.0
                * eps
                * (speeds + 2.0 * wo.amax() * r.amax() + 2.0 * wf.amax() * d.amax() + seen.amax())
                + (wf_norm + wo_norm) * slack;
            let rate = axis.dot(&seen) - rate_slack;
            let speed = relative_speed + wr.norm() + wo_norm * slack;
            let reach = d.norm() + slack + speed * h;
            let bend = 0.5
                * (wf_norm * wf_norm * across * reach
                    + 2.0 * wf_norm * across * speed
                    + wo_norm * (wr.norm() + wo_norm * slack))
                * (1.0 + 16.0 * eps);
            let gap = axis.dot(&d) - top - level;
            t = t.min(concave_root(gap, rate, bend));
            if !(t > 0.0) {
                return 0.0;
            }
        }
        let t = t * (1.0 - 8.0 * eps);
        if t >= h {
            h
        } else {
            t
        }
    };
    let t = over(horizon);
    // A step much shorter than the horizon is asked again over twice its
    // length, where the reach (and so the bend) is smaller: both hold.
    if t > 0.0 && t < 0.25 * horizon {
        t.max(over(2.0 * t))
    } else {
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use parapet_math::Quatd;

    /// A deterministic stream of uniform numbers in `[-1, 1)` from `seed`
    /// (a 64-bit linear congruential generator, Knuth's MMIX constants).
    fn uniform(mut seed: u64) -> impl FnMut() -> f64 {
        move || {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (seed >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
        }
    }

    fn rest() -> Kinematics {
        Kinematics {
            center: Vec3d::zeros(),
            velocity: Vec3d::zeros(),
            spin: Vec3d::zeros(),
            slack: 0.0,
        }
    }

    #[test]
    fn the_translating_time_is_the_point_pairs_time() {
        // Random points and translations: the closed form equals the least
        // root over the point pairs (to rounding).
        let mut rnd = uniform(9);
        for _ in 0..200 {
            let mut v = || Vec3d::new(rnd(), rnd(), rnd());
            let ka = Kinematics {
                velocity: v() * 10.0,
                ..rest()
            };
            let kb = Kinematics {
                center: Vec3d::new(0.0, 0.0, 5.0),
                velocity: v() * 10.0,
                ..rest()
            };
            let pa: Vec<Vec3d> = (0..5).map(|_| v()).collect();
            let pb: Vec<Vec3d> = (0..5).map(|_| v() + kb.center).collect();
            let n = Vec3d::z();
            let (mut ba, mut bb) = (Vec::new(), Vec::new());
            point_bounds(&pa, &ka, &n, true, &mut ba);
            point_bounds(&pb, &kb, &n, false, &mut bb);
            let pairs = admissible_time(&ba, &bb, 0.5, false, false);
            let sep = pb.iter().map(|p| p.z).fold(f64::MAX, f64::min)
                - pa.iter().map(|p| p.z).fold(f64::MIN, f64::max);
            let closed = translating_time(sep, 0.5, &n, &ka, &kb);
            // Both lower the rate by a few ulps of the speeds: 1e-12.
            assert!(
                (pairs - closed).abs() <= 1e-12 * pairs.max(1.0) || pairs == closed,
                "{pairs} {closed}"
            );
        }
    }

    #[test]
    fn moved_bounds_of_a_translating_body_are_those_of_its_displaced_points() {
        // A translating triangle (B) and its copies 0.3 m behind its face,
        // against a turning body (A), along axes reaching behind the face:
        // the certified time over corners and copies is the one over the
        // corners' bounds moved by the copies' offset along the axis (the
        // triangle's prism in `toi.rs`).
        let mut rnd = uniform(11);
        let depth = 0.3;
        for _ in 0..200 {
            let mut v = || Vec3d::new(rnd(), rnd(), rnd());
            let ka = Kinematics {
                center: v(),
                velocity: v() * 10.0,
                spin: v() * 30.0,
                slack: 0.0,
            };
            let kb = Kinematics {
                center: v() + Vec3d::new(0.0, 0.0, 3.0),
                velocity: v() * 10.0,
                ..rest()
            };
            let pa: Vec<Vec3d> = (0..6).map(|_| ka.center + v()).collect();
            let tri: Vec<Vec3d> = (0..3).map(|_| kb.center + v()).collect();
            let face = (tri[1] - tri[0]).cross(&(tri[2] - tri[0])).normalize();
            let mut n = (v() + Vec3d::new(0.0, 0.0, 2.0)).normalize();
            if n.dot(&face) < 0.0 {
                n = -n;
            }
            let prism: Vec<Vec3d> = tri
                .iter()
                .chain(&tri)
                .enumerate()
                .map(|(k, p)| if k < 3 { *p } else { p - face * depth })
                .collect();
            let (mut ba, mut bb) = (Vec::new(), Vec::new());
            point_bounds(&pa, &ka, &n, true, &mut ba);
            point_bounds(&prism, &kb, &n, false, &mut bb);
            let copies = admissible_time(&ba, &bb, -0.5, true, false);
            point_bounds(&tri, &kb, &n, false, &mut bb);
            shift_bounds(&mut bb, -depth * n.dot(&face));
            let moved = admissible_time(&ba, &bb, -0.5, true, false);
            // The copies' projections and the moved ones round apart by a
            // few ulps of the 3 m scene: 1e-12 of the time.
            assert!(
                (copies - moved).abs() <= 1e-12 * copies.max(1.0) || copies == moved,
                "{copies} {moved}"
            );
        }
    }

    #[test]
    fn a_straight_fall_reaches_the_level_exactly() {
        // A point 1 m above a fixed point, falling at 10 m/s: the gap
        // reaches 0.2 m after 0.08 s (to rounding).
        let n = Vec3d::z();
        let a = Kinematics {
            velocity: Vec3d::new(0.0, 0.0, 10.0),
            ..rest()
        };
        let (mut ba, mut bb) = (Vec::new(), Vec::new());
        point_bounds(&[Vec3d::zeros()], &a, &n, true, &mut ba);
        point_bounds(&[Vec3d::new(0.0, 0.0, 1.0)], &rest(), &n, false, &mut bb);
        let t = admissible_time(&ba, &bb, 0.2, false, false);
        assert!(t <= 0.08 && t > 0.08 * (1.0 - 1e-13), "{t}");
    }

    #[test]
    fn a_spin_about_the_axis_does_not_shorten_the_step() {
        // A stick spinning about the floor normal, 1 m above it, no fall:
        // the axis runs from the floor (A) up to the stick (B).
        let n = Vec3d::z();
        let stick = Kinematics {
            center: Vec3d::new(0.0, 0.0, 1.0),
            spin: Vec3d::new(0.0, 0.0, 50.0),
            ..rest()
        };
        let floor = [Vec3d::new(-5.0, -5.0, 0.0), Vec3d::new(5.0, 0.0, 0.0)];
        let (mut ba, mut bb) = (Vec::new(), Vec::new());
        point_bounds(&floor, &rest(), &n, true, &mut ba);
        point_bounds(
            &[Vec3d::new(-1.0, 0.0, 1.0), Vec3d::new(1.0, 0.0, 1.0)],
            &stick,
            &n,
            false,
            &mut bb,
        );
        // Only the rounding terms remain (a bend of 8 eps of |w|^2 r / 2,
        // about 2e-12 m/s^2, against a 0.1 m margin): days.
        assert!(admissible_time(&ba, &bb, 0.9, false, true) > 1e5);
    }

    #[test]
    fn a_stick_tumbling_high_above_a_floor_takes_a_long_step() {
        // A 2 m stick turning end over end at 50 rad/s, its centre 1.5 m
        // above the floor, falling at 1 m/s: its tips stay 0.5 m above the
        // floor until the fall closes it, after about 0.5 s. The Taylor
        // bound alone (tip speed 50 m/s) would allow 0.01 s.
        let n = Vec3d::z();
        let stick = Kinematics {
            center: Vec3d::new(0.0, 0.0, 1.5),
            velocity: Vec3d::new(0.0, 0.0, -1.0),
            spin: Vec3d::new(50.0, 0.0, 0.0),
            slack: 0.0,
        };
        let floor = [Vec3d::new(-5.0, -5.0, 0.0), Vec3d::new(5.0, 5.0, 0.0)];
        let (mut ba, mut bb) = (Vec::new(), Vec::new());
        point_bounds(&floor, &rest(), &n, true, &mut ba);
        let tips = [Vec3d::new(0.0, 1.0, 1.5), Vec3d::new(0.0, -1.0, 1.5)];
        point_bounds(&tips, &stick, &n, false, &mut bb);
        let t = admissible_time(&ba, &bb, 0.0, false, true);
        assert!(t > 0.49 && t <= 0.5, "{t}");
    }

    #[test]
    fn the_bounds_hold_along_true_rigid_motions() {
        // Random points and motions: the true separation along a fixed axis
        // never drops below the level before the admissible time.
        let mut rnd = uniform(3);
        for case in 0..400 {
            // Half the cases turn fast and move slowly: the bounded-turn
            // bound decides their steps.
            let speed = if case % 2 == 0 { 10.0 } else { 0.3 };
            let mut v = || Vec3d::new(rnd(), rnd(), rnd());
            let ka = Kinematics {
                center: v(),
                velocity: v() * speed,
                spin: v() * 30.0,
                slack: 0.0,
            };
            let kb = Kinematics {
                center: v() + Vec3d::new(0.0, 0.0, 4.0),
                velocity: v() * speed,
                spin: v() * 30.0,
                slack: 0.0,
            };
            let pa: Vec<Vec3d> = (0..4).map(|_| ka.center + v()).collect();
            let pb: Vec<Vec3d> = (0..4).map(|_| kb.center + v()).collect();
            let n = (v() + Vec3d::new(0.0, 0.0, 2.0)).normalize();
            let (mut ba, mut bb) = (Vec::new(), Vec::new());
            point_bounds(&pa, &ka, &n, true, &mut ba);
            point_bounds(&pb, &kb, &n, false, &mut bb);
            let level = -0.5;
            let t = admissible_time(&ba, &bb, level, true, true).min(4.0);
            let at = |k: &Kinematics, p: &Vec3d, s: f64| {
                k.center + k.velocity * s + Quatd::from_scaled_axis(k.spin * s) * (p - k.center)
            };
            for step in 0..=400 {
                let s = t * step as f64 / 400.0;
                let hi = pa
                    .iter()
                    .map(|p| n.dot(&at(&ka, p, s)))
                    .fold(f64::MIN, f64::max);
                let lo = pb
                    .iter()
                    .map(|p| n.dot(&at(&kb, p, s)))
                    .fold(f64::MAX, f64::min);
                // f64 rounding of the true path: 1e-12.
                assert!(lo - hi >= level - 1e-12, "{} < {level} at {s}", lo - hi);
            }
        }
    }

    /// The separation along the axis `n` turning with `frame`'s spin from
    /// time 0, of the true rigid motions at time `s` (A below, B above).
    fn turning_separation(
        pa: &[Vec3d],
        ka: &Kinematics,
        pb: &[Vec3d],
        kb: &Kinematics,
        n: &Vec3d,
        attached: Attached,
        s: f64,
    ) -> f64 {
        let at = |k: &Kinematics, p: &Vec3d| {
            k.center + k.velocity * s + Quatd::from_scaled_axis(k.spin * s) * (p - k.center)
        };
        let frame = if attached == Attached::ToA { ka } else { kb };
        let m = Quatd::from_scaled_axis(frame.spin * s) * n;
        let hi = pa
            .iter()
            .map(|p| m.dot(&at(ka, p)))
            .fold(f64::MIN, f64::max);
        let lo = pb
            .iter()
            .map(|p| m.dot(&at(kb, p)))
            .fold(f64::MAX, f64::min);
        lo - hi
    }

    #[test]
    fn the_turning_axis_bounds_hold_along_true_rigid_motions() {
        // Random points and motions, the axis turning with A or with B: the
        // true separation along it never drops below the level before the
        // certified time.
        let mut rnd = uniform(11);
        let mut advanced = 0;
        for case in 0..20000 {
            let speed = if case % 2 == 0 { 10.0 } else { 0.3 };
            let mut v = || Vec3d::new(rnd(), rnd(), rnd());
            let ka = Kinematics {
                center: v(),
                velocity: v() * speed,
                spin: v() * 30.0,
                slack: 0.0,
            };
            let kb = Kinematics {
                center: v() + Vec3d::new(0.0, 0.0, 4.0),
                velocity: v() * speed,
                spin: if case % 3 == 0 {
                    Vec3d::zeros()
                } else {
                    v() * 30.0
                },
                slack: 0.0,
            };
            let pa: Vec<Vec3d> = (0..4).map(|_| ka.center + v() * 2.0).collect();
            let pb: Vec<Vec3d> = (0..4).map(|_| kb.center + v()).collect();
            let n = (v() + Vec3d::new(0.0, 0.0, 2.0)).normalize();
            let attached = if case % 4 < 2 {
                Attached::ToA
            } else {
                Attached::ToB
            };
            let level = -0.5;
            let horizon = 0.5;
            let t = attached_time(&pa, &ka, &pb, &kb, &n, level, horizon, attached);
            assert!(t <= horizon, "{t}");
            if t == 0.0 {
                continue; // starts at or below the level: nothing certified
            }
            advanced += 1;
            for step in 0..=400 {
                let s = t * step as f64 / 400.0;
                let sep = turning_separation(&pa, &ka, &pb, &kb, &n, attached, s);
                // f64 rounding of the true path: 1e-12.
                assert!(
                    sep >= level - 1e-12,
                    "case {case}: {sep} < {level} at {s} of {t}"
                );
            }
        }
        // Most cases start above the level and advance. (20,000 cases: at
        // 800 a bound without its Coriolis term still passed.)
        assert!(advanced > 10_000, "{advanced}");
    }

    #[test]
    fn a_box_turning_as_it_grinds_past_a_post_takes_a_long_step() {
        // A 4.4 m box (A) turning at 6 rad/s about an axis in its face
        // plane, its face 12.5 µm from a post's end (B) at rest: along the
        // fixed axis its far corners rise at 13 m/s and allow a
        // microsecond; along the axis turning with it the post's end is
        // carried by the turn's curvature only (|ω|² |d| / 2 = 45 m/s²,
        // plus 2 |ω| |v|/2 for the post seen from the turning box at 2.5
        // m): about half a millisecond.
        let n = Vec3d::z();
        let car = Kinematics {
            spin: Vec3d::new(6.0, 0.0, 0.0),
            ..rest()
        };
        let corners: Vec<Vec3d> = [-2.2, 2.2]
            .iter()
            .flat_map(|&x| [-0.9, 0.9].map(move |y| Vec3d::new(x, y, 0.0)))
            .collect();
        let post = [Vec3d::new(0.0, 0.0, 12.5e-6)];
        let (mut ba, mut bb) = (Vec::new(), Vec::new());
        point_bounds(&corners, &car, &n, true, &mut ba);
        point_bounds(&post, &rest(), &n, false, &mut bb);
        let fixed = admissible_time(&ba, &bb, 0.0, true, false);
        let turning = attached_time(&corners, &car, &post, &rest(), &n, 0.0, 0.05, Attached::ToA);
        assert!(fixed < 1e-5, "{fixed}");
        assert!(turning > 1e-4, "{turning}");
    }
}
