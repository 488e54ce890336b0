//! Time integration of one body's free motion: velocity kicks and damping,
//! then the pose update (mass-centre translation and rotation).
//!
//! The rotation update is chosen by the body's inverse tensor ("Rotation
//! integration" in docs/physics.md): the Hamiltonian split of
//! [`rotation_split`] for a symmetric positive-definite anisotropic tensor,
//! and the normalized quaternion update of [`quaternion_update`] otherwise
//! (isotropic, kinematic, singular, negative or nonsymmetric custom tensors);
//! `body_motion.rs` makes the choice and applies it.

mod body_motion;
pub mod quaternion_update;
pub mod rotation_split;
