//! World ray casts: the nearest surface with its outward (or front) normal,
//! ties by body insertion order, one-sided meshes, disabled bodies skipped,
//! the immutable mesh snapshot, and the same answers through the mesh index
//! and through the linear scan used while the index is dirty.

mod world_support;

use parapet_geometry::Shape;
use parapet_math::Vec3;
use parapet_solver::RigidBody;
use parapet_tests::meshes::terrain;
use parapet_world::PhysicsWorld;
use world_support::{floor, material};

const DOWN: Vec3 = Vec3::new(0.0, 0.0, -1.0);

fn sphere_at(p: Vec3, r: f32) -> RigidBody {
    RigidBody::new_static(Shape::sphere(r).unwrap()).with_position(p)
}

/// Distances here come from f64 intersections of f32 inputs rounded once:
/// 1e-6 m covers that rounding at these magnitudes (a few metres).
const EPS: f32 = 1e-6;

#[test]
fn the_nearest_surface_is_hit_with_its_normal() {
    let mut w = PhysicsWorld::new();
    let ground = w.add_body(floor(10.0, 0.0, material(0.5, 0.0))).unwrap();
    let ball = w
        .add_body(sphere_at(Vec3::new(1.0, 0.0, 2.0), 0.5))
        .unwrap();
    let crate_ = w
        .add_body(
            RigidBody::new_static(Shape::cuboid(Vec3::new(0.5, 0.5, 0.5)).unwrap())
                .with_position(Vec3::new(-2.0, 0.0, 0.5)),
        )
        .unwrap();

    let hit = w.cast_ray(Vec3::new(1.0, 0.0, 5.0), DOWN, 100.0).unwrap();
    assert_eq!(hit.body, ball);
    assert!((hit.distance - 2.5).abs() < EPS);
    assert!((hit.normal - Vec3::z()).norm() < EPS);

    let hit = w.cast_ray(Vec3::new(-2.0, 0.2, 5.0), DOWN, 100.0).unwrap();
    assert_eq!(hit.body, crate_);
    assert!((hit.distance - 4.0).abs() < EPS);
    assert!((hit.normal - Vec3::z()).norm() < EPS);

    let hit = w.cast_ray(Vec3::new(4.0, 3.0, 5.0), DOWN, 100.0).unwrap();
    assert_eq!(hit.body, ground);
    assert!((hit.distance - 5.0).abs() < EPS);
    assert!((hit.point - Vec3::new(4.0, 3.0, 0.0)).norm() < EPS);
    assert_eq!(hit.normal, Vec3::z());

    // Sideways into the sphere: the outward normal faces the ray.
    let hit = w
        .cast_ray(Vec3::new(5.0, 0.0, 2.0), Vec3::new(-2.0, 0.0, 0.0), 100.0)
        .unwrap();
    assert_eq!(hit.body, ball);
    assert!((hit.distance - 3.5).abs() < EPS);
    assert!((hit.normal - Vec3::x()).norm() < EPS);

    // Too short, and from below the one-sided floor: nothing.
    assert!(w.cast_ray(Vec3::new(4.0, 3.0, 5.0), DOWN, 4.9).is_none());
    assert!(w
        .cast_ray(Vec3::new(4.0, 3.0, -1.0), -DOWN, 100.0)
        .is_none());
    // Rays without meaning hit nothing.
    assert!(w
        .cast_ray(Vec3::new(4.0, 3.0, 5.0), Vec3::zeros(), 100.0)
        .is_none());
    assert!(w
        .cast_ray(Vec3::new(f32::NAN, 3.0, 5.0), DOWN, 100.0)
        .is_none());
}

#[test]
fn equal_distances_go_to_the_body_added_first() {
    // A box whose top face is the floor's plane: both hit at distance 5.
    let top_at_zero = || {
        RigidBody::new_static(Shape::cuboid(Vec3::new(1.0, 1.0, 0.5)).unwrap())
            .with_position(Vec3::new(0.0, 0.0, -0.5))
    };
    for floor_first in [true, false] {
        let mut w = PhysicsWorld::new();
        let (a, b) = if floor_first {
            let f = w.add_body(floor(10.0, 0.0, material(0.5, 0.0))).unwrap();
            (f, w.add_body(top_at_zero()).unwrap())
        } else {
            let c = w.add_body(top_at_zero()).unwrap();
            (c, w.add_body(floor(10.0, 0.0, material(0.5, 0.0))).unwrap())
        };
        for stepped in [false, true] {
            if stepped {
                // After a step the mesh goes through the index, not the scan.
                w.step(0.01).unwrap();
            }
            let hit = w.cast_ray(Vec3::new(0.2, 0.3, 5.0), DOWN, 100.0).unwrap();
            assert_eq!(hit.distance, 5.0);
            assert_eq!(
                hit.body, a,
                "floor first: {floor_first}, stepped: {stepped}"
            );
            assert_ne!(hit.body, b);
        }
    }
    // Two coincident meshes: the first one wins, before and after indexing.
    let mut w = PhysicsWorld::new();
    let first = w.add_body(floor(10.0, 0.0, material(0.5, 0.0))).unwrap();
    w.add_body(floor(10.0, 0.0, material(0.5, 0.0))).unwrap();
    assert_eq!(
        w.cast_ray(Vec3::new(1.0, -2.0, 3.0), DOWN, 10.0)
            .unwrap()
            .body,
        first
    );
    w.step(0.01).unwrap();
    assert_eq!(
        w.cast_ray(Vec3::new(1.0, -2.0, 3.0), DOWN, 10.0)
            .unwrap()
            .body,
        first
    );
}

