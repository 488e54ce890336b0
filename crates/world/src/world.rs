//! [`PhysicsWorld`]: the bodies in generational slots, the configuration
//! fields, insertion and removal with the mesh snapshot, and the reads.
//!
//! Storage: a slot vector (a removed body's slot is reused, last freed
//! first), the insertion order as a list of slots, and for each mesh body
//! its immutable world-space triangle snapshot. Removal drops the body and
//! its snapshot and invalidates the mesh index, so nothing of it stays
//! reachable; its id is refused afterwards (see [`BodyId`]).

use std::sync::Arc;

use parapet_geometry::{ActiveEdges, Shape, TriangleError};
use parapet_math::nalgebra::UnitQuaternion;
use parapet_math::{promote, promote_quat, Vec3, Vec3d};
use parapet_solver::RigidBody;

use crate::ccd::report::CcdLedger;
use crate::ccd::shapes::ShapeCache;
use crate::ccd::{BodyCcdStats, CcdReport};
use crate::ccd::{CollisionDetection, DISCRETE};
use crate::contact_cache::ContactCache;
use crate::entry::Entry;
use crate::error::BodyNames;
use crate::mesh_index::MeshIndex;
use crate::step::sleep::{
    body_bounds, wake_around, wake_touched, DEFAULT_SLEEP_ANGULAR_THRESHOLD,
    DEFAULT_SLEEP_LINEAR_THRESHOLD, DEFAULT_TIME_TO_SLEEP,
};
use crate::{BodyId, ContactEvent, SensorEvent, WorldError};

/// The default gravity (m/s², world): (0, 0, -9.8), a z-up world (see
/// docs/physics.md, "Frames and units").
pub const DEFAULT_GRAVITY: Vec3 = Vec3::new(0.0, 0.0, -9.8);

/// The default `ccd_max_impacts` (impacts per body per step): 64 (see
/// docs/continuous-collision.md, "Ordering, limits and rollback"). A car
/// wedged between a kinematic bus, another car and a walker at a
/// crossroads takes up to about 40 strikes in a 1/60 s step (the town
/// scenes, measured); 16 refused it.
pub const DEFAULT_CCD_MAX_IMPACTS: u32 = 64;

/// The valid range of `ccd_max_impacts` (impacts per body per step): 1 to 1024.
pub const CCD_MAX_IMPACTS_LIMIT: std::ops::RangeInclusive<u32> = 1..=1024;

/// The default `ccd_max_substeps` (sub-steps per turning body per step): 256
/// (see docs/continuous-collision.md, "Ordering, limits and rollback").
pub const DEFAULT_CCD_MAX_SUBSTEPS: u32 = 256;

/// The valid range of `ccd_max_substeps` (sub-steps per turning body per step):
/// 1 to 65536.
pub const CCD_MAX_SUBSTEPS_LIMIT: std::ops::RangeInclusive<u32> = 1..=65536;

