//! The group sweep's culls ([`super`]): the pair cull ([`swept_bounds`],
//! [`meeting_pairs`]: two members whose widened swept bounds miss each other
//! cannot touch over the remaining time) and the triangle cull of sphere
//! members (`TriangleCull`: a checked triangle whose bounds miss a sphere's
//! widened path bounds is a miss of that sphere's sweep).
//!
//! # Method
//! Axis-aligned bounds of each member's path over the remaining time (its
//! segment's ends at the start and at the end of the motion), grown by its
//! radius and widened by [`PAIR_CULL_MARGIN`] of its local scale plus
//! [`PAIR_CULL_WORLD_MARGIN`] of its world coordinates; the meeting pairs
//! are found by sorting the bounds along the axis where they spread most and
//! sweeping, or by testing every pair in a small group.
//!
//! # Source
//! docs/continuous-collision.md, "Performance" (pairs whose swept bounds
//! cannot meet are culled, with the result of the exhaustive pass).
//!
//! # Precision domain
//! Conservative: a culled pair or triangle is a miss of the exact sweep by
//! a wide factor (the bound on the sweeps' own roundoff is derived on
//! [`swept_bounds`] and `TriangleCull::misses`); a member without finite
//! bounds is never culled.

use parapet_math::{promote, Vec3, Vec3d};
use parapet_narrow::sweep::CheckedSegment;
use parapet_narrow::sweep::{MovingSegment, MAX_TRIANGLE_DISTANCE_RADII};

/// A sphere member's triangle cull: the member's checked segment (its
/// sphere at its sweep radius and velocity) and its widened swept bounds
/// over the sweep's time ([`swept_bounds`]). See [`TriangleCull::misses`].
#[derive(Debug, Clone, Copy)]
pub(super) struct TriangleCull {
    /// The sphere's centre (world, m) and radius (m) as the sweep takes them.
    pub(super) center: Vec3d,
    pub(super) radius: f64,
    /// The widened bounds of its path over the sweep's time.
    pub(super) bounds: SweptBounds,
}

impl TriangleCull {
    /// The cull of a sphere at `center` with radius `radius` moving at
    /// `velocity` over `tau` seconds, when the sphere passes the member
    /// checks of the sphere-triangle sweep: its checks are those of
    /// [`CheckedSegment::new`] on the sphere as a segment (same finiteness,
    /// step, radius, start and end coordinate and reach limits; a sphere's
    /// half length adds `0.0` to the reach exactly). `None` when it does not
    /// (its sweeps refuse, and are all swept) or its bounds are not finite.
    pub(super) fn new(center: Vec3, radius: f32, velocity: Vec3, tau: f32) -> Option<Self> {
        let segment = MovingSegment::sphere(center, radius, velocity);
        CheckedSegment::new(&segment, tau).ok()?;
        Some(TriangleCull {
            center: promote(center),
            radius: radius as f64,
            bounds: swept_bounds(&segment, tau, 0.0)?,
        })
    }

    /// Whether the sphere's sweep against `tri` is certainly a miss, for a
    /// triangle whose own checks (finite coordinates within the limit, not
    /// degenerate, not thin) passed in an earlier sweep: the triangle's
    /// bounds miss the sphere's widened swept bounds, and no vertex lies
    /// farther than [`MAX_TRIANGLE_DISTANCE_RADII`] radii from the centre
    /// (the one triangle check that depends on the sphere, written as the
    /// sweep's domain writes it, so that a sweep that would refuse is
    /// swept).
    ///
    /// # Why a culled sweep is a miss
    /// The sweep reports a contact (initial or a hit) only where its `f64`
    /// arithmetic puts a point of the centre's path within the radius of
    /// the triangle (face slab, edge cylinders, vertex spheres). Relative to
    /// the centre every vertex lies within `2^20` radii and the path within
    /// `2^20` radii (the reach limit), so the roundoff in those distances
    /// is a few `f64` epsilons of `2^21 r` (below `1e-9 r`) and, for the
    /// near-tangent roots of the edge and vertex quadratics, at most about
    /// `ε |m|² / r` with `|m|` the distance travelled to the contact, below
    /// `1e-5` of the path's extent. Bounds that miss on one axis put every
    /// point of the path farther than `r + 2^-16 (extent + r)` from every
    /// point of the triangle ([`swept_bounds`]), beyond both. The unit test
    /// `a_culled_triangle_sweep_is_a_miss` checks it on grazing spheres.
    #[inline]
    pub(super) fn misses(&self, tri: &[Vec3; 3]) -> bool {
        let b = &self.bounds;
        let [p, q, r] = tri;
        // The triangle's coordinates are finite (its checks passed): the
        // f32 minimum and maximum are exact.
        let apart = (0..3).any(|k| {
            let lo = p[k].min(q[k]).min(r[k]) as f64;
            let hi = p[k].max(q[k]).max(r[k]) as f64;
            hi < b.lo[k] || b.hi[k] < lo
        });
        apart
            && tri.iter().all(|x| {
                (promote(*x) - self.center).amax() / self.radius <= MAX_TRIANGLE_DISTANCE_RADII
            })
    }
}

