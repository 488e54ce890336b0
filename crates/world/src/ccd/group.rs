//! Moving-body groups and their reach (see docs/continuous-collision.md,
//! "Supported worlds", "Moving groups" and "Performance").
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

mod candidates;
pub(crate) mod gap;

use parapet_math::rounding::{add_up, mul_up};
use parapet_narrow::solid::ConvexSolid;
use parapet_solver::contact::CONTACT_MARGIN;

use super::error::{CcdError, UnsupportedReason};
use super::reach::{overlaps, speed_bound, Reach};
use candidates::{candidate_pairs, SweepScratch};
pub(crate) use gap::{Core, CoreShape};

/// The shared groups of one step ([`Groups::shared`]): the member
/// positions of every group one after the other, one list with the end of
/// each group, so that listing them allocates nothing once grown.
#[derive(Debug, Clone, Default)]
pub(crate) struct SharedGroups {
    /// Member positions (input order of the movers), group after group.
    members: Vec<usize>,
    /// Per group: the end of its members in `members`.
    ends: Vec<usize>,
    /// Per group label: where its next member goes (working storage).
    cursor: Vec<usize>,
}

impl SharedGroups {
    /// The number of groups.
    pub(crate) fn len(&self) -> usize {
        self.ends.len()
    }

    /// Group `g`'s member positions, ascending. Panics when `g >= len()`.
    pub(crate) fn group(&self, g: usize) -> &[usize] {
        let start = if g == 0 { 0 } else { self.ends[g - 1] };
        &self.members[start..self.ends[g]]
    }

    /// The groups in order.
    pub(crate) fn iter(&self) -> impl ExactSizeIterator<Item = &[usize]> + '_ {
        (0..self.len()).map(|g| self.group(g))
    }

    /// Appends a group (its member positions).
    #[cfg(test)]
    pub(crate) fn push(&mut self, group: &[usize]) {
        self.members.extend_from_slice(group);
        self.ends.push(self.members.len());
    }

    /// Removes every group, keeping the storage.
    pub(crate) fn clear(&mut self) {
        self.members.clear();
        self.ends.clear();
    }
}

/// One moving body as the grouping sees it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Mover {
    /// The body's index (slot).
    pub(crate) index: usize,
    /// Its reach when alone.
    pub(crate) alone: Reach,
    /// Whether it may share a group: a centred sphere, a centred capsule
    /// that cannot turn, or a kinematic sphere.
    pub(crate) groupable: bool,
    /// `Some(|v|)` (m/s) for a kinematic sphere.
    pub(crate) kinematic_speed: Option<f64>,
    /// Dynamic bodies: the shape bound around [`Reach::center`] (m).
    pub(crate) shape_bound: f64,
    /// Dynamic bodies: mass (kg).
    pub(crate) mass: f64,
    /// Dynamic bodies: bound energy after forces and solve (J).
    pub(crate) energy: f64,
    /// Dynamic bodies: split-correction travel this step (m).
    pub(crate) split_travel: f64,
    /// Its shape for the meeting test ([`gap::apart`]).
    pub(crate) core: Core,
}

/// The shape-frame solid of a mover's polytope core, by body index.
pub(crate) type Solids<'s> = dyn Fn(usize) -> Option<&'s ConvexSolid> + 's;

/// Whether movers `i` and `j` with regions `reach` can meet within the
/// step: their reach balls overlap ([`overlaps`]) and their shapes are not
/// shown apart by [`gap::apart`]. Either test alone proves a pair apart
/// (docs/continuous-collision.md, "Moving groups").
fn can_meet(movers: &[Mover], reach: &[Reach], i: usize, j: usize, solids: &Solids<'_>) -> bool {
    if !overlaps(&reach[i], &reach[j]) {
        return false;
    }
    let (a, b) = (&movers[i], &movers[j]);
    let solid = |m: &Mover| match m.core.shape {
        CoreShape::Solid { .. } => solids(m.index),
        _ => None,
    };
    !gap::apart(
        &a.core,
        reach[i].radius,
        solid(a),
        &b.core,
        reach[j].radius,
        solid(b),
    )
}

/// The groups of one step.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Groups {
    /// Per mover (same order as the input): its group's label, the
    /// position of the group's first mover.
    pub(crate) label: Vec<usize>,
    /// Per mover: its reach inside its group.
    pub(crate) reach: Vec<Reach>,
    /// Per mover position: the number of movers in the group it labels
    /// (zero for a position that labels no group).
    pub(crate) size: Vec<usize>,
}

impl Groups {
    /// The groups of more than one mover that hold a dynamic body, each as
    /// the positions of its movers in input order; groups come in the order
    /// of their lowest member. `O(B)`.
    #[cfg(test)]
    pub(crate) fn shared(&self, movers: &[Mover]) -> SharedGroups {
        let mut out = SharedGroups::default();
        self.shared_into(movers, &mut out);
        out
    }

    /// [`Groups::shared`] into `out` (its storage reused).
    pub(crate) fn shared_into(&self, movers: &[Mover], out: &mut SharedGroups) {
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
    pub(crate) fn is_shared(&self, i: usize) -> bool {
        self.size[self.label[i]] > 1
    }
}

/// The reach of dynamic mover `m` with the speed bound `speed` (m/s).
#[cfg(test)]
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
#[cfg(test)]
pub(crate) fn form_groups(movers: &[Mover], max_impacts: u32, dt: f32) -> Result<Groups, CcdError> {
    let mut groups = Groups::default();
    form_groups_with(
        movers,
        max_impacts,
        dt,
        &|_| None,
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
pub(crate) struct GroupScratch {
    parent: Vec<usize>,
    fresh: Vec<bool>,
    pairs: Vec<(usize, usize)>,
    bounds: Vec<Option<([f64; 3], [f64; 3])>>,
    sweep: SweepScratch,
    sums: GroupSums,
    next: Vec<Reach>,
    /// The pair tests ([`can_meet`]) of the last call (a count, for
    /// [`crate::ccd::CcdWork`]).
    pub(crate) tests: u64,
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
pub(crate) fn form_groups_with(
    movers: &[Mover],
    max_impacts: u32,
    dt: f32,
    solids: &Solids<'_>,
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
        tests,
    } = scratch;
    *tests = 0;
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
            *tests += 1;
            if can_meet(movers, reach, i, j, solids) {
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
                && can_meet(movers, reach, i, j, solids)
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
#[cfg(test)]
pub(crate) fn alone_reach(
    center: parapet_math::Vec3d,
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
        core: Core::BALL,
    };
    reach_with(&m, speed, dt as f64)
}

#[cfg(test)]
mod tests;
