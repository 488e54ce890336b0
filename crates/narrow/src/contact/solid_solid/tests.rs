//! Tests of the solid contacts: analytic box pairs, and the fuzzing's
//! findings as literals (each point within half its depth of both shapes).

use super::*;
use crate::contact::{contact_cuboid_cuboid, shapes, Manifold, Pose};
use parapet_geometry::Shape;
use parapet_math::nalgebra::{Isometry3, Quaternion, Translation3, UnitQuaternion};
use parapet_math::{promote, Vec3};

fn pose(t: Vec3, axis_angle: Vec3) -> Pose {
    Isometry3::from_parts(
        Translation3::from(t),
        UnitQuaternion::from_scaled_axis(axis_angle),
    )
}

#[test]
fn box_resting_on_a_box_gets_four_corner_points() {
    let m = contact_cuboid_cuboid(
        Vec3::new(5.0, 5.0, 0.5),
        &pose(Vec3::zeros(), Vec3::zeros()),
        Vec3::new(0.5, 0.5, 0.5),
        &pose(Vec3::new(0.0, 0.0, 0.99), Vec3::zeros()),
        0.0,
    )
    .unwrap();
    assert_eq!(m.len(), 4);
    assert!((m.normal() - Vec3::z()).norm() < 1e-6);
    for p in m.points() {
        assert!((p.depth - 0.01).abs() < 1e-6);
        assert!((p.point.x.abs() - 0.5).abs() < 1e-6 && (p.point.y.abs() - 0.5).abs() < 1e-6);
    }
}

#[test]
fn crossed_edges_touch_at_one_point_with_the_edge_normal() {
    // A: unit cube rotated 45 degrees about x, so its top is an edge along
    // x at z = sqrt(2)/2. B: the same cube rotated about z and y so that its
    // bottom is an edge along y, just overlapping A's edge by 0.01.
    let h = std::f32::consts::FRAC_1_SQRT_2;
    let a = pose(
        Vec3::zeros(),
        Vec3::new(std::f32::consts::FRAC_PI_4, 0.0, 0.0),
    );
    let b = pose(
        Vec3::new(0.0, 0.0, 2.0 * h - 0.01),
        Vec3::new(0.0, std::f32::consts::FRAC_PI_4, 0.0),
    );
    let half = Vec3::new(0.5, 0.5, 0.5);
    let m = contact_cuboid_cuboid(half, &a, half, &b, 0.0).unwrap();
    assert_eq!(m.len(), 1);
    assert!((m.normal() - Vec3::z()).norm() < 1e-5, "{:?}", m.normal());
    assert!((m.points()[0].depth - 0.01).abs() < 1e-5);
    assert!((m.points()[0].point - Vec3::new(0.0, 0.0, h - 0.005)).norm() < 1e-5);
}

/// A pose with the quaternion `[i, j, k, w]` as the fuzzing drew it (not
/// renormalised: the contact tests renormalise it in `f64`).
fn drawn(t: [f32; 3], q: [f32; 4]) -> Pose {
    Isometry3::from_parts(
        Translation3::new(t[0], t[1], t[2]),
        UnitQuaternion::new_unchecked(Quaternion::new(q[3], q[0], q[1], q[2])),
    )
}

/// Distance (m) from `p` to a box of half extents `h` at `pose` (0 inside).
fn box_distance(h: Vec3, pose: &Pose, p: Vec3d) -> f64 {
    let q = parapet_math::promote_quat(pose.rotation);
    let local = q.inverse_transform_vector(&(p - promote(pose.translation.vector)));
    let h = promote(h);
    Vec3d::new(
        (local.x.abs() - h.x).max(0.0),
        (local.y.abs() - h.y).max(0.0),
        (local.z.abs() - h.z).max(0.0),
    )
    .norm()
}

/// Distance (m) from `p` to a capsule of radius `r` and half height `half`
/// along the local z axis at `pose` (0 inside).
fn capsule_distance(r: f32, half: f32, pose: &Pose, p: Vec3d) -> f64 {
    let q = parapet_math::promote_quat(pose.rotation);
    let local = q.inverse_transform_vector(&(p - promote(pose.translation.vector)));
    let core = Vec3d::new(0.0, 0.0, local.z.clamp(-half as f64, half as f64));
    ((local - core).norm() - r as f64).max(0.0)
}

/// Each point of `m` within half its depth of both shapes (the midpoint
/// convention), plus 1e-5 m: a few `f32` steps of a point a few metres from
/// the origin (2.4e-7 m each) and the `f64` rounding of the test itself.
fn assert_between(m: &Manifold, dist_a: &dyn Fn(Vec3d) -> f64, dist_b: &dyn Fn(Vec3d) -> f64) {
    assert!(!m.is_empty());
    for c in m.points() {
        let p = promote(c.point);
        let allowed = (c.depth as f64).abs() * 0.5 + 1e-5;
        let (da, db) = (dist_a(p), dist_b(p));
        assert!(
            da <= allowed && db <= allowed,
            "{da} m from A, {db} m from B: {m:?}"
        );
    }
}

