//! The dynamic mass configuration and its setters: `set_mass`,
//! `set_inertia`, `set_inverse_inertia`, `set_center_of_mass` and
//! `set_shape_offset` ("Mass properties" and "Motion modes" in
//! docs/physics.md).
//!
//! Every setter validates the body, then computes and checks every candidate
//! property before it changes anything: a refused edit leaves the body bit
//! for bit unchanged. Edits of the dynamic configuration are refused while a
//! dynamic body is disabled (kinematic or static): restore dynamic mode first.
//!
//! Method: a new mass scales the inverse tensor by `old mass / new mass`; a
//! solid tensor is checked by `inertia.rs` (finite, exactly symmetric,
//! positive definite by exact minors) and inverted there. Precision domain: `f32`
//! storage; a mass or inverse that `f32` cannot hold as a finite positive
//! value is refused with the value and its limit.

use parapet_math::nalgebra::Quaternion;
use parapet_math::{demote_scalar, Mat3, Quat, Vec3};

use super::inertia::{check_finite, check_positive_definite, solid_inverse};
use super::{BodyError, BodyKind, RigidBody};

/// Where a configured inverse tensor came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub(crate) enum TensorOrigin {
    /// The checked inverse of a solid inertia (symmetric positive definite).
    Solid,
    /// A finite custom inverse from `set_inverse_inertia` (zeros lock axes;
    /// may be singular, negative or nonsymmetric).
    Custom,
}

/// The configured dynamic mass properties, retained through kinematic and
/// static phases.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub(crate) struct DynamicMass {
    /// Mass (kg), finite and positive.
    pub(crate) mass: f32,
    /// `1 / mass` in `f32` (1/kg), finite and positive.
    pub(crate) inverse_mass: f32,
    /// Local inverse inertia about the mass centre (1/(kg m²)).
    pub(crate) inverse_inertia: Mat3,
    /// Solid or custom.
    pub(crate) origin: TensorOrigin,
}

/// Checks a mass and returns its `f32` reciprocal.
fn checked_inverse_mass(mass: f32) -> Result<f32, BodyError> {
    if !(mass.is_finite() && mass > 0.0) {
        return Err(BodyError::InvalidMass { value: mass });
    }
    let inverse = 1.0 / mass;
    if !(inverse.is_finite() && inverse > 0.0) {
        return Err(BodyError::InverseMassNotRepresentable { mass, inverse });
    }
    Ok(inverse)
}

impl DynamicMass {
    /// The configuration of a solid of `mass` with local `inertia` about its centre.
    pub(crate) fn solid(mass: f32, inertia: &Mat3) -> Result<Self, BodyError> {
        let inverse_mass = checked_inverse_mass(mass)?;
        let inverse_inertia = solid_inverse(inertia)?;
        Ok(Self {
            mass,
            inverse_mass,
            inverse_inertia,
            origin: TensorOrigin::Solid,
        })
    }

    /// The same configuration with a new mass: the inverse tensor scales by
    /// `old mass / new mass` (computed in `f64`, rounded once). A solid tensor
    /// must stay positive definite after rounding; a custom tensor must stay
    /// finite and keep its zero pattern (no free axis may underflow to a lock).
    fn with_mass(&self, mass: f32) -> Result<Self, BodyError> {
        let inverse_mass = checked_inverse_mass(mass)?;
        let ratio = self.mass as f64 / mass as f64;
        let mut scaled = Mat3::zeros();
        for row in 0..3 {
            for col in 0..3 {
                let value = self.inverse_inertia[(row, col)] as f64 * ratio;
                let rounded = demote_scalar(value).map_err(|_| BodyError::NotRepresentable {
                    quantity: "scaled inverse inertia",
                    value,
                })?;
                if rounded == 0.0 && value != 0.0 && self.origin == TensorOrigin::Custom {
                    return Err(BodyError::TensorEntryUnderflow {
                        quantity: "scaled inverse inertia",
                        row,
                        col,
                        value,
                    });
                }
                scaled[(row, col)] = rounded;
            }
        }
        if self.origin == TensorOrigin::Solid {
            check_positive_definite("scaled inverse inertia", &scaled)?;
        }
        Ok(Self {
            mass,
            inverse_mass,
            inverse_inertia: scaled,
            origin: self.origin,
        })
    }
}

