//! The query kinds of the triangle bounds tree: a box, a ball, a swept ball
//! (a sphere or shape bound moving along a segment) and a ray, each a
//! conservative predicate on closed `f64` boxes.
//!
//! Method: every query is a conservative box ([`BoundsQuery::bounds`],
//! every endpoint addition and radius expansion rounded outward by
//! parapet-math's directed roundings, so that it contains the exact region) and, for the ball, swept
//! ball and ray, a tighter
//! test on a box that already meets that box ([`BoundsQuery::refine`]):
//! - ball: the squared distance from the centre to the box, computed to
//!   nearest, against the squared radius widened by that computation's
//!   rounding-error bound (computed once per query, rounded up);
//! - swept ball longer than [`LONG_SWEEP_RADII`] radii: the slab test (Kay
//!   and Kajiya 1986; Williams et al. 2005) of the centre segment against the
//!   box grown by the radius on every side, a superset of the box's Minkowski
//!   sum with the ball (a shorter sweep is answered by its box);
//! - ray: the same slab test of the ray against the box itself.
//!
//! Contract (docs/continuous-collision.md, "Performance"): query bounds are
//! `f64`, each endpoint addition and radius expansion rounds outward, and a
//! swept query covers the complete sphere path including its endpoints.
//!
//! Precision domain: finite `f64` inputs (a ray's length may be infinite).
//! Each slab parameter `(bound - origin) * (1 / delta)` carries at most
//! [`SLAB_ROUNDINGS`] roundings to nearest, so widening it by `2^-49` of its
//! magnitude (plus the smallest normal) bounds the exact parameter; an axis
//! whose reciprocal overflows (a zero or subnormal delta) puts no constraint in the slab test,
//! and the query box alone decides it. Every predicate is monotone: if it
//! rejects a box it rejects every box inside it, which is what lets the tree
//! prune a subtree with the same test it applies to a leaf.

use parapet_math::Vec3d;

use super::{Bounds, BvhError};
use parapet_math::rounding::{add_down, add_up, mul_down, mul_up, sub_down};

/// Roundings to nearest in one slab parameter `(bound - origin) * inv`, where
/// `origin` may be a directed-rounded value (a bound, not an error),
/// `inv = 1 / delta` and `delta` itself was rounded once (swept ball): 4
/// (difference, delta, reciprocal, product), so the computed parameter is
/// within `4.0001 * 2^-53` of the exact one, relatively (dimensionless).
pub const SLAB_ROUNDINGS: u32 = 4;

/// Relative widening of a computed slab parameter: `2^-49 = 16 * 2^-53`,
/// more than the [`SLAB_ROUNDINGS`] relative errors plus the rounding of the
/// widening itself (dimensionless). Costs about 1e-15 of the parameter.
const SLAB_WIDEN: f64 = 1.0 / (1u64 << 49) as f64;

/// Absolute widening of a slab parameter, covering underflow in the product
/// (at most `2^-1075` per rounding): the smallest normal `f64`.
const SLAB_WIDEN_ABS: f64 = f64::MIN_POSITIVE;

/// A lower bound of the exact parameter that `t` approximates within
/// [`SLAB_ROUNDINGS`] roundings. An infinite `t` gives NaN, which the slab
/// test's `max` / `min` ignore: that axis then constrains nothing (conservative).
#[inline]
fn widen_down(t: f64) -> f64 {
    t - (t.abs() * SLAB_WIDEN + SLAB_WIDEN_ABS)
}

/// An upper bound of the exact parameter that `t` approximates (see [`widen_down`]).
#[inline]
fn widen_up(t: f64) -> f64 {
    t + (t.abs() * SLAB_WIDEN + SLAB_WIDEN_ABS)
}

/// A conservative query region tested against closed `f64` boxes.
///
/// The tree returns exactly the triangles whose bounds `b` satisfy
/// [`BoundsQuery::touches`]`(b)`. Implementations must be conservative (never
/// reject a box that the exact region meets) and monotone (a rejected box's
/// sub-boxes are rejected too).
pub trait BoundsQuery {
    /// Whether [`BoundsQuery::refine`] can reject a box (lets the traversal
    /// skip the conversion of node bounds when it cannot).
    const REFINES: bool;

