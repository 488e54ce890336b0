//! What the continuous stage reports: the counters of the last successful
//! step ([`CcdReport`]), each body's resolved mode and counts
//! ([`BodyCcdStats`]) and a refusal of the dry run ([`CcdRefusal`]).
//!
//! # Method
//! Each island counts its events, strikes, held contacts and arbiter work
//! ([`Counts`]) as it runs; the step adds them up, in island order, with
//! the resolved roles and islands into a [`CcdLedger`], which replaces the
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
    /// Bodies resolved `Continuous` in the step (the movers).
    pub continuous_bodies: u32,
    /// Of them, `Auto` bodies (by their motion or by a mover they could
    /// reach).
    pub auto_continuous: u32,
    /// Bodies the stage swept: the movers (each along its own path, struck
    /// or not).
    pub swept_bodies: u32,
    /// Islands of more than one mover (movers joined by pairs that can
    /// meet).
    pub groups: u32,
    /// The movers of the largest island (0 without a mover).
    pub largest_group: u32,
    /// Events taken from the islands' queues (impacts and held contacts).
    pub passes: u64,
    /// Swept impacts (the step's `ContactKind::Swept` events: one per pair
    /// struck).
    pub swept_impacts: u32,
    /// Cascades: strikes that solved the contacts of more than two bodies
    /// at one instant together.
    pub settled_cascades: u32,
    /// Advancement iterations of the time-of-impact arbiter, summed over
    /// its queries.
    pub certified_substeps: u64,
    /// Time-of-impact queries against meshes (each covers the mesh's
    /// candidate triangles).
    pub candidate_triangles: u64,
    /// Candidate pairs at the step's start (swept boxes that overlap).
    pub candidate_pairs: u64,
    /// Time-of-impact queries, every pair and every re-query.
    pub toi_queries: u64,
    /// Events that held a resting contact instead of striking it.
    pub held_contacts: u64,
    /// Rounds in which islands that met were merged and run again.
    pub island_reruns: u32,
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
    /// Advancement iterations of the time-of-impact queries of its pairs.
    pub substeps: u32,
    /// The movers of its island: 1 alone, 0 when the stage did not sweep
    /// it.
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

/// What an island's loop counts for the report.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct Counts {
    /// Events taken.
    pub(crate) events: u64,
    /// Strikes (events that applied impulses).
    pub(crate) impacts: u64,
    /// Strikes of more than two bodies.
    pub(crate) cascades: u64,
    /// Held contacts.
    pub(crate) holds: u64,
    /// Arbiter queries.
    pub(crate) queries: u64,
    /// Arbiter queries against meshes.
    pub(crate) mesh_queries: u64,
    /// Arbiter iterations.
    pub(crate) iterations: u64,
}

impl Counts {
    /// Adds `other`'s counts.
    pub(crate) fn add(&mut self, other: &Counts) {
        self.events += other.events;
        self.impacts += other.impacts;
        self.cascades += other.cascades;
        self.holds += other.holds;
        self.queries += other.queries;
        self.mesh_queries += other.mesh_queries;
        self.iterations += other.iterations;
    }
}

/// The report and per-body stats of the last successful step, as the world
/// keeps them.
#[derive(Debug, Clone, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
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
