//! Moving-body groups and their reach (seed 000 "Supported worlds", "Moving
//! sphere pairs", "Performance and verification").
//!
//! # Method
//! Every moving body starts in a group of its own with its own reach
//! ([`super::reach`]). An impact can give one member the energy of every
//! other member, so in a group of more than one body each dynamic member
//! reaches as far as the whole group's energy takes it: its speed bound is
//! `sqrt(2 E_group / m)`, where `E_group` sums the bound energies of the
//! group's dynamic members. Each impact with a kinematic sphere raises a
//! dynamic member's speed by at most twice the kinematic speed (in the
//! kinematic sphere's frame an impact cannot add energy), so when the group
//! holds kinematic spheres the bound adds `2 V_k` for every impact that the
//! impact limit allows the group's dynamic members (`I G_dyn` impacts, `V_k`
//! the fastest kinematic speed in the group). Two bodies whose regions
//! overlap join one group; regions are recomputed and tested again until no
//! two groups overlap. Each round finds candidate pairs by sorting the
//! regions' bounds along one axis (`O(B log B)` plus the candidates) and
//! tests only those exactly ([`form_groups`]); the groups are those of
//! testing every pair. Two kinematic
//! spheres pass through each other and never join on their own.
//!
//! A group of more than one body may hold only centred spheres, centred
//! capsules that cannot turn and kinematic spheres ([`Mover::groupable`]); a
//! turning body, box or hull that can reach another moving body is refused
//! with [`UnsupportedReason::Interacting`].
//!
//! # Precision domain
//! Every bound is rounded outward ([`parapet_math::rounding`]); overlaps are
//! decided conservatively ([`super::reach::overlaps`]).

use parapet_math::rounding::{add_up, mul_up};
use parapet_math::Vec3d;
use parapet_solver::contact::CONTACT_MARGIN;

use super::error::{CcdError, UnsupportedReason};
use super::reach::{overlaps, speed_bound, Reach};

/// The shared groups of one step ([`Groups::shared`]): the member
/// positions of every group one after the other, one list with the end of
/// each group, so that listing them allocates nothing once grown.
#[derive(Debug, Clone, Default)]
pub struct SharedGroups {
    /// Member positions (input order of the movers), group after group.
    members: Vec<usize>,
    /// Per group: the end of its members in `members`.
    ends: Vec<usize>,
    /// Per group label: where its next member goes (working storage).
    cursor: Vec<usize>,
}

impl SharedGroups {
    /// The number of groups.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether there is no group.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// Group `g`'s member positions, ascending. Panics when `g >= len()`.
    pub fn group(&self, g: usize) -> &[usize] {
        let start = if g == 0 { 0 } else { self.ends[g - 1] };
        &self.members[start..self.ends[g]]
    }

    /// The groups in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = &[usize]> + '_ {
        (0..self.len()).map(|g| self.group(g))
    }

    /// Appends a group (its member positions).
    pub fn push(&mut self, group: &[usize]) {
        self.members.extend_from_slice(group);
        self.ends.push(self.members.len());
    }

    /// Removes every group, keeping the storage.
    pub fn clear(&mut self) {
        self.members.clear();
        self.ends.clear();
    }
}

/// One moving body as the grouping sees it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Mover {
    /// The body's index (slot).
    pub index: usize,
    /// Its reach when alone.
    pub alone: Reach,
    /// Whether it may share a group: a centred sphere, a centred capsule
    /// that cannot turn, or a kinematic sphere.
    pub groupable: bool,
    /// `Some(|v|)` (m/s) for a kinematic sphere.
    pub kinematic_speed: Option<f64>,
    /// Dynamic bodies: the shape bound around [`Reach::center`] (m).
    pub shape_bound: f64,
    /// Dynamic bodies: mass (kg).
    pub mass: f64,
    /// Dynamic bodies: bound energy after forces and solve (J).
    pub energy: f64,
    /// Dynamic bodies: split-correction travel this step (m).
    pub split_travel: f64,
}

