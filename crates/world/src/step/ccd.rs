//! Stage 5: continuous collision (seed 000 "Continuous collision"). Nothing
//! happens in DISCRETE. In SPHERE_MESH_CCD the stage runs in three parts
//! around the force and contact stages:
//!
//! 1. [`prepare`] (before forces, which consume the pending torques that the
//!    support rules read): every body is classified by
//!    [`crate::ccd::support::classify`] in insertion order (box and hull
//!    solids and factorable tensors kept per slot between steps,
//!    [`crate::ccd::support::ClassifyCache`]) and refused with
//!    [`StepError::Unsupported`] when the mode cannot handle it; positions
//!    and radii are checked against the precision limits; the mesh snapshot
//!    passes its geometry check (once per snapshot, [`crate::ccd::mesh_cache`]).
//! 2. [`CcdPlan::after_forces`] records each swept body's kinetic energy
//!    after the force update, and [`CcdPlan::defers`] hands the contact stage
//!    every negative-depth mesh contact of a swept body whose closing travel
//!    this step exceeds [`CONTACT_MARGIN`] (the sweep takes it: no early
//!    bounce; slower contacts keep the speculative path, overlaps keep the
//!    solver and split correction); a separated pair of centred spheres,
//!    locked capsules or kinematic spheres closing faster than the margin
//!    per step goes to the group sweep too ([`CcdPlan::defers_pair`]).
//! 3. [`run`] (after the contact solve): reach bounds from the larger of the
//!    post-force and post-solver energies plus split travel; the groups
//!    ([`crate::ccd::group`]: regions that overlap join, group energy
//!    widens each member's reach, a turning body, box or hull in a shared
//!    group is refused); each swept body alone in insertion order is swept
//!    alone ([`crate::ccd::solo`]), then each shared group, in the order of
//!    its lowest member, is swept together ([`crate::ccd::group_sweep`]).
//!    Bodies with an impact end the step here; the others are integrated as
//!    usual (kinematic spheres always). Swept impacts become
//!    [`ContactKind::Swept`] events, which the report sorts stably by time
//!    after the initial contacts.
//!
//! Every error rolls the whole step back (`PhysicsWorld::step`).

// Limits are written `!(value <= limit)` so that a NaN fails them too.
#![allow(clippy::neg_cmp_op_on_partial_ord)]

use parapet_math::{promote, Vec3d};
use parapet_narrow::sweep::{MAX_COORDINATE, MAX_RADIUS, MIN_RADIUS};
use parapet_solver::contact::CONTACT_MARGIN;
use parapet_solver::{BodyError, RigidBody};

use crate::ccd::group::{form_groups_with, Groups, Mover, SharedGroups};
use crate::ccd::group_sweep::{
    sweep_group, GroupInput, GroupMember, GroupOutcome, MemberShape, Struck,
};
use crate::ccd::motion::{capsule_half_axis, MeshView, SweptMotion, SweptShape, TurningShape};
use crate::ccd::reach::{self, Reach};
use crate::ccd::scratch::CcdScratch;
use crate::ccd::solo::{sweep_alone_prepared, SoloInput, SoloScratch};
use crate::ccd::support::{classify_cached, ClassifyCache, Role};
use crate::ccd::turning::{sweep_turning, turning_reach, TurningInput};
use crate::ccd::{CcdError, CollisionDetection};
use crate::contact_query::ContactQuery;
use crate::{BodyId, ContactEvent, ContactKind, PhysicsWorld, StepError};

/// What the continuous stage did.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct CcdOutcome {
    /// Per slot: whether the stage moved the body to the end of the step (the
    /// integrate stage then skips it).
    pub moved: Vec<bool>,
    /// Swept impacts, any order (the report sorts them by time).
    pub events: Vec<ContactEvent>,
    /// The sub-steps each turning body took, in insertion order.
    pub substeps: Vec<(BodyId, u32)>,
}

/// The continuous mode's plan for one step.
#[derive(Debug, Clone)]
pub(crate) struct CcdPlan {
    /// Per slot: the body's role (`None` for free slots).
    roles: Vec<Option<Role>>,
    /// Per slot: the kinetic energy after the force update (J), swept bodies.
    energy: Vec<f64>,
}

const MODE: &str = "SPHERE_MESH_CCD";

/// Bodies alone from which their sweeps run in parallel (count). A sweep
/// of a body alone costs about a microsecond (one tree query, clear misses
/// decided without the exact sweep), while waking rayon's workers costs
/// tens of microseconds on a loaded machine: measured on the bench scenes
/// (64 bodies, 2 shared cores), the serial loop was faster than 2 threads
/// (falling_spheres: 152 against 179 us per step, medians of 5 runs).
/// Results never depend on it.
const PARALLEL_BODIES: usize = 128;

