//! Rigid bodies: motion modes, pose, shape placement, mass properties,
//! velocities, pending forces, damping and the split (pose-only) velocity.
//!
//! The user-facing contract is "Mass properties", "Motion modes" and "Forces
//! and impulses" in docs/physics.md.
//!
//! Frames: `position()` is the body origin in world coordinates and
//! `rotation()` turns body coordinates into world coordinates. The shape is
//! placed in the body frame by its offset pose; the mass centre is a local
//! offset from the body origin. Linear velocity is the velocity of the mass
//! centre, angular velocity is about the mass centre; both are world-frame.
//! Units are SI.
//!
//! Invariants kept by the API (and checked by [`RigidBody::validate`]): a
//! dynamic body's effective mass, inverse mass and inverse tensor equal its
//! saved dynamic configuration bit for bit; a kinematic or static body's are
//! exactly zero while the saved configuration (if the body was created
//! dynamic) is retained unchanged for restoration.

mod ccd_mode;
mod collision_groups;
mod dynamics;
mod error;
pub(crate) mod forces;
mod inertia;
mod kind;
pub(crate) mod mass;
mod sleep;
mod validate;

pub use ccd_mode::{CcdMode, UnknownCcdMode};
pub use collision_groups::CollisionGroups;
pub use error::BodyError;
pub use kind::BodyKind;

use parapet_geometry::{Material, Shape};
use parapet_math::{Mat3, Quat, Vec3};

pub(crate) use mass::{DynamicMass, TensorOrigin};

/// A rigid body: a shape placed in a body frame, a motion mode, mass
/// properties and motion state. See the module documentation for frames.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct RigidBody {
    pub(crate) kind: BodyKind,
    pub(crate) position: Vec3,
    pub(crate) rotation: Quat,
    pub(crate) shape: Shape,
    pub(crate) shape_position: Vec3,
    pub(crate) shape_rotation: Quat,
    pub(crate) center_of_mass: Vec3,
    pub(crate) material: Material,
    pub(crate) linear_velocity: Vec3,
    pub(crate) angular_velocity: Vec3,
    pub(crate) force: Vec3,
    pub(crate) torque: Vec3,
    pub(crate) collides: bool,
    /// The continuous-collision policy (a body read by older code has the
    /// default, `Inherit`).
    #[cfg_attr(feature = "serde", serde(default))]
    pub(crate) ccd: CcdMode,
    /// Which bodies it may touch (a body read by older code has the
    /// default, [`CollisionGroups::ALL`]).
    #[cfg_attr(feature = "serde", serde(default))]
    pub(crate) collision_groups: CollisionGroups,
    /// Whether it is a sensor (reports crossings, applies no impulse).
    #[cfg_attr(feature = "serde", serde(default))]
    pub(crate) sensor: bool,
    /// Whether it is asleep (`sleep.rs`; a body read by older code is
    /// awake).
    #[cfg_attr(feature = "serde", serde(default))]
    pub(crate) sleeping: bool,
    /// Seconds (s) it has spent below the world's sleep thresholds.
    #[cfg_attr(feature = "serde", serde(default))]
    pub(crate) sleep_timer: f32,
    /// Whether it may fall asleep (a body read by older code may).
    #[cfg_attr(feature = "serde", serde(default = "sleep::can_sleep_default"))]
    pub(crate) can_sleep: bool,
    pub(crate) linear_damping: f32,
    pub(crate) angular_damping: f32,
    pub(crate) split_linear_velocity: Vec3,
    pub(crate) split_angular_velocity: Vec3,
    /// Effective mass (kg): the configured mass when dynamic, 0 otherwise.
    pub(crate) mass: f32,
    /// Effective inverse mass (1/kg).
    pub(crate) inverse_mass: f32,
    /// Effective local inverse inertia tensor (1/(kg m²)).
    pub(crate) inverse_inertia: Mat3,
    /// The configured dynamic mass properties, kept through kinematic and
    /// static phases; `None` for bodies created kinematic or static.
    pub(crate) dynamic: Option<DynamicMass>,
}

impl RigidBody {
    fn with_kind(shape: Shape, kind: BodyKind, dynamic: Option<DynamicMass>, center: Vec3) -> Self {
        let (mass, inverse_mass, inverse_inertia) = match (&dynamic, kind) {
            (Some(d), BodyKind::Dynamic) => (d.mass, d.inverse_mass, d.inverse_inertia),
            _ => (0.0, 0.0, Mat3::zeros()),
        };
        Self {
            kind,
            position: Vec3::zeros(),
            rotation: Quat::identity(),
            shape,
            shape_position: Vec3::zeros(),
            shape_rotation: Quat::identity(),
            center_of_mass: center,
            material: Material::default(),
            linear_velocity: Vec3::zeros(),
            angular_velocity: Vec3::zeros(),
            force: Vec3::zeros(),
            torque: Vec3::zeros(),
            collides: true,
            ccd: CcdMode::Inherit,
            collision_groups: CollisionGroups::ALL,
            sensor: false,
            sleeping: false,
            sleep_timer: 0.0,
            can_sleep: true,
            linear_damping: 0.0,
            angular_damping: 0.0,
            split_linear_velocity: Vec3::zeros(),
            split_angular_velocity: Vec3::zeros(),
            mass,
            inverse_mass,
            inverse_inertia,
            dynamic,
        }
    }