/// Relative widening of a member's swept bounds for the pair cull
/// (dimensionless, `2^-16` of the member's local scale: the extent of its
/// swept bounds plus its radius). See [`swept_bounds`].
pub(crate) const PAIR_CULL_MARGIN: f64 = 1.0 / 65536.0;

/// Widening of a member's swept bounds per metre of its largest world
/// coordinate (dimensionless, `2^-30`): covers the `f64` rounding of the
/// bounds themselves and of the pair sweep's re-centring (a few `f64`
/// epsilons of the world coordinates) many times over.
pub(crate) const PAIR_CULL_WORLD_MARGIN: f64 = 1.0 / 1_073_741_824.0;

/// Axis-aligned bounds (world, m) of a member's path over the remaining
/// time, widened for the pair cull; `None` when not finite.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct SweptBounds {
    /// Lower corner.
    pub(crate) lo: [f64; 3],
    /// Upper corner.
    pub(crate) hi: [f64; 3],
}

/// The bounds of `segment` (its radius grown by `grow` metres) over `tau`
/// seconds: the box of its two ends at the start and at the end of the
/// motion, grown by the radius and by the cull margin
/// `PAIR_CULL_MARGIN (extent + radius) + PAIR_CULL_WORLD_MARGIN |world|`.
/// `None` when a bound is not finite (such a member is never culled).
///
/// # Why the cull is conservative
/// Two members whose widened bounds miss each other on some axis are apart
/// on that axis by more than `G > 2^-16 (L_A + L_B)` at every instant of
/// the remaining time (`L` the local scales). The pair sweep
/// ([`parapet_narrow::sweep::sweep_segment_pair`]) reports a contact (a hit or an initial
/// contact) only at an instant where two points of the members' axes (the
/// ends, or clamped closest points, or points on the two lines) lie within
/// the summed radius by its own `f64` arithmetic; its error in that
/// distance is at most `κ S` with `S` the scale of its relative
/// coordinates (`S <= 2 G + 4 (L_A + L_B)` for such a pair) and
/// `κ < 1e-6`: a few `√ε` from its parallel-axis guard (`|e_A x e_B|² >
/// ε |e_A|² |e_B|²`, which bounds the plane distance's relative error by
/// about `2 √ε = 3e-8`) and `ε S / R` from the cancellation in its
/// discriminants (`S / R < 2^21` in the precision domain, so below
/// `5e-10`). So a contact needs `G <= κ S < 4e-6 (G + 2 L_A + 2 L_B)`,
/// i.e. `G < 1e-5 (L_A + L_B)`, which the cull's `2^-16 = 1.5e-5` excludes:
/// a culled pair's sweep is a miss. `sweep_group`'s unit tests check it
/// on grazing pairs and against the uncut pass.
pub(crate) fn swept_bounds(segment: &MovingSegment, tau: f32, grow: f64) -> Option<SweptBounds> {
    // Components written out and compared directly (nalgebra's indexing
    // and `f64::min`'s NaN handling cost more than the arithmetic). For
    // finite inputs the corners are those of `min`/`max`, up to the sign of
    // a zero, which the widening below removes; bounds that are not finite
    // give `None` either way.
    let tau = tau as f64;
    let (p0, p1, v) = (segment.p0, segment.p1, segment.velocity);
    let axes = [(p0.x, p1.x, v.x), (p0.y, p1.y, v.y), (p0.z, p1.z, v.z)];
    let mut lo = [0.0f64; 3];
    let mut hi = [0.0f64; 3];
    let mut extent = 0.0f64;
    let mut world = 0.0f64;
    for (k, &(a, b, v)) in axes.iter().enumerate() {
        let (a, b) = (a as f64, b as f64);
        let t = v as f64 * tau;
        let (c, d) = (a + t, b + t);
        let (l1, h1) = if a <= b { (a, b) } else { (b, a) };
        let (l2, h2) = if c <= d { (c, d) } else { (d, c) };
        let (l, h) = (if l2 < l1 { l2 } else { l1 }, if h2 > h1 { h2 } else { h1 });
        lo[k] = l;
        hi[k] = h;
        extent = extent.max(h - l);
        world = world.max(l.abs()).max(h.abs());
    }
    let r = segment.radius as f64 + grow;
    let m = r + PAIR_CULL_MARGIN * (extent + r) + PAIR_CULL_WORLD_MARGIN * world;
    for k in 0..3 {
        lo[k] -= m;
        hi[k] += m;
    }
    let finite = lo.iter().chain(hi.iter()).all(|x| x.is_finite());
    finite.then_some(SweptBounds { lo, hi })
}

