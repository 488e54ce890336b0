//! Bodies alone are swept in parallel from 128 of them (`step/ccd.rs`),
//! each rayon task reusing its candidate and shape buffers across the bodies
//! it sweeps, and clear misses are decided without the exact sweep. The
//! outcome must not depend on the thread count (docs/continuous-collision.md
//! "How a step works"): 160 bodies of every swept shape
//! (spheres, locked capsules, boxes and hulls) falling fast onto the rough
//! terrain of `ccd_terrain.rs`, twelve 1/60 s steps on one thread and on
//! three, give the same bits for every body and the same events.

mod ccd_support;

use ccd_support::{mat, mesh, terrain};
use parapet_geometry::Shape;
use parapet_math::{Mat3, Quat, Vec3};
use parapet_solver::RigidBody;
use parapet_tests::meshes::SplitMix64;
use parapet_tests::state::body_bits;
use parapet_world::{ContactKind, PhysicsWorld, SPHERE_MESH_CCD};

/// Every body's bits after each step, the events of each step (as debug
/// text, which prints every field), and the number of swept impacts.
fn run() -> (Vec<Vec<u64>>, Vec<String>, usize) {
    let (v, t) = terrain(112, 1.0, 0.15, 5);
    let mut w = PhysicsWorld::new();
    w.collision_detection = SPHERE_MESH_CCD;
    w.add_body(mesh(v, t, mat(0.5, 0.2, 0.5))).unwrap();
    let mut rng = SplitMix64::new(0x7E4D);
    let hull = Shape::convex_hull(&[
        Vec3::new(0.3, 0.0, 0.0),
        Vec3::new(-0.2, 0.25, 0.0),
        Vec3::new(-0.2, -0.25, 0.05),
        Vec3::new(0.0, 0.1, 0.3),
        Vec3::new(0.05, -0.05, -0.3),
    ])
    .unwrap();
    let mut ids = Vec::new();
    for k in 0..160 {
        let (i, j) = (k % 13, k / 13);
        let shape = match k % 4 {
            0 => Shape::sphere(rng.range_f32(0.1, 0.4)).unwrap(),
            1 => Shape::capsule(rng.range_f32(0.08, 0.3), rng.range_f32(0.1, 0.5)).unwrap(),
            2 => Shape::cuboid(Vec3::new(
                rng.range_f32(0.1, 0.4),
                rng.range_f32(0.1, 0.4),
                rng.range_f32(0.1, 0.4),
            ))
            .unwrap(),
            _ => hull.clone(),
        };
        let sphere = matches!(shape, Shape::Sphere(_));
        // Bodies 8 m apart: each stays alone (no shared groups).
        let mut b = RigidBody::new_dynamic(shape, rng.range_f32(0.5, 5.0))
            .unwrap()
            .with_material(mat(rng.range_f32(0.0, 1.0), rng.range_f32(0.0, 0.6), 0.5))
            .with_position(Vec3::new(
                -50.0 + 8.0 * i as f32,
                -50.0 + 8.0 * j as f32,
                1.5 + rng.range_f32(0.0, 1.5),
            ))
            .with_linear_velocity(Vec3::new(
                rng.range_f32(-2.0, 2.0),
                rng.range_f32(-2.0, 2.0),
                -rng.range_f32(15.0, 50.0),
            ));
        if !sphere {
            b = b.with_rotation(Quat::from_euler_angles(
                rng.range_f32(-1.5, 1.5),
                rng.range_f32(-1.5, 1.5),
                rng.range_f32(-3.0, 3.0),
            ));
            b.set_inverse_inertia(Mat3::zeros()).unwrap();
        }
        ids.push(w.add_body(b).unwrap());
    }
    let (mut bits, mut events, mut swept) = (Vec::new(), Vec::new(), 0);
    for _ in 0..12 {
        w.step(1.0 / 60.0).unwrap();
        for id in &ids {
            bits.push(body_bits(w.body(*id).unwrap()));
        }
        events.push(format!("{:?}", w.events()));
        swept += w
            .events()
            .iter()
            .filter(|e| e.kind == ContactKind::Swept)
            .count();
    }
    (bits, events, swept)
}

#[test]
fn bodies_alone_of_every_shape_step_bit_identically_on_one_thread_and_on_three() {
    let on = |threads: usize| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(run)
    };
    let (one, three) = (on(1), on(3));
    // The scene does what it is for: many swept impacts of every shape.
    assert!(one.2 >= 100, "only {} swept impacts", one.2);
    assert_eq!(one.0, three.0);
    assert_eq!(one.1, three.1);
    assert_eq!(one.2, three.2);
}
