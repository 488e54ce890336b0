//! Every error path of the world leaves it unchanged, compared bit for bit
//! (configuration, every field of every body, mesh snapshots, events,
//! contact count, ray answers): step with an invalid configuration or body,
//! a failure after the snapshot (rollback), add_body refusals, removal of a
//! stale id, and the SPHERE_MESH_CCD refusal of this build.

mod world_support;

use parapet_geometry::Shape;
use parapet_math::Vec3;
use parapet_solver::{BodyError, RigidBody};
use parapet_world::{BodyId, PhysicsWorld, StepError, WorldError, DISCRETE, SPHERE_MESH_CCD};
use world_support::{capture, floor, material};

/// A world in motion: a floor, a resting box, a falling sphere, a sliding
/// capsule, after a few steps (so events and contact count are non-empty),
/// with a pending force on the sphere.
fn busy_world() -> (PhysicsWorld, Vec<BodyId>) {
    let mut w = PhysicsWorld::new();
    let mut ids = vec![w.add_body(floor(10.0, 0.0, material(0.5, 0.2))).unwrap()];
    ids.push(
        w.add_body(
            RigidBody::new_dynamic(Shape::cuboid(Vec3::new(0.3, 0.3, 0.3)).unwrap(), 2.0)
                .unwrap()
                .with_position(Vec3::new(-2.0, 1.0, 0.3)),
        )
        .unwrap(),
    );
    ids.push(
        w.add_body(
            RigidBody::new_dynamic(Shape::sphere(0.25).unwrap(), 1.0)
                .unwrap()
                .with_position(Vec3::new(1.0, 1.5, 1.0))
                .with_angular_velocity(Vec3::new(0.0, 2.0, 0.0)),
        )
        .unwrap(),
    );
    ids.push(
        w.add_body(
            RigidBody::new_dynamic(Shape::capsule(0.2, 0.4).unwrap(), 1.5)
                .unwrap()
                .with_position(Vec3::new(2.0, -3.0, 0.6))
                .with_linear_velocity(Vec3::new(1.0, 0.0, 0.0)),
        )
        .unwrap(),
    );
    for _ in 0..10 {
        w.step(1.0 / 60.0).unwrap();
    }
    assert!(w.contact_count() > 0 && !w.events().is_empty());
    w.body_mut(ids[2])
        .unwrap()
        .add_force(Vec3::new(3.0, 0.0, 1.0));
    w.body_mut(ids[2])
        .unwrap()
        .add_torque(Vec3::new(0.0, 0.5, 0.0));
    (w, ids)
}

#[test]
fn an_invalid_configuration_is_refused_and_changes_nothing() {
    let (mut w, _) = busy_world();
    for dt in [0.0, -0.01, f32::NAN, f32::INFINITY] {
        let before = capture(&w);
        let err = w.step(dt).unwrap_err();
        assert!(
            matches!(err, StepError::InvalidConfig { quantity: "dt", .. }),
            "{err}"
        );
        assert!(err.to_string().contains("dt"));
        assert_eq!(capture(&w), before);
    }
    type Edit = fn(&mut PhysicsWorld, bool);
    let edits: [(&str, Edit); 5] = [
        ("gravity", |w, bad| {
            w.gravity.y = if bad { f32::NAN } else { 0.0 }
        }),
        ("ccd_max_impacts", |w, bad| {
            w.ccd_max_impacts = if bad { 0 } else { 16 }
        }),
        ("ccd_max_impacts", |w, bad| {
            w.ccd_max_impacts = if bad { 1025 } else { 16 }
        }),
        ("ccd_max_substeps", |w, bad| {
            w.ccd_max_substeps = if bad { 0 } else { 256 }
        }),
        ("ccd_max_substeps", |w, bad| {
            w.ccd_max_substeps = if bad { 65537 } else { 256 }
        }),
    ];
    for (field, edit) in edits {
        edit(&mut w, true);
        let before = capture(&w);
        let err = w.step(1.0 / 60.0).unwrap_err();
        match &err {
            StepError::InvalidConfig { quantity, .. } => assert_eq!(quantity, &field),
            other => panic!("expected InvalidConfig for {field}, got {other}"),
        }
        assert!(err.to_string().contains(field), "{err}");
        assert_eq!(capture(&w), before, "{field}");
        edit(&mut w, false);
    }
    // The limits themselves are accepted, whatever the mode.
    w.ccd_max_impacts = 1024;
    w.ccd_max_substeps = 65536;
    w.step(1.0 / 60.0).unwrap();
    w.ccd_max_impacts = 1;
    w.ccd_max_substeps = 1;
    w.step(1.0 / 60.0).unwrap();
}