/// Whether two members' bounds meet (always, for a member without bounds).
pub(super) fn bounds_meet(a: &Option<SweptBounds>, b: &Option<SweptBounds>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => (0..3).all(|k| a.lo[k] <= b.hi[k] && b.lo[k] <= a.hi[k]),
        _ => true,
    }
}

/// The pairs `(i, j)`, `i < j`, lexicographic, whose bounds meet, except
/// pairs of two `skip` members; a member without bounds (`None`) meets
/// every other. Sort along the axis where the bounds spread most and sweep:
/// `O(B log B)` plus the pairs found.
#[cfg(test)]
pub(crate) fn meeting_pairs(bounds: &[Option<SweptBounds>], skip: &[bool]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    meeting_pairs_into(bounds, skip, &mut Vec::new(), &mut out);
    out
}

/// The most members for which [`meeting_pairs_into`] tests every pair
/// instead of sorting: below this the sort and its final ordering cost more
/// than the `n (n - 1) / 2` bounds tests. Either way the pairs are the same.
pub(super) const SMALL_MEETING_PAIRS: usize = 12;

/// [`meeting_pairs`] into `out` (cleared first), with `sorted` as scratch.
pub(super) fn meeting_pairs_into(
    bounds: &[Option<SweptBounds>],
    skip: &[bool],
    sorted: &mut Vec<(SweptBounds, usize)>,
    out: &mut Vec<(usize, usize)>,
) {
    let n = bounds.len();
    out.clear();
    sorted.clear();
    if n <= SMALL_MEETING_PAIRS {
        // Few members: every pair in lexicographic order, no sort.
        for i in 0..n {
            for j in i + 1..n {
                if !(skip[i] && skip[j]) && bounds_meet(&bounds[i], &bounds[j]) {
                    out.push((i, j));
                }
            }
        }
        return;
    }
    let mut wild = false;
    let (mut lo, mut hi) = ([f64::INFINITY; 3], [f64::NEG_INFINITY; 3]);
    for (i, b) in bounds.iter().enumerate() {
        match b {
            Some(b) => {
                for k in 0..3 {
                    lo[k] = lo[k].min(b.lo[k]);
                    hi[k] = hi[k].max(b.hi[k]);
                }
                sorted.push((*b, i));
            }
            None => wild = true,
        }
    }
    let axis = (0..3)
        .max_by(|&a, &b| (hi[a] - lo[a]).total_cmp(&(hi[b] - lo[b])))
        .unwrap_or(0);
    sorted.sort_unstable_by(|a, b| a.0.lo[axis].total_cmp(&b.0.lo[axis]).then(a.1.cmp(&b.1)));
    for (x, (a, i)) in sorted.iter().enumerate() {
        for (b, j) in &sorted[x + 1..] {
            if !(b.lo[axis] <= a.hi[axis]) {
                break;
            }
            if skip[*i] && skip[*j] {
                continue;
            }
            if bounds_meet(&Some(*a), &Some(*b)) {
                out.push(((*i).min(*j), (*i).max(*j)));
            }
        }
    }
    if wild {
        for w in (0..n).filter(|&w| bounds[w].is_none()) {
            for j in 0..n {
                let counted = bounds[j].is_none() && j < w;
                if j != w && !counted && !(skip[w] && skip[j]) {
                    out.push((w.min(j), w.max(j)));
                }
            }
        }
    }
    out.sort_unstable();
}
