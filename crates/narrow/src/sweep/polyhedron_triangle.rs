//! Sweep of a translating convex solid (box or convex hull that cannot turn)
//! against a static one-sided triangle by the separating-axis test over time:
//! `sweep_solid_triangle`, with the solid's input type [`ConvexSolid`] and its
//! pose [`SolidPlacement`]; [`SolidSweep`] is the same sweep prepared once per
//! body and step (placement checks, world pose, bounds of the path) and then
//! run against any number of triangles, with bit-for-bit the same outcomes.
//!
//! # Method
//! Seed 000 "Boxes and hulls". The solid and the triangle overlap exactly when
//! their projections overlap on every candidate axis: the solid's face
//! normals, the triangle's normal, and the cross product of each solid edge
//! direction with each triangle edge (parallel pairs give no axis: the faces
//! of the Minkowski difference come only from face normals and non-parallel
//! edge pairs). Along each axis the solid's interval moves linearly in time,
//! so the two overlap along that axis during one interval of time; the first
//! contact is the latest entry over all axes, when it comes strictly before
//! the earliest exit (an entry equal to the exit is a tangency, no hit), and
//! its normal is the axis that entered last (the triangle normal, then solid
//! faces, then edge pairs on equal entries).
//!
//! An axis along which the solid does not move (`axis . d` unresolved at the
//! approach bound [`super::APPROACH_EPS_FACTOR`]) separates it for the whole
//! step when the projections are disjoint *or only touch*: a face or edge
//! sliding along a triangle with zero clearance is no impact. A solid that
//! already touches or overlaps the triangle on every axis is reported as
//! [`SweepOutcome::InitiallyTouching`] with the axis of least overlap as its
//! normal, so a box resting on a floor and sliding does not close on it (the
//! normal is the floor normal and the sliding velocity is tangent to it).
//!
//! For hulls, edge-pair axes are pruned on the Gauss map first (Gregorius,
//! GDC 2013): only a solid edge on the silhouette seen along a triangle
//! edge can pair with it into a face of the Minkowski difference, and under
//! translation alone the Minkowski difference is one fixed polytope, so the
//! pruned axis set gives the same first contact (see `gauss_candidates`).
//!
//! One-sided: a solid that starts wholly behind the face plane (every vertex
//! at or below it) is not caught.
//!
//! A triangle wholly outside the world bounds of the solid's path (its box
//! turned and swept, grown by [`super::SWEPT_BOUNDS_MARGIN`] relative) is a
//! miss before any axis; it is checked against the precision domain first.
//!
//! # Source and precision domain
//! Seed 000 "Boxes and hulls", "Precision and refusal limits"; Ericson,
//! *Real-Time Collision Detection* 5.5.8 (intervals of overlap of moving
//! projections); Akenine-Moller, "Fast 3D triangle-box overlap testing" (the
//! 13 axes of a box and a triangle). `f64` intermediates, re-centred on the
//! solid's world centre. The solid's farthest-vertex radius sets its
//! radius-relative limits (radius within [`super::MIN_RADIUS`],
//! [`super::MAX_RADIUS`]; coordinates within 65536 radii; reach within
//! 1048576 radii); the shape offset is at most [`super::MAX_SHAPE_OFFSET`].

use parapet_math::{promote, promote_quat, Mat3d, Quat, Quatd, Vec3, Vec3d};

use super::domain::{self, Checked, SweepRefusal};
use super::sphere_triangle::TriangleFrame;
use super::{Impact, SweepOutcome, SweptBounds, APPROACH_EPS_FACTOR};

/// Two unit directions whose dot product exceeds this (in absolute value
/// for edges) are treated as one direction when a solid is built
/// (dimensionless; about 1.4e-6 rad, far above `f64` roundoff of a
/// normalisation and far below any meaningful face or edge angle).
pub const PARALLEL_DIRECTION_COS: f64 = 1.0 - 1.0e-12;

/// A triangle edge and a solid edge whose cross product is shorter than this
/// fraction of the product of their lengths are treated as parallel and give
/// no candidate axis (dimensionless; the sine of about 1e-7 rad; an axis from
/// nearly parallel edges is numerically meaningless and is covered by the
/// face axes).
pub const PARALLEL_EDGE_SIN: f64 = 1.0e-7;

/// Silhouettes with at least this many vertices are first checked against
/// the inscribed ball before their projections are computed (a count of
/// vertices; a box's 4-vertex silhouettes cost less to project than to
/// check, a hull's 5 or more do not: callgrind instruction counts).
const SLACK_TEST_MIN_SILHOUETTE: usize = 5;

/// Solids with at most this many vertices have their support projections
/// kept on the stack (a count).
const SUPPORT_INLINE: usize = 16;

/// Support vertices within this fraction of the length scale of the
/// extreme projection belong to the contact feature (dimensionless).
pub const SUPPORT_TOLERANCE: f64 = 1.0e-9;

/// Why a [`ConvexSolid`] could not be built.
#[derive(Debug, Clone, Copy, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum SolidError {
    /// Fewer than four vertices or no face.
    #[error("a convex solid needs at least 4 vertices and 4 faces, got {vertices} vertices and {faces} faces")]
    TooSmall {
        /// Vertex count.
        vertices: usize,
        /// Face count.
        faces: usize,
    },
    /// A coordinate or half extent is NaN or infinite.
    #[error("vertex {index} is not finite")]
    NotFinite {
        /// The vertex (or half-extent component) index.
        index: usize,
    },
    /// A cuboid half extent is not positive.
    #[error("half extent {axis} = {value} m is not positive (limit > 0)")]
    NonPositiveExtent {
        /// Axis 0, 1 or 2.
        axis: usize,
        /// The half extent, metres.
        value: f32,
    },
    /// A face refers to a vertex that does not exist.
    #[error("face {face} refers to vertex {index}, beyond the {count} vertices")]
    IndexOutOfRange {
        /// The face.
        face: usize,
        /// The index found.
        index: u32,
        /// The number of vertices.
        count: usize,
    },
    /// A face has no area.
    #[error("face {face} has zero area")]
    DegenerateFace {
        /// The face.
        face: usize,
    },
}

/// A convex polyhedron in its own (shape) frame, prepared for the
/// separating-axis sweep: vertices, outward unit face normals (parallel
/// duplicates merged) and unit edge directions (parallel and antiparallel
/// duplicates merged).
///
/// Build it with [`ConvexSolid::from_cuboid`] or [`ConvexSolid::from_points`]
/// (vertices of a convex polytope and the triangles of its boundary).
#[derive(Debug, Clone, PartialEq)]
pub struct ConvexSolid {
    vertices: Vec<Vec3d>,
    face_normals: Vec<Vec3d>,
    edges: Vec<Vec3d>,
    radius: f64,
    /// Face normals merged up to sign (the SAT face axes), each with the
    /// solid's local projection interval `(min, max)` and the index of the
    /// first face normal it came from.
    face_axes: Vec<(Vec3d, f64, f64, u16)>,
    /// The vertices' coordinates by axis (x, y, z), for projection loops
    /// that the compiler can vectorise.
    soa: [Vec<f64>; 3],
    /// For each edge direction, the coordinates (by axis) of the vertices on
    /// the silhouette seen along that edge: the only candidates for the
    /// extremes along any axis perpendicular to the edge (every edge-pair
    /// axis `edge x triangle_edge` is such an axis).
    silhouettes: Vec<[Vec<f64>; 3]>,
    /// Radius of a ball around the shape origin inside the solid (the
    /// smallest distance from the origin to a face plane, shrunk by a
    /// relative `1e-9`), or 0 when the origin is not inside.
    inner_radius: f64,
    /// Every true edge of the solid as its direction class (index into
    /// `edges`) and the indices in `arc_normals` of the outward unit normals
    /// of its two faces, each up to sign: the arc of the edge on the solid's
    /// Gauss map, for pruning edge-pair axes (see `gauss_candidates`). The
    /// first `arcs_same` arcs have both normals with the sign stored, the
    /// rest exactly one of them negated. Empty when pruning is off.
    arcs: Vec<(u16, u16, u16)>,
    /// How many of `arcs` (the first) have both normals as stored.
    arcs_same: usize,
    /// The face normals that `arcs` refers to, by axis (x, y, z): one of
    /// each pair of antipodal or parallel face normals (within
    /// [`PARALLEL_DIRECTION_COS`]) stands for both.
    arc_normals: [Vec<f64>; 3],
    /// Bit `j` (for edge directions `j` below 64) set when the
    /// inscribed-ball test of `Sat::slack` is worth its cost for edge
    /// direction `j`: a ball of positive radius and a silhouette of at
    /// least [`SLACK_TEST_MIN_SILHOUETTE`] vertices.
    slack_edges: u64,
    /// Whether `arcs` lists every edge of the boundary (every boundary
    /// edge is shared by exactly two faces, at most [`MAX_PRUNED`] edge
    /// directions and face normals); otherwise every edge-pair axis is used.
    prune: bool,
    /// Centre of the vertices' axis-aligned box in the shape frame (metres).
    box_center: Vec3d,
    /// Half extents of that box about `box_center` (metres), each the
    /// larger of the two rounded distances to the extremes (within one
    /// rounding of the true extent; the swept bounds' relative margin
    /// [`super::SWEPT_BOUNDS_MARGIN`] covers far more).
    box_half: Vec3d,
    /// The half extents of a box centred on the shape origin with its faces
    /// along the shape axes ([`ConvexSolid::from_cuboid`]): its projection
    /// on any axis `a` is `+-(h . |a|)`, no loop over vertices needed.
    centred_box: Option<Vec3d>,
}

/// The vertices' axis-aligned box in the shape frame: centre and half
/// extents.
fn local_box(vertices: &[Vec3d]) -> (Vec3d, Vec3d) {
    let lo = vertices
        .iter()
        .fold(Vec3d::repeat(f64::INFINITY), |a, v| a.inf(v));
    let hi = vertices
        .iter()
        .fold(Vec3d::repeat(f64::NEG_INFINITY), |a, v| a.sup(v));
    let c = (lo + hi) * 0.5;
    (c, (hi - c).sup(&(c - lo)))
}

/// The inscribed-ball radius of [`ConvexSolid::inner_radius`] from the face
/// axes' projection intervals.
fn inner_radius(face_axes: &[(Vec3d, f64, f64, u16)]) -> f64 {
    let r = face_axes
        .iter()
        .map(|&(_, lo, hi, _)| (-lo).min(hi))
        .fold(f64::INFINITY, f64::min);
    if r.is_finite() && r > 0.0 {
        r * (1.0 - 1.0e-9)
    } else {
        0.0
    }
}