    /// A closed box containing the whole query region, rounded outward.
    fn bounds(&self) -> Bounds;

    /// The tighter test, applied to a box that meets [`BoundsQuery::bounds`].
    fn refine(&self, b: &Bounds) -> bool;

    /// Whether [`BoundsQuery::refine`] can reject a box for this query (when
    /// not, the traversal runs the box test alone). A pure speed choice: the
    /// result is the same either way.
    #[inline]
    fn refines(&self) -> bool {
        Self::REFINES
    }

    /// Whether the traversal should also apply [`BoundsQuery::refine`] to
    /// internal nodes (it always applies it to leaves). A pure speed choice:
    /// the predicate is monotone, so the result is the same either way.
    #[inline]
    fn refine_internal(&self) -> bool {
        Self::REFINES
    }

    /// The whole predicate: the box test and the tighter test.
    #[inline]
    fn touches(&self, b: &Bounds) -> bool {
        self.bounds().intersects(b) && (!Self::REFINES || self.refine(b))
    }
}

impl BoundsQuery for Bounds {
    const REFINES: bool = false;

    #[inline]
    fn bounds(&self) -> Bounds {
        *self
    }

    #[inline]
    fn refine(&self, _b: &Bounds) -> bool {
        true
    }
}

#[inline]
fn finite_vector(v: &Vec3d, quantity: &'static str) -> Result<(), BvhError> {
    match v.iter().find(|x| !x.is_finite()) {
        Some(&value) => Err(BvhError::InvalidQuery {
            quantity,
            value,
            requirement: "finite",
        }),
        None => Ok(()),
    }
}

#[inline]
fn radius_checked(radius: f64, quantity: &'static str) -> Result<f64, BvhError> {
    if radius.is_finite() && radius >= 0.0 {
        Ok(radius)
    } else {
        Err(BvhError::InvalidQuery {
            quantity,
            value: radius,
            requirement: "finite and at least 0",
        })
    }
}

/// Reciprocals for the slab test. An axis whose reciprocal is not finite
/// (zero or subnormal delta) gets NaN: every parameter computed from it is
/// NaN, which `f64::max` / `f64::min` ignore, so that axis puts no constraint
/// on `t` (the query box alone decides it) and the test needs no branch.
#[inline]
fn reciprocals(delta: &Vec3d) -> [f64; 3] {
    [0, 1, 2].map(|k| {
        let r = 1.0 / delta[k];
        if r.is_finite() {
            r
        } else {
            f64::NAN
        }
    })
}

/// The slab test of `origin + t * delta`, `t in [t_enter, t_exit]`, against
/// a box, given per axis `(lo - origin)` and `(hi - origin)` as the caller
/// computed them (each a bound on the conservative side, or within one
/// rounding) and the reciprocals of [`reciprocals`].
#[inline]
fn slab(
    lo_rel: [f64; 3],
    hi_rel: [f64; 3],
    inv: &[f64; 3],
    mut t_enter: f64,
    mut t_exit: f64,
) -> bool {
    for k in 0..3 {
        let t_lo = lo_rel[k] * inv[k];
        let t_hi = hi_rel[k] * inv[k];
        let (near, far) = if t_lo < t_hi {
            (t_lo, t_hi)
        } else {
            (t_hi, t_lo)
        };
        // Comparisons with NaN are false, so a NaN parameter (an axis without
        // a finite reciprocal) leaves the interval as it is.
        let (near, far) = (widen_down(near), widen_up(far));
        if near > t_enter {
            t_enter = near;
        }
        if far < t_exit {
            t_exit = far;
        }
    }
    t_enter <= t_exit
}

/// Relative widening of the ball's squared-radius limit: `2^-50 = 8 * 2^-53`,
/// more than the five roundings to nearest of the squared-distance
/// computation in [`Ball`]'s refinement (dimensionless).
const BALL_DIST_SQ_WIDEN: f64 = 1.0 / (1u64 << 50) as f64;

/// A ball: the points within `radius` of `center`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Ball {
    center: Vec3d,
    radius: f64,
    bounds: Bounds,
    /// The largest squared distance, as [`Ball::refine`] computes it with
    /// rounding to nearest, that can belong to a box within the radius:
    /// `radius^2 * (1 + 2^-50) + 2^-1022`, each step rounded up.
    dist_sq_limit: f64,
}

