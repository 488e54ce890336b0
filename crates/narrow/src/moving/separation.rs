//! The signed distance of two posed cores at one instant, bracketed: a lower
//! bound certified along one axis, an upper bound from witness points, and
//! the axis and features that the advancement and the hit report use.
//!
//! # Method
//! For convex sets `A` and `B` and a unit axis `n`, the separation along `n`,
//! `s(n) = min_b n·b − max_a n·a`, never exceeds their signed distance
//! (the distance when apart, minus the penetration depth when they
//! overlap), and the largest `s(n)` over all axes equals it. So:
//! - apart: GJK ([`super::gjk`]) gives witnesses `pa`, `pb` (so
//!   `|pb − pa|` bounds the distance from above) and the axis
//!   `n = (pb − pa) / |pb − pa|`, whose `s(n)` (computed from every point)
//!   bounds it from below;
//! - overlapping: the largest `s(n)` over the separating-axis candidates of
//!   the pair (face normals of either core, edge directions of one crossed
//!   with the other's; for a core with a face, its face normal crossed with
//!   every edge, which separates coplanar flat pairs; for point and segment
//!   pairs, perpendiculars to their edges or the frame axes) is the signed
//!   distance itself: those candidates hold every face normal of the
//!   Minkowski difference, and a flat or lower-dimensional difference has
//!   depth zero, which a candidate normal to it attains. It is both bounds.
//!
//! - overlapping a one-sided triangle (a mesh's): the same least overlap,
//!   over the axes a surface has. The triangle's normal counts only
//!   towards its front (a surface has no thickness to leave through its
//!   back), and its edges give axes (the in-plane normal across an edge,
//!   an edge crossed with the other core's edges) only where they are
//!   open: a mesh boundary or a convex crease
//!   (`parapet_geometry::open_edges`). Across a flat seam or a concave
//!   crease the neighbouring face holds the core, so a core deep behind a
//!   wall next to such an edge counts as deep, not as barely touching the
//!   edge. For the same reason an axis from the other core (a face normal,
//!   an edge crossed with an open edge) tilted from the triangle's normal
//!   beyond [`HELD_EDGE_AXIS_COSINE`] does not count when the triangle's
//!   least point along it is a held edge (two corners tying within
//!   [`SUPPORT_TIE`]) or a corner both of whose edges are held: it would
//!   measure the core pushed off the triangle across the seam, onto the
//!   neighbour (a hull face square to a ceiling's diagonal read its apex
//!   5 mm deep where it was 8.6 mm behind the ceiling). Dropping axes
//!   only deepens the measure, and it is continuous where a core enters
//!   over the face or an open edge; entering over a closed edge, the
//!   neighbour's measure is already as deep.
//! - a held edge still gives the axes it crosses with the other core's
//!   edges that lie within [`HELD_EDGE_AXIS_COSINE`] of the triangle's
//!   normal, each towards the front only: the faces of the Minkowski
//!   difference of a core lying nearly flat over the triangle (a long box
//!   pitched over a gently rolling road). Without them the measure of such
//!   a core is the depth of its farthest point behind the triangle's plane
//!   extended (a car's far corner 4 m away, over another triangle whose
//!   plane the extension misses by millimetres), not its overlap with the
//!   triangle. Tilted by at most `φ` (5°), an axis `u` with
//!   `u = −cos φ n + sin φ m` (`m` in the plane) measures a core point
//!   lying over the triangle at depth `d` behind it at `s(u) ≤ −d cos φ`
//!   (the triangle's points spread over the range of `m` that point's
//!   projection lies in): such a core never counts as barely touching an
//!   edge it lies deep behind (at most 0.4% shallower than its depth), and
//!   no sideways normal is named at a seam. These axes only raise the
//!   measure towards the triangle's own separating-axis distance, so it
//!   stays a lower bound of that.
//!
//! Skins are not included here: the caller subtracts them.
//!
//! # Precision domain
//! `f64` in the working frame; `s(n)` is computed to nearest from the
//! rounded positions (the caller widens it by its slack). An axis is
//! normalized in `f64` (`|n| = 1 ± 2 ε`).

