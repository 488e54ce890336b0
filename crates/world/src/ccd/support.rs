//! Support rules of SPHERE_MESH_CCD (seed 000 "Supported worlds"): which role
//! each enabled collider takes, and the reason a body is refused.
//!
//! Roles: a dynamic centred sphere (any symmetric positive-definite inverse
//! tensor, may spin), a dynamic centred capsule that cannot turn (zero
//! inverse tensor, no spin, no torque), a dynamic box or hull that cannot
//! turn (same, may sit off its body origin), a kinematic centred sphere with
//! no spin and no torque, and a static mesh. A body with `collides == false`
//! is outside collision handling ([`Role::Passive`]) whatever its shape.
//!
//! Turning bodies ([`Role::Turning`], seed 000 "Turning bodies"): a dynamic
//! capsule that can turn (symmetric positive-definite inverse tensor), and a
//! dynamic sphere or capsule whose shape sits off its body origin or its mass
//! centre (by at most [`MAX_SHAPE_OFFSET`]); they take the certified
//! sub-steps of [`crate::ccd::turning`].
//!
//! Groups of interacting centred spheres, locked capsules and kinematic
//! spheres are swept together ([`crate::ccd::group`]); a turning body, box or
//! hull that can reach another moving body is refused there. Everything the seed refuses stays
//! refused: turning boxes and hulls, kinematic non-spheres, spinning
//! kinematic spheres, static primitives.

use std::sync::Arc;

use parapet_geometry::Shape;
use parapet_math::{promote, Mat3, Vec3};
use parapet_narrow::sweep::{ConvexSolid, MAX_SHAPE_OFFSET};
use parapet_solver::integrate::rotation_split::InverseInertiaSplit;
use parapet_solver::{BodyKind, RigidBody};

use super::error::{CcdError, UnsupportedReason};
use super::turning::TurningShape;

/// Largest accepted capsule half height (unit: metre). Seed 000: "A capsule's
/// half height must be finite and at most 10000 meters".
pub const MAX_HALF_HEIGHT: f64 = 1.0e4;

/// The shape a swept body moves, prepared for its sweep.
#[derive(Debug, Clone, PartialEq)]
pub enum SweptShape {
    /// A sphere centred on its body origin and mass centre.
    Sphere {
        /// Radius, metres.
        radius: f32,
    },
    /// A capsule that cannot turn, centred on its body origin.
    Capsule {
        /// Radius, metres.
        radius: f32,
        /// Half height (excluding the caps), metres.
        half_height: f32,
    },
    /// A box or hull that cannot turn.
    Solid {
        /// The solid in its shape frame (shared with [`SolidCache`]).
        solid: Arc<ConvexSolid>,
        /// "box" or "hull", for messages.
        name: &'static str,
    },
}

impl SweptShape {
    /// The radius that sets the radius-relative precision limits: the
    /// sphere or capsule radius, or a solid's farthest-vertex radius.
    pub fn limit_radius(&self) -> f64 {
        match self {
            SweptShape::Sphere { radius } | SweptShape::Capsule { radius, .. } => *radius as f64,
            SweptShape::Solid { solid, .. } => solid.bounding_radius(),
        }
    }
}

/// What the CCD mode does with one body this step.
#[derive(Debug, Clone, PartialEq)]
pub enum Role {
    /// `collides == false`: validated and integrated, never collided.
    Passive,
    /// A static mesh: its triangles are in the world's snapshot.
    StaticMesh,
    /// A kinematic sphere: follows its velocity, takes no impulse, passes
    /// through meshes.
    KinematicSphere {
        /// Radius, metres.
        radius: f32,
    },
    /// A dynamic body swept against the static meshes.
    Swept(SweptShape),
    /// A turning body: certified sub-steps against the static meshes.
    Turning(TurningShape),
}

fn max_abs(v: &Vec3) -> f32 {
    v.amax()
}

fn is_zero(m: &Mat3) -> bool {
    m.iter().all(|&x| x == 0.0)
}

