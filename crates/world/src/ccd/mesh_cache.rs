//! The geometry check of the static mesh snapshot for SPHERE_MESH_CCD (seed
//! 000 "Supported worlds"): every snapshot triangle (distant ones and ones
//! whose owner has collisions disabled included) passes the seed 000 check
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
//! change (seed 000 "Ordering, limits and rollback").

use parapet_geometry::Triangle;
use parapet_math::Vec3;

use super::error::CcdError;

/// The retained result of the snapshot check.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MeshSnapshotCache {
    validated: bool,
    full_checks: u64,
}

impl MeshSnapshotCache {
    /// A cache that has checked nothing yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Forgets the check (a mesh was added or removed).
    pub fn invalidate(&mut self) {
        self.validated = false;
    }

    /// Whether the current snapshot has passed the check.
    pub fn is_validated(&self) -> bool {
        self.validated
    }

    /// How many full checks ran since the cache was made (diagnostics: one
    /// per snapshot, not one per step).
    pub fn full_checks(&self) -> u64 {
        self.full_checks
    }

    /// Checks the snapshot unless it already passed. `meshes` yields each
    /// mesh body's index and its world triangles, in insertion order; it is
    /// not iterated at all when the snapshot passed before (O(1)).
    ///
    /// # Errors
    /// [`CcdError::InvalidTriangle`] naming the mesh body and the first
    /// failing triangle (its index in that body's mesh).
    pub fn ensure<'a>(
        &mut self,
        meshes: impl IntoIterator<Item = (usize, &'a [[Vec3; 3]])>,
    ) -> Result<(), CcdError> {
        if self.validated {
            return Ok(());
        }
        self.full_checks += 1;
        for (body, triangles) in meshes {
            for (i, t) in triangles.iter().enumerate() {
                Triangle::new(t[0], t[1], t[2])
                    .validate(i)
                    .map_err(|error| CcdError::InvalidTriangle { body, error })?;
            }
        }
        self.validated = true;
        Ok(())
    }
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
