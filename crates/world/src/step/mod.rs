//! `PhysicsWorld::step`: the pipeline of one step, one file per stage,
//! called in the order data flows through them (see docs/physics.md, "One
//! step"):
//!
//! 1. [`validate`]: the configuration and every body, before anything changes;
//! 2. [`snapshot`]: the mutable state that a failure restores (sleep state
//!    and timers are the bodies' own, so they are restored with them);
//! 3. [`sleep`]'s wake pass: sleeping islands touched by an awake body
//!    wake; then [`forces`]: gravity, pending forces and torques, damping
//!    (sleeping bodies take none);
//! 4. [`contacts`]: broad phase, mesh index, narrow contacts, impulse solve
//!    and split correction;
//! 5. [`ccd`]: the continuous stage (nothing in DISCRETE);
//! 6. [`integrate`]: the poses of the bodies that CCD did not move (sleeping
//!    bodies keep theirs);
//! 7. the sensor stage (`crate::sensors`): what entered, left or crossed
//!    each sensor, along the paths the bodies took (nothing without a
//!    sensor; its start poses are taken after stage 4);
//! 8. [`sleep`]'s sleep pass: times at rest, islands that fall asleep;
//! 9. [`report`]: events and contact count, replaced only on success.
//!
//! Any error after stage 2 restores the snapshot, so a failed step leaves the
//! world bit for bit as it was before the call and consumes no pending force.
//! When stages 3 to 8 fail with contacts warm-started from the last step's
//! impulses (a cache the user cannot see or clear), they are run once more
//! from the snapshot without the cache, and the step is refused only when
//! that cold run fails too, with its error: a refusal rests on the visible
//! state (the bodies, the configuration and the mesh snapshots) alone.

pub(crate) mod ccd;
pub(crate) mod check;
pub(crate) mod contacts;
pub(crate) mod forces;
pub(crate) mod integrate;
pub(crate) mod report;
pub(crate) mod sleep;
pub(crate) mod snapshot;
pub(crate) mod validate;

use crate::{PhysicsWorld, StepError};

/// Why the stages of a step failed.
#[derive(Debug)]
pub(crate) enum Failure {
    /// A stage's own error.
    Stage(StepError),
    /// The continuous stage's or the sensor stage's refusals, in insertion
    /// order of the bodies they name (the step reports the first).
    Refused(Vec<check::Refusal>),
}

impl PhysicsWorld {
    /// Advances the world by `dt` seconds (see the module documentation of
    /// the stages for what happens, in order).
    ///
    /// # Errors
    /// [`StepError::InvalidConfig`] for a `dt` that is not finite and
    /// positive, a non-finite gravity or a CCD limit out of range;
    /// [`StepError::InvalidBody`] naming the first body (insertion order)
    /// that fails validation; the continuous stage's refusal of the first
    /// refused body in insertion order ([`StepError::ImpactLimit`],
    /// [`StepError::Precision`], ...; [`PhysicsWorld::check_ccd`] lists them
    /// all); [`StepError::NotRepresentable`] when a new state overflows
    /// `f32`. On every error the world is exactly as before the call.
    pub fn step(&mut self, dt: f32) -> Result<(), StepError> {
        validate::config(self, dt)?;
        validate::bodies(self)?;
        let snapshot = snapshot::Snapshot::take(self);
        validate::live_meshes(self);
        match self.run_stages_or_cold(dt, &snapshot) {
            Ok(report) => {
                report.commit(self, dt);
                Ok(())
            }
            Err(failure) => {
                snapshot.restore(self);
                Err(match failure {
                    Failure::Stage(error) => error,
                    Failure::Refused(mut list) => list.swap_remove(0).error,
                })
            }
        }
    }

    /// [`PhysicsWorld::run_stages`] after stage 2 (`snapshot` taken, then
    /// the live meshes' snapshots dropped); when they fail and `snapshot`
    /// holds a warm-start cache, the world is put back to `snapshot` and
    /// the stages run again without the cache (module docs): their answer
    /// then depends on the visible state alone. On an error the world is
    /// left for the caller to restore.
    pub(crate) fn run_stages_or_cold(
        &mut self,
        dt: f32,
        snapshot: &snapshot::Snapshot,
    ) -> Result<report::StepReport, Failure> {
        let warm = self.run_stages(dt);
        if warm.is_ok() || snapshot.cache_is_empty() {
            return warm;
        }
        snapshot.restore(self);
        self.contact_cache = crate::contact_cache::ContactCache::default();
        validate::live_meshes(self);
        self.run_stages(dt)
    }

    /// Stages 3 to 7, and the report of stage 8 (not yet committed).
    pub(crate) fn run_stages(&mut self, dt: f32) -> Result<report::StepReport, Failure> {
        sleep::wake_touched(self, Some(dt));
        forces::apply(self, dt).map_err(Failure::Stage)?;
        let movers = ccd::movers_before_contacts(self, dt);
        let initial = match &movers {
            None => contacts::run(self, dt, &crate::contact_query::keep_every_contact),
            Some(m) => contacts::run(self, dt, &|q| ccd::defers(m, q)),
        }
        .map_err(Failure::Stage)?;
        let starts = crate::sensors::StartPoses::take(self);
        let swept = match movers {
            None => ccd::CcdOutcome::default(),
            Some(_) => ccd::run(self, dt).map_err(|f| match f {
                ccd::StageFailure::Stage(e) => Failure::Stage(e),
                ccd::StageFailure::Refused(list) => Failure::Refused(list),
            })?,
        };
        integrate::advance(self, dt, &swept.moved).map_err(Failure::Stage)?;
        let sensed = crate::sensors::run(self, dt, starts.as_ref(), &swept.paths)
            .map_err(Failure::Refused)?;
        sleep::fall_asleep(self, dt);
        Ok(report::StepReport::new(initial, swept.events)
            .with_ledger(swept.ledger)
            .with_sensor_events(sensed))
    }
}
