//! The facade's prelude and modules carry exactly the names of the public API
//! (the prelude's types and the facade's modules, as the crate docs of
//! `parapet` list them), with the documented defaults; this file compiles only if
//! every name is there.

use parapet::prelude::*;

#[test]
fn the_prelude_names_every_type_of_the_contract() {
    // Each line names a prelude item; a missing one fails to compile.
    let _: Option<(Vec3, Mat3, Quat)> = None;
    let _: Option<(Shape, Material, MassProperties, RigidBody, BodyKind, BodyId)> = None;
    let _: Option<(
        PhysicsWorld,
        CollisionDetection,
        ContactEvent,
        ContactKind,
        RayHit,
    )> = None;
    let _: Option<(StepError, ShapeError, BodyError, WorldError)> = None;
    let _: Option<(CcdMode, CcdReport, BodyCcdStats, CcdRefusal)> = None;
    let _: Option<(CollisionGroups, SensorEvent, SensorEventKind, WorldEvent)> = None;
    assert_eq!(CcdMode::default(), CcdMode::Inherit);
    assert_eq!(DISCRETE, CollisionDetection::default());
    assert_ne!(DISCRETE, SPHERE_MESH_CCD);
}

#[test]
fn a_new_world_has_the_documented_defaults() {
    let world = PhysicsWorld::new();
    assert_eq!(world.gravity, Vec3::new(0.0, 0.0, -9.8));
    assert_eq!(world.collision_detection, DISCRETE);
    assert_eq!(world.ccd_max_impacts, 64);
    assert_eq!(world.ccd_max_substeps, 256);
    assert_eq!(parapet::world::DEFAULT_CCD_MAX_IMPACTS, 64);
    assert_eq!(parapet::world::CCD_MAX_IMPACTS_LIMIT, 1..=1024);
    assert_eq!(parapet::world::CCD_MAX_SUBSTEPS_LIMIT, 1..=65536);
    let m = Material::default();
    assert_eq!(
        (m.friction, m.restitution, m.bounce_threshold),
        (0.5, 0.0, 0.5)
    );
}

#[test]
fn the_math_module_re_exports_nalgebra() {
    let q: parapet::math::nalgebra::UnitQuaternion<f32> = Quat::identity();
    assert_eq!(q, Quat::identity());
}

#[test]
fn collide_reaches_the_time_of_impact_without_a_world() {
    use parapet::collide::{time_of_impact, Motion, ToiOptions, TOI_DISTANCE_TOLERANCE};
    let floor = Shape::mesh(
        vec![
            Vec3::new(-10.0, -10.0, 0.0),
            Vec3::new(10.0, -10.0, 0.0),
            Vec3::new(0.0, 10.0, 0.0),
        ],
        vec![[0, 1, 2]],
    )
    .unwrap();
    let ball = Shape::sphere(0.1).unwrap();
    // The tunnelling sphere: centre 0.15 m, radius 0.1 m, falling at 30 m/s:
    // it touches when the centre is at 0.1 m, after 0.05 / 30 s.
    let falling = Motion::linear(
        Vec3::new(0.0, 0.0, 0.15),
        Quat::identity(),
        Vec3::new(0.0, 0.0, -30.0),
    );
    let still = Motion::fixed(Vec3::zeros(), Quat::identity());
    let toi = time_of_impact(&ball, &falling, &floor, &still, &ToiOptions::new(0.01))
        .unwrap()
        .expect("the sphere reaches the floor in the step");
    let exact = 0.05 / 30.0;
    // Never late; early by at most the distance tolerance at 30 m/s (plus
    // f32 rounding of the inputs, ~1e-8 relative).
    assert!(toi.time <= exact + 1e-8, "{toi:?}");
    assert!(
        toi.time >= exact - TOI_DISTANCE_TOLERANCE / 30.0 - 1e-8,
        "{toi:?}"
    );
    assert!(
        toi.normal.z < -0.999,
        "from the sphere towards the floor: {toi:?}"
    );
}
