//! Contact between a box and one static, one-sided triangle, computed in
//! the box's own frame: [`super::contact_cuboid_triangle`], and the per-triangle
//! test of a body's box against a mesh (`PlacedShape`).
//!
//! Method: the separating-axis test of [`super::solid_solid`] written for
//! a box centred on its frame's origin (Gottschalk, Lin and Manocha,
//! "OBBTree", SIGGRAPH 1996, the box's projection radius from its half
//! extents; parry's `cuboid_triangle` contact keeps the same 13 axes): the
//! box's three face directions on both sides, the triangle's front, and the
//! nine cross products of a box direction with a triangle edge, by full
//! projection, with the one-sided rule (no edge axis pushes the box behind
//! the face unless it separates) and only edge pairs that cross along their
//! axis (edges that pass beside each other realize no overlap). The same
//! preference as the general test: face axes over edge axes and the box's
//! faces over the triangle's, unless beaten by [`AXIS_TOLERANCE_ABS`] plus
//! [`AXIS_TOLERANCE_REL`] of the pair size. The chosen axis's contact: a box
//! face clips the triangle to the face's rectangle; the triangle's face
//! clips the box's most anti-parallel face to the triangle's prism; an edge
//! axis takes one point between the two support edges, unless it lies
//! within a degree of a face normal ([`NEAR_FACE_AXIS_COS`]: a face
//! resting on a face), when that face's patch is the contact. When that contact
//! does not carry the axis separation (the rare cases of the general test:
//! a separated pair whose closest feature lies beside the face, a box deep
//! through the triangle's front), the general test's exact answers take
//! over ([`super::placed_solid::closest_points`], [`super::prism::prism_contact`]).
//!
//! Precision domain: `f64` in the box's frame (origin the box's centre,
//! axes the box's axes): the triangle's `f32` vertices are promoted,
//! re-centred on the box and turned once, so projections are differences of
//! nearby coordinates; nothing here allocates.

use parapet_math::Vec3d;

use super::clip::{clip_polygon, CLIP_CAPACITY};
use super::closest::{point_triangle, segment_segment};
use super::placed_solid::{closest_points, PlacedSolid, TrianglePlacement};
use super::prism::prism_contact;
use super::scratch::Work;
use super::{
    front_normal, within_margin, LocalManifold, AXIS_TOLERANCE_ABS, AXIS_TOLERANCE_REL,
    NEAR_FACE_AXIS_COS, ONE_SIDED_TOLERANCE, PARALLEL_SIN_SQ,
};
use crate::solid::CUBOID_LOOPS;

/// Which axis separates (or least overlaps) the box and the triangle.
#[derive(Clone, Copy, Debug)]
enum Axis {
    /// Box face `f` (`CUBOID_LOOPS` order: +x, -x, +y, -y, +z, -z).
    Box(usize),
    /// The triangle's front.
    Triangle,
    /// Box direction `k`, triangle edge `j`, unit normal from the box to
    /// the triangle.
    Edges(usize, usize, Vec3d),
}

/// The box's unit direction `k`.
fn direction(k: usize) -> Vec3d {
    let mut e = Vec3d::zeros();
    e[k] = 1.0;
    e
}

/// `e_k x d` without multiplications by zero.
fn cross_direction(k: usize, d: Vec3d) -> Vec3d {
    match k {
        0 => Vec3d::new(0.0, -d.z, d.y),
        1 => Vec3d::new(d.z, 0.0, -d.x),
        _ => Vec3d::new(-d.y, d.x, 0.0),
    }
}

/// The box's projection radius on `axis`: `sum |axis_i| h_i`.
fn radius_along(h: &Vec3d, axis: &Vec3d) -> f64 {
    axis.x.abs() * h.x + axis.y.abs() * h.y + axis.z.abs() * h.z
}

/// The box's support edge along `n` parallel to direction `k`: the corners
/// `x_i = sign(n_i) h_i` (`i != k`), from `-h_k` to `h_k` along `k`.
fn support_edge(h: &Vec3d, n: &Vec3d, k: usize) -> (Vec3d, Vec3d) {
    let mut p = Vec3d::zeros();
    for i in 0..3 {
        p[i] = if n[i] < 0.0 { -h[i] } else { h[i] };
    }
    let (mut a, mut b) = (p, p);
    a[k] = -h[k];
    b[k] = h[k];
    (a, b)
}

