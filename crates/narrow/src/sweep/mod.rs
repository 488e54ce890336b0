//! Exact continuous-collision sweeps of translating shapes against static
//! one-sided triangles and between two translating segments (the contract is
//! docs/continuous-collision.md, "How a step works", "Moving groups" and
//! "Precision limits").
//!
//! # Conventions shared by every sweep
//!
//! - **Inputs are `f32`** (parapet's storage type); every computation is in
//!   `f64`. Each sweep re-centres its problem on the moving shape's start
//!   position before it does anything else, so the precision of the answer
//!   depends on distances near the shape, not on the world coordinates.
//! - **Motion** is a translation at constant velocity over one step of length
//!   `dt` seconds: the displacement is `velocity * dt`, formed in `f64`, where
//!   the product of two `f32` values is exact.
//! - **Time** is a fraction of the step in `[0, 1]`.
//! - **Normal** is a unit `f64` vector pointing *from the static triangle (or
//!   from body B of a pair) towards the moving shape (or body A)*: the
//!   direction in which an impulse pushes the moving shape.
//! - **Triangles** are `[Vec3; 3]`, one-sided: the front is the side that the
//!   counter-clockwise normal `(b - a) x (c - a)` points to. Edge `i` runs from
//!   vertex `i` to vertex `(i + 1) % 3`.
//! - **One-sided admission**: a shape is judged against a triangle's front by
//!   its start position only: a sphere whose centre starts behind the face
//!   plane, a capsule whose two segment ends both start behind it, and a
//!   solid wholly behind it are not caught (no hit, no initial contact).
//!   Behind means beyond the rounding of the computed height: a point in
//!   the plane to within rounding (a centre on the line of an edge) is in
//!   front, and a triangle that loses its area when the sweep's origin is
//!   subtracted (far smaller than its distance) is refused as thin.
//!   A shape admitted in front is caught by every feature it approaches
//!   (face, edge or vertex, whichever side of the plane its centre has
//!   reached by then), so nothing admitted can pass through a triangle.
//! - **Tangency is not an impact**: a shape that only grazes a feature, or
//!   whose normal approach is unresolved at the arithmetic scale of its
//!   operands ([`APPROACH_EPS_FACTOR`]), is not reported.
//! - **Ties**: equal feature times keep face, then edge, then vertex order (and
//!   lower indices first); the mesh helpers keep triangle insertion order.
//! - **Refusal**: inputs outside the precision domain ([`domain`]) are refused
//!   with a [`SweepRefusal`] that names the quantity, its value and the limit.
//!   No sweep panics on any input.
//!
//! One file per shape pair: `sphere_triangle.rs`, `capsule_triangle.rs`,
//! `segment_pair.rs`, `solid_triangle.rs` (with one file per layer of the
//! solid sweep, named `solid_*.rs`, the separating-axis test itself in
//! `solid_sat.rs`; the tables a solid keeps for its sweeps, its Gauss map
//! among them, belong to the solid, in `crate::solid`); the shared precision checks are in
//! [`domain`]; the dispatcher over shapes ([`SweptShape`]) in
//! `dispatch.rs`.

// Negated comparisons (`!(x <= limit)`) are deliberate throughout the sweeps:
// they are true for NaN, so a NaN operand is refused or rejected, never
// mistaken for a value within a limit.
#![allow(clippy::neg_cmp_op_on_partial_ord)]

pub(crate) mod capsule_triangle;
mod dispatch;
pub mod domain;
pub(crate) mod placement;
pub(crate) mod segment_pair;
mod solid_contact_point;
mod solid_inscribed_ball;
mod solid_path_bounds;
mod solid_placement;
pub(crate) mod solid_prepared;
mod solid_sat;
mod solid_triangle;
pub(crate) mod sphere_triangle;

/// Fixtures shared by the unit tests of the sweep files.
#[cfg(test)]
pub(crate) mod test_fixtures {
    use super::{Impact, SweepOutcome};
    use crate::solid::ConvexSolid;
    use parapet_math::Vec3;

    /// A front-facing (+z) triangle in the plane z = 0 around the origin.
    pub(crate) fn floor() -> [Vec3; 3] {
        crate::triangle::test_floor(1.0)
    }

