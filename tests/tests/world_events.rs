//! Contact events and world-level behaviour: equal and opposite normal
//! impulses that account for the momentum change, (body_a, body_b) order by
//! insertion, disabled collisions, kinematic bodies as infinite masses,
//! removal that reclaims a mesh and its index entries, and bitwise
//! determinism of repeated runs.

mod world_support;

use parapet_geometry::{Material, Shape};
use parapet_math::{Quat, Vec3};
use parapet_solver::RigidBody;
use parapet_tests::meshes::terrain;
use parapet_world::{ContactKind, PhysicsWorld};
use world_support::{capture, floor, material};

fn ball(r: f32, p: Vec3, v: Vec3, m: Material) -> RigidBody {
    RigidBody::new_dynamic(Shape::sphere(r).unwrap(), 1.0)
        .unwrap()
        .with_position(p)
        .with_linear_velocity(v)
        .with_material(m)
}

#[test]
fn normal_impulses_are_equal_and_opposite_and_account_for_momentum() {
    let m = Material::new(0.0, 0.5, 0.5).unwrap();
    let mut w = PhysicsWorld::new();
    w.gravity = Vec3::zeros();
    // 5 mm apart, closing at 2 m/s: a speculative contact that takes an impulse.
    let a = w
        .add_body(ball(0.5, Vec3::zeros(), Vec3::new(1.0, 0.1, 0.0), m))
        .unwrap();
    let b = w
        .add_body(ball(
            0.5,
            Vec3::new(1.005, 0.0, 0.0),
            Vec3::new(-1.0, 0.0, 0.0),
            m,
        ))
        .unwrap();
    let (pa, pb) = (
        w.body(a).unwrap().linear_velocity(),
        w.body(b).unwrap().linear_velocity(),
    );
    w.step(0.01).unwrap();
    assert_eq!(w.events().len(), 1);
    let e = w.events()[0];
    assert_eq!(
        (e.body_a, e.body_b, e.kind, e.time),
        (a, b, ContactKind::Initial, 0.0)
    );
    assert!((e.normal - Vec3::x()).norm() < 1e-6);
    // Unit masses: B's momentum change is the event's impulse, A's its negative
    // (f32 velocities of order 1: 1e-6 covers their rounding).
    let db = w.body(b).unwrap().linear_velocity() - pb;
    let da = w.body(a).unwrap().linear_velocity() - pa;
    assert!(
        (db - e.normal_impulse).norm() < 1e-6,
        "{db} vs {}",
        e.normal_impulse
    );
    assert!((da + e.normal_impulse).norm() < 1e-6);
    // Restitution 0.5 on a 2 m/s closing speed: they separate at 1 m/s.
    let separation =
        (w.body(b).unwrap().linear_velocity() - w.body(a).unwrap().linear_velocity()).x;
    assert!((separation - 1.0).abs() < 1e-5, "{separation}");
    assert_eq!(w.contact_count(), 1);
}

#[test]
fn body_a_is_the_body_added_first() {
    let dt = 1.0 / 60.0;
    for floor_first in [true, false] {
        let mut w = PhysicsWorld::new();
        let sphere = ball(
            0.5,
            Vec3::new(1.0, 2.0, 0.5),
            Vec3::zeros(),
            Material::default(),
        );
        let (ground, s) = if floor_first {
            let g = w.add_body(floor(10.0, 0.0, material(0.5, 0.0))).unwrap();
            (g, w.add_body(sphere).unwrap())
        } else {
            let s = w.add_body(sphere).unwrap();
            (w.add_body(floor(10.0, 0.0, material(0.5, 0.0))).unwrap(), s)
        };
        for _ in 0..30 {
            w.step(dt).unwrap();
        }
        assert_eq!(w.events().len(), 1);
        let e = w.events()[0];
        // The impulse on the sphere holds its weight: m g dt upwards, to the
        // solver's convergence (1e-6 N s of 0.163).
        let on_sphere = if floor_first {
            assert_eq!((e.body_a, e.body_b), (ground, s));
            e.normal_impulse
        } else {
            assert_eq!((e.body_a, e.body_b), (s, ground));
            -e.normal_impulse
        };
        assert!(
            (on_sphere - Vec3::new(0.0, 0.0, 9.8 * dt)).norm() < 1e-6,
            "{on_sphere}"
        );
        assert!((e.normal.dot(&e.normal_impulse) - e.normal_impulse.norm()).abs() < 1e-6);
    }
}

