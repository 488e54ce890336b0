//! Stage 8: report (and the continuous stage's counters, [`CcdLedger`]). Initial contact events (already in (body_a, body_b,
//! feature) order) come first, then swept impacts stably sorted by time
//! (initial discrete-solver reports precede swept reports; see
//! docs/continuous-collision.md, "Ordering, limits and rollback"); events,
//! sensor events (already in (sensor, body) order) and contact count
//! replace the previous ones only when the step succeeds, and are then
//! not yet drained.

use crate::ccd::report::CcdLedger;
use crate::{ContactEvent, PhysicsWorld, SensorEvent};

/// The events of a step that has not been committed yet.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct StepReport {
    events: Vec<ContactEvent>,
    sensor_events: Vec<SensorEvent>,
    ledger: CcdLedger,
}

impl StepReport {
    /// The report of `initial` contacts and `swept` impacts.
    pub fn new(initial: Vec<ContactEvent>, mut swept: Vec<ContactEvent>) -> StepReport {
        swept.sort_by(|a, b| a.time.total_cmp(&b.time));
        let mut events = initial;
        events.extend(swept);
        StepReport {
            events,
            sensor_events: Vec::new(),
            ledger: CcdLedger::default(),
        }
    }

    /// Adds the sensor stage's events.
    pub fn with_sensor_events(mut self, events: Vec<SensorEvent>) -> StepReport {
        self.sensor_events = events;
        self
    }

    /// Adds the continuous stage's report and per-body stats.
    pub fn with_ledger(mut self, ledger: CcdLedger) -> StepReport {
        self.ledger = ledger;
        self
    }

    /// Replaces the world's events, sensor events, contact count, CCD report and stats,
    /// and the step length the dry run assumes next (`dt`, s).
    pub fn commit(self, world: &mut PhysicsWorld, dt: f32) {
        world.contact_count = self.events.len();
        world.events = self.events;
        world.sensor_events = self.sensor_events;
        world.events_drained = false;
        world.ccd_ledger = CcdLedger {
            generation: Some(world.next_generation),
            ..self.ledger
        };
        world.last_dt = Some(dt);
    }
}