    /// The impact of a sweep that must hit.
    pub(crate) fn hit<F: std::fmt::Debug>(o: SweepOutcome<F>) -> Impact<F> {
        match o {
            SweepOutcome::Hit(i) => i,
            other => panic!("expected a hit, got {other:?}"),
        }
    }

    /// A front-facing (+z) triangle in the plane z = 0, 8 m across, for the
    /// solid sweeps.
    pub(crate) fn solid_floor() -> [Vec3; 3] {
        crate::triangle::test_floor(4.0)
    }

    /// A skewed octahedron: 6 vertices, 8 faces.
    pub(crate) fn skewed_octahedron() -> ConvexSolid {
        let v = [
            Vec3::new(1.0, 0.1, 0.0),
            Vec3::new(-0.8, 0.0, 0.2),
            Vec3::new(0.0, 1.2, 0.0),
            Vec3::new(0.1, -0.9, 0.0),
            Vec3::new(0.0, 0.2, 0.7),
            Vec3::new(0.0, 0.0, -1.1),
        ];
        let f: [[u32; 3]; 8] = [
            [0, 2, 4],
            [2, 1, 4],
            [1, 3, 4],
            [3, 0, 4],
            [2, 0, 5],
            [1, 2, 5],
            [3, 1, 5],
            [0, 3, 5],
        ];
        ConvexSolid::from_points(&v, &f).unwrap()
    }

    /// A unit cube centred on its shape origin.
    pub(crate) fn unit_box() -> ConvexSolid {
        ConvexSolid::from_cuboid(Vec3::new(0.5, 0.5, 0.5)).unwrap()
    }

    /// A xorshift generator of `f32` values in `[0, 1)` from `seed`: the
    /// random cases of the solid sweeps' tests, reproducible.
    pub(crate) fn xorshift(mut seed: u64) -> impl FnMut() -> f32 {
        move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed >> 11) as f32 / (1u64 << 53) as f32
        }
    }
}

pub use capsule_triangle::{
    sweep_capsule_triangle, sweep_capsule_triangles, CapsulePart, CapsuleTriangleFeature,
};

pub use dispatch::{capsule_half_axis, sweep_shape_pair, PreparedSweep, SweptFeature, SweptShape};
pub use domain::{
    SweepRefusal, APPROACH_EPS_FACTOR, MAX_COORDINATE, MAX_COORDINATE_RADII, MAX_RADIUS,
    MAX_REACH_RADII, MAX_SHAPE_OFFSET, MAX_TRIANGLE_DISTANCE_RADII, MIN_RADIUS,
    ROTATION_NORM_SQ_TOLERANCE, THIN_TRIANGLE_RATIO,
};
pub use placement::Placement;
pub use segment_pair::{
    sweep_checked_pair, sweep_segment_pair, CheckedSegment, MovingSegment, PairFeature,
};
pub use solid_prepared::SolidSweep;
pub use solid_sat::SatAxis;
pub use solid_triangle::sweep_solid_triangle;
pub use sphere_triangle::{
    sweep_sphere_triangle, sweep_sphere_triangles, sweep_sphere_triangles_indexed,
};

use parapet_math::Vec3d;

/// Which feature of a triangle a contact lies on. Edge `i` runs from vertex
/// `i` to vertex `(i + 1) % 3`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum TriangleFeature {
    /// The interior of the face (the contact normal is the face normal).
    Face,
    /// The edge from vertex `i` to vertex `(i + 1) % 3`.
    Edge(u8),
    /// Vertex `i`.
    Vertex(u8),
}

/// The geometry of one contact found by a sweep.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Impact<F> {
    /// Fraction of the step in `[0, 1]` at which the shapes touch; `0` for an
    /// initial contact.
    pub time: f64,
    /// World-space contact point at `time` (on the static triangle, or on body
    /// B of a pair), metres.
    pub point: Vec3d,
    /// Unit contact normal, from the triangle (or body B) towards the moving
    /// shape (or body A).
    pub normal: Vec3d,
    /// The features in contact.
    pub feature: F,
}

impl<F> Impact<F> {
    /// The same impact with its feature mapped by `f`.
    pub fn map_feature<G>(self, f: impl FnOnce(F) -> G) -> Impact<G> {
        Impact {
            time: self.time,
            point: self.point,
            normal: self.normal,
            feature: f(self.feature),
        }
    }
}

