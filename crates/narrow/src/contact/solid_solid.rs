//! Contacts between solids (boxes and convex hulls) and between a
//! solid and a sphere or a capsule.
//!
//! Method:
//! - Solid pairs: the separating-axis test over the face normals of both
//!   and the cross products of their edges, edge pairs pruned by the
//!   Minkowski-face test on the Gauss map (Gregorius, "The Separating Axis
//!   Test between Convex Polyhedra", GDC 2013). A face axis yields a
//!   reference face; the most anti-parallel incident face is clipped against
//!   its side planes (Sutherland-Hodgman) and reduced to four points. An
//!   edge axis yields one point between the closest points of the two edges.
//!   Face axes are preferred unless an edge axis separates more by
//!   [`AXIS_TOLERANCE_ABS`] plus [`AXIS_TOLERANCE_REL`] of the pair size.
//! - Separated solids within the margin: the axis bound is only a lower
//!   bound of the gap, so the exact closest features are found (vertex
//!   against faces, edge against edge); when they do not lie along the best
//!   axis the contact is the single closest pair.
//! - Sphere: closest feature of the solid to the centre (face, edge or
//!   vertex), or the least-deep face when the centre is inside.
//! - Capsule: while the core segment stays outside the solid, the exact
//!   closest pair of core and solid; once the core enters, the
//!   separating-axis test over the solid's faces and the cross products
//!   of its edges with the core. A face normal clips the core against the
//!   face's side planes (two points for a capsule lying on a face).
//!
//! Precision (docs/physics.md, "Numeric boundaries"): every pair is
//! computed in `f64` in a working frame whose origin is shape A's position,
//! so support projections are differences of nearby coordinates and a
//! maximum-support vertex stays selected after a large world translation.

use parapet_math::Vec3d;

use super::closest::segment_segment;
use super::placed_solid::{closest_points, PlacedSolid};
use super::prism::{clip_line, prism_contact};
use super::scratch::{EdgeArc, Work};
use super::sphere_sphere::cores_contact;
use super::{
    within_margin, LocalManifold, AXIS_TOLERANCE_ABS, AXIS_TOLERANCE_REL, FACE_NORMAL_COS,
    NEAR_FACE_AXIS_COS, ONE_SIDED_TOLERANCE, PARALLEL_SIN_SQ,
};

/// Which axis separates (or least overlaps) a solid pair.
#[derive(Clone, Copy, Debug)]
enum Axis {
    FaceA(usize),
    FaceB(usize),
    /// Edge of A, edge of B, unit normal from A to B.
    Edges(usize, usize, Vec3d),
}