/// The triangle's support along `-n` parallel to edge `j`: edge `j` when
/// both its ends lie within `tol` of the lowest projection `min_b`,
/// otherwise `None` (the support is a vertex).
fn triangle_support_edge(
    tri: &[Vec3d; 3],
    n: &Vec3d,
    j: usize,
    min_b: f64,
    tol: f64,
) -> Option<(Vec3d, Vec3d)> {
    let (p, q) = (tri[j], tri[(j + 1) % 3]);
    (n.dot(&p).max(n.dot(&q)) <= min_b + tol).then_some((p, q))
}

/// The closest points of the box's and the triangle's support edges of an
/// edge axis, and whether they are aligned along `n` within `tol` (the
/// edges cross along the axis). `None` when the triangle's support is a
/// vertex.
fn edge_witness(
    h: &Vec3d,
    tri: &[Vec3d; 3],
    k: usize,
    j: usize,
    n: &Vec3d,
    min_b: f64,
    tol: f64,
) -> Option<(Vec3d, Vec3d, bool)> {
    let (p1, q1) = support_edge(h, n, k);
    let (p2, q2) = triangle_support_edge(tri, n, j, min_b, tol)?;
    let (_, _, c1, c2) = segment_segment(p1, q1, p2, q2);
    let d = c1 - c2;
    Some((c1, c2, (d - n * n.dot(&d)).norm() <= 2.0 * tol))
}

/// The separating-axis test's edge axes: the best allowed, realized pair
/// (separation, box direction, triangle edge, unit normal) among those
/// that separate more than `floor` (the chosen face axis's separation plus
/// the preference tolerance: an edge axis at or below it is never chosen,
/// so its realization is never asked for).
fn edge_axes(
    h: &Vec3d,
    tri: &[Vec3d; 3],
    front: &Vec3d,
    tol: f64,
    floor: f64,
) -> Option<(f64, usize, usize, Vec3d)> {
    let mut best: Option<(f64, usize, usize, Vec3d)> = None;
    for k in 0..3 {
        for j in 0..3 {
            let d = tri[(j + 1) % 3] - tri[j];
            let cross = cross_direction(k, d);
            let len_sq = cross.norm_squared();
            if len_sq <= PARALLEL_SIN_SQ * d.norm_squared() || len_sq == 0.0 {
                continue;
            }
            let axis = cross / len_sq.sqrt();
            let r = radius_along(h, &axis);
            let proj = [axis.dot(&tri[0]), axis.dot(&tri[1]), axis.dot(&tri[2])];
            let min_b = proj[0].min(proj[1]).min(proj[2]);
            let max_b = proj[0].max(proj[1]).max(proj[2]);
            for (sep, n, lowest) in [(min_b - r, axis, min_b), (-r - max_b, -axis, -max_b)] {
                // A one-sided face may only push the box towards its front,
                // unless the axis separates; an overlap must be realized.
                let allowed = sep > 0.0 || n.dot(front) <= ONE_SIDED_TOLERANCE;
                if allowed
                    && sep > floor
                    && best.is_none_or(|(s, ..)| sep > s)
                    && (sep > 0.0
                        || edge_witness(h, tri, k, j, &n, lowest, tol)
                            .is_some_and(|(.., realized)| realized))
                {
                    best = Some((sep, k, j, n));
                }
            }
        }
    }
    best
}

