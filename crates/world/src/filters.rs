//! Which pairs of bodies interact: collision groups
//! ([`parapet_solver::CollisionGroups`], a property of each body) and the
//! world's per-pair exclusions ([`PhysicsWorld::ignore_pair`]), for the
//! parts of one machine (a chassis and its own wheels) that must never
//! touch whatever their groups say.
//!
//! # Method
//! One predicate, [`PhysicsWorld::pair_interacts`], answers for every place
//! a pair can meet (discrete contacts, the continuous step's candidates,
//! sensors); ray casts apply the groups rule to the ray's own groups. The
//! exclusions are a sorted set of id pairs (lower id first) with, per
//! slot, the ids its body is excluded with, so the predicate reads two
//! short lists (empty for a body with no exclusion), never the whole set.
//!
//! # Source
//! docs/physics.md, "Filters and sensors".
//!
//! # Precision domain
//! None: bit masks and ids.

use std::collections::BTreeSet;

use parapet_solver::RigidBody;

use crate::{BodyId, PhysicsWorld, WorldError};

/// The pairs a world excludes from interacting, each stored once, lower id
/// first, and per slot the ids its body is excluded with: a pair is
/// answered from the two slots' short lists (empty for almost every body),
/// never by a search of the whole set.
#[derive(Debug, Clone, Default)]
pub(crate) struct IgnoredPairs {
    pairs: BTreeSet<(BodyId, BodyId)>,
    /// Per slot, the bodies the body in it is excluded with.
    partners: Vec<Vec<BodyId>>,
}

impl PartialEq for IgnoredPairs {
    fn eq(&self, other: &Self) -> bool {
        // `partners` is a function of `pairs`, its length and order aside.
        self.pairs == other.pairs
    }
}

impl Eq for IgnoredPairs {}

/// The pair's key: lower id first.
fn key(a: BodyId, b: BodyId) -> (BodyId, BodyId) {
    (a.min(b), a.max(b))
}

impl IgnoredPairs {
    /// The bodies `id`'s slot is excluded with (empty for most).
    fn partners_of(&self, id: BodyId) -> &[BodyId] {
        self.partners
            .get(id.index() as usize)
            .map_or(&[], Vec::as_slice)
    }

    /// The partner list of `id`'s slot, grown to reach it.
    fn partners_mut(&mut self, id: BodyId) -> &mut Vec<BodyId> {
        let slot = id.index() as usize;
        if self.partners.len() <= slot {
            self.partners.resize_with(slot + 1, Vec::new);
        }
        &mut self.partners[slot]
    }

    /// Excludes the pair (no change when it already is).
    fn insert(&mut self, a: BodyId, b: BodyId) {
        if self.pairs.insert(key(a, b)) {
            self.partners_mut(a).push(b);
            self.partners_mut(b).push(a);
        }
    }

    /// Lets the pair interact again (no change when it was not excluded).
    fn remove(&mut self, a: BodyId, b: BodyId) {
        if self.pairs.remove(&key(a, b)) {
            self.partners_mut(a).retain(|&p| p != b);
            self.partners_mut(b).retain(|&p| p != a);
        }
    }

    /// Whether the pair is excluded.
    pub(crate) fn contains(&self, a: BodyId, b: BodyId) -> bool {
        let (pa, pb) = (self.partners_of(a), self.partners_of(b));
        if pa.len() <= pb.len() {
            pa.contains(&b)
        } else {
            pb.contains(&a)
        }
    }

    /// Forgets every pair that names `id` (a removed body).
    pub(crate) fn forget(&mut self, id: BodyId) {
        for other in self.partners_of(id).to_vec() {
            self.remove(id, other);
        }
    }

    /// The pairs in order (lower id first in each, pairs ascending).
    pub(crate) fn iter(&self) -> impl Iterator<Item = (BodyId, BodyId)> + '_ {
        self.pairs.iter().copied()
    }

    /// The set of `pairs` (each put lower id first).
    #[cfg_attr(not(feature = "serde"), allow(dead_code))]
    pub(crate) fn from_pairs(pairs: impl IntoIterator<Item = (BodyId, BodyId)>) -> Self {
        let mut set = Self::default();
        for (a, b) in pairs {
            set.insert(a, b);
        }
        set
    }
}

impl PhysicsWorld {
    /// The ids of a pair, both live and distinct.
    fn live_pair(&self, a: BodyId, b: BodyId) -> Result<(), WorldError> {
        for id in [a, b] {
            if self.entry(id).is_none() {
                return Err(WorldError::UnknownBody { body: id });
            }
        }
        if a == b {
            return Err(WorldError::SameBody { body: a });
        }
        Ok(())
    }

    /// Excludes the pair `a`, `b` from interacting, whatever their
    /// collision groups say: no contact, no continuous event, no refusal
    /// between them (the parts of one machine). Kept until
    /// [`PhysicsWorld::restore_pair`] or until either body is removed;
    /// excluding a pair twice is the same as once.
    ///
    /// # Errors
    /// [`WorldError::UnknownBody`] for an id that names no live body,
    /// [`WorldError::SameBody`] when `a == b`; the world is then unchanged.
    pub fn ignore_pair(&mut self, a: BodyId, b: BodyId) -> Result<(), WorldError> {
        self.live_pair(a, b)?;
        self.ignored_pairs.insert(a, b);
        self.wake_pair(a, b);
        Ok(())
    }