impl Ball {
    /// A ball query.
    ///
    /// # Errors
    /// [`BvhError::InvalidQuery`] for a non-finite centre or a radius that is
    /// not finite and non-negative.
    #[inline]
    pub fn new(center: Vec3d, radius: f64) -> Result<Self, BvhError> {
        finite_vector(&center, "ball centre")?;
        let radius = radius_checked(radius, "ball radius")?;
        Ok(Self {
            center,
            radius,
            // `c - radius` rounded down and `c + radius` rounded up, branch
            // free (the same bits as `sub_down` / `add_up`).
            bounds: grown_box(&center, &center, radius),
            dist_sq_limit: add_up(
                mul_up(mul_up(radius, radius), 1.0 + BALL_DIST_SQ_WIDEN),
                f64::MIN_POSITIVE,
            ),
        })
    }

    /// The centre.
    pub fn center(&self) -> Vec3d {
        self.center
    }

    /// The radius.
    pub fn radius(&self) -> f64 {
        self.radius
    }
}

impl BoundsQuery for Ball {
    const REFINES: bool = true;

    #[inline]
    fn bounds(&self) -> Bounds {
        self.bounds
    }

    #[inline]
    fn refine(&self, b: &Bounds) -> bool {
        // The squared distance from the centre to the box, rounded to
        // nearest. Each gap `max(min - c, c - max, 0)` has the sign of the
        // exact difference (a rounded difference is zero only for equal
        // operands) and at most one rounding, its square one more, the sum
        // two: the computed value is at most `(1 + 2^-53)^5` times the exact
        // one, plus below 2^-1072 of underflow. So a box within the radius
        // (exact squared distance <= radius^2) computes at most
        // `dist_sq_limit`, and rejecting above it is conservative. Branchless.
        let mut dist_sq = 0.0f64;
        for k in 0..3 {
            let c = self.center[k];
            let gap = (b.min[k] - c).max(c - b.max[k]).max(0.0);
            dist_sq += gap * gap;
        }
        dist_sq <= self.dist_sq_limit
    }
}

/// A swept ball whose travel exceeds this many radii on some axis also
/// takes the slab test against each box that its own box meets; a shorter
/// one is answered by its box alone (dimensionless). Short sweeps are what a
/// CCD step makes: on the sweeps of benches/benches/triangle_index.rs
/// (travel up to 0.5 m, radii 0.1 to 0.5 m) the slab test removed 1.5 % of the box's candidates for about
/// 20 % more query time; a long sweep's box is loose (the ball's path along
/// a diagonal of ten radii fills 8 % to 22 % of its box), and there the test pays.
pub const LONG_SWEEP_RADII: f64 = 4.0;

/// The box of the segment `start`-`end` grown by `radius` (finite inputs,
/// `radius >= 0`): `min(s, e) - radius` rounded down and `max(s, e) + radius`
/// rounded up, the same values as parapet-math's `sub_down` / `add_up`.
///
/// Computed without branches (the rounding direction of a query bound is a
/// coin toss, so branches on it mispredict about every other time), as
/// lanes that the compiler vectorises: the sum and its exact error (Knuth's
/// TwoSum), then one step of the bit pattern outward when the error lies
/// outside the rounded sum. The step is `+-1` on the bits because a sum with
/// a non-zero error is never zero (sums of doubles near zero are exact), so
/// its sign gives the direction; an overflow gives `-inf` below or `+inf`
/// above with a NaN error, which moves nothing, as `sub_down` / `add_up` do
/// for those sides. Tested bit for bit against them.
#[inline]
fn grown_box(start: &Vec3d, end: &Vec3d, radius: f64) -> Bounds {
    // The six bounds in memory order `min.x, min.y, min.z, max.x, max.y,
    // max.z`, in three pairs of identical operations (candidates for 2-lane
    // vectors); `outward` is -1 for a lower and +1 for an upper bound.
    let lower = start.inf(end);
    let upper = start.sup(end);
    let p0 = outward_pair([lower.x, lower.y], radius, [-1.0, -1.0]);
    let p1 = outward_pair([lower.z, upper.x], radius, [-1.0, 1.0]);
    let p2 = outward_pair([upper.y, upper.z], radius, [1.0, 1.0]);
    Bounds {
        min: Vec3d::new(p0[0], p0[1], p1[0]),
        max: Vec3d::new(p1[1], p2[0], p2[1]),
    }
}

