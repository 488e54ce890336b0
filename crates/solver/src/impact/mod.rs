//! The impulse physics of continuous collision: the response of a body at
//! the instant of a swept impact, computed from plain data (velocities,
//! inverse mass, world inverse inertia, lever arm, normal, material).
//!
//! Architecture invariant: the world decides when an impact happens and
//! which bodies and contact it involves; this module only turns that data
//! into new velocities and impulses, or an [`ImpactError`]. It knows no
//! world, body or shape type.
//!
//! One routine for every impact ([`respond_contacts`]): the contacts of
//! one event (one or several points, between a body and a fixed or moving
//! surface or between two moving bodies, kinematic included), solved as one
//! plastic problem with restitution and Coulomb friction (`nnls.rs` solves
//! its projections), over one shared core (`impulse.rs`: the body's inverse
//! mass and world inverse inertia, the `f32` representability check and the
//! velocity reconstruction).
//!
//! No response adds kinetic energy for restitution in `[0, 1]`: the
//! routine's docs give the energy balance and its tests check it. The
//! user-facing contract is docs/continuous-collision.md.

// Limits are written `!(value < limit)` so that a NaN fails them too.
#![allow(clippy::neg_cmp_op_on_partial_ord)]

mod contacts;
mod error;
mod impulse;
mod nnls;

pub use contacts::{
    respond_contacts, ImpactBody, ImpactContact, ImpactResponse, COMPRESSION_REGULARIZATION,
    FRICTION_SWEEPS, LEAST_CLOSING_SPEED, MANIFOLD_RELATIVE_TOLERANCE, MAX_EVENT_CONTACTS,
    SPEED_ROUNDING, UNRESOLVED_FRACTION,
};
pub use error::ImpactError;
pub use impulse::{reconstruct, ImpactMass};
