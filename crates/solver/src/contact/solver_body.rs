//! [`SolverBody`]: the `f64` working copy of one body's velocities and mass
//! properties that the contact solver changes, and its write-back.
//!
//! Precision domain: `f64` working values widened from the stored `f32`
//! state; the write-back rounds once to `f32` and refuses a value beyond it,
//! leaving the body unchanged.

use parapet_math::{demote, promote, Mat3d, Vec3d};

use crate::body::forces::not_representable;
use crate::body::{BodyError, BodyKind, RigidBody};

/// One body as the contact solver sees it: velocities (world, about the
/// world mass centre), split (pose-only) velocities, inverse mass and world
/// inverse tensor, all in `f64`. A kinematic body keeps its velocity with
/// zero inverse mass; a static body has zero velocity and zero inverse mass.
#[derive(Debug, Clone, PartialEq)]
pub struct SolverBody {
    /// Velocity of the mass centre (m/s, world).
    pub linear_velocity: Vec3d,
    /// Angular velocity about the mass centre (rad/s, world).
    pub angular_velocity: Vec3d,
    /// Split (pose-only) linear velocity (m/s, world).
    pub split_linear_velocity: Vec3d,
    /// Split (pose-only) angular velocity (rad/s, world).
    pub split_angular_velocity: Vec3d,
    /// Inverse mass (1/kg); 0 for kinematic and static bodies.
    pub inverse_mass: f64,
    /// World inverse tensor `R A Rᵀ` (1/(kg m²)); zero unless dynamic.
    pub world_inverse_inertia: Mat3d,
    /// World mass centre (m).
    pub center: Vec3d,
    /// The velocity (m/s) the step's forces (gravity) added before the
    /// contact stage: the solver takes it back and adds it again in equal
    /// shares at each substep, as if the forces acted during the step
    /// (Box2D v3 integrates gravity per substep). Zero unless the caller
    /// sets it ([`SolverBody::with_external_velocity`]).
    pub external_velocity: Vec3d,
    /// The displacement (m) of the mass centre during the solve's substeps.
    pub(crate) moved: Vec3d,
    /// The rotation vector (rad) of the body during the solve's substeps.
    pub(crate) turned: Vec3d,
}

impl SolverBody {
    /// The working copy of `body`.
    pub fn of(body: &RigidBody) -> SolverBody {
        let zero = Vec3d::zeros();
        let (linear, angular) = match body.kind() {
            BodyKind::Static => (zero, zero),
            _ => (
                promote(body.linear_velocity()),
                promote(body.angular_velocity()),
            ),
        };
        let dynamic = body.kind() == BodyKind::Dynamic;
        SolverBody {
            linear_velocity: linear,
            angular_velocity: angular,
            split_linear_velocity: promote(body.split_linear_velocity()),
            split_angular_velocity: promote(body.split_angular_velocity()),
            inverse_mass: if dynamic {
                body.inverse_mass() as f64
            } else {
                0.0
            },
            world_inverse_inertia: if dynamic {
                body.world_inverse_inertia_f64()
            } else {
                Mat3d::zeros()
            },
            center: body.world_center_of_mass_f64(),
            external_velocity: Vec3d::zeros(),
            moved: Vec3d::zeros(),
            turned: Vec3d::zeros(),
        }
    }

    /// The same body with the forces' velocity increment of the step
    /// `velocity` (m/s; see [`SolverBody::external_velocity`]). Ignored for
    /// a kinematic or static body.
    pub fn with_external_velocity(mut self, velocity: Vec3d) -> Self {
        if self.inverse_mass > 0.0 {
            self.external_velocity = velocity;
        }
        self
    }

    /// A static, immovable body at `center` (the tests' ground).
    #[cfg(test)]
    pub(crate) fn immovable(center: Vec3d) -> SolverBody {
        SolverBody {
            linear_velocity: Vec3d::zeros(),
            angular_velocity: Vec3d::zeros(),
            split_linear_velocity: Vec3d::zeros(),
            split_angular_velocity: Vec3d::zeros(),
            inverse_mass: 0.0,
            world_inverse_inertia: Mat3d::zeros(),
            center,
            external_velocity: Vec3d::zeros(),
            moved: Vec3d::zeros(),
            turned: Vec3d::zeros(),
        }
    }

    /// Velocity (m/s) of the body point at lever arm `arm` from the mass centre.
    #[inline]
    pub(crate) fn velocity_at(&self, arm: &Vec3d) -> Vec3d {
        self.linear_velocity + self.angular_velocity.cross(arm)
    }

    /// Rounds the velocities and split velocities to `f32` and stores them in
    /// `body` (a dynamic body; others are left as they are, since impulses
    /// do not move them).
    ///
    /// # Errors
    /// [`BodyError::NotRepresentable`] naming the first quantity beyond
    /// `f32`; the body is then unchanged.
    pub fn write_back(&self, body: &mut RigidBody) -> Result<(), BodyError> {
        if body.kind() != BodyKind::Dynamic {
            return Ok(());
        }
        let linear =
            demote(self.linear_velocity).map_err(|e| not_representable("linear velocity", e))?;
        let angular =
            demote(self.angular_velocity).map_err(|e| not_representable("angular velocity", e))?;
        let split_linear = demote(self.split_linear_velocity)
            .map_err(|e| not_representable("split linear velocity", e))?;
        let split_angular = demote(self.split_angular_velocity)
            .map_err(|e| not_representable("split angular velocity", e))?;
        // The fields directly: the solve is the step's own motion, not a
        // user's edit, so it neither wakes the body nor resets its sleep
        // timer (the setters would).
        body.linear_velocity = linear;
        body.angular_velocity = angular;
        body.split_linear_velocity = split_linear;
        body.split_angular_velocity = split_angular;
        Ok(())
    }
}

/// Two distinct mutable bodies of the slice (`a != b`).
pub(super) fn pair(
    bodies: &mut [SolverBody],
    a: usize,
    b: usize,
) -> (&mut SolverBody, &mut SolverBody) {
    if a < b {
        let (lo, hi) = bodies.split_at_mut(b);
        (&mut lo[a], &mut hi[0])
    } else {
        let (lo, hi) = bodies.split_at_mut(a);
        (&mut hi[0], &mut lo[b])
    }
}
