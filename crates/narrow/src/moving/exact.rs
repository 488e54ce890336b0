//! The exact answers of a pair whose relative motion is a pure translation:
//! the closed forms and the separating axes over time of `crate::sweep`,
//! called on `f64` poses.
//!
//! # Method
//! When neither motion turns, B is held still at its window-start pose and
//! A moves by `d = (v_A − v_B) Δt`; the sweeps of `crate::sweep` answer the
//! pairs they have, with the radius grown by the target gap (a target `g`
//! is reached where the cores are `skin + g` apart):
//!
//! | A | B | kernel |
//! |---|---|---|
//! | point, segment | triangle | `sphere_vs_promoted`, `capsule_vs_promoted` (closed forms per feature) |
//! | point, segment | point, segment | `sweep_segments` (closed forms per feature pair) |
//! | polytope | triangle (target 0) | `SolidSweep::from_pose` (separating axes over time) |
//!
//! and the same with A and B exchanged. Each kernel is the one the `f32`
//! sweeps run after their checks, so for poses and velocities promoted
//! from `f32`, a window starting at 0 and a target of 0, its time (as a
//! fraction of the window), point, normal and feature are those of
//! `sweep_sphere_triangle`, `sweep_capsule_triangle`, `sweep_segment_pair`
//! and `SolidSweep::triangle` bit for bit. A pair that no kernel covers
//! (a polytope against a polytope, a point or a segment; two triangles; a
//! polytope with a target), or whose inputs are outside a kernel's
//! precision domain, is left to the advancement, which under a pure
//! translation has exact rates and no bend and converges like a GJK ray
//! cast.
//!
//! The kernels' conventions carry over: a graze (tangency) or an approach
//! unresolved at the arithmetic scale of its operands is not an impact
//! (`crate::sweep::APPROACH_EPS_FACTOR`); an initial contact (within the
//! grown radius at the window start) is a hit at the start.
//!
//! # Precision domain
//! The kernels' own (`crate::sweep::domain`), checked here on the `f64`
//! values with the same limits: radii within `MIN_RADIUS` and `MAX_RADIUS`,
//! coordinates within `MAX_COORDINATE` and `MAX_COORDINATE_RADII` radii at
//! the window's start and end, reach within `MAX_REACH_RADII` radii, the
//! triangle within `MAX_TRIANGLE_DISTANCE_RADII` radii and not thinner than
//! `THIN_TRIANGLE_RATIO` allows. Outside it, the advancement answers.

use parapet_math::rounding::{add_down, mul_down};
use parapet_math::{Quatd, Vec3d};

use super::core::{Core, CoreKind};
use super::hit::{Feature, Hit};
use super::motion::Motion;
use crate::sweep::capsule_triangle::{canonical_ends, capsule_vs_promoted, Capsule};
use crate::sweep::domain::{
    MAX_COORDINATE, MAX_COORDINATE_RADII, MAX_RADIUS, MAX_REACH_RADII, MAX_TRIANGLE_DISTANCE_RADII,
    MIN_RADIUS, THIN_TRIANGLE_RATIO,
};
use crate::sweep::segment_pair::sweep_segments;
use crate::sweep::solid_prepared::SolidSweep;
use crate::sweep::sphere_triangle::sphere_vs_promoted;
use crate::sweep::{CapsulePart, Impact, PairFeature, SweepOutcome, TriangleFeature};
use crate::triangle::{longest_edge_squared, raw_normal};

/// What a kernel said, in the arbiter's terms: `None` when no kernel
/// answers the pair (the advancement does), `Some(None)` for a clear
/// window, `Some(Some(hit))` for a hit (features and time filled, the
/// iteration count left to the caller).
pub(crate) type Exact = Option<Option<Hit>>;

/// Whether a moving point of radius `r` at `p`, moving by `d`, is in the
/// kernels' coordinate domain.
fn coordinates_ok(p: &Vec3d, d: &Vec3d, r: f64) -> bool {
    [p, &(p + d)]
        .iter()
        .all(|q| q.amax() <= MAX_COORDINATE && q.amax() / r <= MAX_COORDINATE_RADII)
}

/// Whether the round core of radius `r` with ends `ends` (one or two),
/// moving by `d`, is in the kernels' domain.
fn round_ok(ends: &[Vec3d], r: f64, d: &Vec3d) -> bool {
    let half = if ends.len() == 2 {
        0.5 * (ends[1] - ends[0]).norm()
    } else {
        0.0
    };
    (MIN_RADIUS..=MAX_RADIUS).contains(&r)
        && ends.iter().all(|e| coordinates_ok(e, d, r))
        && (d.norm() + half + r) / r <= MAX_REACH_RADII
}

