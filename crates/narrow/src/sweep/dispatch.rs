//! The sweep dispatcher: one enum of swept shapes, [`SweptShape`], and one
//! entry point per target, so that a caller never matches on a shape to
//! choose a sweep.
//!
//! | target | entry point | per-pair function it runs |
//! |---|---|---|
//! | one static triangle | [`SweptShape::sweep_triangle`] | [`super::sweep_sphere_triangle`], [`super::sweep_capsule_triangle`], [`super::sweep_solid_triangle`] |
//! | many triangles, one pass | [`SweptShape::prepare`], then [`PreparedSweep::triangle`] | the same, the shape's checks made once ([`super::SolidSweep`] for a solid) |
//! | another moving shape | [`sweep_shape_pair`] (or [`SweptShape::segment`] and [`super::sweep_segment_pair`]) | [`super::sweep_segment_pair`]; a solid has no pair sweep |
//!
//! Method: the dispatcher places the shape ([`Placement`]) as the sweeps
//! take it, runs the per-pair function of its shape and tags the feature
//! with the shape ([`SweptFeature`]); it adds no arithmetic of its own, so
//! its outcomes are those of the per-pair functions bit for bit (the unit
//! tests compare them by their bits over random shapes, placements,
//! motions and triangles, refusals included).
//!
//! Placing a sphere or a capsule: its centre is the shape's world origin,
//! the body position itself when the shape offset is exactly zero (no
//! rounding), else `body_position + body_rotation * shape_offset` rounded to
//! `f32` (the round sweeps take `f32` inputs). A capsule's axis is its
//! shape frame's z axis, turned by `body_rotation * shape_rotation`
//! ([`capsule_half_axis`]), its ends the centre minus and plus that half
//! axis, each rounded to `f32` once.
//!
//! Precision domain: that of each per-pair function (see
//! docs/continuous-collision.md, "Precision limits"); a shape
//! offset of a sphere or capsule is held to [`super::MAX_SHAPE_OFFSET`] and
//! its body rotation to unit norm, as a solid's are.

use std::sync::Arc;

use parapet_math::nalgebra::UnitQuaternion;
use parapet_math::{promote, promote_quat, Quat, Vec3, Vec3d};

use super::capsule_triangle::{capsule_vs, checked_capsule, Capsule, CapsuleTriangleFeature};
use super::domain::{self, SweepRefusal};
use super::placement::{unit_quat, Placement};
use super::segment_pair::{sweep_segment_pair, MovingSegment, PairFeature};
use super::solid_prepared::SolidSweep;
use super::solid_sat::SatAxis;
use super::sphere_triangle::{checked_sphere, sphere_vs};
use super::{SweepOutcome, TriangleFeature};
use crate::solid::ConvexSolid;

/// A shape that the continuous sweeps move: a sphere, a capsule (a segment
/// grown by a radius) or a solid (a box or a convex hull). Only
/// translation is swept: the shape keeps its orientation over a sweep.
#[derive(Debug, Clone, PartialEq)]
pub enum SweptShape {
    /// A sphere centred on its shape origin.
    Sphere {
        /// Radius, metres.
        radius: f32,
    },
    /// A capsule centred on its shape origin, its axis along the shape
    /// frame's z axis.
    Capsule {
        /// Radius, metres.
        radius: f32,
        /// Half height of the axis (excluding the caps), metres.
        half_height: f32,
    },
    /// A box or a convex hull in its shape frame (shared: a caller keeps
    /// one per body and step).
    Solid {
        /// The solid.
        solid: Arc<ConvexSolid>,
    },
}

/// The features of a swept shape's contact with a triangle: those of the
/// shape's per-pair sweep.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum SweptFeature {
    /// A sphere's contact ([`super::sweep_sphere_triangle`]).
    Sphere(TriangleFeature),
    /// A capsule's contact ([`super::sweep_capsule_triangle`]).
    Capsule(CapsuleTriangleFeature),
    /// A solid's contact ([`super::sweep_solid_triangle`]).
    Solid(SatAxis),
}