fn offset_length(body: &RigidBody) -> f64 {
    let (offset, _) = body.shape_offset();
    promote(offset)
        .norm()
        .max(promote(body.center_of_mass()).norm())
}

/// Checks the offsets of a turning shape: its offset from the body origin
/// and the mass centre's, each at most [`MAX_SHAPE_OFFSET`] (seed 000).
fn check_offset(index: usize, body: &RigidBody) -> Result<(), CcdError> {
    let shape = promote(body.shape_offset().0);
    let center = promote(body.center_of_mass());
    let off = shape.norm().max((shape - center).norm()).max(center.norm());
    if !(off <= MAX_SHAPE_OFFSET) {
        return Err(CcdError::Precision {
            body: index,
            quantity: "shape or mass-centre offset (m)",
            value: off,
            limit: MAX_SHAPE_OFFSET,
        });
    }
    Ok(())
}

/// The convex solids of swept boxes and hulls, kept per body slot with the
/// shape they were built from: building one (faces, edges, silhouettes)
/// costs far more than a step's sweeps, and a body's shape does not change.
/// An entry is reused only when the slot's shape equals the cached one (a
/// reused slot or a new shape builds again), and the build is
/// deterministic, so the cache never changes a result.
#[derive(Debug, Clone, Default)]
pub struct SolidCache {
    by_slot: Vec<Option<(Shape, Arc<ConvexSolid>)>>,
}

impl SolidCache {
    /// An empty cache.
    pub fn new() -> Self {
        Self::default()
    }

    /// The solid of `shape` in slot `index`: the cached one when the shape
    /// is the cached shape, else `build`'s (then cached).
    fn solid<E>(
        &mut self,
        index: usize,
        shape: &Shape,
        build: impl FnOnce() -> Result<ConvexSolid, E>,
    ) -> Result<Arc<ConvexSolid>, E> {
        if let Some(Some((cached, solid))) = self.by_slot.get(index) {
            if cached == shape {
                return Ok(Arc::clone(solid));
            }
        }
        let solid = Arc::new(build()?);
        if self.by_slot.len() <= index {
            self.by_slot.resize(index + 1, None);
        }
        self.by_slot[index] = Some((shape.clone(), Arc::clone(&solid)));
        Ok(solid)
    }
}

/// Classifies one body by the support rules. `torque` is the pending torque
/// (the angular push) read at step entry, before forces consume it.
///
/// # Errors
/// [`CcdError::Unsupported`] with the reason; [`CcdError::Precision`] for a
/// capsule half height beyond [`MAX_HALF_HEIGHT`] or a solid offset beyond
/// [`MAX_SHAPE_OFFSET`].
pub fn classify(index: usize, body: &RigidBody) -> Result<Role, CcdError> {
    classify_cached(index, body, &mut SolidCache::new())
}