/// `a + outward * radius` per lane, rounded outward (down where `outward`
/// is -1, up where it is +1): see [`grown_box`].
#[inline]
fn outward_pair(a: [f64; 2], radius: f64, outward: [f64; 2]) -> [f64; 2] {
    std::array::from_fn(|k| {
        let (a, outward) = (a[k], outward[k]);
        let b = outward * radius;
        let sum = a + b;
        let b_virtual = sum - a;
        let a_virtual = sum - b_virtual;
        let error = (a - a_virtual) + (b - b_virtual);
        // The exact sum lies outward of the rounded one: step one ulp outward.
        let moves = error * outward > 0.0;
        // Stepping outward grows the magnitude when the sum's sign is the
        // outward direction: bits + 1; otherwise bits - 1.
        let grows = sum * outward > 0.0;
        let bits = sum.to_bits();
        let stepped = f64::from_bits(if grows {
            bits.wrapping_add(1)
        } else {
            bits.wrapping_sub(1)
        });
        if moves {
            stepped
        } else {
            sum
        }
    })
}

/// A swept ball: the points within `radius` of the segment from `start` to
/// `end` (a sphere's path, or a shape's bounding ball moving in a straight line).
///
/// Its box is kept as two corners separated by the radius (`repr(C)` fixes
/// the order): [`BoundsQuery::bounds`] then copies each corner as it was
/// written, 16 + 8 bytes, and a caller that reads the box right after
/// [`SweptBall::new`] gets it from the store buffer instead of stalling on a
/// 16-byte load across two stores (measured about 12 ns per query when the
/// corners were adjacent).
#[derive(Debug, Clone, Copy, PartialEq)]
#[repr(C)]
pub struct SweptBall {
    start: Vec3d,
    end: Vec3d,
    /// The box's lower corner (outward-rounded).
    lower: Vec3d,
    radius: f64,
    /// The box's upper corner (outward-rounded).
    upper: Vec3d,
    /// The slab test's data, for a sweep longer than [`LONG_SWEEP_RADII`] radii.
    slab: Option<SweepSlab>,
}

/// What the slab test of a long sweep needs, computed once per query.
#[derive(Debug, Clone, Copy, PartialEq)]
struct SweepSlab {
    inv_delta: [f64; 3],
    /// `start + radius` rounded up: `b.min - it` bounds `(b.min - radius) - start` from below.
    start_plus_radius: [f64; 3],
    /// `start - radius` rounded down: `b.max - it` bounds `(b.max + radius) - start` from above.
    start_minus_radius: [f64; 3],
}

impl SweptBall {
    /// A swept-ball query.
    ///
    /// # Errors
    /// [`BvhError::InvalidQuery`] for a non-finite endpoint, a displacement
    /// `end - start` that overflows, or a radius that is not finite and
    /// non-negative.
    #[inline]
    pub fn new(start: Vec3d, end: Vec3d, radius: f64) -> Result<Self, BvhError> {
        finite_vector(&start, "swept ball start")?;
        finite_vector(&end, "swept ball end")?;
        let delta = end - start;
        finite_vector(&delta, "swept ball displacement")?;
        let radius = radius_checked(radius, "swept ball radius")?;
        let slab = (delta.amax() > LONG_SWEEP_RADII * radius).then(|| SweepSlab {
            inv_delta: reciprocals(&delta),
            start_plus_radius: [0, 1, 2].map(|k| add_up(start[k], radius)),
            start_minus_radius: [0, 1, 2].map(|k| sub_down(start[k], radius)),
        });
        let bounds = grown_box(&start, &end, radius);
        Ok(Self {
            start,
            end,
            radius,
            lower: bounds.min,
            upper: bounds.max,
            slab,
        })
    }

    /// Whether the sweep is long enough to take the slab test ([`LONG_SWEEP_RADII`]).
    pub fn takes_slab_test(&self) -> bool {
        self.slab.is_some()
    }

    /// The segment's start.
    pub fn start(&self) -> Vec3d {
        self.start
    }

