//! Closed-form projections of a box centred on its shape origin, a layer of
//! `sweep_solid_triangle` (see `solid_triangle`).
//!
//! Method: a box with half extents `h` along its shape axes, centred on the
//! shape origin, projects on any axis `a` (shape frame) onto the interval
//! `[-r, r]` with `r = h . |a|` (Akenine-Moller, "Fast 3D triangle-box
//! overlap testing", 2001; Ericson, *Real-Time Collision Detection* 5.2.3):
//! three products instead of a pass over the eight vertices. The sweep uses
//! it for the triangle normal, and for every edge-pair axis of a box (which
//! then needs neither its silhouettes nor the inscribed-ball test).
//!
//! Precision domain: `f64`; the three-term sum rounds like the vertex pass
//! does (each vertex projection is a three-term sum of the same magnitudes),
//! and the sweep's one-sided, entry and exit tests read the interval only
//! through comparisons with the triangle's projections, whose rounding is of
//! the same order.

use parapet_math::Vec3d;

/// The projection interval `[-r, r]`, `r = h . |a|`, of the box of half
/// extents `h` centred on the origin, on the axis `a`.
#[inline]
pub(crate) fn centred_interval(h: Vec3d, a: &Vec3d) -> (f64, f64) {
    let r = h.x * a.x.abs() + h.y * a.y.abs() + h.z * a.z.abs();
    (-r, r)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solid::ConvexSolid;
    use parapet_math::Vec3;

    #[test]
    fn the_closed_form_is_the_interval_of_the_eight_corners() {
        // Half extents and axes in general position: the extremes are the
        // corners of the signs of the axis; both forms sum the same three
        // products (up to order), so they agree to a few ulps of r.
        let b = ConvexSolid::from_cuboid(Vec3::new(0.3, 1.7, 0.05)).unwrap();
        let h = Vec3d::new(0.3f32 as f64, 1.7f32 as f64, 0.05f32 as f64);
        for k in 0..32 {
            let t = k as f64 * 0.37;
            let a = Vec3d::new(t.cos(), (2.0 * t).sin(), t.sin() - 0.2);
            let (lo, hi) = centred_interval(h, &a);
            let (vlo, vhi) = b.tables().interval(&a);
            let ulps = 4.0 * f64::EPSILON * hi;
            assert!(
                (lo - vlo).abs() <= ulps && (hi - vhi).abs() <= ulps,
                "{a:?}"
            );
        }
    }
}
