//! The pairwise meeting test of the grouping ([`super`]): whether two moving
//! bodies can touch within the step, judged from their shapes at the step's
//! start and from how far any point of each can travel
//! (docs/continuous-collision.md, "Moving groups", the separation lemma).
//!
//! # Method
//! Each mover's shape is a core grown by a radius ([`Core`]): a point (a
//! sphere), a segment (a capsule, turning or not) or a convex polytope (a
//! box or hull), every shape point within `radius` of a core point. Its
//! reach ball (radius `R`, around the centre from which its bound `b` is
//! taken) satisfies `R >= b + margin + T`, where `T` bounds the distance
//! any point of the shape travels in the step (its speed bound, rotation
//! and split travel, or its group's): so `R - b - margin >= T`.
//!
//! The distance between two cores is bounded from below along any unit
//! direction `n` (a separating plane): `gap(n) = min_B n·y - max_A n·x <=
//! |x - y|` for every `x` of core A and `y` of core B. The direction is the
//! one between the closest points of two segments (Ericson, *Real-Time
//! Collision Detection*, 2005, §5.1.9), for which the bound is the distance
//! itself; with a polytope, the direction from its centre to the nearest
//! point of the other core (from centre to centre for two polytopes). The
//! bound holds for any direction, so the roundoff of the closest points
//! only weakens it. The supports are exact functions of the core's points:
//! `max(n·e0, n·e1)` for a segment, `n·c + max_v (R⁻¹ n)·v` over a
//! polytope's shape-frame vertices.
//!
//! Two movers are apart when
//! `gap(n) - r_A - r_B - (R_A - b_A) - (R_B - b_B) > safety`: then their
//! shapes start more than `T_A + T_B + 2 margin` apart and cannot touch in
//! the step (docs/continuous-collision.md, "Moving groups"). A mover whose
//! core is unknown ([`CoreShape::Ball`]) is never apart by this test (its
//! reach ball decides alone).
//!
//! # Source
//! Ericson, *Real-Time Collision Detection* (2005), §5.1.9 (closest points
//! of two segments); the separating-plane bound is the support-function
//! form of the separating axis test (§5.2.1).
//!
//! # Precision domain
//! Conservative: [`GAP_SAFETY`] of the pair's coordinate scale covers the
//! `f64` rounding of every quantity in the test; a polytope's support and a
//! turning core are widened by [`ROTATION_WIDEN`] of their extent for the
//! rotation's roundoff; any NaN or infinity leaves the pair together.

use parapet_math::nalgebra::UnitQuaternion;
use parapet_math::Vec3d;
use parapet_narrow::solid::ConvexSolid;

/// Relative safety of the apart test (dimensionless, `2^-36` of the pair's
/// coordinate scale: the largest magnitude of a core coordinate, plus both
/// reach radii). Each quantity of the test (the closest points, the
/// supports, the sums) takes fewer than 64 `f64` operations on values at
/// most that scale, each rounding by at most `2^-53` of it: `2^-36` is
/// `2^11` times their sum.
pub(crate) const GAP_SAFETY: f64 = 1.0 / 68_719_476_736.0;

/// Widening of a rotated core (dimensionless, of its extent: a polytope's
/// farthest vertex plus its shape offset, a turning capsule's farthest
/// end from the mass centre): the sweeps accept rotations within
/// `1e-5` of unit squared norm and turn vectors by `q v q*`, which scales
/// them by the squared norm; two such rotations (body and shape frame)
/// move a rotated point by at most `2.1e-5` of its extent from the unit
/// rotation's image, and `1e-4` covers that with the `f64` rounding.
pub(crate) const ROTATION_WIDEN: f64 = 1.0e-4;

/// The core of a mover's shape.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum CoreShape {
    /// Unknown: only the reach ball decides.
    Ball,
    /// A segment (world, m); both ends equal for a sphere.
    Segment([Vec3d; 2]),
    /// A convex polytope: its shape centre (world, m) and rotation from the
    /// shape frame to the world; the vertices are the shape-frame vertices
    /// of the mover's solid.
    Solid {
        /// Shape centre (world, m).
        center: Vec3d,
        /// Shape frame to world.
        rotation: UnitQuaternion<f64>,
    },
}

/// A mover's shape for the meeting test: every point of the shape lies
/// within `radius` of a core point, and the reach ball's radius is at
/// least `bound + margin + T` (`T`: the farthest any shape point travels).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Core {
    /// The core.
    pub(crate) shape: CoreShape,
    /// Radius around the core (m), widened where the core is rotated.
    pub(crate) radius: f64,
    /// The shape bound the reach ball was built from (m).
    pub(crate) bound: f64,
}

