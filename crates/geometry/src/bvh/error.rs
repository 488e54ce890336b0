//! The one error type of the triangle bounds tree: refused snapshots, refused
//! queries and broken invariants found by `validate()`.

/// Why the triangle bounds tree refused a snapshot or a query, or which of
/// its invariants `validate()` found broken.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum BvhError {
    /// A snapshot triangle has a NaN or infinite coordinate.
    #[error(
        "triangle {triangle} vertex {vertex} axis {axis} has coordinate {value}; \
         every snapshot coordinate must be finite"
    )]
    NonFiniteVertex {
        /// Index of the triangle in the snapshot (insertion order).
        triangle: usize,
        /// Which of its three vertices (0, 1 or 2).
        vertex: usize,
        /// Which axis (0 = x, 1 = y, 2 = z).
        axis: usize,
        /// The offending coordinate.
        value: f32,
    },
    /// The snapshot holds more triangles than a node link can address.
    #[error("the snapshot holds {count} triangles; the bounds tree addresses at most {limit}")]
    TooManyTriangles {
        /// Number of triangles in the snapshot.
        count: usize,
        /// [`super::MAX_TRIANGLES`].
        limit: usize,
    },
    /// A query parameter is NaN, infinite where it must be finite, or out of range.
    #[error("query {quantity} is {value}; it must be {requirement}")]
    InvalidQuery {
        /// Which parameter (for example "swept ball radius").
        quantity: &'static str,
        /// The offending value.
        value: f64,
        /// What the value must be.
        requirement: &'static str,
    },
    /// `validate()` was given a snapshot whose triangle count differs from the tree's.
    #[error(
        "the tree indexes {tree} triangles but the snapshot given to validate() holds {snapshot}"
    )]
    SnapshotMismatch {
        /// Triangles the tree was built from.
        tree: usize,
        /// Triangles in the snapshot passed to `validate()`.
        snapshot: usize,
    },
    /// `validate()` found a broken invariant at a node.
    #[error("bounds tree invariant broken at node {node}: {detail}")]
    BrokenInvariant {
        /// Index of the node in the depth-first preorder array.
        node: usize,
        /// Which invariant and the values that break it.
        detail: String,
    },
}
