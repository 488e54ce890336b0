//! The precision domain of the analytic sweeps: the checked limits (listed
//! for users in docs/continuous-collision.md, "Precision limits"), their named
//! constants and the refusal type every sweep returns for inputs outside
//! them.
//!
//! The sweeps are analytic piecewise-linear computations with `f64`
//! intermediates, not exact predicates. Their accuracy is relative to the
//! moving shape's radius; these limits keep every operand within a range
//! where the `f64` roundoff stays far below the radius (the coordinate limit
//! bounds each component's final `f32` rounding by about `radius / 256`).

use parapet_math::{Quat, Vec3, Vec3d};

use crate::triangle::{longest_edge_squared, raw_normal};

/// Smallest accepted radius of a sphere, capsule or pair member (unit: metre).
/// Radii from 0.0001 m to 10000 m, both inclusive, are accepted.
/// Boxes and hulls use their farthest-corner radius.
pub const MIN_RADIUS: f64 = 1.0e-4;

/// Largest accepted radius (unit: metre), see [`MIN_RADIUS`].
pub const MAX_RADIUS: f64 = 1.0e4;

/// Largest accepted magnitude of any position or triangle coordinate on each
/// axis (unit: metre): within 1000000 m of the origin on each axis.
/// One limit for the whole library: the mesh validation of parapet-geometry
/// owns it.
pub use parapet_geometry::MAX_COORDINATE;

/// Largest accepted ratio of a moving shape's coordinates (start and end of
/// the step, on each axis) to its radius (dimensionless): 65536 radii,
/// which bounds each `f32` component's rounding by about radius / 256.
pub const MAX_COORDINATE_RADII: f64 = 65536.0;

/// Largest accepted reach of a moving shape in radii (dimensionless): travel
/// plus the shape's bounding radius: 1048576 radii.
pub const MAX_REACH_RADII: f64 = 1_048_576.0;

/// Largest accepted distance, in radii on each axis, of a candidate
/// triangle's vertices from the moving shape's start centre (dimensionless).
/// 1048576 radii. Callers reject distant triangles with bounds
/// before they sweep them.
pub const MAX_TRIANGLE_DISTANCE_RADII: f64 = 1_048_576.0;

/// Thin-triangle limit (dimensionless): the `f64` magnitude of
/// `(b - a) x (c - a)` must be at least the longest squared edge length
/// divided by this ratio. The same limit as the mesh validation of
/// parapet-geometry, which owns it.
pub use parapet_geometry::THIN_TRIANGLE_RATIO;

/// The approach bound (dimensionless, a multiple of `f64::EPSILON`): a normal
/// approach counts only when `normal . motion < -32 eps * sum |terms|`, i.e.
/// when its sign is resolved beyond the rounding of a three-term dot product
/// (at most 3 eps relative) with a tenfold margin.
pub const APPROACH_EPS_FACTOR: f64 = 32.0;

/// Largest accepted offset of a box or hull from its body origin (unit:
/// metre): 10000 m.
pub const MAX_SHAPE_OFFSET: f64 = 1.0e4;

/// Largest accepted deviation of a rotation's squared norm from one
/// (dimensionless): rotations are finite unit quaternions within 0.00001 in
/// squared norm.
pub const ROTATION_NORM_SQ_TOLERANCE: f64 = 1.0e-5;