/// The `f32` world half axis `R_body R_shape (0, 0, h)` of a capsule of half
/// height `h`: exactly `(0, 0, h)` when both rotations are exactly the
/// identity (an upright capsule, the common case), else turned by the unit
/// `f64` quaternion nearest `body_rotation * shape_rotation` and rounded to
/// `f32`.
pub fn capsule_half_axis(body_rotation: Quat, shape_rotation: Quat, half_height: f32) -> Vec3 {
    if body_rotation == Quat::identity() && shape_rotation == Quat::identity() {
        return Vec3::new(0.0, 0.0, half_height);
    }
    let q = promote_quat(body_rotation) * promote_quat(shape_rotation);
    let q = UnitQuaternion::new_normalize(q.into_inner());
    (q * Vec3d::new(0.0, 0.0, half_height as f64)).map(|x| x as f32)
}

/// The world origin of a sphere's or capsule's shape (`f64`): the body
/// position when the offset is exactly zero, else the offset turned by the
/// body rotation, checked first (finite unit rotation, offset within
/// [`super::MAX_SHAPE_OFFSET`]).
fn round_origin(placement: &Placement) -> Result<Vec3d, SweepRefusal> {
    let body = promote(placement.body_position);
    if placement.shape_offset == Vec3::zeros() {
        return Ok(body);
    }
    domain::finite_vec("shape offset", placement.shape_offset)?;
    domain::rotation("body rotation", &placement.body_rotation)?;
    let offset = promote(placement.shape_offset);
    let len = offset.norm();
    if !(len <= domain::MAX_SHAPE_OFFSET) {
        return Err(SweepRefusal::ShapeOffsetTooLarge {
            value: len,
            limit: domain::MAX_SHAPE_OFFSET,
        });
    }
    Ok(body + unit_quat(&placement.body_rotation) * offset)
}

/// `v` rounded to `f32`.
fn demote(v: Vec3d) -> Vec3 {
    v.map(|x| x as f32)
}

impl SweptShape {
    /// The radius that scales the sweeps' radius-relative precision limits
    /// (m): the sphere's or capsule's radius, or a solid's farthest-vertex
    /// radius.
    pub fn limit_radius(&self) -> f64 {
        match self {
            SweptShape::Sphere { radius } | SweptShape::Capsule { radius, .. } => *radius as f64,
            SweptShape::Solid { solid } => solid.bounding_radius(),
        }
    }

    /// The shape placed at `placement` as a member of a pair sweep, moving
    /// at `velocity`: a sphere as a segment of zero length at its centre, a
    /// capsule as its axis (see the module docs).
    ///
    /// # Errors
    /// [`SweepRefusal::UnsupportedShape`] for a solid (no pair sweep), and
    /// the placement's refusals of the module docs.
    pub fn segment(
        &self,
        placement: &Placement,
        velocity: Vec3,
    ) -> Result<MovingSegment, SweepRefusal> {
        match self {
            SweptShape::Sphere { radius } => {
                let c = demote(round_origin(placement)?);
                Ok(MovingSegment::sphere(c, *radius, velocity))
            }
            SweptShape::Capsule {
                radius,
                half_height,
            } => {
                let (p0, p1) = self.capsule_ends(placement, *half_height)?;
                Ok(MovingSegment::capsule(p0, p1, *radius, velocity))
            }
            SweptShape::Solid { solid } => Err(SweepRefusal::UnsupportedShape {
                shape: solid.kind_name(),
                target: "another moving shape",
            }),
        }
    }

    /// A capsule's `f32` axis ends at `placement`.
    fn capsule_ends(
        &self,
        placement: &Placement,
        half_height: f32,
    ) -> Result<(Vec3, Vec3), SweepRefusal> {
        let c = round_origin(placement)?;
        let half = capsule_half_axis(
            placement.body_rotation,
            placement.shape_rotation,
            half_height,
        );
        let half = promote(half);
        Ok((demote(c - half), demote(c + half)))
    }