use parapet_math::Vec3d;

use super::gjk::nearest;

/// A posed core's geometry at one instant (working frame).
#[derive(Debug, Clone, Default)]
pub(crate) struct PosedCore {
    /// The points.
    pub(crate) points: Vec<Vec3d>,
    /// Unit face normals (polytope faces, a triangle's front).
    pub(crate) faces: Vec<Vec3d>,
    /// Unit edge directions.
    pub(crate) edges: Vec<Vec3d>,
    /// A mesh triangle's held edges (unit): not open, no axes of their own
    /// (module docs).
    pub(crate) held_edges: Vec<Vec3d>,
    /// A mesh triangle's held edges by index: bit `k` set when edge `k`
    /// (point `k` to point `(k + 1) % 3`) is held; 0 for other cores.
    pub(crate) held_mask: u8,
}

/// The bracket of the cores' signed distance (skins excluded).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Bracket {
    /// Unit axis from A towards B.
    pub(crate) axis: Vec3d,
    /// `s(axis)`, a lower bound of the signed distance (m).
    pub(crate) lower: f64,
    /// An upper bound of the signed distance (m).
    pub(crate) upper: f64,
    /// The witness on A (m).
    pub(crate) on_a: Vec3d,
    /// The witness on B (m).
    pub(crate) on_b: Vec3d,
    /// Up to three indices of A's points supporting the witness.
    pub(crate) support_a: ([u32; 3], u8),
    /// Up to three indices of B's points supporting the witness.
    pub(crate) support_b: ([u32; 3], u8),
}

/// `s(n)` of the two point sets, with A's farthest and B's least points.
pub(crate) fn separation_along(a: &[Vec3d], b: &[Vec3d], n: &Vec3d) -> (f64, usize, usize) {
    let (mut hi, mut ia) = (f64::NEG_INFINITY, 0);
    for (k, p) in a.iter().enumerate() {
        let x = n.dot(p);
        if x > hi {
            hi = x;
            ia = k;
        }
    }
    let (mut lo, mut ib) = (f64::INFINITY, 0);
    for (k, p) in b.iter().enumerate() {
        let x = n.dot(p);
        if x < lo {
            lo = x;
            ib = k;
        }
    }
    (lo - hi, ia, ib)
}

/// Adds the unit direction of `v` to `out` unless it is zero.
fn push_unit(out: &mut Vec<Vec3d>, v: Vec3d) {
    let l = v.norm();
    if l > 0.0 && l.is_finite() {
        out.push(v / l);
    }
}

/// The separating-axis candidates of the pair (see the module docs).
fn candidate_axes(a: &PosedCore, b: &PosedCore, out: &mut Vec<Vec3d>) {
    out.clear();
    out.extend_from_slice(&a.faces);
    out.extend_from_slice(&b.faces);
    for ea in &a.edges {
        for eb in &b.edges {
            push_unit(out, ea.cross(eb));
        }
    }
    for (core, other) in [(a, b), (b, a)] {
        if core.faces.len() == 1 {
            let f = core.faces[0];
            for e in &core.edges {
                push_unit(out, f.cross(e));
            }
            // In-plane axes from the other core's edges separate coplanar
            // flat pieces; a mesh triangle with an edge held by its
            // neighbour (fewer than three open edges) does not offer
            // them: the core would leave in the plane across that edge.
            if core.edges.len() == 3 {
                for e in &other.edges {
                    push_unit(out, f.cross(e));
                }
            }
        }
    }
    if a.faces.is_empty() && b.faces.is_empty() {
        let frame = [Vec3d::x(), Vec3d::y(), Vec3d::z()];
        for e in a.edges.iter().chain(&b.edges) {
            for k in &frame {
                push_unit(out, e.cross(k));
            }
        }
        out.extend_from_slice(&frame);
    }
}

/// Whether a posed core is a one-sided triangle: one face (three corners,
/// and two more points across each concave crease it extends over).
fn is_triangle(c: &PosedCore) -> bool {
    c.points.len() >= 3 && c.faces.len() == 1
}

