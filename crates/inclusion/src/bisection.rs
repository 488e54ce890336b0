//! The inclusion bisection shared by vertex-face and edge-edge: exact dyadic
//! bisection of the parameter box `[0, 1]^3` in (t, u, v), corner-hull
//! inclusion with a proven rounding filter, tolerance-based acceptance and a
//! conservative answer at the iteration cap.
//!
//! Method: Snyder 1992 (inclusion functions and bisection: the root is boxed
//! conservatively), refined by Wang et al. 2021 (per-dimension tolerances
//! from delta, splitting the dimension with the largest width/tolerance
//! ratio, the iteration cap m_I). Minimum separation d: contact is the gap
//! function entering the L-infinity cube `[-d, d]^3` instead of reaching the
//! origin (the minimum-separation variant of Wang et al. 2021). Per box, in
//! order:
//!
//! 1. per-axis inclusion: the 8 corner values widened by the proven error
//!    ([`super::rounding_error`]) must meet `[-d, d]` on every axis;
//! 2. the same test along the three dual directions of the box's Jacobian
//!    (`dual_directions`; for a fixed direction n, `n . F` is
//!    multilinear too), which removes the slab-shaped false inclusions of
//!    nearly parallel motion;
//! 3. vertex-face boxes crossing `u + v = 1`: both tests again on the part of
//!    the box inside the triangle (`clipped_prism_values`); boxes entirely
//!    beyond it (`u_lo + v_lo > 1`) are never created;
//! 4. t-clipping: along every box edge in t, F (and `n . F`) is linear, so
//!    the earliest time at which each axis (each direction) can meet the
//!    cube bounds the box's contact times from below
//!    (`earliest_fraction_below`): the box's key and answer;
//! 5. acceptance when, at that earliest time, a point (u, v) of the
//!    triangle/edge domain in the box is within delta + d of contact (a
//!    witness, "inside the tolerance cube": a corner, or the least-squares
//!    zero of the affine-in-(u, v) F evaluated with its proven error,
//!    `linearized_witness`), or when every width is below its tolerance or
//!    the parameter resolution; otherwise bisection of the dimension with
//!    the largest width/tolerance ratio.
//!
//! Conservativeness: a box is dropped only when a sound enclosure of F (or of
//! `n . F`) over it misses the d-cube; so a box holding a contact is never
//! dropped. The answer is at most the earliest-time bound of an accepted box,
//! which is at most every contact time in it, and a box that is skipped
//! because its earliest-time bound is not below the answer cannot hold an
//! earlier contact: the answer is at most the first contact time. At the cap,
//! the answer is the least earliest-time bound over the accepted and the
//! still unrefuted boxes.
//!
//! Precision domain: every box bound is a multiple of
//! [`MIN_PARAMETER_WIDTH`] in `[0, 1]`, so midpoints and `u + v` are exact.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::config::{InclusionConfig, SearchOrder, MIN_PARAMETER_WIDTH};
use super::error::InclusionError;
use super::outcome::{InclusionStatus, InclusionToi};
use super::rounding_error::{corner_error_bound, inclusion_radius};

/// Queries whose largest coordinate magnitude is above this (length, `2^500`)
/// are rescaled by an exact power of two before the search, so that no
/// intermediate of the corner evaluation can overflow.
pub(crate) const RESCALE_ABOVE: f64 = 3.273390607896142e150;
/// Queries whose largest coordinate magnitude is below this (length,
/// `2^-500`) but nonzero are rescaled up by an exact power of two, so that
/// the tolerance does not underflow.
pub(crate) const RESCALE_BELOW: f64 = 3.054936363499605e-151;

/// A gap function F(t, u, v) that is multilinear in (t, u, v): its range over
/// a box is the hull of its 8 corner values.
pub(crate) trait MultilinearGap {
    /// Vertex-face: boxes entirely outside the triangle (`u + v > 1`) are
    /// dropped.
    const TRIANGLE_DOMAIN: bool;
    /// Computed F on one axis at the 8 corners of the box `t x u x v`,
    /// corner `ti * 4 + ui * 2 + vi`, evaluated in the order proven in
    /// [`super::rounding_error`].
    fn corners(&self, axis: usize, t: [f64; 2], u: [f64; 2], v: [f64; 2]) -> [f64; 8];

    /// Computed F on one axis at one point (same evaluation order).
    #[inline]
    fn at(&self, axis: usize, t: f64, u: f64, v: f64) -> f64 {
        self.corners(axis, [t; 2], [u; 2], [v; 2])[0]
    }
}

