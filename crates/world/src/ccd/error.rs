//! The errors of the SPHERE_MESH_CCD engine (see
//! docs/continuous-collision.md, "What it refuses, and why", "Precision
//! limits" and "Ordering, limits and rollback"): every
//! variant names the body (its index in insertion order), the quantity, its
//! value and the limit. The world maps them onto its `StepError`.

use parapet_geometry::TriangleError;
use parapet_narrow::sweep::SweepRefusal;
use parapet_solver::impact::{ImpactError, MAX_SETTLED_CONTACTS};

/// Why the mode refuses a body (see docs/continuous-collision.md, "What it
/// refuses, and why").
#[derive(Debug, Clone, Copy, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum UnsupportedReason {
    /// A box or hull that can turn whose convex core cannot be built (a hull
    /// without interior). A box or hull that can turn is otherwise swept as
    /// a turning body.
    #[error("a {shape} that can turn has no convex core (a hull without interior) and is not a continuous collider")]
    TurningSolid {
        /// "box" or "hull".
        shape: &'static str,
    },
    /// A capsule that can turn. Not raised by this engine, which sweeps such
    /// a capsule as a turning body.
    #[error("a capsule that can turn is not supported yet")]
    TurningCapsule,
    /// A capsule that cannot turn but spins or has a pending torque.
    #[error("a capsule with zero inverse inertia has spin or torque {value}")]
    LockedCapsuleSpins {
        /// The largest spin or torque component magnitude.
        value: f32,
    },
    /// A sphere or capsule whose shape or mass centre sits off its body
    /// origin. Not raised by this engine, which sweeps such a body as a
    /// turning body.
    #[error("a {shape} whose shape or mass centre sits {value} m off its body origin is not supported yet")]
    OffCenter {
        /// "sphere" or "capsule".
        shape: &'static str,
        /// The larger of the two offsets' lengths, metres.
        value: f64,
    },
    /// A capsule, box or hull that can turn whose inverse tensor is not
    /// symmetric positive definite.
    #[error("a turning capsule's, box's or hull's inverse inertia must be symmetric positive definite (or zero in every element for a shape that cannot turn)")]
    TurningTensorNotSpd,
    /// A dynamic sphere whose inverse tensor is not symmetric positive definite.
    #[error("a dynamic sphere's inverse inertia must be symmetric positive definite")]
    SphereTensorNotSpd,
    /// A kinematic body that is not a sphere.
    #[error("a kinematic {shape} is not supported")]
    KinematicShape {
        /// The shape's kind name.
        shape: &'static str,
    },
    /// A kinematic sphere with spin, angular push or an offset shape.
    #[error("a kinematic sphere with {quantity} = {value} is not supported")]
    KinematicSphereMotion {
        /// "spin", "torque" or "shape offset".
        quantity: &'static str,
        /// The largest component magnitude.
        value: f64,
    },
    /// A mesh on a body that is not static: meshes must not move.
    #[error("a moving mesh is not supported")]
    MovingMesh,
    /// A dynamic body whose shape kind the continuous mode has no sweep
    /// for (a shape kind newer than the mode's support rules).
    #[error("a dynamic {shape} is not a continuous collider")]
    DynamicShape {
        /// The shape's kind name.
        shape: &'static str,
    },
    /// A static body that is not a mesh.
    #[error("a static {shape} is not supported")]
    StaticPrimitive {
        /// The shape's kind name.
        shape: &'static str,
    },
    /// A moving body that must be alone in its group (a turning body, box or
    /// hull) whose reachable region overlaps another moving body's.
    #[error("its reachable region (radius {reach} m) overlaps that of moving body {other}")]
    Interacting {
        /// The other body's index.
        other: usize,
        /// This body's reach radius, metres.
        reach: f64,
    },
    /// A continuous body whose reachable region overlaps that of a discrete
    /// body the continuous stage cannot sweep with it (see
    /// docs/continuous-collision.md, "Choosing per body").
    #[error("its reachable region (radius {reach} m) overlaps that of discrete body {other}, which the continuous stage cannot sweep with it ({why})")]
    Obstacle {
        /// The discrete body's index.
        other: usize,
        /// This body's reach radius, metres.
        reach: f64,
        /// Why the discrete body cannot be swept with it.
        why: &'static str,
    },
}

impl UnsupportedReason {
    /// What the mode supports instead (the limit the reason exceeds).
    pub fn limit(&self) -> &'static str {
        match self {
            UnsupportedReason::TurningSolid { .. } => {
                "boxes, and hulls with an interior"
            }
            UnsupportedReason::TurningCapsule | UnsupportedReason::LockedCapsuleSpins { .. } => {
                "capsules with zero inverse inertia, no spin and no torque"
            }
            UnsupportedReason::OffCenter { .. } => {
                "spheres and capsules centred on their body origin and mass centre"
            }
            UnsupportedReason::TurningTensorNotSpd => {
                "capsules, boxes and hulls with a symmetric positive-definite or an all-zero inverse inertia"
            }
            UnsupportedReason::SphereTensorNotSpd => {
                "dynamic spheres with a symmetric positive-definite inverse inertia"
            }
            UnsupportedReason::DynamicShape { .. } => {
                "dynamic spheres, capsules, boxes and hulls (meshes are static)"
            }
            UnsupportedReason::KinematicShape { .. } => "kinematic spheres only",
            UnsupportedReason::KinematicSphereMotion { .. } => {
                "kinematic spheres without spin, torque or shape offset"
            }
            UnsupportedReason::MovingMesh | UnsupportedReason::StaticPrimitive { .. } => {
                "static meshes only"
            }
            UnsupportedReason::Interacting { .. } => {
                "turning bodies, boxes and hulls alone in their group (reachable regions apart)"
            }
            UnsupportedReason::Obstacle { .. } => {
                "discrete bodies within a continuous body's reach: centred spheres, capsules that cannot turn and kinematic spheres, within the precision limits"
            }
        }
    }
}

