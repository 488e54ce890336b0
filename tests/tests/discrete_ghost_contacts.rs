//! The tessellated-floor limitation (docs/physics.md "Tessellated surfaces"),
//! in DISCRETE mode: the mesh
//! keeps no adjacency, so a shape sliding across an internal edge of a flat
//! floor meets that edge as a real one. The control
//! (`test_tessellated_floor_documents_existing_ghost_contacts`): a 0.1 m
//! sphere at z = 0.0996 m, 5 m/s horizontal, gravity, zero friction and
//! restitution, twenty 0.01 s steps, over one triangle and over the same
//! square split into four. This records the limitation; it does not certify
//! the tessellated response as physically correct.

use parapet_geometry::{Material, Shape};
use parapet_math::Vec3;
use parapet_solver::RigidBody;
use parapet_world::PhysicsWorld;

fn run(vertices: Vec<Vec3>, triangles: Vec<[u32; 3]>, start: Vec3) -> (f32, f32) {
    let slick = Material::new(0.0, 0.0, 0.5).unwrap();
    let mut w = PhysicsWorld::new();
    w.add_body(
        RigidBody::new_static(Shape::mesh(vertices, triangles).unwrap()).with_material(slick),
    )
    .unwrap();
    let id = w
        .add_body(
            RigidBody::new_dynamic(Shape::sphere(0.1).unwrap(), 1.0)
                .unwrap()
                .with_material(slick)
                .with_position(start)
                .with_linear_velocity(Vec3::new(5.0, 0.0, 0.0)),
        )
        .unwrap();
    let mut max_up = f32::MIN;
    let mut max_z = f32::MIN;
    for _ in 0..20 {
        w.step(0.01).unwrap();
        let b = w.body(id).unwrap();
        max_up = max_up.max(b.linear_velocity().z);
        max_z = max_z.max(b.position().z);
    }
    (max_up, max_z)
}

#[test]
fn a_single_triangle_floor_launches_nothing() {
    let tri = vec![
        Vec3::new(-10.0, -10.0, 0.0),
        Vec3::new(10.0, -10.0, 0.0),
        Vec3::new(0.0, 10.0, 0.0),
    ];
    let (up, z) = run(tri, vec![[0, 1, 2]], Vec3::new(-0.5, 0.0, 0.0996));
    println!("single: max upward velocity {up}, max z {z}");
    // Resting support: at most the split correction's pose push, no velocity
    // beyond one step of gravity's rounding (1e-6 m/s).
    assert!(up <= 1e-6, "upward velocity {up} m/s on a single triangle");
}

#[test]
fn a_tessellated_floor_has_ghost_edge_contacts() {
    // The square [-2, 2]^2 split into four triangles around its centre; the
    // sphere crosses two internal edges on its 1 m path along x.
    let v = vec![
        Vec3::new(-2.0, -2.0, 0.0),
        Vec3::new(2.0, -2.0, 0.0),
        Vec3::new(2.0, 2.0, 0.0),
        Vec3::new(-2.0, 2.0, 0.0),
        Vec3::new(0.0, 0.0, 0.0),
    ];
    let t = vec![[0, 1, 4], [1, 2, 4], [2, 3, 4], [3, 0, 4]];
    let (up, z) = run(v, t, Vec3::new(-0.5, 0.05, 0.0996));
    println!("tessellated: max upward velocity {up}, max z {z}");
    assert!(
        up > 1e-3,
        "expected the documented ghost launch, got {up} m/s"
    );
}
