//! The CARLA compatibility paths name the very same types as the facade (no
//! wrappers, no second solver): a body built through either path enters the
//! same world, a function written against one path accepts the other's
//! values, and `TypeId`s are equal (docs/physics.md "Modules": the
//! compatibility world exports the same mode type and constants).

use std::any::TypeId;

use parapet::prelude::*;
use parapet_carla_compat::physics;

/// Written against the facade; called below with compatibility values.
fn add_to_facade_world(
    world: &mut parapet::world::PhysicsWorld,
    body: parapet::body::RigidBody,
) -> parapet::body::BodyId {
    world.add_body(body).expect("a valid body enters the world")
}

#[test]
fn both_paths_name_identical_types() {
    macro_rules! same {
        ($($a:ty => $b:ty),* $(,)?) => {$(
            assert_eq!(TypeId::of::<$a>(), TypeId::of::<$b>(), "{} vs {}", stringify!($a), stringify!($b));
        )*};
    }
    same!(
        parapet::shape::Shape => physics::shape::Shape,
        parapet::shape::Material => physics::shape::Material,
        parapet::shape::MassProperties => physics::shape::MassProperties,
        parapet::shape::ShapeError => physics::shape::ShapeError,
        parapet::body::RigidBody => physics::body::RigidBody,
        parapet::body::BodyKind => physics::body::BodyKind,
        parapet::body::BodyId => physics::body::BodyId,
        parapet::body::BodyError => physics::body::BodyError,
        parapet::collide::ContactEvent => physics::collide::ContactEvent,
        parapet::collide::ContactKind => physics::collide::ContactKind,
        parapet::collide::RayHit => physics::collide::RayHit,
        parapet::collide::contact::Manifold => physics::collide::contact::Manifold,
        parapet::world::PhysicsWorld => physics::world::PhysicsWorld,
        parapet::world::StepError => physics::world::StepError,
        parapet::world::WorldError => physics::world::WorldError,
        parapet::world::CollisionDetection => physics::world::CollisionDetection,
        parapet::ccd::CollisionDetection => physics::world::CollisionDetection,
        parapet::ccd::UnknownCollisionDetection => physics::world::UnknownCollisionDetection,
    );
    assert_eq!(physics::world::DISCRETE, parapet::ccd::DISCRETE);
    assert_eq!(
        physics::world::SPHERE_MESH_CCD,
        parapet::ccd::SPHERE_MESH_CCD
    );
    assert_ne!(physics::world::DISCRETE, physics::world::SPHERE_MESH_CCD);
    assert_eq!(
        physics::quantities::units::DEFAULT_GRAVITY,
        parapet::quantities::units::DEFAULT_GRAVITY
    );
}

#[test]
fn bodies_from_either_path_enter_the_same_world_and_collide() {
    // The compat world in the compat mode constant, the tunnelling sphere
    // built through the compat path and a floor through the facade.
    let mut world = physics::world::PhysicsWorld::new();
    world.collision_detection = physics::world::SPHERE_MESH_CCD;
    let floor = parapet_scenes::tunneling::floor().unwrap();
    let floor_id: parapet::body::BodyId =
        add_to_facade_world(&mut world, RigidBody::new_static(floor));
    let ball =
        physics::body::RigidBody::new_dynamic(physics::shape::Shape::sphere(0.1).unwrap(), 1.0)
            .unwrap()
            .with_position(Vec3::new(0.0, 0.0, 0.15))
            .with_linear_velocity(Vec3::new(0.0, 0.0, -30.0));
    let ball_id: physics::body::BodyId = add_to_facade_world(&mut world, ball);
    world.step(0.01).unwrap();
    // Stopped on the floor by the one world's continuous stage: centre one
    // radius above the surface (1e-4 m covers f32 rounding of the impact).
    let z = world.body(ball_id).unwrap().position().z;
    assert!((z - 0.1).abs() < 1e-4, "z = {z}");
    let swept: Vec<&physics::collide::ContactEvent> = world
        .events()
        .iter()
        .filter(|e| e.kind == parapet::collide::ContactKind::Swept)
        .collect();
    assert_eq!(swept.len(), 1);
    let ids = [swept[0].body_a, swept[0].body_b];
    assert!(ids.contains(&floor_id) && ids.contains(&ball_id), "{ids:?}");
}

#[test]
fn the_compat_mode_type_converts_and_refuses_like_the_facade() {
    assert_eq!(
        physics::world::CollisionDetection::try_from(1u8),
        Ok(parapet::ccd::SPHERE_MESH_CCD)
    );
    assert!(physics::world::CollisionDetection::try_from(2u8).is_err());
}