/// The result of one sweep.
#[derive(Debug, Clone, PartialEq)]
pub enum SweepOutcome<F> {
    /// The shapes are apart at the start and first touch, approaching, at
    /// `impact.time` in `(0, 1]` (or at `0` when the start gap rounds to zero
    /// while closing).
    Hit(Impact<F>),
    /// No approaching contact during the step: the shapes stay apart, only
    /// graze, or the moving shape starts behind a one-sided triangle.
    Miss,
    /// The shapes already touch or overlap at the start of the step (front
    /// side). The impact's time is `0`; its normal is the separation
    /// direction (closest points, or for solids the axis of least overlap).
    /// Whether the shapes close on each other is the caller's test:
    /// `normal . relative_velocity < 0`.
    InitiallyTouching(Impact<F>),
    /// The input is outside the precision domain ([`domain`]) and the sweep
    /// makes no promise about it.
    Refused(SweepRefusal),
}

impl<F: Copy> SweepOutcome<F> {
    /// The impact of a hit or of an initial contact.
    pub fn impact(&self) -> Option<Impact<F>> {
        match self {
            SweepOutcome::Hit(i) | SweepOutcome::InitiallyTouching(i) => Some(*i),
            _ => None,
        }
    }

    /// The time of a hit or initial contact (fraction of the step).
    pub fn time(&self) -> Option<f64> {
        self.impact().map(|i| i.time)
    }

    /// Whether this is a [`SweepOutcome::Hit`].
    pub fn is_hit(&self) -> bool {
        matches!(self, SweepOutcome::Hit(_))
    }

    /// Whether this is a [`SweepOutcome::Miss`].
    pub fn is_miss(&self) -> bool {
        matches!(self, SweepOutcome::Miss)
    }

    /// Whether this is a [`SweepOutcome::Refused`].
    pub fn is_refused(&self) -> bool {
        matches!(self, SweepOutcome::Refused(_))
    }

    /// The same outcome with its impact's feature mapped by `f` (time,
    /// point and normal unchanged).
    pub fn map_feature<G>(self, f: impl FnOnce(F) -> G) -> SweepOutcome<G> {
        match self {
            SweepOutcome::Hit(i) => SweepOutcome::Hit(i.map_feature(f)),
            SweepOutcome::InitiallyTouching(i) => SweepOutcome::InitiallyTouching(i.map_feature(f)),
            SweepOutcome::Miss => SweepOutcome::Miss,
            SweepOutcome::Refused(r) => SweepOutcome::Refused(r),
        }
    }
}

/// A feature of one triangle among several (the mesh helpers): the index is
/// the triangle's position in the slice given to the sweep.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct OnTriangle<F> {
    /// Index of the triangle in the input slice (insertion order).
    pub triangle: usize,
    /// The feature on that triangle.
    pub feature: F,
}

/// Picks the earlier of two results of the same sweep over several
/// triangles: a refusal wins (no early hit may skip another candidate's
/// refusal), then the earlier time, then the earlier triangle (`current`,
/// which was inserted first). Initial contacts are time 0.
pub(crate) fn earlier_of<F: Copy>(
    current: SweepOutcome<F>,
    next: SweepOutcome<F>,
) -> SweepOutcome<F> {
    match (&current, &next) {
        (SweepOutcome::Refused(_), _) => current,
        (_, SweepOutcome::Refused(_)) => next,
        (_, SweepOutcome::Miss) => current,
        (SweepOutcome::Miss, _) => next,
        _ => {
            let tc = current.time().unwrap_or(f64::INFINITY);
            let tn = next.time().unwrap_or(f64::INFINITY);
            // Strictly earlier only: insertion order breaks ties, and an
            // initial contact precedes a hit at rounded time zero.
            let current_initial = matches!(current, SweepOutcome::InitiallyTouching(_));
            let next_initial = matches!(next, SweepOutcome::InitiallyTouching(_));
            if tn < tc || (tn == tc && next_initial && !current_initial) {
                next
            } else {
                current
            }
        }
    }
}

/// The approach test of the sweeps (see docs/continuous-collision.md, "Precision limits"): the dot
/// product `normal . motion` is negative by more than
/// [`APPROACH_EPS_FACTOR`] `* f64::EPSILON` times the sum of the absolute
/// values of its three terms. An approach whose sign is unresolved at that
/// scale is ignored (returns `false`).
#[inline]
pub(crate) fn approaches(normal: Vec3d, motion: Vec3d) -> bool {
    let t = normal.component_mul(&motion);
    let dot = t.x + t.y + t.z;
    let scale = t.x.abs() + t.y.abs() + t.z.abs();
    dot < -APPROACH_EPS_FACTOR * f64::EPSILON * scale
}

