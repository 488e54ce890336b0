//! Frame conversion for an orthogonal basis `R` (docs/physics.md, "Frames and
//! units"):
//! a point or center becomes `R c`, an inertia tensor becomes `R I R^T` with all
//! six independent entries kept (and mirrored exactly), and an axial vector
//! (angular velocity, torque, angular momentum) becomes `det(R) R v`, because a
//! reflection such as a y/z swap is not a rotation.
//!
//! Arithmetic is `f64`; the handedness `det(R)` is decided by the exact
//! determinant sign ([`crate::det3_sign`]), never by a rounded determinant.

use crate::exact_det::{det3_sign, Sign};
use crate::{promote_quat, Mat3d, Quat, Vec3d};

/// Largest accepted deviation of any entry of `R^T R` from the identity
/// (dimensionless). 1e-5 accepts an orthonormal basis written with `f32`
/// entries (about 6e-8 per entry) and a rotation matrix built from a unit
/// quaternion within the 1e-5 squared-norm tolerance of body validation
/// (docs/continuous-collision.md, "Precision limits"), while
/// refusing a scaled or sheared matrix.
pub const ORTHOGONALITY_TOLERANCE: f64 = 1.0e-5;

/// Why a matrix is not an orthogonal basis.
#[derive(Debug, Clone, Copy, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum FrameError {
    /// An entry is NaN or infinite.
    #[error("basis entry ({row}, {column}) = {value} is not finite")]
    NotFinite {
        /// Row of the entry.
        row: usize,
        /// Column of the entry.
        column: usize,
        /// The entry.
        value: f64,
    },
    /// `R^T R` differs from the identity by more than the tolerance.
    #[error(
        "basis is not orthogonal: entry ({row}, {column}) of R^T R deviates from the identity by {deviation} (limit {limit})"
    )]
    NotOrthogonal {
        /// Row of the worst entry of `R^T R`.
        row: usize,
        /// Column of the worst entry.
        column: usize,
        /// Its deviation from the identity.
        deviation: f64,
        /// [`ORTHOGONALITY_TOLERANCE`].
        limit: f64,
    },
}

/// An orthogonal 3x3 basis `R` (a rotation or a reflection) mapping
/// coordinates of one frame into another.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct OrthogonalBasis {
    matrix: Mat3d,
    reflection: bool,
}

impl OrthogonalBasis {
    /// Checks and wraps an orthogonal matrix (rotation or reflection).
    ///
    /// # Errors
    /// [`FrameError::NotFinite`], or [`FrameError::NotOrthogonal`] when an entry
    /// of `R^T R - I` exceeds [`ORTHOGONALITY_TOLERANCE`] in magnitude.
    pub fn new(matrix: Mat3d) -> Result<Self, FrameError> {
        for r in 0..3 {
            for c in 0..3 {
                let value = matrix[(r, c)];
                if !value.is_finite() {
                    return Err(FrameError::NotFinite {
                        row: r,
                        column: c,
                        value,
                    });
                }
            }
        }
        let gram = matrix.transpose() * matrix;
        let mut worst = (0, 0, 0.0f64);
        for r in 0..3 {
            for c in 0..3 {
                let target = if r == c { 1.0 } else { 0.0 };
                let deviation = (gram[(r, c)] - target).abs();
                if deviation > worst.2 {
                    worst = (r, c, deviation);
                }
            }
        }
        if worst.2 > ORTHOGONALITY_TOLERANCE {
            return Err(FrameError::NotOrthogonal {
                row: worst.0,
                column: worst.1,
                deviation: worst.2,
                limit: ORTHOGONALITY_TOLERANCE,
            });
        }
        // An orthogonal matrix has det = +-1: the exact sign is never zero here.
        let reflection = matches!(det3_sign(&matrix), Ok(Sign::Negative));
        Ok(Self { matrix, reflection })
    }

    /// The rotation of a unit quaternion, widened to `f64` and renormalized.
    pub fn from_rotation(rotation: Quat) -> Self {
        let q = promote_quat(rotation).into_inner();
        let q = nalgebra::UnitQuaternion::new_normalize(q);
        Self {
            matrix: q.to_rotation_matrix().into_inner(),
            reflection: false,
        }
    }

