//! Stage 7: report (and the continuous stage's counters, [`CcdLedger`]). Initial contact events (already in (body_a, body_b,
//! feature) order) come first, then swept impacts stably sorted by time
//! (initial discrete-solver reports precede swept reports; see
//! docs/continuous-collision.md, "Ordering, limits and rollback"); events and contact count replace the previous
//! ones only when the step succeeds.

use parapet_solver::CcdMode;

use super::alone::AloneSwept;
use crate::ccd::plan::CcdPlan;
use crate::ccd::policy::Class;
use crate::ccd::regions::Regions;
use crate::ccd::report::{BodyCcdStats, CcdLedger, CcdReport};
use crate::{BodyId, ContactEvent, PhysicsWorld};

/// The events of a step that has not been committed yet.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct StepReport {
    events: Vec<ContactEvent>,
    substeps: Vec<(BodyId, u32)>,
    ledger: CcdLedger,
    work: crate::ccd::CcdWork,
}

impl StepReport {
    /// The report of `initial` contacts and `swept` impacts.
    pub fn new(initial: Vec<ContactEvent>, mut swept: Vec<ContactEvent>) -> StepReport {
        swept.sort_by(|a, b| a.time.total_cmp(&b.time));
        let mut events = initial;
        events.extend(swept);
        StepReport {
            events,
            substeps: Vec::new(),
            ledger: CcdLedger::default(),
            work: crate::ccd::CcdWork::default(),
        }
    }

    /// Adds the sub-step counts of the turning bodies (insertion order).
    pub fn with_substeps(mut self, substeps: Vec<(BodyId, u32)>) -> StepReport {
        self.substeps = substeps;
        self
    }

    /// Adds the continuous stage's work counts.
    pub fn with_work(mut self, work: crate::ccd::CcdWork) -> StepReport {
        self.work = work;
        self
    }

    /// Adds the continuous stage's report and per-body stats.
    pub fn with_ledger(mut self, ledger: CcdLedger) -> StepReport {
        self.ledger = ledger;
        self
    }

    /// Replaces the world's events, contact count, CCD report and stats,
    /// and the step length the dry run assumes next (`dt`, s).
    pub fn commit(self, world: &mut PhysicsWorld, dt: f32) {
        world.contact_count = self.events.len();
        world.events = self.events;
        world.turning_substeps = self.substeps;
        world.ccd_ledger = CcdLedger {
            generation: Some(world.next_generation),
            ..self.ledger
        };
        world.last_dt = Some(dt);
        world.ccd_work = self.work;
    }
}

/// The ledger of a successful step before its impacts: every body's
/// resolved mode, the bodies swept alone and the swept groups. Kept out of
/// line, with [`count_impacts`], so that a profiler attributes the
/// report's cost to them (the bench `ccd_policy`'s profile example).
#[inline(never)]
pub(crate) fn start_ledger(
    world: &PhysicsWorld,
    plan: &CcdPlan,
    regions: &Regions<'_>,
    solo: &AloneSwept,
    swept: &[usize],
) -> CcdLedger {
    let mut stats: Vec<Option<BodyCcdStats>> = vec![None; world.slots.len()];
    let mut report = CcdReport::default();
    for e in world.entries() {
        let slot = e.id.index() as usize;
        let class = plan.class(slot);
        let continuous = matches!(class, Class::Continuous { .. });
        report.continuous_bodies += u32::from(continuous);
        report.auto_continuous += u32::from(class == Class::Continuous { auto: true });
        stats[slot] = Some(BodyCcdStats {
            mode: if continuous {
                CcdMode::Continuous
            } else {
                CcdMode::Discrete
            },
            ..Default::default()
        });
    }
    for &slot in &solo.swept {
        if let Some(s) = stats[slot].as_mut() {
            s.group_size = 1;
        }
    }
    report.swept_bodies = solo.swept.len() as u32;
    for &g in swept {
        let members = regions.shared.group(g);
        let n = members.len() as u32;
        report.groups += 1;
        report.largest_group = report.largest_group.max(n);
        report.swept_bodies += n;
        for &i in members {
            if let Some(s) = stats[regions.movers[i].index].as_mut() {
                s.group_size = n;
            }
        }
    }
    for (id, n) in &solo.substeps {
        if let Some(s) = stats[id.index() as usize].as_mut() {
            s.substeps = *n;
        }
        report.certified_substeps += *n as u64;
    }
    report.passes = solo.counts.passes;
    report.candidate_triangles = solo.counts.candidates;
    CcdLedger {
        report,
        stats,
        generation: None,
    }
}

/// Completes `ledger` with the step's swept impacts: the count and each
/// body's share (both bodies of an event).
#[inline(never)]
pub(crate) fn count_impacts(ledger: &mut CcdLedger, events: &[ContactEvent]) {
    ledger.report.swept_impacts = events.len() as u32;
    for e in events {
        for id in [e.body_a, e.body_b] {
            if let Some(Some(s)) = ledger.stats.get_mut(id.index() as usize) {
                s.impacts += 1;
            }
        }
    }
}
