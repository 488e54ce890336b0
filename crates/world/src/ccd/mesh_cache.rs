//! The validated mesh snapshot of SPHERE_MESH_CCD (seed 000 "Supported
//! worlds"): every snapshot triangle (distant ones and ones whose owner has
//! collisions disabled included) passes the seed 000 geometry check once,
//! and only then is the bounds tree built. Both are retained for that
//! snapshot, so the check costs O(1) per step afterwards.
//!
//! The world names each snapshot by a generation number that it changes
//! whenever it adds a mesh (adding a mesh invalidates the check and the index
//! together; adding a sphere changes neither). A failed check is not
//! retained: the next step checks the same snapshot again and fails the same
//! way, so a rolled-back step leaves nothing behind but possibly an allocated
//! index (seed 000 "Ordering, limits and rollback").

use parapet_geometry::bvh::TriangleBoundsTree;
use parapet_geometry::Triangle;
use parapet_math::Vec3;

use super::error::CcdError;

/// The retained result of the geometry check and the tree of one snapshot.
#[derive(Debug, Clone, Default)]
pub struct MeshSnapshotCache {
    /// The generation and tree of the last snapshot that passed the check.
    validated: Option<(u64, TriangleBoundsTree)>,
    /// How many full checks ran (diagnostics: the check is O(1) per step
    /// once a snapshot passed).
    full_checks: u64,
}

impl MeshSnapshotCache {
    /// An empty cache: the next [`MeshSnapshotCache::ensure`] checks.
    pub fn new() -> Self {
        Self::default()
    }

    /// Forgets the check and the index together (the world adds a mesh).
    pub fn invalidate(&mut self) {
        self.validated = None;
    }

    /// Whether the snapshot of `generation` has passed the check.
    pub fn is_validated(&self, generation: u64) -> bool {
        matches!(&self.validated, Some((g, _)) if *g == generation)
    }

    /// How many full geometry checks ran since the cache was made.
    pub fn full_checks(&self) -> u64 {
        self.full_checks
    }

    /// The bounds tree of the snapshot of `generation`, checking every
    /// triangle and building the tree first if this snapshot has not passed
    /// yet. `owners[i]` is the body index of triangle `i` (for messages).
    ///
    /// # Errors
    /// [`CcdError::InvalidTriangle`] naming the first failing triangle (its
    /// snapshot index) and its mesh body.
    pub fn ensure(
        &mut self,
        generation: u64,
        triangles: &[[Vec3; 3]],
        owners: &[usize],
    ) -> Result<&TriangleBoundsTree, CcdError> {
        if !self.is_validated(generation) {
            self.validated = None;
            self.full_checks += 1;
            for (i, t) in triangles.iter().enumerate() {
                Triangle::new(t[0], t[1], t[2])
                    .validate(i)
                    .map_err(|error| CcdError::InvalidTriangle {
                        body: owners.get(i).copied().unwrap_or(usize::MAX),
                        error,
                    })?;
            }
            // The check above refuses non-finite vertices, the only input
            // the build refuses besides a count beyond u32 indices.
            let tree = TriangleBoundsTree::build(triangles).map_err(|_| CcdError::Precision {
                body: owners.first().copied().unwrap_or(usize::MAX),
                quantity: "mesh snapshot triangle count",
                value: triangles.len() as f64,
                limit: parapet_geometry::bvh::MAX_TRIANGLES as f64,
            })?;
            self.validated = Some((generation, tree));
        }
        match &self.validated {
            Some((_, tree)) => Ok(tree),
            None => Err(CcdError::Precision {
                body: usize::MAX,
                quantity: "mesh snapshot",
                value: f64::NAN,
                limit: 0.0,
            }),
        }
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
            cache.ensure(1, &tris, &[0]).unwrap();
        }
        assert_eq!(cache.full_checks(), 1);
        cache.invalidate();
        assert!(!cache.is_validated(1));
        cache.ensure(1, &tris, &[0]).unwrap();
        assert_eq!(cache.full_checks(), 2);
        cache.ensure(2, &tris, &[0]).unwrap();
        assert_eq!(cache.full_checks(), 3);
    }

    #[test]
    fn a_degenerate_triangle_anywhere_is_refused_every_time() {
        let mut cache = MeshSnapshotCache::new();
        let mut tris = floor();
        tris.push([Vec3::zeros(), Vec3::x(), Vec3::x() * 2.0]);
        for _ in 0..2 {
            let e = cache.ensure(7, &tris, &[3, 4]).unwrap_err();
            assert!(matches!(e, CcdError::InvalidTriangle { body: 4, .. }), "{e}");
        }
        assert!(!cache.is_validated(7));
        assert_eq!(cache.full_checks(), 2);
    }
}
