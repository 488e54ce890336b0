//! Numeric boundaries (docs/physics.md): convex edge contacts compare
//! differences between support projections, so a crossed-edge box-box
//! contact keeps its point and depth after the pair is moved by +-10 km
//! along each axis.
//!
//! Tolerance: 3 mm, as docs/physics.md states: about three `f32` coordinate steps
//! at 10 km (the `f32` ulp between 8192 m and 16384 m is 2^-10 m, about
//! 0.98 mm). The inputs themselves round to that grid, which moves the
//! edges by up to half a step, and the output point rounds once more.
//! Measured on the crossed edges: depth within 8.3e-5 m of 0.01 m and the
//! point within 6.4e-8 m of the `f32` expectation at every offset.

use std::f32::consts::FRAC_PI_4;

use parapet_math::nalgebra::{Isometry3, Translation3, UnitQuaternion};
use parapet_math::Vec3;
use parapet_narrow::contact::{self, Manifold, Pose};

/// Point and depth tolerance (m), see the header.
const FAR_TOL: f32 = 3.0e-3;

/// The documented offsets: +-10 km along each axis.
fn offsets() -> Vec<Vec3> {
    let mut out = Vec::new();
    for axis in 0..3 {
        for sign in [1.0f32, -1.0] {
            let mut o = Vec3::zeros();
            o[axis] = sign * 10_000.0;
            out.push(o);
        }
    }
    out
}

/// Box A's top is an edge along x (a unit cube turned 45 degrees about x);
/// box B's bottom is an edge along y (turned 45 degrees about y), placed at
/// (0.1, -0.2) so that the edges cross at (0.1, 0, h) with h = sqrt(2)/2,
/// and lowered so that they overlap by 0.01 m.
fn crossed_boxes(offset: Vec3) -> (Pose, Pose) {
    let h = std::f32::consts::FRAC_1_SQRT_2;
    let a = Isometry3::from_parts(
        Translation3::from(offset),
        UnitQuaternion::from_scaled_axis(Vec3::new(FRAC_PI_4, 0.0, 0.0)),
    );
    let b = Isometry3::from_parts(
        Translation3::from(offset + Vec3::new(0.1, -0.2, 2.0 * h - 0.01)),
        UnitQuaternion::from_scaled_axis(Vec3::new(0.0, FRAC_PI_4, 0.0)),
    );
    (a, b)
}

fn crossed_contact(offset: Vec3) -> Manifold {
    let (a, b) = crossed_boxes(offset);
    let half = Vec3::new(0.5, 0.5, 0.5);
    contact::contact_cuboid_cuboid(half, &a, half, &b, 0.0).unwrap()
}

#[test]
fn crossed_edges_at_the_origin_match_the_analytic_contact() {
    let m = crossed_contact(Vec3::zeros());
    let h = std::f32::consts::FRAC_1_SQRT_2;
    assert_eq!(m.len(), 1, "{m:?}");
    // Rotated f32 vertices: a few ulps of 1 m.
    assert!((m.normal() - Vec3::z()).norm() < 1e-5, "{m:?}");
    assert!((m.points()[0].depth - 0.01).abs() < 1e-5, "{m:?}");
    assert!(
        (m.points()[0].point - Vec3::new(0.1, 0.0, h - 0.005)).norm() < 1e-5,
        "{m:?}"
    );
}

#[test]
fn crossed_edges_moved_10_km_along_each_axis_keep_point_and_depth() {
    let h = std::f32::consts::FRAC_1_SQRT_2;
    for offset in offsets() {
        let m = crossed_contact(offset);
        assert_eq!(m.len(), 1, "offset {offset:?}: {m:?}");
        let expected = offset + Vec3::new(0.1, 0.0, h - 0.005);
        let p = m.points()[0];
        // Compare in f64 so that the check itself does not round at 10 km.
        let error = (p.point.cast::<f64>() - expected.cast::<f64>()).norm();
        assert!(
            error < FAR_TOL as f64,
            "offset {offset:?}: point {:?} off by {error} m",
            p.point
        );
        assert!(
            (p.depth - 0.01).abs() < FAR_TOL,
            "offset {offset:?}: depth {}",
            p.depth
        );
        assert!(
            m.normal().dot(&Vec3::z()) > 0.999,
            "offset {offset:?}: normal {:?}",
            m.normal()
        );
    }
}

#[test]
fn crossed_edges_moved_10_km_keep_a_speculative_gap() {
    // B raised by 0.02 m: a 0.01 m gap, reported as depth -0.01 within a
    // 0.05 m margin at every offset.
    let half = Vec3::new(0.5, 0.5, 0.5);
    for offset in offsets() {
        let (a, mut b) = crossed_boxes(offset);
        b.translation.vector.z += 0.02;
        let m = contact::contact_cuboid_cuboid(half, &a, half, &b, 0.05).unwrap();
        assert_eq!(m.len(), 1, "offset {offset:?}: {m:?}");
        assert!(
            (m.points()[0].depth + 0.01).abs() < FAR_TOL,
            "offset {offset:?}: {m:?}"
        );
    }
}