/// [`classify`], taking a box's or hull's solid from `cache` (index `index`
/// is the body's slot).
///
/// # Errors
/// As [`classify`].
pub fn classify_cached(
    index: usize,
    body: &RigidBody,
    cache: &mut SolidCache,
) -> Result<Role, CcdError> {
    let refuse = |reason| CcdError::Unsupported {
        body: index,
        reason,
    };
    if !body.collides() {
        return Ok(Role::Passive);
    }
    let shape = body.shape();
    match body.kind() {
        BodyKind::Static => match shape {
            Shape::Mesh(_) => Ok(Role::StaticMesh),
            other => Err(refuse(UnsupportedReason::StaticPrimitive {
                shape: other.kind_name(),
            })),
        },
        BodyKind::Kinematic => match shape {
            Shape::Sphere(s) => {
                let spin = max_abs(&body.angular_velocity()) as f64;
                if spin != 0.0 {
                    return Err(refuse(UnsupportedReason::KinematicSphereMotion {
                        quantity: "spin",
                        value: spin,
                    }));
                }
                let torque = max_abs(&body.torque()) as f64;
                if torque != 0.0 {
                    return Err(refuse(UnsupportedReason::KinematicSphereMotion {
                        quantity: "torque",
                        value: torque,
                    }));
                }
                let off = offset_length(body);
                if off != 0.0 {
                    return Err(refuse(UnsupportedReason::KinematicSphereMotion {
                        quantity: "shape offset",
                        value: off,
                    }));
                }
                Ok(Role::KinematicSphere { radius: s.radius() })
            }
            other => Err(refuse(UnsupportedReason::KinematicShape {
                shape: other.kind_name(),
            })),
        },
        BodyKind::Dynamic => {
            let locked = is_zero(&body.inverse_inertia())
                && body.angular_velocity() == Vec3::zeros()
                && body.torque() == Vec3::zeros()
                && body.split_angular_velocity() == Vec3::zeros();
            match shape {
                Shape::Sphere(s) => {
                    if InverseInertiaSplit::factor(&body.inverse_inertia()).is_none() {
                        return Err(refuse(UnsupportedReason::SphereTensorNotSpd));
                    }
                    if offset_length(body) != 0.0 {
                        check_offset(index, body)?;
                        return Ok(Role::Turning(TurningShape {
                            radius: s.radius(),
                            half_height: 0.0,
                        }));
                    }
                    Ok(Role::Swept(SweptShape::Sphere { radius: s.radius() }))
                }
                Shape::Capsule(c) => {
                    let h = c.half_height() as f64;
                    if !(h.is_finite() && h <= MAX_HALF_HEIGHT) {
                        return Err(CcdError::Precision {
                            body: index,
                            quantity: "capsule half height (m)",
                            value: h,
                            limit: MAX_HALF_HEIGHT,
                        });
                    }
                    let turning = TurningShape {
                        radius: c.radius(),
                        half_height: c.half_height(),
                    };
                    if !is_zero(&body.inverse_inertia()) {
                        if InverseInertiaSplit::factor(&body.inverse_inertia()).is_none() {
                            return Err(refuse(UnsupportedReason::TurningTensorNotSpd));
                        }
                        check_offset(index, body)?;
                        return Ok(Role::Turning(turning));
                    }
                    if !locked {
                        let value = max_abs(&body.angular_velocity())
                            .max(max_abs(&body.torque()))
                            .max(max_abs(&body.split_angular_velocity()));
                        return Err(refuse(UnsupportedReason::LockedCapsuleSpins { value }));
                    }
                    if offset_length(body) != 0.0 {
                        check_offset(index, body)?;
                        return Ok(Role::Turning(turning));
                    }
                    Ok(Role::Swept(SweptShape::Capsule {
                        radius: c.radius(),
                        half_height: c.half_height(),
                    }))
                }
                Shape::Cuboid(_) | Shape::ConvexHull(_) => {
                    let name = if matches!(shape, Shape::Cuboid(_)) {
                        "box"
                    } else {
                        "hull"
                    };
                    if !locked {
                        return Err(refuse(UnsupportedReason::TurningSolid { shape: name }));
                    }
                    let off = promote(body.shape_offset().0).norm();
                    if !(off <= MAX_SHAPE_OFFSET) {
                        return Err(CcdError::Precision {
                            body: index,
                            quantity: "shape offset (m)",
                            value: off,
                            limit: MAX_SHAPE_OFFSET,
                        });
                    }
                    let solid = cache.solid(index, shape, || {
                        let solid = if let Shape::Cuboid(c) = shape {
                            ConvexSolid::from_cuboid(c.half_extents())
                        } else if let Shape::ConvexHull(h) = shape {
                            let faces: Vec<[u32; 3]> = h.triangles().collect();
                            ConvexSolid::from_points(h.vertices(), &faces)
                        } else {
                            return Err(refuse(UnsupportedReason::TurningSolid { shape: name }));
                        };
                        solid.map_err(|_| refuse(UnsupportedReason::TurningSolid { shape: name }))
                    })?;
                    Ok(Role::Swept(SweptShape::Solid { solid, name }))
                }
                Shape::Mesh(_) => Err(refuse(UnsupportedReason::MovingMesh)),
            }
        }
    }
}
