//! A body's continuous-collision policy ([`CcdMode`]): follow the world's
//! mode, take discrete contacts only, be swept, or let each step decide (see
//! docs/continuous-collision.md, "Choosing per body").
//!
//! The mode is a property of the body (it travels with it between worlds,
//! through clones and serialization); the world resolves it at every step:
//! `Inherit` takes the world's `collision_detection`, `Auto` becomes
//! `Continuous` or `Discrete` by the body's motion in that step. A stored
//! number converts back only through [`TryFrom<u8>`], which refuses unknown
//! values.

use super::RigidBody;

/// How the world's continuous stage treats one body.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum CcdMode {
    /// Follow the world's `collision_detection`: `Discrete` in `DISCRETE`,
    /// `Continuous` in `SPHERE_MESH_CCD` (the default).
    #[default]
    Inherit,
    /// Discrete contacts only: never swept for its own sake and never
    /// refused by the continuous stage; a moving obstacle that continuous
    /// bodies do not pass through.
    Discrete,
    /// Swept in every step; what the continuous stage cannot promise for it
    /// is refused, naming it.
    Continuous,
    /// `Continuous` in the steps where the body moves far for its size or
    /// can reach a continuous body, `Discrete` in the others.
    Auto,
}

impl CcdMode {
    /// The mode's stable numeric code: 0 `Inherit`, 1 `Discrete`,
    /// 2 `Continuous`, 3 `Auto` (the values [`TryFrom<u8>`] accepts).
    pub fn code(self) -> u8 {
        match self {
            CcdMode::Inherit => 0,
            CcdMode::Discrete => 1,
            CcdMode::Continuous => 2,
            CcdMode::Auto => 3,
        }
    }
}

/// A numeric value that names no [`CcdMode`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("ccd mode value {value} is not a mode (limit: 0 = Inherit, 1 = Discrete, 2 = Continuous or 3 = Auto)")]
pub struct UnknownCcdMode {
    /// The refused value.
    pub value: u8,
}

impl TryFrom<u8> for CcdMode {
    type Error = UnknownCcdMode;

    /// 0 `Inherit`, 1 `Discrete`, 2 `Continuous`, 3 `Auto`; every other
    /// value is an error, never a mode.
    fn try_from(value: u8) -> Result<Self, Self::Error> {
        match value {
            0 => Ok(CcdMode::Inherit),
            1 => Ok(CcdMode::Discrete),
            2 => Ok(CcdMode::Continuous),
            3 => Ok(CcdMode::Auto),
            _ => Err(UnknownCcdMode { value }),
        }
    }
}

impl RigidBody {
    /// Builder: the body's continuous-collision policy.
    #[must_use]
    pub fn with_ccd(mut self, mode: CcdMode) -> Self {
        self.ccd = mode;
        self
    }

    /// Sets the body's continuous-collision policy (read by the next step).
    pub fn set_ccd(&mut self, mode: CcdMode) {
        self.ccd = mode;
    }

    /// The body's continuous-collision policy as set ([`CcdMode::Inherit`]
    /// unless changed); the world reports what it resolved to per step.
    pub fn ccd(&self) -> CcdMode {
        self.ccd
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use parapet_geometry::Shape;

    #[test]
    fn codes_round_trip_and_unknown_values_are_refused() {
        for mode in [
            CcdMode::Inherit,
            CcdMode::Discrete,
            CcdMode::Continuous,
            CcdMode::Auto,
        ] {
            assert_eq!(CcdMode::try_from(mode.code()), Ok(mode));
        }
        for value in 4..=u8::MAX {
            assert_eq!(CcdMode::try_from(value), Err(UnknownCcdMode { value }));
        }
        assert_eq!(CcdMode::default(), CcdMode::Inherit);
    }

    #[test]
    fn the_mode_is_a_body_property_kept_by_builders_and_clones() {
        let ball = RigidBody::new_dynamic(Shape::sphere(0.5).unwrap(), 1.0).unwrap();
        assert_eq!(ball.ccd(), CcdMode::Inherit);
        let mut fast = ball.clone().with_ccd(CcdMode::Continuous);
        assert_eq!(fast.ccd(), CcdMode::Continuous);
        assert_ne!(fast, ball);
        fast.set_ccd(CcdMode::Auto);
        assert_eq!(fast.clone().ccd(), CcdMode::Auto);
        fast.set_ccd(CcdMode::Inherit);
        assert_eq!(fast, ball);
    }
}
