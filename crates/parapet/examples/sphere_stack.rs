//! A struck sphere stack: four spheres (radius 0.25 m) resting in a column on
//! a floor, struck at the height of the second one by a fifth flying at
//! 120 m/s (2 m per 1/60 s step: four diameters). In DISCRETE the striker
//! passes through the stack between two steps. SPHERE_MESH_CCD sweeps the
//! striker and the stack together as one group (pair sweeps, impacts in time
//! order, cascade settling): the striker never passes through a stacked
//! sphere (docs/continuous-collision.md, "Moving groups").
//! Run with `cargo run -p parapet --example sphere_stack`.

use parapet::prelude::*;

/// Radius (m) of every sphere.
const RADIUS: f32 = 0.25;
/// Step (s).
const DT: f32 = 1.0 / 60.0;

/// What one run of the scene showed.
pub struct Strike {
    /// Steps completed.
    pub steps_taken: usize,
    /// Impacts found by the continuous sweeps, over all steps.
    pub swept_impacts: usize,
    /// The first step after which the striker had passed through a stacked
    /// sphere, if it did.
    pub crossed_at: Option<usize>,
    /// The error of a refused step (the run stops there; the world is as
    /// before that step).
    pub refusal: Option<StepError>,
    /// Final centres: the stack from the bottom up, then the striker.
    pub final_positions: Vec<Vec3>,
}

impl Strike {
    /// Whether the striker passed through a stacked sphere.
    pub fn crossed(&self) -> bool {
        self.crossed_at.is_some()
    }
}

/// Whether the striker's centre went from one side of a stacked sphere's
/// centre to the other along x (the strike direction) while level with it
/// (centres within the radius sum in y and z), farther than that sum in one
/// step: the two solids overlapped on the way and nothing pushed them apart.
fn passed_through(striker: (Vec3, Vec3), sphere: (Vec3, Vec3)) -> bool {
    let reach = 2.0 * RADIUS;
    let level = |s: Vec3, o: Vec3| (s.yz() - o.yz()).norm() < reach;
    let side = |s: Vec3, o: Vec3| (s.x - o.x).signum();
    side(striker.0, sphere.0) != side(striker.1, sphere.1)
        && level(striker.0, sphere.0)
        && level(striker.1, sphere.1)
        && (striker.1.x - striker.0.x).abs() > reach
}

/// The stack struck in `mode`, for `steps` steps.
pub fn strike(
    mode: CollisionDetection,
    steps: usize,
) -> Result<Strike, Box<dyn std::error::Error>> {
    let mut world = PhysicsWorld::new(); // gravity (0, 0, -9.8) m/s^2
    world.collision_detection = mode;
    // A 40 m square floor: two counter-clockwise triangles, front faces +z.
    let floor = Shape::mesh(
        vec![
            Vec3::new(-20.0, -20.0, 0.0),
            Vec3::new(20.0, -20.0, 0.0),
            Vec3::new(20.0, 20.0, 0.0),
            Vec3::new(-20.0, 20.0, 0.0),
        ],
        vec![[0, 1, 2], [0, 2, 3]],
    )?;
    world.add_body(RigidBody::new_static(floor))?;
    let mut bodies = Vec::new();
    for level in 0..4 {
        let z = RADIUS * (1.0 + 2.0 * level as f32);
        let sphere = RigidBody::new_dynamic(Shape::sphere(RADIUS)?, 1.0)?
            .with_position(Vec3::new(0.0, 0.0, z));
        bodies.push(world.add_body(sphere)?);
    }
    let striker = RigidBody::new_dynamic(Shape::sphere(RADIUS)?, 1.0)?
        .with_position(Vec3::new(-3.0, 0.0, 3.0 * RADIUS))
        .with_linear_velocity(Vec3::new(120.0, 0.0, 0.0));
    bodies.push(world.add_body(striker)?);

    let centres = |w: &PhysicsWorld| -> Vec<Vec3> {
        bodies
            .iter()
            .filter_map(|id| w.body(*id).map(|b| b.position()))
            .collect()
    };
    let mut out = Strike {
        steps_taken: 0,
        swept_impacts: 0,
        crossed_at: None,
        refusal: None,
        final_positions: centres(&world),
    };
    for step in 1..=steps {
        let before = centres(&world);
        if let Err(e) = world.step(DT) {
            out.refusal = Some(e);
            break;
        }
        out.steps_taken = step;
        out.swept_impacts += world
            .events()
            .iter()
            .filter(|e| e.kind == ContactKind::Swept)
            .count();
        let after = centres(&world);
        let (s0, s1) = (before[4], after[4]);
        let through = (0..4).any(|k| passed_through((s0, s1), (before[k], after[k])));
        if through && out.crossed_at.is_none() {
            out.crossed_at = Some(step);
        }
        out.final_positions = after;
    }
    Ok(out)
}

/// Prints what the example shows (the test `tests/tests/examples_demo.rs` runs it too).
pub fn main() -> Result<(), Box<dyn std::error::Error>> {
    for (name, mode) in [("DISCRETE", DISCRETE), ("SPHERE_MESH_CCD", SPHERE_MESH_CCD)] {
        let r = strike(mode, 30)?;
        println!(
            "{name}: {} steps, {} swept impacts",
            r.steps_taken, r.swept_impacts
        );
        for p in &r.final_positions {
            println!("  sphere at ({:.3}, {:.3}, {:.3})", p.x, p.y, p.z);
        }
        if let Some(step) = r.crossed_at {
            println!("  the striker passed through a stacked sphere in step {step}");
        }
        if let Some(e) = &r.refusal {
            println!("  refused: {e}");
        }
    }
    Ok(())
}