/// Why a sweep refused its input: the quantity, its value and the limit.
#[derive(Debug, Clone, Copy, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum SweepRefusal {
    /// An input is NaN or infinite.
    #[error("{quantity} is not finite")]
    NotFinite {
        /// The input's name.
        quantity: &'static str,
    },
    /// The step length is negative.
    #[error("step length dt = {dt} s is negative (limit 0)")]
    NegativeStep {
        /// The step length, seconds.
        dt: f64,
    },
    /// A radius lies outside `[MIN_RADIUS, MAX_RADIUS]`.
    #[error("{quantity} = {value} m is outside [{min}, {max}] m")]
    RadiusOutOfRange {
        /// The radius' name.
        quantity: &'static str,
        /// The radius, metres.
        value: f64,
        /// [`MIN_RADIUS`].
        min: f64,
        /// [`MAX_RADIUS`].
        max: f64,
    },
    /// A coordinate exceeds [`MAX_COORDINATE`].
    #[error("{quantity} has a coordinate {value} m beyond the limit {limit} m")]
    CoordinateTooLarge {
        /// The position's name.
        quantity: &'static str,
        /// The offending coordinate, metres.
        value: f64,
        /// [`MAX_COORDINATE`].
        limit: f64,
    },
    /// A moving shape's coordinate exceeds [`MAX_COORDINATE_RADII`] radii.
    #[error("{quantity} has a coordinate of {value} radii beyond the limit {limit} radii")]
    CoordinateTooCoarse {
        /// The position's name.
        quantity: &'static str,
        /// The offending coordinate divided by the radius.
        value: f64,
        /// [`MAX_COORDINATE_RADII`].
        limit: f64,
    },
    /// The reach (travel plus bounding radius) exceeds [`MAX_REACH_RADII`] radii.
    #[error("reach of {value} radii exceeds the limit {limit} radii")]
    ReachTooLarge {
        /// Reach divided by the radius.
        value: f64,
        /// [`MAX_REACH_RADII`].
        limit: f64,
    },
    /// A triangle vertex lies farther than [`MAX_TRIANGLE_DISTANCE_RADII`]
    /// radii from the moving shape on some axis.
    #[error("triangle vertex {vertex} lies {value} radii from the moving shape, beyond the limit {limit} radii")]
    TriangleTooFar {
        /// Which vertex (0, 1, 2).
        vertex: u8,
        /// Its largest per-axis distance divided by the radius.
        value: f64,
        /// [`MAX_TRIANGLE_DISTANCE_RADII`].
        limit: f64,
    },
    /// The triangle's `f32` raw normal `(b - a) x (c - a)` is zero.
    #[error("triangle raw f32 normal is zero (limit: nonzero)")]
    DegenerateTriangle,
    /// The triangle is too thin (see [`THIN_TRIANGLE_RATIO`]).
    #[error("triangle cross-product magnitude {value} m^2 is below the limit {limit} m^2 (longest squared edge / {ratio})")]
    ThinTriangle {
        /// `|(b - a) x (c - a)|` in `f64`, square metres.
        value: f64,
        /// Longest squared edge length divided by the ratio, square metres.
        limit: f64,
        /// [`THIN_TRIANGLE_RATIO`].
        ratio: f64,
    },
    /// A rotation is not a unit quaternion within [`ROTATION_NORM_SQ_TOLERANCE`].
    #[error("{quantity} has squared norm {value}, more than {limit} from 1")]
    RotationNotUnit {
        /// The rotation's name.
        quantity: &'static str,
        /// Its squared norm.
        value: f64,
        /// [`ROTATION_NORM_SQ_TOLERANCE`].
        limit: f64,
    },
    /// A shape offset from its body origin exceeds [`MAX_SHAPE_OFFSET`].
    #[error("shape offset of {value} m exceeds the limit {limit} m")]
    ShapeOffsetTooLarge {
        /// The offset's length, metres.
        value: f64,
        /// [`MAX_SHAPE_OFFSET`].
        limit: f64,
    },
    /// The shape has no sweep against this target (a solid against a moving
    /// shape: a solid that can reach another moving body is refused).
    #[error("a {shape} has no sweep against {target}")]
    UnsupportedShape {
        /// The swept shape ("box" or "hull").
        shape: &'static str,
        /// The target it was asked to sweep against.
        target: &'static str,
    },
    /// A convex solid has no vertices or no faces.
    #[error("convex solid has {vertices} vertices and {faces} faces (at least 1 and 1 needed)")]
    EmptySolid {
        /// Vertex count.
        vertices: usize,
        /// Face count.
        faces: usize,
    },
}

