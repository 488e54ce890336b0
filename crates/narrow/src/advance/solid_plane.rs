//! The separating plane of a posed convex solid and a static one-sided
//! triangle: a certified lower bound of their distance.
//!
//! # Method
//! For any unit direction `n`, the gap of the solid `A` over the triangle
//! `T` along `n`, `s(n) = min_{a ∈ A} n · a − max_{q ∈ T} n · q`, is a lower
//! bound of their distance when they are disjoint, and when they overlap a
//! negative `s(n)` bounds how deep `A` reaches behind the plane
//! `n · x = max_T n · q` (its maximum over all `n` is the distance, or minus
//! the penetration depth). Both minimum and maximum are taken at vertices,
//! so every candidate costs one pass over the vertices; the plane is placed
//! at the triangle's support, so the whole triangle lies behind it up to
//! rounding. The candidates, in order (strictly larger gaps win, so ties
//! keep this order):
//!
//! 1. the triangle's face normal (which also decides the one-sided rule: a
//!    solid with no vertex strictly in front of the face plane is wholly
//!    behind and does not meet the triangle);
//! 2. the triangle's three edge side normals (in the face plane, orthogonal
//!    to an edge, facing away from the triangle);
//! 3. the solid's reversed face normals (vertex-face contact of a triangle
//!    vertex with a solid face);
//! 4. the closest-feature direction: the shortest of the solid vertices'
//!    distances to the triangle (Ericson, *Real-Time Collision Detection*,
//!    5.1.5) and the solid edges' distances to the triangle edges (5.1.9).
//!    With 1 and 3 this reaches the true distance of disjoint shapes: their
//!    closest pair is a vertex of one against a face of the other, or an
//!    edge against an edge (parallel edges also have a pair at an end
//!    point), so either a face normal or one of those feature pairs holds
//!    it, and an oblique approach to an edge or a vertex does not stall;
//! 5. only when nothing above separates (the solid touches or overlaps the
//!    triangle): the edge-edge cross products `d_solid × d_triangle`, both
//!    signs, skipping near-parallel pairs ([`PARALLEL_EDGE_SIN`]). With the
//!    face normals they are the separating-axis candidates of a polytope and
//!    a triangle (Gottschalk, Lin and Manocha, "OBBTree", SIGGRAPH 1996;
//!    Ericson 5.2.1), so the chosen plane is the one of least penetration.
//!
//! The contact normal is the chosen plane's normal.
//!
//! Which quantity bounds what: the gap `s(n)` along any direction is a
//! lower bound of the distance (and only along that direction: the largest
//! gap over the separating-axis candidates 1, 3 and 5 alone can be well
//! below the distance, at an oblique vertex or edge approach); the length
//! `|p − q|` of a feature pair is an upper bound (a feasible pair), so it is
//! never the certificate itself: only the gap along its direction is.
//!
//! # Precision domain
//! `f64` in the working frame; the triangle's coordinates are within
//! 1048576 domain radii of the mass centre. The plane's slack
//! [`TRIANGLE_SLACK_FACTOR`] `ε` times the triangle's largest 1-norm
//! coordinate covers the rounding of `n · q` at the triangle's vertices
//! (the support is compared in rounded arithmetic); the solid side is
//! covered by the plane distances' own slack
//! ([`super::bound::ADVANCE_ROUNDING_FACTOR`]).

use parapet_math::Vec3d;

use super::bound::ADVANCE_ROUNDING_FACTOR;
use super::solid::{PosedSolid, SolidCore};
use super::{Plane, Separation};
use crate::contact::closest::{point_triangle, segment_segment};

/// A solid edge and a triangle edge whose cross product is shorter than
/// this fraction of the triangle edge's length (the solid's directions are
/// unit) give no edge-edge plane (dimensionless; the sine of about 1e-7
/// rad: a normal from nearly parallel edges is numerically meaningless, and
/// such a pair is separated by a face normal or a closest-feature pair).
pub const PARALLEL_EDGE_SIN: f64 = 1.0e-7;

