//! Support rules of SPHERE_MESH_CCD (see docs/continuous-collision.md,
//! "Supported worlds" and "What it refuses, and why"): which role
//! each enabled collider takes, and the reason a body is refused.
//!
//! Roles: a dynamic centred sphere (any symmetric positive-definite inverse
//! tensor, may spin), a dynamic centred capsule that cannot turn (zero
//! inverse tensor, no spin, no torque), a dynamic box or hull that cannot
//! turn (same, may sit off its body origin), a kinematic centred sphere with
//! no spin and no torque, and a static mesh. A body with `collides == false`
//! is outside collision handling (`Role::Passive`) whatever its shape.
//!
//! Turning bodies (`Role::Turning`, see docs/turning-bodies.md): a dynamic
//! capsule, box or hull that can turn (symmetric positive-definite inverse
//! tensor), and a dynamic sphere or capsule whose shape sits off its body
//! origin or its mass centre (offsets at most [`MAX_SHAPE_OFFSET`]); they
//! take the certified sub-steps of `ccd/turning`.
//!
//! Groups of interacting centred spheres, locked capsules and kinematic
//! spheres are swept together (`ccd/group.rs`); a turning body, box or
//! hull that can reach another moving body is refused there. Refused
//! outright: kinematic non-spheres, spinning kinematic spheres, static
//! primitives.

use std::sync::Arc;

use parapet_geometry::Shape;
use parapet_math::{promote, Mat3, Vec3};
use parapet_narrow::advance::SolidCore;
use parapet_narrow::solid::ConvexSolid;
use parapet_narrow::sweep::{SweptShape, MAX_SHAPE_OFFSET};
use parapet_solver::integrate::rotation_split::InverseInertiaSplit;
use parapet_solver::{BodyKind, RigidBody};

use super::error::{CcdError, UnsupportedReason};
use super::turning::shape::solid_core;
use super::turning::TurningShape;

/// Largest accepted capsule half height (unit: metre): a capsule's half
/// height must be finite and at most 10,000 m (see
/// docs/continuous-collision.md, "Precision limits").
pub const MAX_HALF_HEIGHT: f64 = 1.0e4;

/// What the CCD mode does with one body this step.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Role {
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

/// `offset_length(body) != 0.0` without the two square roots
/// ([`offset_is_nonzero`]).
fn has_offset(body: &RigidBody) -> bool {
    offset_is_nonzero(body.shape_offset().0, body.center_of_mass())
}

/// `offset_length_of(offset, center) != 0.0` without the two square roots:
/// a norm is zero exactly when every component is `±0` (the squares of
/// `f32` values in `f64` never underflow), NaN when a component is NaN,
/// and `f64::max` passes over a NaN norm to the other one.
fn offset_is_nonzero(offset: Vec3, center: Vec3) -> bool {
    // The usual body: every component `±0`, both norms zero.
    if offset == Vec3::zeros() && center == Vec3::zeros() {
        return false;
    }
    // `None` for a NaN norm, else whether the norm is nonzero.
    let nonzero = |v: Vec3| -> Option<bool> {
        if v.iter().any(|x| x.is_nan()) {
            None
        } else {
            Some(v.iter().any(|&x| x != 0.0))
        }
    };
    match (nonzero(offset), nonzero(center)) {
        (Some(a), Some(b)) => a || b,
        (None, Some(b)) => b,
        (Some(a), None) => a,
        (None, None) => true,
    }
}

/// The larger of the shape offset's and the mass centre's lengths (m).
fn offset_length_of(offset: Vec3, center: Vec3) -> f64 {
    promote(offset).norm().max(promote(center).norm())
}

fn offset_length(body: &RigidBody) -> f64 {
    offset_length_of(body.shape_offset().0, body.center_of_mass())
}

/// Checks the offsets of a turning shape: its offset from the body origin
/// and the mass centre's, each at most [`MAX_SHAPE_OFFSET`] (10,000 m).
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

/// What [`classify_cached`] keeps between steps, per body slot: the convex
/// solid of a swept box or hull with the shape it was built from (building
/// one, with faces, edges and silhouettes, costs far more than a step's
/// sweeps), and the last inverse inertia tensor whose factorization
/// succeeded (the positive-definite test of spheres and turning capsules).
/// An entry is used only when the slot's shape, or the tensor bit for bit,
/// equals the cached one (a reused slot or a changed body computes again),
/// and both computations are deterministic, so the cache never changes a
/// result.
#[derive(Debug, Clone, Default)]
pub(crate) struct ClassifyCache {
    solids: Vec<Option<(Shape, Arc<ConvexSolid>)>>,
    factorable: Vec<Option<[u32; 9]>>,
    /// A turning box's or hull's core with the shape and placement bits
    /// (shape offset, its rotation, mass centre) it was built from.
    cores: Vec<Option<CachedCore>>,
}

