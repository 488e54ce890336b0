//! Collision filters and sensors on a test track (docs/continuous-collision.md,
//! "Filters and sensors"), two seconds at 60 Hz:
//!
//! 1. **An excluded pair**: a tow truck and its tow bar, two bodies placed
//!    overlapping at the hitch, slide together on a frictionless floor;
//!    `ignore_pair` keeps them from pushing each other apart.
//! 2. **Collision groups**: six pieces of debris dropped in one column, in
//!    a group whose filter leaves out its own members: they pass through
//!    each other and all land on the floor.
//! 3. **Sensors**: the truck drives through a pit-lane zone (entered, then
//!    left, steps apart), and a bullet at 500 m/s crosses a 1 cm finish line
//!    within one step (in and out between two steps: reported as crossed,
//!    with the fraction of the step at which it reached the line).
//!
//! Every step's events are drained (`drain_events`) and the sensor events
//! printed. Run with `cargo run -p parapet --example filters_sensors`.

use parapet::prelude::*;

/// Step (s).
pub const DT: f32 = 1.0 / 60.0;
/// Steps run.
pub const STEPS: usize = 120;
/// The debris group: its members are in it, and its filter leaves it out.
pub const DEBRIS: u32 = 0b100;

/// The bodies of the track.
pub struct Track {
    /// The world.
    pub world: PhysicsWorld,
    /// The floor.
    pub floor: BodyId,
    /// The tow truck.
    pub truck: BodyId,
    /// Its tow bar, overlapping it at the hitch.
    pub bar: BodyId,
    /// The debris.
    pub debris: Vec<BodyId>,
    /// The pit-lane zone (a sensor).
    pub pit: BodyId,
    /// The finish line (a sensor).
    pub finish: BodyId,
    /// The bullet.
    pub bullet: BodyId,
}

/// The track before its first step.
pub fn track() -> Result<Track, Box<dyn std::error::Error>> {
    let mut world = PhysicsWorld::new();
    let slick = Material::new(0.0, 0.0, 0.5)?;
    let floor = world.add_body(
        RigidBody::new_static(Shape::cuboid(Vec3::new(40.0, 10.0, 0.5))?)
            .with_position(Vec3::new(15.0, 0.0, -0.5))
            .with_material(slick),
    )?;
    // The truck (4 m by 2 m by 1 m) and its bar lying on the floor, which
    // reaches 0.3 m into the truck's back: one machine, two bodies.
    let drive = Vec3::new(10.0, 0.0, 0.0);
    let truck = world.add_body(
        RigidBody::new_dynamic(Shape::cuboid(Vec3::new(2.0, 1.0, 0.5))?, 2000.0)?
            .with_position(Vec3::new(0.25, 0.0, 0.5))
            .with_linear_velocity(drive)
            .with_material(slick),
    )?;
    let bar = world.add_body(
        RigidBody::new_dynamic(Shape::cuboid(Vec3::new(1.0, 0.1, 0.1))?, 50.0)?
            .with_position(Vec3::new(-2.45, 0.0, 0.1))
            .with_linear_velocity(drive)
            .with_material(slick),
    )?;
    world.ignore_pair(truck, bar)?;
    // Debris: a column of six 0.2 m cubes, each overlapping the next.
    let debris_groups = CollisionGroups::new(DEBRIS, !DEBRIS);
    let mut debris = Vec::new();
    for k in 0..6 {
        debris.push(
            world.add_body(
                RigidBody::new_dynamic(Shape::cuboid(Vec3::new(0.1, 0.1, 0.1))?, 1.0)?
                    .with_position(Vec3::new(5.0, 5.0, 0.3 + 0.15 * k as f32))
                    .with_collision_groups(debris_groups),
            )?,
        );
    }
    let pit = world.add_body(
        RigidBody::new_static(Shape::cuboid(Vec3::new(2.0, 3.0, 2.0))?)
            .with_position(Vec3::new(10.0, 0.0, 2.0))
            .with_sensor(true),
    )?;
    let finish = world.add_body(
        RigidBody::new_static(Shape::cuboid(Vec3::new(0.005, 10.0, 3.0))?)
            .with_position(Vec3::new(30.0, 0.0, 3.0))
            .with_sensor(true),
    )?;
    let bullet = world.add_body(
        RigidBody::new_dynamic(Shape::sphere(0.01)?, 0.01)?
            .with_position(Vec3::new(26.0, -5.0, 1.5))
            .with_linear_velocity(Vec3::new(500.0, 0.0, 0.0)),
    )?;
    Ok(Track {
        world,
        floor,
        truck,
        bar,
        debris,
        pit,
        finish,
        bullet,
    })
}

/// What the run saw.
pub struct Run {
    /// The track after the last step.
    pub track: Track,
    /// Every sensor event, with the step (1-based) it happened in.
    pub sensed: Vec<(usize, SensorEvent)>,
    /// The contact events that named two debris pieces, or the truck and
    /// its bar.
    pub filtered_contacts: usize,
    /// Contact events between debris and the floor.
    pub debris_on_floor: usize,
}

/// Runs the track for [`STEPS`] steps, draining the events of each.
pub fn run() -> Result<Run, Box<dyn std::error::Error>> {
    let mut track = track()?;
    let mut sensed = Vec::new();
    let (mut filtered_contacts, mut debris_on_floor) = (0, 0);
    for step in 1..=STEPS {
        track.world.step(DT)?;
        for event in track.world.drain_events() {
            match event {
                WorldEvent::Sensor(e) => sensed.push((step, e)),
                WorldEvent::Contact(c) => {
                    let pair = [c.body_a, c.body_b];
                    let debris = pair.iter().filter(|id| track.debris.contains(id)).count();
                    let machine = pair.contains(&track.truck) && pair.contains(&track.bar);
                    filtered_contacts += usize::from(debris == 2 || machine);
                    debris_on_floor += usize::from(debris == 1 && pair.contains(&track.floor));
                }
                _ => {}
            }
        }
    }
    Ok(Run {
        track,
        sensed,
        filtered_contacts,
        debris_on_floor,
    })
}

/// The name of a body of the track.
fn name(track: &Track, id: BodyId) -> &'static str {
    match id {
        id if id == track.truck => "truck",
        id if id == track.bar => "tow bar",
        id if id == track.pit => "pit lane",
        id if id == track.finish => "finish line",
        id if id == track.bullet => "bullet",
        _ => "debris",
    }
}

/// Prints the sensor events and what the filters kept apart.
pub fn main() -> Result<(), Box<dyn std::error::Error>> {
    let run = run()?;
    let t = &run.track;
    for (step, e) in &run.sensed {
        println!(
            "step {step:3} + {:.3}: {} {:?} the {}",
            e.time,
            name(t, e.body),
            e.kind,
            name(t, e.sensor)
        );
    }
    let truck = t.world.body(t.truck).ok_or("the truck")?.position();
    let bar = t.world.body(t.bar).ok_or("the bar")?.position();
    println!(
        "truck and bar after {STEPS} steps: {:.3} m apart along x (2.700 at the start)",
        truck.x - bar.x
    );
    let heights: Vec<String> = t
        .debris
        .iter()
        .filter_map(|&id| t.world.body(id))
        .map(|b| format!("{:.3}", b.position().z))
        .collect();
    println!("debris heights: {} m", heights.join(", "));
    println!(
        "contact events between filtered pairs: {}; debris on the floor: {}",
        run.filtered_contacts, run.debris_on_floor
    );
    Ok(())
}