pub(crate) type Checked<T = ()> = Result<T, SweepRefusal>;

pub(crate) fn finite_vec(quantity: &'static str, v: Vec3) -> Checked {
    if v.iter().all(|x| x.is_finite()) {
        Ok(())
    } else {
        Err(SweepRefusal::NotFinite { quantity })
    }
}

pub(crate) fn finite_scalar(quantity: &'static str, x: f32) -> Checked {
    if x.is_finite() {
        Ok(())
    } else {
        Err(SweepRefusal::NotFinite { quantity })
    }
}

/// A finite, non-negative step length.
pub(crate) fn step(dt: f32) -> Checked {
    finite_scalar("step length dt", dt)?;
    if dt < 0.0 {
        return Err(SweepRefusal::NegativeStep { dt: dt as f64 });
    }
    Ok(())
}

/// A finite radius within `[MIN_RADIUS, MAX_RADIUS]`.
pub(crate) fn radius(quantity: &'static str, r: f64) -> Checked {
    if !r.is_finite() {
        return Err(SweepRefusal::NotFinite { quantity });
    }
    if !(MIN_RADIUS..=MAX_RADIUS).contains(&r) {
        return Err(SweepRefusal::RadiusOutOfRange {
            quantity,
            value: r,
            min: MIN_RADIUS,
            max: MAX_RADIUS,
        });
    }
    Ok(())
}

/// Every coordinate within [`MAX_COORDINATE`].
pub(crate) fn coordinate(quantity: &'static str, p: Vec3d) -> Checked {
    for &x in p.iter() {
        if !(x.abs() <= MAX_COORDINATE) {
            return Err(SweepRefusal::CoordinateTooLarge {
                quantity,
                value: x,
                limit: MAX_COORDINATE,
            });
        }
    }
    Ok(())
}

/// Every coordinate of a moving shape within [`MAX_COORDINATE_RADII`] radii
/// (and within [`MAX_COORDINATE`]).
pub(crate) fn moving_coordinate(quantity: &'static str, p: Vec3d, r: f64) -> Checked {
    coordinate(quantity, p)?;
    for &x in p.iter() {
        let ratio = x.abs() / r;
        if !(ratio <= MAX_COORDINATE_RADII) {
            return Err(SweepRefusal::CoordinateTooCoarse {
                quantity,
                value: ratio,
                limit: MAX_COORDINATE_RADII,
            });
        }
    }
    Ok(())
}

/// Reach (travel plus bounding radius, metres) within [`MAX_REACH_RADII`].
pub(crate) fn reach(reach: f64, r: f64) -> Checked {
    let ratio = reach / r;
    if !(ratio <= MAX_REACH_RADII) {
        return Err(SweepRefusal::ReachTooLarge {
            value: ratio,
            limit: MAX_REACH_RADII,
        });
    }
    Ok(())
}

/// A triangle: finite, within [`MAX_COORDINATE`], vertices within
/// [`MAX_TRIANGLE_DISTANCE_RADII`] radii of `center` on each axis, nonzero
/// `f32` raw normal and not thinner than [`THIN_TRIANGLE_RATIO`] allows.
///
/// The common case (an acceptable triangle) is decided by
/// [`triangle_accepted`], which evaluates the same conditions with the same
/// arithmetic but without an early exit per condition; only a triangle it
/// does not accept goes through the checks one by one to name the reason.
#[inline]
pub(crate) fn triangle(tri: &[Vec3; 3], center: Vec3d, r: f64) -> Checked {
    triangle_promoted(tri, &tri.map(parapet_math::promote), center, r)
}

/// [`triangle`] given the triangle's vertices already promoted to `f64`
/// (`promoted`, the same values as `tri`).
#[inline]
pub(crate) fn triangle_promoted(
    tri: &[Vec3; 3],
    promoted: &[Vec3d; 3],
    center: Vec3d,
    r: f64,
) -> Checked {
    if triangle_accepted(tri, promoted, center, r) {
        Ok(())
    } else {
        triangle_reason(tri, center, r)
    }
}

