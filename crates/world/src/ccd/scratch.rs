//! The continuous stage's working storage between steps ([`CcdScratch`]):
//! the lists of the last plan (roles and energies), the moving bodies with
//! their regions, the grouping's movers, groups and scratch, and the shared
//! groups. The world keeps one; it is not part of the world's state.
//!
//! # Method
//! Every step clears what it reads before filling it, so a step's
//! bookkeeping allocates nothing once the lists have grown, and no list
//! carries a value from one step into the next (the grouping's sort order
//! only steers the speed of its candidate search).
//!
//! # Source
//! docs/continuous-collision.md, "Performance" (a step's bookkeeping
//! allocates nothing once grown, and no shortcut changes a result).
//!
//! # Precision domain
//! None: storage only, no arithmetic.

use super::group::{GroupScratch, Groups, Mover, SharedGroups};
use super::plan::PlanLists;
use super::reach::Reach;

/// The continuous stage's working storage, kept in the world between steps
/// so that a step's bookkeeping allocates nothing once grown. Every step
/// clears what it reads before filling it (the grouping's sort order only
/// steers its speed, [`GroupScratch`]), so it never changes a result and is
/// not part of the world's state: a clone is a copy (a cloned world steps
/// as fast as its original), and the debug text shows none of it.
#[derive(Clone, Default)]
pub(crate) struct CcdScratch {
    /// The last plan's lists (the plan hands them back at the end of each step).
    pub(crate) plan: PlanLists,
    /// The moving bodies (slot, region alone), insertion order.
    pub(crate) moving: Vec<(usize, Reach)>,
    /// The grouping's view of them, same order.
    pub(crate) movers: Vec<Mover>,
    /// The bodies alone (slot, region), when some group is shared.
    pub(crate) alone: Vec<(usize, Reach)>,
    pub(crate) groups: Groups,
    pub(crate) group: GroupScratch,
    pub(crate) shared: SharedGroups,
    /// Whether the last grouping left every mover alone (then the bodies
    /// alone are `moving`).
    pub(crate) all_alone: bool,
    /// The continuous stage's own lists ([`super::refusals`]).
    pub(crate) policy: super::policy_scratch::PolicyScratch,
}

impl std::fmt::Debug for CcdScratch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("CcdScratch")
    }
}
