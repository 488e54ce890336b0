//! The contact dispatcher `contact::shapes`: it agrees with the pair
//! functions, swapping A and B flips the normal for every kind pair,
//! convex hulls agree with parry3d 0.31, and invalid inputs are refused.

use parapet_geometry::Shape;
use parapet_math::nalgebra::{Isometry3, Translation3, UnitQuaternion};
use parapet_math::Vec3;
use parapet_narrow::contact::{self, ContactError, Pose};
use parapet_tests::parry::{self as bridge, parry3d};
use proptest::prelude::*;

/// Length tolerance (m) between two `f64` paths over the same `f32`
/// inputs with different working origins: a few `f32` ulps of 1 m.
const TOL: f32 = 1.0e-5;

/// Depth tolerance (m) against parry's GJK/EPA on polytopes: measured 1.3e-5 m
/// for cuboid pairs in `contact_parry.rs`; 1e-4 leaves a margin.
const PARRY_DEPTH_TOL: f32 = 1.0e-4;

/// Normal cosine (dimensionless) against parry on polytopes: 0.9999.
const PARRY_NORMAL_COS: f32 = 0.9999;

/// Depth (m) beyond which parry's polytope contact is not the least
/// overlap (it projects the deepest support point onto the whole shape).
const DEEP_LIMIT: f32 = 0.1;

fn pose() -> impl Strategy<Value = Pose> {
    (
        (-1.0f32..1.0, -1.0f32..1.0, -1.0f32..1.0),
        (-3.2f32..3.2, -3.2f32..3.2, -3.2f32..3.2),
    )
        .prop_map(|((x, y, z), (a, b, c))| {
            Isometry3::from_parts(
                Translation3::new(x, y, z),
                UnitQuaternion::from_scaled_axis(Vec3::new(a, b, c)),
            )
        })
}

/// Points of a random hull: 6 to 12 points in a 1 m cube, made
/// non-degenerate by four fixed spread corners.
fn hull_points() -> impl Strategy<Value = Vec<Vec3>> {
    proptest::collection::vec((-0.5f32..0.5, -0.5f32..0.5, -0.5f32..0.5), 2..8).prop_map(|pts| {
        let mut out = vec![
            Vec3::new(0.3, 0.3, 0.3),
            Vec3::new(-0.3, -0.3, 0.3),
            Vec3::new(0.3, -0.3, -0.3),
            Vec3::new(-0.3, 0.3, -0.3),
        ];
        out.extend(pts.into_iter().map(|(x, y, z)| Vec3::new(x, y, z)));
        out
    })
}

fn solid() -> impl Strategy<Value = Shape> {
    prop_oneof![
        (0.1f32..1.0).prop_map(|r| Shape::sphere(r).unwrap()),
        (0.1f32..0.6, 0.1f32..1.0).prop_map(|(r, h)| Shape::capsule(r, h).unwrap()),
        (0.1f32..1.0, 0.1f32..1.0, 0.1f32..1.0)
            .prop_map(|(x, y, z)| Shape::cuboid(Vec3::new(x, y, z)).unwrap()),
        hull_points().prop_map(|p| Shape::convex_hull(&p).unwrap()),
    ]
}

