//! What an unsupported world returns in SPHERE_MESH_CCD, and that nothing
//! changed: for each case the step returns `Err(StepError)` naming the body,
//! the quantity, its value and the limit, and every body is bit for bit as
//! before the call (positions, velocities, pending forces). The last case
//! fixes the world (locks the box's rotation) and the step succeeds.
//! Run with `cargo run -p parapet --example refusal`.

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

/// One refused world: its name, the error, and whether the world stayed unchanged.
pub struct Refused {
    /// What the case is.
    pub case: &'static str,
    /// The step's error.
    pub error: StepError,
    /// Every body equal to its state before the call, and no events.
    pub unchanged: bool,
}

fn attempt(
    case: &'static str,
    mut world: PhysicsWorld,
) -> Result<Refused, Box<dyn std::error::Error>> {
    let before: Vec<RigidBody> = world.bodies().map(|(_, b)| b.clone()).collect();
    let error = match world.step(0.01) {
        Err(e) => e,
        Ok(()) => return Err(format!("{case}: the step was accepted").into()),
    };
    let after: Vec<RigidBody> = world.bodies().map(|(_, b)| b.clone()).collect();
    Ok(Refused {
        case,
        error,
        unchanged: before == after && world.events().is_empty(),
    })
}

fn ccd_world() -> Result<PhysicsWorld, Box<dyn std::error::Error>> {
    let mut world = PhysicsWorld::new();
    world.collision_detection = SPHERE_MESH_CCD;
    world.add_body(floor()?)?;
    Ok(world)
}

fn turning_box() -> Result<RigidBody, Box<dyn std::error::Error>> {
    let mut b = RigidBody::new_dynamic(Shape::cuboid(Vec3::new(0.5, 0.5, 0.5))?, 10.0)?
        .with_position(Vec3::new(0.0, 0.0, 0.8))
        .with_linear_velocity(Vec3::new(0.0, 0.0, -40.0));
    b.add_force(Vec3::new(5.0, 0.0, 0.0)); // pending: must survive the refusal
    Ok(b)
}

/// The refused cases, then the fixed world's outcome: the box's centre
/// height after one step (it starts at 0.8 m, 0.3 m above the floor, and
/// would travel 0.4 m: it stops on the floor at its half extent, 0.5 m).
pub fn cases() -> Result<(Vec<Refused>, f32), Box<dyn std::error::Error>> {
    let mut out = Vec::new();

    let mut w = ccd_world()?;
    let mut locked = turning_box()?;
    locked.set_inverse_inertia(Mat3::zeros())?;
    locked.add_torque(Vec3::new(0.0, 0.0, 2.0));
    w.add_body(locked)?;
    out.push(attempt(
        "a box pushed to turn without a tensor to turn with (zero inverse inertia, a pending torque)",
        w,
    )?);

    let mut w = ccd_world()?;
    w.add_body(
        RigidBody::new_kinematic(Shape::capsule(0.2, 0.5)?).with_position(Vec3::new(0.0, 0.0, 1.0)),
    )?;
    out.push(attempt(
        "a kinematic capsule (only kinematic spheres are swept)",
        w,
    )?);

    let mut w = ccd_world()?;
    w.add_body(RigidBody::new_static(Shape::sphere(1.0)?).with_position(Vec3::new(5.0, 0.0, 1.0)))?;
    out.push(attempt(
        "a static sphere (static colliders must be meshes)",
        w,
    )?);

    let mut w = ccd_world()?;
    w.ccd_max_impacts = 0;
    out.push(attempt("ccd_max_impacts = 0 (valid: 1..=1024)", w)?);

    // The fix: a box that cannot turn (zero inverse inertia) is swept exactly.
    let mut w = ccd_world()?;
    let mut b = turning_box()?;
    b.set_inverse_inertia(Mat3::zeros())?;
    let id = w.add_body(b)?;
    w.step(0.01)?;
    let z = w.body(id).ok_or("the box left the world")?.position().z;
    Ok((out, z))
}

/// Prints what the example shows (the test `tests/tests/examples_demo.rs` runs it too).
pub fn main() -> Result<(), Box<dyn std::error::Error>> {
    let (refused, fixed_z) = cases()?;
    for r in &refused {
        println!(
            "{}:\n  Err: {}\n  world unchanged: {}",
            r.case, r.error, r.unchanged
        );
    }
    println!("with the box's rotation locked the step succeeds: box centre at z = {fixed_z:.3} m");
    Ok(())
}
