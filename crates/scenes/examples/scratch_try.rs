//! scratch (not committed)
use parapet::prelude::*;
use parapet_scenes::Measure;
use std::collections::BTreeMap;
use std::time::Instant;
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let name = args[1].as_str();
    let steps: usize = args[2].parse().unwrap();
    let modes: Vec<CollisionDetection> = match args.get(3).map(|s| s.as_str()) {
        Some("ccd") => vec![SPHERE_MESH_CCD],
        Some("discrete") => vec![DISCRETE],
        _ => vec![DISCRETE, SPHERE_MESH_CCD],
    };
    for mode in modes {
        let mut scene = match name {
            "crossroads" => parapet_scenes::crossroads::crossroads(mode, steps),
            "coarse" => parapet_scenes::crossroads::crossroads_coarse(mode, steps),
            "crash" => parapet_scenes::car_crash::car_crash(mode, steps),
            "bus" => parapet_scenes::bus_crowd::bus_crowd(mode, steps),
            "lift" => parapet_scenes::lift::lift_spheres(mode, steps),
            "rain" => {
                parapet_scenes::sphere_rain::sphere_rain(mode, args[4].parse().unwrap(), steps)
            }
            "dominoes" => parapet_scenes::dominoes::dominoes(mode, steps),
            "sticks" => parapet_scenes::spinning_stick::spinning_sticks(mode, steps),
            "liftcar" => Ok(liftcar(mode, steps)),
            _ => panic!(),
        }
        .unwrap();
        println!("bodies {}", scene.world.body_count());
        if let Ok(e) = std::env::var("RESTITUTION") {
            let e: f32 = e.parse().unwrap();
            let ids: Vec<BodyId> = scene.world.bodies().map(|(i, _)| i).collect();
            for id in ids {
                let b = scene.world.body_mut(id).unwrap();
                let m = b.material();
                b.set_material(Material {
                    restitution: e,
                    ..m
                });
            }
        }
        let t = Instant::now();
        let mut kinds: BTreeMap<String, (usize, f64, usize)> = BTreeMap::new();
        let mut impacts = 0;
        for step in 0..scene.steps {
            scene.apply_controls();
            let before = scene.world.clone();
            if let Err(e) = scene.world.step(scene.dt) {
                println!("refused step {step}: {e}");
                let bad = scene
                    .world
                    .bodies()
                    .nth(args.get(5).map_or(1, |a| a.parse().unwrap()))
                    .unwrap()
                    .1
                    .clone();
                println!(
                    "  car: p {:?} q {:?} v {:?} w {:?}",
                    bad.position(),
                    bad.rotation(),
                    bad.linear_velocity(),
                    bad.angular_velocity()
                );
                for (id, b) in scene.world.bodies() {
                    if (b.position() - bad.position()).norm() < 6.0 && b.shape().is_solid() {
                        println!(
                            "  near {id}: {:?} p {:?} v {:?} w {:?} kind {:?}",
                            b.shape(),
                            b.position(),
                            b.linear_velocity(),
                            b.angular_velocity(),
                            b.kind()
                        );
                    }
                }
                let mut w2 = scene.world.clone();
                w2.ccd_max_substeps = 65536;
                println!(
                    "  with 65536 substeps: {:?}",
                    w2.step(scene.dt)
                        .map(|_| w2.ccd_stats(scene.world.bodies().nth(1).unwrap().0))
                );
                break;
            }
            if name == "liftcar" && step % 10 == 0
                || (name == "liftcar" && (170..182).contains(&step))
            {
                let l = scene.world.bodies().nth(0).unwrap().1;
                let c = scene.world.bodies().nth(1).unwrap().1;
                let corners: Vec<f32> = [-1.0f32, 1.0]
                    .iter()
                    .flat_map(|&a| [-1.0f32, 1.0].map(move |b| (a, b)))
                    .map(|(a, b)| {
                        (c.position() + c.rotation() * Vec3::new(2.2 * a, 0.9 * b, -0.7)).z
                    })
                    .collect();
                let low = corners.iter().cloned().fold(f32::MAX, f32::min) as f64;
                println!("step {step}: lift z {:.6} vz {:.3} car z {:.6} vz {:.4} depth {:.6} mm stats {:?} ev {}", l.position().z, l.linear_velocity().z, c.position().z, c.linear_velocity().z, (l.position().z as f64 + 0.1 - low) * 1e3, scene.world.ccd_stats(scene.world.bodies().nth(1).unwrap().0), scene.world.events().len());
            }
            impacts += scene
                .world
                .events()
                .iter()
                .filter(|e| e.kind == ContactKind::Swept)
                .count();
            if let Measure::Bodies(j) = &scene.measure {
                for f in j.findings(&before, &scene.world) {
                    let k = format!("{:?} {} in {}", f.found, f.label, f.other_label);
                    let e = kinds.entry(k).or_insert((0, 0.0, step));
                    e.0 += 1;
                    if f.depth > e.1 {
                        e.1 = f.depth;
                        e.2 = step;
                    }
                }
            }
        }
        println!(
            "{:?}: {:.2}s impacts {impacts}",
            mode,
            t.elapsed().as_secs_f64()
        );
        for (k, v) in kinds {
            println!(
                "  {k}: {} findings, deepest {:.4} at step {}",
                v.0, v.1, v.2
            );
        }
    }
}

#[allow(dead_code)]
fn liftcar(mode: CollisionDetection, steps: usize) -> parapet_scenes::Scene {
    use parapet_scenes::control::Control;
    use parapet_scenes::overlap::Solid;
    use parapet_scenes::town::*;
    let mut cast = Cast::new(mode);
    let half = [2.6f32, 1.3, 0.1];
    let lift = RigidBody::new_kinematic(box_mesh(Vec3::from(half)).unwrap())
        .with_position(Vec3::new(20.0, 20.0, 0.1))
        .with_linear_velocity(Vec3::new(0.0, 0.0, 2.0));
    let lift = cast
        .add_as(
            lift,
            Solid::Cuboid {
                half: half.map(f64::from),
            },
            "lift",
        )
        .unwrap();
    let c = cast
        .add(car(20.0, 20.0, 0.2, 0.0, 0.0).unwrap(), "car")
        .unwrap();
    cast.scene(
        "liftcar",
        "liftcar",
        (1.0 / 60.0, steps),
        vec![c],
        None,
        vec![Control::Shuttle {
            body: lift,
            low: 0.1,
            high: 6.0,
            speed: 2.0,
        }],
    )
}
