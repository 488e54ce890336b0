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
    /// More simultaneous contacts than the cascade settling solves.
    #[error("{contacts} simultaneous contacts are more than the settling solves (limit: {limit} contacts)")]
    TooManyContacts {
        /// The contacts in the set.
        contacts: usize,
        /// The largest set the settling accepts
        /// ([`super::MAX_SETTLED_CONTACTS`]).
        limit: usize,
    },
    /// No active set of the cascade gives non-negative impulses that open
    /// every contact (for example a sphere driven into a static mesh by a
    /// kinematic sphere).
    #[error("no set of non-negative impulses opens all {contacts} simultaneous contacts (limit: complementarity within {tolerance} of the largest normal speed)", tolerance = super::SETTLE_RELATIVE_TOLERANCE)]
    NoOpening {
        /// The contacts in the set.
        contacts: usize,
    },
}
