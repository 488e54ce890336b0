//! The group sweep's pair schedule ([`super::memo`]): every live member
//! pair (one that no certificate shows apart for the rest of the step) with
//! the end of its **window**, the time until which the two certificates
//! still show it apart, so that a pass sweeps only the pairs whose window
//! ends before the pass's event and leaves the others unswept.
//!
//! # Method
//! A pair's window is the longest span `σ` after `now` over which
//! [`pair_apart`] holds for the two ideal paths: the closest approach of
//! two lines drops to the certificate's need at the first root of
//! `|Δc + Δv s|² = need²` (Basch, Guibas and Hershberger's kinetic
//! certificates, with an expiry time); the root, shortened by `2^-20` of
//! itself (then by more, down to a half), is kept only when [`pair_apart`]
//! confirms it, else the window is empty. While both certificates stand, the exact pair sweep of any later
//! pass reports no contact before the window's end (the argument of
//! [`super::certify`], over the sub-interval `[now, now + σ]`): its event,
//! if any, comes at or after that end. A pass whose earliest event among
//! the swept pairs and triangles comes at absolute time `θ` sweeps every
//! pair whose window ends by `θ` (padded by [`WINDOW_PAD`] of the step);
//! every other pair's event is strictly later, so the pass chooses the
//! event of sweeping every pair, bit for bit. Sweeping more pairs only
//! lowers `θ`, so one round of due pairs after a first choice suffices.
//!
//! Entries are kept in a [`BTreeSet`] by window end (`O(log L)` per
//! insertion or removal for `L` live pairs), with each member's entries
//! listed for its removal when it takes a new certificate. A due pair
//! whose window has passed is decided again from the current time, so a
//! pair that has passed its closest approach leaves the schedule.
//!
//! # Source
//! Kinetic data structures with certificate failure times: Basch, Guibas
//! and Hershberger, "Data structures for mobile data", *J. Algorithms* 31
//! (1999); event-driven molecular dynamics keeps collision times in a
//! priority queue the same way (Rapaport, *The Art of Molecular Dynamics
//! Simulation*, 2004, ch. 14).
//!
//! # Precision domain
//! [`pair_apart`]'s (the window is confirmed by it, so the root's rounding
//! only shortens it); window ends are compared with [`WINDOW_PAD`] of the
//! step of slack, far above the `f64` rounding of `elapsed + s tau`.

use std::collections::BTreeSet;

use super::certify::{pair_apart, Path};

/// Slack of the due test (dimensionless, of the step's horizon): a pair
/// whose window ends within `2^-30` of the horizon after the pass's event
/// is swept too. The event's absolute time `elapsed + s tau` is rounded
/// once or twice in `f64` (`2^-52` of the horizon each): the pad is `2^22`
/// times that.
pub(super) const WINDOW_PAD: f64 = 1.0 / 1_073_741_824.0;

/// One schedule entry: the window end's bits (non-negative, so ordered as
/// the values), the lower member, the higher member.
type Entry = (u64, usize, usize);

/// The live pairs by window end (see the module docs).
#[derive(Default)]
pub(super) struct PairSchedule {
    /// Every live pair by window end.
    by_end: BTreeSet<Entry>,
    /// Per member: its entries (removed ones may linger until the member's
    /// entries are removed or the schedule is reset).
    of_member: Vec<Vec<Entry>>,
    /// Working storage of [`PairSchedule::due`].
    due: Vec<(usize, usize, f64)>,
}

/// The key of a window end (s): its bits, a NaN or negative end taken as
/// zero (an empty window from the step's start).
fn key(end: f64) -> u64 {
    end.max(0.0).to_bits()
}

impl PairSchedule {
    /// Empties the schedule for `n` members, keeping the storage.
    pub(super) fn reset(&mut self, n: usize) {
        self.by_end.clear();
        if self.of_member.len() < n {
            self.of_member.resize_with(n, Vec::new);
        }
        for l in &mut self.of_member {
            l.clear();
        }
    }

    /// Schedules pair `(i, j)`, `i < j`, with window end `end` (s).
    pub(super) fn insert(&mut self, i: usize, j: usize, end: f64) {
        let e = (key(end), i, j);
        if self.by_end.insert(e) {
            self.of_member[i].push(e);
            self.of_member[j].push(e);
        }
    }

    /// Removes every entry of member `m`.
    pub(super) fn remove_member(&mut self, m: usize) {
        let mut list = std::mem::take(&mut self.of_member[m]);
        for e in list.drain(..) {
            self.by_end.remove(&e);
        }
        self.of_member[m] = list;
    }

    /// Removes pair `(i, j)`'s entry with window end `end` (s).
    pub(super) fn remove(&mut self, i: usize, j: usize, end: f64) {
        self.by_end.remove(&(key(end), i, j));
    }

