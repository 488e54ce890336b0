//! Stage 1: validate the configuration and every body before anything
//! changes: a step checks all bodies before it changes any body or consumes
//! forces, and the CCD limits are checked at every step entry whatever the
//! mode (see docs/physics.md, "One step").

use crate::ccd::CollisionDetection;
use crate::world::{CCD_MAX_IMPACTS_LIMIT, CCD_MAX_SUBSTEPS_LIMIT};
use crate::{PhysicsWorld, StepError};

/// Checks `dt`, gravity, the collision-detection mode and the CCD limits.
///
/// # Errors
/// [`StepError::InvalidConfig`] naming the first invalid field.
pub(crate) fn config(world: &PhysicsWorld, dt: f32) -> Result<(), StepError> {
    if !(dt.is_finite() && dt > 0.0) {
        return Err(StepError::InvalidConfig {
            quantity: "dt",
            value: dt as f64,
            limit: "finite and > 0 s",
        });
    }
    if let Some(&g) = world.gravity.iter().find(|g| !g.is_finite()) {
        return Err(StepError::InvalidConfig {
            quantity: "gravity",
            value: g as f64,
            limit: "finite components (m/s^2)",
        });
    }
    // A Rust enum holds only valid modes (an unknown numeric value is refused
    // by `TryFrom<u8>` before it becomes one); the match keeps this check
    // next to the others when a mode is added.
    match world.collision_detection {
        CollisionDetection::Discrete | CollisionDetection::SphereMeshCcd => {}
    }
    if !CCD_MAX_IMPACTS_LIMIT.contains(&world.ccd_max_impacts) {
        return Err(StepError::InvalidConfig {
            quantity: "ccd_max_impacts",
            value: world.ccd_max_impacts as f64,
            limit: "1..=1024 impacts per body per step",
        });
    }
    if !CCD_MAX_SUBSTEPS_LIMIT.contains(&world.ccd_max_substeps) {
        return Err(StepError::InvalidConfig {
            quantity: "ccd_max_substeps",
            value: world.ccd_max_substeps as f64,
            limit: "1..=65536 sub-steps per body per step",
        });
    }
    for (quantity, value, unit) in [
        (
            "sleep_linear_threshold",
            world.sleep_linear_threshold,
            "finite and >= 0 m/s",
        ),
        (
            "sleep_angular_threshold",
            world.sleep_angular_threshold,
            "finite and >= 0 rad/s",
        ),
        ("time_to_sleep", world.time_to_sleep, "finite and >= 0 s"),
    ] {
        if !(value.is_finite() && value >= 0.0) {
            return Err(StepError::InvalidConfig {
                quantity,
                value: value as f64,
                limit: unit,
            });
        }
    }
    Ok(())
}

/// Validates every body in insertion order ([`parapet_solver::RigidBody::validate`]:
/// mode, mass, tensors, finite pose, velocities, forces, material).
///
/// # Errors
/// [`StepError::InvalidBody`] naming the first body that fails.
pub(crate) fn bodies(world: &PhysicsWorld) -> Result<(), StepError> {
    for e in world.entries() {
        e.body
            .validate()
            .map_err(|source| StepError::InvalidBody { body: e.id, source })?;
    }
    Ok(())
}

/// Turns every mesh body that was captured static but is no longer static
/// into a live mesh (its snapshot dropped, the mesh index rebuilt by the
/// next contact stage): a moving mesh moves with its pose from its own
/// shape-frame triangles. Done after the step's snapshot, which puts the
/// snapshots back on failure (`mesh_snapshot` reads them).
pub(crate) fn live_meshes(world: &mut PhysicsWorld) {
    let mut changed = false;
    for &slot in &world.order {
        if let Some(e) = world.slots[slot as usize].as_mut() {
            if e.mesh.is_some() && e.body.kind() != parapet_solver::BodyKind::Static {
                e.mesh = None;
                changed = true;
            }
        }
    }
    if changed {
        world.meshes.invalidate();
    }
}
