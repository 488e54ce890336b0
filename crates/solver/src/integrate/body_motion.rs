//! One body's free motion over a step, in the two halves the world calls with
//! contacts in between ("One step" in docs/physics.md, stages 3 and 6):
//!
//! 1. [`RigidBody::integrate_velocity`]: gravity, force and torque kicks
//!    (`Δv = h (g + F/m)`, `ΔL = h τ`, so `Δω = h R A Rᵀ τ`), then damping by
//!    the factor `1 / (1 + h d)`; the pending force and torque are consumed.
//! 2. [`RigidBody::integrate_pose`]: the pose-only split correction, the
//!    rotation about the mass centre (Hamiltonian split drift or normalized
//!    quaternion update, see [`crate::integrate`]) and the translation of the
//!    mass centre by `h (v + v_split)`, the body origin following so that the
//!    world mass centre moves at that velocity; the split velocities are
//!    consumed. The split correction turns the pose first; the drift then
//!    reads the world momentum from the corrected pose and the stored angular
//!    velocity, so for an anisotropic body that pose-only correction can
//!    change angular momentum and rotational energy.
//!
//! The user-facing contract is "Forces and impulses", "One step" and
//! "Rotation integration" in docs/physics.md; the split rotation follows
//! Dullweber, Leimkuhler and McLachlan (1997), see `rotation_split.rs`.
//!
//! Precision domain: both halves compute in `f64` from the stored `f32`
//! state and change the body only when every new value is representable: a
//! refused half leaves the body bit for bit unchanged. Neither runs [`RigidBody::validate`]: the world
//! validates every body at step entry.

use parapet_math::{demote, promote, Quat, Vec3};

use super::quaternion_update::quaternion_update;
use super::rotation_split::{drift, widen_rotation, InverseInertiaSplit};
use crate::body::forces::not_representable;
use crate::body::mass::check_finite_vector;
use crate::body::{BodyError, BodyKind, RigidBody};

/// How a body's orientation is advanced over one step.
// The split variant carries its factorization (about 200 bytes) so that the
// pose update does not factor twice; the value lives briefly on the stack and
// is never stored, so boxing it would only add an allocation per step.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum RotationModel {
    /// Not rotated: static bodies, and bodies with zero angular velocity
    /// (which need no free drift).
    Still,
    /// The normalized quaternion update with the stored world angular
    /// velocity: kinematic bodies, isotropic tensors, and singular, negative
    /// or nonsymmetric custom tensors.
    PrescribedVelocity,
    /// The Hamiltonian split drift of an anisotropic symmetric
    /// positive-definite tensor.
    HamiltonianSplit(InverseInertiaSplit),
}

fn is_isotropic(a: &parapet_math::Mat3) -> bool {
    let d = a[(0, 0)];
    a[(1, 1)] == d
        && a[(2, 2)] == d
        && [(0, 1), (0, 2), (1, 0), (1, 2), (2, 0), (2, 1)]
            .iter()
            .all(|&ij| a[ij] == 0.0)
}

fn check_time_step(dt: f32) -> Result<f64, BodyError> {
    if dt.is_finite() && dt > 0.0 {
        Ok(dt as f64)
    } else {
        Err(BodyError::InvalidTimeStep { value: dt })
    }
}

impl RigidBody {
    /// How [`RigidBody::integrate_pose`] will turn this body.
    pub(crate) fn rotation_model(&self) -> RotationModel {
        if self.kind == BodyKind::Static || self.angular_velocity == Vec3::zeros() {
            return RotationModel::Still;
        }
        if self.kind == BodyKind::Dynamic && !is_isotropic(&self.inverse_inertia) {
            if let Some(split) = InverseInertiaSplit::factor(&self.inverse_inertia) {
                return RotationModel::HamiltonianSplit(split);
            }
        }
        RotationModel::PrescribedVelocity
    }

    /// First half of a step of `dt` seconds: for a dynamic body, the kicks of
    /// gravity `gravity` (m/s², world), the pending force and torque, then
    /// damping. The pending force and torque are consumed whatever the kind.
    ///
    /// # Errors
    /// [`BodyError::InvalidTimeStep`], [`BodyError::NotFinite`] for gravity,
    /// or [`BodyError::NotRepresentable`] for a velocity beyond `f32`; the
    /// body is then unchanged.
    pub fn integrate_velocity(&mut self, dt: f32, gravity: Vec3) -> Result<(), BodyError> {
        let h = check_time_step(dt)?;
        check_finite_vector("gravity", &gravity)?;
        if self.kind == BodyKind::Dynamic {
            let acceleration = promote(gravity) + promote(self.force) * self.inverse_mass as f64;
            let linear = (promote(self.linear_velocity) + acceleration * h)
                / (1.0 + h * self.linear_damping as f64);
            let spin_up = self.world_inverse_inertia_f64() * promote(self.torque) * h;
            let angular = (promote(self.angular_velocity) + spin_up)
                / (1.0 + h * self.angular_damping as f64);
            let linear = demote(linear).map_err(|e| not_representable("linear velocity", e))?;
            let angular = demote(angular).map_err(|e| not_representable("angular velocity", e))?;
            self.linear_velocity = linear;
            self.angular_velocity = angular;
        }
        self.force = Vec3::zeros();
        self.torque = Vec3::zeros();
        Ok(())
    }

