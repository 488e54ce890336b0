//! Writes the example scene files of the repository's `scenes/` directory
//! from the worlds of `parapet-scenes` (the scenes the tests, benchmarks and
//! demo share), so a scene file and a Rust scene describe the same world:
//!
//! ```text
//! cargo run -p parapet-cli --example make_scenes            # writes scenes/*.json
//! ```
//!
//! The `example_scenes` test checks that the committed files are what this
//! writes.

use std::path::Path;

use parapet::ccd::CcdMode;
use parapet::prelude::*;
use parapet_cli::scene::{scene_from_world, write_scene};
use parapet_scenes::terrain::HeightField;
use parapet_scenes::{Measure, Scene};

#[allow(dead_code)] // only its track is used here
#[path = "../../parapet/examples/filters_sensors.rs"]
mod filters_sensors;

/// One example scene: its file stem and its JSON text.
pub struct Example {
    /// The file stem (`scenes/<stem>.json`).
    pub stem: &'static str,
    /// The scene file's text.
    pub text: String,
}

type Failure = Box<dyn std::error::Error>;

/// The JSON of `world` with its bodies named `names` (in insertion order).
fn json(world: &PhysicsWorld, dt: f32, steps: usize, names: &[String]) -> Result<String, Failure> {
    let mut scene = scene_from_world(world, dt, steps as u64)?;
    for (body, name) in scene.bodies.iter_mut().zip(names) {
        body.name = Some(name.clone());
    }
    // The excluded pairs name the bodies by their default names
    // (`body<index>`): give them the new ones.
    for pair in &mut scene.ignored_pairs {
        for name in pair.iter_mut() {
            let index = name
                .strip_prefix("body")
                .and_then(|i| i.parse::<usize>().ok());
            if let Some(new) = index.and_then(|i| names.get(i)) {
                name.clone_from(new);
            }
        }
    }
    Ok(write_scene(&scene)?)
}

fn named(names: &[&str]) -> Vec<String> {
    names.iter().map(|n| (*n).to_owned()).collect()
}

/// The names of a judged scene's bodies: each judged body by its label
/// and its rank among the bodies of that label (`car_1`, `walker_12`),
/// the others (the ground) `ground`.
fn judged_names(scene: &Scene) -> Vec<String> {
    let Measure::Bodies(judge) = &scene.measure else {
        return Vec::new();
    };
    let mut counts: std::collections::BTreeMap<&str, usize> = Default::default();
    scene
        .world
        .bodies()
        .map(|(id, _)| match judge.bodies.iter().find(|j| j.body == id) {
            Some(j) => {
                let k = counts.entry(j.label).or_default();
                *k += 1;
                format!("{}_{k}", j.label.replace(' ', "_"))
            }
            None => "ground".to_owned(),
        })
        .collect()
}

/// Spheres and rotation-locked capsules, 6 by 6 (36 bodies), falling at up
/// to 25 m/s onto a 512-triangle generated terrain: the crowd scene.
fn crowd() -> Result<(PhysicsWorld, Vec<String>), Failure> {
    let field = HeightField::generate(7, 16, 16, 0.75, 0.4);
    let mut world = PhysicsWorld::new();
    world.collision_detection = SPHERE_MESH_CCD;
    world.add_body(RigidBody::new_static(field.mesh()?))?;
    let mut names = vec!["terrain".to_owned()];
    for i in 0..6 {
        for j in 0..6 {
            let (x, y) = (-3.75 + 1.5 * i as f32, -3.75 + 1.5 * j as f32);
            let fall = -10.0 - 3.0 * ((i + 2 * j) % 6) as f32;
            let body = if (i + j) % 2 == 0 {
                names.push(format!("sphere_{i}_{j}"));
                RigidBody::new_dynamic(Shape::sphere(0.25)?, 1.0)?
            } else {
                names.push(format!("capsule_{i}_{j}"));
                let mut capsule = RigidBody::new_dynamic(Shape::capsule(0.2, 0.3)?, 2.0)?;
                capsule.set_inverse_inertia(Mat3::zeros())?;
                capsule
            };
            let body = body
                .with_position(Vec3::new(x, y, 2.5 + 0.25 * (j as f32)))
                .with_linear_velocity(Vec3::new(0.5, -0.25, fall));
            world.add_body(body)?;
        }
    }
    Ok((world, names))
}

