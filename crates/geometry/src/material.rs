//! Surface materials and the rule that mixes two of them at a contact.
//!
//! Mixing follows Box2D (`b2MixFriction`, `b2MixRestitution`): friction is the
//! geometric mean `sqrt(f1 f2)`, with the product widened to `f64` before the
//! square root so that every pair of finite `f32` coefficients mixes to a
//! finite value (docs/physics.md, "Numeric boundaries"); restitution and
//! bounce threshold take the larger of the two values, so a bouncy surface
//! stays bouncy against a dead one and the more conservative (higher)
//! threshold decides when restitution applies.

/// Why a material's coefficients are refused.
#[derive(Debug, Clone, Copy, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum MaterialError {
    /// A coefficient is NaN, infinite or outside its range.
    #[error("material {quantity} = {value} must be finite and within [{min}, {max}]")]
    OutOfRange {
        /// "friction", "restitution" or "bounce threshold".
        quantity: &'static str,
        /// The offending value.
        value: f32,
        /// Smallest accepted value.
        min: f32,
        /// Largest accepted value.
        max: f32,
    },
}

/// Contact coefficients of a body's surface.
///
/// Valid values ([`Material::validate`]): `friction` finite and `>= 0`
/// (dimensionless Coulomb coefficient); `restitution` in `[0, 1]`
/// (dimensionless; above 1 an impact would add kinetic energy, which the
/// contact model promises never to do, docs/continuous-collision.md "How a
/// step works");
/// `bounce_threshold` finite and `>= 0` (m/s: a closing speed below which
/// restitution is not applied).
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Material {
    /// Coulomb friction coefficient (dimensionless, `>= 0`).
    pub friction: f32,
    /// Coefficient of restitution (dimensionless, in `[0, 1]`).
    pub restitution: f32,
    /// Closing speed below which restitution is not applied (m/s, `>= 0`).
    pub bounce_threshold: f32,
}

impl Default for Material {
    /// Friction 0.5, restitution 0.0 (plastic), bounce threshold 0.5 m/s.
    fn default() -> Self {
        Self {
            friction: 0.5,
            restitution: 0.0,
            bounce_threshold: 0.5,
        }
    }
}

impl Material {
    /// A checked material.
    ///
    /// # Errors
    /// [`MaterialError::OutOfRange`] naming the first invalid coefficient.
    pub fn new(
        friction: f32,
        restitution: f32,
        bounce_threshold: f32,
    ) -> Result<Self, MaterialError> {
        let m = Self {
            friction,
            restitution,
            bounce_threshold,
        };
        m.validate()?;
        Ok(m)
    }

    /// Checks the ranges documented on [`Material`].
    ///
    /// # Errors
    /// [`MaterialError::OutOfRange`] naming the first invalid coefficient.
    pub fn validate(&self) -> Result<(), MaterialError> {
        let check = |quantity, value: f32, min: f32, max: f32| {
            if value.is_finite() && value >= min && value <= max {
                Ok(())
            } else {
                Err(MaterialError::OutOfRange {
                    quantity,
                    value,
                    min,
                    max,
                })
            }
        };
        check("friction", self.friction, 0.0, f32::MAX)?;
        check("restitution", self.restitution, 0.0, 1.0)?;
        check("bounce threshold", self.bounce_threshold, 0.0, f32::MAX)
    }

    /// The material of a contact between `self` and `other`: friction
    /// `sqrt(f1 f2)` (in `f64`), restitution and bounce threshold the maxima.
    pub fn mix(&self, other: &Material) -> Material {
        Material {
            friction: mix_friction(self.friction, other.friction),
            restitution: self.restitution.max(other.restitution),
            bounce_threshold: self.bounce_threshold.max(other.bounce_threshold),
        }
    }
}

/// Geometric mean `sqrt(f1 f2)` of two friction coefficients, the product
/// widened to `f64` (exact there) so it cannot overflow, and rounded once to
/// `f32`. The mean lies between the two inputs, so it is finite for finite
/// inputs.
pub fn mix_friction(f1: f32, f2: f32) -> f32 {
    (f64::from(f1) * f64::from(f2)).sqrt() as f32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_is_the_documented_one() {
        let m = Material::default();
        assert_eq!(
            (m.friction, m.restitution, m.bounce_threshold),
            (0.5, 0.0, 0.5)
        );
        assert_eq!(m.validate(), Ok(()));
    }

    #[test]
    fn friction_mixing_survives_the_largest_coefficients() {
        // f32::MAX^2 overflows f32 but not f64: the mean is f32::MAX itself.
        assert_eq!(mix_friction(f32::MAX, f32::MAX), f32::MAX);
        // sqrt(0.25 * 1) = 0.5 exactly.
        assert_eq!(mix_friction(0.25, 1.0), 0.5);
        assert_eq!(mix_friction(0.0, 3.0), 0.0);
    }

    #[test]
    fn restitution_and_threshold_take_the_maximum() {
        let a = Material::new(0.2, 0.9, 0.1).unwrap();
        let b = Material::new(0.8, 0.1, 2.0).unwrap();
        let m = a.mix(&b);
        assert_eq!(m.restitution, 0.9);
        assert_eq!(m.bounce_threshold, 2.0);
        assert_eq!(m, b.mix(&a));
    }

    #[test]
    fn invalid_coefficients_are_named() {
        let err = Material::new(0.5, 1.5, 0.0).unwrap_err();
        assert_eq!(
            err,
            MaterialError::OutOfRange {
                quantity: "restitution",
                value: 1.5,
                min: 0.0,
                max: 1.0
            }
        );
        assert!(Material::new(f32::NAN, 0.0, 0.0).is_err());
        assert!(Material::new(0.5, 0.0, -1.0).is_err());
    }
}
