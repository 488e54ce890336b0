//! Scratch: random rooms (to be replaced by the families of issue 28).
use parapet::prelude::*;
use parapet_scenes::prng::SplitMix64;
use parapet_tests::hostile::build::room;
use parapet_tests::hostile::oracle::{room_overreach, room_tolerance};

#[test]
fn scratch_rooms() {
    let mut rng = SplitMix64::new(7);
    let mut failures = 0;
    for case in 0..300 {
        let half = Vec3::new(
            rng.range_f32(1.0, 4.0),
            rng.range_f32(1.0, 4.0),
            rng.range_f32(1.0, 4.0),
        );
        let mut w = PhysicsWorld::new();
        w.collision_detection = SPHERE_MESH_CCD;
        w.gravity = Vec3::zeros();
        let (v, t) = room(half);
        w.add_body(
            RigidBody::new_static(Shape::mesh(v, t).unwrap()).with_material(Material {
                friction: 0.3,
                restitution: 0.5,
                bounce_threshold: 0.5,
            }),
        )
        .unwrap();
        let kind = case % 4;
        let shape = match kind {
            0 => Shape::sphere(0.2).unwrap(),
            1 => Shape::capsule(0.1, 0.3).unwrap(),
            2 => Shape::cuboid(Vec3::new(0.3, 0.2, 0.1)).unwrap(),
            _ => Shape::convex_hull(&[
                Vec3::new(0.0, 0.0, 0.0),
                Vec3::new(0.4, 0.0, 0.0),
                Vec3::new(0.0, 0.4, 0.0),
                Vec3::new(0.0, 0.0, 0.4),
            ])
            .unwrap(),
        };
        let b = RigidBody::new_dynamic(shape, 1.0)
            .unwrap()
            .with_linear_velocity(Vec3::new(
                rng.range_f32(-200.0, 200.0),
                rng.range_f32(-200.0, 200.0),
                rng.range_f32(-200.0, 200.0),
            ))
            .with_angular_velocity(Vec3::new(
                rng.range_f32(-30.0, 30.0),
                rng.range_f32(-30.0, 30.0),
                rng.range_f32(-30.0, 30.0),
            ));
        let id = w.add_body(b).unwrap();
        if std::env::var("CASE").map_or(false, |c| c != case.to_string()) {
            continue;
        }
        let dt = 1.0 / 60.0;
        for step in 0..4 {
            if let Err(e) = w.step(dt) {
                println!("case {case} kind {kind} step {step}: refused {e}");
                break;
            }
            let b = w.body(id).unwrap();
            if let Some(over) = room_overreach(b, half) {
                if over > room_tolerance(b.shape()) {
                    failures += 1;
                    println!(
                        "case {case} kind {kind} step {step}: over {over} report {:?} events {}",
                        w.ccd_report(),
                        w.events().len()
                    );
                    break;
                }
            }
        }
    }
    assert_eq!(failures, 0);
}