/// Whether `normal . motion` is zero within the same arithmetic bound as
/// [`approaches`] (neither approaching nor receding at that scale).
#[inline]
pub(crate) fn unresolved_dot(normal: Vec3d, motion: Vec3d) -> bool {
    let t = normal.component_mul(&motion);
    let dot = t.x + t.y + t.z;
    let scale = t.x.abs() + t.y.abs() + t.z.abs();
    dot.abs() <= APPROACH_EPS_FACTOR * f64::EPSILON * scale
}

/// The earlier root of `a t^2 + 2 b t + c = 0` for a point entering a round
/// surface from outside (`c > 0`) while approaching (`b < 0`), when the
/// surface is crossed rather than grazed (discriminant strictly positive).
/// Written as `c / (-b + sqrt(b^2 - a c))` to avoid cancellation.
///
/// A point already on or inside the surface (`c <= 0`) and approaching
/// enters at once (`0`): the callers exclude initial contact first, by
/// other expressions of the same distance (closest points of two
/// segments), which can round the other way at the surface; without
/// this, a pair touching to within rounding and closing was neither
/// touching nor entering (two capsules found 21 mm inside each other
/// by the `ccd_mixed` fuzz target).
#[inline]
pub(crate) fn entry_root(a: f64, b: f64, c: f64) -> Option<f64> {
    if !(a > 0.0 && b < 0.0) {
        return None;
    }
    if c <= 0.0 {
        return Some(0.0);
    }
    let disc = b * b - a * c;
    if !(disc > 0.0) {
        return None;
    }
    let t = c / (-b + disc.sqrt());
    t.is_finite().then_some(t)
}

/// The entry time (fraction of the motion `d`) of a point at offset `m`
/// from a point of an infinite cylinder's axis `e` (squared length `ee`)
/// into the cylinder of radius `r`: the earlier root of
/// `|(m + t d) x e|^2 = r^2 |e|^2`, by [`entry_root`].
#[inline]
pub(crate) fn cylinder_entry(m: Vec3d, e: Vec3d, ee: f64, d: Vec3d, r: f64) -> Option<f64> {
    let mxe = m.cross(&e);
    let dxe = d.cross(&e);
    entry_root(
        dxe.norm_squared(),
        mxe.dot(&dxe),
        mxe.norm_squared() - r * r * ee,
    )
}

/// The entry time (fraction of the motion `d`) of a point at offset `m`
/// from a sphere's centre into the sphere of radius `r`: the earlier root
/// of `|m + t d|^2 = r^2`, by [`entry_root`].
#[inline]
pub(crate) fn sphere_entry(m: Vec3d, d: Vec3d, r: f64) -> Option<f64> {
    entry_root(d.norm_squared(), m.dot(&d), m.norm_squared() - r * r)
}

/// Relative margin of the quick separation tests (dimensionless): a shape
/// whose distance from a triangle's plane exceeds its radius by more than
/// this fraction is certainly not touching the triangle, and the detailed
/// initial-contact tests are skipped. `1e-6` lies far above the roundoff of
/// the plane distance and of the edge terms (about `1e-10` relative at the
/// domain limits), so the skip never changes a result.
pub(crate) const CLEAR_SEPARATION_MARGIN: f64 = 1.0e-6;

/// Relative outward margin of swept bounds (dimensionless, `2^-40`): covers
/// the `f64` rounding of the bound's additions (a few ulps) many times over,
/// so that the bounds only ever reject triangles that are truly disjoint.
pub(crate) const SWEPT_BOUNDS_MARGIN: f64 = 1.0 / 1_099_511_627_776.0;

/// The axis-aligned bounds of a shape's whole path over a step (`f64`,
/// rounded outward), used by the mesh helpers to reject distant triangles
/// before they are validated: a triangle whose bounds miss the path's is
/// never checked against the precision domain, so a distant bad triangle
/// cannot refuse a sweep.
#[derive(Debug, Clone, Copy)]
pub(crate) struct SweptBounds {
    lo: Vec3d,
    hi: Vec3d,
}

