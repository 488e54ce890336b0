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
//! - Each refuses what has no meaning with a [`RayError`] instead of
//!   answering "no hit": a non-finite origin, a zero or non-finite
//!   direction, a negative or NaN `max_distance` (`+inf` casts without
//!   bound), a non-finite pose, a shape parameter that is not finite (or
//!   negative, for a length), and a hit whose distance or point `f32`
//!   cannot hold. `Ok(None)` is always a miss.

use parapet_geometry::{ConvexHull, Shape, TriangleMesh};
use parapet_math::{demote, demote_scalar, promote, Vec3, Vec3d};

use crate::contact::{working_rotation, Pose};

mod capsule;
mod cuboid;
mod hull;
mod sphere;
mod triangle;

pub use capsule::cast_capsule;
pub use cuboid::cast_cuboid;
pub use sphere::cast_sphere;
pub use triangle::cast_triangle;

/// The first hit of a ray on `shape` at `pose`: dispatches to the sphere,
/// capsule, cuboid, hull or mesh cast. The ray is transformed into the
/// shape's frame in `f64`, cast there, and the hit rounded once to world
/// `f32` values. A mesh is cast triangle by triangle, front faces only;
/// the nearest hit wins and equal distances go to the lowest triangle
/// index.
///
/// # Errors
/// [`RayError`] for a non-finite origin, a direction without a unit
/// direction, or a negative or NaN `max_distance`; for a pose with a
/// non-finite component ([`RayError::NonFinitePose`]); and for a hit
/// beyond `f32` ([`RayError::NotRepresentable`]).
pub fn cast_shape(
    shape: &Shape,
    pose: &Pose,
    origin: Vec3,
    direction: Vec3,
    max_distance: f32,
) -> Result<Option<RayIntersection>, RayError> {
    let d = checked_ray(origin, direction, max_distance)?;
    check_pose(pose)?;
    let rotation = working_rotation(pose);
    let o = rotation.transpose() * (promote(origin) - promote(pose.translation.vector));
    let dl = rotation.transpose() * d;
    let max = max_distance as f64;
    let hit = match shape {
        Shape::Sphere(s) => ray_sphere(o, dl, s.radius() as f64, max),
        Shape::Capsule(c) => ray_capsule(o, dl, c.radius() as f64, c.half_height() as f64, max),
        Shape::Cuboid(c) => ray_cuboid(o, dl, promote(c.half_extents()), max),
        Shape::ConvexHull(h) => ray_hull_local(h, o, dl, max),
        Shape::Mesh(m) => ray_mesh_local(m, o, dl, max).map(|(_, hit)| hit),
        #[allow(unreachable_patterns)]
        _ => None,
    };
    hit.map(|h| {
        LocalHit {
            t: h.t,
            normal: rotation * h.normal,
        }
        .into_world(promote(origin), d)
    })
    .transpose()
}

/// The first front-face hit of a ray on a mesh at `pose`, with the index of
/// the triangle hit (the lowest index among equal distances).
///
/// # Errors
/// [`RayError`] for a ray without meaning, a non-finite pose or a hit
/// beyond `f32` (see the module docs).
pub fn cast_mesh(
    mesh: &TriangleMesh,
    pose: &Pose,
    origin: Vec3,
    direction: Vec3,
    max_distance: f32,
) -> Result<Option<(usize, RayIntersection)>, RayError> {
    let d = checked_ray(origin, direction, max_distance)?;
    check_pose(pose)?;
    let rotation = working_rotation(pose);
    let o = rotation.transpose() * (promote(origin) - promote(pose.translation.vector));
    ray_mesh_local(mesh, o, rotation.transpose() * d, max_distance as f64)
        .map(|(i, h)| {
            let hit = LocalHit {
                t: h.t,
                normal: rotation * h.normal,
            };
            Ok((i, hit.into_world(promote(origin), d)?))
        })
        .transpose()
}

fn ray_hull_local(hull: &ConvexHull, o: Vec3d, d: Vec3d, max: f64) -> Option<LocalHit> {
    let v = hull.vertices();
    let planes = hull.faces().iter().map(|f| {
        let n = f.normal();
        let l = f.vertices();
        let offset = l
            .iter()
            .map(|&i| n.dot(&promote(v[i as usize])))
            .sum::<f64>()
            / l.len().max(1) as f64;
        (n, offset)
    });
    ray_planes(o, d, planes, max)
}

