//! Which bodies can meet in the rest of the step: every body's swept
//! bounds (its shape's box swept along its motion, [`swept_box`]), the
//! initial pairs from the broad phase the discrete step uses
//! ([`crate::broad_phase::overlapping_pairs`]), the islands they join
//! ([`islands`]) and an index of the initial boxes for the queries an
//! impact makes ([`BoxIndex`]).
//!
//! # Method
//! A pair is a candidate when the two swept boxes overlap, at least one
//! body is a mover and the pair interacts (collisions on, collision groups,
//! exclusions: `crate::filters`). Every pair that could meet is a
//! candidate: the boxes contain everything each body covers over the rest
//! of the step, grown by [`CANDIDATE_GROWTH`]. An `Auto` obstacle whose box
//! meets a mover's becomes a mover (repeated until none does). Movers joined
//! by candidate pairs form an island; obstacles and static bodies join
//! nothing (they take no impulse, so what one island does to them cannot
//! reach another).
//!
//! # Source
//! docs/continuous-collision.md, "How a step works" (the proof sketch of
//! why no pair that can meet is missed).
//!
//! # Precision domain
//! The boxes are the arbiter's conservative swept bounds, outward-rounded.

use parapet_geometry::Aabbd;
use parapet_narrow::moving::swept_bounds;

use super::bodies::StepBody;
use super::policy::Role;
use super::tolerances::CONTACT_TOLERANCE;
use crate::broad_phase::{overlapping_pairs, BroadBox};

/// How much (m) every swept box is grown: four contact tolerances, so that
/// a pair that comes within the arbiter's tolerance of touching is a
/// candidate (the boxes are conservative already; this covers the
/// tolerance band of the target).
pub const CANDIDATE_GROWTH: f64 = 4.0 * CONTACT_TOLERANCE;

/// The box of `body` over step times `[from, dt]` (grown by
/// [`CANDIDATE_GROWTH`]).
pub(crate) fn swept_box(body: &StepBody, from: f64, dt: f64) -> Aabbd {
    let motion = body.motion_from(from);
    swept_bounds(&body.swept.shape, &motion, 0.0, (dt - from).max(0.0)).grown(CANDIDATE_GROWTH)
}

/// Whether two closed boxes overlap.
pub(crate) fn overlap(a: &Aabbd, b: &Aabbd) -> bool {
    (0..3).all(|k| a.min[k] <= b.max[k] && b.min[k] <= a.max[k])
}

