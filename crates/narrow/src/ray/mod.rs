//! Ray casts against single shapes: pure functions from a shape, its pose
//! and a ray to the first hit.
//!
//! Conventions, shared by every function here:
//! - The ray is `origin + t * direction / |direction|`: `t` is a distance
//!   in metres, and a hit needs `0 <= t <= max_distance`.
//! - Solids (sphere, capsule, cuboid, convex hull): an origin inside or on
//!   the surface hits at distance 0 with normal `-direction` (the ray
//!   starts in contact, as parry's `solid = true`).
//! - Triangles and meshes are one-sided: a ray hits only a triangle's front
//!   (the side its counter-clockwise normal points to), and the normal is
//!   that front normal. Rays from behind pass through.
//! - Each computes in `f64` relative to the shape's position or the ray
//!   origin, and rounds the hit once to `f32`.

use parapet_math::{promote, Vec3, Vec3d};

mod capsule;
mod cuboid;
mod hull;
mod sphere;
mod triangle;

pub use capsule::cast_capsule;
pub use cuboid::cast_cuboid;
pub use sphere::cast_sphere;
pub use triangle::cast_triangle;

pub(crate) use capsule::ray_capsule;
pub(crate) use cuboid::ray_cuboid;
pub(crate) use hull::ray_polytope;
pub(crate) use sphere::ray_sphere;
pub(crate) use triangle::ray_triangle;

/// Where a ray first meets a shape.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct RayIntersection {
    /// Distance from the ray origin along the unit direction (m).
    pub distance: f32,
    /// The hit point (world, m).
    pub point: Vec3,
    /// Unit outward surface normal at the hit (world); `-direction` for a
    /// ray that starts inside a solid.
    pub normal: Vec3,
}

/// A hit in `f64`: parameter along the unit direction and unit normal.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct LocalHit {
    pub t: f64,
    pub normal: Vec3d,
}

impl LocalHit {
    /// The hit of a ray that starts inside a solid.
    pub fn inside(d: Vec3d) -> LocalHit {
        LocalHit { t: 0.0, normal: -d }
    }

    /// Rounds to world `f32` values for a ray from `origin` along unit `d`.
    pub fn into_world(self, origin: Vec3d, d: Vec3d) -> RayIntersection {
        RayIntersection {
            distance: self.t as f32,
            point: (origin + d * self.t).cast::<f32>(),
            normal: self.normal.cast::<f32>(),
        }
    }
}

/// Why a ray cast was refused.
#[derive(Clone, Copy, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum RayError {
    /// The origin has a NaN or infinite component.
    #[error("ray origin {origin:?} is not finite")]
    NonFiniteOrigin {
        /// The offending origin (m).
        origin: Vec3,
    },
    /// The direction is zero, NaN or infinite, so it has no unit direction.
    #[error("ray direction {direction:?} has no unit direction (length {length}, limit: finite and > 0)")]
    InvalidDirection {
        /// The offending direction.
        direction: Vec3,
        /// Its length, widened to `f64`.
        length: f64,
    },
    /// The maximum distance is negative or NaN.
    #[error("ray max_distance {max_distance} m is invalid (limit: >= 0, not NaN)")]
    InvalidMaxDistance {
        /// The offending distance (m).
        max_distance: f32,
    },
}

/// Checks a ray's inputs as the dispatcher does.
///
/// # Errors
/// The first invalid quantity as a [`RayError`].
pub fn validate_ray(origin: Vec3, direction: Vec3, max_distance: f32) -> Result<(), RayError> {
    if !origin.iter().all(|c| c.is_finite()) {
        return Err(RayError::NonFiniteOrigin { origin });
    }
    if unit_direction(direction).is_none() {
        return Err(RayError::InvalidDirection {
            direction,
            length: promote(direction).norm(),
        });
    }
    if !(max_distance >= 0.0) {
        return Err(RayError::InvalidMaxDistance { max_distance });
    }
    Ok(())
}

/// The unit `f64` direction of `direction`, `None` when zero or not finite.
pub(crate) fn unit_direction(direction: Vec3) -> Option<Vec3d> {
    let d = promote(direction);
    let len = d.norm();
    (len > 0.0 && len.is_finite()).then(|| d / len)
}
