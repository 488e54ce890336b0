//! [`TriangleMesh`]: a one-sided triangle soup (vertices and `[u32; 3]`
//! index triples) and its world-space triangle snapshot.
//!
//! A triangle's front is the side its counter-clockwise normal
//! `(b - a) x (c - a)` points to. Construction checks the indices and the
//! finiteness of the vertices only; the precision limits of the continuous
//! mode (docs/continuous-collision.md, "Precision limits") apply to
//! the world-space snapshot that continuous collision uses
//! ([`crate::validate_triangles`]), because they depend on the mesh pose.

use crate::error::ShapeError;
use crate::mesh_edges::{active_edges, ActiveEdges};
use crate::triangle::{Triangle, TriangleError};
use parapet_math::{nalgebra, promote_quat, Quat, Vec3, Vec3d};
use std::sync::Arc;

#[derive(Debug, PartialEq)]
struct MeshData {
    vertices: Vec<Vec3>,
    triangles: Vec<[u32; 3]>,
    /// Per triangle, derived from the two above at construction, for a mesh
    /// built with [`TriangleMesh::with_active_edges`]; `None`: every edge
    /// is a feature (the plain mesh of [`TriangleMesh::new`], which stores no
    /// adjacency).
    active_edges: Option<Vec<ActiveEdges>>,
}

/// A one-sided triangle mesh (m, local frame). Cheap to clone: the data is shared.
#[derive(Debug, Clone, PartialEq)]
pub struct TriangleMesh {
    data: Arc<MeshData>,
}

impl TriangleMesh {
    /// A checked mesh.
    ///
    /// # Errors
    /// [`ShapeError::EmptyMesh`] for no vertices or no triangles,
    /// [`ShapeError::TooManyVertices`] beyond the `u32` index range,
    /// [`ShapeError::NotFinitePoint`] for a non-finite vertex and
    /// [`ShapeError::IndexOutOfRange`] for an index past the vertex list.
    pub fn new(vertices: Vec<Vec3>, triangles: Vec<[u32; 3]>) -> Result<Self, ShapeError> {
        Self::checked(vertices, triangles, false)
    }

    /// The checks of [`TriangleMesh::new`], then the mesh, with its active
    /// edges found when `find_edges` is set.
    fn checked(
        vertices: Vec<Vec3>,
        triangles: Vec<[u32; 3]>,
        find_edges: bool,
    ) -> Result<Self, ShapeError> {
        if vertices.is_empty() {
            return Err(ShapeError::EmptyMesh {
                quantity: "vertices",
            });
        }
        if triangles.is_empty() {
            return Err(ShapeError::EmptyMesh {
                quantity: "triangles",
            });
        }
        let limit = u64::from(u32::MAX) + 1;
        if vertices.len() as u64 > limit {
            return Err(ShapeError::TooManyVertices {
                count: vertices.len(),
                limit,
            });
        }
        for (index, p) in vertices.iter().enumerate() {
            if p.iter().any(|x| !x.is_finite()) {
                return Err(ShapeError::NotFinitePoint {
                    quantity: "mesh vertex",
                    index,
                    value: [p.x, p.y, p.z],
                });
            }
        }
        for (triangle, t) in triangles.iter().enumerate() {
            for (corner, &index) in t.iter().enumerate() {
                if index as usize >= vertices.len() {
                    return Err(ShapeError::IndexOutOfRange {
                        triangle,
                        corner,
                        index,
                        vertex_count: vertices.len(),
                    });
                }
            }
        }
        let active_edges = find_edges.then(|| active_edges(&vertices, &triangles));
        Ok(Self {
            data: Arc::new(MeshData {
                vertices,
                triangles,
                active_edges,
            }),
        })
    }

