//! [`ConvexHull`]: a convex polyhedron given by points, stored as its exact
//! extreme points, polygon faces with outward normals, and unique edges
//! (built by the exact incremental hull of `incremental_hull.rs`).

use crate::error::ShapeError;
use crate::incremental_hull::convex_hull;
use parapet_math::{Vec3, Vec3d};
use std::sync::Arc;

/// One polygon face of a hull.
#[derive(Debug, Clone, PartialEq)]
pub struct HullFace {
    vertices: Box<[u32]>,
    normal: Vec3d,
}

impl HullFace {
    /// Indices into [`ConvexHull::vertices`], counter-clockwise seen from
    /// outside (so `(v1 - v0) x (v2 - v0)` points outward), at least three,
    /// no three consecutive ones collinear.
    pub fn vertices(&self) -> &[u32] {
        &self.vertices
    }

    /// Outward unit normal (`f64`, Newell's method over the polygon).
    pub fn normal(&self) -> Vec3d {
        self.normal
    }
}

#[derive(Debug, PartialEq)]
struct HullData {
    vertices: Vec<Vec3>,
    faces: Vec<HullFace>,
    edges: Vec<[u32; 2]>,
}

/// A convex polyhedron (m, local frame). Cheap to clone: the data is shared.
///
/// Largest departure (dimensionless) of a face normal's length from 1:
/// Newell's normal is divided by its `f64` norm, so a usable one is unit to
/// a few ulps; 1e-9 is far above that and far below any real failure (a
/// zero or NaN normal).
const FACE_NORMAL_UNIT_TOLERANCE: f64 = 1e-9;

/// Invariants: at least four non-coplanar vertices, each an input point bit
/// for bit and each a true corner (no vertex lies inside the hull, inside a
/// face or on a straight edge); faces are the maximal coplanar polygons.
#[derive(Debug, Clone, PartialEq)]
pub struct ConvexHull {
    data: Arc<HullData>,
}

impl ConvexHull {
    /// The hull of `points` (duplicates and interior points are dropped).
    ///
    /// # Errors
    /// [`ShapeError::NotFinitePoint`] for a NaN or infinite coordinate;
    /// [`ShapeError::DegenerateHull`] when fewer than four non-coplanar points
    /// are given, or when a face's unit normal cannot be computed in `f64`
    /// (points whose magnitudes differ by far more than `f64` resolves).
    pub fn new(points: &[Vec3]) -> Result<Self, ShapeError> {
        for (index, p) in points.iter().enumerate() {
            if p.iter().any(|x| !x.is_finite()) {
                return Err(ShapeError::NotFinitePoint {
                    quantity: "hull point",
                    index,
                    value: [p.x, p.y, p.z],
                });
            }
        }
        let topo = convex_hull(points)?;
        // Newell's sum cancels to zero (or overflows) on faces whose
        // points differ in magnitude by more than f64 can hold (1e38 next
        // to 1): such a face has no usable normal, and every contact and
        // sweep on it would take a zero direction.
        let unit = |n: &Vec3d| (n.norm() - 1.0).abs() <= FACE_NORMAL_UNIT_TOLERANCE;
        if !topo.normals.iter().all(unit) {
            return Err(ShapeError::DegenerateHull {
                points: points.len(),
                reason:
                    "a face normal cannot be computed in f64 (points of very different magnitudes)",
            });
        }
        let faces = topo
            .faces
            .into_iter()
            .zip(topo.normals)
            .map(|(vertices, normal)| HullFace {
                vertices: vertices.into_boxed_slice(),
                normal,
            })
            .collect();
        Ok(Self {
            data: Arc::new(HullData {
                vertices: topo.vertices,
                faces,
                edges: topo.edges,
            }),
        })
    }

    /// The extreme points (m), in the order they had in the input.
    pub fn vertices(&self) -> &[Vec3] {
        &self.data.vertices
    }

    /// The polygon faces, sorted by their vertex index lists.
    pub fn faces(&self) -> &[HullFace] {
        &self.data.faces
    }

    /// Unique undirected edges `[i, j]` (`i < j`) into [`ConvexHull::vertices`], sorted.
    pub fn edges(&self) -> &[[u32; 2]] {
        &self.data.edges
    }

    /// Triangles `[a, b, c]` of a fan triangulation of every face, counter-clockwise
    /// seen from outside.
    pub fn triangles(&self) -> impl Iterator<Item = [u32; 3]> + '_ {
        self.data.faces.iter().flat_map(|f| {
            let v = &f.vertices;
            (1..v.len() - 1).map(move |k| [v[0], v[k], v[k + 1]])
        })
    }
}
