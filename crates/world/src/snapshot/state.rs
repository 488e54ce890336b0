//! The saved form of a [`PhysicsWorld`] ([`State`]) and its checked
//! conversion back into a world.
//!
//! # Method
//! [`State`] lists everything the next step reads, field by field: the
//! configuration, the body slots with their ids and mesh snapshots, the free
//! list and the insertion order, the insertion counter, the last step's
//! events, contact count, continuous-stage report (with its per-body stats)
//! and length, sleeping and its thresholds (each body's sleep state, time
//! at rest and `can_sleep` are the body's own fields), the warm-starting contact cache, the excluded pairs, the
//! last step's sensor events and whether its events were drained.
//! Derived storage is not saved and is rebuilt or reset on load: the mesh
//! index (its triangle bounds tree is rebuilt from the snapshots in
//! insertion order, the deterministic build the step itself runs, so the
//! rebuilt tree is the saved world's tree) and the continuous step's shape
//! cache (it never changes a result). Every captured mesh triangle passes
//! the check `add_body` made on load again.
//!
//! # Source
//! The world's own invariants (world.rs, mesh_index.rs, ccd/mesh_cache.rs);
//! the format is serde's data model, so one [`State`] serves JSON and CBOR.
//!
//! # Precision domain
//! None: every `f32` is stored and restored bit for bit (the JSON text uses
//! the shortest decimal that reads back to the same `f32`).

use std::collections::HashSet;
use std::sync::Arc;

use parapet_geometry::Shape;
use parapet_math::Vec3;
use parapet_solver::RigidBody;

use crate::ccd::report::CcdLedger;
use crate::ccd::shapes::ShapeCache;
use crate::ccd::CollisionDetection;
use crate::contact_cache::ContactCache;
use crate::entry::Entry;
use crate::mesh_index::MeshIndex;
use crate::{BodyId, ContactEvent, PhysicsWorld, SensorEvent};

use super::{SnapshotError, FORMAT};

/// What the mesh index was: its contents are derived from the mesh
/// snapshots, so only which of the three states it was in is saved.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum MeshIndexState {
    /// Never built and not stale (no mesh was ever added).
    Unbuilt,
    /// A mesh was added or removed since the last build: the next step
    /// rebuilds it, and until then nothing reads its contents.
    Dirty,
    /// Built over the current snapshots.
    Built,
}

impl MeshIndexState {
    fn of(index: &MeshIndex) -> MeshIndexState {
        if index.is_dirty() {
            MeshIndexState::Dirty
        } else if index.tree().is_some() {
            MeshIndexState::Built
        } else {
            MeshIndexState::Unbuilt
        }
    }
}

/// One saved body slot: the body, its id and its mesh snapshot.
#[derive(serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct SavedEntry {
    pub id: BodyId,
    pub body: RigidBody,
    /// The world-space triangles captured at insertion (mesh bodies only).
    pub mesh: Option<Vec<[Vec3; 3]>>,
}

/// The saved world. Field order is the order of the binary form.
#[derive(serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct State {
    /// [`FORMAT`].
    pub format: String,
    pub gravity: Vec3,
    pub collision_detection: CollisionDetection,
    pub ccd_max_impacts: u32,
    pub ccd_max_substeps: u32,
    /// The insertion counter: the generation of the next body added.
    pub next_generation: u64,
    /// Body slots by index (`None`: a free slot).
    pub slots: Vec<Option<SavedEntry>>,
    /// Free slots, the next one reused last.
    pub free: Vec<u32>,
    /// Live slots in insertion order.
    pub order: Vec<u32>,
    /// The mesh index: rebuilt on load when it was built.
    pub mesh_index: MeshIndexState,
    pub events: Vec<ContactEvent>,
    pub contact_count: u64,
    pub contact_cache: ContactCache,
    /// The continuous stage's report and per-body stats of the last step.
    pub ccd_ledger: CcdLedger,
    /// The length (s) of the last successful step (the dry run's default).
    pub last_dt: Option<f32>,
    /// The pairs excluded by `ignore_pair` (lower id first, ascending).
    #[serde(default)]
    pub ignored_pairs: Vec<(BodyId, BodyId)>,
    /// The last step's sensor events.
    #[serde(default)]
    pub sensor_events: Vec<SensorEvent>,
    /// Whether the last step's events were handed over by `drain_events`.
    #[serde(default)]
    pub events_drained: bool,
    /// Whether bodies fall asleep (a world saved before sleeping existed
    /// did not sleep, and reads back so).
    #[serde(default)]
    pub sleeping: bool,
    /// The linear sleep threshold (m/s); the default for an older world.
    #[serde(default = "default_sleep_linear_threshold")]
    pub sleep_linear_threshold: f32,
    /// The angular sleep threshold (rad/s); the default for an older world.
    #[serde(default = "default_sleep_angular_threshold")]
    pub sleep_angular_threshold: f32,
    /// The time to sleep (s); the default for an older world.
    #[serde(default = "default_time_to_sleep")]
    pub time_to_sleep: f32,
}

