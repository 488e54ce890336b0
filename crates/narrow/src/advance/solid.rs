//! The solid core: a box or a convex hull (no skin) as the driver sees it:
//! its vertices relative to the mass centre, its faces (outward unit
//! normals and counter-clockwise vertex loops) and its edges, in the body
//! frame, and its tolerance band.
//!
//! # Method
//! Built once per shape and placement. The separating planes of a posed
//! solid against a triangle are in `solid_plane.rs` (the triangle's face
//! and edge side planes, the solid's face planes, the edge-edge
//! cross-product planes and the closest-feature plane), its touch points in
//! `solid_manifold.rs`, and the driver's view of the three (the
//! `CoreShape` implementation) in `solid_shape.rs`. The tolerance is
//! [`TOLERANCE_FRACTION`](super::TOLERANCE_FRACTION) of the inner
//! radius: a box's smallest half extent; for a hull the smallest distance
//! from its vertex centroid to a face plane (the radius of a ball about the
//! centroid inside the hull, at most its largest inscribed ball).
//!
//! A solid has no skin: it touches a triangle when its certified separation
//! is at most zero, and its sub-steps may take it at most a tolerance below
//! the surface (the band is `[−tol, 0]`).
//!
//! # Precision domain
//! Vertices are `f32` shape-frame points promoted to `f64`; the placement is
//! applied in `f64`. The domain radius is the farthest vertex from the shape
//! origin, as for the exact solid sweep
//! ([`crate::sweep::sweep_solid_triangle`]).

use parapet_geometry::ConvexHull;
use parapet_math::{promote, Vec3d};

use super::bound::norm_up;
use super::Placement;

/// Two unit edge directions whose dot product exceeds this in absolute value
/// are one direction class (dimensionless; about 1.4e-6 rad, far above the
/// `f64` roundoff of a normalisation and far below any meaningful edge
/// angle): the edge-edge planes of one class are the same planes.
pub const PARALLEL_DIRECTION_COS: f64 = 1.0 - 1.0e-12;

/// Why a [`SolidCore`] could not be built.
#[derive(Debug, Clone, Copy, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum SolidError {
    /// A half extent, vertex or placement component is NaN or infinite.
    #[error("{quantity} is not finite")]
    NotFinite {
        /// The input's name.
        quantity: &'static str,
    },
    /// A cuboid half extent is not positive.
    #[error("half extent {axis} = {value} m is not positive (limit > 0)")]
    NonPositiveExtent {
        /// Axis 0, 1 or 2.
        axis: usize,
        /// The half extent, metres.
        value: f64,
    },
    /// The vertex centroid is not strictly inside every face plane (a flat
    /// or inconsistent hull).
    #[error("inner radius {value} m is not positive (limit > 0)")]
    NoInterior {
        /// The smallest centroid-to-face distance, metres.
        value: f64,
    },
}

/// A box's or hull's core in its body frame (see the module docs).
#[derive(Debug, Clone, PartialEq)]
pub struct SolidCore {
    /// Vertices relative to the mass centre (m, body frame).
    pub(super) arms: Vec<Vec3d>,
    /// Outward unit face normals (body frame).
    pub(super) normals: Vec<Vec3d>,
    /// Face `f`'s vertex loop is `loops[starts[f]..starts[f + 1]]`.
    starts: Vec<usize>,
    loops: Vec<usize>,
    /// Edges as vertex index pairs.
    edges: Vec<[usize; 2]>,
    /// One unit direction per class of parallel edges (body frame).
    pub(super) directions: Vec<Vec3d>,
    pub(super) inner_radius: f64,
    pub(super) bounding_radius: f64,
    pub(super) reach: f64,
}

/// Counter-clockwise (from outside) loops of a cuboid whose vertex `i` has
/// coordinate signs `(+ if i & 1, + if i & 2, + if i & 4)`, and their
/// outward normals.
const CUBOID_LOOPS: [[usize; 4]; 6] = [
    [1, 3, 7, 5],
    [0, 4, 6, 2],
    [2, 6, 7, 3],
    [0, 1, 5, 4],
    [4, 5, 7, 6],
    [0, 2, 3, 1],
];

const CUBOID_NORMALS: [[f64; 3]; 6] = [
    [1.0, 0.0, 0.0],
    [-1.0, 0.0, 0.0],
    [0.0, 1.0, 0.0],
    [0.0, -1.0, 0.0],
    [0.0, 0.0, 1.0],
    [0.0, 0.0, -1.0],
];

fn check_placement(placement: &Placement) -> Result<(), SolidError> {
    let q = placement.rotation.into_inner().coords;
    if !placement.translation.iter().all(|x| x.is_finite()) || !q.iter().all(|x| x.is_finite()) {
        return Err(SolidError::NotFinite {
            quantity: "solid placement",
        });
    }
    Ok(())
}

