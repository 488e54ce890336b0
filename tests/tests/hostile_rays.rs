//! Regression: `cast_ray` answered `None` for a zero or NaN direction, a NaN
//! origin and a negative maximum distance, so an invalid ray and a miss
//! looked the same; a ray from a far origin to a far body reported an
//! infinite distance. `try_cast_ray` (and every narrow ray function) now
//! refuses such input with a typed error naming the value and the rule,
//! `Ok(None)` is always a miss, and every hit it reports is finite.

use parapet_geometry::Shape;
use parapet_math::nalgebra::Isometry3;
use parapet_math::{Quat, Vec3};
use parapet_narrow::ray::{self as narrow, RayError as ShapeRayError};
use parapet_solver::RigidBody;
use parapet_world::{BodyId, PhysicsWorld, RayError};

const DOWN: Vec3 = Vec3::new(0.0, 0.0, -1.0);

/// A floor mesh at z = 0 and a unit sphere at z = 2.
fn world() -> (PhysicsWorld, BodyId, BodyId) {
    let mut w = PhysicsWorld::new();
    let v = vec![
        Vec3::new(-10.0, -10.0, 0.0),
        Vec3::new(10.0, -10.0, 0.0),
        Vec3::new(0.0, 10.0, 0.0),
    ];
    let floor = w
        .add_body(RigidBody::new_static(
            Shape::mesh(v, vec![[0, 1, 2]]).unwrap(),
        ))
        .unwrap();
    let ball = w
        .add_body(
            RigidBody::new_dynamic(Shape::sphere(1.0).unwrap(), 1.0)
                .unwrap()
                .with_position(Vec3::new(0.0, 0.0, 2.0)),
        )
        .unwrap();
    (w, floor, ball)
}

#[test]
fn an_invalid_ray_is_an_error_and_a_miss_is_ok_none() {
    let (w, _, _) = world();
    let o = Vec3::new(5.0, 0.0, 5.0);
    let cases: [(Vec3, Vec3, f32, &str); 7] = [
        (o, Vec3::zeros(), 10.0, "direction"),
        (o, Vec3::new(f32::NAN, 0.0, -1.0), 10.0, "direction"),
        (o, Vec3::new(0.0, f32::INFINITY, -1.0), 10.0, "direction"),
        (Vec3::new(f32::NAN, 0.0, 5.0), DOWN, 10.0, "origin"),
        (Vec3::new(0.0, f32::NEG_INFINITY, 5.0), DOWN, 10.0, "origin"),
        (o, DOWN, -1.0, "max_distance"),
        (o, DOWN, f32::NAN, "max_distance"),
    ];
    for (origin, direction, max, rule) in cases {
        let err = w.try_cast_ray(origin, direction, max).unwrap_err();
        let ok = match rule {
            "direction" => {
                matches!(err, RayError::InvalidDirection { direction: d, .. } if d.iter().zip(direction.iter()).all(|(a, b)| a.to_bits() == b.to_bits()))
            }
            "origin" => matches!(err, RayError::NonFiniteOrigin { .. }),
            _ => {
                matches!(err, RayError::InvalidMaxDistance { max_distance } if max_distance.to_bits() == max.to_bits())
            }
        };
        assert!(ok, "{origin:?} {direction:?} {max}: {err:?}");
        // The message names the quantity and the limit.
        let text = err.to_string();
        assert!(text.contains(rule) && text.contains("limit"), "{text}");
        // The Option form says None for it, as for a miss.
        assert_eq!(w.cast_ray(origin, direction, max), None);
    }
    // A true miss (upwards, from above everything) is Ok(None), and an
    // unbounded ray is valid.
    assert_eq!(w.try_cast_ray(o, -DOWN, 10.0), Ok(None));
    let far = w.try_cast_ray(o, DOWN, f32::INFINITY).unwrap().unwrap();
    assert_eq!(far.distance, 5.0);
}

#[test]
fn valid_rays_get_the_same_answer_from_both_forms() {
    let (w, floor, ball) = world();
    let mut bodies = Vec::new();
    for i in -4..=4 {
        for j in -4..=4 {
            let origin = Vec3::new(i as f32 * 0.3, j as f32 * 0.3, 5.0);
            let checked = w.try_cast_ray(origin, DOWN, 100.0).unwrap();
            assert_eq!(checked, w.cast_ray(origin, DOWN, 100.0));
            bodies.push(checked.unwrap().body);
        }
    }
    // Both bodies are hit by the fan (the sphere covers the middle).
    assert!(bodies.contains(&floor) && bodies.contains(&ball));
}

