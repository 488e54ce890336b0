//! parapet-math: the number types every parapet crate shares.
//!
//! Public state is `f32` (nalgebra vectors, matrices and unit quaternions);
//! geometry predicates and sweeps compute in `f64`. This crate owns the
//! conversions between the two ([`promote`], [`demote`]), outward rounding of
//! `f64` bounds, exact signs of determinants, frame conversions and the
//! physical quantities of docs/physics.md ("Frames and units").
//!
//! - [`rounding`]: directed `f64` bounds (`add_down`, `mul_up`, ...,
//!   `f32_down`/`f32_up`) and the outward-rounded [`Interval`];
//! - [`expansion`]: error-free transformations and Shewchuk expansions;
//! - [`exact_det`]: exact signs of 2x2/3x3 determinants and
//!   [`is_symmetric_positive_definite`]; [`orient`]: exact [`orient3d`];
//! - [`frames`]: [`OrthogonalBasis`] (`R c`, `R I R^T`, `det(R) R v`);
//! - [`quantities`]: torque, energies, momenta, stiffness and SI units.
//!
//! Architecture invariant: this crate depends on nalgebra and thiserror only;
//! every other parapet crate depends on it.

pub use nalgebra;

mod convert;
pub mod exact_det;
pub mod expansion;
pub mod frames;
pub mod orient;
pub mod quantities;
pub mod rounding;

pub use convert::{demote, demote_scalar, promote, promote_quat, DemoteError};
pub use exact_det::{
    det2_sign, det3_sign, det3_sign_f32, is_symmetric_positive_definite, ExactSignError, Sign,
};
pub use frames::{mirror_upper, symmetrize, FrameError, OrthogonalBasis};
pub use orient::{collinear, orient3d};
pub use rounding::Interval;

/// A 3-vector of `f32`: positions, velocities, forces (SI units, world or body frame as documented).
pub type Vec3 = nalgebra::Vector3<f32>;
/// A 3x3 matrix of `f32`: inertia tensors and rotations.
pub type Mat3 = nalgebra::Matrix3<f32>;
/// A unit quaternion of `f32`: orientations (body to world).
pub type Quat = nalgebra::UnitQuaternion<f32>;
/// A 3-vector of `f64`: the intermediate type of predicates and sweeps.
pub type Vec3d = nalgebra::Vector3<f64>;
/// A 3x3 matrix of `f64`.
pub type Mat3d = nalgebra::Matrix3<f64>;
/// A unit quaternion of `f64`.
pub type Quatd = nalgebra::UnitQuaternion<f64>;
