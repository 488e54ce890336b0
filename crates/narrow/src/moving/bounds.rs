//! Swept bounds: a conservative axis-aligned box around everything a moving
//! shape covers over a window, for a caller's candidate search.
//!
//! # Method
//! A point at body-frame position `p` is at `c(t) + q(t)` with
//! `c(t) = c + v t` (a segment over the window) and `q(t)` its arm turning
//! by `θ = |ω| (end − start)` about `ω̂`. The arm's axial part is constant;
//! its radial part (length `ρ`) runs on a circle. For `θ >= π` the box of
//! the whole circle is taken (half extent `ρ sqrt(1 − ω̂_k²)` on axis `k`
//! about the axial part); for `θ < π` the arc lies within its sagitta
//! `ρ (1 − cos(θ/2))` of its chord, so the box of its two ends grown by
//! the sagitta contains it. The point's box is the Minkowski sum of the
//! segment's box and the arc's; the shape's is the union over its points,
//! grown by its skin. A mesh uses the corners of its shape-frame bounds.
//!
//! # Precision domain
//! `f64`; the box is grown by twice the arbiter's position slack
//! ([`super::domain::position_slack`]), which bounds the rounding of every
//! term above (each a few `ε` of the same magnitudes), so it contains the
//! exact swept region.

use parapet_geometry::Aabbd;
use parapet_math::Vec3d;

use super::core::MovingShape;
use super::domain::position_slack;
use super::motion::Motion;

/// The box of the points `points` (body frame) grown by `skin`, moving
/// along `motion` over `[start, end]` (module docs).
pub(crate) fn swept_points(
    points: &[Vec3d],
    skin: f64,
    motion: &Motion,
    start: f64,
    end: f64,
) -> Aabbd {
    let c0 = motion.center_at(start);
    let c1 = motion.center_at(end);
    let q0 = motion.rotation_at(start);
    let q1 = motion.rotation_at(end);
    let w = motion.spin;
    let wn = w.norm();
    let theta = wn * (end - start);
    let axis = if wn > 0.0 { w / wn } else { Vec3d::zeros() };
    let mut lo = Vec3d::repeat(f64::INFINITY);
    let mut hi = Vec3d::repeat(f64::NEG_INFINITY);
    let mut reach = 0.0f64;
    for p in points {
        let arm = p - motion.local_center;
        reach = reach.max(arm.norm());
        let r0 = q0 * arm;
        let (alo, ahi) = if theta <= 0.0 {
            (r0, r0)
        } else {
            let axial = axis * axis.dot(&r0);
            let rho = (r0 - axial).norm();
            if theta >= std::f64::consts::PI {
                let half = axis.map(|k| rho * (1.0 - k * k).max(0.0).sqrt());
                (axial - half, axial + half)
            } else {
                let r1 = q1 * arm;
                let sag = rho * (1.0 - (0.5 * theta).cos());
                (r0.inf(&r1).add_scalar(-sag), r0.sup(&r1).add_scalar(sag))
            }
        };
        lo = lo.inf(&(c0.inf(&c1) + alo));
        hi = hi.sup(&(c0.sup(&c1) + ahi));
    }
    let t = start.abs().max(end.abs());
    let margin =
        2.0 * position_slack(
            c0.amax().max(c1.amax()),
            motion.velocity.amax(),
            wn,
            reach + skin,
            t,
        ) + skin * (1.0 + 4.0 * f64::EPSILON);
    Aabbd::new(lo.add_scalar(-margin), hi.add_scalar(margin))
}

/// A conservative box (m, world) around everything `shape` covers while it
/// moves along `motion` over `[start, end]` (module docs).
pub fn swept_bounds(shape: &MovingShape, motion: &Motion, start: f64, end: f64) -> Aabbd {
    match shape {
        MovingShape::Convex(core) => swept_points(core.points(), core.skin(), motion, start, end),
        MovingShape::Mesh(mesh) => swept_points(&mesh.bounding_corners(), 0.0, motion, start, end),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::moving::core::Core;
    use parapet_math::Quatd;

    #[test]
    fn the_box_contains_every_sampled_position() {
        let mut seed = 5u64;
        let mut rnd = move || {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (seed >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
        };
        for case in 0..300 {
            let mut v = || Vec3d::new(rnd(), rnd(), rnd());
            let points: Vec<Vec3d> = (0..4).map(|_| v() * 2.0).collect();
            let spin = v() * if case % 3 == 0 { 0.0 } else { 20.0 };
            let m = Motion::new(
                v() * 10.0,
                Quatd::from_scaled_axis(v()),
                v() * 0.3,
                v() * 30.0,
                spin,
            );
            let (start, end) = (0.1, 0.1 + 0.2 * (rnd() + 1.0));
            let core = Core::segment([points[0], points[1]], 0.25);
            let shape = MovingShape::Convex(core);
            let b = swept_bounds(&shape, &m, start, end);
            for k in 0..=200 {
                let t = start + (end - start) * k as f64 / 200.0;
                for p in &points[..2] {
                    let x = m.point_at(t, p);
                    assert!(
                        b.grown(-0.25).contains_point(&x),
                        "case {case}: {x} outside {b:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn a_fixed_point_gives_its_skin_box() {
        let m = Motion::fixed(Vec3d::new(1.0, 2.0, 3.0), Quatd::identity());
        let shape = MovingShape::Convex(Core::point(Vec3d::zeros(), 0.5));
        let b = swept_bounds(&shape, &m, 0.0, 1.0);
        // Grown by the skin and a margin of 1e-13.
        assert!((b.min - Vec3d::new(0.5, 1.5, 2.5)).amax() < 1e-12);
        assert!((b.max - Vec3d::new(1.5, 2.5, 3.5)).amax() < 1e-12);
        assert!(b.min.x <= 0.5 && b.max.z >= 3.5);
    }
}