#[test]
fn a_body_whose_pose_is_not_finite_refuses_the_ray_naming_it() {
    // A NaN position set through body_mut (the next step would refuse it as
    // InvalidBody): the nearest hit cannot be promised while it is there.
    let (mut w, _, ball) = world();
    w.body_mut(ball)
        .unwrap()
        .set_position(Vec3::new(f32::NAN, 0.0, 2.0));
    let err = w
        .try_cast_ray(Vec3::new(5.0, 0.0, 5.0), DOWN, 10.0)
        .unwrap_err();
    assert!(
        matches!(err, RayError::Body { body, source: ShapeRayError::NonFinitePose { .. } } if body == ball),
        "{err:?}"
    );
    // Switching its collisions off takes it out of the rays: the floor is hit.
    w.body_mut(ball).unwrap().set_collides(false);
    let hit = w
        .try_cast_ray(Vec3::new(5.0, 0.0, 5.0), DOWN, 10.0)
        .unwrap()
        .unwrap();
    assert_eq!(hit.distance, 5.0);
}

#[test]
fn a_hit_farther_than_f32_can_hold_is_refused_not_reported_infinite() {
    // A unit sphere at x = 3e38 and a ray from x = -3e38 along +x: the hit
    // lies 6e38 m away, beyond f32::MAX (3.4e38).
    let mut w = PhysicsWorld::new();
    let far = w
        .add_body(
            RigidBody::new_static(Shape::sphere(1.0).unwrap())
                .with_position(Vec3::new(3e38, 0.0, 0.0)),
        )
        .unwrap();
    let err = w
        .try_cast_ray(Vec3::new(-3e38, 0.0, 0.0), Vec3::x(), f32::INFINITY)
        .unwrap_err();
    assert!(
        matches!(err, RayError::Body { body, source: ShapeRayError::NotRepresentable { quantity: "hit distance", value } } if body == far && value > f32::MAX as f64),
        "{err:?}"
    );
    // From nearer, the same sphere is hit at a finite distance.
    let hit = w
        .try_cast_ray(Vec3::new(2e38, 0.0, 0.0), Vec3::x(), f32::INFINITY)
        .unwrap()
        .unwrap();
    assert!(hit.distance.is_finite() && hit.point.iter().all(|c| c.is_finite()));
}

#[test]
fn the_narrow_ray_functions_refuse_what_they_cannot_answer() {
    let id = Isometry3::identity();
    let nan_pose = Isometry3::from_parts(Vec3::new(f32::NAN, 0.0, 0.0).into(), Quat::identity());
    let o = Vec3::new(0.0, 0.0, 5.0);
    let tri = [
        Vec3::new(-1.0, -1.0, 0.0),
        Vec3::new(1.0, -1.0, 0.0),
        Vec3::new(0.0, 1.0, 0.0),
    ];
    let zero = Vec3::zeros();
    // Each function: a zero direction, then a bad shape parameter.
    let results = [
        narrow::cast_sphere(zero, 1.0, o, zero, 10.0).map(|_| ()),
        narrow::cast_sphere(zero, -1.0, o, DOWN, 10.0).map(|_| ()),
        narrow::cast_sphere(Vec3::new(0.0, f32::NAN, 0.0), 1.0, o, DOWN, 10.0).map(|_| ()),
        narrow::cast_capsule(0.5, 0.5, &id, o, zero, 10.0).map(|_| ()),
        narrow::cast_capsule(0.5, f32::NAN, &id, o, DOWN, 10.0).map(|_| ()),
        narrow::cast_capsule(0.5, 0.5, &nan_pose, o, DOWN, 10.0).map(|_| ()),
        narrow::cast_cuboid(Vec3::repeat(0.5), &id, o, zero, 10.0).map(|_| ()),
        narrow::cast_cuboid(Vec3::new(0.5, -0.5, 0.5), &id, o, DOWN, 10.0).map(|_| ()),
        narrow::cast_triangle(&tri, o, zero, 10.0).map(|_| ()),
        narrow::cast_triangle(
            &[tri[0], tri[1], Vec3::repeat(f32::INFINITY)],
            o,
            DOWN,
            10.0,
        )
        .map(|_| ()),
        narrow::cast_triangle(&tri, Vec3::new(f32::NAN, 0.0, 0.0), DOWN, 10.0).map(|_| ()),
        narrow::cast_triangle(&tri, o, DOWN, -0.5).map(|_| ()),
    ];
    let expected = [
        "direction",
        "radius",
        "centre",
        "direction",
        "half height",
        "pose",
        "direction",
        "half extents",
        "direction",
        "triangle vertex",
        "origin",
        "max_distance",
    ];
    for (r, what) in results.iter().zip(expected) {
        let err = r.unwrap_err();
        let text = err.to_string();
        assert!(
            text.contains(what) && text.contains("limit"),
            "{what}: {text}"
        );
    }
    // And a valid ray that misses is Ok(None) for each.
    let up = -DOWN;
    assert_eq!(narrow::cast_sphere(zero, 1.0, o, up, 10.0), Ok(None));
    assert_eq!(narrow::cast_capsule(0.5, 0.5, &id, o, up, 10.0), Ok(None));
    assert_eq!(
        narrow::cast_cuboid(Vec3::repeat(0.5), &id, o, up, 10.0),
        Ok(None)
    );
    assert_eq!(narrow::cast_triangle(&tri, o, up, 10.0), Ok(None));
}