/// Whether [`triangle_reason`] accepts the triangle: the same comparisons
/// on the same values (a coordinate within [`MAX_COORDINATE`] is finite, so
/// the finiteness checks are implied), combined without branches.
#[inline]
fn triangle_accepted(tri: &[Vec3; 3], promoted: &[Vec3d; 3], center: Vec3d, r: f64) -> bool {
    let [a, b, c] = *promoted;
    let mut ok = true;
    for v in [a, b, c] {
        ok &= v.x.abs() <= MAX_COORDINATE;
        ok &= v.y.abs() <= MAX_COORDINATE;
        ok &= v.z.abs() <= MAX_COORDINATE;
        ok &= (v - center).amax() / r <= MAX_TRIANGLE_DISTANCE_RADII;
    }
    let raw32 = raw_normal(tri);
    ok &= !(raw32.x == 0.0 && raw32.y == 0.0 && raw32.z == 0.0);
    let cross = raw_normal(promoted).norm();
    let limit = longest_edge_squared(promoted) / THIN_TRIANGLE_RATIO;
    ok && cross >= limit && cross != 0.0
}

/// The checks of [`triangle`] one by one, in order: the first that fails
/// names the refusal.
#[cold]
fn triangle_reason(tri: &[Vec3; 3], center: Vec3d, r: f64) -> Checked {
    for (i, v) in tri.iter().enumerate() {
        finite_vec("triangle vertex", *v)?;
        let vd = parapet_math::promote(*v);
        coordinate("triangle vertex", vd)?;
        let far = (vd - center).amax() / r;
        if !(far <= MAX_TRIANGLE_DISTANCE_RADII) {
            return Err(SweepRefusal::TriangleTooFar {
                vertex: i as u8,
                value: far,
                limit: MAX_TRIANGLE_DISTANCE_RADII,
            });
        }
    }
    if raw_normal(tri).iter().all(|&x| x == 0.0) {
        return Err(SweepRefusal::DegenerateTriangle);
    }
    let promoted = tri.map(parapet_math::promote);
    let cross = raw_normal(&promoted).norm();
    let limit = longest_edge_squared(&promoted) / THIN_TRIANGLE_RATIO;
    if !(cross >= limit) || cross == 0.0 {
        return Err(SweepRefusal::ThinTriangle {
            value: cross,
            limit,
            ratio: THIN_TRIANGLE_RATIO,
        });
    }
    Ok(())
}

/// The thin-triangle check of [`triangle`] once more on the vertices the
/// kernel computes with: the caller's, minus the sweep's origin, rounded
/// to `f64`. A triangle much smaller than its distance from the moving
/// shape (1e-20 m across, 2 m away) loses its area in that subtraction;
/// its normal would be `0 / 0`. Refused as [`SweepRefusal::ThinTriangle`]
/// with the shifted values.
pub(crate) fn shifted_triangle(tri: &crate::triangle::TriangleFrame) -> Checked {
    // At least the smallest positive value: a triangle whose shifted
    // vertices coincide (limit 0) is refused for its zero area.
    let limit = (longest_edge_squared(&tri.v) / THIN_TRIANGLE_RATIO).max(f64::MIN_POSITIVE);
    if tri.n_len >= limit && tri.n.iter().all(|x| x.is_finite()) {
        Ok(())
    } else {
        Err(SweepRefusal::ThinTriangle {
            value: tri.n_len,
            limit,
            ratio: THIN_TRIANGLE_RATIO,
        })
    }
}