/// The 8 points of a query in `f64`, possibly rescaled by `2^exponent`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct PreparedPoints {
    /// The points, multiplied by `2^exponent`.
    pub(crate) points: [[f64; 3]; 8],
    /// The power of two applied (0 when not rescaled).
    pub(crate) exponent: i32,
}

/// `2^k` for `|k| <= 1000`, built from its bits (exact).
#[inline]
fn pow2(k: i32) -> f64 {
    debug_assert!((-1000..=1000).contains(&k));
    f64::from_bits(((k + 1023) as u64) << 52)
}

/// `x * 2^k` in two exact-power steps (each factor normal).
#[inline]
fn scale_pow2(x: f64, k: i32) -> f64 {
    let k1 = k / 2;
    x * pow2(k1) * pow2(k - k1)
}

/// Validates the 8 points (finite) and rescales them by a power of two when
/// their magnitude is outside `[RESCALE_BELOW, RESCALE_ABOVE]`.
pub(crate) fn prepare_points(
    points: [[f64; 3]; 8],
    primitive: &'static str,
) -> Result<PreparedPoints, InclusionError> {
    let mut largest = 0.0f64;
    for (point, p) in points.iter().enumerate() {
        for (axis, &value) in p.iter().enumerate() {
            if !value.is_finite() {
                return Err(InclusionError::NonFiniteCoordinate {
                    primitive,
                    point,
                    axis,
                    value,
                });
            }
            largest = largest.max(value.abs());
        }
    }
    if largest == 0.0 || (RESCALE_BELOW..=RESCALE_ABOVE).contains(&largest) {
        return Ok(PreparedPoints {
            points,
            exponent: 0,
        });
    }
    // The exponent only needs to be roughly right: any power of two is exact.
    let exponent = -(largest.log2().floor() as i32);
    let mut scaled = points;
    for p in scaled.iter_mut() {
        for value in p.iter_mut() {
            *value = scale_pow2(*value, exponent);
        }
    }
    Ok(PreparedPoints {
        points: scaled,
        exponent,
    })
}

/// Everything the search needs about one query, in the (possibly rescaled)
/// frame of [`PreparedPoints`].
#[derive(Debug, Clone, Copy)]
pub(crate) struct SearchSetup {
    /// Per axis: proven corner error bound plus d, rounded up.
    pub(crate) radius: [f64; 3],
    /// Per axis: proven corner error bound.
    pub(crate) error: [f64; 3],
    /// Half-width of the tolerance cube: delta (absolute) plus d.
    pub(crate) accept_half_width: f64,
    /// d in the (possibly rescaled) frame, rounded up.
    pub(crate) separation: f64,
    /// Per-dimension parameter tolerances (t, u, v), dimensionless.
    pub(crate) parameter_tolerance: [f64; 3],
    /// Width of the time buckets of [`SearchOrder::TimeThenDepth`]: a power of
    /// two, at most the t tolerance and at most `2^-10`.
    pub(crate) time_bucket: f64,
    /// Bound of `|dF/dt|` (length per unit t), to report precision.
    pub(crate) time_slope: f64,
    /// Power of two the query was scaled by.
    pub(crate) exponent: i32,
    /// m_I.
    pub(crate) max_iterations: u64,
    /// Box order.
    pub(crate) order: SearchOrder,
}

impl SearchSetup {
    /// Builds the setup from the prepared points and the derivative bounds
    /// `slope[i]` (length per unit of parameter i, L-infinity over axes) of F.
    pub(crate) fn new(
        prepared: &PreparedPoints,
        slope: [f64; 3],
        config: &InclusionConfig,
    ) -> Self {
        let exponent = prepared.exponent;
        let mut error = [0.0; 3];
        let mut low = [f64::INFINITY; 3];
        let mut high = [f64::NEG_INFINITY; 3];
        for p in &prepared.points {
            for axis in 0..3 {
                error[axis] = f64::max(error[axis], p[axis].abs());
                low[axis] = low[axis].min(p[axis]);
                high[axis] = high[axis].max(p[axis]);
            }
        }
        let mut separation = scale_pow2(config.min_separation, exponent);
        if exponent < 0 && separation > 0.0 {
            // Scaling down may round; a larger d only adds false positives.
            separation = separation.next_up();
        }
        let mut radius = [0.0; 3];
        for axis in 0..3 {
            error[axis] = corner_error_bound(error[axis]);
            radius[axis] = inclusion_radius(error[axis], separation);
        }
        let scale = match config.length_scale {
            Some(scale) => scale_pow2(scale, exponent),
            None => {
                let extent = (0..3).map(|a| high[a] - low[a]).fold(0.0, f64::max);
                if extent > 0.0 {
                    extent
                } else {
                    1.0
                }
            }
        };
        let delta = config.tolerance * scale;
        // Three parameters share the delta budget (Wang et al. 2021, eq. 8).
        let parameter_tolerance = slope.map(|s| {
            if s > 0.0 {
                delta / (3.0 * s)
            } else {
                f64::INFINITY
            }
        });
        let mut time_bucket = 1.0 / 1024.0;
        while time_bucket > parameter_tolerance[0] && time_bucket > MIN_PARAMETER_WIDTH {
            time_bucket *= 0.5;
        }
        Self {
            radius,
            error,
            accept_half_width: delta + separation,
            separation,
            parameter_tolerance,
            time_bucket,
            time_slope: slope[0],
            exponent,
            max_iterations: config.max_iterations,
            order: config.search_order,
        }
    }
}

