//! Forces, torques and impulses ("Forces and impulses" in docs/physics.md).
//!
//! `add_force` and `add_torque` accumulate world-frame loads that the next
//! step consumes (a controller applies its force before each step).
//! `apply_impulse` changes velocity at once: `Δv = J / m` and, about the world
//! mass centre `c`, `ΔL = (p − c) × J`, so `Δω = R A Rᵀ ΔL`. It runs
//! [`RigidBody::validate`] first and computes the new velocities in `f64`
//! before changing anything.
//!
//! Source: Baraff, "Physically Based Modeling: Rigid Body Simulation"
//! (SIGGRAPH 2001 course notes), impulses at a point. Precision domain:
//! `f64` from the stored `f32` state; a new velocity that is not a finite
//! `f32` is refused.

use parapet_math::{demote, promote};

use super::mass::check_finite_vector;
use super::{BodyError, BodyKind, RigidBody};
use parapet_math::Vec3;

impl RigidBody {
    /// Adds a world-frame force (N) through the mass centre, consumed by the
    /// next step, and wakes the body ([`RigidBody::wake`]). Kinematic and
    /// static bodies ignore it when the step consumes it. A non-finite sum is refused by the next validation.
    pub fn add_force(&mut self, force: Vec3) {
        self.wake();
        self.force += force;
    }

    /// Adds a world-frame torque (N m) about the mass centre, consumed by the
    /// next step, and wakes the body.
    pub fn add_torque(&mut self, torque: Vec3) {
        self.wake();
        self.torque += torque;
    }

    /// Applies an impulse `impulse` (N s, world frame) at the world point
    /// `point` (m) and wakes a dynamic body. Kinematic and static bodies are not moved by impulses
    /// (their inverse mass and tensor are zero): the call validates and
    /// returns `Ok` without change.
    ///
    /// # Errors
    /// The body is unchanged and the call returns any [`RigidBody::validate`]
    /// error, [`BodyError::NotFinite`] for a non-finite impulse or point, or
    /// [`BodyError::NotRepresentable`] when a new velocity overflows `f32`.
    pub fn apply_impulse(&mut self, impulse: Vec3, point: Vec3) -> Result<(), BodyError> {
        self.validate()?;
        check_finite_vector("impulse", &impulse)?;
        check_finite_vector("impulse point", &point)?;
        if self.kind != BodyKind::Dynamic {
            return Ok(());
        }
        let j = promote(impulse);
        let arm = promote(point) - self.world_center_of_mass_f64();
        let angular_impulse = arm.cross(&j);
        let dv = j * self.inverse_mass as f64;
        let dw = self.world_inverse_inertia_f64() * angular_impulse;
        let linear = promote(self.linear_velocity) + dv;
        let angular = promote(self.angular_velocity) + dw;
        let linear = demote(linear).map_err(|e| not_representable("linear velocity", e))?;
        let angular = demote(angular).map_err(|e| not_representable("angular velocity", e))?;
        self.linear_velocity = linear;
        self.angular_velocity = angular;
        self.wake();
        Ok(())
    }
}

/// The [`BodyError`] of a refused `f64` to `f32` demotion.
pub(crate) fn not_representable(
    quantity: &'static str,
    error: parapet_math::DemoteError,
) -> BodyError {
    let value = match error {
        parapet_math::DemoteError::NotFinite { value }
        | parapet_math::DemoteError::OutOfRange { value } => value,
        _ => f64::NAN,
    };
    BodyError::NotRepresentable { quantity, value }
}
