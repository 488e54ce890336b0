//! Certified conservative advancement of a turning capsule against one
//! static, one-sided triangle (docs/turning-bodies.md, "The certificate"). A capsule is its
//! core segment grown by its radius; a sphere is a segment of zero length.
//!
//! # Method
//! A turning shape does not move in a straight line, so no exact sweep
//! exists; instead each sub-step gets a length that is certified for every
//! nearby triangle (conservative advancement: Mirtich, "Impulse-based
//! Dynamic Simulation of Rigid Body Systems", PhD thesis, UC Berkeley 1996,
//! ch. 4; Zhang, Redon, Lee and Manocha, "Continuous collision detection for
//! articulated models using Taylor models and temporal culling", SIGGRAPH
//! 2007, for the motion bound):
//!
//! 1. **Separating plane** ([`clearance`]): among the triangle's face plane,
//!    its three edge side planes (through an edge, orthogonal to the face,
//!    facing away from the triangle) and the closest-feature plane (through
//!    the triangle's closest point, normal along the closest direction), the
//!    plane that separates the segment most. Every one of them leaves the
//!    whole triangle on its back side, so any of them is a valid
//!    certificate; the closest-feature plane separates by exactly the
//!    segment-triangle distance, which keeps an oblique approach to an edge
//!    or a vertex from stalling at a loose plane (the face and edge planes
//!    alone would be valid; the closest-feature plane only tightens them).
//! 2. **Motion bound** ([`admissible_time`]): the segment's ends move in
//!    straight lines at their present velocities `u_i = v + ω × ℓ_i`. A
//!    rigid point turning about an axis through the mass centre has
//!    acceleration `|ω|² ρ` (ρ its distance from the axis), so by Taylor's
//!    theorem with integral remainder its true path stays within
//!    `|ω|² r t² / 2` of its straight line, `r` the larger distance of the
//!    two ends from the spin axis; every segment point is an affine
//!    combination of the ends, and distance to an axis is convex, so the
//!    bound covers the whole segment. The caller passes this `bend`
//!    coefficient `|ω|² r / 2`.
//! 3. **Admissible time**: with plane distance `h_i` of end `i`, the
//!    condition `h_i + (n · u_i) t − bend t² ≥ floor` must hold for both ends,
//!    with `floor = min(radius − tolerance, separation − tolerance / 256)`
//!    ([`sub_step_floor`]; the tolerance is `radius / 1024`,
//!    [`turning_tolerance`]): a clear shape stays above
//!    `radius − tolerance`, and every sub-step keeps a gap of at least
//!    [`MIN_GAP_FRACTION`] of the tolerance, so no sub-step stalls. A shape
//!    that already overlaps deeper may sink by that small gap in one
//!    sub-step (the contract allows a whole tolerance); the caller lifts a
//!    pressed shape back by as much before the next one. The left side is
//!    concave in `t`, so the admissible set is `[0, T]` with `T` its
//!    positive root, taken in the cancellation-free form, and
//!    `T ≥ g / (|n · u| + sqrt(bend g))` for the gap `g`.
//!
//! # Precision domain
//! `f64` in a working frame near the moving shape (the caller subtracts a
//! nearby origin). Conservative rounding: the plane distance is lowered and
//! the approach rate made more negative by 64 `ε`
//! times the magnitude of their operands, the bend is raised by the same
//! relative amount and the root is shrunk by `8 ε`. Within the precision
//! domain (triangles within 1048576 radii) these slacks stay below `1e-8` radii,
//! far inside the tolerance. [`check_turning_triangle`] applies that domain.

use parapet_math::{Vec3, Vec3d};

use super::domain::{self, SweepRefusal};
use crate::contact::closest::{point_triangle, segment_triangle};
use crate::triangle::{outward_side_normal, unit_normal};

/// The tolerance of a turning sweep as a fraction of the shape's radius
/// (dimensionless): 1/1024 (docs/turning-bodies.md). A sub-step may bring
/// a clear shape to `radius − radius / 1024` of a triangle, and an
/// overlapping one `radius / 1024` deeper. It is about four times the `f32`
/// storage bound of a coordinate within 65536 radii (`radius / 256` per axis
/// is the coarsest; typical scenes round far finer), small against the
/// contact margin, and large enough that sub-steps near a surface keep a
/// length bounded below. Warning: a smaller value multiplies the sub-steps
/// of a shape spinning near a surface (their length scales with its square
/// root).
pub(crate) const TURNING_TOLERANCE_FRACTION: f64 = 1.0 / 1024.0;

