//! Active edges of a triangle mesh: which triangle edges are real features
//! of the surface and which are internal seams of a tessellation.
//!
//! Problem: a solid sliding over a flat floor made of many triangles touches
//! the edges between them. Tested triangle by triangle, such a seam looks
//! like the rim of a cliff: the contact against the neighbouring triangle
//! may take the seam's edge (or a box face touching it) as its normal and
//! stop the solid, or throw it up ("ghost contacts", "internal edges"; the
//! tessellated-floor limitation of docs/continuous-collision.md, "Known
//! limitations").
//!
//! Method (as Jolt's active edges, J. Rouwe, `ActiveEdges.h`, and Bullet's
//! internal-edge utility): an edge is *active*, that is a feature that may
//! give a contact normal other than its triangle's face normal, when
//! - it is on the boundary (no other triangle shares it), or shared by more
//!   than two triangles, or the two triangles wind it the same way
//!   (inconsistent orientation), or either triangle is degenerate; or
//! - it is a convex crease: the neighbour's far vertex lies behind this
//!   triangle's plane and the angle between the two face normals exceeds
//!   [`ACTIVE_EDGE_ANGLE`].
//!
//! Flat seams, gentle creases and concave creases are inactive: a contact
//! found there can only push along the face normal. Edges are matched by
//! their end positions (exact `f32` equality, `-0.0` equal to `0.0`), not by
//! indices, so that meshes given as unwelded soups are treated alike.
//! Precision domain: face normals and the crease test in `f64` from the
//! `f32` vertices (exact differences and products up to rounding of the
//! final sums); a crease within rounding of flat counts as flat.

use std::collections::HashMap;

use parapet_math::{Vec3, Vec3d};

/// The crease angle (rad) above which a convex edge between two triangles
/// is a real feature: 5 degrees, Jolt's default
/// (`cDefaultActiveEdgeCosThresholdAngle = cos(5 deg)`). Gentler creases
/// are seams of a tessellated curved surface (a terrain, a road), where an
/// edge normal would only be a bump.
pub const ACTIVE_EDGE_ANGLE: f64 = 5.0 * std::f64::consts::PI / 180.0;

/// The active edges of one triangle: bit `k` set when edge `k` (from corner
/// `k` to corner `(k + 1) % 3`) is active.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ActiveEdges(u8);

impl ActiveEdges {
    /// Every edge active: a lone triangle, whose every edge is a boundary.
    pub const ALL: ActiveEdges = ActiveEdges(0b111);
    /// No edge active: an interior triangle of a flat or gently curved mesh.
    pub const NONE: ActiveEdges = ActiveEdges(0);

    /// The set with edge `k` (0, 1 or 2) active for each `true` of `edges`.
    pub fn from_edges(edges: [bool; 3]) -> ActiveEdges {
        ActiveEdges(edges[0] as u8 | (edges[1] as u8) << 1 | (edges[2] as u8) << 2)
    }

    /// Whether edge `k` (corner `k` to corner `(k + 1) % 3`) is active;
    /// `false` for `k > 2`.
    pub fn edge(self, k: usize) -> bool {
        k < 3 && self.0 & (1 << k) != 0
    }

    /// Whether corner `k` is an active feature: one of its two edges
    /// (`k` and `(k + 2) % 3`) is active. `false` for `k > 2`.
    pub fn vertex(self, k: usize) -> bool {
        k < 3 && (self.edge(k) || self.edge((k + 2) % 3))
    }

    /// Whether every edge is active (the triangle behaves as a lone one).
    pub fn all(self) -> bool {
        self == ActiveEdges::ALL
    }
}

impl Default for ActiveEdges {
    /// [`ActiveEdges::ALL`]: without adjacency, every edge is a feature.
    fn default() -> Self {
        ActiveEdges::ALL
    }
}

/// An undirected edge by the position keys of its ends (smaller first).
type EdgeKey = ([u32; 3], [u32; 3]);

/// Position key of a vertex: its coordinate bits, with `-0.0` read as `0.0`.
fn key(v: Vec3) -> [u32; 3] {
    [v.x, v.y, v.z].map(|x| (x + 0.0).to_bits())
}

fn normal(t: &[Vec3d; 3]) -> Vec3d {
    (t[1] - t[0]).cross(&(t[2] - t[0]))
}

/// Whether the edge shared by triangles `t` (edge `k`) and `u` (its far
/// corner `far`) is a real feature of `t`'s surface.
fn crease_is_active(t: &[Vec3d; 3], u: &[Vec3d; 3], far: usize, angle: f64) -> bool {
    let (nt, nu) = (normal(t), normal(u));
    let (lt, lu) = (nt.norm(), nu.norm());
    if !(lt > 0.0 && lu > 0.0) {
        return true;
    }
    // Concave (or flat): the neighbour's far corner is not behind t's plane.
    if nt.dot(&(u[far] - t[0])) >= 0.0 {
        return false;
    }
    nt.dot(&nu) < angle.cos() * lt * lu
}