    /// A dynamic body of uniform density: its mass centre is the shape's own
    /// mass centre and its inverse tensor the inverse of the shape's solid
    /// inertia about that centre (`shape.mass_properties(mass)`).
    ///
    /// # Errors
    /// [`BodyError::Shape`] when the shape is not a solid or the mass is not
    /// finite and positive; [`BodyError::InverseMassNotRepresentable`] and the
    /// tensor errors of [`RigidBody::set_inertia`] when the mass properties
    /// have no representable inverse.
    pub fn new_dynamic(shape: Shape, mass: f32) -> Result<Self, BodyError> {
        let properties = shape.mass_properties(mass)?;
        let dynamic = DynamicMass::solid(properties.mass, &properties.inertia)?;
        Ok(Self::with_kind(
            shape,
            BodyKind::Dynamic,
            Some(dynamic),
            properties.center,
        ))
    }

    /// A kinematic body: moved by its prescribed velocity, never by forces or
    /// contacts. It has no dynamic mass (see [`RigidBody::set_kind`]); its
    /// mass centre, the pivot of its rotation, is the body origin.
    ///
    /// A mesh shape makes a body that [`RigidBody::validate`] refuses: meshes
    /// must be static.
    pub fn new_kinematic(shape: Shape) -> Self {
        Self::with_kind(shape, BodyKind::Kinematic, None, Vec3::zeros())
    }

    /// A static body: it never moves. It has no dynamic mass.
    pub fn new_static(shape: Shape) -> Self {
        Self::with_kind(shape, BodyKind::Static, None, Vec3::zeros())
    }

    /// Builder: the body origin in world coordinates (m).
    #[must_use]
    pub fn with_position(mut self, position: Vec3) -> Self {
        self.position = position;
        self
    }

    /// Builder: the rotation from body to world coordinates.
    #[must_use]
    pub fn with_rotation(mut self, rotation: Quat) -> Self {
        self.rotation = rotation;
        self
    }

    /// Builder: the world velocity of the mass centre (m/s).
    #[must_use]
    pub fn with_linear_velocity(mut self, velocity: Vec3) -> Self {
        self.linear_velocity = velocity;
        self
    }

    /// Builder: the world angular velocity about the mass centre (rad/s).
    #[must_use]
    pub fn with_angular_velocity(mut self, velocity: Vec3) -> Self {
        self.angular_velocity = velocity;
        self
    }

    /// Builder: the surface material.
    #[must_use]
    pub fn with_material(mut self, material: Material) -> Self {
        self.material = material;
        self
    }

    /// The body origin in world coordinates (m).
    pub fn position(&self) -> Vec3 {
        self.position
    }

    /// The rotation from body to world coordinates.
    pub fn rotation(&self) -> Quat {
        self.rotation
    }

    /// The world velocity of the mass centre (m/s).
    pub fn linear_velocity(&self) -> Vec3 {
        self.linear_velocity
    }

    /// The world angular velocity about the mass centre (rad/s).
    pub fn angular_velocity(&self) -> Vec3 {
        self.angular_velocity
    }

    /// The motion mode.
    pub fn kind(&self) -> BodyKind {
        self.kind
    }

    /// The effective mass (kg): the configured mass of a dynamic body, 0 for a
    /// kinematic or static body (which contacts treat as immovable through
    /// [`RigidBody::inverse_mass`] = 0).
    pub fn mass(&self) -> f32 {
        self.mass
    }

    /// The effective inverse mass (1/kg): 0 unless dynamic.
    pub fn inverse_mass(&self) -> f32 {
        self.inverse_mass
    }

    /// The effective local inverse inertia tensor (1/(kg m²)) about the mass
    /// centre in the body frame: zero unless dynamic. A copy: editing it does
    /// not edit the body.
    pub fn inverse_inertia(&self) -> Mat3 {
        self.inverse_inertia
    }

    /// The configured dynamic mass (kg), kept while the body is kinematic or
    /// static; `None` for a body created kinematic or static.
    pub fn dynamic_mass(&self) -> Option<f32> {
        self.dynamic.as_ref().map(|d| d.mass)
    }

    /// The configured local inverse inertia tensor (1/(kg m²)), kept exactly
    /// (off-diagonal entries and locked axes) while the body is kinematic or
    /// static; `None` for a body created kinematic or static.
    pub fn dynamic_inverse_inertia(&self) -> Option<Mat3> {
        self.dynamic.as_ref().map(|d| d.inverse_inertia)
    }

