//! Continuous collision detection: the mode ([`CollisionDetection`]) and the
//! SPHERE_MESH_CCD policy (docs/continuous-collision.md), apart from the
//! sweep geometry (parapet-narrow) and the bounds tree (parapet-geometry).
//!
//! Public here: the mode, its numeric codes and their error, a body's own
//! policy ([`CcdMode`], resolved per step by `policy`, with the motion
//! fraction of `Auto`, [`AUTO_MOTION_FRACTION`]), the step's report
//! ([`CcdReport`], [`BodyCcdStats`]) and the dry run's refusal
//! ([`CcdRefusal`]), the reasons a body is refused ([`UnsupportedReason`]),
//! the capsule limit of the support rules ([`support::MAX_HALF_HEIGHT`])
//! and the step's work counts ([`CcdWork`]). The policy itself is
//! internal to the world, one file per layer: which bodies the mode
//! supports (`support`) and the step's plan (`plan`), how far each body can
//! reach (`reach`, `regions`), the policy's refusals after the solve
//! (`refusals`), the report's counts (`report`), the validated mesh snapshot (`mesh_cache`),
//! the shared motion types (`motion`), the sweep and impact loop of a body
//! alone (`solo`, `turning`), and the groups of bodies whose regions
//! overlap (`group`, `group_sweep`). The impulses at an impact come from
//! `parapet_solver::impact`; this module decides when and which. The step
//! stage that runs them is `step/ccd.rs`.

// Limits are written `!(value <= limit)` so that a NaN fails them too.
#![allow(clippy::neg_cmp_op_on_partial_ord)]

pub(crate) mod error;
pub(crate) mod group;
pub(crate) mod group_sweep;
pub(crate) mod mesh_cache;
mod mode;
pub(crate) mod motion;
pub(crate) mod plan;
pub(crate) mod policy;
mod policy_scratch;
pub(crate) mod reach;
pub(crate) mod refusals;
pub(crate) mod regions;
pub(crate) mod report;
pub(crate) mod scratch;
pub(crate) mod solo;
pub mod support;
pub(crate) mod turning;
mod work;

pub use error::UnsupportedReason;
pub use mode::{CollisionDetection, UnknownCollisionDetection, DISCRETE, SPHERE_MESH_CCD};
pub use parapet_solver::body::{CcdMode, UnknownCcdMode};
pub use policy::AUTO_MOTION_FRACTION;
pub use report::{BodyCcdStats, CcdRefusal, CcdReport};
pub use work::CcdWork;

pub(crate) use error::CcdError;
pub(crate) use mesh_cache::MeshSnapshotCache;
pub(crate) use support::ClassifyCache;