/// Fewest bodies alone that one rayon task sweeps (count): fewer, larger
/// tasks cost less scheduling than one task per body. Results never depend
/// on it.
const PARALLEL_MIN_BODIES: usize = 32;

/// Work from which the shared groups are swept in parallel: the sum over
/// the groups of their member count squared (a group sweep tests its
/// member pairs, each pass). A pair of spheres costs a few microseconds to
/// sweep while handing work to rayon's workers costs tens on a loaded
/// machine: measured on the bench scenes (2 shared cores, step_profile
/// wall time), 64 head-on pairs (work 256) took 99 us per step serial
/// against 168 us in parallel, and 64 struck stacks or chains (work 1,600
/// and 2,304, about a millisecond of sweeps) were no slower in parallel.
/// Results never depend on it (results are taken in group order).
const PARALLEL_GROUP_WORK: usize = 1024;

/// Whether the shared groups are swept in parallel: at least two groups,
/// more than one rayon thread (one thread only adds the hand-over) and at
/// least [`PARALLEL_GROUP_WORK`] of work.
fn groups_in_parallel(shared: &SharedGroups) -> bool {
    let work: usize = shared.iter().map(|g| g.len() * g.len()).sum();
    shared.len() >= 2 && work >= PARALLEL_GROUP_WORK && rayon::current_num_threads() > 1
}

fn id_of(world: &PhysicsWorld, slot: usize) -> BodyId {
    world
        .slots
        .get(slot)
        .and_then(|e| e.as_ref())
        .map(|e| e.id)
        .unwrap_or_else(|| BodyId::new(slot as u32, 0))
}

/// The material of snapshot triangle `t`'s owner, `None` when the owner's
/// collisions are off (its triangles then collide with nothing).
fn triangle_material(world: &PhysicsWorld, t: usize) -> Option<parapet_geometry::Material> {
    let owner = world.slots[world.meshes.owner(t) as usize].as_ref()?;
    owner.body.collides().then(|| owner.body.material())
}

/// The swept contact event between moving body `id` and `other` (a mesh
/// owner or another member): ordered by id, with the normal and the impulse
/// on body B as the event defines them (`normal` runs from `other` towards
/// `id`, `impulse` is the impulse on `id`).
fn swept_event(
    id: BodyId,
    other: BodyId,
    point: Vec3d,
    normal: Vec3d,
    impulse: Vec3d,
    time: f64,
) -> ContactEvent {
    let jn: Vec3d = normal * normal.dot(&impulse);
    let (body_a, body_b, normal, impulse_b) = if other < id {
        (other, id, normal, jn)
    } else {
        (id, other, -normal, -jn)
    };
    ContactEvent {
        body_a,
        body_b,
        point: point.cast::<f32>(),
        normal: normal.cast::<f32>(),
        normal_impulse: impulse_b.cast::<f32>(),
        time: time as f32,
        kind: ContactKind::Swept,
    }
}

/// Moves body `slot` to the end of the step as the continuous stage left it
/// (pose, velocities, split velocities spent) and marks it moved.
fn apply_motion(world: &mut PhysicsWorld, slot: usize, motion: &SweptMotion, moved: &mut [bool]) {
    if let Some(entry) = world.slots[slot].as_mut() {
        let b = &mut entry.body;
        b.set_position(motion.position);
        b.set_rotation(motion.rotation);
        b.set_linear_velocity(motion.linear_velocity);
        b.set_angular_velocity(motion.angular_velocity);
        b.set_split_linear_velocity(parapet_math::Vec3::zeros());
        b.set_split_angular_velocity(parapet_math::Vec3::zeros());
        moved[slot] = true;
    }
}

