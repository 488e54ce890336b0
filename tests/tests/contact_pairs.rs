//! Analytic contact cases for every primitive pair of `parapet_narrow::contact`:
//! known depth, normal and point; swapping A and B flips the normal; a gap
//! within the margin gives a negative depth and a gap beyond it no contact.
//!
//! Tolerances: the inputs are `f32` and every result is rounded once from
//! `f64` to `f32`, so a quantity of size about 1 m is within a few `f32`
//! ulps (1.2e-7 each) of its analytic value; `TOL = 1e-5 m` leaves room for
//! the rounding of rotated vertices (one `f32` quaternion rotation) too.

use parapet_math::nalgebra::{Isometry3, Translation3, UnitQuaternion};
use parapet_math::Vec3;
use parapet_narrow::contact::{self, Manifold, Pose};

/// Length tolerance (m), see the header.
const TOL: f32 = 1.0e-5;

fn pose(t: Vec3, scaled_axis: Vec3) -> Pose {
    Isometry3::from_parts(
        Translation3::from(t),
        UnitQuaternion::from_scaled_axis(scaled_axis),
    )
}

fn v(x: f32, y: f32, z: f32) -> Vec3 {
    Vec3::new(x, y, z)
}

fn assert_near(a: Vec3, b: Vec3, what: &str) {
    assert!((a - b).norm() < TOL, "{what}: {a:?} vs {b:?}");
}

/// One point with the given normal, depth and point.
fn assert_single(m: &Manifold, normal: Vec3, depth: f32, point: Vec3) {
    assert_eq!(m.len(), 1, "{m:?}");
    assert_near(m.normal(), normal, "normal");
    assert!(
        (m.points()[0].depth - depth).abs() < TOL,
        "depth {} vs {depth}",
        m.points()[0].depth
    );
    assert_near(m.points()[0].point, point, "point");
}

/// Swapping A and B flips the normal and keeps depths and points.
fn assert_swapped(m: &Manifold, swapped: &Manifold) {
    assert_eq!(m.len(), swapped.len(), "{m:?} vs {swapped:?}");
    assert_near(swapped.normal(), -m.normal(), "swapped normal");
    let mut a: Vec<f32> = m.points().iter().map(|p| p.depth).collect();
    let mut b: Vec<f32> = swapped.points().iter().map(|p| p.depth).collect();
    a.sort_by(f32::total_cmp);
    b.sort_by(f32::total_cmp);
    for (x, y) in a.iter().zip(&b) {
        assert!((x - y).abs() < TOL, "depths {a:?} vs {b:?}");
    }
    for p in m.points() {
        assert!(
            swapped
                .points()
                .iter()
                .any(|q| (q.point - p.point).norm() < TOL),
            "point {:?} missing from {swapped:?}",
            p.point
        );
    }
}

#[test]
fn sphere_sphere_overlap_gap_and_beyond_margin() {
    let m =
        contact::contact_sphere_sphere(v(1.0, 2.0, 3.0), 0.5, v(1.0, 2.0, 3.8), 0.4, 0.0).unwrap();
    // Overlap 0.5 + 0.4 - 0.8 = 0.1; surfaces at z = 3.5 and 3.4.
    assert_single(&m, Vec3::z(), 0.1, v(1.0, 2.0, 3.45));
    let swapped =
        contact::contact_sphere_sphere(v(1.0, 2.0, 3.8), 0.4, v(1.0, 2.0, 3.0), 0.5, 0.0).unwrap();
    assert_swapped(&m, &swapped);
    // Gap 0.2 within a 0.25 margin: depth -0.2; beyond a 0.15 margin: nothing.
    let gap =
        contact::contact_sphere_sphere(Vec3::zeros(), 0.5, v(0.0, 1.1, 0.0), 0.4, 0.25).unwrap();
    assert_single(&gap, Vec3::y(), -0.2, v(0.0, 0.6, 0.0));
    assert!(
        contact::contact_sphere_sphere(Vec3::zeros(), 0.5, v(0.0, 1.1, 0.0), 0.4, 0.15)
            .unwrap()
            .is_empty()
    );
}