/// A parameter box `[lo, hi]` in (t, u, v) with its bisection level, a lower
/// bound of the contact times it can hold, and the precision of its parent's
/// enclosure.
#[derive(Debug, Clone, Copy)]
struct ParameterBox {
    lo: [f64; 3],
    hi: [f64; 3],
    level: u32,
    earliest: f64,
    parent_precision: f64,
}

/// A heap entry: the box and its order key (smaller first).
#[derive(Debug, Clone, Copy)]
struct Candidate {
    key: (u64, u64),
    parameters: ParameterBox,
}

impl PartialEq for Candidate {
    fn eq(&self, other: &Self) -> bool {
        self.key == other.key
    }
}
impl Eq for Candidate {}
impl PartialOrd for Candidate {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Candidate {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.key.cmp(&other.key)
    }
}

impl Candidate {
    #[inline]
    fn new(parameters: ParameterBox, setup: &SearchSetup) -> Reverse<Self> {
        // Non-negative f64 bit patterns are ordered like the values.
        let level = u64::from(parameters.level);
        let key = match setup.order {
            SearchOrder::LevelThenTime => (level, parameters.earliest.to_bits()),
            SearchOrder::TimeThenDepth => (
                bucket_floor(parameters.earliest, setup.time_bucket).to_bits(),
                u64::MAX - level,
            ),
        };
        Reverse(Self { key, parameters })
    }
}

/// `2^-50`: relative safety margin on a quotient of four rounded operations
/// (`4.1 u < 8 u`), see [`earliest_fraction_below`].
const QUOTIENT_MARGIN: f64 = 1.0 - 1.0 / (1u64 << 50) as f64;

/// For one corner (u, v) on one axis, with computed values `f0` at the box's
/// `t_lo` and `f1` at its `t_hi`, a lower bound of the fraction `s in [0, 1]`
/// of the t-width from which the exact value can be `<= d`, where `radius >=
/// err + d`; `INFINITY` when it cannot be in the box.
///
/// F is linear in t along the edge of the box through that corner. With
/// exact values `F0 >= f0 - err > d` and `F1 <= d`, the crossing is at
/// `s* = g / (g + h)`, `g = F0 - d >= f0 - radius`, `0 <= h = d - F1 <=
/// radius - f1`; `g / (g + h)` grows with g and falls with h, so
/// `(f0 - radius) / ((f0 - radius) + (radius - f1)) <= s*`. The computed
/// quotient is within `4.1 u` (relative) of that, hence the margin.
#[inline]
fn earliest_fraction_below(f0: f64, f1: f64, radius: f64) -> f64 {
    if f0 <= radius {
        0.0
    } else if f1 <= radius {
        let g = f0 - radius;
        let h = radius - f1;
        (g / (g + h)) * QUOTIENT_MARGIN
    } else {
        f64::INFINITY
    }
}

/// `v` scaled to largest component magnitude about 1, or `None` when `v` is
/// zero or not finite.
#[inline]
fn normalized(v: [f64; 3]) -> Option<[f64; 3]> {
    let m = v[0].abs().max(v[1].abs()).max(v[2].abs());
    // Any positive scale is as good as another: one division only.
    (m > 0.0 && m.is_finite()).then(|| {
        let inverse = 1.0 / m;
        v.map(|x| x * inverse)
    })
}