/// Turns an engine error into the world's error, naming bodies by id.
fn step_error(world: &PhysicsWorld, e: CcdError) -> StepError {
    let id = id_of(world, e.body());
    match e {
        CcdError::Unsupported { body, reason } => {
            let text = match reason {
                crate::ccd::UnsupportedReason::Interacting { other, reach } => format!(
                    "its reachable region (radius {reach} m) overlaps that of moving body {}",
                    id_of(world, other)
                ),
                _ => reason.to_string(),
            };
            let (kind, shape) = world
                .slots
                .get(body)
                .and_then(|e| e.as_ref())
                .map(|e| (e.body.kind(), e.body.shape().kind_name()))
                .unwrap_or((parapet_solver::BodyKind::Static, "unknown"));
            StepError::Unsupported {
                body: id,
                kind,
                shape,
                mode: MODE,
                reason: text,
                limit: reason.limit(),
            }
        }
        CcdError::Precision {
            quantity,
            value,
            limit,
            ..
        } => StepError::Precision {
            body: id,
            quantity,
            value,
            limit,
        },
        CcdError::SweepRefused {
            triangle, refusal, ..
        } => {
            let owner = world.meshes.owner(triangle) as usize;
            StepError::SweepRefused {
                body: id,
                mesh: id_of(world, owner),
                triangle: world.meshes.local_index(triangle) as usize,
                source: refusal,
            }
        }
        CcdError::InvalidTriangle { error, .. } => StepError::InvalidMesh {
            body: id,
            source: error,
        },
        CcdError::ImpactLimit { impacts, limit, .. } => StepError::ImpactLimit {
            body: id,
            impacts,
            limit,
        },
        CcdError::PairSweepRefused { other, refusal, .. } => StepError::PairSweepRefused {
            body: id,
            other: id_of(world, other),
            source: refusal,
        },
        CcdError::Unresolvable {
            contacts,
            reason,
            limit,
            ..
        } => StepError::Unresolvable {
            body: id,
            contacts,
            reason,
            limit,
        },
        CcdError::SubstepLimit {
            substeps, limit, ..
        } => StepError::SubstepLimit {
            body: id,
            substeps,
            limit,
        },
        CcdError::NotRepresentable {
            quantity, value, ..
        } => StepError::NotRepresentable {
            body: id,
            source: BodyError::NotRepresentable { quantity, value },
        },
        // CcdError is non_exhaustive for users; every variant is mapped above.
        #[allow(unreachable_patterns)]
        other => StepError::Unsupported {
            body: id,
            kind: parapet_solver::BodyKind::Static,
            shape: "unknown",
            mode: MODE,
            reason: other.to_string(),
            limit: "supported worlds of seed 000",
        },
    }
}

fn precision(body: usize, quantity: &'static str, value: f64, limit: f64) -> CcdError {
    CcdError::Precision {
        body,
        quantity,
        value,
        limit,
    }
}

/// Radius limits of seed 000 for spheres and capsules.
fn check_radius(slot: usize, radius: f32) -> Result<(), CcdError> {
    let r = radius as f64;
    if !(MIN_RADIUS..=MAX_RADIUS).contains(&r) {
        let limit = if r < MIN_RADIUS {
            MIN_RADIUS
        } else {
            MAX_RADIUS
        };
        return Err(precision(slot, "sphere or capsule radius (m)", r, limit));
    }
    Ok(())
}

fn classify_all(
    world: &PhysicsWorld,
    cache: &mut ClassifyCache,
    roles: &mut Vec<Option<Role>>,
) -> Result<(), CcdError> {
    roles.clear();
    roles.resize(world.slots.len(), None);
    cache.reserve_slots(world.slots.len());
    for e in world.entries() {
        let slot = e.id.index() as usize;
        let role = classify_cached(slot, &e.body, cache)?;
        if !matches!(role, Role::Passive) {
            for &x in e.body.position().iter() {
                if !((x as f64).abs() <= MAX_COORDINATE) {
                    return Err(precision(
                        slot,
                        "position coordinate (m)",
                        x as f64,
                        MAX_COORDINATE,
                    ));
                }
            }
        }
        match &role {
            Role::KinematicSphere { radius }
            | Role::Swept(SweptShape::Sphere { radius })
            | Role::Swept(SweptShape::Capsule { radius, .. })
            | Role::Turning(TurningShape { radius, .. }) => check_radius(slot, *radius)?,
            _ => {}
        }
        roles[slot] = Some(role);
    }
    Ok(())
}

/// Part 1: the plan of a CCD step, `None` in DISCRETE (nothing is read or
/// changed then).
///
/// # Errors
/// [`StepError::Unsupported`], [`StepError::Precision`] or
/// [`StepError::InvalidMesh`] for the first refused body in insertion order.
pub(crate) fn prepare(world: &mut PhysicsWorld) -> Result<Option<CcdPlan>, StepError> {
    match world.collision_detection {
        CollisionDetection::Discrete => return Ok(None),
        CollisionDetection::SphereMeshCcd => {}
    }
    let mut cache = std::mem::take(&mut world.ccd_classify);
    // The plan's lists reuse the last plan's storage ([`CcdPlan::recycle`]).
    let mut roles = std::mem::take(&mut world.ccd_scratch.roles);
    let mut energy = std::mem::take(&mut world.ccd_scratch.energy);
    let classified = classify_all(world, &mut cache, &mut roles);
    world.ccd_classify = cache;
    classified.map_err(|e| step_error(world, e))?;
    if !world.ccd_mesh.is_validated() {
        // Once per snapshot: every mesh body's triangles, in insertion order.
        let meshes: Vec<(usize, std::sync::Arc<[[parapet_math::Vec3; 3]]>)> = world
            .entries()
            .filter_map(|e| e.mesh.clone().map(|m| (e.id.index() as usize, m)))
            .collect();
        let checked = world
            .ccd_mesh
            .ensure(meshes.iter().map(|(s, m)| (*s, &m[..])));
        checked.map_err(|e| step_error(world, e))?;
    }
    energy.clear();
    energy.resize(roles.len(), 0.0);
    Ok(Some(CcdPlan { energy, roles }))
}