/// The `contacts` fuzz finding of a capsule whose core crosses a box deeply
/// (a crossing edge axis): the point was built on the first of the box's
/// four edges parallel to the axis's edge, not on the one that reaches
/// deepest towards the capsule, and lay 1.27 m from the capsule at a depth
/// of 0.57 m. The point now lies on the box's support edge along the axis.
#[test]
fn a_capsule_deep_in_a_box_takes_its_point_on_the_supporting_edge() {
    let (r, half) = (1e-38f32, 0.69f32);
    let capsule = Shape::capsule(r, half).unwrap();
    let h = Vec3::new(1.35, 1.33, 1.33);
    let cuboid = Shape::cuboid(h).unwrap();
    let pc = drawn([-0.3599999, -0.375, -0.3599999], [0.0, 0.0, 0.0, 1.0]);
    let pb = drawn(
        [-1.128, -1.128, -1.128],
        [-0.49849334, -0.49849334, -0.49849334, 0.5044928],
    );
    for (m, flipped) in [
        (shapes(&capsule, &pc, &cuboid, &pb, 0.02).unwrap(), false),
        (shapes(&cuboid, &pb, &capsule, &pc, 0.02).unwrap(), true),
    ] {
        let to_capsule = |p: Vec3d| capsule_distance(r, half, &pc, p);
        let to_box = |p: Vec3d| box_distance(h, &pb, p);
        if flipped {
            assert_between(&m, &to_box, &to_capsule);
        } else {
            assert_between(&m, &to_capsule, &to_box);
        }
        assert!((m.max_depth().unwrap() - 0.5655608).abs() < 1e-5, "{m:?}");
    }
}

/// The `contacts` fuzz finding of a box against a degenerate box (half
/// extents 0.36 m by 3.4e-20 m: a segment, its end faces collapsed to a
/// point and its side faces to the segment when placed) 9.98 m away within
/// a 20 m margin: the closest point of a collapsed end face was taken on its
/// whole plane, a false closest pair 2.12 m apart whose point lay 13.3 m
/// from the segment. And the same pair turned otherwise (7.81 m apart): a
/// collapsed face chosen as the reference face, whose side planes bound
/// nothing, kept the whole incident face of the box as its patch, points
/// 5.86 m from the segment. Both orders now find the same gap and points
/// midway between the shapes.
#[test]
fn a_box_face_collapsed_to_a_point_is_no_plane() {
    let (ha, hb) = (
        Vec3::new(0.88, 0.69, 1.83),
        Vec3::new(0.36, 3.3695302e-20, 3.3695302e-20),
    );
    let (a, b) = (Shape::cuboid(ha).unwrap(), Shape::cuboid(hb).unwrap());
    let pa = drawn([5.788809e-10, -6.7, -10.0], [0.0, 0.0, 0.0, 1.0]);
    for (pb, least_gap) in [
        (
            drawn(
                [-3.0, -2.3309999, 0.9690001],
                [-0.4588064, 0.48690903, 0.48690903, -0.5615478],
            ),
            9.9,
        ),
        (
            drawn(
                [-3.0, -2.3309999, -0.70799994],
                [-0.5990617, -0.34808493, 0.54503673, -0.47211957],
            ),
            7.7,
        ),
    ] {
        let ab = shapes(&a, &pa, &b, &pb, 20.0).unwrap();
        let ba = shapes(&b, &pb, &a, &pa, 20.0).unwrap();
        let to_a = |p: Vec3d| box_distance(ha, &pa, p);
        let to_b = |p: Vec3d| box_distance(hb, &pb, p);
        assert_between(&ab, &to_a, &to_b);
        assert_between(&ba, &to_b, &to_a);
        // The same gap either way, within f32 rounding of 10 m (1e-6 m).
        let gap = |m: &Manifold| -m.max_depth().unwrap();
        assert!(
            (gap(&ab) - gap(&ba)).abs() < 1e-6 && gap(&ab) > least_gap,
            "{ab:?} {ba:?}"
        );
    }
}

/// A box collapsed to a segment (half extents of 1e-20 m across it, which
/// placing rounds away: a needle)
/// through a cube near its +y face: no face of the needle is an axis, the
/// cube's +y face is, and the needle is pushed out along it by 0.05 m, its
/// points on the needle and the face, either order.
#[test]
fn a_needle_through_a_box_is_pushed_out_through_the_nearest_face() {
    let (hn, hc) = (Vec3::new(0.5, 1e-20, 1e-20), Vec3::new(0.3, 0.3, 0.3));
    let (needle, cube) = (Shape::cuboid(hn).unwrap(), Shape::cuboid(hc).unwrap());
    let pn = drawn([0.0, 0.25, 0.0], [0.0, 0.0, 0.0, 1.0]);
    let pc = drawn([0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 1.0]);
    let to_needle = |p: Vec3d| box_distance(hn, &pn, p);
    let to_cube = |p: Vec3d| box_distance(hc, &pc, p);
    let m = shapes(&cube, &pc, &needle, &pn, 0.0).unwrap();
    assert_between(&m, &to_cube, &to_needle);
    assert!((m.normal() - Vec3::y()).norm() < 1e-6, "{m:?}");
    assert!((m.max_depth().unwrap() - 0.05).abs() < 1e-6, "{m:?}");
    let r = shapes(&needle, &pn, &cube, &pc, 0.0).unwrap();
    assert_between(&r, &to_needle, &to_cube);
    assert!((r.normal() + Vec3::y()).norm() < 1e-6, "{r:?}");
    assert!((r.max_depth().unwrap() - 0.05).abs() < 1e-6, "{r:?}");
}
