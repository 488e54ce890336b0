//! What the continuous stage did in a step, counted ([`CcdWork`]): a
//! diagnostic of its cost that does not depend on the machine, for tests
//! that bound the work of a step (how many pairs the grouping tested, how
//! many passes and exact sweeps the group sweeps ran) where a timing would
//! be noise.
//!
//! # Method
//! Counters incremented where the work happens (the grouping's pair tests,
//! the group sweeps' passes and exact sweeps), summed over the step in
//! group order, so they do not depend on the thread count.
//!
//! # Source
//! docs/continuous-collision.md, "Performance".
//!
//! # Precision domain
//! None: integer counts.

/// The continuous stage's work in one step (all zero in DISCRETE and for
/// worlds with no shared group; `grouping_tests` counts in any CCD step).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct CcdWork {
    /// Pairs of moving bodies the grouping tested (reach balls and shapes).
    pub grouping_tests: u64,
    /// Shared groups swept.
    pub groups: u64,
    /// Members of the largest shared group.
    pub largest_group: u64,
    /// Passes of the group sweeps' event loops, summed over the groups.
    pub group_passes: u64,
    /// Exact pair sweeps the group sweeps ran.
    pub pair_sweeps: u64,
    /// Exact member-triangle sweeps the group sweeps ran.
    pub triangle_sweeps: u64,
    /// Pair certificates the group sweeps decided and scheduled pairs they
    /// looked at (their pair bookkeeping beyond the exact sweeps).
    pub pair_decisions: u64,
}