fn default_sleep_linear_threshold() -> f32 {
    crate::DEFAULT_SLEEP_LINEAR_THRESHOLD
}

fn default_sleep_angular_threshold() -> f32 {
    crate::DEFAULT_SLEEP_ANGULAR_THRESHOLD
}

fn default_time_to_sleep() -> f32 {
    crate::DEFAULT_TIME_TO_SLEEP
}

impl State {
    /// The saved form of `world`.
    pub fn of(world: &PhysicsWorld) -> State {
        State {
            format: FORMAT.to_owned(),
            gravity: world.gravity,
            collision_detection: world.collision_detection,
            ccd_max_impacts: world.ccd_max_impacts,
            ccd_max_substeps: world.ccd_max_substeps,
            next_generation: world.next_generation,
            slots: world
                .slots
                .iter()
                .map(|slot| {
                    slot.as_ref().map(|e| SavedEntry {
                        id: e.id,
                        body: e.body.clone(),
                        mesh: e.mesh.as_deref().map(<[_]>::to_vec),
                    })
                })
                .collect(),
            free: world.free.clone(),
            order: world.order.clone(),
            mesh_index: MeshIndexState::of(&world.meshes),
            events: world.events.clone(),
            contact_count: world.contact_count as u64,
            contact_cache: world.contact_cache.clone(),
            ccd_ledger: world.ccd_ledger.clone(),
            last_dt: world.last_dt,
            ignored_pairs: world.ignored_pairs.iter().collect(),
            sensor_events: world.sensor_events.clone(),
            events_drained: world.events_drained,
            sleeping: world.sleeping,
            sleep_linear_threshold: world.sleep_linear_threshold,
            sleep_angular_threshold: world.sleep_angular_threshold,
            time_to_sleep: world.time_to_sleep,
        }
    }

    /// The world this state describes, after checking that it is one a
    /// world could have been in.
    ///
    /// # Errors
    /// [`SnapshotError::Format`] for another format string,
    /// [`SnapshotError::Inconsistent`] naming the first field that breaks
    /// an invariant of the world.
    pub fn into_world(self) -> Result<PhysicsWorld, SnapshotError> {
        if self.format != FORMAT {
            return Err(SnapshotError::Format {
                found: self.format,
                expected: FORMAT,
            });
        }
        self.check_slots()?;
        self.check_ignored_pairs()?;
        let contact_count = usize::try_from(self.contact_count)
            .map_err(|_| inconsistent("contact_count", "does not fit this machine's usize"))?;
        let slots: Vec<Option<Entry>> = self
            .slots
            .into_iter()
            .map(|slot| {
                slot.map(|e| Entry {
                    id: e.id,
                    body: e.body,
                    mesh: e.mesh.map(Arc::from),
                })
            })
            .collect();
        let mut world = PhysicsWorld {
            gravity: self.gravity,
            collision_detection: self.collision_detection,
            ccd_max_impacts: self.ccd_max_impacts,
            ccd_max_substeps: self.ccd_max_substeps,
            sleeping: self.sleeping,
            sleep_linear_threshold: self.sleep_linear_threshold,
            sleep_angular_threshold: self.sleep_angular_threshold,
            time_to_sleep: self.time_to_sleep,
            slots,
            free: self.free,
            order: self.order,
            next_generation: self.next_generation,
            events: self.events,
            sensor_events: self.sensor_events,
            events_drained: self.events_drained,
            contact_count,
            meshes: MeshIndex::default(),
            ccd_shapes: ShapeCache::default(),
            contact_cache: self.contact_cache,
            ccd_ledger: self.ccd_ledger,
            last_dt: self.last_dt,
            ignored_pairs: crate::filters::IgnoredPairs::from_pairs(self.ignored_pairs),
        };
        check_mesh_triangles(&world)?;
        restore_mesh_index(&mut world, self.mesh_index)?;
        Ok(world)
    }

    /// The excluded pairs name two distinct live bodies, lower id first,
    /// each pair once, ascending (as the world keeps them).
    fn check_ignored_pairs(&self) -> Result<(), SnapshotError> {
        let live = |id: BodyId| {
            self.slots
                .get(id.index() as usize)
                .and_then(Option::as_ref)
                .is_some_and(|e| e.id == id)
        };
        for (k, &(a, b)) in self.ignored_pairs.iter().enumerate() {
            let field = format!("ignored_pairs[{k}]");
            if !(live(a) && live(b)) {
                return Err(inconsistent(&field, "names a body that is not live"));
            }
            if a >= b {
                return Err(inconsistent(&field, "is not two distinct ids, lower first"));
            }
            if k > 0 && self.ignored_pairs[k - 1] >= (a, b) {
                return Err(inconsistent(&field, "is not after the pair before it"));
            }
        }
        Ok(())
    }

