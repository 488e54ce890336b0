//! The errors of inclusion-based CCD: invalid configuration or invalid query
//! coordinates. Never a panic on user input.

use thiserror::Error;

/// Why an inclusion CCD query was refused. Nothing is computed for a refused
/// query; fix the named quantity and call again.
#[derive(Debug, Clone, PartialEq, Error)]
#[non_exhaustive]
pub enum InclusionError {
    /// A coordinate of the query is NaN or infinite.
    #[error(
        "{primitive} query: coordinate {axis} of point {point} is {value}, \
         but every coordinate must be finite"
    )]
    NonFiniteCoordinate {
        /// `"vertex-face"` or `"edge-edge"`.
        primitive: &'static str,
        /// Index of the point in the query's documented order (0..8).
        point: usize,
        /// Axis index (0 = x, 1 = y, 2 = z).
        axis: usize,
        /// The offending value.
        value: f64,
    },
    /// The relative tolerance delta is not a finite positive number.
    #[error("inclusion tolerance (delta) is {value}, but it must be finite and > 0")]
    InvalidTolerance {
        /// The offending value.
        value: f64,
    },
    /// The minimum separation d is negative or not finite.
    #[error("minimum separation d is {value} (length), but it must be finite and >= 0")]
    InvalidMinSeparation {
        /// The offending value.
        value: f64,
    },
    /// The iteration cap m_I is zero.
    #[error("max_iterations (m_I) is {value}, but it must be >= 1")]
    InvalidMaxIterations {
        /// The offending value.
        value: u64,
    },
    /// The user-given length scale is not a finite positive number.
    #[error("length_scale is {value} (length), but it must be finite and > 0")]
    InvalidLengthScale {
        /// The offending value.
        value: f64,
    },
}
