//! The separating-axis test over time of a translating convex solid (a
//! box or hull that cannot turn) against a static one-sided triangle: the
//! algorithm behind [`sweep_solid_triangle`](super::sweep_solid_triangle),
//! whose file (`solid_triangle.rs`) states the method, its layers, its
//! source and its precision domain.
//!
//! # Method
//! Each candidate axis (the triangle's normal, the solid's face normals,
//! the non-parallel edge pairs) gives one interval of time during which the
//! moving projections overlap; [`Sat`] folds them into the latest entry and
//! the earliest exit. Source: Ericson, *Real-Time Collision Detection*
//! 5.5.8. Precision domain: `f64`, in the solid's shape frame, as for
//! `sweep_solid_triangle`.

use parapet_math::Vec3d;

use super::solid_contact_point::{contact_point, SUPPORT_TOLERANCE};
use super::{Impact, SweepOutcome, APPROACH_EPS_FACTOR};
use crate::solid::gauss_map::gauss_candidates;
use crate::solid::inscribed_ball::SLACK_TEST_MIN_SILHOUETTE;
use crate::solid::tables::interval;
use crate::solid::ConvexSolid;
use crate::triangle::TriangleFrame;

/// A triangle edge and a solid edge whose cross product is shorter than this
/// fraction of the product of their lengths are treated as parallel and give
/// no candidate axis (dimensionless; the sine of about 1e-7 rad; an axis from
/// nearly parallel edges is numerically meaningless and is covered by the
/// face axes).
pub(crate) const PARALLEL_EDGE_SIN: f64 = 1.0e-7;

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

