//! The rejection of triangles outside the bounds of a solid's whole path, a
//! layer of `sweep_solid_triangle` (see `solid_triangle`).
//!
//! Method: the solid's vertices lie in their axis-aligned box in the shape
//! frame (centre `c`, half extents `h`); turned into the world by `R`, that
//! box lies in the world box of centre `R c` and half extents `|R| h`
//! (Arvo, "Transforming Axis-Aligned Bounding Boxes", *Graphics Gems*,
//! 1990). Swept by the step's displacement and grown by
//! [`super::SWEPT_BOUNDS_MARGIN`] relative, it contains the whole path, so a
//! triangle wholly outside it cannot be touched: a miss before any axis.
//! The triangle is checked against the precision domain first, so the
//! rejection never hides a refusal.
//!
//! Precision domain: the margin covers the rounding of the box's turn and
//! sums many times over (a unit test sweeps every rejected triangle and
//! finds a miss).

use parapet_math::{Mat3d, Vec3d};

use super::SweptBounds;
use crate::solid::tables::SweepTables;

/// The world bounds of the path of a solid whose shape origin starts at
/// `center`, turned by `rot` (shape to world) and moving by `d` (world).
#[inline]
pub(crate) fn path_bounds(
    tables: &SweepTables,
    center: Vec3d,
    rot: &Mat3d,
    d: Vec3d,
) -> SweptBounds {
    // The shape's world box: its local box turned (centre `rot * c`,
    // half extents `|rot| h`), a superset of the turned vertices.
    let mid = center + rot * tables.box_center;
    let ext = rot.abs() * tables.box_half;
    SweptBounds::of_box(mid - ext, mid + ext, d)
}

#[cfg(test)]
mod tests {
    use super::super::domain;
    use super::super::placement::Placement;
    use super::super::solid_prepared::SolidSweep;
    use super::super::solid_sat::sat;
    use super::super::test_fixtures::xorshift;
    use super::super::SweepOutcome;
    use crate::solid::ConvexSolid;
    use crate::triangle::{turned_triangle, TriangleFrame};
    use parapet_math::{Quat, Vec3};

    #[test]
    fn the_path_bounds_never_reject_a_triangle_that_the_test_would_touch() {
        // The same random sweeps with and without the swept-bounds
        // rejection: the rejection may only turn a miss into a miss.
        let mut unit = xorshift(0x1234_5678_9abc_def1);
        let mut rejected = 0;
        for _ in 0..5_000 {
            let solid =
                ConvexSolid::from_cuboid(Vec3::new(0.05 + unit(), 0.05 + unit(), 0.05 + unit()))
                    .unwrap();
            let v = |u: &mut dyn FnMut() -> f32| {
                Vec3::new(6.0 * u() - 3.0, 6.0 * u() - 3.0, 6.0 * u() - 3.0)
            };
            let tri = [v(&mut unit), v(&mut unit), v(&mut unit)];
            let place = Placement {
                body_position: v(&mut unit),
                body_rotation: Quat::from_euler_angles(3.0 * unit(), 3.0 * unit(), 3.0 * unit()),
                shape_offset: v(&mut unit) * 0.2,
                shape_rotation: Quat::identity(),
            };
            let vel = v(&mut unit);
            let Ok(sweep) = SolidSweep::new(&solid, &place, vel, 1.0) else {
                continue;
            };
            if domain::triangle(&tri, sweep.center, sweep.r).is_err() {
                continue;
            }
            if sweep.bounds.misses(&tri) {
                rejected += 1;
                let frame = TriangleFrame::new(turned_triangle(
                    &tri.map(parapet_math::promote),
                    sweep.center,
                    &sweep.inv,
                ));
                assert_eq!(
                    sat(sweep.solid, sweep.d, sweep.r, &frame),
                    SweepOutcome::Miss,
                    "{place:?} {vel:?} {tri:?}"
                );
            }
        }
        assert!(rejected > 500, "{rejected}");
    }
}
