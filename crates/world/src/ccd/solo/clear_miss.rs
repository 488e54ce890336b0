//! The clear-miss fast path of the sweep of a body alone ([`super`]), on the
//! world's path (`sweep_alone_prepared`), whose mesh snapshot passed its
//! geometry check: it answers misses without the exact sweep and narrows the
//! first pass's candidates, and the outcome stays the exact sweeps', bit for
//! bit.
//!
//! # Method
//! Clear misses: within a pass, every candidate after
//! the first may be answered by `clearly_misses` instead of the exact
//! sweep. It decides a miss only when the triangle's plane keeps the shape
//! farther than [`REJECT_MARGIN`] radii in front over the whole motion, or
//! wholly behind by as much; then no feature of the triangle can be reached
//! and the sweep could not refuse the triangle (see `clearly_misses` for
//! the bound), so the outcome is the sweep's. The sweeps also check the
//! moving shape itself (radius, coordinates at both ends of the motion,
//! reach, rotations, offset) and refuse every triangle alike when it fails;
//! so the first candidate of each pass is decided only when `shape_clear`
//! finds the shape within half of each of those limits, and is otherwise
//! swept in full: any refusal still names the same triangle.
//!
//! The first pass's own region (the world's path): a body alone usually
//! proves that it hits nothing, so the first pass, when the shape vouches
//! clear, takes as candidates only the triangles whose bounds meet the box
//! of its straight path (the shape's core at both ends, grown by its radius
//! and [`PATH_MARGIN_RADII`]), which lies within the reach ball's box
//! (`PassRegion`): every triangle the pass's sweeps can touch is among
//! them, and every triangle that only one of this box and the reach ball
//! returns is a miss of the exact sweep that no sweep would refuse (the
//! shape vouches clear, the reach ball holds the path with room to spare,
//! the snapshot passed its check, and its widest triangle keeps every such
//! triangle within [`REJECT_DISTANCE_RADII`]), so the outcome is the reach
//! ball's, bit for bit. A pass after an impact takes the reach ball's
//! candidates, queried once.
//!
//! # Source
//! docs/continuous-collision.md, "Performance" (a body's first pass takes
//! the triangles of the box around its own path, and clear misses are
//! rejected by a plane test, each with the exact path's result).
//!
//! # Precision domain
//! The margins are stated on their constants ([`REJECT_DISTANCE_RADII`],
//! [`REJECT_MIN_SINE_SQ`], [`REJECT_MARGIN`], [`PATH_MARGIN_RADII`]): a
//! decided miss is a miss of the exact sweep by a factor of thousands or
//! more, and the shape must lie within half of each of the sweeps' limits
//! on the moving shape (`SHAPE_LIMIT_FRACTION`).

use parapet_geometry::bvh::Bounds;
use parapet_math::{promote, Vec3, Vec3d};
use parapet_narrow::sweep::{
    MAX_COORDINATE, MAX_COORDINATE_RADII, MAX_RADIUS, MAX_REACH_RADII, MAX_TRIANGLE_DISTANCE_RADII,
    MIN_RADIUS,
};

use crate::ccd::reach::Reach;

/// Largest per-axis distance, in limit radii, of a candidate triangle's
/// vertices (and of the shape's own core points) from the shape's centre
/// for `clearly_misses` to decide (dimensionless): 1024, a thousandth of
/// the sweeps' own limit [`MAX_TRIANGLE_DISTANCE_RADII`], so that a
/// triangle it decides is never one that a sweep refuses as too far (each
/// sweep measures from its own centre, within 0.01 radii of this one), and
/// so that every length in the plane test stays below 2048 radii. Farther
/// triangles are swept.
pub(crate) const REJECT_DISTANCE_RADII: f64 = 1024.0;

const _: () = assert!(2.0 * REJECT_DISTANCE_RADII <= MAX_TRIANGLE_DISTANCE_RADII);

/// Smallest squared sine of the angle at a triangle's first vertex for
/// `clearly_misses` to decide (dimensionless, `2^-20`: a sine of 1/1024).
/// The computed plane normal's direction then errs by at most a few ulps
/// over that sine, below `2^-40`; thinner triangles are swept.
pub(crate) const REJECT_MIN_SINE_SQ: f64 = 1.0 / 1_048_576.0;

