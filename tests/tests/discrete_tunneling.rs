//! The discrete tunnelling case (docs/continuous-collision.md, the example
//! under "Turning it on"): a 0.1 m sphere at z = 0.15 m moving at -30 m/s with a 0.01 s
//! step crosses a plastic horizontal mesh floor in DISCRETE mode and ends the
//! step at z = -0.15 m, as documented; only the opt-in continuous mode stops
//! it. The gap (0.05 m) exceeds the contact margin, so no speculative contact
//! exists at the start of the step.

mod world_support;

use parapet_geometry::{Material, Shape};
use parapet_math::Vec3;
use parapet_solver::RigidBody;
use parapet_world::{PhysicsWorld, CONTACT_MARGIN, DISCRETE};
use world_support::floor;

fn scene(speed: f32) -> (PhysicsWorld, parapet_world::BodyId) {
    let plastic = Material::new(0.5, 0.0, 0.5).unwrap();
    let mut w = PhysicsWorld::new();
    w.add_body(floor(10.0, 0.0, plastic)).unwrap();
    let ball = RigidBody::new_dynamic(Shape::sphere(0.1).unwrap(), 1.0)
        .unwrap()
        .with_material(plastic)
        .with_position(Vec3::new(0.0, 0.0, 0.15))
        .with_linear_velocity(Vec3::new(0.0, 0.0, -speed));
    let id = w.add_body(ball).unwrap();
    (w, id)
}

#[test]
fn discrete_mode_lets_the_fast_sphere_tunnel_to_minus_0_15() {
    // The case needs the 0.05 m gap to stay outside the contact margin.
    const { assert!(CONTACT_MARGIN < 0.05) };
    let (mut w, id) = scene(30.0);
    assert_eq!(w.collision_detection, DISCRETE);
    w.step(0.01).unwrap();
    let z = w.body(id).unwrap().position().z;
    // z = 0.15 - (30 + g dt) dt = -0.15 - g dt^2: the gravity term is
    // 9.8e-4 m; f32 rounding of the position adds at most a few 1e-8 m.
    let gravity_term = 9.8 * 0.01 * 0.01;
    assert!(
        (z - (-0.15 - gravity_term)).abs() < 1e-6,
        "z = {z} m, expected -0.15 m minus the gravity term {gravity_term} m"
    );
    assert_eq!(w.contact_count(), 0);
    // Behind the one-sided floor, nothing stops it on the next step either.
    w.step(0.01).unwrap();
    assert!(w.body(id).unwrap().position().z < -0.4);
    assert!(w.events().is_empty());
}

#[test]
fn a_sphere_slow_enough_for_the_margin_lands_on_the_floor() {
    // Control: at 1 m/s the same sphere (gap 0.05 m) reaches the margin after
    // a few steps and then lands on the floor instead of tunnelling.
    let (mut w, id) = scene(1.0);
    // The resting contact is observed: the sphere stays awake.
    w.sleeping = false;
    for _ in 0..100 {
        w.step(0.01).unwrap();
    }
    let z = w.body(id).unwrap().position().z;
    assert!((z - 0.1).abs() < CONTACT_MARGIN, "z = {z} m");
    assert!(w.contact_count() > 0);
}
