//! [`ConvexSolid`]: parapet's one convex polytope type, a box or a convex
//! hull in its own (shape) frame, read by the discrete contact tests and by
//! the continuous sweeps alike.
//!
//! # What a solid holds
//! - its **vertices** (`f64`, shape frame);
//! - its **faces**: counter-clockwise vertex loops seen from outside, each
//!   with its outward unit normal (the points of the solid's Gauss map);
//! - its **edges**: two vertices and the faces on either side, so each edge
//!   is an arc of the Gauss map between its two face normals (Gregorius,
//!   "The Separating Axis Test between Convex Polyhedra", GDC 2013). The
//!   contact tests prune edge pairs on these arcs in the working frame
//!   (`contact::solid_solid`), and the sweeps prune edge-pair axes on the
//!   same arcs in the shape frame (`gauss_map.rs`);
//! - the separating-axis **directions**: the face normals merged up to
//!   parallel duplicates ([`ConvexSolid::face_normals`]) and the edge
//!   directions merged up to sign ([`ConvexSolid::edges`]);
//! - the tables that only the sweeps read (projection intervals, silhouettes
//!   seen along each edge direction, the inscribed ball, the Gauss-map arcs
//!   by direction, the local bounding box), built on a solid's first sweep
//!   and kept with it, so that a contact test, which builds a solid for one
//!   call, never pays for them.
//!
//! # Constructors
//! [`ConvexSolid::from_cuboid`] (a box centred on the shape origin),
//! [`ConvexSolid::from_hull`] (the polygon faces of a
//! [`parapet_geometry::ConvexHull`], with its exact `f64` normals) and
//! [`ConvexSolid::from_points`] (vertices of a convex polytope and the
//! triangles of its boundary, each triangle one face). The contact tests
//! build a hull's solid with [`ConvexSolid::from_hull`]; a caller that sweeps
//! a hull may build it either way: the two solids are the same polytope, but
//! a triangle's normal rounds differently from the polygon's exact one, so
//! their sweeps agree to rounding, not bit for bit.
//!
//! # Precision domain
//! Vertices are `f32` values promoted to `f64` exactly; face normals of
//! triangles are normalised cross products of those (`f64` rounding only).
//! Two unit directions whose dot product exceeds `1 - 1e-12` (about
//! 1.4e-6 rad apart) count as one.

// Negated comparisons (`!(x > 0.0)`) are deliberate: they are true for NaN,
// so a NaN extent or area is refused, never mistaken for a valid one.
#![allow(clippy::neg_cmp_op_on_partial_ord)]

use std::sync::OnceLock;

use parapet_geometry::ConvexHull;
use parapet_math::{promote, Vec3, Vec3d};

use tables::SweepTables;

pub(crate) mod centred_box;
pub(crate) mod gauss_map;
pub(crate) mod inscribed_ball;
mod silhouette;
pub(crate) mod tables;
mod tables_build;

/// Two unit directions whose dot product exceeds this (in absolute value
/// for edges) are treated as one direction when a solid is built
/// (dimensionless; about 1.4e-6 rad, far above `f64` roundoff of a
/// normalisation and far below any meaningful face or edge angle).
pub(crate) const PARALLEL_DIRECTION_COS: f64 = 1.0 - 1.0e-12;

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

/// One face: the range of its vertex loop in the solid's loop list.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Face {
    pub(crate) start: usize,
    pub(crate) len: usize,
}

/// One edge: its two vertex indices (`a < b` for a solid) and the faces on
/// either side (`faces[1]` is `None` on a triangle's boundary, or where a
/// boundary is not closed): an arc of the Gauss map.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Edge {
    pub(crate) a: usize,
    pub(crate) b: usize,
    pub(crate) faces: [Option<usize>; 2],
}

