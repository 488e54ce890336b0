//! A tournament over the best events of a group's members, for the event
//! memo ([`super::memo`]): a tree of winners (Knuth, *The Art of Computer
//! Programming*, vol. 3, §5.4.1), whose root is the earliest event.
//!
//! # Method
//! Leaves are the members in order; each node holds the winner of its two
//! halves, the lower half keeping ties, so the root is the first of the
//! earliest events in member order, as offering every member's event in
//! order keeps it. After a pass only the paths of the members whose best
//! event changed are replayed: `O(k log n)` for `k` changed members.
//!
//! # Source
//! Knuth, *The Art of Computer Programming*, vol. 3, §5.4.1 (trees of
//! winners for replacement selection).
//!
//! # Precision domain
//! Comparisons of event times only (never NaN: every sweep time passed
//! `t <= 1` or is `0`).

use super::state::{beats, Event};

/// The smallest group whose passes find the earliest event by the
/// [`Tournament`] (members); smaller groups scan their members' events.
pub(super) const TOURNAMENT_MIN_MEMBERS: usize = 16;

/// A tournament over the members' best events: each node holds the winner
/// of its two halves, the lower half keeping ties. Offering the members'
/// events in member order keeps the first of the earliest (`offer`); so
/// does the tournament, whose lower half comes first and wins ties (event
/// times are never NaN: every sweep time passed `t <= 1` or is `0`), and
/// after a pass it replays only the paths of the members whose best event
/// changed: `O(k log n)` instead of a scan of all `n` members.
#[derive(Default)]
pub(super) struct Tournament {
    /// Leaves from `width` on (member `i` at `width + i`), node `k`'s
    /// children at `2k` and `2k + 1`; `NO_MEMBER` for none.
    pub(super) nodes: Vec<usize>,
    pub(super) width: usize,
    /// Members in the tree (the group's size when built).
    pub(super) members: usize,
}

/// No member (an empty leaf, or no event below a node).
pub(super) const NO_MEMBER: usize = usize::MAX;

impl Tournament {
    /// The event of member `k` (`None` for no member or no event).
    pub(super) fn event(best: &[Option<Option<Event>>], k: usize) -> Option<&Event> {
        best.get(k)
            .and_then(|e| e.as_ref())
            .and_then(|e| e.as_ref())
    }

    /// The winner of `a` (lower members) and `b` (higher members).
    pub(super) fn play(best: &[Option<Option<Event>>], a: usize, b: usize) -> usize {
        match (Self::event(best, a), Self::event(best, b)) {
            (_, None) => a,
            (None, Some(_)) => b,
            (Some(x), Some(y)) => {
                if beats(y, x) {
                    b
                } else {
                    a
                }
            }
        }
    }

    /// Replays the members in `changed` (any order, repeats allowed), or
    /// builds the whole tree when it was built for another group size or
    /// many members changed.
    pub(super) fn update(&mut self, best: &[Option<Option<Event>>], changed: &[usize]) {
        let n = best.len();
        if self.members != n || self.nodes.is_empty() || changed.len() * 4 > n {
            self.members = n;
            self.width = n.next_power_of_two().max(1);
            self.nodes.clear();
            self.nodes.resize(2 * self.width, NO_MEMBER);
            for i in 0..n {
                self.nodes[self.width + i] = i;
            }
            for k in (1..self.width).rev() {
                self.nodes[k] = Self::play(best, self.nodes[2 * k], self.nodes[2 * k + 1]);
            }
            return;
        }
        for &i in changed {
            let mut k = (self.width + i) / 2;
            while k >= 1 {
                self.nodes[k] = Self::play(best, self.nodes[2 * k], self.nodes[2 * k + 1]);
                k /= 2;
            }
        }
    }

    /// The winning event.
    pub(super) fn winner<'b>(&self, best: &'b [Option<Option<Event>>]) -> Option<&'b Event> {
        // The root (node 1; the only leaf when the tree has one).
        Self::event(best, self.nodes.get(1).copied().unwrap_or(NO_MEMBER))
    }
}