/// The test track of the `filters_sensors` example (a tow truck and its
/// bar excluded from each other, debris whose group ignores itself, a
/// pit-lane zone and a 1 cm finish line as sensors, a bullet at 500 m/s),
/// with a backstop behind the finish line that the bullet, swept
/// continuously in this `DISCRETE` world, strikes instead of flying off.
fn filters_track() -> Result<(PhysicsWorld, Vec<String>), Failure> {
    let mut track = filters_sensors::track()?;
    track.world.add_body(
        RigidBody::new_static(Shape::cuboid(Vec3::new(0.5, 1.0, 1.0))?)
            .with_position(Vec3::new(36.0, -5.0, 1.5)),
    )?;
    if let Some(bullet) = track.world.body_mut(track.bullet) {
        bullet.set_ccd(CcdMode::Continuous);
    }
    let mut names = named(&["floor", "truck", "tow_bar"]);
    names.extend((0..track.debris.len()).map(|k| format!("debris{k}")));
    names.extend(named(&["pit_lane", "finish_line", "bullet", "backstop"]));
    Ok((track.world, names))
}

/// Every example scene, in a fixed order.
///
/// # Errors
/// A scene of `parapet-scenes` that cannot be built or described.
pub fn examples() -> Result<Vec<Example>, Failure> {
    let ccd = SPHERE_MESH_CCD;
    let tunneling = parapet_scenes::tunneling(ccd, 50)?;
    // 75 steps of 1/30 s: 2.5 s, the walker still on the 20 m terrain.
    let mut walker = parapet_scenes::capsule_walker(ccd, 75)?;
    // A file has no controller to hold the walking velocity each step: the
    // walker glides without friction instead, so that it still crosses
    // the terrain after its landing (speeding up downhill).
    if let Some(body) = walker.world.body_mut(walker.subject) {
        body.set_material(Material {
            friction: 0.0,
            ..body.material()
        });
    }
    let stack = parapet_scenes::sphere_stack(ccd, 60)?;
    let wall = parapet_scenes::fast_box_wall(ccd, 30)?;
    let (crowd, crowd_names) = crowd()?;
    // 60 steps of 1/60 s: the chassis strikes the kerb wall and bounces.
    let kerb = parapet_scenes::vehicles::chassis_kerb(ccd, 60)?;
    let stack_names = named(&["floor", "stack0", "stack1", "stack2", "stack3", "striker"]);
    // The town scenes without their controllers (a file has none): the
    // cars coast from their driving speeds, the walkers stand, the lift
    // keeps rising at 2 m/s and the bus crosses.
    let crossroads = parapet_scenes::crossroads::crossroads(ccd, 600)?;
    let crash = parapet_scenes::car_crash::car_crash(ccd, 90)?;
    let (filters, filters_names) = filters_track()?;
    Ok(vec![
        Example {
            stem: "tunneling",
            text: json(
                &tunneling.world,
                tunneling.dt,
                tunneling.steps,
                &named(&["floor", "ball"]),
            )?,
        },
        Example {
            stem: "walker_on_terrain",
            text: json(
                &walker.world,
                walker.dt,
                walker.steps,
                &named(&["terrain", "walker"]),
            )?,
        },
        Example {
            stem: "struck_stack",
            text: json(&stack.world, stack.dt, stack.steps, &stack_names)?,
        },
        Example {
            stem: "fast_box_wall",
            text: json(
                &wall.world,
                wall.dt,
                wall.steps,
                &named(&["floor_and_wall", "cube"]),
            )?,
        },
        Example {
            stem: "crowd",
            text: json(&crowd, 1.0 / 60.0, 90, &crowd_names)?,
        },
        Example {
            stem: "crossroads",
            text: json(
                &crossroads.world,
                crossroads.dt,
                crossroads.steps,
                &judged_names(&crossroads),
            )?,
        },
        Example {
            stem: "car_crash",
            text: json(&crash.world, crash.dt, crash.steps, &judged_names(&crash))?,
        },
        Example {
            stem: "chassis_kerb",
            text: json(
                &kerb.world,
                kerb.dt,
                kerb.steps,
                &named(&["floor_and_kerb", "chassis"]),
            )?,
        },
        Example {
            stem: "filters_sensors",
            text: json(
                &filters,
                filters_sensors::DT,
                filters_sensors::STEPS,
                &filters_names,
            )?,
        },
    ])
}

#[allow(dead_code)] // the example_scenes test includes this file for `examples`
fn main() -> Result<(), Failure> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenes");
    std::fs::create_dir_all(&dir)?;
    for example in examples()? {
        let path = dir.join(format!("{}.json", example.stem));
        std::fs::write(&path, &example.text)?;
        println!("wrote {}", path.display());
    }
    Ok(())
}
