//! The errors of shape construction and mass properties ([`ShapeError`]).
//!
//! Every message names the quantity, its value and the limit it broke.

/// Why a shape, or its mass properties, could not be built.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ShapeError {
    /// A size (radius, half height, half extent) is not finite or not positive.
    #[error("{quantity} = {value} m must be finite and greater than 0")]
    InvalidSize {
        /// Which size, e.g. "sphere radius" or "cuboid half extent y".
        quantity: &'static str,
        /// The offending value (m).
        value: f32,
    },
    /// A point or vertex has a NaN or infinite coordinate.
    #[error("{quantity} {index} = {value:?} m is not finite")]
    NotFinitePoint {
        /// "hull point" or "mesh vertex".
        quantity: &'static str,
        /// Its index in the input.
        index: usize,
        /// Its coordinates (m).
        value: [f32; 3],
    },
    /// The points do not span a solid (fewer than 4 non-coplanar points).
    #[error("convex hull of {points} points is degenerate: {reason} (a hull needs 4 non-coplanar points)")]
    DegenerateHull {
        /// Number of input points.
        points: usize,
        /// What the points have in common: too few, coincident, collinear or coplanar.
        reason: &'static str,
    },
    /// A mesh has no vertices or no triangles.
    #[error("mesh has 0 {quantity} (at least 1 is required)")]
    EmptyMesh {
        /// "vertices" or "triangles".
        quantity: &'static str,
    },
    /// A mesh has more vertices than a `u32` index can address.
    #[error("mesh has {count} vertices (limit {limit}, the u32 index range)")]
    TooManyVertices {
        /// Number of vertices.
        count: usize,
        /// The largest vertex count: 2^32.
        limit: u64,
    },
    /// A mesh triangle refers to a vertex that does not exist.
    #[error("mesh triangle {triangle} corner {corner} has vertex index {index}, but the mesh has {vertex_count} vertices")]
    IndexOutOfRange {
        /// Triangle index.
        triangle: usize,
        /// Corner 0, 1 or 2.
        corner: usize,
        /// The offending vertex index.
        index: u32,
        /// Number of vertices (valid indices are below it).
        vertex_count: usize,
    },
    /// The mass is not finite or not positive.
    #[error("mass = {value} kg must be finite and greater than 0")]
    InvalidMass {
        /// The offending mass (kg).
        value: f32,
    },
    /// The shape encloses no volume, so it has no solid mass properties.
    #[error("a {shape} is not a solid: it has no mass properties (give the body its mass properties explicitly)")]
    NotASolid {
        /// The shape kind, e.g. "triangle mesh".
        shape: &'static str,
    },
    /// The integrated volume is zero, negative or not finite in `f64`.
    #[error("{shape} volume = {volume} m^3 must be finite and greater than 0")]
    ZeroVolume {
        /// The shape kind.
        shape: &'static str,
        /// The integrated volume (m^3).
        volume: f64,
    },
    /// A computed mass property does not fit `f32` storage.
    #[error("{quantity} = {value} is not representable as a finite f32 (limit {limit})", limit = f32::MAX)]
    NotRepresentable {
        /// The quantity, e.g. "inertia entry (0, 0)" or "center x".
        quantity: &'static str,
        /// The `f64` value that does not fit.
        value: f64,
    },
    /// A center or other input vector is not finite.
    #[error("{quantity} = {value:?} is not finite")]
    NotFiniteVector {
        /// The quantity, e.g. "center of mass".
        quantity: &'static str,
        /// Its components.
        value: [f32; 3],
    },
    /// The `f32` inertia tensor is not exactly symmetric and positive definite
    /// (overflow, underflow to a singular tensor, or lost definiteness), decided
    /// by exact determinant signs with no tolerance.
    #[error("inertia tensor {inertia:?} kg m^2 is not symmetric positive definite (exact leading principal minors must be > 0)")]
    NotPositiveDefinite {
        /// The tensor rows (kg m^2).
        inertia: [[f32; 3]; 3],
    },
}