    /// The matrix `R`.
    pub fn matrix(&self) -> &Mat3d {
        &self.matrix
    }

    /// Whether `det(R) = -1` (a reflection, such as a swap of two axes).
    pub fn is_reflection(&self) -> bool {
        self.reflection
    }

    /// `det(R)` as exactly `+1.0` or `-1.0`.
    pub fn determinant_sign(&self) -> f64 {
        if self.reflection {
            -1.0
        } else {
            1.0
        }
    }

    /// A point, center or polar vector (velocity, force) in the new frame: `R c`.
    pub fn point(&self, c: &Vec3d) -> Vec3d {
        self.matrix * c
    }

    /// An axial vector (angular velocity, torque, angular momentum) in the new
    /// frame: `det(R) R v`.
    pub fn axial(&self, v: &Vec3d) -> Vec3d {
        (self.matrix * v) * self.determinant_sign()
    }

    /// A symmetric second-order tensor (inertia) in the new frame: `R I R^T`.
    /// The input's six upper entries are used as the tensor (its lower
    /// triangle is taken as their mirror), and the result is exactly symmetric.
    pub fn tensor(&self, inertia: &Mat3d) -> Mat3d {
        let sym = mirror_upper(inertia);
        mirror_upper(&(self.matrix * sym * self.matrix.transpose()))
    }

    /// The inverse basis `R^T`.
    pub fn inverse(&self) -> Self {
        Self {
            matrix: self.matrix.transpose(),
            reflection: self.reflection,
        }
    }
}

/// The symmetric matrix whose upper triangle is `m`'s (the lower triangle is
/// replaced by the mirror of the upper one, so every pair is exactly equal).
pub fn mirror_upper(m: &Mat3d) -> Mat3d {
    let mut s = *m;
    s[(1, 0)] = m[(0, 1)];
    s[(2, 0)] = m[(0, 2)];
    s[(2, 1)] = m[(1, 2)];
    s
}

/// The symmetric part `(M + M^T) / 2`, computed pairwise so every mirrored
/// pair is exactly equal: each pair is set to its mean.
pub fn symmetrize(m: &Mat3d) -> Mat3d {
    let mut s = *m;
    for (r, c) in [(0, 1), (0, 2), (1, 2)] {
        let mean = 0.5 * m[(r, c)] + 0.5 * m[(c, r)];
        s[(r, c)] = mean;
        s[(c, r)] = mean;
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_y_z_swap_is_a_reflection_and_flips_axial_vectors() {
        let swap = Mat3d::new(1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 1.0, 0.0);
        let basis = OrthogonalBasis::new(swap).unwrap();
        assert!(basis.is_reflection());
        let omega = Vec3d::new(0.0, 0.0, 2.0);
        // Spinning about +z, seen in a frame whose y and z are swapped:
        // the polar image is +y, the axial vector flips to -y.
        assert_eq!(basis.point(&omega), Vec3d::new(0.0, 2.0, 0.0));
        assert_eq!(basis.axial(&omega), Vec3d::new(0.0, -2.0, 0.0));
    }

    #[test]
    fn tensors_keep_all_six_entries_and_stay_symmetric() {
        let inertia = Mat3d::new(3.0, 0.1, -0.2, 0.1, 4.0, 0.3, -0.2, 0.3, 5.0);
        let basis = OrthogonalBasis::from_rotation(Quat::from_euler_angles(0.3, -0.7, 1.1));
        let t = basis.tensor(&inertia);
        assert_eq!(t, t.transpose());
        // The trace is invariant under rotation (rounding: a few ulps of 12).
        assert!((t.trace() - 12.0).abs() < 1e-12);
        let back = basis.inverse().tensor(&t);
        assert!((back - inertia).abs().max() < 1e-12);
    }

    #[test]
    fn a_scaled_matrix_is_not_a_basis() {
        let err = OrthogonalBasis::new(Mat3d::identity() * 1.01).unwrap_err();
        assert!(matches!(err, FrameError::NotOrthogonal { .. }));
    }
}