/// Contact of solid A with solid B (B may be a flat one-sided triangle;
/// A may not), both in the working frame.
///
/// An edge axis within a degree of a face normal takes that face's patch
/// ([`NEAR_FACE_AXIS_COS`]) when the patch carries the edge's separation
/// (a face resting on a face). The chosen axis's contact is kept when it
/// carries the axis separation
/// (a face patch whose deepest point is the axis depth, edges that cross
/// along the axis): it is then exact, and a separated pair needs no
/// closest-point search. Otherwise a separated pair takes its exact closest
/// pair (brute force, rare: the pair's foot lies beside the face), and a
/// solid deep through a one-sided triangle is pushed out along the
/// triangle's normal ([`prism_contact`]).
pub(crate) fn solid_solid(
    a: &PlacedSolid<'_>,
    b: &PlacedSolid<'_>,
    margin: f64,
    work: &mut Work,
) -> LocalManifold {
    // A solid whose faces all collapsed (a box with zero or tiny half
    // extents) has no face axis: its edges give the directions.
    let face_a = face_query(a, b);
    let face_b = face_query(b, a);
    for (sep, _) in face_a.iter().chain(&face_b) {
        if !within_margin(*sep, margin) {
            return LocalManifold::empty();
        }
    }
    let edges = edge_query(a, b, work);
    if let Some((sep_e, ..)) = edges {
        if !within_margin(sep_e, margin) {
            return LocalManifold::empty();
        }
    }
    let tol = AXIS_TOLERANCE_ABS + AXIS_TOLERANCE_REL * (a.radius() + b.radius());
    let mut best: Option<(f64, Axis)> = face_a.map(|(sep, f)| (sep, Axis::FaceA(f)));
    if let Some((sep, f)) = face_b {
        if best.is_none_or(|(s, _)| sep > s + tol) {
            best = Some((sep, Axis::FaceB(f)));
        }
    }
    if let Some((sep, ea, eb, n)) = edges {
        if best.is_none_or(|(s, _)| sep > s + tol) {
            best = Some((sep, Axis::Edges(ea, eb, n)));
        }
    }
    let Some((best_sep, axis)) = best else {
        // No axis at all (two solids collapsed to points): their exact
        // closest pair when apart, no contact for a touch of no extent.
        let (d, pa, pb) = closest_points(a, b);
        return if within_margin(d, margin) && d > 0.0 {
            LocalManifold::single((pb - pa) / d, (pa + pb) * 0.5, -d)
        } else {
            LocalManifold::empty()
        };
    };
    let (contact, carried) = match axis {
        Axis::FaceA(f) => carries(face_contact(a, f, b, margin, true, work), best_sep, tol),
        Axis::FaceB(f) => carries(face_contact(b, f, a, margin, false, work), best_sep, tol),
        Axis::Edges(ea, eb, n) => {
            let face = match near_face(a, b, n) {
                Some((true, f)) => Some(face_contact(a, f, b, margin, true, work)),
                Some((false, f)) => Some(face_contact(b, f, a, margin, false, work)),
                None => None,
            };
            match face {
                Some(c) if c.deepest() >= -best_sep - tol => (c, true),
                _ => edge_contact(a, b, ea, eb, n, best_sep, tol),
            }
        }
    };
    if carried {
        return contact;
    }
    if best_sep > 0.0 {
        let (d, pa, pb) = closest_points(a, b);
        if !within_margin(d, margin) {
            return LocalManifold::empty();
        }
        if d > 0.0 {
            return LocalManifold::single((pb - pa) / d, (pa + pb) * 0.5, -d);
        }
    }
    // A face axis whose clipped patch does not reach the axis depth is
    // realized by no pair of surface points: only a solid pushed deep
    // through a one-sided triangle gets one (its least overlap, towards
    // the back, is refused). It is pushed out along the triangle's normal.
    if b.flat {
        return prism_contact(a, b, margin, work);
    }
    contact
}

/// The face whose normal an edge axis `n` (from A to B) nearly equals
/// (within [`NEAR_FACE_AXIS_COS`]): `(true, f)` for A's face `f` along `n`,
/// else `(false, f)` for B's along `-n`; `None` when the axis is a real
/// edge-edge direction.
fn near_face(a: &PlacedSolid<'_>, b: &PlacedSolid<'_>, n: Vec3d) -> Option<(bool, usize)> {
    let best = |solid: &PlacedSolid<'_>, dir: Vec3d| {
        solid
            .planes
            .iter()
            .enumerate()
            .filter(|&(f, _)| solid.face_has_area(f))
            .map(|(f, p)| (p.normal.dot(&dir), f))
            .fold(None, |acc: Option<(f64, usize)>, x| match acc {
                Some(y) if y.0 >= x.0 => Some(y),
                _ => Some(x),
            })
    };
    match (best(a, n), best(b, -n)) {
        (Some((c, f)), _) if c >= NEAR_FACE_AXIS_COS => Some((true, f)),
        (_, Some((c, f))) if c >= NEAR_FACE_AXIS_COS => Some((false, f)),
        _ => None,
    }
}

/// A face patch and whether it carries the axis separation `sep` (its
/// deepest point within `tol` of `-sep`).
fn carries(contact: LocalManifold, sep: f64, tol: f64) -> (LocalManifold, bool) {
    let carried = contact.deepest() >= -sep - tol;
    (contact, carried)
}

