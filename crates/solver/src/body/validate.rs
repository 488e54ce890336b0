//! `RigidBody::validate`: the body check run by the fallible setters,
//! impulses, world insertion and every step before anything changes ("Motion
//! modes", "Numeric boundaries" and "One step" in docs/physics.md).
//!
//! It checks, in order: the mesh restriction (a mesh body is static); the
//! saved dynamic configuration (finite positive mass with its exact `f32`
//! reciprocal, finite inverse tensor); the
//! effective properties (equal to the configuration when dynamic, exactly
//! zero otherwise); finite pose, mass centre, shape offset, velocities, split
//! velocities and pending force and torque; unit quaternions within
//! [`UNIT_QUATERNION_SQUARED_NORM_TOLERANCE`]; non-negative finite damping;
//! the material ranges of `Material::validate`.
//! The mode itself is a Rust enum and cannot hold an invalid value.
//!
//! Precision domain: exact comparisons of the stored `f32` values (equality
//! with the saved configuration is bit for bit); the only tolerance is the
//! unit-quaternion one.

use parapet_math::{Mat3, Quat};

use super::inertia::check_finite;
use super::mass::check_finite_vector;
use super::{check_damping, BodyError, BodyKind, RigidBody};
use crate::tolerances::UNIT_QUATERNION_SQUARED_NORM_TOLERANCE;

fn check_unit(quantity: &'static str, q: &Quat) -> Result<(), BodyError> {
    if let Some(&value) = q.coords.iter().find(|x| !x.is_finite()) {
        return Err(BodyError::NotFinite { quantity, value });
    }
    let squared_norm = q.coords.norm_squared();
    if (squared_norm - 1.0).abs() > UNIT_QUATERNION_SQUARED_NORM_TOLERANCE {
        return Err(BodyError::NotUnitQuaternion {
            quantity,
            squared_norm,
            limit: UNIT_QUATERNION_SQUARED_NORM_TOLERANCE,
        });
    }
    Ok(())
}

fn check_effective_tensor(kind: BodyKind, stored: &Mat3, expected: &Mat3) -> Result<(), BodyError> {
    for (value, expected) in stored.iter().zip(expected.iter()) {
        if value.to_bits() != expected.to_bits() {
            return Err(BodyError::EffectivePropertyMismatch {
                quantity: "inverse inertia",
                kind,
                value: *value,
                expected: *expected,
            });
        }
    }
    Ok(())
}

fn check_effective_scalar(
    quantity: &'static str,
    kind: BodyKind,
    value: f32,
    expected: f32,
) -> Result<(), BodyError> {
    if value.to_bits() == expected.to_bits() {
        Ok(())
    } else {
        Err(BodyError::EffectivePropertyMismatch {
            quantity,
            kind,
            value,
            expected,
        })
    }
}

