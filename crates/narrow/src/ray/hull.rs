//! Ray against a solid (a box or a convex hull) given by its face planes.
//!
//! Method: Cyrus-Beck clipping of the ray against every face's half-space
//! (Ericson 5.3.8): the entry is the latest entering plane, the exit the
//! earliest exiting one. Precision domain: `f64` in the solid's frame.

use parapet_math::Vec3d;

use super::LocalHit;

/// The first hit of the ray `o + t d` (unit `d`) on the solid
/// bounded by the planes `normal . x <= offset` (unit outward normals).
pub(crate) fn ray_planes(
    o: Vec3d,
    d: Vec3d,
    planes: impl IntoIterator<Item = (Vec3d, f64)>,
    max: f64,
) -> Option<LocalHit> {
    let mut t_enter = f64::NEG_INFINITY;
    let mut t_exit = max;
    let mut normal = -d;
    let mut any = false;
    for (face_normal, offset) in planes {
        any = true;
        let dist = face_normal.dot(&o) - offset;
        let rate = face_normal.dot(&d);
        if rate == 0.0 {
            if dist > 0.0 {
                return None;
            }
            continue;
        }
        let t = -dist / rate;
        if rate < 0.0 {
            if t > t_enter {
                t_enter = t;
                normal = face_normal;
            }
        } else {
            t_exit = t_exit.min(t);
        }
        if t_enter > t_exit {
            return None;
        }
    }
    if !any || t_exit < 0.0 {
        return None;
    }
    if t_enter <= 0.0 {
        return Some(LocalHit::inside(d));
    }
    Some(LocalHit { t: t_enter, normal })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contact::placed_solid::{PlacedSolid, Placement};
    use crate::solid::ConvexSolid;
    use parapet_math::Mat3d;

    fn ray_solid(o: Vec3d, d: Vec3d, p: &PlacedSolid<'_>, max: f64) -> Option<LocalHit> {
        ray_planes(o, d, p.planes.iter().map(|f| (f.normal, f.offset)), max)
    }

    #[test]
    fn ray_hits_a_cube_face_from_outside_and_reports_zero_from_inside() {
        let solid = ConvexSolid::cuboid(Vec3d::new(1.0, 1.0, 1.0));
        let mut placement = Placement::default();
        let cube = placement.place(&solid, &Mat3d::identity(), Vec3d::zeros());
        let hit = ray_solid(Vec3d::new(0.2, 0.3, 5.0), -Vec3d::z(), &cube, 10.0).unwrap();
        assert!((hit.t - 4.0).abs() < 1e-12);
        assert!((hit.normal - Vec3d::z()).norm() < 1e-12);
        let inside = ray_solid(Vec3d::zeros(), Vec3d::x(), &cube, 10.0).unwrap();
        assert_eq!(inside.t, 0.0);
        assert!(ray_solid(Vec3d::new(0.0, 0.0, 5.0), Vec3d::z(), &cube, 10.0).is_none());
    }
}
