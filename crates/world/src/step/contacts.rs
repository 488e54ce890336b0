//! Stage 4: discrete contacts. Broad phase for primitives, the mesh index
//! for static triangles, narrow contact tests within [`CONTACT_MARGIN`], and
//! the sequential-impulse solve with split correction
//! ([`parapet_solver::contact::solve_contacts`]).
//!
//! Order, so that the same inputs give the same bits:
//! 1. The mesh index is rebuilt if a mesh was added or removed.
//! 2. Colliders: every body with `collides == true` and a solid shape that
//!    is not a sensor, in insertion order, with its shape placed once for
//!    the step ([`PlacedShape`]) and its world bounds grown by the margin.
//!    Bodies with `collides == false` are skipped entirely (no transforms,
//!    no pair scans; see docs/physics.md, "Disabled collisions"), and so
//!    are sleeping bodies (`step/sleep.rs`: none touches an awake body).
//! 3. Primitive pairs from the sort-and-sweep broad phase (at least one body
//!    dynamic) that interact (collision groups and exclusions,
//!    `crate::filters`), tested by [`PlacedShape::pair`] (the answer of
//!    `parapet_narrow::contact::shapes`).
//! 4. Each dynamic collider queries the mesh index with its grown bounds;
//!    candidates come in triangle insertion order, triangles of owners that
//!    do not interact with the body (collisions off, groups, exclusions) or
//!    are sensors are skipped, and each candidate is tested by
//!    [`PlacedShape::triangle`] (one-sided, the answer of
//!    `parapet_narrow::contact::shape_mesh_triangle`). A deferral predicate
//!    may hand any contact point (pair or mesh) to the continuous stage.
//!    The points a box or hull keeps against one mesh are reduced to its
//!    support ([`reduce_mesh_points`]: at most eight, the deepest and the
//!    widest patch per normal direction), so that a box over many small
//!    triangles reaches the solver with its four corners.
//! 5. Points are sorted by (body_a, body_b, feature, point), where body_a is
//!    the body added first and the normal points from A to B (feature: the
//!    triangle's index in its mesh for a sphere or capsule, else 0; point:
//!    the index in the manifold or in the reduced list); the solver runs in
//!    that order, and the events keep it.
//!
//! The stage's contact tests share one [`ContactScratch`], so a test
//! allocates nothing once the scratch has grown.
//!
//! Each point is warm-started from the impulses of the matching point of
//! the last step ([`crate::contact_cache`]), and the new impulses replace
//! the cache. Nothing non-finite is stored or reported: a new velocity, a
//! split velocity, a reported normal impulse or a cached friction impulse
//! beyond `f32` refuses the step ([`StepError::NotRepresentable`], naming
//! the body and the quantity). A step whose stages fail after a warm start
//! is run again from its snapshot without the cache (`PhysicsWorld::step`),
//! so that a refusal never rests on the hidden cache.
//!
//! A point is reported as an event when it touches or overlaps
//! (depth >= 0) or when it took a normal impulse (a speculative point that
//! the body would have crossed this step); a separated point that applied
//! nothing is not a contact.

use parapet_geometry::bvh::Bounds;
use parapet_geometry::Material;
use parapet_math::{demote, demote_scalar, promote, Vec3, Vec3d};
use parapet_narrow::contact::{reduce_mesh_points, ContactScratch, MeshPoint, PlacedShape};
use parapet_solver::contact::{
    solve_contacts, ContactImpulse, ContactPointInput, SolverBody, CONTACT_MARGIN,
};
use parapet_solver::{BodyError, BodyKind};

use crate::broad_phase::{overlapping_pairs_where, BroadBox};
use crate::contact_cache::{CachedPoint, ContactCache};
use crate::contact_query::ContactQuery;
use crate::shape_pose::{shape_bounds, shape_pose};
use crate::world::mesh_triangle_edges;
use crate::{BodyId, ContactEvent, ContactKind, PhysicsWorld, StepError};

/// A body taking part in contacts this step: its shape placed once, for
/// every pair and triangle it is tested against.
struct Collider {
    slot: u32,
    id: BodyId,
    kind: BodyKind,
    placed: PlacedShape,
}