/// A convex polytope (a box or a convex hull) in its own (shape) frame:
/// vertices, faces with outward unit normals, edges with their two faces,
/// and the merged separating-axis directions (see the module docs).
///
/// Build it with [`ConvexSolid::from_cuboid`], [`ConvexSolid::from_hull`]
/// or [`ConvexSolid::from_points`].
#[derive(Debug, Clone)]
pub struct ConvexSolid {
    vertices: Vec<Vec3d>,
    /// Faces in order; `normals[f]` is face `f`'s outward unit normal.
    faces: Vec<Face>,
    normals: Vec<Vec3d>,
    /// The faces' vertex loops, one after the other.
    loops: Vec<usize>,
    /// Every edge once, sorted by its vertex pair.
    edge_list: Vec<Edge>,
    /// Outward unit face normals, parallel duplicates merged.
    axes: Vec<Vec3d>,
    /// Unit edge directions, parallel and antiparallel duplicates merged.
    directions: Vec<Vec3d>,
    /// The farthest-vertex distance from the shape origin (m).
    radius: f64,
    /// The half extents of a box centred on the shape origin with its faces
    /// along the shape axes ([`ConvexSolid::from_cuboid`]).
    centred_box: Option<Vec3d>,
    /// The sweeps' tables, built on first use.
    tables: OnceLock<SweepTables>,
}

/// Two solids are equal when their geometry is: the sweeps' tables are a
/// function of it (built or not).
impl PartialEq for ConvexSolid {
    fn eq(&self, other: &Self) -> bool {
        self.vertices == other.vertices
            && self.faces == other.faces
            && self.normals == other.normals
            && self.loops == other.loops
            && self.edge_list == other.edge_list
            && self.axes == other.axes
            && self.directions == other.directions
            && self.radius == other.radius
            && self.centred_box == other.centred_box
    }
}

/// Counter-clockwise (from outside) loops of a cuboid whose vertex `i` has
/// coordinate signs `(+ if i & 1, + if i & 2, + if i & 4)`.
pub(crate) const CUBOID_LOOPS: [[usize; 4]; 6] = [
    [1, 3, 7, 5],
    [0, 4, 6, 2],
    [2, 6, 7, 3],
    [0, 1, 5, 4],
    [4, 5, 7, 6],
    [0, 2, 3, 1],
];

/// Local outward normals of the faces of [`CUBOID_LOOPS`], in order.
const CUBOID_NORMALS: [Vec3d; 6] = [
    Vec3d::new(1.0, 0.0, 0.0),
    Vec3d::new(-1.0, 0.0, 0.0),
    Vec3d::new(0.0, 1.0, 0.0),
    Vec3d::new(0.0, -1.0, 0.0),
    Vec3d::new(0.0, 0.0, 1.0),
    Vec3d::new(0.0, 0.0, -1.0),
];

/// Adds the unit direction `v` to `list` unless a direction within
/// [`PARALLEL_DIRECTION_COS`] (of either sign when `either_sign`) is there.
fn push_direction(list: &mut Vec<Vec3d>, v: Vec3d, either_sign: bool) {
    let dup = list.iter().any(|u| {
        let c = u.dot(&v);
        c > PARALLEL_DIRECTION_COS || (either_sign && -c > PARALLEL_DIRECTION_COS)
    });
    if !dup {
        list.push(v);
    }
}

/// Adds the direction of the edge vector `e` to the edge directions (up to
/// sign), unless `e` has no length.
fn push_edge_direction(directions: &mut Vec<Vec3d>, e: Vec3d) {
    let el = e.norm();
    if el > 0.0 {
        push_direction(directions, e / el, true);
    }
}

