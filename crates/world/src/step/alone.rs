//! What the continuous stage's sweeps of the bodies alone gave: the record
//! `ccd.rs` fills and `report.rs` counts (a leaf, so that neither imports
//! the other's internals).

use super::check::Refusal;
use crate::ccd::report::SweepCounts;
use crate::ccd::solo::SoloOutcome;
use crate::BodyId;

/// What the sweeps of the bodies alone gave.
#[derive(Debug, Default)]
pub(crate) struct AloneSwept {
    /// The bodies that took an impact, or turned, with their outcomes.
    pub(crate) results: Vec<(usize, SoloOutcome)>,
    /// Their refusals, insertion order.
    pub(crate) refusals: Vec<Refusal>,
    /// The sweeps' counts.
    pub(crate) counts: SweepCounts,
    /// The turning bodies' sub-steps, insertion order.
    pub(crate) substeps: Vec<(BodyId, u32)>,
    /// The bodies swept.
    pub(crate) swept: Vec<usize>,
}