#[inline]
fn cross(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

/// Relative part of the error bound of a computed 3-term dot product `n . F~`
/// and of the subtraction or addition of its bound: `gamma_3 + 2u` rounded
/// up generously (`4.4e-16 < 1e-15`).
const DOT_ERROR_FACTOR: f64 = 1e-15;

/// `2^-1068` (length): underflow of the three products of a dot product.
const DOT_ERROR_ABSOLUTE: f64 = f64::from_bits(1u64 << 6);

/// Exclusion along fixed directions (any direction is sound): for a constant
/// vector n, `G = n . F` is multilinear too, so its range over the box is the
/// hull of its corner values, and a contact within d needs `|G| <= d |n|_1`.
/// The directions are the rows of the inverse of the box's finite-difference
/// Jacobian `[dF/dt, dF/du, dF/dv]` (up to scale: the cross products of pairs
/// of columns), which make the test tight where the per-axis test is loose
/// (nearly parallel motion, where F's image is a thin slab; the row along the
/// slab's normal is the coplanarity direction). The computed corner values
/// carry the proven error `err_k` of [`super::rounding_error`]; the dot
/// product adds at most `gamma_3 sum |n_k F~_k|` plus underflow.
///
/// `points` are the computed F at the vertices of the region tested (the 8
/// box corners, or the clipped prism of [`clipped_prism_values`]); the
/// directions come from the 8 box corner values `values` (any direction is
/// sound, so their rounding does not matter).
///
/// Returns `None` when the box is refuted. Otherwise, when `points` are the 8
/// box corners (layout `ti * 4 + ui * 2 + vi`), also clips in t along each
/// direction: along every box edge in t, `n . F` is linear, so
/// [`earliest_fraction_below`] with radius `reach + max e` bounds the box's
/// contact times from below; `Some(fraction)` is the largest such bound
/// (0 when not clipping).
fn dual_directions(
    values: &[[f64; 8]; 3],
    points: &[[f64; 3]],
    setup: &SearchSetup,
) -> Option<f64> {
    // Column `bit` of the Jacobian, times the box width: the sum over the 4
    // box edges along that parameter of the difference of the end values.
    let column = |bit: usize| -> Option<[f64; 3]> {
        normalized(std::array::from_fn(|k| {
            let mut sum = 0.0;
            for c in 0..8 {
                if c & bit == 0 {
                    sum += values[k][c | bit] - values[k][c];
                }
            }
            sum
        }))
    };
    let (Some(dt), Some(du), Some(dv)) = (column(4), column(2), column(1)) else {
        return Some(0.0);
    };
    let clip = points.len() == 8;
    let mut fraction = 0.0f64;
    for direction in [cross(du, dv), cross(dv, dt), cross(dt, du)] {
        let Some(n) = normalized(direction) else {
            continue;
        };
        let n1 = n[0].abs() + n[1].abs() + n[2].abs();
        let propagated =
            n[0].abs() * setup.error[0] + n[1].abs() * setup.error[1] + n[2].abs() * setup.error[2];
        let reach = setup.separation * n1 * (1.0 + 1e-12);
        let mut lo = f64::INFINITY;
        let mut hi = f64::NEG_INFINITY;
        let mut largest_error = 0.0f64;
        let mut dots = [0.0f64; 8];
        for (i, f) in points.iter().enumerate() {
            let terms = [n[0] * f[0], n[1] * f[1], n[2] * f[2]];
            let g = terms[0] + terms[1] + terms[2];
            let magnitude = terms[0].abs() + terms[1].abs() + terms[2].abs();
            let e =
                (DOT_ERROR_FACTOR * magnitude + propagated) * (1.0 + 1e-12) + DOT_ERROR_ABSOLUTE;
            lo = lo.min(g - e);
            hi = hi.max(g + e);
            largest_error = largest_error.max(e);
            if i < 8 {
                dots[i] = g;
            }
        }
        if lo > reach || hi < -reach {
            return None;
        }
        if clip {
            // `(reach + e)` rounded up: (1 - u)^2 (1 + 8u) >= 1.
            let radius = (reach + largest_error) * (1.0 + 1.0 / (1u64 << 50) as f64);
            let mut below = f64::INFINITY;
            let mut above = f64::INFINITY;
            for c in 0..4 {
                below = below.min(earliest_fraction_below(dots[c], dots[c + 4], radius));
                above = above.min(earliest_fraction_below(-dots[c], -dots[c + 4], radius));
            }
            fraction = fraction.max(below).max(above);
        }
    }
    if fraction > 1.0 {
        // No corner edge can reach the cube along some direction.
        return None;
    }
    Some(fraction)
}

/// For a vertex-face box that crosses the line `u + v = 1`: F at the vertices
/// of the prism `[t_lo, t_hi] x (box ∩ {u + v <= 1})` (at most 5 (u, v)
/// vertices, each at both times), and how many were written.
///
/// For fixed t the vertex-face F is affine in (u, v), and for fixed (u, v) it
/// is linear in t, so its exact range over the prism is the hull of its
/// values at the prism's vertices: a sound and tighter enclosure than the
/// box's 8 corners, which include points outside the triangle. The clipped
/// vertices `(1 - v, v)`, `(u, 1 - u)` are exact (multiples of
/// [`MIN_PARAMETER_WIDTH`]) and in `[0, 1]`, so the proof of
/// [`super::rounding_error`] covers their evaluation.
fn clipped_prism_values<G: MultilinearGap>(
    gap: &G,
    parameters: &ParameterBox,
    out: &mut [[f64; 3]; 10],
) -> usize {
    let (ul, uh, vl, vh) = (
        parameters.lo[1],
        parameters.hi[1],
        parameters.lo[2],
        parameters.hi[2],
    );
    // Sutherland-Hodgman against u + v <= 1, walking the rectangle.
    let ring = [(ul, vl), (uh, vl), (uh, vh), (ul, vh)];
    let mut polygon = [(0.0, 0.0); 5];
    let mut count = 0;
    for i in 0..4 {
        let (p, q) = (ring[i], ring[(i + 1) % 4]);
        let (p_in, q_in) = (p.0 + p.1 <= 1.0, q.0 + q.1 <= 1.0);
        if p_in && count < 5 {
            polygon[count] = p;
            count += 1;
        }
        if p_in != q_in && count < 5 {
            // Axis-aligned edge: either v or u is constant along it.
            polygon[count] = if p.1 == q.1 {
                (1.0 - p.1, p.1)
            } else {
                (p.0, 1.0 - p.0)
            };
            count += 1;
        }
    }
    let mut written = 0;
    for &(u, v) in &polygon[..count] {
        for t in [parameters.lo[0], parameters.hi[0]] {
            out[written] = std::array::from_fn(|axis| gap.at(axis, t, u, v));
            written += 1;
        }
    }
    written
}

#[inline]
fn dot(a: [f64; 3], b: [f64; 3]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

/// Acceptance by a computed witness: at the time `at` (the box's earliest
/// time bound), F is affine in (u, v) for both primitives, so the
/// least-squares zero of its interpolated corner values, clamped to the box
/// (and to `u + v <= 1` for vertex-face), is where the primitives are
/// closest at that time. F is then evaluated there directly, with the proven
/// error bound of [`super::rounding_error`] (which holds for any `f64`
/// parameters in `[0, 1]`): if every axis is within delta + d, the
/// primitives truly come that close at time `at`. Returns that gap. This
/// accepts a contact as soon as its time is resolved, without refining
/// (u, v) down to the tolerance.
fn linearized_witness<G: MultilinearGap>(
    gap: &G,
    parameters: &ParameterBox,
    values: &[[f64; 8]; 3],
    at: f64,
    setup: &SearchSetup,
) -> Option<f64> {
    let t_lo = parameters.lo[0];
    let t_width = parameters.hi[0] - t_lo;
    let s = if t_width > 0.0 {
        ((at - t_lo) / t_width).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let interpolate = |k: usize, c: usize| values[k][c] + s * (values[k][c + 4] - values[k][c]);
    let f00: [f64; 3] = std::array::from_fn(|k| interpolate(k, 0));
    let du: [f64; 3] = std::array::from_fn(|k| interpolate(k, 2) - f00[k]);
    let dv: [f64; 3] = std::array::from_fn(|k| interpolate(k, 1) - f00[k]);
    let (a11, a12, a22) = (dot(du, du), dot(du, dv), dot(dv, dv));
    let (b1, b2) = (-dot(du, f00), -dot(dv, f00));
    let det = a11 * a22 - a12 * a12;
    let (alpha, beta) = if det > 1e-12 * a11 * a22 {
        ((b1 * a22 - b2 * a12) / det, (a11 * b2 - a12 * b1) / det)
    } else if a11 >= a22 && a11 > 0.0 {
        (b1 / a11, 0.0)
    } else if a22 > 0.0 {
        (0.0, b2 / a22)
    } else {
        (0.0, 0.0)
    };
    let place = |fraction: f64, dim: usize| -> f64 {
        let (lo, hi) = (parameters.lo[dim], parameters.hi[dim]);
        // NaN fractions fall back to the lower bound.
        let f = if fraction >= 0.0 {
            fraction.min(1.0)
        } else {
            0.0
        };
        (lo + f * (hi - lo)).clamp(lo, hi)
    };
    let (u, v) = (place(alpha, 1), place(beta, 2));
    if G::TRIANGLE_DOMAIN && u + v > 1.0 {
        return None;
    }
    let mut gap_here = 0.0f64;
    for axis in 0..3 {
        gap_here = gap_here.max(gap.at(axis, at, u, v).abs() + setup.error[axis]);
        if gap_here > setup.accept_half_width {
            return None;
        }
    }
    Some(gap_here)
}

/// `time` rounded down to a multiple of `bucket` (a power of two): exact.
#[inline]
fn bucket_floor(time: f64, bucket: f64) -> f64 {
    (time / bucket).floor() * bucket
}

/// The corner values of the gap over `parameters` (per axis, 8 corners)
/// and the box's precision, when the sound enclosure meets `[-d, d]` on
/// every axis; `None` once an axis refutes the box (axis by axis, so that
/// most refuted boxes cost one or two axes).
#[inline]
fn enclosure<G: MultilinearGap>(
    gap: &G,
    parameters: &ParameterBox,
    setup: &SearchSetup,
) -> Option<([[f64; 8]; 3], f64)> {
    let (t, u, v) = (
        [parameters.lo[0], parameters.hi[0]],
        [parameters.lo[1], parameters.hi[1]],
        [parameters.lo[2], parameters.hi[2]],
    );
    let mut values = [[0.0; 8]; 3];
    let mut precision = 0.0f64;
    for (axis, corner_values) in values.iter_mut().enumerate() {
        *corner_values = gap.corners(axis, t, u, v);
        let (mut lo, mut hi) = (corner_values[0], corner_values[0]);
        for &f in &corner_values[1..] {
            lo = if f < lo { f } else { lo };
            hi = if f > hi { f } else { hi };
        }
        let r = setup.radius[axis];
        if !(lo <= r && hi >= -r) {
            return None;
        }
        precision = precision.max(hi - lo + 2.0 * setup.error[axis]);
    }
    Some((values, precision))
}

/// Clip in t: the earliest fraction of the t-width at which every axis can
/// meet `[-d, d]` (a lower bound, see `earliest_fraction_below`), at least
/// `dual_fraction`.
#[inline]
fn clip_fraction(values: &[[f64; 8]; 3], dual_fraction: f64, setup: &SearchSetup) -> f64 {
    let mut fraction = dual_fraction;
    for (axis, corner_values) in values.iter().enumerate() {
        let r = setup.radius[axis];
        let mut below = f64::INFINITY;
        let mut above = f64::INFINITY;
        for c in 0..4 {
            let (f0, f1) = (corner_values[c], corner_values[c + 4]);
            below = below.min(earliest_fraction_below(f0, f1, r));
            above = above.min(earliest_fraction_below(-f0, -f1, r));
        }
        fraction = fraction.max(below).max(above);
    }
    fraction
}

/// Acceptance by witness: the smallest gap at a corner `(u, v)` of the
/// domain where, at the clipped time (`fraction` of the t-width), every
/// axis is within `delta + d` (up to the rounding of this interpolation,
/// which only affects the reported precision); `None` when no corner is.
#[inline]
fn corner_witness<G: MultilinearGap>(
    parameters: &ParameterBox,
    values: &[[f64; 8]; 3],
    fraction: f64,
    setup: &SearchSetup,
) -> Option<f64> {
    let mut witness: Option<f64> = None;
    for c in 0..4 {
        let (u, v) = (
            if c & 2 == 0 {
                parameters.lo[1]
            } else {
                parameters.hi[1]
            },
            if c & 1 == 0 {
                parameters.lo[2]
            } else {
                parameters.hi[2]
            },
        );
        if G::TRIANGLE_DOMAIN && u + v > 1.0 {
            continue;
        }
        let mut gap_here = 0.0f64;
        for (axis, corner_values) in values.iter().enumerate() {
            let (f0, f1) = (corner_values[c], corner_values[c + 4]);
            let f = f0 + fraction * (f1 - f0);
            gap_here = gap_here.max(f.abs() + setup.error[axis]);
        }
        if gap_here <= setup.accept_half_width {
            witness = Some(witness.map_or(gap_here, |w| w.min(gap_here)));
        }
    }
    witness
}

/// The dimension with the largest width / tolerance ratio above one among
/// those still wider than the parameter resolution, if any.
#[inline]
fn split_dimension(parameters: &ParameterBox, setup: &SearchSetup) -> Option<usize> {
    let mut split: Option<usize> = None;
    let mut largest_ratio = 1.0;
    for dim in 0..3 {
        let width = parameters.hi[dim] - parameters.lo[dim];
        if width > MIN_PARAMETER_WIDTH {
            let ratio = width / setup.parameter_tolerance[dim];
            if ratio > largest_ratio {
                largest_ratio = ratio;
                split = Some(dim);
            }
        }
    }
    split
}

/// Queues the two halves of `parameters` split at the middle of dimension
/// `split` (halves wholly outside a triangle domain are dropped), with the
/// parent's `precision` and `earliest` time.
#[inline]
fn push_halves<G: MultilinearGap>(
    heap: &mut BinaryHeap<Reverse<Candidate>>,
    parameters: &ParameterBox,
    split: usize,
    precision: f64,
    earliest: f64,
    setup: &SearchSetup,
) {
    let mid = 0.5 * (parameters.lo[split] + parameters.hi[split]);
    let mut low_half = *parameters;
    low_half.hi[split] = mid;
    low_half.level += 1;
    low_half.parent_precision = precision;
    low_half.earliest = earliest;
    let mut high_half = low_half;
    high_half.lo[split] = mid;
    high_half.hi[split] = parameters.hi[split];
    for mut half in [low_half, high_half] {
        if G::TRIANGLE_DOMAIN && half.lo[1] + half.lo[2] > 1.0 {
            continue;
        }
        half.earliest = half.earliest.max(half.lo[0]);
        heap.push(Candidate::new(half, setup));
    }
}

/// Runs the inclusion bisection of `gap` over `[0, 1]^3`.
pub(crate) fn search<G: MultilinearGap>(gap: &G, setup: &SearchSetup) -> InclusionToi {
    let root = ParameterBox {
        lo: [0.0; 3],
        hi: [1.0; 3],
        level: 0,
        earliest: 0.0,
        parent_precision: f64::INFINITY,
    };
    let mut iterations = 0u64;
    // (time, precision) of the earliest accepted box.
    let mut best: Option<(f64, f64)> = None;
    let mut heap: BinaryHeap<Reverse<Candidate>> = BinaryHeap::new();
    let mut next = Some(root);
    let mut capped = false;
    loop {
        let parameters = match next.take() {
            Some(b) => b,
            None => match heap.pop() {
                Some(Reverse(c)) => c.parameters,
                None => break,
            },
        };
        if let Some((time, reached)) = best {
            if parameters.earliest >= time {
                // Cannot hold a contact earlier than the answer.
                continue;
            }
            if setup.order == SearchOrder::TimeThenDepth {
                // Boxes come out by time bucket: this box and every box
                // still queued have their earliest time at or after this
                // box's bucket floor. Once that floor reaches the answer's
                // bucket, the smaller of the two is a lower bound of every
                // remaining contact time: stop there.
                let floor = bucket_floor(parameters.earliest, setup.time_bucket);
                if floor >= bucket_floor(time, setup.time_bucket) {
                    let answer = floor.min(time);
                    best = Some((answer, reached + (time - answer) * setup.time_slope));
                    break;
                }
            }
        }
        if iterations >= setup.max_iterations {
            heap.push(Candidate::new(parameters, setup));
            capped = true;
            break;
        }
        iterations += 1;
        let Some((values, precision)) = enclosure(gap, &parameters, setup) else {
            continue;
        };
        let corner_points: [[f64; 3]; 8] =
            std::array::from_fn(|c| [values[0][c], values[1][c], values[2][c]]);
        let Some(dual_fraction) = dual_directions(&values, &corner_points, setup) else {
            continue;
        };
        if G::TRIANGLE_DOMAIN && parameters.hi[1] + parameters.hi[2] > 1.0 {
            // The box crosses the triangle's hypotenuse: test the part of it
            // inside the triangle only.
            let mut prism = [[0.0; 3]; 10];
            let n = clipped_prism_values(gap, &parameters, &mut prism);
            let prism = &prism[..n];
            let axis_refuted = (0..3).any(|axis| {
                let r = setup.radius[axis];
                prism.iter().all(|f| f[axis] > r) || prism.iter().all(|f| f[axis] < -r)
            });
            if axis_refuted || dual_directions(&values, prism, setup).is_none() {
                continue;
            }
        }
        let fraction = clip_fraction(&values, dual_fraction, setup);
        let t_lo = parameters.lo[0];
        let t_width = parameters.hi[0] - t_lo;
        // Three roundings down cover the two roundings of t_lo + s w.
        let clipped = (t_lo + fraction * t_width)
            .next_down()
            .next_down()
            .next_down();
        let earliest = parameters.earliest.max(clipped).max(t_lo);
        if best.is_some_and(|(time, _)| earliest >= time) {
            continue;
        }
        let mut witness = corner_witness::<G>(&parameters, &values, fraction, setup);
        if witness.is_none() {
            witness = linearized_witness(gap, &parameters, &values, earliest, setup);
        }
        // Otherwise split the dimension with the largest width / tolerance
        // ratio among those still wider than the parameter resolution.
        let split = if witness.is_none() {
            split_dimension(&parameters, setup)
        } else {
            None
        };
        let Some(split) = split else {
            // Accepted: by witness, or because the box is within the
            // per-dimension tolerances (or the parameter resolution).
            let reached = match witness {
                Some(gap_here) => (gap_here - setup.separation).max(0.0),
                None => precision,
            };
            best = Some((earliest, reached));
            continue;
        };
        push_halves::<G>(&mut heap, &parameters, split, precision, earliest, setup);
    }
    let unscale = |precision: f64| scale_pow2(precision, -setup.exponent).min(f64::MAX);
    if capped {
        let pending = heap
            .iter()
            .map(|Reverse(c)| c.parameters)
            .filter(|b| best.is_none_or(|(t, _)| b.earliest < t))
            .min_by(|a, b| a.earliest.total_cmp(&b.earliest));
        if let Some(b) = pending {
            return InclusionToi {
                status: InclusionStatus::IterationLimit,
                toi: Some(b.earliest),
                precision: unscale(b.parent_precision),
                iterations,
            };
        }
    }
    match best {
        Some((time, precision)) => InclusionToi {
            status: InclusionStatus::Converged,
            toi: Some(time),
            precision: unscale(precision),
            iterations,
        },
        None => InclusionToi {
            status: InclusionStatus::Separated,
            toi: None,
            precision: 0.0,
            iterations,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_queued_box_takes_88_bytes_as_the_cost_docs_say() {
        assert_eq!(std::mem::size_of::<Reverse<Candidate>>(), 88);
    }

    #[test]
    fn earliest_fraction_is_a_lower_bound_of_the_crossing() {
        // F goes linearly from 2 to -2: it reaches radius 0 at s = 1/2.
        let s = earliest_fraction_below(2.0, -2.0, 0.0);
        assert!(s <= 0.5 && s > 0.5 - 1e-15, "{s}");
        // Radius 1: reached at s = 1/4.
        let s = earliest_fraction_below(2.0, -2.0, 1.0);
        assert!(s <= 0.25 && s > 0.25 - 1e-15, "{s}");
        assert_eq!(earliest_fraction_below(0.5, 3.0, 1.0), 0.0);
        assert_eq!(earliest_fraction_below(3.0, 2.0, 1.0), f64::INFINITY);
    }

    #[test]
    fn bucket_floor_is_exact_and_below() {
        let bucket = 2f64.powi(-20);
        for time in [0.0, 0.3, 0.5, 0.999_999_9, 1.0] {
            let floor = bucket_floor(time, bucket);
            assert!(floor <= time && time - floor < bucket);
            assert_eq!((floor / bucket).fract(), 0.0);
        }
    }

    #[test]
    fn rescale_thresholds_are_powers_of_two() {
        assert_eq!(RESCALE_ABOVE, 2f64.powi(500));
        assert_eq!(RESCALE_BELOW, 2f64.powi(-500));
    }

    #[test]
    fn pow2_scaling_is_exact_in_range() {
        for k in [-1000, -600, -1, 0, 1, 600, 1000] {
            let x = 0.75;
            let y = scale_pow2(x, k);
            assert_eq!(scale_pow2(y, -k), x, "k = {k}");
        }
    }

    #[test]
    fn huge_and_tiny_points_are_rescaled_near_one() {
        for magnitude in [1e300, 1e-300, f64::MAX, 5e-324] {
            let mut points = [[0.0; 3]; 8];
            points[3][1] = -magnitude;
            let prepared = prepare_points(points, "test").unwrap();
            let m = prepared.points[3][1].abs();
            assert!((0.5..=2.0).contains(&m), "{magnitude} -> {m}");
        }
    }

    #[test]
    fn non_finite_coordinate_is_reported_with_its_place() {
        let mut points = [[0.0; 3]; 8];
        points[5][2] = f64::NAN;
        let err = prepare_points(points, "edge-edge").unwrap_err();
        assert!(matches!(
            err,
            InclusionError::NonFiniteCoordinate {
                point: 5,
                axis: 2,
                ..
            }
        ));
    }
}
