//! The moving-shape layer and its one time-of-impact arbiter: any two
//! shapes under any two rigid motions.
//!
//! # The layer
//! - [`MovingShape`]: a shape as the arbiter moves it, one convex [`Core`]
//!   (point, segment, polytope, one-sided triangle) grown by a skin, or a
//!   [`MeshSide`] (one-sided triangles and their bounds tree). Built from a
//!   `parapet_geometry::Shape` and a shape offset by
//!   [`MovingShape::from_shape`]: a caller never matches on shapes.
//! - [`Motion`]: constant velocity of the mass centre, constant angular
//!   velocity about it; fixed, translating and turning bodies are data.
//! - [`time_of_impact`]: the first time in a window at which the signed
//!   distance of two moving shapes reaches a target, never late
//!   ([`Toi::Hit`]), or [`Toi::Clear`]; a typed [`Refusal`] otherwise.
//! - [`swept_bounds`]: a conservative box of what a moving shape covers
//!   over a window, for a caller's candidate search.
//!
//! # Dispatch
//! Two convex cores: when neither turns and a closed form or a
//! separating-axis sweep covers the pair, the exact kernels of the
//! translating sweeps (`exact.rs`, bit for bit with the `f32` sweeps on
//! `f32` inputs); otherwise conservative advancement with per-feature
//! closing bounds (`toi.rs`, `advance.rs`). A core and a mesh: the
//! mesh side (`mesh.rs`) over its candidate triangles, earliest first, ties
//! to the lower triangle index; two meshes: each candidate triangle of B
//! against mesh A. A mesh on side A is answered as side B and swapped back
//! (normal negated, features exchanged).
//!
//! # Files
//! `core.rs` (cores, mesh side, the shape enum), `motion.rs`, `domain.rs`
//! (precision domain, slack, refusals), `gjk.rs` (closest points of two
//! point clouds), `separation.rs` (the signed-distance bracket),
//! `exact.rs` (the translating pairs' closed forms),
//! `advance.rs` (the certified step along a fixed axis), `toi.rs` (the core
//! pair loop, the request and the answer), `mesh.rs`, `bounds.rs`.

// Negated comparisons (`!(x > 0.0)`) are deliberate throughout the arbiter:
// they are true for NaN, so a NaN is refused or treated as no progress,
// never mistaken for a value within a limit.
#![allow(clippy::neg_cmp_op_on_partial_ord)]

mod advance;
mod bounds;
mod core;
pub mod domain;
mod exact;
mod gjk;
mod hit;
mod mesh;
mod motion;
mod separation;
mod toi;

pub use self::core::{Core, CoreKind, MeshSide, MovingShape, CONCAVE_EDGE_REACH};
pub use bounds::swept_bounds;
pub use domain::Refusal;
pub use hit::{Feature, Hit};
pub use motion::Motion;
pub use toi::{Toi, ToiRequest, DEFAULT_BUDGET};

use toi::{checked_motion, core_pair};

/// The first time in `request`'s window at which the signed distance of `a`
/// moving along `motion_a` and `b` moving along `motion_b` (skins
/// included; minus the penetration depth when they overlap) reaches
/// `request.target`, or [`Toi::Clear`] when it stays above it. A hit is
/// never later than that time, its distance is at most the target plus
/// `request.tolerance`, and a pair at or below the target at the window
/// start hits at the start. Mesh triangles are one-sided: a shape wholly
/// behind a triangle's face plane at the window start is not caught by it.
///
/// # Errors
/// A [`Refusal`] naming the value and the limit: non-finite input, an
/// invalid window or tolerance, input beyond the precision domain
/// ([`domain`]), or the work budget exhausted.
pub fn time_of_impact(
    a: &MovingShape,
    motion_a: &Motion,
    b: &MovingShape,
    motion_b: &Motion,
    request: &ToiRequest,
) -> Result<Toi, Refusal> {
    request.check()?;
    let ma = checked_motion(motion_a)?;
    let mb = checked_motion(motion_b)?;
    let mut work = 0u32;
    let hit = match (a, b) {
        (MovingShape::Convex(ca), MovingShape::Convex(cb)) => core_pair(
            ca,
            &ma,
            cb,
            &mb,
            request,
            request.end,
            &mut work,
            &mut toi::PairScratch::default(),
        )?,
        (MovingShape::Convex(ca), MovingShape::Mesh(mesh)) => {
            mesh::core_mesh(ca, &ma, mesh, &mb, request, &mut work)?
        }
        (MovingShape::Mesh(mesh), MovingShape::Convex(cb)) => {
            mesh::core_mesh(cb, &mb, mesh, &ma, request, &mut work)?.map(Hit::swapped)
        }
        (MovingShape::Mesh(ma_), MovingShape::Mesh(mb_)) => {
            mesh::mesh_mesh(ma_, &ma, mb_, &mb, request, &mut work)?
        }
    };
    Ok(match hit {
        Some(mut h) => {
            h.iterations = work;
            Toi::Hit(h)
        }
        None => Toi::Clear { iterations: work },
    })
}

#[cfg(test)]
mod held_tests;
#[cfg(test)]
mod tests;