impl SolidCore {
    /// A box of half extents `half_extents` (m) centred on its shape origin,
    /// placed in its body by `placement`.
    ///
    /// # Errors
    /// [`SolidError::NotFinite`] or [`SolidError::NonPositiveExtent`].
    pub fn cuboid(half_extents: Vec3d, placement: &Placement) -> Result<Self, SolidError> {
        check_placement(placement)?;
        for (axis, &value) in half_extents.iter().enumerate() {
            if !value.is_finite() {
                return Err(SolidError::NotFinite {
                    quantity: "cuboid half extent",
                });
            }
            if !(value > 0.0) {
                return Err(SolidError::NonPositiveExtent { axis, value });
            }
        }
        let h = half_extents;
        let local: Vec<Vec3d> = (0..8)
            .map(|i| {
                let s = |bit: usize| if i & bit != 0 { 1.0 } else { -1.0 };
                Vec3d::new(s(1) * h.x, s(2) * h.y, s(4) * h.z)
            })
            .collect();
        let normals: Vec<Vec3d> = CUBOID_NORMALS.iter().map(|n| Vec3d::from(*n)).collect();
        let loops: Vec<Vec<usize>> = CUBOID_LOOPS.iter().map(|l| l.to_vec()).collect();
        let inner = h.x.min(h.y).min(h.z);
        Ok(Self::build(
            &local, &normals, &loops, None, inner, placement,
        ))
    }

    /// A convex hull, placed in its body by `placement`.
    ///
    /// # Errors
    /// [`SolidError::NotFinite`] for a non-finite placement,
    /// [`SolidError::NoInterior`] when the vertex centroid is not inside
    /// every face plane.
    pub fn hull(hull: &ConvexHull, placement: &Placement) -> Result<Self, SolidError> {
        check_placement(placement)?;
        let local: Vec<Vec3d> = hull.vertices().iter().map(|v| promote(*v)).collect();
        let normals: Vec<Vec3d> = hull.faces().iter().map(|f| f.normal()).collect();
        let loops: Vec<Vec<usize>> = hull
            .faces()
            .iter()
            .map(|f| f.vertices().iter().map(|&i| i as usize).collect())
            .collect();
        let edges: Vec<[usize; 2]> = hull
            .edges()
            .iter()
            .map(|e| [e[0] as usize, e[1] as usize])
            .collect();
        let centroid = local.iter().fold(Vec3d::zeros(), |a, v| a + v) / local.len() as f64;
        let inner = normals
            .iter()
            .zip(&loops)
            .map(|(n, l)| {
                let offset = l
                    .iter()
                    .map(|&i| n.dot(&local[i]))
                    .fold(f64::NEG_INFINITY, f64::max);
                offset - n.dot(&centroid)
            })
            .fold(f64::INFINITY, f64::min);
        if !(inner > 0.0) {
            return Err(SolidError::NoInterior { value: inner });
        }
        Ok(Self::build(
            &local,
            &normals,
            &loops,
            Some(edges),
            inner,
            placement,
        ))
    }

    fn build(
        local: &[Vec3d],
        normals: &[Vec3d],
        loops: &[Vec<usize>],
        edges: Option<Vec<[usize; 2]>>,
        inner_radius: f64,
        placement: &Placement,
    ) -> Self {
        let r = placement.rotation;
        let arms: Vec<Vec3d> = local
            .iter()
            .map(|v| placement.translation + r * v)
            .collect();
        let normals: Vec<Vec3d> = normals
            .iter()
            .map(|n| {
                let m = r * n;
                m / m.norm()
            })
            .collect();
        let mut starts = Vec::with_capacity(loops.len() + 1);
        let mut flat = Vec::new();
        for l in loops {
            starts.push(flat.len());
            flat.extend_from_slice(l);
        }
        starts.push(flat.len());
        let edges = edges.unwrap_or_else(|| {
            let mut e: Vec<[usize; 2]> = loops
                .iter()
                .flat_map(|l| (0..l.len()).map(move |k| (l[k], l[(k + 1) % l.len()])))
                .map(|(i, j)| [i.min(j), i.max(j)])
                .collect();
            e.sort_unstable();
            e.dedup();
            e
        });
        let mut directions: Vec<Vec3d> = Vec::new();
        for [i, j] in &edges {
            let d = arms[*j] - arms[*i];
            let len = d.norm();
            if !(len > 0.0) {
                continue;
            }
            let d = d / len;
            if !directions
                .iter()
                .any(|e| e.dot(&d).abs() > PARALLEL_DIRECTION_COS)
            {
                directions.push(d);
            }
        }
        let bounding_radius = local.iter().map(norm_up).fold(0.0, f64::max);
        // A relative 1e-12 covers the rotation of the arms.
        let reach = arms.iter().map(norm_up).fold(0.0, f64::max) * (1.0 + 1.0e-12);
        SolidCore {
            arms,
            normals,
            starts,
            loops: flat,
            edges,
            directions,
            inner_radius,
            bounding_radius,
            reach,
        }
    }