/// The smallest gap of a sub-step as a fraction of the tolerance
/// (dimensionless): 1/256. A sub-step always has at least this much room
/// above its floor, so its length is bounded below; a shape pressed onto a
/// triangle at the bottom of the tolerance band can sink by this much in one
/// sub-step. Warning: larger values let a pressed shape sink further per
/// sub-step; smaller ones shorten the sub-steps of a pressed shape (by the
/// square root).
pub const MIN_GAP_FRACTION: f64 = 1.0 / 256.0;

/// The floor (m) of one sub-step for a triangle at plane separation
/// `separation` (m) from a shape of radius `radius`: `radius − tolerance`,
/// lowered only as far as needed to leave a gap of [`MIN_GAP_FRACTION`] of
/// the tolerance (a shape already deeper than the band does not sink
/// further than that gap per sub-step; the caller's pressing correction
/// lifts it back by as much in the next pass).
pub fn sub_step_floor(separation: f64, radius: f64, tolerance: f64) -> f64 {
    (radius - tolerance).min(separation - tolerance * MIN_GAP_FRACTION)
}

/// Multiple of `f64::EPSILON` (dimensionless) by which plane distances,
/// approach rates and the bend are made conservative: a dot product of
/// three terms, a subtraction and the caller's rotation of an end round by
/// a few `ε` relative to their operands; 64 leaves a tenfold margin.
pub(crate) const ADVANCE_ROUNDING_FACTOR: f64 = 64.0;

/// Distance (in radii, dimensionless) below which the closest direction of
/// a segment to a triangle is not used as a contact normal: the segment's
/// core then (nearly) meets the triangle and the face normal is used, which
/// pushes the shape to the front. 1e-6 radii is far above the `f64` noise of
/// closest points (about 1e-10 radii in the domain) and far below the
/// tolerance.
pub(crate) const CORE_CONTACT_RADII: f64 = 1.0e-6;

/// The tolerance (m) of a shape of radius `radius` (m).
pub fn turning_tolerance(radius: f64) -> f64 {
    radius * TURNING_TOLERANCE_FRACTION
}

/// A turning shape over one sub-step, in a working frame.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TurningSegment {
    /// The core segment's ends now (m, working frame); equal for a sphere.
    pub ends: [Vec3d; 2],
    /// The ends' present velocities `v + ω × ℓ_i` (m/s).
    pub velocities: [Vec3d; 2],
    /// The bend coefficient `|ω|² r / 2` (m/s²), rounded up by the caller:
    /// the true path of every segment point stays within `bend t²` of its
    /// straight line.
    pub bend: f64,
    /// The shape's radius (m).
    pub radius: f64,
}

/// The separation of a segment from a triangle, with the plane that
/// certifies it and the closest features.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Clearance {
    /// Unit normal of the chosen separating plane, from the triangle towards
    /// the segment.
    pub plane_normal: Vec3d,
    /// A point of the chosen plane (a triangle point).
    pub plane_point: Vec3d,
    /// The smaller plane distance of the two ends (m); at most `distance`.
    pub separation: f64,
    /// The segment-triangle distance (m), `0` when the core meets the triangle.
    pub distance: f64,
    /// The segment's closest point (m, working frame).
    pub on_segment: Vec3d,
    /// The triangle's closest point (m, working frame).
    pub on_triangle: Vec3d,
    /// The contact normal (unit, from the triangle towards the segment): the
    /// closest direction, or the face normal when the core (nearly) meets
    /// the triangle (closer than a millionth of the radius).
    pub normal: Vec3d,
    /// The triangle's unit front normal.
    pub face_normal: Vec3d,
}