#[test]
fn the_dispatcher_matches_the_pair_functions() {
    let a = Isometry3::from_parts(
        Translation3::new(0.1, 0.2, 0.3),
        UnitQuaternion::from_scaled_axis(Vec3::new(0.3, -0.2, 0.1)),
    );
    let b = Isometry3::from_parts(
        Translation3::new(0.5, 0.1, 0.9),
        UnitQuaternion::from_scaled_axis(Vec3::new(-0.1, 0.4, 0.2)),
    );
    let half = Vec3::new(0.4, 0.3, 0.5);
    let seg = |p: &Pose, h: f32| {
        let axis = p.rotation * Vec3::new(0.0, 0.0, h);
        [p.translation.vector - axis, p.translation.vector + axis]
    };
    let cases = [
        (
            contact::shapes(
                &Shape::sphere(0.6).unwrap(),
                &a,
                &Shape::capsule(0.3, 0.4).unwrap(),
                &b,
                0.1,
            )
            .unwrap(),
            contact::contact_sphere_capsule(a.translation.vector, 0.6, seg(&b, 0.4), 0.3, 0.1)
                .unwrap(),
        ),
        (
            contact::shapes(
                &Shape::capsule(0.3, 0.4).unwrap(),
                &a,
                &Shape::capsule(0.3, 0.4).unwrap(),
                &b,
                0.1,
            )
            .unwrap(),
            contact::contact_capsule_capsule(seg(&a, 0.4), 0.3, seg(&b, 0.4), 0.3, 0.1).unwrap(),
        ),
        (
            contact::shapes(
                &Shape::cuboid(half).unwrap(),
                &a,
                &Shape::cuboid(half).unwrap(),
                &b,
                0.1,
            )
            .unwrap(),
            contact::contact_cuboid_cuboid(half, &a, half, &b, 0.1).unwrap(),
        ),
        (
            contact::shapes(
                &Shape::capsule(0.3, 0.4).unwrap(),
                &a,
                &Shape::cuboid(half).unwrap(),
                &b,
                0.1,
            )
            .unwrap(),
            contact::contact_capsule_cuboid(seg(&a, 0.4), 0.3, half, &b, 0.1).unwrap(),
        ),
    ];
    for (dispatched, direct) in cases {
        assert!(!direct.is_empty());
        assert_eq!(dispatched.len(), direct.len());
        assert!((dispatched.normal() - direct.normal()).norm() < TOL);
        for (p, q) in dispatched.points().iter().zip(direct.points()) {
            assert!((p.point - q.point).norm() < TOL && (p.depth - q.depth).abs() < TOL);
        }
    }
}

#[test]
fn a_box_resting_on_a_hull_face_gets_four_points() {
    // A square-topped hull (a truncated pyramid) with a box resting 1 cm deep
    // on its 2 m x 2 m top face.
    let hull = Shape::convex_hull(&[
        Vec3::new(-1.0, -1.0, 0.0),
        Vec3::new(1.0, -1.0, 0.0),
        Vec3::new(1.0, 1.0, 0.0),
        Vec3::new(-1.0, 1.0, 0.0),
        Vec3::new(-2.0, -2.0, -1.0),
        Vec3::new(2.0, -2.0, -1.0),
        Vec3::new(2.0, 2.0, -1.0),
        Vec3::new(-2.0, 2.0, -1.0),
    ])
    .unwrap();
    let cube = Shape::cuboid(Vec3::new(0.25, 0.25, 0.25)).unwrap();
    let box_pose = Isometry3::from_parts(
        Translation3::new(0.1, 0.2, 0.24),
        UnitQuaternion::from_scaled_axis(Vec3::new(0.0, 0.0, 0.5)),
    );
    let m = contact::shapes(&hull, &Isometry3::identity(), &cube, &box_pose, 0.0).unwrap();
    assert_eq!(m.len(), 4, "{m:?}");
    assert!((m.normal() - Vec3::z()).norm() < TOL);
    for p in m.points() {
        assert!((p.depth - 0.01).abs() < TOL, "{p:?}");
    }
}

#[test]
fn invalid_margins_and_poses_are_refused() {
    let s = Shape::sphere(1.0).unwrap();
    let id = Isometry3::identity();
    for margin in [-0.1, f32::NAN, f32::INFINITY] {
        let err = contact::shapes(&s, &id, &s, &id, margin).unwrap_err();
        assert!(matches!(err, ContactError::InvalidMargin { .. }), "{err}");
    }
    let mut bad = id;
    bad.translation.vector.x = f32::NAN;
    let err = contact::shapes(&s, &id, &s, &bad, 0.0).unwrap_err();
    assert!(
        matches!(err, ContactError::NonFinitePose { which: "B", .. }),
        "{err}"
    );
}