    /// The vertices relative to the mass centre (m, body frame).
    pub fn arms(&self) -> &[Vec3d] {
        &self.arms
    }

    /// The edges as vertex index pairs.
    pub fn edges(&self) -> &[[usize; 2]] {
        &self.edges
    }

    /// The number of faces.
    pub fn face_count(&self) -> usize {
        self.normals.len()
    }

    /// The vertex loop of face `f` (counter-clockwise seen from outside).
    pub fn face_loop(&self, f: usize) -> &[usize] {
        &self.loops[self.starts[f]..self.starts[f + 1]]
    }

    /// The inner radius (m; see the module docs).
    pub fn inner_radius(&self) -> f64 {
        self.inner_radius
    }

    /// The farthest vertex from the shape origin (m).
    pub fn bounding_radius(&self) -> f64 {
        self.bounding_radius
    }
}

/// A solid turned to one rotation, in the working frame (mass centre at the
/// origin).
#[derive(Debug, Clone, PartialEq)]
pub struct PosedSolid {
    /// The vertices (m).
    pub(crate) points: Vec<Vec3d>,
    /// The outward unit face normals.
    pub(crate) normals: Vec<Vec3d>,
    /// Each face's support: the largest `normal · vertex` over all vertices
    /// (m), so that no vertex lies in front of its face plane.
    pub(crate) offsets: Vec<f64>,
    /// One unit direction per edge class.
    pub(crate) directions: Vec<Vec3d>,
}

impl PosedSolid {
    /// The vertices (m, working frame).
    pub fn points(&self) -> &[Vec3d] {
        &self.points
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::advance::CoreShape;
    use parapet_math::Quatd;
    use parapet_math::Vec3;

    #[test]
    fn a_cuboid_has_eight_arms_six_faces_twelve_edges_and_three_directions() {
        let p = Placement {
            translation: Vec3d::new(0.5, 0.0, -0.25),
            rotation: Quatd::from_scaled_axis(Vec3d::new(0.0, 0.0, 0.3)),
        };
        let c = SolidCore::cuboid(Vec3d::new(1.0, 0.5, 0.25), &p).unwrap();
        assert_eq!(c.arms().len(), 8);
        assert_eq!(c.face_count(), 6);
        assert_eq!(c.edges().len(), 12);
        assert_eq!(c.directions.len(), 3);
        assert_eq!(c.inner_radius(), 0.25);
        assert!((c.bounding_radius() - (1.0f64 + 0.25 + 0.0625).sqrt()).abs() < 1e-15);
        assert!((c.tolerance() - 0.25 / 1024.0).abs() < 1e-18);
        // Every vertex is on or behind every face plane, three faces each.
        let posed = c.pose(&Quatd::from_scaled_axis(Vec3d::new(0.4, -1.0, 0.2)));
        for p in &posed.points {
            let on = (0..6)
                .filter(|&f| (posed.normals[f].dot(p) - posed.offsets[f]).abs() < 1e-12)
                .count();
            assert_eq!(on, 3);
        }
        assert!(SolidCore::cuboid(Vec3d::new(1.0, 0.0, 1.0), &p).is_err());
        assert!(SolidCore::cuboid(Vec3d::new(1.0, f64::NAN, 1.0), &p).is_err());
    }

    #[test]
    fn a_hull_keeps_its_faces_and_its_inner_radius_is_inside() {
        let pts = [
            Vec3::new(0.0, 0.0, 0.0),
            Vec3::new(1.0, 0.0, 0.0),
            Vec3::new(0.0, 1.0, 0.0),
            Vec3::new(0.0, 0.0, 1.0),
        ];
        let hull = ConvexHull::new(&pts).unwrap();
        let c = SolidCore::hull(&hull, &Placement::centred()).unwrap();
        assert_eq!(c.face_count(), 4);
        assert_eq!(c.edges().len(), 6);
        assert_eq!(c.directions.len(), 6);
        // Centroid (1/4, 1/4, 1/4): distance 1/4 to the three axis faces and
        // (1 - 3/4) / sqrt(3) to the slanted one.
        assert!((c.inner_radius() - 0.25 / 3f64.sqrt()).abs() < 1e-12);
        // Rounded up by an ulp or two.
        assert!(c.bounding_radius() >= 1.0 && c.bounding_radius() < 1.0 + 1e-15);
    }
}
