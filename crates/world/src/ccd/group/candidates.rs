//! The candidate search of the grouping ([`super`]): the pairs of regions
//! that may overlap, found by sorting the regions' bounds along one axis
//! and sweeping (sort and sweep), so that a round costs `O(B log B)` plus
//! the candidates instead of testing every pair.
//!
//! # Method
//! Each region's bounds along each axis are its centre plus or minus its
//! radius, widened ([`CANDIDATE_WIDENING`], [`CANDIDATE_COORDINATE_WIDENING`])
//! so that the computed bounds contain the exact widened interval; the
//! bounds are sorted along the axis where they spread most (an insertion
//! sort of the last step's nearly sorted order when it stays cheap) and
//! swept. A pair is left out when neither member's region changed since it
//! was tested, or when both already share a group; regions without finite
//! bounds are paired with every other region.
//!
//! # Source
//! docs/continuous-collision.md, "Moving groups" (grouping) and
//! "Performance"; sort and sweep over one axis, as the broad phase of
//! this crate does for primitive bounds.
//!
//! # Precision domain
//! Conservative: every pair that the exact overlap test
//! ([`crate::ccd::reach::overlaps`]) accepts is returned; the sort order
//! only steers the search's speed, never its result.

use crate::ccd::reach::Reach;

/// Relative widening of a region's radius for the candidate search
/// (dimensionless, `2^-40`): [`overlaps`] accepts centre distances up to
/// the radius sum times `(1 + 2 eps) / ((1 - 4 eps)(1 - 3 eps))` (its own
/// rounding and that of the distance), far below `1 + 2^-41`; the other
/// `2^-41` and [`CANDIDATE_COORDINATE_WIDENING`] cover the rounding of the
/// bounds themselves.
pub(super) const CANDIDATE_WIDENING: f64 = 1.0 / 1_099_511_627_776.0;

/// Widening of a region's bounds per metre of its centre's largest
/// coordinate (dimensionless, `2^-50`, above the half ulp `2^-53` of the
/// rounding of `centre ± half width`).
pub(super) const CANDIDATE_COORDINATE_WIDENING: f64 = 1.0 / 1_125_899_906_842_624.0;

/// `+0` for a finite `x`, NaN for an infinite or NaN one.
#[allow(clippy::eq_op)]
#[inline]
pub(super) fn spread(x: f64) -> f64 {
    x - x
}

/// The bounds of a region along each axis for the candidate search: the
/// centre plus or minus its radius widened by [`CANDIDATE_WIDENING`] and
/// [`CANDIDATE_COORDINATE_WIDENING`], so that the computed bounds contain
/// the exact interval `centre ± radius (1 + 2^-41)`; `None` when not finite.
pub(super) fn candidate_bounds(r: &Reach) -> Option<([f64; 3], [f64; 3])> {
    let c = r.center;
    // The largest coordinate magnitude (for finite centres; a centre with
    // an infinite or NaN coordinate has no finite bounds whatever it is).
    let far = c.x.abs().max(c.y.abs()).max(c.z.abs());
    let w = r.radius * (1.0 + CANDIDATE_WIDENING) + far * CANDIDATE_COORDINATE_WIDENING;
    let lo = [c.x - w, c.y - w, c.z - w];
    let hi = [c.x + w, c.y + w, c.z + w];
    // Every bound finite: `x - x` is `+0` for a finite `x` and NaN for an
    // infinite or NaN one, so the sum is `0` exactly when all six are
    // finite (then `w` is finite too).
    let finite = spread(lo[0])
        + spread(lo[1])
        + spread(lo[2])
        + spread(hi[0])
        + spread(hi[1])
        + spread(hi[2])
        == 0.0;
    finite.then_some((lo, hi))
}

/// A region's candidate bounds in the sweep order.
#[derive(Clone, Copy)]
pub(super) struct SortedBounds {
    /// The order key of `lo` along the sweep axis.
    pub(super) key: i64,
    pub(super) lo: [f64; 3],
    pub(super) hi: [f64; 3],
    pub(super) index: usize,
    pub(super) label: usize,
    pub(super) fresh: bool,
}

/// The candidate search's working storage, kept between rounds and, in a
/// [`GroupScratch`], between steps.
#[derive(Clone, Default)]
pub(super) struct SweepScratch {
    pub(super) wild: Vec<usize>,
    pub(super) sorted: Vec<SortedBounds>,
    /// The axis and region count of the search that left `sorted` (every
    /// region once when none was without finite bounds).
    pub(super) last: Option<(usize, usize)>,
}

/// Element moves an insertion sort of nearly sorted keys may spend per
/// region (count) before it gives up for `sort_unstable`: regions that
/// moved little since the last step cost a few moves each, so the search
/// stays linear; a shuffled order stops after `O(B)` moves. Results never
/// depend on it (only the order of equal keys can differ, and the sweep
/// finds the same pairs in any such order).
pub(super) const INSERTION_MOVES_PER_REGION: usize = 4;

