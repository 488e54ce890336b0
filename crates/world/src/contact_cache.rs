//! The warm-starting contact cache: the impulses each contact point
//! accumulated in the last successful step, found again in the next step by
//! (body_a, body_b, feature) and the nearest point (Catto 2005, "Iterative
//! Dynamics with Temporal Coherence": warm starting lets a sequential-impulse
//! solver carry its answer over steps, which stacks need).
//!
//! The narrow phase gives no stable per-point feature ids, so a new point
//! takes the impulses of the nearest cached point of the same body pair and
//! feature (triangle, or 0 for a primitive pair) within
//! [`WARM_START_MATCH_DISTANCE`]. The cache is part of the step's rollback
//! snapshot; removal of a body drops its entries; the entries of sleeping
//! bodies are kept while they sleep.
//!
//! Every cached impulse is a finite `f32`: the contact stage refuses a step
//! whose impulses are beyond `f32` before it writes the cache, so a failed
//! step restores a cache that a later step can always read. A cached
//! impulse is only a guess: when it leads the solve beyond `f32` (a body
//! whose mass the user changed since), the stage solves again without it.

use parapet_math::Vec3;

use crate::BodyId;

/// How far (m) a contact point may move between two steps and still inherit
/// the previous point's impulses: the contact margin
/// ([`parapet_solver::contact::CONTACT_MARGIN`]). Resting and slowly sliding
/// contacts move far less; a point that moved more is a new contact, for
/// which last step's impulse is no estimate.
pub const WARM_START_MATCH_DISTANCE: f32 = parapet_solver::contact::CONTACT_MARGIN;

/// One cached point.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub(crate) struct CachedPoint {
    /// (body_a, body_b, feature).
    pub key: (BodyId, BodyId, u32),
    /// The contact point (m, world).
    pub point: Vec3,
    /// Accumulated normal impulse (N s).
    pub normal_impulse: f32,
    /// Accumulated friction impulse on B (N s, world).
    pub tangent_impulse: Vec3,
}

/// The cache, sorted by key.
#[derive(Debug, Clone, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub(crate) struct ContactCache {
    points: Vec<CachedPoint>,
}

impl ContactCache {
    /// A cache of `points` (sorted here by key, stably).
    pub fn new(mut points: Vec<CachedPoint>) -> ContactCache {
        points.sort_by_key(|p| p.key);
        ContactCache { points }
    }

    /// The impulses (normal, tangent) of the cached point nearest to `point`
    /// with the same key, within [`WARM_START_MATCH_DISTANCE`]; zeros when
    /// there is none. Ties go to the earlier cached point.
    pub fn warm_start(&self, key: (BodyId, BodyId, u32), point: Vec3) -> (f32, Vec3) {
        let start = self.points.partition_point(|p| p.key < key);
        let mut best: Option<(f32, &CachedPoint)> = None;
        for p in self.points[start..].iter().take_while(|p| p.key == key) {
            let d = (p.point - point).norm();
            if d <= WARM_START_MATCH_DISTANCE && best.is_none_or(|(b, _)| d < b) {
                best = Some((d, p));
            }
        }
        best.map_or((0.0, Vec3::zeros()), |(_, p)| {
            (p.normal_impulse, p.tangent_impulse)
        })
    }

    /// The entries of the pairs in which `asleep` holds for either body:
    /// the contacts of sleeping bodies, which the contact stage does not
    /// test while they sleep, kept so that they warm-start again when the
    /// bodies wake (a woken stack starts from the impulses that held it).
    pub fn sleeping_entries(&self, asleep: impl Fn(BodyId) -> bool) -> Vec<CachedPoint> {
        self.points
            .iter()
            .filter(|p| asleep(p.key.0) || asleep(p.key.1))
            .copied()
            .collect()
    }

    /// Whether the cache holds no point (nothing can be warm-started).
    pub fn is_empty(&self) -> bool {
        self.points.is_empty()
    }

    /// Drops every entry of `body`.
    pub fn forget(&mut self, body: BodyId) {
        self.points.retain(|p| p.key.0 != body && p.key.1 != body);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_nearest_point_of_the_same_key_is_inherited() {
        let (a, b, c) = (BodyId::new(0, 1), BodyId::new(1, 2), BodyId::new(2, 3));
        let cache = ContactCache::new(vec![
            CachedPoint {
                key: (a, b, 7),
                point: Vec3::new(1.0, 0.0, 0.0),
                normal_impulse: 2.0,
                tangent_impulse: Vec3::x(),
            },
            CachedPoint {
                key: (a, b, 7),
                point: Vec3::new(0.0, 0.0, 0.0),
                normal_impulse: 1.0,
                tangent_impulse: Vec3::y(),
            },
        ]);
        assert_eq!(
            cache.warm_start((a, b, 7), Vec3::new(0.01, 0.0, 0.0)),
            (1.0, Vec3::y())
        );
        assert_eq!(
            cache.warm_start((a, b, 8), Vec3::zeros()),
            (0.0, Vec3::zeros())
        );
        assert_eq!(
            cache.warm_start((a, c, 7), Vec3::zeros()),
            (0.0, Vec3::zeros())
        );
        // Too far from both.
        assert_eq!(
            cache.warm_start((a, b, 7), Vec3::new(0.5, 0.0, 0.0)),
            (0.0, Vec3::zeros())
        );
        let mut cache = cache;
        cache.forget(b);
        assert_eq!(
            cache.warm_start((a, b, 7), Vec3::zeros()),
            (0.0, Vec3::zeros())
        );
    }
}
