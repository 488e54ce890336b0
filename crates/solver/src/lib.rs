//! parapet-solver: rigid bodies, impulses, friction, plastic cascade settling and
//! rotational integration.
//!
//! Architecture invariant: the solver owns everything a body is and does on
//! its own or at one contact; it never decides which contacts exist (narrow)
//! or in which order bodies are processed (world).

pub mod body;
mod inertia;
pub mod integrate;
pub mod tolerances;

pub use body::{BodyError, BodyKind, RigidBody};
