//! Independent clearance checks: whether a body crossed a surface, judged from
//! the scene's own description of that surface (a height field, a plane, a
//! set of spheres) in `f64`, sharing no code with parapet's contacts or sweeps.
//!
//! A body *crossed* a surface when a point of its core (a sphere's centre, a
//! capsule's axis end, a box's centre) lies behind it: below the terrain, or
//! beyond the wall plane. A body that only overlaps the surface by less than
//! its radius or half extent has not crossed it; the contact solver allows a
//! small overlap (the speculative contacts and split correction), the sweeps
//! none.

use parapet::math::Vec3;

use crate::terrain::HeightField;

/// The distance (m) from `p` to the plane through `point` with unit normal
/// `normal`, positive on the normal's side.
pub fn signed_plane_distance(p: Vec3, point: [f64; 3], normal: [f64; 3]) -> f64 {
    (p.x as f64 - point[0]) * normal[0]
        + (p.y as f64 - point[1]) * normal[1]
        + (p.z as f64 - point[2]) * normal[2]
}

/// The height (m) of `p` above the terrain directly below it; `None` when `p`
/// is outside the field's footprint.
pub fn height_above(field: &HeightField, p: Vec3) -> Option<f64> {
    field
        .height_at(p.x as f64, p.y as f64)
        .map(|h| p.z as f64 - h)
}

/// Whether a core point lies behind the terrain: more than `tolerance` (m)
/// below the surface directly below it.
pub fn below_terrain(field: &HeightField, p: Vec3, tolerance: f64) -> bool {
    height_above(field, p).is_some_and(|d| d < -tolerance)
}

/// Whether the centre of `mover` passed through the sphere centred at
/// `obstacle` between two samples along the x axis: its x changed side while
/// its lateral (y, z) offset stayed within `reach` (the radius sum), so the
/// two solids must have overlapped along the way without a collision pushing
/// them apart.
pub fn passed_through_along_x(before: (Vec3, Vec3), after: (Vec3, Vec3), reach: f64) -> bool {
    let side = |m: Vec3, o: Vec3| (m.x as f64 - o.x as f64).signum();
    let lateral = |m: Vec3, o: Vec3| {
        let (dy, dz) = (m.y as f64 - o.y as f64, m.z as f64 - o.z as f64);
        (dy * dy + dz * dz).sqrt()
    };
    side(before.0, before.1) != side(after.0, after.1)
        && lateral(before.0, before.1) < reach
        && lateral(after.0, after.1) < reach
        && (after.0.x - before.0.x).abs() as f64 > reach
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plane_distance_has_the_normal_sign() {
        let p = Vec3::new(2.0, 0.0, 0.0);
        assert_eq!(
            signed_plane_distance(p, [1.0, 5.0, 5.0], [1.0, 0.0, 0.0]),
            1.0
        );
        assert_eq!(
            signed_plane_distance(p, [3.0, 5.0, 5.0], [1.0, 0.0, 0.0]),
            -1.0
        );
    }

    #[test]
    fn a_jump_through_a_sphere_is_a_pass_and_a_bounce_is_not() {
        let o = Vec3::zeros();
        let start = Vec3::new(-1.0, 0.1, 0.0);
        assert!(passed_through_along_x(
            (start, o),
            (Vec3::new(1.0, 0.1, 0.0), o),
            0.5
        ));
        assert!(!passed_through_along_x(
            (start, o),
            (Vec3::new(-0.5, 0.1, 0.0), o),
            0.5
        ));
        // Far to the side: no overlap possible.
        assert!(!passed_through_along_x(
            (Vec3::new(-1.0, 2.0, 0.0), o),
            (Vec3::new(1.0, 2.0, 0.0), o),
            0.5
        ));
    }
}
