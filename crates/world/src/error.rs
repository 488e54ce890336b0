//! The world's errors: [`StepError`] for a refused or failed step (the world
//! is then exactly as before the call) and [`WorldError`] for refused
//! insertions and removals (the world is then unchanged).

use parapet_geometry::bvh::BvhError;
use parapet_geometry::TriangleError;
use parapet_narrow::contact::ContactError;
use parapet_narrow::moving::Refusal;
use parapet_solver::impact::ImpactError;
use parapet_solver::{BodyError, BodyKind};

use crate::ccd::error::{CcdError, Other};
use crate::BodyId;

/// Why [`crate::PhysicsWorld::step`] refused or failed. On every variant the
/// world (bodies, pending forces, events, contact count, index state) is bit
/// for bit as it was before the call.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum StepError {
    /// A configuration value (a world field or the step's `dt`) is invalid.
    #[error("world configuration {quantity} = {value} is invalid (limit: {limit})")]
    InvalidConfig {
        /// The field ("dt", "gravity", "ccd_max_impacts", "ccd_max_substeps",
        /// "collision_detection", "sleep_linear_threshold",
        /// "sleep_angular_threshold", "time_to_sleep").
        quantity: &'static str,
        /// The refused value (the first non-finite component for a vector).
        value: f64,
        /// The accepted range.
        limit: &'static str,
    },
    /// A body fails [`parapet_solver::RigidBody::validate`].
    #[error("{body} is invalid: {source}")]
    InvalidBody {
        /// The first invalid body in insertion order.
        body: BodyId,
        /// What its validation refused (quantity, value and limit).
        source: BodyError,
    },
    /// A computed state of a body (velocity, pose) has no finite `f32` value.
    #[error("{body}: the step's new state is not representable: {source}")]
    NotRepresentable {
        /// The body.
        body: BodyId,
        /// The refused quantity and value.
        source: BodyError,
    },
    /// The narrow phase refused a contact query between two bodies.
    #[error("contact between {body} and {other} was refused: {source}")]
    Contact {
        /// The moving body of the pair.
        body: BodyId,
        /// The other body.
        other: BodyId,
        /// Why the query was refused.
        source: ContactError,
    },
    /// The static mesh snapshot could not be indexed.
    #[error("the static mesh index could not be built: {source}")]
    MeshIndex {
        /// The refusal of the triangle bounds tree (quantity, value, limit).
        source: BvhError,
    },
    /// The collision-detection mode refuses a body it cannot handle (see
    /// docs/continuous-collision.md, "What it refuses, and why").
    #[error("{body} ({kind:?} {shape}) is not supported by collision detection {mode}: {reason} (limit: {limit})")]
    Unsupported {
        /// The first refused body in insertion order.
        body: BodyId,
        /// Its motion mode.
        kind: BodyKind,
        /// Its shape kind ("sphere", "capsule", ...).
        shape: &'static str,
        /// The mode ("SPHERE_MESH_CCD").
        mode: &'static str,
        /// Why (naming the refused quantity and its value where there is one).
        reason: String,
        /// What the mode supports.
        limit: &'static str,
    },
    /// A value outside a checked precision limit of the continuous mode
    /// (see docs/continuous-collision.md, "Precision limits").
    #[error("{body}: {quantity} = {value} is beyond the limit {limit} of collision detection SPHERE_MESH_CCD")]
    Precision {
        /// The body.
        body: BodyId,
        /// The quantity and its unit.
        quantity: &'static str,
        /// Its value.
        value: f64,
        /// The limit.
        limit: f64,
    },
    /// A body exhausted `ccd_max_impacts` during the step.
    #[error("{body} needs more than {limit} impacts in one step (impacts so far: {impacts}; limit: ccd_max_impacts = {limit})")]
    ImpactLimit {
        /// The body.
        body: BodyId,
        /// Impacts charged to it when the limit was reached.
        impacts: u32,
        /// The world's `ccd_max_impacts`.
        limit: u32,
    },
    /// A time-of-impact query of the body's used up `ccd_max_substeps`
    /// advancement iterations.
    #[error("{body} needs more than {limit} advancement iterations in one time-of-impact query (iterations so far: {substeps}; limit: ccd_max_substeps = {limit})")]
    SubstepLimit {
        /// The body.
        body: BodyId,
        /// Iterations taken when the limit was reached.
        substeps: u32,
        /// The world's `ccd_max_substeps`.
        limit: u32,
    },
    /// The island of bodies that can meet this one in the step took more
    /// events than its budget: 256 per candidate pair plus 16 per body per
    /// allowed impact (`ccd_max_impacts` + 1), so that the step ends even
    /// if a pair kept coming back at one instant. Raise `ccd_max_impacts`
    /// or shorten the step.
    #[error("{body}'s island needs more than {limit} events in one step (events so far: {events}; limit: 256 per candidate pair and 16 per body per allowed impact, from ccd_max_impacts)")]
    EventLimit {
        /// The body the last event involved.
        body: BodyId,
        /// Events taken when the limit was reached.
        events: u32,
        /// The island's budget.
        limit: u32,
    },
    /// The time-of-impact arbiter refused a pair for a reason none of the
    /// variants above names (a non-finite or invalid input).
    #[error("{body}: the time of impact against {other:?} was refused: {source}")]
    TimeOfImpact {
        /// The moving body.
        body: BodyId,
        /// The other body, if any.
        other: Option<BodyId>,
        /// The arbiter's refusal (quantity, value and limit).
        source: Refusal,
    },
    /// A set of simultaneous contacts that no impulse can open (a body
    /// pinned between a kinematic body and a static surface), or one too
    /// large to solve.
    #[error("{body}: {contacts} simultaneous contacts cannot be resolved: {reason} (limit: {limit} contacts, openable by impulses)")]
    Unresolvable {
        /// The first body of the contact set in insertion order.
        body: BodyId,
        /// How many contacts the set holds.
        contacts: usize,
        /// Why it cannot be resolved.
        reason: &'static str,
        /// The largest set the settling accepts.
        limit: usize,
    },
    /// The solver refused an impact response for a reason that none of the
    /// variants above names (the solver's [`ImpactError`] may grow).
    #[error("{body}: impact response refused: {source}")]
    ImpactRefused {
        /// The body whose impact was refused.
        body: BodyId,
        /// The solver's error, naming the quantity, its value and the limit.
        source: ImpactError,
    },
}

