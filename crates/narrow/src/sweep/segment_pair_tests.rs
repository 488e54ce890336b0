//! Unit tests of `segment_pair`: hand-built pairs, the checked members'
//! agreement with the one-shot checks, and property tests.

use super::*;
use crate::sweep::test_fixtures::hit;
use proptest::prelude::*;

/// A member near the origin: a sphere (`len == 0`) or a capsule, with a
/// radius that may fall outside the precision domain (`radius` down to
/// 1e-5 m against the 1e-4 m limit) and coordinates up to 20 m.
fn member() -> impl Strategy<Value = MovingSegment> {
    (
        prop::array::uniform3(-20.0f32..20.0),
        prop::array::uniform3(-2.0f32..2.0),
        prop_oneof![Just(0.0f32), 0.0f32..1.0],
        prop_oneof![1.0e-5f32..1.0e-3, 0.01f32..2.0],
        prop::array::uniform3(-60.0f32..60.0),
    )
        .prop_map(|(c, axis, len, radius, v)| {
            let c = Vec3::from(c);
            let h = Vec3::from(axis) * len;
            MovingSegment::capsule(c - h, c + h, radius, Vec3::from(v))
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4096))]

    /// The checked path is the pure function bit for bit: the same
    /// outcome (Debug prints every f64 exactly, signed zeros included)
    /// whenever both members pass their checks, and a member refused by
    /// `CheckedSegment::new` exactly when the pure sweep refuses it.
    #[test]
    fn checked_members_sweep_bit_for_bit_like_the_pure_sweep(
        a in member(),
        b in member(),
        dt in prop_oneof![Just(0.0f32), 1.0e-3f32..0.2],
    ) {
        let pure = sweep_segment_pair(&a, &b, dt);
        let pure_swapped = sweep_segment_pair(&b, &a, dt);
        match (CheckedSegment::new(&a, dt), CheckedSegment::new(&b, dt)) {
            (Ok(ca), Ok(cb)) => {
                prop_assert_eq!(
                    format!("{:?}", sweep_checked_pair(&ca, &cb)),
                    format!("{pure:?}")
                );
                prop_assert_eq!(
                    format!("{:?}", sweep_checked_pair(&cb, &ca)),
                    format!("{pure_swapped:?}")
                );
            }
            (Err(_), _) => prop_assert!(matches!(pure, SweepOutcome::Refused(_))),
            (Ok(_), Err(_)) => {
                prop_assert!(matches!(pure, SweepOutcome::Refused(_)));
                prop_assert!(matches!(pure_swapped, SweepOutcome::Refused(_)));
            }
        }
    }
}

/// A coordinate magnitude around the two limits that `moving_coordinate`
/// applies (the absolute `MAX_COORDINATE` and `MAX_COORDINATE_RADII`
/// radii), a step either side, or not finite.
fn coordinate(r: f64) -> impl Strategy<Value = f64> {
    let radii = domain::MAX_COORDINATE_RADII * r;
    prop_oneof![
        -10.0f64..10.0,
        Just(radii),
        Just(-radii),
        Just(radii.next_up()),
        Just(radii.next_down()),
        Just(domain::MAX_COORDINATE),
        Just(domain::MAX_COORDINATE.next_up()),
        0.9 * radii..1.1 * radii,
        Just(f64::NAN),
        Just(f64::INFINITY),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4096))]

    /// The one-shot coordinate check accepts exactly the points that
    /// pass `moving_coordinate` one by one.
    #[test]
    fn the_one_shot_coordinate_check_is_the_check_of_every_coordinate(
        (r, xs) in prop_oneof![Just(1.0e-4f64), 0.01f64..2.0, Just(1.0e4f64)]
            .prop_flat_map(|r| (Just(r), prop::collection::vec(coordinate(r), 12))),
        plain in prop::collection::vec(0usize..12, 0..12),
    ) {
        // Most coordinates plain, so that one far one decides.
        let mut xs = xs;
        for k in plain {
            xs[k] = 0.5;
        }
        let points: [Vec3d; 4] =
            std::array::from_fn(|i| Vec3d::new(xs[3 * i], xs[3 * i + 1], xs[3 * i + 2]));
        let each = points
            .iter()
            .all(|p| domain::moving_coordinate("p", *p, r).is_ok());
        prop_assert_eq!(coordinates_accepted(points, r), each);
    }
}