/// Clearance, in limit radii, that `clearly_misses` demands beyond contact
/// before it decides a miss (dimensionless, `2^-13`, about 1.2e-4 radii).
/// Within [`REJECT_DISTANCE_RADII`] and [`REJECT_MIN_SINE_SQ`] the test's own
/// plane heights err by less than `2^-26` radii (lengths below `2^11`
/// radii times a direction error below `2^-40`, plus a few roundings), and
/// the exact sweeps' decisions near tangency err by less than `2^-19` of
/// this clearance (a discriminant `|e|^2 (h^2 - r^2)` computed from terms
/// of `|e|^2 |m|^2` with `|m|` below `2^11` radii), so a decided miss is a
/// miss of the sweep by a factor of thousands.
pub(crate) const REJECT_MARGIN: f64 = 1.0 / 8192.0;

/// Fraction of each of the sweeps' limits on the moving shape within which
/// `shape_clear` vouches that no sweep of this pass refuses the shape
/// (dimensionless): one half, far beyond the roundoff of either side's
/// evaluation of the same quantities.
pub(super) const SHAPE_LIMIT_FRACTION: f64 = 0.5;

/// Growth, in limit radii, of the box around one pass's path beyond the
/// shape, and the clearance the reach ball must keep around that path
/// (dimensionless, `2^-10`, about 1e-3 radii): the world's path takes as
/// candidates of its first pass only the triangles whose bounds meet that
/// box (`PassRegion`).
///
/// A triangle left out (bounds missing the box) lies, on some axis, beyond
/// every point of the shape over the whole straight motion by more than
/// this growth, less the roundoff of the box (coordinates below `2^17`
/// radii, which `shape_clear` vouches for, so each of the few additions
/// errs by less than `2^-35` radii). A triangle taken in although the reach
/// ball would not return it (bounds within the box but farther than the
/// ball's radius from its centre) lies more than this clearance from the
/// shape, which `PassRegion::new` checks. The region is used only when
/// every triangle it or the reach ball can return lies within
/// [`REJECT_DISTANCE_RADII`] of the shape; there the exact sweeps'
/// decisions near tangency err by less than `2^-32` radii (the bound under
/// [`REJECT_MARGIN`]), and a shape that vouches clear and a mesh that passed
/// its check are never refused. So either triangle is a miss of the exact
/// sweep by a factor of millions, and the pass's outcome is the reach
/// ball's, bit for bit.
pub(crate) const PATH_MARGIN_RADII: f64 = 1.0 / 1024.0;

/// The candidate region of the first pass of the world's path: the box of
/// the shape's straight path over the pass (its core's box at both ends,
/// grown by the shape's radius and [`PATH_MARGIN_RADII`]), which lies
/// within the reach ball's box. Every triangle the pass's exact sweeps can
/// touch meets it, and every triangle that meets it or the reach ball is a
/// miss of the exact sweep unless it meets both (see [`PATH_MARGIN_RADII`]).
#[derive(Debug, Clone, Copy)]
pub(super) struct PassRegion {
    pub(super) path: Bounds,
}