impl RigidBody {
    /// The saved configuration, if the body may edit it now.
    fn editable_dynamic(&self, quantity: &'static str) -> Result<Option<DynamicMass>, BodyError> {
        match (self.kind, self.dynamic) {
            (BodyKind::Dynamic, dynamic) => Ok(dynamic),
            (kind, Some(_)) => Err(BodyError::DisabledDynamicConfiguration { quantity, kind }),
            (_, None) => Ok(None),
        }
    }

    /// The saved configuration of a dynamic body, for mass and tensor edits.
    fn required_dynamic(&self, quantity: &'static str) -> Result<DynamicMass, BodyError> {
        self.editable_dynamic(quantity)?
            .ok_or(BodyError::NoDynamicConfiguration {
                quantity,
                kind: self.kind,
            })
    }

    fn install_dynamic(&mut self, dynamic: DynamicMass) {
        self.mass = dynamic.mass;
        self.inverse_mass = dynamic.inverse_mass;
        self.inverse_inertia = dynamic.inverse_inertia;
        self.dynamic = Some(dynamic);
    }

    /// Sets the mass (kg) of a dynamic body and scales its inverse tensor by
    /// `old mass / new mass` (the same shape at a new density).
    ///
    /// # Errors
    /// The body is unchanged and the call returns any [`RigidBody::validate`]
    /// error; [`BodyError::DisabledDynamicConfiguration`] while disabled;
    /// [`BodyError::NoDynamicConfiguration`] for a body created kinematic or
    /// static; [`BodyError::InvalidMass`], [`BodyError::InverseMassNotRepresentable`];
    /// and, for the scaled tensor, [`BodyError::NotRepresentable`],
    /// [`BodyError::TensorNotPositiveDefinite`] (solid) or
    /// [`BodyError::TensorEntryUnderflow`] (custom).
    pub fn set_mass(&mut self, mass: f32) -> Result<(), BodyError> {
        self.validate()?;
        let dynamic = self.required_dynamic("mass")?.with_mass(mass)?;
        self.install_dynamic(dynamic);
        self.wake();
        Ok(())
    }

    /// Sets the solid inertia tensor (kg m², local frame, about the mass
    /// centre) of a dynamic body. The tensor must be finite, exactly
    /// symmetric and positive definite (exact leading-minor signs); its
    /// inverse must be finite and positive definite after rounding to `f32`.
    /// To lock an axis use [`RigidBody::set_inverse_inertia`]: a zero inertia
    /// and a zero inverse inertia mean different things.
    ///
    /// # Errors
    /// The body is unchanged and the call returns any [`RigidBody::validate`]
    /// error, the mode errors of [`RigidBody::set_mass`], or
    /// [`BodyError::TensorNotFinite`], [`BodyError::TensorNotSymmetric`],
    /// [`BodyError::TensorNotPositiveDefinite`], [`BodyError::NotRepresentable`].
    pub fn set_inertia(&mut self, inertia: Mat3) -> Result<(), BodyError> {
        self.validate()?;
        let current = self.required_dynamic("inertia")?;
        let dynamic = DynamicMass::solid(current.mass, &inertia)?;
        self.install_dynamic(dynamic);
        self.wake();
        Ok(())
    }

    /// Sets a custom local inverse inertia tensor (1/(kg m²)) of a dynamic
    /// body. Any finite tensor is kept exactly as supplied: zero rows and
    /// columns lock rotation about those local axes; negative and
    /// nonsymmetric tensors are accepted for compatibility (they do not
    /// describe a solid and rotate by the prescribed-velocity update).
    ///
    /// # Errors
    /// The body is unchanged and the call returns any [`RigidBody::validate`]
    /// error, the mode errors of [`RigidBody::set_mass`], or
    /// [`BodyError::TensorNotFinite`].
    pub fn set_inverse_inertia(&mut self, inverse_inertia: Mat3) -> Result<(), BodyError> {
        self.validate()?;
        let current = self.required_dynamic("inverse inertia")?;
        check_finite("inverse inertia", &inverse_inertia)?;
        self.install_dynamic(DynamicMass {
            inverse_inertia,
            origin: super::TensorOrigin::Custom,
            ..current
        });
        self.wake();
        Ok(())
    }

    /// Moves the mass centre to a local offset from the body origin (m, body
    /// frame). The body origin, the velocities (of and about the mass centre)
    /// and the tensor (about the mass centre) are unchanged. Bodies created
    /// kinematic or static may set it too: it is their rotation pivot.
    ///
    /// # Errors
    /// The body is unchanged and the call returns any [`RigidBody::validate`]
    /// error, [`BodyError::DisabledDynamicConfiguration`] while a dynamic body
    /// is disabled, or [`BodyError::NotFinite`].
    pub fn set_center_of_mass(&mut self, center: Vec3) -> Result<(), BodyError> {
        self.validate()?;
        self.editable_dynamic("center of mass")?;
        check_finite_vector("center of mass", &center)?;
        self.center_of_mass = center;
        self.wake();
        Ok(())
    }

