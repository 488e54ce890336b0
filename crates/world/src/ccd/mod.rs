//! The SPHERE_MESH_CCD policy (seed 000 "Continuous collision"): which
//! bodies the mode supports ([`support`]), how far each can reach
//! ([`reach`]), the validated mesh snapshot ([`mesh_cache`]), the sweep and
//! impact loop of a body alone ([`solo`]) and its impact response
//! ([`response`]). The geometry (sweeps, bounds tree) lives in
//! parapet-narrow and parapet-geometry; this module decides order, limits
//! and refusals.

pub mod error;
pub mod mesh_cache;
pub mod reach;
pub mod response;
pub mod solo;
pub mod support;

pub use error::{CcdError, UnsupportedReason};
pub use mesh_cache::MeshSnapshotCache;
pub use reach::Reach;
pub use solo::{sweep_alone, MeshView, SoloInput, SoloOutcome, SweptImpact, SweptMotion};
pub use support::{classify, Role, SweptShape};