impl CcdPlan {
    /// Hands the plan's storage back to the world for the next step's plan
    /// (only its capacity is reused: [`prepare`] refills both lists).
    pub(crate) fn recycle(mut self, world: &mut PhysicsWorld) {
        // No role (nor a solid it shares) outlives its step.
        self.roles.clear();
        world.ccd_scratch.roles = self.roles;
        world.ccd_scratch.energy = self.energy;
    }

    /// Part 2: records the swept bodies' energies after the force update.
    pub(crate) fn after_forces(mut self, world: &PhysicsWorld) -> CcdPlan {
        for e in world.entries() {
            let slot = e.id.index() as usize;
            if matches!(
                self.roles.get(slot),
                Some(Some(Role::Swept(_) | Role::Turning(_)))
            ) {
                self.energy[slot] = reach::bound_energy(&e.body);
            }
        }
        self
    }

    /// Whether the contact stage hands this contact to the sweep: a mesh
    /// contact of a swept or turning body, separated (negative depth), whose
    /// closing travel `(v . n) dt` exceeds [`CONTACT_MARGIN`] (for a turning
    /// body, `v` is its contact point's velocity); a primitive pair goes
    /// through [`CcdPlan::defers_pair`].
    pub(crate) fn defers(&self, q: &ContactQuery<'_>) -> bool {
        if q.triangle.is_none() {
            return self.defers_pair(q);
        }
        let role = self.roles.get(q.body.index() as usize);
        let swept = matches!(role, Some(Some(Role::Swept(_) | Role::Turning(_))));
        if !swept || !(q.depth < 0.0) {
            return false;
        }
        // A turning body's contact point moves with its spin too.
        let velocity = if matches!(role, Some(Some(Role::Turning(_)))) {
            q.rigid.point_velocity(q.point)
        } else {
            promote(q.rigid.linear_velocity())
        };
        let closing = velocity.dot(&promote(q.normal));
        closing * q.dt as f64 > CONTACT_MARGIN as f64
    }

    /// Pair routing (seed 000 "Moving sphere pairs"): a separated pair of
    /// group-able bodies (centred spheres, capsules that cannot turn,
    /// kinematic spheres) whose relative closing travel `((v_A - v_B) . n) dt`
    /// exceeds [`CONTACT_MARGIN`] goes to the group sweep; slower pairs keep
    /// the speculative contact, overlaps keep the solver.
    fn defers_pair(&self, q: &ContactQuery<'_>) -> bool {
        let groupable = |slot: usize| {
            matches!(
                self.roles.get(slot),
                Some(Some(
                    Role::KinematicSphere { .. }
                        | Role::Swept(SweptShape::Sphere { .. })
                        | Role::Swept(SweptShape::Capsule { .. })
                ))
            )
        };
        if !groupable(q.body.index() as usize)
            || !groupable(q.other.index() as usize)
            || !(q.depth < 0.0)
        {
            return false;
        }
        let relative =
            promote(q.rigid.linear_velocity()) - promote(q.other_rigid.linear_velocity());
        let closing = relative.dot(&promote(q.normal));
        closing * q.dt as f64 > CONTACT_MARGIN as f64
    }
}

/// The reach of a swept body from its region centre and shape bound
/// ([`swept_bound`]) and its bound energy (J, the larger of the post-force
/// and post-solver energies).
fn swept_reach(body: &RigidBody, (center, bound): (Vec3d, f64), energy: f64, dt: f32) -> Reach {
    reach::dynamic_reach(
        center,
        bound,
        energy,
        body.mass() as f64,
        body.split_linear_velocity(),
        dt,
    )
}

/// The region centre and shape bound of a swept body.
fn swept_bound(body: &RigidBody, shape: &SweptShape) -> (Vec3d, f64) {
    let p = body.position();
    match shape {
        SweptShape::Sphere { radius } => (promote(p), *radius as f64),
        SweptShape::Capsule {
            radius,
            half_height,
        } => {
            let a = promote(capsule_half_axis(body, *half_height));
            let c = promote(p);
            let ends = [(c - a).map(|x| x as f32), (c + a).map(|x| x as f32)];
            (c, reach::capsule_bound(p, ends, *radius))
        }
        SweptShape::Solid { solid, .. } => {
            let (offset, _) = body.shape_offset();
            let q = parapet_math::promote_quat(body.rotation());
            let q = parapet_math::nalgebra::UnitQuaternion::new_normalize(q.into_inner());
            let c: Vec3d = promote(p) + q * promote(offset);
            // Rotation roundoff of the vertices: a relative 1e-12 outward.
            (c, solid.bounding_radius() * (1.0 + 1.0e-12))
        }
    }
}