/// Multiple of `f64::EPSILON` (dimensionless) times the triangle's largest
/// 1-norm coordinate by which a triangle vertex may lie in front of a plane
/// placed at the rounded support: two 3-term dot products round by at most
/// `3 ε` of that norm each; 16 leaves a margin.
pub const TRIANGLE_SLACK_FACTOR: f64 = 16.0;

/// The best candidate so far.
struct Best {
    normal: Vec3d,
    /// `max_T n · q` (m).
    support: f64,
    /// `min_A n · a − support` (m).
    gap: f64,
}

impl Best {
    /// Tries the direction `n` (unit): keeps it when its gap is strictly
    /// larger.
    fn consider(&mut self, n: Vec3d, points: &[Vec3d], tri: &[Vec3d; 3]) {
        let (support, gap) = gap_along(&n, points, tri);
        if gap > self.gap {
            *self = Best {
                normal: n,
                support,
                gap,
            };
        }
    }
}

/// The triangle's support `max_q n · q` and the solid's gap over it along
/// `n`.
fn gap_along(n: &Vec3d, points: &[Vec3d], tri: &[Vec3d; 3]) -> (f64, f64) {
    let support = n.dot(&tri[0]).max(n.dot(&tri[1])).max(n.dot(&tri[2]));
    let low = points
        .iter()
        .map(|p| n.dot(p))
        .fold(f64::INFINITY, f64::min);
    (support, low - support)
}

/// The closest pair of the solid's vertices and edges with the triangle
/// (see the module docs, candidate 4): `(on_solid, on_triangle, distance²)`.
fn closest_features(core: &SolidCore, points: &[Vec3d], tri: &[Vec3d; 3]) -> (Vec3d, Vec3d, f64) {
    let mut best = (points[0], tri[0], f64::INFINITY);
    for p in points {
        let q = point_triangle(*p, tri).0;
        let d2 = (p - q).norm_squared();
        if d2 < best.2 {
            best = (*p, q, d2);
        }
    }
    for &[i, j] in core.edges() {
        for k in 0..3 {
            let (_, _, x, y) = segment_segment(points[i], points[j], tri[k], tri[(k + 1) % 3]);
            let d2 = (x - y).norm_squared();
            if d2 < best.2 {
                best = (x, y, d2);
            }
        }
    }
    best
}