/// The `slack_edges` mask of a solid with this inscribed-ball radius and
/// these silhouettes (one per edge direction).
fn slack_edges(inner_radius: f64, silhouettes: &[[Vec<f64>; 3]]) -> u64 {
    silhouettes
        .iter()
        .take(64)
        .enumerate()
        .filter(|(_, s)| inner_radius > 0.0 && s[0].len() >= SLACK_TEST_MIN_SILHOUETTE)
        .fold(0, |m, (j, _)| m | 1 << j)
}

fn soa(vertices: &[Vec3d]) -> [Vec<f64>; 3] {
    [0, 1, 2].map(|k| vertices.iter().map(|v| v[k]).collect())
}

/// The vertices on the silhouette of `vertices` seen along the unit
/// direction `e`: the 2D convex hull of their projection onto the plane
/// perpendicular to `e` (Andrew's monotone chain). Points within a relative
/// `1e-9` of the hull boundary are kept, so roundoff can only keep more
/// points, never drop an extreme one; only exact duplicates are merged.
fn silhouette(vertices: &[Vec3d], e: &Vec3d) -> [Vec<f64>; 3] {
    let u = e
        .cross(
            &(if e.x.abs() < 0.9 {
                Vec3d::x()
            } else {
                Vec3d::y()
            }),
        )
        .normalize();
    let w = e.cross(&u);
    let mut pts: Vec<(f64, f64, usize)> = vertices
        .iter()
        .enumerate()
        .map(|(i, v)| (v.dot(&u), v.dot(&w), i))
        .collect();
    pts.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)));
    // Vertices that project onto the same point (a box's edges seen end on)
    // have equal projections on every axis perpendicular to `e`: keep one.
    pts.dedup_by(|b, a| a.0 == b.0 && a.1 == b.1);
    let scale = vertices.iter().map(|v| v.norm()).fold(0.0, f64::max);
    let tol = 1.0e-9 * scale * scale;
    let turn = |o: (f64, f64, usize), a: (f64, f64, usize), b: (f64, f64, usize)| {
        (a.0 - o.0) * (b.1 - o.1) - (a.1 - o.1) * (b.0 - o.0)
    };
    let chain = |iter: &mut dyn Iterator<Item = (f64, f64, usize)>| {
        let mut h: Vec<(f64, f64, usize)> = Vec::new();
        for p in iter {
            // Drop the last point only when it is strictly inside by more
            // than the tolerance (a clear right turn).
            while h.len() >= 2 && turn(h[h.len() - 2], h[h.len() - 1], p) < -tol {
                h.pop();
            }
            h.push(p);
        }
        h
    };
    let lower = chain(&mut pts.iter().copied());
    let upper = chain(&mut pts.iter().rev().copied());
    let mut keep: Vec<usize> = lower.iter().chain(upper.iter()).map(|p| p.2).collect();
    keep.sort_unstable();
    keep.dedup();
    [0, 1, 2].map(|k| keep.iter().map(|&i| vertices[i][k]).collect())
}

/// The SAT face axes: face normals merged up to sign, with the solid's
/// projection interval along each.
fn face_axes(vertices: &[Vec3d], normals: &[Vec3d]) -> Vec<(Vec3d, f64, f64, u16)> {
    let mut axes: Vec<(Vec3d, f64, f64, u16)> = Vec::new();
    for (i, n) in normals.iter().enumerate() {
        if axes
            .iter()
            .any(|(a, ..)| a.dot(n).abs() > PARALLEL_DIRECTION_COS)
        {
            continue;
        }
        let (lo, hi) = interval(vertices, n);
        axes.push((*n, lo, hi, i as u16));
    }
    axes
}

fn push_direction(list: &mut Vec<Vec3d>, v: Vec3d, either_sign: bool) {
    let dup = list.iter().any(|u| {
        let c = u.dot(&v);
        c > PARALLEL_DIRECTION_COS || (either_sign && -c > PARALLEL_DIRECTION_COS)
    });
    if !dup {
        list.push(v);
    }
}

/// Most edge directions and most face normals of a solid whose edge-pair
/// axes are pruned on the Gauss map (a count; one bit of a `u64` mask per
/// direction, and the per-sweep dot products live in fixed stack arrays).
const MAX_PRUNED: usize = 64;

/// Arcs (direction class, normal index, normal index), how many of them
/// (the first) take both normals as stored, their normals and whether
/// pruning is on.
type Arcs = (Vec<(u16, u16, u16)>, usize, [Vec<f64>; 3], bool);

/// The Gauss-map arcs of a hull's edges from its boundary triangles: each
/// undirected edge with the outward normals of its two triangles and its
/// direction class. Edges inside a flat face (both normals equal) bound no
/// face pair and are left out. Pruning is off (`false`) unless every edge
/// is shared by exactly two triangles and finds its class, and there are at
/// most [`MAX_PRUNED`] classes and triangles.
fn hull_arcs(verts: &[Vec3d], faces: &[[u32; 3]], centroid: Vec3d, edges: &[Vec3d]) -> Arcs {
    let off = || (Vec::new(), 0, [Vec::new(), Vec::new(), Vec::new()], false);
    if edges.len() > MAX_PRUNED || faces.len() > MAX_PRUNED {
        return off();
    }
    let mut normals: Vec<Vec3d> = Vec::with_capacity(faces.len());
    // (low vertex, high vertex, index of one triangle's outward normal).
    let mut sides: Vec<(u32, u32, u16)> = Vec::with_capacity(faces.len() * 3);
    for tri in faces {
        let p = tri.map(|k| verts[k as usize]);
        let mut n = (p[1] - p[0]).cross(&(p[2] - p[0])).normalize();
        if n.dot(&(p[0] - centroid)) < 0.0 {
            n = -n;
        }
        let f = normals.len() as u16;
        normals.push(n);
        for k in 0..3 {
            let (i, j) = (tri[k], tri[(k + 1) % 3]);
            sides.push((i.min(j), i.max(j), f));
        }
    }
    sides.sort_by_key(|x| (x.0, x.1));
    let mut arcs = Vec::new();
    let mut s = 0;
    while s < sides.len() {
        let mut e = s + 1;
        while e < sides.len() && (sides[e].0, sides[e].1) == (sides[s].0, sides[s].1) {
            e += 1;
        }
        if e - s != 2 {
            return off();
        }
        let (i, j, fa) = sides[s];
        let fb = sides[s + 1].2;
        s = e;
        if normals[fa as usize].dot(&normals[fb as usize]) > PARALLEL_DIRECTION_COS {
            continue;
        }
        let dir = verts[j as usize] - verts[i as usize];
        let len = dir.norm();
        if !(len > 0.0) {
            return off();
        }
        let dir = dir / len;
        let Some(class) = edges
            .iter()
            .position(|u| u.dot(&dir).abs() > PARALLEL_DIRECTION_COS)
        else {
            return off();
        };
        // The antipodal edge of an edge already listed (normals `-a`,
        // `-b`, as in every centrally symmetric solid) crosses exactly the
        // same great circles: one of the two suffices.
        let (a, b) = (normals[fa as usize], normals[fb as usize]);
        let antipodal = |&&(c, ga, gb): &&(u16, u16, u16)| {
            let (ga, gb) = (normals[ga as usize], normals[gb as usize]);
            c as usize == class
                && ((-ga.dot(&a) > PARALLEL_DIRECTION_COS && -gb.dot(&b) > PARALLEL_DIRECTION_COS)
                    || (-ga.dot(&b) > PARALLEL_DIRECTION_COS
                        && -gb.dot(&a) > PARALLEL_DIRECTION_COS))
        };
        if !arcs.iter().any(|arc| antipodal(&arc)) {
            arcs.push((class as u16, fa, fb));
        }
    }
    // One normal of each antipodal or parallel pair stands for both (the
    // dot products of `-n` are those of `n` negated): `rep[f]` is the index
    // among the kept normals and whether `f` is its negation.
    let mut kept: Vec<Vec3d> = Vec::with_capacity(normals.len());
    let rep: Vec<(u16, bool)> = normals
        .iter()
        .map(|n| {
            let found = kept
                .iter()
                .position(|u| u.dot(n).abs() > PARALLEL_DIRECTION_COS);
            match found {
                Some(i) => (i as u16, kept[i].dot(n) < 0.0),
                None => {
                    kept.push(*n);
                    ((kept.len() - 1) as u16, false)
                }
            }
        })
        .collect();
    let mut same = Vec::with_capacity(arcs.len());
    let mut mixed = Vec::new();
    for (class, fa, fb) in arcs {
        let ((a, na), (b, nb)) = (rep[fa as usize], rep[fb as usize]);
        if na == nb {
            same.push((class, a, b));
        } else {
            mixed.push((class, a, b));
        }
    }
    let arcs_same = same.len();
    same.extend(mixed);
    (same, arcs_same, soa(&kept), true)
}

/// Relative slack of the Gauss-map crossing test (dimensionless): an arc is
/// kept unless `(a . e)(b . e)` exceeds this fraction of `|e|^2`. An arc
/// stands for its antipodal twin when their normals agree within
/// [`PARALLEL_DIRECTION_COS`] (an angle `delta` of at most 1.5e-6 rad), which
/// moves the product by at most about `2 delta |e|^2` = 3e-6 `|e|^2`, and
/// each of its two normals is stood for by a kept antipodal or parallel
/// normal within the same angle (see `hull_arcs`), which moves it by at most
/// another 3e-6 `|e|^2`; the slack covers both (6e-6 `|e|^2`) and all
/// roundoff, so a true crossing is never dropped (a larger slack only keeps
/// more axes).
const GAUSS_ARC_SLACK: f64 = 1.0e-5;

