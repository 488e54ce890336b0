//! Certified conservative advancement of any convex shape that turns (box,
//! convex hull, capsule, sphere, with its mass centre anywhere) against
//! static one-sided triangles.
//!
//! A turning shape does not move in a straight line, so no exact sweep
//! exists. Instead it advances in sub-steps, each certified for every
//! candidate triangle: during the sub-step no point of the shape comes
//! closer to any triangle than a floor a small tolerance below its surface.
//! The driver ([`advance`]) runs those sub-steps over an interval and stops
//! at the first sub-step start where some triangle is within the tolerance
//! band and its contact closes, with that triangle's contact points (the
//! manifold: a box landing flat reports its four corners at once); or it
//! reports the interval clear.
//!
//! # Method
//! Conservative advancement (Mirtich, "Impulse-based Dynamic Simulation of
//! Rigid Body Systems", PhD thesis, UC Berkeley 1996, ch. 4), with a Taylor
//! bound of the rigid motion (Zhang, Redon, Lee and Manocha, "Continuous
//! collision detection for articulated models using Taylor models and
//! temporal culling", SIGGRAPH 2007) and controlled advancement to a
//! tolerance band (Tang, Kim and Manocha, "C2A: Controlled conservative
//! advancement for continuous collision detection of polygonal models",
//! ICRA 2009). A shape is a convex *core* (a polytope's vertices, a capsule's
//! segment, a sphere's centre) grown by a *skin* radius (zero for a
//! polytope); the [`CoreShape`] trait says how one kind of core meets a
//! triangle, everything else is shared:
//!
//! 1. **Lower bound of the separation** at the sub-step start (the
//!    [`Separation`] of [`CoreShape::separation`]): a plane that leaves the
//!    whole triangle on its back side (up to a rounding slack), and the
//!    smallest signed distance of a core point in front of it. Any such plane
//!    bounds the true distance from below; the candidates are the triangle's
//!    face plane, its edge side planes, the solid's face planes, the edge-edge
//!    cross-product planes and the closest-feature plane, which separates by
//!    exactly the distance and keeps oblique approaches from stalling (see
//!    [`solid`] and [`segment`] for each kind).
//! 2. **Upper bound of the closing** along that plane over the sub-step
//!    ([`bound`]): every core point moves at `u_i = v + ω × p_i` plus a
//!    deviation from that line of at most `|ω|² ρ t² / 2` (`ρ` the farthest
//!    core point's distance from the spin axis through the mass centre),
//!    taken along the plane normal only for solids.
//! 3. **Admissible time** ([`bound::admissible_time`]): the largest sub-step
//!    during which that bound stays above the floor `min(skin − tol,
//!    separation − tol · MIN_GAP_FRACTION)`, with `tol` the shape's
//!    [`CoreShape::tolerance`], [`TOLERANCE_FRACTION`] of its inner radius.
//!    The sub-step is the smallest over the candidates.
//!
//! Between sub-steps the mass centre moves at constant velocity and the
//! body turns by exactly `|ω| t` about `ω` ([`RigidMotion::advanced`]).
//!
//! # Guarantee
//! For the `f64` motion of [`RigidMotion`], a shape that is in front of a
//! triangle (not wholly behind its face plane: the one-sided rule) at a
//! sub-step start never comes closer to it during that sub-step than its
//! skin less the tolerance (a solid: never deeper than the tolerance), and
//! one already deeper sinks by at most `tol · MIN_GAP_FRACTION` per
//! sub-step. A triangle that the shape is wholly behind at a sub-step start
//! does not catch it.
//!
//! # Precision domain
//! `f64` in a working frame at the mass centre (triangles are promoted from
//! `f32` and re-centred before anything else). The shape's domain radius
//! ([`CoreShape::domain_radius`]: a capsule's radius, a solid's farthest
//! vertex) lies within [`crate::sweep::MIN_RADIUS`] and
//! [`crate::sweep::MAX_RADIUS`], its points within 65536 domain radii and
//! the candidate triangles within 1048576 domain radii of the mass centre
//! ([`check_candidates`]). Every plane distance, approach rate and bend is
//! made conservative by [`bound::ADVANCE_ROUNDING_FACTOR`] `ε` of its
//! operands; in that domain the slacks stay below `1e-8` domain radii, far
//! inside the tolerance.
//!
//! # Use by a world and by pairs
//! A world calls [`advance`] per body with the triangles its bounds tree
//! returns, responds to the reported contacts and calls it again for the
//! rest of the step with the same [`SubstepBudget`]; or it runs its own loop
//! with [`contacts_at`] and [`certified_step`], which compute the same
//! quantities one pass at a time. Everything here is written against one
//! moving core and a static convex obstacle given by its vertices; the
//! relative motion of two bodies enters only through [`bound`], whose
//! per-point linear rates and bend would then carry the other body's terms.