    /// Second half of a step of `dt` seconds: moves a dynamic or kinematic
    /// body (see the module documentation) and consumes the split
    /// velocities. A dynamic anisotropic body's angular velocity is
    /// reconstructed from its new pose and its world angular momentum.
    ///
    /// # Errors
    /// [`BodyError::InvalidTimeStep`], or [`BodyError::NotRepresentable`] when
    /// the new pose or angular velocity is not representable; the body is
    /// then unchanged.
    pub fn integrate_pose(&mut self, dt: f32) -> Result<(), BodyError> {
        let h = check_time_step(dt)?;
        if self.kind == BodyKind::Static {
            self.split_linear_velocity = Vec3::zeros();
            self.split_angular_velocity = Vec3::zeros();
            return Ok(());
        }
        let center = promote(self.center_of_mass);
        let world_center =
            promote(self.position) + widen_rotation(&self.rotation).transform_vector(&center);
        let turn = |q: &Quat, w: &Vec3| {
            quaternion_update(q, w, h).ok_or(BodyError::NotRepresentable {
                quantity: "rotation",
                value: f64::NAN,
            })
        };
        let corrected = if self.split_angular_velocity == Vec3::zeros() {
            self.rotation
        } else {
            turn(&self.rotation, &self.split_angular_velocity)?
        };
        let (rotation, angular_velocity) = match self.rotation_model() {
            RotationModel::Still => (corrected, self.angular_velocity),
            RotationModel::PrescribedVelocity => (
                turn(&corrected, &self.angular_velocity)?,
                self.angular_velocity,
            ),
            RotationModel::HamiltonianSplit(split) => {
                let d = drift(&split, &corrected, &self.angular_velocity, h)
                    .map_err(|e| not_representable("angular velocity", e))?;
                (d.rotation, d.angular_velocity)
            }
        };
        let velocity = promote(self.linear_velocity) + promote(self.split_linear_velocity);
        let new_center = world_center + velocity * h;
        let position = new_center - widen_rotation(&rotation).transform_vector(&center);
        let position = demote(position).map_err(|e| not_representable("position", e))?;
        self.position = position;
        self.rotation = rotation;
        self.angular_velocity = angular_velocity;
        self.split_linear_velocity = Vec3::zeros();
        self.split_angular_velocity = Vec3::zeros();
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use parapet_geometry::Shape;
    use parapet_math::Mat3;

    #[test]
    fn the_origin_follows_a_turning_mass_center_moving_at_v() {
        let mut b = RigidBody::new_dynamic(Shape::sphere(0.5).unwrap(), 1.0)
            .unwrap()
            .with_linear_velocity(Vec3::new(1.0, 0.0, 0.0))
            .with_angular_velocity(Vec3::new(0.0, 0.0, std::f32::consts::PI));
        b.set_center_of_mass(Vec3::new(0.25, 0.0, 0.0)).unwrap();
        let start = b.world_center_of_mass();
        for _ in 0..100 {
            b.integrate_velocity(0.01, Vec3::zeros()).unwrap();
            b.integrate_pose(0.01).unwrap();
        }
        // After 1 s the mass centre moved by v t; the body turned by about pi
        // about it, so the origin sits on the other side: centre + (0.25, 0, 0).
        let centre = b.world_center_of_mass();
        assert!((centre - start - Vec3::new(1.0, 0.0, 0.0)).norm() < 1e-5);
        // First-order quaternion update: angle error O((h w)^3) per step.
        assert!((b.position() - centre - Vec3::new(0.25, 0.0, 0.0)).norm() < 1e-3);
    }

    #[test]
    fn split_velocities_move_the_pose_only_and_are_consumed() {
        let mut b =
            RigidBody::new_dynamic(Shape::cuboid(Vec3::new(0.5, 0.3, 0.1)).unwrap(), 1.0).unwrap();
        b.set_split_linear_velocity(Vec3::new(0.0, 2.0, 0.0));
        b.set_split_angular_velocity(Vec3::new(1.0, 0.0, 0.0));
        b.integrate_pose(0.5).unwrap();
        assert_eq!(b.position(), Vec3::new(0.0, 1.0, 0.0));
        assert!(b.rotation().angle() > 0.4);
        assert_eq!(b.linear_velocity(), Vec3::zeros());
        assert_eq!(b.angular_velocity(), Vec3::zeros());
        assert_eq!(b.split_linear_velocity(), Vec3::zeros());
        assert_eq!(b.split_angular_velocity(), Vec3::zeros());
    }

    #[test]
    fn rotation_model_follows_kind_and_tensor() {
        let w = Vec3::new(0.0, 1.0, 0.0);
        let sphere = RigidBody::new_dynamic(Shape::sphere(1.0).unwrap(), 1.0).unwrap();
        assert_eq!(sphere.rotation_model(), RotationModel::Still);
        let sphere = sphere.with_angular_velocity(w);
        assert_eq!(sphere.rotation_model(), RotationModel::PrescribedVelocity);
        let mut boxy =
            RigidBody::new_dynamic(Shape::cuboid(Vec3::new(1.0, 0.5, 0.2)).unwrap(), 1.0)
                .unwrap()
                .with_angular_velocity(w);
        assert!(matches!(
            boxy.rotation_model(),
            RotationModel::HamiltonianSplit(_)
        ));
        boxy.set_kind(BodyKind::Kinematic).unwrap();
        assert_eq!(boxy.rotation_model(), RotationModel::PrescribedVelocity);
        boxy.set_kind(BodyKind::Dynamic).unwrap();
        boxy.set_inverse_inertia(Mat3::from_diagonal(&Vec3::new(1.0, 0.0, 2.0)))
            .unwrap();
        assert_eq!(boxy.rotation_model(), RotationModel::PrescribedVelocity);
        boxy.set_kind(BodyKind::Static).unwrap();
        assert_eq!(boxy.rotation_model(), RotationModel::Still);
    }
}