/// Sweeps every swept body alone, in insertion order, reading the world
/// only; returns the bodies that took an impact with their outcomes.
fn sweep_each(
    world: &PhysicsWorld,
    dt: f32,
    plan: &CcdPlan,
    moving: &[(usize, Reach)],
    substeps: &mut Vec<(BodyId, u32)>,
) -> Result<Vec<(usize, crate::ccd::SoloOutcome)>, StepError> {
    let mut results = Vec::new();
    let material = |t: usize| triangle_material(world, t);
    let edges = |t: usize| world.snapshot_triangle_edges(t);
    let mesh = world.meshes.tree().map(|tree| MeshView {
        triangles: world.meshes.triangles(),
        tree,
        material: &material,
        edges: &edges,
    });
    // The widest triangle of the checked snapshot (`prepare` checked it
    // before this stage runs; infinite, which lets no pass take its own
    // region, if it did not).
    let extent = world.ccd_mesh.largest_extent().unwrap_or(f64::INFINITY);
    // Bodies alone are independent: they are swept in parallel (rayon) when
    // there are enough of them, and the results are taken in insertion
    // order, so the outcome and the first error do not depend on the
    // thread count. A turning body also reports its sub-step count.
    type Swept = (crate::ccd::SoloOutcome, Option<u32>);
    let sweep = |scratch: &mut SoloScratch,
                 (slot, r): &(usize, Reach)|
     -> Option<Result<Swept, CcdError>> {
        let entry = world.slots[*slot].as_ref()?;
        match &plan.roles[*slot] {
            Some(Role::Turning(shape)) => {
                // A turning body always takes its pose from its sweep, with
                // or without meshes.
                let input = TurningInput {
                    index: *slot,
                    body: &entry.body,
                    shape: *shape,
                    dt,
                    max_impacts: world.ccd_max_impacts,
                    max_substeps: world.ccd_max_substeps,
                };
                Some(sweep_turning(&input, mesh.as_ref()).map(|t| {
                    let outcome = crate::ccd::SoloOutcome {
                        motion: Some(t.motion),
                        impacts: t.impacts,
                    };
                    (outcome, Some(t.substeps))
                }))
            }
            Some(Role::Swept(shape)) => {
                let mesh = mesh.as_ref()?;
                let input = SoloInput {
                    index: *slot,
                    body: &entry.body,
                    shape,
                    reach: *r,
                    dt,
                    max_impacts: world.ccd_max_impacts,
                };
                Some(sweep_alone_prepared(&input, mesh, extent, scratch).map(|o| (o, None)))
            }
            _ => None,
        }
    };
    // The outcome of each body in insertion order: an error ends the step
    // (the first in insertion order is the one reported), otherwise a body
    // with an impact (or a turning body) is kept.
    let mut take = |slot: usize, outcome: Option<Result<Swept, CcdError>>| {
        let Some(outcome) = outcome else {
            return Ok(());
        };
        let (result, count) = outcome.map_err(|err| step_error(world, err))?;
        if let Some(n) = count {
            substeps.push((id_of(world, slot), n));
        }
        if result.motion.is_some() || !result.impacts.is_empty() {
            results.push((slot, result));
        }
        Ok::<(), StepError>(())
    };
    if moving.len() >= PARALLEL_BODIES {
        use rayon::prelude::*;
        let outcomes: Vec<_> = moving
            .par_iter()
            .with_min_len(PARALLEL_MIN_BODIES)
            .map_init(SoloScratch::default, sweep)
            .collect();
        for ((slot, _), outcome) in moving.iter().zip(outcomes) {
            take(*slot, outcome)?;
        }
    } else {
        // Serially, the bodies after the first error are not swept: their
        // outcomes could not change the reported error (a rolled-back step
        // with many impacts stops at its first failing body).
        let mut scratch = SoloScratch::default();
        for m in moving {
            take(m.0, sweep(&mut scratch, m))?;
        }
    }
    Ok(results)
}