    /// The segment's end.
    pub fn end(&self) -> Vec3d {
        self.end
    }

    /// The radius.
    pub fn radius(&self) -> f64 {
        self.radius
    }
}

impl BoundsQuery for SweptBall {
    const REFINES: bool = true;

    #[inline]
    fn bounds(&self) -> Bounds {
        Bounds {
            min: self.lower,
            max: self.upper,
        }
    }

    /// Only long sweeps refine at all ([`LONG_SWEEP_RADII`]).
    #[inline]
    fn refines(&self) -> bool {
        self.slab.is_some()
    }

    #[inline]
    fn refine_internal(&self) -> bool {
        self.slab.is_some()
    }

    #[inline]
    fn refine(&self, b: &Bounds) -> bool {
        let Some(slab_data) = &self.slab else {
            return true;
        };
        // The box grown by the radius, relative to the start: one rounding
        // of a bound that is already on the conservative side.
        let lo_rel = [0, 1, 2].map(|k| b.min[k] - slab_data.start_plus_radius[k]);
        let hi_rel = [0, 1, 2].map(|k| b.max[k] - slab_data.start_minus_radius[k]);
        slab(lo_rel, hi_rel, &slab_data.inv_delta, 0.0, 1.0)
    }
}

/// A ray: the points `origin + t * direction` for `t` in `[0, max_distance]`
/// (with a unit direction, `t` is the distance in metres).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Ray {
    origin: Vec3d,
    direction: Vec3d,
    max_distance: f64,
    bounds: Bounds,
    inv_direction: [f64; 3],
}

impl Ray {
    /// A ray query. A zero direction makes a point query.
    ///
    /// # Errors
    /// [`BvhError::InvalidQuery`] for a non-finite origin or direction, or a
    /// `max_distance` that is NaN or negative (`+inf` is allowed).
    #[inline]
    pub fn new(origin: Vec3d, direction: Vec3d, max_distance: f64) -> Result<Self, BvhError> {
        finite_vector(&origin, "ray origin")?;
        finite_vector(&direction, "ray direction")?;
        if max_distance.is_nan() || max_distance < 0.0 {
            return Err(BvhError::InvalidQuery {
                quantity: "ray max distance",
                value: max_distance,
                requirement: "at least 0 (infinity allowed)",
            });
        }
        let mut min = origin;
        let mut max = origin;
        for k in 0..3 {
            let d = direction[k];
            if d == 0.0 {
                continue;
            }
            // The reach along the axis, `max_distance * d`, and the end
            // `origin + reach`, each rounded outward; an endless ray reaches
            // infinity on every axis it moves along.
            if max_distance.is_infinite() {
                if d > 0.0 {
                    max[k] = f64::INFINITY;
                } else {
                    min[k] = f64::NEG_INFINITY;
                }
            } else if d > 0.0 {
                max[k] = add_up(origin[k], mul_up(max_distance, d));
            } else {
                min[k] = add_down(origin[k], mul_down(max_distance, d));
            }
        }
        Ok(Self {
            origin,
            direction,
            max_distance,
            bounds: Bounds { min, max },
            inv_direction: reciprocals(&direction),
        })
    }

    /// The origin.
    pub fn origin(&self) -> Vec3d {
        self.origin
    }

    /// The direction, as given.
    pub fn direction(&self) -> Vec3d {
        self.direction
    }

    /// The largest ray parameter.
    pub fn max_distance(&self) -> f64 {
        self.max_distance
    }
}

impl BoundsQuery for Ray {
    const REFINES: bool = true;

    #[inline]
    fn bounds(&self) -> Bounds {
        self.bounds
    }