    /// The slot, free-list, order and generation invariants of the world
    /// (world.rs): ids name their own slot, generations are unique and below
    /// the counter, the free list is exactly the empty slots, the order is
    /// exactly the live slots, mesh snapshots belong to mesh bodies and
    /// have their mesh's triangle count (a mesh added as a moving body has
    /// none).
    fn check_slots(&self) -> Result<(), SnapshotError> {
        let mut generations = HashSet::new();
        let mut live = 0usize;
        for (index, slot) in self.slots.iter().enumerate() {
            let Some(e) = slot else { continue };
            live += 1;
            let field = |what: &str| format!("slots[{index}].{what}");
            if e.id.index() as usize != index {
                return Err(inconsistent(
                    &field("id"),
                    &format!("names slot {}", e.id.index()),
                ));
            }
            if e.id.generation() == 0 || e.id.generation() >= self.next_generation {
                return Err(inconsistent(
                    &field("id"),
                    &format!(
                        "generation {} is not in 1..{} (next_generation)",
                        e.id.generation(),
                        self.next_generation
                    ),
                ));
            }
            if !generations.insert(e.id.generation()) {
                return Err(inconsistent(
                    &field("id"),
                    &format!("generation {} is used twice", e.id.generation()),
                ));
            }
            let triangles = match e.body.shape() {
                Shape::Mesh(mesh) => Some(mesh.indices().len()),
                _ => None,
            };
            // A mesh added as a kinematic body is a live mesh and has no
            // snapshot (world.rs, `mesh_snapshot`); a captured one belongs
            // to a mesh and has its triangle count.
            let captured = e.mesh.as_ref().map(Vec::len);
            if captured.is_some() && triangles != captured {
                return Err(inconsistent(
                    &field("mesh"),
                    &format!(
                        "{} snapshot triangles for a {} of {} triangles",
                        e.mesh.as_ref().map_or(0, Vec::len),
                        e.body.shape().kind_name(),
                        triangles.unwrap_or(0)
                    ),
                ));
            }
        }
        check_list("free", &self.free, self.slots.len() - live, |s| {
            self.slots.get(s).is_some_and(Option::is_none)
        })?;
        check_list("order", &self.order, live, |s| {
            self.slots.get(s).is_some_and(Option::is_some)
        })?;
        // Insertion order is generation order (`BodyId`'s ordering).
        let generation = |s: u32| {
            self.slots[s as usize]
                .as_ref()
                .map_or(0, |e| e.id.generation())
        };
        if let Some(k) = self
            .order
            .windows(2)
            .position(|w| generation(w[0]) >= generation(w[1]))
        {
            return Err(inconsistent(
                &format!("order[{}]", k + 1),
                "is not in insertion (generation) order",
            ));
        }
        Ok(())
    }
}

/// Checks that `list` holds `count` distinct slots, each passing `valid`.
fn check_list(
    name: &str,
    list: &[u32],
    count: usize,
    valid: impl Fn(usize) -> bool,
) -> Result<(), SnapshotError> {
    let mut seen = HashSet::new();
    for (k, &slot) in list.iter().enumerate() {
        if !valid(slot as usize) || !seen.insert(slot) {
            return Err(inconsistent(
                &format!("{name}[{k}]"),
                &format!("slot {slot} is not a distinct slot of the right kind"),
            ));
        }
    }
    if list.len() != count {
        return Err(inconsistent(
            name,
            &format!("lists {} slots, the slots have {count}", list.len()),
        ));
    }
    Ok(())
}

/// Rebuilds the mesh index when the saved world had it built (the step
/// rebuilds a dirty index itself, so a dirty one stays dirty and empty).
fn restore_mesh_index(
    world: &mut PhysicsWorld,
    saved: MeshIndexState,
) -> Result<(), SnapshotError> {
    world.meshes = MeshIndex::default();
    match saved {
        MeshIndexState::Unbuilt => return Ok(()),
        MeshIndexState::Dirty => {
            world.meshes.mark_dirty();
            return Ok(());
        }
        MeshIndexState::Built => {}
    }
    let meshes: Vec<_> = world
        .entries()
        .filter_map(|e| e.mesh.clone().map(|m| (e.id.index(), m)))
        .collect();
    world
        .meshes
        .rebuild(meshes.iter().map(|(s, m)| (*s, m)))
        .map_err(|e| inconsistent("mesh_index", &format!("the index cannot be built: {e}")))
}

/// Every captured mesh triangle passes the check `add_body` made
/// (`parapet_geometry::triangle::Triangle::validate`), so that a snapshot
/// edited into a bad mesh is refused here, not trusted by the step.
fn check_mesh_triangles(world: &PhysicsWorld) -> Result<(), SnapshotError> {
    for e in world.entries() {
        let Some(mesh) = e.mesh.as_deref() else {
            continue;
        };
        for (k, t) in mesh.iter().enumerate() {
            parapet_geometry::triangle::Triangle::new(t[0], t[1], t[2])
                .validate(k)
                .map_err(|err| {
                    inconsistent(
                        &format!("slots[{}].mesh", e.id.index()),
                        &format!("the mesh check fails: {err}"),
                    )
                })?;
        }
    }
    Ok(())
}

fn inconsistent(field: &str, message: &str) -> SnapshotError {
    SnapshotError::Inconsistent {
        field: field.to_owned(),
        message: message.to_owned(),
    }
}