/// The relative tolerance (dimensionless) within which two corners of a
/// triangle tie as its support along an axis: 1e-9 of the larger of their
/// projections and 1 m. Far above the rounding of an `f64` dot product of
/// in-domain coordinates (1e-16 relative), so that an axis exactly across
/// an edge (perpendicular to it, as a box face square to a seam) finds the
/// edge; a nanometre in a metre, so that a corner meaningfully lower
/// alone stays a corner. Counting a near tie as an edge only drops an
/// axis, which deepens the measure (module docs).
const SUPPORT_TIE: f64 = 1.0e-9;

/// Whether the axis `n` (oriented so that the triangle's support along it
/// is its least point) leaves triangle `tri` across what its neighbours
/// hold: its support is a held edge (two corners tying), or one corner
/// whose two edges are both held, and `n` is tilted from the triangle's
/// normal beyond [`HELD_EDGE_AXIS_COSINE`]. A core pushed off the triangle
/// along such an axis would only cross onto the neighbouring face, whose
/// own measure is as deep (module docs); an axis whose least point is one
/// of the points a concave crease extends the triangle by is kept.
fn leaves_across_held(tri: &PosedCore, n: &Vec3d) -> bool {
    if tri.held_mask == 0 || !is_triangle(tri) || tri.faces[0].dot(n).abs() >= HELD_EDGE_AXIS_COSINE
    {
        return false;
    }
    let d = [0, 1, 2].map(|k| n.dot(&tri.points[k]));
    let least = d[0].min(d[1]).min(d[2]);
    let tie = SUPPORT_TIE * d.iter().fold(1.0f64, |m, x| m.max(x.abs()));
    if tri.points[3..].iter().any(|p| n.dot(p) < least - tie) {
        return false;
    }
    let support = [0, 1, 2].map(|k| d[k] <= least + tie);
    let held = |k: usize| tri.held_mask & (1 << k) != 0;
    match support {
        // One corner k: its edges are k and k - 1.
        [true, false, false] => held(0) && held(2),
        [false, true, false] => held(1) && held(0),
        [false, false, true] => held(2) && held(1),
        // Two corners: edge k joins corners k and k + 1.
        [true, true, false] => held(0),
        [false, true, true] => held(1),
        [true, false, true] => held(2),
        // All three tie: an axis along the normal (kept above) or a
        // degenerate triangle; nothing to leave across.
        _ => false,
    }
}

/// Whether the axis `n` (from A towards B) would measure an overlap with a
/// one-sided triangle through its back: `+front` of a triangle B, `−front`
/// of a triangle A (module docs).
fn through_back(a: &PosedCore, b: &PosedCore, n: &Vec3d) -> bool {
    (is_triangle(b) && *n == b.faces[0]) || (is_triangle(a) && *n == -a.faces[0])
}

/// The cosine (dimensionless) within which a face normal is tried as the
/// lower bound's axis in place of the nearest points' direction: cos 1°.
/// Two cores a hair apart have nearest points whose direction carries
/// their rounding over that distance (measured: 1e-4 rad for a box corner
/// 0.3 nm above a 10 m triangle), and a tilted axis projects a large
/// face's far corners well below it; the face's own normal does not. Any
/// axis gives a valid lower bound, so the larger one is kept.
const FACE_AXIS_COSINE: f64 = 0.999_847_695_156_391_2;

/// The axis (unit, from A towards B) with the largest separation among
/// `axis` (the nearest points' direction) and the face normals of A
/// (outward, along it) and of B (outward, against it) within
/// [`FACE_AXIS_COSINE`] of it: the axis and its separation.
fn best_axis(a: &PosedCore, b: &PosedCore, axis: Vec3d) -> (Vec3d, f64) {
    let mut best = (axis, separation_along(&a.points, &b.points, &axis).0);
    let faces = a.faces.iter().copied().chain(b.faces.iter().map(|f| -*f));
    for f in faces {
        if f.dot(&axis) > FACE_AXIS_COSINE {
            let s = separation_along(&a.points, &b.points, &f).0;
            if s > best.1 {
                best = (f, s);
            }
        }
    }
    best
}

