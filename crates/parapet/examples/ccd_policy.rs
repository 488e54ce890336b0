//! The per-body CCD policy, the step's report and the dry run, one section
//! each (docs/continuous-collision.md, "Choosing per body"):
//!
//! 1. **Per body**: in a DISCRETE world, four spheres fall at 30 m/s onto a
//!    floor from 0.15 m, each with its own `CcdMode`: `Discrete` passes
//!    through, `Continuous` and `Auto` (fast for its size) are stopped one
//!    radius above it; a fifth, `Auto` and slow, stays discrete.
//! 2. **The report**: what the continuous stage did in that step
//!    (`ccd_report`) and for each body (`ccd_stats`).
//! 3. **The dry run**: a world the step would refuse twice, listed by
//!    `check_ccd` without changing anything, then fixed by the recipes (a
//!    body to `Discrete`, a larger limit) until the list is empty and the
//!    step goes through.
//!
//! Run with `cargo run -p parapet --example ccd_policy`.

use parapet::ccd::{BodyCcdStats, CcdMode, CcdRefusal, CcdReport};
use parapet::prelude::*;

fn floor() -> Result<RigidBody, ShapeError> {
    Ok(RigidBody::new_static(Shape::mesh(
        vec![
            Vec3::new(-10.0, -10.0, 0.0),
            Vec3::new(10.0, -10.0, 0.0),
            Vec3::new(0.0, 10.0, 0.0),
        ],
        vec![[0, 1, 2]],
    )?))
}

/// One sphere of section 1: its mode, its height after the step and its
/// stats.
pub struct Dropped {
    /// The mode it was given.
    pub mode: CcdMode,
    /// Its centre's height after one step (m).
    pub z: f32,
    /// What the step did with it.
    pub stats: BodyCcdStats,
}

/// Section 1 and 2: the spheres and the step's report.
pub fn per_body() -> Result<(Vec<Dropped>, CcdReport), Box<dyn std::error::Error>> {
    let mut world = PhysicsWorld::new(); // DISCRETE is the default
    world.add_body(floor()?)?;
    let drops = [
        (CcdMode::Discrete, -30.0),
        (CcdMode::Continuous, -30.0),
        (CcdMode::Auto, -30.0),
        // 0.2 m diameter: under a quarter of it per step (5 m/s at 0.01 s).
        (CcdMode::Auto, -2.0),
    ];
    let mut ids = Vec::new();
    for (i, (mode, vz)) in drops.iter().enumerate() {
        let ball = RigidBody::new_dynamic(Shape::sphere(0.1)?, 1.0)?
            .with_position(Vec3::new(2.0 * i as f32 - 3.0, 0.0, 0.15))
            .with_linear_velocity(Vec3::new(0.0, 0.0, *vz))
            .with_ccd(*mode);
        ids.push(world.add_body(ball)?);
    }
    world.step(0.01)?;
    let mut out = Vec::new();
    for (id, (mode, _)) in ids.iter().zip(drops) {
        out.push(Dropped {
            mode,
            z: world
                .body(*id)
                .ok_or("the sphere left the world")?
                .position()
                .z,
            stats: world.ccd_stats(*id).ok_or("the sphere was stepped")?,
        });
    }
    Ok((out, *world.ccd_report()))
}

/// What section 3 gives: the refusals listed as built and after each fix,
/// and whether the dry run left the world unchanged each time.
pub type DryRun = (Vec<Vec<CcdRefusal>>, bool);

/// Section 3: the refusals listed before and after each fix, and whether
/// the dry run left the world unchanged each time.
pub fn dry_run() -> Result<DryRun, Box<dyn std::error::Error>> {
    let mut world = PhysicsWorld::new();
    world.collision_detection = SPHERE_MESH_CCD;
    world.add_body(floor()?)?;
    // A ball resting on the floor under a kinematic piston coming down at
    // 30 m/s: no impulse on the ball opens both its contacts.
    let pinned =
        RigidBody::new_dynamic(Shape::sphere(0.1)?, 1.0)?.with_position(Vec3::new(0.0, 0.0, 0.1));
    let pinned = world.add_body(pinned)?;
    world.add_body(
        RigidBody::new_kinematic(Shape::cuboid(Vec3::new(0.5, 0.5, 0.1))?)
            .with_position(Vec3::new(0.0, 0.0, 0.4))
            .with_linear_velocity(Vec3::new(0.0, 0.0, -30.0)),
    )?;
    // A ball rattling between the floor and a low ceiling: more impacts in
    // one step than the limit allows.
    world.ccd_max_impacts = 1;
    let ceiling = RigidBody::new_static(Shape::mesh(
        vec![
            Vec3::new(4.0, -1.0, 0.3),
            Vec3::new(6.0, 1.0, 0.3),
            Vec3::new(6.0, -1.0, 0.3),
        ],
        vec![[0, 1, 2]],
    )?);
    world.add_body(ceiling)?;
    let rattler = RigidBody::new_dynamic(Shape::sphere(0.1)?, 1.0)?
        .with_position(Vec3::new(5.0, -0.5, 0.15))
        .with_linear_velocity(Vec3::new(0.0, 0.0, -40.0))
        .with_material(Material::new(0.0, 1.0, 0.5)?);
    world.add_body(rattler)?;

    let mut lists = Vec::new();
    let mut unchanged = true;
    let mut check = |world: &PhysicsWorld, lists: &mut Vec<Vec<CcdRefusal>>| {
        let before: Vec<RigidBody> = world.bodies().map(|(_, b)| b.clone()).collect();
        lists.push(world.check_ccd_for(0.01));
        let after: Vec<RigidBody> = world.bodies().map(|(_, b)| b.clone()).collect();
        unchanged &= before == after;
    };
    check(&world, &mut lists);
    // The step reports the first listed body, and rolls back.
    let first = world.step(0.01).err();
    if first.as_ref() != lists[0].first().map(|r| &r.error) {
        return Err("the step and the dry run disagree".into());
    }
    // Recipe: the pinned ball to Discrete (the contact solve pushes it
    // aside or through, as a discrete engine does; nothing is refused).
    world
        .body_mut(pinned)
        .ok_or("the ball left the world")?
        .set_ccd(CcdMode::Discrete);
    check(&world, &mut lists);
    // Recipe: a larger impact limit.
    world.ccd_max_impacts = 16;
    check(&world, &mut lists);
    world.step(0.01)?;
    Ok((lists, unchanged))
}

/// Prints what the example shows (the test `tests/tests/examples_demo.rs`
/// runs it too).
pub fn main() -> Result<(), Box<dyn std::error::Error>> {
    let (drops, report) = per_body()?;
    println!("1. per body, in a DISCRETE world (0.1 m spheres from 0.15 m):");
    for d in &drops {
        println!(
            "  {:?}: z = {:.3} m, resolved {:?}, {} swept impact(s)",
            d.mode, d.z, d.stats.mode, d.stats.impacts
        );
    }
    println!("2. the step's report: {report:?}");
    let (lists, unchanged) = dry_run()?;
    println!("3. the dry run (world unchanged each time: {unchanged}):");
    for (k, list) in lists.iter().enumerate() {
        let fix = [
            "as built",
            "pinned ball to Discrete",
            "ccd_max_impacts = 16",
        ][k.min(2)];
        println!("  {fix}: {} refusal(s)", list.len());
        for r in list {
            println!("    {}", r);
        }
    }
    Ok(())
}