#[test]
fn sphere_capsule_at_the_cap_and_at_the_side() {
    let seg = [v(0.0, 0.0, -1.0), v(0.0, 0.0, 1.0)];
    // Above the top cap: gap 2.3 - 1 - 0.5 - 0.5 = 0.3 within a 0.5 margin.
    let cap = contact::contact_sphere_capsule(v(0.0, 0.0, 2.3), 0.5, seg, 0.5, 0.5).unwrap();
    assert_single(&cap, -Vec3::z(), -0.3, v(0.0, 0.0, 1.65));
    assert_swapped(
        &cap,
        &contact::contact_capsule_sphere(seg, 0.5, v(0.0, 0.0, 2.3), 0.5, 0.5).unwrap(),
    );
    // Beside the cylinder: overlap 0.2.
    let side = contact::contact_sphere_capsule(v(0.0, 0.8, 0.3), 0.5, seg, 0.5, 0.0).unwrap();
    assert_single(&side, -Vec3::y(), 0.2, v(0.0, 0.4, 0.3));
    assert!(
        contact::contact_sphere_capsule(v(0.0, 0.0, 2.3), 0.5, seg, 0.5, 0.25)
            .unwrap()
            .is_empty()
    );
}

#[test]
fn capsule_capsule_crossed_parallel_and_swapped() {
    let a = [v(-1.0, 0.0, 0.0), v(1.0, 0.0, 0.0)];
    let crossed = [v(0.3, -1.0, 0.5), v(0.3, 1.0, 0.5)];
    let m = contact::contact_capsule_capsule(a, 0.3, crossed, 0.25, 0.0).unwrap();
    assert_single(&m, Vec3::z(), 0.05, v(0.3, 0.0, 0.275));
    assert_swapped(
        &m,
        &contact::contact_capsule_capsule(crossed, 0.25, a, 0.3, 0.0).unwrap(),
    );
    // Parallel, offset along the axis: two points at the overlap ends, gap 0.1.
    let parallel = [v(0.5, 1.0, 0.0), v(2.5, 1.0, 0.0)];
    let p = contact::contact_capsule_capsule(a, 0.4, parallel, 0.5, 0.2).unwrap();
    assert_eq!(p.len(), 2);
    assert_near(p.normal(), Vec3::y(), "parallel normal");
    for c in p.points() {
        assert!((c.depth + 0.1).abs() < TOL);
        assert!((c.point.x - 0.5).abs() < TOL || (c.point.x - 1.0).abs() < TOL);
    }
    assert_swapped(
        &p,
        &contact::contact_capsule_capsule(parallel, 0.5, a, 0.4, 0.2).unwrap(),
    );
    assert!(
        contact::contact_capsule_capsule(a, 0.4, parallel, 0.5, 0.05)
            .unwrap()
            .is_empty()
    );
}

fn unit_triangle() -> [Vec3; 3] {
    [v(0.0, 0.0, 0.0), v(1.0, 0.0, 0.0), v(0.0, 1.0, 0.0)]
}

#[test]
fn sphere_triangle_face_edge_and_vertex_regions() {
    let tri = unit_triangle();
    let face = contact::contact_sphere_triangle(v(0.25, 0.25, 0.3), 0.5, &tri, 0.0).unwrap();
    assert_single(&face, -Vec3::z(), 0.2, v(0.25, 0.25, -0.1));
    // Beyond edge 0 (y = 0): closest point (0.5, 0, 0).
    let c = v(0.5, -0.3, 0.1);
    let d = (0.09f32 + 0.01).sqrt();
    let edge = contact::contact_sphere_triangle(c, 0.5, &tri, 0.0).unwrap();
    let n = (v(0.5, 0.0, 0.0) - c) / d;
    assert_single(&edge, n, 0.5 - d, (c + n * 0.5 + v(0.5, 0.0, 0.0)) * 0.5);
    // Beyond vertex 1 (1, 0, 0), a gap of 0.1 within the margin.
    let vc = v(
        1.0 + 0.6 / 3f32.sqrt(),
        -0.6 / 3f32.sqrt(),
        0.6 / 3f32.sqrt(),
    );
    let vertex = contact::contact_sphere_triangle(vc, 0.5, &tri, 0.2).unwrap();
    let nv = (v(1.0, 0.0, 0.0) - vc).normalize();
    assert_single(&vertex, nv, -0.1, (vc + nv * 0.5 + v(1.0, 0.0, 0.0)) * 0.5);
    assert!(contact::contact_sphere_triangle(vc, 0.5, &tri, 0.1)
        .unwrap()
        .is_empty());
}

