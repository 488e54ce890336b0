//! [`ConvexSolid`]: a box or a convex hull in its own (shape) frame, as the
//! continuous sweeps read it.
//!
//! # What a solid holds
//! - its **vertices** (`f64`, shape frame);
//! - the separating-axis **directions**: its outward unit face normals,
//!   parallel duplicates merged ([`ConvexSolid::face_normals`]), and its
//!   unit edge directions, merged up to sign ([`ConvexSolid::edges`]);
//! - the tables of the sweeps (projection intervals, silhouettes seen along
//!   each edge direction, the inscribed ball, the Gauss-map arcs, the local
//!   bounding box): see `sweep::solid_tables`.
//!
//! # Constructors
//! [`ConvexSolid::from_cuboid`] (a box centred on the shape origin) and
//! [`ConvexSolid::from_points`] (vertices of a convex polytope and the
//! triangles of its boundary).
//!
//! # Precision domain
//! Vertices are `f32` values promoted to `f64` exactly; face normals of
//! triangles are normalised cross products of those (`f64` rounding only).
//! Two unit directions closer than [`PARALLEL_DIRECTION_COS`] count as one.

// Negated comparisons (`!(x > 0.0)`) are deliberate: they are true for NaN,
// so a NaN extent or area is refused, never mistaken for a valid one.
#![allow(clippy::neg_cmp_op_on_partial_ord)]

use parapet_math::{promote, Vec3, Vec3d};

use crate::sweep::solid_tables::SweepTables;

/// Two unit directions whose dot product exceeds this (in absolute value
/// for edges) are treated as one direction when a solid is built
/// (dimensionless; about 1.4e-6 rad, far above `f64` roundoff of a
/// normalisation and far below any meaningful face or edge angle).
pub const PARALLEL_DIRECTION_COS: f64 = 1.0 - 1.0e-12;

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
    /// The half extents of a box centred on the shape origin with its faces
    /// along the shape axes ([`ConvexSolid::from_cuboid`]).
    centred_box: Option<Vec3d>,
    tables: SweepTables,
}

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
        let edges = vec![Vec3d::x(), Vec3d::y(), Vec3d::z()];
        Ok(ConvexSolid {
            tables: SweepTables::for_box(&vertices, &face_normals, &edges, h),
            vertices,
            face_normals,
            edges,
            radius: h.norm(),
            centred_box: Some(h),
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
        Ok(ConvexSolid {
            tables: SweepTables::for_hull(&verts, faces, centroid, &face_normals, &edges),
            vertices: verts,
            face_normals,
            edges,
            radius,
            centred_box: None,
        })
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
    /// radius that scales the sweeps' radius-relative precision limits.
    pub fn bounding_radius(&self) -> f64 {
        self.radius
    }

    /// The half extents of a box built by [`ConvexSolid::from_cuboid`].
    pub(crate) fn centred_box(&self) -> Option<Vec3d> {
        self.centred_box
    }

    /// The sweeps' tables.
    #[inline]
    pub(crate) fn tables(&self) -> &SweepTables {
        &self.tables
    }

    /// The same solid whose sweeps test every edge-pair axis (no Gauss-map
    /// pruning), to show that the pruning changes no outcome.
    #[cfg(test)]
    pub(crate) fn without_pruning(&self) -> Self {
        let mut plain = self.clone();
        plain.tables.disable_pruning();
        plain
    }
}
