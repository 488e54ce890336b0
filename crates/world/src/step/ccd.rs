//! Stage 5: continuous collision. In DISCRETE mode nothing happens. In
//! SPHERE_MESH_CCD this issue has no sweeps yet, and the mode must never
//! silently fall back to discrete contacts for a moving body (seed 000
//! "Supported worlds"), so the step refuses with [`StepError::Unsupported`]
//! naming the first enabled moving collider; the step's rollback then leaves
//! the world unchanged. The next issue replaces this file with the sweeps.
//!
//! Hooks for the continuous stage: [`CcdOutcome::moved`] tells the integrate
//! stage which bodies the sweeps already moved, and the contacts stage takes
//! a predicate that defers a speculative mesh contact to the sweep
//! (`contacts::run`).

use parapet_solver::BodyKind;

use crate::ccd::CollisionDetection;
use crate::{ContactEvent, PhysicsWorld, StepError};

/// What the continuous stage did.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct CcdOutcome {
    /// Per slot: whether the stage moved the body to the end of the step (the
    /// integrate stage then skips it).
    pub moved: Vec<bool>,
    /// Swept impacts, any order (the report sorts them by time).
    pub events: Vec<ContactEvent>,
}

/// Runs the continuous stage of the world's mode.
///
/// # Errors
/// [`StepError::Unsupported`] in SPHERE_MESH_CCD for the first enabled
/// moving collider (insertion order).
pub(crate) fn run(world: &mut PhysicsWorld, _dt: f32) -> Result<CcdOutcome, StepError> {
    match world.collision_detection {
        CollisionDetection::Discrete => Ok(CcdOutcome::default()),
        CollisionDetection::SphereMeshCcd => {
            let moving = world.entries().find(|e| {
                e.body.collides() && e.body.shape().is_solid() && e.body.kind() != BodyKind::Static
            });
            match moving {
                Some(e) => Err(StepError::Unsupported {
                    body: e.id,
                    kind: e.body.kind(),
                    shape: e.body.shape().kind_name(),
                    mode: "SPHERE_MESH_CCD",
                    reason: "continuous sweeps are not available in this build, and the mode never falls back to discrete contacts",
                    limit: "no enabled moving collider",
                }),
                None => Ok(CcdOutcome::default()),
            }
        }
    }
}