/// The cosine (dimensionless) within which an axis crossing a triangle's
/// held edge with the other core's edge counts (module docs): cos 5°, the
/// crease below which a mesh's discrete contacts treat a surface as smooth
/// (`parapet_geometry::ACTIVE_EDGE_ANGLE`). It spans the tilt of a body
/// lying on a surface rolling by a few degrees between triangles; an axis
/// tilted more would be a sideways one across the seam.
pub(crate) const HELD_EDGE_AXIS_COSINE: f64 = 0.996_194_698_091_745_5;

/// The separation along the axes crossing triangle `tri`'s held edges with
/// the `other` core's edges within [`HELD_EDGE_AXIS_COSINE`] of its normal,
/// oriented from A towards B against the triangle's back (`towards_front`:
/// whether that orientation is along the triangle's front, as when the
/// triangle is A); the best of them folded into `best`.
fn held_edge_axes(
    a: &PosedCore,
    b: &PosedCore,
    tri: &PosedCore,
    other: &PosedCore,
    towards_front: bool,
    best: &mut (f64, Vec3d, usize, usize),
) {
    if !is_triangle(tri) {
        return;
    }
    let face = tri.faces[0];
    for h in &tri.held_edges {
        for e in &other.edges {
            let c = h.cross(e);
            let l = c.norm();
            if !(l > 0.0 && l.is_finite()) {
                continue;
            }
            let mut n = c / l;
            let cos = n.dot(&face);
            if !(cos.abs() >= HELD_EDGE_AXIS_COSINE) {
                continue;
            }
            if (cos > 0.0) != towards_front {
                n = -n;
            }
            let (s, ia, ib) = separation_along(&a.points, &b.points, &n);
            if s > best.0 {
                *best = (s, n, ia, ib);
            }
        }
    }
}

/// The largest separation over the pair's separating-axis candidates that
/// a surface has (a one-sided triangle's normal towards its front only):
/// `(s, axis, A's farthest point, B's least point)`. For overlapping cores it
/// is their signed distance; for cores apart, a lower bound of their
/// distance along an axis that stays a lower bound of the one-sided measure
/// should they come to overlap (`super::toi`, entering a triangle from
/// behind). `axes` is scratch.
pub(crate) fn largest_separation(
    a: &PosedCore,
    b: &PosedCore,
    axes: &mut Vec<Vec3d>,
) -> (f64, Vec3d, usize, usize) {
    candidate_axes(a, b, axes);
    let mut best = (f64::NEG_INFINITY, Vec3d::z(), 0, 0);
    for u in axes.iter() {
        for n in [*u, -u] {
            if through_back(a, b, &n) || leaves_across_held(b, &n) || leaves_across_held(a, &-n) {
                continue;
            }
            let (s, ia, ib) = separation_along(&a.points, &b.points, &n);
            if s > best.0 {
                best = (s, n, ia, ib);
            }
        }
    }
    held_edge_axes(a, b, b, a, false, &mut best);
    held_edge_axes(a, b, a, b, true, &mut best);
    best
}