/// The grouping's view of moving body `slot` with region `alone`: `bound`
/// is a swept body's shape bound (m) and `energy` its bound energy (J, the
/// larger of the post-force and post-solver energies).
fn mover_of(
    body: &RigidBody,
    slot: usize,
    role: &Role,
    alone: Reach,
    bound: f64,
    energy: f64,
    dt: f32,
) -> Mover {
    let mut m = Mover {
        index: slot,
        alone,
        groupable: false,
        kinematic_speed: None,
        shape_bound: 0.0,
        mass: body.mass() as f64,
        energy: 0.0,
        split_travel: 0.0,
    };
    match role {
        Role::KinematicSphere { .. } => {
            m.groupable = true;
            m.kinematic_speed = Some(reach::norm_up(&promote(body.linear_velocity())));
        }
        Role::Swept(shape) => {
            m.groupable = matches!(
                shape,
                SweptShape::Sphere { .. } | SweptShape::Capsule { .. }
            );
            m.shape_bound = bound;
            m.energy = energy;
            m.split_travel = reach::split_travel(body.split_linear_velocity(), dt as f64);
        }
        _ => {}
    }
    m
}

/// Sweeps every shared group, in the order of its lowest member.
fn sweep_groups(
    world: &PhysicsWorld,
    dt: f32,
    plan: &CcdPlan,
    movers: &[Mover],
    groups: &Groups,
    shared: &SharedGroups,
) -> Result<Vec<GroupOutcome>, StepError> {
    let material = |t: usize| triangle_material(world, t);
    let edges = |t: usize| world.snapshot_triangle_edges(t);
    let mesh = world.meshes.tree().map(|tree| MeshView {
        triangles: world.meshes.triangles(),
        tree,
        material: &material,
        edges: &edges,
    });
    // Groups are independent: swept in parallel (rayon) when there are
    // enough of them; results and the first error are taken in group order,
    // so nothing depends on the thread count.
    let sweep = |group: &[usize]| -> Result<GroupOutcome, CcdError> {
        let mut members = Vec::with_capacity(group.len());
        for &i in group {
            let slot = movers[i].index;
            let Some(entry) = world.slots[slot].as_ref() else {
                continue;
            };
            let shape = match &plan.roles[slot] {
                Some(Role::KinematicSphere { radius }) => {
                    MemberShape::Kinematic { radius: *radius }
                }
                Some(Role::Swept(SweptShape::Sphere { radius })) => {
                    MemberShape::Sphere { radius: *radius }
                }
                Some(Role::Swept(SweptShape::Capsule {
                    radius,
                    half_height,
                })) => MemberShape::Capsule {
                    radius: *radius,
                    half_height: *half_height,
                },
                _ => continue,
            };
            members.push(GroupMember {
                index: slot,
                body: &entry.body,
                shape,
                reach: groups.reach[i],
            });
        }
        let input = GroupInput {
            members,
            dt,
            max_impacts: world.ccd_max_impacts,
        };
        sweep_group(&input, mesh.as_ref())
    };
    let results: Vec<_> = if groups_in_parallel(shared) {
        use rayon::prelude::*;
        (0..shared.len())
            .into_par_iter()
            .map(|g| sweep(shared.group(g)))
            .collect()
    } else {
        shared.iter().map(sweep).collect()
    };
    results
        .into_iter()
        .map(|r| r.map_err(|err| step_error(world, err)))
        .collect()
}

/// Part 3: reach, groups and the sweeps (see the module docs).
///
/// # Errors
/// The first error in body insertion order (bodies alone, then groups):
/// [`StepError::Precision`], [`StepError::Unsupported`] (a turning body, box
/// or hull that can reach another moving body), [`StepError::SweepRefused`],
/// [`StepError::PairSweepRefused`], [`StepError::ImpactLimit`],
/// [`StepError::Unresolvable`] or [`StepError::NotRepresentable`].
pub(crate) fn run(
    world: &mut PhysicsWorld,
    dt: f32,
    plan: &CcdPlan,
) -> Result<CcdOutcome, StepError> {
    let mut scratch = std::mem::take(&mut world.ccd_scratch);
    let outcome = run_with(world, dt, plan, &mut scratch);
    world.ccd_scratch = scratch;
    outcome
}