/// The contact of an edge axis `n` (from A to B) built on edges `ea` and
/// `eb`: one point between the closest points of A's support edge along `n`
/// and B's along `-n`, with depth `-sep`; and whether those points are
/// aligned along `n` within `tol` (otherwise the edges pass beside each
/// other and no pair of surface points realizes the axis).
fn edge_contact(
    a: &PlacedSolid<'_>,
    b: &PlacedSolid<'_>,
    ea: usize,
    eb: usize,
    n: Vec3d,
    sep: f64,
    tol: f64,
) -> (LocalManifold, bool) {
    let (p1, q1) = a.support_segment(n, ea, tol);
    let (p2, q2) = b.support_segment(-n, eb, tol);
    let (_, _, c1, c2) = segment_segment(p1, q1, p2, q2);
    let d = c1 - c2;
    let realized = (d - n * n.dot(&d)).norm() <= 2.0 * tol;
    (LocalManifold::single(n, (c1 + c2) * 0.5, -sep), realized)
}

/// The face of `owner` whose outward normal separates `other` most:
/// (separation, face), among the faces with an area
/// ([`PlacedSolid::face_has_area`]). `None` for a solid without such faces.
fn face_query(owner: &PlacedSolid<'_>, other: &PlacedSolid<'_>) -> Option<(f64, usize)> {
    let mut best: Option<(f64, usize)> = None;
    for (f, face) in owner.planes.iter().enumerate() {
        if !owner.face_has_area(f) {
            continue;
        }
        let sep = other.min_projection(face.normal) - face.offset;
        if best.is_none_or(|(s, _)| sep > s) {
            best = Some((sep, f));
        }
    }
    best
}

/// The edge pair whose cross product separates most: (separation, edge of
/// A, edge of B, unit normal from A to B). Solid pairs use the Minkowski-face
/// test and the separation of the edge lines; a flat (one-sided) B uses full
/// projections and refuses axes that would push A behind B's face.
fn edge_query(
    a: &PlacedSolid<'_>,
    b: &PlacedSolid<'_>,
    work: &mut Work,
) -> Option<(f64, usize, usize, Vec3d)> {
    if !a.flat && !b.flat {
        return edge_query_solid(a, b, work);
    }
    let mut best: Option<(f64, usize, usize, Vec3d)> = None;
    let front = b
        .planes
        .first()
        .map(|f| f.normal)
        .unwrap_or_else(Vec3d::zeros);
    for ea in 0..a.edges.len() {
        let (pa, qa) = a.edge_points(ea);
        let dir_a = qa - pa;
        for eb in 0..b.edges.len() {
            let (pb, qb) = b.edge_points(eb);
            let dir_b = qb - pb;
            let cross = dir_a.cross(&dir_b);
            let len_sq = cross.norm_squared();
            if len_sq <= PARALLEL_SIN_SQ * dir_a.norm_squared() * dir_b.norm_squared()
                || len_sq == 0.0
            {
                continue;
            }
            let axis = cross / len_sq.sqrt();
            let (min_a, max_a) = (a.min_projection(axis), a.max_projection(axis));
            let (min_b, max_b) = (b.min_projection(axis), b.max_projection(axis));
            for (sep, n) in [(min_b - max_a, axis), (min_a - max_b, -axis)] {
                // B is pushed along n; A along -n. A one-sided face may
                // only push A towards its front, unless the axis separates.
                let allowed = sep > 0.0 || n.dot(&front) <= ONE_SIDED_TOLERANCE;
                if allowed
                    && best.is_none_or(|(s, ..)| sep > s)
                    && (sep > 0.0 || edges_realize(a, b, ea, eb, n))
                {
                    best = Some((sep, ea, eb, n));
                }
            }
        }
    }
    best
}