/// A member anywhere in or just outside the precision domain: radii
/// around both radius limits, coordinates around both coordinate limits,
/// velocities up to a reach beyond its limit, and non-finite inputs.
fn edge_member() -> impl Strategy<Value = MovingSegment> {
    let radius = prop_oneof![
        Just(domain::MIN_RADIUS as f32),
        Just((domain::MIN_RADIUS as f32).next_down()),
        Just(domain::MAX_RADIUS as f32),
        Just((domain::MAX_RADIUS as f32).next_up()),
        1.0e-4f32..10.0,
        Just(f32::NAN),
        Just(f32::INFINITY),
    ];
    radius
        .prop_flat_map(|r| {
            // The coordinate and speed scales of a finite radius.
            let r_scale = if r.is_finite() {
                r.clamp(1.0e-4, 1.0e4)
            } else {
                1.0
            };
            let far = (domain::MAX_COORDINATE_RADII * r_scale as f64) as f32;
            let coord = prop_oneof![
                -10.0f32..10.0,
                Just(far),
                Just(-far.next_up()),
                0.99 * far..1.01 * far,
                Just(f32::NAN),
            ];
            let speed = prop_oneof![
                -100.0f32..100.0,
                Just(f32::INFINITY),
                (-1.0f32..1.0).prop_map(move |x| x * 2.0e6 * r_scale),
            ];
            (
                Just(r),
                prop::array::uniform3(coord.clone()),
                prop::array::uniform3(coord),
                prop::array::uniform3(speed),
                prop::bool::ANY,
                prop::array::uniform3(0usize..3),
            )
        })
        .prop_map(|(r, p0, p1, v, sphere, plain)| {
            // Mostly plain coordinates, so that one edge value decides.
            let (mut p0, mut p1) = (Vec3::from(p0), Vec3::from(p1));
            for k in plain {
                p0[k] = 0.5;
                p1[k] = -0.5;
            }
            let p1 = if sphere { p0 } else { p1 };
            MovingSegment::capsule(p0, p1, r, Vec3::from(v))
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4096))]

    /// The joined member check accepts exactly the members that pass the
    /// checks one by one, with the same ends and radius.
    #[test]
    fn the_joined_member_check_is_the_checks_one_by_one(
        m in edge_member(),
        dt in prop_oneof![Just(0.0f64), 1.0e-3f64..0.2, Just(1.0)],
    ) {
        let each = checked_member_each(&m, dt, &NAMES_ANY);
        prop_assert_eq!(accepted_member(&m, dt).ok_or(()), each.map_err(|_| ()));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4096))]

    /// A sphere's check (ends equal in value, which takes the short
    /// path of `accepted_member`) is the checks one by one, with the
    /// same ends and radius, also when its ends differ only in the
    /// signs of zero coordinates.
    #[test]
    fn a_sphere_member_check_is_the_checks_one_by_one(
        m in edge_member(),
        zeros in prop::array::uniform3(0u8..4),
        dt in prop_oneof![Just(0.0f64), 1.0e-3f64..0.2, Just(1.0)],
    ) {
        // Zero coordinates of either sign at either end (0: as drawn).
        let mut p0 = m.p0;
        let mut p1 = m.p0;
        for (k, z) in zeros.iter().enumerate() {
            match z {
                1 => (p0[k], p1[k]) = (0.0, -0.0),
                2 => (p0[k], p1[k]) = (-0.0, 0.0),
                3 => (p0[k], p1[k]) = (-0.0, -0.0),
                _ => {}
            }
        }
        let m = MovingSegment { p0, p1, ..m };
        let each = checked_member_each(&m, dt, &NAMES_ANY);
        let joined = accepted_member(&m, dt);
        prop_assert_eq!(
            format!("{:?}", joined.ok_or(())),
            format!("{:?}", each.map_err(|_| ()))
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4096))]

    /// A member at rest checked for one step and moved to another is
    /// the member checked for the other step, field for field; a
    /// moving member is not moved.
    #[test]
    fn a_member_at_rest_moved_to_another_step_is_checked_for_it(
        m in member(),
        at_rest in prop::bool::ANY,
        negative_zero in prop::bool::ANY,
        dt in prop_oneof![Just(0.0f32), 1.0e-3f32..0.2],
        other in prop_oneof![Just(0.0f32), 1.0e-3f32..0.2, Just(-1.0), Just(f32::NAN)],
    ) {
        let zero = if negative_zero { -0.0 } else { 0.0 };
        let m = if at_rest { MovingSegment { velocity: Vec3::new(zero, 0.0, zero), ..m } } else { m };
        let Ok(c) = CheckedSegment::new(&m, dt) else { return Ok(()) };
        let moved = c.at_rest_for(other);
        if m.velocity == Vec3::zeros() {
            prop_assert_eq!(moved, CheckedSegment::new(&m, other).ok());
        } else {
            prop_assert_eq!(moved, None);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4096))]

    /// A checked member grown to a larger radius is the grown member
    /// checked anew (or refused exactly when that is); a smaller radius
    /// is refused.
    #[test]
    fn a_grown_member_is_the_grown_member_checked(
        m in prop_oneof![member(), edge_member()],
        dt in prop_oneof![Just(0.0f32), 1.0e-3f32..0.2],
        growth in prop_oneof![Just(0.0f32), 0.0f32..1.0e-3, 0.0f32..2.0, Just(2.0e4)],
    ) {
        let Ok(c) = CheckedSegment::new(&m, dt) else { return Ok(()) };
        let radius = m.radius + growth * m.radius;
        let grown = MovingSegment { radius, ..m };
        prop_assert_eq!(c.grown(radius), CheckedSegment::new(&grown, dt).ok());
        if m.radius > 0.0 {
            prop_assert_eq!(c.grown(m.radius.next_down()), None);
        }
    }
}