#[test]
fn capsule_triangle_lying_standing_and_edge() {
    let big = [v(-10.0, -10.0, 0.0), v(10.0, -10.0, 0.0), v(0.0, 10.0, 0.0)];
    let lying =
        contact::contact_capsule_triangle([v(-1.0, 0.0, 0.52), v(1.0, 0.0, 0.52)], 0.5, &big, 0.05)
            .unwrap();
    assert_eq!(lying.len(), 2);
    assert_near(lying.normal(), -Vec3::z(), "lying normal");
    for p in lying.points() {
        assert!((p.depth + 0.02).abs() < TOL);
        assert!((p.point.z - 0.01).abs() < TOL);
    }
    // Standing on its lower cap: the lower end is the deepest point.
    let standing =
        contact::contact_capsule_triangle([v(0.0, 0.0, 0.4), v(0.0, 0.0, 2.0)], 0.5, &big, 0.0)
            .unwrap();
    assert_near(standing.normal(), -Vec3::z(), "standing normal");
    assert!((standing.max_depth().unwrap() - 0.1).abs() < TOL);
    // A horizontal capsule crossing edge 0 of the unit triangle from outside,
    // below the triangle's plane height but in front: the closest features are
    // the capsule core and the edge y = 0.
    let tri = unit_triangle();
    let seg = [v(0.2, -0.3, 0.3), v(0.8, -0.3, 0.3)];
    let m = contact::contact_capsule_triangle(seg, 0.5, &tri, 0.0).unwrap();
    let d = (0.09f32 + 0.09).sqrt();
    let n = v(0.0, 0.3, -0.3) / d;
    assert_near(m.normal(), n, "edge normal");
    assert!((m.max_depth().unwrap() - (0.5 - d)).abs() < TOL);
}

#[test]
fn cuboid_cuboid_face_rotated_and_separated_corners() {
    let half = v(0.5, 0.5, 0.5);
    let a = pose(Vec3::zeros(), Vec3::zeros());
    let b = pose(v(0.2, 0.1, 0.95), v(0.0, 0.0, 0.3));
    let m = contact::contact_cuboid_cuboid(half, &a, half, &b, 0.0).unwrap();
    // B turned about z rests face-down on A: 4 points, each 0.05 deep.
    assert_eq!(m.len(), 4);
    assert_near(m.normal(), Vec3::z(), "face normal");
    for p in m.points() {
        assert!((p.depth - 0.05).abs() < TOL, "{p:?}");
        assert!((p.point.z - 0.475).abs() < TOL);
        assert!(p.point.x.abs() <= 0.5 + TOL && p.point.y.abs() <= 0.5 + TOL);
    }
    assert_swapped(
        &m,
        &contact::contact_cuboid_cuboid(half, &b, half, &a, 0.0).unwrap(),
    );
    // Corner to corner along the diagonal, gap 0.1: the exact closest pair,
    // not a face axis (which would claim a gap of only 0.1 / sqrt(3)).
    let g = 0.1 / 3f32.sqrt();
    let corner = pose(v(1.0 + g, 1.0 + g, 1.0 + g), Vec3::zeros());
    let c = contact::contact_cuboid_cuboid(half, &a, half, &corner, 0.2).unwrap();
    let diag = v(1.0, 1.0, 1.0).normalize();
    assert_single(&c, diag, -0.1, v(0.5, 0.5, 0.5) + diag * 0.05);
    assert!(
        contact::contact_cuboid_cuboid(half, &a, half, &corner, 0.09)
            .unwrap()
            .is_empty()
    );
}

