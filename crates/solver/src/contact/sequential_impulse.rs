//! The sequential-impulse contact solve (Catto 2005 and 2009): its entry
//! point [`solve_contacts`], which prepares the rows and runs the
//! substepped soft solve (`soft_step.rs`, Box2D v3's soft step), and what
//! each point applied ([`ContactImpulse`]). Both collision modes solve
//! their contacts this way: the continuous mode's event loop sweeps the
//! path the substeps give each body (its velocity and its split velocity)
//! and takes what the contacts left. See the module documentation of
//! [`crate::contact`] for the method and its sources.
//!
//! Precision domain: `f64` accumulated impulses; the points are solved in
//! the given order, so the result is deterministic for a given input order.

use super::row::ContactImpulse;
use super::soft_step::solve_substeps;
use super::{ContactPointInput, ContactRow, SolverBody};

/// Solves the contact points `contacts`, in the given order, for a step of
/// `dt` seconds, changing the velocities and split velocities of `bodies`;
/// returns what each point applied, in input order.
///
/// A point whose two bodies are the same, or whose bodies cannot move
/// (zero effective mass), applies nothing. A non-positive or non-finite
/// `dt` applies nothing (the world validates `dt` before it calls this).
pub fn solve_contacts(
    bodies: &mut [SolverBody],
    contacts: &[ContactPointInput],
    dt: f64,
) -> Vec<ContactImpulse> {
    let rows: Vec<ContactRow> = contacts
        .iter()
        .map(|c| ContactRow::prepare(c, bodies))
        .collect();
    solve_substeps(bodies, rows, dt)
}