#[test]
fn members_checked_for_different_steps_are_checked_again_by_the_pure_sweep() {
    let a = MovingSegment::sphere(Vec3::new(-5.0, 0.0, 0.0), 1.0, Vec3::new(8.0, 0.0, 0.0));
    let b = MovingSegment::sphere(Vec3::new(5.0, 0.0, 0.0), 1.0, Vec3::new(-8.0, 0.0, 0.0));
    let ca = CheckedSegment::new(&a, 1.0).unwrap();
    let cb = CheckedSegment::new(&b, 0.25).unwrap();
    // Over A's step of 1 s the gap of 8 m closes at t = 0.5.
    assert_eq!(
        sweep_checked_pair(&ca, &cb),
        sweep_segment_pair(&a, &b, 1.0)
    );
    assert!((hit(sweep_checked_pair(&ca, &cb)).time - 0.5).abs() < 1e-15);
}

#[test]
fn a_refused_member_names_no_role_and_the_pure_sweep_names_it() {
    let bad = MovingSegment::sphere(Vec3::zeros(), 1.0e-5, Vec3::zeros());
    let good = MovingSegment::sphere(Vec3::new(3.0, 0.0, 0.0), 1.0, Vec3::zeros());
    let e = CheckedSegment::new(&bad, 0.1).unwrap_err();
    assert!(e.to_string().contains("pair member radius"), "{e}");
    let SweepOutcome::Refused(e) = sweep_segment_pair(&good, &bad, 0.1) else {
        panic!("a radius of 1e-5 m is below the 1e-4 m limit")
    };
    assert!(e.to_string().contains("member B radius"), "{e}");
}