#[test]
fn sphere_cuboid_face_edge_corner_and_inside() {
    let half = v(1.0, 2.0, 3.0);
    let b = pose(v(10.0, 0.0, 0.0), Vec3::zeros());
    let face = contact::contact_sphere_cuboid(v(8.5, 0.0, 0.0), 0.6, half, &b, 0.0).unwrap();
    // Sphere surface at x = 9.1, box face at x = 9: the midpoint is 9.05.
    assert_single(&face, Vec3::x(), 0.1, v(9.05, 0.0, 0.0));
    let edge_c = v(8.5, 2.5, 0.0);
    let edge = contact::contact_sphere_cuboid(edge_c, 0.6, half, &b, 0.2).unwrap();
    let dist = 0.5f32 * 2f32.sqrt();
    let n = v(0.5, -0.5, 0.0).normalize();
    assert_single(
        &edge,
        n,
        0.6 - dist,
        (edge_c + n * 0.6 + v(9.0, 2.0, 0.0)) * 0.5,
    );
    let corner_c = v(8.0, -3.0, 4.0);
    let corner = contact::contact_sphere_cuboid(corner_c, 1.8, half, &b, 0.0).unwrap();
    let nc = (v(9.0, -2.0, 3.0) - corner_c).normalize();
    assert_single(
        &corner,
        nc,
        1.8 - 3f32.sqrt(),
        (corner_c + nc * 1.8 + v(9.0, -2.0, 3.0)) * 0.5,
    );
    // Centre inside, nearest to the +y face (0.5 inside it): pushed out through +y.
    let inside = contact::contact_sphere_cuboid(v(10.0, 1.5, 0.0), 0.25, half, &b, 0.0).unwrap();
    assert_near(inside.normal(), -Vec3::y(), "inside normal");
    assert!((inside.points()[0].depth - 0.75).abs() < TOL);
    assert_swapped(
        &face,
        &contact::contact_cuboid_sphere(half, &b, v(8.5, 0.0, 0.0), 0.6, 0.0).unwrap(),
    );
}

#[test]
fn capsule_cuboid_lying_on_a_face_and_crossing_an_edge() {
    let half = v(1.0, 1.0, 1.0);
    let b = pose(Vec3::zeros(), Vec3::zeros());
    let lying =
        contact::contact_capsule_cuboid([v(-0.5, 0.0, 1.4), v(3.0, 0.0, 1.4)], 0.5, half, &b, 0.0)
            .unwrap();
    // Clipped to the top face: points above x = -0.5 and x = 1, depth 0.1.
    assert_eq!(lying.len(), 2);
    assert_near(lying.normal(), -Vec3::z(), "lying normal");
    for p in lying.points() {
        assert!((p.depth - 0.1).abs() < TOL, "{p:?}");
        assert!((p.point.x + 0.5).abs() < TOL || (p.point.x - 1.0).abs() < TOL);
    }
    assert_swapped(
        &lying,
        &contact::contact_cuboid_capsule(half, &b, [v(-0.5, 0.0, 1.4), v(3.0, 0.0, 1.4)], 0.5, 0.0)
            .unwrap(),
    );
    // Parallel to the top +x edge (along y), its core 0.4 from the edge on
    // the diagonal: the rounded side touches the edge, depth 0.1 along the
    // diagonal, and the face axes (overlap 0.22) must not win.
    let diag = v(1.0, 0.0, 1.0).normalize();
    let c = v(1.0, 0.0, 1.0) + diag * 0.4;
    let seg = [c - Vec3::y() * 0.5, c + Vec3::y() * 0.5];
    let m = contact::contact_capsule_cuboid(seg, 0.5, half, &b, 0.0).unwrap();
    assert_eq!(m.len(), 1);
    assert_near(m.normal(), -diag, "edge normal");
    assert!((m.points()[0].depth - 0.1).abs() < TOL);
    // Crossing the same edge at a right angle with the core inside the
    // cuboid by 0.1 along the diagonal: the edge-cross-axis of the deep case.
    let deep_c = v(1.0, 0.0, 1.0) - diag * 0.1;
    let deep_seg = [deep_c + v(1.0, 0.0, -1.0), deep_c - v(1.0, 0.0, -1.0)];
    let deep = contact::contact_capsule_cuboid(deep_seg, 0.5, half, &b, 0.0).unwrap();
    assert_near(deep.normal(), -diag, "deep edge normal");
    assert!((deep.max_depth().unwrap() - 0.6).abs() < TOL, "{deep:?}");
}

#[test]
fn cuboid_triangle_corner_down_gets_one_point() {
    let big = [v(-10.0, -10.0, 0.0), v(10.0, -10.0, 0.0), v(0.0, 10.0, 0.0)];
    // A unit cube balanced on a corner: rotate so the diagonal is vertical.
    let q = UnitQuaternion::rotation_between(&v(1.0, 1.0, 1.0), &Vec3::z()).unwrap();
    let h = 0.5 * 3f32.sqrt();
    let p = Isometry3::from_parts(Translation3::new(0.0, 0.0, h - 0.02), q);
    let m = contact::contact_cuboid_triangle(v(0.5, 0.5, 0.5), &p, &big, 0.0).unwrap();
    assert_single(&m, -Vec3::z(), 0.02, v(0.0, 0.0, -0.01));
}