#[test]
fn the_step_validates_every_body_before_changing_any() {
    let (mut w, ids) = busy_world();
    let last = *ids.last().unwrap();
    w.body_mut(last)
        .unwrap()
        .set_linear_velocity(Vec3::new(0.0, f32::NAN, 0.0));
    let before = capture(&w);
    let sphere_velocity = w.body(ids[2]).unwrap().linear_velocity();
    let err = w.step(1.0 / 60.0).unwrap_err();
    match &err {
        StepError::InvalidBody { body, source } => {
            assert_eq!(*body, last);
            assert!(matches!(
                source,
                BodyError::NotFinite {
                    quantity: "linear velocity",
                    ..
                }
            ));
        }
        other => panic!("expected InvalidBody, got {other}"),
    }
    assert!(err.to_string().contains(&last.to_string()), "{err}");
    // Not even the first dynamic bodies' velocities or pending loads moved.
    assert_eq!(w.body(ids[2]).unwrap().linear_velocity(), sphere_velocity);
    assert_eq!(w.body(ids[2]).unwrap().force(), Vec3::new(3.0, 0.0, 1.0));
    assert_eq!(capture(&w), before);
}

#[test]
fn a_failure_after_the_snapshot_rolls_everything_back() {
    let (mut w, ids) = busy_world();
    let (mut never_failed, _) = busy_world();
    // A mesh added now makes the index dirty, so the failing step rebuilds it.
    w.add_body(floor(3.0, 2.0, material(0.5, 0.0))).unwrap();
    never_failed
        .add_body(floor(3.0, 2.0, material(0.5, 0.0)))
        .unwrap();
    // The last body's pose overflows f32 in the integrate stage, after the
    // forces, contacts and the other bodies' poses have changed.
    let runaway = RigidBody::new_dynamic(Shape::sphere(1.0).unwrap(), 1.0)
        .unwrap()
        .with_position(Vec3::new(3.0e38, 50.0, 50.0))
        .with_linear_velocity(Vec3::new(3.0e38, 0.0, 0.0));
    let runaway = w.add_body(runaway).unwrap();
    let before = capture(&w);
    let err = w.step(1.0).unwrap_err();
    match &err {
        StepError::NotRepresentable { body, .. } => assert_eq!(*body, runaway),
        other => panic!("expected NotRepresentable, got {other}"),
    }
    assert_eq!(capture(&w), before);
    assert_eq!(w.body(ids[2]).unwrap().force(), Vec3::new(3.0, 0.0, 1.0));
    // Removing the runaway and stepping matches a world that never failed.
    w.remove_body(runaway).unwrap();
    w.step(1.0 / 60.0).unwrap();
    never_failed.step(1.0 / 60.0).unwrap();
    let (a, b) = (capture(&w), capture(&never_failed));
    assert_eq!(a.bodies.len(), b.bodies.len());
    for (x, y) in a.bodies.iter().zip(&b.bodies) {
        assert_eq!((&x.1, &x.2, &x.3), (&y.1, &y.2, &y.3));
    }
    assert_eq!(a.events, b.events);
    assert_eq!(a.contact_count, b.contact_count);
    assert_eq!(a.rays, b.rays);
}

