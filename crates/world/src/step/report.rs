//! Stage 7: report. Initial contact events (already in (body_a, body_b,
//! feature) order) come first, then swept impacts stably sorted by time
//! (initial discrete-solver reports precede swept reports; see
//! docs/continuous-collision.md, "Ordering, limits and rollback"); events and contact count replace the previous
//! ones only when the step succeeds.

use crate::{BodyId, ContactEvent, PhysicsWorld};

/// The events of a step that has not been committed yet.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct StepReport {
    events: Vec<ContactEvent>,
    substeps: Vec<(BodyId, u32)>,
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

    /// Replaces the world's events and contact count.
    pub fn commit(self, world: &mut PhysicsWorld) {
        world.contact_count = self.events.len();
        world.events = self.events;
        world.turning_substeps = self.substeps;
        world.ccd_work = self.work;
    }
}