/// A rigid-body world: bodies, gravity, the collision-detection mode and its
/// limits, the step pipeline and ray casts.
///
/// ```
/// use parapet_world::{PhysicsWorld, DISCRETE};
/// use parapet_solver::RigidBody;
/// use parapet_geometry::Shape;
/// use parapet_math::Vec3;
///
/// let mut world = PhysicsWorld::new();
/// assert_eq!(world.collision_detection, DISCRETE);
/// let ball = RigidBody::new_dynamic(Shape::sphere(0.5)?, 1.0)?
///     .with_position(Vec3::new(0.0, 0.0, 2.0));
/// let id = world.add_body(ball)?;
/// world.step(1.0 / 60.0)?;
/// assert!(world.body(id).unwrap().position().z < 2.0);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct PhysicsWorld {
    /// Gravity (m/s², world); default [`DEFAULT_GRAVITY`]. Must be finite
    /// at step entry.
    pub gravity: Vec3,
    /// The collision-detection mode; default [`DISCRETE`].
    pub collision_detection: CollisionDetection,
    /// Impacts each body may take in one continuous step; default
    /// [`DEFAULT_CCD_MAX_IMPACTS`], valid [`CCD_MAX_IMPACTS_LIMIT`], checked
    /// at every step entry whatever the mode.
    pub ccd_max_impacts: u32,
    /// Advancement iterations one time-of-impact query of the continuous
    /// step may take; default [`DEFAULT_CCD_MAX_SUBSTEPS`], valid
    /// [`CCD_MAX_SUBSTEPS_LIMIT`], checked at every step entry whatever the
    /// mode.
    pub ccd_max_substeps: u32,
    /// Whether bodies at rest fall asleep; default `true`. Turned off, every
    /// sleeping body wakes at the next step and none falls asleep (see
    /// [`RigidBody::is_sleeping`] and docs/physics.md, "Sleeping").
    pub sleeping: bool,
    /// The linear speed (m/s) of a body's mass centre at or below which it
    /// counts as at rest; default [`DEFAULT_SLEEP_LINEAR_THRESHOLD`], valid
    /// finite and >= 0.
    pub sleep_linear_threshold: f32,
    /// The angular speed (rad/s) at or below which a body counts as at rest;
    /// default [`DEFAULT_SLEEP_ANGULAR_THRESHOLD`], valid finite and >= 0.
    pub sleep_angular_threshold: f32,
    /// The time (s) every body of an island must have been at rest before
    /// the island falls asleep; default [`DEFAULT_TIME_TO_SLEEP`], valid
    /// finite and >= 0.
    pub time_to_sleep: f32,
    pub(crate) slots: Vec<Option<Entry>>,
    pub(crate) free: Vec<u32>,
    /// Live slots in insertion order.
    pub(crate) order: Vec<u32>,
    pub(crate) next_generation: u64,
    pub(crate) events: Vec<ContactEvent>,
    /// The last successful step's sensor events (crate::sensors).
    pub(crate) sensor_events: Vec<SensorEvent>,
    /// Whether the last step's events were handed over by `drain_events`.
    pub(crate) events_drained: bool,
    pub(crate) contact_count: usize,
    pub(crate) meshes: MeshIndex,
    /// Each body's moving shape for the continuous step, per slot; never
    /// part of the state (it never changes a result).
    pub(crate) ccd_shapes: ShapeCache,
    /// Last step's contact impulses, for warm starting (sorted by key).
    pub(crate) contact_cache: ContactCache,
    /// The continuous stage's report and per-body stats of the last
    /// successful step.
    pub(crate) ccd_ledger: CcdLedger,
    /// The length (s) of the last successful step (the dry run assumes it).
    pub(crate) last_dt: Option<f32>,
    /// The pairs excluded by `ignore_pair` (crate::filters).
    pub(crate) ignored_pairs: crate::filters::IgnoredPairs,
}

impl Default for PhysicsWorld {
    fn default() -> Self {
        Self::new()
    }
}

/// The world-space triangles of a mesh shape placed by `body`'s pose and
/// shape offset: `R_b (R_s v + t_s) + p_b` in `f64`, rounded once to `f32`.
/// The active edges of triangle `local` of mesh body `owner` (every edge
/// for a mesh without adjacency, or a body that is not a mesh).
pub(crate) fn mesh_triangle_edges(owner: &RigidBody, local: usize) -> ActiveEdges {
    match owner.shape() {
        Shape::Mesh(mesh) => mesh.triangle_edges(local),
        _ => ActiveEdges::ALL,
    }
}

fn mesh_snapshot(body: &RigidBody) -> Result<Option<Arc<[[Vec3; 3]]>>, TriangleError> {
    let Shape::Mesh(mesh) = body.shape() else {
        return Ok(None);
    };
    if body.kind() != parapet_solver::BodyKind::Static {
        // A moving mesh keeps its own shape-frame triangles and moves with
        // its pose (a live mesh); only a static mesh is captured.
        return Ok(None);
    }
    let rb = UnitQuaternion::new_normalize(promote_quat(body.rotation()).into_inner());
    let (ts, rs) = body.shape_offset();
    let rs = UnitQuaternion::new_normalize(promote_quat(rs).into_inner());
    let p = promote(body.position());
    let ts = promote(ts);
    let world: Vec<Vec3d> = mesh
        .vertices()
        .iter()
        .map(|v| rb * (rs * promote(*v) + ts) + p)
        .collect();
    let mut out = Vec::with_capacity(mesh.indices().len());
    for (triangle, idx) in mesh.indices().iter().enumerate() {
        let mut corners = [Vec3::zeros(); 3];
        for (vertex, &i) in idx.iter().enumerate() {
            let w = world[i as usize];
            let f = w.cast::<f32>();
            if !f.iter().all(|x| x.is_finite()) {
                return Err(TriangleError::NotRepresentable {
                    triangle,
                    vertex,
                    value: [w.x, w.y, w.z],
                });
            }
            corners[vertex] = f;
        }
        // The checks the step's mesh index makes: a snapshot that fails
        // them would have every later step refused, which no later edit of
        // the body's pose could clear (the snapshot is taken once).
        parapet_geometry::triangle::Triangle::new(corners[0], corners[1], corners[2])
            .validate(triangle)?;
        out.push(corners);
    }
    Ok(Some(out.into()))
}