/// The crease angle (rad) above which a convex edge is *open*: 1e-4 rad.
/// An open edge is one a body may leave the surface across (a boundary or
/// any convex crease): the time-of-impact arbiter measures a body's depth
/// behind a triangle by the axes of its open edges, and behind a triangle
/// with none by its plane. Far above the rounding of a flat tessellation's
/// `f32` vertices (a relative 6e-8 of the coordinates over cells a
/// thousandth of them at least), far below any crease a surface is built
/// with.
pub const OPEN_EDGE_ANGLE: f64 = 1.0e-4;

/// The active edges of every triangle of the mesh `(vertices, triangles)`,
/// in triangle order (see the module documentation for the rule). Indices
/// must be in range (as [`crate::TriangleMesh::new`] checks).
pub fn active_edges(vertices: &[Vec3], triangles: &[[u32; 3]]) -> Vec<ActiveEdges> {
    edges_beyond(vertices, triangles, ACTIVE_EDGE_ANGLE)
}

/// The open edges of every triangle of the mesh `(vertices, triangles)`, in
/// triangle order: as [`active_edges`] with the crease angle
/// [`OPEN_EDGE_ANGLE`] (boundaries and every convex crease; flat seams and
/// concave creases closed).
pub fn open_edges(vertices: &[Vec3], triangles: &[[u32; 3]]) -> Vec<ActiveEdges> {
    edges_beyond(vertices, triangles, OPEN_EDGE_ANGLE)
}

/// The concave creases of every triangle of the mesh `(vertices,
/// triangles)`, in triangle order: edges shared with a consistently wound
/// neighbour that folds towards the front by more than [`OPEN_EDGE_ANGLE`]
/// (a room's corner, the foot of a kerb). Near such an edge the surface's
/// solid side is the union of both triangles' back half-spaces, so a point
/// behind a triangle's plane just beyond the edge is inside (the
/// time-of-impact arbiter extends the triangle across it).
pub fn concave_edges(vertices: &[Vec3], triangles: &[[u32; 3]]) -> Vec<ActiveEdges> {
    classify_edges(vertices, triangles, false, |t, u, far| {
        let (nt, nu) = (normal(t), normal(u));
        let (lt, lu) = (nt.norm(), nu.norm());
        lt > 0.0
            && lu > 0.0
            && nt.dot(&(u[far] - t[0])) > 0.0
            && nt.dot(&nu) < OPEN_EDGE_ANGLE.cos() * lt * lu
    })
}

/// The edges of every triangle that are boundaries, shared irregularly, or
/// convex creases sharper than `angle` (rad).
fn edges_beyond(vertices: &[Vec3], triangles: &[[u32; 3]], angle: f64) -> Vec<ActiveEdges> {
    classify_edges(vertices, triangles, true, |t, u, far| {
        crease_is_active(t, u, far, angle)
    })
}