    /// Whether the configured inverse tensor is a custom one from
    /// [`RigidBody::set_inverse_inertia`] (rather than the inverse of a solid
    /// inertia): custom tensors may be singular, negative or nonsymmetric.
    pub fn has_custom_inverse_inertia(&self) -> bool {
        matches!(
            self.dynamic.as_ref().map(|d| d.origin),
            Some(TensorOrigin::Custom)
        )
    }

    /// Whether the body takes part in contacts.
    pub fn collides(&self) -> bool {
        self.collides
    }

    /// The surface material.
    pub fn material(&self) -> Material {
        self.material
    }

    /// The collision shape, in shape coordinates (see [`RigidBody::shape_offset`]).
    pub fn shape(&self) -> &Shape {
        &self.shape
    }

    /// The pose of the shape in the body frame: translation (m) and rotation.
    pub fn shape_offset(&self) -> (Vec3, Quat) {
        (self.shape_position, self.shape_rotation)
    }

    /// The mass centre as a local offset from the body origin (m, body frame).
    pub fn center_of_mass(&self) -> Vec3 {
        self.center_of_mass
    }

    /// The pending force (N, world frame), consumed by the next step.
    pub fn force(&self) -> Vec3 {
        self.force
    }

    /// The pending torque about the mass centre (N m, world frame), consumed by
    /// the next step.
    pub fn torque(&self) -> Vec3 {
        self.torque
    }

    /// The linear damping coefficient `d` (1/s): velocity is divided by
    /// `1 + h d` each step.
    pub fn linear_damping(&self) -> f32 {
        self.linear_damping
    }

    /// The angular damping coefficient (1/s).
    pub fn angular_damping(&self) -> f32 {
        self.angular_damping
    }

    /// The split (pose-only) linear velocity (m/s, world): a contact position
    /// correction applied to the pose by the next pose update, never to the
    /// stored velocity.
    pub fn split_linear_velocity(&self) -> Vec3 {
        self.split_linear_velocity
    }

    /// The split (pose-only) angular velocity (rad/s, world, about the mass centre).
    pub fn split_angular_velocity(&self) -> Vec3 {
        self.split_angular_velocity
    }

    /// Moves the body origin (m) and wakes the body
    /// ([`RigidBody::wake`]). Any value is stored; a non-finite one is
    /// refused by [`RigidBody::validate`] and so by the next step.
    pub fn set_position(&mut self, position: Vec3) {
        self.wake();
        self.position = position;
    }

    /// Sets the rotation (body to world) and wakes the body. A quaternion whose squared norm is
    /// more than [`crate::tolerances::UNIT_QUATERNION_SQUARED_NORM_TOLERANCE`]
    /// from 1 is refused by [`RigidBody::validate`].
    pub fn set_rotation(&mut self, rotation: Quat) {
        self.wake();
        self.rotation = rotation;
    }

    /// Sets the world velocity of the mass centre (m/s) and wakes the body.
    pub fn set_linear_velocity(&mut self, velocity: Vec3) {
        self.wake();
        self.linear_velocity = velocity;
    }

    /// Sets the world angular velocity about the mass centre (rad/s) and
    /// wakes the body. It takes
    /// effect on the next step (there is no hidden momentum cache).
    pub fn set_angular_velocity(&mut self, velocity: Vec3) {
        self.wake();
        self.angular_velocity = velocity;
    }

    /// Sets the surface material and wakes the body (a lower friction may
    /// set it sliding).
    pub fn set_material(&mut self, material: Material) {
        self.wake();
        self.material = material;
    }

    /// Sets whether the body takes part in contacts and wakes it; forces and
    /// motion still integrate when it does not.
    pub fn set_collides(&mut self, collides: bool) {
        self.wake();
        self.collides = collides;
    }

    /// Sets the split (pose-only) linear velocity (m/s); used by the contact
    /// solver's position correction.
    pub fn set_split_linear_velocity(&mut self, velocity: Vec3) {
        self.split_linear_velocity = velocity;
    }

    /// Sets the split (pose-only) angular velocity (rad/s).
    pub fn set_split_angular_velocity(&mut self, velocity: Vec3) {
        self.split_angular_velocity = velocity;
    }

    /// Sets the linear damping coefficient (1/s).
    ///
    /// # Errors
    /// [`BodyError::InvalidDamping`] for a negative or non-finite value (the body is unchanged).
    pub fn set_linear_damping(&mut self, damping: f32) -> Result<(), BodyError> {
        check_damping("linear damping", damping)?;
        self.linear_damping = damping;
        Ok(())
    }

    /// Sets the angular damping coefficient (1/s).
    ///
    /// # Errors
    /// [`BodyError::InvalidDamping`] for a negative or non-finite value (the body is unchanged).
    pub fn set_angular_damping(&mut self, damping: f32) -> Result<(), BodyError> {
        check_damping("angular damping", damping)?;
        self.angular_damping = damping;
        Ok(())
    }
}

pub(crate) fn check_damping(quantity: &'static str, value: f32) -> Result<(), BodyError> {
    if value.is_finite() && value >= 0.0 {
        Ok(())
    } else {
        Err(BodyError::InvalidDamping { quantity, value })
    }
}
