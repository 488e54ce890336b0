//! What the continuous stage reports: the counters of the last successful
//! step ([`CcdReport`]), each body's resolved mode and counts
//! ([`BodyCcdStats`]) and a refusal of the dry run ([`CcdRefusal`]).
//!
//! # Method
//! The sweeps count their passes, settled instants and triangle candidates
//! ([`SweepCounts`]) as they run; the step adds them up with its resolved
//! classes, groups and events into a [`CcdLedger`], which replaces the
//! world's only when the step succeeds (a failed step leaves the previous
//! one, as it leaves everything else). Counting never changes a result.
//!
//! # Source
//! docs/continuous-collision.md, "Choosing per body" (the report and the
//! dry run).
//!
//! # Precision domain
//! None: integer counts.

use parapet_solver::CcdMode;

use crate::{BodyId, StepError};

/// The continuous stage's counters of one step (see
/// `PhysicsWorld::ccd_report`); all zero in a step without continuous
/// bodies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct CcdReport {
    /// Bodies resolved `Continuous` in the step.
    pub continuous_bodies: u32,
    /// Of them, `Auto` bodies (by their motion or by a continuous body they
    /// could reach).
    pub auto_continuous: u32,
    /// Bodies whose motion the stage swept: continuous bodies alone and
    /// every member of a swept group.
    pub swept_bodies: u32,
    /// Groups of more than one body swept together.
    pub groups: u32,
    /// The members of the largest swept group (0 without one).
    pub largest_group: u32,
    /// Sweep passes: each body alone's and each group's search for its next
    /// impact over the rest of the step.
    pub passes: u64,
    /// Swept impacts (the step's `ContactKind::Swept` events).
    pub swept_impacts: u32,
    /// Instants of a group at which simultaneous contacts were settled
    /// together.
    pub settled_cascades: u32,
    /// Certified sub-steps of the turning bodies.
    pub certified_substeps: u64,
    /// Triangle candidates swept: each pass's candidates for a body alone,
    /// each member's candidates for a group.
    pub candidate_triangles: u64,
}

/// One body's part in the continuous stage of a step (see
/// `PhysicsWorld::ccd_stats`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct BodyCcdStats {
    /// The mode the body resolved to: [`CcdMode::Continuous`] when it was
    /// swept as a continuous body, [`CcdMode::Discrete`] otherwise (a body
    /// whose collisions are off and a static body included).
    pub mode: CcdMode,
    /// Swept impacts it took part in (as a moving body, a group member or
    /// the owner of the triangle struck).
    pub impacts: u32,
    /// Certified sub-steps it took (turning bodies).
    pub substeps: u32,
    /// The members of the group it was swept in: 1 alone, 0 when the stage
    /// did not sweep it.
    pub group_size: u32,
}

/// A body the next step would refuse (see `PhysicsWorld::check_ccd`).
#[derive(Debug, Clone, PartialEq)]
pub struct CcdRefusal {
    /// The refused body.
    pub body: BodyId,
    /// The other body the refusal names (the one it can reach, or the
    /// other side of a pair), if any.
    pub other: Option<BodyId>,
    /// The step's error for it: the reason, the value and the limit.
    pub error: StepError,
}

impl std::fmt::Display for CcdRefusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.error.fmt(f)
    }
}

impl std::error::Error for CcdRefusal {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.error)
    }
}

/// What a sweep counts for the report.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct SweepCounts {
    /// Passes (searches for the next impact).
    pub(crate) passes: u64,
    /// Instants settled as cascades.
    pub(crate) settled: u64,
    /// Triangle candidates swept.
    pub(crate) candidates: u64,
}

impl SweepCounts {
    /// Adds `other`'s counts.
    pub(crate) fn add(&mut self, other: &SweepCounts) {
        self.passes += other.passes;
        self.settled += other.settled;
        self.candidates += other.candidates;
    }
}

/// The report and per-body stats of the last successful step, as the world
/// keeps them.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct CcdLedger {
    /// The step's counters.
    pub(crate) report: CcdReport,
    /// Per slot: the stats of the body in the slot at that step (empty for
    /// a step without the continuous stage: every body was discrete).
    pub(crate) stats: Vec<Option<BodyCcdStats>>,
    /// The world's insertion generation after that step: the bodies it
    /// stepped have lower generations (`None` before the first step).
    pub(crate) generation: Option<u64>,
}

impl CcdLedger {
    /// The stats of body `id` (live in its world) if that step held it.
    pub(crate) fn stats(&self, id: BodyId) -> Option<BodyCcdStats> {
        if id.generation() >= self.generation? {
            return None;
        }
        if self.stats.is_empty() {
            return Some(BodyCcdStats {
                mode: CcdMode::Discrete,
                ..Default::default()
            });
        }
        self.stats.get(id.index() as usize).copied().flatten()
    }
}
