//! The geometry check of the static mesh snapshot for SPHERE_MESH_CCD (see
//! docs/continuous-collision.md, "Supported worlds"): every snapshot
//! triangle (distant ones and ones whose owner has collisions disabled
//! included) passes the triangle check
//! ([`parapet_geometry::Triangle::validate`]: finite, within 1000000 m,
//! nonzero `f32` raw normal, not thinner than 1/1048576) before any CCD query
//! of the index, and the success is retained for that snapshot, so the check
//! costs O(1) per step afterwards.
//!
//! The world invalidates the cache whenever it adds or removes a mesh (the
//! check and the index are invalidated together); adding a sphere does not
//! touch it. A failed check is not retained: the next step checks the same
//! snapshot again and fails the same way. A success inside a step that is
//! later rolled back stays valid, because the immutable snapshot did not
//! change (see docs/continuous-collision.md, "Ordering, limits and
//! rollback").
//!
//! The same pass records the snapshot's largest triangle extent (the widest
//! side of any triangle's bounds), which bounds how far a candidate
//! triangle's vertices can lie from the region that found it
//! (`MeshSnapshotCache::largest_extent`, read by the bodies-alone sweeps).

use parapet_geometry::Triangle;
use parapet_math::Vec3;

use super::error::CcdError;

/// The retained result of the snapshot check.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub(crate) struct MeshSnapshotCache {
    validated: bool,
    full_checks: u64,
    /// The bits of the widest side (m) of any snapshot triangle's bounds,
    /// rounded up (bits, so that the cache stays `Eq`); meaningful when
    /// `validated`.
    largest_extent: u64,
}

impl MeshSnapshotCache {
    /// A cache that has checked nothing yet.
    pub(crate) fn new() -> Self {
        Self::default()
    }

    /// Forgets the check (a mesh was added or removed).
    pub(crate) fn invalidate(&mut self) {
        self.validated = false;
    }

    /// Whether the current snapshot has passed the check.
    pub(crate) fn is_validated(&self) -> bool {
        self.validated
    }

    /// The widest side (m) of the bounds of any triangle of the checked
    /// snapshot (the largest `max - min` of one coordinate over one
    /// triangle's vertices), rounded up; `None` until the snapshot passed
    /// its check. A triangle whose bounds meet a point `x` has every vertex
    /// within this distance of `x` on each axis.
    pub(crate) fn largest_extent(&self) -> Option<f64> {
        self.validated
            .then_some(f64::from_bits(self.largest_extent))
    }

    /// How many full checks ran since the cache was made (diagnostics: one
    /// per snapshot, not one per step).
    pub(crate) fn full_checks(&self) -> u64 {
        self.full_checks
    }

    /// Checks the snapshot unless it already passed. `meshes` yields each
    /// mesh body's index and its world triangles, in insertion order; it is
    /// not iterated at all when the snapshot passed before (O(1)).
    ///
    /// # Errors
    /// [`CcdError::InvalidTriangle`] naming the mesh body and the first
    /// failing triangle (its index in that body's mesh).
    pub(crate) fn ensure<'a>(
        &mut self,
        meshes: impl IntoIterator<Item = (usize, &'a [[Vec3; 3]])>,
    ) -> Result<(), CcdError> {
        if self.validated {
            return Ok(());
        }
        self.full_checks += 1;
        let mut largest = 0.0f64;
        for (body, triangles) in meshes {
            for (i, t) in triangles.iter().enumerate() {
                Triangle::new(t[0], t[1], t[2])
                    .validate(i)
                    .map_err(|error| CcdError::InvalidTriangle { body, error })?;
                largest = largest.max(triangle_extent(t));
            }
        }
        self.largest_extent = largest.to_bits();
        self.validated = true;
        Ok(())
    }
}

/// The widest side (m) of a (finite) triangle's bounds, rounded up: each
/// difference of two `f32` coordinates is formed in `f64` with at most one
/// rounding to nearest (relative `2^-53`), so widening the largest by
/// `2^-50` of itself bounds the exact value.
fn triangle_extent(t: &[Vec3; 3]) -> f64 {
    let lo = parapet_math::promote(t[0].inf(&t[1]).inf(&t[2]));
    let hi = parapet_math::promote(t[0].sup(&t[1]).sup(&t[2]));
    (hi - lo).max() * (1.0 + 1.0 / (1u64 << 50) as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn floor() -> Vec<[Vec3; 3]> {
        vec![[
            Vec3::new(-1.0, -1.0, 0.0),
            Vec3::new(1.0, -1.0, 0.0),
            Vec3::new(0.0, 1.0, 0.0),
        ]]
    }

    #[test]
    fn a_snapshot_is_checked_once_and_again_after_invalidation() {
        let mut cache = MeshSnapshotCache::new();
        let tris = floor();
        for _ in 0..5 {
            cache.ensure([(0, tris.as_slice())]).unwrap();
        }
        assert_eq!(cache.full_checks(), 1);
        cache.invalidate();
        assert!(!cache.is_validated());
        cache.ensure([(0, tris.as_slice())]).unwrap();
        assert_eq!(cache.full_checks(), 2);
    }

    #[test]
    fn the_largest_extent_is_the_widest_side_of_any_triangle() {
        let mut cache = MeshSnapshotCache::new();
        assert_eq!(cache.largest_extent(), None);
        let wide = vec![[
            Vec3::new(10.0, 0.0, 0.0),
            Vec3::new(13.0, 0.0, 0.5),
            Vec3::new(10.0, 1.0, 0.0),
        ]];
        let tris = floor();
        cache
            .ensure([(0, tris.as_slice()), (1, wide.as_slice())])
            .unwrap();
        // floor: 2 m on x and y; wide: 3 m on x. Rounded up by 2^-50 relative.
        let e = cache.largest_extent().unwrap();
        assert!((3.0..=3.0 * (1.0 + 1e-14)).contains(&e), "{e}");
        cache.invalidate();
        assert_eq!(cache.largest_extent(), None);
    }

    #[test]
    fn a_degenerate_triangle_anywhere_is_refused_every_time() {
        let mut cache = MeshSnapshotCache::new();
        let good = floor();
        let bad = vec![floor()[0], [Vec3::zeros(), Vec3::x(), Vec3::x() * 2.0]];
        for _ in 0..2 {
            let e = cache
                .ensure([(3, good.as_slice()), (4, bad.as_slice())])
                .unwrap_err();
            assert!(
                matches!(e, CcdError::InvalidTriangle { body: 4, error } if error.to_string().contains("triangle 1")),
                "{e}"
            );
        }
        assert!(!cache.is_validated());
        assert_eq!(cache.full_checks(), 2);
    }
}