#[test]
fn events_are_sorted_by_insertion_order_of_their_bodies() {
    let mut w = PhysicsWorld::new();
    w.add_body(floor(10.0, 0.0, material(0.5, 0.0))).unwrap();
    for i in 0..6 {
        let p = Vec3::new(-3.0 + i as f32, 0.0, 0.3 + 0.6 * (i % 2) as f32);
        w.add_body(ball(0.3, p, Vec3::zeros(), Material::default()))
            .unwrap();
    }
    // A box bridging two spheres adds sphere-box pairs.
    w.add_body(
        RigidBody::new_dynamic(Shape::cuboid(Vec3::new(0.8, 0.3, 0.1)).unwrap(), 1.0)
            .unwrap()
            .with_position(Vec3::new(-2.5, 0.0, 0.71)),
    )
    .unwrap();
    // The resting contacts are what is sorted: the bodies stay awake.
    w.sleeping = false;
    for _ in 0..60 {
        w.step(1.0 / 60.0).unwrap();
    }
    let events = w.events();
    assert!(events.len() >= 7);
    for e in events {
        assert!(e.body_a < e.body_b);
        assert!((e.normal.norm() - 1.0).abs() < 1e-6);
    }
    assert!(events
        .windows(2)
        .all(|p| (p[0].body_a, p[0].body_b) <= (p[1].body_a, p[1].body_b)));
    assert_eq!(w.contact_count(), events.len());
}

#[test]
fn disabled_bodies_fall_through_and_still_integrate() {
    let mut w = PhysicsWorld::new();
    w.add_body(floor(10.0, 0.0, material(0.5, 0.0))).unwrap();
    let parked = w
        .add_body(ball(
            0.5,
            Vec3::new(0.0, 0.0, 0.5),
            Vec3::zeros(),
            Material::default(),
        ))
        .unwrap();
    let twin = w
        .add_body(ball(
            0.5,
            Vec3::new(0.0, 0.0, 0.5),
            Vec3::zeros(),
            Material::default(),
        ))
        .unwrap();
    w.body_mut(parked).unwrap().set_collides(false);
    w.body_mut(twin).unwrap().set_collides(false);
    w.step(0.1).unwrap();
    // Free fall for one step: z = 0.5 - g dt^2 (semi-implicit Euler).
    let z = w.body(parked).unwrap().position().z;
    assert!((z - (0.5 - 9.8 * 0.01)).abs() < 1e-6, "{z}");
    assert_eq!(w.contact_count(), 0);
    w.body_mut(parked).unwrap().set_collides(true);
    w.body_mut(parked)
        .unwrap()
        .set_position(Vec3::new(0.0, 0.0, 0.5));
    w.body_mut(parked)
        .unwrap()
        .set_linear_velocity(Vec3::zeros());
    w.step(0.01).unwrap();
    assert!(w.contact_count() > 0);
}

#[test]
fn a_kinematic_body_pushes_with_infinite_mass() {
    let mut w = PhysicsWorld::new();
    w.gravity = Vec3::zeros();
    let pusher = RigidBody::new_kinematic(Shape::cuboid(Vec3::new(0.5, 0.5, 0.5)).unwrap())
        .with_linear_velocity(Vec3::new(2.0, 0.0, 0.0));
    let k = w.add_body(pusher).unwrap();
    let s = w
        .add_body(ball(
            0.5,
            Vec3::new(1.01, 0.0, 0.0),
            Vec3::zeros(),
            Material::new(0.0, 0.0, 0.5).unwrap(),
        ))
        .unwrap();
    for _ in 0..10 {
        w.step(0.01).unwrap();
    }
    assert_eq!(
        w.body(k).unwrap().linear_velocity(),
        Vec3::new(2.0, 0.0, 0.0)
    );
    let x = w.body(k).unwrap().position().x;
    assert!((x - 0.2).abs() < 1e-6);
    // Plastic push: the sphere moves with the pusher.
    assert!((w.body(s).unwrap().linear_velocity().x - 2.0).abs() < 1e-4);
}

