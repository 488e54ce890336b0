//! Turning bodies in SPHERE_MESH_CCD (docs/turning-bodies.md): the impact
//! step of 1 and 16 turning capsules (spinning at 30 rad/s, falling at
//! 40 m/s, 0.67 m per 1/60 s step) onto the generated terrains of 2,048 and
//! 8,192 triangles, beside the same step for centred spheres that take the
//! exact sweep. The mesh index is built and the CCD snapshot check passed by
//! an earlier step (steady state). Each iteration steps a clone of the
//! prepared world (the clone is outside the timing); outside the timing, the
//! step is checked to succeed and to give most bodies an impact (some of
//! the 16 may sit beyond the edge of the smaller terrain).
//!
//! Run briefly: `cargo bench -p parapet-benches --bench ccd_turning --
//! --warm-up-time 1 --measurement-time 3`.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use parapet_geometry::{Material, Shape};
use parapet_math::{Quat, Vec3};
use parapet_solver::RigidBody;
use parapet_tests::meshes::terrain_with;
use parapet_world::{PhysicsWorld, SPHERE_MESH_CCD};

const DT: f32 = 1.0 / 60.0;

/// The world one step before impact: bodies about 0.1 m above the local
/// terrain top, moving at 40 m/s down.
fn scene(triangles: usize, bodies: usize, turning: bool) -> PhysicsWorld {
    let t = terrain_with(triangles, 1);
    let tris = t.triangles();
    let mut w = PhysicsWorld::new();
    w.collision_detection = SPHERE_MESH_CCD;
    let material = Material::new(0.5, 0.3, 0.5).unwrap();
    w.add_body(
        RigidBody::new_static(Shape::mesh(t.vertices.clone(), t.indices.clone()).unwrap())
            .with_material(material),
    )
    .unwrap();
    let side = (bodies as f64).sqrt().ceil() as usize;
    for i in 0..bodies {
        // 7.5 m apart: a turning body's reach includes the spin that all of
        // its energy could give it (docs/turning-bodies.md "Reach and
        // refusals"), about 3.5 m here.
        let x = 4.0 + (i % side) as f32 * 7.5;
        let y = 4.0 + (i / side) as f32 * 7.5;
        let top = tris
            .iter()
            .flat_map(|t| t.iter())
            .filter(|v| (v.x - x).abs() < 1.5 && (v.y - y).abs() < 1.5)
            .map(|v| v.z)
            .fold(f32::MIN, f32::max);
        let (shape, extent, spin) = if turning {
            (
                Shape::capsule(0.15, 0.3).unwrap(),
                0.45,
                Vec3::new(30.0, 10.0, 0.0),
            )
        } else {
            (Shape::sphere(0.25).unwrap(), 0.25, Vec3::zeros())
        };
        let b = RigidBody::new_dynamic(shape, 1.0)
            .unwrap()
            .with_material(material)
            .with_rotation(Quat::from_scaled_axis(Vec3::new(1.0, 0.3, 0.0)))
            .with_position(Vec3::new(x, y, top + extent + 0.1 + 40.0 * DT))
            .with_linear_velocity(Vec3::new(0.5, 0.0, -40.0))
            .with_angular_velocity(spin);
        w.add_body(b).unwrap();
    }
    w.step(DT).unwrap();
    w
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("ccd_turning");
    for triangles in [2048, 8192] {
        for bodies in [1, 16] {
            for (name, turning) in [("centred_spheres", false), ("turning_capsules", true)] {
                let w = scene(triangles, bodies, turning);
                // Outside the timing: the step succeeds and every body strikes.
                let mut probe = w.clone();
                probe.step(DT).unwrap();
                let struck = probe
                    .events()
                    .iter()
                    .map(|e| e.body_b)
                    .collect::<std::collections::BTreeSet<_>>()
                    .len();
                // Bodies placed beyond the smaller terrain's edge fall past it.
                assert!(
                    2 * struck >= bodies,
                    "{name}: {struck} of {bodies} bodies struck"
                );
                group.bench_function(
                    format!("{name}/{triangles}_triangles/{bodies}_bodies"),
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
