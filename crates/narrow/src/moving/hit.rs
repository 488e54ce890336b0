//! What the arbiter answers at a time of impact: the hit (time, points,
//! normal, gap bound) and the features of each side that support it, shared
//! by the exact kernels (`exact.rs`) and the advancement (`toi.rs`).
//!
//! # Precision domain
//! `f64` in the working frame, as the kernels that fill it.

use parapet_math::Vec3d;

/// The features of one side at a hit: a mesh's triangle, and up to three
/// indices of the core's points that support the witness (one: a vertex,
/// two: an edge, three: a face).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Feature {
    /// The mesh triangle (its index in the mesh), `None` for a convex shape.
    pub triangle: Option<u32>,
    /// Indices into the core's points ([`crate::moving::Core::points`]; a triangle's
    /// corners); the first `count` are meaningful.
    pub points: [u32; 3],
    /// How many of `points` are meaningful (1 to 3).
    pub count: u8,
}

/// A time of impact.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Hit {
    /// The time (s, the motions' time), never later than the first time the
    /// distance reaches the target.
    pub time: f64,
    /// The contact point (m, world): midway between the two surface points.
    pub point: Vec3d,
    /// A's surface point nearest B at `time` (m, world): its core witness
    /// moved out by its skin.
    pub point_a: Vec3d,
    /// B's surface point nearest A at `time` (m, world).
    pub point_b: Vec3d,
    /// Unit normal from B towards A (world).
    pub normal: Vec3d,
    /// An upper bound of the signed distance at `time` (m).
    pub gap: f64,
    /// A's features.
    pub feature_a: Feature,
    /// B's features.
    pub feature_b: Feature,
    /// The advancement iterations the query used.
    pub iterations: u32,
}

impl Hit {
    /// The same hit seen from the other side (A and B exchanged).
    pub fn swapped(self) -> Hit {
        Hit {
            point_a: self.point_b,
            point_b: self.point_a,
            normal: -self.normal,
            feature_a: self.feature_b,
            feature_b: self.feature_a,
            ..self
        }
    }
}
