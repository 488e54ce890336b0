//! The storage of the policy's refusal search (`refusals.rs`): its lists,
//! kept between steps, and the sort-and-sweep along x that pairs fixed
//! bodies with the continuous bodies whose regions overlap theirs.
//!
//! Method: regions sorted by their low x bound, each paired with the
//! regions of the other list still open at that bound, then tested with
//! [`overlaps`]. Precision domain: the x bounds are widened by a relative
//! `1e-9`, above the rounding of the regions' centres and radii, so no
//! overlapping pair is left out.

use super::error::CcdError;
use super::reach::{overlaps, Reach};

/// The lists of `refusals::settle`, kept between steps (storage only: every call
/// clears what it reads).
#[derive(Debug, Clone, Default)]
pub(crate) struct PolicyScratch {
    /// Per mover: resolved `Continuous` by its group in this grouping.
    pub(super) promoted: Vec<bool>,
    /// The fixed bodies (slot, region, `Auto`), insertion order.
    pub(super) fixed: Vec<(usize, Reach, bool)>,
    /// The continuous movers (slot, region, dynamic), insertion order.
    pub(super) targets: Vec<(usize, Reach, bool)>,
    /// Overlapping (fixed, target) positions.
    pub(super) pairs: Vec<(usize, usize)>,
    /// The refusals of one grouping, in the order found.
    pub(super) found: Vec<CcdError>,
    pub(super) sweep: AxisSweep,
}

/// The candidate pairs of two lists of regions by their bounds along x.
#[derive(Debug, Clone, Default)]
pub(super) struct AxisSweep {
    /// (low bound, which list, position), sorted.
    events: Vec<(f64, bool, usize)>,
    active_a: Vec<usize>,
    active_b: Vec<usize>,
}

/// The bounds along x of a region, widened by a relative `1e-9`.
fn x_bounds(r: &Reach) -> (f64, f64) {
    let w = r.radius + (r.center.x.abs() + r.radius) * 1.0e-9;
    (r.center.x - w, r.center.x + w)
}

impl AxisSweep {
    /// Every (position in `a`, position in `b`) whose regions overlap
    /// ([`overlaps`]), into `out` (any order).
    pub(super) fn pairs(
        &mut self,
        a: &[(usize, Reach, bool)],
        b: &[(usize, Reach, bool)],
        out: &mut Vec<(usize, usize)>,
    ) {
        out.clear();
        self.events.clear();
        self.events.extend(
            a.iter()
                .enumerate()
                .map(|(i, x)| (x_bounds(&x.1).0, false, i)),
        );
        self.events.extend(
            b.iter()
                .enumerate()
                .map(|(j, x)| (x_bounds(&x.1).0, true, j)),
        );
        self.events
            .sort_by(|x, y| x.0.total_cmp(&y.0).then(x.1.cmp(&y.1)));
        self.active_a.clear();
        self.active_b.clear();
        for &(low, in_b, k) in &self.events {
            if in_b {
                self.active_a.retain(|&i| x_bounds(&a[i].1).1 >= low);
                for &i in &self.active_a {
                    if overlaps(&a[i].1, &b[k].1) {
                        out.push((i, k));
                    }
                }
                self.active_b.push(k);
            } else {
                self.active_b.retain(|&j| x_bounds(&b[j].1).1 >= low);
                for &j in &self.active_b {
                    if overlaps(&a[k].1, &b[j].1) {
                        out.push((k, j));
                    }
                }
                self.active_a.push(k);
            }
        }
    }
}
