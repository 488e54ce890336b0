//! The sequential-impulse contact solver: speculative contacts within a
//! margin, restitution above a bounce threshold, Coulomb friction and split
//! (pose-only) penetration correction.
//!
//! The world decides which contacts exist (narrow phase) and in which order
//! they are solved; this module turns an ordered list of contact points into
//! velocity changes and split velocities of [`SolverBody`] copies, which the
//! world writes back into its bodies only when the whole step succeeds.
//!
//! Method (Catto, "Iterative Dynamics with Temporal Coherence", GDC 2005;
//! "Modeling and Solving Constraints", GDC 2009; Box2D v3 `contact_solver.c`
//! for the relax / restitution passes and speculative contacts):
//! 1. Contact rows are prepared once per point: lever arms from the world
//!    mass centres, effective normal and tangent masses, the closing velocity
//!    before the solve, and the speculative gap.
//! 2. Velocity iterations ([`VELOCITY_ITERATIONS`]): per point, a Coulomb
//!    friction impulse (the tangent impulse vector clamped to the friction
//!    cone `|λt| <= μ λn` of the accumulated normal impulse), then a normal
//!    impulse clamped to `λn >= 0` that allows a point to close in this
//!    step until it reaches the resting depth [`RESTING_DEPTH`]
//!    (`vn >= -(rest - depth) / dt`: a separated point closes by its gap plus
//!    the resting depth, a speculative contact) and a point at or beyond it
//!    not to close at all (`vn >= 0`).
//! 3. Restitution: a point that took a normal impulse and was closing faster
//!    than the mixed bounce threshold gets the normal velocity `-e vn0`.
//! 4. Split correction ([`SPLIT_ITERATIONS`]): a point deeper than
//!    [`RESTING_DEPTH`] gets a split (pose-only) impulse towards the
//!    normal split velocity `BAUMGARTE_FACTOR (depth - rest) / dt`, which the
//!    pose update applies and then forgets; stored velocities never see it
//!    (split impulses are pose-only: they correct overlap without adding
//!    momentum or energy to the stored motion).
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
mod solver_body;
pub mod tolerances;

pub use row::ContactPointInput;
pub(crate) use row::ContactRow;
pub use sequential_impulse::{solve_contacts, ContactImpulse};
pub use solver_body::SolverBody;
pub use tolerances::{
    BAUMGARTE_FACTOR, CONTACT_MARGIN, PENETRATION_SLOP, RESTING_DEPTH, SPLIT_ITERATIONS,
    VELOCITY_ITERATIONS,
};