impl Core {
    /// No known core: the reach ball decides alone.
    pub(crate) const BALL: Core = Core {
        shape: CoreShape::Ball,
        radius: 0.0,
        bound: 0.0,
    };
}

/// The closest points `(s, t)` (parameters in `[0, 1]`) of the segments
/// `p0 + s d1` and `q0 + t d2` (Ericson §5.1.9). Degenerate segments
/// (zero length exactly) are points.
fn closest_parameters(p0: &Vec3d, d1: &Vec3d, q0: &Vec3d, d2: &Vec3d) -> (f64, f64) {
    let r = p0 - q0;
    let a = d1.dot(d1);
    let e = d2.dot(d2);
    let f = d2.dot(&r);
    if a == 0.0 && e == 0.0 {
        return (0.0, 0.0);
    }
    if a == 0.0 {
        return (0.0, (f / e).clamp(0.0, 1.0));
    }
    let c = d1.dot(&r);
    if e == 0.0 {
        return ((-c / a).clamp(0.0, 1.0), 0.0);
    }
    let b = d1.dot(d2);
    let denom = a * e - b * b;
    let mut s = if denom > 0.0 {
        ((b * f - c * e) / denom).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let mut t = (b * s + f) / e;
    if t < 0.0 {
        t = 0.0;
        s = (-c / a).clamp(0.0, 1.0);
    } else if t > 1.0 {
        t = 1.0;
        s = ((b - c) / a).clamp(0.0, 1.0);
    }
    (s, t)
}

/// The point of segment `[e0, e1]` nearest `x`.
fn nearest_on_segment(e: &[Vec3d; 2], x: &Vec3d) -> Vec3d {
    let d = e[1] - e[0];
    let a = d.dot(&d);
    if a == 0.0 {
        return e[0];
    }
    let s = ((x - e[0]).dot(&d) / a).clamp(0.0, 1.0);
    e[0] + d * s
}

/// The support `max n·x` of a core along `n` (its radius not included),
/// with the largest coordinate magnitude it read.
fn support(shape: &CoreShape, solid: Option<&ConvexSolid>, n: &Vec3d) -> Option<(f64, f64)> {
    match shape {
        CoreShape::Ball => None,
        CoreShape::Segment(e) => {
            let far = e[0].amax().max(e[1].amax());
            Some((n.dot(&e[0]).max(n.dot(&e[1])), far))
        }
        CoreShape::Solid { center, rotation } => {
            let solid = solid?;
            let m = rotation.inverse_transform_vector(n);
            let h = solid
                .vertices()
                .iter()
                .map(|v| m.dot(v))
                .fold(f64::NEG_INFINITY, f64::max);
            Some((n.dot(center) + h, center.amax() + solid.bounding_radius()))
        }
    }
}

/// A point of the core (for choosing a direction).
fn anchor(shape: &CoreShape) -> Option<Vec3d> {
    match shape {
        CoreShape::Ball => None,
        CoreShape::Segment(e) => Some((e[0] + e[1]) * 0.5),
        CoreShape::Solid { center, .. } => Some(*center),
    }
}

/// The separating direction from core A towards core B (unit), `None`
/// when it cannot be chosen (coincident points, unknown cores).
fn direction(a: &CoreShape, b: &CoreShape) -> Option<Vec3d> {
    let d = match (a, b) {
        (CoreShape::Segment(p), CoreShape::Segment(q)) => {
            let (d1, d2) = (p[1] - p[0], q[1] - q[0]);
            let (s, t) = closest_parameters(&p[0], &d1, &q[0], &d2);
            (q[0] + d2 * t) - (p[0] + d1 * s)
        }
        (CoreShape::Solid { center, .. }, CoreShape::Segment(q)) => {
            nearest_on_segment(q, center) - center
        }
        (CoreShape::Segment(p), CoreShape::Solid { center, .. }) => {
            center - nearest_on_segment(p, center)
        }
        _ => anchor(b)? - anchor(a)?,
    };
    let len = d.norm();
    (len > 0.0 && len.is_finite()).then(|| d / len)
}

/// Whether movers A and B (cores `a`, `b`, reach radii `reach_a`,
/// `reach_b`, solids looked up for polytope cores) are apart: their shapes
/// start farther apart than both travels and both margins, so they cannot
/// touch within the step (see the module docs). `false` whenever it cannot
/// be shown (unknown cores, a missing solid, NaN).
pub(crate) fn apart(
    a: &Core,
    reach_a: f64,
    solid_a: Option<&ConvexSolid>,
    b: &Core,
    reach_b: f64,
    solid_b: Option<&ConvexSolid>,
) -> bool {
    let Some(n) = direction(&a.shape, &b.shape) else {
        return false;
    };
    let (Some((ha, fa)), Some((hb, fb))) = (
        support(&a.shape, solid_a, &n),
        support(&b.shape, solid_b, &-n),
    ) else {
        return false;
    };
    // min over B of n·y is -max over B of (-n)·y.
    let gap = -hb - ha;
    let travel = (reach_a - a.bound) + (reach_b - b.bound);
    let scale = fa.max(fb) + reach_a.abs() + reach_b.abs();
    gap - a.radius - b.radius - travel > GAP_SAFETY * scale
}

#[cfg(test)]
mod tests {
    use super::*;

    fn segment(a: [f64; 3], b: [f64; 3], radius: f64, bound: f64) -> Core {
        Core {
            shape: CoreShape::Segment([Vec3d::from(a), Vec3d::from(b)]),
            radius,
            bound,
        }
    }

    /// The closest parameters give the distance of two segments: parallel,
    /// crossing, skew and end-to-end cases against a dense sampling of
    /// both segments (the sampled minimum is an upper bound within the
    /// sampling step of the distance).
    #[test]
    fn closest_parameters_give_the_segment_distance() {
        type Case = ([f64; 3], [f64; 3], [f64; 3], [f64; 3]);
        let cases: [Case; 6] = [
            (
                [0.0, 0.0, 0.0],
                [0.0, 0.0, 1.0],
                [1.0, 0.0, 0.0],
                [1.0, 0.0, 1.0],
            ),
            (
                [0.0, 0.0, 0.0],
                [1.0, 0.0, 0.0],
                [0.5, -1.0, 0.3],
                [0.5, 1.0, 0.3],
            ),
            (
                [0.0, 0.0, 0.0],
                [1.0, 1.0, 0.0],
                [2.0, 0.0, 1.0],
                [3.0, 2.0, -1.0],
            ),
            (
                [0.0, 0.0, 0.0],
                [0.0, 0.0, 0.0],
                [1.0, 2.0, 3.0],
                [1.0, 2.0, 3.0],
            ),
            (
                [0.0, 0.0, 0.0],
                [0.0, 0.0, 1.0],
                [0.0, 0.0, 2.0],
                [0.0, 0.0, 3.0],
            ),
            (
                [0.2, 0.1, 0.0],
                [0.2, 0.1, 0.0],
                [-1.0, 0.0, 0.0],
                [1.0, 0.5, 0.0],
            ),
        ];
        for (p0, p1, q0, q1) in cases {
            let (p0, p1, q0, q1) = (
                Vec3d::from(p0),
                Vec3d::from(p1),
                Vec3d::from(q0),
                Vec3d::from(q1),
            );
            let (s, t) = closest_parameters(&p0, &(p1 - p0), &q0, &(q1 - q0));
            let d = ((q0 + (q1 - q0) * t) - (p0 + (p1 - p0) * s)).norm();
            let mut sampled = f64::INFINITY;
            for i in 0..=400 {
                for j in 0..=400 {
                    let x = p0 + (p1 - p0) * (i as f64 / 400.0);
                    let y = q0 + (q1 - q0) * (j as f64 / 400.0);
                    sampled = sampled.min((x - y).norm());
                }
            }
            // The sampling step is at most 3.6 m / 400 along either
            // segment: the sampled minimum lies within 0.01 m above the
            // distance.
            assert!(
                d <= sampled + 1e-12 && sampled - d < 0.01,
                "{d} vs {sampled}"
            );
        }
    }

    /// Two upright capsules (r 0.3, bound 0.9, reach 0.945 each: a 2.5 cm
    /// travel and the 2 cm margin) 1 m apart are apart; 0.7 m apart their
    /// surfaces are 0.1 m apart, more than both travels and margins (0.09
    /// m): still apart; 0.68 m apart (0.08 m) they are not.
    #[test]
    fn upright_capsules_are_apart_only_beyond_both_travels_and_margins() {
        let reach = 0.9 + 0.02 + 0.025;
        let at = |x: f64| segment([x, 0.0, -0.6], [x, 0.0, 0.6], 0.3, 0.9);
        let a = at(0.0);
        assert!(apart(&a, reach, None, &at(1.0), reach, None));
        assert!(apart(&a, reach, None, &at(0.7), reach, None));
        assert!(!apart(&a, reach, None, &at(0.68), reach, None));
        // Their reach balls overlap at 1 m (0.945 + 0.945 > 1): the balls
        // alone would group them.
        assert!(2.0 * reach > 1.0);
    }

    /// A unit cube (half extent 0.5) turned 45 degrees about z reaches
    /// 0.707 m along x: a sphere 1.0 m from its centre along x with radius
    /// 0.2 leaves a 0.093 m gap; along y the same. Apart with no travel,
    /// not apart with 0.05 m of travel each.
    #[test]
    fn a_turned_box_is_apart_by_its_support() {
        let solid = ConvexSolid::from_cuboid(parapet_math::Vec3::new(0.5, 0.5, 0.5)).unwrap();
        let rotation =
            UnitQuaternion::from_axis_angle(&Vec3d::z_axis(), std::f64::consts::FRAC_PI_4);
        let bound = solid.bounding_radius();
        let cube = Core {
            shape: CoreShape::Solid {
                center: Vec3d::zeros(),
                rotation,
            },
            radius: 0.0,
            bound,
        };
        let ball = segment([1.0, 0.0, 0.0], [1.0, 0.0, 0.0], 0.2, 0.2);
        let m = 0.02;
        assert!(apart(
            &cube,
            bound + m,
            Some(&solid),
            &ball,
            0.2 + m,
            Some(&solid)
        ));
        assert!(!apart(
            &cube,
            bound + m + 0.05,
            Some(&solid),
            &ball,
            0.2 + m + 0.05,
            None
        ));
        // Without its solid the cube is never shown apart.
        assert!(!apart(&cube, bound + m, None, &ball, 0.2 + m, None));
    }

    /// The test is sound and tight on random capsule and sphere pairs:
    /// shown apart only when the shapes' distance (sampled at 201 points
    /// of each core: an upper bound of the true distance, within the
    /// sampling step above it) exceeds both travels and margins, and not
    /// apart only when it is within the sampling step of them.
    #[test]
    fn apart_is_sound_and_tight_on_random_segments() {
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = || {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 11) as f64 / (1u64 << 53) as f64
        };
        let mut shown = 0;
        for _ in 0..3_000 {
            let core = |next: &mut dyn FnMut() -> f64| {
                let c = Vec3d::new(next() * 3.0, next() * 3.0, next() * 3.0);
                let h = if next() < 0.3 { 0.0 } else { next() * 0.8 };
                let dir = Vec3d::new(next() - 0.5, next() - 0.5, next() - 0.5).normalize();
                let r = 0.05 + next() * 0.4;
                let ends = [c - dir * h, c + dir * h];
                (ends, r, h + r)
            };
            let (ea, ra, ba) = core(&mut next);
            let (eb, rb, bb) = core(&mut next);
            let (ta, tb) = (next() * 0.3, next() * 0.3);
            let margin = 0.02;
            let a = Core {
                shape: CoreShape::Segment(ea),
                radius: ra,
                bound: ba,
            };
            let b = Core {
                shape: CoreShape::Segment(eb),
                radius: rb,
                bound: bb,
            };
            let is_apart = apart(&a, ba + margin + ta, None, &b, bb + margin + tb, None);
            let mut sampled = f64::INFINITY;
            for i in 0..=200 {
                let x = ea[0] + (ea[1] - ea[0]) * (i as f64 / 200.0);
                for j in 0..=200 {
                    let y = eb[0] + (eb[1] - eb[0]) * (j as f64 / 200.0);
                    sampled = sampled.min((x - y).norm());
                }
            }
            let threshold = ra + rb + ta + tb + 2.0 * margin;
            // Sampling step: 1.6 m / 200 per segment.
            let step = 0.016;
            if is_apart {
                shown += 1;
                assert!(sampled > threshold, "{sampled} <= {threshold}");
            } else {
                assert!(
                    sampled - step <= threshold + 1e-9,
                    "{sampled} vs {threshold}"
                );
            }
        }
        // Both answers were exercised.
        assert!(shown > 300 && shown < 2_700, "{shown}");
    }

    #[test]
    fn unknown_cores_and_nan_are_never_apart() {
        let a = segment([0.0; 3], [0.0, 0.0, 1.0], 0.1, 0.6);
        assert!(!apart(&Core::BALL, 1.0, None, &a, 1.0, None));
        let nan = segment([f64::NAN, 0.0, 0.0], [0.0; 3], 0.1, 0.6);
        assert!(!apart(&nan, 1.0, None, &a, 1.0, None));
        let far = segment([10.0, 0.0, 0.0], [10.0, 0.0, 1.0], 0.1, 0.6);
        assert!(!apart(&far, f64::INFINITY, None, &a, 1.0, None));
    }
}