/// Whether the overlap of an edge axis `n` (from A to B, built on edges
/// `ea` of A and `eb` of B) is realized by the two solids: A's support
/// along `n` and B's along `-n` are edges parallel to `ea` and `eb` that
/// cross when seen along `n`, so that a point of each lies on the other's
/// line along `n`. Full projections give every edge pair an overlap; one
/// that no pair of surface points realizes (the edges pass beside each
/// other) is a plane of no face of the Minkowski difference, and a contact
/// built on it would put its point off both surfaces.
fn edges_realize(a: &PlacedSolid<'_>, b: &PlacedSolid<'_>, ea: usize, eb: usize, n: Vec3d) -> bool {
    let tol_a = AXIS_TOLERANCE_ABS + AXIS_TOLERANCE_REL * a.radius();
    let tol_b = AXIS_TOLERANCE_ABS + AXIS_TOLERANCE_REL * b.radius();
    let (p1, q1) = a.support_segment(n, ea, tol_a);
    let (p2, q2) = b.support_segment(-n, eb, tol_b);
    if p1 == q1 || p2 == q2 {
        return false;
    }
    let (_, _, c1, c2) = segment_segment(p1, q1, p2, q2);
    let d = c1 - c2;
    let lateral = d - n * n.dot(&d);
    lateral.norm() <= tol_a + tol_b
}

/// The arcs of `poly`'s edges with two faces, into `out`.
fn edge_arcs(poly: &PlacedSolid<'_>, out: &mut Vec<EdgeArc>) {
    out.clear();
    out.extend(poly.edges.iter().enumerate().filter_map(|(index, e)| {
        let (f0, f1) = (e.faces[0]?, e.faces[1]?);
        let (n0, n1) = (poly.planes[f0].normal, poly.planes[f1].normal);
        let (p, q) = poly.edge_points(index);
        Some(EdgeArc {
            index,
            p,
            dir: q - p,
            n0,
            n1,
            n1_x_n0: n1.cross(&n0),
        })
    }));
}

/// [`edge_query`] for two solids (Gregorius): only edge pairs that
/// form a face of the Minkowski difference are axes, and their separation
/// is the distance between the edge lines along the axis oriented out of A.
fn edge_query_solid(
    a: &PlacedSolid<'_>,
    b: &PlacedSolid<'_>,
    work: &mut Work,
) -> Option<(f64, usize, usize, Vec3d)> {
    edge_arcs(a, &mut work.arcs_a);
    edge_arcs(b, &mut work.arcs_b);
    let mut best: Option<(f64, usize, usize, Vec3d)> = None;
    for ea in &work.arcs_a {
        for eb in &work.arcs_b {
            // The Gauss-map arcs a -> b (A's edge: n0 -> n1) and c -> d
            // (B's edge negated: -n0 -> -n1) cross when
            // (c . bxa)(d . bxa) < 0, (a . dxc)(b . dxc) < 0 and
            // (c . bxa)(b . dxc) > 0, where dxc = (-n1) x (-n0) = n1 x n0.
            let cba = -eb.n0.dot(&ea.n1_x_n0);
            let dba = -eb.n1.dot(&ea.n1_x_n0);
            if cba * dba >= 0.0 {
                continue;
            }
            let adc = ea.n0.dot(&eb.n1_x_n0);
            let bdc = ea.n1.dot(&eb.n1_x_n0);
            if adc * bdc >= 0.0 || cba * bdc <= 0.0 {
                continue;
            }
            let cross = ea.dir.cross(&eb.dir);
            let len_sq = cross.norm_squared();
            if len_sq <= PARALLEL_SIN_SQ * ea.dir.norm_squared() * eb.dir.norm_squared()
                || len_sq == 0.0
            {
                continue;
            }
            let axis = cross / len_sq.sqrt();
            let n = if axis.dot(&(ea.p - a.center)) < 0.0 {
                -axis
            } else {
                axis
            };
            let sep = n.dot(&(eb.p - ea.p));
            if best.is_none_or(|(s, ..)| sep > s) {
                best = Some((sep, ea.index, eb.index, n));
            }
        }
    }
    best
}

