//! Contact between two capsules.
//!
//! Method: closest points of the two core segments (Ericson 5.1.9); when the
//! segments are parallel, the overlap of one projected onto the other gives
//! two points so that a capsule rests stably on another. Precision domain:
//! `f64` relative to capsule A's first segment end.

use parapet_math::{promote, Vec3, Vec3d};

use super::closest::{point_segment, segment_segment, DEGENERATE_LENGTH_SQ};
use super::input_checks::{check_pair, RawShape};
use super::sphere_sphere::cores_contact;
use super::{
    within_margin, ContactError, LocalManifold, Manifold, COINCIDENT_NORMAL, PARALLEL_SIN_SQ,
};

/// Contact of capsule A (core `segment_a`, `radius_a`) with capsule B. The
/// normal runs from A's core to B's core; parallel overlapping capsules get
/// two points.
///
/// # Errors
/// The refusals of every pair function (module documentation, "Pair
/// functions"): [`ContactError::InvalidMargin`], [`ContactError::InvalidSize`],
/// [`ContactError::NonFinitePose`], [`ContactError::OutsidePrecisionDomain`].
pub fn contact_capsule_capsule(
    segment_a: [Vec3; 2],
    radius_a: f32,
    segment_b: [Vec3; 2],
    radius_b: f32,
    margin: f32,
) -> Result<Manifold, ContactError> {
    check_pair(
        RawShape::Capsule(&segment_a, radius_a),
        RawShape::Capsule(&segment_b, radius_b),
        margin,
    )?;
    let origin = promote(segment_a[0]);
    Ok(capsule_capsule(
        [Vec3d::zeros(), promote(segment_a[1]) - origin],
        radius_a as f64,
        [
            promote(segment_b[0]) - origin,
            promote(segment_b[1]) - origin,
        ],
        radius_b as f64,
        margin as f64,
    )
    .into_world(origin))
}

/// [`contact_capsule_capsule`] in the working frame.
pub(crate) fn capsule_capsule(
    sa: [Vec3d; 2],
    ra: f64,
    sb: [Vec3d; 2],
    rb: f64,
    margin: f64,
) -> LocalManifold {
    let (_, _, ca, cb) = segment_segment(sa[0], sa[1], sb[0], sb[1]);
    let d = cb - ca;
    let dist = d.norm();
    if !within_margin(dist - ra - rb, margin) {
        return LocalManifold::empty();
    }
    let da = sa[1] - sa[0];
    let db = sb[1] - sb[0];
    let axis_cross = da.cross(&db);
    let parallel =
        axis_cross.norm_squared() <= PARALLEL_SIN_SQ * da.norm_squared() * db.norm_squared();
    let normal = if dist * dist > DEGENERATE_LENGTH_SQ {
        d / dist
    } else {
        // The cores touch: separate across both axes, oriented from A's
        // midpoint to B's.
        let between = (sb[0] + sb[1] - sa[0] - sa[1]) * 0.5;
        let mut n = if !parallel {
            axis_cross
        } else {
            any_perpendicular(if da.norm_squared() > DEGENERATE_LENGTH_SQ {
                da
            } else {
                db
            })
        };
        if n.dot(&between) < 0.0 {
            n = -n;
        }
        let len = n.norm();
        if len > 0.0 {
            n / len
        } else {
            COINCIDENT_NORMAL
        }
    };
    let long_enough =
        da.norm_squared() > DEGENERATE_LENGTH_SQ && db.norm_squared() > DEGENERATE_LENGTH_SQ;
    if parallel && long_enough {
        // Overlap of B's projection on A's line, in A's parameter.
        let len_sq = da.norm_squared();
        let t0 = (sb[0] - sa[0]).dot(&da) / len_sq;
        let t1 = (sb[1] - sa[0]).dot(&da) / len_sq;
        let lo = t0.min(t1).max(0.0);
        let hi = t0.max(t1).min(1.0);
        if hi > lo {
            let mut out = LocalManifold::empty();
            out.normal = normal;
            for t in [lo, hi] {
                let pa = sa[0] + da * t;
                let (_, pb) = point_segment(pa, sb[0], sb[1]);
                let c = cores_contact(pa, ra, pb, rb, normal);
                for &(p, depth) in c.points() {
                    if -depth < margin {
                        out.push(p, depth);
                    }
                }
            }
            if !out.is_empty() {
                return out;
            }
        }
    }
    cores_contact(ca, ra, cb, rb, normal)
}

/// A unit vector perpendicular to `v` (any; `v` need not be unit).
pub(crate) fn any_perpendicular(v: Vec3d) -> Vec3d {
    let other = if v.x.abs() <= v.y.abs() && v.x.abs() <= v.z.abs() {
        Vec3d::x()
    } else if v.y.abs() <= v.z.abs() {
        Vec3d::y()
    } else {
        Vec3d::z()
    };
    let p = v.cross(&other);
    let len = p.norm();
    if len > 0.0 {
        p / len
    } else {
        COINCIDENT_NORMAL
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parallel_capsules_get_two_points_at_the_overlap_ends() {
        let a = [Vec3::new(-1.0, 0.0, 0.0), Vec3::new(1.0, 0.0, 0.0)];
        let b = [Vec3::new(0.0, 0.0, 0.9), Vec3::new(3.0, 0.0, 0.9)];
        let m = contact_capsule_capsule(a, 0.5, b, 0.5, 0.0).unwrap();
        assert_eq!(m.len(), 2);
        assert!((m.normal() - Vec3::z()).norm() < 1e-7);
        for p in m.points() {
            assert!((p.depth - 0.1).abs() < 1e-6);
            assert!(p.point.x.abs() < 1e-6 || (p.point.x - 1.0).abs() < 1e-6);
        }
    }

    #[test]
    fn crossed_capsules_touch_at_one_point() {
        let a = [Vec3::new(-1.0, 0.0, 0.0), Vec3::new(1.0, 0.0, 0.0)];
        let b = [Vec3::new(0.0, -1.0, 0.5), Vec3::new(0.0, 1.0, 0.5)];
        let m = contact_capsule_capsule(a, 0.3, b, 0.3, 0.0).unwrap();
        assert_eq!(m.len(), 1);
        assert!((m.points()[0].depth - 0.1).abs() < 1e-6);
        assert!((m.points()[0].point - Vec3::new(0.0, 0.0, 0.25)).norm() < 1e-6);
    }
}