// Negated comparisons (`!(x <= limit)`) are deliberate: they are true for
// NaN, so a NaN operand is refused or rejected, never mistaken for a value
// within a limit.
#![allow(clippy::neg_cmp_op_on_partial_ord)]

pub mod bound;
pub mod driver;
pub mod held;
pub mod segment;
pub mod solid;
mod solid_manifold;
mod solid_plane;
mod solid_shape;

pub use bound::{sub_step_floor, BendMode, PointMotion, ADVANCE_ROUNDING_FACTOR, MIN_GAP_FRACTION};
pub use driver::{
    advance, certified_step, certified_step_held, check_candidates, contacts_at, Advance,
    AdvanceError, ContactEvent, RigidMotion, SubstepBudget, TouchPoint, TriangleContact,
};
pub use held::{hold, HeldBand, Hold, HOLD_START_FRACTION};
pub use segment::SegmentCore;
pub use solid::{PosedSolid, SolidCore, SolidError};

/// A small deterministic generator for the unit tests of this module.
#[cfg(test)]
pub(crate) mod test_rng {
    use parapet_math::Vec3d;

    /// A 64-bit linear congruential generator (Knuth's MMIX constants).
    pub(crate) struct Lcg(u64);

    impl Lcg {
        /// A generator from a seed.
        pub(crate) fn new(seed: u64) -> Self {
            Lcg(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15).wrapping_add(1))
        }

        /// A uniform value in `[lo, hi)`.
        pub(crate) fn range(&mut self, lo: f64, hi: f64) -> f64 {
            self.0 = self
                .0
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            let u = (self.0 >> 11) as f64 / (1u64 << 53) as f64;
            lo + (hi - lo) * u
        }

        /// A vector with components uniform in `[-scale, scale)`.
        pub(crate) fn vec(&mut self, scale: f64) -> Vec3d {
            Vec3d::new(
                self.range(-scale, scale),
                self.range(-scale, scale),
                self.range(-scale, scale),
            )
        }
    }
}

use parapet_math::{Quatd, Vec3d};

/// The tolerance band of every turning shape as a fraction of its inner
/// radius (dimensionless): 1/1024, the value of `TURNING_TOLERANCE_FRACTION`
/// in `sweep/certified_advance.rs` (the inner radius of a
/// capsule or sphere is its radius, so a capsule keeps the tolerance it has
/// today). The inner radius is a box's smallest half extent, a hull's
/// smallest distance from its vertex centroid to a face plane: the band is
/// then a small fraction of the shape's thinnest dimension, so a shape at
/// the bottom of the band is still shallowly in contact, and it is large
/// enough that sub-steps near a surface keep a length bounded below.
/// Warning: a smaller value multiplies the sub-steps of a shape spinning
/// near a surface (their length scales with its square root).
pub const TOLERANCE_FRACTION: f64 = crate::sweep::certified_advance::TURNING_TOLERANCE_FRACTION;

/// Where a shape sits in its body, relative to the body's mass centre: the
/// core's body-frame points are `translation + rotation * x` for its
/// shape-frame points `x`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Placement {
    /// The shape origin relative to the body's mass centre, body frame (m):
    /// the shape offset less the mass centre.
    pub translation: Vec3d,
    /// The shape frame's rotation in the body frame (unit).
    pub rotation: Quatd,
}

