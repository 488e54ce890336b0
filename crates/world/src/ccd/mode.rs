//! The collision-detection mode of a world: `DISCRETE` by default,
//! `SPHERE_MESH_CCD` opt-in; a bare integer is not a mode, and an unknown
//! value is refused (see docs/continuous-collision.md, "Turning it on").

/// How a step detects contacts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub enum CollisionDetection {
    /// Discrete contacts at the start of each step, with a speculative margin:
    /// a body fast enough to cross a surface in one step can pass through it.
    #[default]
    Discrete,
    /// Continuous collision: supported moving bodies never pass
    /// through a static triangle during a step (the name is kept for
    /// compatibility; the support is wider than spheres).
    SphereMeshCcd,
}

/// The default, discrete mode.
pub const DISCRETE: CollisionDetection = CollisionDetection::Discrete;

/// The opt-in continuous mode.
pub const SPHERE_MESH_CCD: CollisionDetection = CollisionDetection::SphereMeshCcd;

impl CollisionDetection {
    /// The mode's stable numeric code: 0 for [`DISCRETE`], 1 for
    /// [`SPHERE_MESH_CCD`] (the values [`TryFrom<u8>`] accepts).
    pub fn code(self) -> u8 {
        match self {
            CollisionDetection::Discrete => 0,
            CollisionDetection::SphereMeshCcd => 1,
        }
    }
}

/// A numeric value that names no [`CollisionDetection`] mode.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "collision detection value {value} is not a mode (limit: 0 = DISCRETE or 1 = SPHERE_MESH_CCD)"
)]
pub struct UnknownCollisionDetection {
    /// The refused value.
    pub value: u8,
}

impl TryFrom<u8> for CollisionDetection {
    type Error = UnknownCollisionDetection;

    /// 0 is [`DISCRETE`], 1 is [`SPHERE_MESH_CCD`]; every other value is an
    /// error, never a mode.
    fn try_from(value: u8) -> Result<Self, Self::Error> {
        match value {
            0 => Ok(DISCRETE),
            1 => Ok(SPHERE_MESH_CCD),
            _ => Err(UnknownCollisionDetection { value }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip_and_unknown_values_are_refused() {
        for mode in [DISCRETE, SPHERE_MESH_CCD] {
            assert_eq!(CollisionDetection::try_from(mode.code()), Ok(mode));
        }
        for value in 2..=u8::MAX {
            assert_eq!(
                CollisionDetection::try_from(value),
                Err(UnknownCollisionDetection { value })
            );
        }
        assert_eq!(CollisionDetection::default(), DISCRETE);
    }
}