/// A cached turning core: the shape, the bits of its placement (shape
/// offset, its rotation, mass centre) and the core built from them.
type CachedCore = (Shape, [u32; 10], Arc<SolidCore>);

impl ClassifyCache {
    /// An empty cache.
    pub(crate) fn new() -> Self {
        Self::default()
    }

    /// The solid of `shape` in slot `index`: the cached one when the shape
    /// is the cached shape, else `build`'s (then cached).
    #[inline]
    fn solid<E>(
        &mut self,
        index: usize,
        shape: &Shape,
        build: impl FnOnce() -> Result<ConvexSolid, E>,
    ) -> Result<Arc<ConvexSolid>, E> {
        if let Some(Some((cached, solid))) = self.solids.get(index) {
            if cached == shape {
                return Ok(Arc::clone(solid));
            }
        }
        let solid = Arc::new(build()?);
        if self.solids.len() <= index {
            self.solids.resize(index + 1, None);
        }
        self.solids[index] = Some((shape.clone(), Arc::clone(&solid)));
        Ok(solid)
    }

    /// The turning solid core of `body`'s shape in slot `index`: the cached
    /// one when the shape and its placement are the cached ones, else
    /// `build`'s (then cached).
    fn core<E>(
        &mut self,
        index: usize,
        body: &RigidBody,
        build: impl FnOnce() -> Result<SolidCore, E>,
    ) -> Result<Arc<SolidCore>, E> {
        let (offset, rotation) = body.shape_offset();
        let com = body.center_of_mass();
        let q = rotation.coords;
        let bits = [
            offset.x, offset.y, offset.z, q.x, q.y, q.z, q.w, com.x, com.y, com.z,
        ]
        .map(f32::to_bits);
        let shape = body.shape();
        if let Some(Some((cached, cached_bits, core))) = self.cores.get(index) {
            if cached == shape && *cached_bits == bits {
                return Ok(Arc::clone(core));
            }
        }
        let core = Arc::new(build()?);
        if self.cores.len() <= index {
            self.cores.resize(index + 1, None);
        }
        self.cores[index] = Some((shape.clone(), bits, Arc::clone(&core)));
        Ok(core)
    }

    /// Makes room for `slots` body slots, so that filling the cache during
    /// one classification pass grows it at most once.
    pub(crate) fn reserve_slots(&mut self, slots: usize) {
        if self.factorable.len() < slots {
            self.factorable.resize(slots, None);
        }
    }

    /// Whether [`InverseInertiaSplit::factor`] accepts `tensor` (body slot
    /// `index`), remembering the last accepted tensor of the slot.
    fn factorable(&mut self, index: usize, tensor: &Mat3) -> bool {
        // A diagonal tensor is decided outright, cheaper than the lookup.
        if let Some(ok) = diagonal_factorable(tensor) {
            return ok;
        }
        let bits: [u32; 9] = std::array::from_fn(|k| tensor[k].to_bits());
        if self.factorable.get(index) == Some(&Some(bits)) {
            return true;
        }
        let ok = InverseInertiaSplit::factor(tensor).is_some();
        if ok {
            if self.factorable.len() <= index {
                self.factorable.resize(index + 1, None);
            }
            self.factorable[index] = Some(bits);
        }
        ok
    }
}

/// [`InverseInertiaSplit::factor`]'s verdict on a diagonal tensor (every
/// off-diagonal entry `±0`), `None` for any other tensor. For a diagonal
/// tensor the factorization's steps are exact: the symmetry test passes,
/// the multipliers `l21`, `l31`, `l32` are `±0`, so the pivots are the
/// diagonal entries themselves (`d - (±0)² d' = d`), the unit lower factor's
/// columns have squared norm 1 and the rates equal the pivots. It succeeds
/// exactly when every diagonal entry is positive and finite (as `f64`,
/// which keeps every `f32`), the tests `factor` makes on its pivots and
/// rates. The sphere tensors of the usual bodies are diagonal, and this
/// costs a few comparisons instead of the factorization's divisions and
/// square roots.
fn diagonal_factorable(tensor: &Mat3) -> Option<bool> {
    // Column-major: the diagonal is at 0, 4 and 8. Read as bits: an entry
    // is `±0` exactly when its bits without the sign are zero, and positive
    // and finite (as `f64` or as `f32` alike, the widening is exact; NaN
    // neither) exactly when its bits lie in `1..=0x7f7f_ffff` (sign clear,
    // not zero, exponent not all ones).
    let t: &[f32; 9] = tensor.as_slice().try_into().ok()?;
    let b = t.map(f32::to_bits);
    if (b[1] | b[2] | b[3] | b[5] | b[6] | b[7]) & 0x7fff_ffff != 0 {
        return None;
    }
    let positive_finite = |bits: u32| bits.wrapping_sub(1) < 0x7f7f_ffff;
    Some(positive_finite(b[0]) & positive_finite(b[4]) & positive_finite(b[8]))
}

