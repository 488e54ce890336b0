//! Mesh construction and triangle validation against docs/continuous-collision.md
//! ("Precision limits", "What it refuses, and why"): one case per refusal, the accepted side of each
//! limit, the index of the failing triangle, and the world-space snapshot.

use parapet_geometry::{
    validate_triangles, Shape, ShapeError, Triangle, TriangleError, TriangleMesh, MAX_COORDINATE,
    THIN_TRIANGLE_RATIO,
};
use parapet_math::{Quat, Vec3};
use rstest::rstest;

fn tri(a: [f32; 3], b: [f32; 3], c: [f32; 3]) -> Triangle {
    let v = |p: [f32; 3]| Vec3::new(p[0], p[1], p[2]);
    Triangle::new(v(a), v(b), v(c))
}

#[rstest]
#[case::nan_vertex(tri([0.0, 0.0, 0.0], [f32::NAN, 0.0, 0.0], [0.0, 1.0, 0.0]), "not finite")]
#[case::infinite_vertex(tri([0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, f32::INFINITY, 0.0]), "not finite")]
#[case::beyond_a_million_metres(tri([0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 1_000_000.1]), "exceeds the limit")]
#[case::negative_beyond(tri([-1_000_064.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]), "exceeds the limit")]
#[case::coincident_vertices(tri([1.0, 2.0, 3.0], [1.0, 2.0, 3.0], [0.0, 1.0, 0.0]), "zero f32 raw normal")]
#[case::collinear(tri([0.0, 0.0, 0.0], [1.0, 1.0, 1.0], [2.0, 2.0, 2.0]), "zero f32 raw normal")]
// Cross product below f32 range: edges of 1e-23 m give a raw normal of
// about 1e-46 m^2, which rounds to zero in f32 though the triangle is fine.
#[case::underflowing_normal(tri([0.0, 0.0, 0.0], [1.0e-23, 0.0, 0.0], [0.0, 1.0e-23, 0.0]), "zero f32 raw normal")]
// A sliver: base 1 m, height 1e-7 m: |cross| = 1e-7 < 1 / 1048576 = 9.5e-7.
#[case::sliver(tri([0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.5, 1.0e-7, 0.0]), "too thin")]
fn each_refusal_is_named(#[case] t: Triangle, #[case] message: &str) {
    let err = t.validate(3).unwrap_err();
    let text = err.to_string();
    assert!(text.contains("triangle 3"), "{text}");
    assert!(text.contains(message), "{text}");
}

#[test]
fn the_coordinate_limit_is_inclusive() {
    let at = MAX_COORDINATE as f32;
    let t = tri([at, 0.0, 0.0], [at, 1.0, 0.0], [at, 0.0, 1.0]);
    assert_eq!(t.validate(0), Ok(()));
    let beyond = at.next_up();
    let t = tri([beyond, 0.0, 0.0], [beyond, 1.0, 0.0], [beyond, 0.0, 1.0]);
    assert_eq!(
        t.validate(0),
        Err(TriangleError::CoordinateOutOfRange {
            triangle: 0,
            vertex: 0,
            axis: 0,
            value: beyond,
            limit: MAX_COORDINATE
        })
    );
}

#[test]
fn the_thinness_limit_sits_at_one_over_1048576() {
    // Base 1 m along x (longest squared edge 1 m^2 for height << 1); the
    // cross-product magnitude is the height h. The limit is h >= 2^-20 m,
    // but the longest squared edge also grows with the apex: choose the apex
    // over the base midpoint, where the two slanted edges are shorter than 1.
    let h_ok = (1.0 / THIN_TRIANGLE_RATIO) as f32 * 1.01;
    let h_bad = (1.0 / THIN_TRIANGLE_RATIO) as f32 * 0.99;
    let ok = tri([0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.5, h_ok, 0.0]);
    let bad = tri([0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.5, h_bad, 0.0]);
    assert_eq!(ok.validate(0), Ok(()));
    match bad.validate(0) {
        Err(TriangleError::TooThin {
            triangle: 0,
            cross_magnitude,
            longest_squared_edge,
            ratio,
            limit,
        }) => {
            assert_eq!(longest_squared_edge, 1.0);
            assert_eq!(ratio, THIN_TRIANGLE_RATIO);
            assert_eq!(limit, 1.0 / THIN_TRIANGLE_RATIO);
            // f64 cross of f32 inputs: exactly the f32 height here.
            assert_eq!(cross_magnitude, f64::from(h_bad));
        }
        other => panic!("expected TooThin, got {other:?}"),
    }
}