fn run_with(
    world: &mut PhysicsWorld,
    dt: f32,
    plan: &CcdPlan,
    scratch: &mut CcdScratch,
) -> Result<CcdOutcome, StepError> {
    let mut outcome = CcdOutcome {
        moved: vec![false; world.slots.len()],
        events: Vec::new(),
        substeps: Vec::new(),
    };
    let CcdScratch {
        roles: _,
        energy: _,
        moving,
        movers,
        alone,
        groups,
        group,
        shared,
    } = scratch;
    moving.clear();
    movers.clear();
    // Reach bounds, and each moving body as the grouping sees it.
    for e in world.entries() {
        let slot = e.id.index() as usize;
        let Some(role) = &plan.roles[slot] else {
            continue;
        };
        let (r, bound, energy) = match role {
            Role::Swept(shape) => {
                let bound = swept_bound(&e.body, shape);
                let energy = plan.energy[slot].max(reach::bound_energy(&e.body));
                let r = swept_reach(&e.body, bound, energy, dt);
                reach::check_reach(slot, &r, shape.limit_radius())
                    .map_err(|err| step_error(world, err))?;
                (r, bound.1, energy)
            }
            Role::Turning(shape) => {
                let energy = plan.energy[slot].max(reach::bound_energy(&e.body));
                let r = turning_reach(&e.body, shape, energy, dt);
                reach::check_reach(slot, &r, shape.radius as f64)
                    .map_err(|err| step_error(world, err))?;
                (r, 0.0, 0.0)
            }
            Role::KinematicSphere { radius } => {
                let r = reach::kinematic_reach(
                    promote(e.body.position()),
                    *radius,
                    e.body.linear_velocity(),
                    dt,
                );
                (r, 0.0, 0.0)
            }
            _ => continue,
        };
        moving.push((slot, r));
        movers.push(mover_of(&e.body, slot, role, r, bound, energy, dt));
    }
    form_groups_with(movers, world.ccd_max_impacts, dt, group, groups)
        .map_err(|err| step_error(world, err))?;
    // A mover alone keeps its region alone (checked above); a shared
    // group's members are checked with their group regions.
    let mut all_alone = true;
    for (i, m) in movers.iter().enumerate() {
        if !groups.is_shared(i) {
            continue;
        }
        all_alone = false;
        if let Some(Role::Swept(shape)) = &plan.roles[m.index] {
            reach::check_reach(m.index, &groups.reach[i], shape.limit_radius())
                .map_err(|err| step_error(world, err))?;
        }
    }
    // Every mover alone: no group is shared (`Groups::shared` lists groups
    // of more than one mover), and the bodies alone are the moving bodies.
    let moving: &[(usize, Reach)] = if all_alone {
        shared.clear();
        moving
    } else {
        groups.shared_into(movers, shared);
        alone.clear();
        alone.extend(
            moving
                .iter()
                .enumerate()
                .filter(|(i, _)| !groups.is_shared(*i))
                .map(|(_, m)| *m),
        );
        alone
    };
    let results = sweep_each(world, dt, plan, moving, &mut outcome.substeps)?;
    for (slot, result) in results {
        let id = id_of(world, slot);
        for impact in &result.impacts {
            let owner = id_of(world, world.meshes.owner(impact.triangle) as usize);
            outcome.events.push(swept_event(
                id,
                owner,
                impact.point,
                impact.normal,
                impact.impulse,
                impact.time,
            ));
        }
        if let Some(motion) = result.motion {
            apply_motion(world, slot, &motion, &mut outcome.moved);
        }
    }
    let group_results = sweep_groups(world, dt, plan, movers, groups, shared)?;
    for result in group_results {
        for impact in &result.impacts {
            let id = id_of(world, impact.body);
            let other = match impact.other {
                Struck::Triangle(t) => id_of(world, world.meshes.owner(t) as usize),
                Struck::Member(b) => id_of(world, b),
            };
            outcome.events.push(swept_event(
                id,
                other,
                impact.point,
                impact.normal,
                impact.impulse,
                impact.time,
            ));
        }
        for (slot, motion) in result.motions {
            apply_motion(world, slot, &motion, &mut outcome.moved);
        }
    }
    Ok(outcome)
}

#[cfg(test)]
mod tests {
    use super::*;
    use parapet_geometry::Shape;
    use parapet_math::Vec3;

    /// A CCD world: a floor triangle, a row of falling spheres far apart
    /// (each alone) and a head-on pair of spheres (one shared group).
    fn falling_row() -> PhysicsWorld {
        let mut w = PhysicsWorld::new();
        w.collision_detection = crate::SPHERE_MESH_CCD;
        let v = vec![
            Vec3::new(-50.0, -50.0, 0.0),
            Vec3::new(50.0, -50.0, 0.0),
            Vec3::new(0.0, 50.0, 0.0),
        ];
        w.add_body(RigidBody::new_static(
            Shape::mesh(v, vec![[0, 1, 2]]).unwrap(),
        ))
        .unwrap();
        for i in 0..8 {
            let ball = RigidBody::new_dynamic(Shape::sphere(0.25).unwrap(), 1.0)
                .unwrap()
                .with_position(Vec3::new(
                    -12.0 + 3.0 * i as f32,
                    -3.0 - 0.1 * i as f32,
                    0.6,
                ))
                .with_linear_velocity(Vec3::new(0.5 - 0.15 * i as f32, 0.0, -30.0));
            w.add_body(ball).unwrap();
        }
        for (x, vx) in [(-0.4f32, 20.0f32), (0.4, -20.0)] {
            let ball = RigidBody::new_dynamic(Shape::sphere(0.1).unwrap(), 1.0)
                .unwrap()
                .with_position(Vec3::new(x, 6.0, 2.0))
                .with_linear_velocity(Vec3::new(vx, 0.0, 0.0));
            w.add_body(ball).unwrap();
        }
        w
    }

