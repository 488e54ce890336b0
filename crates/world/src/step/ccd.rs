//! Stage 5: the continuous step. Nothing happens in a world whose default
//! is DISCRETE and whose dynamic bodies ask for nothing else. Otherwise it
//! runs in two parts around the contact stage; this file wires them, the
//! loop lives in [`crate::ccd`]:
//!
//! 1. [`movers_before_contacts`] (after the forces): which bodies are
//!    movers at their new velocities, so that the contact stage hands the
//!    continuous step every separated contact of a mover that closes
//!    faster than the contact margin per step ([`defers`]): the step
//!    strikes it at its time instead of the solver bouncing it early.
//! 2. [`run`] (after the contact solve): every body that collides becomes
//!    a [`StepBody`] (its role, moving shape and path over the step: movers
//!    and obstacles first integrated on a copy to their free end), the
//!    candidate pairs and islands are found from their swept boxes, and the
//!    islands run their event loops ([`crate::ccd::islands`]). Every mover
//!    and obstacle ends the step here: at its free end, bit for bit as the
//!    integrate stage would have left it, unless an impact changed its
//!    path. A sleeping body is a fixed target that an impact wakes. Swept impacts become [`ContactKind::Swept`] events, which the
//!    report sorts stably by time after the initial contacts.
//!
//! Refusals are listed in insertion order of the bodies they name; the
//! step reports the first and rolls back (`PhysicsWorld::step`), the dry
//! run (`PhysicsWorld::check_ccd`) lists them all.

use parapet_geometry::Aabbd;
use parapet_math::{promote, Vec3d};
use parapet_solver::contact::CONTACT_MARGIN;
use parapet_solver::RigidBody;

use super::check::{positions, refusal_of, Refusal};
use crate::ccd::bodies::StepBody;
use crate::ccd::candidates::{initial_pairs, islands, swept_box, BoxIndex};
use crate::ccd::error::{CcdError, Other};
use crate::ccd::islands::run_islands;
use crate::ccd::policy::{self, Role};
use crate::ccd::report::{BodyCcdStats, CcdLedger, CcdReport, Counts};
use crate::ccd::run::{Context, Impact};
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
    /// The report and per-body stats of the step.
    pub ledger: CcdLedger,
    /// The paths of the bodies struck in the step, by slot: each motion of
    /// the body with the step time (s) it started, in time order (time 0
    /// of a motion is its start; each holds until the next starts, the
    /// last to the end of the step). A body not listed moved along its
    /// free motion from its start pose to its end pose.
    pub paths: Vec<(usize, Vec<(f64, parapet_narrow::moving::Motion)>)>,
}

/// Why the continuous stage failed.
#[derive(Debug)]
pub(crate) enum StageFailure {
    /// An error of the step's own (a free end beyond `f32`).
    Stage(StepError),
    /// Refusals, in insertion order of the bodies they name.
    Refused(Vec<Refusal>),
}

/// Part 1: per slot, whether the body is a mover at its velocities after
/// the forces (`None` when the world needs no continuous stage).
pub(crate) fn movers_before_contacts(world: &PhysicsWorld, dt: f32) -> Option<Vec<bool>> {
    if !policy::needed(world.collision_detection, world.entries().map(|e| &e.body)) {
        return None;
    }
    let mut movers = vec![false; world.slots.len()];
    for e in world.entries() {
        movers[e.id.index() as usize] =
            policy::role(world.collision_detection, &e.body, dt).is_mover();
    }
    Some(movers)
}

/// The deferral predicate of the contact stage: a separated contact
/// (negative depth) of a mover whose relative closing travel over the step
/// `((u_A − u_B) · n) dt` at the contact point exceeds [`CONTACT_MARGIN`]
/// is left to the continuous step.
pub(crate) fn defers(movers: &[bool], q: &ContactQuery<'_>) -> bool {
    let mover = |id: BodyId| movers.get(id.index() as usize).copied().unwrap_or(false);
    if !(mover(q.body) || mover(q.other))
        || q.depth.partial_cmp(&0.0) != Some(std::cmp::Ordering::Less)
    {
        return false;
    }
    let relative = q.rigid.point_velocity(q.point) - q.other_rigid.point_velocity(q.point);
    let closing = relative.dot(&promote(q.normal));
    closing * q.dt as f64 > CONTACT_MARGIN as f64
}

