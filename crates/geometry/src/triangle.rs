//! Triangles (three `f32` vertices) and their validation against the
//! precision limits of the continuous mode (docs/continuous-collision.md,
//! "Precision limits"):
//! every coordinate finite and within [`MAX_COORDINATE`] of the origin on each
//! axis; a nonzero `f32` raw normal `(b - a) x (c - a)`; and an `f64`
//! cross-product magnitude at least the longest squared edge length divided by
//! [`THIN_TRIANGLE_RATIO`].

use crate::aabb::Aabb;
use parapet_math::{Vec3, Vec3d};

/// Largest accepted magnitude of any triangle coordinate on each axis (m):
/// 1,000,000 m, where an `f32` coordinate still resolves 1/16 m.
pub const MAX_COORDINATE: f64 = 1.0e6;

/// A triangle is too thin when its `f64` cross-product magnitude (twice its
/// area, m^2) is below its longest squared edge length divided by this ratio
/// (dimensionless, 2^20 = 1048576): the height over the longest edge
/// must then be at least about 1e-6 of that edge, so the face normal is
/// resolved by `f64` sweeps.
pub const THIN_TRIANGLE_RATIO: f64 = 1_048_576.0;

/// Why a triangle fails validation; each variant names the triangle.
#[derive(Debug, Clone, Copy, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum TriangleError {
    /// A vertex has a NaN or infinite coordinate.
    #[error("triangle {triangle} vertex {vertex} = {value:?} m is not finite")]
    NotFinite {
        /// Triangle index.
        triangle: usize,
        /// Vertex 0 (a), 1 (b) or 2 (c).
        vertex: usize,
        /// Its coordinates (m).
        value: [f32; 3],
    },
    /// A coordinate lies farther than [`MAX_COORDINATE`] from the origin.
    #[error("triangle {triangle} vertex {vertex} coordinate {axis} = {value} m exceeds the limit of {limit} m from the origin")]
    CoordinateOutOfRange {
        /// Triangle index.
        triangle: usize,
        /// Vertex 0, 1 or 2.
        vertex: usize,
        /// Axis 0 (x), 1 (y) or 2 (z).
        axis: usize,
        /// The coordinate (m).
        value: f32,
        /// [`MAX_COORDINATE`] (m).
        limit: f64,
    },
    /// The `f32` raw normal `(b - a) x (c - a)` is exactly zero.
    #[error("triangle {triangle} has a zero f32 raw normal (b - a) x (c - a) (limit: nonzero)")]
    ZeroRawNormal {
        /// Triangle index.
        triangle: usize,
    },
    /// The triangle is too thin for `f64` sweeps.
    #[error("triangle {triangle} is too thin: f64 |(b - a) x (c - a)| = {cross_magnitude} m^2 is below its longest squared edge {longest_squared_edge} m^2 / {ratio} = {limit} m^2")]
    TooThin {
        /// Triangle index.
        triangle: usize,
        /// The `f64` cross-product magnitude (m^2).
        cross_magnitude: f64,
        /// The longest squared edge length (m^2).
        longest_squared_edge: f64,
        /// [`THIN_TRIANGLE_RATIO`].
        ratio: f64,
        /// `longest_squared_edge / ratio` (m^2).
        limit: f64,
    },
    /// A transformed vertex does not fit `f32` storage.
    #[error("triangle {triangle} vertex {vertex} = {value:?} m is not representable in f32 after the transform")]
    NotRepresentable {
        /// Triangle index.
        triangle: usize,
        /// Vertex 0, 1 or 2.
        vertex: usize,
        /// The `f64` coordinates (m).
        value: [f64; 3],
    },
}

/// A triangle with `f32` vertices (m). Its front is the side that the
/// counter-clockwise raw normal `(b - a) x (c - a)` points to.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Triangle {
    /// First vertex (m).
    pub a: Vec3,
    /// Second vertex (m).
    pub b: Vec3,
    /// Third vertex (m).
    pub c: Vec3,
}

impl Triangle {
    /// The triangle `(a, b, c)`.
    pub fn new(a: Vec3, b: Vec3, c: Vec3) -> Self {
        Self { a, b, c }
    }

