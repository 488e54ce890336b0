//! The moving shape of a body alone ([`super`]) during its step: its fixed
//! geometry (a capsule's `f32` world half axis, a solid's rotations and
//! offset), the exact sweep of one triangle for one pass, the lever arm of
//! an impact, and the shape as the clear-miss tests of
//! [`super::clear_miss`] see it.
//!
//! # Method
//! The sweeps are narrow's dispatcher: the shape is prepared once per pass
//! ([`SweptShape::prepare`]), which gives its per-pair sweep's outcome bit
//! for bit, its placement refusal included; feature labels are dropped.
//! A capsule's half axis is narrow's ([`capsule_half_axis`]), the one the
//! dispatcher places the capsule with.
//!
//! # Source
//! docs/continuous-collision.md, "How a step works" and "Precision
//! limits".
//!
//! # Precision domain
//! The sweeps' own; a solid's farthest-vertex radius is widened by
//! `SOLID_BOUND_WIDEN` for its bounding ball in the world.

use parapet_math::{promote, promote_quat, Quat, Vec3, Vec3d};
use parapet_narrow::sweep::{
    capsule_half_axis, Impact, Placement, PreparedSweep, SweepOutcome, SweptShape,
    MAX_SHAPE_OFFSET, ROTATION_NORM_SQ_TOLERANCE,
};

use super::clear_miss::{
    shape_clear, PassHull, PassShape, REJECT_DISTANCE_RADII, SHAPE_LIMIT_FRACTION,
    SOLID_BOUND_WIDEN,
};

/// The fixed geometry of the moving shape during the step. A sphere or
/// capsule is centred on its body origin (one with a shape offset turns,
/// and is no `SweptShape`), so its centre is the body position.
pub(super) struct Mover<'a> {
    pub(super) shape: &'a SweptShape,
    /// Capsule: the `f32` world half axis ([`capsule_half_axis`]); zero
    /// otherwise.
    pub(super) half_axis: Vec3d,
    pub(super) body_rotation: Quat,
    pub(super) shape_offset: Vec3,
    pub(super) shape_rotation: Quat,
    /// [`SweptShape::limit_radius`] (m).
    pub(super) limit_radius: f64,
    /// Solid: the shape centre's offset from the body origin, world (m),
    /// as [`Mover::pass_shape`] turns it; zero otherwise.
    pub(super) center_offset: Vec3d,
    /// Solid: its farthest-vertex radius widened by [`SOLID_BOUND_WIDEN`]
    /// (m); 0 otherwise.
    pub(super) solid_bound: f64,
    /// Whether a solid's rotations and offset lie within
    /// [`SHAPE_LIMIT_FRACTION`] of their limits (always for a sphere or
    /// capsule): [`shape_clear`]'s part that does not change over the step.
    pub(super) solid_clear: bool,
}

impl<'a> Mover<'a> {
    pub(super) fn new(
        shape: &'a SweptShape,
        body_rotation: Quat,
        shape_offset: Vec3,
        shape_rotation: Quat,
    ) -> Self {
        let half_axis = match shape {
            SweptShape::Capsule { half_height, .. } => promote(capsule_half_axis(
                body_rotation,
                shape_rotation,
                *half_height,
            )),
            _ => Vec3d::zeros(),
        };
        let (center_offset, solid_bound, solid_clear) = match shape {
            SweptShape::Solid { solid } => {
                let k = SHAPE_LIMIT_FRACTION;
                let unit = |q: &Quat| {
                    let c = q.into_inner().coords;
                    c.iter().all(|x| x.is_finite())
                        && (c.cast::<f64>().norm_squared() - 1.0).abs()
                            <= k * ROTATION_NORM_SQ_TOLERANCE
                };
                let offset = promote(shape_offset);
                let clear = unit(&body_rotation)
                    && unit(&shape_rotation)
                    && offset.norm() <= k * MAX_SHAPE_OFFSET;
                // A centred solid (the common case) needs no turn.
                let center_offset = if shape_offset == Vec3::zeros() {
                    Vec3d::zeros()
                } else {
                    let rotation = parapet_math::nalgebra::UnitQuaternion::new_normalize(
                        promote_quat(body_rotation).into_inner(),
                    );
                    rotation * offset
                };
                let bound = solid.bounding_radius() * (1.0 + SOLID_BOUND_WIDEN);
                (center_offset, bound, clear)
            }
            _ => (Vec3d::zeros(), 0.0, true),
        };
        Mover {
            shape,
            half_axis,
            body_rotation,
            shape_offset,
            shape_rotation,
            limit_radius: shape.limit_radius(),
            center_offset,
            solid_bound,
            solid_clear,
        }
    }

    /// [`shape_clear`] for this shape (`limit_radius`, and whether a
    /// solid's rotations and offset lie within the fraction of their
    /// limits) at `p` moving at `v` for `tau`.
    #[inline]
    pub(super) fn shape_clear(&self, hull: &PassHull, p: Vec3, v: Vec3, tau: f32) -> bool {
        shape_clear(self.limit_radius, self.solid_clear, hull, p, v, tau)
    }

