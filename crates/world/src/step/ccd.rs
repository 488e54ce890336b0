//! Stage 5: continuous collision. Nothing happens in a world whose default
//! is DISCRETE and whose bodies ask for nothing else. Otherwise the stage
//! runs in three parts around the force and contact stages; this file wires
//! them, the policy lives in [`crate::ccd`]:
//!
//! 1. [`prepare`] (before forces, which consume the pending torques that the
//!    support rules read): the plan of the step ([`CcdPlan::classify`]):
//!    every body's mode resolved and every body classified by the support
//!    rules in insertion order (box and hull solids and factorable tensors
//!    kept per slot between steps); a continuous body the mode cannot
//!    handle is refused, positions and radii are checked against the
//!    precision limits; then the mesh snapshot passes its geometry check
//!    (once per snapshot, [`crate::ccd::mesh_cache`]). Refusals are kept,
//!    not raised: the step reports the first in insertion order.
//! 2. [`after_forces`]: each swept body's kinetic energy after the force
//!    update, and the `Auto` bodies fast enough to be continuous; then
//!    [`CcdPlan::defers`] hands the contact stage every negative-depth mesh
//!    contact of a continuous body whose closing travel this step exceeds
//!    the contact margin (the sweep takes it: no early bounce; slower
//!    contacts keep the speculative path, overlaps keep the solver and
//!    split correction); a separated pair of centred spheres, locked
//!    capsules or kinematic spheres closing faster than the margin per step
//!    goes to the group sweep too when its group will be swept.
//! 3. [`run`] (after the contact solve): the `Auto` bodies fast after the
//!    solve, the regions and groups of the step and every refusal of the
//!    policy ([`crate::ccd::refusals::settle`]); each continuous body alone
//!    in insertion order is swept alone ([`crate::ccd::solo`],
//!    [`crate::ccd::turning`]), then each group holding a continuous
//!    dynamic body, in the order of its lowest member, is swept together
//!    ([`crate::ccd::group_sweep`]). Bodies with an impact end the step
//!    here; the others are integrated as usual (kinematic spheres always).
//!    Swept impacts become [`ContactKind::Swept`] events, which the report
//!    sorts stably by time after the initial contacts.
//!
//! Errors of the engine become the world's ([`StepError::from_ccd`]); a
//! group sweep's error that names a discrete member names the group's
//! first continuous body instead ([`StepError::ObstacleRefused`]). The
//! step reports the refusal of the first body in insertion order, and every
//! error rolls the whole step back (`PhysicsWorld::step`); the dry run
//! (`PhysicsWorld::check_ccd`) runs the same parts on a copy and lists them
//! all.

use parapet_math::Vec3d;

use super::alone::AloneSwept;
use super::check::{positions, refusal_of, Refusal};
use super::report::{count_impacts, start_ledger};
use crate::ccd::group::SharedGroups;
use crate::ccd::group_sweep::{sweep_group, GroupInput, GroupMember, GroupOutcome, Struck};
use crate::ccd::motion::{MeshView, SweptMotion};
use crate::ccd::plan::CcdPlan;
use crate::ccd::reach::Reach;
use crate::ccd::refusals::{settle, Bodies};
use crate::ccd::regions::{member_shape, Regions};
use crate::ccd::report::{CcdLedger, SweepCounts};
use crate::ccd::scratch::CcdScratch;
use crate::ccd::solo::{sweep_alone_prepared, SoloInput, SoloOutcome, SoloScratch};
use crate::ccd::support::Role;
use crate::ccd::turning::{sweep_turning, TurningInput};
use crate::ccd::{policy, CcdError};
use crate::error::BodyNames;
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
    /// What the stage did, counted.
    pub work: crate::ccd::CcdWork,
    /// The report and per-body stats of the step.
    pub ledger: CcdLedger,
}

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
#[cfg(test)]
fn groups_in_parallel(shared: &SharedGroups) -> bool {
    let all: Vec<usize> = (0..shared.len()).collect();
    swept_groups_in_parallel(shared, &all)
}

