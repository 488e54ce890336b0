//! The tables a [`ConvexSolid`] keeps for its sweeps, each serving one layer
//! of `sweep_solid_triangle` (see `sweep/solid_triangle.rs`):
//!
//! - the **face axes** with the solid's projection interval on each, and the
//!   vertices by coordinate (projection loops the compiler vectorises), for
//!   the support intervals of this file;
//! - the **silhouettes** seen along each edge direction
//!   (`silhouette.rs`);
//! - the **inscribed ball** and the edge directions worth testing against it
//!   (`inscribed_ball.rs`, its test in `sweep/solid_inscribed_ball.rs`);
//! - the **Gauss-map arcs** of the edges (`gauss_map.rs`);
//! - the **local bounding box** (`local_box` here, read by `sweep/solid_path_bounds.rs`) and, for a box centred
//!   on its origin, its half extents (`centred_box.rs`).
//!
//! Method: every table is computed once (`tables_build.rs`), on the solid's
//! first sweep, from
//! its vertices, face normals, edge directions and edges, in `f64`, and
//! read as is by every later sweep (a contact test, which builds a solid
//! for one call, never builds them); a
//! table only ever lets a sweep skip work whose outcome it already knows,
//! so each sweep gives bit for bit the outcome of the plain
//! separating-axis test over time. Precision domain: the solid's own (see
//! [`crate::solid`]).

use parapet_math::Vec3d;

use super::centred_box::centred_interval;

/// Solids with at most this many vertices have their support projections
/// kept on the stack (a count).
pub(crate) const SUPPORT_INLINE: usize = 16;

/// A face axis: the merged unit normal, the solid's projection interval on
/// it `(min, max)` (shape frame) and the index of the face normal it came
/// from.
pub(crate) type FaceAxis = (Vec3d, f64, f64, u16);

/// The vertices' axis-aligned box in the shape frame: centre and half
/// extents.
pub(crate) fn local_box(vertices: &[Vec3d]) -> (Vec3d, Vec3d) {
    let lo = vertices
        .iter()
        .fold(Vec3d::repeat(f64::INFINITY), |a, v| a.inf(v));
    let hi = vertices
        .iter()
        .fold(Vec3d::repeat(f64::NEG_INFINITY), |a, v| a.sup(v));
    let c = (lo + hi) * 0.5;
    (c, (hi - c).sup(&(c - lo)))
}

/// The sweeps' tables of one solid (see the module docs).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct SweepTables {
    /// Face normals merged up to sign (the SAT face axes), each with the
    /// solid's local projection interval `(min, max)` and the index of the
    /// first face normal it came from.
    pub(crate) face_axes: Vec<FaceAxis>,
    /// The vertices' coordinates by axis (x, y, z), for projection loops
    /// that the compiler can vectorise.
    pub(crate) soa: [Vec<f64>; 3],
    /// For each edge direction, the coordinates (by axis) of the vertices on
    /// the silhouette seen along that edge: the only candidates for the
    /// extremes along any axis perpendicular to the edge (every edge-pair
    /// axis `edge x triangle_edge` is such an axis).
    pub(crate) silhouettes: Vec<[Vec<f64>; 3]>,
    /// Radius of a ball around the shape origin inside the solid (the
    /// smallest distance from the origin to a face plane, shrunk by a
    /// relative `1e-9`), or 0 when the origin is not inside.
    pub(crate) inner_radius: f64,
    /// Bit `j` (for edge directions `j` below 64) set when the
    /// inscribed-ball test is worth its cost for edge direction `j`
    /// (`inscribed_ball.rs`, its test in `sweep/solid_inscribed_ball.rs`).
    pub(crate) slack_edges: u64,
    /// Every true edge of the solid as its direction class (index into the
    /// solid's edges) and the indices in `arc_normals` of the outward unit
    /// normals of its two faces, each up to sign: the arc of the edge on the
    /// solid's Gauss map, for pruning edge-pair axes (`gauss_map.rs`).
    /// The first `arcs_same` arcs have both normals with the sign stored,
    /// the rest exactly one of them negated. Empty when pruning is off.
    pub(crate) arcs: Vec<(u16, u16, u16)>,
    /// How many of `arcs` (the first) have both normals as stored.
    pub(crate) arcs_same: usize,
    /// The face normals that `arcs` refers to, by axis (x, y, z): one of
    /// each pair of antipodal or parallel face normals (within
    /// [`PARALLEL_DIRECTION_COS`]) stands for both.
    pub(crate) arc_normals: [Vec<f64>; 3],
    /// Whether `arcs` lists every edge of the boundary; otherwise every
    /// edge-pair axis is used.
    pub(crate) prune: bool,
    /// Centre of the vertices' axis-aligned box in the shape frame (metres).
    pub(crate) box_center: Vec3d,
    /// Half extents of that box about `box_center` (metres), each the
    /// larger of the two rounded distances to the extremes (within one
    /// rounding of the true extent; the swept bounds' relative margin
    /// [`crate::sweep::SWEPT_BOUNDS_MARGIN`] covers far more).
    pub(crate) box_half: Vec3d,
    /// The half extents of a box centred on the shape origin with its faces
    /// along the shape axes: its projection on any axis `a` is
    /// `+-(h . |a|)`, no loop over vertices needed (`centred_box.rs`).
    pub(crate) centred_box: Option<Vec3d>,
}

/// The vertices' coordinates by axis (x, y, z).
pub(crate) fn soa(vertices: &[Vec3d]) -> [Vec<f64>; 3] {
    [0, 1, 2].map(|k| vertices.iter().map(|v| v[k]).collect())
}

/// Projection interval of points on an axis.
#[inline]
pub(crate) fn interval(points: &[Vec3d], axis: &Vec3d) -> (f64, f64) {
    points
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), p| {
            let x = axis.dot(p);
            (lo.min(x), hi.max(x))
        })
}

impl SweepTables {
    /// Turns the Gauss-map pruning off (every edge-pair axis is tested).
    #[cfg(test)]
    pub(crate) fn disable_pruning(&mut self) {
        self.prune = false;
    }

    /// The solid's projection interval on `axis` (shape frame).
    #[inline]
    pub(crate) fn interval(&self, axis: &Vec3d) -> (f64, f64) {
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
    pub(crate) fn support_interval(&self, axis: &Vec3d) -> (f64, f64) {
        match self.centred_box {
            Some(h) => centred_interval(h, axis),
            None => self.interval(axis),
        }
    }
}