impl PhysicsWorld {
    /// An empty world: gravity (0, 0, -9.8) m/s², [`DISCRETE`], impact and
    /// sub-step limits at their defaults, sleeping on with the default
    /// thresholds.
    pub fn new() -> Self {
        Self {
            gravity: DEFAULT_GRAVITY,
            collision_detection: DISCRETE,
            ccd_max_impacts: DEFAULT_CCD_MAX_IMPACTS,
            ccd_max_substeps: DEFAULT_CCD_MAX_SUBSTEPS,
            sleeping: true,
            sleep_linear_threshold: DEFAULT_SLEEP_LINEAR_THRESHOLD,
            sleep_angular_threshold: DEFAULT_SLEEP_ANGULAR_THRESHOLD,
            time_to_sleep: DEFAULT_TIME_TO_SLEEP,
            slots: Vec::new(),
            free: Vec::new(),
            order: Vec::new(),
            next_generation: 1,
            events: Vec::new(),
            sensor_events: Vec::new(),
            events_drained: false,
            contact_count: 0,
            meshes: MeshIndex::default(),
            ccd_shapes: ShapeCache::default(),
            contact_cache: ContactCache::default(),
            ccd_ledger: CcdLedger::default(),
            last_dt: None,
            ignored_pairs: Default::default(),
        }
    }

    /// Adds a body after validating it. A mesh body must be static; its
    /// world-space triangles are captured now as an immutable snapshot, which
    /// later edits of the body's pose or shape offset do not change (build a
    /// new world, or remove and re-add the body, when the geometry changes).
    ///
    /// # Errors
    /// [`WorldError::InvalidBody`] for a body that fails
    /// [`RigidBody::validate`] (including a non-static mesh),
    /// [`WorldError::MeshSnapshot`] for a mesh whose world triangles overflow
    /// `f32` or fail the step's triangle checks
    /// ([`parapet_geometry::triangle::Triangle::validate`]: a coordinate
    /// beyond 1e6 m, a zero or too thin normal), which every step would
    /// refuse; [`WorldError::TooManyBodies`]; the world is then unchanged.
    pub fn add_body(&mut self, body: RigidBody) -> Result<BodyId, WorldError> {
        body.validate()
            .map_err(|source| WorldError::InvalidBody { source })?;
        let mesh = mesh_snapshot(&body).map_err(|source| WorldError::MeshSnapshot { source })?;
        let index = match self.free.last() {
            Some(&slot) => slot,
            None => {
                let limit = u32::MAX as usize;
                if self.slots.len() >= limit {
                    return Err(WorldError::TooManyBodies {
                        count: self.order.len(),
                        limit,
                    });
                }
                self.slots.len() as u32
            }
        };
        let id = BodyId::new(index, self.next_generation);
        self.next_generation += 1;
        if mesh.is_some() {
            self.meshes.mark_dirty();
        }
        let entry = Entry { id, body, mesh };
        if self.free.last() == Some(&index) {
            self.free.pop();
            self.slots[index as usize] = Some(entry);
        } else {
            self.slots.push(Some(entry));
        }
        self.order.push(index);
        Ok(id)
    }

    /// Removes a body and returns it, reclaiming its slot, its mesh snapshot
    /// and its mesh index entries. Its id is refused from now on. The
    /// sleeping bodies it touched wake (their islands with them at the next
    /// step): what rested on it must fall.
    ///
    /// # Errors
    /// [`WorldError::UnknownBody`] for a stale or foreign id; the world is
    /// then unchanged.
    pub fn remove_body(&mut self, id: BodyId) -> Result<RigidBody, WorldError> {
        if self.entry(id).is_none() {
            return Err(WorldError::UnknownBody { body: id });
        }
        match body_bounds(self, id.index()) {
            Some(bounds) => wake_around(self, &bounds),
            None => self.wake_every_body(),
        }
        let Some(entry) = self.slots[id.index() as usize].take() else {
            return Err(WorldError::UnknownBody { body: id });
        };
        self.order.retain(|&s| s != id.index());
        self.free.push(id.index());
        if entry.mesh.is_some() {
            self.meshes.invalidate();
        }
        self.contact_cache.forget(id);
        self.ignored_pairs.forget(id);
        // Trailing free slots are released so that a world emptied of its
        // bodies gives their memory back.
        while let Some(None) = self.slots.last() {
            let last = self.slots.len() as u32 - 1;
            self.slots.pop();
            self.free.retain(|&s| s != last);
        }
        Ok(entry.body)
    }

    /// Wakes body `id` and every sleeping body of its island (the bodies
    /// joined to it through touching bounds, see docs/physics.md,
    /// "Sleeping") now; it then takes part in the next step. Waking an awake
    /// body restarts its time at rest; kinematic and static bodies never
    /// sleep, and waking one changes nothing else.
    ///
    /// # Errors
    /// [`WorldError::UnknownBody`] for a stale or foreign id; the world is
    /// then unchanged.
    pub fn wake(&mut self, id: BodyId) -> Result<(), WorldError> {
        let body = self
            .body_mut(id)
            .ok_or(WorldError::UnknownBody { body: id })?;
        body.wake();
        wake_touched(self, None);
        Ok(())
    }