/// The separating-axis test over time in the shape frame: the solid moves
/// by `d` (shape frame), its farthest-vertex radius is `r`, the triangle is
/// relative to the shape origin; the impact is in the shape frame.
pub(crate) fn sat(
    solid: &ConvexSolid,
    d: Vec3d,
    r: f64,
    tri: &TriangleFrame,
) -> SweepOutcome<SatAxis> {
    let tables = solid.tables();
    // One-sided: wholly behind the face plane (every vertex at or below it).
    let plane = tri.n.dot(&tri.v[0]);
    let support = tables.support_interval(&tri.n);
    if support.1 <= plane {
        return SweepOutcome::Miss;
    }
    // Candidate axes in order: triangle normal, solid faces, edge pairs.
    // Entry and exit times do not depend on an axis' length, so the axes
    // are used unnormalised; only the reported normal is normalised.
    let mut state = Sat {
        enter: (f64::NEG_INFINITY, Vec3d::zeros(), SatAxis::TriangleNormal),
        exit: f64::INFINITY,
    };
    if !face_axes(&mut state, solid, tri, d, support, plane)
        || !edge_axes(&mut state, solid, tri, d)
    {
        return SweepOutcome::Miss;
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

/// Folds in the triangle normal (the solid's interval on it is `support`,
/// the triangle's is the point `plane`) and the solid's face axes;
/// `false` when one of them proves a miss.
fn face_axes(
    state: &mut Sat,
    solid: &ConvexSolid,
    tri: &TriangleFrame,
    d: Vec3d,
    support: (f64, f64),
    plane: f64,
) -> bool {
    if !state.axis(tri.n, support, (plane, plane), d, SatAxis::TriangleNormal) {
        return false;
    }
    for &(axis, lo, hi, index) in &solid.tables().face_axes {
        if !state.axis(
            axis,
            (lo, hi),
            interval(&tri.v, &axis),
            d,
            SatAxis::SolidFace(index),
        ) {
            return false;
        }
    }
    true
}

/// The triangle's edges `t_k = v_(k+1) - v_k` and their squared lengths.
struct TriangleEdges {
    e: [Vec3d; 3],
    len2: [f64; 3],
}

/// Folds in the edge-pair axes: on a hull's Gauss map only the pairs that
/// can be faces of the Minkowski difference (`solid/gauss_map.rs`), else
/// every pair; `false` when one of them proves a miss.
fn edge_axes(state: &mut Sat, solid: &ConvexSolid, tri: &TriangleFrame, d: Vec3d) -> bool {
    let e = [tri.edge(0).1, tri.edge(1).1, tri.edge(2).1];
    let edges = TriangleEdges {
        e,
        len2: [
            e[0].norm_squared(),
            e[1].norm_squared(),
            e[2].norm_squared(),
        ],
    };
    if solid.tables().prune {
        pruned_edge_axes(state, solid, tri, &edges, d)
    } else {
        all_edge_axes(state, solid, tri, &edges, d)
    }
}

/// The triangle's projection on the edge-pair axis `c = e x t_k`: from
/// `c . v_k` (also `c . v_(k+1)`, as `c` is perpendicular to `t_k`) to
/// `c . v_(k+2) = c . v_k + e . n_raw` (`width`), since
/// `t_k x (v_(k+2) - v_k) = n_raw` for every `k`: one dot product per axis
/// and one per solid edge.
#[inline]
fn edge_pair_span(c: &Vec3d, v: &Vec3d, width: f64) -> (f64, f64) {
    let p = c.dot(v);
    let q = p + width;
    (if q < p { q } else { p }, if q > p { q } else { p })
}

/// [`edge_axes`] for a pruned hull: only the surviving pairs, in the order
/// of [`all_edge_axes`] (solid edge, then triangle edge), each axis alone.
/// An axis that the inscribed ball shows irrelevant is skipped by itself:
/// it changes neither the latest entry nor the earliest exit, whatever was
/// folded before or comes after (see `Sat::slack`), so the outcome is the
/// same as the plain loop's.
fn pruned_edge_axes(
    state: &mut Sat,
    solid: &ConvexSolid,
    tri: &TriangleFrame,
    edges: &TriangleEdges,
    d: Vec3d,
) -> bool {
    let tables = solid.tables();
    let masks = gauss_candidates(tables, &edges.e, &edges.len2);
    let sin2 = PARALLEL_EDGE_SIN * PARALLEL_EDGE_SIN;
    let mut classes = masks[0] | masks[1] | masks[2];
    while classes != 0 {
        let j = classes.trailing_zeros() as usize;
        classes &= classes - 1;
        let e = solid.edges()[j];
        let width = e.dot(&tri.n_raw);
        let slack_test = tables.slack_edges >> j & 1 != 0;
        for (k, mask) in masks.iter().enumerate() {
            if mask >> j & 1 == 0 {
                continue;
            }
            let c = e.cross(&edges.e[k]);
            if !(c.norm_squared() > sin2 * edges.len2[k]) {
                continue;
            }
            let span = edge_pair_span(&c, &tri.v[k], width);
            let v = resolved_dot(c, d);
            if slack_test {
                let half = tables.inner_radius * c.norm();
                if state.slack_moving(v, (-half, half), span) {
                    continue;
                }
            }
            let label = SatAxis::EdgePair {
                solid_edge: j as u16,
                triangle_edge: k as u8,
            };
            let s = tables.silhouette_interval(j, &c);
            if !state.axis_moving(c, v, s, span, label) {
                return false;
            }
        }
    }
    true
}

/// [`edge_axes`] over every non-parallel pair of a solid edge direction and
/// a triangle edge, solid edge first.
fn all_edge_axes(
    state: &mut Sat,
    solid: &ConvexSolid,
    tri: &TriangleFrame,
    edges: &TriangleEdges,
    d: Vec3d,
) -> bool {
    let tables = solid.tables();
    let sin2 = PARALLEL_EDGE_SIN * PARALLEL_EDGE_SIN;
    for (j, e) in solid.edges().iter().enumerate() {
        // Only the non-parallel pairs give an axis.
        let mut axes = [Vec3d::zeros(); 3];
        let mut usable = [false; 3];
        let mut tri_spans = [(0.0, 0.0); 3];
        let mut used = 0;
        let width = e.dot(&tri.n_raw);
        for k in 0..3 {
            let c = e.cross(&edges.e[k]);
            if c.norm_squared() > sin2 * edges.len2[k] {
                axes[k] = c;
                usable[k] = true;
                tri_spans[k] = edge_pair_span(&c, &tri.v[k], width);
                used += 1;
            }
        }
        if used == 0 {
            continue;
        }
        // Skip the projections when the solid's inscribed ball already
        // shows that none of the axes can enter later, leave earlier or
        // separate (see `Sat::slack`); worth its cost only for
        // silhouettes of more than `SLACK_TEST_MIN_SILHOUETTE` vertices.
        if tables.inner_radius > 0.0
            && tables.silhouettes[j][0].len() >= SLACK_TEST_MIN_SILHOUETTE
            && (0..3).all(|k| {
                !usable[k] || {
                    let c = axes[k];
                    let half = tables.inner_radius * c.norm();
                    state.slack(c, (-half, half), tri_spans[k], d)
                }
            })
        {
            continue;
        }
        let spans = edge_spans(solid, j, &axes, &usable, used);
        for k in 0..3 {
            if !usable[k] {
                continue;
            }
            let label = SatAxis::EdgePair {
                solid_edge: j as u16,
                triangle_edge: k as u8,
            };
            if !state.axis(axes[k], spans[k], tri_spans[k], d, label) {
                return false;
            }
        }
    }
    true
}

/// The solid's projection intervals on the edge-pair axes `axes` of edge
/// direction `j` (only the `usable` ones, `used` of them, are read): closed
/// form for a centred box; one axis alone (the common case after pruning)
/// projected by itself, with the same arithmetic as `interval3`, so the
/// same extremes; else three at once.
fn edge_spans(
    solid: &ConvexSolid,
    j: usize,
    axes: &[Vec3d; 3],
    usable: &[bool; 3],
    used: usize,
) -> [(f64, f64); 3] {
    let tables = solid.tables();
    if let Some(h) = solid.centred_box() {
        axes.map(|c| crate::solid::centred_box::centred_interval(h, &c))
    } else if used == 1 {
        let k = usable.iter().position(|&u| u).unwrap_or(0);
        let mut spans = [(0.0, 0.0); 3];
        spans[k] = tables.silhouette_interval(j, &axes[k]);
        spans
    } else {
        tables.interval3(j, axes)
    }
}

/// `axis . d`, or `None` when its sign is unresolved at the approach bound
/// (the same test as [`super::unresolved_dot`], its products computed once).
#[inline]
pub(crate) fn resolved_dot(axis: Vec3d, d: Vec3d) -> Option<f64> {
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
pub(crate) struct Sat {
    /// Latest entry time, the entering axis oriented from the triangle
    /// towards the solid, and its label.
    pub(crate) enter: (f64, Vec3d, SatAxis),
    pub(crate) exit: f64,
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
}

/// The axis of least overlap of an overlapping solid, oriented from the
/// triangle towards the solid (axes in the same order as the sweep).
fn least_overlap(solid: &ConvexSolid, tri: &TriangleFrame) -> (Vec3d, SatAxis) {
    let verts = solid.vertices();
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
    for &(n, _, _, index) in &solid.tables().face_axes {
        consider(n, SatAxis::SolidFace(index));
    }
    for (j, e) in solid.edges().iter().enumerate() {
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