    /// The vertices as an array `[a, b, c]`.
    pub fn vertices(&self) -> [Vec3; 3] {
        [self.a, self.b, self.c]
    }

    /// The raw normal `(b - a) x (c - a)` evaluated in `f32` (m^2, not unit).
    pub fn raw_normal(&self) -> Vec3 {
        (self.b - self.a).cross(&(self.c - self.a))
    }

    /// The raw normal `(b - a) x (c - a)` evaluated in `f64` (m^2, not unit).
    pub fn raw_normal_f64(&self) -> Vec3d {
        let a = self.a.cast::<f64>();
        (self.b.cast::<f64>() - a).cross(&(self.c.cast::<f64>() - a))
    }

    /// The unit normal in `f64`, or `None` when the `f64` raw normal is zero.
    pub fn unit_normal_f64(&self) -> Option<Vec3d> {
        let n = self.raw_normal_f64();
        let len = n.norm();
        (len > 0.0 && len.is_finite()).then(|| n / len)
    }

    /// The longest squared edge length in `f64` (m^2).
    pub fn longest_squared_edge_f64(&self) -> f64 {
        let [a, b, c] = self.vertices().map(|v| v.cast::<f64>());
        (b - a)
            .norm_squared()
            .max((c - b).norm_squared())
            .max((a - c).norm_squared())
    }

    /// The triangle's bounds (exact: the min and max of its vertices).
    pub fn aabb(&self) -> Aabb {
        Aabb::from_points(&[self.a, self.b, self.c])
    }

    /// Checks the precision limits for the triangle with index `index`
    /// (used in the error), in order: finite, within [`MAX_COORDINATE`],
    /// nonzero `f32` raw normal, not thinner than [`THIN_TRIANGLE_RATIO`] allows.
    ///
    /// # Errors
    /// The first [`TriangleError`] found.
    pub fn validate(&self, index: usize) -> Result<(), TriangleError> {
        for (vertex, v) in self.vertices().iter().enumerate() {
            if v.iter().any(|x| !x.is_finite()) {
                return Err(TriangleError::NotFinite {
                    triangle: index,
                    vertex,
                    value: [v.x, v.y, v.z],
                });
            }
        }
        for (vertex, v) in self.vertices().iter().enumerate() {
            for axis in 0..3 {
                if f64::from(v[axis].abs()) > MAX_COORDINATE {
                    return Err(TriangleError::CoordinateOutOfRange {
                        triangle: index,
                        vertex,
                        axis,
                        value: v[axis],
                        limit: MAX_COORDINATE,
                    });
                }
            }
        }
        if self.raw_normal() == Vec3::zeros() {
            return Err(TriangleError::ZeroRawNormal { triangle: index });
        }
        let cross_magnitude = self.raw_normal_f64().norm();
        let longest_squared_edge = self.longest_squared_edge_f64();
        let limit = longest_squared_edge / THIN_TRIANGLE_RATIO;
        if cross_magnitude < limit {
            return Err(TriangleError::TooThin {
                triangle: index,
                cross_magnitude,
                longest_squared_edge,
                ratio: THIN_TRIANGLE_RATIO,
                limit,
            });
        }
        Ok(())
    }
}

/// Validates every triangle in order and reports the first that fails
/// (its index in `triangles` is the one named by the error).
///
/// # Errors
/// The first [`TriangleError`] found.
pub fn validate_triangles(triangles: &[Triangle]) -> Result<(), TriangleError> {
    triangles
        .iter()
        .enumerate()
        .try_for_each(|(i, t)| t.validate(i))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_unit_right_triangle_is_valid_and_faces_plus_z() {
        let t = Triangle::new(Vec3::zeros(), Vec3::x(), Vec3::y());
        assert_eq!(t.raw_normal(), Vec3::z());
        assert_eq!(t.validate(0), Ok(()));
    }

    #[test]
    fn a_collinear_triangle_has_a_zero_raw_normal() {
        let t = Triangle::new(Vec3::zeros(), Vec3::x(), Vec3::x() * 2.0);
        assert_eq!(
            t.validate(7),
            Err(TriangleError::ZeroRawNormal { triangle: 7 })
        );
    }
}