    /// The shape at `placement`, moving at `velocity` (m/s) for `dt`
    /// seconds, checked and prepared once to be swept against any number of
    /// static triangles ([`PreparedSweep::triangle`]). A refusal of the
    /// shape, placement or motion is kept and returned for every triangle.
    pub fn prepare(&self, placement: &Placement, velocity: Vec3, dt: f32) -> PreparedSweep<'_> {
        let prepared = match self {
            SweptShape::Sphere { radius } => round_origin(placement).and_then(|c| {
                let (c, r, d) = checked_sphere(demote(c), *radius, velocity, dt)?;
                Ok(Prepared::Sphere { c, r, d })
            }),
            SweptShape::Capsule {
                radius,
                half_height,
            } => self
                .capsule_ends(placement, *half_height)
                .and_then(|(p0, p1)| {
                    Ok(Prepared::Capsule(checked_capsule(
                        p0, p1, *radius, velocity, dt,
                    )?))
                }),
            SweptShape::Solid { solid } => {
                SolidSweep::new(solid, placement, velocity, dt).map(Prepared::Solid)
            }
        };
        PreparedSweep { prepared }
    }

    /// The shape at `placement`, moving at `velocity` (m/s) for `dt`
    /// seconds, against one static one-sided triangle: the outcome of the
    /// shape's per-pair sweep (see the module docs), its feature tagged.
    pub fn sweep_triangle(
        &self,
        placement: &Placement,
        velocity: Vec3,
        dt: f32,
        triangle: &[Vec3; 3],
    ) -> SweepOutcome<SweptFeature> {
        self.prepare(placement, velocity, dt).triangle(triangle)
    }
}

/// A swept shape's checked state for one sweep: what its per-pair function
/// computes before it looks at a triangle.
#[derive(Debug, Clone)]
enum Prepared<'a> {
    /// Centre, radius and displacement (`f64`).
    Sphere { c: Vec3d, r: f64, d: Vec3d },
    /// The checked capsule.
    Capsule(Capsule),
    /// The prepared solid sweep.
    Solid(SolidSweep<'a>),
}

/// A swept shape prepared for one sweep (one pass of a caller's loop) by
/// [`SweptShape::prepare`]: [`PreparedSweep::triangle`] gives, bit for bit,
/// the outcome of the shape's per-pair sweep against that triangle, the
/// shape's refusal included (returned for every triangle).
#[derive(Debug, Clone)]
pub struct PreparedSweep<'a> {
    prepared: Result<Prepared<'a>, SweepRefusal>,
}

impl PreparedSweep<'_> {
    /// The prepared shape against one static one-sided triangle.
    pub fn triangle(&self, triangle: &[Vec3; 3]) -> SweepOutcome<SweptFeature> {
        match &self.prepared {
            Ok(Prepared::Sphere { c, r, d }) => {
                sphere_vs(*c, *r, *d, triangle).map_feature(SweptFeature::Sphere)
            }
            Ok(Prepared::Capsule(cap)) => {
                capsule_vs(cap, triangle).map_feature(SweptFeature::Capsule)
            }
            Ok(Prepared::Solid(sweep)) => sweep.triangle(triangle).map_feature(SweptFeature::Solid),
            Err(refusal) => SweepOutcome::Refused(*refusal),
        }
    }

    /// The refusal of the shape, placement or motion, if they were refused
    /// (then every triangle gets it).
    pub fn refusal(&self) -> Option<SweepRefusal> {
        self.prepared.as_ref().err().copied()
    }
}

/// Two swept shapes, each at its placement and moving at its velocity,
/// swept against each other over `dt` seconds: [`super::sweep_segment_pair`]
/// on their segments ([`SweptShape::segment`]); the normal runs from B
/// towards A.
pub fn sweep_shape_pair(
    a: &SweptShape,
    placement_a: &Placement,
    velocity_a: Vec3,
    b: &SweptShape,
    placement_b: &Placement,
    velocity_b: Vec3,
    dt: f32,
) -> SweepOutcome<PairFeature> {
    let segments = a
        .segment(placement_a, velocity_a)
        .and_then(|sa| Ok((sa, b.segment(placement_b, velocity_b)?)));
    match segments {
        Ok((sa, sb)) => sweep_segment_pair(&sa, &sb, dt),
        Err(refusal) => SweepOutcome::Refused(refusal),
    }
}

#[cfg(test)]
#[path = "dispatch_tests.rs"]
mod tests;