impl SweptBounds {
    /// Bounds of the points `points` moving by `d`, grown by `grow`.
    pub(crate) fn new(points: &[Vec3d], d: Vec3d, grow: f64) -> Self {
        let mut lo = Vec3d::repeat(f64::INFINITY);
        let mut hi = Vec3d::repeat(f64::NEG_INFINITY);
        for p in points {
            for q in [*p, p + d] {
                lo = lo.inf(&q);
                hi = hi.sup(&q);
            }
        }
        let scale = lo.amax().max(hi.amax()) + grow;
        let m = grow + SWEPT_BOUNDS_MARGIN * scale;
        SweptBounds {
            lo: lo.add_scalar(-m),
            hi: hi.add_scalar(m),
        }
    }

    /// Bounds of the box `[lo, hi]` moving by `d` (all finite), with the
    /// same outward margin as [`SweptBounds::new`] with no growth.
    #[inline]
    pub(crate) fn of_box(lo: Vec3d, hi: Vec3d, d: Vec3d) -> Self {
        let lo = Vec3d::new(
            lo.x + d.x.min(0.0),
            lo.y + d.y.min(0.0),
            lo.z + d.z.min(0.0),
        );
        let hi = Vec3d::new(
            hi.x + d.x.max(0.0),
            hi.y + d.y.max(0.0),
            hi.z + d.z.max(0.0),
        );
        let scale = [lo.x, lo.y, lo.z, hi.x, hi.y, hi.z]
            .iter()
            .fold(0.0f64, |m, x| m.max(x.abs()));
        let m = SWEPT_BOUNDS_MARGIN * scale;
        SweptBounds {
            lo: lo.add_scalar(-m),
            hi: hi.add_scalar(m),
        }
    }

    /// The lower corner (m).
    pub(crate) fn lo(&self) -> Vec3d {
        self.lo
    }

    /// The upper corner (m).
    pub(crate) fn hi(&self) -> Vec3d {
        self.hi
    }

    /// Whether the triangle's bounds are certainly disjoint from these. A
    /// triangle with a NaN coordinate is never rejected (so it is refused).
    pub(crate) fn misses(&self, tri: &[parapet_math::Vec3; 3]) -> bool {
        self.misses_promoted(&tri.map(parapet_math::promote))
    }

    /// [`SweptBounds::misses`] for a triangle already promoted to `f64`.
    #[inline]
    pub(crate) fn misses_promoted(&self, tri: &[Vec3d; 3]) -> bool {
        (0..3).any(|k| {
            let (a, b, c) = (tri[0][k], tri[1][k], tri[2][k]);
            (a < self.lo[k] && b < self.lo[k] && c < self.lo[k])
                || (a > self.hi[k] && b > self.hi[k] && c > self.hi[k])
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_approach_unresolved_at_32_epsilon_is_ignored() {
        // Terms +1 and -(1 + x): the sum -x is judged against 32 eps * (2 + x).
        let n = Vec3d::new(1.0, 1.0, 0.0);
        let bound = APPROACH_EPS_FACTOR * f64::EPSILON * 2.0;
        assert!(!approaches(n, Vec3d::new(1.0, -1.0 - 0.5 * bound, 0.0)));
        assert!(approaches(n, Vec3d::new(1.0, -1.0 - 2.0 * bound, 0.0)));
        // Receding and exactly parallel motions never approach.
        assert!(!approaches(n, Vec3d::new(1.0, -1.0 + 2.0 * bound, 0.0)));
        assert!(!approaches(n, Vec3d::new(1.0, -1.0, 0.0)));
        assert!(unresolved_dot(n, Vec3d::new(1.0, -1.0 - 0.5 * bound, 0.0)));
    }

    #[test]
    fn tangent_roots_are_not_entries() {
        // |m + t d|^2 = r^2 with m = (-2, 1), d = (4, 0), r = 1: the path
        // touches the unit circle at t = 0.5 only (discriminant zero).
        let (a, b, c) = (16.0, -8.0, 4.0);
        assert_eq!(entry_root(a, b, c), None);
        // Slightly closer: a crossing, entered before the tangent time.
        let t = entry_root(a, b, 4.0 - 1e-6).unwrap();
        assert!(t < 0.5 && t > 0.49, "{t}");
    }
}