/// Contact of the box of half extents `h` (`solid`: the same box as a
/// placed solid, asked for only by the rare general answers) with the
/// triangle `tri`, both in the box's frame. The normal runs from the box to
/// the triangle.
pub(crate) fn cuboid_triangle<'s>(
    h: &Vec3d,
    solid: &dyn Fn() -> PlacedSolid<'s>,
    tri: &[Vec3d; 3],
    margin: f64,
    work: &mut Work,
) -> LocalManifold {
    let Some(front) = front_normal(tri) else {
        return LocalManifold::empty();
    };
    // One-sided: the box's centre (the frame's origin) behind the plane.
    if front.dot(&tri[0]) > 0.0 {
        return LocalManifold::empty();
    }
    let (mut sep_a, mut face_a) = (f64::NEG_INFINITY, 0);
    for k in 0..3 {
        let lo = tri[0][k].min(tri[1][k]).min(tri[2][k]);
        let hi = tri[0][k].max(tri[1][k]).max(tri[2][k]);
        for (f, sep) in [(2 * k, lo - h[k]), (2 * k + 1, -hi - h[k])] {
            if sep > sep_a {
                (sep_a, face_a) = (sep, f);
            }
        }
    }
    if !within_margin(sep_a, margin) {
        return LocalManifold::empty();
    }
    let offset = (front.dot(&tri[0]) + front.dot(&tri[1]) + front.dot(&tri[2])) / 3.0;
    let sep_b = -radius_along(h, &front) - offset;
    if !within_margin(sep_b, margin) {
        return LocalManifold::empty();
    }
    let centroid = (tri[0] + tri[1] + tri[2]) / 3.0;
    let tri_radius = tri
        .iter()
        .map(|v| (v - centroid).norm())
        .fold(0.0, f64::max);
    let tol = AXIS_TOLERANCE_ABS + AXIS_TOLERANCE_REL * (h.norm() + tri_radius);
    let (mut best_sep, mut axis) = if sep_b > sep_a + tol {
        (sep_b, Axis::Triangle)
    } else {
        (sep_a, Axis::Box(face_a))
    };
    let edges = edge_axes(h, tri, &front, tol, best_sep + tol);
    if let Some((sep_e, ..)) = edges {
        if !within_margin(sep_e, margin) {
            return LocalManifold::empty();
        }
    }
    if let Some((sep_e, k, j, n)) = edges {
        if sep_e > best_sep + tol {
            best_sep = sep_e;
            axis = Axis::Edges(k, j, n);
        }
    }
    let (contact, carried) = match axis {
        Axis::Box(f) => {
            let c = box_face_contact(h, f, tri, margin, tol);
            let carried = c.deepest() >= -best_sep - tol;
            (c, carried)
        }
        Axis::Triangle => {
            let c = triangle_face_contact(h, tri, &front, offset, margin, tol);
            let carried = c.deepest() >= -best_sep - tol;
            (c, carried)
        }
        Axis::Edges(k, j, n) => {
            // Within a degree of a box face normal or of the triangle's: that
            // face's patch, when it carries the edge's separation.
            let near = if n.abs().max() >= NEAR_FACE_AXIS_COS {
                let i = n.iamax();
                Some(box_face_contact(
                    h,
                    2 * i + usize::from(n[i] < 0.0),
                    tri,
                    margin,
                    tol,
                ))
            } else if -n.dot(&front) >= NEAR_FACE_AXIS_COS {
                Some(triangle_face_contact(h, tri, &front, offset, margin, tol))
            } else {
                None
            };
            match near {
                Some(c) if c.deepest() >= -best_sep - tol => (c, true),
                _ => edge_axis_contact(h, tri, k, j, n, best_sep, tol),
            }
        }
    };
    if carried {
        return contact;
    }
    let triangle = TrianglePlacement::new(tri, front);
    if best_sep > 0.0 {
        let (d, pa, pb) = closest_points(&solid(), &triangle.placed());
        if !within_margin(d, margin) {
            return LocalManifold::empty();
        }
        if d > 0.0 {
            return LocalManifold::single((pb - pa) / d, (pa + pb) * 0.5, -d);
        }
    }
    prism_contact(&solid(), &triangle.placed(), margin, work)
}

/// The contact of the edge axis `n` built on box direction `k` and
/// triangle edge `j`: one point between the support edges with depth
/// `-sep`, and whether they cross along the axis.
fn edge_axis_contact(
    h: &Vec3d,
    tri: &[Vec3d; 3],
    k: usize,
    j: usize,
    n: Vec3d,
    sep: f64,
    tol: f64,
) -> (LocalManifold, bool) {
    let lowest = n.dot(&tri[0]).min(n.dot(&tri[1])).min(n.dot(&tri[2]));
    match edge_witness(h, tri, k, j, &n, lowest, tol) {
        Some((c1, c2, realized)) => (LocalManifold::single(n, (c1 + c2) * 0.5, -sep), realized),
        None => (LocalManifold::empty(), false),
    }
}