/// Nearest front-face hit over the mesh triangles, in the mesh's frame;
/// each triangle is taken relative to the ray origin.
fn ray_mesh_local(mesh: &TriangleMesh, o: Vec3d, d: Vec3d, max: f64) -> Option<(usize, LocalHit)> {
    let mut best: Option<(usize, LocalHit)> = None;
    let mut limit = max;
    let v = mesh.vertices();
    for (i, idx) in mesh.indices().iter().enumerate() {
        let tri = idx.map(|k| promote(v[k as usize]) - o);
        if let Some(hit) = ray_triangle(&tri, d, limit) {
            if best.as_ref().is_none_or(|(_, b)| hit.t < b.t) {
                limit = hit.t;
                best = Some((i, hit));
            }
        }
    }
    best
}

pub(crate) use capsule::ray_capsule;
pub(crate) use cuboid::ray_cuboid;
pub(crate) use hull::ray_planes;
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
    pub(crate) fn inside(d: Vec3d) -> LocalHit {
        LocalHit { t: 0.0, normal: -d }
    }

    /// Rounds to world `f32` values for a ray from `origin` along unit `d`.
    ///
    /// # Errors
    /// [`RayError::NotRepresentable`] for a distance or point beyond `f32`
    /// (a far origin cast at a far shape), or a normal that is not finite.
    pub(crate) fn into_world(self, origin: Vec3d, d: Vec3d) -> Result<RayIntersection, RayError> {
        let not =
            |quantity: &'static str, value: f64| RayError::NotRepresentable { quantity, value };
        let distance = demote_scalar(self.t).map_err(|_| not("hit distance", self.t))?;
        let p = origin + d * self.t;
        let point = demote(p).map_err(|_| not("hit point", p.amax()))?;
        let normal = demote(self.normal).map_err(|_| not("hit normal", f64::NAN))?;
        Ok(RayIntersection {
            distance,
            point,
            normal,
        })
    }
}

/// Why a ray cast was refused.
#[derive(Clone, Copy, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum RayError {
    /// The origin has a NaN or infinite component.
    #[error("ray origin {origin:?} is not finite (limit: every component finite)")]
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
    /// The shape's pose has a NaN or infinite component.
    #[error("shape pose is not finite: translation {translation:?}, rotation {rotation:?} (limit: finite)")]
    NonFinitePose {
        /// The translation (m).
        translation: Vec3,
        /// The rotation quaternion as `[i, j, k, w]`.
        rotation: [f32; 4],
    },
    /// The maximum distance is negative or NaN.
    #[error("ray max_distance {max_distance} m is invalid (limit: >= 0, not NaN)")]
    InvalidMaxDistance {
        /// The offending distance (m).
        max_distance: f32,
    },
    /// A shape parameter of a primitive cast is not finite, or a length
    /// (radius, half height, half extent) is negative.
    #[error("shape {quantity} = {value} is invalid (limit: finite, and >= 0 for a length)")]
    InvalidShape {
        /// The parameter ("radius", "half height", "half extents",
        /// "centre", "triangle vertex").
        quantity: &'static str,
        /// The offending component.
        value: f32,
    },
    /// The hit exists but `f32` cannot hold it.
    #[error("ray {quantity} = {value} is not representable in f32 (limit: |value| <= {limit})", limit = f32::MAX)]
    NotRepresentable {
        /// "hit distance", "hit point" or "hit normal".
        quantity: &'static str,
        /// The offending `f64` value (the largest component for a point).
        value: f64,
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
    if max_distance.is_nan() || max_distance < 0.0 {
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

/// [`validate_ray`], then the unit `f64` direction.
pub(crate) fn checked_ray(origin: Vec3, direction: Vec3, max: f32) -> Result<Vec3d, RayError> {
    validate_ray(origin, direction, max)?;
    unit_direction(direction).ok_or(RayError::InvalidDirection {
        direction,
        length: promote(direction).norm(),
    })
}

/// `Ok` for a pose whose translation and rotation are finite.
pub(crate) fn check_pose(pose: &Pose) -> Result<(), RayError> {
    let t = pose.translation.vector;
    let q = pose.rotation.into_inner();
    if t.iter().chain(q.coords.iter()).all(|x| x.is_finite()) {
        Ok(())
    } else {
        Err(RayError::NonFinitePose {
            translation: t,
            rotation: [q.i, q.j, q.k, q.w],
        })
    }
}

/// `Ok` for a finite, non-negative length (radius, half height, half
/// extent) named `quantity`.
pub(crate) fn check_length(quantity: &'static str, value: f32) -> Result<(), RayError> {
    if value.is_finite() && value >= 0.0 {
        Ok(())
    } else {
        Err(RayError::InvalidShape { quantity, value })
    }
}

/// `Ok` for a point with finite components, named `quantity`.
pub(crate) fn check_point(quantity: &'static str, p: &Vec3) -> Result<(), RayError> {
    match p.iter().find(|c| !c.is_finite()) {
        None => Ok(()),
        Some(&value) => Err(RayError::InvalidShape { quantity, value }),
    }
}