/// Sorts `items` by `key`: an insertion sort while it spends at most
/// [`INSERTION_MOVES_PER_REGION`] moves per element (the order of the last
/// step, nearly sorted), else `sort_unstable`.
pub(super) fn sort_keys<T: Copy>(items: &mut [T], key: impl Fn(&T) -> i64) {
    let mut budget = INSERTION_MOVES_PER_REGION * items.len();
    for i in 1..items.len() {
        // In place already (the usual case): nothing moves.
        let k = key(&items[i]);
        if key(&items[i - 1]) <= k {
            continue;
        }
        let item = items[i];
        let mut j = i;
        while j > 0 && key(&items[j - 1]) > k {
            if budget == 0 {
                items[j] = item;
                items.sort_unstable_by_key(|x| key(x));
                return;
            }
            budget -= 1;
            items[j] = items[j - 1];
            j -= 1;
        }
        items[j] = item;
    }
}

/// The pairs `(i, j)`, `i < j`, whose regions may overlap, found by sorting
/// the regions' bounds ([`candidate_bounds`], kept per region in `bounds`
/// and recomputed for `fresh` regions only) along the axis where they
/// spread most and sweeping; a pair of which neither member is `fresh` is
/// left out (its regions were tested as they are), and so is a pair whose
/// members already carry one `label` (one group: merging it changes
/// nothing). Every pair of two labels that [`overlaps`] accepts and that
/// has a fresh member is returned: the bounds
/// contain each region's exact widened interval, and two regions that
/// [`overlaps`] accepts are within their summed widened radii on every
/// axis. Regions without finite bounds are paired with every other region.
pub(super) fn candidate_pairs(
    reach: &[Reach],
    fresh: &[bool],
    label: &[usize],
    bounds: &mut [Option<([f64; 3], [f64; 3])>],
    out: &mut Vec<(usize, usize)>,
    scratch: &mut SweepScratch,
) {
    out.clear();
    let n = reach.len();
    let SweepScratch { wild, sorted, last } = scratch;
    wild.clear();
    let mut lo = [f64::INFINITY; 3];
    let mut hi = [f64::NEG_INFINITY; 3];
    for (i, r) in reach.iter().enumerate() {
        if fresh[i] {
            bounds[i] = candidate_bounds(r);
        }
        let Some((l, h)) = bounds[i] else {
            wild.push(i);
            continue;
        };
        // Finite bounds: plain comparisons are `min` and `max` (the axis
        // only steers the search's speed, never its result).
        for k in 0..3 {
            if l[k] < lo[k] {
                lo[k] = l[k];
            }
            if h[k] > hi[k] {
                hi[k] = h[k];
            }
        }
    }
    let axis = (0..3)
        .max_by(|&a, &b| (hi[a] - lo[a]).total_cmp(&(hi[b] - lo[b])))
        .unwrap_or(0);
    // The order key of a lower bound along the axis: it orders finite
    // values as `f64::total_cmp` does.
    let key = |lo: &[f64; 3]| {
        let x = lo[axis].to_bits() as i64;
        x ^ (((x >> 63) as u64) >> 1) as i64
    };
    // The bounds sorted by key, contiguous: the sweep reads them in turn.
    // By key alone: regions with equal keys may come in any order, the
    // sweep finds the same pairs (a pair's test is symmetric), and the
    // merges do not depend on the order of the pairs. When the last search
    // ran on as many regions along this axis and every region has finite
    // bounds (then and now), `sorted` holds every region once, nearly
    // sorted when the regions moved little: each entry is refreshed in
    // place and the list insertion-sorted ([`sort_keys`]).
    if wild.is_empty() && *last == Some((axis, n)) && sorted.len() == n {
        for entry in sorted.iter_mut() {
            if let Some((lo, hi)) = bounds[entry.index] {
                *entry = SortedBounds {
                    key: key(&lo),
                    lo,
                    hi,
                    index: entry.index,
                    label: label[entry.index],
                    fresh: fresh[entry.index],
                };
            }
        }
        sort_keys(sorted, |b| b.key);
    } else {
        sorted.clear();
        sorted.reserve(n);
        for (i, b) in bounds.iter().enumerate() {
            if let Some((lo, hi)) = *b {
                sorted.push(SortedBounds {
                    key: key(&lo),
                    lo,
                    hi,
                    index: i,
                    label: label[i],
                    fresh: fresh[i],
                });
            }
        }
        sorted.sort_unstable_by_key(|b| b.key);
    }
    *last = wild.is_empty().then_some((axis, n));
    for (x, a) in sorted.iter().enumerate() {
        for b in &sorted[x + 1..] {
            if !(b.lo[axis] <= a.hi[axis]) {
                break;
            }
            if (a.fresh || b.fresh)
                && a.label != b.label
                && b.lo[0] <= a.hi[0]
                && a.lo[0] <= b.hi[0]
                && b.lo[1] <= a.hi[1]
                && a.lo[1] <= b.hi[1]
                && b.lo[2] <= a.hi[2]
                && a.lo[2] <= b.hi[2]
            {
                out.push((a.index.min(b.index), a.index.max(b.index)));
            }
        }
    }
    for &w in wild.iter() {
        for j in 0..n {
            let counted = bounds[j].is_none() && j < w;
            if j != w && (fresh[w] || fresh[j]) && label[w] != label[j] && !counted {
                out.push((w.min(j), w.max(j)));
            }
        }
    }
}
