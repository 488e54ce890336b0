//! The queue of an island's events: the earliest event of each pair,
//! taken earliest first with a total order, so that the same world gives
//! the same events in the same order on any number of threads.
//!
//! # Method
//! A binary heap of [`Event`]s ordered by (time, the pair's lower body, a
//! triangle before a body, the other body, the triangle's index) — the tie
//! rules of docs/continuous-collision.md, "Ordering, limits and rollback":
//! equal times keep the lower body first (insertion order), then a
//! triangle before another body, then the lower other body, then the lower
//! triangle. Each pair keeps a version; an event carries the version its
//! pair had when it was queried, and an event whose pair has been queried
//! again since is stale and skipped when it comes up (lazy deletion: a
//! re-query costs one push, no search).
//!
//! # Precision domain
//! Times are `f64` seconds compared by `total_cmp`.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

/// One pair's earliest event.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Event {
    /// Step time (s).
    pub time: f64,
    /// The pair's lower body (insertion position).
    pub lower: usize,
    /// 0 for a mesh triangle, 1 for a body.
    pub kind: u8,
    /// The other body (insertion position).
    pub other: usize,
    /// The triangle's index in its mesh (0 for a body).
    pub triangle: u32,
    /// The pair (index into the island's pairs).
    pub pair: usize,
    /// The pair's version when it was queried.
    pub version: u32,
}

impl Event {
    fn key(&self) -> (f64, usize, u8, usize, u32, usize) {
        (
            self.time,
            self.lower,
            self.kind,
            self.other,
            self.triangle,
            self.pair,
        )
    }
}

impl Eq for Event {}

impl Ord for Event {
    fn cmp(&self, other: &Self) -> Ordering {
        let (a, b) = (self.key(), other.key());
        // Reversed: the heap pops the earliest first.
        b.0.total_cmp(&a.0)
            .then(b.1.cmp(&a.1))
            .then(b.2.cmp(&a.2))
            .then(b.3.cmp(&a.3))
            .then(b.4.cmp(&a.4))
            .then(b.5.cmp(&a.5))
            .then(other.version.cmp(&self.version))
    }
}

impl PartialOrd for Event {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// The events of an island, earliest first.
#[derive(Debug, Default)]
pub(crate) struct EventQueue {
    heap: BinaryHeap<Event>,
}

impl EventQueue {
    /// Adds an event.
    pub(crate) fn push(&mut self, event: Event) {
        self.heap.push(event);
    }

    /// The earliest event whose pair version is still `current(pair)`,
    /// skipping stale ones.
    pub(crate) fn pop(&mut self, current: impl Fn(usize) -> u32) -> Option<Event> {
        while let Some(e) = self.heap.pop() {
            if e.version == current(e.pair) {
                return Some(e);
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn event(time: f64, lower: usize, kind: u8, other: usize, pair: usize) -> Event {
        Event {
            time,
            lower,
            kind,
            other,
            triangle: 0,
            pair,
            version: 0,
        }
    }

    /// Earliest first; equal times: lower body, triangle before body,
    /// lower other; stale events are skipped.
    #[test]
    fn events_come_out_in_the_tie_order_and_stale_ones_are_skipped() {
        let mut q = EventQueue::default();
        q.push(event(0.5, 3, 1, 4, 0));
        q.push(event(0.5, 3, 0, 9, 1));
        q.push(event(0.5, 2, 1, 8, 2));
        q.push(event(0.2, 7, 1, 8, 3));
        q.push(event(0.5, 3, 1, 5, 4));
        let stale = Event {
            version: 1,
            ..event(0.1, 0, 0, 1, 5)
        };
        q.push(stale);
        let order: Vec<usize> = std::iter::from_fn(|| q.pop(|_| 0))
            .map(|e| e.pair)
            .collect();
        assert_eq!(order, vec![3, 2, 1, 0, 4]);
    }
}