impl RigidBody {
    /// Checks the body (see the module documentation for the list). Reads
    /// never validate; setters, impulses, world insertion and steps do.
    ///
    /// # Errors
    /// The first failed check, naming the quantity, its value and the limit.
    pub fn validate(&self) -> Result<(), BodyError> {
        let kind = self.kind;
        if !self.shape.is_solid() && kind == BodyKind::Dynamic {
            return Err(BodyError::MeshNotStatic { kind });
        }
        if let Some(d) = &self.dynamic {
            if !(d.mass.is_finite() && d.mass > 0.0) {
                return Err(BodyError::InvalidMass { value: d.mass });
            }
            let expected = 1.0 / d.mass;
            if d.inverse_mass.to_bits() != expected.to_bits()
                || !(expected > 0.0 && expected.is_finite())
            {
                return Err(BodyError::NotReciprocal {
                    mass: d.mass,
                    inverse_mass: d.inverse_mass,
                    expected,
                });
            }
            // Finite entries only: positive definiteness of a solid tensor is
            // established (exactly) by the setters that install it, and the
            // integrator classifies the tensor again at each pose update, so
            // validation, which runs for every body at every step, does not
            // repeat the exact determinant.
            check_finite("inverse inertia", &d.inverse_inertia)?;
        }
        match (kind, &self.dynamic) {
            (BodyKind::Dynamic, None) => {
                return Err(BodyError::NoDynamicConfiguration {
                    quantity: "kind Dynamic",
                    kind,
                })
            }
            (BodyKind::Dynamic, Some(d)) => {
                check_effective_scalar("mass", kind, self.mass, d.mass)?;
                check_effective_scalar("inverse mass", kind, self.inverse_mass, d.inverse_mass)?;
                check_effective_tensor(kind, &self.inverse_inertia, &d.inverse_inertia)?;
            }
            _ => {
                check_effective_scalar("mass", kind, self.mass, 0.0)?;
                check_effective_scalar("inverse mass", kind, self.inverse_mass, 0.0)?;
                check_effective_tensor(kind, &self.inverse_inertia, &Mat3::zeros())?;
            }
        }
        check_finite_vector("position", &self.position)?;
        check_unit("rotation", &self.rotation)?;
        check_finite_vector("shape translation", &self.shape_position)?;
        check_unit("shape rotation", &self.shape_rotation)?;
        check_finite_vector("center of mass", &self.center_of_mass)?;
        check_finite_vector("linear velocity", &self.linear_velocity)?;
        check_finite_vector("angular velocity", &self.angular_velocity)?;
        check_finite_vector("split linear velocity", &self.split_linear_velocity)?;
        check_finite_vector("split angular velocity", &self.split_angular_velocity)?;
        check_finite_vector("force", &self.force)?;
        check_finite_vector("torque", &self.torque)?;
        check_damping("linear damping", self.linear_damping)?;
        check_damping("angular damping", self.angular_damping)?;
        self.material.validate()?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use parapet_geometry::Shape;
    use parapet_math::Vec3;

    fn body() -> RigidBody {
        RigidBody::new_dynamic(Shape::cuboid(Vec3::new(0.5, 0.3, 0.1)).unwrap(), 3.0).unwrap()
    }

    #[test]
    fn a_new_body_of_each_kind_is_valid() {
        body().validate().unwrap();
        let shape = Shape::sphere(1.0).unwrap();
        RigidBody::new_kinematic(shape.clone()).validate().unwrap();
        RigidBody::new_static(shape).validate().unwrap();
    }

    #[test]
    fn storage_that_breaks_an_invariant_is_refused() {
        let mut b = body();
        b.inverse_mass = 0.5;
        assert!(matches!(
            b.validate(),
            Err(BodyError::EffectivePropertyMismatch {
                quantity: "inverse mass",
                ..
            })
        ));

        let mut b = body();
        let d = b.dynamic.as_mut().unwrap();
        d.inverse_mass = 0.25;
        assert!(matches!(b.validate(), Err(BodyError::NotReciprocal { .. })));

        let mut b = body();
        b.set_kind(BodyKind::Static).unwrap();
        b.inverse_inertia[(0, 1)] = 1.0;
        assert!(matches!(
            b.validate(),
            Err(BodyError::EffectivePropertyMismatch {
                quantity: "inverse inertia",
                ..
            })
        ));

        let mut b = body();
        b.set_kind(BodyKind::Kinematic).unwrap();
        b.mass = 3.0;
        assert!(matches!(
            b.validate(),
            Err(BodyError::EffectivePropertyMismatch {
                quantity: "mass",
                ..
            })
        ));

        let mut b = body();
        b.dynamic = None;
        assert!(matches!(
            b.validate(),
            Err(BodyError::NoDynamicConfiguration { .. })
        ));

        let mut b = body();
        let d = b.dynamic.as_mut().unwrap();
        d.inverse_inertia[(2, 2)] = f32::INFINITY;
        b.inverse_inertia[(2, 2)] = f32::INFINITY;
        assert!(matches!(
            b.validate(),
            Err(BodyError::TensorNotFinite { .. })
        ));

        let mut b = body();
        b.linear_damping = -1.0;
        assert!(matches!(
            b.validate(),
            Err(BodyError::InvalidDamping { .. })
        ));
    }

    #[test]
    fn rotation_tolerance_is_on_the_squared_norm() {
        let mut b = body();
        let inside = 1.0 + 0.9 * UNIT_QUATERNION_SQUARED_NORM_TOLERANCE;
        b.rotation = Quat::new_unchecked(parapet_math::nalgebra::Quaternion::new(
            inside.sqrt(),
            0.0,
            0.0,
            0.0,
        ));
        b.validate().unwrap();
        let outside = 1.0 + 2.0 * UNIT_QUATERNION_SQUARED_NORM_TOLERANCE;
        b.rotation = Quat::new_unchecked(parapet_math::nalgebra::Quaternion::new(
            outside.sqrt(),
            0.0,
            0.0,
            0.0,
        ));
        assert!(matches!(
            b.validate(),
            Err(BodyError::NotUnitQuaternion { .. })
        ));
    }
}
