//! The discrete world step: 64 mixed bodies (spheres, capsules, boxes, hulls)
//! settling on the 2,048-triangle terrain, and the same pile among
//! 4,096 parked bodies with `collides == false` (docs/physics.md
//! "Disabled collisions": parked bodies cost validation and integration, no pair scans).
//!
//! Run briefly: `cargo bench -p parapet-benches --bench world_step --
//! --warm-up-time 1 --measurement-time 3`.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use parapet_geometry::{Material, Shape};
use parapet_math::{Quat, Vec3};
use parapet_solver::RigidBody;
use parapet_tests::meshes::terrain_with;
use parapet_world::PhysicsWorld;

const DT: f32 = 1.0 / 60.0;

fn pile(parked: usize) -> PhysicsWorld {
    let t = terrain_with(2048, 1);
    let mut w = PhysicsWorld::new();
    w.add_body(RigidBody::new_static(
        Shape::mesh(t.vertices, t.indices).unwrap(),
    ))
    .unwrap();
    let hull = Shape::convex_hull(&[
        Vec3::new(-0.3, -0.3, -0.2),
        Vec3::new(0.3, -0.3, -0.2),
        Vec3::new(0.3, 0.3, -0.2),
        Vec3::new(-0.3, 0.3, -0.2),
        Vec3::new(0.0, 0.0, 0.35),
    ])
    .unwrap();
    let shapes = [
        Shape::sphere(0.3).unwrap(),
        Shape::capsule(0.2, 0.3).unwrap(),
        Shape::cuboid(Vec3::new(0.3, 0.25, 0.2)).unwrap(),
        hull,
    ];
    for i in 0..64 {
        let p = Vec3::new(
            4.0 + (i % 8) as f32 * 3.0,
            4.0 + (i / 8) as f32 * 3.0,
            4.0 + (i % 5) as f32 * 0.5,
        );
        let b = RigidBody::new_dynamic(shapes[i % 4].clone(), 1.0)
            .unwrap()
            .with_position(p)
            .with_rotation(Quat::from_euler_angles(0.1 * i as f32, 0.2, 0.0))
            .with_material(Material::new(0.5, 0.2, 0.5).unwrap());
        w.add_body(b).unwrap();
    }
    for i in 0..parked {
        let mut b = RigidBody::new_dynamic(Shape::sphere(0.5).unwrap(), 1.0)
            .unwrap()
            .with_position(Vec3::new(-100.0, 0.0, -100.0 - i as f32 * 0.1));
        b.set_collides(false);
        w.add_body(b).unwrap();
    }
    // Let the pile land so the measured steps have resting contacts.
    for _ in 0..120 {
        w.step(DT).unwrap();
    }
    w
}

fn world_step(c: &mut Criterion) {
    let mut group = c.benchmark_group("world_step");
    for parked in [0usize, 4096] {
        let world = pile(parked);
        group.bench_function(
            format!("64 bodies on 2048 triangles, {parked} parked"),
            |b| {
                b.iter_batched_ref(
                    || world.clone(),
                    |w| black_box(w.step(DT)),
                    criterion::BatchSize::SmallInput,
                )
            },
        );
    }
    group.finish();
}

criterion_group!(benches, world_step);
criterion_main!(benches);
