//! [`BodyId`]: a generational handle to a body slot of one world.

use std::cmp::Ordering;
use std::fmt;

/// A handle to a body of a [`crate::PhysicsWorld`]: a slot index and the
/// generation of the insertion that filled it.
///
/// The generation is the world's insertion counter (1 for the first body
/// added, 2 for the next, ...), so every insertion gets a generation no other
/// insertion of that world ever had: a removed body's id is refused (stale)
/// forever, even after its slot is reused, and is never aliased to the new
/// occupant. Ordering compares the generation first, so within one world
/// `a < b` exactly when `a` was added before `b` (insertion order), which is
/// the order that events and ray ties use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct BodyId {
    index: u32,
    generation: u64,
}

impl BodyId {
    pub(crate) fn new(index: u32, generation: u64) -> Self {
        Self { index, generation }
    }

    /// The slot index (reused after removal).
    pub fn index(&self) -> u32 {
        self.index
    }

    /// The insertion generation (unique within the world, never reused).
    pub fn generation(&self) -> u64 {
        self.generation
    }
}

impl Ord for BodyId {
    fn cmp(&self, other: &Self) -> Ordering {
        self.generation
            .cmp(&other.generation)
            .then(self.index.cmp(&other.index))
    }
}

impl PartialOrd for BodyId {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for BodyId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "body {} (slot {})", self.generation, self.index)
    }
}