/// Box face `f` as reference: the triangle clipped to the face's rectangle
/// (its four side planes), each point within the margin; the triangle's
/// deepest vertex joins when it lies over the face (within `tol`) and the
/// clip missed it. The normal is the face's.
fn box_face_contact(h: &Vec3d, f: usize, tri: &[Vec3d; 3], margin: f64, tol: f64) -> LocalManifold {
    let (k, sign) = (f / 2, if f.is_multiple_of(2) { 1.0 } else { -1.0 });
    let n = direction(k) * sign;
    let mut a = [Vec3d::zeros(); CLIP_CAPACITY];
    let mut b = [Vec3d::zeros(); CLIP_CAPACITY];
    a[..3].copy_from_slice(tri);
    let mut len = 3;
    for i in (0..3).filter(|&i| i != k) {
        for s in [1.0, -1.0] {
            let normal = direction(i) * s;
            len = clip_polygon(&a[..len], |x| normal.dot(x) - h[i], &mut b);
            std::mem::swap(&mut a, &mut b);
            if len == 0 {
                break;
            }
        }
    }
    let mut out = LocalManifold::with_normal(n);
    for &p in &a[..len] {
        let s = sign * p[k] - h[k];
        if within_margin(s, margin) {
            out.push(p - n * (s * 0.5), -s);
        }
    }
    let v = tri
        .iter()
        .copied()
        .min_by(|x, y| n.dot(x).total_cmp(&n.dot(y)))
        .unwrap_or(tri[0]);
    let s = sign * v[k] - h[k];
    if within_margin(s, margin) && -s > out.deepest() + AXIS_TOLERANCE_ABS {
        let beyond = (0..3)
            .filter(|&i| i != k)
            .map(|i| (v[i].abs() - h[i]).max(0.0).powi(2))
            .sum::<f64>();
        if beyond <= tol * tol {
            out.push(v - n * (s * 0.5), -s);
        }
    }
    out
}

/// The triangle's front as reference: the box's most anti-parallel face
/// clipped to the triangle's prism, each point within the margin; the
/// box's deepest corner joins when it lies over the triangle (within
/// `tol`) and the clip missed it. The normal is `-front`.
fn triangle_face_contact(
    h: &Vec3d,
    tri: &[Vec3d; 3],
    front: &Vec3d,
    offset: f64,
    margin: f64,
    tol: f64,
) -> LocalManifold {
    // The incident face: the first face (CUBOID_LOOPS order) whose normal
    // is most anti-parallel to the front.
    let (mut face, mut lowest) = (0, f64::INFINITY);
    for k in 0..3 {
        for (f, d) in [(2 * k, front[k]), (2 * k + 1, -front[k])] {
            if d < lowest {
                (face, lowest) = (f, d);
            }
        }
    }
    let corner = |i: usize| {
        let s = |bit: usize| if i & bit == 0 { -1.0 } else { 1.0 };
        Vec3d::new(s(1) * h.x, s(2) * h.y, s(4) * h.z)
    };
    let mut a = [Vec3d::zeros(); CLIP_CAPACITY];
    let mut b = [Vec3d::zeros(); CLIP_CAPACITY];
    for (slot, &i) in a.iter_mut().zip(CUBOID_LOOPS[face].iter()) {
        *slot = corner(i);
    }
    let mut len = 4;
    for k in 0..3 {
        let (v, w) = (tri[k], tri[(k + 1) % 3]);
        let outward = (w - v).cross(front);
        let offset = outward.dot(&v);
        len = clip_polygon(&a[..len], |x| outward.dot(x) - offset, &mut b);
        std::mem::swap(&mut a, &mut b);
        if len == 0 {
            break;
        }
    }
    let mut out = LocalManifold::with_normal(-front);
    for &p in &a[..len] {
        let s = front.dot(&p) - offset;
        if within_margin(s, margin) {
            out.push(p - front * (s * 0.5), -s);
        }
    }
    // The deepest corner: the first corner (index order) of least
    // projection on the front.
    let v = Vec3d::new(
        if front.x < 0.0 { h.x } else { -h.x },
        if front.y < 0.0 { h.y } else { -h.y },
        if front.z < 0.0 { h.z } else { -h.z },
    );
    let s = front.dot(&v) - offset;
    if within_margin(s, margin) && -s > out.deepest() + AXIS_TOLERANCE_ABS {
        let foot = v - front * s;
        let (q, _) = point_triangle(foot, tri);
        if (q - foot).norm_squared() <= tol * tol {
            out.push(v - front * (s * 0.5), -s);
        }
    }
    out
}
