//! Stage 3: forces. Every body's velocity takes gravity, its pending force
//! and torque and damping once ([`parapet_solver::RigidBody::integrate_velocity`];
//! see docs/physics.md, "Forces and impulses"); pending loads are consumed
//! for every kind (kinematic and static bodies ignore them). A sleeping
//! body takes nothing (it has no pending load: adding one woke it).

use crate::{PhysicsWorld, StepError};

/// Applies the velocity half of the step to every body, in insertion order.
///
/// # Errors
/// [`StepError::NotRepresentable`] when a new velocity overflows `f32`.
pub(crate) fn apply(world: &mut PhysicsWorld, dt: f32) -> Result<(), StepError> {
    let gravity = world.gravity;
    for &slot in &world.order {
        if let Some(e) = world.slots[slot as usize].as_mut() {
            if e.body.is_sleeping() {
                continue;
            }
            e.body
                .integrate_velocity(dt, gravity)
                .map_err(|source| StepError::NotRepresentable { body: e.id, source })?;
        }
    }
    Ok(())
}