#[test]
fn disabled_bodies_are_not_hit() {
    let mut w = PhysicsWorld::new();
    let ground = w.add_body(floor(10.0, 0.0, material(0.5, 0.0))).unwrap();
    let ball = w
        .add_body(sphere_at(Vec3::new(0.0, 0.0, 2.0), 0.5))
        .unwrap();
    w.body_mut(ball).unwrap().set_collides(false);
    assert_eq!(
        w.cast_ray(Vec3::new(0.0, 0.0, 5.0), DOWN, 100.0)
            .unwrap()
            .body,
        ground
    );
    w.body_mut(ground).unwrap().set_collides(false);
    assert!(w.cast_ray(Vec3::new(0.0, 0.0, 5.0), DOWN, 100.0).is_none());
    w.step(0.01).unwrap();
    assert!(w.cast_ray(Vec3::new(0.0, 0.0, 5.0), DOWN, 100.0).is_none());
}

#[test]
fn the_mesh_snapshot_ignores_later_edits_of_the_body() {
    let mut w = PhysicsWorld::new();
    let ground = w
        .add_body(floor(10.0, 0.0, material(0.5, 0.0)).with_position(Vec3::new(0.0, 0.0, 1.0)))
        .unwrap();
    w.body_mut(ground)
        .unwrap()
        .set_position(Vec3::new(0.0, 0.0, 3.0));
    w.step(0.01).unwrap();
    let hit = w.cast_ray(Vec3::new(0.5, 0.5, 5.0), DOWN, 100.0).unwrap();
    // The floor was captured at z = 1, where it stays.
    assert!((hit.distance - 4.0).abs() < EPS);
    assert_eq!(w.mesh_snapshot(ground).unwrap()[0][0].z, 1.0);
}

#[test]
fn the_index_and_the_scan_give_the_same_hits_on_a_terrain() {
    let t = terrain(16, 16, 11);
    let mut w = PhysicsWorld::new();
    w.add_body(RigidBody::new_static(
        Shape::mesh(t.vertices.clone(), t.indices.clone()).unwrap(),
    ))
    .unwrap();
    w.add_body(sphere_at(Vec3::new(8.0, 8.0, 4.0), 1.0))
        .unwrap();
    let rays: Vec<(Vec3, Vec3)> = (0..400)
        .map(|k| {
            let (i, j) = ((k % 20) as f32, (k / 20) as f32);
            (
                Vec3::new(0.8 * i, 0.8 * j, 10.0),
                Vec3::new(0.3 - 0.03 * i, 0.02 * j - 0.2, -1.0),
            )
        })
        .collect();
    let cast = |w: &PhysicsWorld| -> Vec<_> {
        rays.iter().map(|(o, d)| w.cast_ray(*o, *d, 50.0)).collect()
    };
    let scanned = cast(&w);
    w.step(0.01).unwrap();
    let indexed = cast(&w);
    assert_eq!(scanned, indexed);
    assert!(indexed.iter().filter(|h| h.is_some()).count() > 300);
    // Brute force over the terrain's triangles alone (no sphere), straight from
    // the definition: the smallest ray parameter of a front-face hit.
    for ((o, d), hit) in rays.iter().zip(&indexed) {
        let d = d.normalize();
        let mut best = f32::INFINITY;
        for tri in t.triangles() {
            let [a, b, c] = tri.map(|v| v.cast::<f64>());
            let (o, d) = (o.cast::<f64>(), d.cast::<f64>());
            let n = (b - a).cross(&(c - a));
            let rate = n.dot(&d);
            if rate >= 0.0 {
                continue;
            }
            let s = n.dot(&(a - o)) / rate;
            let p = o + d * s;
            let inside = [(a, b), (b, c), (c, a)]
                .iter()
                .all(|(u, v)| (v - u).cross(&(p - u)).dot(&n) >= 0.0);
            if inside && (0.0..=50.0).contains(&s) {
                best = best.min(s as f32);
            }
        }
        if let Some(h) = hit {
            // A sphere hit may be nearer than the terrain; a terrain hit is
            // the brute-force one to rounding (1e-5 m at 10 m).
            assert!(h.distance <= best + 1e-5);
        } else {
            assert!(best.is_infinite());
        }
    }
}