/// One contact point before the solve.
struct Found {
    key: (BodyId, BodyId, u32, usize),
    slot_a: u32,
    slot_b: u32,
    point: Vec3,
    normal: Vec3,
    depth: f32,
    material: Material,
}

fn body(world: &PhysicsWorld, slot: u32) -> &crate::entry::Entry {
    world.slots[slot as usize]
        .as_ref()
        .expect("collider slots are live during the step")
}

fn rebuild_mesh_index(world: &mut PhysicsWorld) -> Result<(), StepError> {
    if !world.meshes.is_dirty() {
        return Ok(());
    }
    let meshes: Vec<_> = world
        .entries()
        .filter_map(|e| e.mesh.clone().map(|m| (e.id.index(), m)))
        .collect();
    world
        .meshes
        .rebuild(meshes.iter().map(|(s, m)| (*s, m)))
        .map_err(|source| StepError::MeshIndex { source })
}

fn colliders(world: &PhysicsWorld) -> Result<(Vec<Collider>, Vec<BroadBox>), StepError> {
    let mut colliders = Vec::with_capacity(world.slots.len());
    let mut boxes = Vec::with_capacity(world.slots.len());
    for e in world.entries() {
        // A sensor stops nothing: it never enters the contact solve (its
        // crossings are found by the sensor stage).
        if !e.body.collides() || e.body.is_sensor() || !e.body.shape().is_solid() {
            continue;
        }
        // A sleeping body touches no awake body (the wake pass woke every
        // one that did) and nothing of its own rests changes: it costs
        // nothing here.
        if e.body.is_sleeping() {
            continue;
        }
        let not_representable = || StepError::NotRepresentable {
            body: e.id,
            source: BodyError::NotRepresentable {
                quantity: "shape position",
                value: f64::INFINITY,
            },
        };
        let pose = shape_pose(&e.body).ok_or_else(not_representable)?;
        let bounds = shape_bounds(e.body.shape(), &pose, CONTACT_MARGIN as f64)
            .ok_or_else(not_representable)?;
        // The body's pose is finite (validated); its bounds are the world's.
        let Some(placed) = PlacedShape::place(e.body.shape(), &pose) else {
            continue;
        };
        colliders.push(Collider {
            slot: e.id.index(),
            id: e.id,
            kind: e.body.kind(),
            placed,
        });
        boxes.push(BroadBox {
            bounds,
            movable: e.body.kind() == BodyKind::Dynamic,
        });
    }
    Ok((colliders, boxes))
}