/// The groups of one step.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Groups {
    /// Per mover (same order as the input): its group's label, the
    /// position of the group's first mover.
    pub label: Vec<usize>,
    /// Per mover: its reach inside its group.
    pub reach: Vec<Reach>,
    /// Per mover position: the number of movers in the group it labels
    /// (zero for a position that labels no group).
    pub size: Vec<usize>,
}

impl Groups {
    /// The groups of more than one mover that hold a dynamic body, each as
    /// the positions of its movers in input order; groups come in the order
    /// of their lowest member. `O(B)`.
    pub fn shared(&self, movers: &[Mover]) -> SharedGroups {
        let mut out = SharedGroups::default();
        self.shared_into(movers, &mut out);
        out
    }

    /// [`Groups::shared`] into `out` (its storage reused).
    pub fn shared_into(&self, movers: &[Mover], out: &mut SharedGroups) {
        const NONE: usize = usize::MAX;
        const MARKED: usize = usize::MAX - 1;
        let SharedGroups {
            members,
            ends,
            cursor,
        } = out;
        members.clear();
        ends.clear();
        cursor.clear();
        cursor.resize(self.label.len(), NONE);
        // Groups of more than one mover with a dynamic member.
        for (m, &g) in movers.iter().zip(&self.label) {
            if self.size[g] > 1 && m.kinematic_speed.is_none() {
                cursor[g] = MARKED;
            }
        }
        // Their places, in label order (the order of their lowest member).
        let mut end = 0;
        for (c, &size) in cursor.iter_mut().zip(&self.size) {
            if *c == MARKED {
                *c = end;
                end += size;
                ends.push(end);
            }
        }
        members.resize(end, 0);
        for (i, &g) in self.label.iter().enumerate() {
            let c = &mut cursor[g];
            if *c != NONE {
                members[*c] = i;
                *c += 1;
            }
        }
    }

    /// Whether mover `i` shares its group with another mover.
    pub fn is_shared(&self, i: usize) -> bool {
        self.size[self.label[i]] > 1
    }
}

/// The reach of dynamic mover `m` with the speed bound `speed` (m/s).
fn reach_with(m: &Mover, speed: f64, dt: f64) -> Reach {
    Reach {
        center: m.alone.center,
        radius: travel_radius(m.shape_bound, m.split_travel, speed, dt).max(m.alone.radius),
    }
}

/// The radius a shape bound (m) reaches with the speed bound `speed` (m/s)
/// and the split travel (m): `bound + margin + speed dt + split`, rounded
/// up.
fn travel_radius(shape_bound: f64, split_travel: f64, speed: f64, dt: f64) -> f64 {
    add_up(
        add_up(
            add_up(shape_bound, CONTACT_MARGIN as f64),
            mul_up(speed, dt),
        ),
        split_travel,
    )
}

/// Per-group sums of [`reaches_into`], kept between rounds so that a round
/// allocates nothing.
#[derive(Clone, Default)]
struct GroupSums {
    energy: Vec<f64>,
    dynamic: Vec<u64>,
    kin: Vec<f64>,
    size: Vec<usize>,
    /// Per group: the bits of the last member's (mass, shape bound, split
    /// travel) and the travel radius they gave.
    last: Vec<Option<([u64; 3], f64)>>,
}

/// The reach of every mover given the labels (see the module docs), into
/// `out`.
fn reaches_into(
    movers: &[Mover],
    label: &[usize],
    max_impacts: u32,
    dt: f64,
    sums: &mut GroupSums,
    out: &mut Vec<Reach>,
) {
    let n = movers.len();
    let GroupSums {
        energy,
        dynamic,
        kin,
        size,
        last,
    } = sums;
    last.clear();
    last.resize(n, None);
    energy.clear();
    energy.resize(n, 0.0);
    dynamic.clear();
    dynamic.resize(n, 0);
    kin.clear();
    kin.resize(n, 0.0);
    size.clear();
    size.resize(n, 0);
    for (m, &g) in movers.iter().zip(label) {
        size[g] += 1;
        match m.kinematic_speed {
            Some(s) => kin[g] = kin[g].max(s),
            None => {
                energy[g] = add_up(energy[g], m.energy);
                dynamic[g] += 1;
            }
        }
    }
    out.clear();
    out.extend(movers.iter().zip(label).map(|(m, &g)| {
        if m.kinematic_speed.is_some() || size[g] == 1 || !m.groupable {
            return m.alone;
        }
        // The travel radius is a function of the group's sums and of these
        // three inputs: members alike (the usual case) compute it once.
        let inputs = [
            m.mass.to_bits(),
            m.shape_bound.to_bits(),
            m.split_travel.to_bits(),
        ];
        let radius = match last[g] {
            Some((seen, radius)) if seen == inputs => radius,
            _ => {
                let impacts = (max_impacts as u64 * dynamic[g]) as f64;
                let kick = mul_up(mul_up(2.0, kin[g]), impacts);
                let speed = add_up(speed_bound(energy[g], m.mass), kick);
                let radius = travel_radius(m.shape_bound, m.split_travel, speed, dt);
                last[g] = Some((inputs, radius));
                radius
            }
        };
        Reach {
            center: m.alone.center,
            radius: radius.max(m.alone.radius),
        }
    }));
}