/// Checks a candidate triangle against the sweeps' precision domain for
/// a turning shape whose centre is `center` (m, world) and radius `radius`
/// (m): finite, within 1000000 m, within 1048576 radii of the centre on each
/// axis, nonzero `f32` raw normal and not thin.
///
/// # Errors
/// The [`SweepRefusal`] naming the quantity, its value and the limit.
pub fn check_turning_triangle(
    triangle: &[Vec3; 3],
    center: Vec3d,
    radius: f64,
) -> Result<(), SweepRefusal> {
    domain::radius("turning shape radius", radius)?;
    domain::triangle(triangle, center, radius)
}

fn plane_separation(ends: &[Vec3d; 2], n: &Vec3d, o: &Vec3d) -> f64 {
    n.dot(&(ends[0] - o)).min(n.dot(&(ends[1] - o)))
}

/// The clearance of the segment `ends` (radius `radius`) from the triangle
/// `tri` (both in the same working frame), or `None` when the segment is
/// behind the triangle (both ends strictly behind its face plane: the
/// one-sided rule, which catches nothing that starts behind) or the triangle
/// has no area.
pub fn clearance(ends: &[Vec3d; 2], tri: &[Vec3d; 3], radius: f64) -> Option<Clearance> {
    let face = unit_normal(tri)?;
    let h0 = face.dot(&(ends[0] - tri[0]));
    let h1 = face.dot(&(ends[1] - tri[0]));
    if h0 < 0.0 && h1 < 0.0 {
        return None;
    }
    let (on_segment, on_triangle) = if ends[0] == ends[1] {
        (ends[0], point_triangle(ends[0], tri).0)
    } else {
        let (s, q, _) = segment_triangle(ends[0], ends[1], tri);
        (s, q)
    };
    let distance = (on_segment - on_triangle).norm();

    // Face plane, then the three edge side planes, then the closest-feature
    // plane; strictly larger separations win, so ties keep this order.
    let mut best_n = face;
    let mut best_o = tri[0];
    let mut best = h0.min(h1);
    for i in 0..3 {
        let a = tri[i];
        let m = outward_side_normal(tri, i, &face);
        let ml = m.norm();
        if ml.is_nan() || ml <= 0.0 {
            continue;
        }
        let m = m / ml;
        let s = plane_separation(ends, &m, &a);
        if s > best {
            best = s;
            best_n = m;
            best_o = a;
        }
    }
    let core = distance <= CORE_CONTACT_RADII * radius;
    let normal = if core || distance == 0.0 {
        face
    } else {
        (on_segment - on_triangle) / distance
    };
    if distance > 0.0 {
        let n = (on_segment - on_triangle) / distance;
        let s = plane_separation(ends, &n, &on_triangle);
        if s > best {
            best = s;
            best_n = n;
            best_o = on_triangle;
        }
    }
    Some(Clearance {
        plane_normal: best_n,
        plane_point: best_o,
        separation: best,
        distance,
        on_segment,
        on_triangle,
        normal,
        face_normal: face,
    })
}