#[test]
fn add_body_refusals_change_nothing() {
    let (mut w, _) = busy_world();
    let before = capture(&w);
    let nan = RigidBody::new_dynamic(Shape::sphere(1.0).unwrap(), 1.0)
        .unwrap()
        .with_angular_velocity(Vec3::new(f32::NAN, 0.0, 0.0));
    assert!(matches!(
        w.add_body(nan),
        Err(WorldError::InvalidBody { .. })
    ));
    // A mesh has no mass: a dynamic mesh body cannot even be made.
    assert!(
        RigidBody::new_dynamic(floor(1.0, 0.0, material(0.5, 0.0)).shape().clone(), 1.0).is_err()
    );
    // A mesh whose world triangles overflow f32.
    let far = floor(3.0e38, 0.0, material(0.5, 0.0)).with_position(Vec3::new(3.0e38, 0.0, 0.0));
    let err = w.add_body(far).unwrap_err();
    assert!(matches!(err, WorldError::MeshSnapshot { .. }), "{err}");
    assert_eq!(capture(&w), before);
    // The next insertion's id follows the last successful one.
    let ids: Vec<BodyId> = w.bodies().map(|(id, _)| id).collect();
    let next = w
        .add_body(RigidBody::new_static(Shape::sphere(1.0).unwrap()))
        .unwrap();
    assert!(ids.iter().all(|id| *id < next));
}

#[test]
fn removing_a_stale_id_changes_nothing_and_never_aliases() {
    let (mut w, ids) = busy_world();
    let removed = ids[1];
    w.remove_body(removed).unwrap();
    let replacement = w
        .add_body(RigidBody::new_dynamic(Shape::sphere(0.1).unwrap(), 1.0).unwrap())
        .unwrap();
    assert_eq!(replacement.index(), removed.index());
    assert_ne!(replacement, removed);
    let before = capture(&w);
    assert_eq!(
        w.remove_body(removed).unwrap_err(),
        WorldError::UnknownBody { body: removed }
    );
    assert!(w.body(removed).is_none() && w.body_mut(removed).is_none());
    assert!(w.mesh_snapshot(removed).is_none());
    assert_eq!(capture(&w), before);
    assert!(w.body(replacement).is_some());
}

#[test]
fn sphere_mesh_ccd_refuses_instead_of_running_discrete() {
    let (mut w, ids) = busy_world();
    // An elastic ball thrown between two static boxes (kerbs) 0.3 m apart:
    // it needs more impacts in one step than the world allows, and the
    // mode refuses rather than letting it pass through one of them.
    let elastic = material(0.0, 1.0);
    for y in [9.6f32, 10.4] {
        w.add_body(
            RigidBody::new_static(Shape::cuboid(Vec3::new(1.0, 0.1, 1.0)).unwrap())
                .with_position(Vec3::new(0.0, y, 1.0))
                .with_material(elastic),
        )
        .unwrap();
    }
    let ball = w
        .add_body(
            RigidBody::new_dynamic(Shape::sphere(0.1).unwrap(), 1.0)
                .unwrap()
                .with_position(Vec3::new(0.0, 10.0, 1.0))
                .with_linear_velocity(Vec3::new(0.0, 120.0, 0.0))
                .with_material(elastic),
        )
        .unwrap();
    w.collision_detection = SPHERE_MESH_CCD;
    w.ccd_max_impacts = 2;
    let before = capture(&w);
    let err = w.step(1.0 / 60.0).unwrap_err();
    match &err {
        StepError::ImpactLimit { body, limit, .. } => {
            assert_eq!((*body, *limit), (ball, 2), "{err}");
        }
        other => panic!("expected ImpactLimit, got {other}"),
    }
    assert!(err.to_string().contains("ccd_max_impacts"), "{err}");
    assert_eq!(capture(&w), before);
    // With the ball's and the moving bodies' collisions off there is
    // nothing to strike and nothing refused.
    for id in ids[1..].iter().chain([&ball]) {
        w.body_mut(*id).unwrap().set_collides(false);
    }
    w.step(1.0 / 60.0).unwrap();
    w.collision_detection = DISCRETE;
    w.step(1.0 / 60.0).unwrap();
}
