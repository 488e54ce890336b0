//! Collision groups and per-pair exclusions (docs/physics.md, "Filters and
//! sensors"): a pair that its groups or an exclusion filter out never
//! exchanges an impulse, so each of its bodies moves exactly as it would if
//! the other were not there; a pair that the rule accepts still touches.

use parapet::prelude::*;
use parapet_scenes::prng::SplitMix64;
use parapet_tests::state::body_bits;

const DT: f32 = 1.0 / 60.0;

fn cube(half: f32, at: Vec3) -> RigidBody {
    RigidBody::new_dynamic(Shape::cuboid(Vec3::new(half, half, half)).unwrap(), 1.0)
        .unwrap()
        .with_position(at)
}

fn floor() -> RigidBody {
    let v = vec![
        Vec3::new(-50.0, -50.0, 0.0),
        Vec3::new(50.0, -50.0, 0.0),
        Vec3::new(0.0, 50.0, 0.0),
    ];
    RigidBody::new_static(Shape::mesh(v, vec![[0, 1, 2]]).unwrap())
}

/// The events of the last step between `a` and `b`.
fn events_between(w: &PhysicsWorld, a: BodyId, b: BodyId) -> usize {
    w.events()
        .iter()
        .filter(|e| (e.body_a, e.body_b) == (a.min(b), a.max(b)))
        .count()
}

/// A chassis and a wheel placed overlapping, excluded as one machine:
/// neither pushes the other, each falls exactly as alone (bit for bit), and
/// restoring the pair makes them touch again.
#[test]
fn an_excluded_pair_moves_as_if_alone_and_touches_once_restored() {
    let mut world = PhysicsWorld::new();
    world.gravity = Vec3::zeros();
    let chassis = world.add_body(cube(1.0, Vec3::new(0.0, 0.0, 5.0))).unwrap();
    let wheel = world.add_body(cube(0.4, Vec3::new(1.2, 0.0, 5.0))).unwrap();
    world.ignore_pair(chassis, wheel).unwrap();
    let mut alone = PhysicsWorld::new();
    alone.gravity = Vec3::zeros();
    let only = alone.add_body(cube(1.0, Vec3::new(0.0, 0.0, 5.0))).unwrap();
    for _ in 0..30 {
        world.step(DT).unwrap();
        alone.step(DT).unwrap();
        assert_eq!(events_between(&world, chassis, wheel), 0);
        assert_eq!(
            body_bits(world.body(chassis).unwrap()),
            body_bits(alone.body(only).unwrap())
        );
    }
    world.restore_pair(chassis, wheel).unwrap();
    world.step(DT).unwrap();
    assert!(
        events_between(&world, chassis, wheel) > 0,
        "{:?}",
        world.events()
    );
}

/// Random piles of cubes and spheres with random groups on a floor, both
/// with and without excluded pairs: no event ever names a pair that the
/// groups rule or an exclusion filters out, in DISCRETE.
#[test]
fn a_filtered_pair_never_exchanges_an_impulse_in_random_piles() {
    let mut rng = SplitMix64::new(0x6f72_6f75_7073);
    let masks = [0b01u32, 0b10, 0b11];
    let mut accepted_pair_events = 0usize;
    for case in 0..40 {
        let mut world = PhysicsWorld::new();
        let ground = world.add_body(floor()).unwrap();
        let mut ids = vec![ground];
        for k in 0..8 {
            let at = Vec3::new(
                rng.range_f32(-0.6, 0.6),
                rng.range_f32(-0.6, 0.6),
                0.6 + 0.45 * k as f32,
            );
            let body = if rng.next_u64().is_multiple_of(2) {
                cube(0.25, at)
            } else {
                RigidBody::new_dynamic(Shape::sphere(0.25).unwrap(), 1.0)
                    .unwrap()
                    .with_position(at)
            };
            let memberships = masks[(rng.next_u64() % 3) as usize];
            let filter = masks[(rng.next_u64() % 3) as usize];
            let id = world
                .add_body(body.with_collision_groups(CollisionGroups::new(memberships, filter)))
                .unwrap();
            ids.push(id);
        }
        if case % 2 == 1 {
            for _ in 0..3 {
                let a = ids[1 + (rng.next_u64() % 8) as usize];
                let b = ids[1 + (rng.next_u64() % 8) as usize];
                if a != b {
                    world.ignore_pair(a, b).unwrap();
                }
            }
        }
        for step in 0..90 {
            world.step(DT).unwrap();
            for e in world.events() {
                let (a, b) = (world.body(e.body_a).unwrap(), world.body(e.body_b).unwrap());
                assert!(
                    a.collision_groups().interacts_with(b.collision_groups())
                        && !world.is_pair_ignored(e.body_a, e.body_b),
                    "case {case} step {step}: {e:?}"
                );
                accepted_pair_events += usize::from(e.body_a != ground);
            }
        }
    }
    // The piles do touch where the groups accept each other: the test
    // watched real contacts, not an empty event list.
    assert!(accepted_pair_events > 100, "{accepted_pair_events}");
}

/// A body whose groups accept nothing falls through the floor as if the
/// floor were not there (a body with collisions off does the same), while
/// one that accepts the floor's group rests on it.
#[test]
fn groups_decide_against_meshes_too() {
    let mut world = PhysicsWorld::new();
    world
        .add_body(floor().with_collision_groups(CollisionGroups::new(0b100, !0)))
        .unwrap();
    let ghost = world
        .add_body(
            cube(0.25, Vec3::new(0.0, 0.0, 0.5))
                .with_collision_groups(CollisionGroups::new(0b1, 0b1)),
        )
        .unwrap();
    let solid = world
        .add_body(
            cube(0.25, Vec3::new(3.0, 0.0, 0.5))
                .with_collision_groups(CollisionGroups::new(0b1, 0b101)),
        )
        .unwrap();
    for _ in 0..120 {
        world.step(DT).unwrap();
    }
    assert!(world.body(ghost).unwrap().position().z < -5.0);
    let z = world.body(solid).unwrap().position().z;
    assert!((z - 0.25).abs() < 0.02, "resting cube at z = {z}");
}
