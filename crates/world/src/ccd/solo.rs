//! The sweep and impact loop of one body alone in its group (seed 000 "Step
//! and contact behavior", "Precision and refusal limits", "Ordering, limits
//! and rollback").
//!
//! # Method
//! The body's shape translates at its post-solver velocity (plus its split
//! velocity, as the pose update would move it) over the remaining time. The
//! bounds tree is queried once for the whole reachable region
//! ([`super::reach`]); every candidate whose owner collides is swept each
//! pass, in triangle insertion order, so a refusal of any candidate is
//! returned before any hit is used. Each pass takes the earliest approaching
//! front-side contact (triangle ties by insertion order; the sweeps keep
//! face, edge, vertex order within a triangle): a hit, or an initial contact
//! whose normal closes on the triangle beyond the approach bound. The body
//! advances to it (its position rounded to `f32`, the retained impact
//! position), the world looks up an initial contact of the selected triangle
//! from that position in the incoming direction (its normal, when it
//! exists, controls the response), applies the normal and Coulomb impulse of
//! [`super::response`], and sweeps the rest of the step with the new
//! velocity. After the first impact the split velocity no longer moves the
//! body (it corrected an initial overlap that the impact has replaced).
//! More than `max_impacts` impacts raise [`CcdError::ImpactLimit`]; the loop
//! never drops remaining time, freezes the body or continues through a
//! surface.
//!
//! Clear misses (the world's path, `sweep_alone_prepared`, whose mesh
//! snapshot passed its geometry check): within a pass, every candidate after
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
//! Orientation: a body with an impact turns over each time segment by the
//! normalized-quaternion update with that segment's angular velocity (after
//! the split correction's turn, as the pose update does), and keeps the last
//! angular velocity. A body without an impact is not moved here: the world
//! integrates it as in the discrete mode, along the same straight path.
//!
//! # Precision domain
//! The sweeps' (seed 000 limits, checked by them and reported as
//! [`CcdError::SweepRefused`]); here also the coordinates of the start and
//! end positions within 65536 radii.

use parapet_geometry::bvh::{Ball, Bounds};
use parapet_math::{demote, promote, promote_quat, Quat, Vec3, Vec3d};
use parapet_narrow::contact::active_edges::admit_impact;
use parapet_narrow::sweep::{
    sweep_capsule_triangle, sweep_sphere_triangle, Impact, SolidPlacement, SolidSweep,
    SweepOutcome, SweepRefusal, APPROACH_EPS_FACTOR, MAX_COORDINATE, MAX_COORDINATE_RADII,
    MAX_RADIUS, MAX_REACH_RADII, MAX_SHAPE_OFFSET, MAX_TRIANGLE_DISTANCE_RADII, MIN_RADIUS,
    ROTATION_NORM_SQ_TOLERANCE,
};
use parapet_solver::integrate::quaternion_update::quaternion_update;
use parapet_solver::RigidBody;

use super::error::CcdError;
use super::motion::{
    capsule_half_axis, check_coordinates, MeshView, SweptImpact, SweptMotion, SweptShape,
};
use super::reach::Reach;
use super::response::{respond, ResponseBody};

/// What one body's sweep produced.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SoloOutcome {
    /// The end state when the body took an impact (`None`: integrate it as usual).
    pub motion: Option<SweptMotion>,
    /// Its impacts in time order.
    pub impacts: Vec<SweptImpact>,
}

/// One body to sweep.
pub struct SoloInput<'a> {
    /// The body's index (insertion order).
    pub index: usize,
    /// The body: start-of-step pose, post-solver velocity and split velocity.
    pub body: &'a RigidBody,
    /// Its swept shape ([`super::support::classify`]).
    pub shape: &'a SweptShape,
    /// Its reachable region ([`super::reach`]).
    pub reach: Reach,
    /// Step length (s).
    pub dt: f32,
    /// `ccd_max_impacts`.
    pub max_impacts: u32,
}

/// Whether `normal . motion` closes beyond the approach bound of seed 000
/// (32 eps times the sum of the absolute products).
fn closes(normal: &Vec3d, motion: &Vec3d) -> bool {
    let t = normal.component_mul(motion);
    let dot = t.x + t.y + t.z;
    let scale = t.x.abs() + t.y.abs() + t.z.abs();
    dot < -APPROACH_EPS_FACTOR * f64::EPSILON * scale
}

/// A found contact, feature labels dropped.
#[derive(Debug, Clone, Copy)]
struct Found {
    triangle: usize,
    initial: bool,
    impact: Impact<()>,
}

fn plain<F: Copy>(o: SweepOutcome<F>) -> SweepOutcome<()> {
    let f = |i: Impact<F>| Impact {
        time: i.time,
        point: i.point,
        normal: i.normal,
        feature: (),
    };
    match o {
        SweepOutcome::Hit(i) => SweepOutcome::Hit(f(i)),
        SweepOutcome::InitiallyTouching(i) => SweepOutcome::InitiallyTouching(f(i)),
        SweepOutcome::Miss => SweepOutcome::Miss,
        SweepOutcome::Refused(r) => SweepOutcome::Refused(r),
    }
}

/// Largest per-axis distance, in limit radii, of a candidate triangle's
/// vertices (and of the shape's own core points) from the shape's centre
/// for `clearly_misses` to decide (dimensionless): 1024, a thousandth of
/// the sweeps' own limit [`MAX_TRIANGLE_DISTANCE_RADII`], so that a
/// triangle it decides is never one that a sweep refuses as too far (each
/// sweep measures from its own centre, within 0.01 radii of this one), and
/// so that every length in the plane test stays below 2048 radii. Farther
/// triangles are swept.
pub const REJECT_DISTANCE_RADII: f64 = 1024.0;

const _: () = assert!(2.0 * REJECT_DISTANCE_RADII <= MAX_TRIANGLE_DISTANCE_RADII);

/// Smallest squared sine of the angle at a triangle's first vertex for
/// `clearly_misses` to decide (dimensionless, `2^-20`: a sine of 1/1024).
/// The computed plane normal's direction then errs by at most a few ulps
/// over that sine, below `2^-40`; thinner triangles are swept.
pub const REJECT_MIN_SINE_SQ: f64 = 1.0 / 1_048_576.0;

/// Clearance, in limit radii, that `clearly_misses` demands beyond contact
/// before it decides a miss (dimensionless, `2^-13`, about 1.2e-4 radii).
/// Within [`REJECT_DISTANCE_RADII`] and [`REJECT_MIN_SINE_SQ`] the test's own
/// plane heights err by less than `2^-26` radii (lengths below `2^11`
/// radii times a direction error below `2^-40`, plus a few roundings), and
/// the exact sweeps' decisions near tangency err by less than `2^-19` of
/// this clearance (a discriminant `|e|^2 (h^2 - r^2)` computed from terms
/// of `|e|^2 |m|^2` with `|m|` below `2^11` radii), so a decided miss is a
/// miss of the sweep by a factor of thousands.
pub const REJECT_MARGIN: f64 = 1.0 / 8192.0;

