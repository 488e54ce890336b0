//! The errors of the continuous step (see docs/continuous-collision.md,
//! "What it refuses, and why", "Precision limits" and "Ordering, limits and
//! rollback"): every variant names the body (its slot), the quantity, its
//! value and the limit. The world maps them onto its `StepError`.

use parapet_narrow::moving::Refusal;
use parapet_solver::impact::{ImpactError, MAX_EVENT_CONTACTS};

/// Why the continuous step refuses a body for what it is (see
/// docs/continuous-collision.md, "What it refuses, and why"). Every shape
/// and motion the library builds is swept; what remains is a shape kind
/// newer than the continuous step.
#[derive(Debug, Clone, Copy, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum UnsupportedReason {
    /// A shape kind the moving-shape layer has no core for (a kind newer
    /// than the continuous step).
    #[error("a {shape} has no moving core and is not a continuous collider")]
    DynamicShape {
        /// The shape's kind name.
        shape: &'static str,
    },
}

impl UnsupportedReason {
    /// What the mode supports instead (the limit the reason exceeds).
    pub fn limit(&self) -> &'static str {
        match self {
            UnsupportedReason::DynamicShape { .. } => {
                "spheres, capsules, boxes, convex hulls and meshes (meshes static or kinematic)"
            }
        }
    }
}

/// The other side of a pair a refusal names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Other {
    /// No other body.
    None,
    /// Another body (its slot).
    Body(usize),
}

/// Why a continuous step failed. The world rolls the whole step back.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub(crate) enum CcdError {
    /// The body is outside the supported worlds.
    #[error("body {body}: {reason}")]
    Unsupported {
        /// The body's slot.
        body: usize,
        /// The reason.
        reason: UnsupportedReason,
    },
    /// A checked precision limit is exceeded.
    #[error("body {body}: {quantity} = {value} is beyond the limit {limit}")]
    Precision {
        /// The body's slot.
        body: usize,
        /// The quantity's name and unit.
        quantity: &'static str,
        /// Its value.
        value: f64,
        /// The limit.
        limit: f64,
    },
    /// The time-of-impact arbiter refused a pair for another reason
    /// (non-finite or invalid input).
    #[error("body {body}: time of impact refused: {refusal}")]
    TimeOfImpact {
        /// The moving body's slot.
        body: usize,
        /// The other side.
        other: Other,
        /// The arbiter's refusal, naming quantity, value and limit.
        refusal: Refusal,
    },
    /// `ccd_max_impacts` is exhausted.
    #[error("body {body}: {impacts} swept impacts in one step, and one more would exceed ccd_max_impacts = {limit}")]
    ImpactLimit {
        /// The body's slot.
        body: usize,
        /// The impacts charged to it when the limit was reached.
        impacts: u32,
        /// The limit.
        limit: u32,
    },
    /// A time-of-impact query used up `ccd_max_substeps` advancement
    /// iterations.
    #[error("body {body}: {substeps} advancement iterations exceed ccd_max_substeps = {limit}")]
    SubstepLimit {
        /// The body's slot.
        body: usize,
        /// The iterations used.
        substeps: u32,
        /// The limit.
        limit: u32,
    },
    /// The island of the body took more events than its budget
    /// (`run::event_budget`).
    #[error("body {body}: {events} events in one island exceed its budget {limit}")]
    EventLimit {
        /// The slot of the body the last event involved.
        body: usize,
        /// The events taken.
        events: u32,
        /// The budget.
        limit: u32,
    },
    /// A set of simultaneous contacts that no impulse can open, or one too
    /// large to solve.
    #[error("body {body}: {contacts} simultaneous contacts cannot be resolved: {reason} (limit: {limit})")]
    Unresolvable {
        /// The first body of the contact set (insertion order).
        body: usize,
        /// The contacts in the set.
        contacts: usize,
        /// Why.
        reason: &'static str,
        /// The largest set one event solves.
        limit: usize,
    },
    /// A newly computed state value or impulse is not a finite `f32`.
    #[error("body {body}: new {quantity} = {value} is not representable in f32")]
    NotRepresentable {
        /// The body's slot.
        body: usize,
        /// The quantity's name.
        quantity: &'static str,
        /// The offending `f64` value.
        value: f64,
    },
    /// The impact solver refused a response for a reason the world has no
    /// variant of its own for.
    #[error("body {body}: impact response refused: {error}")]
    Impact {
        /// The body's slot.
        body: usize,
        /// The solver's error, naming quantity, value and limit.
        error: ImpactError,
    },
}

impl CcdError {
    /// The slot of the body the error names.
    pub(crate) fn body(&self) -> usize {
        match self {
            CcdError::Unsupported { body, .. }
            | CcdError::Precision { body, .. }
            | CcdError::TimeOfImpact { body, .. }
            | CcdError::ImpactLimit { body, .. }
            | CcdError::SubstepLimit { body, .. }
            | CcdError::EventLimit { body, .. }
            | CcdError::Unresolvable { body, .. }
            | CcdError::NotRepresentable { body, .. }
            | CcdError::Impact { body, .. } => *body,
        }
    }

    /// The other side the error names, if any.
    pub(crate) fn other(&self) -> Option<usize> {
        match self {
            CcdError::TimeOfImpact { other, .. } => match other {
                Other::None => None,
                Other::Body(b) => Some(*b),
            },
            _ => None,
        }
    }

    /// The world's error for an arbiter refusal of the pair of moving body
    /// `body` and `other`, with the query's iteration budget `limit`.
    pub(crate) fn from_refusal(
        body: usize,
        other: Other,
        refusal: Refusal,
        limit: u32,
    ) -> CcdError {
        match refusal {
            Refusal::WorkBudget { iterations, .. } => CcdError::SubstepLimit {
                body,
                substeps: iterations,
                limit,
            },
            Refusal::PrecisionDomain {
                quantity,
                value,
                limit,
            } => CcdError::Precision {
                body,
                quantity,
                value,
                limit,
            },
            Refusal::UnsupportedShape { shape } => CcdError::Unsupported {
                body,
                reason: UnsupportedReason::DynamicShape { shape },
            },
            refusal => CcdError::TimeOfImpact {
                body,
                other,
                refusal,
            },
        }
    }

    /// The world's error for an impact response the solver refused, naming
    /// `body` (the first body of the event in insertion order).
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
                reason: "more simultaneous contacts than one event solves",
                limit,
            },
            ImpactError::NoOpening { contacts } => CcdError::Unresolvable {
                body,
                contacts,
                reason: "no set of non-negative impulses opens every contact",
                limit: MAX_EVENT_CONTACTS,
            },
            error => CcdError::Impact { body, error },
        }
    }
}
