//! What a step and a ray report: [`ContactEvent`], [`ContactKind`], [`RayHit`].

use parapet_math::Vec3;

use crate::BodyId;

/// How a contact was found (more kinds may come: match with a wildcard).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub enum ContactKind {
    /// A contact point of the discrete contact stage at the start of the step
    /// (touching, overlapping, or speculative and taking an impulse).
    Initial,
    /// An impact found by a continuous sweep during the step.
    Swept,
}

/// One contact point or impact of the last successful step.
///
/// `body_a` is the body added first (`body_a < body_b`); the normal points
/// from A to B and `normal_impulse` is the impulse applied to B along it
/// (A received its negative), so the two bodies' events are equal and
/// opposite by construction.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ContactEvent {
    /// The body added first.
    pub body_a: BodyId,
    /// The body added later.
    pub body_b: BodyId,
    /// The contact point (world, m), midway between the two surfaces.
    pub point: Vec3,
    /// Unit normal from A to B (world).
    pub normal: Vec3,
    /// The normal impulse applied to B (N s, world); A received its negative.
    pub normal_impulse: Vec3,
    /// When it happened, as a fraction of the step in `[0, 1]`: 0 for
    /// initial contacts.
    pub time: f32,
    /// Initial contact or swept impact.
    pub kind: ContactKind,
}

/// The nearest hit of [`crate::PhysicsWorld::cast_ray`].
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct RayHit {
    /// The body hit.
    pub body: BodyId,
    /// Distance from the ray origin along the unit direction (m).
    pub distance: f32,
    /// The hit point (world, m).
    pub point: Vec3,
    /// Unit surface normal at the hit (world): the outward normal of a solid,
    /// the front normal of a mesh triangle, `-direction` for a ray that starts
    /// inside a solid.
    pub normal: Vec3,
}