fn primitive_contacts(
    world: &PhysicsWorld,
    colliders: &[Collider],
    boxes: &[BroadBox],
    dt: f32,
    defer: &dyn Fn(&ContactQuery<'_>) -> bool,
    scratch: &mut ContactScratch,
    found: &mut Vec<Found>,
) {
    let interacts = |i: usize, j: usize| {
        let (ca, cb) = (&colliders[i], &colliders[j]);
        let (ba, bb) = (&body(world, ca.slot).body, &body(world, cb.slot).body);
        world.pair_interacts(ca.id, ba, cb.id, bb)
    };
    for (i, j) in overlapping_pairs_where(boxes, interacts) {
        // i < j: A was added first.
        let (ca, cb) = (&colliders[i], &colliders[j]);
        let (ba, bb) = (&body(world, ca.slot).body, &body(world, cb.slot).body);
        let manifold = ca.placed.pair(&cb.placed, CONTACT_MARGIN, scratch);
        let material = ba.material().mix(&bb.material());
        for (k, p) in manifold.points().iter().enumerate() {
            let query = ContactQuery {
                body: ca.id,
                rigid: ba,
                other: cb.id,
                other_rigid: bb,
                triangle: None,
                normal: manifold.normal(),
                point: p.point,
                depth: p.depth,
                dt,
            };
            if defer(&query) {
                continue;
            }
            found.push(Found {
                key: (ca.id, cb.id, 0, k),
                slot_a: ca.slot,
                slot_b: cb.slot,
                point: p.point,
                normal: manifold.normal(),
                depth: p.depth,
                material,
            });
        }
    }
}

/// The kept points of one body against one mesh owner, pushed as found
/// points. A box's or hull's points are first reduced to its support
/// ([`reduce_mesh_points`]) and keyed (first added, other, 0, index in the
/// reduced list); a sphere's or capsule's (one or two per triangle) are
/// kept as the triangles gave them, keyed (first added, other, triangle,
/// index in the triangle's manifold), so that each triangle's point finds
/// its own warm start.
fn flush_mesh_points(
    world: &PhysicsWorld,
    c: &Collider,
    owner: &crate::entry::Entry,
    material: Material,
    points: &mut Vec<MeshPoint>,
    scratch: &mut ContactScratch,
    found: &mut Vec<Found>,
) {
    let solid = c.placed.is_polytope();
    if solid {
        reduce_mesh_points(points, scratch);
    }
    let mut previous = usize::MAX;
    let mut k = 0;
    for (index, p) in points.drain(..).enumerate() {
        let (a, b, normal) = if owner.id < c.id {
            (owner.id, c.id, -p.normal)
        } else {
            (c.id, owner.id, p.normal)
        };
        let key = if solid {
            (a, b, 0, index)
        } else {
            k = if p.triangle == previous { k + 1 } else { 0 };
            previous = p.triangle;
            (a, b, world.meshes.local_index(p.triangle), k)
        };
        found.push(Found {
            key,
            slot_a: a.index(),
            slot_b: b.index(),
            point: p.point,
            normal,
            depth: p.depth,
            material,
        });
    }
}

/// Each dynamic collider against the static triangles its grown bounds
/// overlap: every candidate triangle (insertion order) tested with the
/// collider's placed shape, every point shown to the deferral predicate,
/// and the kept points of each mesh owner reduced to the body's support
/// before they join the solve.
fn mesh_contacts(
    world: &PhysicsWorld,
    colliders: &[Collider],
    boxes: &[BroadBox],
    dt: f32,
    defer: &dyn Fn(&ContactQuery<'_>) -> bool,
    scratch: &mut ContactScratch,
    found: &mut Vec<Found>,
) {
    let Some(tree) = world.meshes.tree() else {
        return;
    };
    let mut candidates = Vec::with_capacity(64);
    let mut points: Vec<MeshPoint> = Vec::with_capacity(64);
    for (c, b) in colliders.iter().zip(boxes) {
        if c.kind != BodyKind::Dynamic {
            continue;
        }
        let Ok(query) = Bounds::new(b.bounds.min, b.bounds.max) else {
            continue;
        };
        tree.query(&query, &mut candidates);
        let solid = &body(world, c.slot).body;
        // The mesh owner whose points `points` holds.
        let mut current: Option<u32> = None;
        for &t in &candidates {
            let t = t as usize;
            let owner_slot = world.meshes.owner(t);
            let owner = body(world, owner_slot);
            if owner.body.is_sensor() || !world.pair_interacts(c.id, solid, owner.id, &owner.body) {
                continue;
            }
            if current != Some(owner_slot) {
                if let Some(previous) = current {
                    let prev = body(world, previous);
                    let material = solid.material().mix(&prev.body.material());
                    flush_mesh_points(world, c, prev, material, &mut points, scratch, found);
                }
                current = Some(owner_slot);
            }
            let triangle = &world.meshes.triangles()[t];
            // The owner is at hand: its mesh's flags without a second lookup.
            let edges = mesh_triangle_edges(&owner.body, world.meshes.local_index(t) as usize);
            let manifold = c.placed.triangle(triangle, edges, CONTACT_MARGIN, scratch);
            for p in manifold.points() {
                let query = ContactQuery {
                    body: c.id,
                    rigid: solid,
                    other: owner.id,
                    other_rigid: &owner.body,
                    triangle: Some(t),
                    normal: manifold.normal(),
                    point: p.point,
                    depth: p.depth,
                    dt,
                };
                if defer(&query) {
                    continue;
                }
                points.push(MeshPoint {
                    triangle: t,
                    point: p.point,
                    normal: manifold.normal(),
                    depth: p.depth,
                });
            }
        }
        if let Some(previous) = current {
            let prev = body(world, previous);
            let material = solid.material().mix(&prev.body.material());
            flush_mesh_points(world, c, prev, material, &mut points, scratch, found);
        }
    }
}

/// Runs the contact stage: finds the contact points, solves them, writes the
/// new velocities and split velocities back, and returns the initial
/// contact events in (body_a, body_b, feature, point) order.
///
/// `defer` decides, for each contact point, whether the continuous
/// stage takes it instead ([`crate::contact_query::keep_every_contact`] in DISCRETE).
///
/// # Errors
/// [`StepError::MeshIndex`], [`StepError::Contact`], or
/// [`StepError::NotRepresentable`] when a new velocity or a contact impulse
/// (reported in an event, kept for the warm start) overflows `f32` (see
/// `Solved`). The caller restores the snapshot.
pub(crate) fn run(
    world: &mut PhysicsWorld,
    dt: f32,
    defer: &dyn Fn(&ContactQuery<'_>) -> bool,
) -> Result<Vec<ContactEvent>, StepError> {
    rebuild_mesh_index(world)?;
    let (colliders, boxes) = colliders(world)?;
    // About a box's reduced patch per collider; grows when more.
    let mut found = Vec::with_capacity(colliders.len() * 8);
    let mut scratch = ContactScratch::new();
    primitive_contacts(
        world,
        &colliders,
        &boxes,
        dt,
        defer,
        &mut scratch,
        &mut found,
    );
    mesh_contacts(
        world,
        &colliders,
        &boxes,
        dt,
        defer,
        &mut scratch,
        &mut found,
    );
    if found.is_empty() {
        world.contact_cache = ContactCache::new(sleeping_entries(world));
        return Ok(Vec::new());
    }
    found.sort_by_key(|f| f.key);

    let solved = solve(world, &found, dt);
    solved.checked(world, &found)?;
    solved.commit(world, &found)
}

/// The cached points of sleeping bodies (kept while they sleep; no point of
/// this step's has their key, since sleeping bodies take no part).
fn sleeping_entries(world: &PhysicsWorld) -> Vec<CachedPoint> {
    if !world.entries().any(|e| e.body.is_sleeping()) {
        return Vec::new();
    }
    world
        .contact_cache
        .sleeping_entries(|id| world.body(id).is_some_and(|b| b.is_sleeping()))
}

/// One solve of the stage's points: the solver bodies (slots in order of
/// first appearance, deterministic) and what each point applied.
///
/// A warm start is a guess carried over from the last step (Catto 2005): a
/// body whose mass or velocity the user changed since then can turn a
/// cached impulse into velocities beyond `f32`, or steer a later stage
/// into a refusal. A step whose stages fail after a warm start is
/// therefore run again from its snapshot without the cache, and refused
/// only when that cold run, which depends on the visible state alone,
/// fails too (`PhysicsWorld::step`). A refusal is then one the user can
/// clear by changing what the error names (a failed step restores the
/// cache of the last successful step, which [`Solved::checked`] keeps
/// finite).
struct Solved {
    slots: Vec<u32>,
    bodies: Vec<SolverBody>,
    impulses: Vec<ContactImpulse>,
}

fn solve(world: &PhysicsWorld, found: &[Found], dt: f32) -> Solved {
    let mut index_of = vec![usize::MAX; world.slots.len()];
    let mut slots: Vec<u32> = Vec::with_capacity(world.slots.len());
    let mut bodies: Vec<SolverBody> = Vec::with_capacity(world.slots.len());
    let mut inputs = Vec::with_capacity(found.len());
    for f in found {
        let mut index = |slot: u32| {
            let i = &mut index_of[slot as usize];
            if *i == usize::MAX {
                *i = bodies.len();
                // The step's gravity, spread over the solver's substeps.
                let gravity = promote(world.gravity) * dt as f64;
                bodies
                    .push(SolverBody::of(&body(world, slot).body).with_external_velocity(gravity));
                slots.push(slot);
            }
            *i
        };
        let body_a = index(f.slot_a);
        let body_b = index(f.slot_b);
        let (warm_normal_impulse, warm_tangent_impulse) = world
            .contact_cache
            .warm_start((f.key.0, f.key.1, f.key.2), f.point);
        inputs.push(ContactPointInput {
            body_a,
            body_b,
            point: f.point,
            normal: f.normal,
            depth: f.depth,
            material: f.material,
            warm_normal_impulse,
            warm_tangent_impulse,
        });
    }
    let impulses = solve_contacts(&mut bodies, &inputs, dt as f64);
    Solved {
        slots,
        bodies,
        impulses,
    }
}

/// The error naming `body` and `quantity` for the `f64` vector `value`
/// that has no finite `f32` value (the first offending component).
fn not_representable(body: BodyId, quantity: &'static str, value: Vec3d) -> StepError {
    let value = value
        .iter()
        .copied()
        .find(|x| demote_scalar(*x).is_err())
        .unwrap_or(f64::NAN);
    StepError::NotRepresentable {
        body,
        source: BodyError::NotRepresentable { quantity, value },
    }
}

impl Solved {
    /// `Ok` when everything the commit stores is a finite `f32`: the new
    /// velocities and split velocities of every dynamic body, and each
    /// point's reported normal impulse and cached friction impulse.
    ///
    /// # Errors
    /// [`StepError::NotRepresentable`] naming the first body (order of
    /// first appearance) and quantity beyond `f32`; an impulse names the
    /// pair's body B when it is dynamic, else body A (the dynamic side whose
    /// motion the impulse changed).
    fn checked(&self, world: &PhysicsWorld, found: &[Found]) -> Result<(), StepError> {
        for (slot, solved) in self.slots.iter().zip(&self.bodies) {
            let e = body(world, *slot);
            if e.body.kind() != BodyKind::Dynamic {
                continue;
            }
            for (quantity, v) in [
                ("linear velocity", solved.linear_velocity),
                ("angular velocity", solved.angular_velocity),
                ("split linear velocity", solved.split_linear_velocity),
                ("split angular velocity", solved.split_angular_velocity),
            ] {
                if demote(v).is_err() {
                    return Err(not_representable(e.id, quantity, v));
                }
            }
        }
        for (f, i) in found.iter().zip(&self.impulses) {
            let named = if body(world, f.slot_b).body.kind() == BodyKind::Dynamic {
                f.key.1
            } else {
                f.key.0
            };
            let normal = promote(f.normal) * i.normal_impulse;
            if demote_scalar(i.normal_impulse).is_err() {
                let value = Vec3d::repeat(i.normal_impulse);
                return Err(not_representable(named, "contact normal impulse", value));
            }
            if demote(normal).is_err() {
                return Err(not_representable(named, "contact normal impulse", normal));
            }
            for t in [i.tangent_impulse, i.warm_tangent_impulse] {
                if demote(t).is_err() {
                    return Err(not_representable(named, "contact friction impulse", t));
                }
            }
            if demote_scalar(i.warm_normal_impulse).is_err() {
                let value = Vec3d::repeat(i.warm_normal_impulse);
                return Err(not_representable(named, "contact normal impulse", value));
            }
        }
        Ok(())
    }

    /// Writes the checked answer back: the new velocities, the cache of the
    /// points that took a normal impulse, and the events of the points that
    /// touch or took an impulse.
    ///
    /// # Errors
    /// [`StepError::NotRepresentable`] from the write-back (which
    /// [`Solved::checked`] has already ruled out); the caller restores the
    /// snapshot.
    fn commit(
        self,
        world: &mut PhysicsWorld,
        found: &[Found],
    ) -> Result<Vec<ContactEvent>, StepError> {
        for (slot, solved) in self.slots.iter().zip(&self.bodies) {
            if let Some(e) = world.slots[*slot as usize].as_mut() {
                solved
                    .write_back(&mut e.body)
                    .map_err(|source| StepError::NotRepresentable { body: e.id, source })?;
            }
        }
        let impulses = &self.impulses;
        let mut cached = sleeping_entries(world);
        cached.extend(
            found
                .iter()
                .zip(impulses)
                .filter(|(_, i)| i.warm_normal_impulse > 0.0)
                .map(|(f, i)| CachedPoint {
                    key: (f.key.0, f.key.1, f.key.2),
                    point: f.point,
                    normal_impulse: i.warm_normal_impulse as f32,
                    tangent_impulse: i.warm_tangent_impulse.cast::<f32>(),
                }),
        );
        world.contact_cache = ContactCache::new(cached);
        Ok(found
            .iter()
            .zip(impulses)
            .filter(|(f, i)| f.depth >= 0.0 || i.normal_impulse > 0.0)
            .map(|(f, i)| ContactEvent {
                body_a: f.key.0,
                body_b: f.key.1,
                point: f.point,
                normal: f.normal,
                normal_impulse: (promote(f.normal) * i.normal_impulse).cast::<f32>(),
                time: 0.0,
                kind: ContactKind::Initial,
            })
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contact_query::keep_every_contact;
    use parapet_geometry::Shape;
    use parapet_solver::RigidBody;

    fn floor_and_ball() -> (PhysicsWorld, BodyId) {
        let mut w = PhysicsWorld::new();
        let v = vec![
            Vec3::new(-5.0, -5.0, 0.0),
            Vec3::new(5.0, -5.0, 0.0),
            Vec3::new(0.0, 5.0, 0.0),
        ];
        w.add_body(RigidBody::new_static(
            Shape::mesh(v, vec![[0, 1, 2]]).unwrap(),
        ))
        .unwrap();
        let ball = RigidBody::new_dynamic(Shape::sphere(0.5).unwrap(), 1.0)
            .unwrap()
            .with_position(Vec3::new(0.0, 0.0, 0.5));
        let id = w.add_body(ball).unwrap();
        (w, id)
    }

    #[test]
    fn the_deferral_hook_sees_each_mesh_point_and_can_take_it() {
        let dt = 0.01;
        // Keep every contact: the resting ball is held (its velocity after
        // the stage is zero along the normal).
        let (mut w, id) = floor_and_ball();
        super::super::forces::apply(&mut w, dt).unwrap();
        let events = run(&mut w, dt, &keep_every_contact).unwrap();
        assert_eq!(events.len(), 1);
        assert!(w.body(id).unwrap().linear_velocity().z.abs() < 1e-6);

        // Defer every mesh contact: the stage applies nothing and reports
        // nothing, and the predicate saw the body, triangle and normal.
        let (mut w, id) = floor_and_ball();
        super::super::forces::apply(&mut w, dt).unwrap();
        let seen = std::cell::RefCell::new(Vec::new());
        let defer_all = |q: &ContactQuery<'_>| {
            seen.borrow_mut()
                .push((q.body, q.other, q.triangle, q.normal, q.dt));
            true
        };
        let events = run(&mut w, dt, &defer_all).unwrap();
        assert!(events.is_empty());
        let floor = w.bodies().next().unwrap().0;
        assert_eq!(*seen.borrow(), vec![(id, floor, Some(0), -Vec3::z(), dt)]);
        assert!(w.body(id).unwrap().linear_velocity().z < 0.0);
    }

    #[test]
    fn disabled_bodies_never_enter_the_broad_phase() {
        let (mut w, id) = floor_and_ball();
        let other = w
            .add_body(
                RigidBody::new_dynamic(Shape::sphere(0.5).unwrap(), 1.0)
                    .unwrap()
                    .with_position(Vec3::new(0.2, 0.0, 0.6)),
            )
            .unwrap();
        let (colliders, boxes) = colliders(&w).unwrap();
        assert_eq!(colliders.len(), 2);
        assert_eq!(boxes.len(), 2);
        w.body_mut(other).unwrap().set_collides(false);
        let (colliders, _) = colliders_of(&w);
        // Only the ball remains; the mesh enters through the index, never here.
        assert_eq!(colliders, vec![id]);
    }

    fn colliders_of(w: &PhysicsWorld) -> (Vec<BodyId>, usize) {
        let (c, b) = colliders(w).unwrap();
        (c.iter().map(|c| c.id).collect(), b.len())
    }
}
