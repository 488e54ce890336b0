//! Continuous collision detection: the mode ([`CollisionDetection`]) and,
//! from the next issues on, the policy of seed 000 (classification, reach
//! bounds, groups, ordering, refusal), apart from the sweep geometry, which
//! lives in parapet-narrow.
//!
//! In this issue the world runs the discrete mode only: a step in
//! [`SPHERE_MESH_CCD`] refuses with `StepError::Unsupported` rather than
//! silently running discrete contacts (seed 000 "Supported worlds": the mode
//! never silently uses discrete contacts for moving bodies it cannot sweep).

mod mode;

pub use mode::{CollisionDetection, UnknownCollisionDetection, DISCRETE, SPHERE_MESH_CCD};
