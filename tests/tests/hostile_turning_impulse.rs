//! Regression: in SPHERE_MESH_CCD a turning body's swept impact reported an
//! infinite impulse from an Ok step. A 1e38 kg capsule (radius 0.5, half
//! height 0.5) falling at 30 m/s onto a one-triangle floor: the turning
//! response had no representability check (unlike the sphere's and the
//! group's responses), so the event's `f64` impulse (about 3e39 N s) was
//! rounded to infinity. Now the step is refused with
//! `StepError::NotRepresentable { quantity: "impulse" }` naming the body, as
//! a 1e38 kg sphere in the same mode already was, and changes nothing.

mod world_support;

use parapet_geometry::Shape;
use parapet_math::{Quat, Vec3};
use parapet_solver::{BodyError, RigidBody};
use parapet_world::{BodyId, ContactKind, PhysicsWorld, StepError, SPHERE_MESH_CCD};
use world_support::capture;

const DT: f32 = 1.0 / 60.0;

fn floor() -> RigidBody {
    let v = vec![
        Vec3::new(-10.0, -10.0, 0.0),
        Vec3::new(10.0, -10.0, 0.0),
        Vec3::new(0.0, 10.0, 0.0),
    ];
    RigidBody::new_static(Shape::mesh(v, vec![[0, 1, 2]]).unwrap())
}

/// The floor and a body of `shape` and `mass` falling at 30 m/s from 0.6 m
/// above its lowest point's rest height, tilted so that it turns when it
/// lands.
fn world_with(shape: Shape, mass: f32, z: f32) -> (PhysicsWorld, BodyId) {
    let mut w = PhysicsWorld::new();
    w.collision_detection = SPHERE_MESH_CCD;
    w.add_body(floor()).unwrap();
    let id = w
        .add_body(
            RigidBody::new_dynamic(shape, mass)
                .unwrap()
                .with_position(Vec3::new(0.0, 0.0, z))
                .with_rotation(Quat::from_scaled_axis(Vec3::new(0.4, 0.0, 0.0)))
                .with_linear_velocity(Vec3::new(0.0, 0.0, -30.0))
                .with_angular_velocity(Vec3::new(0.5, 0.0, 0.0)),
        )
        .unwrap();
    (w, id)
}

fn refused_impulse(err: &StepError, id: BodyId) -> bool {
    matches!(err, StepError::NotRepresentable {
        body,
        source: BodyError::NotRepresentable { quantity: "impulse", value },
    } if *body == id && value.abs() > f32::MAX as f64)
}

#[test]
fn a_1e38_kg_capsule_landing_at_30_m_s_is_refused_naming_it_and_the_impulse() {
    let (mut w, capsule) = world_with(Shape::capsule(0.5, 0.5).unwrap(), 1e38, 1.6);
    // It lands within two steps (0.5 m of fall at 30 m/s).
    let mut refusal = None;
    for _ in 0..2 {
        let before = capture(&w);
        match w.step(DT) {
            Ok(()) => {
                for e in w.events() {
                    assert!(e.normal_impulse.iter().all(|c| c.is_finite()), "{e:?}");
                }
            }
            Err(e) => {
                assert_eq!(capture(&w), before, "a refused step changes nothing");
                refusal = Some(e);
                break;
            }
        }
    }
    let err = refusal.expect("the landing step is refused");
    assert!(refused_impulse(&err, capsule), "{err:?}");
}

#[test]
fn the_turning_capsule_is_refused_as_the_sphere_already_was() {
    // The sphere of the same mass in the same mode: the reference refusal.
    let (mut w, sphere) = world_with(Shape::sphere(0.5).unwrap(), 1e38, 1.1);
    let err = (0..2).find_map(|_| w.step(DT).err()).expect("refused");
    assert!(refused_impulse(&err, sphere), "{err:?}");
}

#[test]
fn a_turning_capsule_of_ordinary_mass_lands_with_a_finite_swept_impulse() {
    // The same landing at 1 kg is no refusal: the swept event carries the
    // impulse that stops about 30 m/s of fall, between 0 and 2 m v (a
    // plastic landing with some of it turned into spin).
    let (mut w, _) = world_with(Shape::capsule(0.5, 0.5).unwrap(), 1.0, 1.6);
    let mut swept = Vec::new();
    for _ in 0..3 {
        w.step(DT).unwrap();
        swept.extend(
            w.events()
                .iter()
                .filter(|e| e.kind == ContactKind::Swept)
                .map(|e| e.normal_impulse.z),
        );
    }
    assert!(!swept.is_empty());
    let total: f32 = swept.iter().sum();
    assert!(total > 0.0 && total < 61.0, "{swept:?}");
}
