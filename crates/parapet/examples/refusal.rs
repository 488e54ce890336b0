//! What the continuous mode refuses, and that nothing changed: for each
//! case the step returns `Err(StepError)` naming the body, the value and the
//! limit, and every body is bit for bit as before the call (positions,
//! velocities, pending forces), with no events. Every shape and motion is
//! swept; what remains refused is work beyond the world's limits, a contact
//! set no impulse can open, and numbers beyond the precision domain. The
//! fixes (a larger limit, the piston stopped) then step.
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
    world: &mut PhysicsWorld,
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

/// An elastic ball flying at 60 m/s between two walls 0.7 m apart: two
/// impacts in a step of 0.01 s (the right wall after 0.15 m, the left
/// after 0.45 m).
fn slot() -> Result<PhysicsWorld, Box<dyn std::error::Error>> {
    let mut world = ccd_world()?;
    world.gravity = Vec3::zeros();
    let bouncy = Material::new(0.0, 1.0, 0.0)?;
    for x in [-0.35, 0.35] {
        let wall = RigidBody::new_static(Shape::cuboid(Vec3::new(0.1, 1.0, 1.0))?)
            .with_position(Vec3::new(x, 0.0, 1.5))
            .with_material(bouncy);
        world.add_body(wall)?;
    }
    let mut ball = RigidBody::new_dynamic(Shape::sphere(0.1)?, 1.0)?
        .with_position(Vec3::new(0.0, 0.0, 1.5))
        .with_material(bouncy)
        .with_linear_velocity(Vec3::new(60.0, 0.0, 0.0));
    ball.add_force(Vec3::new(0.0, 5.0, 0.0)); // pending: must survive the refusal
    world.add_body(ball)?;
    Ok(world)
}

/// A ball resting on the floor and a kinematic piston coming down on it at
/// 30 m/s: no impulse on the ball opens both its contacts.
fn press() -> Result<(PhysicsWorld, BodyId), Box<dyn std::error::Error>> {
    let mut world = ccd_world()?;
    world.add_body(
        RigidBody::new_dynamic(Shape::sphere(0.1)?, 1.0)?.with_position(Vec3::new(0.0, 0.0, 0.1)),
    )?;
    let piston = world.add_body(
        RigidBody::new_kinematic(Shape::cuboid(Vec3::new(0.5, 0.5, 0.1))?)
            .with_position(Vec3::new(0.0, 0.0, 0.4))
            .with_linear_velocity(Vec3::new(0.0, 0.0, -30.0)),
    )?;
    Ok((world, piston))
}

/// What each refused case ends as once fixed, for the example's test.
pub struct Fixed {
    /// Swept impacts of the slot's step with two impacts allowed.
    pub slot_impacts: usize,
    /// Whether the stick's step went through with the default sub-step limit.
    pub stick_stepped: bool,
    /// The ball's height (m) once the piston stops short of it.
    pub pressed_ball_z: f32,
}

/// The refused cases, then the fixed worlds' outcomes.
pub fn cases() -> Result<(Vec<Refused>, Fixed), Box<dyn std::error::Error>> {
    let mut out = Vec::new();

    let mut w = slot()?;
    w.ccd_max_impacts = 1;
    out.push(attempt(
        "an elastic ball that needs two impacts in the step (ccd_max_impacts = 1)",
        &mut w,
    )?);
    w.ccd_max_impacts = 2;
    w.step(0.01)?;
    let slot_impacts = w.events().len();

    // A 2 m stick spinning end over end at 30 rad/s just above the floor:
    // its ends sweep down towards it, more than one advancement to certify.
    let mut w = ccd_world()?;
    w.gravity = Vec3::zeros();
    w.ccd_max_substeps = 1;
    w.add_body(
        RigidBody::new_dynamic(Shape::capsule(0.05, 1.0)?, 1.0)?
            .with_rotation(Quat::from_scaled_axis(Vec3::new(
                std::f32::consts::FRAC_PI_2,
                0.0,
                0.0,
            )))
            .with_position(Vec3::new(0.0, 0.0, 0.3))
            .with_angular_velocity(Vec3::new(30.0, 0.0, 0.0)),
    )?;
    out.push(attempt(
        "a spinning stick whose time of impact needs more than one advancement (ccd_max_substeps = 1)",
        &mut w,
    )?);
    w.ccd_max_substeps = PhysicsWorld::new().ccd_max_substeps;
    let stick_stepped = w.step(0.01).is_ok();

    let (mut w, piston) = press()?;
    out.push(attempt(
        "a ball pinned between a kinematic piston and the floor",
        &mut w,
    )?);
    w.body_mut(piston)
        .ok_or("the piston left the world")?
        .set_linear_velocity(Vec3::zeros());
    w.step(0.01)?;
    let ball = w
        .bodies()
        .find(|(_, b)| b.kind() == BodyKind::Dynamic)
        .map(|(_, b)| b.position().z)
        .ok_or("the ball left the world")?;

    let mut w = ccd_world()?;
    let mut far =
        RigidBody::new_dynamic(Shape::sphere(0.1)?, 1.0)?.with_position(Vec3::new(0.0, 0.0, 1.0));
    far.set_shape_offset(Vec3::new(20_000.0, 0.0, 0.0), Quat::identity())?;
    w.add_body(far)?;
    out.push(attempt(
        "a shape 20 km from its body (the precision domain: 10 km)",
        &mut w,
    )?);

    let mut w = ccd_world()?;
    w.ccd_max_impacts = 0;
    out.push(attempt("ccd_max_impacts = 0 (valid: 1..=1024)", &mut w)?);

    Ok((
        out,
        Fixed {
            slot_impacts,
            stick_stepped,
            pressed_ball_z: ball,
        },
    ))
}

/// Prints what the example shows (the test `tests/tests/examples_demo.rs` runs it too).
pub fn main() -> Result<(), Box<dyn std::error::Error>> {
    let (refused, fixed) = cases()?;
    for r in &refused {
        println!(
            "{}:\n  Err: {}\n  world unchanged: {}",
            r.case, r.error, r.unchanged
        );
    }
    println!(
        "fixed: the slot's ball takes {} impacts with two allowed; the stick steps with the default limit: {}; the ball under the stopped piston rests at z = {:.3} m",
        fixed.slot_impacts, fixed.stick_stepped, fixed.pressed_ball_z
    );
    Ok(())
}