/// The swept contact event between step bodies `a` (struck) and `b` from
/// an impact: ordered by id, with the normal from A to B and the impulse on
/// B as [`ContactEvent`] defines them.
fn swept_event(a: BodyId, b: BodyId, impact: &Impact, dt: f64) -> ContactEvent {
    // The impact's normal runs from b towards a; its impulse is on a.
    let n = impact.normal;
    let jn: Vec3d = n * n.dot(&impact.impulse);
    let (body_a, body_b, normal, impulse_b) = if b < a {
        (b, a, n, jn)
    } else {
        (a, b, -n, -jn)
    };
    ContactEvent {
        body_a,
        body_b,
        point: impact.point.cast::<f32>(),
        normal: normal.cast::<f32>(),
        normal_impulse: impulse_b.cast::<f32>(),
        time: (impact.time / dt) as f32,
        kind: ContactKind::Swept,
    }
}

/// The step's bodies: every body that takes part, in insertion order, with
/// its free end (a copy integrated over the step; `None` for a static
/// body).
fn step_bodies(
    world: &mut PhysicsWorld,
    dt: f32,
) -> Result<(Vec<StepBody>, Vec<Option<RigidBody>>), StageFailure> {
    let mut shapes = std::mem::take(&mut world.ccd_shapes);
    let mut bodies = Vec::new();
    let mut ends = Vec::new();
    let mut refused = Vec::new();
    let mut failed = None;
    for (order, e) in world.entries().enumerate() {
        let role = policy::role(world.collision_detection, &e.body, dt);
        if !role.takes_part() {
            continue;
        }
        let slot = e.id.index() as usize;
        let end = if role == Role::Fixed {
            None
        } else {
            let mut copy = e.body.clone();
            if let Err(source) = copy.integrate_pose(dt) {
                failed = Some(StepError::NotRepresentable { body: e.id, source });
                break;
            }
            Some(copy)
        };
        let swept = match shapes.get(e) {
            Ok(s) => s,
            Err(refusal) => {
                refused.push(CcdError::from_refusal(slot, Other::None, refusal, 0));
                continue;
            }
        };
        bodies.push(StepBody::new(
            (slot, e.id, order),
            role,
            swept,
            &e.body,
            end.as_ref(),
            dt as f64,
        ));
        ends.push(end);
    }
    shapes.truncate(world.slots.len());
    world.ccd_shapes = shapes;
    if let Some(e) = failed {
        return Err(StageFailure::Stage(e));
    }
    if !refused.is_empty() {
        let mut list: Vec<Refusal> = refused.into_iter().map(|e| refusal_of(e, world)).collect();
        let at = positions(world);
        list.sort_by_key(|r| at[r.slot]);
        return Err(StageFailure::Refused(list));
    }
    Ok((bodies, ends))
}

