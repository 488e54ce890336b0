//! Adapter: the plastic cascade settling is computed by the solver
//! ([`parapet_solver::impact::settle`]). This module keeps the names and the
//! two-way failure its caller matches, for the callers that still import
//! them from here.

use parapet_solver::impact::ImpactError;
pub(crate) use parapet_solver::impact::{SettleBody, SettleContact, MAX_SETTLED_CONTACTS};

/// Why the settling fails.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum SettleFailure {
    /// More than [`MAX_SETTLED_CONTACTS`] contacts.
    TooMany,
    /// No active set gives non-negative impulses that open every contact.
    NoOpening,
}

/// [`parapet_solver::impact::settle`] with its error reduced to
/// [`SettleFailure`].
///
/// # Errors
/// [`SettleFailure::TooMany`] above [`MAX_SETTLED_CONTACTS`];
/// [`SettleFailure::NoOpening`] when no active set solves the problem (the
/// settling refuses with no other error).
pub(crate) fn settle(
    bodies: &[SettleBody],
    contacts: &[SettleContact],
) -> Result<Vec<f64>, SettleFailure> {
    parapet_solver::impact::settle(bodies, contacts).map_err(|e| match e {
        ImpactError::TooManyContacts { .. } => SettleFailure::TooMany,
        _ => SettleFailure::NoOpening,
    })
}