#[test]
fn swapped_crossed_edges_at_10_km_flip_the_normal_only() {
    let half = Vec3::new(0.5, 0.5, 0.5);
    for offset in offsets() {
        let (a, b) = crossed_boxes(offset);
        let m = contact::contact_cuboid_cuboid(half, &a, half, &b, 0.0).unwrap();
        let s = contact::contact_cuboid_cuboid(half, &b, half, &a, 0.0).unwrap();
        assert_eq!(s.len(), 1);
        assert!((s.normal() + m.normal()).norm() < 1e-4, "offset {offset:?}");
        let d = (s.points()[0].point.cast::<f64>() - m.points()[0].point.cast::<f64>()).norm();
        assert!(d < FAR_TOL as f64 && (s.points()[0].depth - m.points()[0].depth).abs() < FAR_TOL);
    }
}

/// The same check through the dispatcher for every solid kind pair and for
/// a box on a mesh triangle: the contact at the origin, moved by +-10 km
/// along each axis, keeps its depths and its points (relative to the move).
#[test]
fn every_kind_pair_keeps_its_contact_10_km_away() {
    use parapet_geometry::Shape;
    let hull = Shape::convex_hull(&[
        Vec3::new(0.5, 0.0, 0.0),
        Vec3::new(-0.5, 0.0, 0.0),
        Vec3::new(0.0, 0.5, 0.0),
        Vec3::new(0.0, -0.5, 0.0),
        Vec3::new(0.0, 0.0, 0.5),
        Vec3::new(0.0, 0.0, -0.5),
    ])
    .unwrap();
    let solids = [
        Shape::sphere(0.5).unwrap(),
        Shape::capsule(0.3, 0.4).unwrap(),
        Shape::cuboid(Vec3::new(0.5, 0.4, 0.3)).unwrap(),
        hull,
    ];
    let place = |offset: Vec3, t: Vec3, axis: Vec3| {
        Isometry3::from_parts(
            Translation3::from(offset + t),
            UnitQuaternion::from_scaled_axis(axis),
        )
    };
    for a in &solids {
        for b in &solids {
            let at = |offset: Vec3| {
                contact::shapes(
                    a,
                    &place(offset, Vec3::new(0.0, 0.0, 0.0), Vec3::new(0.3, 0.5, 0.0)),
                    b,
                    &place(offset, Vec3::new(0.1, 0.2, 0.6), Vec3::new(0.0, 0.7, 0.2)),
                    0.05,
                )
                .unwrap()
            };
            let reference = at(Vec3::zeros());
            assert!(!reference.is_empty(), "{} {}", a.kind_name(), b.kind_name());
            for offset in offsets() {
                let m = at(offset);
                let ctx = format!("{} vs {} at {offset:?}", a.kind_name(), b.kind_name());
                assert!(
                    (m.max_depth().unwrap() - reference.max_depth().unwrap()).abs() < FAR_TOL,
                    "{ctx}: {m:?} vs {reference:?}"
                );
                assert!(m.normal().dot(&reference.normal()) > 0.999, "{ctx}");
                // Each point of the far contact matches a point at the origin.
                for p in m.points() {
                    let back = p.point.cast::<f64>() - offset.cast::<f64>();
                    let near = reference
                        .points()
                        .iter()
                        .any(|q| (back - q.point.cast::<f64>()).norm() < FAR_TOL as f64);
                    assert!(near, "{ctx}: {p:?} vs {reference:?}");
                }
            }
        }
    }
    // A box resting 1 cm deep on a floor triangle, all 10 km away.
    let cube = Shape::cuboid(Vec3::new(0.5, 0.5, 0.5)).unwrap();
    for offset in offsets() {
        let tri = [
            offset + Vec3::new(-5.0, -5.0, 0.0),
            offset + Vec3::new(5.0, -5.0, 0.0),
            offset + Vec3::new(0.0, 5.0, 0.0),
        ];
        let m = contact::shape_triangle(
            &cube,
            &place(offset, Vec3::new(0.1, 0.2, 0.49), Vec3::new(0.0, 0.0, 0.4)),
            &tri,
            0.0,
        )
        .unwrap();
        assert_eq!(m.len(), 4, "{offset:?}: {m:?}");
        for p in m.points() {
            assert!((p.depth - 0.01).abs() < FAR_TOL, "{offset:?}: {p:?}");
        }
    }
}
