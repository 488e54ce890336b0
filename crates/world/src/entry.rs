//! One live body of a world: its id, its state and, for a mesh, the
//! world-space triangles captured when it was added.

use std::sync::Arc;

use parapet_math::Vec3;
use parapet_solver::RigidBody;

use crate::BodyId;

/// One live body.
#[derive(Debug, Clone)]
pub(crate) struct Entry {
    pub id: BodyId,
    pub body: RigidBody,
    /// The world-space triangles captured at insertion (mesh bodies only).
    pub mesh: Option<Arc<[[Vec3; 3]]>>,
}