    /// Every body's pose and velocities, bit for bit.
    fn state(w: &PhysicsWorld) -> Vec<(BodyId, [u32; 13])> {
        w.bodies()
            .map(|(id, b)| {
                let p = b.position();
                let q = b.rotation();
                let v = b.linear_velocity();
                let a = b.angular_velocity();
                let bits = [
                    p.x, p.y, p.z, q.i, q.j, q.k, q.w, v.x, v.y, v.z, a.x, a.y, a.z,
                ]
                .map(f32::to_bits);
                (id, bits)
            })
            .collect()
    }

    /// The stage's kept storage (the grouping's last sort order, grown
    /// lists, the last plan's lists) never changes a result: a world that
    /// keeps it from step to step, through a failed step, a removed body
    /// and an added one, ends every step bit for bit as a world whose
    /// storage is emptied before each step.
    #[test]
    fn kept_scratch_steps_exactly_like_an_empty_one() {
        let dt = 1.0 / 60.0;
        let mut warm = falling_row();
        let mut cold = falling_row();
        for step in 0..24 {
            if step == 8 {
                // A step that fails inside the continuous stage, after the
                // grouping filled the storage (a locked box reaches the
                // pair: refused), is rolled back in both worlds alike.
                for w in [&mut warm, &mut cold] {
                    let mut cube = RigidBody::new_dynamic(
                        Shape::cuboid(Vec3::new(0.1, 0.1, 0.1)).unwrap(),
                        1.0,
                    )
                    .unwrap()
                    .with_position(Vec3::new(0.0, 6.3, 2.0))
                    .with_linear_velocity(Vec3::new(0.0, -5.0, 0.0));
                    cube.set_inverse_inertia(parapet_math::Mat3::zeros())
                        .unwrap();
                    let id = w.add_body(cube).unwrap();
                    let before = state(w);
                    let error = w.step(dt).unwrap_err();
                    assert!(matches!(error, StepError::Unsupported { .. }), "{error}");
                    assert_eq!(state(w), before);
                    w.remove_body(id).unwrap();
                }
            }
            if step == 12 {
                for w in [&mut warm, &mut cold] {
                    let (id, _) = w.bodies().nth(3).unwrap();
                    w.remove_body(id).unwrap();
                }
            }
            if step == 16 {
                for w in [&mut warm, &mut cold] {
                    let ball = RigidBody::new_dynamic(Shape::sphere(0.25).unwrap(), 1.0)
                        .unwrap()
                        .with_position(Vec3::new(5.0, 10.0, 3.0))
                        .with_linear_velocity(Vec3::new(0.0, 0.0, -40.0));
                    w.add_body(ball).unwrap();
                }
            }
            cold.ccd_scratch = CcdScratch::default();
            let a = warm.step(dt).map_err(|e| e.to_string());
            let b = cold.step(dt).map_err(|e| e.to_string());
            assert_eq!(a, b, "step {step}");
            assert_eq!(state(&warm), state(&cold), "step {step}");
        }
        // The floor stopped every sphere (the sweep ran): none fell through.
        for (id, b) in warm.bodies() {
            if b.kind() == parapet_solver::BodyKind::Dynamic {
                assert!(b.position().z > 0.0, "{id:?} at {:?}", b.position());
            }
        }
    }

    /// The parallel decision follows the work: 64 pairs (the head-on bench
    /// scene, a few microseconds each) stay serial, 64 groups of five (the
    /// struck stacks) go to rayon whenever it has more than one thread, and
    /// a single group, however large, never does (nothing to share).
    #[test]
    fn groups_go_parallel_by_their_work_not_their_count() {
        let groups = |count: usize, size: usize| -> SharedGroups {
            let mut shared = SharedGroups::default();
            for g in 0..count {
                shared.push(&(g * size..(g + 1) * size).collect::<Vec<_>>());
            }
            shared
        };
        assert!(!groups_in_parallel(&groups(64, 2)));
        assert!(!groups_in_parallel(&groups(1, 500)));
        assert!(!groups_in_parallel(&SharedGroups::default()));
        let threads = rayon::current_num_threads() > 1;
        assert_eq!(groups_in_parallel(&groups(64, 5)), threads);
        assert_eq!(groups_in_parallel(&groups(2, 23)), threads);
        // 1,024 exactly: the threshold is inclusive.
        assert_eq!(groups_in_parallel(&groups(16, 8)), threads);
        assert!(!groups_in_parallel(&groups(15, 8)));
    }
}
