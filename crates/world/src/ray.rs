//! `PhysicsWorld::cast_ray`: the nearest hit over every colliding body.
//!
//! Solids are cast one by one (`parapet_narrow::ray::cast_shape` at the
//! shape pose); mesh snapshots through the mesh index when it is built
//! (`Ray` query, candidates in triangle insertion order), or triangle by
//! triangle when a mesh was added or removed since the last step (same
//! answers). The nearest distance wins; equal distances go to the body
//! added first, then to the lower triangle index. Bodies with
//! `collides == false` and sensors are skipped, and so are bodies whose
//! collision groups do not accept the ray's
//! ([`PhysicsWorld::try_cast_ray_filtered`]); meshes are one-sided.
//!
//! [`PhysicsWorld::try_cast_ray`] tells a refused ray from a miss
//! ([`RayError`]); [`PhysicsWorld::cast_ray`] is its `Option` form for
//! callers whose rays are valid by construction.

use parapet_geometry::bvh::Ray;
use parapet_math::{promote, Vec3};
use parapet_narrow::ray::{self as narrow, cast_shape, cast_triangle, RayIntersection};

use parapet_solver::{CollisionGroups, RigidBody};

use crate::shape_pose::shape_pose;
use crate::{BodyId, PhysicsWorld, RayHit};

/// Why [`PhysicsWorld::try_cast_ray`] refused a ray: each variant names the
/// refused value and the rule it breaks. Nothing is refused for a ray that
/// simply hits nothing (that is `Ok(None)`).
#[derive(Debug, Clone, Copy, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum RayError {
    /// The origin has a NaN or infinite component.
    #[error("ray origin {origin:?} is not finite (limit: every component finite)")]
    NonFiniteOrigin {
        /// The refused origin (m).
        origin: Vec3,
    },
    /// The direction is zero, NaN or infinite: it has no unit direction.
    #[error("ray direction {direction:?} has no unit direction (length {length}; limit: finite and > 0)")]
    InvalidDirection {
        /// The refused direction.
        direction: Vec3,
        /// Its length, widened to `f64`.
        length: f64,
    },
    /// The maximum distance is negative or NaN (`+inf` casts without bound).
    #[error("ray max_distance = {max_distance} m is invalid (limit: >= 0 and not NaN)")]
    InvalidMaxDistance {
        /// The refused distance (m).
        max_distance: f32,
    },
    /// A colliding body cannot be cast against: its shape pose is not a
    /// finite `f32` pose (a pose the next step refuses as
    /// [`crate::StepError::InvalidBody`]), or its hit is beyond `f32`. The
    /// nearest hit cannot be promised while such a body is in the world.
    #[error("{body}: the ray cannot be cast against it: {source}")]
    Body {
        /// The first such body in insertion order.
        body: BodyId,
        /// The refusal: [`narrow::RayError::NonFinitePose`] or
        /// [`narrow::RayError::NotRepresentable`].
        source: narrow::RayError,
    },
}

/// `Ok` for a ray with a meaning: the rules of [`narrow::validate_ray`],
/// as the world's variants.
fn validate(origin: Vec3, direction: Vec3, max_distance: f32) -> Result<(), RayError> {
    if !origin.iter().all(|c| c.is_finite()) {
        return Err(RayError::NonFiniteOrigin { origin });
    }
    let length = promote(direction).norm();
    if !(length > 0.0 && length.is_finite()) {
        return Err(RayError::InvalidDirection { direction, length });
    }
    if max_distance.is_nan() || max_distance < 0.0 {
        return Err(RayError::InvalidMaxDistance { max_distance });
    }
    Ok(())
}

/// The best hit so far and its tie-break key.
#[derive(Default)]
struct Nearest {
    best: Option<(f32, BodyId, u32, RayIntersection)>,
}

impl Nearest {
    fn offer(&mut self, body: BodyId, feature: u32, hit: RayIntersection) {
        let better = match &self.best {
            None => true,
            // Numeric comparison, so that -0 and +0 tie (a ray starting on
            // a surface can give either) and go to insertion order.
            Some((d, b, f, _)) => {
                hit.distance < *d || (hit.distance == *d && (body, feature) < (*b, *f))
            }
        };
        if better {
            self.best = Some((hit.distance, body, feature, hit));
        }
    }
}

impl PhysicsWorld {
    /// The nearest hit of the ray from `origin` along `direction` (any
    /// non-zero length; distances are along its unit direction) within
    /// `max_distance` (m; `+inf` for no bound). Ties go to the body added
    /// first, then to the lower triangle index. A ray that starts inside a
    /// solid hits it at distance 0 with normal `-direction`. Mesh triangles
    /// are hit from their front only; bodies with `collides == false` are
    /// not hit. `Ok(None)` is a miss, and every hit is finite.
    ///
    /// ```
    /// use parapet_world::{PhysicsWorld, RayError};
    /// use parapet_math::Vec3;
    ///
    /// let world = PhysicsWorld::new();
    /// let down = Vec3::new(0.0, 0.0, -1.0);
    /// assert_eq!(world.try_cast_ray(Vec3::zeros(), down, 10.0), Ok(None)); // a miss
    /// let err = world.try_cast_ray(Vec3::zeros(), Vec3::zeros(), 10.0).unwrap_err();
    /// assert!(matches!(err, RayError::InvalidDirection { .. }), "{err}");
    /// ```
    ///
    /// # Errors
    /// [`RayError::NonFiniteOrigin`], [`RayError::InvalidDirection`] (zero
    /// or non-finite), [`RayError::InvalidMaxDistance`] (negative or NaN);
    /// [`RayError::Body`] for the first colliding body (insertion order)
    /// whose shape pose is not finite, or whose hit `f32` cannot hold.
    pub fn try_cast_ray(
        &self,
        origin: Vec3,
        direction: Vec3,
        max_distance: f32,
    ) -> Result<Option<RayHit>, RayError> {
        self.try_cast_ray_filtered(origin, direction, max_distance, CollisionGroups::ALL)
    }