/// Every undirected edge of the face loops once, sorted by its vertex pair,
/// with the faces on either side (in face order).
fn edge_list(faces: &[Face], loops: &[usize]) -> Vec<Edge> {
    let mut directed = Vec::with_capacity(loops.len());
    for (f, face) in faces.iter().enumerate() {
        let l = &loops[face.start..face.start + face.len];
        for k in 0..l.len() {
            let (i, j) = (l[k], l[(k + 1) % l.len()]);
            directed.push((i.min(j), i.max(j), f));
        }
    }
    directed.sort_unstable();
    let mut edges: Vec<Edge> = Vec::with_capacity(directed.len() / 2 + 1);
    for (i, j, f) in directed {
        match edges.last_mut() {
            Some(e) if e.a == i && e.b == j && e.faces[1].is_none() => e.faces[1] = Some(f),
            _ => edges.push(Edge {
                a: i,
                b: j,
                faces: [Some(f), None],
            }),
        }
    }
    edges
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
        Ok(Self::cuboid(promote(half_extents)))
    }

    /// [`ConvexSolid::from_cuboid`] for half extents that are not checked
    /// (the contact tests take any value and give no contact for nonsense).
    pub(crate) fn cuboid(h: Vec3d) -> Self {
        let vertices: Vec<Vec3d> = (0..8)
            .map(|i| {
                let s = |bit: usize| if i & bit == 0 { -1.0 } else { 1.0 };
                Vec3d::new(s(1) * h.x, s(2) * h.y, s(4) * h.z)
            })
            .collect();
        let faces: Vec<Face> = (0..6)
            .map(|f| Face {
                start: 4 * f,
                len: 4,
            })
            .collect();
        let loops: Vec<usize> = CUBOID_LOOPS.iter().flatten().copied().collect();
        Self::assemble(
            vertices,
            faces,
            CUBOID_NORMALS.to_vec(),
            loops,
            CUBOID_NORMALS.to_vec(),
            vec![Vec3d::x(), Vec3d::y(), Vec3d::z()],
            Some(h),
        )
    }

    /// The solid of a convex hull: its vertices, its polygon faces with
    /// their exact outward normals, and its edges.
    pub fn from_hull(hull: &ConvexHull) -> Self {
        let vertices: Vec<Vec3d> = hull.vertices().iter().map(|v| promote(*v)).collect();
        let mut faces = Vec::with_capacity(hull.faces().len());
        let mut normals = Vec::with_capacity(hull.faces().len());
        let mut loops = Vec::with_capacity(hull.faces().len() * 4);
        let mut axes = Vec::new();
        let mut directions = Vec::new();
        for face in hull.faces() {
            let l = face.vertices();
            faces.push(Face {
                start: loops.len(),
                len: l.len(),
            });
            loops.extend(l.iter().map(|&i| i as usize));
            normals.push(face.normal());
            push_direction(&mut axes, face.normal(), false);
            for k in 0..l.len() {
                let e = vertices[l[(k + 1) % l.len()] as usize] - vertices[l[k] as usize];
                push_edge_direction(&mut directions, e);
            }
        }
        Self::assemble(vertices, faces, normals, loops, axes, directions, None)
    }

    /// A convex hull from its vertices (shape frame, metres) and the
    /// triangles of its boundary, each triangle one face. Each triangle's
    /// normal is turned outward (away from the vertex centroid) whatever its
    /// winding. The caller promises that the vertices are those of a convex
    /// polytope and that the triangles cover its boundary; interior
    /// diagonals of triangulated faces only add harmless candidate axes.
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
        let mut normals = Vec::with_capacity(faces.len());
        let mut loops = Vec::with_capacity(3 * faces.len());
        let mut axes = Vec::new();
        let mut directions = Vec::new();
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
            let mut l = tri.map(|i| i as usize);
            if n.dot(&(p[0] - centroid)) < 0.0 {
                // Wound clockwise from outside: the loop turns with the normal.
                n = -n;
                l.swap(1, 2);
            }
            normals.push(n);
            loops.extend(l);
            push_direction(&mut axes, n, false);
            for k in 0..3 {
                push_edge_direction(&mut directions, p[(k + 1) % 3] - p[k]);
            }
        }
        let faces: Vec<Face> = (0..faces.len())
            .map(|f| Face {
                start: 3 * f,
                len: 3,
            })
            .collect();
        Ok(Self::assemble(
            verts, faces, normals, loops, axes, directions, None,
        ))
    }

    /// A solid from its parts: the edge list is built from the face loops,
    /// the radius is the farthest vertex's distance from the origin.
    fn assemble(
        vertices: Vec<Vec3d>,
        faces: Vec<Face>,
        normals: Vec<Vec3d>,
        loops: Vec<usize>,
        axes: Vec<Vec3d>,
        directions: Vec<Vec3d>,
        centred_box: Option<Vec3d>,
    ) -> Self {
        ConvexSolid {
            edge_list: edge_list(&faces, &loops),
            faces,
            normals,
            loops,
            axes,
            directions,
            radius: vertices.iter().map(|v| v.norm()).fold(0.0, f64::max),
            vertices,
            centred_box,
            tables: OnceLock::new(),
        }
    }

    /// The vertices in the shape frame (metres).
    pub fn vertices(&self) -> &[Vec3d] {
        &self.vertices
    }

    /// The outward unit face normals in the shape frame, parallel
    /// duplicates merged (the solid's face axes).
    pub fn face_normals(&self) -> &[Vec3d] {
        &self.axes
    }

    /// The unit edge directions in the shape frame (one per parallel class).
    pub fn edges(&self) -> &[Vec3d] {
        &self.directions
    }

    /// The farthest-vertex distance from the shape origin (metres): the
    /// radius that scales the sweeps' radius-relative precision limits.
    pub fn bounding_radius(&self) -> f64 {
        self.radius
    }

    /// `"box"` for a solid built by [`ConvexSolid::from_cuboid`], `"hull"`
    /// otherwise (for messages).
    pub fn kind_name(&self) -> &'static str {
        if self.centred_box.is_some() {
            "box"
        } else {
            "hull"
        }
    }

    /// The half extents of a box built by [`ConvexSolid::from_cuboid`].
    pub(crate) fn centred_box(&self) -> Option<Vec3d> {
        self.centred_box
    }

    /// The faces in order.
    pub(crate) fn faces(&self) -> &[Face] {
        &self.faces
    }

    /// Face `f`'s outward unit normal (shape frame).
    pub(crate) fn normal(&self, f: usize) -> Vec3d {
        self.normals[f]
    }

    /// The faces' vertex loops, one after the other (see [`Face`]).
    pub(crate) fn loops(&self) -> &[usize] {
        &self.loops
    }

    /// Every edge once with its two faces: the arcs of the Gauss map.
    pub(crate) fn edge_list(&self) -> &[Edge] {
        &self.edge_list
    }

    /// The sweeps' tables, built on the first call.
    #[inline]
    pub(crate) fn tables(&self) -> &SweepTables {
        self.tables.get_or_init(|| SweepTables::new(self))
    }

    /// The same solid whose sweeps test every edge-pair axis (no Gauss-map
    /// pruning), to show that the pruning changes no outcome.
    #[cfg(test)]
    pub(crate) fn without_pruning(&self) -> Self {
        let mut tables = self.tables().clone();
        tables.disable_pruning();
        let solid = ConvexSolid {
            tables: OnceLock::new(),
            ..self.clone()
        };
        let _ = solid.tables.set(tables);
        solid
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_box_has_six_faces_twelve_edges_each_between_two_faces() {
        let b = ConvexSolid::from_cuboid(Vec3::new(1.0, 2.0, 3.0)).unwrap();
        assert_eq!((b.faces().len(), b.edge_list().len()), (6, 12));
        assert!(b.edge_list().iter().all(|e| e.faces[1].is_some()));
        // Every loop vertex lies on its face's plane at the half extent.
        for (f, face) in b.faces().iter().enumerate() {
            let n = b.normal(f);
            let expected = n.dot(&Vec3d::new(1.0, 2.0, 3.0)).abs();
            for &i in &b.loops()[face.start..face.start + face.len] {
                assert_eq!(n.dot(&b.vertices()[i]), expected);
            }
        }
        assert_eq!(b.kind_name(), "box");
    }

    #[test]
    fn triangles_wound_either_way_get_outward_normals_and_loops() {
        // A tetrahedron with its faces wound both ways.
        let v = [
            Vec3::new(0.0, 0.0, 0.0),
            Vec3::new(1.0, 0.0, 0.0),
            Vec3::new(0.0, 1.0, 0.0),
            Vec3::new(0.0, 0.0, 1.0),
        ];
        let f = [[0, 1, 2], [0, 1, 3], [0, 3, 2], [1, 2, 3]];
        let s = ConvexSolid::from_points(&v, &f).unwrap();
        let c = Vec3d::new(0.25, 0.25, 0.25);
        for (k, face) in s.faces().iter().enumerate() {
            let l = &s.loops()[face.start..face.start + face.len];
            let p = [l[0], l[1], l[2]].map(|i| s.vertices()[i]);
            let winding = (p[1] - p[0]).cross(&(p[2] - p[0]));
            // The loop is counter-clockwise seen from outside, along the normal.
            assert!(winding.dot(&s.normal(k)) > 0.0);
            assert!(s.normal(k).dot(&(p[0] - c)) > 0.0);
        }
        // A closed boundary: every edge between two faces.
        assert!(s.edge_list().iter().all(|e| e.faces[1].is_some()));
        assert_eq!(s.kind_name(), "hull");
    }
}
