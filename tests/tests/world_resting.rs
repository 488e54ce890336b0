//! Resting contact: a sphere, a lying capsule, a box and a hull released just
//! above a static mesh floor stay on it for 10 s of 60 Hz steps, within the
//! contact margin, without sinking and without drifting sideways.

mod world_support;

use parapet_geometry::Shape;
use parapet_math::{Quat, Vec3};
use parapet_solver::RigidBody;
use parapet_world::{PhysicsWorld, CONTACT_MARGIN};
use world_support::{floor, material};

const DT: f32 = 1.0 / 60.0;
const STEPS: usize = 600;

/// Lowest point of the shape above the floor (m) for the poses these tests
/// use: the analytic support distance along -z.
fn bottom(body: &RigidBody, support: f32) -> f32 {
    body.position().z - support
}

/// Runs `body` (whose lowest point is `support` below its origin) on a
/// 20 m floor for 10 s; returns (lowest gap, highest gap, horizontal drift).
fn rest(body: RigidBody, support: f32) -> (f32, f32, f32) {
    let mut w = PhysicsWorld::new();
    w.add_body(floor(10.0, 0.0, material(0.5, 0.0))).unwrap();
    let start = body.position();
    let id = w.add_body(body).unwrap();
    let (mut low, mut high) = (f32::MAX, f32::MIN);
    for _ in 0..STEPS {
        w.step(DT).unwrap();
        let b = w.body(id).unwrap();
        // After the first second the body has landed and settled.
        let gap = bottom(b, support);
        low = low.min(gap);
        high = high.max(gap);
    }
    let end = w.body(id).unwrap().position();
    let drift = ((end.x - start.x).powi(2) + (end.y - start.y).powi(2)).sqrt();
    (low, high, drift)
}

/// Gravity and contact act along z only and every shape here is symmetric
/// about its vertical axis through the mass centre, so any sideways motion is
/// solver noise: 1 mm over 10 s is a generous bound on it.
const DRIFT_BOUND: f32 = 1e-3;

fn assert_rests(name: &str, (low, high, drift): (f32, f32, f32), start_gap: f32) {
    println!("{name}: lowest gap {low}, highest gap {high}, drift {drift}");
    assert!(low > -CONTACT_MARGIN, "{name} sank to {low} m");
    assert!(high <= start_gap + 1e-6, "{name} rose to {high} m");
    assert!(drift < DRIFT_BOUND, "{name} drifted {drift} m");
}

#[test]
fn a_sphere_rests_on_a_mesh_floor() {
    let b = RigidBody::new_dynamic(Shape::sphere(0.5).unwrap(), 1.0)
        .unwrap()
        .with_position(Vec3::new(0.3, 0.2, 0.51));
    assert_rests("sphere", rest(b, 0.5), 0.01);
}

#[test]
fn a_lying_capsule_rests_on_a_mesh_floor() {
    let lying = Quat::from_axis_angle(&Vec3::x_axis(), std::f32::consts::FRAC_PI_2);
    let b = RigidBody::new_dynamic(Shape::capsule(0.2, 0.5).unwrap(), 2.0)
        .unwrap()
        .with_rotation(lying)
        .with_position(Vec3::new(0.3, 0.2, 0.21));
    assert_rests("capsule", rest(b, 0.2), 0.01);
}

#[test]
fn a_box_rests_on_a_mesh_floor() {
    let b = RigidBody::new_dynamic(Shape::cuboid(Vec3::new(0.4, 0.3, 0.2)).unwrap(), 5.0)
        .unwrap()
        .with_position(Vec3::new(0.3, 0.2, 0.21));
    assert_rests("box", rest(b, 0.2), 0.01);
}

#[test]
fn a_hull_rests_on_a_mesh_floor() {
    // A square frustum: base 0.6 m x 0.6 m at z = -0.25, top 0.3 m x 0.3 m at z = +0.25.
    let mut points = Vec::new();
    for (h, z) in [(0.3, -0.25), (0.15, 0.25)] {
        for (x, y) in [(-h, -h), (h, -h), (h, h), (-h, h)] {
            points.push(Vec3::new(x, y, z));
        }
    }
    let shape = Shape::convex_hull(&points).unwrap();
    let b = RigidBody::new_dynamic(shape, 3.0).unwrap();
    // Origin at the frustum's reference frame; the mass centre sits lower.
    let b = b.with_position(Vec3::new(0.3, 0.2, 0.26));
    assert_rests("hull", rest(b, 0.25), 0.01);
}