/// The role of a dynamic box or hull that can turn (`name`: "box" or
/// "hull"): a turning body with a symmetric positive-definite inverse
/// tensor, its offsets within [`MAX_SHAPE_OFFSET`].
///
/// # Errors
/// [`UnsupportedReason::TurningTensorNotSpd`]; [`CcdError::Precision`] for
/// an offset beyond the limit; [`UnsupportedReason::TurningSolid`] for a
/// hull whose core cannot be built (no interior).
fn turning_solid(
    index: usize,
    body: &RigidBody,
    name: &'static str,
    cache: &mut ClassifyCache,
) -> Result<Role, CcdError> {
    let refuse = |reason| CcdError::Unsupported {
        body: index,
        reason,
    };
    if !cache.factorable(index, &body.inverse_inertia()) {
        return Err(refuse(UnsupportedReason::TurningTensorNotSpd));
    }
    check_offset(index, body)?;
    let core = cache.core(index, body, || {
        let built = solid_core(body, body.shape())
            .ok_or_else(|| refuse(UnsupportedReason::TurningSolid { shape: name }))?;
        built.map_err(|_| refuse(UnsupportedReason::TurningSolid { shape: name }))
    })?;
    Ok(Role::Turning(TurningShape::Solid { core, name }))
}

/// Classifies one body by the support rules. `torque` is the pending torque
/// (the angular push) read at step entry, before forces consume it.
///
/// # Errors
/// [`CcdError::Unsupported`] with the reason; [`CcdError::Precision`] for a
/// capsule half height beyond [`MAX_HALF_HEIGHT`] or a solid offset beyond
/// [`MAX_SHAPE_OFFSET`].
#[cfg(test)]
pub(crate) fn classify(index: usize, body: &RigidBody) -> Result<Role, CcdError> {
    classify_cached(index, body, &mut ClassifyCache::new())
}

