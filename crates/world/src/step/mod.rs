//! `PhysicsWorld::step`: the pipeline of one step, one file per stage,
//! called in the order data flows through them (see docs/physics.md, "One
//! step"):
//!
//! 1. [`validate`]: the configuration and every body, before anything changes;
//! 2. [`snapshot`]: the mutable state that a failure restores;
//! 3. [`forces`]: gravity, pending forces and torques, damping;
//! 4. [`contacts`]: broad phase, mesh index, narrow contacts, impulse solve
//!    and split correction;
//! 5. [`ccd`]: the continuous stage (nothing in DISCRETE);
//! 6. [`integrate`]: the poses of the bodies that CCD did not move;
//! 7. [`report`]: events and contact count, replaced only on success.
//!
//! Any error after stage 2 restores the snapshot, so a failed step leaves the
//! world bit for bit as it was before the call and consumes no pending force.

pub(crate) mod ccd;
pub(crate) mod contacts;
pub(crate) mod forces;
pub(crate) mod integrate;
pub(crate) mod report;
pub(crate) mod snapshot;
pub(crate) mod validate;

use crate::{PhysicsWorld, StepError};

impl PhysicsWorld {
    /// Advances the world by `dt` seconds (see the module documentation of
    /// the stages for what happens, in order).
    ///
    /// # Errors
    /// [`StepError::InvalidConfig`] for a `dt` that is not finite and
    /// positive, a non-finite gravity or a CCD limit out of range;
    /// [`StepError::InvalidBody`] naming the first body (insertion order)
    /// that fails validation; [`StepError::Unsupported`] for a world the mode
    /// refuses; [`StepError::NotRepresentable`] when a new state overflows
    /// `f32`. On every error the world is exactly as before the call.
    pub fn step(&mut self, dt: f32) -> Result<(), StepError> {
        validate::config(self, dt)?;
        validate::bodies(self)?;
        let snapshot = snapshot::Snapshot::take(self);
        match self.run_stages(dt) {
            Ok(report) => {
                report.commit(self);
                Ok(())
            }
            Err(error) => {
                snapshot.restore(self);
                Err(error)
            }
        }
    }

    /// Stages 3 to 6, and the report of stage 7 (not yet committed).
    fn run_stages(&mut self, dt: f32) -> Result<report::StepReport, StepError> {
        // The continuous mode's support rules read the pending torques (the
        // angular push), so its plan is made before the forces consume them;
        // in DISCRETE there is no plan and the stages run as they always did.
        let plan = ccd::prepare(self)?;
        forces::apply(self, dt)?;
        let plan = plan.map(|p| ccd::after_forces(p, self));
        let initial = match &plan {
            None => contacts::run(self, dt, &crate::contact_query::keep_every_contact)?,
            Some(p) => contacts::run(self, dt, &|q| p.defers(q))?,
        };
        let swept = match &plan {
            None => ccd::CcdOutcome::default(),
            Some(p) => ccd::run(self, dt, p)?,
        };
        if let Some(p) = plan {
            ccd::recycle(p, self);
        }
        integrate::advance(self, dt, &swept.moved)?;
        Ok(report::StepReport::new(initial, swept.events)
            .with_substeps(swept.substeps)
            .with_work(swept.work))
    }
}