    fn wake_every_body(&mut self) {
        for slot in self.slots.iter_mut().flatten() {
            if slot.body.is_sleeping() {
                slot.body.wake();
            }
        }
    }

    pub(crate) fn entry(&self, id: BodyId) -> Option<&Entry> {
        self.slots
            .get(id.index() as usize)?
            .as_ref()
            .filter(|e| e.id == id)
    }

    /// The body `id`, `None` for a stale or foreign id.
    pub fn body(&self, id: BodyId) -> Option<&RigidBody> {
        self.entry(id).map(|e| &e.body)
    }

    /// The body `id` for editing, `None` for a stale or foreign id. Edits are
    /// validated by the next step (a mesh body's snapshot does not follow).
    pub fn body_mut(&mut self, id: BodyId) -> Option<&mut RigidBody> {
        self.slots
            .get_mut(id.index() as usize)?
            .as_mut()
            .filter(|e| e.id == id)
            .map(|e| &mut e.body)
    }

    /// Every body with its id, in insertion order.
    pub fn bodies(&self) -> impl Iterator<Item = (BodyId, &RigidBody)> + '_ {
        self.entries().map(|e| (e.id, &e.body))
    }

    /// Live entries in insertion order.
    pub(crate) fn entries(&self) -> impl Iterator<Item = &Entry> + '_ {
        self.order
            .iter()
            .filter_map(|&s| self.slots[s as usize].as_ref())
    }

    /// Number of bodies.
    pub fn body_count(&self) -> usize {
        self.order.len()
    }

    /// The world-space triangle snapshot captured when mesh body `id` was
    /// added (`None` for other bodies and stale ids).
    pub fn mesh_snapshot(&self, id: BodyId) -> Option<&[[Vec3; 3]]> {
        self.entry(id)?.mesh.as_deref()
    }

    /// The contact events of the last successful step: initial contacts
    /// sorted by (body_a, body_b, feature), then swept impacts by time.
    pub fn events(&self) -> &[ContactEvent] {
        &self.events
    }

    /// Initial contact points plus swept impacts of the last successful step.
    pub fn contact_count(&self) -> usize {
        self.contact_count
    }

    /// Body `id`'s part in the continuous stage of the last successful step:
    /// the mode it resolved to, its swept impacts, sub-steps and group (see
    /// docs/continuous-collision.md, "Choosing per body"); `None` for a
    /// stale or foreign id, before the first successful step and for a body
    /// added since. Replaced, like the events, only by a successful step.
    pub fn ccd_stats(&self, id: BodyId) -> Option<BodyCcdStats> {
        self.entry(id)?;
        self.ccd_ledger.stats(id)
    }

    /// The continuous stage's counters of the last successful step (all
    /// zero before the first and in a step without continuous bodies).
    /// Replaced, like the events, only by a successful step.
    pub fn ccd_report(&self) -> &CcdReport {
        &self.ccd_ledger.report
    }
}

impl BodyNames for PhysicsWorld {
    fn slot_id(&self, slot: usize) -> BodyId {
        self.slots
            .get(slot)
            .and_then(|e| e.as_ref())
            .map(|e| e.id)
            .unwrap_or_else(|| BodyId::new(slot as u32, 0))
    }

    fn slot_kind(&self, slot: usize) -> Option<(parapet_solver::BodyKind, &'static str)> {
        self.slots
            .get(slot)
            .and_then(|e| e.as_ref())
            .map(|e| (e.body.kind(), e.body.shape().kind_name()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ball() -> RigidBody {
        RigidBody::new_dynamic(Shape::sphere(0.5).unwrap(), 1.0).unwrap()
    }

    #[test]
    fn removed_ids_are_refused_and_slots_reused_without_aliasing() {
        let mut w = PhysicsWorld::new();
        let a = w.add_body(ball()).unwrap();
        let b = w.add_body(ball()).unwrap();
        w.remove_body(a).unwrap();
        let c = w.add_body(ball()).unwrap();
        assert_eq!(c.index(), a.index());
        assert_ne!(c, a);
        assert!(w.body(a).is_none());
        assert_eq!(
            w.remove_body(a).unwrap_err(),
            WorldError::UnknownBody { body: a }
        );
        let order: Vec<BodyId> = w.bodies().map(|(id, _)| id).collect();
        assert_eq!(order, vec![b, c]);
        assert!(b < c);
    }

    #[test]
    fn emptying_the_world_releases_its_slots() {
        let mut w = PhysicsWorld::new();
        let ids: Vec<BodyId> = (0..5).map(|_| w.add_body(ball()).unwrap()).collect();
        for id in ids {
            w.remove_body(id).unwrap();
        }
        assert!(w.slots.is_empty() && w.free.is_empty() && w.order.is_empty());
    }
}