/// For each triangle edge `k`, the bit mask of the solid's edge direction
/// classes whose edge-pair axis with that edge can be a face of the
/// Minkowski difference `solid - triangle`: those with an edge on the
/// solid's silhouette seen along `e_k` (its two face normals on opposite
/// sides of the plane perpendicular to `e_k`, up to [`GAUSS_ARC_SLACK`]).
///
/// Gregorius, "The Separating Axis Test between Convex Polyhedra" (GDC
/// 2013): an edge pair gives a face of the Minkowski difference exactly when
/// the solid edge's arc on the Gauss map (between its two face normals `a`,
/// `b`) crosses the negated triangle edge's arc. A flat triangle's edge `k`
/// has as normals every `alpha n + beta m_k` with `beta >= 0` (`m_k` the
/// in-plane outward normal of the edge): a half great circle perpendicular
/// to the edge `e_k`. Negated, it is the half of the great circle
/// perpendicular to `e_k` with `u . m_k <= 0`. The arc `a -> b` crosses that
/// great circle iff `a . e_k` and `b . e_k` differ in sign, at
/// `u = |b . e_k| a + |a . e_k| b`, and the pair is a face iff also
/// `u . m_k <= 0`. Only the crossing is tested here (a relaxation that can
/// only keep more pairs): for a centrally symmetric solid (boxes, most
/// hulls) the antipodal edge of a crossing edge crosses at `-u`, so every
/// crossing class has a face on the right half anyway.
///
/// Why this is valid over time: the solid only translates, so the Minkowski
/// difference `M = solid - triangle` is one fixed polytope and the solid
/// meets the triangle at time `t` iff `M + t d` contains the origin (with
/// `d` the displacement). The SAT over time on the face normals of `M` alone
/// is therefore exact: while the origin is outside `M + t d`, some face
/// plane of `M` separates it. Any other axis `c` is a supporting direction
/// of `M` at a vertex or edge only, so its entry is never later and its
/// exit never earlier than the true contact interval; dropping it cannot
/// change the latest entry or earliest exit. An axis along which the solid
/// does not move and whose projections only touch is a supporting plane of
/// `M` through the origin's whole path; when that plane meets `M` in an edge
/// or a vertex, the path lies in that edge or vertex, so the adjacent face
/// planes also contain it and one of those face axes already separates.
fn gauss_candidates(solid: &ConvexSolid, e: &[Vec3d; 3], len2: &[f64; 3]) -> [u64; 3] {
    // The dot products live in a stack array sized to the solid's normal
    // count (a few size classes up to `MAX_PRUNED`): clearing a 64-entry
    // array for a 20-face hull cost about a tenth of a sweep.
    match solid.arc_normals[0].len() {
        0..=8 => gauss_masks::<8>(solid, e, len2),
        9..=16 => gauss_masks::<16>(solid, e, len2),
        17..=32 => gauss_masks::<32>(solid, e, len2),
        _ => gauss_masks::<MAX_PRUNED>(solid, e, len2),
    }
}

/// [`gauss_candidates`] with the face normals' dot products in an array of
/// `N` entries (`N` at least the number of normals); `e` are the triangle's
/// edges `v_(k+1) - v_k` and `len2` their squared lengths.
#[inline]
fn gauss_masks<const N: usize>(solid: &ConvexSolid, e: &[Vec3d; 3], len2: &[f64; 3]) -> [u64; 3] {
    let [nx, ny, nz] = &solid.arc_normals;
    let slack = len2.map(|l| GAUSS_ARC_SLACK * l);
    // An arc with exactly one normal negated: `(-x) y <= s` is `x y >= -s`.
    let neg_slack = slack.map(|s| -s);
    // Each face normal's dot products with the three triangle edges, one
    // array per edge (a layout the compiler vectorises).
    let mut de = [[0.0f64; N]; 3];
    for k in 0..3 {
        let ek = e[k];
        for (d, ((&x, &y), &z)) in de[k].iter_mut().zip(nx.iter().zip(ny).zip(nz)) {
            *d = ek.x * x + ek.y * y + ek.z * z;
        }
    }
    let mut masks = [0u64; 3];
    let (same, mixed) = solid.arcs.split_at(solid.arcs_same.min(solid.arcs.len()));
    for &(class, a, b) in same {
        // `N` is a power of two above every index: the mask changes no
        // index and spares the bounds checks.
        let (a, b) = (a as usize & (N - 1), b as usize & (N - 1));
        for k in 0..3 {
            masks[k] |= ((de[k][a] * de[k][b] <= slack[k]) as u64) << class;
        }
    }
    for &(class, a, b) in mixed {
        let (a, b) = (a as usize & (N - 1), b as usize & (N - 1));
        for k in 0..3 {
            masks[k] |= ((de[k][a] * de[k][b] >= neg_slack[k]) as u64) << class;
        }
    }
    masks
}

impl ConvexSolid {
    /// A box centred on the shape origin with the given half extents
    /// (metres): 8 vertices, 6 face normals, 3 edge directions.
    ///
    /// # Errors
    /// [`SolidError::NotFinite`] or [`SolidError::NonPositiveExtent`].
    pub fn from_cuboid(half_extents: Vec3) -> Result<Self, SolidError> {
        for axis in 0..3 {
            let value = half_extents[axis];
            if !value.is_finite() {
                return Err(SolidError::NotFinite { index: axis });
            }
            if !(value > 0.0) {
                return Err(SolidError::NonPositiveExtent { axis, value });
            }
        }
        let h = promote(half_extents);
        let mut vertices = Vec::with_capacity(8);
        for i in 0..8 {
            let s = |bit: usize| if i & bit == 0 { -1.0 } else { 1.0 };
            vertices.push(Vec3d::new(s(1) * h.x, s(2) * h.y, s(4) * h.z));
        }
        let mut face_normals = Vec::with_capacity(6);
        for axis in 0..3 {
            let mut n = Vec3d::zeros();
            n[axis] = 1.0;
            face_normals.push(n);
            face_normals.push(-n);
        }
        let (box_center, box_half) = local_box(&vertices);
        Ok(ConvexSolid {
            box_center,
            box_half,
            centred_box: Some(h),
            inner_radius: inner_radius(&face_axes(&vertices, &face_normals)),
            face_axes: face_axes(&vertices, &face_normals),
            soa: soa(&vertices),
            silhouettes: [Vec3d::x(), Vec3d::y(), Vec3d::z()]
                .iter()
                .map(|e| silhouette(&vertices, e))
                .collect(),
            vertices,
            face_normals,
            edges: vec![Vec3d::x(), Vec3d::y(), Vec3d::z()],
            radius: h.norm(),
            // A box has only 9 edge-pair axes on 4-vertex silhouettes:
            // pruning them costs more than it saves.
            arcs: Vec::new(),
            arcs_same: 0,
            arc_normals: [Vec::new(), Vec::new(), Vec::new()],
            slack_edges: 0,
            prune: false,
        })
    }

    /// A convex hull from its vertices (shape frame, metres) and the
    /// triangles of its boundary. Each triangle's normal is turned outward
    /// (away from the vertex centroid) whatever its winding. The caller
    /// promises that the vertices are those of a convex polytope and that the
    /// triangles cover its boundary; interior diagonals of triangulated faces
    /// only add harmless candidate axes.
    ///
    /// # Errors
    /// [`SolidError::TooSmall`], [`SolidError::NotFinite`],
    /// [`SolidError::IndexOutOfRange`], [`SolidError::DegenerateFace`].
    pub fn from_points(vertices: &[Vec3], faces: &[[u32; 3]]) -> Result<Self, SolidError> {
        if vertices.len() < 4 || faces.len() < 4 {
            return Err(SolidError::TooSmall {
                vertices: vertices.len(),
                faces: faces.len(),
            });
        }
        for (index, v) in vertices.iter().enumerate() {
            if !v.iter().all(|x| x.is_finite()) {
                return Err(SolidError::NotFinite { index });
            }
        }
        let verts: Vec<Vec3d> = vertices.iter().map(|v| promote(*v)).collect();
        let centroid = verts.iter().sum::<Vec3d>() / verts.len() as f64;
        let mut face_normals = Vec::new();
        let mut edges = Vec::new();
        for (face, tri) in faces.iter().enumerate() {
            let mut p = [Vec3d::zeros(); 3];
            for k in 0..3 {
                let index = tri[k];
                p[k] = *verts
                    .get(index as usize)
                    .ok_or(SolidError::IndexOutOfRange {
                        face,
                        index,
                        count: verts.len(),
                    })?;
            }
            let n = (p[1] - p[0]).cross(&(p[2] - p[0]));
            let len = n.norm();
            if !(len > 0.0) {
                return Err(SolidError::DegenerateFace { face });
            }
            let mut n = n / len;
            if n.dot(&(p[0] - centroid)) < 0.0 {
                n = -n;
            }
            push_direction(&mut face_normals, n, false);
            for k in 0..3 {
                let e = p[(k + 1) % 3] - p[k];
                let el = e.norm();
                if el > 0.0 {
                    push_direction(&mut edges, e / el, true);
                }
            }
        }
        let radius = verts.iter().map(|v| v.norm()).fold(0.0, f64::max);
        let (arcs, arcs_same, arc_normals, prune) = hull_arcs(&verts, faces, centroid, &edges);
        let face_axes = face_axes(&verts, &face_normals);
        let inner_radius = inner_radius(&face_axes);
        let silhouettes: Vec<[Vec<f64>; 3]> = edges.iter().map(|e| silhouette(&verts, e)).collect();
        let (box_center, box_half) = local_box(&verts);
        Ok(ConvexSolid {
            box_center,
            box_half,
            centred_box: None,
            arcs,
            arcs_same,
            arc_normals,
            prune,
            slack_edges: slack_edges(inner_radius, &silhouettes),
            inner_radius,
            face_axes,
            soa: soa(&verts),
            silhouettes,
            vertices: verts,
            face_normals,
            edges,
            radius,
        })
    }

    /// The solid's projection interval on `axis` (shape frame).
    #[inline]
    fn interval(&self, axis: &Vec3d) -> (f64, f64) {
        let [xs, ys, zs] = &self.soa;
        let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
        if xs.len() <= SUPPORT_INLINE {
            // The projections first (a loop the compiler vectorises), then
            // their extremes: the same values, the same extremes.
            let mut p = [0.0f64; SUPPORT_INLINE];
            for (q, ((x, y), z)) in p.iter_mut().zip(xs.iter().zip(ys).zip(zs)) {
                *q = axis.x * x + axis.y * y + axis.z * z;
            }
            for &q in &p[..xs.len()] {
                lo = if q < lo { q } else { lo };
                hi = if q > hi { q } else { hi };
            }
            return (lo, hi);
        }
        for ((x, y), z) in xs.iter().zip(ys).zip(zs) {
            let p = axis.x * x + axis.y * y + axis.z * z;
            lo = if p < lo { p } else { lo };
            hi = if p > hi { p } else { hi };
        }
        (lo, hi)
    }

    /// The solid's projection interval on `axis` (shape frame): closed form
    /// for a centred box, a pass over the vertices otherwise.
    #[inline]
    fn support_interval(&self, axis: &Vec3d) -> (f64, f64) {
        match self.centred_box {
            Some(h) => {
                let r = h.x * axis.x.abs() + h.y * axis.y.abs() + h.z * axis.z.abs();
                (-r, r)
            }
            None => self.interval(axis),
        }
    }