/// Part 2: the continuous step (module docs).
///
/// # Errors
/// [`StageFailure::Stage`] for a free end beyond `f32`;
/// [`StageFailure::Refused`] with every refusal in insertion order of the
/// bodies they name.
pub(crate) fn run(world: &mut PhysicsWorld, dt: f32) -> Result<CcdOutcome, StageFailure> {
    if !policy::needed(world.collision_detection, world.entries().map(|e| &e.body)) {
        return Ok(CcdOutcome::default());
    }
    let (mut bodies, ends) = step_bodies(world, dt)?;
    let h = dt as f64;
    let boxes: Vec<Aabbd> = bodies.iter().map(|b| swept_box(b, 0.0, h)).collect();
    let world_ref: &PhysicsWorld = world;
    let rigid: Vec<&RigidBody> = bodies
        .iter()
        .map(|b| &world_ref.slots[b.slot].as_ref().expect("a live slot").body)
        .collect();
    let ids: Vec<BodyId> = bodies.iter().map(|b| b.id).collect();
    let interacts =
        |i: usize, j: usize| world_ref.pair_interacts(ids[i], rigid[i], ids[j], rigid[j]);
    let pairs = initial_pairs(&mut bodies, &boxes, &interacts);
    let (island_of, members) = islands(&bodies, &pairs);
    let mut partners: Vec<Vec<usize>> = vec![Vec::new(); bodies.len()];
    for &(i, j) in &pairs {
        partners[i].push(j);
        partners[j].push(i);
    }
    let index = BoxIndex::new(&boxes, |_| false);
    let ctx = Context {
        bodies: &bodies,
        rigid: &rigid,
        boxes: &boxes,
        index: &index,
        island_of: &island_of,
        partners: &partners,
        interacts: &interacts,
        dt: h,
        max_impacts: world_ref.ccd_max_impacts,
        budget: world_ref.ccd_max_substeps,
    };
    let rounds = run_islands(&ctx, members);
    let mut refused: Vec<Refusal> = Vec::new();
    let mut counts = Counts::default();
    let mut struck: Vec<Option<StepBody>> = vec![None; bodies.len()];
    let mut impacts: Vec<Impact> = Vec::new();
    let mut iterations: Vec<(usize, u64)> = Vec::new();
    for result in &rounds.results {
        match result {
            Ok(out) => {
                counts.add(&out.counts);
                iterations.extend(out.iterations.iter().copied());
                for (g, b) in &out.struck {
                    struck[*g] = Some(b.clone());
                }
                impacts.extend(out.impacts.iter().copied());
            }
            Err(e) => refused.push(refusal_of(e.clone(), world_ref)),
        }
    }
    if !refused.is_empty() {
        let at = positions(world_ref);
        refused.sort_by_key(|r| at[r.slot]);
        return Err(StageFailure::Refused(refused));
    }
    let events: Vec<ContactEvent> = impacts
        .iter()
        .map(|i| swept_event(bodies[i.a].id, bodies[i.b].id, i, h))
        .collect();
    let ledger = ledger(
        world_ref,
        &bodies,
        &rounds.islands,
        &counts,
        &pairs,
        &events,
        (&iterations, rounds.reruns),
    );
    // The end states: struck movers from their last motion, every other
    // mover and obstacle at its free end.
    let mut updates: Vec<(usize, RigidBody)> = Vec::new();
    for ((k, b), end) in bodies.iter().enumerate().zip(ends) {
        if let Some(s) = &struck[k] {
            let mut body = rigid[k].clone();
            match s.write_end(&mut body, h) {
                Ok(()) => updates.push((b.slot, body)),
                Err(e) => refused.push(refusal_of(e, world_ref)),
            }
        } else if let Some(end) = end {
            updates.push((b.slot, end));
        }
    }
    if !refused.is_empty() {
        return Err(StageFailure::Refused(refused));
    }
    let paths = bodies
        .iter()
        .zip(&struck)
        .filter_map(|(b, s)| s.as_ref().map(|s| (b.slot, s.path())))
        .collect();
    let mut moved = vec![false; world.slots.len()];
    for (slot, body) in updates {
        if let Some(entry) = world.slots[slot].as_mut() {
            entry.body = body;
            moved[slot] = true;
        }
    }
    // A sleeping body is a fixed target; one that a mover struck wakes
    // (`step/sleep.rs`).
    for i in &impacts {
        for k in [i.a, i.b] {
            if let Some(entry) = world.slots[bodies[k].slot].as_mut() {
                if entry.body.is_sleeping() {
                    entry.body.wake();
                }
            }
        }
    }
    Ok(CcdOutcome {
        moved,
        events,
        ledger,
        paths,
    })
}

/// The ledger of a successful step: every body's resolved mode, the
/// islands, the counts and each body's impacts and arbiter iterations.
fn ledger(
    world: &PhysicsWorld,
    bodies: &[StepBody],
    islands: &[Vec<usize>],
    counts: &Counts,
    pairs: &[(usize, usize)],
    events: &[ContactEvent],
    (iterations, reruns): (&[(usize, u64)], u32),
) -> CcdLedger {
    let mut stats: Vec<Option<BodyCcdStats>> = vec![None; world.slots.len()];
    for e in world.entries() {
        stats[e.id.index() as usize] = Some(BodyCcdStats {
            mode: parapet_solver::CcdMode::Discrete,
            ..Default::default()
        });
    }
    let mut report = CcdReport::default();
    for b in bodies {
        if let Role::Mover { auto } = b.role {
            report.continuous_bodies += 1;
            report.auto_continuous += u32::from(auto);
            if let Some(s) = stats[b.slot].as_mut() {
                s.mode = parapet_solver::CcdMode::Continuous;
            }
        }
    }
    report.swept_bodies = report.continuous_bodies;
    for island in islands {
        let n = island.len() as u32;
        report.groups += u32::from(n > 1);
        report.largest_group = report.largest_group.max(n);
        for &m in island {
            if let Some(s) = stats[bodies[m].slot].as_mut() {
                s.group_size = n;
            }
        }
    }
    for &(g, n) in iterations {
        if let Some(s) = stats[bodies[g].slot].as_mut() {
            s.substeps = s.substeps.saturating_add(n.min(u32::MAX as u64) as u32);
        }
    }
    report.passes = counts.events;
    report.swept_impacts = events.len() as u32;
    report.settled_cascades = counts.cascades.min(u32::MAX as u64) as u32;
    report.certified_substeps = counts.iterations;
    report.candidate_triangles = counts.mesh_queries;
    report.candidate_pairs = pairs.len() as u64;
    report.toi_queries = counts.queries;
    report.held_contacts = counts.holds;
    report.island_reruns = reruns;
    for e in events {
        for id in [e.body_a, e.body_b] {
            if let Some(Some(s)) = stats.get_mut(id.index() as usize) {
                s.impacts += 1;
            }
        }
    }
    CcdLedger {
        report,
        stats,
        generation: None,
    }
}