/// Why a CCD step failed. The world rolls the whole step back.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub(crate) enum CcdError {
    /// The body is outside the supported worlds.
    #[error("body {body}: {reason}")]
    Unsupported {
        /// The body's index.
        body: usize,
        /// The reason.
        reason: UnsupportedReason,
    },
    /// A checked precision limit is exceeded.
    #[error("body {body}: {quantity} = {value} is beyond the limit {limit}")]
    Precision {
        /// The body's index.
        body: usize,
        /// The quantity's name and unit.
        quantity: &'static str,
        /// Its value.
        value: f64,
        /// The limit.
        limit: f64,
    },
    /// A sweep refused its input (outside its precision domain).
    #[error("body {body}: sweep against triangle {triangle} refused: {refusal}")]
    SweepRefused {
        /// The body's index.
        body: usize,
        /// The triangle's index in the mesh snapshot.
        triangle: usize,
        /// The refusal, naming quantity, value and limit.
        refusal: SweepRefusal,
    },
    /// A mesh snapshot triangle fails the triangle geometry check.
    #[error("mesh body {body}: {error}")]
    InvalidTriangle {
        /// The mesh body's index.
        body: usize,
        /// The triangle error (its index is the snapshot index).
        error: TriangleError,
    },
    /// `ccd_max_impacts` is exhausted.
    #[error("body {body}: swept impact {impacts} in one step exceeds ccd_max_impacts = {limit}")]
    ImpactLimit {
        /// The body's index.
        body: usize,
        /// The impact that would exceed the limit (limit + 1).
        impacts: u32,
        /// The limit.
        limit: u32,
    },
    /// A pair sweep between two group members refused its input.
    #[error("body {body}: sweep against moving body {other} refused: {refusal}")]
    PairSweepRefused {
        /// The lower member's index.
        body: usize,
        /// The other member's index.
        other: usize,
        /// The refusal, naming quantity, value and limit.
        refusal: SweepRefusal,
    },
    /// A set of simultaneous contacts that no impulse can open (a cascade or
    /// a kinematic drive into a static mesh), or one too large to settle.
    #[error("body {body}: {contacts} simultaneous contacts cannot be resolved: {reason} (limit: {limit})")]
    Unresolvable {
        /// The first body of the contact set (insertion order).
        body: usize,
        /// The contacts in the set.
        contacts: usize,
        /// Why.
        reason: &'static str,
        /// The largest set the settling accepts.
        limit: usize,
    },
    /// `ccd_max_substeps` is exhausted by a turning body.
    #[error("body {body}: sub-step {substeps} in one step exceeds ccd_max_substeps = {limit}")]
    SubstepLimit {
        /// The body's index.
        body: usize,
        /// The sub-step that would exceed the limit (limit + 1).
        substeps: u32,
        /// The limit.
        limit: u32,
    },
    /// A newly computed state value or impulse is not a finite `f32`.
    #[error("body {body}: new {quantity} = {value} is not representable in f32")]
    NotRepresentable {
        /// The body's index.
        body: usize,
        /// The quantity's name.
        quantity: &'static str,
        /// The offending `f64` value.
        value: f64,
    },
    /// The impact solver refused a response for a reason the world has no
    /// variant of its own for (every refusal the solver makes today maps
    /// onto [`CcdError::NotRepresentable`] or [`CcdError::Unresolvable`]).
    #[error("body {body}: impact response refused: {error}")]
    Impact {
        /// The body's index.
        body: usize,
        /// The solver's error, naming quantity, value and limit.
        error: ImpactError,
    },
}

impl CcdError {
    /// The index of the body the error names.
    pub(crate) fn body(&self) -> usize {
        match self {
            CcdError::Unsupported { body, .. }
            | CcdError::Precision { body, .. }
            | CcdError::SweepRefused { body, .. }
            | CcdError::InvalidTriangle { body, .. }
            | CcdError::ImpactLimit { body, .. }
            | CcdError::PairSweepRefused { body, .. }
            | CcdError::Unresolvable { body, .. }
            | CcdError::SubstepLimit { body, .. }
            | CcdError::NotRepresentable { body, .. }
            | CcdError::Impact { body, .. } => *body,
        }
    }

    /// The world's error for an impact response the solver refused, naming
    /// `body` (insertion order; for a pair, the side the impulse direction
    /// points into; for a cascade, the first body of the contact set).
    pub(crate) fn from_impact(body: usize, error: ImpactError) -> CcdError {
        match error {
            ImpactError::NotRepresentable { quantity, value } => CcdError::NotRepresentable {
                body,
                quantity,
                value,
            },
            ImpactError::TooManyContacts { contacts, limit } => CcdError::Unresolvable {
                body,
                contacts,
                reason: "more simultaneous contacts than the settling solves",
                limit,
            },
            ImpactError::NoOpening { contacts } => CcdError::Unresolvable {
                body,
                contacts,
                reason: "no set of non-negative impulses opens every contact",
                limit: MAX_SETTLED_CONTACTS,
            },
            error => CcdError::Impact { body, error },
        }
    }
}