    /// The solid's projection interval on one axis perpendicular to edge
    /// direction `edge` (over that edge's silhouette).
    #[inline]
    fn silhouette_interval(&self, edge: usize, a: &Vec3d) -> (f64, f64) {
        let [xs, ys, zs] = &self.silhouettes[edge];
        let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
        for ((x, y), z) in xs.iter().zip(ys).zip(zs) {
            let p = a.x * x + a.y * y + a.z * z;
            lo = if p < lo { p } else { lo };
            hi = if p > hi { p } else { hi };
        }
        (lo, hi)
    }

    /// The solid's projection intervals on three axes perpendicular to edge
    /// direction `edge` at once (one pass over that edge's silhouette with
    /// six independent running extremes).
    #[inline]
    fn interval3(&self, edge: usize, a: &[Vec3d; 3]) -> [(f64, f64); 3] {
        let [xs, ys, zs] = &self.silhouettes[edge];
        let mut lo = [f64::INFINITY; 3];
        let mut hi = [f64::NEG_INFINITY; 3];
        for ((x, y), z) in xs.iter().zip(ys).zip(zs) {
            for k in 0..3 {
                let p = a[k].x * x + a[k].y * y + a[k].z * z;
                lo[k] = if p < lo[k] { p } else { lo[k] };
                hi[k] = if p > hi[k] { p } else { hi[k] };
            }
        }
        [(lo[0], hi[0]), (lo[1], hi[1]), (lo[2], hi[2])]
    }

    /// The vertices in the shape frame (metres).
    pub fn vertices(&self) -> &[Vec3d] {
        &self.vertices
    }

    /// The outward unit face normals in the shape frame.
    pub fn face_normals(&self) -> &[Vec3d] {
        &self.face_normals
    }

    /// The unit edge directions in the shape frame (one per parallel class).
    pub fn edges(&self) -> &[Vec3d] {
        &self.edges
    }

    /// The farthest-vertex distance from the shape origin (metres): the
    /// radius of the seed's radius-relative precision limits.
    pub fn bounding_radius(&self) -> f64 {
        self.radius
    }
}

/// Where a solid sits: its body's world pose and the shape's offset in the
/// body frame (seed 000: a shape may sit off its body's origin by at most
/// [`super::MAX_SHAPE_OFFSET`]). The shape's world pose is
/// `body_position + body_rotation * (shape_offset + shape_rotation * x)`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SolidPlacement {
    /// The body origin in world coordinates (metres).
    pub body_position: Vec3,
    /// The body's rotation, body to world.
    pub body_rotation: Quat,
    /// The shape origin in the body frame (metres).
    pub shape_offset: Vec3,
    /// The shape's rotation in the body frame.
    pub shape_rotation: Quat,
}

impl SolidPlacement {
    /// A shape centred on its body's origin, with the body at this pose.
    pub fn at(position: Vec3, rotation: Quat) -> Self {
        SolidPlacement {
            body_position: position,
            body_rotation: rotation,
            shape_offset: Vec3::zeros(),
            shape_rotation: Quat::identity(),
        }
    }
}

/// The separating axis that decided a solid-triangle contact.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SatAxis {
    /// The triangle's face normal.
    TriangleNormal,
    /// The solid's face normal of this index (see [`ConvexSolid::face_normals`]).
    SolidFace(u16),
    /// The cross product of a solid edge direction (index into
    /// [`ConvexSolid::edges`]) with a triangle edge (`i` from vertex `i` to
    /// `i + 1`).
    EdgePair {
        /// The solid's edge direction.
        solid_edge: u16,
        /// The triangle's edge.
        triangle_edge: u8,
    },
}

fn unit_quat(q: &Quat) -> Quatd {
    Quatd::new_normalize(promote_quat(*q).into_inner())
}

/// A checked placement: world centre, rotation shape -> world, the step's
/// displacement (world) and the solid's radius.
///
/// The common case (an acceptable placement) is decided without an early
/// exit per limit: the same comparisons on the same values (a coordinate or
/// rotation norm within its limit is finite, so most finiteness checks are
/// implied; dividing by the positive radius is monotone, so the largest
/// coordinate within the radius-relative limit means all are). Only a
/// placement it does not accept goes through [`placement_reason`], which
/// checks each limit in turn to name the refusal.
#[inline]
fn checked_placement(
    solid: &ConvexSolid,
    place: &SolidPlacement,
    velocity: Vec3,
    dt: f32,
) -> Checked<(Vec3d, Quatd, Vec3d, f64)> {
    let unit = |q: &Quat| {
        let n2 = q.into_inner().coords.cast::<f64>().norm_squared();
        (n2 - 1.0).abs() <= domain::ROTATION_NORM_SQ_TOLERANCE
    };
    let r = solid.radius;
    let offset = promote(place.shape_offset);
    let body = promote(place.body_position);
    let mut ok = unit(&place.body_rotation) && unit(&place.shape_rotation);
    ok &= velocity.x.is_finite() && velocity.y.is_finite() && velocity.z.is_finite();
    ok &= dt.is_finite() && dt >= 0.0;
    ok &= !solid.vertices.is_empty() && !solid.face_normals.is_empty();
    ok &= (domain::MIN_RADIUS..=domain::MAX_RADIUS).contains(&r);
    ok &= offset.norm() <= domain::MAX_SHAPE_OFFSET;
    // Per component (a NaN fails its comparison); with the checks above,
    // this makes the centre and the displacement below finite.
    ok &= body.iter().all(|x| x.abs() <= domain::MAX_COORDINATE);
    if !ok {
        return placement_reason(solid, place, velocity, dt);
    }
    let (rot, center) = shape_pose(place);
    let d = promote(velocity) * dt as f64;
    let far = center.amax().max((center + d).amax());
    if far <= domain::MAX_COORDINATE
        && far / r <= domain::MAX_COORDINATE_RADII
        && (d.norm() + r) / r <= domain::MAX_REACH_RADII
    {
        Ok((center, rot, d, r))
    } else {
        placement_reason(solid, place, velocity, dt)
    }
}

/// The shape's world rotation and origin from a placement whose rotations
/// are finite and near unit: `body_rotation * shape_rotation` (the body's
/// alone when the shape's is exactly the identity) and
/// `body_position + body_rotation * shape_offset` (the body position when
/// the offset is exactly zero).
#[inline]
fn shape_pose(place: &SolidPlacement) -> (Quatd, Vec3d) {
    let body_rot = unit_quat(&place.body_rotation);
    let rot = if place.shape_rotation == Quat::identity() {
        body_rot
    } else {
        body_rot * unit_quat(&place.shape_rotation)
    };
    let body = promote(place.body_position);
    let center = if place.shape_offset == Vec3::zeros() {
        body
    } else {
        body + body_rot * promote(place.shape_offset)
    };
    (rot, center)
}

/// The placement checks of [`checked_placement`] one by one, in order: the
/// first that fails names the refusal.
#[cold]
fn placement_reason(
    solid: &ConvexSolid,
    place: &SolidPlacement,
    velocity: Vec3,
    dt: f32,
) -> Checked<(Vec3d, Quatd, Vec3d, f64)> {
    domain::finite_vec("body position", place.body_position)?;
    domain::finite_vec("shape offset", place.shape_offset)?;
    domain::rotation("body rotation", &place.body_rotation)?;
    domain::rotation("shape rotation", &place.shape_rotation)?;
    domain::finite_vec("solid velocity", velocity)?;
    domain::step(dt)?;
    if solid.vertices.is_empty() || solid.face_normals.is_empty() {
        return Err(SweepRefusal::EmptySolid {
            vertices: solid.vertices.len(),
            faces: solid.face_normals.len(),
        });
    }
    let r = solid.radius;
    domain::radius("solid farthest-vertex radius", r)?;
    let offset = promote(place.shape_offset);
    let off_len = offset.norm();
    if !(off_len <= domain::MAX_SHAPE_OFFSET) {
        return Err(SweepRefusal::ShapeOffsetTooLarge {
            value: off_len,
            limit: domain::MAX_SHAPE_OFFSET,
        });
    }
    let (rot, center) = shape_pose(place);
    let body = promote(place.body_position);
    domain::coordinate("body position", body)?;
    let d = promote(velocity) * dt as f64;
    domain::moving_coordinate("solid centre at step start", center, r)?;
    domain::moving_coordinate("solid centre at step end", center + d, r)?;
    domain::reach(d.norm() + r, r)?;
    Ok((center, rot, d, r))
}

/// Projection interval of points on an axis.
#[inline]
fn interval(points: &[Vec3d], axis: &Vec3d) -> (f64, f64) {
    points
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), p| {
            let x = axis.dot(p);
            (lo.min(x), hi.max(x))
        })
}

/// Points kept inline up to a small count (a contact feature is rarely
/// more than a face of a few vertices), on the heap beyond: no allocation
/// in the common case.
struct FewPoints {
    len: usize,
    inline: [Vec3d; 8],
    heap: Vec<Vec3d>,
}

impl FewPoints {
    fn new() -> Self {
        FewPoints {
            len: 0,
            inline: [Vec3d::zeros(); 8],
            heap: Vec::new(),
        }
    }

    fn push(&mut self, p: Vec3d) {
        if self.heap.is_empty() && self.len < self.inline.len() {
            self.inline[self.len] = p;
        } else {
            if self.heap.is_empty() {
                self.heap.extend_from_slice(&self.inline);
            }
            self.heap.push(p);
        }
        self.len += 1;
    }

    fn as_slice(&self) -> &[Vec3d] {
        if self.heap.is_empty() {
            &self.inline[..self.len]
        } else {
            &self.heap
        }
    }
}

/// Whether `p` lies within the convex polygon `poly` (at least three
/// coplanar points, any order) seen along `n`.
fn inside_polygon(p: &Vec3d, poly: &[Vec3d], n: &Vec3d) -> bool {
    if poly.len() < 3 {
        return false;
    }
    let c = poly.iter().sum::<Vec3d>() / poly.len() as f64;
    // Order the points by angle around the centroid in the plane.
    let u = (poly[0] - c).cross(n).cross(n);
    let u = if u.norm() > 0.0 {
        u.normalize()
    } else {
        return false;
    };
    let w = n.cross(&u);
    let mut sorted: Vec<(f64, Vec3d)> = poly
        .iter()
        .map(|q| {
            let r = q - c;
            (r.dot(&w).atan2(r.dot(&u)), *q)
        })
        .collect();
    sorted.sort_by(|a, b| a.0.total_cmp(&b.0));
    let k = sorted.len();
    let sign = n.dot(&u.cross(&w)).signum();
    (0..k).all(|i| {
        let a = sorted[i].1;
        let b = sorted[(i + 1) % k].1;
        sign * (b - a).cross(&(p - a)).dot(n) >= 0.0
    })
}