/// The union-find root of `i` (every root is its set's lowest position),
/// halving the path on the way.
fn root(parent: &mut [usize], mut i: usize) -> usize {
    while parent[i] != i {
        parent[i] = parent[parent[i]];
        i = parent[i];
    }
    i
}

/// Relative widening of a region's radius for the candidate search
/// (dimensionless, `2^-40`): [`overlaps`] accepts centre distances up to
/// the radius sum times `(1 + 2 eps) / ((1 - 4 eps)(1 - 3 eps))` (its own
/// rounding and that of the distance), far below `1 + 2^-41`; the other
/// `2^-41` and [`CANDIDATE_COORDINATE_WIDENING`] cover the rounding of the
/// bounds themselves.
const CANDIDATE_WIDENING: f64 = 1.0 / 1_099_511_627_776.0;

/// Widening of a region's bounds per metre of its centre's largest
/// coordinate (dimensionless, `2^-50`, above the half ulp `2^-53` of the
/// rounding of `centre ± half width`).
const CANDIDATE_COORDINATE_WIDENING: f64 = 1.0 / 1_125_899_906_842_624.0;

/// `+0` for a finite `x`, NaN for an infinite or NaN one.
#[allow(clippy::eq_op)]
#[inline]
fn spread(x: f64) -> f64 {
    x - x
}

