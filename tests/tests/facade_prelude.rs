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
    assert_eq!(world.ccd_max_impacts, 16);
    assert_eq!(world.ccd_max_substeps, 256);
    assert_eq!(parapet::world::DEFAULT_CCD_MAX_IMPACTS, 16);
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
fn collide_reaches_the_narrow_phase_without_a_world() {
    use parapet::collide::sweep::{sweep_sphere_triangle, SweepOutcome};
    let tri = [
        Vec3::new(-10.0, -10.0, 0.0),
        Vec3::new(10.0, -10.0, 0.0),
        Vec3::new(0.0, 10.0, 0.0),
    ];
    // The tunnelling sphere: centre 0.15 m, radius 0.1 m, -0.3 m in the step:
    // touches when the centre is at 0.1 m, a sixth of the way (0.05 / 0.3).
    let outcome = sweep_sphere_triangle(
        Vec3::new(0.0, 0.0, 0.15),
        0.1,
        Vec3::new(0.0, 0.0, -30.0),
        0.01,
        &tri,
    );
    match outcome {
        SweepOutcome::Hit(hit) => {
            // The f32 inputs 0.15, 0.1 and 0.01 are rounded by about 1e-8
            // relative, which moves the exact time of those inputs by ~2e-8;
            // 1e-6 covers that and is far below any other answer.
            assert!((hit.time - 1.0 / 6.0).abs() < 1e-6, "{hit:?}");
            assert!((hit.normal.z - 1.0).abs() < 1e-12, "{hit:?}");
        }
        other => panic!("expected a hit, got {other:?}"),
    }
}