impl PassRegion {
    /// The region of a pass whose shape `hull` moves by `d`, when it may
    /// replace the reach ball `reach`: the shape vouched clear (the
    /// caller's [`shape_clear`]); the ball holds the shape over the whole
    /// motion with [`PATH_MARGIN_RADII`] limit radii (`r`, m) to spare
    /// (checked here, every length rounded up by `2^-40` of the sum; so the
    /// region's box lies within the ball's box, and a finite ball the
    /// bounds tree accepts); and every triangle whose bounds meet the
    /// ball's box lies within [`REJECT_DISTANCE_RADII`] of the shape's
    /// centre on each axis, which `largest_extent` (m, the widest side of
    /// any snapshot triangle's bounds) bounds: its vertices lie within the
    /// ball's radius plus that extent of the ball's centre on each axis.
    /// `None` otherwise (the pass then takes the reach ball's candidates).
    pub(super) fn new(
        hull: &PassHull,
        d: Vec3d,
        reach: &Reach,
        largest_extent: f64,
        r: f64,
    ) -> Option<Self> {
        let grow = hull.radius + PATH_MARGIN_RADII * r;
        let (mut lo, mut hi) = (Vec3d::zeros(), Vec3d::zeros());
        // The centre's offset from the ball's.
        let mut offset = Vec3d::zeros();
        // Per axis (plain comparisons: every input is finite here, the
        // shape vouched clear): the core's box at both ends of the motion,
        // grown.
        for k in 0..3 {
            let (a, b) = (hull.lo[k], hull.hi[k]);
            let (a_end, b_end) = (a + d[k], b + d[k]);
            lo[k] = if a_end < a { a_end } else { a } - grow;
            hi[k] = if b_end > b { b_end } else { b } + grow;
            offset[k] = hull.center[k] - reach.center[k];
        }
        let widen = 1.0 + 1.0 / (1u64 << 40) as f64;
        let spread = (offset.amax() + reach.radius + largest_extent) * widen;
        let held = (offset.norm() + d.norm() + hull.core_reach + grow) * widen;
        if !(spread <= REJECT_DISTANCE_RADII * r && held <= reach.radius) {
            return None;
        }
        let path = Bounds::new(lo, hi).ok()?;
        Some(Self { path })
    }
}

/// The moving shape at the start of one pass, as `clearly_misses` sees it.
#[derive(Debug, Clone, Default)]
pub(crate) struct PassShape {
    /// The shape's centre (m, world): the sphere or capsule centre, the
    /// solid's shape origin.
    pub(super) center: Vec3d,
    /// Core points (m, world): the sphere centre, the capsule's two `f32`
    /// segment ends as its sweep takes them, the solid's vertices. Empty when
    /// the shape is too long for the test (then nothing is decided).
    pub(super) points: Vec<Vec3d>,
    /// Radius around the core points (m): 0 for a solid.
    pub(super) radius: f64,
    /// The radius that scales the limits (m, [`SweptShape::limit_radius`]).
    pub(super) limit_radius: f64,
}

/// Whether the exact sweep of the shape `shape` moving by `d` (m) against
/// `tri` certainly gives [`SweepOutcome::Miss`]: the triangle is within
/// [`REJECT_DISTANCE_RADII`] and not thinner than [`REJECT_MIN_SINE_SQ`]
/// allows, and, over the whole straight motion, every core point stays
/// more than `radius + REJECT_MARGIN * limit_radius` in front of the
/// triangle's plane (no feature of the triangle, which lies in that plane,
/// can be reached), or every core point starts more than the margin behind
/// it (the sweeps' one-sided rule: a sphere centre behind, both capsule
/// ends behind, a solid wholly behind). `false` means "sweep it".
///
/// The mesh snapshot must have passed its geometry check
/// ([`super::mesh_cache`]): the sweeps' other triangle checks (finite,
/// coordinates, nonzero normal, thinness) are the same, so a decided
/// triangle is one they accept. The moving shape's own checks are not made
/// here: the caller sweeps the first candidate of each pass in full.
pub(crate) fn clearly_misses(shape: &PassShape, d: Vec3d, tri: &[Vec3; 3]) -> bool {
    if shape.points.is_empty() {
        return false;
    }
    let [a, b, c] = tri.map(promote);
    let far = REJECT_DISTANCE_RADII * shape.limit_radius;
    let spread = (a - shape.center)
        .amax()
        .max((b - shape.center).amax())
        .max((c - shape.center).amax());
    if !(spread <= far) {
        return false;
    }
    let (e1, e2) = (b - a, c - a);
    let n = e1.cross(&e2);
    let nn = n.norm_squared();
    if !(nn > 0.0 && nn >= REJECT_MIN_SINE_SQ * e1.norm_squared() * e2.norm_squared()) {
        return false;
    }
    let len = nn.sqrt();
    let margin = REJECT_MARGIN * shape.limit_radius * len;
    let (mut low, mut high) = (f64::INFINITY, f64::NEG_INFINITY);
    for q in &shape.points {
        let h = n.dot(&(q - a));
        low = low.min(h);
        high = high.max(h);
    }
    if high < -margin {
        return true;
    }
    let along = n.dot(&d).min(0.0);
    low + along - shape.radius * len > margin
}