/// A finite rotation whose squared norm is within
/// [`ROTATION_NORM_SQ_TOLERANCE`] of one.
pub(crate) fn rotation(quantity: &'static str, q: &Quat) -> Checked {
    let c = q.into_inner().coords;
    if !c.iter().all(|x| x.is_finite()) {
        return Err(SweepRefusal::NotFinite { quantity });
    }
    let n2 = c.cast::<f64>().norm_squared();
    if !((n2 - 1.0).abs() <= ROTATION_NORM_SQ_TOLERANCE) {
        return Err(SweepRefusal::RotationNotUnit {
            quantity,
            value: n2,
            limit: ROTATION_NORM_SQ_TOLERANCE,
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn radius_limits_are_inclusive() {
        assert!(radius("r", MIN_RADIUS).is_ok());
        assert!(radius("r", MAX_RADIUS).is_ok());
        assert!(radius("r", MIN_RADIUS * 0.999).is_err());
        assert!(radius("r", MAX_RADIUS * 1.001).is_err());
        assert!(radius("r", f64::NAN).is_err());
    }

    #[test]
    fn a_thin_sliver_is_refused_and_a_fat_triangle_is_not() {
        let fat = [
            Vec3::zeros(),
            Vec3::new(1.0, 0.0, 0.0),
            Vec3::new(0.0, 1.0, 0.0),
        ];
        assert!(triangle(&fat, Vec3d::zeros(), 1.0).is_ok());
        // Height 1e-7 over a base of 1: cross 1e-7 < 1 / 2^20 ~ 9.5e-7.
        let thin = [
            Vec3::zeros(),
            Vec3::new(1.0, 0.0, 0.0),
            Vec3::new(0.5, 1.0e-7, 0.0),
        ];
        assert!(matches!(
            triangle(&thin, Vec3d::zeros(), 1.0),
            Err(SweepRefusal::ThinTriangle { .. })
        ));
        let flat = [
            Vec3::zeros(),
            Vec3::new(1.0, 0.0, 0.0),
            Vec3::new(2.0, 0.0, 0.0),
        ];
        assert!(matches!(
            triangle(&flat, Vec3d::zeros(), 1.0),
            Err(SweepRefusal::DegenerateTriangle)
        ));
    }

    #[test]
    fn the_quick_triangle_acceptance_agrees_with_the_detailed_checks() {
        // Each limit at, just inside and just outside its boundary, and
        // non-finite coordinates: accepted exactly when the detailed checks
        // accept (so the quick path never hides a refusal).
        let base = [
            Vec3::zeros(),
            Vec3::new(1.0, 0.0, 0.0),
            Vec3::new(0.0, 1.0, 0.0),
        ];
        let big = MAX_COORDINATE as f32;
        let mut cases = vec![base];
        for value in [
            big,
            big * 1.000_001,
            -big,
            f32::NAN,
            f32::INFINITY,
            f32::NEG_INFINITY,
            1.0e-7,
            0.0,
        ] {
            for k in 0..3 {
                let mut t = base;
                t[2][k] = value;
                cases.push(t);
            }
        }
        // Thin slivers around the limit (cross about 1 / 2^20 of a unit base).
        for h in [1.0e-7f32, 9.0e-7, 9.5e-7, 9.6e-7, 1.0e-6, 2.0e-6] {
            cases.push([Vec3::zeros(), Vec3::x(), Vec3::new(0.5, h, 0.0)]);
        }
        for tri in &cases {
            for (center, r) in [
                (Vec3d::zeros(), 1.0),
                (Vec3d::new(0.0, 0.0, 2.0), 1.0e-6),
                (Vec3d::new(1.0, 0.0, 0.0), 1.0e-4),
            ] {
                assert_eq!(
                    triangle_accepted(tri, &tri.map(parapet_math::promote), center, r),
                    triangle_reason(tri, center, r).is_ok(),
                    "{tri:?} {center:?} {r}"
                );
            }
        }
    }

    #[test]
    fn refusal_messages_name_value_and_limit() {
        let e = radius("sphere radius", 2.0e4).unwrap_err();
        let msg = e.to_string();
        assert!(
            msg.contains("sphere radius") && msg.contains("20000") && msg.contains("10000"),
            "{msg}"
        );
    }
}
