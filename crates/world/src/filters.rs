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
//! exclusions are a sorted set of id pairs (lower id first), so the
//! predicate costs one set lookup only when the set is not empty.
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
/// first.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct IgnoredPairs(BTreeSet<(BodyId, BodyId)>);

/// The pair's key: lower id first.
fn key(a: BodyId, b: BodyId) -> (BodyId, BodyId) {
    (a.min(b), a.max(b))
}

impl IgnoredPairs {
    /// Whether the pair is excluded.
    pub(crate) fn contains(&self, a: BodyId, b: BodyId) -> bool {
        !self.0.is_empty() && self.0.contains(&key(a, b))
    }

    /// Forgets every pair that names `id` (a removed body).
    pub(crate) fn forget(&mut self, id: BodyId) {
        if !self.0.is_empty() {
            self.0.retain(|&(a, b)| a != id && b != id);
        }
    }

    /// The pairs in order (lower id first in each, pairs ascending).
    pub(crate) fn iter(&self) -> impl Iterator<Item = (BodyId, BodyId)> + '_ {
        self.0.iter().copied()
    }

    /// The set of `pairs` (each put lower id first).
    #[cfg_attr(not(feature = "serde"), allow(dead_code))]
    pub(crate) fn from_pairs(pairs: impl IntoIterator<Item = (BodyId, BodyId)>) -> Self {
        Self(pairs.into_iter().map(|(a, b)| key(a, b)).collect())
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
        self.ignored_pairs.0.insert(key(a, b));
        Ok(())
    }

    /// Lets the pair `a`, `b` interact again as their collision groups say
    /// (undoes [`PhysicsWorld::ignore_pair`]; a pair that was not excluded
    /// stays as it is).
    ///
    /// # Errors
    /// As [`PhysicsWorld::ignore_pair`]; the world is then unchanged.
    pub fn restore_pair(&mut self, a: BodyId, b: BodyId) -> Result<(), WorldError> {
        self.live_pair(a, b)?;
        self.ignored_pairs.0.remove(&key(a, b));
        Ok(())
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
}
