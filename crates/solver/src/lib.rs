//! parapet-solver: rigid bodies, impulses, friction, plastic cascade settling and
//! rotational integration.
//!
//! Architecture invariant: the solver owns everything a body is and does on
//! its own or at one contact; it never decides which contacts exist (narrow)
//! or in which order bodies are processed (world).
//!
//! - [`body`]: [`RigidBody`], its motion modes ([`BodyKind`]), mass-property
//!   setters, validation, forces and impulses, and derived quantities (world
//!   inverse tensor, mass centre, momenta, kinetic energy).
//! - [`integrate`]: one body's free motion over a step, in the two halves the
//!   world calls around contacts ([`RigidBody::integrate_velocity`],
//!   [`RigidBody::integrate_pose`]), with the Hamiltonian split rotation of
//!   Dullweber, Leimkuhler and McLachlan (1997).
//! - [`contact`]: the sequential-impulse contact solver (speculative
//!   contacts, restitution, Coulomb friction, split correction).
//! - [`impact`]: the impulse physics of continuous collision (a body
//!   against a triangle, a pair of bodies, a turning body at a contact
//!   point, and the plastic settling of a cascade), from plain data.
//! - [`tolerances`]: the named tolerances of this crate.

pub mod body;
pub mod contact;
pub mod impact;
pub mod integrate;
mod tangent_basis;
pub mod tolerances;

pub use body::{BodyError, BodyKind, CcdMode, CollisionGroups, RigidBody};
