//! How a solid's sweep tables are built ([`SweepTables::new`]): the face
//! axes here, the silhouettes (`silhouette.rs`), the inscribed ball
//! (`inscribed_ball.rs`), the Gauss-map arcs (`gauss_map.rs`) and the local
//! box (`tables.rs`), each from the solid's vertices, face normals, edge
//! directions and edges.
//!
//! Method and precision domain: those of `tables.rs` (every table in `f64`,
//! computed once, on the solid's first sweep).

use parapet_math::Vec3d;

use super::gauss_map::hull_arcs;
use super::inscribed_ball::{inner_radius, slack_edges};
use super::silhouette::silhouette;
use super::tables::{interval, local_box, soa, FaceAxis, SweepTables};
use super::{ConvexSolid, PARALLEL_DIRECTION_COS};

/// The SAT face axes: face normals merged up to sign, with the solid's
/// projection interval along each.
fn face_axes(vertices: &[Vec3d], normals: &[Vec3d]) -> Vec<FaceAxis> {
    let mut axes: Vec<FaceAxis> = Vec::new();
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

impl SweepTables {
    /// The tables of `solid`, from its vertices, merged face normals and
    /// edge directions, and (for a hull) the Gauss-map arcs of its edges. A
    /// box centred on its origin has only 9 edge-pair axes on 4-vertex
    /// silhouettes: pruning them costs more than it saves, and its
    /// projections have a closed form.
    pub(crate) fn new(solid: &ConvexSolid) -> Self {
        let vertices = solid.vertices();
        let face_axes = face_axes(vertices, solid.face_normals());
        let inner_radius = inner_radius(&face_axes);
        let silhouettes: Vec<[Vec<f64>; 3]> = solid
            .edges()
            .iter()
            .map(|e| silhouette(vertices, e))
            .collect();
        let (box_center, box_half) = local_box(vertices);
        let centred_box = solid.centred_box();
        let (arcs, arcs_same, arc_normals, prune) = if centred_box.is_some() {
            (Vec::new(), 0, [Vec::new(), Vec::new(), Vec::new()], false)
        } else {
            hull_arcs(solid)
        };
        let slack_edges = if centred_box.is_some() {
            0
        } else {
            slack_edges(inner_radius, &silhouettes)
        };
        SweepTables {
            face_axes,
            soa: soa(vertices),
            silhouettes,
            inner_radius,
            slack_edges,
            arcs,
            arcs_same,
            arc_normals,
            prune,
            box_center,
            box_half,
            centred_box,
        }
    }
}
