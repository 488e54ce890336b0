//! The SPHERE_MESH_CCD step against DISCRETE: 1 and 64 fast spheres (40 m/s
//! down, 0.67 m per 1/60 s step, each alone in its reach region) over the
//! seed 000 terrains of 2,048 and 8,192 triangles, measured on the step in
//! which every sphere strikes the terrain, with the mesh index built and
//! the CCD snapshot check passed by an earlier step (steady state). Each
//! iteration steps a clone of the prepared world (the clone is outside the
//! timing).
//!
//! Run briefly: `cargo bench -p parapet-benches --bench ccd_step --
//! --warm-up-time 1 --measurement-time 3`.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use parapet_geometry::{Material, Shape};
use parapet_math::Vec3;
use parapet_solver::RigidBody;
use parapet_tests::meshes::terrain_with;
use parapet_world::{CollisionDetection, PhysicsWorld, DISCRETE, SPHERE_MESH_CCD};

const DT: f32 = 1.0 / 60.0;

/// The world one step before impact: spheres about 0.4 m above the local
/// terrain top, moving at 40 m/s down, with the mesh index already built.
fn scene(mode: CollisionDetection, triangles: usize, bodies: usize) -> PhysicsWorld {
    let t = terrain_with(triangles, 1);
    let tris = t.triangles();
    let mut w = PhysicsWorld::new();
    w.collision_detection = mode;
    w.add_body(
        RigidBody::new_static(Shape::mesh(t.vertices.clone(), t.indices.clone()).unwrap())
            .with_material(Material::new(0.5, 0.3, 0.5).unwrap()),
    )
    .unwrap();
    let side = (bodies as f64).sqrt().ceil() as usize;
    for i in 0..bodies {
        let x = 4.0 + (i % side) as f32 * 3.5;
        let y = 4.0 + (i / side) as f32 * 3.5;
        let top = tris
            .iter()
            .flat_map(|t| t.iter())
            .filter(|v| (v.x - x).abs() < 1.5 && (v.y - y).abs() < 1.5)
            .map(|v| v.z)
            .fold(f32::MIN, f32::max);
        let b = RigidBody::new_dynamic(Shape::sphere(0.25).unwrap(), 1.0)
            .unwrap()
            .with_material(Material::new(0.5, 0.3, 0.5).unwrap())
            .with_position(Vec3::new(x, y, top + 0.25 + 0.4 + 40.0 * DT))
            .with_linear_velocity(Vec3::new(0.5, 0.0, -40.0));
        w.add_body(b).unwrap();
    }
    // One step outside the timing builds the mesh index and passes the CCD
    // snapshot check, as in a running simulation; the next step is the
    // impact step that is measured.
    w.step(DT).unwrap();
    w
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("ccd_step");
    for triangles in [2048, 8192] {
        for bodies in [1, 64] {
            for (name, mode) in [("discrete", DISCRETE), ("sphere_mesh_ccd", SPHERE_MESH_CCD)] {
                let w = scene(mode, triangles, bodies);
                // Outside the timing: the step succeeds.
                w.clone().step(DT).unwrap();
                group.bench_function(
                    format!("{name}/{triangles}_triangles/{bodies}_spheres"),
                    |b| {
                        b.iter_batched(
                            || w.clone(),
                            |mut w| black_box(w.step(DT)),
                            BatchSize::SmallInput,
                        )
                    },
                );
            }
        }
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
