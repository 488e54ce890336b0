//! The static mesh index: one triangle bounds tree over the world-space
//! triangle snapshots of every mesh body, with each triangle's owner and its
//! index in the owner's mesh. Mesh geometry is the immutable world-space
//! triangles captured by `add_body` (see docs/continuous-collision.md,
//! "Supported worlds" and "Performance").
//!
//! The global triangle order is the mesh bodies' insertion order, then each
//! mesh's triangle order, so ascending global indices (what the tree returns)
//! are insertion order. The index is rebuilt lazily: adding or removing a
//! mesh sets the dirty flag (a removal also frees the stale arrays at once),
//! and the next step rebuilds before its first query. Rays use the tree when
//! it is clean and scan the snapshots otherwise, with the same answers.

use std::sync::Arc;

use parapet_geometry::bvh::{BvhError, TriangleBoundsTree};
use parapet_math::Vec3;

/// The index over all static mesh snapshots.
#[derive(Debug, Clone, Default)]
pub(crate) struct MeshIndex {
    /// World-space triangles, mesh bodies in insertion order.
    triangles: Vec<[Vec3; 3]>,
    /// Owner slot of each triangle.
    owners: Vec<u32>,
    /// Index of each triangle in its owner's mesh.
    local: Vec<u32>,
    /// The tree over `triangles`; `None` until the first build and after a removal.
    tree: Option<TriangleBoundsTree>,
    /// Whether a mesh was added or removed since the last build.
    dirty: bool,
}

impl MeshIndex {
    /// Marks the index stale (a mesh was added).
    pub fn mark_dirty(&mut self) {
        self.dirty = true;
    }

    /// Marks the index stale and frees its arrays (a mesh was removed: its
    /// triangles must not stay reachable).
    pub fn invalidate(&mut self) {
        *self = Self {
            dirty: true,
            ..Self::default()
        };
    }

    /// Whether the next query needs a rebuild.
    pub fn is_dirty(&self) -> bool {
        self.dirty
    }

    /// Restores the dirty flag (rollback).
    pub fn set_dirty(&mut self, dirty: bool) {
        self.dirty = dirty;
    }

    /// Rebuilds from `meshes`: each owner slot and its snapshot, in insertion order.
    ///
    /// # Errors
    /// The tree's [`BvhError`]; the index is then left dirty and empty.
    pub fn rebuild<'a>(
        &mut self,
        meshes: impl Iterator<Item = (u32, &'a Arc<[[Vec3; 3]]>)>,
    ) -> Result<(), BvhError> {
        let mut triangles = Vec::new();
        let mut owners = Vec::new();
        let mut local = Vec::new();
        for (slot, snapshot) in meshes {
            for (i, t) in snapshot.iter().enumerate() {
                triangles.push(*t);
                owners.push(slot);
                local.push(i as u32);
            }
        }
        match TriangleBoundsTree::build(&triangles) {
            Ok(tree) => {
                *self = Self {
                    triangles,
                    owners,
                    local,
                    tree: Some(tree),
                    dirty: false,
                };
                Ok(())
            }
            Err(e) => {
                self.invalidate();
                Err(e)
            }
        }
    }

    /// The world-space triangles (global insertion order).
    pub fn triangles(&self) -> &[[Vec3; 3]] {
        &self.triangles
    }

    /// The owner slot of global triangle `i`.
    pub fn owner(&self, i: usize) -> u32 {
        self.owners[i]
    }

    /// The index of global triangle `i` in its owner's mesh.
    pub fn local_index(&self, i: usize) -> u32 {
        self.local[i]
    }

    /// The tree, when built and not dirty.
    pub fn tree(&self) -> Option<&TriangleBoundsTree> {
        if self.dirty {
            None
        } else {
            self.tree.as_ref()
        }
    }
}
