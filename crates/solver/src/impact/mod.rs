//! The impulse physics of continuous collision: the response of a body at
//! the instant of a swept impact, computed from plain data (velocities,
//! inverse mass, world inverse inertia, lever arm, normal, material).
//!
//! Architecture invariant: the world decides when an impact happens and
//! which bodies and contact it involves; this module only turns that data
//! into new velocities and impulses, or an [`ImpactError`]. It knows no
//! world, body or shape type.
//!
//! One file per case, over one shared core (`impulse.rs`: the coupling
//! `K(d, e)`, the normal target with restitution and bounce threshold,
//! Coulomb friction, the `f32` representability check and the velocity
//! reconstruction):
//! - [`respond_body_triangle`]: a body alone against a static triangle.
//! - [`respond_pair`]: two moving bodies (either may be kinematic).
//! - [`respond_turning_point`]: a turning body at one contact point, with a
//!   micro-collision separation speed and re-closing.
//! - [`respond_manifold`]: a turning body at several points of one instant
//!   (a box landing flat), one plastic problem with restitution and
//!   friction (`nnls.rs` solves its projections).
//! - [`settle`]: the plastic, frictionless settling of several contacts at
//!   one instant (a cascade), by active sets in a fixed order.
//!
//! No response adds kinetic energy for restitution in `[0, 1]`: each file's
//! docs give the energy balance and its tests check it. The user-facing
//! contract is docs/continuous-collision.md ("How a step works", "Moving
//! groups").

// Limits are written `!(value < limit)` so that a NaN fails them too.
#![allow(clippy::neg_cmp_op_on_partial_ord)]

mod body_triangle;
mod cascade;
mod contacts;
mod error;
mod impulse;
mod manifold;
mod nnls;
mod pair;
mod turning_point;

pub use body_triangle::{respond_body_triangle, TriangleResponse};
pub use cascade::{
    settle, SettleBody, SettleContact, MAX_SETTLED_CONTACTS, SETTLE_RELATIVE_TOLERANCE,
};
pub use contacts::{
    respond_contacts, ImpactBody, ImpactContact, ImpactResponse, LEAST_CLOSING_SPEED, MAX_EVENT_CONTACTS, SPEED_ROUNDING,
};
pub use error::ImpactError;
pub use impulse::{reconstruct, ImpactMass};
pub use manifold::{
    respond_manifold, ManifoldPoint, ManifoldResponse, COMPRESSION_REGULARIZATION, FRICTION_SWEEPS,
    MANIFOLD_RELATIVE_TOLERANCE, MAX_MANIFOLD_POINTS,
};
pub use pair::{respond_pair, PairResponse, PairSide};
pub use turning_point::{respond_turning_point, TurningResponse};