    /// A checked mesh that also knows which of its edges are seams of the
    /// tessellation ([`crate::mesh_edges`]): contacts touching only such
    /// inactive edges push along the face normal, so that solids slide over
    /// a flat or gently curved tessellated surface (a road, a terrain)
    /// without ghost contacts at the seams. Real creases (convex, sharper
    /// than [`crate::ACTIVE_EDGE_ANGLE`]) and the mesh's rim stay features.
    ///
    /// [`TriangleMesh::new`] keeps the plain mesh, which stores no adjacency
    /// and where every edge is a feature (the tessellated-floor limitation of
    /// docs/continuous-collision.md, "Known limitations").
    ///
    /// # Errors
    /// As [`TriangleMesh::new`].
    pub fn with_active_edges(
        vertices: Vec<Vec3>,
        triangles: Vec<[u32; 3]>,
    ) -> Result<Self, ShapeError> {
        Self::checked(vertices, triangles, true)
    }

    /// The vertices (m, local frame).
    pub fn vertices(&self) -> &[Vec3] {
        &self.data.vertices
    }

    /// The index triples, in insertion order.
    pub fn indices(&self) -> &[[u32; 3]] {
        &self.data.triangles
    }

    /// Per triangle (insertion order), which edges are real features of the
    /// surface and which are seams of the tessellation
    /// ([`crate::mesh_edges`]), for a mesh built with
    /// [`TriangleMesh::with_active_edges`]; `None` for a mesh whose every
    /// edge is a feature ([`TriangleMesh::new`]).
    pub fn active_edges(&self) -> Option<&[ActiveEdges]> {
        self.data.active_edges.as_deref()
    }

    /// The active edges of triangle `i`: [`ActiveEdges::ALL`] for a mesh
    /// without adjacency ([`TriangleMesh::new`]) or past the end.
    pub fn triangle_edges(&self, i: usize) -> ActiveEdges {
        self.active_edges()
            .and_then(|e| e.get(i))
            .copied()
            .unwrap_or(ActiveEdges::ALL)
    }

    /// Number of triangles.
    pub fn triangle_count(&self) -> usize {
        self.data.triangles.len()
    }

    /// Triangle `i` in the local frame, or `None` past the end.
    pub fn triangle(&self, i: usize) -> Option<Triangle> {
        let [a, b, c] = *self.data.triangles.get(i)?;
        let v = &self.data.vertices;
        Some(Triangle::new(v[a as usize], v[b as usize], v[c as usize]))
    }

    /// The local-frame triangles, in insertion order.
    pub fn triangles(&self) -> impl Iterator<Item = Triangle> + '_ {
        let v = &self.data.vertices;
        self.data
            .triangles
            .iter()
            .map(move |t| Triangle::new(v[t[0] as usize], v[t[1] as usize], v[t[2] as usize]))
    }

    /// The world-space triangle snapshot for a body at `position` (m) with
    /// orientation `rotation` (body to world): each vertex becomes
    /// `R v + p`, computed in `f64` (the quaternion renormalized there) and
    /// rounded once to `f32`. Triangles keep their insertion order.
    ///
    /// # Errors
    /// [`TriangleError::NotRepresentable`] when a transformed vertex is not a
    /// finite `f32` (for example a non-finite pose).
    pub fn world_triangles(
        &self,
        position: &Vec3,
        rotation: &Quat,
    ) -> Result<Vec<Triangle>, TriangleError> {
        let q = nalgebra::UnitQuaternion::new_normalize(promote_quat(*rotation).into_inner());
        let t: Vec3d = position.cast();
        let world: Vec<Vec3d> = self
            .data
            .vertices
            .iter()
            .map(|v| q * v.cast::<f64>() + t)
            .collect();
        let mut out = Vec::with_capacity(self.data.triangles.len());
        for (triangle, idx) in self.data.triangles.iter().enumerate() {
            let mut corners = [Vec3::zeros(); 3];
            for (vertex, &i) in idx.iter().enumerate() {
                let w = world[i as usize];
                let f = w.map(|x| x as f32);
                if f.iter().any(|x| !x.is_finite()) {
                    return Err(TriangleError::NotRepresentable {
                        triangle,
                        vertex,
                        value: [w.x, w.y, w.z],
                    });
                }
                corners[vertex] = f;
            }
            out.push(Triangle::new(corners[0], corners[1], corners[2]));
        }
        Ok(out)
    }
}