/// The solid's support vertices along `dir` (those within `tol` of the
/// largest projection `dir . v`), moved by `shift`. Moving every vertex by
/// the same `shift` moves every projection by the same `dir . shift`, so the
/// support set is chosen on the unmoved vertices.
fn solid_support(solid: &ConvexSolid, shift: Vec3d, dir: &Vec3d, tol: f64, out: &mut FewPoints) {
    let [xs, ys, zs] = &solid.soa;
    let proj = |((x, y), z): ((&f64, &f64), &f64)| dir.x * x + dir.y * y + dir.z * z;
    if xs.len() <= SUPPORT_INLINE {
        // One pass: the projections kept on the stack.
        let mut p = [0.0f64; SUPPORT_INLINE];
        let mut best = f64::NEG_INFINITY;
        for (q, v) in p.iter_mut().zip(xs.iter().zip(ys).zip(zs).map(proj)) {
            *q = v;
            best = if v > best { v } else { best };
        }
        for (v, q) in solid.vertices.iter().zip(&p) {
            if *q >= best - tol {
                out.push(v + shift);
            }
        }
        return;
    }
    let best = xs
        .iter()
        .zip(ys)
        .zip(zs)
        .map(proj)
        .fold(f64::NEG_INFINITY, f64::max);
    for (v, p) in solid
        .vertices
        .iter()
        .zip(xs.iter().zip(ys).zip(zs).map(proj))
    {
        if p >= best - tol {
            out.push(v + shift);
        }
    }
}

/// A point of the contact region of the solid (its vertices moved by
/// `shift` to where they are at the contact time) and the triangle, with
/// `normal` from the triangle to the solid.
fn contact_point(
    solid: &ConvexSolid,
    shift: Vec3d,
    tri: &[Vec3d; 3],
    normal: &Vec3d,
    tol: f64,
) -> Vec3d {
    let mut s = FewPoints::new();
    solid_support(solid, shift, &-normal, tol, &mut s);
    let s = s.as_slice();
    if s.len() == 1 {
        return s[0];
    }
    let mut t = FewPoints::new();
    let p = tri.map(|q| normal.dot(&q));
    let best = p[0].max(p[1]).max(p[2]);
    for k in 0..3 {
        if p[k] >= best - tol {
            t.push(tri[k]);
        }
    }
    let t = t.as_slice();
    if t.len() == 1 {
        return t[0];
    }
    if s.len() == 2 && t.len() == 2 {
        let (a, b) = super::capsule_triangle::closest_params(s[0], s[1] - s[0], t[0], t[1] - t[0]);
        let p = s[0] + a * (s[1] - s[0]);
        let q = t[0] + b * (t[1] - t[0]);
        return 0.5 * (p + q);
    }
    let mut sum = Vec3d::zeros();
    let mut count = 0usize;
    for p in s {
        if inside_polygon(p, t, normal) {
            sum += p;
            count += 1;
        }
    }
    for p in t {
        if inside_polygon(p, s, normal) {
            sum += p;
            count += 1;
        }
    }
    if count == 0 {
        for p in s.iter().chain(t.iter()) {
            sum += p;
            count += 1;
        }
    }
    sum / count as f64
}

/// Sweeps a convex solid that only translates, at `velocity` (m/s) for `dt`
/// seconds, against one static one-sided triangle by the separating-axis
/// test over time.
///
/// Returns the first contact (time as a fraction of the step, a point of the
/// contact region, the unit normal from the triangle towards the solid, and
/// the axis that entered last), an initial contact with the axis of least
/// overlap, a miss (including a solid that starts wholly behind the face,
/// and sliding contact with zero clearance) or a refusal.
///
/// The same as [`SolidSweep::new`] followed by [`SolidSweep::triangle`]
/// (which is what it does); a caller that sweeps one solid against many
/// triangles prepares the [`SolidSweep`] once instead.
pub fn sweep_solid_triangle(
    solid: &ConvexSolid,
    placement: &SolidPlacement,
    velocity: Vec3,
    dt: f32,
    triangle: &[Vec3; 3],
) -> SweepOutcome<SatAxis> {
    match SolidSweep::new(solid, placement, velocity, dt) {
        Ok(sweep) => sweep.triangle(triangle),
        Err(e) => SweepOutcome::Refused(e),
    }
}

/// One solid's translation over one step, checked and prepared once to be
/// swept against any number of static triangles: the placement's precision
/// checks, the shape's world pose as rotation matrices, the displacement in
/// the shape frame and the world bounds of the whole path.
///
/// [`SolidSweep::triangle`] gives exactly (bit for bit) what
/// [`sweep_solid_triangle`] gives for the same solid, placement, velocity,
/// step and triangle; a placement that [`sweep_solid_triangle`] refuses is
/// refused here by [`SolidSweep::new`], before any triangle.
#[derive(Debug, Clone)]
pub struct SolidSweep<'a> {
    solid: &'a ConvexSolid,
    /// The shape origin in world coordinates at the step start (metres).
    center: Vec3d,
    /// Rotation shape -> world.
    rot: Mat3d,
    /// Rotation world -> shape (the transpose of `rot`).
    inv: Mat3d,
    /// The step's displacement in the shape frame (metres).
    d: Vec3d,
    /// The solid's farthest-vertex radius (metres).
    r: f64,
    /// World bounds of the solid's whole path over the step, rounded
    /// outward: a triangle outside them cannot be touched.
    bounds: SweptBounds,
}

impl<'a> SolidSweep<'a> {
    /// Checks the placement, velocity and step of `solid` against the
    /// precision domain (seed 000 "Precision and refusal limits") and
    /// prepares its sweep.
    ///
    /// # Errors
    /// The [`SweepRefusal`] that [`sweep_solid_triangle`] returns for this
    /// solid, placement, velocity and step whatever the triangle.
    #[inline]
    pub fn new(
        solid: &'a ConvexSolid,
        placement: &SolidPlacement,
        velocity: Vec3,
        dt: f32,
    ) -> Result<Self, SweepRefusal> {
        let (center, rot, d, r) = checked_placement(solid, placement, velocity, dt)?;
        let rot = rot.to_rotation_matrix().into_inner();
        let inv = rot.transpose();
        // The shape's world box: its local box turned (centre `rot * c`,
        // half extents `|rot| h`), a superset of the turned vertices.
        let mid = center + rot * solid.box_center;
        let ext = rot.abs() * solid.box_half;
        let bounds = SweptBounds::of_box(mid - ext, mid + ext, d);
        Ok(SolidSweep {
            solid,
            center,
            rot,
            inv,
            d: inv * d,
            r,
            bounds,
        })
    }

    /// The solid's sweep against one static one-sided triangle: see
    /// [`sweep_solid_triangle`]. The triangle is checked against the
    /// precision domain first (a refusal), then rejected by the path's
    /// bounds (a miss) when it lies wholly outside them.
    pub fn triangle(&self, triangle: &[Vec3; 3]) -> SweepOutcome<SatAxis> {
        let p = triangle.map(promote);
        if let Err(e) = domain::triangle_promoted(triangle, &p, self.center, self.r) {
            return SweepOutcome::Refused(e);
        }
        if self.bounds.misses_promoted(&p) {
            return SweepOutcome::Miss;
        }
        // Work in the solid's own frame (centred on it): its vertices, face
        // axes and edges are used as stored; the triangle and the motion turn.
        let c = self.center;
        let inv = &self.inv;
        let tri = TriangleFrame::new([inv * (p[0] - c), inv * (p[1] - c), inv * (p[2] - c)]);
        match self.sat(&tri) {
            SweepOutcome::Hit(i) => SweepOutcome::Hit(self.to_world(i)),
            SweepOutcome::InitiallyTouching(i) => SweepOutcome::InitiallyTouching(self.to_world(i)),
            other => other,
        }
    }

    /// An impact found in the shape frame, in world coordinates.
    #[inline]
    fn to_world(&self, i: Impact<SatAxis>) -> Impact<SatAxis> {
        Impact {
            time: i.time,
            point: self.rot * i.point + self.center,
            normal: self.rot * i.normal,
            feature: i.feature,
        }
    }