    /// Lets the pair `a`, `b` interact again as their collision groups say
    /// (undoes [`PhysicsWorld::ignore_pair`]; a pair that was not excluded
    /// stays as it is). Both bodies wake (as they do for `ignore_pair`).
    ///
    /// # Errors
    /// As [`PhysicsWorld::ignore_pair`]; the world is then unchanged.
    pub fn restore_pair(&mut self, a: BodyId, b: BodyId) -> Result<(), WorldError> {
        self.live_pair(a, b)?;
        self.ignored_pairs.remove(a, b);
        self.wake_pair(a, b);
        Ok(())
    }

    /// Wakes both bodies of a pair whose filter changed (their islands
    /// follow at the next step).
    fn wake_pair(&mut self, a: BodyId, b: BodyId) {
        for id in [a, b] {
            if let Some(body) = self.body_mut(id) {
                body.wake();
            }
        }
    }

    /// The pairs excluded by [`PhysicsWorld::ignore_pair`], each once with
    /// the lower id first, in ascending order.
    pub fn ignored_pairs(&self) -> impl Iterator<Item = (BodyId, BodyId)> + '_ {
        self.ignored_pairs.iter()
    }

    /// Whether the pair `a`, `b` is excluded by
    /// [`PhysicsWorld::ignore_pair`] (`false` for unknown ids).
    pub fn is_pair_ignored(&self, a: BodyId, b: BodyId) -> bool {
        self.ignored_pairs.contains(a, b)
    }

    /// Whether bodies `a` and `b` (ids and states) may interact: both
    /// collide, their collision groups accept each other, and the pair is
    /// not excluded. Sensors are not special here (a sensor reports the
    /// pairs this accepts; it never takes an impulse).
    pub(crate) fn pair_interacts(
        &self,
        a: BodyId,
        ra: &RigidBody,
        b: BodyId,
        rb: &RigidBody,
    ) -> bool {
        ra.collides()
            && rb.collides()
            && ra.collision_groups().interacts_with(rb.collision_groups())
            && !self.ignored_pairs.contains(a, b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use parapet_geometry::Shape;

    fn ball() -> RigidBody {
        RigidBody::new_dynamic(Shape::sphere(0.5).unwrap(), 1.0).unwrap()
    }

    /// Exclusions are symmetric, idempotent, refused for a body with itself
    /// or a stale id (the world unchanged), and forgotten with a removed body.
    #[test]
    fn exclusions_are_symmetric_checked_and_forgotten_on_removal() {
        let mut w = PhysicsWorld::new();
        let a = w.add_body(ball()).unwrap();
        let b = w.add_body(ball()).unwrap();
        let c = w.add_body(ball()).unwrap();
        w.ignore_pair(b, a).unwrap();
        w.ignore_pair(a, b).unwrap();
        assert!(w.is_pair_ignored(a, b) && w.is_pair_ignored(b, a));
        assert!(!w.is_pair_ignored(a, c));
        assert_eq!(w.ignore_pair(a, a), Err(WorldError::SameBody { body: a }));
        w.ignore_pair(a, c).unwrap();
        w.remove_body(c).unwrap();
        assert_eq!(
            w.ignore_pair(a, c),
            Err(WorldError::UnknownBody { body: c })
        );
        assert_eq!(w.ignored_pairs.iter().collect::<Vec<_>>(), vec![(a, b)]);
        w.restore_pair(b, a).unwrap();
        assert!(!w.is_pair_ignored(a, b));
        w.restore_pair(a, b).unwrap();
    }

    /// The per-slot partner lists follow the set: each slot lists exactly
    /// the bodies its body is excluded with, after exclusions,
    /// restorations, removals and a rebuild from the list; a body in a
    /// reused slot inherits no exclusion.
    #[test]
    fn slot_partners_follow_the_excluded_pairs() {
        let mut w = PhysicsWorld::new();
        let ids: Vec<BodyId> = (0..4).map(|_| w.add_body(ball()).unwrap()).collect();
        let listed = |w: &PhysicsWorld| {
            let p = &w.ignored_pairs;
            ids.iter().all(|&id| {
                let mut from_set: Vec<BodyId> = p
                    .iter()
                    .filter_map(|(a, b)| (a == id).then_some(b).or((b == id).then_some(a)))
                    .collect();
                let mut stored = p.partners_of(id).to_vec();
                from_set.sort_unstable();
                stored.sort_unstable();
                from_set == stored
            })
        };
        w.ignore_pair(ids[0], ids[1]).unwrap();
        w.ignore_pair(ids[0], ids[2]).unwrap();
        w.ignore_pair(ids[2], ids[0]).unwrap();
        w.ignore_pair(ids[3], ids[1]).unwrap();
        assert!(listed(&w));
        w.restore_pair(ids[1], ids[0]).unwrap();
        w.restore_pair(ids[1], ids[0]).unwrap();
        assert!(listed(&w));
        let rebuilt = IgnoredPairs::from_pairs(w.ignored_pairs.iter());
        assert_eq!(rebuilt, w.ignored_pairs);
        for &id in &ids {
            assert_eq!(rebuilt.partners_of(id), w.ignored_pairs.partners_of(id));
        }
        w.remove_body(ids[0]).unwrap();
        assert!(listed(&w));
        assert!(w.ignored_pairs.partners_of(ids[0]).is_empty());
        assert!(w.ignored_pairs.partners_of(ids[2]).is_empty());
        let reused = w.add_body(ball()).unwrap();
        assert_eq!(reused.index(), ids[0].index());
        assert!(!w.is_pair_ignored(reused, ids[2]));
        assert!(w.is_pair_ignored(ids[1], ids[3]) && w.is_pair_ignored(ids[3], ids[1]));
        assert!(!w.is_pair_ignored(ids[1], ids[2]));
    }
}