/// The bracket of two posed cores (see the module docs); `axes` is scratch.
pub(crate) fn bracket(a: &PosedCore, b: &PosedCore, axes: &mut Vec<Vec3d>) -> Bracket {
    let near = nearest(&a.points, &b.points);
    let mut support = ([0u32; 3], 0u8, [0u32; 3], 0u8);
    for k in 0..near.count.min(3) {
        let s = near.simplex[k];
        if !support.0[..support.1 as usize].contains(&s.i) {
            support.0[support.1 as usize] = s.i;
            support.1 += 1;
        }
        if !support.2[..support.3 as usize].contains(&s.j) {
            support.2[support.3 as usize] = s.j;
            support.3 += 1;
        }
    }
    let v = near.on_b - near.on_a;
    let d = v.norm();
    if !near.intersecting && d > 0.0 {
        let (axis, lower) = best_axis(a, b, v / d);
        return Bracket {
            axis,
            lower,
            upper: d,
            on_a: near.on_a,
            on_b: near.on_b,
            support_a: (support.0, support.1),
            support_b: (support.2, support.3),
        };
    }
    let (lower, axis, ia, ib) = largest_separation(a, b, axes);
    Bracket {
        axis,
        lower,
        upper: lower,
        on_a: a.points[ia],
        on_b: b.points[ib],
        support_a: ([ia as u32, 0, 0], 1),
        support_b: ([ib as u32, 0, 0], 1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cube(c: Vec3d, h: f64) -> PosedCore {
        PosedCore {
            points: (0..8)
                .map(|i| {
                    c + Vec3d::new(
                        if i & 1 != 0 { h } else { -h },
                        if i & 2 != 0 { h } else { -h },
                        if i & 4 != 0 { h } else { -h },
                    )
                })
                .collect(),
            faces: vec![
                Vec3d::x(),
                -Vec3d::x(),
                Vec3d::y(),
                -Vec3d::y(),
                Vec3d::z(),
                -Vec3d::z(),
            ],
            edges: vec![Vec3d::x(), Vec3d::y(), Vec3d::z()],
            held_edges: Vec::new(),
            held_mask: 0,
        }
    }

    /// A parallelepiped whose bottom face lies in the plane
    /// `z = zb + a (x − x0) + b (y − y0)` over the plan rectangle
    /// `[x0, x1] × [y0, y1]`, `height` tall: a box sheared to that slope
    /// (side faces ±x, ±y; bottom and top along the slope).
    fn slab(x: [f64; 2], y: [f64; 2], zb: f64, slope: [f64; 2], height: f64) -> PosedCore {
        let z = |px: f64, py: f64| zb + slope[0] * (px - x[0]) + slope[1] * (py - y[0]);
        let mut points = Vec::new();
        for k in 0..8 {
            let (px, py) = (x[k & 1], y[(k >> 1) & 1]);
            let up = if k & 4 != 0 { height } else { 0.0 };
            points.push(Vec3d::new(px, py, z(px, py) + up));
        }
        let up = Vec3d::new(-slope[0], -slope[1], 1.0).normalize();
        PosedCore {
            points,
            faces: vec![up, -up, Vec3d::x(), -Vec3d::x(), Vec3d::y(), -Vec3d::y()],
            edges: vec![
                Vec3d::new(1.0, 0.0, slope[0]).normalize(),
                Vec3d::new(0.0, 1.0, slope[1]).normalize(),
                Vec3d::z(),
            ],
            held_edges: Vec::new(),
            held_mask: 0,
        }
    }

    /// The road triangle (0,0,0), (2,0,0), (0,2,0), front +z, every edge
    /// held by its neighbours (a flat seam or a concave crease).
    fn held_triangle() -> PosedCore {
        let p = [
            Vec3d::zeros(),
            Vec3d::new(2.0, 0.0, 0.0),
            Vec3d::new(0.0, 2.0, 0.0),
        ];
        PosedCore {
            points: p.to_vec(),
            faces: vec![Vec3d::z()],
            edges: Vec::new(),
            held_edges: (0..3)
                .map(|k| (p[(k + 1) % 3] - p[k]).normalize())
                .collect(),
            held_mask: 0b111,
        }
    }

    #[test]
    fn a_long_box_pitched_over_a_held_triangle_is_as_deep_as_it_is_over_it() {
        // A car-sized slab (4.4 x 1.8 m plan) whose bottom descends by
        // 3 mm/m along x and 10 mm/m along y, over the corner of a held
        // road triangle. Over the triangle (x in [1, 2], y in [0, 2 − x])
        // the bottom is deepest at (1, 1): 15 mm − zb = 0.5 mm behind the
        // plane. Its far corner (5.4, 1.3) is 16.7 mm behind the plane
        // extended, and the triangle's corner (0, 2), outside the slab's
        // plan, is 7.5 mm above the slab's bottom plane: the triangle's
        // normal and the slab's faces alone measure 7.5 mm.
        let zb = 0.0145;
        let car = slab([1.0, 5.4], [-0.5, 1.3], zb, [-0.003, -0.01], 1.4);
        let road = held_triangle();
        let over = 0.015 - zb;
        let (s, axis, _, _) = largest_separation(&car, &road, &mut Vec::new());
        // Lifting the slab by `over` along +z clears the triangle, so the
        // measure is at least −over (1e-12 m: rounding of metre-sized f64
        // sums); and a hull point over the triangle at depth `over` keeps
        // every axis within the cone at or below −over cos 5° (module docs).
        assert!(
            s >= -over - 1e-12,
            "{s} deeper than the slab is over the triangle"
        );
        assert!(s <= -over * HELD_EDGE_AXIS_COSINE + 1e-12, "{s}");
        assert!(axis.dot(&-Vec3d::z()) >= HELD_EDGE_AXIS_COSINE);
        // Without the held edges' axes (the triangle's normal and the
        // slab's faces only), the measure is 15 times deeper (7.5 mm, the
        // triangle's corner outside the slab over its bottom plane).
        let open_only = PosedCore {
            held_edges: Vec::new(),
            held_mask: 0,
            ..road
        };
        let (plain, _, _, _) = largest_separation(&car, &open_only, &mut Vec::new());
        assert!(plain < -14.0 * over, "{plain}");
    }

    #[test]
    fn overlapping_cubes_give_minus_their_least_overlap() {
        // Overlaps 0.7, 0.8, 0.9 along x, y, z: depth 0.7 along +x.
        let a = cube(Vec3d::zeros(), 0.5);
        let b = cube(Vec3d::new(0.3, 0.2, 0.1), 0.5);
        let r = bracket(&a, &b, &mut Vec::new());
        assert!((r.lower + 0.7).abs() < 1e-15 && r.upper == r.lower);
        assert_eq!(r.axis, Vec3d::x());
    }

    #[test]
    fn separated_cubes_give_their_distance() {
        let a = cube(Vec3d::zeros(), 0.5);
        let b = cube(Vec3d::new(2.0, 1.5, 0.0), 0.5);
        let r = bracket(&a, &b, &mut Vec::new());
        // Edge to edge: the corners' gap is (1, 0.5, 0) in x, y.
        let d = (1.0f64 + 0.25).sqrt();
        assert!((r.upper - d).abs() < 1e-12 && (r.lower - d).abs() < 1e-9);
    }

    #[test]
    fn a_point_on_a_segment_has_signed_distance_zero() {
        let a = PosedCore {
            points: vec![Vec3d::zeros(), Vec3d::x()],
            faces: vec![],
            edges: vec![Vec3d::x()],
            held_edges: Vec::new(),
            held_mask: 0,
        };
        let b = PosedCore {
            points: vec![Vec3d::new(0.5, 0.0, 0.0)],
            ..PosedCore::default()
        };
        let r = bracket(&a, &b, &mut Vec::new());
        assert_eq!(r.upper, 0.0);
        assert_eq!(r.lower, 0.0);
    }

    #[test]
    fn coplanar_disjoint_triangles_are_apart() {
        let tri = |dx: f64| PosedCore {
            points: vec![
                Vec3d::new(dx, 0.0, 0.0),
                Vec3d::new(dx + 1.0, 0.0, 0.0),
                Vec3d::new(dx, 1.0, 0.0),
            ],
            faces: vec![Vec3d::z()],
            edges: vec![
                Vec3d::x(),
                Vec3d::new(-1.0, 1.0, 0.0) / 2f64.sqrt(),
                -Vec3d::y(),
            ],
            held_edges: Vec::new(),
            held_mask: 0,
        };
        let r = bracket(&tri(0.0), &tri(1.5), &mut Vec::new());
        assert!((r.upper - 0.5).abs() < 1e-12 && (r.lower - 0.5).abs() < 1e-12);
    }
}