/// The bounds of a region along each axis for the candidate search: the
/// centre plus or minus its radius widened by [`CANDIDATE_WIDENING`] and
/// [`CANDIDATE_COORDINATE_WIDENING`], so that the computed bounds contain
/// the exact interval `centre ± radius (1 + 2^-41)`; `None` when not finite.
fn candidate_bounds(r: &Reach) -> Option<([f64; 3], [f64; 3])> {
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
struct SortedBounds {
    /// The order key of `lo` along the sweep axis.
    key: i64,
    lo: [f64; 3],
    hi: [f64; 3],
    index: usize,
    label: usize,
    fresh: bool,
}

/// The candidate search's working storage, kept between rounds and, in a
/// [`GroupScratch`], between steps.
#[derive(Clone, Default)]
struct SweepScratch {
    wild: Vec<usize>,
    sorted: Vec<SortedBounds>,
    /// The axis and region count of the search that left `sorted` (every
    /// region once when none was without finite bounds).
    last: Option<(usize, usize)>,
}

/// Element moves an insertion sort of nearly sorted keys may spend per
/// region (count) before it gives up for `sort_unstable`: regions that
/// moved little since the last step cost a few moves each, so the search
/// stays linear; a shuffled order stops after `O(B)` moves. Results never
/// depend on it (only the order of equal keys can differ, and the sweep
/// finds the same pairs in any such order).
const INSERTION_MOVES_PER_REGION: usize = 4;

/// Sorts `items` by `key`: an insertion sort while it spends at most
/// [`INSERTION_MOVES_PER_REGION`] moves per element (the order of the last
/// step, nearly sorted), else `sort_unstable`.
fn sort_keys<T: Copy>(items: &mut [T], key: impl Fn(&T) -> i64) {
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
fn candidate_pairs(
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

/// Forms the groups (see the module docs). `movers` come in body insertion
/// order.
///
/// # Method
/// Rounds as in the module docs, each a candidate search
/// (`candidate_pairs`: `O(B log B)` plus the candidates) followed by the
/// exact [`overlaps`] test of each candidate. Within a round the regions
/// are fixed and the merges join the connected components of the overlap
/// graph, which does not depend on the order of the tests; after a round
/// only pairs with a member whose region changed are tested again (a pair
/// of unchanged regions was tested with those very regions). Every region
/// only grows as groups merge (sums of non-negative terms rounded upward),
/// so the result is the finest partition in which no two groups overlap:
/// the same groups, labels and regions as testing every pair every round.
///
/// # Errors
/// [`CcdError::Unsupported`] with [`UnsupportedReason::Interacting`] for the
/// first mover (insertion order) that may not share a group but does,
/// naming another member it overlaps.
pub fn form_groups(movers: &[Mover], max_impacts: u32, dt: f32) -> Result<Groups, CcdError> {
    let mut groups = Groups::default();
    form_groups_with(
        movers,
        max_impacts,
        dt,
        &mut GroupScratch::default(),
        &mut groups,
    )?;
    Ok(groups)
}

/// The working storage of [`form_groups_with`], kept by the caller between
/// steps so that grouping allocates nothing once it has grown. Every call
/// overwrites what it reads, except the last step's sort order of the
/// regions, which only steers the speed of the candidate search (the
/// groups never depend on it), so a scratch never changes a result. A
/// clone is a copy (a cloned world steps as fast as its original); the
/// debug text shows none of it.
#[derive(Clone, Default)]
pub struct GroupScratch {
    parent: Vec<usize>,
    fresh: Vec<bool>,
    pairs: Vec<(usize, usize)>,
    bounds: Vec<Option<([f64; 3], [f64; 3])>>,
    sweep: SweepScratch,
    sums: GroupSums,
    next: Vec<Reach>,
}

impl std::fmt::Debug for GroupScratch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("GroupScratch")
    }
}

/// [`form_groups`] into `out` with the caller's `scratch` (same groups,
/// regions and errors; `out` is unspecified after an error).
///
/// # Errors
/// As [`form_groups`].
pub fn form_groups_with(
    movers: &[Mover],
    max_impacts: u32,
    dt: f32,
    scratch: &mut GroupScratch,
    out: &mut Groups,
) -> Result<(), CcdError> {
    let dt = dt as f64;
    let n = movers.len();
    let GroupScratch {
        parent,
        fresh,
        pairs,
        bounds,
        sweep,
        sums,
        next,
    } = scratch;
    let Groups { label, reach, size } = out;
    parent.clear();
    parent.extend(0..n);
    label.clear();
    label.extend(0..n);
    reach.clear();
    reach.extend(movers.iter().map(|m| m.alone));
    fresh.clear();
    fresh.resize(n, true);
    bounds.clear();
    bounds.resize(n, None);
    loop {
        candidate_pairs(reach, fresh, label, bounds, pairs, sweep);
        let mut merged = false;
        for &(i, j) in pairs.iter() {
            if movers[i].kinematic_speed.is_some() && movers[j].kinematic_speed.is_some() {
                continue;
            }
            let (ri, rj) = (root(parent, i), root(parent, j));
            if ri == rj {
                continue;
            }
            if overlaps(&reach[i], &reach[j]) {
                let (keep, gone) = (ri.min(rj), ri.max(rj));
                parent[gone] = keep;
                merged = true;
            }
        }
        if !merged {
            break;
        }
        for (i, l) in label.iter_mut().enumerate() {
            *l = root(parent, i);
        }
        reaches_into(movers, label, max_impacts, dt, sums, next);
        for ((f, a), b) in fresh.iter_mut().zip(next.iter()).zip(reach.iter()) {
            *f = a != b;
        }
        std::mem::swap(reach, next);
    }
    size.clear();
    size.resize(n, 0);
    for &g in label.iter() {
        size[g] += 1;
    }
    // A body that may not share a group, in a shared group, is refused.
    let refused = (0..n).find(|&i| !movers[i].groupable && size[label[i]] > 1);
    if let Some(i) = refused {
        let group: Vec<usize> = (0..n).filter(|&j| label[j] == label[i]).collect();
        let other = group.iter().copied().find(|&j| {
            j != i
                && !(movers[i].kinematic_speed.is_some() && movers[j].kinematic_speed.is_some())
                && overlaps(&reach[i], &reach[j])
        });
        let other = other.or_else(|| group.iter().copied().find(|&j| j != i));
        if let Some(j) = other {
            return Err(CcdError::Unsupported {
                body: movers[i].index,
                reason: UnsupportedReason::Interacting {
                    other: movers[j].index,
                    reach: reach[i].radius,
                },
            });
        }
    }
    Ok(())
}

/// A helper for tests and callers: the reach of a dynamic mover alone.
pub fn alone_reach(
    center: Vec3d,
    shape_bound: f64,
    speed: f64,
    split_travel: f64,
    dt: f32,
) -> Reach {
    let m = Mover {
        index: 0,
        alone: Reach {
            center,
            radius: 0.0,
        },
        groupable: true,
        kinematic_speed: None,
        shape_bound,
        mass: 1.0,
        energy: 0.0,
        split_travel,
    };
    reach_with(&m, speed, dt as f64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The grouping as first written: every pair tested every round
    /// (`O(B²)` per round), labels relabelled by scanning. The oracle of
    /// the candidate search.
    fn brute_force_groups(
        movers: &[Mover],
        max_impacts: u32,
        dt: f32,
    ) -> Result<(Vec<usize>, Vec<Reach>), CcdError> {
        let dt = dt as f64;
        let n = movers.len();
        let mut label: Vec<usize> = (0..n).collect();
        let mut reach: Vec<Reach> = movers.iter().map(|m| m.alone).collect();
        for _ in 0..n.max(1) {
            let mut merged = false;
            for i in 0..n {
                for j in i + 1..n {
                    if label[i] == label[j] {
                        continue;
                    }
                    if movers[i].kinematic_speed.is_some() && movers[j].kinematic_speed.is_some() {
                        continue;
                    }
                    if overlaps(&reach[i], &reach[j]) {
                        let (keep, gone) = (label[i].min(label[j]), label[i].max(label[j]));
                        for l in label.iter_mut() {
                            if *l == gone {
                                *l = keep;
                            }
                        }
                        merged = true;
                    }
                }
            }
            if !merged {
                break;
            }
            reach = reaches(movers, &label, max_impacts, dt);
        }
        for i in 0..n {
            if movers[i].groupable {
                continue;
            }
            let other = (0..n).find(|&j| {
                j != i
                    && label[j] == label[i]
                    && !(movers[i].kinematic_speed.is_some() && movers[j].kinematic_speed.is_some())
                    && overlaps(&reach[i], &reach[j])
            });
            let other = other.or_else(|| (0..n).find(|&j| j != i && label[j] == label[i]));
            if let Some(j) = other {
                return Err(CcdError::Unsupported {
                    body: movers[i].index,
                    reason: UnsupportedReason::Interacting {
                        other: movers[j].index,
                        reach: reach[i].radius,
                    },
                });
            }
        }
        Ok((label, reach))
    }

    /// The reach of every mover given the labels, as first written: every
    /// member's speed and radius computed on its own (no reuse between
    /// members alike).
    fn reaches(movers: &[Mover], label: &[usize], max_impacts: u32, dt: f64) -> Vec<Reach> {
        let n = movers.len();
        let mut energy = vec![0.0f64; n];
        let mut dynamic = vec![0u64; n];
        let mut kin = vec![0.0f64; n];
        let mut size = vec![0usize; n];
        for (i, m) in movers.iter().enumerate() {
            let g = label[i];
            size[g] += 1;
            match m.kinematic_speed {
                Some(s) => kin[g] = kin[g].max(s),
                None => {
                    energy[g] = add_up(energy[g], m.energy);
                    dynamic[g] += 1;
                }
            }
        }
        movers
            .iter()
            .enumerate()
            .map(|(i, m)| {
                let g = label[i];
                if m.kinematic_speed.is_some() || size[g] == 1 || !m.groupable {
                    return m.alone;
                }
                let impacts = (max_impacts as u64 * dynamic[g]) as f64;
                let kick = mul_up(mul_up(2.0, kin[g]), impacts);
                let speed = add_up(speed_bound(energy[g], m.mass), kick);
                reach_with(m, speed, dt)
            })
            .collect()
    }

    /// The shared groups by scanning every label for every group.
    fn brute_force_shared(label: &[usize], movers: &[Mover]) -> Vec<Vec<usize>> {
        let mut out = Vec::new();
        for g in 0..label.len() {
            let members: Vec<usize> = (0..label.len()).filter(|&i| label[i] == g).collect();
            let dynamic = members.iter().any(|&i| movers[i].kinematic_speed.is_none());
            if members.len() > 1 && dynamic {
                out.push(members);
            }
        }
        out
    }

    /// A mover: position in a box of `side` metres (flattened to a plane or
    /// a line by `dims`, moved by `offset` metres along x to exercise the
    /// rounding of large coordinates), speed 0..30 m/s (energy at 1 kg), kinematic or
    /// not groupable with small probabilities, rarely an infinite energy;
    /// masses, shape bounds and split travels often equal (members alike
    /// share their travel radius) and sometimes not.
    fn random_mover(
        index: usize,
        side: f64,
        dims: usize,
        offset: f64,
    ) -> impl Strategy<Value = Mover> {
        (
            prop::array::uniform3(0.0..side),
            prop_oneof![4 => 0.0..30.0f64, 1 => Just(0.0)],
            0..40u8,
            prop_oneof![Just(0.1f64), 0.05..0.5f64],
            prop_oneof![Just(1.0f64), 0.5..4.0f64],
            prop_oneof![3 => Just(0.0f64), 1 => 0.0..0.2f64],
        )
            .prop_map(move |(p, speed, kind, bound, mass, split)| {
                let mut c = Vec3d::new(p[0], p[1], p[2]);
                for k in dims..3 {
                    c[k] = 0.0;
                }
                c.x += offset;
                let energy = if kind == 0 {
                    f64::INFINITY
                } else {
                    0.5 * mass * speed * speed
                };
                let kinematic = (1..4).contains(&kind);
                let alone = if kinematic {
                    Reach {
                        center: c,
                        radius: bound + CONTACT_MARGIN as f64 + speed / 60.0,
                    }
                } else {
                    alone_reach(c, bound, speed_bound(energy, mass), split, 1.0 / 60.0)
                };
                Mover {
                    index: 2 * index + 1,
                    alone,
                    groupable: kind != 4,
                    kinematic_speed: kinematic.then_some(speed),
                    shape_bound: bound,
                    mass: if kinematic { f64::INFINITY } else { mass },
                    energy: if kinematic { 0.0 } else { energy },
                    split_travel: if kinematic { 0.0 } else { split },
                }
            })
    }

    fn layout() -> impl Strategy<Value = (Vec<Mover>, u32)> {
        (
            1usize..90,
            prop_oneof![Just(2.0f64), Just(6.0), Just(20.0)],
            1usize..4,
            1u32..20,
            prop_oneof![Just(0.0f64), Just(-3.0e5)],
            prop_oneof![Just(0.0f64), Just(0.5), Just(2.5)],
        )
            .prop_flat_map(|(n, side, dims, impacts, offset, grid)| {
                let movers: Vec<_> = (0..n)
                    .map(|i| random_mover(i, side, dims, offset))
                    .collect();
                (movers, Just(impacts), Just(grid), Just(offset))
            })
            .prop_map(|(mut movers, impacts, grid, offset)| {
                // Grid layouts (rows and columns of regions, as in the
                // bench scenes: many regions share an interval along every
                // axis): every centre is snapped to the grid.
                if grid > 0.0 {
                    for m in &mut movers {
                        let c = &mut m.alone.center;
                        c.x = ((c.x - offset) / grid).round() * grid + offset;
                        c.y = (c.y / grid).round() * grid;
                        c.z = (c.z / grid).round() * grid;
                    }
                }
                (movers, impacts)
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(600))]

        /// The candidate search gives the brute-force grouping: the same
        /// labels, the same regions bit for bit (Debug prints every f64
        /// exactly), the same refusal, the same shared groups.
        #[test]
        fn the_candidate_search_groups_exactly_like_testing_every_pair(
            (movers, impacts) in layout(),
        ) {
            let dt = 1.0 / 60.0;
            let fast = form_groups(&movers, impacts, dt);
            let slow = brute_force_groups(&movers, impacts, dt);
            match (fast, slow) {
                (Ok(g), Ok((label, reach))) => {
                    prop_assert_eq!(&g.label, &label);
                    prop_assert_eq!(format!("{:?}", g.reach), format!("{reach:?}"));
                    let shared: Vec<Vec<usize>> =
                        g.shared(&movers).iter().map(|s| s.to_vec()).collect();
                    prop_assert_eq!(shared, brute_force_shared(&label, &movers));
                    for i in 0..movers.len() {
                        let others = (0..label.len()).any(|j| j != i && label[j] == label[i]);
                        prop_assert_eq!(g.is_shared(i), others);
                    }
                }
                (Err(a), Err(b)) => prop_assert_eq!(format!("{a:?}"), format!("{b:?}")),
                (a, b) => prop_assert!(false, "fast {:?} against brute force {:?}", a, b),
            }
        }
    }

    /// A layout and the same movers moved a little (each centre by up to
    /// `jitter` metres per axis, in a random order of magnitude), as from
    /// one step to the next.
    fn layout_and_next() -> impl Strategy<Value = (Vec<Mover>, Vec<Mover>, u32)> {
        layout().prop_flat_map(|(movers, impacts)| {
            let n = movers.len();
            (
                Just(movers),
                prop::collection::vec(prop::array::uniform3(-1.0..1.0f64), n),
                prop_oneof![Just(0.0f64), Just(1e-3), Just(0.3), Just(5.0)],
                Just(impacts),
            )
                .prop_map(|(movers, moves, jitter, impacts)| {
                    let mut next = movers.clone();
                    for (m, d) in next.iter_mut().zip(moves) {
                        for (k, dk) in d.iter().enumerate() {
                            m.alone.center[k] += dk * jitter;
                        }
                    }
                    (movers, next, impacts)
                })
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        /// A scratch kept from one step to the next (the last sort order,
        /// re-sorted by insertion, and grown storage) groups exactly as a
        /// fresh one: the same labels, regions, sizes and refusals, for
        /// layouts that moved a little, a lot, or changed their count.
        #[test]
        fn a_kept_scratch_groups_exactly_like_a_fresh_one(
            (movers, next, impacts) in layout_and_next(),
        ) {
            let dt = 1.0 / 60.0;
            let mut scratch = GroupScratch::default();
            let mut kept = Groups::default();
            let fewer = &next[..next.len() / 2];
            for step in [&movers[..], &next[..], &next[..], fewer, &movers[..]] {
                let kept_result =
                    form_groups_with(step, impacts, dt, &mut scratch, &mut kept);
                let fresh = form_groups(step, impacts, dt);
                match (kept_result, fresh) {
                    (Ok(()), Ok(g)) => {
                        prop_assert_eq!(&kept.label, &g.label);
                        prop_assert_eq!(format!("{:?}", kept.reach), format!("{:?}", g.reach));
                        prop_assert_eq!(&kept.size, &g.size);
                    }
                    (Err(a), Err(b)) => prop_assert_eq!(format!("{a:?}"), format!("{b:?}")),
                    (a, b) => prop_assert!(false, "kept {:?} against fresh {:?}", a, b),
                }
                // And both as testing every pair.
                match (brute_force_groups(step, impacts, dt), form_groups(step, impacts, dt)) {
                    (Ok((label, _)), Ok(g)) => prop_assert_eq!(label, g.label),
                    (Err(_), Err(_)) => {}
                    (a, b) => prop_assert!(false, "brute force {:?} against {:?}", a, b),
                }
            }
        }

        /// The insertion sort with its move budget sorts any order by key,
        /// nearly sorted or shuffled (the fallback).
        #[test]
        fn sorting_the_kept_order_sorts_by_key(
            keys in prop::collection::vec(-20i64..20, 0..80),
            swaps in prop::collection::vec((0usize..80, 0usize..80), 0..40),
        ) {
            let mut order: Vec<(i64, u32)> =
                keys.iter().enumerate().map(|(i, &k)| (k, i as u32)).collect();
            order.sort_unstable_by_key(|&(k, _)| k);
            let n = order.len();
            for (a, b) in swaps {
                if n > 0 {
                    order.swap(a % n, b % n);
                }
            }
            let mut expected = order.clone();
            sort_keys(&mut order, |e| e.0);
            prop_assert!(order.windows(2).all(|w| w[0].0 <= w[1].0));
            // The same entries (a permutation).
            expected.sort_unstable();
            let mut got = order.clone();
            got.sort_unstable();
            prop_assert_eq!(got, expected);
        }
    }

    fn sphere(index: usize, x: f64, energy: f64) -> Mover {
        let speed = speed_bound(energy, 1.0);
        let alone = alone_reach(Vec3d::new(x, 0.0, 0.0), 0.5, speed, 0.0, 0.1);
        Mover {
            index,
            alone,
            groupable: true,
            kinematic_speed: None,
            shape_bound: 0.5,
            mass: 1.0,
            energy,
            split_travel: 0.0,
        }
    }

    #[test]
    fn groups_grow_until_no_two_overlap() {
        let movers = [
            sphere(0, 0.0, 50.0),
            sphere(1, 1.0, 50.0),
            sphere(2, 3.4, 0.0),
        ];
        // Alone: 0.5 + 0.1 * 10 = 1.5 m; body 2 reaches 0.5 (+margin).
        let g = form_groups(&movers, 16, 0.1).unwrap();
        // Pair energy 100 J gives each 0.1 * sqrt(200) = 1.41 m + 0.5: 1.91
        // m, which reaches body 2's 0.5 m at 2.4 m from body 1.
        assert_eq!(g.label, vec![0, 0, 0]);
        let shared = g.shared(&movers);
        assert_eq!(shared.len(), 1);
        assert_eq!(shared.group(0), &[0, 1, 2]);
        let apart = [
            sphere(0, 0.0, 50.0),
            sphere(1, 1.0, 50.0),
            sphere(2, 9.0, 0.0),
        ];
        let g = form_groups(&apart, 16, 0.1).unwrap();
        assert_eq!(g.label, vec![0, 0, 2]);
        assert!(!g.is_shared(2));
    }

    #[test]
    fn a_body_that_cannot_share_a_group_is_refused_naming_the_other() {
        let mut movers = [sphere(3, 0.0, 50.0), sphere(5, 1.0, 50.0)];
        movers[1].groupable = false;
        let e = form_groups(&movers, 16, 0.1).unwrap_err();
        assert!(matches!(
            e,
            CcdError::Unsupported {
                body: 5,
                reason: UnsupportedReason::Interacting { other: 3, .. }
            }
        ));
    }

    #[test]
    fn kinematic_spheres_widen_the_reach_by_twice_their_speed_per_allowed_impact() {
        let kin = Mover {
            index: 1,
            alone: Reach {
                center: Vec3d::new(1.5, 0.0, 0.0),
                radius: 1.0,
            },
            groupable: true,
            kinematic_speed: Some(3.0),
            shape_bound: 0.5,
            mass: f64::INFINITY,
            energy: 0.0,
            split_travel: 0.0,
        };
        let movers = [sphere(0, 0.0, 0.0), kin];
        let g = form_groups(&movers, 4, 0.1).unwrap();
        assert_eq!(g.label, vec![0, 0]);
        // 2 * 3 m/s * 4 impacts * 1 dynamic member * 0.1 s = 2.4 m of travel.
        // dt = 0.1 is an f32 (0.1 + 1.5e-9): 24 m/s of it is 2.4 + 3.6e-8 m.
        let expected = 0.5 + CONTACT_MARGIN as f64 + 24.0 * (0.1f32 as f64);
        assert!(
            (g.reach[0].radius - expected).abs() < 1e-12,
            "{:?}",
            g.reach[0]
        );
    }
}
