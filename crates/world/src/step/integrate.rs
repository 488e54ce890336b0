//! Stage 6: integrate the poses of the bodies that the CCD stage did not
//! move ([`parapet_solver::RigidBody::integrate_pose`]: split correction,
//! rotation by the Hamiltonian split or the quaternion update, translation).
//! Kinematic bodies follow their velocity; static bodies stay and lose their
//! split state; sleeping bodies stay.

use crate::{PhysicsWorld, StepError};

/// Advances every body not marked in `moved` (indexed by slot; CCD marks
/// the bodies whose pose it already took to the end of the step).
///
/// # Errors
/// [`StepError::NotRepresentable`] when a new pose overflows `f32`.
pub(crate) fn advance(world: &mut PhysicsWorld, dt: f32, moved: &[bool]) -> Result<(), StepError> {
    for &slot in &world.order {
        if moved.get(slot as usize).copied().unwrap_or(false) {
            continue;
        }
        if let Some(e) = world.slots[slot as usize].as_mut() {
            if e.body.is_sleeping() {
                continue;
            }
            e.body
                .integrate_pose(dt)
                .map_err(|source| StepError::NotRepresentable { body: e.id, source })?;
        }
    }
    Ok(())
}