    /// Places the shape in the body frame: translation (m) and rotation. A
    /// finite quaternion is normalized (in `f64`, then rounded), as body
    /// construction does. Only the collision shape moves: the mass centre and
    /// the tensor are set with [`RigidBody::set_center_of_mass`] and
    /// [`RigidBody::set_inertia`].
    ///
    /// # Errors
    /// The body is unchanged and the call returns any [`RigidBody::validate`]
    /// error, [`BodyError::DisabledDynamicConfiguration`] while a dynamic body
    /// is disabled, [`BodyError::NotFinite`] or [`BodyError::NotNormalizable`].
    pub fn set_shape_offset(&mut self, translation: Vec3, rotation: Quat) -> Result<(), BodyError> {
        self.validate()?;
        self.editable_dynamic("shape offset")?;
        check_finite_vector("shape translation", &translation)?;
        let rotation = normalized("shape rotation", rotation.into_inner())?;
        self.shape_position = translation;
        self.shape_rotation = rotation;
        self.wake();
        Ok(())
    }
}

/// Refuses a vector with a non-finite component.
pub(crate) fn check_finite_vector(quantity: &'static str, v: &Vec3) -> Result<(), BodyError> {
    match v.iter().find(|x| !x.is_finite()) {
        Some(&value) => Err(BodyError::NotFinite { quantity, value }),
        None => Ok(()),
    }
}

/// Normalizes a finite quaternion in `f64` and rounds it to `f32`.
pub(crate) fn normalized(quantity: &'static str, q: Quaternion<f32>) -> Result<Quat, BodyError> {
    if let Some(&value) = q.coords.iter().find(|x| !x.is_finite()) {
        return Err(BodyError::NotFinite { quantity, value });
    }
    let wide = q.cast::<f64>();
    let norm = wide.norm();
    if !(norm > 0.0 && norm.is_finite()) {
        return Err(BodyError::NotNormalizable { quantity, norm });
    }
    Ok(Quat::new_unchecked((wide / norm).cast::<f32>()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use parapet_geometry::Shape;

    fn body() -> RigidBody {
        RigidBody::new_dynamic(Shape::sphere(0.5).unwrap(), 2.0).unwrap()
    }

    #[test]
    fn a_custom_free_axis_never_underflows_to_a_lock() {
        let mut b = body();
        // The smallest subnormal: scaling by 2/4 rounds it to zero.
        let custom = Mat3::from_diagonal(&Vec3::new(1.0, f32::from_bits(1), 0.0));
        b.set_inverse_inertia(custom).unwrap();
        let before = b.clone();
        assert!(matches!(
            b.set_mass(4.0),
            Err(BodyError::TensorEntryUnderflow { row: 1, col: 1, .. })
        ));
        assert_eq!(b, before);
        // The locked axis (exact zero) stays locked and is not an underflow.
        b.set_mass(1.0).unwrap();
        assert_eq!(b.inverse_inertia()[(2, 2)], 0.0);
        assert_eq!(b.inverse_inertia()[(1, 1)], f32::from_bits(2));
    }

    #[test]
    fn set_inertia_replaces_a_custom_tensor_with_a_solid_one() {
        let mut b = body();
        b.set_inverse_inertia(Mat3::zeros()).unwrap();
        assert!(b.has_custom_inverse_inertia());
        b.set_inertia(Mat3::from_diagonal(&Vec3::new(2.0, 4.0, 8.0)))
            .unwrap();
        assert!(!b.has_custom_inverse_inertia());
        assert_eq!(
            b.inverse_inertia(),
            Mat3::from_diagonal(&Vec3::new(0.5, 0.25, 0.125))
        );
        assert_eq!(b.mass(), 2.0);
    }

    #[test]
    fn new_dynamic_takes_the_shape_mass_center_and_inverse_inertia() {
        let b = body();
        // Solid sphere: I = 2/5 m r^2 = 0.2 kg m^2, so A = 5 (1/(kg m^2)).
        let a = b.inverse_inertia();
        assert!((a - Mat3::identity() * 5.0).abs().max() < 1e-5);
        assert_eq!(b.center_of_mass(), Vec3::zeros());
        assert_eq!(b.inverse_mass(), 0.5);
    }
}
