//! Regression, found by the hostile-input smoke (`hostile_smoke`, the
//! `shapes` run): `Shape::capsule(f32::MAX, h)` was accepted, and its local
//! bounds, whose axial extent is `radius + half_height` rounded up to
//! `f32`, were infinite; every later bound, broad phase and sweep of such a
//! body then worked with an infinite box. The constructor now refuses a
//! capsule whose reach along its axis has no finite `f32` value, naming
//! that sum, and every capsule it accepts has finite bounds.

use parapet_geometry::{Shape, ShapeError};
use parapet_math::Vec3;

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

/// The points of the `contacts` fuzz target's hull: five within a metre of
/// the origin and one 1e38 m away.
const FAR_AND_NEAR: [[f32; 3]; 6] = [
    [-0.74399996, -0.74399996, 0.503],
    [1.0789119e-31, -1e38, -1e38],
    [0.082999945, 0.082999945, 0.082999945],
    [0.082999945, 0.52900004, -0.556],
    [-1.0, -1.0, -1.0],
    [-1.0, -0.745, 0.503],
];

// Regression, found by the `contacts` fuzz target: the hull of these points
// was accepted with two faces whose f64 normals (Newell's sum) were exactly
// zero, and a sphere resting at one of its corners got a contact manifold
// with a zero normal. The constructor now refuses a hull with a face whose
// normal is not a unit vector.
#[test]
fn a_hull_whose_face_normals_cancel_in_f64_is_refused() {
    let points: Vec<Vec3> = FAR_AND_NEAR
        .iter()
        .map(|p| Vec3::new(p[0], p[1], p[2]))
        .collect();
    match Shape::convex_hull(&points) {
        Err(ShapeError::DegenerateHull { points: n, reason }) => {
            assert_eq!(n, 6);
            assert!(reason.contains("face normal"), "{reason}");
        }
        other => panic!("expected a refusal, got {other:?}"),
    }
}

#[test]
fn every_face_of_an_accepted_hull_has_a_unit_normal() {
    // The same five near points without the far one, and scaled by 1e30:
    // ordinary hulls of any uniform magnitude keep unit normals.
    for scale in [1.0f32, 1e-20, 1e30] {
        let points: Vec<Vec3> = FAR_AND_NEAR
            .iter()
            .filter(|p| p[1] > -1e30)
            .map(|p| Vec3::new(p[0], p[1], p[2]) * scale)
            .collect();
        let Shape::ConvexHull(hull) = Shape::convex_hull(&points).unwrap() else {
            unreachable!("convex_hull builds a hull")
        };
        for f in hull.faces() {
            // Unit to 1e-9: the constructor's own tolerance is far looser
            // than the few ulps a normalised f64 vector is off by.
            assert!((f.normal().norm() - 1.0).abs() <= 1e-9, "{scale}: {f:?}");
        }
    }
}