    /// [`PhysicsWorld::try_cast_ray`] seen by a ray with collision groups
    /// `groups`: a body is hit only when the ray's groups and the body's
    /// accept each other ([`CollisionGroups::interacts_with`]; a wheel's
    /// ground probe that ignores its own chassis). Sensors are never hit.
    ///
    /// ```
    /// use parapet_world::PhysicsWorld;
    /// use parapet_solver::{CollisionGroups, RigidBody};
    /// use parapet_geometry::Shape;
    /// use parapet_math::Vec3;
    ///
    /// let mut world = PhysicsWorld::new();
    /// let chassis = RigidBody::new_static(Shape::sphere(1.0)?)
    ///     .with_collision_groups(CollisionGroups::new(0b10, !0));
    /// world.add_body(chassis)?;
    /// let down = Vec3::new(0.0, 0.0, -1.0);
    /// let probe = CollisionGroups::new(0b01, !0b10); // ignores group 2
    /// let from = Vec3::new(0.0, 0.0, 5.0);
    /// assert!(world.try_cast_ray(from, down, 10.0)?.is_some());
    /// assert!(world.try_cast_ray_filtered(from, down, 10.0, probe)?.is_none());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// As [`PhysicsWorld::try_cast_ray`], for the bodies the ray can hit.
    pub fn try_cast_ray_filtered(
        &self,
        origin: Vec3,
        direction: Vec3,
        max_distance: f32,
        groups: CollisionGroups,
    ) -> Result<Option<RayHit>, RayError> {
        validate(origin, direction, max_distance)?;
        let body_error = |body: BodyId| move |source| RayError::Body { body, source };
        let hits = |body: &RigidBody| {
            body.collides() && !body.is_sensor() && groups.interacts_with(body.collision_groups())
        };
        let mut nearest = Nearest::default();
        for e in self.entries() {
            if !hits(&e.body) {
                continue;
            }
            if e.body.shape().is_solid() {
                let Some(pose) = shape_pose(&e.body) else {
                    let q = e.body.rotation().into_inner();
                    return Err(RayError::Body {
                        body: e.id,
                        source: narrow::RayError::NonFinitePose {
                            translation: e.body.position(),
                            rotation: [q.i, q.j, q.k, q.w],
                        },
                    });
                };
                let hit = cast_shape(e.body.shape(), &pose, origin, direction, max_distance)
                    .map_err(body_error(e.id))?;
                if let Some(hit) = hit {
                    nearest.offer(e.id, 0, hit);
                }
            } else if self.meshes.tree().is_none() {
                if let Some(snapshot) = &e.mesh {
                    for (i, t) in snapshot.iter().enumerate() {
                        let hit = cast_triangle(t, origin, direction, max_distance)
                            .map_err(body_error(e.id))?;
                        if let Some(hit) = hit {
                            nearest.offer(e.id, i as u32, hit);
                        }
                    }
                }
            }
        }
        if let Some(tree) = self.meshes.tree() {
            let d = promote(direction);
            let unit = d / d.norm();
            if let Ok(query) = Ray::new(promote(origin), unit, max_distance as f64) {
                for t in tree.query_vec(&query) {
                    let t = t as usize;
                    let Some(owner) = self.slots[self.meshes.owner(t) as usize].as_ref() else {
                        continue;
                    };
                    if !hits(&owner.body) {
                        continue;
                    }
                    let triangle = &self.meshes.triangles()[t];
                    let hit = cast_triangle(triangle, origin, direction, max_distance)
                        .map_err(body_error(owner.id))?;
                    if let Some(hit) = hit {
                        nearest.offer(owner.id, self.meshes.local_index(t), hit);
                    }
                }
            }
        }
        Ok(nearest.best.map(|(_, body, _, hit)| RayHit {
            body,
            distance: hit.distance,
            point: hit.point,
            normal: hit.normal,
        }))
    }

    /// [`PhysicsWorld::try_cast_ray`] as an `Option`: the nearest hit, or
    /// `None` both for a miss and for a refused ray (a non-finite origin, a
    /// zero or non-finite direction, a negative or NaN `max_distance`, a
    /// colliding body whose pose is not finite). Use it where the ray is
    /// valid by construction; use `try_cast_ray` to tell the two apart.
    pub fn cast_ray(&self, origin: Vec3, direction: Vec3, max_distance: f32) -> Option<RayHit> {
        self.try_cast_ray(origin, direction, max_distance)
            .ok()
            .flatten()
    }

    /// [`PhysicsWorld::try_cast_ray_filtered`] as an `Option`, as
    /// [`PhysicsWorld::cast_ray`] is of [`PhysicsWorld::try_cast_ray`].
    pub fn cast_ray_filtered(
        &self,
        origin: Vec3,
        direction: Vec3,
        max_distance: f32,
        groups: CollisionGroups,
    ) -> Option<RayHit> {
        self.try_cast_ray_filtered(origin, direction, max_distance, groups)
            .ok()
            .flatten()
    }
}