/// Face contact: `reference`'s face `f` against the most anti-parallel face
/// of `incident`, clipped to the reference face's side planes. `ref_is_a`
/// says whether the reference solid is shape A (the normal runs from A
/// to B either way).
fn face_contact(
    reference: &PlacedSolid<'_>,
    f: usize,
    incident: &PlacedSolid<'_>,
    margin: f64,
    ref_is_a: bool,
    work: &mut Work,
) -> LocalManifold {
    let n = reference.planes[f].normal;
    incident.face_polygon(incident.incident_face(n), &mut work.polygon);
    let l = reference.face_loop(f);
    for k in 0..l.len() {
        let v = reference.vertices[l[k]];
        let w = reference.vertices[l[(k + 1) % l.len()]];
        let outward = (w - v).cross(&n);
        clip_polygon(&work.polygon, outward, outward.dot(&v), &mut work.clipped);
        std::mem::swap(&mut work.polygon, &mut work.clipped);
        if work.polygon.is_empty() {
            break;
        }
    }
    let mut out = LocalManifold::with_normal(if ref_is_a { n } else { -n });
    for &p in &work.polygon {
        let s = reference.face_distance(f, p);
        if within_margin(s, margin) {
            out.push(p - n * (s * 0.5), -s);
        }
    }
    // The incident solid's deepest vertex along -n carries the axis depth
    // when it lies over the reference face. When the clip misses it only
    // by rounding (a face chosen within the axis tolerance), it joins the
    // manifold. A vertex beside the face is not added: no point of the
    // reference solid lies above or below it (the caller then finds the
    // pair's exact contact, see `solid_solid`).
    let v = incident
        .vertices
        .iter()
        .copied()
        .min_by(|x, y| n.dot(x).total_cmp(&n.dot(y)))
        .unwrap_or(incident.center);
    let s = reference.face_distance(f, v);
    if within_margin(s, margin) && -s > out.deepest() + AXIS_TOLERANCE_ABS {
        let foot = v - n * s;
        let tol = AXIS_TOLERANCE_ABS + AXIS_TOLERANCE_REL * reference.radius();
        if (reference.closest_on_face(f, foot) - foot).norm_squared() <= tol * tol {
            out.push(v - n * (s * 0.5), -s);
        }
    }
    out
}

/// Sutherland-Hodgman: the part of `polygon` where `normal . x <= offset`,
/// into `out`.
pub(crate) fn clip_polygon(polygon: &[Vec3d], normal: Vec3d, offset: f64, out: &mut Vec<Vec3d>) {
    out.clear();
    for k in 0..polygon.len() {
        let p = polygon[k];
        let q = polygon[(k + 1) % polygon.len()];
        let dp = normal.dot(&p) - offset;
        let dq = normal.dot(&q) - offset;
        if dp <= 0.0 {
            out.push(p);
        }
        if (dp < 0.0 && dq > 0.0) || (dp > 0.0 && dq < 0.0) {
            out.push(p + (q - p) * (dp / (dp - dq)));
        }
    }
}

/// Contact of a sphere A (centre `c`, radius `r`) with a solid B.
pub(crate) fn sphere_solid(c: Vec3d, r: f64, b: &PlacedSolid<'_>, margin: f64) -> LocalManifold {
    let mut best: Option<(f64, usize)> = None;
    for f in 0..b.planes.len() {
        let s = b.face_distance(f, c);
        if best.is_none_or(|(bs, _)| s > bs) {
            best = Some((s, f));
        }
    }
    let Some((s_max, f)) = best else {
        return LocalManifold::empty();
    };
    if s_max <= 0.0 {
        let n = b.planes[f].normal;
        if !within_margin(-(r - s_max), margin) {
            return LocalManifold::empty();
        }
        return cores_contact(c, r, c - n * s_max, 0.0, -n);
    }
    if !within_margin(s_max - r, margin) {
        return LocalManifold::empty();
    }
    let q = b.closest_point(c);
    let d = (q - c).norm();
    if !within_margin(d - r, margin) || d == 0.0 {
        return LocalManifold::empty();
    }
    cores_contact(c, r, q, 0.0, (q - c) / d)
}

