//! Regression, found by the hostile-input smoke (`hostile_smoke`, the
//! `shapes` run): `Shape::capsule(f32::MAX, h)` was accepted, and its local
//! bounds, whose axial extent is `radius + half_height` rounded up to
//! `f32`, were infinite; every later bound, broad phase and sweep of such a
//! body then worked with an infinite box. The constructor now refuses a
//! capsule whose reach along its axis has no finite `f32` value, naming
//! that sum, and every capsule it accepts has finite bounds.

use parapet_geometry::{Shape, ShapeError};

#[test]
fn a_capsule_whose_axial_reach_overflows_f32_is_refused_naming_the_sum() {
    for (radius, half_height) in [
        (f32::MAX, 0.05),
        (f32::MAX, 1.0),
        (0.05, f32::MAX),
        (f32::MAX / 2.0, f32::MAX / 1.5),
    ] {
        match Shape::capsule(radius, half_height) {
            Err(ShapeError::InvalidSize { quantity, value }) => {
                assert_eq!(quantity, "capsule radius + half height");
                assert_eq!(value, f32::INFINITY, "({radius}, {half_height})");
            }
            other => panic!("({radius}, {half_height}): {other:?}"),
        }
    }
}

#[test]
fn every_accepted_capsule_has_finite_bounds_up_to_the_largest_sum() {
    // The largest accepted sizes: each alone just below f32::MAX / 2, whose
    // sum rounds up to at most f32::MAX.
    let big = f32::MAX / 2.0;
    for (radius, half_height) in [(big, big * 0.999), (1e30, 1e30), (0.5, 0.5), (1e-30, 1e-30)] {
        let shape = Shape::capsule(radius, half_height)
            .unwrap_or_else(|e| panic!("({radius}, {half_height}): {e}"));
        let b = shape.local_aabb();
        let corners = [b.min, b.max];
        assert!(
            corners.iter().all(|c| c.iter().all(|x| x.is_finite())),
            "({radius}, {half_height}): {b:?}"
        );
        // The axial extent covers the sum (rounded up, never down).
        assert!(f64::from(b.max.z) >= f64::from(radius) + f64::from(half_height));
        assert!(shape.bounding_radius().is_finite());
    }
}