fn parry_hull(shape: &Shape) -> Option<parry3d::shape::ConvexPolyhedron> {
    let Shape::ConvexHull(h) = shape else {
        return None;
    };
    let pts: Vec<_> = h.vertices().iter().map(|v| bridge::to_parry(*v)).collect();
    parry3d::shape::ConvexPolyhedron::from_convex_hull(&pts)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1024, max_global_rejects: 8192, ..ProptestConfig::default() })]

    #[test]
    fn swapping_a_and_b_flips_the_normal(a in solid(), pa in pose(), b in solid(), pb in pose(), margin in 0.0f32..0.3) {
        let m = contact::shapes(&a, &pa, &b, &pb, margin).unwrap();
        let s = contact::shapes(&b, &pb, &a, &pa, margin).unwrap();
        match (m.max_depth(), s.max_depth()) {
            (None, None) => {}
            (Some(x), Some(y)) => {
                // Equal up to the axis-preference tolerance of the SAT.
                prop_assert!((x - y).abs() < 1e-4, "depth {x} vs swapped {y}");
                if (m.normal() + s.normal()).norm() >= 1e-3 {
                    // Two axes tie within the preference tolerance: each
                    // normal must still separate the pair by its depth.
                    let mut moved = pb;
                    moved.translation.vector += m.normal() * (x + 1e-4);
                    let after = contact::shapes(&a, &pa, &b, &moved, 0.0).unwrap();
                    prop_assert!(after.is_empty(), "normal {:?} vs swapped {:?}", m.normal(), s.normal());
                }
            }
            (x, y) => {
                // Only at the margin boundary.
                let d = x.or(y).unwrap();
                prop_assert!((d + margin).abs() < 1e-5, "{m:?} vs {s:?}");
            }
        }
    }

    #[test]
    fn moving_b_out_along_the_normal_leaves_the_predicted_gap(a in solid(), pa in pose(), b in solid(), pb in pose(), gap in 0.01f32..0.2) {
        // Any contact's normal and depth form a separating translation:
        // moving B by (depth + gap) along the normal leaves exactly `gap`
        // between the witness points, so the shapes are reported at depth
        // -gap within a wider margin and not at all within a narrower one.
        let m = contact::shapes(&a, &pa, &b, &pb, 0.0).unwrap();
        prop_assume!(!m.is_empty());
        let depth = m.max_depth().unwrap();
        let mut moved = pb;
        moved.translation.vector += m.normal() * (depth + gap);
        let within = contact::shapes(&a, &pa, &b, &moved, gap + 0.05).unwrap();
        // 1e-4 m: f32 poses and points of metre-sized shapes, moved once.
        prop_assert!(!within.is_empty(), "{m:?}");
        prop_assert!((within.max_depth().unwrap() + gap).abs() < 1e-4, "{within:?} after {m:?}");
        prop_assert!((within.normal() - m.normal()).norm() < 1e-2 || (within.max_depth().unwrap() + gap).abs() < 1e-4);
        let beyond = contact::shapes(&a, &pa, &b, &moved, gap - 1e-3).unwrap();
        prop_assert!(beyond.is_empty(), "{beyond:?} after {m:?}");
    }

    #[test]
    fn hull_pairs_agree_with_parry(pa_pts in hull_points(), pa in pose(), b_pts in hull_points(), pb in pose(), margin in 0.0f32..0.3) {
        let a = Shape::convex_hull(&pa_pts).unwrap();
        let b = Shape::convex_hull(&b_pts).unwrap();
        let m = contact::shapes(&a, &pa, &b, &pb, margin).unwrap();
        let (ha, hb) = (parry_hull(&a).unwrap(), parry_hull(&b).unwrap());
        let reference = parry3d::query::contact(
            &bridge::pose_to_parry(pa.translation.vector, pa.rotation), &ha,
            &bridge::pose_to_parry(pb.translation.vector, pb.rotation), &hb, margin,
        ).unwrap().map(|c| (-c.dist, bridge::from_parry(c.normal1)));
        match (m.max_depth(), reference) {
            (None, None) => {}
            (Some(d), Some((rd, rn))) => {
                prop_assume!(d.max(rd) < DEEP_LIMIT);
                prop_assert!((d - rd).abs() < PARRY_DEPTH_TOL, "depth {d} vs parry {rd}: {m:?}");
                if m.normal().dot(&rn) < PARRY_NORMAL_COS {
                    // A near-tie: our normal must separate the pair when B moves along it.
                    let mut moved = pb;
                    moved.translation.vector += m.normal() * (d + PARRY_DEPTH_TOL);
                    let after = contact::shapes(&a, &pa, &b, &moved, 0.0).unwrap();
                    prop_assert!(after.is_empty(), "normal {:?} vs parry {rn:?}", m.normal());
                }
            }
            (x, y) => {
                let d = x.or(y.map(|r| r.0)).unwrap();
                prop_assert!((d + margin).abs() < PARRY_DEPTH_TOL, "ours {m:?} vs parry {y:?}");
            }
        }
    }
}