/// Fraction of each of the sweeps' limits on the moving shape within which
/// `shape_clear` vouches that no sweep of this pass refuses the shape
/// (dimensionless): one half, far beyond the roundoff of either side's
/// evaluation of the same quantities.
const SHAPE_LIMIT_FRACTION: f64 = 0.5;

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
pub const PATH_MARGIN_RADII: f64 = 1.0 / 1024.0;

/// The candidate region of the first pass of the world's path: the box of
/// the shape's straight path over the pass (its core's box at both ends,
/// grown by the shape's radius and [`PATH_MARGIN_RADII`]), which lies
/// within the reach ball's box. Every triangle the pass's exact sweeps can
/// touch meets it, and every triangle that meets it or the reach ball is a
/// miss of the exact sweep unless it meets both (see [`PATH_MARGIN_RADII`]).
#[derive(Debug, Clone, Copy)]
struct PassRegion {
    path: Bounds,
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
    fn new(hull: &PassHull, d: Vec3d, reach: &Reach, largest_extent: f64, r: f64) -> Option<Self> {
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
    center: Vec3d,
    /// Core points (m, world): the sphere centre, the capsule's two `f32`
    /// segment ends as its sweep takes them, the solid's vertices. Empty when
    /// the shape is too long for the test (then nothing is decided).
    points: Vec<Vec3d>,
    /// Radius around the core points (m): 0 for a solid.
    radius: f64,
    /// The radius that scales the limits (m, [`SweptShape::limit_radius`]).
    limit_radius: f64,
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
struct PassHull {
    /// The shape's centre (m, world): the sphere or capsule centre, the
    /// solid's shape centre (as [`Mover::pass_shape`] places it).
    center: Vec3d,
    /// Lower corner of the core's box (m): the sphere centre, the box of
    /// the capsule's two `f32` segment ends as its sweep takes them, the box
    /// of the solid's bounding ball around its centre.
    lo: Vec3d,
    /// Upper corner of the core's box (m).
    hi: Vec3d,
    /// Radius around the core (m): 0 for a solid.
    radius: f64,
    /// Half the length of a capsule's `f32` segment (the sweep's own reach
    /// measure; the box's diagonal), 0 otherwise (m).
    half_axis: f64,
    /// The largest distance of a core point from `center` (m, to nearest):
    /// 0 for a sphere, the farther `f32` segment end for a capsule, the
    /// widened farthest-vertex radius for a solid.
    core_reach: f64,
}

/// Relative widening of a solid's farthest-vertex radius for its bounding
/// ball in the world (dimensionless, `2^-30`): the world vertices are the
/// shape-frame vertices turned by a normalized `f64` rotation and moved by
/// the centre, which changes their distance from the centre by a few ulps
/// of the coordinates (below `2^-35` radii within [`SHAPE_LIMIT_FRACTION`]
/// of the coordinate limit), far below this.
const SOLID_BOUND_WIDEN: f64 = 1.0 / (1u64 << 30) as f64;

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
fn shape_clear(mover: &Mover<'_>, hull: &PassHull, p: Vec3, v: Vec3, tau: f32) -> bool {
    let k = SHAPE_LIMIT_FRACTION;
    let inputs = p.x.is_finite()
        & p.y.is_finite()
        & p.z.is_finite()
        & v.x.is_finite()
        & v.y.is_finite()
        & v.z.is_finite()
        & tau.is_finite()
        & (tau >= 0.0);
    let r = mover.limit_radius;
    if !(inputs && mover.solid_clear && r >= MIN_RADIUS / k && r <= MAX_RADIUS * k) {
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

/// The fixed geometry of the moving shape during the step.
struct Mover<'a> {
    shape: &'a SweptShape,
    /// Capsule: the `f32` world half axis.
    half_axis: Vec3d,
    body_rotation: Quat,
    shape_offset: Vec3,
    shape_rotation: Quat,
    /// [`SweptShape::limit_radius`] (m).
    limit_radius: f64,
    /// Solid: the shape centre's offset from the body origin, world (m),
    /// as [`Mover::pass_shape`] turns it; zero otherwise.
    center_offset: Vec3d,
    /// Solid: its farthest-vertex radius widened by [`SOLID_BOUND_WIDEN`]
    /// (m); 0 otherwise.
    solid_bound: f64,
    /// Whether a solid's rotations and offset lie within
    /// [`SHAPE_LIMIT_FRACTION`] of their limits (always for a sphere or
    /// capsule): [`shape_clear`]'s part that does not change over the step.
    solid_clear: bool,
}

impl<'a> Mover<'a> {
    fn new(
        shape: &'a SweptShape,
        half_axis: Vec3d,
        body_rotation: Quat,
        shape_offset: Vec3,
        shape_rotation: Quat,
    ) -> Self {
        let (center_offset, solid_bound, solid_clear) = match shape {
            SweptShape::Solid { solid, .. } => {
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

    /// The shape at `p` as [`shape_clear`] and [`PassRegion`] see it.
    fn hull(&self, p: Vec3) -> PassHull {
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

    fn sweep(&self, p: Vec3, v: Vec3, tau: f32, tri: &[Vec3; 3]) -> SweepOutcome<()> {
        self.sweep_pass(p, v, tau, tri, &mut None)
    }

    /// [`Mover::sweep`] within one pass (the same `p`, `v` and `tau` for
    /// every triangle): a box or hull is prepared once per pass
    /// ([`SolidSweep`], kept in `prepared`), which gives
    /// `sweep_solid_triangle`'s outcome bit for bit, its placement refusal
    /// included (reported for the first triangle swept, as before).
    fn sweep_pass<'s>(
        &'s self,
        p: Vec3,
        v: Vec3,
        tau: f32,
        tri: &[Vec3; 3],
        prepared: &mut Option<Result<SolidSweep<'s>, SweepRefusal>>,
    ) -> SweepOutcome<()> {
        match self.shape {
            SweptShape::Sphere { radius } => plain(sweep_sphere_triangle(p, *radius, v, tau, tri)),
            SweptShape::Capsule { radius, .. } => {
                let (p0, p1) = self.capsule_ends(p);
                plain(sweep_capsule_triangle(p0, p1, *radius, v, tau, tri))
            }
            SweptShape::Solid { solid, .. } => {
                let sweep = prepared.get_or_insert_with(|| {
                    let placement = SolidPlacement {
                        body_position: p,
                        body_rotation: self.body_rotation,
                        shape_offset: self.shape_offset,
                        shape_rotation: self.shape_rotation,
                    };
                    SolidSweep::new(solid, &placement, v, tau)
                });
                match sweep {
                    Ok(sweep) => plain(sweep.triangle(tri)),
                    Err(refusal) => SweepOutcome::Refused(*refusal),
                }
            }
        }
    }

    /// The capsule's `f32` segment ends with its centre at `p`.
    fn capsule_ends(&self, p: Vec3) -> (Vec3, Vec3) {
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
    fn pass_shape(&self, p: Vec3, out: &mut PassShape) {
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
            SweptShape::Solid { solid, .. } => {
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
    fn arm(&self, p: Vec3, impact: &Impact<()>) -> Vec3d {
        match self.shape {
            SweptShape::Sphere { radius } => -impact.normal * *radius as f64,
            _ => impact.point - promote(p),
        }
    }
}

/// Buffers that one thread reuses for the bodies it sweeps alone: the
/// candidate lists and the pass shape. Nothing carries over from one body to
/// the next (each sweep clears them), so results do not depend on which
/// thread swept which body.
#[derive(Debug, Default)]
pub(crate) struct SoloScratch {
    /// The reach ball's candidates (owner collides), ascending.
    reach: Vec<u32>,
    /// One pass's candidates ([`PassRegion`], owner collides), ascending.
    path: Vec<u32>,
    pass: PassShape,
}

/// Sweeps one body alone against the static triangles (see the module docs).
///
/// Every candidate is swept exactly; this entry makes no assumption about
/// the mesh (the world's own path, which checks its snapshot first, also
/// answers clear misses without the sweep).
///
/// # Errors
/// [`CcdError::SweepRefused`], [`CcdError::ImpactLimit`],
/// [`CcdError::Precision`] or [`CcdError::NotRepresentable`], naming the body.
pub fn sweep_alone(input: &SoloInput<'_>, mesh: &MeshView<'_>) -> Result<SoloOutcome, CcdError> {
    sweep_alone_with(input, mesh, &mut SoloScratch::default(), None)
}

/// [`sweep_alone`] for the world, whose mesh snapshot passed its geometry
/// check (`largest_extent`, m: the widest side of any snapshot triangle's
/// bounds, [`super::mesh_cache::MeshSnapshotCache::largest_extent`]): each
/// pass takes the candidates of its own path ([`PassRegion`]) when it may,
/// clear misses are decided by [`clearly_misses`], and the buffers of
/// `scratch` are reused. The outcome is [`sweep_alone`]'s, bit for bit.
///
/// # Errors
/// As [`sweep_alone`].
pub(crate) fn sweep_alone_prepared(
    input: &SoloInput<'_>,
    mesh: &MeshView<'_>,
    largest_extent: f64,
    scratch: &mut SoloScratch,
) -> Result<SoloOutcome, CcdError> {
    sweep_alone_with(input, mesh, scratch, Some(largest_extent))
}

/// The sweep loop; `checked` is `Some(largest_extent)` on the world's path
/// (snapshot checked: clear misses and pass regions), `None` on the plain one.
fn sweep_alone_with(
    input: &SoloInput<'_>,
    mesh: &MeshView<'_>,
    scratch: &mut SoloScratch,
    checked: Option<f64>,
) -> Result<SoloOutcome, CcdError> {
    let rejects = checked.is_some();
    let index = input.index;
    let body = input.body;
    let dt = input.dt;
    let limit_radius = input.shape.limit_radius();
    let (shape_offset, shape_rotation) = body.shape_offset();
    let half_axis = match input.shape {
        SweptShape::Capsule { half_height, .. } => promote(capsule_half_axis(body, *half_height)),
        _ => Vec3d::zeros(),
    };
    let mover = Mover::new(
        input.shape,
        half_axis,
        body.rotation(),
        shape_offset,
        shape_rotation,
    );
    let split = body.split_linear_velocity();
    let mut p = body.position();
    let mut v = body.linear_velocity();
    let mut w = body.angular_velocity();
    let swept = if split == Vec3::zeros() {
        Ok(v)
    } else {
        demote(promote(v) + promote(split)).map_err(|_| CcdError::NotRepresentable {
            body: index,
            quantity: "swept velocity",
            value: f64::INFINITY,
        })
    };
    // The first pass's shape on the world's path: when it vouches clear
    // (`shape_clear`), the body origin lies within half the coordinate
    // limits at the start and the end of the straight motion, so the two
    // coordinate checks below pass and are skipped (the errors keep their
    // order: an unsure shape is checked here as before).
    let start = match (checked, &swept) {
        (Some(_), Ok(sv)) => {
            let hull = mover.hull(p);
            Some((hull, shape_clear(&mover, &hull, p, *sv, dt)))
        }
        _ => None,
    };
    let start_clear = matches!(start, Some((_, true)));
    if !start_clear {
        check_coordinates(index, &promote(p), limit_radius)?;
    }
    // The first pass's own region, when the shape vouches clear, the reach
    // ball holds its path and the snapshot's triangles are small enough
    // (see `PassRegion`; it needs no reach ball query, and its checks fail
    // for a reach that the ball would refuse).
    let region = match (checked, start, &swept) {
        (Some(largest_extent), Some((hull, true)), Ok(sv)) => {
            let d = promote(*sv) * dt as f64;
            PassRegion::new(&hull, d, &input.reach, largest_extent, limit_radius)
        }
        _ => None,
    };
    let new_ball = || {
        Ball::new(input.reach.center, input.reach.radius).map_err(|_| CcdError::NotRepresentable {
            body: index,
            quantity: "reach radius",
            value: input.reach.radius,
        })
    };
    // The reach ball, made (and its refusal reported, before the swept
    // velocity's) when the first pass needs it, else at the first later pass.
    let mut ball = match region {
        Some(_) => None,
        None => Some(new_ball()?),
    };
    let SoloScratch { reach, path, pass } = scratch;
    // Whether `reach` holds the reach ball's candidates (queried at the
    // first pass that needs them).
    let mut reach_ready = false;
    // Only needed at an impact (the world tensor costs a matrix product).
    let mut response_body: Option<ResponseBody> = None;
    let mut sweep_v = swept?;
    let mut tau = dt;
    let mut elapsed = 0.0f64;
    let mut impacts: Vec<SweptImpact> = Vec::new();
    let mut segments: Vec<(Vec3, f64)> = Vec::new();
    let mut passes = 0u32;
    let to_f32 = |quantity: &'static str, x: Vec3d| {
        demote(x).map_err(|_| CcdError::NotRepresentable {
            body: index,
            quantity,
            value: x.amax(),
        })
    };

    while tau > 0.0 {
        let mut best: Option<Found> = None;
        // A box or hull prepared once for this pass's candidates.
        let mut prepared = None;
        // The motion as the sweeps compute it.
        let d = promote(sweep_v) * tau as f64;
        // Whether the first candidate may be decided too (else its sweep
        // checks the moving shape, so a refusal names the same triangle).
        let mut first = false;
        if checked.is_some() {
            // The first pass's shape was vouched for above (same position,
            // velocity and time).
            first = match start {
                Some((_, clear)) if passes == 0 => clear,
                _ => shape_clear(&mover, &mover.hull(p), p, sweep_v, tau),
            };
        }
        // The first pass only: after an impact, the reach ball's
        // candidates, queried once, serve every later pass.
        let pass_region = if passes == 0 { region } else { None };
        let candidates: &[u32] = match &pass_region {
            Some(region) => {
                // Every triangle whose bounds meet the pass's region,
                // ascending, whose owner collides: among the reach ball's,
                // every one that the pass's sweeps can touch.
                mesh.tree.query(&region.path, path);
                if !path.is_empty() {
                    path.retain(|&t| (mesh.material)(t as usize).is_some());
                }
                &path[..]
            }
            None => {
                if !reach_ready {
                    // Every triangle whose bounds the ball touches,
                    // ascending, whose owner collides.
                    let ball = match ball {
                        Some(ball) => ball,
                        None => *ball.insert(new_ball()?),
                    };
                    mesh.tree.query(&ball, reach);
                    reach.retain(|&t| (mesh.material)(t as usize).is_some());
                    reach_ready = true;
                }
                &reach[..]
            }
        };
        let decide = rejects && !candidates.is_empty();
        if decide {
            mover.pass_shape(p, pass);
        }
        for (k, &t) in candidates.iter().enumerate() {
            let t = t as usize;
            let triangle = &mesh.triangles[t];
            if decide && (k > 0 || first) && clearly_misses(pass, d, triangle) {
                continue;
            }
            let outcome = mover.sweep_pass(p, sweep_v, tau, triangle, &mut prepared);
            let found = match admit_impact(outcome, sweep_v, triangle, (mesh.edges)(t)) {
                SweepOutcome::Refused(refusal) => {
                    return Err(CcdError::SweepRefused {
                        body: index,
                        triangle: t,
                        refusal,
                    })
                }
                SweepOutcome::Miss => continue,
                SweepOutcome::Hit(impact) => Found {
                    triangle: t,
                    initial: false,
                    impact,
                },
                SweepOutcome::InitiallyTouching(impact) => {
                    if !closes(&impact.normal, &d) {
                        continue;
                    }
                    Found {
                        triangle: t,
                        initial: true,
                        impact: Impact {
                            time: 0.0,
                            ..impact
                        },
                    }
                }
            };
            let earlier = match &best {
                None => true,
                Some(b) => {
                    found.impact.time < b.impact.time
                        || (found.impact.time == b.impact.time && found.initial && !b.initial)
                }
            };
            if earlier {
                best = Some(found);
            }
        }
        let Some(hit) = best else {
            break;
        };
        passes += 1;
        if passes > input.max_impacts {
            return Err(CcdError::ImpactLimit {
                body: index,
                impacts: passes - 1,
                limit: input.max_impacts,
            });
        }
        let s = hit.impact.time.clamp(0.0, 1.0);
        let travel = tau as f64 * s;
        p = to_f32("position", promote(p) + promote(sweep_v) * travel)?;
        elapsed += travel;
        segments.push((w, travel));
        tau = ((tau as f64 - travel).max(0.0)) as f32;

        // Pre-response lookup at the retained impact position.
        let mut contact = hit.impact;
        if !hit.initial {
            let triangle = &mesh.triangles[hit.triangle];
            let probe = admit_impact(
                mover.sweep(p, sweep_v, tau, triangle),
                sweep_v,
                triangle,
                (mesh.edges)(hit.triangle),
            );
            if let SweepOutcome::InitiallyTouching(i) = probe {
                contact = i;
            }
        }
        let material = (mesh.material)(hit.triangle)
            .map(|m| body.material().mix(&m))
            .unwrap_or_default();
        let response_body = response_body.get_or_insert_with(|| ResponseBody {
            inverse_mass: body.inverse_mass() as f64,
            inverse_inertia: body.world_inverse_inertia_f64(),
        });
        let arm = mover.arm(p, &contact);
        let mut response = respond(index, response_body, v, w, arm, contact.normal, &material)?;
        if response.is_none() && contact != hit.impact {
            // The looked-up contact does not close: the sweep's own normal,
            // which approaches by construction, takes the impact, so the
            // loop always makes progress.
            contact = hit.impact;
            let arm = mover.arm(p, &contact);
            response = respond(index, response_body, v, w, arm, contact.normal, &material)?;
        }
        if let Some(r) = response {
            v = r.linear_velocity;
            w = r.angular_velocity;
            impacts.push(SweptImpact {
                body: index,
                triangle: hit.triangle,
                time: (elapsed / dt as f64).clamp(0.0, 1.0),
                point: contact.point,
                normal: contact.normal,
                impulse: r.impulse,
            });
        }
        sweep_v = v;
    }

    if passes == 0 {
        // Unmoved since the first pass: a shape vouched clear there ends
        // within half the coordinate limits.
        if !start_clear {
            let end = promote(p) + promote(sweep_v) * tau as f64;
            check_coordinates(index, &end, limit_radius)?;
        }
        return Ok(SoloOutcome::default());
    }
    p = to_f32("position", promote(p) + promote(sweep_v) * tau as f64)?;
    segments.push((w, tau as f64));
    check_coordinates(index, &promote(p), limit_radius)?;

    let mut q = body.rotation();
    let turn = |q: &Quat, w: &Vec3, h: f64| {
        quaternion_update(q, w, h).ok_or(CcdError::NotRepresentable {
            body: index,
            quantity: "rotation",
            value: f64::NAN,
        })
    };
    if body.split_angular_velocity() != Vec3::zeros() {
        q = turn(&q, &body.split_angular_velocity(), dt as f64)?;
    }
    for (ws, h) in &segments {
        if *ws != Vec3::zeros() && *h > 0.0 {
            q = turn(&q, ws, *h)?;
        }
    }
    Ok(SoloOutcome {
        motion: Some(SweptMotion {
            position: p,
            rotation: q,
            linear_velocity: v,
            angular_velocity: w,
        }),
        impacts,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ccd::reach::dynamic_reach;
    use crate::ccd::support::classify;
    use parapet_geometry::bvh::{BoundsQuery, TriangleBoundsTree};
    use parapet_geometry::Shape;
    use parapet_geometry::{ActiveEdges, Material};

    fn floor() -> Vec<[Vec3; 3]> {
        vec![
            [
                Vec3::new(-5.0, -5.0, 0.0),
                Vec3::new(5.0, -5.0, 0.0),
                Vec3::new(5.0, 5.0, 0.0),
            ],
            [
                Vec3::new(-5.0, -5.0, 0.0),
                Vec3::new(5.0, 5.0, 0.0),
                Vec3::new(-5.0, 5.0, 0.0),
            ],
        ]
    }

    fn run(
        body: &RigidBody,
        tris: &[[Vec3; 3]],
        dt: f32,
        max_impacts: u32,
    ) -> Result<SoloOutcome, CcdError> {
        let tree = TriangleBoundsTree::build(tris).unwrap();
        let material = |_: usize| Some(Material::default());
        let mesh = MeshView {
            triangles: tris,
            tree: &tree,
            material: &material,
            edges: &|_| ActiveEdges::ALL,
        };
        let shape = SweptShape::Sphere { radius: 0.1 };
        let e = crate::ccd::reach::bound_energy(body);
        let reach = dynamic_reach(promote(body.position()), 0.1, e, 1.0, Vec3::zeros(), dt);
        sweep_alone(
            &SoloInput {
                index: 7,
                body,
                shape: &shape,
                reach,
                dt,
                max_impacts,
            },
            &mesh,
        )
    }

    fn sphere(z: f32, vz: f32) -> RigidBody {
        RigidBody::new_dynamic(Shape::sphere(0.1).unwrap(), 1.0)
            .unwrap()
            .with_material(Material {
                friction: 0.0,
                restitution: 1.0,
                bounce_threshold: 0.5,
            })
            .with_position(Vec3::new(0.3, 0.2, z))
            .with_linear_velocity(Vec3::new(0.0, 0.0, vz))
    }

    #[test]
    fn an_elastic_sphere_rebounds_from_the_floor_within_the_step() {
        // Impact after 0.05 m of 0.3 m: at 1/6 of the step, then 0.25 m up.
        let out = run(&sphere(0.15, -30.0), &floor(), 0.01, 16).unwrap();
        let m = out.motion.unwrap();
        assert!((m.position.z - 0.35).abs() < 1e-6, "{}", m.position.z);
        assert_eq!(m.linear_velocity, Vec3::new(0.0, 0.0, 30.0));
        assert_eq!(out.impacts.len(), 1);
        let i = out.impacts[0];
        assert_eq!((i.body, i.triangle), (7, 0));
        assert!((i.time - 1.0 / 6.0).abs() < 1e-6);
        assert!((i.impulse.z - 60.0).abs() < 1e-4);
    }

    #[test]
    fn a_body_without_impact_is_left_to_the_integrator() {
        let out = run(&sphere(2.0, -30.0), &floor(), 0.01, 16).unwrap();
        assert_eq!(out, SoloOutcome::default());
    }

    #[test]
    fn one_impact_too_many_is_an_error_naming_the_body() {
        let e = run(&sphere(0.15, -30.0), &floor(), 0.01, 0).unwrap_err();
        assert_eq!(
            e,
            CcdError::ImpactLimit {
                body: 7,
                impacts: 0,
                limit: 0
            }
        );
    }

    /// SplitMix64 (Steele et al. 2014): a seeded stream for the random cases.
    struct Mix(u64);

    impl Mix {
        fn next(&mut self) -> u64 {
            self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        }

        /// Uniform in `[lo, hi)`.
        fn uniform(&mut self, lo: f64, hi: f64) -> f64 {
            lo + (hi - lo) * (self.next() >> 11) as f64 / (1u64 << 53) as f64
        }

        fn unit(&mut self) -> Vec3d {
            loop {
                let v = Vec3d::new(
                    self.uniform(-1.0, 1.0),
                    self.uniform(-1.0, 1.0),
                    self.uniform(-1.0, 1.0),
                );
                let n = v.norm();
                if n > 0.1 && n <= 1.0 {
                    return v / n;
                }
            }
        }

        fn pick(&mut self, n: u64) -> u64 {
            self.next() % n
        }
    }

    /// A gap (in radii) beyond contact: mostly near tangency on both sides
    /// of the reject margin, some clearly apart, some overlapping.
    fn gap(rng: &mut Mix) -> f64 {
        match rng.pick(4) {
            0 => REJECT_MARGIN * rng.uniform(-4.0, 4.0),
            1 => 1e-6 * rng.uniform(-4.0, 4.0),
            2 => rng.uniform(-1.5, 0.2),
            _ => rng.uniform(0.0, 3.0),
        }
    }

    /// Cases of the randomized reject tests: 100,000, or
    /// `PARAPET_REJECT_CASES`.
    fn reject_cases() -> u64 {
        std::env::var("PARAPET_REJECT_CASES")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(100_000)
    }

    /// A random start for `shape` turned by `rotation`: its centre within 10 scales of the origin, the scale 1, 100 or 3000
    /// radii (within the sweeps' coordinate limit of 65536 radii: the
    /// moving shape's own checks are the first candidate's, not the tests'),
    /// and a capsule's half axis (zero for the other shapes).
    fn random_start(rng: &mut Mix, shape: &SweptShape, rotation: Quat) -> (Vec3, Vec3d) {
        let scale = shape.limit_radius() * [1.0, 100.0, 3000.0][rng.pick(3) as usize];
        let center = Vec3d::new(
            rng.uniform(-10.0, 10.0),
            rng.uniform(-10.0, 10.0),
            rng.uniform(-10.0, 10.0),
        ) * scale;
        let half_axis = match shape {
            SweptShape::Capsule { half_height, .. } => {
                promote(rotation * Vec3::new(0.0, 0.0, *half_height))
            }
            _ => Vec3d::zeros(),
        };
        (center.map(|x| x as f32), half_axis)
    }

    fn random_shape(rng: &mut Mix) -> (SweptShape, Quat) {
        let r = rng.uniform(0.01, 2.0) as f32;
        let rotation = Quat::from_euler_angles(
            rng.uniform(-3.0, 3.0) as f32,
            rng.uniform(-3.0, 3.0) as f32,
            rng.uniform(-3.0, 3.0) as f32,
        );
        let shape = match rng.pick(3) {
            0 => SweptShape::Sphere { radius: r },
            1 => SweptShape::Capsule {
                radius: r,
                half_height: r * rng.uniform(0.0, 4.0) as f32,
            },
            _ => {
                let h = Vec3::new(
                    rng.uniform(0.05, 1.0) as f32,
                    rng.uniform(0.05, 1.0) as f32,
                    rng.uniform(0.05, 1.0) as f32,
                );
                let solid = parapet_narrow::sweep::ConvexSolid::from_cuboid(h).unwrap();
                SweptShape::Solid {
                    solid: std::sync::Arc::new(solid),
                    name: "box",
                }
            }
        };
        (shape, rotation)
    }

    /// Random moving shapes against one triangle each, placed by the
    /// clearance of the shape's lowest point from the triangle's plane
    /// (near tangency on both sides of the margin, apart, overlapping,
    /// behind), the motion towards, along or away from the plane, thin and
    /// distant triangles included: every decided miss is a miss of the exact
    /// sweep (which is the reference here), and the test decides a good
    /// share of the cases (it is not vacuous) while the sweeps still hit in
    /// many of the others. 100,000 cases; `PARAPET_REJECT_CASES=<n>` runs
    /// more (or fewer).
    #[test]
    fn a_clear_miss_is_always_a_miss_of_the_exact_sweep() {
        let cases = reject_cases();
        let mut rng = Mix(0x5EED_50C0);
        let (mut decided, mut hits) = (0u64, 0u64);
        let mut pass = PassShape::default();
        for case in 0..cases {
            let (shape, rotation) = random_shape(&mut rng);
            let r = shape.limit_radius();
            let (p, half_axis) = random_start(&mut rng, &shape, rotation);
            let mover = Mover::new(&shape, half_axis, rotation, Vec3::zeros(), Quat::identity());
            mover.pass_shape(p, &mut pass);
            // The plane: normal n, placed `gap` radii beyond the shape's
            // lowest point along -n (negative: overlapping or behind).
            let n = rng.unit();
            let radius = match &shape {
                SweptShape::Solid { .. } => 0.0,
                _ => r,
            };
            let low = pass
                .points
                .iter()
                .map(|q| n.dot(q))
                .fold(f64::INFINITY, f64::min)
                .min(n.dot(&promote(p)));
            let plane = low - radius - gap(&mut rng) * r;
            let u = n.cross(&Vec3d::new(0.3, -0.5, 0.8)).normalize();
            let w = n.cross(&u);
            let size = r * [0.1, 1.0, 10.0, 3000.0][rng.pick(4) as usize];
            let foot = promote(p)
                + n * (plane - n.dot(&promote(p)))
                + u * rng.uniform(-3.0, 3.0) * r
                + w * rng.uniform(-3.0, 3.0) * r;
            let thin = if rng.pick(8) == 0 { 1e-4 } else { 1.0 };
            let a = foot - u * size * 0.5 - w * size * 0.3;
            let tri = [
                a.map(|x| x as f32),
                (a + u * size).map(|x| x as f32),
                (a + u * size * 0.4 + w * size * thin).map(|x| x as f32),
            ];
            if parapet_geometry::Triangle::new(tri[0], tri[1], tri[2])
                .validate(0)
                .is_err()
            {
                continue;
            }
            // The motion: towards the plane, along it, or away.
            let along = match rng.pick(4) {
                0 => 0.0,
                1 => rng.uniform(-3.0, 0.0),
                2 => rng.uniform(0.0, 1.0),
                _ => -gap(&mut rng).abs(),
            };
            let tangent = u * rng.uniform(-3.0, 3.0) + w * rng.uniform(-3.0, 3.0);
            let tau = 1.0f32 / 60.0;
            let v = ((n * along + tangent) * r / tau as f64).map(|x| x as f32);
            let d = promote(v) * tau as f64;
            let outcome = mover.sweep(p, v, tau, &tri);
            if matches!(
                outcome,
                SweepOutcome::Hit(_) | SweepOutcome::InitiallyTouching(_)
            ) {
                hits += 1;
            }
            if clearly_misses(&pass, d, &tri) {
                decided += 1;
                assert!(
                    matches!(outcome, SweepOutcome::Miss),
                    "case {case}: decided a miss, the sweep gave {outcome:?} \
                     ({shape:?}, p {p:?}, v {v:?}, triangle {tri:?})"
                );
            }
        }
        assert!(decided * 8 > cases, "only {decided} of {cases} decided");
        assert!(hits * 10 > cases, "only {hits} of {cases} hit");
    }

    /// Random moving shapes (spheres, capsules, boxes; near the origin and
    /// thousands of radii away), random motions, reach balls from just
    /// large enough for the region (the path and [`PATH_MARGIN_RADII`]) to
    /// ample, and random triangles placed just beyond one face of the
    /// pass's path box (by 2^-40 to a few radii, tilted, facing either way)
    /// or across it: every triangle that the region leaves out, and every
    /// one it takes in that the reach ball would not return, is a miss of
    /// the exact sweep (the reference); all three kinds occur often, and the
    /// triangles across the box hit in many cases. 100,000 cases;
    /// `PARAPET_REJECT_CASES=<n>` runs more (or fewer).
    #[test]
    fn a_triangle_outside_the_pass_region_is_always_a_miss_of_the_exact_sweep() {
        let cases = reject_cases();
        let mut rng = Mix(0x9A55_4E61);
        let (mut outside, mut beyond_ball, mut hits) = (0u64, 0u64, 0u64);
        for case in 0..cases {
            let (shape, rotation) = random_shape(&mut rng);
            let r = shape.limit_radius();
            let (p, half_axis) = random_start(&mut rng, &shape, rotation);
            let mover = Mover::new(&shape, half_axis, rotation, Vec3::zeros(), Quat::identity());
            let tau = 1.0f32 / 60.0;
            let travel = r * [0.0, 0.5, 3.0, 20.0][rng.pick(4) as usize];
            let v = (rng.unit() * travel / tau as f64).map(|x| x as f32);
            let d = promote(v) * tau as f64;
            let hull = mover.hull(p);
            assert!(shape_clear(&mover, &hull, p, v, tau), "case {case}");
            // A reach ball around the whole path, and a snapshot of small
            // triangles (their widest side below 10 radii).
            let held =
                (d.norm() + hull.core_reach + hull.radius + PATH_MARGIN_RADII * r) * (1.0 + 1e-11);
            let spare = [0.0, 1e-3, 0.1, 1.0][rng.pick(4) as usize] * r;
            let reach = Reach {
                center: promote(p),
                radius: held + spare,
            };
            let ball = Ball::new(reach.center, reach.radius).unwrap();
            let region = PassRegion::new(&hull, d, &reach, 10.0 * r, r)
                .expect("a region within the distance limit");
            // Smaller balls cut into the path: no region.
            let short = Reach {
                radius: held * (1.0 - 1e-9),
                ..reach
            };
            assert!(PassRegion::new(&hull, d, &short, 10.0 * r, r).is_none());
            let (lo, hi) = (region.path.min(), region.path.max());
            // One face of the path box, a gap beyond it (negative: across).
            let k = rng.pick(3) as usize;
            let up = rng.pick(2) == 0;
            let gap = r * match rng.pick(8) {
                0 => 1.0 / (1u64 << 40) as f64,
                1 => 1.0 / (1u64 << 20) as f64,
                2 => PATH_MARGIN_RADII * rng.uniform(0.0, 2.0),
                3 => rng.uniform(0.0, 0.01),
                4 => rng.uniform(0.0, 2.0),
                _ => -rng.uniform(0.0, 1.0) * (hi[k] - lo[k]) / r,
            };
            let tri = std::array::from_fn(|i| {
                let beyond = gap
                    + if i == 0 || rng.pick(3) == 0 {
                        0.0
                    } else {
                        rng.uniform(0.0, 2.0) * r
                    };
                let mut q = Vec3d::zeros();
                for j in 0..3 {
                    q[j] = if j == k {
                        if up {
                            hi[k] + beyond
                        } else {
                            lo[k] - beyond
                        }
                    } else {
                        rng.uniform(lo[j] - r, hi[j] + r)
                    };
                }
                q.map(|x| x as f32)
            });
            if parapet_geometry::Triangle::new(tri[0], tri[1], tri[2])
                .validate(0)
                .is_err()
                || Bounds::of_triangle(&tri)
                    .max()
                    .iter()
                    .zip(Bounds::of_triangle(&tri).min().iter())
                    .any(|(a, b)| a - b > 10.0 * r)
            {
                continue;
            }
            let outcome = mover.sweep(p, v, tau, &tri);
            if matches!(
                outcome,
                SweepOutcome::Hit(_) | SweepOutcome::InitiallyTouching(_)
            ) {
                hits += 1;
            }
            let bounds = Bounds::of_triangle(&tri);
            let in_region = region.path.intersects(&bounds);
            if !in_region || !ball.touches(&bounds) {
                if in_region {
                    beyond_ball += 1;
                } else {
                    outside += 1;
                }
                assert!(
                    matches!(outcome, SweepOutcome::Miss),
                    "case {case}: in region {in_region}, the sweep gave {outcome:?} \
                     ({shape:?}, p {p:?}, v {v:?}, triangle {tri:?})"
                );
            }
        }
        assert!(outside * 4 > cases, "only {outside} of {cases} outside");
        assert!(
            beyond_ball * 400 > cases,
            "only {beyond_ball} of {cases} beyond the ball"
        );
        assert!(hits * 20 > cases, "only {hits} of {cases} hit");
    }

    #[test]
    fn an_upright_capsule_axis_is_the_turned_axis_bit_for_bit() {
        let turned = |q: Quat, h: f32| {
            let q = parapet_math::nalgebra::UnitQuaternion::new_normalize(
                promote_quat(q).into_inner() * promote_quat(Quat::identity()).into_inner(),
            );
            (q * Vec3d::new(0.0, 0.0, h as f64)).map(|x| x as f32)
        };
        for h in [0.0f32, 1e-4, 0.3, 7.25, 1e4] {
            let body =
                RigidBody::new_dynamic(Shape::capsule(0.2, h.max(1e-3)).unwrap(), 1.0).unwrap();
            let fast = capsule_half_axis(&body, h);
            let plain = turned(Quat::identity(), h);
            assert_eq!(fast.map(f32::to_bits), plain.map(f32::to_bits), "h {h}");
            // A turned capsule still takes the turn.
            let tilted = body.with_rotation(Quat::from_euler_angles(0.3, 0.0, 0.0));
            let axis = capsule_half_axis(&tilted, h);
            assert_eq!(axis, turned(tilted.rotation(), h));
        }
    }

    /// Random moving shapes around the sweeps' own limits (coordinates near
    /// 65536 radii and 1e6 m, motions near the reach limit, radii near
    /// 1e-4 m, rotations off unit, far offsets): whenever `shape_clear`
    /// vouches for the shape, the exact sweep of a valid nearby triangle is
    /// not refused; the cases reach both answers and real refusals.
    #[test]
    fn a_shape_vouched_clear_is_never_refused_by_a_sweep() {
        let mut rng = Mix(0xC1EA_5A9E);
        let (mut clear, mut refused) = (0u32, 0u32);
        let mut pass = PassShape::default();
        let cases = 20_000;
        for case in 0..cases {
            let (shape, rotation) = random_shape(&mut rng);
            let shape = match shape {
                SweptShape::Sphere { .. } if rng.pick(4) == 0 => SweptShape::Sphere {
                    radius: (1e-4 * rng.uniform(0.5, 3.0)) as f32,
                },
                other => other,
            };
            let r = shape.limit_radius();
            // Coordinates: a fraction of the tighter coordinate limit.
            let limit = MAX_COORDINATE.min(MAX_COORDINATE_RADII * r);
            let frac = [0.1, 0.45, 0.5, 0.55, 1.1][rng.pick(5) as usize];
            let center = rng.unit() * limit * frac * rng.uniform(0.9, 1.1);
            let p = center.map(|x| x as f32);
            let tau = 1.0f32 / 60.0;
            // Travel: a fraction of the reach limit.
            let travel = MAX_REACH_RADII * r * [1e-6, 0.2, 0.45, 0.55, 1.2][rng.pick(5) as usize];
            let v = (rng.unit() * travel / tau as f64).map(|x| x as f32);
            let half_axis = match &shape {
                SweptShape::Capsule { half_height, .. } => {
                    promote(rotation * Vec3::new(0.0, 0.0, *half_height))
                }
                _ => Vec3d::zeros(),
            };
            let tilt = 1.0 + [0.0, 1e-6, 4e-6, 6e-6, 2e-5][rng.pick(5) as usize] as f32;
            let body_rotation = Quat::new_unchecked(rotation.into_inner() * tilt);
            let offset = [0.0, 4e3, 6e3, 2e4][rng.pick(4) as usize] as f32;
            let mover = Mover::new(
                &shape,
                half_axis,
                body_rotation,
                Vec3::new(offset, 0.0, 0.0),
                Quat::identity(),
            );
            mover.pass_shape(p, &mut pass);
            // A valid triangle a few radii below the shape.
            let n = rng.unit();
            let foot = promote(p) - n * 3.0 * r;
            let u = n.cross(&Vec3d::new(0.3, -0.5, 0.8)).normalize();
            let w = n.cross(&u);
            let tri = [
                foot - u * r - w * r,
                foot + u * 2.0 * r - w * r,
                foot + w * 2.0 * r,
            ]
            .map(|x| x.map(|c| c as f32));
            if parapet_geometry::Triangle::new(tri[0], tri[1], tri[2])
                .validate(0)
                .is_err()
            {
                continue;
            }
            let outcome = mover.sweep(p, v, tau, &tri);
            if let SweepOutcome::Refused(refusal) = outcome {
                refused += 1;
                assert!(
                    !shape_clear(&mover, &mover.hull(p), p, v, tau),
                    "case {case}: vouched clear, refused with {refusal:?} \
                     ({shape:?}, p {p:?}, v {v:?})"
                );
            } else if shape_clear(&mover, &mover.hull(p), p, v, tau) {
                clear += 1;
            }
        }
        assert!(clear > cases / 20, "only {clear} of {cases} vouched clear");
        assert!(refused > cases / 10, "only {refused} of {cases} refused");
    }

    #[test]
    fn the_margin_separates_decided_from_swept_at_tangency() {
        // A sphere of 0.1 m sliding parallel to the floor: decided only when
        // its clearance exceeds REJECT_MARGIN radii (here 2 and 1/2 of it).
        let shape = SweptShape::Sphere { radius: 0.1 };
        let mover = Mover::new(
            &shape,
            Vec3d::zeros(),
            Quat::identity(),
            Vec3::zeros(),
            Quat::identity(),
        );
        let d = Vec3d::new(0.5, 0.0, 0.0);
        let mut pass = PassShape::default();
        for (factor, expected) in [(2.0, true), (0.5, false), (-1.0, false)] {
            let z = (0.1 * (1.0 + factor * REJECT_MARGIN)) as f32;
            mover.pass_shape(Vec3::new(0.0, 0.0, z), &mut pass);
            assert_eq!(clearly_misses(&pass, d, &floor()[0]), expected, "{factor}");
        }
        // Moving down by more than the clearance is never decided.
        mover.pass_shape(Vec3::new(0.0, 0.0, 0.2), &mut pass);
        assert!(!clearly_misses(
            &pass,
            Vec3d::new(0.0, 0.0, -0.11),
            &floor()[0]
        ));
        assert!(clearly_misses(
            &pass,
            Vec3d::new(0.0, 0.0, -0.09),
            &floor()[0]
        ));
        // A triangle farther than REJECT_DISTANCE_RADII is swept.
        let far = floor()[0].map(|v| v + Vec3::new(200.0, 0.0, 0.0));
        assert!(!clearly_misses(&pass, d, &far));
    }

    /// A random height field of `n` x `n` cells of 0.5 m.
    fn terrain(rng: &mut Mix, n: usize) -> Vec<[Vec3; 3]> {
        let h: Vec<f32> = (0..(n + 1) * (n + 1))
            .map(|_| rng.uniform(-0.3, 0.3) as f32)
            .collect();
        let at = |i: usize, j: usize| Vec3::new(i as f32 * 0.5, j as f32 * 0.5, h[j * (n + 1) + i]);
        let mut tris = Vec::new();
        for j in 0..n {
            for i in 0..n {
                tris.push([at(i, j), at(i + 1, j), at(i + 1, j + 1)]);
                tris.push([at(i, j), at(i + 1, j + 1), at(i, j + 1)]);
            }
        }
        tris
    }

    /// The world's path (clear misses decided, buffers reused) against the
    /// plain path (every candidate swept) over
    /// random bodies falling, bouncing and sliding on random terrains:
    /// the same outcome, bit for bit, errors included.
    #[test]
    fn the_prepared_path_gives_the_plain_outcome_bit_for_bit() {
        let mut rng = Mix(0x7E44_A1B5);
        let mut scratch = SoloScratch::default();
        let (mut impacts, mut cases) = (0usize, 0usize);
        for _ in 0..40 {
            let tris = terrain(&mut rng, 12);
            let tree = TriangleBoundsTree::build(&tris).unwrap();
            let mut check = crate::ccd::MeshSnapshotCache::new();
            check.ensure([(0, tris.as_slice())]).unwrap();
            let extent = check.largest_extent().unwrap();
            let material = |t: usize| {
                (t % 7 != 3).then_some(Material {
                    friction: 0.3,
                    restitution: if t.is_multiple_of(2) { 0.5 } else { 1.0 },
                    bounce_threshold: 0.5,
                })
            };
            let mesh = MeshView {
                triangles: &tris,
                tree: &tree,
                material: &material,
                edges: &|_| ActiveEdges::ALL,
            };
            for _ in 0..50 {
                let (shape, _) = random_shape(&mut rng);
                let geometry = match &shape {
                    SweptShape::Sphere { radius } => Shape::sphere(*radius).unwrap(),
                    SweptShape::Capsule {
                        radius,
                        half_height,
                    } => Shape::capsule(*radius, *half_height).unwrap(),
                    SweptShape::Solid { solid, .. } => {
                        let e = solid
                            .vertices()
                            .iter()
                            .fold(Vec3d::zeros(), |m, v| m.sup(&v.abs()));
                        Shape::cuboid(e.map(|x| x as f32)).unwrap()
                    }
                };
                let sphere = matches!(geometry, Shape::Sphere(_));
                let mut body = RigidBody::new_dynamic(geometry, 1.0).unwrap();
                if !sphere {
                    body.set_inverse_inertia(parapet_math::Mat3::zeros())
                        .unwrap();
                }
                let shape = match classify(0, &body).unwrap() {
                    crate::ccd::Role::Swept(s) => s,
                    other => panic!("{other:?}"),
                };
                let bound = shape.limit_radius()
                    + match &shape {
                        SweptShape::Capsule { half_height, .. } => *half_height as f64,
                        _ => 0.0,
                    };
                let body = body
                    .with_material(Material {
                        friction: 0.2,
                        restitution: 0.8,
                        bounce_threshold: 0.5,
                    })
                    .with_position(Vec3::new(
                        rng.uniform(1.0, 5.0) as f32,
                        rng.uniform(1.0, 5.0) as f32,
                        (bound + rng.uniform(0.3, 1.0)) as f32,
                    ))
                    .with_linear_velocity(Vec3::new(
                        rng.uniform(-8.0, 8.0) as f32,
                        rng.uniform(-8.0, 8.0) as f32,
                        rng.uniform(-60.0, 2.0) as f32,
                    ));
                let dt = 1.0 / 60.0;
                let reach = dynamic_reach(
                    promote(body.position()),
                    bound,
                    crate::ccd::reach::bound_energy(&body),
                    1.0,
                    Vec3::zeros(),
                    dt,
                );
                let input = SoloInput {
                    index: 3,
                    body: &body,
                    shape: &shape,
                    reach,
                    dt,
                    max_impacts: 1 + rng.pick(3) as u32,
                };
                let plain = sweep_alone(&input, &mesh);
                let prepared = sweep_alone_prepared(&input, &mesh, extent, &mut scratch);
                assert_eq!(prepared, plain);
                cases += 1;
                impacts += plain.map(|o| o.impacts.len()).unwrap_or(0);
            }
        }
        assert!(impacts > cases / 4, "{impacts} impacts in {cases} cases");
    }
}
