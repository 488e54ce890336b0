//! The errors of the impact responses: a new velocity or impulse that `f32`
//! cannot hold, and a set of simultaneous contacts that the cascade
//! settling cannot resolve. Each variant names the quantity, its value and
//! the limit; the caller (the world) adds which body it was and maps the
//! error onto its own.

/// Why an impact response was refused. A refused response returns no
/// velocities: the caller keeps its state as it was.
#[derive(Debug, Clone, Copy, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ImpactError {
    /// A newly computed velocity or impulse component is not a finite `f32`.
    #[error("new {quantity} = {value} is not representable in f32 (limit: a finite value of magnitude at most {limit})", limit = f32::MAX)]
    NotRepresentable {
        /// The quantity's name ("linear velocity", "angular velocity" or
        /// "impulse").
        quantity: &'static str,
        /// The offending `f64` component.
        value: f64,
    },
    /// More simultaneous contacts than one event's impulse solve takes.
    #[error("{contacts} simultaneous contacts are more than one impact solves (limit: {limit} contacts)")]
    TooManyContacts {
        /// The contacts in the set.
        contacts: usize,
        /// The largest set one event accepts
        /// ([`super::MAX_EVENT_CONTACTS`]).
        limit: usize,
    },
    /// No set of non-negative impulses opens every contact (for example a
    /// sphere driven into a static mesh by a kinematic body).
    #[error("no set of non-negative impulses opens all {contacts} simultaneous contacts (limit: a closing speed within {tolerance} of the fastest)", tolerance = super::UNRESOLVED_FRACTION)]
    NoOpening {
        /// The contacts in the set.
        contacts: usize,
    },
}
