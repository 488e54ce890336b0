//! Stacks: five unit boxes stacked on a mesh floor stand for 10 s of 60 Hz
//! steps. The solver carries its impulses over steps (warm starting), so the
//! stack converges instead of sinking and sliding apart.

mod world_support;

use parapet_geometry::Shape;
use parapet_math::Vec3;
use parapet_solver::contact::PENETRATION_SLOP;
use parapet_solver::RigidBody;
use parapet_world::PhysicsWorld;
use world_support::{floor, material};

#[test]
fn a_stack_of_five_boxes_stands_for_ten_seconds() {
    let mut w = PhysicsWorld::new();
    w.add_body(floor(10.0, 0.0, material(0.5, 0.0))).unwrap();
    let ids: Vec<_> = (0..5)
        .map(|i| {
            let b = RigidBody::new_dynamic(Shape::cuboid(Vec3::new(0.5, 0.5, 0.5)).unwrap(), 1.0)
                .unwrap()
                .with_position(Vec3::new(3.0, 2.0, 0.5 + i as f32));
            w.add_body(b).unwrap()
        })
        .collect();
    for _ in 0..600 {
        w.step(1.0 / 60.0).unwrap();
        for (i, id) in ids.iter().enumerate() {
            let p = w.body(*id).unwrap().position();
            // Each interface below box i may keep up to the slop of overlap
            // (the split correction leaves it), plus a millimetre of
            // iterative-solver error per interface.
            let sink = (i + 1) as f32 * (PENETRATION_SLOP as f32 + 1e-3);
            assert!((p.z - (0.5 + i as f32)).abs() <= sink, "box {i} at {p}");
            // A toppling stack moves metres; 5 mm is solver noise.
            let drift = ((p.x - 3.0).powi(2) + (p.y - 2.0).powi(2)).sqrt();
            assert!(drift < 5e-3, "box {i} drifted to {p}");
        }
    }
}