    /// The shape at `p` as [`shape_clear`] and [`PassRegion`] see it.
    pub(super) fn hull(&self, p: Vec3) -> PassHull {
        let c = promote(p);
        match self.shape {
            SweptShape::Sphere { radius } => PassHull {
                center: c,
                lo: c,
                hi: c,
                radius: *radius as f64,
                half_axis: 0.0,
                core_reach: 0.0,
            },
            SweptShape::Capsule { radius, .. } => {
                let (p0, p1) = self.capsule_ends(p);
                let (q0, q1) = (promote(p0), promote(p1));
                PassHull {
                    center: c,
                    lo: q0.inf(&q1),
                    hi: q0.sup(&q1),
                    radius: *radius as f64,
                    half_axis: 0.5 * (q1 - q0).norm(),
                    core_reach: (q0 - c).norm().max((q1 - c).norm()),
                }
            }
            SweptShape::Solid { .. } => {
                let center = c + self.center_offset;
                PassHull {
                    center,
                    lo: center.add_scalar(-self.solid_bound),
                    hi: center.add_scalar(self.solid_bound),
                    radius: 0.0,
                    half_axis: 0.0,
                    core_reach: self.solid_bound,
                }
            }
        }
    }

    pub(super) fn sweep(&self, p: Vec3, v: Vec3, tau: f32, tri: &[Vec3; 3]) -> SweepOutcome<()> {
        self.sweep_pass(p, v, tau, tri, &mut None)
    }

    /// [`Mover::sweep`] within one pass (the same `p`, `v` and `tau` for
    /// every triangle): the shape is prepared at the pass's first sweep
    /// ([`SweptShape::prepare`], kept in `prepared`), which gives its
    /// per-pair sweep's outcome bit for bit, its refusal included
    /// (reported for the first triangle swept).
    pub(super) fn sweep_pass<'s>(
        &'s self,
        p: Vec3,
        v: Vec3,
        tau: f32,
        tri: &[Vec3; 3],
        prepared: &mut Option<PreparedSweep<'s>>,
    ) -> SweepOutcome<()> {
        prepared
            .get_or_insert_with(|| self.shape.prepare(&self.placement(p), v, tau))
            .triangle(tri)
            .map_feature(drop)
    }

    /// The shape's placement with its body origin at `p`.
    fn placement(&self, p: Vec3) -> Placement {
        Placement {
            body_position: p,
            body_rotation: self.body_rotation,
            shape_offset: self.shape_offset,
            shape_rotation: self.shape_rotation,
        }
    }

    /// The capsule's `f32` segment ends with its centre at `p`.
    pub(super) fn capsule_ends(&self, p: Vec3) -> (Vec3, Vec3) {
        let c = promote(p);
        let p0 = (c - self.half_axis).map(|x| x as f32);
        let p1 = (c + self.half_axis).map(|x| x as f32);
        (p0, p1)
    }

    /// Fills `out` with the shape at `p` for [`clearly_misses`].
    ///
    /// Called only for a pass with candidates; kept out of line so that
    /// its loop-invariant parts (a solid's turned rotation, a capsule's
    /// axis test) are not hoisted into every body's sweep.
    #[inline(never)]
    pub(super) fn pass_shape(&self, p: Vec3, out: &mut PassShape) {
        out.points.clear();
        out.limit_radius = self.shape.limit_radius();
        let far = REJECT_DISTANCE_RADII * out.limit_radius;
        match self.shape {
            SweptShape::Sphere { radius } => {
                out.center = promote(p);
                out.radius = *radius as f64;
                out.points.push(out.center);
            }
            SweptShape::Capsule { radius, .. } => {
                out.center = promote(p);
                out.radius = *radius as f64;
                if self.half_axis.amax() <= far {
                    let (p0, p1) = self.capsule_ends(p);
                    out.points.extend([promote(p0), promote(p1)]);
                }
            }
            SweptShape::Solid { solid } => {
                let unit = |q: Quat| {
                    parapet_math::nalgebra::UnitQuaternion::new_normalize(
                        promote_quat(q).into_inner(),
                    )
                };
                let body_rotation = unit(self.body_rotation);
                let rotation = body_rotation * unit(self.shape_rotation);
                out.center = promote(p) + self.center_offset;
                out.radius = 0.0;
                let center = out.center;
                out.points
                    .extend(solid.vertices().iter().map(|v| rotation * v + center));
            }
        }
    }

    /// Lever arm from the mass centre `p` (the body origin: centred shapes
    /// and bodies that cannot turn) to the contact.
    pub(super) fn arm(&self, p: Vec3, impact: &Impact<()>) -> Vec3d {
        match self.shape {
            SweptShape::Sphere { radius } => -impact.normal * *radius as f64,
            _ => impact.point - promote(p),
        }
    }
}
