//! The shape of a turning body as the certified driver sees it
//! ([`parapet_narrow::advance`]): a segment core grown by its radius (a
//! capsule, or a sphere whose core is one point) or a solid core (a box or
//! a convex hull), each placed relative to the body's mass centre.
//!
//! # Method
//! A segment core's two end arms are `t_s + R_s (0, 0, ±h) − c` in the body
//! frame (`t_s`, `R_s` the shape offset, `c` the mass centre), computed
//! from the body at every step (the world turning loop's formula, kept bit
//! for bit). A solid core is built once per shape, offset and mass centre
//! (the classification cache keeps it between steps) with the placement
//! `translation = t_s − c`, `rotation = R_s`.
//!
//! # Precision domain
//! The arms in `f64` from `f32` offsets; the solid's domain radius is its
//! farthest vertex from the shape origin (see
//! [`parapet_narrow::advance::solid`]).

use std::sync::Arc;

use parapet_geometry::Shape;
use parapet_math::nalgebra::UnitQuaternion;
use parapet_math::{promote, promote_quat, Vec3d};
use parapet_narrow::advance::{Placement, SolidCore, SolidError};
use parapet_solver::RigidBody;

use super::super::reach::norm_up;

/// The shape of a turning body.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum TurningShape {
    /// A capsule, or a sphere (`half_height == 0`).
    Segment {
        /// Radius (m).
        radius: f32,
        /// Half height of the core segment (m), `0` for a sphere.
        half_height: f32,
    },
    /// A box or a convex hull.
    Solid {
        /// The core placed in its body (kept between steps by the
        /// classification cache).
        core: Arc<SolidCore>,
        /// "box" or "hull", for messages.
        name: &'static str,
    },
}

impl TurningShape {
    /// The radius (m) of the precision domain's radius-relative limits: the
    /// sphere or capsule radius, the solid's farthest vertex from its shape
    /// origin.
    pub(crate) fn domain_radius(&self) -> f64 {
        match self {
            TurningShape::Segment { radius, .. } => *radius as f64,
            TurningShape::Solid { core, .. } => core.bounding_radius(),
        }
    }

    /// The skin (m): the radius around a segment core, `0` for a solid.
    pub(crate) fn skin(&self) -> f64 {
        match self {
            TurningShape::Segment { radius, .. } => *radius as f64,
            TurningShape::Solid { .. } => 0.0,
        }
    }

    /// An upper bound (m) of the farthest core point's distance from the
    /// mass centre (the segment ends, the solid's vertices), widened by a
    /// relative `1e-12` for the rotation's roundoff.
    pub(crate) fn far(&self, body: &RigidBody) -> f64 {
        match self {
            TurningShape::Segment { half_height, .. } => {
                let arms = end_arms(body, *half_height);
                norm_up(&arms[0]).max(norm_up(&arms[1])) * (1.0 + 1.0e-12)
            }
            TurningShape::Solid { core, .. } => {
                use parapet_narrow::advance::CoreShape;
                core.reach()
            }
        }
    }
}

/// The body-frame vectors (m) from the mass centre to the two ends of a
/// core segment of half height `half_height`: `t_s + R_s (0, 0, ±h) − c`.
pub(crate) fn end_arms(body: &RigidBody, half_height: f32) -> [Vec3d; 2] {
    let (offset, offset_rotation) = body.shape_offset();
    let rs = UnitQuaternion::new_normalize(promote_quat(offset_rotation).into_inner());
    let axis = rs * Vec3d::new(0.0, 0.0, half_height as f64);
    let base = promote(offset) - promote(body.center_of_mass());
    [base - axis, base + axis]
}

/// The solid core of a box or hull `shape` on `body` (placed by the body's
/// shape offset and mass centre).
///
/// # Errors
/// [`SolidError`] for a non-finite placement or a hull without interior;
/// `None` for a shape that is not a box or hull.
pub(crate) fn solid_core(body: &RigidBody, shape: &Shape) -> Option<Result<SolidCore, SolidError>> {
    let (offset, offset_rotation) = body.shape_offset();
    let placement = Placement {
        translation: promote(offset) - promote(body.center_of_mass()),
        rotation: UnitQuaternion::new_normalize(promote_quat(offset_rotation).into_inner()),
    };
    match shape {
        Shape::Cuboid(c) => Some(SolidCore::cuboid(promote(c.half_extents()), &placement)),
        Shape::ConvexHull(h) => Some(SolidCore::hull(h, &placement)),
        _ => None,
    }
}
