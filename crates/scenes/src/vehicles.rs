//! Vehicle scenes: boxes and hulls that turn, which SPHERE_MESH_CCD sweeps
//! as turning solids in certified sub-steps (docs/continuous-collision.md,
//! "Turning solids").
//!
//! - [`chassis_kerb()`]: a 1,500 kg chassis, a 4.4 x 1.8 x 1.4 m box, at
//!   60 m/s along a floor and yawing at 5 rad/s, into a kerb wall.
//! - [`car_rollover()`]: the same chassis after a jump, rolled onto its
//!   side and rolling at 4 rad/s, landing at 15 m/s forward and 14 m/s
//!   down on a rough terrain of 8,192 triangles: it rolls over.
//! - [`hull_crate()`]: an irregular hull crate tumbling at 100 m/s onto
//!   that terrain.
//!
//! The crossing checks are the scene's own ([`Measure::SolidAboveTerrain`],
//! [`Measure::SolidToWall`]): sampled points of the solid's surface against
//! the height field or the wall plane in `f64`, sharing no code with
//! parapet's contacts or sweeps.

use parapet::prelude::*;

use crate::overlap::box_surface;
use crate::scene::{Measure, Scene};
use crate::terrain::HeightField;
use crate::SceneError;

/// The chassis half extents (m): a 4.4 x 1.8 x 1.4 m box.
pub const CHASSIS_HALF: [f32; 3] = [2.2, 0.9, 0.7];
/// The chassis mass (kg).
pub const CHASSIS_MASS: f32 = 1500.0;
/// The kerb wall plane's x (m); its front faces -x.
pub const KERB_X: f32 = 6.0;
/// The kerb wall's height (m): above the chassis roof, so that a crossing
/// is a pass through it, never a jump over it.
pub const KERB_HEIGHT: f32 = 3.0;
/// Step (s).
pub const DT: f32 = 1.0 / 60.0;

/// The rough terrain of the vehicle scenes: 64 x 64 cells of 1 m (8,192
/// triangles), bumps of up to 0.3 m.
pub fn vehicle_terrain() -> HeightField {
    HeightField::generate(0x7665_6869, 64, 64, 1.0, 0.3)
}

/// The chassis body (no pose yet).
pub(crate) fn chassis() -> Result<RigidBody, SceneError> {
    let h = Vec3::from(CHASSIS_HALF);
    Ok(RigidBody::new_dynamic(Shape::cuboid(h)?, CHASSIS_MASS)?
        .with_material(Material::new(0.8, 0.1, 0.5)?))
}

/// Floor (z = 0, front up) and the kerb wall (x = [`KERB_X`], front towards
/// -x, [`KERB_HEIGHT`] high), one mesh.
fn floor_and_kerb() -> Result<Shape, ShapeError> {
    let (w, top) = (KERB_X, KERB_HEIGHT);
    Shape::mesh(
        vec![
            Vec3::new(-30.0, -30.0, 0.0),
            Vec3::new(30.0, -30.0, 0.0),
            Vec3::new(30.0, 30.0, 0.0),
            Vec3::new(-30.0, 30.0, 0.0),
            Vec3::new(w, -20.0, 0.0),
            Vec3::new(w, 20.0, 0.0),
            Vec3::new(w, 20.0, top),
            Vec3::new(w, -20.0, top),
        ],
        // As in `wall::floor_and_wall`: [4, 6, 5] faces -x.
        vec![[0, 1, 2], [0, 2, 3], [4, 6, 5], [4, 7, 6]],
    )
}

/// The kerb scene in `mode`, for `steps` steps (the demo runs 60: 1 s).
///
/// # Errors
///
/// [`SceneError`] if a body is refused (never for these fixed values).
pub fn chassis_kerb(mode: CollisionDetection, steps: usize) -> Result<Scene, SceneError> {
    let mut world = PhysicsWorld::new();
    world.collision_detection = mode;
    world.add_body(RigidBody::new_static(floor_and_kerb()?))?;
    let car = chassis()?
        .with_position(Vec3::new(0.0, 0.0, CHASSIS_HALF[2] + 0.01))
        .with_linear_velocity(Vec3::new(60.0, 0.0, 0.0))
        .with_angular_velocity(Vec3::new(0.0, 0.0, 5.0));
    let car = world.add_body(car)?;
    Ok(Scene {
        name: "chassis_kerb",
        title: "a 1,500 kg chassis (4.4 x 1.8 x 1.4 m box) at 60 m/s yawing at 5 rad/s into a kerb wall",
        world,
        dt: DT,
        steps,
        subject: car,
        watched: vec![car],
        measure: Measure::SolidToWall {
            wall: KERB_X as f64,
            points: box_surface(Vec3::from(CHASSIS_HALF)),
        },
        controls: Vec::new(),
    })
}