/// [`classify`], taking a box's or hull's solid from `cache` (index `index`
/// is the body's slot).
///
/// # Errors
/// As [`classify`].
///
/// Inlined into its one caller (the plan's per-body loop), where the
/// returned role is built in place.
#[inline]
pub(crate) fn classify_cached(
    index: usize,
    body: &RigidBody,
    cache: &mut ClassifyCache,
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
            // Read only by the shapes that must not turn (a sphere never
            // needs it).
            let locked = || {
                is_zero(&body.inverse_inertia())
                    && body.angular_velocity() == Vec3::zeros()
                    && body.torque() == Vec3::zeros()
                    && body.split_angular_velocity() == Vec3::zeros()
            };
            match shape {
                Shape::Sphere(s) => {
                    if !cache.factorable(index, &body.inverse_inertia()) {
                        return Err(refuse(UnsupportedReason::SphereTensorNotSpd));
                    }
                    if has_offset(body) {
                        check_offset(index, body)?;
                        return Ok(Role::Turning(TurningShape::Segment {
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
                    let turning = TurningShape::Segment {
                        radius: c.radius(),
                        half_height: c.half_height(),
                    };
                    if !is_zero(&body.inverse_inertia()) {
                        if !cache.factorable(index, &body.inverse_inertia()) {
                            return Err(refuse(UnsupportedReason::TurningTensorNotSpd));
                        }
                        check_offset(index, body)?;
                        return Ok(Role::Turning(turning));
                    }
                    if !locked() {
                        let value = max_abs(&body.angular_velocity())
                            .max(max_abs(&body.torque()))
                            .max(max_abs(&body.split_angular_velocity()));
                        return Err(refuse(UnsupportedReason::LockedCapsuleSpins { value }));
                    }
                    if has_offset(body) {
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
                    if !locked() {
                        return turning_solid(index, body, name, cache);
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
                    Ok(Role::Swept(SweptShape::Solid { solid }))
                }
                Shape::Mesh(_) => Err(refuse(UnsupportedReason::MovingMesh)),
                other => Err(refuse(UnsupportedReason::DynamicShape {
                    shape: other.kind_name(),
                })),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn locked(shape: Shape) -> RigidBody {
        let mut b = RigidBody::new_dynamic(shape, 1.0).unwrap();
        b.set_inverse_inertia(Mat3::zeros()).unwrap();
        b
    }

    #[test]
    fn a_cached_solid_is_reused_only_for_the_same_shape() {
        let mut cache = ClassifyCache::new();
        let solid_of =
            |cache: &mut ClassifyCache, body: &RigidBody| match classify_cached(4, body, cache)
                .unwrap()
            {
                Role::Swept(SweptShape::Solid { solid, .. }) => solid,
                other => panic!("{other:?}"),
            };
        let small = locked(Shape::cuboid(Vec3::new(0.5, 0.5, 0.5)).unwrap());
        let first = solid_of(&mut cache, &small);
        let again = solid_of(&mut cache, &small);
        assert!(Arc::ptr_eq(&first, &again));
        // The slot reused by a larger box: built again, as without a cache.
        let large = locked(Shape::cuboid(Vec3::new(1.0, 0.5, 0.5)).unwrap());
        let rebuilt = solid_of(&mut cache, &large);
        assert!(!Arc::ptr_eq(&first, &rebuilt));
        assert_eq!(
            classify_cached(4, &large, &mut cache).unwrap(),
            classify(4, &large).unwrap()
        );
        assert_eq!(rebuilt.bounding_radius(), (1.5f64).sqrt());
    }

    /// The diagonal shortcut gives the factorization's verdict on every
    /// diagonal tensor built from edge values (zeros of both signs,
    /// subnormals, extremes, infinities, NaN), and leaves other tensors to
    /// the factorization.
    #[test]
    fn the_diagonal_shortcut_agrees_with_the_factorization() {
        let values = [
            0.0f32,
            -0.0,
            1.0,
            -1.0,
            f32::MIN_POSITIVE / 4.0,
            f32::MAX,
            f32::INFINITY,
            f32::NAN,
            -f32::NAN,
            f32::NEG_INFINITY,
            -f32::MIN_POSITIVE / 4.0,
            f32::from_bits(1),
            f32::from_bits(0x7f7f_ffff),
            0.4,
        ];
        for &a in &values {
            for &b in &values {
                for &c in &values {
                    let mut t = Mat3::zeros();
                    t[(0, 0)] = a;
                    t[(1, 1)] = b;
                    t[(2, 2)] = c;
                    t[(1, 0)] = -0.0;
                    let fast = diagonal_factorable(&t);
                    assert_eq!(
                        fast,
                        Some(InverseInertiaSplit::factor(&t).is_some()),
                        "{t:?}"
                    );
                }
            }
        }
        let mut coupled = Mat3::identity();
        coupled[(0, 1)] = 0.5;
        coupled[(1, 0)] = 0.5;
        assert_eq!(diagonal_factorable(&coupled), None);
        let mut nan = Mat3::identity();
        nan[(2, 0)] = f32::NAN;
        assert_eq!(diagonal_factorable(&nan), None);
        // The smallest subnormal off the diagonal is not zero.
        let mut tiny = Mat3::identity();
        tiny[(0, 2)] = f32::from_bits(1);
        assert_eq!(diagonal_factorable(&tiny), None);
        tiny[(0, 2)] = -f32::from_bits(1);
        assert_eq!(diagonal_factorable(&tiny), None);
    }

    /// The offset test without square roots agrees with the length test on
    /// zeros of both signs, tiny, huge, infinite and NaN components of the
    /// shape offset and of the mass centre.
    #[test]
    fn the_offset_test_agrees_with_the_offset_length() {
        let values = [
            0.0f32,
            -0.0,
            1.0e-45,
            -3.0,
            f32::MAX,
            f32::INFINITY,
            f32::NAN,
        ];
        for &a in &values {
            for &b in &values {
                for (offset, com) in [
                    (Vec3::new(a, 0.0, b), Vec3::zeros()),
                    (Vec3::zeros(), Vec3::new(0.0, a, b)),
                    (Vec3::new(a, a, 0.0), Vec3::new(0.0, 0.0, b)),
                ] {
                    assert_eq!(
                        offset_is_nonzero(offset, com),
                        offset_length_of(offset, com) != 0.0,
                        "{offset:?} {com:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn a_tensor_that_stops_being_positive_definite_is_refused_despite_the_cache() {
        let mut cache = ClassifyCache::new();
        let mut ball = RigidBody::new_dynamic(Shape::sphere(0.5).unwrap(), 1.0).unwrap();
        for _ in 0..2 {
            assert!(matches!(
                classify_cached(2, &ball, &mut cache),
                Ok(Role::Swept(SweptShape::Sphere { .. }))
            ));
        }
        // A rank-one inverse tensor (spins freely about one axis only).
        let mut tensor = Mat3::zeros();
        tensor[(0, 0)] = 1.0;
        ball.set_inverse_inertia(tensor).unwrap();
        let refusal = classify_cached(2, &ball, &mut cache).unwrap_err();
        assert_eq!(refusal, classify(2, &ball).unwrap_err());
        assert!(matches!(
            refusal,
            CcdError::Unsupported {
                reason: UnsupportedReason::SphereTensorNotSpd,
                ..
            }
        ));
    }
}