/// Flags every triangle's edges: `lone` for an edge not shared by exactly
/// one consistently wound neighbour, `rule(t, u, far)` for an edge of `t`
/// shared with `u` (`far`: `u`'s corner off the edge).
fn classify_edges(
    vertices: &[Vec3],
    triangles: &[[u32; 3]],
    lone: bool,
    rule: impl Fn(&[Vec3d; 3], &[Vec3d; 3], usize) -> bool,
) -> Vec<ActiveEdges> {
    let corner = |t: usize, c: usize| vertices[triangles[t][c] as usize];
    // Undirected edge (by end positions) -> the (triangle, edge) using it.
    let mut users: HashMap<EdgeKey, Vec<(u32, u8)>> =
        HashMap::with_capacity(triangles.len() * 3 / 2 + 1);
    for t in 0..triangles.len() {
        for k in 0..3 {
            let (a, b) = (key(corner(t, k)), key(corner(t, (k + 1) % 3)));
            let edge = if a <= b { (a, b) } else { (b, a) };
            users.entry(edge).or_default().push((t as u32, k as u8));
        }
    }
    let placed = |t: usize| [0, 1, 2].map(|c| corner(t, c).cast::<f64>());
    (0..triangles.len())
        .map(|t| {
            let mut flags = [lone; 3];
            for (k, flag) in flags.iter_mut().enumerate() {
                let (a, b) = (key(corner(t, k)), key(corner(t, (k + 1) % 3)));
                let edge = if a <= b { (a, b) } else { (b, a) };
                let sharing = &users[&edge];
                if sharing.len() != 2 {
                    continue;
                }
                let &(u, j) = sharing
                    .iter()
                    .find(|&&(u, j)| (u as usize, j as usize) != (t, k))
                    .unwrap_or(&sharing[0]);
                let (u, j) = (u as usize, j as usize);
                if u == t {
                    continue;
                }
                // Consistent winding runs the shared edge the other way.
                if key(corner(u, j)) != b || key(corner(u, (j + 1) % 3)) != a {
                    continue;
                }
                *flag = rule(&placed(t), &placed(u), (j + 2) % 3);
            }
            ActiveEdges::from_edges(flags)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A `n` x `n` grid of unit cells at height `z(i, j)`, two triangles
    /// per cell, counter-clockwise from +z.
    fn grid(n: u32, z: impl Fn(u32, u32) -> f32) -> (Vec<Vec3>, Vec<[u32; 3]>) {
        let mut v = Vec::new();
        for j in 0..=n {
            for i in 0..=n {
                v.push(Vec3::new(i as f32, j as f32, z(i, j)));
            }
        }
        let id = |i: u32, j: u32| j * (n + 1) + i;
        let mut t = Vec::new();
        for j in 0..n {
            for i in 0..n {
                t.push([id(i, j), id(i + 1, j), id(i + 1, j + 1)]);
                t.push([id(i, j), id(i + 1, j + 1), id(i, j + 1)]);
            }
        }
        (v, t)
    }

    #[test]
    fn a_lone_triangle_has_every_edge_active() {
        let v = vec![Vec3::zeros(), Vec3::x(), Vec3::y()];
        assert_eq!(active_edges(&v, &[[0, 1, 2]]), vec![ActiveEdges::ALL]);
    }

    #[test]
    fn a_flat_grid_has_only_its_rim_active() {
        let (v, t) = grid(3, |_, _| 0.0);
        let edges = active_edges(&v, &t);
        // The centre cell's two triangles are interior: no active edge.
        assert_eq!(edges[8], ActiveEdges::NONE);
        assert_eq!(edges[9], ActiveEdges::NONE);
        // Corner cell (0, 0): its lower triangle has the bottom edge (0) on
        // the rim; its upper triangle the left edge (2).
        assert_eq!(edges[0], ActiveEdges::from_edges([true, false, false]));
        assert_eq!(edges[1], ActiveEdges::from_edges([false, false, true]));
    }

    #[test]
    fn a_sharp_ridge_is_active_and_a_valley_or_gentle_crease_is_not() {
        // Ridge along x = 1: heights 0, 1, 0 over columns 0, 1, 2 (45 deg).
        let (v, t) = grid(2, |i, _| if i == 1 { 1.0 } else { 0.0 });
        let e = active_edges(&v, &t);
        // Cell (0, 0)'s lower triangle: edge 1 runs from (1,0) to (1,1),
        // the ridge line, shared with cell (1, 0)'s upper triangle.
        assert!(e[0].edge(1), "ridge edge must be active: {:?}", e[0]);
        // The same layout as a valley (heights 0, -1, 0) is concave there.
        let (v, t) = grid(2, |i, _| if i == 1 { -1.0 } else { 0.0 });
        assert!(!active_edges(&v, &t)[0].edge(1));
        // A 2 degree ridge is a gentle crease (below ACTIVE_EDGE_ANGLE).
        let h = (1.0f64.to_radians()).tan() as f32;
        let (v, t) = grid(2, |i, _| if i == 1 { h } else { 0.0 });
        assert!(!active_edges(&v, &t)[0].edge(1));
    }

    #[test]
    fn unwelded_copies_of_shared_vertices_still_match() {
        // Two triangles of a unit square with separate vertex copies.
        let v = vec![
            Vec3::new(0.0, 0.0, 0.0),
            Vec3::new(1.0, 0.0, 0.0),
            Vec3::new(1.0, 1.0, 0.0),
            Vec3::new(-0.0, 0.0, 0.0),
            Vec3::new(1.0, 1.0, 0.0),
            Vec3::new(0.0, 1.0, 0.0),
        ];
        let e = active_edges(&v, &[[0, 1, 2], [3, 4, 5]]);
        assert!(!e[0].edge(2) && !e[1].edge(0), "{e:?}");
        assert!(e[0].edge(0) && e[0].edge(1) && e[1].edge(1) && e[1].edge(2));
    }

    #[test]
    fn inconsistent_winding_and_fans_keep_edges_active() {
        let v = vec![
            Vec3::zeros(),
            Vec3::x(),
            Vec3::y(),
            Vec3::new(1.0, 1.0, 0.0),
        ];
        // Second triangle wound the same way along the shared edge 1-2.
        let e = active_edges(&v, &[[0, 1, 2], [1, 2, 3]]);
        assert!(e[0].edge(1) && e[1].edge(0));
        // Three triangles on one edge (a fin): non-manifold, active.
        let v = vec![
            Vec3::zeros(),
            Vec3::x(),
            Vec3::y(),
            Vec3::new(0.5, -1.0, 0.0),
            Vec3::new(0.5, 0.0, 1.0),
        ];
        let e = active_edges(&v, &[[0, 1, 2], [1, 0, 3], [1, 0, 4]]);
        assert!(e[0].edge(0) && e[1].edge(0) && e[2].edge(0));
    }

    #[test]
    fn vertices_are_active_with_either_edge() {
        let a = ActiveEdges::from_edges([false, true, false]);
        assert!(!a.vertex(0) && a.vertex(1) && a.vertex(2));
        assert!(!a.edge(3) && !a.vertex(3));
    }
}
