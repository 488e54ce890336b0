//! The hook between the discrete contact stage and the continuous stage:
//! each contact point the contact stage finds is shown to a deferral
//! predicate as a [`ContactQuery`], and a contact the predicate takes is
//! left to the continuous sweeps instead of the impulse solve.
//! [`keep_every_contact`] is the discrete mode's predicate.
//!
//! # Method
//! Plain data read by a predicate; the contact stage and the continuous
//! stage both depend on this file and on neither other.
//!
//! # Source
//! docs/continuous-collision.md, "How a step works" (which contacts the
//! sweep takes) and "Moving groups" (pair routing).
//!
//! # Precision domain
//! None: the query carries the contact stage's values unchanged.

use parapet_math::Vec3;
use parapet_solver::RigidBody;

use crate::BodyId;

/// A speculative or touching contact point, as the deferral predicate sees
/// it: the hook of the continuous stage, which takes over a negative-depth
/// mesh contact whose closing travel exceeds the margin, and a primitive
/// pair closing faster than the margin per step (see
/// docs/continuous-collision.md, "How a step works" and "Moving groups").
// The discrete predicate reads none of the fields; the continuous stage's
// predicate reads them all.
#[allow(dead_code)]
#[derive(Debug, Clone, Copy)]
pub(crate) struct ContactQuery<'a> {
    /// The moving body: body A of a primitive pair, the solid of a mesh contact.
    pub body: BodyId,
    /// Its state after the force stage.
    pub rigid: &'a RigidBody,
    /// The other body: B of a primitive pair, the mesh's owner.
    pub other: BodyId,
    /// Its state after the force stage.
    pub other_rigid: &'a RigidBody,
    /// The triangle's global index in the mesh index, `None` for a primitive pair.
    pub triangle: Option<usize>,
    /// Unit normal from `body` to `other`.
    pub normal: Vec3,
    /// The contact point (m, world).
    pub point: Vec3,
    /// Penetration (m), negative for a gap.
    pub depth: f32,
    /// The step (s).
    pub dt: f32,
}

/// The deferral predicate of the discrete mode: every contact stays.
pub(crate) fn keep_every_contact(_: &ContactQuery<'_>) -> bool {
    false
}
