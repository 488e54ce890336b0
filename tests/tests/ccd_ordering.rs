//! Ordering in SPHERE_MESH_CCD (docs/continuous-collision.md "Ordering,
//! limits and rollback"):
//! triangle ties keep triangle insertion order, swept events are stably
//! sorted by time whatever the body order, initial discrete reports come
//! before swept reports, and contact_count counts both.

mod ccd_support;

use ccd_support::{mat, mesh};
use parapet_geometry::Shape;
use parapet_math::Vec3;
use parapet_solver::RigidBody;
use parapet_world::{ContactKind, PhysicsWorld, SPHERE_MESH_CCD};

fn half_floor(left: bool) -> RigidBody {
    // Two triangles sharing the edge x = 0, each its own mesh body.
    let v = if left {
        vec![
            Vec3::new(-2.0, -2.0, 0.0),
            Vec3::new(0.0, -2.0, 0.0),
            Vec3::new(0.0, 2.0, 0.0),
        ]
    } else {
        vec![
            Vec3::new(0.0, -2.0, 0.0),
            Vec3::new(2.0, -2.0, 0.0),
            Vec3::new(0.0, 2.0, 0.0),
        ]
    };
    mesh(v, vec![[0, 1, 2]], mat(0.5, 0.0, 0.5))
}

#[test]
fn a_tie_between_two_triangles_goes_to_the_one_inserted_first() {
    for left_first in [true, false] {
        let mut w = PhysicsWorld::new();
        w.collision_detection = SPHERE_MESH_CCD;
        w.gravity = Vec3::zeros();
        let a = w.add_body(half_floor(left_first)).unwrap();
        let b = w.add_body(half_floor(!left_first)).unwrap();
        // Falling onto the shared edge: both faces are reached at once.
        let ball = w
            .add_body(
                RigidBody::new_dynamic(Shape::sphere(0.1).unwrap(), 1.0)
                    .unwrap()
                    .with_position(Vec3::new(0.0, 0.0, 0.5))
                    .with_linear_velocity(Vec3::new(0.0, 0.0, -80.0)),
            )
            .unwrap();
        w.step(0.01).unwrap();
        let swept: Vec<_> = w
            .events()
            .iter()
            .filter(|e| e.kind == ContactKind::Swept)
            .collect();
        assert_eq!(swept.len(), 1, "{:?}", w.events());
        assert_eq!((swept[0].body_a, swept[0].body_b), (a, ball));
        assert_ne!(swept[0].body_a, b);
        assert_eq!(w.body(ball).unwrap().position().z, 0.1);
    }
}

#[test]
fn swept_events_are_sorted_by_time_after_initial_reports() {
    let mut w = PhysicsWorld::new();
    w.collision_detection = SPHERE_MESH_CCD;
    w.gravity = Vec3::zeros();
    w.add_body(mesh(
        vec![
            Vec3::new(-20.0, -20.0, 0.0),
            Vec3::new(20.0, -20.0, 0.0),
            Vec3::new(0.0, 20.0, 0.0),
        ],
        vec![[0, 1, 2]],
        mat(0.5, 0.0, 0.5),
    ))
    .unwrap();
    // Inserted first, hits late (t = 0.8); then one hitting early (t = 0.2);
    // then one resting on the floor (an initial discrete contact).
    let late = w
        .add_body(
            RigidBody::new_dynamic(Shape::sphere(0.1).unwrap(), 1.0)
                .unwrap()
                .with_position(Vec3::new(-5.0, 0.0, 0.1 + 0.4))
                .with_linear_velocity(Vec3::new(0.0, 0.0, -50.0)),
        )
        .unwrap();
    let early = w
        .add_body(
            RigidBody::new_dynamic(Shape::sphere(0.1).unwrap(), 1.0)
                .unwrap()
                .with_position(Vec3::new(5.0, 0.0, 0.1 + 0.1))
                .with_linear_velocity(Vec3::new(0.0, 0.0, -50.0)),
        )
        .unwrap();
    let resting = w
        .add_body(
            RigidBody::new_dynamic(Shape::sphere(0.1).unwrap(), 1.0)
                .unwrap()
                .with_position(Vec3::new(0.0, 5.0, 0.099)),
        )
        .unwrap();
    w.step(0.01).unwrap();
    let ev = w.events();
    assert_eq!(ev.len(), 3, "{ev:?}");
    assert_eq!((ev[0].kind, ev[0].body_b), (ContactKind::Initial, resting));
    assert_eq!((ev[1].kind, ev[1].body_b), (ContactKind::Swept, early));
    assert_eq!((ev[2].kind, ev[2].body_b), (ContactKind::Swept, late));
    assert!((ev[1].time - 0.2).abs() < 1e-5 && (ev[2].time - 0.8).abs() < 1e-5);
    assert_eq!(w.contact_count(), 3);
}