/// [`groups_in_parallel`] for the groups `swept` (positions in `shared`).
fn swept_groups_in_parallel(shared: &SharedGroups, swept: &[usize]) -> bool {
    let work: usize = swept
        .iter()
        .map(|&g| shared.group(g).len() * shared.group(g).len())
        .sum();
    swept.len() >= 2 && work >= PARALLEL_GROUP_WORK && rayon::current_num_threads() > 1
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

/// Runs the mesh snapshot's geometry check once per step when it has not
/// passed for this snapshot yet (once per snapshot, in insertion order),
/// pushing its refusal onto `refusals`.
fn check_mesh(world: &mut PhysicsWorld, plan: &mut CcdPlan, refusals: &mut Vec<CcdError>) {
    if plan.mesh_checked {
        return;
    }
    plan.mesh_checked = true;
    if world.ccd_mesh.is_validated() {
        return;
    }
    let meshes: Vec<(usize, std::sync::Arc<[[parapet_math::Vec3; 3]]>)> = world
        .entries()
        .filter_map(|e| e.mesh.clone().map(|m| (e.id.index() as usize, m)))
        .collect();
    let checked = world
        .ccd_mesh
        .ensure(meshes.iter().map(|(s, m)| (*s, &m[..])));
    if let Err(e) = checked {
        refusals.push(e);
    }
}

/// Part 1: the plan of the step with the refusals of its continuous bodies
/// (insertion order), `None` when no body is continuous or `Auto` in a
/// DISCRETE world (nothing is read or changed then).
pub(crate) fn prepare(world: &mut PhysicsWorld) -> Option<(CcdPlan, Vec<CcdError>)> {
    if !policy::needed(world.collision_detection, world.entries().map(|e| &e.body)) {
        return None;
    }
    let mut cache = std::mem::take(&mut world.ccd_classify);
    // The plan's lists reuse the last plan's storage ([`recycle`]).
    let lists = std::mem::take(&mut world.ccd_scratch.plan);
    let bodies = world.entries().map(|e| (e.id.index() as usize, &e.body));
    let (mut plan, mut refusals) = CcdPlan::classify(
        world.slots.len(),
        bodies,
        world.collision_detection,
        &mut cache,
        lists,
    );
    world.ccd_classify = cache;
    if plan.has_continuous() {
        check_mesh(world, &mut plan, &mut refusals);
    }
    Some((plan, refusals))
}

/// Part 2: the plan with the swept bodies' energies after the force update
/// and the `Auto` bodies fast at their new velocities resolved `Continuous`
/// (their refusals onto `refusals`).
pub(crate) fn after_forces(
    plan: CcdPlan,
    world: &mut PhysicsWorld,
    dt: f32,
    refusals: &mut Vec<CcdError>,
) -> CcdPlan {
    let mut plan = plan.after_forces(world.entries().map(|e| (e.id.index() as usize, &e.body)));
    if plan.has_pending_auto() {
        let bodies = world.entries().map(|e| (e.id.index() as usize, &e.body));
        plan.resolve_fast(bodies, dt, refusals);
    }
    if plan.has_continuous() {
        check_mesh(world, &mut plan, refusals);
    }
    plan
}

/// Hands the plan's storage back to the world for the next step's plan
/// (only its capacity is reused: [`prepare`] refills its lists).
pub(crate) fn recycle(plan: CcdPlan, world: &mut PhysicsWorld) {
    world.ccd_scratch.plan = plan.into_lists();
}

/// How far the sweeps go: every body and group (the dry run), or only as
/// far as a body before the first refused one in insertion order (the step).
#[derive(Debug, Clone, Copy)]
pub(crate) enum SweepScope {
    /// Sweep everything, collect every refusal.
    All,
    /// Sweep the bodies before position `limit` (insertion order; the
    /// first refused body found so far), stop at the first refusal.
    Before(usize),
}

/// One body's sweep alone: its outcome, its sub-steps (turning bodies) and
/// its counts.
type Swept = (SoloOutcome, Option<u32>, SweepCounts);

/// Sweeps the bodies of `moving` alone (insertion order) as far as `scope`
/// lets (`at`: every slot's position in the insertion order, needed for a
/// bounded scope), reading the world only.
fn sweep_each(
    world: &PhysicsWorld,
    dt: f32,
    plan: &CcdPlan,
    moving: &[(usize, Reach)],
    scope: SweepScope,
    at: Option<&[usize]>,
) -> AloneSwept {
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
    let sweep = |scratch: &mut SoloScratch,
                 (slot, r): &(usize, Reach)|
     -> Option<Result<Swept, CcdError>> {
        let entry = world.slots[*slot].as_ref()?;
        if !plan.is_continuous(*slot) {
            return None;
        }
        match plan.role(*slot) {
            Some(Role::Turning(shape)) => {
                // A turning body always takes its pose from its sweep, with
                // or without meshes.
                let input = TurningInput {
                    index: *slot,
                    body: &entry.body,
                    shape,
                    dt,
                    max_impacts: world.ccd_max_impacts,
                    max_substeps: world.ccd_max_substeps,
                };
                Some(sweep_turning(&input, mesh.as_ref()).map(|t| {
                    let outcome = SoloOutcome {
                        motion: Some(t.motion),
                        impacts: t.impacts,
                    };
                    (outcome, Some(t.substeps), SweepCounts::default())
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
                scratch.counts = SweepCounts::default();
                let outcome = sweep_alone_prepared(&input, mesh, extent, scratch);
                Some(outcome.map(|o| (o, None, scratch.counts)))
            }
            _ => None,
        }
    };
    let mut out = AloneSwept::default();
    let limit = match scope {
        SweepScope::All => None,
        SweepScope::Before(limit) => Some(limit),
    };
    let before_limit = |slot: usize| match (limit, at) {
        (Some(limit), Some(at)) => at[slot] < limit,
        _ => true,
    };
    // The outcome of each body in insertion order: an error is a refusal
    // (the step stops at the first: later bodies cannot come first),
    // otherwise a body with an impact (or a turning body) is kept. Returns
    // whether to go on.
    let mut take = |slot: usize, outcome: Option<Result<Swept, CcdError>>| {
        let Some(outcome) = outcome else {
            return true;
        };
        match outcome {
            Err(err) => {
                out.refusals.push(refusal_of(err, world));
                limit.is_none()
            }
            Ok((result, count, counts)) => {
                out.swept.push(slot);
                out.counts.add(&counts);
                if let Some(n) = count {
                    out.substeps.push((world.slot_id(slot), n));
                }
                if result.motion.is_some() || !result.impacts.is_empty() {
                    out.results.push((slot, result));
                }
                true
            }
        }
    };
    if moving.len() >= PARALLEL_BODIES {
        use rayon::prelude::*;
        let outcomes: Vec<_> = moving
            .par_iter()
            .with_min_len(PARALLEL_MIN_BODIES)
            .map_init(SoloScratch::default, sweep)
            .collect();
        for ((slot, _), outcome) in moving.iter().zip(outcomes) {
            if !before_limit(*slot) || !take(*slot, outcome) {
                break;
            }
        }
    } else {
        // Serially, the bodies after the first error are not swept by the
        // step: their outcomes could not change the reported error (a
        // rolled-back step with many impacts stops at its first failing
        // body).
        let mut scratch = SoloScratch::default();
        for m in moving {
            if !before_limit(m.0) || !take(m.0, sweep(&mut scratch, m)) {
                break;
            }
        }
    }
    out
}

/// The refusal of a group sweep's error: as the engine named it, unless it
/// names a discrete member (never refused), when it names the group's
/// first continuous dynamic member instead, with the discrete one as the
/// obstacle.
fn group_refusal(
    err: CcdError,
    world: &PhysicsWorld,
    plan: &CcdPlan,
    members: &[usize],
) -> Refusal {
    let named = err.body();
    let first = members.iter().copied().find(|&s| {
        plan.is_continuous(s) && matches!(plan.role(s), Some(Role::Swept(_) | Role::Turning(_)))
    });
    let inner = refusal_of(err, world);
    match first {
        Some(c) if !plan.is_continuous(named) && members.contains(&named) => Refusal {
            slot: c,
            other: Some(named),
            error: StepError::ObstacleRefused {
                body: world.slot_id(c),
                obstacle: world.slot_id(named),
                source: Box::new(inner.error),
            },
        },
        _ => inner,
    }
}

/// Sweeps the shared groups `swept` (positions in the regions' shared
/// groups, in the order of their lowest member).
fn sweep_groups(
    world: &PhysicsWorld,
    dt: f32,
    plan: &CcdPlan,
    regions: &Regions<'_>,
    swept: &[usize],
) -> Vec<Result<GroupOutcome, Refusal>> {
    let Regions {
        movers,
        groups,
        shared,
        ..
    } = *regions;
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
    let sweep = |group: &[usize]| -> Result<GroupOutcome, Refusal> {
        let mut members = Vec::with_capacity(group.len());
        for &i in group {
            let slot = movers[i].index;
            let Some(entry) = world.slots[slot].as_ref() else {
                continue;
            };
            let Some(shape) = member_shape(plan.role(slot)) else {
                continue;
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
        sweep_group(&input, mesh.as_ref()).map_err(|err| {
            let slots: Vec<usize> = group.iter().map(|&i| movers[i].index).collect();
            group_refusal(err, world, plan, &slots)
        })
    };
    if swept_groups_in_parallel(shared, swept) {
        use rayon::prelude::*;
        swept.par_iter().map(|&g| sweep(shared.group(g))).collect()
    } else {
        swept.iter().map(|&g| sweep(shared.group(g))).collect()
    }
}

/// Part 3: the `Auto` bodies fast after the solve, the policy's regions,
/// groups and refusals, and the sweeps (see the module docs). `all`: sweep
/// every body and group and collect every refusal (the dry run); otherwise
/// the sweeps stop where no refusal could come before the first found.
///
/// # Errors
/// Every refusal found (for the step, the first in insertion order is the
/// first of the list): those of `refusals` (the earlier parts'), the
/// policy's ([`StepError::Precision`], [`StepError::Unsupported`]) and the
/// sweeps' ([`StepError::SweepRefused`], [`StepError::PairSweepRefused`],
/// [`StepError::ImpactLimit`], [`StepError::SubstepLimit`],
/// [`StepError::Unresolvable`], [`StepError::NotRepresentable`],
/// [`StepError::ObstacleRefused`]), in insertion order of the bodies they
/// name.
pub(crate) fn run(
    world: &mut PhysicsWorld,
    dt: f32,
    plan: &mut CcdPlan,
    mut refusals: Vec<CcdError>,
    all: bool,
) -> Result<CcdOutcome, Vec<Refusal>> {
    if plan.has_pending_auto() {
        let bodies = world.entries().map(|e| (e.id.index() as usize, &e.body));
        plan.resolve_fast(bodies, dt, &mut refusals);
    }
    if !plan.has_continuous() {
        // No continuous body: nothing to sweep and nobody to refuse (every
        // refusal names a continuous body).
        return Ok(CcdOutcome::default());
    }
    check_mesh(world, plan, &mut refusals);
    let mut scratch = std::mem::take(&mut world.ccd_scratch);
    let outcome = run_with(world, dt, plan, refusals, all, &mut scratch);
    world.ccd_scratch = scratch;
    outcome
}

/// Whether shared group `g` holds a continuous dynamic body (it is swept).
fn swept_group(plan: &CcdPlan, regions: &Regions<'_>, g: usize) -> bool {
    regions.shared.group(g).iter().any(|&i| {
        let slot = regions.movers[i].index;
        plan.is_continuous(slot) && matches!(plan.role(slot), Some(Role::Swept(_)))
    })
}

fn run_with(
    world: &mut PhysicsWorld,
    dt: f32,
    plan: &mut CcdPlan,
    mut refusals: Vec<CcdError>,
    all: bool,
    scratch: &mut CcdScratch,
) -> Result<CcdOutcome, Vec<Refusal>> {
    {
        let slots = &world.slots;
        let body = |s: usize| slots.get(s).and_then(|e| e.as_ref()).map(|e| &e.body);
        let bodies = Bodies {
            order: &world.order,
            body: &body,
        };
        settle(
            &bodies,
            plan,
            dt,
            world.ccd_max_impacts,
            scratch,
            &mut refusals,
        );
    }
    let plan: &CcdPlan = plan;
    let regions = Regions::of(scratch);
    let mut refused: Vec<Refusal> = refusals.into_iter().map(|e| refusal_of(e, world)).collect();
    let mut at: Option<Vec<usize>> = (!refused.is_empty()).then(|| positions(world));
    let first = |at: &Option<Vec<usize>>, refused: &[Refusal]| match at {
        Some(at) => refused
            .iter()
            .map(|r| at[r.slot])
            .min()
            .unwrap_or(usize::MAX),
        None => usize::MAX,
    };
    let limit = first(&at, &refused);
    let scope = if all {
        SweepScope::All
    } else {
        SweepScope::Before(limit)
    };
    // The bodies alone that the stage sweeps: the continuous ones (the
    // discrete movers alone are integrated as usual).
    let filtered: Vec<(usize, Reach)>;
    let alone = if regions.alone.iter().all(|(s, _)| plan.is_continuous(*s)) {
        regions.alone
    } else {
        filtered = regions
            .alone
            .iter()
            .filter(|(s, _)| plan.is_continuous(*s))
            .copied()
            .collect();
        &filtered
    };
    let solo = sweep_each(world, dt, plan, alone, scope, at.as_deref());
    if !solo.refusals.is_empty() && at.is_none() {
        at = Some(positions(world));
    }
    refused.extend(solo.refusals.iter().cloned());
    let limit = if all {
        usize::MAX
    } else {
        limit.min(first(&at, &refused))
    };
    // The groups the stage sweeps (the step: those whose lowest member
    // comes before the first refused body; a group's refusal names one of
    // its members).
    let swept: Vec<usize> = (0..regions.shared.len())
        .filter(|&g| swept_group(plan, &regions, g))
        .filter(|&g| {
            let lowest = regions.movers[regions.shared.group(g)[0]].index;
            at.as_ref().is_none_or(|at| at[lowest] < limit)
        })
        .collect();
    let mut group_results = Vec::with_capacity(swept.len());
    for result in sweep_groups(world, dt, plan, &regions, &swept) {
        match result {
            Ok(outcome) => group_results.push(outcome),
            Err(r) => refused.push(r),
        }
    }
    if !refused.is_empty() {
        let at = at.unwrap_or_else(|| positions(world));
        refused.sort_by_key(|r| at[r.slot]);
        return Err(refused);
    }
    let ledger = start_ledger(world, plan, &regions, &solo, &swept);
    let work = crate::ccd::CcdWork {
        grouping_tests: regions.grouping_tests,
        groups: swept.len() as u64,
        largest_group: swept
            .iter()
            .map(|&g| regions.shared.group(g).len() as u64)
            .max()
            .unwrap_or(0),
        ..Default::default()
    };
    Ok(finish(world, solo, group_results, ledger, work))
}

/// Applies the sweeps' motions and impacts to the world: the outcome of a
/// successful continuous stage, with its ledger completed (impacts, the
/// groups' counts).
fn finish(
    world: &mut PhysicsWorld,
    solo: AloneSwept,
    group_results: Vec<GroupOutcome>,
    mut ledger: CcdLedger,
    work: crate::ccd::CcdWork,
) -> CcdOutcome {
    let mut outcome = CcdOutcome {
        moved: vec![false; world.slots.len()],
        events: Vec::new(),
        substeps: solo.substeps,
        ledger: CcdLedger::default(),
        work,
    };
    for (slot, result) in solo.results {
        let id = world.slot_id(slot);
        for impact in &result.impacts {
            let owner = world.slot_id(world.meshes.owner(impact.triangle) as usize);
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
    for result in group_results {
        ledger.report.passes += result.counts.passes;
        ledger.report.settled_cascades += result.counts.settled as u32;
        ledger.report.candidate_triangles += result.counts.candidates;
        let w = &mut outcome.work;
        w.group_passes += result.work.passes;
        w.pair_sweeps += result.work.pair_sweeps;
        w.pair_decisions += result.work.pair_decisions;
        w.triangle_sweeps += result.work.triangle_sweeps;
        for impact in &result.impacts {
            let id = world.slot_id(impact.body);
            let other = match impact.other {
                Struck::Triangle(t) => world.slot_id(world.meshes.owner(t) as usize),
                Struck::Member(b) => world.slot_id(b),
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
    count_impacts(&mut ledger, &outcome.events);
    outcome.ledger = ledger;
    outcome
}

#[cfg(test)]
mod tests {
    use super::*;
    use parapet_geometry::Shape;
    use parapet_math::Vec3;
    use parapet_solver::RigidBody;

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
