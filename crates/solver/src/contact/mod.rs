//! The sequential-impulse contact solver: speculative contacts within a
//! margin, soft contacts in substeps (Box2D v3's soft step), restitution
//! above a bounce threshold, Coulomb friction, and split (pose-only)
//! velocities that carry the substeps' displacement to the pose update.
//!
//! The world decides which contacts exist (narrow phase) and in which order
//! they are solved; this module turns an ordered list of contact points into
//! velocity changes and split velocities of [`SolverBody`] copies, which the
//! world writes back into its bodies only when the whole step succeeds.
//!
//! Method (Catto, "Iterative Dynamics with Temporal Coherence", GDC 2005;
//! "Modeling and Solving Constraints", GDC 2009; Box2D v3 `solver.c` and
//! `contact_solver.c`, the "soft step" of Catto's "Solver2D", 2024):
//! 1. Contact rows are prepared once per point: lever arms from the world
//!    mass centres, effective normal and tangent masses, the closing velocity
//!    before the solve, and the depth at the step's start.
//! 2. In both collision modes, [`SUBSTEPS`] substeps of `h = dt / SUBSTEPS`,
//!    each: a share of the step's gravity ([`SolverBody::external_velocity`]);
//!    the warm start (every point's impulse of the last substep, or of the
//!    last step, applied again); one biased pass over the points, each a
//!    normal impulse then a Coulomb friction impulse (the tangent impulse
//!    vector clamped to the cone `|λt| <= μ λn`); the bodies moved by their
//!    velocities, their world inverse tensors turned with them; one
//!    relaxing pass without the bias. A point's separation follows the
//!    bodies' motion within the step. The normal impulse is clamped to
//!    `λn >= 0`; a point short of the resting depth [`RESTING_DEPTH`] may
//!    close by its separation in the substep (a speculative contact), one
//!    beyond it is pushed back by a soft constraint ([`CONTACT_HERTZ`],
//!    [`CONTACT_DAMPING_RATIO`], at most [`MAX_PUSH_SPEED`]), whose velocity
//!    the relaxing pass removes.
//! 3. Restitution: a point that took a normal impulse and was closing faster
//!    than the mixed bounce threshold gets the normal velocity `-e vn0`.
//! 4. The split (pose-only) velocities carry the displacement that the
//!    stored velocities do not (the pose update moves each body by its
//!    velocity plus its split velocity over the step, which is where the
//!    substeps took it); the pose update then forgets them (the push-out
//!    adds no momentum or energy to the motion). The continuous mode's
//!    event loop sweeps that same path and, where an impact must stop a
//!    body, spends its split there.
//!
//! Kinematic and static bodies have zero inverse mass and tensor: they take
//! no impulse and act as infinite masses (a kinematic body's velocity still
//! enters the relative velocity; a static body's stored velocity is ignored).
//!
//! Precision domain: `f64` throughout, lever arms relative to each body's
//! world mass centre; the results are rounded once to `f32` by
//! [`SolverBody::write_back`], which refuses values beyond `f32`.

mod row;
mod sequential_impulse;
mod soft_step;
mod solver_body;
pub mod tolerances;

pub(crate) use row::ContactRow;
pub use row::{ContactImpulse, ContactPointInput};
pub use sequential_impulse::solve_contacts;
pub use solver_body::SolverBody;
pub use tolerances::{
    CONTACT_DAMPING_RATIO, CONTACT_HERTZ, CONTACT_MARGIN, MAX_PUSH_SPEED, PENETRATION_SLOP,
    RESTING_DEPTH, SUBSTEPS,
};