impl Placement {
    /// A shape whose origin is the mass centre, unrotated in its body.
    pub fn centred() -> Self {
        Placement {
            translation: Vec3d::zeros(),
            rotation: Quatd::identity(),
        }
    }
}

/// A plane that certifies a separation: the whole triangle lies on its back
/// side, up to `slack`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Plane {
    /// Unit normal, from the triangle towards the shape.
    pub normal: Vec3d,
    /// A point of the plane (m, working frame).
    pub point: Vec3d,
    /// How far (m, `>= 0`) a triangle point may lie in front of the plane
    /// through rounding; subtracted from every gap measured from it.
    pub slack: f64,
}

/// The separation of a shape's core from one triangle at one pose, with the
/// plane that certifies it and the closest features.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Separation {
    /// The chosen separating plane (the most separating candidate).
    pub plane: Plane,
    /// The smallest distance (m) of a core point in front of the plane, as
    /// computed (negative when a core point is behind it).
    pub separation: f64,
    /// A certified lower bound (m) of the signed distance between the core
    /// and the triangle (negative: at most that deep): `separation` less the
    /// plane's slack and the rounding of the plane distances.
    pub lower_bound: f64,
    /// The closest-feature distance of the core and the triangle (m); `0`
    /// when a segment core meets the triangle. For a solid it is meaningful
    /// only while `separation > 0`.
    pub distance: f64,
    /// The core's closest point (m, working frame).
    pub on_core: Vec3d,
    /// The triangle's closest point (m, working frame).
    pub on_triangle: Vec3d,
    /// The contact normal (unit, from the triangle towards the shape).
    pub normal: Vec3d,
    /// The triangle's unit front normal.
    pub face_normal: Vec3d,
}

/// A point of the shape touching a triangle, in the working frame.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Touch {
    /// The point on the shape's surface (m).
    pub on_shape: Vec3d,
    /// The nearest point of the triangle (m).
    pub on_triangle: Vec3d,
    /// The gap along the contact normal (m), negative when the point is
    /// below the triangle's surface.
    pub gap: f64,
}

/// One kind of convex core, as the driver sees it: its points in the body
/// frame, its skin and tolerance, and how it meets a triangle at one pose.
pub trait CoreShape {
    /// The core turned to one rotation, in the working frame (mass centre at
    /// the origin), prepared for the triangles of one sub-step.
    type Posed;

    /// The core turned by `rotation` (body to world).
    fn pose(&self, rotation: &Quatd) -> Self::Posed;

    /// The core's points (the vertices of its convex hull) of a pose.
    fn points(posed: &Self::Posed) -> &[Vec3d];

    /// The skin radius (m) the core is grown by: a capsule's or sphere's
    /// radius, `0` for a solid.
    fn skin(&self) -> f64;

    /// The width (m) of the tolerance band: [`TOLERANCE_FRACTION`] of the
    /// inner radius.
    fn tolerance(&self) -> f64;

    /// The radius (m) of the precision domain's radius-relative limits.
    fn domain_radius(&self) -> f64;

    /// An upper bound (m) of the distance from the mass centre to any point
    /// of the shape (turning keeps it), for the caller's candidate query.
    fn reach(&self) -> f64;

    /// How the bend of the motion bound is taken (see [`BendMode`]).
    fn bend_mode(&self) -> BendMode;

    /// The separation of the posed core from the triangle `tri` (working
    /// frame), or `None` when the shape is wholly behind the triangle's face
    /// plane (the one-sided rule) or the triangle has no area.
    fn separation(&self, posed: &Self::Posed, tri: &[Vec3d; 3]) -> Option<Separation>;

    /// Whether a separation puts the triangle within the tolerance band
    /// (the shape touches it).
    fn touches(&self, separation: &Separation) -> bool;

    /// The points of the posed shape that touch the triangle, appended to
    /// `out` (at least one when [`CoreShape::touches`] holds).
    fn touch_points(
        &self,
        posed: &Self::Posed,
        tri: &[Vec3d; 3],
        separation: &Separation,
        out: &mut Vec<Touch>,
    );
}
