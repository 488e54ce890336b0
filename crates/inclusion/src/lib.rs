//! parapet-inclusion: inclusion-based continuous collision detection between
//! linearly moving triangle primitives: vertex-face and edge-edge, in `f64`.
//!
//! Method (inclusion functions and bisection: Snyder 1992, "Interval analysis for
//! computer graphics"; Wang, Ferguson, Schneider, Jiang, Attene and Panozzo
//! 2021, "A Large-Scale Benchmark and an Inclusion-Based Algorithm for
//! Continuous Collision Detection"): a contact is a zero of the multivariate
//! gap function F(t, u, v) (the coplanarity condition in multivariate form),
//! never a root of the
//! univariate coplanarity cubic, so coplanar parallel motion (where the cubic
//! is identically zero) needs no special case.
//!
//! - vertex-face: `F(t, u, v) = p(t) - [a(t) + u (b(t) - a(t)) + v (c(t) - a(t))]`,
//!   `u, v >= 0`, `u + v <= 1` ([`vertex_face_toi`]);
//! - edge-edge: `F(t, u, v) = [a0(t) + u (a1(t) - a0(t))] - [b0(t) + v (b1(t) - b0(t))]`,
//!   `u, v in [0, 1]` ([`edge_edge_toi`]);
//! - every point moves linearly, `x(t) = x0 + t (x1 - x0)`, `t in [0, 1]`.
//!
//! F is linear in each of t, u and v separately (multilinear), so over a box
//! its extreme values per axis are at the box's 8 corners: the corner hull,
//! widened by a proven bound on the rounding error of the corner evaluation
//! (`rounding_error.rs`), encloses F's range over the box in `f64`
//! (`bisection.rs`), and the same holds for `n . F` along any fixed direction
//! n, which the search uses along the dual directions of the box's Jacobian.
//! The parameter box is bisected exactly (dyadic t, u, v), boxes whose
//! enclosure misses the separation cube `[-d, d]^3` are dropped, and the
//! earliest box that reaches the tolerance gives a time of impact that is a
//! lower bound of the true first contact time, never later.
//!
//! Precision domain: any finite `f64` coordinates (queries whose largest
//! coordinate lies outside `[2^-500, 2^500]` are rescaled by an exact power of
//! two); the reported time is conservative for the exact inputs given, not for
//! a rounded copy of them.
//!
//! Cost: a query evaluates at most `max_iterations` boxes
//! ([`InclusionConfig`]), each about 3,000 instructions (about 1 µs), and
//! queues at most that many (88 bytes each); a batch costs the sum of its
//! queries. The default cap, 1,000,000, lets hard degenerate queries
//! (coplanar motion at tight tolerances) converge, and so allows up to
//! about 2 s and 180 MB for one query; 10,000 bounds a query to a few tens
//! of milliseconds (measured on the worst queries we could construct:
//! coplanar sliding at tolerance `1e-300`).
//!
//! Public API: [`vertex_face_toi`], [`edge_edge_toi`], [`toi_batch`] over
//! [`CcdQuery`], configured by [`InclusionConfig`], answering
//! [`InclusionToi`] or [`InclusionError`].

mod batch;
mod bisection;
mod config;
mod edge_edge;
mod error;
mod outcome;
mod rounding_error;
mod vertex_face;

pub use batch::{toi_batch, CcdQuery};
pub use config::{InclusionConfig, SearchOrder};
pub use edge_edge::{edge_edge_toi, EdgeEdgeQuery};
pub use error::InclusionError;
pub use outcome::{InclusionStatus, InclusionToi};
pub use vertex_face::{vertex_face_toi, VertexFaceQuery};