/// The largest `T >= 0` such that `g + c t − k t² >= 0` on all of `[0, T]`
/// (`+∞` when it holds for all `t >= 0`), for `g >= 0`, `k >= 0`.
fn concave_root(g: f64, c: f64, k: f64) -> f64 {
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

/// The largest sub-step (s, `+∞` when unbounded) during which the segment
/// stays above `floor` (m, at most the separation; see [`sub_step_floor`])
/// from the clearance's plane for the motion bound of the module docs, made
/// conservative for `f64` rounding.
pub fn admissible_time(segment: &TurningSegment, clearance: &Clearance, floor: f64) -> f64 {
    let eps = ADVANCE_ROUNDING_FACTOR * f64::EPSILON;
    let n = clearance.plane_normal;
    let o = clearance.plane_point;
    let bend = segment.bend * (1.0 + eps);
    let mut t = f64::INFINITY;
    for i in 0..2 {
        let e = segment.ends[i];
        let u = segment.velocities[i];
        let h = n.dot(&(e - o));
        let g = h - floor - eps * (e.amax() + o.amax() + floor.abs() + h.abs());
        let rate = n.dot(&u) - eps * u.amax();
        t = t.min(concave_root(g, rate, bend));
    }
    t * (1.0 - 8.0 * f64::EPSILON)
}

/// The parameters `[λ0, λ1]` (fractions of the segment from `ends[0]`) of the
/// part of the segment within `radius` of the triangle, around the closest
/// point's parameter `lambda`: distance to a convex set is convex along the
/// segment, so that part is one interval; its ends are found by 48
/// bisections each (relative error `2^-48` of the segment length).
pub fn touching_span(ends: &[Vec3d; 2], tri: &[Vec3d; 3], radius: f64, lambda: f64) -> [f64; 2] {
    let d = ends[1] - ends[0];
    let dist = |l: f64| {
        let p = ends[0] + d * l;
        (point_triangle(p, tri).0 - p).norm()
    };
    let inside = |l: f64| dist(l) <= radius;
    let search = |target: f64| {
        if inside(target) {
            return target;
        }
        let (mut good, mut bad) = (lambda, target);
        for _ in 0..48 {
            let mid = 0.5 * (good + bad);
            if inside(mid) {
                good = mid;
            } else {
                bad = mid;
            }
        }
        good
    };
    if ends[0] == ends[1] {
        return [0.0, 0.0];
    }
    [search(0.0), search(1.0)]
}

/// The parameter (fraction from `ends[0]`) of the segment's closest point
/// `point` (m).
pub fn segment_parameter(ends: &[Vec3d; 2], point: &Vec3d) -> f64 {
    let d = ends[1] - ends[0];
    let l2 = d.norm_squared();
    if l2.is_nan() || l2 <= 0.0 {
        return 0.0;
    }
    ((point - ends[0]).dot(&d) / l2).clamp(0.0, 1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn floor_tri() -> [Vec3d; 3] {
        crate::triangle::test_floor(10.0).map(parapet_math::promote)
    }

    #[test]
    fn a_segment_behind_the_face_has_no_clearance_and_one_end_in_front_has() {
        let t = floor_tri();
        let behind = [Vec3d::new(0.0, 0.0, -0.5), Vec3d::new(1.0, 0.0, -0.1)];
        assert!(clearance(&behind, &t, 0.1).is_none());
        let partly = [Vec3d::new(0.0, 0.0, -0.5), Vec3d::new(1.0, 0.0, 0.1)];
        let c = clearance(&partly, &t, 0.1).unwrap();
        assert_eq!(c.distance, 0.0);
        assert_eq!(c.normal, Vec3d::z());
    }

    #[test]
    fn the_closest_feature_plane_separates_an_oblique_vertex_approach_by_the_distance() {
        // A point at (-1, -1, 1) from the corner of a triangle in the first
        // quadrant: face and edge planes separate by 1, the closest
        // direction by sqrt(3).
        let t = [
            Vec3d::zeros(),
            Vec3d::new(4.0, 0.0, 0.0),
            Vec3d::new(0.0, 4.0, 0.0),
        ];
        let p = Vec3d::new(-1.0, -1.0, 1.0);
        let c = clearance(&[p, p], &t, 0.1).unwrap();
        assert!((c.separation - 3f64.sqrt()).abs() < 1e-12);
        assert!((c.distance - 3f64.sqrt()).abs() < 1e-12);
    }

    #[test]
    fn a_straight_approach_stops_exactly_at_the_tolerance() {
        // Sphere of radius 0.1 at height 1, falling at 10 m/s, no spin:
        // T = (1 - (0.1 - 0.1/1024)) / 10.
        let r = 0.1;
        let p = Vec3d::new(0.0, 0.0, 1.0);
        let seg = TurningSegment {
            ends: [p, p],
            velocities: [Vec3d::new(0.0, 0.0, -10.0); 2],
            bend: 0.0,
            radius: r,
        };
        let c = clearance(&seg.ends, &floor_tri(), r).unwrap();
        let t = admissible_time(
            &seg,
            &c,
            sub_step_floor(c.separation, r, turning_tolerance(r)),
        );
        let exact = (1.0 - (r - turning_tolerance(r))) / 10.0;
        assert!(t <= exact && t > exact * (1.0 - 1e-12), "{t} vs {exact}");
    }

    #[test]
    fn sliding_along_a_floor_is_unbounded_and_spinning_above_it_is_bounded() {
        let r = 0.1;
        let ends = [Vec3d::new(-0.5, 0.0, 0.1), Vec3d::new(0.5, 0.0, 0.1)];
        let mut seg = TurningSegment {
            ends,
            velocities: [Vec3d::new(3.0, 0.0, 0.0); 2],
            bend: 0.0,
            radius: r,
        };
        let c = clearance(&ends, &floor_tri(), r).unwrap();
        // The rounding slack turns the exact zero approach rate into
        // -64 eps |u|: the bound is then tol / (64 eps 3 m/s), about 2e9 s.
        assert!(
            admissible_time(
                &seg,
                &c,
                sub_step_floor(c.separation, r, turning_tolerance(r))
            ) > 1.0e6
        );
        // Spinning at 10 rad/s about a horizontal axis through the middle:
        // bend = 100 * 0.5 / 2 = 25 m/s^2; the ends move at +-5 m/s
        // vertically: T solves tol - 5 t - 25 t^2 = 0 (gap = tol at rest).
        seg.velocities = [Vec3d::new(0.0, 0.0, -5.0), Vec3d::new(0.0, 0.0, 5.0)];
        seg.bend = 25.0;
        let tol = turning_tolerance(r);
        let t = admissible_time(&seg, &c, sub_step_floor(c.separation, r, tol));
        let exact = (-5.0 + (25.0f64 + 100.0 * tol).sqrt()) / 50.0;
        // The slacks lower the gap (1e-4 m) by about 1e-14 m and the rate by
        // 7e-14 m/s: a relative change near 1e-9 of the root.
        assert!(t <= exact && t > exact * (1.0 - 1e-8), "{t} vs {exact}");
    }

    #[test]
    fn the_bound_holds_along_a_true_rigid_rotation() {
        // A segment of half length 1 turning at 7 rad/s about z through its
        // centre, 1.2 m from a wall x = 2 facing -x: at the certified time
        // the true rotated ends are still beyond radius - tol.
        let wall = [
            Vec3d::new(2.0, -5.0, -5.0),
            Vec3d::new(2.0, 5.0, -5.0),
            Vec3d::new(2.0, 0.0, 5.0),
        ];
        let r = 0.3;
        for k in 0..64 {
            let a0 = k as f64 * 0.1;
            let l = Vec3d::new(a0.cos(), a0.sin(), 0.0);
            let w = Vec3d::new(0.0, 0.0, 7.0);
            let ends = [-l, l];
            let seg = TurningSegment {
                ends,
                velocities: [w.cross(&-l), w.cross(&l)],
                bend: 49.0 * 1.0 / 2.0,
                radius: r,
            };
            let Some(c) = clearance(&ends, &wall, r) else {
                continue;
            };
            let tol = turning_tolerance(r);
            let floor = sub_step_floor(c.separation, r, tol);
            let t = admissible_time(&seg, &c, floor).min(1.0);
            for j in 0..=100 {
                let s = t * j as f64 / 100.0;
                let rot = parapet_math::nalgebra::UnitQuaternion::from_scaled_axis(w * s);
                for e in [rot * l, rot * -l] {
                    let d = 2.0 - e.x;
                    assert!(d >= floor - 1e-12, "k {k} s {s}: {d} < {floor}");
                }
            }
        }
    }

    #[test]
    fn the_touching_span_of_a_lying_capsule_covers_its_length() {
        let r = 0.1;
        let ends = [Vec3d::new(-0.5, 0.0, 0.0999), Vec3d::new(0.5, 0.0, 0.0999)];
        let t = floor_tri();
        let c = clearance(&ends, &t, r).unwrap();
        let l = segment_parameter(&ends, &c.on_segment);
        assert_eq!(touching_span(&ends, &t, r, l), [0.0, 1.0]);
        let tilted = [Vec3d::new(-0.5, 0.0, 0.0999), Vec3d::new(0.5, 0.0, 0.2)];
        let c = clearance(&tilted, &t, r).unwrap();
        let l = segment_parameter(&tilted, &c.on_segment);
        let span = touching_span(&tilted, &t, r, l);
        // Height 0.0999 + 0.1001 λ <= 0.1 for λ <= 0.000999.
        assert_eq!(span[0], 0.0);
        assert!((span[1] - 0.1 / 100.1).abs() < 1e-9, "{span:?}");
    }
}
