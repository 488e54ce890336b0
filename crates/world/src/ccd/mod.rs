//! Continuous collision detection: the mode ([`CollisionDetection`]), a
//! body's own policy ([`CcdMode`], resolved per step by `policy.rs`) and the
//! one event loop of the continuous step, apart from the time-of-impact
//! geometry (`parapet_narrow::moving`) and the impulses
//! (`parapet_solver::impact`).
//!
//! Public here: the mode, its numeric codes and their error, the motion
//! fraction of `Auto` ([`AUTO_MOTION_FRACTION`]), the step's report
//! ([`CcdReport`], [`BodyCcdStats`]), the dry run's refusal
//! ([`CcdRefusal`]), the reason a body is refused ([`UnsupportedReason`])
//! and the named lengths of the loop ([`tolerances`]). The loop itself is
//! internal to the world, one file per layer:
//!
//! | file | what |
//! |---|---|
//! | `policy.rs` | each body's role: mover, obstacle, fixed, idle |
//! | `shapes.rs` | each body's moving shape, kept between steps |
//! | `bodies.rs` | each body's motion over the step, its strike and its end state |
//! | `candidates.rs` | swept bounds, candidate pairs, islands, the box index |
//! | `queue.rs` | the earliest event per pair, in a total order |
//! | `run.rs` | one island's event loop |
//! | `contact.rs` | an event's contact points |
//! | `impact.rs` | an event's strike (single or cascade) |
//! | `islands.rs` | islands in parallel, merged when they meet |
//! | `report.rs` | the report and per-body stats |
//! | `error.rs` | the refusals |
//!
//! The stage that runs them is `step/ccd.rs`.

// Limits are written `!(value <= limit)` so that a NaN fails them too.
#![allow(clippy::neg_cmp_op_on_partial_ord)]

pub(crate) mod bodies;
pub(crate) mod candidates;
pub(crate) mod contact;
pub(crate) mod error;
pub(crate) mod impact;
pub(crate) mod islands;
mod mode;
pub(crate) mod policy;
pub(crate) mod pressed;
pub(crate) mod queue;
pub(crate) mod report;
pub(crate) mod run;
pub(crate) mod shapes;
pub mod tolerances;

pub use error::UnsupportedReason;
pub use mode::{CollisionDetection, UnknownCollisionDetection, DISCRETE, SPHERE_MESH_CCD};
pub use parapet_solver::body::{CcdMode, UnknownCcdMode};
pub use policy::AUTO_MOTION_FRACTION;
pub use report::{BodyCcdStats, CcdRefusal, CcdReport};