#[test]
fn validation_reports_the_first_failing_triangle_in_order() {
    let good = tri([0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]);
    let flat = tri([0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [2.0, 0.0, 0.0]);
    let far = tri([2.0e6, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]);
    assert_eq!(validate_triangles(&[good, good]), Ok(()));
    assert_eq!(
        validate_triangles(&[good, flat, far]),
        Err(TriangleError::ZeroRawNormal { triangle: 1 })
    );
    assert!(matches!(
        validate_triangles(&[good, far, flat]),
        Err(TriangleError::CoordinateOutOfRange {
            triangle: 1,
            vertex: 0,
            axis: 0,
            ..
        })
    ));
}

#[test]
fn mesh_construction_refuses_bad_input_by_name() {
    let v = vec![Vec3::zeros(), Vec3::x(), Vec3::y()];
    assert_eq!(
        Shape::mesh(vec![], vec![[0, 1, 2]]),
        Err(ShapeError::EmptyMesh {
            quantity: "vertices"
        })
    );
    assert_eq!(
        Shape::mesh(v.clone(), vec![]),
        Err(ShapeError::EmptyMesh {
            quantity: "triangles"
        })
    );
    assert_eq!(
        Shape::mesh(v.clone(), vec![[0, 1, 2], [0, 3, 1]]),
        Err(ShapeError::IndexOutOfRange {
            triangle: 1,
            corner: 1,
            index: 3,
            vertex_count: 3
        })
    );
    let mut bad = v.clone();
    bad[2].z = f32::NAN;
    assert!(matches!(
        Shape::mesh(bad, vec![[0, 1, 2]]),
        Err(ShapeError::NotFinitePoint {
            quantity: "mesh vertex",
            index: 2,
            ..
        })
    ));
    // A degenerate triangle is a valid mesh for discrete collision: the
    // precision limits apply to the world snapshot that CCD validates.
    assert!(Shape::mesh(v, vec![[0, 0, 1]]).is_ok());
}

#[test]
fn the_world_snapshot_applies_the_pose_and_keeps_the_order() {
    let mesh = TriangleMesh::new(
        vec![Vec3::zeros(), Vec3::x(), Vec3::y(), Vec3::z()],
        vec![[0, 1, 2], [0, 2, 3]],
    )
    .unwrap();
    // A quarter turn about z, then a shift of (10, 0, 0).
    let q = Quat::from_axis_angle(&Vec3::z_axis(), std::f32::consts::FRAC_PI_2);
    let world = mesh
        .world_triangles(&Vec3::new(10.0, 0.0, 0.0), &q)
        .unwrap();
    assert_eq!(world.len(), 2);
    // x -> y: (1, 0, 0) lands on (10, 1, 0); the f32 quaternion of a quarter
    // turn is not exact, so allow a few f32 ulps of the 10 m coordinates.
    let close = |a: Vec3, b: Vec3| (a - b).norm() < 4.0e-6;
    assert!(close(world[0].a, Vec3::new(10.0, 0.0, 0.0)));
    assert!(close(world[0].b, Vec3::new(10.0, 1.0, 0.0)));
    assert!(close(world[0].c, Vec3::new(9.0, 0.0, 0.0)));
    assert!(close(world[1].c, Vec3::new(10.0, 0.0, 1.0)));
    // The front side turns with the mesh: +z stays +z under a z rotation.
    assert!(world[0].raw_normal().z > 0.0);
    assert_eq!(validate_triangles(&world), Ok(()));

    // A vertex at f32::MAX moved by f32::MAX does not fit f32 storage.
    let huge = TriangleMesh::new(
        vec![Vec3::zeros(), Vec3::x() * f32::MAX, Vec3::y()],
        vec![[0, 1, 2]],
    )
    .unwrap();
    let err = huge.world_triangles(&Vec3::new(f32::MAX, 0.0, 0.0), &Quat::identity());
    assert!(
        matches!(
            err,
            Err(TriangleError::NotRepresentable {
                triangle: 0,
                vertex: 1,
                ..
            })
        ),
        "{err:?}"
    );
}
