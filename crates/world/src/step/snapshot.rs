//! Stage 2: the snapshot of everything a step may change, restored bit for
//! bit when a later stage fails (see docs/continuous-collision.md, "Ordering,
//! limits and rollback"; positions, rotations, velocities, forces, torques, split state, previous
//! contact count, previous contact and sensor events and whether they were
//! drained, primitive order, mesh snapshots and mesh dirty state),
//! plus the warm-starting contact cache.
//!
//! Bodies are cloned whole (shapes share their data, so a clone copies the
//! body's scalars and bumps a reference count): what the step could change
//! is then restored without a list of fields to keep in sync.

use std::sync::Arc;

use parapet_math::Vec3;
use parapet_solver::RigidBody;

use crate::contact_cache::ContactCache;
use crate::{ContactEvent, PhysicsWorld, SensorEvent};

/// The restorable state of a world.
#[derive(Debug)]
pub(crate) struct Snapshot {
    bodies: Vec<(u32, RigidBody)>,
    events: Vec<ContactEvent>,
    sensor_events: Vec<SensorEvent>,
    events_drained: bool,
    contact_count: usize,
    order: Vec<u32>,
    mesh_dirty: bool,
    /// The world-space snapshots of mesh bodies (shared, not copied): a
    /// mesh that stopped being static drops its snapshot in the step
    /// (`validate::live_meshes`), and a failed step puts it back.
    meshes: Vec<(u32, Arc<[[Vec3; 3]]>)>,
    contact_cache: ContactCache,
}

impl Snapshot {
    /// Captures `world`'s mutable state.
    pub fn take(world: &PhysicsWorld) -> Snapshot {
        Snapshot {
            bodies: world
                .entries()
                .map(|e| (e.id.index(), e.body.clone()))
                .collect(),
            events: world.events.clone(),
            sensor_events: world.sensor_events.clone(),
            events_drained: world.events_drained,
            contact_count: world.contact_count,
            order: world.order.clone(),
            mesh_dirty: world.meshes.is_dirty(),
            meshes: world
                .entries()
                .filter_map(|e| Some((e.id.index(), e.mesh.clone()?)))
                .collect(),
            contact_cache: world.contact_cache.clone(),
        }
    }

    /// Whether the captured warm-start cache is empty (the step then
    /// depends on nothing the user cannot see; see `PhysicsWorld::step`).
    pub fn cache_is_empty(&self) -> bool {
        self.contact_cache.is_empty()
    }

    /// Puts the captured state back (a copy of it: a step whose stages
    /// failed with a warm start puts it back before running them again
    /// cold, then again if that fails too). A mesh index rebuilt during the
    /// failed step stays allocated but is marked dirty again when it was
    /// dirty, so queries behave as before.
    pub fn restore(&self, world: &mut PhysicsWorld) {
        for (slot, body) in &self.bodies {
            if let Some(entry) = world.slots[*slot as usize].as_mut() {
                entry.body = body.clone();
            }
        }
        world.events.clone_from(&self.events);
        world.sensor_events.clone_from(&self.sensor_events);
        world.events_drained = self.events_drained;
        world.contact_count = self.contact_count;
        world.order.clone_from(&self.order);
        let mut dropped = false;
        for (slot, mesh) in &self.meshes {
            if let Some(entry) = world.slots[*slot as usize].as_mut() {
                dropped |= entry.mesh.is_none();
                entry.mesh = Some(Arc::clone(mesh));
            }
        }
        if dropped {
            // The index was rebuilt without the dropped meshes: rebuilt
            // again from the snapshots put back, the same index.
            world.meshes.invalidate();
        } else {
            world.meshes.set_dirty(self.mesh_dirty);
        }
        world.contact_cache.clone_from(&self.contact_cache);
    }
}