/// Contact of a capsule A (core `seg`, radius `r`) with a solid B.
///
/// When the core segment stays outside B, the contact is the exact closest
/// pair of the core and B (the rounded surface makes any direction
/// possible), widened to two points when that direction is a face normal.
/// When the core enters B, the separating-axis test over B's faces and the
/// cross products of B's edges with the core gives the least overlap.
pub(crate) fn capsule_solid(
    seg: [Vec3d; 2],
    r: f64,
    b: &PlacedSolid<'_>,
    margin: f64,
) -> LocalManifold {
    if b.planes.is_empty() {
        return LocalManifold::empty();
    }
    let dir = seg[1] - seg[0];
    if segment_enters(seg, b).is_none() {
        let (d, s, q) = segment_solid_closest(seg, b);
        if !within_margin(d - r, margin) || d == 0.0 {
            return LocalManifold::empty();
        }
        let n = (q - s) / d;
        let face = (0..b.planes.len())
            .filter(|&f| b.face_has_area(f))
            .max_by(|&i, &j| (-b.planes[i].normal.dot(&n)).total_cmp(&-b.planes[j].normal.dot(&n)));
        if let Some(face) = face {
            if -b.planes[face].normal.dot(&n) >= FACE_NORMAL_COS {
                let out = capsule_face_contact(seg, r, b, face, margin);
                if !out.is_empty() {
                    return out;
                }
            }
        }
        return cores_contact(s, r, q, 0.0, n);
    }
    // The core enters B: least overlap over the axes, all negative here
    // (the faces with an area: a collapsed one is no axis).
    let mut best_face: Option<(f64, usize)> = None;
    for f in (0..b.planes.len()).filter(|&f| b.face_has_area(f)) {
        let s = b.face_distance(f, seg[0]).min(b.face_distance(f, seg[1])) - r;
        if best_face.is_none_or(|(bs, _)| s > bs) {
            best_face = Some((s, f));
        }
    }
    let tol = AXIS_TOLERANCE_ABS + AXIS_TOLERANCE_REL * (b.radius() + dir.norm() + r);
    // Edge axes: each edge of B crossed with the core, kept only where it
    // is realized (B's support edge along it and the core pass each other
    // along the axis), with the pair of points that realizes it.
    let mut best_edge: Option<(f64, Vec3d, Vec3d, Vec3d)> = None;
    for e in 0..b.edges.len() {
        let (p, q) = b.edge_points(e);
        let cross = (q - p).cross(&dir);
        let len_sq = cross.norm_squared();
        if len_sq <= PARALLEL_SIN_SQ * (q - p).norm_squared() * dir.norm_squared() || len_sq == 0.0
        {
            continue;
        }
        let axis = cross / len_sq.sqrt();
        let (min_b, max_b) = (b.min_projection(axis), b.max_projection(axis));
        let (s0, s1) = (axis.dot(&seg[0]), axis.dot(&seg[1]));
        let (min_a, max_a) = (s0.min(s1) - r, s0.max(s1) + r);
        for (sep, n) in [(min_b - max_a, axis), (min_a - max_b, -axis)] {
            if best_edge.is_none_or(|(bs, ..)| sep > bs) {
                if let Some((cs, cb)) = core_edge_witness(seg, b, e, n, tol) {
                    best_edge = Some((sep, n, cs, cb));
                }
            }
        }
    }
    if let Some((sep, n, cs, cb)) = best_edge {
        if best_face.is_none_or(|(bs, _)| sep > bs + tol) {
            if !within_margin(sep, margin) {
                return LocalManifold::empty();
            }
            return LocalManifold::single(n, (cs + n * r + cb) * 0.5, -sep);
        }
    }
    // No axis at all: a core crossing a box collapsed to a point.
    let Some(best_face) = best_face else {
        return LocalManifold::empty();
    };
    if !within_margin(best_face.0, margin) {
        return LocalManifold::empty();
    }
    // The face's clipped core, plus the core's deepest end when the clip
    // misses it, so that the deepest point carries the axis depth.
    let mut out = capsule_face_contact(seg, r, b, best_face.1, margin);
    let f = best_face.1;
    let n = b.planes[f].normal;
    let x = if b.face_distance(f, seg[0]) <= b.face_distance(f, seg[1]) {
        seg[0]
    } else {
        seg[1]
    };
    let hx = b.face_distance(f, x);
    let deepest = out
        .points()
        .iter()
        .map(|p| p.1)
        .fold(f64::NEG_INFINITY, f64::max);
    if r - hx > deepest + AXIS_TOLERANCE_ABS {
        out.normal = -n;
        out.push((x - n * r + x - n * hx) * 0.5, r - hx);
    }
    out
}