/// Whether the triangle is in the kernels' domain for a shape of radius `r`
/// about `center`: the limits of `crate::sweep::domain::triangle` on the
/// `f64` values (the thin-triangle test subsumes the `f32` normal's).
fn triangle_ok(tri: &[Vec3d; 3], center: &Vec3d, r: f64) -> bool {
    let near = tri.iter().all(|v| {
        v.amax() <= MAX_COORDINATE && (v - center).amax() / r <= MAX_TRIANGLE_DISTANCE_RADII
    });
    let cross = raw_normal(tri).norm();
    near && cross >= longest_edge_squared(tri) / THIN_TRIANGLE_RATIO && cross != 0.0
}

/// The feature of a triangle's corners.
fn triangle_feature(f: TriangleFeature) -> Feature {
    let (points, count) = match f {
        TriangleFeature::Face => ([0, 1, 2], 3),
        TriangleFeature::Edge(i) => ([u32::from(i), (u32::from(i) + 1) % 3, 0], 2),
        TriangleFeature::Vertex(i) => ([u32::from(i), 0, 0], 1),
    };
    Feature {
        triangle: None,
        points,
        count,
    }
}

/// The feature of `count` points starting at `first` (a point, an end or a
/// whole segment).
fn points(first: u32, count: u8) -> Feature {
    Feature {
        triangle: None,
        points: [first, first + 1, 0],
        count,
    }
}

/// A window `[start, start + dt]` and the time of its fraction `tau`,
/// rounded down.
fn time_at(start: f64, dt: f64, tau: f64) -> f64 {
    add_down(start, mul_down(tau, dt)).max(start)
}

/// The arbiter's hit from a kernel's impact (mover A, still B): time as a
/// fraction of the window, point on B's surface at B's start pose (moved
/// here by `b_travel` over the fraction), normal from B to A.
fn hit_of<F>(
    outcome: SweepOutcome<F>,
    start: f64,
    dt: f64,
    b_travel: &Vec3d,
    target: f64,
    features: impl Fn(F) -> (Feature, Feature),
) -> Exact {
    let make = |i: Impact<F>, initial: bool| {
        let (feature_a, feature_b) = features(i.feature);
        let time = if initial {
            start
        } else {
            time_at(start, dt, i.time)
        };
        let point_b = i.point + b_travel * i.time;
        Hit {
            time,
            point: point_b + i.normal * (0.5 * target),
            point_a: point_b + i.normal * target,
            point_b,
            normal: i.normal,
            gap: target,
            feature_a,
            feature_b,
            iterations: 0,
        }
    };
    match outcome {
        SweepOutcome::Hit(i) => Some(Some(make(i, false))),
        SweepOutcome::InitiallyTouching(i) => Some(Some(make(i, true))),
        SweepOutcome::Miss => Some(None),
        SweepOutcome::Refused(_) => None,
    }
}

/// A point or segment core A (world ends `ends`, radius `r`, moving by
/// `d` relative to B) against B's triangle `tri` (moving by `db`).
fn round_triangle(
    ends: &[Vec3d],
    r: f64,
    d: Vec3d,
    tri: &[Vec3d; 3],
    db: &Vec3d,
    (start, dt, target): (f64, f64, f64),
) -> Exact {
    if !round_ok(ends, r, &d) {
        return None;
    }
    if let [c] = ends {
        if !triangle_ok(tri, c, r) {
            return None;
        }
        let outcome = sphere_vs_promoted(*c, r, d, tri);
        return hit_of(outcome, start, dt, db, target, |f| {
            (points(0, 1), triangle_feature(f))
        });
    }
    let (e0, e1, swapped) = canonical_ends(ends[0], ends[1]);
    let cap = Capsule::canonical(e0, e1, r, d, swapped);
    if !triangle_ok(tri, &(e0 + 0.5 * (e1 - e0)), r) {
        return None;
    }
    let outcome = capsule_vs_promoted(&cap, tri);
    hit_of(outcome, start, dt, db, target, |f| {
        let a = match f.capsule {
            CapsulePart::Cap(k) => points(u32::from(k), 1),
            CapsulePart::Cylinder => points(0, 2),
        };
        (a, triangle_feature(f.triangle))
    })
}