/// The moving shape at the start of one pass, as boxes see it: its core
/// (the points whose ball of `radius` is the shape) lies in `[lo, hi]`.
#[derive(Debug, Clone, Copy)]
pub(super) struct PassHull {
    /// The shape's centre (m, world): the sphere or capsule centre, the
    /// solid's shape centre (as [`Mover::pass_shape`] places it).
    pub(super) center: Vec3d,
    /// Lower corner of the core's box (m): the sphere centre, the box of
    /// the capsule's two `f32` segment ends as its sweep takes them, the box
    /// of the solid's bounding ball around its centre.
    pub(super) lo: Vec3d,
    /// Upper corner of the core's box (m).
    pub(super) hi: Vec3d,
    /// Radius around the core (m): 0 for a solid.
    pub(super) radius: f64,
    /// Half the length of a capsule's `f32` segment (the sweep's own reach
    /// measure; the box's diagonal), 0 otherwise (m).
    pub(super) half_axis: f64,
    /// The largest distance of a core point from `center` (m, to nearest):
    /// 0 for a sphere, the farther `f32` segment end for a capsule, the
    /// widened farthest-vertex radius for a solid.
    pub(super) core_reach: f64,
}

/// Relative widening of a solid's farthest-vertex radius for its bounding
/// ball in the world (dimensionless, `2^-30`): the world vertices are the
/// shape-frame vertices turned by a normalized `f64` rotation and moved by
/// the centre, which changes their distance from the centre by a few ulps
/// of the coordinates (below `2^-35` radii within [`SHAPE_LIMIT_FRACTION`]
/// of the coordinate limit), far below this.
pub(super) const SOLID_BOUND_WIDEN: f64 = 1.0 / (1u64 << 30) as f64;

/// Whether the sweeps' checks of the moving shape itself (those that refuse
/// every triangle alike) certainly pass for this pass: inputs finite, step
/// non-negative, the radius, every core point (every point of the core's
/// box, which holds them) and the body origin at the start and end of the
/// motion, the reach, and for a solid its rotations and offset, each within
/// [`SHAPE_LIMIT_FRACTION`] of the sweeps' limit ([`MIN_RADIUS`],
/// [`MAX_RADIUS`], [`MAX_COORDINATE`], [`MAX_COORDINATE_RADII`],
/// [`MAX_REACH_RADII`], [`ROTATION_NORM_SQ_TOLERANCE`],
/// [`MAX_SHAPE_OFFSET`]). `false` when unsure: the first candidate is then
/// swept in full, and the pass takes the reach ball's candidates.
#[inline]
pub(super) fn shape_clear(
    limit_radius: f64,
    solid_clear: bool,
    hull: &PassHull,
    p: Vec3,
    v: Vec3,
    tau: f32,
) -> bool {
    let k = SHAPE_LIMIT_FRACTION;
    let inputs = p.x.is_finite()
        & p.y.is_finite()
        & p.z.is_finite()
        & v.x.is_finite()
        & v.y.is_finite()
        & v.z.is_finite()
        & tau.is_finite()
        & (tau >= 0.0);
    let r = limit_radius;
    if !(inputs && solid_clear && r >= MIN_RADIUS / k && r <= MAX_RADIUS * k) {
        return false;
    }
    let d = promote(v) * tau as f64;
    let limit = k * MAX_COORDINATE.min(MAX_COORDINATE_RADII * r);
    // Per axis, the body origin and the core's box (whose largest
    // coordinate is at one of its two corners), at both ends of the motion.
    let mut within = true;
    for i in 0..3 {
        let (o, lo, hi, di) = (p[i] as f64, hull.lo[i], hull.hi[i], d[i]);
        for x in [o, lo, hi, o + di, lo + di, hi + di] {
            within &= x.abs() <= limit;
        }
    }
    // A capsule's reach counts half its axis (the sweep's own measure).
    within && d.norm() + hull.half_axis + r <= k * MAX_REACH_RADII * r
}
