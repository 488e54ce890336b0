//! Motion modes and the mode change ("Motion modes" in docs/physics.md).
//!
//! Disabling a dynamic body (to kinematic or static) sets its effective mass,
//! inverse mass and inverse tensor to zero and retains the configured dynamic
//! mass and local inverse tensor exactly, off-diagonal entries and locked
//! axes included, through any chain of kinematic and static phases; restoring
//! dynamic mode brings them back bit for bit, and the world inverse tensor
//! then follows the body's current orientation. Dynamic to kinematic keeps the
//! velocity; entering static stops the linear, angular and split velocities.
//! Pending force and torque are untouched (the next step consumes them as
//! usual).
//!
//! Precision domain: no arithmetic; the retained configuration is copied,
//! never recomputed, so restoration is exact.

use super::{BodyError, RigidBody};
use parapet_math::{Mat3, Vec3};

/// How a body moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum BodyKind {
    /// Moved by gravity, forces, torques, impulses and contacts.
    Dynamic,
    /// Moved by its prescribed velocity only; immovable for contacts.
    Kinematic,
    /// Never moves.
    Static,
}

impl RigidBody {
    /// Changes the motion mode, keeping the dynamic configuration for later
    /// restoration (see the module documentation for what each transition
    /// keeps). Setting the current kind changes nothing.
    ///
    /// # Errors
    /// The body is left unchanged and the call returns
    /// - any [`RigidBody::validate`] error of the current body;
    /// - [`BodyError::NoDynamicConfiguration`] for `Dynamic` on a body created
    ///   kinematic or static (it has no saved mass to restore: create it
    ///   dynamic first);
    /// - [`BodyError::MeshNotStatic`] for a mesh body made dynamic (a mesh
    ///   has no volume and no mass: static or kinematic only).
    pub fn set_kind(&mut self, kind: BodyKind) -> Result<(), BodyError> {
        self.validate()?;
        if kind == self.kind {
            return Ok(());
        }
        if !self.shape.is_solid() && kind == BodyKind::Dynamic {
            return Err(BodyError::MeshNotStatic { kind });
        }
        match kind {
            BodyKind::Dynamic => {
                let Some(dynamic) = self.dynamic else {
                    return Err(BodyError::NoDynamicConfiguration {
                        quantity: "kind Dynamic",
                        kind: self.kind,
                    });
                };
                self.mass = dynamic.mass;
                self.inverse_mass = dynamic.inverse_mass;
                self.inverse_inertia = dynamic.inverse_inertia;
            }
            BodyKind::Kinematic | BodyKind::Static => {
                self.mass = 0.0;
                self.inverse_mass = 0.0;
                self.inverse_inertia = Mat3::zeros();
                if kind == BodyKind::Static {
                    self.linear_velocity = Vec3::zeros();
                    self.angular_velocity = Vec3::zeros();
                    self.split_linear_velocity = Vec3::zeros();
                    self.split_angular_velocity = Vec3::zeros();
                }
            }
        }
        self.kind = kind;
        // Only a dynamic body sleeps; one that changes kind starts awake.
        self.wake();
        Ok(())
    }
}