#[test]
fn removing_a_mesh_reclaims_it_and_its_index_entries() {
    let mut w = PhysicsWorld::new();
    let ground = w.add_body(floor(10.0, 0.0, material(0.5, 0.0))).unwrap();
    let s = w
        .add_body(ball(
            0.5,
            Vec3::new(0.0, 0.0, 0.5),
            Vec3::zeros(),
            Material::default(),
        ))
        .unwrap();
    w.step(0.01).unwrap();
    assert!(w.contact_count() > 0);
    let removed = w.remove_body(ground).unwrap();
    assert!(!removed.shape().is_solid());
    assert_eq!(w.body_count(), 1);
    assert!(w
        .cast_ray(Vec3::new(3.0, 3.0, 5.0), Vec3::new(0.0, 0.0, -1.0), 100.0)
        .is_none());
    w.step(0.01).unwrap();
    assert_eq!(w.contact_count(), 0);
    assert!(w.body(s).unwrap().linear_velocity().z < 0.0);
    // A new floor takes the slot, not the identity.
    let again = w.add_body(floor(10.0, -1.0, material(0.5, 0.0))).unwrap();
    assert_eq!(again.index(), ground.index());
    assert_ne!(again, ground);
    assert!(w.body(ground).is_none());
    assert_eq!(
        w.cast_ray(Vec3::new(3.0, 3.0, 5.0), Vec3::new(0.0, 0.0, -1.0), 100.0)
            .unwrap()
            .body,
        again
    );
}

fn pile() -> PhysicsWorld {
    let t = terrain(12, 12, 5);
    let mut w = PhysicsWorld::new();
    w.add_body(RigidBody::new_static(
        Shape::mesh(t.vertices, t.indices).unwrap(),
    ))
    .unwrap();
    let shapes = [
        Shape::sphere(0.3).unwrap(),
        Shape::capsule(0.2, 0.3).unwrap(),
        Shape::cuboid(Vec3::new(0.3, 0.2, 0.25)).unwrap(),
    ];
    for i in 0..12 {
        let p = Vec3::new(
            2.0 + (i % 4) as f32 * 2.3,
            2.0 + (i / 4) as f32 * 2.9,
            5.0 + i as f32 * 0.4,
        );
        let b = RigidBody::new_dynamic(shapes[i % 3].clone(), 1.0 + i as f32 * 0.1)
            .unwrap()
            .with_position(p)
            .with_rotation(Quat::from_euler_angles(0.3 * i as f32, 0.2, 0.1))
            .with_angular_velocity(Vec3::new(0.5, -0.2, 1.0))
            .with_material(Material::new(0.4, 0.3, 0.5).unwrap());
        w.add_body(b).unwrap();
    }
    w
}

#[test]
fn repeated_runs_are_bitwise_identical() {
    let mut a = pile();
    let mut b = pile();
    for _ in 0..120 {
        a.step(1.0 / 60.0).unwrap();
        b.step(1.0 / 60.0).unwrap();
    }
    assert!(a.contact_count() > 0);
    // The pile landed on the terrain (heights within +-2.7 m) and stayed above it.
    for (_, body) in a.bodies().skip(1) {
        assert!(
            body.position().z > -3.0,
            "fell through at {}",
            body.position()
        );
    }
    assert_eq!(capture(&a), capture(&b));
    // A clone taken mid-run continues identically too.
    let mut c = a.clone();
    for _ in 0..30 {
        a.step(1.0 / 60.0).unwrap();
        c.step(1.0 / 60.0).unwrap();
    }
    assert_eq!(capture(&a), capture(&c));
}