    /// The separating-axis test over time in the shape frame (triangle
    /// relative to the shape origin); the impact is in the shape frame.
    fn sat(&self, tri: &TriangleFrame) -> SweepOutcome<SatAxis> {
        let solid = self.solid;
        let d = self.d;
        let r = self.r;

        // One-sided: wholly behind the face plane (every vertex at or below it).
        let plane = tri.n.dot(&tri.v[0]);
        let (bottom, top) = solid.support_interval(&tri.n);
        if top <= plane {
            return SweepOutcome::Miss;
        }

        // Candidate axes in order: triangle normal, solid faces, edge pairs.
        // Entry and exit times do not depend on an axis' length, so the axes
        // are used unnormalised; only the reported normal is normalised.
        let mut state = Sat {
            enter: (f64::NEG_INFINITY, Vec3d::zeros(), SatAxis::TriangleNormal),
            exit: f64::INFINITY,
        };
        let tri_v = tri.v;
        let tri_interval = |axis: &Vec3d| interval(&tri_v, axis);
        if !state.axis(
            tri.n,
            (bottom, top),
            (plane, plane),
            d,
            SatAxis::TriangleNormal,
        ) {
            return SweepOutcome::Miss;
        }
        for &(axis, lo, hi, index) in &solid.face_axes {
            if !state.axis(
                axis,
                (lo, hi),
                tri_interval(&axis),
                d,
                SatAxis::SolidFace(index),
            ) {
                return SweepOutcome::Miss;
            }
        }
        let tri_edges = [tri.edge(0).1, tri.edge(1).1, tri.edge(2).1];
        let tri_edge_len2 = [
            tri_edges[0].norm_squared(),
            tri_edges[1].norm_squared(),
            tri_edges[2].norm_squared(),
        ];
        let masks = if solid.prune {
            gauss_candidates(solid, &tri_edges, &tri_edge_len2)
        } else {
            [u64::MAX; 3]
        };
        let sin2 = PARALLEL_EDGE_SIN * PARALLEL_EDGE_SIN;
        if solid.prune {
            // Pruned hulls: only the surviving pairs, visited in the same
            // order as below (solid edge, then triangle edge), each axis
            // alone. An axis that the inscribed ball shows irrelevant is
            // skipped by itself: it changes neither the latest entry nor the
            // earliest exit, whatever was folded before or comes after (see
            // `Sat::slack`), so the outcome is the same as below.
            let mut classes = masks[0] | masks[1] | masks[2];
            while classes != 0 {
                let j = classes.trailing_zeros() as usize;
                classes &= classes - 1;
                let e = solid.edges[j];
                let width = e.dot(&tri.n_raw);
                let slack_test = solid.slack_edges >> j & 1 != 0;
                for k in 0..3 {
                    if masks[k] >> j & 1 == 0 {
                        continue;
                    }
                    let c = e.cross(&tri_edges[k]);
                    if !(c.norm_squared() > sin2 * tri_edge_len2[k]) {
                        continue;
                    }
                    let p = c.dot(&tri.v[k]);
                    let q = p + width;
                    let span = (if q < p { q } else { p }, if q > p { q } else { p });
                    let v = resolved_dot(c, d);
                    if slack_test {
                        let half = solid.inner_radius * c.norm();
                        if state.slack_moving(v, (-half, half), span) {
                            continue;
                        }
                    }
                    let label = SatAxis::EdgePair {
                        solid_edge: j as u16,
                        triangle_edge: k as u8,
                    };
                    let s = solid.silhouette_interval(j, &c);
                    if !state.axis_moving(c, v, s, span, label) {
                        return SweepOutcome::Miss;
                    }
                }
            }
        }
        for (j, e) in solid.edges.iter().enumerate() {
            if solid.prune {
                break;
            }
            let bit = 1u64 << (j & 63);
            if (masks[0] | masks[1] | masks[2]) & bit == 0 {
                continue;
            }
            // Only the wanted, non-parallel pairs give an axis. The triangle
            // projects onto `c = e x t_k` as the segment from `c . v_k`
            // (which is also `c . v_(k+1)`, as `c` is perpendicular to
            // `t_k`) to `c . v_(k+2) = c . v_k + e . n_raw`, since
            // `t_k x (v_(k+2) - v_k) = n_raw` for every `k`: one dot product
            // per axis and one per solid edge.
            let mut axes = [Vec3d::zeros(); 3];
            let mut usable = [false; 3];
            let mut tri_spans = [(0.0, 0.0); 3];
            let mut used = 0;
            let width = e.dot(&tri.n_raw);
            for k in 0..3 {
                if masks[k] & bit != 0 {
                    let c = e.cross(&tri_edges[k]);
                    if c.norm_squared() > sin2 * tri_edge_len2[k] {
                        axes[k] = c;
                        usable[k] = true;
                        let p = c.dot(&tri.v[k]);
                        let q = p + width;
                        tri_spans[k] = (if q < p { q } else { p }, if q > p { q } else { p });
                        used += 1;
                    }
                }
            }
            if used == 0 {
                continue;
            }
            // Skip the projections when the solid's inscribed ball already
            // shows that none of the axes can enter later, leave earlier or
            // separate (see `Sat::slack`); worth its cost only for
            // silhouettes of more than `SLACK_TEST_MIN_SILHOUETTE` vertices.
            if solid.inner_radius > 0.0
                && solid.silhouettes[j][0].len() >= SLACK_TEST_MIN_SILHOUETTE
                && (0..3).all(|k| {
                    !usable[k] || {
                        let c = axes[k];
                        let half = solid.inner_radius * c.norm();
                        state.slack(c, (-half, half), tri_spans[k], d)
                    }
                })
            {
                continue;
            }
            // One axis alone (the common case after pruning) is projected by
            // itself; the same arithmetic as `interval3`, so the same extremes.
            let spans = if let Some(h) = solid.centred_box {
                axes.map(|c| {
                    let r = h.x * c.x.abs() + h.y * c.y.abs() + h.z * c.z.abs();
                    (-r, r)
                })
            } else if used == 1 {
                let k = usable.iter().position(|&u| u).unwrap_or(0);
                let mut spans = [(0.0, 0.0); 3];
                spans[k] = solid.silhouette_interval(j, &axes[k]);
                spans
            } else {
                solid.interval3(j, &axes)
            };
            for k in 0..3 {
                if !usable[k] {
                    continue;
                }
                let label = SatAxis::EdgePair {
                    solid_edge: j as u16,
                    triangle_edge: k as u8,
                };
                if !state.axis(axes[k], spans[k], tri_spans[k], d, label) {
                    return SweepOutcome::Miss;
                }
            }
        }
        let tol = SUPPORT_TOLERANCE * (r + tri.v.iter().map(|p| p.norm()).fold(0.0, f64::max));
        if state.enter.0 <= 0.0 {
            // Touching or overlapping on every axis at the start: the axis of
            // least overlap (a second pass, normalised).
            let (normal, label) = least_overlap(solid, tri);
            let point = contact_point(solid, Vec3d::zeros(), &tri.v, &normal, tol);
            return SweepOutcome::InitiallyTouching(Impact {
                time: 0.0,
                point,
                normal,
                feature: label,
            });
        }
        let (t, axis, label) = state.enter;
        let normal = axis.normalize();
        let point = contact_point(solid, t * d, &tri.v, &normal, tol);
        SweepOutcome::Hit(Impact {
            time: t,
            point,
            normal,
            feature: label,
        })
    }
}

/// `axis . d`, or `None` when its sign is unresolved at the approach bound
/// (the same test as [`super::unresolved_dot`], its products computed once).
#[inline]
fn resolved_dot(axis: Vec3d, d: Vec3d) -> Option<f64> {
    let t = axis.component_mul(&d);
    let dot = t.x + t.y + t.z;
    let scale = t.x.abs() + t.y.abs() + t.z.abs();
    if dot.abs() <= APPROACH_EPS_FACTOR * f64::EPSILON * scale {
        None
    } else {
        Some(dot)
    }
}

/// The running latest entry and earliest exit of the SAT over time.
struct Sat {
    /// Latest entry time, the entering axis oriented from the triangle
    /// towards the solid, and its label.
    enter: (f64, Vec3d, SatAxis),
    exit: f64,
}

impl Sat {
    /// Folds one axis in; `false` when it proves a miss (separated for the
    /// whole step, or entry no longer before exit within the step).
    #[inline]
    fn axis(
        &mut self,
        axis: Vec3d,
        (smin, smax): (f64, f64),
        (tmin, tmax): (f64, f64),
        d: Vec3d,
        label: SatAxis,
    ) -> bool {
        self.axis_moving(
            axis,
            resolved_dot(axis, d),
            (smin, smax),
            (tmin, tmax),
            label,
        )
    }

    /// [`Sat::axis`] given `resolved_dot(axis, d)`.
    #[inline]
    fn axis_moving(
        &mut self,
        axis: Vec3d,
        v: Option<f64>,
        (smin, smax): (f64, f64),
        (tmin, tmax): (f64, f64),
        label: SatAxis,
    ) -> bool {
        let Some(v) = v else {
            // Not moving along this axis: disjoint or only touching
            // projections separate for the whole step.
            return smin < tmax && smax > tmin;
        };
        let (t_in, t_out, normal) = if v < 0.0 {
            ((smin - tmax) / -v, (smax - tmin) / -v, axis)
        } else {
            ((tmin - smax) / v, (tmax - smin) / v, -axis)
        };
        if t_in > self.enter.0 {
            self.enter = (t_in, normal, label);
        }
        // `t_out` is never NaN (finite differences over a resolved,
        // nonzero `v`): a plain comparison gives `min` without its NaN
        // handling.
        self.exit = if t_out < self.exit { t_out } else { self.exit };
        self.enter.0 < self.exit && self.enter.0 <= 1.0 && self.exit > 0.0
    }

    /// Whether an axis is certainly irrelevant given an interval `inner`
    /// that the solid's true projection contains: the true entry is no later
    /// than the inner one and the true exit no earlier, so when the inner
    /// entry does not pass the current latest entry, the inner exit does not
    /// undercut the current earliest exit, and (for a still axis) the inner
    /// interval strictly overlaps, folding the axis in would change nothing.
    #[inline]
    fn slack(
        &self,
        axis: Vec3d,
        (smin, smax): (f64, f64),
        (tmin, tmax): (f64, f64),
        d: Vec3d,
    ) -> bool {
        self.slack_moving(resolved_dot(axis, d), (smin, smax), (tmin, tmax))
    }

    /// [`Sat::slack`] given `resolved_dot(axis, d)`.
    #[inline]
    fn slack_moving(
        &self,
        v: Option<f64>,
        (smin, smax): (f64, f64),
        (tmin, tmax): (f64, f64),
    ) -> bool {
        let Some(v) = v else {
            return smin < tmax && smax > tmin;
        };
        let (t_in, t_out) = if v < 0.0 {
            ((smin - tmax) / -v, (smax - tmin) / -v)
        } else {
            ((tmin - smax) / v, (tmax - smin) / v)
        };
        t_in <= self.enter.0 && t_out >= self.exit
    }
}

