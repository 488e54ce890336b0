//! Continuous collision detection: the mode ([`CollisionDetection`]) and the
//! SPHERE_MESH_CCD policy (docs/continuous-collision.md), apart from the
//! sweep geometry (parapet-narrow) and the bounds tree (parapet-geometry):
//! which bodies the mode supports ([`support`]), how far each can reach
//! ([`reach`]), the validated mesh snapshot ([`mesh_cache`]), the sweep and
//! impact loop of a body alone ([`solo`]) and its impact response
//! ([`response`]), and the groups of bodies whose regions overlap
//! ([`group`], [`group_sweep`], [`group_response`], [`cascade`]). The step stage that runs them is `step/ccd.rs`.

// Limits are written `!(value <= limit)` so that a NaN fails them too.
#![allow(clippy::neg_cmp_op_on_partial_ord)]

pub mod cascade;
pub mod error;
pub mod group;
pub mod group_response;
pub mod group_sweep;
pub mod mesh_cache;
mod mode;
pub mod motion;
pub(crate) mod plan;
pub mod reach;
pub(crate) mod regions;
pub mod response;
pub(crate) mod scratch;
pub mod solo;
pub mod support;
pub mod turning;

pub use error::{CcdError, UnsupportedReason};
pub use mesh_cache::MeshSnapshotCache;
pub use mode::{CollisionDetection, UnknownCollisionDetection, DISCRETE, SPHERE_MESH_CCD};
pub use motion::{MeshView, SweptImpact, SweptMotion, SweptShape, TurningShape};
pub use reach::Reach;
pub use solo::{sweep_alone, SoloInput, SoloOutcome};
pub use support::{classify, classify_cached, ClassifyCache, Role};
pub use turning::{sweep_turning, TurningInput, TurningOutcome};