/// Why [`crate::PhysicsWorld::add_body`] or
/// [`crate::PhysicsWorld::remove_body`] refused; the world is unchanged.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum WorldError {
    /// The body fails [`parapet_solver::RigidBody::validate`] (a mesh body
    /// that is not static is refused here, as [`BodyError::MeshNotStatic`]).
    #[error("the body cannot be added: {source}")]
    InvalidBody {
        /// What its validation refused.
        source: BodyError,
    },
    /// A mesh body's world-space triangle snapshot is not representable, or
    /// fails the triangle checks every step makes.
    #[error("the mesh body's world triangles cannot be captured: {source}")]
    MeshSnapshot {
        /// The triangle and what overflowed `f32` or failed its checks.
        source: TriangleError,
    },
    /// The id names no body of this world: it was removed (stale), or it
    /// belongs to another world.
    #[error("{body} is not in this world (removed or never added; limit: a live id)")]
    UnknownBody {
        /// The refused id.
        body: BodyId,
    },
    /// A pair of a body with itself ([`crate::PhysicsWorld::ignore_pair`],
    /// [`crate::PhysicsWorld::restore_pair`]).
    #[error("{body} cannot be paired with itself (limit: two distinct bodies)")]
    SameBody {
        /// The id given twice.
        body: BodyId,
    },
    /// The world holds as many bodies as its slot index can address.
    #[error("the world holds {count} bodies (limit: {limit})")]
    TooManyBodies {
        /// Bodies held.
        count: usize,
        /// The most a world holds.
        limit: usize,
    },
}

/// The name of the continuous mode in the errors it raises.
const CCD_MODE: &str = "SPHERE_MESH_CCD";

/// What the translation of a continuous-stage error reads from the world
/// ([`StepError::from_ccd`]): the ids and kinds of the bodies in their
/// slots, and which mesh owns a snapshot triangle.
pub(crate) trait BodyNames {
    /// The id of the body in `slot` (generation 0 for a free slot).
    fn slot_id(&self, slot: usize) -> BodyId;
    /// The motion mode and shape kind name of the body in `slot`, `None`
    /// for a free slot.
    fn slot_kind(&self, slot: usize) -> Option<(BodyKind, &'static str)>;
}

impl StepError {
    /// The world's error for a continuous-stage error, naming bodies by id
    /// (`names` maps slots and snapshot triangles to bodies).
    pub(crate) fn from_ccd(e: CcdError, names: &impl BodyNames) -> StepError {
        let id = names.slot_id(e.body());
        match e {
            CcdError::Unsupported { body, reason } => {
                let (kind, shape) = names
                    .slot_kind(body)
                    .unwrap_or((BodyKind::Static, "unknown"));
                StepError::Unsupported {
                    body: id,
                    kind,
                    shape,
                    mode: CCD_MODE,
                    reason: reason.to_string(),
                    limit: reason.limit(),
                }
            }
            CcdError::Precision {
                quantity,
                value,
                limit,
                ..
            } => StepError::Precision {
                body: id,
                quantity,
                value,
                limit,
            },
            CcdError::TimeOfImpact { other, refusal, .. } => StepError::TimeOfImpact {
                body: id,
                other: match other {
                    Other::None => None,
                    Other::Body(b) => Some(names.slot_id(b)),
                },
                source: refusal,
            },
            CcdError::ImpactLimit { impacts, limit, .. } => StepError::ImpactLimit {
                body: id,
                impacts,
                limit,
            },
            CcdError::Unresolvable {
                contacts,
                reason,
                limit,
                ..
            } => StepError::Unresolvable {
                body: id,
                contacts,
                reason,
                limit,
            },
            CcdError::SubstepLimit {
                substeps, limit, ..
            } => StepError::SubstepLimit {
                body: id,
                substeps,
                limit,
            },
            CcdError::EventLimit { events, limit, .. } => StepError::EventLimit {
                body: id,
                events,
                limit,
            },
            CcdError::NotRepresentable {
                quantity, value, ..
            } => StepError::NotRepresentable {
                body: id,
                source: BodyError::NotRepresentable { quantity, value },
            },
            CcdError::Impact { error, .. } => StepError::ImpactRefused {
                body: id,
                source: error,
            },
        }
    }
}