    /// The pairs whose window ends by `until` (s), with their window ends,
    /// in order of window end then pair.
    pub(super) fn due(&mut self, until: f64) -> &[(usize, usize, f64)] {
        self.due.clear();
        let last = (key(until), usize::MAX, usize::MAX);
        self.due.extend(
            self.by_end
                .range(..=last)
                .map(|&(k, i, j)| (i, j, f64::from_bits(k))),
        );
        &self.due
    }

    /// The number of live pairs scheduled.
    #[cfg(test)]
    pub(super) fn len(&self) -> usize {
        self.by_end.len()
    }
}

/// The window of two live paths `a`, `b` at `elapsed` (s), `span` (s) to
/// the horizon: `Some(end)` (s, absolute; `elapsed` for an empty window)
/// when they may meet within the span, `None` when [`pair_apart`] shows
/// them apart for all of it.
pub(super) fn window(a: &Path, b: &Path, elapsed: f64, span: f64) -> Option<f64> {
    if pair_apart(a, b, span) {
        return None;
    }
    let dc = b.center - a.center;
    let dv = b.velocity - a.velocity;
    let vv = dv.norm_squared();
    // The need of `pair_apart` over the whole span bounds its need over
    // any shorter one; the first root of the distance reaching it.
    let need = a.half + b.half + a.radius + b.radius + a.allowance + b.allowance;
    let half_b = dc.dot(&dv);
    let c = dc.norm_squared() - need * need;
    let disc = half_b * half_b - vv * c;
    let root = if vv > 0.0 && c > 0.0 && half_b < 0.0 && disc >= 0.0 {
        // The smaller root of `vv s² + 2 half_b s + c`, written to avoid
        // cancellation: `c / (-half_b + sqrt(disc))`.
        c / (-half_b + disc.sqrt())
    } else {
        0.0
    };
    // The root leaves out the certificate's slack (its margins, a small
    // share of the paths' scale): shorter spans are tried until one is
    // confirmed.
    let base = root.min(span);
    for shorten in SHORTEN {
        let sigma = base * shorten;
        if !(sigma > 0.0) {
            break;
        }
        if pair_apart(a, b, sigma) {
            return Some(elapsed + sigma);
        }
    }
    Some(elapsed)
}

/// The shares of the root tried as the window (dimensionless), longest
/// first.
const SHORTEN: [f64; 5] = [1.0 - 1.0 / 1_048_576.0, 0.999, 0.99, 0.9, 0.5];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ccd::group_sweep::certify::Path;
    use parapet_math::Vec3d;

    fn path(c: [f64; 3], v: [f64; 3], r: f64) -> Path {
        Path {
            center: Vec3d::from(c),
            velocity: Vec3d::from(v),
            radius: r,
            half: 0.0,
            allowance: r / 16.0,
        }
    }

    /// Two spheres (r 0.2) 10 m apart closing at 20 m/s touch after about
    /// (10 - 0.4) / 20 = 0.48 s: the window ends a little before, and the
    /// certificate confirms it; spheres passing far apart are not live;
    /// spheres touching now have an empty window.
    #[test]
    fn a_window_ends_before_the_paths_can_touch() {
        let a = path([0.0, 0.0, 0.0], [10.0, 0.0, 0.0], 0.2);
        let b = path([10.0, 0.0, 0.0], [-10.0, 0.0, 0.0], 0.2);
        let end = window(&a, &b, 1.0, 2.0).unwrap();
        // The need adds the allowances (0.025 m): contact of the widened
        // paths at (10 - 0.425) / 20 = 0.47875 s; the slack of the
        // certificate's margins takes a little more (under 1 ms here).
        assert!(end > 1.0 + 0.47 && end < 1.0 + 0.47875, "{end}");
        assert!(pair_apart(&a, &b, end - 1.0));
        let far = path([10.0, 5.0, 0.0], [-10.0, 0.0, 0.0], 0.2);
        assert_eq!(window(&a, &far, 1.0, 2.0), None);
        let touching = path([0.4, 0.0, 0.0], [-10.0, 0.0, 0.0], 0.2);
        assert_eq!(window(&a, &touching, 1.0, 2.0), Some(1.0));
    }

    /// The schedule lists the pairs due by a time in order of window end,
    /// and forgets a member's entries.
    #[test]
    fn the_schedule_lists_due_pairs_and_forgets_members() {
        let mut s = PairSchedule::default();
        s.reset(4);
        s.insert(0, 1, 0.5);
        s.insert(1, 2, 0.25);
        s.insert(2, 3, 0.75);
        assert_eq!(s.due(0.5), &[(1, 2, 0.25), (0, 1, 0.5)]);
        s.remove_member(1);
        assert_eq!(s.due(1.0), &[(2, 3, 0.75)]);
        s.remove(2, 3, 0.75);
        assert_eq!(s.len(), 0);
    }
}
