//! The error of building a scene: a shape, a body or the world refused what
//! the scene asked for (never expected for the fixed scenes of this crate; a
//! test builds each of them).

use parapet::prelude::{BodyError, ShapeError, WorldError};
use parapet::shape::MaterialError;

/// Why a scene could not be built.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum SceneError {
    /// A shape was refused.
    #[error("scene shape: {0}")]
    Shape(#[from] ShapeError),
    /// A body was refused.
    #[error("scene body: {0}")]
    Body(#[from] BodyError),
    /// A material was refused.
    #[error("scene material: {0}")]
    Material(#[from] MaterialError),
    /// The world refused a body.
    #[error("scene world: {0}")]
    World(#[from] WorldError),
    /// A body of a judged scene has a shape the judge has no solid for (a
    /// hull or a mesh given without one).
    #[error("scene judge: the {label} has a shape the judge has no solid for (limit: a sphere, a capsule or a box, or a solid given with the body)")]
    Unjudged {
        /// What the body is in the scene.
        label: &'static str,
    },
}