/// Two round cores: A's ends, radius and travel, B's, and A's travel
/// relative to B.
fn round_pair(
    (ea, ra, da): (&[Vec3d], f64, Vec3d),
    (eb, rb, db): (&[Vec3d], f64, Vec3d),
    d: Vec3d,
    (start, dt, target): (f64, f64, f64),
) -> Exact {
    if !round_ok(ea, ra, &da) || !round_ok(eb, rb, &db) {
        return None;
    }
    let ends = |e: &[Vec3d]| (e[0], e[e.len() - 1]);
    let (a0, a1) = ends(ea);
    let (b0, b1) = ends(eb);
    let outcome = sweep_segments((a0, a1, ra), (b0, b1, rb), d, db);
    let (na, nb) = (ea.len() as u8, eb.len() as u8);
    let end = |k: u8, n: u8| points(u32::from(k.min(n - 1)), 1);
    // The kernel's point is already at the contact time.
    hit_of(outcome, start, dt, &Vec3d::zeros(), target, |f| match f {
        PairFeature::Ends { a, b } => (end(a, na), end(b, nb)),
        PairFeature::EndOfA(k) => (end(k, na), points(0, nb)),
        PairFeature::EndOfB(k) => (points(0, na), end(k, nb)),
        _ => (points(0, na), points(0, nb)),
    })
}

/// A polytope core A (motion `ma`) against B's triangle (target 0).
fn solid_triangle(
    a: &Core,
    ma: &Motion,
    d: Vec3d,
    tri: &[Vec3d; 3],
    db: &Vec3d,
    (start, dt): (f64, f64),
) -> Exact {
    let (solid, offset, rotation) = a.solid()?;
    let r = solid.bounding_radius();
    let (origin, q) = ma.pose_at(start);
    let center = if offset == Vec3d::zeros() {
        origin
    } else {
        origin + q * offset
    };
    let rot = if rotation == Quatd::identity() {
        q
    } else {
        q * rotation
    };
    let ok = (MIN_RADIUS..=MAX_RADIUS).contains(&r)
        && coordinates_ok(&center, &d, r)
        && (d.norm() + r) / r <= MAX_REACH_RADII
        && triangle_ok(tri, &center, r);
    if !ok {
        return None;
    }
    let sweep = SolidSweep::from_pose(solid, center, rot, d, r);
    // Features are named by the caller from the poses at the hit.
    let none = Feature {
        triangle: None,
        points: [0; 3],
        count: 0,
    };
    hit_of(sweep.triangle_promoted(tri), start, dt, db, 0.0, |_| {
        (none, none)
    })
}

/// The exact answer of the pair over `[start, end]` for the target, when
/// neither motion turns and a kernel covers it (module docs).
pub(crate) fn translation(
    (a, ma): (&Core, &Motion),
    (b, mb): (&Core, &Motion),
    start: f64,
    end: f64,
    target: f64,
) -> Exact {
    if ma.turns() || mb.turns() {
        return None;
    }
    // A triangle extended across a concave crease is no plain triangle:
    // the advancement measures it.
    let extended = |c: &Core| c.kind() == CoreKind::Triangle && c.points().len() > 3;
    if extended(a) || extended(b) {
        return None;
    }
    let dt = end - start;
    let world = |c: &Core, m: &Motion| -> Vec<Vec3d> {
        c.points().iter().map(|p| m.point_at(start, p)).collect()
    };
    let (pa, pb) = (world(a, ma), world(b, mb));
    let (da, db) = (ma.velocity * dt, mb.velocity * dt);
    let d = (ma.velocity - mb.velocity) * dt;
    let window = (start, dt, target);
    let tri = |p: &[Vec3d]| [p[0], p[1], p[2]];
    let round = |k: CoreKind| matches!(k, CoreKind::Point | CoreKind::Segment);
    match (a.kind(), b.kind()) {
        (ka, CoreKind::Triangle) if round(ka) => {
            round_triangle(&pa, a.skin() + target, d, &tri(&pb), &db, window)
        }
        (CoreKind::Triangle, kb) if round(kb) => {
            round_triangle(&pb, b.skin() + target, -d, &tri(&pa), &da, window)
                .map(|h| h.map(Hit::swapped))
        }
        (ka, kb) if round(ka) && round(kb) => {
            round_pair((&pa, a.skin() + target, da), (&pb, b.skin(), db), d, window)
        }
        (CoreKind::Polytope, CoreKind::Triangle) if target == 0.0 => {
            solid_triangle(a, ma, d, &tri(&pb), &db, (start, dt))
        }
        (CoreKind::Triangle, CoreKind::Polytope) if target == 0.0 => {
            solid_triangle(b, mb, -d, &tri(&pa), &da, (start, dt)).map(|h| h.map(Hit::swapped))
        }
        _ => None,
    }
}

#[cfg(test)]
#[path = "exact_tests.rs"]
mod tests;