/// The candidate pairs `(i, j)`, `i < j` (indices of `bodies`), of the
/// step's start, after the `Auto` obstacles that meet a mover became
/// movers (their roles are updated in `bodies`). `interacts(i, j)` is the
/// pair filter.
pub(crate) fn initial_pairs(
    bodies: &mut [StepBody],
    boxes: &[Aabbd],
    interacts: &dyn Fn(usize, usize) -> bool,
) -> Vec<(usize, usize)> {
    let broad: Vec<BroadBox> = boxes
        .iter()
        .zip(bodies.iter())
        .map(|(b, body)| BroadBox {
            bounds: *b,
            movable: body.role.is_mover() || body.role == (Role::Obstacle { auto: true }),
        })
        .collect();
    let all: Vec<(usize, usize)> = overlapping_pairs(&broad)
        .into_iter()
        .filter(|&(i, j)| interacts(i, j))
        .collect();
    // Auto obstacles that meet a mover become movers, until none does.
    loop {
        let mut changed = false;
        for &(i, j) in &all {
            for (x, y) in [(i, j), (j, i)] {
                if bodies[x].role == (Role::Obstacle { auto: true }) && bodies[y].role.is_mover() {
                    bodies[x].role = Role::Mover { auto: true };
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
    all.into_iter()
        .filter(|&(i, j)| bodies[i].role.is_mover() || bodies[j].role.is_mover())
        .collect()
}

/// The islands of the movers joined by `pairs`: for each body its island
/// (`usize::MAX` for a body that is not a mover), and each island's movers
/// in ascending index; islands are numbered in the order of their lowest
/// mover.
pub(crate) fn islands(
    bodies: &[StepBody],
    pairs: &[(usize, usize)],
) -> (Vec<usize>, Vec<Vec<usize>>) {
    let n = bodies.len();
    let mut parent: Vec<usize> = (0..n).collect();
    fn find(parent: &mut [usize], mut x: usize) -> usize {
        while parent[x] != x {
            parent[x] = parent[parent[x]];
            x = parent[x];
        }
        x
    }
    for &(i, j) in pairs {
        if bodies[i].role.is_mover() && bodies[j].role.is_mover() {
            let (a, b) = (find(&mut parent, i), find(&mut parent, j));
            if a != b {
                parent[a.max(b)] = a.min(b);
            }
        }
    }
    let mut island_of = vec![usize::MAX; n];
    let mut members: Vec<Vec<usize>> = Vec::new();
    let mut root_island = vec![usize::MAX; n];
    for i in 0..n {
        if !bodies[i].role.is_mover() {
            continue;
        }
        let r = find(&mut parent, i);
        if root_island[r] == usize::MAX {
            root_island[r] = members.len();
            members.push(Vec::new());
        }
        island_of[i] = root_island[r];
        members[root_island[r]].push(i);
    }
    (island_of, members)
}

/// The initial boxes sorted by their lower x bound, for the box queries of
/// an island's impacts.
#[derive(Debug, Clone, Default)]
pub(crate) struct BoxIndex {
    /// Body indices by ascending lower x bound.
    order: Vec<usize>,
    /// Their lower x bounds, ascending.
    min_x: Vec<f64>,
    /// The widest box along x.
    widest: f64,
}

impl BoxIndex {
    /// The index of `boxes`, leaving out the bodies `skip` says.
    pub(crate) fn new(boxes: &[Aabbd], skip: impl Fn(usize) -> bool) -> BoxIndex {
        let mut order: Vec<usize> = (0..boxes.len()).filter(|&i| !skip(i)).collect();
        order.sort_by(|&a, &b| boxes[a].min.x.total_cmp(&boxes[b].min.x).then(a.cmp(&b)));
        let min_x = order.iter().map(|&i| boxes[i].min.x).collect();
        let widest = order
            .iter()
            .map(|&i| boxes[i].max.x - boxes[i].min.x)
            .fold(0.0f64, f64::max);
        BoxIndex {
            order,
            min_x,
            widest,
        }
    }

    /// Every indexed body whose box overlaps `query`, in ascending index.
    pub(crate) fn query(&self, boxes: &[Aabbd], query: &Aabbd, out: &mut Vec<usize>) {
        out.clear();
        let lo = self
            .min_x
            .partition_point(|&x| x < query.min.x - self.widest);
        let hi = self.min_x.partition_point(|&x| x <= query.max.x);
        for &i in &self.order[lo..hi] {
            if overlap(&boxes[i], query) {
                out.push(i);
            }
        }
        out.sort_unstable();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use parapet_math::Vec3d;

    fn cube(x: f64) -> Aabbd {
        Aabbd::new(Vec3d::new(x, 0.0, 0.0), Vec3d::new(x + 1.0, 1.0, 1.0))
    }

    /// The index finds exactly the overlapping boxes, whatever their width.
    #[test]
    fn the_box_index_finds_every_overlap() {
        let mut boxes: Vec<Aabbd> = (0..20).map(|i| cube(i as f64 * 0.7)).collect();
        boxes.push(Aabbd::new(
            Vec3d::new(-5.0, 0.0, 0.0),
            Vec3d::new(30.0, 0.5, 0.5),
        ));
        let index = BoxIndex::new(&boxes, |i| i == 3);
        let mut out = Vec::new();
        for q in 0..25 {
            let query = cube(q as f64 * 0.6 - 1.0);
            index.query(&boxes, &query, &mut out);
            let expected: Vec<usize> = (0..boxes.len())
                .filter(|&i| i != 3 && overlap(&boxes[i], &query))
                .collect();
            assert_eq!(out, expected, "query {q}");
        }
    }
}
