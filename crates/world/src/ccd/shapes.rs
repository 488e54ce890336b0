//! Each body's moving shape for the continuous step
//! ([`parapet_narrow::moving::MovingShape`]), kept between steps
//! ([`ShapeCache`]) since building one allocates (a mesh builds a bounds
//! tree).
//!
//! # Method
//! A body's shape never changes (the body has no shape setter); its shape
//! offset can. The cache keeps, per slot, the body's id, the bits of its
//! offset and its moving shape, and rebuilds on any difference. A static
//! mesh inserted static is swept as the world-space triangle snapshot
//! captured by `add_body` (the triangles the discrete contacts use), its
//! own bounds tree built once, with the fixed identity motion
//! ([`SweptShape::world_frame`]); any other mesh (kinematic, or one whose
//! kind changed since insertion) moves rigidly with its body from its own
//! shape-frame triangles. A cache is never state: it changes no result
//! (the shape is a pure function of the key).
//!
//! # Precision domain
//! That of [`MovingShape::from_shape`].

use std::sync::Arc;

use parapet_geometry::bvh::{TriangleBoundsTree, MAX_TRIANGLES};
use parapet_math::{Quat, Quatd, Vec3, Vec3d};
use parapet_narrow::moving::{MeshSide, MovingShape, Refusal};
use parapet_solver::BodyKind;

use super::tolerances::inner_size;
use crate::entry::Entry;
use crate::BodyId;

/// A body's shape as the continuous step moves it.
#[derive(Debug, Clone)]
pub(crate) struct SweptShape {
    /// The moving shape (body frame, or world frame for a snapshot mesh).
    pub shape: Arc<MovingShape>,
    /// Its inner size (m, [`inner_size`]).
    pub inner: f64,
    /// Whether the shape is a static mesh's world-space snapshot: it moves
    /// with the fixed identity motion, not with its body's pose.
    pub world_frame: bool,
}

#[derive(Debug, Clone)]
struct Cached {
    id: BodyId,
    offset: [u32; 7],
    snapshot: bool,
    swept: SweptShape,
}

/// The moving shapes of the last steps, per slot (never state).
#[derive(Debug, Clone, Default)]
pub(crate) struct ShapeCache {
    slots: Vec<Option<Cached>>,
}

/// The bits of a shape offset.
fn offset_bits(position: Vec3, rotation: Quat) -> [u32; 7] {
    let q = rotation.into_inner();
    [position.x, position.y, position.z, q.i, q.j, q.k, q.w].map(f32::to_bits)
}

/// Whether `entry` is a static mesh swept as its insertion snapshot.
fn is_snapshot_mesh(entry: &Entry) -> bool {
    entry.mesh.is_some() && entry.body.kind() == BodyKind::Static
}

impl ShapeCache {
    /// The swept shape of `entry`, built or taken from the cache.
    ///
    /// # Errors
    /// The arbiter's [`Refusal`] for a shape it cannot move (a non-finite
    /// or far offset, a mesh beyond the bounds tree's limit, a shape kind
    /// it does not know).
    pub(crate) fn get(&mut self, entry: &Entry) -> Result<SweptShape, Refusal> {
        let slot = entry.id.index() as usize;
        let (position, rotation) = entry.body.shape_offset();
        let offset = offset_bits(position, rotation);
        let snapshot = is_snapshot_mesh(entry);
        if let Some(Some(c)) = self.slots.get(slot) {
            if c.id == entry.id && c.snapshot == snapshot && (snapshot || c.offset == offset) {
                return Ok(c.swept.clone());
            }
        }
        let swept = match (&entry.mesh, snapshot) {
            (Some(triangles), true) => {
                let tree =
                    TriangleBoundsTree::build(triangles).map_err(|_| Refusal::PrecisionDomain {
                        quantity: "mesh triangle count",
                        value: triangles.len() as f64,
                        limit: MAX_TRIANGLES as f64,
                    })?;
                let side = MeshSide::new(
                    triangles.clone(),
                    Arc::new(tree),
                    Vec3d::zeros(),
                    Quatd::identity(),
                );
                SweptShape {
                    shape: Arc::new(MovingShape::Mesh(side)),
                    inner: f64::INFINITY,
                    world_frame: true,
                }
            }
            _ => SweptShape {
                shape: Arc::new(MovingShape::from_shape(
                    entry.body.shape(),
                    position,
                    rotation,
                )?),
                inner: inner_size(entry.body.shape()),
                world_frame: false,
            },
        };
        if self.slots.len() <= slot {
            self.slots.resize(slot + 1, None);
        }
        self.slots[slot] = Some(Cached {
            id: entry.id,
            offset,
            snapshot,
            swept: swept.clone(),
        });
        Ok(swept)
    }

    /// Forgets the slots past `len` (the world released them).
    pub(crate) fn truncate(&mut self, len: usize) {
        self.slots.truncate(len);
    }
}