#[test]
fn scratch_many() {
    let mut rng = SplitMix64::new(11);
    let mut failures = 0;
    let mut refusals = 0;
    for case in 0..120 {
        let half = Vec3::new(3.0, 3.0, 3.0);
        let mut w = PhysicsWorld::new();
        w.collision_detection = SPHERE_MESH_CCD;
        if let Ok(n) = std::env::var("SUBSTEPS") {
            w.ccd_max_substeps = n.parse().unwrap();
        }
        if case % 2 == 0 {
            w.gravity = Vec3::zeros();
        }
        let (v, t) = room(half);
        w.add_body(RigidBody::new_static(Shape::mesh(v, t).unwrap()))
            .unwrap();
        for k in 0..8 {
            let shape = match rng.below(4) {
                0 => Shape::sphere(0.2).unwrap(),
                1 => Shape::capsule(0.1, 0.3).unwrap(),
                2 => Shape::cuboid(Vec3::new(0.3, 0.2, 0.1)).unwrap(),
                _ => Shape::convex_hull(&[
                    Vec3::new(0.0, 0.0, 0.0),
                    Vec3::new(0.4, 0.0, 0.0),
                    Vec3::new(0.0, 0.4, 0.0),
                    Vec3::new(0.0, 0.0, 0.4),
                ])
                .unwrap(),
            };
            let at = Vec3::new(
                -1.8 + 1.2 * (k % 4) as f32,
                -0.6 + 1.2 * (k / 4) as f32,
                rng.range_f32(-1.0, 1.0),
            );
            let b = RigidBody::new_dynamic(shape, 1.0)
                .unwrap()
                .with_position(at)
                .with_material(Material {
                    friction: 0.5,
                    restitution: rng.range_f32(0.0, 1.0),
                    bounce_threshold: 0.5,
                })
                .with_linear_velocity(Vec3::new(
                    rng.range_f32(-60.0, 60.0),
                    rng.range_f32(-60.0, 60.0),
                    rng.range_f32(-60.0, 60.0),
                ))
                .with_angular_velocity(Vec3::new(
                    rng.range_f32(-20.0, 20.0),
                    rng.range_f32(-20.0, 20.0),
                    rng.range_f32(-20.0, 20.0),
                ));
            w.add_body(b).unwrap();
        }
        if std::env::var("CASE").map_or(false, |c| c != case.to_string()) {
            continue;
        }
        for step in 0..30 {
            if let Err(e) = w.step(1.0 / 60.0) {
                println!("case {case} step {step}: refused {e}");
                refusals += 1;
                break;
            }
            let mut bad = false;
            for (id, b) in w.bodies() {
                if b.kind() != BodyKind::Dynamic {
                    continue;
                }
                if let Some(over) = room_overreach(b, half) {
                    if std::env::var("CASE").is_ok() && over > 0.002 {
                        println!("case {case} step {step}: {id:?} depth {over} tolerance {}", room_tolerance(b.shape()));
                    }
                    if over > room_tolerance(b.shape()) {
                        println!("case {case} step {step}: {id:?} over {over}");
                        bad = true;
                    }
                }
            }
            if let Some((d, a, b)) = parapet_tests::overlap::deepest(&w) {
                let (sa, sb) = (w.body(a).unwrap().shape(), w.body(b).unwrap().shape());
                let tol = parapet::ccd::tolerances::promised_depth(sa)
                    .min(parapet::ccd::tolerances::promised_depth(sb))
                    + 1e-5;
                if d > tol && w.body(a).unwrap().shape().is_solid() {
                    println!(
                        "case {case} step {step}: {a:?} {b:?} overlap {d} > {tol} report {:?}",
                        w.ccd_report()
                    );
                    bad = true;
                }
            }
            if bad {
                failures += 1;
                break;
            }
        }
    }
    println!("refusals {refusals}");
    assert_eq!(failures, 0);
}

#[test]
fn scratch_stack() {
    for n in 1..=3 {
        for gravity in [false, true] {
            let mut w = PhysicsWorld::new();
            w.collision_detection = SPHERE_MESH_CCD;
            w.gravity = if gravity {
                Vec3::new(0.0, 0.0, -9.8)
            } else {
                Vec3::zeros()
            };
            let m = Material {
                friction: 0.0,
                restitution: 0.0,
                bounce_threshold: 0.5,
            };
            let (v, t) = (
                vec![
                    Vec3::new(-5.0, -5.0, 0.0),
                    Vec3::new(5.0, -5.0, 0.0),
                    Vec3::new(0.0, 5.0, 0.0),
                ],
                vec![[0u32, 1, 2]],
            );
            w.add_body(RigidBody::new_static(Shape::mesh(v, t).unwrap()).with_material(m))
                .unwrap();
            let r = 0.125f32;
            let mut ids = vec![];
            for k in 0..n {
                ids.push(
                    w.add_body(
                        RigidBody::new_dynamic(Shape::sphere(r).unwrap(), 1.0)
                            .unwrap()
                            .with_material(m)
                            .with_position(Vec3::new(1.0, -1.0, r + 2.0 * r * k as f32)),
                    )
                    .unwrap(),
                );
            }
            ids.push(
                w.add_body(
                    RigidBody::new_dynamic(Shape::sphere(r).unwrap(), 1.0)
                        .unwrap()
                        .with_material(m)
                        .with_position(Vec3::new(1.0, -1.0, r + 2.0 * r * n as f32 + 0.2))
                        .with_linear_velocity(Vec3::new(0.0, 0.0, -40.0)),
                )
                .unwrap(),
            );
            w.step(0.01).unwrap();
            let zs: Vec<f32> = ids
                .iter()
                .map(|i| w.body(*i).unwrap().position().z)
                .collect();
            let vs: Vec<f32> = ids
                .iter()
                .map(|i| w.body(*i).unwrap().linear_velocity().z)
                .collect();
            println!(
                "n {n} g {gravity}: z {zs:?} v {vs:?} report {:?} events {}",
                w.ccd_report(),
                w.events().len()
            );
        }
    }
}
