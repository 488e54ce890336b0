//! A fast box against a wall: a rotation-locked cube (half extent 0.25 m, a
//! box that cannot turn, which the continuous mode sweeps exactly) sliding on
//! a floor at 80 m/s towards a one-sided wall 6 m away; each step of 1/60 s
//! carries it 1.33 m, more than its width.

use parapet::prelude::*;

use crate::scene::{Measure, Scene};
use crate::SceneError;

/// The cube's half extent (m).
pub const HALF_EXTENT: f32 = 0.25;
/// Its speed (m/s) towards the wall.
pub const SPEED: f32 = 80.0;
/// The wall plane's x (m).
pub const WALL_X: f32 = 6.0;
/// Step (s).
pub const DT: f32 = 1.0 / 60.0;

/// Floor (z = 0, front up) and wall (x = [`WALL_X`], front towards -x), one mesh.
pub fn floor_and_wall() -> Result<Shape, ShapeError> {
    let w = WALL_X;
    Shape::mesh(
        vec![
            Vec3::new(-10.0, -10.0, 0.0),
            Vec3::new(10.0, -10.0, 0.0),
            Vec3::new(10.0, 10.0, 0.0),
            Vec3::new(-10.0, 10.0, 0.0),
            Vec3::new(w, -5.0, 0.0),
            Vec3::new(w, 5.0, 0.0),
            Vec3::new(w, 5.0, 4.0),
            Vec3::new(w, -5.0, 4.0),
        ],
        // Wall: (b - a) x (c - a) = (0, 10, 0) x (0, 10, 4) = (40, 0, 0)
        // points +x for [4, 5, 6]; reversed, [4, 6, 5] faces -x.
        vec![[0, 1, 2], [0, 2, 3], [4, 6, 5], [4, 7, 6]],
    )
}

/// The scene in `mode`, for `steps` steps (the demo runs 30: 0.5 s).
///
/// # Errors
///
/// [`SceneError`] if a body is refused (never for these fixed values).
pub fn fast_box_wall(mode: CollisionDetection, steps: usize) -> Result<Scene, SceneError> {
    let mut world = PhysicsWorld::new();
    world.collision_detection = mode;
    world.add_body(RigidBody::new_static(floor_and_wall()?))?;
    let h = HALF_EXTENT;
    let mut cube = RigidBody::new_dynamic(Shape::cuboid(Vec3::new(h, h, h))?, 20.0)?
        .with_position(Vec3::new(0.0, 0.0, h))
        .with_linear_velocity(Vec3::new(SPEED, 0.0, 0.0));
    // A box that cannot turn (zero inverse inertia): the swept kind.
    cube.set_inverse_inertia(Mat3::zeros())?;
    let cube = world.add_body(cube)?;
    Ok(Scene {
        name: "fast_box_wall",
        title: "a rotation-locked cube (0.5 m) sliding at 80 m/s into a wall 6 m away",
        world,
        dt: DT,
        steps,
        subject: cube,
        watched: vec![cube],
        measure: Measure::ToWall {
            wall: WALL_X as f64,
            half_extent: HALF_EXTENT as f64,
        },
        controls: Vec::new(),
    })
}