#[test]
fn head_on_spheres_meet_at_the_summed_radius() {
    let a = MovingSegment::sphere(Vec3::new(0.0, 0.0, 0.0), 0.5, Vec3::new(10.0, 0.0, 0.0));
    let b = MovingSegment::sphere(Vec3::new(4.0, 0.0, 0.0), 1.5, Vec3::new(-2.0, 0.0, 0.0));
    let i = hit(sweep_segment_pair(&a, &b, 0.5));
    // Gap 4 - 2 = 2 m at 12 m/s closing over 6 m of relative travel: t = 1/3.
    assert!((i.time - 1.0 / 3.0).abs() < 1e-15);
    assert_eq!(i.normal, Vec3d::new(-1.0, 0.0, 0.0));
    // B's centre has moved to 4 - 1 / 3 m; the point is on its surface
    // towards A, at the time of contact.
    assert!(
        (i.point - Vec3d::new(4.0 - 1.0 / 3.0 - 1.5, 0.0, 0.0)).norm() < 1e-12,
        "{:?}",
        i.point
    );
}

#[test]
fn a_sphere_reaches_a_capsule_side_on_its_cylinder() {
    let a = MovingSegment::sphere(Vec3::new(0.0, 3.0, 0.0), 0.5, Vec3::new(0.0, -4.0, 0.0));
    let b = MovingSegment::capsule(
        Vec3::new(-2.0, 0.0, 0.0),
        Vec3::new(2.0, 0.0, 0.0),
        0.5,
        Vec3::zeros(),
    );
    let i = hit(sweep_segment_pair(&a, &b, 1.0));
    assert!((i.time - 0.5).abs() < 1e-15);
    assert_eq!(i.feature, PairFeature::EndOfA(0));
    assert_eq!(i.normal, Vec3d::new(0.0, 1.0, 0.0));
    // Swapped roles: the capsule's cylinder reaches the sphere.
    let i = hit(sweep_segment_pair(&b, &a, 1.0));
    assert!((i.time - 0.5).abs() < 1e-15);
    assert_eq!(i.feature, PairFeature::EndOfB(0));
    assert_eq!(i.normal, Vec3d::new(0.0, -1.0, 0.0));
}

#[test]
fn crossed_capsules_meet_across_the_plane_of_their_axes() {
    // A along x at z = 3 falling; B along y at z = 0: the interiors meet
    // when the gap 3 - 1 = 2 m closes at 4 m per step: t = 0.5.
    let a = MovingSegment::capsule(
        Vec3::new(-2.0, 0.0, 3.0),
        Vec3::new(2.0, 0.0, 3.0),
        0.5,
        Vec3::new(0.0, 0.0, -4.0),
    );
    let b = MovingSegment::capsule(
        Vec3::new(0.0, -2.0, 0.0),
        Vec3::new(0.0, 2.0, 0.0),
        0.5,
        Vec3::zeros(),
    );
    let i = hit(sweep_segment_pair(&a, &b, 1.0));
    assert!((i.time - 0.5).abs() < 1e-15, "{i:?}");
    assert_eq!(i.feature, PairFeature::Interiors);
    assert_eq!(i.normal, Vec3d::new(0.0, 0.0, 1.0));
    assert!((i.point - Vec3d::new(0.0, 0.0, 0.5)).norm() < 1e-15);
}

#[test]
fn spheres_passing_at_exactly_the_summed_radius_do_not_collide() {
    let a = MovingSegment::sphere(Vec3::new(-5.0, 1.0, 0.0), 0.25, Vec3::new(10.0, 0.0, 0.0));
    let b = MovingSegment::sphere(Vec3::zeros(), 0.75, Vec3::zeros());
    assert_eq!(sweep_segment_pair(&a, &b, 1.0), SweepOutcome::Miss);
}

#[test]
fn overlapping_members_are_initially_touching() {
    let a = MovingSegment::sphere(Vec3::new(0.5, 0.0, 0.0), 0.5, Vec3::zeros());
    let b = MovingSegment::sphere(Vec3::zeros(), 0.5, Vec3::zeros());
    let o = sweep_segment_pair(&a, &b, 1.0);
    let SweepOutcome::InitiallyTouching(i) = o else {
        panic!("{o:?}")
    };
    assert_eq!(i.normal, Vec3d::new(1.0, 0.0, 0.0));
}