/// The points that realize the edge axis `n` (from the capsule to B) built
/// on B's edge `e` crossed with the core `seg`: the core's point and B's
/// point closest between the core and B's support edge along `-n`
/// parallel to `e` (a box has four such edges: the one that reaches
/// deepest towards the capsule), when they lie on one line along `n`
/// within `tol` (m). `None` when B's support along `-n` is a vertex or the
/// core passes beside that edge: then no pair of surface points realizes
/// the axis's overlap (it is no face of the Minkowski difference), and a
/// point built on it would lie off both shapes.
fn core_edge_witness(
    seg: [Vec3d; 2],
    b: &PlacedSolid<'_>,
    e: usize,
    n: Vec3d,
    tol: f64,
) -> Option<(Vec3d, Vec3d)> {
    let (p, q) = b.support_segment(-n, e, tol);
    if p == q {
        return None;
    }
    let (_, _, cs, cb) = segment_segment(seg[0], seg[1], p, q);
    let d = cb - cs;
    ((d - n * n.dot(&d)).norm() <= 2.0 * tol).then_some((cs, cb))
}

/// The parameter range of `seg` inside the solid, if any
/// (Cyrus-Beck clipping against every face plane: [`clip_line`]).
fn segment_enters(seg: [Vec3d; 2], b: &PlacedSolid<'_>) -> Option<(f64, f64)> {
    clip_line(b, seg[0], seg[1] - seg[0], (0.0, 1.0))
}

/// Exact closest pair of a segment outside a solid: (distance,
/// point on the segment, point on the solid). The pair involves an
/// end of the segment or an edge of the solid.
fn segment_solid_closest(seg: [Vec3d; 2], b: &PlacedSolid<'_>) -> (f64, Vec3d, Vec3d) {
    let mut closest = (f64::INFINITY, seg[0], b.center);
    for &p in &seg {
        let q = b.closest_point(p);
        let d = (q - p).norm();
        if d < closest.0 {
            closest = (d, p, q);
        }
    }
    for e in 0..b.edges.len() {
        let (p, q) = b.edge_points(e);
        let (_, _, cs, cb) = segment_segment(seg[0], seg[1], p, q);
        let d = (cb - cs).norm();
        if d < closest.0 {
            closest = (d, cs, cb);
        }
    }
    closest
}

/// Face contact of a capsule against face `f` of B: the core clipped to
/// the face's prism, each clipped end a point (empty when the core misses
/// the prism or every end is beyond the margin).
fn capsule_face_contact(
    seg: [Vec3d; 2],
    r: f64,
    b: &PlacedSolid<'_>,
    f: usize,
    margin: f64,
) -> LocalManifold {
    let dir = seg[1] - seg[0];
    let n = b.planes[f].normal;
    let l = b.face_loop(f);
    let (mut lo, mut hi) = (0.0_f64, 1.0_f64);
    for k in 0..l.len() {
        let v = b.vertices[l[k]];
        let w = b.vertices[l[(k + 1) % l.len()]];
        let outward = (w - v).cross(&n);
        let start = outward.dot(&(seg[0] - v));
        let rate = outward.dot(&dir);
        if rate == 0.0 {
            if start > 0.0 {
                return LocalManifold::empty();
            }
            continue;
        }
        let t = -start / rate;
        if rate < 0.0 {
            lo = lo.max(t);
        } else {
            hi = hi.min(t);
        }
    }
    let mut out = LocalManifold::empty();
    out.normal = -n;
    if lo > hi {
        return out;
    }
    let ends: &[f64] = if hi > lo { &[lo, hi] } else { &[lo] };
    for &t in ends {
        let x = seg[0] + dir * t;
        let hx = b.face_distance(f, x);
        let depth = r - hx;
        if -depth < margin {
            out.push((x - n * r + x - n * hx) * 0.5, depth);
        }
    }
    out
}

#[cfg(test)]
mod tests;
