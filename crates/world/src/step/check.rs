//! The dry run ([`PhysicsWorld::check_ccd`]): what the next step's
//! continuous stage would refuse, every refused body listed, the world
//! unchanged.
//!
//! # Method
//! The step's own stages run on a copy of the world (bodies, caches and
//! index; the copy is dropped), with the continuous stage asked to sweep
//! every body and group and to keep every refusal instead of stopping at
//! the first ([`super::ccd::run`]). The step reports the refusal of the
//! first body in insertion order of this same list, so the two agree by
//! construction: the step fails, naming the first listed body, exactly when
//! the list is not empty. A world whose step fails before the continuous
//! stage for another reason (an invalid body or configuration, a contact
//! the narrow phase refuses) lists the refusals found up to there.
//!
//! # Source
//! docs/continuous-collision.md, "Choosing per body" (the dry run).
//!
//! # Precision domain
//! The step's.

use super::{validate, Failure};
use crate::ccd::CcdRefusal;
use crate::error::BodyNames;
use crate::PhysicsWorld;

/// The step length (s) the dry run assumes before a world's first
/// successful step: 1/60 s, the usual frame. After a step it assumes that
/// step's length.
pub const CHECK_CCD_DEFAULT_DT: f32 = 1.0 / 60.0;

impl PhysicsWorld {
    /// What the next step would refuse: every body the continuous stage
    /// would refuse, in insertion order, each with the step's error for it
    /// (the reason, the value and the limit). The next step fails exactly
    /// when the list is not empty, naming its first body; a body to
    /// `Discrete`, a smaller step or a larger limit clears a refusal (see
    /// docs/continuous-collision.md, "Choosing per body"). Assumes the last
    /// successful step's length ([`CHECK_CCD_DEFAULT_DT`] before the first;
    /// [`PhysicsWorld::check_ccd_for`] takes one). Changes nothing, bit for
    /// bit: it runs the step on a copy.
    pub fn check_ccd(&self) -> Vec<CcdRefusal> {
        self.check_ccd_for(self.last_dt.unwrap_or(CHECK_CCD_DEFAULT_DT))
    }

    /// [`PhysicsWorld::check_ccd`] for a next step of `dt` seconds (empty
    /// when the step would refuse `dt`, the configuration or a body before
    /// its continuous stage: those errors are the step's own).
    pub fn check_ccd_for(&self, dt: f32) -> Vec<CcdRefusal> {
        if validate::config(self, dt).is_err() || validate::bodies(self).is_err() {
            return Vec::new();
        }
        let mut copy = self.clone();
        match copy.run_stages(dt, true) {
            Ok(_) | Err(Failure::Stage(_)) => Vec::new(),
            Err(Failure::Refused(list)) => list
                .into_iter()
                .map(|r| CcdRefusal {
                    body: self.slot_id(r.slot),
                    other: r.other.map(|o| self.slot_id(o)),
                    error: r.error,
                })
                .collect(),
        }
    }
}