/// The rollover scene in `mode`, for `steps` steps (the demo runs 120: 2 s;
/// it lands after about 0.1 s).
///
/// # Errors
///
/// [`SceneError`] if a body is refused (never for these fixed values).
pub fn car_rollover(mode: CollisionDetection, steps: usize) -> Result<Scene, SceneError> {
    let field = vehicle_terrain();
    let mut world = PhysicsWorld::new();
    world.collision_detection = mode;
    // Rolling on a terrain takes many sub-steps; the largest valid budgets.
    world.ccd_max_impacts = 1024;
    world.ccd_max_substeps = 65536;
    world.add_body(
        RigidBody::new_static(field.mesh()?).with_material(Material::new(0.8, 0.1, 0.5)?),
    )?;
    let ground = field.height_at(-20.0, 0.0).unwrap_or(0.0) as f32;
    // At the top of its fall after the jump: 2.5 m up, already rolled
    // 1.2 rad onto its side, falling at 14 m/s and rolling at 4 rad/s.
    let car = chassis()?
        .with_position(Vec3::new(-20.0, 0.0, ground + 2.5))
        .with_rotation(Quat::from_axis_angle(&Vec3::x_axis(), 1.2))
        .with_linear_velocity(Vec3::new(15.0, 0.0, -14.0))
        .with_angular_velocity(Vec3::new(4.0, 0.5, 0.0));
    let car = world.add_body(car)?;
    Ok(Scene {
        name: "car_rollover",
        title: "the chassis after a jump, on its side and rolling at 4 rad/s, landing at 15 m/s (14 m/s down) on a rough terrain",
        world,
        dt: DT,
        steps,
        subject: car,
        watched: vec![car],
        measure: Measure::SolidAboveTerrain {
            field,
            points: box_surface(Vec3::from(CHASSIS_HALF)),
        },
        controls: Vec::new(),
    })
}

/// The crate's hull points (m): a 1.2 x 0.9 x 0.8 m box with two corners cut
/// and a ridge on top.
pub fn crate_points() -> Vec<Vec3> {
    vec![
        Vec3::new(-0.6, -0.45, -0.4),
        Vec3::new(0.6, -0.45, -0.4),
        Vec3::new(0.6, 0.45, -0.4),
        Vec3::new(-0.45, 0.45, -0.4),
        Vec3::new(-0.6, 0.3, -0.4),
        Vec3::new(-0.6, -0.45, 0.3),
        Vec3::new(0.45, -0.45, 0.4),
        Vec3::new(0.6, 0.45, 0.3),
        Vec3::new(-0.6, 0.45, 0.3),
        Vec3::new(0.0, 0.0, 0.55),
    ]
}

/// Points (m, body frame) sampled on and in the crate: its vertices and
/// the midpoints of every pair of them. The lowest point of a convex solid
/// over a plane is a vertex; a midpoint inside the hull that is below the
/// terrain has surface below it too, so the interior samples never report
/// a crossing that the surface does not have.
fn crate_surface() -> Vec<Vec3> {
    let v = crate_points();
    let mut out = v.clone();
    for (i, a) in v.iter().enumerate() {
        for b in &v[i + 1..] {
            out.push((a + b) * 0.5);
        }
    }
    out
}

/// The hull crate scene in `mode`, for `steps` steps (the demo runs 90:
/// 1.5 s).
///
/// # Errors
///
/// [`SceneError`] if a body is refused (never for these fixed values).
pub fn hull_crate(mode: CollisionDetection, steps: usize) -> Result<Scene, SceneError> {
    let field = vehicle_terrain();
    let mut world = PhysicsWorld::new();
    world.collision_detection = mode;
    world.ccd_max_impacts = 1024;
    world.ccd_max_substeps = 65536;
    world.add_body(RigidBody::new_static(field.mesh()?))?;
    let ground = field.height_at(-20.0, -6.0).unwrap_or(0.0) as f32;
    // 100 m/s: (32, 10, -94.2) has norm 99.99.
    let body = RigidBody::new_dynamic(Shape::convex_hull(&crate_points())?, 120.0)?
        .with_material(Material::new(0.6, 0.2, 0.5)?)
        .with_position(Vec3::new(-20.0, -6.0, ground + 14.0))
        .with_rotation(Quat::from_scaled_axis(Vec3::new(0.4, -0.9, 0.3)))
        .with_linear_velocity(Vec3::new(32.0, 10.0, -94.2))
        .with_angular_velocity(Vec3::new(8.0, -12.0, 6.0));
    let body = world.add_body(body)?;
    Ok(Scene {
        name: "hull_crate",
        title: "an irregular hull crate (1.2 x 0.9 x 0.95 m) tumbling at 100 m/s onto the rough terrain",
        world,
        dt: DT,
        steps,
        subject: body,
        watched: vec![body],
        measure: Measure::SolidAboveTerrain {
            field,
            points: crate_surface(),
        },
        controls: Vec::new(),
    })
}
