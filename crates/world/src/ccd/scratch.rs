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
use super::reach::Reach;
use super::support::Role;

/// The continuous stage's working storage, kept in the world between steps
/// so that a step's bookkeeping allocates nothing once grown. Every step
/// clears what it reads before filling it (the grouping's sort order only
/// steers its speed, [`GroupScratch`]), so it never changes a result and is
/// not part of the world's state: a clone is a copy (a cloned world steps
/// as fast as its original), and the debug text shows none of it.
#[derive(Clone, Default)]
pub(crate) struct CcdScratch {
    /// The last plan's roles and energies (the plan hands its lists back at the end of each step).
    pub(crate) roles: Vec<Option<Role>>,
    pub(crate) energy: Vec<f64>,
    /// The moving bodies (slot, region alone), insertion order.
    pub(crate) moving: Vec<(usize, Reach)>,
    /// The grouping's view of them, same order.
    pub(crate) movers: Vec<Mover>,
    /// The bodies alone (slot, region), when some group is shared.
    pub(crate) alone: Vec<(usize, Reach)>,
    pub(crate) groups: Groups,
    pub(crate) group: GroupScratch,
    pub(crate) shared: SharedGroups,
}

impl std::fmt::Debug for CcdScratch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("CcdScratch")
    }
}
