//! parapet-world: the physics world and its step pipeline (validate, snapshot,
//! forces, discrete contacts, CCD, integrate, report), CCD grouping, ordering,
//! refusal and rollback.
//!
//! Architecture invariant: the world is the only crate that owns more than one
//! body; a failed step leaves it bit for bit as it was before the call.
//!
//! - [`PhysicsWorld`]: bodies in generational slots ([`BodyId`]), the
//!   configuration fields (gravity, the collision-detection mode and its
//!   impact and sub-step limits, sleeping and its thresholds), [`PhysicsWorld::step`] and
//!   [`PhysicsWorld::cast_ray`] / [`PhysicsWorld::try_cast_ray`].
//! - `step/`: one file per stage of a step, in the order data flows
//!   through them (`validate`, `snapshot`, `forces`, `contacts`, `ccd`,
//!   `integrate`, `report`; see docs/physics.md, "One step").
//! - [`ccd`]: the collision-detection mode ([`CollisionDetection`]) and the
//!   continuous policy: support rules, reach, groups, the sweep loops
//!   (see docs/continuous-collision.md).
//! - The broad phase (sort and sweep over primitive bounds) and the mesh
//!   index (one triangle bounds tree over every static mesh snapshot).
//! - `snapshot` (feature `serde`): the world written to JSON or CBOR and
//!   read back to a world that steps to the same bits.

mod body_id;
mod broad_phase;
pub mod ccd;
mod contact_cache;
mod contact_query;
mod entry;
mod error;
mod event;
mod filters;
mod mesh_index;
mod ray;
mod sensors;
mod shape_pose;
#[cfg(feature = "serde")]
pub mod snapshot;
mod step;
mod world;

pub use body_id::BodyId;
pub use ccd::{CollisionDetection, UnknownCollisionDetection, DISCRETE, SPHERE_MESH_CCD};
pub use error::{StepError, WorldError};
pub use event::{ContactEvent, ContactKind, RayHit};
pub use ray::RayError;
pub use sensors::{SensorEvent, SensorEventKind, WorldEvent};
pub use step::check::CHECK_CCD_DEFAULT_DT;
pub use step::sleep::{
    DEFAULT_SLEEP_ANGULAR_THRESHOLD, DEFAULT_SLEEP_LINEAR_THRESHOLD, DEFAULT_TIME_TO_SLEEP,
};
pub use world::{
    PhysicsWorld, CCD_MAX_IMPACTS_LIMIT, CCD_MAX_SUBSTEPS_LIMIT, DEFAULT_CCD_MAX_IMPACTS,
    DEFAULT_CCD_MAX_SUBSTEPS, DEFAULT_GRAVITY,
};

/// The speculative contact margin (m) of the discrete contact stage; see
/// [`parapet_solver::contact::CONTACT_MARGIN`] for its value and reason.
pub use parapet_solver::contact::CONTACT_MARGIN;