/// The separation of a posed solid from a triangle (working frame), or
/// `None` when the solid is wholly behind the face plane or the triangle has
/// no area (see the module docs).
pub(crate) fn separation(
    core: &SolidCore,
    posed: &PosedSolid,
    tri: &[Vec3d; 3],
) -> Option<Separation> {
    let raw = (tri[1] - tri[0]).cross(&(tri[2] - tri[0]));
    let len = raw.norm();
    if !(len > 0.0 && len.is_finite()) {
        return None;
    }
    let face = raw / len;
    let points = &posed.points;
    if !points.iter().any(|p| face.dot(&(p - tri[0])) > 0.0) {
        return None;
    }

    let (support, gap) = gap_along(&face, points, tri);
    let mut best = Best {
        normal: face,
        support,
        gap,
    };
    for i in 0..3 {
        let m = (tri[(i + 1) % 3] - tri[i]).cross(&face);
        let ml = m.norm();
        if ml > 0.0 {
            best.consider(m / ml, points, tri);
        }
    }
    for (n, offset) in posed.normals.iter().zip(&posed.offsets) {
        // Along -n the solid's least projection is -offset.
        let support = (-n.dot(&tri[0])).max(-n.dot(&tri[1])).max(-n.dot(&tri[2]));
        let gap = -offset - support;
        if gap > best.gap {
            best = Best {
                normal: -n,
                support,
                gap,
            };
        }
    }
    let (on_core, on_triangle, d2) = closest_features(core, points, tri);
    let distance = d2.sqrt();
    if distance > 0.0 && distance.is_finite() {
        best.consider((on_core - on_triangle) / distance, points, tri);
    }
    if !(best.gap > 0.0) {
        for d in &posed.directions {
            for i in 0..3 {
                let e = tri[(i + 1) % 3] - tri[i];
                let c = d.cross(&e);
                let cl = c.norm();
                if !(cl > PARALLEL_EDGE_SIN * e.norm()) {
                    continue;
                }
                let n = c / cl;
                best.consider(n, points, tri);
                best.consider(-n, points, tri);
            }
        }
    }

    let scale = tri.iter().map(|q| q.abs().sum()).fold(0.0, f64::max);
    let slack = TRIANGLE_SLACK_FACTOR * f64::EPSILON * scale;
    let point = best.normal * best.support;
    let reach = points.iter().map(|p| p.amax()).fold(0.0, f64::max);
    let eps = ADVANCE_ROUNDING_FACTOR * f64::EPSILON;
    Some(Separation {
        plane: Plane {
            normal: best.normal,
            point,
            slack,
        },
        separation: best.gap,
        lower_bound: best.gap - slack - eps * (reach + point.amax() + best.gap.abs()),
        distance,
        on_core,
        on_triangle,
        normal: best.normal,
        face_normal: face,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::advance::test_rng::Lcg;
    use crate::advance::{CoreShape, Placement};
    use parapet_math::Quatd;

    /// The distance of a box and a triangle by a method independent of the
    /// code above: the distance of a point to the box (clamping in the box
    /// frame, exact) minimised over the triangle by a grid and a pattern
    /// search along the triangle's edge directions. It is convex over the
    /// triangle and smooth where positive, so the search converges; every
    /// value it visits is a feasible pair, an upper bound of the distance.
    fn reference_distance(center: Vec3d, axes: &[Vec3d; 3], half: &Vec3d, tri: &[Vec3d; 3]) -> f64 {
        let mut best = f64::INFINITY;
        // Triangle points against the box: clamping in the box frame is
        // exact for a point outside it.
        let to_box = |q: &Vec3d| {
            let r = q - center;
            let mut c = center;
            for k in 0..3 {
                let x = axes[k].dot(&r).clamp(-half[k], half[k]);
                c += axes[k] * x;
            }
            (q - c).norm()
        };
        // Sample the triangle densely enough near its closest part: the
        // distance to the box is convex over the triangle, so a coarse grid
        // then a local refinement finds its minimum.
        let at = |u: f64, v: f64| tri[0] + (tri[1] - tri[0]) * u + (tri[2] - tri[0]) * v;
        let n = 60;
        let (mut bu, mut bv) = (0.0, 0.0);
        for i in 0..=n {
            for j in 0..=(n - i) {
                let (u, v) = (i as f64 / n as f64, j as f64 / n as f64);
                let d = to_box(&at(u, v));
                if d < best {
                    best = d;
                    bu = u;
                    bv = v;
                }
            }
        }
        let mut step = 1.0 / n as f64;
        while step > 1e-15 {
            let mut improved = false;
            for (du, dv) in [
                (1.0, 0.0),
                (-1.0, 0.0),
                (0.0, 1.0),
                (0.0, -1.0),
                (1.0, -1.0),
                (-1.0, 1.0),
            ] {
                let (u, v) = (bu + du * step, bv + dv * step);
                if u < 0.0 || v < 0.0 || u + v > 1.0 {
                    continue;
                }
                let d = to_box(&at(u, v));
                if d < best {
                    best = d;
                    bu = u;
                    bv = v;
                    improved = true;
                }
            }
            if !improved {
                step *= 0.5;
            }
        }
        best
    }

    #[test]
    fn the_lower_bound_is_below_the_true_distance_on_random_poses_and_tight_when_apart() {
        let mut rng = Lcg::new(31);
        let mut tight = 0;
        let mut apart = 0;
        for case in 0..1500 {
            let half = Vec3d::new(
                rng.range(0.05, 1.0),
                rng.range(0.05, 1.0),
                rng.range(0.05, 1.0),
            );
            let core = SolidCore::cuboid(half, &Placement::centred()).unwrap();
            let rotation = Quatd::from_scaled_axis(rng.vec(3.0));
            let posed = core.pose(&rotation);
            let s = half.norm();
            let c = rng.vec(2.5 * s);
            let tri = [
                c + rng.vec(2.0 * s),
                c + rng.vec(2.0 * s),
                c + rng.vec(2.0 * s),
            ];
            let Some(sep) = core.separation(&posed, &tri) else {
                continue;
            };
            let axes = [
                rotation * Vec3d::x(),
                rotation * Vec3d::y(),
                rotation * Vec3d::z(),
            ];
            let truth = reference_distance(Vec3d::zeros(), &axes, &half, &tri);
            // The reference search converges to 1e-12 of the size; it is an
            // upper bound of the distance (a feasible pair), so the lower
            // bound must not exceed it.
            assert!(
                sep.lower_bound <= truth,
                "case {case}: lower bound {} above the distance {truth}",
                sep.lower_bound
            );
            if truth > 1e-6 * s {
                apart += 1;
                // The closest-feature plane separates by the distance.
                if sep.lower_bound >= truth - 1e-9 * s {
                    tight += 1;
                }
            }
        }
        assert!(apart > 500, "{apart}");
        assert_eq!(
            tight, apart,
            "the bound is the distance for every apart case"
        );
    }

    #[test]
    fn an_oblique_corner_approach_is_separated_by_the_distance_not_the_faces() {
        // A unit cube turned so that a corner points at a triangle's vertex
        // along (1, 1, 1): face and edge planes separate by less than the
        // distance, the closest-feature plane by exactly it.
        let core = SolidCore::cuboid(Vec3d::repeat(0.5), &Placement::centred()).unwrap();
        let posed = core.pose(&Quatd::identity());
        let corner = Vec3d::repeat(0.5);
        let d = 0.3;
        let q = corner + Vec3d::repeat(d / 3f64.sqrt());
        let tri = [
            q,
            q + Vec3d::new(1.0, 0.0, 1.0),
            q + Vec3d::new(0.0, 1.0, 1.0),
        ];
        let sep = core.separation(&posed, &tri).unwrap();
        assert!((sep.separation - d).abs() < 1e-12, "{}", sep.separation);
        assert!((sep.distance - d).abs() < 1e-12);
    }

    #[test]
    fn a_box_resting_on_a_floor_is_separated_by_zero_along_the_floor_normal() {
        let core = SolidCore::cuboid(Vec3d::new(1.0, 0.5, 0.25), &Placement::centred()).unwrap();
        let posed = core.pose(&Quatd::identity());
        let tri = [
            Vec3d::new(-10.0, -10.0, -0.25),
            Vec3d::new(10.0, -10.0, -0.25),
            Vec3d::new(0.0, 10.0, -0.25),
        ];
        let sep = core.separation(&posed, &tri).unwrap();
        assert_eq!(sep.separation, 0.0);
        assert_eq!(sep.normal, Vec3d::z());
        assert!(core.touches(&sep));
        // Sunk by 1e-3: the least penetration is the floor normal, -1e-3.
        let sunk = tri.map(|v| v + Vec3d::new(0.0, 0.0, 1e-3));
        let sep = core.separation(&posed, &sunk).unwrap();
        assert!((sep.separation + 1e-3).abs() < 1e-15);
        assert_eq!(sep.normal, Vec3d::z());
        // Wholly behind: none.
        let above = tri.map(|v| v + Vec3d::new(0.0, 0.0, 0.5));
        assert!(core.separation(&posed, &above).is_none());
    }
}