/// The axis of least overlap of an overlapping solid, oriented from the
/// triangle towards the solid (axes in the same order as the sweep).
fn least_overlap(solid: &ConvexSolid, tri: &TriangleFrame) -> (Vec3d, SatAxis) {
    let verts = &solid.vertices;
    let mut best = (f64::INFINITY, tri.n, SatAxis::TriangleNormal);
    let mut consider = |axis: Vec3d, label: SatAxis| {
        let len = axis.norm();
        if !(len > 0.0) {
            return;
        }
        let u = axis / len;
        let (smin, smax) = interval(verts, &u);
        let (tmin, tmax) = interval(&tri.v, &u);
        let (below, above) = (smax - tmin, tmax - smin);
        let (depth, side) = if below < above {
            (below, -1.0)
        } else {
            (above, 1.0)
        };
        if depth < best.0 {
            best = (depth, side * u, label);
        }
    };
    consider(tri.n, SatAxis::TriangleNormal);
    for &(n, _, _, index) in &solid.face_axes {
        consider(n, SatAxis::SolidFace(index));
    }
    for (j, e) in solid.edges.iter().enumerate() {
        for k in 0..3 {
            let te = tri.edge(k).1;
            let c = e.cross(&te);
            if c.norm() > PARALLEL_EDGE_SIN * te.norm() {
                consider(
                    c,
                    SatAxis::EdgePair {
                        solid_edge: j as u16,
                        triangle_edge: k as u8,
                    },
                );
            }
        }
    }
    (best.1, best.2)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sweep::{relative_triangle, MAX_COORDINATE_RADII};

    fn floor() -> [Vec3; 3] {
        [
            Vec3::new(-4.0, -4.0, 0.0),
            Vec3::new(4.0, -4.0, 0.0),
            Vec3::new(0.0, 4.0, 0.0),
        ]
    }

    /// A skewed octahedron: 6 vertices, 8 faces.
    fn skewed_octahedron() -> ConvexSolid {
        let v = [
            Vec3::new(1.0, 0.1, 0.0),
            Vec3::new(-0.8, 0.0, 0.2),
            Vec3::new(0.0, 1.2, 0.0),
            Vec3::new(0.1, -0.9, 0.0),
            Vec3::new(0.0, 0.2, 0.7),
            Vec3::new(0.0, 0.0, -1.1),
        ];
        let f: [[u32; 3]; 8] = [
            [0, 2, 4],
            [2, 1, 4],
            [1, 3, 4],
            [3, 0, 4],
            [2, 0, 5],
            [1, 2, 5],
            [3, 1, 5],
            [0, 3, 5],
        ];
        ConvexSolid::from_points(&v, &f).unwrap()
    }

    fn unit_box() -> ConvexSolid {
        ConvexSolid::from_cuboid(Vec3::new(0.5, 0.5, 0.5)).unwrap()
    }

    #[test]
    fn a_falling_box_lands_flat_on_the_floor() {
        let o = sweep_solid_triangle(
            &unit_box(),
            &SolidPlacement::at(Vec3::new(0.0, 0.0, 2.5), Quat::identity()),
            Vec3::new(0.0, 0.0, -4.0),
            1.0,
            &floor(),
        );
        let SweepOutcome::Hit(i) = o else {
            panic!("{o:?}")
        };
        // Bottom face at z = 2 reaches z = 0 after 2 of 4 m.
        assert!((i.time - 0.5).abs() < 1e-15);
        assert_eq!(i.feature, SatAxis::TriangleNormal);
        assert_eq!(i.normal, Vec3d::new(0.0, 0.0, 1.0));
        // The contact region is the whole bottom face: its centre.
        assert!(
            (i.point - Vec3d::new(0.0, 0.0, 0.0)).norm() < 1e-12,
            "{:?}",
            i.point
        );
    }

    #[test]
    fn a_box_sliding_on_the_floor_with_zero_clearance_is_no_impact() {
        let o = sweep_solid_triangle(
            &unit_box(),
            &SolidPlacement::at(Vec3::new(0.0, 0.0, 0.5), Quat::identity()),
            Vec3::new(3.0, 1.0, 0.0),
            0.5,
            &floor(),
        );
        assert_eq!(o, SweepOutcome::Miss);
    }

    #[test]
    fn a_resting_box_that_overlaps_slightly_reports_the_floor_normal() {
        let o = sweep_solid_triangle(
            &unit_box(),
            &SolidPlacement::at(Vec3::new(0.0, 0.0, 0.499), Quat::identity()),
            Vec3::new(3.0, 0.0, 0.0),
            0.1,
            &floor(),
        );
        let SweepOutcome::InitiallyTouching(i) = o else {
            panic!("{o:?}")
        };
        assert_eq!(i.normal, Vec3d::new(0.0, 0.0, 1.0));
        assert_eq!(i.feature, SatAxis::TriangleNormal);
    }

    #[test]
    fn a_box_wholly_behind_the_face_is_not_caught() {
        let o = sweep_solid_triangle(
            &unit_box(),
            &SolidPlacement::at(Vec3::new(0.0, 0.0, -0.5), Quat::identity()),
            Vec3::new(0.0, 0.0, 4.0),
            1.0,
            &floor(),
        );
        assert_eq!(o, SweepOutcome::Miss);
    }

    #[test]
    fn a_tilted_box_lands_on_its_lowest_corner() {
        // Rotated so that one corner points straight down: the corner sits
        // sqrt(3) / 2 below the centre.
        let axis = parapet_math::nalgebra::Unit::new_normalize(Vec3::new(1.0, -1.0, 0.0));
        let rot = Quat::from_axis_angle(&axis, (1.0f32 / 3.0f32.sqrt()).acos());
        let o = sweep_solid_triangle(
            &unit_box(),
            &SolidPlacement::at(Vec3::new(0.0, 0.0, 2.0), rot),
            Vec3::new(0.0, 0.0, -2.0),
            1.0,
            &floor(),
        );
        let SweepOutcome::Hit(i) = o else {
            panic!("{o:?}")
        };
        let expected = (2.0 - 3f64.sqrt() / 2.0) / 2.0;
        // f32 rotation of the corner: a few f32 ulps of a unit length.
        assert!((i.time - expected).abs() < 1e-6, "{} vs {expected}", i.time);
        assert!(
            i.point.z.abs() < 1e-6 && i.point.xy().norm() < 1e-6,
            "{:?}",
            i.point
        );
    }

    #[test]
    fn an_offset_shape_is_swept_where_it_sits() {
        // Body at z = 5, shape 2 m below its origin: bottom face at z = 2.5.
        let place = SolidPlacement {
            body_position: Vec3::new(0.0, 0.0, 5.0),
            body_rotation: Quat::identity(),
            shape_offset: Vec3::new(0.0, 0.0, -2.0),
            shape_rotation: Quat::identity(),
        };
        let o = sweep_solid_triangle(
            &unit_box(),
            &place,
            Vec3::new(0.0, 0.0, -5.0),
            1.0,
            &floor(),
        );
        assert!((o.time().unwrap() - 0.5).abs() < 1e-15, "{o:?}");
    }

    #[test]
    fn a_hull_from_points_matches_the_same_box() {
        let b = unit_box();
        let faces: [[u32; 3]; 12] = [
            [0, 2, 1],
            [1, 2, 3],
            [4, 5, 6],
            [5, 7, 6],
            [0, 1, 4],
            [1, 5, 4],
            [2, 6, 3],
            [3, 6, 7],
            [0, 4, 2],
            [2, 4, 6],
            [1, 3, 5],
            [3, 7, 5],
        ];
        let pts: Vec<Vec3> = b.vertices().iter().map(|v| v.cast::<f32>()).collect();
        let hull = ConvexSolid::from_points(&pts, &faces).unwrap();
        assert_eq!(hull.face_normals().len(), 6);
        let place = SolidPlacement::at(
            Vec3::new(0.3, -0.2, 3.0),
            Quat::from_euler_angles(0.3, 0.2, 0.1),
        );
        let v = Vec3::new(1.0, 0.5, -6.0);
        let (x, y) = (
            sweep_solid_triangle(&b, &place, v, 1.0, &floor()),
            sweep_solid_triangle(&hull, &place, v, 1.0, &floor()),
        );
        // The hull adds face-diagonal edge axes, which never separate more
        // than the box's own axes: the same time to roundoff.
        assert!(
            (x.time().unwrap() - y.time().unwrap()).abs() < 1e-12,
            "{x:?} {y:?}"
        );
    }

    #[test]
    fn a_box_edge_grazing_a_triangle_edge_is_no_hit() {
        // A box beside the triangle whose face x = 4 touches vertex 1 at
        // (4, -4, 0) with zero clearance, moving straight down.
        let o = sweep_solid_triangle(
            &unit_box(),
            &SolidPlacement::at(Vec3::new(4.5, 0.0, 0.5), Quat::identity()),
            Vec3::new(0.0, 0.0, -1.0),
            1.0,
            &floor(),
        );
        // The solid-face axis x does not move and only touches: no hit.
        assert_eq!(o, SweepOutcome::Miss);
    }

    #[test]
    fn silhouettes_keep_every_extreme_perpendicular_to_their_edge() {
        let b = unit_box();
        // A box seen along an edge is a rectangle: 4 of its 8 vertices.
        assert!(b.silhouettes.iter().all(|s| s[0].len() == 4));
        for solid in [skewed_octahedron(), b] {
            for (j, e) in solid.edges().iter().enumerate() {
                for k in 0..16 {
                    let a = (k as f64) * 0.4;
                    let probe = Vec3d::new(a.cos(), a.sin(), 0.3 * a - 1.0);
                    let axis = e.cross(&probe);
                    let [got, ..] = solid.interval3(j, &[axis, axis, axis]);
                    let all = solid.interval(&axis);
                    // Same extremes as all the vertices: the silhouette drops
                    // only interior points and exact duplicates seen along
                    // the edge, whose projections differ by `axis . e`, zero
                    // up to one rounding (1e-15 of these unit lengths).
                    assert!(
                        (got.0 - all.0).abs() < 1e-15 && (got.1 - all.1).abs() < 1e-15,
                        "edge {j} probe {k}: {got:?} vs {all:?}"
                    );
                }
            }
        }
    }

    /// The pure function's outcome and the prepared sweep's, built once and
    /// reused for every triangle in `tris`: equal bit for bit (`f64` fields
    /// compared by their bits, so even the sign of a zero must agree).
    fn assert_prepared_matches(
        solid: &ConvexSolid,
        place: &SolidPlacement,
        vel: Vec3,
        dt: f32,
        tris: &[[Vec3; 3]],
    ) -> Vec<SweepOutcome<SatAxis>> {
        let bits = |o: &SweepOutcome<SatAxis>| match o {
            SweepOutcome::Hit(i) | SweepOutcome::InitiallyTouching(i) => Some((
                i.time.to_bits(),
                i.point.map(f64::to_bits),
                i.normal.map(f64::to_bits),
                i.feature,
            )),
            _ => None,
        };
        let prepared = SolidSweep::new(solid, place, vel, dt);
        tris.iter()
            .map(|tri| {
                let pure = sweep_solid_triangle(solid, place, vel, dt, tri);
                let reused = match &prepared {
                    Ok(sweep) => sweep.triangle(tri),
                    Err(e) => SweepOutcome::Refused(*e),
                };
                assert_eq!(pure, reused, "{place:?} {vel:?} {dt} {tri:?}");
                assert_eq!(bits(&pure), bits(&reused));
                pure
            })
            .collect()
    }

    #[test]
    fn a_prepared_sweep_gives_the_pure_functions_outcomes_bit_for_bit() {
        // Hand-built cases (landing flat, sliding with zero clearance,
        // resting with overlap, wholly behind, offset shape, edge grazing)
        // and random boxes and hulls, poses, motions and triangles, each
        // prepared once and swept against 8 triangles in turn.
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut unit = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed >> 11) as f32 / (1u64 << 53) as f32
        };
        let b = unit_box();
        let hand: [(Vec3, Vec3, f32); 6] = [
            (Vec3::new(0.0, 0.0, 2.5), Vec3::new(0.0, 0.0, -4.0), 1.0),
            (Vec3::new(0.0, 0.0, 0.5), Vec3::new(3.0, 1.0, 0.0), 0.5),
            (Vec3::new(0.0, 0.0, 0.499), Vec3::new(3.0, 0.0, 0.0), 0.1),
            (Vec3::new(0.0, 0.0, -0.5), Vec3::new(0.0, 0.0, 4.0), 1.0),
            (Vec3::new(4.5, 0.0, 0.5), Vec3::new(0.0, 0.0, -1.0), 1.0),
            (Vec3::new(0.3, -0.2, 3.0), Vec3::new(1.0, 0.5, -6.0), 1.0),
        ];
        let mut seen = [0usize; 4];
        let mut tally = |outs: &[SweepOutcome<SatAxis>]| {
            for o in outs {
                seen[match o {
                    SweepOutcome::Hit(_) => 0,
                    SweepOutcome::InitiallyTouching(_) => 1,
                    SweepOutcome::Miss => 2,
                    SweepOutcome::Refused(_) => 3,
                }] += 1;
            }
        };
        for (p, v, dt) in hand {
            let place = SolidPlacement::at(p, Quat::identity());
            tally(&assert_prepared_matches(&b, &place, v, dt, &[floor()]));
        }
        let hull = skewed_octahedron();
        for case in 0..2_000 {
            let solid = if case % 2 == 0 {
                ConvexSolid::from_cuboid(Vec3::new(0.05 + unit(), 0.05 + unit(), 0.05 + unit()))
                    .unwrap()
            } else {
                hull.clone()
            };
            let v = |u: &mut dyn FnMut() -> f32| {
                Vec3::new(4.0 * u() - 2.0, 4.0 * u() - 2.0, 4.0 * u() - 2.0)
            };
            let tris: Vec<[Vec3; 3]> = (0..8)
                .map(|_| [v(&mut unit), v(&mut unit), v(&mut unit)])
                .collect();
            let start = v(&mut unit);
            let place = SolidPlacement {
                body_position: start,
                body_rotation: Quat::from_euler_angles(3.0 * unit(), 3.0 * unit(), 3.0 * unit()),
                shape_offset: if case % 3 == 0 {
                    Vec3::zeros()
                } else {
                    v(&mut unit) * 0.3
                },
                shape_rotation: if case % 5 == 0 {
                    Quat::from_euler_angles(unit(), unit(), unit())
                } else {
                    Quat::identity()
                },
            };
            let vel = (v(&mut unit) * 0.5 - start) * (0.5 + 2.0 * unit());
            // Every 50th case is out of the precision domain: a placement
            // refused before any triangle, or one triangle that is refused.
            let (vel, dt, tris) = match case % 50 {
                7 => (Vec3::new(f32::NAN, 0.0, 0.0), 1.0, tris),
                17 => (vel, -1.0, tris),
                27 => {
                    let mut tris = tris;
                    tris[3] = [Vec3::zeros(), Vec3::x(), Vec3::x() * 2.0];
                    (vel, 1.0, tris)
                }
                _ => (vel, 1.0, tris),
            };
            tally(&assert_prepared_matches(&solid, &place, vel, dt, &tris));
        }
        // The cases reach hits, initial contacts, misses and refusals.
        assert!(seen.iter().all(|&n| n > 10), "{seen:?}");
    }

    #[test]
    fn the_quick_placement_acceptance_agrees_with_the_detailed_checks() {
        // Each placement limit just inside and just outside, and non-finite
        // inputs: the same refusal or the same accepted values either way.
        let b = unit_box();
        let r = b.bounding_radius();
        let edge = (MAX_COORDINATE_RADII * r) as f32;
        let ok = SolidPlacement::at(Vec3::new(0.0, 0.0, 1.0), Quat::identity());
        let mut cases: Vec<(SolidPlacement, Vec3, f32)> = vec![(ok, Vec3::x(), 1.0)];
        for x in [
            edge * 0.999_99,
            edge * 1.000_01,
            f32::NAN,
            f32::INFINITY,
            1.0e7,
        ] {
            let mut p = ok;
            p.body_position.x = x;
            cases.push((p, Vec3::x(), 1.0));
            let mut p = ok;
            p.shape_offset.y = x;
            cases.push((p, Vec3::x(), 1.0));
            cases.push((ok, Vec3::new(0.0, x, 0.0), 1.0));
            cases.push((ok, Vec3::x(), x));
        }
        for w in [1.0f32, 1.000_004, 1.000_006, f32::NAN] {
            let q = parapet_math::nalgebra::Quaternion::new(w, 0.0, 0.0, 0.0);
            let mut p = ok;
            p.body_rotation = Quat::new_unchecked(q);
            cases.push((p, Vec3::x(), 1.0));
            let mut p = ok;
            p.shape_rotation = Quat::new_unchecked(q);
            cases.push((p, Vec3::x(), 1.0));
        }
        cases.push((ok, Vec3::x(), -1.0));
        cases.push((ok, Vec3::x() * 1.0e6, 1.0));
        for (place, vel, dt) in &cases {
            assert_eq!(
                checked_placement(&b, place, *vel, *dt),
                placement_reason(&b, place, *vel, *dt),
                "{place:?} {vel:?} {dt}"
            );
        }
    }

    #[test]
    fn the_path_bounds_never_reject_a_triangle_that_the_test_would_touch() {
        // The same random sweeps with and without the swept-bounds
        // rejection: the rejection may only turn a miss into a miss.
        let mut seed = 0x1234_5678_9abc_def1u64;
        let mut unit = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed >> 11) as f32 / (1u64 << 53) as f32
        };
        let mut rejected = 0;
        for _ in 0..5_000 {
            let solid =
                ConvexSolid::from_cuboid(Vec3::new(0.05 + unit(), 0.05 + unit(), 0.05 + unit()))
                    .unwrap();
            let v = |u: &mut dyn FnMut() -> f32| {
                Vec3::new(6.0 * u() - 3.0, 6.0 * u() - 3.0, 6.0 * u() - 3.0)
            };
            let tri = [v(&mut unit), v(&mut unit), v(&mut unit)];
            let place = SolidPlacement {
                body_position: v(&mut unit),
                body_rotation: Quat::from_euler_angles(3.0 * unit(), 3.0 * unit(), 3.0 * unit()),
                shape_offset: v(&mut unit) * 0.2,
                shape_rotation: Quat::identity(),
            };
            let vel = v(&mut unit);
            let Ok(sweep) = SolidSweep::new(&solid, &place, vel, 1.0) else {
                continue;
            };
            if domain::triangle(&tri, sweep.center, sweep.r).is_err() {
                continue;
            }
            if sweep.bounds.misses(&tri) {
                rejected += 1;
                let world_tri = relative_triangle(&tri, sweep.center);
                let inv = &sweep.inv;
                let frame = TriangleFrame::new([
                    inv * world_tri[0],
                    inv * world_tri[1],
                    inv * world_tri[2],
                ]);
                assert_eq!(
                    sweep.sat(&frame),
                    SweepOutcome::Miss,
                    "{place:?} {vel:?} {tri:?}"
                );
            }
        }
        assert!(rejected > 500, "{rejected}");
    }

    #[test]
    fn gauss_map_pruning_changes_no_outcome() {
        // The same sweeps with and without pruning of the edge-pair axes:
        // identical outcomes (time, point, normal and axis, bit for bit),
        // over random boxes, an uneven icosahedron and a skewed octahedron,
        // random poses, motions and triangles, including the degenerate
        // case of a solid edge parallel to a triangle edge.
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut unit = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed >> 11) as f32 / (1u64 << 53) as f32
        };
        let p = 1.618_034f32;
        let ico: Vec<Vec3> = [
            (-1.0, p, 0.0),
            (1.0, p, 0.0),
            (-1.0, -p, 0.0),
            (1.0, -p, 0.0),
            (0.0, -1.0, p),
            (0.0, 1.0, p),
            (0.0, -1.0, -p),
            (0.0, 1.0, -p),
            (p, 0.0, -1.0),
            (p, 0.0, 1.0),
            (-p, 0.0, -1.0),
            (-p, 0.0, 1.0),
        ]
        .iter()
        .map(|&(x, y, z)| Vec3::new(0.2 * x, 0.15 * y, 0.1 * z))
        .collect();
        let ico_faces: [[u32; 3]; 20] = [
            [0, 11, 5],
            [0, 5, 1],
            [0, 1, 7],
            [0, 7, 10],
            [0, 10, 11],
            [1, 5, 9],
            [5, 11, 4],
            [11, 10, 2],
            [10, 7, 6],
            [7, 1, 8],
            [3, 9, 4],
            [3, 4, 2],
            [3, 2, 6],
            [3, 6, 8],
            [3, 8, 9],
            [4, 9, 5],
            [2, 4, 11],
            [6, 2, 10],
            [8, 6, 7],
            [9, 8, 1],
        ];
        let mut solids = vec![
            ConvexSolid::from_points(&ico, &ico_faces).unwrap(),
            skewed_octahedron(),
        ];
        assert!(solids.iter().all(|s| s.prune && !s.arcs.is_empty()));
        // The icosahedron's 20 face normals in 10 antipodal pairs.
        assert_eq!(solids[0].arc_normals[0].len(), 10);
        // The icosahedron's 30 edges in 15 antipodal pairs, the skewed
        // octahedron's 12 (none antipodal).
        assert_eq!((solids[0].arcs.len(), solids[1].arcs.len()), (15, 12));
        let mut compared = [0usize; 3];
        for case in 0..20_000 {
            if case % 1000 == 0 {
                let h = Vec3::new(0.05 + unit(), 0.05 + unit(), 0.05 + unit());
                solids.truncate(2);
                solids.push(ConvexSolid::from_cuboid(h).unwrap());
            }
            let solid = &solids[case % 3];
            let mut plain = solid.clone();
            plain.prune = false;
            let v = |u: &mut dyn FnMut() -> f32| {
                Vec3::new(4.0 * u() - 2.0, 4.0 * u() - 2.0, 4.0 * u() - 2.0)
            };
            let mut tri = [v(&mut unit), v(&mut unit), v(&mut unit)];
            if case % 7 == 0 {
                // A triangle edge along the solid's first edge direction
                // (identity rotation below).
                let e = solid.edges()[0].cast::<f32>();
                tri[1] = tri[0] + 1.5 * e;
            }
            let start = v(&mut unit);
            let rot = if case % 7 == 0 {
                Quat::identity()
            } else {
                Quat::from_euler_angles(3.0 * unit(), 3.0 * unit(), 3.0 * unit())
            };
            let place = SolidPlacement::at(start, rot);
            let aim = v(&mut unit) * 0.5;
            let vel = (aim - start) * (0.5 + 2.0 * unit());
            let a = sweep_solid_triangle(solid, &place, vel, 1.0, &tri);
            let b = sweep_solid_triangle(&plain, &place, vel, 1.0, &tri);
            assert_eq!(a, b, "case {case}");
            match a {
                SweepOutcome::Hit(_) => compared[0] += 1,
                SweepOutcome::InitiallyTouching(_) => compared[1] += 1,
                _ => compared[2] += 1,
            }
        }
        // The random cases reach hits, initial contacts and misses.
        assert!(compared.iter().all(|&n| n > 100), "{compared:?}");
    }
}
