//! The interacting-sphere part of the CCD report (docs/continuous-collision.md
//! "Performance", "Moving groups"): SPHERE_MESH_CCD against DISCRETE on head-on pairs, chains
//! (Newton's cradles of five balls) and struck stacks (a ball falling onto a
//! column of four on a floor), 64 groups each, measured on the step in
//! which every group collides; and a rolled-back step (eleven simultaneous
//! contacts refused). Each iteration steps a clone of the prepared world
//! (the clone is outside the timing); each scene's outcome is checked once
//! outside the timing.
//!
//! Run briefly: `cargo bench -p parapet-benches --bench ccd_groups --
//! --warm-up-time 1 --measurement-time 3`.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use parapet_geometry::{Material, Shape};
use parapet_math::Vec3;
use parapet_solver::RigidBody;
use parapet_world::{CollisionDetection, PhysicsWorld, DISCRETE, SPHERE_MESH_CCD};

const DT: f32 = 0.01;
const R: f32 = 0.125;
const GROUPS: usize = 64;

fn ball(p: Vec3, v: Vec3, m: Material) -> RigidBody {
    RigidBody::new_dynamic(Shape::sphere(R).unwrap(), 1.0)
        .unwrap()
        .with_position(p)
        .with_linear_velocity(v)
        .with_material(m)
}

fn floor(m: Material) -> RigidBody {
    let h = 40.0;
    let v = vec![
        Vec3::new(-h, -h, 0.0),
        Vec3::new(h, -h, 0.0),
        Vec3::new(h, h, 0.0),
        Vec3::new(-h, h, 0.0),
    ];
    RigidBody::new_static(Shape::mesh(v, vec![[0, 1, 2], [0, 2, 3]]).unwrap()).with_material(m)
}

/// Group `g`'s origin on an 8 x 8 grid 4 m apart (off the floor diagonal).
fn origin(g: usize) -> Vec3 {
    Vec3::new(
        (g % 8) as f32 * 4.0 - 15.0,
        (g / 8) as f32 * 4.0 - 13.0,
        2.0,
    )
}

#[derive(Clone, Copy)]
enum Scene {
    Pairs,
    Chains,
    Stacks,
    /// Stacks of ten with a falling ball: eleven contacts, refused.
    Refused,
}

fn world(mode: CollisionDetection, scene: Scene) -> PhysicsWorld {
    let mut w = PhysicsWorld::new();
    w.collision_detection = mode;
    w.gravity = Vec3::zeros();
    let elastic = Material::new(0.0, 1.0, 0.5).unwrap();
    let plastic = Material::new(0.0, 0.0, 0.5).unwrap();
    match scene {
        Scene::Pairs => {
            for g in 0..GROUPS {
                let o = origin(g);
                // 0.55 m apart at 2 x 50 m/s: they meet halfway through the step.
                w.add_body(ball(o, Vec3::new(50.0, 0.0, 0.0), elastic))
                    .unwrap();
                w.add_body(ball(
                    o + Vec3::new(0.55, 0.0, 0.0),
                    Vec3::new(-50.0, 0.0, 0.0),
                    elastic,
                ))
                .unwrap();
            }
        }
        Scene::Chains => {
            for g in 0..GROUPS {
                let o = origin(g);
                w.add_body(ball(o, Vec3::new(50.0, 0.0, 0.0), elastic))
                    .unwrap();
                for k in 0..4 {
                    let p = o + Vec3::new(0.5 + 0.25 * k as f32, 0.0, 0.0);
                    w.add_body(ball(p, Vec3::zeros(), elastic)).unwrap();
                }
            }
        }
        Scene::Stacks | Scene::Refused => {
            w.add_body(floor(plastic)).unwrap();
            let n = if matches!(scene, Scene::Stacks) {
                4
            } else {
                10
            };
            for g in 0..GROUPS {
                let o = origin(g);
                for k in 0..n {
                    let p = Vec3::new(o.x, o.y, R + 2.0 * R * k as f32);
                    w.add_body(ball(p, Vec3::zeros(), plastic)).unwrap();
                }
                let top = R + 2.0 * R * n as f32 + 0.2;
                w.add_body(ball(
                    Vec3::new(o.x, o.y, top),
                    Vec3::new(0.0, 0.0, -40.0),
                    plastic,
                ))
                .unwrap();
            }
        }
    }
    w
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("ccd_groups");
    for (label, scene) in [
        ("pairs", Scene::Pairs),
        ("chains", Scene::Chains),
        ("stacks", Scene::Stacks),
    ] {
        for (name, mode) in [("discrete", DISCRETE), ("sphere_mesh_ccd", SPHERE_MESH_CCD)] {
            let w = world(mode, scene);
            // Outside the timing: the step succeeds, and in CCD every group
            // collides in it (at least one swept event per group).
            let mut check = w.clone();
            check.step(DT).unwrap();
            if mode == SPHERE_MESH_CCD {
                assert!(
                    check.events().len() >= GROUPS,
                    "{label}: {}",
                    check.events().len()
                );
            }
            group.bench_function(format!("{name}/{label}_{GROUPS}_groups"), |b| {
                b.iter_batched(
                    || w.clone(),
                    |mut w| black_box(w.step(DT)),
                    BatchSize::SmallInput,
                )
            });
        }
    }
    let w = world(SPHERE_MESH_CCD, Scene::Refused);
    assert!(w.clone().step(DT).is_err());
    group.bench_function(
        format!("sphere_mesh_ccd/rolled_back_{GROUPS}_groups"),
        |b| {
            b.iter_batched(
                || w.clone(),
                |mut w| black_box(w.step(DT)),
                BatchSize::SmallInput,
            )
        },
    );
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