    #[inline]
    fn refine(&self, b: &Bounds) -> bool {
        let lo_rel = [0, 1, 2].map(|k| b.min[k] - self.origin[k]);
        let hi_rel = [0, 1, 2].map(|k| b.max[k] - self.origin[k]);
        slab(lo_rel, hi_rel, &self.inv_direction, 0.0, self.max_distance)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Doubles that exercise the rounding: signed zeros, subnormals, the
    /// range ends, values whose sums are inexact, and huge magnitudes.
    fn awkward() -> Vec<f64> {
        let mut v = vec![
            0.0,
            -0.0,
            1.0,
            -1.0,
            0.1,
            -0.3,
            1.0e-300,
            -1.0e-310,
            f64::MIN_POSITIVE,
            5.0e-324,
            -5.0e-324,
            1.0e16,
            -1.0e16,
            1.0e308,
            -1.0e308,
            f64::MAX,
            f64::MIN,
            f32::MAX as f64,
            3.0e38,
        ];
        v.extend(v.clone().iter().map(|x| x * 0.7 + 1.0e-17));
        v
    }

    fn sub_down_add_up_box(start: &Vec3d, end: &Vec3d, radius: f64) -> Bounds {
        Bounds {
            min: start.zip_map(end, |s, e| sub_down(s.min(e), radius)),
            max: start.zip_map(end, |s, e| add_up(s.max(e), radius)),
        }
    }

    fn same_bits(a: &Bounds, b: &Bounds) -> bool {
        (0..3).all(|k| {
            a.min[k].to_bits() == b.min[k].to_bits() && a.max[k].to_bits() == b.max[k].to_bits()
        })
    }

    #[test]
    fn the_branch_free_swept_box_equals_sub_down_and_add_up_bit_for_bit() {
        // Every pair of awkward coordinates and radii, including sums that
        // overflow (-inf below, +inf above) and exact ones (no ulp moved).
        let values = awkward();
        let radii: Vec<f64> = values.iter().map(|r| r.abs()).collect();
        for &a in &values {
            for &b in &values {
                for &r in &radii {
                    let start = Vec3d::new(a, b, -a);
                    let end = Vec3d::new(b, a, a * 0.5);
                    let fast = grown_box(&start, &end, r);
                    let reference = sub_down_add_up_box(&start, &end, r);
                    assert!(
                        same_bits(&fast, &reference),
                        "start {start:?} end {end:?} radius {r}: {fast:?} vs {reference:?}"
                    );
                }
            }
        }
    }

    proptest! {
        #[test]
        fn the_branch_free_swept_box_equals_sub_down_and_add_up_on_random_input(
            s in prop::array::uniform3(prop::num::f64::NORMAL | prop::num::f64::SUBNORMAL | prop::num::f64::ZERO),
            e in prop::array::uniform3(prop::num::f64::NORMAL | prop::num::f64::SUBNORMAL | prop::num::f64::ZERO),
            r in prop::num::f64::POSITIVE | prop::num::f64::ZERO,
            scale in -40i32..40,
        ) {
            // Mixed magnitudes: the radius scaled against the coordinates so
            // that some sums are exact and some lose bits.
            let r = (r * 2f64.powi(scale)).min(f64::MAX);
            prop_assume!(r.is_finite());
            let (start, end) = (Vec3d::from(s), Vec3d::from(e));
            let fast = grown_box(&start, &end, r);
            let reference = sub_down_add_up_box(&start, &end, r);
            prop_assert!(same_bits(&fast, &reference), "{:?} vs {:?}", fast, reference);
        }
    }

    #[test]
    fn a_ball_box_is_the_centre_less_and_plus_the_radius_rounded_outward() {
        let values = awkward();
        for &a in &values {
            for &b in &values {
                let center = Vec3d::new(a, b, -a * 0.3);
                let r = (a - b).abs().min(f64::MAX);
                let Ok(ball) = Ball::new(center, r) else {
                    continue;
                };
                let reference = sub_down_add_up_box(&center, &center, r);
                assert!(
                    same_bits(&ball.bounds(), &reference),
                    "centre {center:?} radius {r}"
                );
            }
        }
    }

    fn unit_box_at(x: f64) -> Bounds {
        Bounds::new(Vec3d::new(x, 0.0, 0.0), Vec3d::new(x + 1.0, 1.0, 1.0)).unwrap()
    }

    #[test]
    fn a_ball_touches_a_box_at_its_radius_and_not_beyond() {
        let ball = Ball::new(Vec3d::new(0.0, 0.5, 0.5), 2.0).unwrap();
        assert!(ball.touches(&unit_box_at(2.0)));
        // Beyond the radius by far more than the rounding slack (a few ulps of 4 m^2).
        assert!(!ball.touches(&unit_box_at(2.0 + 1e-9)));
    }

    #[test]
    fn a_ball_misses_the_corner_of_its_own_bounding_box() {
        // The corner box lies inside the ball's box but sqrt(3) * 0.9 > 1 from the centre.
        let ball = Ball::new(Vec3d::zeros(), 1.0).unwrap();
        let corner = Bounds::new(Vec3d::repeat(0.9), Vec3d::repeat(1.0)).unwrap();
        assert!(ball.bounds().intersects(&corner));
        assert!(!ball.touches(&corner));
    }

    #[test]
    fn a_diagonal_sweep_skips_a_box_its_aabb_covers() {
        let sweep = SweptBall::new(Vec3d::zeros(), Vec3d::new(10.0, 10.0, 0.0), 0.5).unwrap();
        let off_path = Bounds::new(Vec3d::new(8.0, 0.0, 0.0), Vec3d::new(9.0, 1.0, 0.0)).unwrap();
        let on_path = Bounds::new(Vec3d::new(5.0, 5.0, 0.0), Vec3d::new(5.5, 5.5, 0.0)).unwrap();
        assert!(sweep.bounds().intersects(&off_path));
        assert!(!sweep.touches(&off_path));
        assert!(sweep.touches(&on_path));
    }

    #[test]
    fn only_sweeps_longer_than_the_threshold_take_the_slab_test() {
        let r = 0.5;
        let short = SweptBall::new(Vec3d::zeros(), Vec3d::new(2.0, 2.0, 0.0), r).unwrap();
        let long = SweptBall::new(Vec3d::zeros(), Vec3d::new(2.0 + 1e-9, 2.0, 0.0), r).unwrap();
        // Travel exactly LONG_SWEEP_RADII radii on an axis is still short.
        assert_eq!(LONG_SWEEP_RADII * r, 2.0);
        assert!(!short.takes_slab_test() && long.takes_slab_test());
        // A box in the corner of both sweeps' boxes, 1.8 m from the path: the
        // short sweep keeps it (box semantics), the long one rejects it.
        let corner = Bounds::new(Vec3d::new(2.2, -0.5, 0.0), Vec3d::new(2.5, -0.4, 0.0)).unwrap();
        assert!(short.touches(&corner));
        assert!(!long.touches(&corner));
    }

    #[test]
    fn a_sweep_touches_at_both_endpoints() {
        let sweep = SweptBall::new(Vec3d::zeros(), Vec3d::new(1.0, 0.0, 0.0), 0.25).unwrap();
        let before = Bounds::new(Vec3d::new(-1.0, 0.0, 0.0), Vec3d::new(-0.25, 0.0, 0.0)).unwrap();
        let after = Bounds::new(Vec3d::new(1.25, 0.0, 0.0), Vec3d::new(2.0, 0.0, 0.0)).unwrap();
        assert!(sweep.touches(&before));
        assert!(sweep.touches(&after));
    }

    #[test]
    fn a_ray_hits_within_its_length_only() {
        let ray = Ray::new(Vec3d::new(0.0, 0.5, 0.5), Vec3d::x(), 2.0).unwrap();
        assert!(ray.touches(&unit_box_at(2.0)));
        assert!(!ray.touches(&unit_box_at(2.0 + 1e-9)));
        let endless = Ray::new(Vec3d::new(0.0, 0.5, 0.5), Vec3d::x(), f64::INFINITY).unwrap();
        assert!(endless.touches(&unit_box_at(1.0e30)));
        // Behind the origin.
        assert!(!endless.touches(&unit_box_at(-3.0)));
    }

    #[test]
    fn queries_refuse_non_finite_input() {
        assert!(Ball::new(Vec3d::new(f64::NAN, 0.0, 0.0), 1.0).is_err());
        assert!(Ball::new(Vec3d::zeros(), -1.0).is_err());
        assert!(SweptBall::new(Vec3d::zeros(), Vec3d::repeat(f64::INFINITY), 1.0).is_err());
        assert!(SweptBall::new(Vec3d::repeat(-1.0e308), Vec3d::repeat(1.0e308), 1.0).is_err());
        assert!(Ray::new(Vec3d::zeros(), Vec3d::x(), f64::NAN).is_err());
        assert!(Ray::new(Vec3d::zeros(), Vec3d::x(), -1.0).is_err());
    }
}
