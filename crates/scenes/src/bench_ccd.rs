//! The benchmark scenes of the CCD report (docs/reports/ccd-performance.md):
//! each builds the same world in DISCRETE or in
//! SPHERE_MESH_CCD, one step before the impact that the benchmark measures,
//! and says how to check it afterwards without sharing code with the step.
//!
//! - Bodies alone: [`falling_spheres`], [`locked_capsules`], [`locked_boxes`]
//!   (64 bodies falling fast onto a generated terrain).
//! - Interacting bodies: [`head_on_pairs`], [`chains`], [`struck_stacks`]
//!   (64 groups each, [`SPACING`] apart), [`struck_stack`] (one group) and
//!   [`packed_pairs`] (the pairs packed so close that they form one group).
//! - [`rolled_back`]: 64 elastic spheres in narrow slots that need more than
//!   `ccd_max_impacts` impacts: the continuous step fails and rolls back.
//! - [`terrain_spheres`]: the scaling scene (any number of spheres over a
//!   terrain of any size).
//!
//! The check ([`BenchScene::violations`]) counts bodies whose lowest core
//! point lies behind the ground by more than [`CROSSING_TOLERANCE`] and
//! group neighbours that overlap by more than it or changed order along
//! their line: the definitions of [`crate::clearance`], applied per body.

use parapet::prelude::*;

use crate::clearance::height_above;
use crate::scene::CROSSING_TOLERANCE;
use crate::terrain::HeightField;
use crate::SceneError;

/// Why a bench scene could not be prepared: building it was refused, or
/// its first (untimed) step failed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum BenchSceneError {
    /// A shape, body or insertion was refused.
    #[error("bench scene: {0}")]
    Build(#[from] SceneError),
    /// The first step, which builds the mesh index, failed.
    #[error("bench scene first step: {0}")]
    Step(#[from] StepError),
    /// A material was refused.
    #[error("bench scene material: {0}")]
    Material(#[from] parapet::shape::MaterialError),
}

impl From<ShapeError> for BenchSceneError {
    fn from(e: ShapeError) -> Self {
        Self::Build(e.into())
    }
}

impl From<BodyError> for BenchSceneError {
    fn from(e: BodyError) -> Self {
        Self::Build(e.into())
    }
}

impl From<WorldError> for BenchSceneError {
    fn from(e: WorldError) -> Self {
        Self::Build(e.into())
    }
}

/// Step (s) of every bench scene: 1/60 s.
pub const DT: f32 = 1.0 / 60.0;
/// Number of bodies or groups in each scene.
pub const COUNT: usize = 64;
/// Seed of the bench terrains.
pub const TERRAIN_SEED: u64 = 0xBE7C;
/// Fall speed (m/s) of the bodies-alone scenes: 0.67 m per step, more than
/// twice the largest radius, so a discrete step can pass through.
pub const FALL_SPEED: f32 = 40.0;

/// What lies under the bodies.
#[derive(Debug, Clone)]
pub enum Ground {
    /// A generated height field (the world holds it as a mesh).
    Terrain(HeightField),
    /// The plane `z = floor`.
    Floor(f64),
    /// Nothing (slots of walls, checked by their own groups).
    Open,
}

/// A moving body and its lowest core point.
#[derive(Debug, Clone, Copy)]
pub struct Mover {
    /// The body.
    pub id: BodyId,
    /// Distance (m) from its origin down to its lowest core point (a
    /// capsule's half height, a box's half extent less its rounding; 0 for
    /// a sphere). The bodies never turn in these scenes.
    pub core_drop: f64,
}

/// A scene ready to be stepped once.
#[derive(Debug, Clone)]
pub struct BenchScene {
    /// Short name (file and table key).
    pub name: &'static str,
    /// One line saying what is stepped.
    pub title: &'static str,
    /// The world, in the requested mode, one step before impact (the mesh
    /// index is built: a first step was taken when the scene has a mesh).
    pub world: PhysicsWorld,
    /// Step (s).
    pub dt: f32,
    /// Every moving body.
    pub movers: Vec<Mover>,
    /// Groups of spheres of radius `group_radius`, ordered along `axis`.
    pub groups: Vec<Vec<BodyId>>,
    /// Radius (m) of the grouped spheres.
    pub group_radius: f64,
    /// The line of each group (unit, world).
    pub axis: Vec3,
    /// The ground.
    pub ground: Ground,
}

impl BenchScene {
    /// Number of violations in `world` (the scene's world after steps):
    /// movers whose lowest core point is more than [`CROSSING_TOLERANCE`]
    /// below the ground directly beneath it (passed through), plus group
    /// neighbours whose centres along the group line are closer than the
    /// radius sum less [`CROSSING_TOLERANCE`] (overlapping or passed).
    pub fn violations(&self, world: &PhysicsWorld) -> usize {
        let mut n = 0;
        for m in &self.movers {
            let Some(b) = world.body(m.id) else { continue };
            let p = b.position();
            let low = Vec3::new(p.x, p.y, p.z - m.core_drop as f32);
            let below = match &self.ground {
                Ground::Terrain(field) => {
                    height_above(field, low).is_some_and(|h| h < -CROSSING_TOLERANCE)
                }
                Ground::Floor(z) => (low.z as f64) < z - CROSSING_TOLERANCE,
                Ground::Open => false,
            };
            n += usize::from(below);
        }
        let a = self.axis;
        for g in &self.groups {
            for pair in g.windows(2) {
                let (Some(p), Some(q)) = (world.body(pair[0]), world.body(pair[1])) else {
                    continue;
                };
                let d = q.position() - p.position();
                let along =
                    d.x as f64 * a.x as f64 + d.y as f64 * a.y as f64 + d.z as f64 * a.z as f64;
                n += usize::from(along < 2.0 * self.group_radius - CROSSING_TOLERANCE);
            }
        }
        n
    }
}

fn world(mode: CollisionDetection, gravity: bool) -> PhysicsWorld {
    let mut w = PhysicsWorld::new();
    w.collision_detection = mode;
    if !gravity {
        w.gravity = Vec3::zeros();
    }
    w
}

fn material(restitution: f32) -> Result<Material, BenchSceneError> {
    Ok(Material::new(0.3, restitution, 0.5)?)
}

/// A terrain of `triangles` triangles (rounded to `2 n²`), 1 m cells,
/// heights within about ±0.5 m.
pub fn bench_terrain(triangles: usize) -> HeightField {
    let n = ((triangles as f64 / 2.0).sqrt().round() as usize).max(1);
    HeightField::generate(TERRAIN_SEED, n, n, 1.0, 0.5)
}

/// Smallest spacing (m) between neighbouring bodies or groups of the bench
/// scenes: 2.5 m. Moving bodies whose reach regions overlap are swept as one
/// group (docs/continuous-collision.md "Moving groups"; a group's pass sweeps its member
/// pairs), so scenes meant as independent bodies or groups keep their
/// regions apart: a body at 40 m/s reaches 0.67 m in a step, plus its radius
/// (at most 0.36 m here), less than half of 2.5 m.
pub const SPACING: f64 = 2.5;

/// A terrain of `triangles` triangles (rounded to `2 n²`) large enough for
/// `bodies` bodies on a square grid [`SPACING`] apart: 1 m cells, or larger
/// cells when the bodies need more room.
pub fn bench_terrain_for(triangles: usize, bodies: usize) -> HeightField {
    let n = ((triangles as f64 / 2.0).sqrt().round() as usize).max(1);
    let side = (bodies as f64).sqrt().ceil();
    let cell = ((SPACING * side + 2.0) / n as f64).max(1.0);
    HeightField::generate(TERRAIN_SEED, n, n, cell, 0.5)
}

/// Highest terrain vertex within `reach` (m) of `(x, y)`.
fn top_near(field: &HeightField, x: f64, y: f64, reach: f64) -> f64 {
    let mut top = f64::MIN;
    for j in 0..=field.ny {
        for i in 0..=field.nx {
            let vx = field.origin[0] + i as f64 * field.cell;
            let vy = field.origin[1] + j as f64 * field.cell;
            if (vx - x).abs() <= reach && (vy - y).abs() <= reach {
                top = top.max(field.heights[j * (field.nx + 1) + i] as f64);
            }
        }
    }
    if top == f64::MIN {
        field.height_at(x, y).unwrap_or(0.0)
    } else {
        top
    }
}

/// `bodies` bodies made by `make` falling at [`FALL_SPEED`] onto a terrain
/// of `triangles` triangles, on a square grid over the terrain, each
/// `clear` metres above the local top, after one step (index built).
fn over_terrain(
    mode: CollisionDetection,
    triangles: usize,
    bodies: usize,
    core_drop: f64,
    reach: f64,
    make: impl Fn() -> Result<RigidBody, BenchSceneError>,
) -> Result<(PhysicsWorld, Vec<Mover>, HeightField), BenchSceneError> {
    let field = bench_terrain_for(triangles, bodies);
    let mut w = world(mode, true);
    w.add_body(RigidBody::new_static(field.mesh()?).with_material(material(0.3)?))?;
    let side = (bodies as f64).sqrt().ceil() as usize;
    let span = field.nx as f64 * field.cell - 2.0;
    let spacing = span / side as f64;
    let mut movers = Vec::with_capacity(bodies);
    for i in 0..bodies {
        let x = field.origin[0] + 1.0 + spacing * ((i % side) as f64 + 0.5);
        let y = field.origin[1] + 1.0 + spacing * ((i / side) as f64 + 0.5);
        let top = top_near(&field, x, y, reach.max(field.cell));
        // Two steps of travel above contact: the first (untimed) step
        // builds the index, the measured step strikes.
        let z = top + core_drop + reach + 0.05 + 2.0 * (FALL_SPEED * DT) as f64;
        let b = make()?
            .with_position(Vec3::new(x as f32, y as f32, z as f32))
            .with_linear_velocity(Vec3::new(0.5, 0.0, -FALL_SPEED));
        movers.push(Mover {
            id: w.add_body(b)?,
            core_drop,
        });
    }
    w.step(DT)?;
    Ok((w, movers, field))
}

fn solo(
    name: &'static str,
    title: &'static str,
    mode: CollisionDetection,
    core_drop: f64,
    reach: f64,
    make: impl Fn() -> Result<RigidBody, BenchSceneError>,
) -> Result<BenchScene, BenchSceneError> {
    let (world, movers, field) = over_terrain(mode, 2048, COUNT, core_drop, reach, make)?;
    Ok(BenchScene {
        name,
        title,
        world,
        dt: DT,
        movers,
        groups: Vec::new(),
        group_radius: 0.0,
        axis: Vec3::z(),
        ground: Ground::Terrain(field),
    })
}

/// 64 spheres (r 0.25 m) falling at 40 m/s onto a 2,048-triangle terrain.
///
/// # Errors
///
/// [`BenchSceneError`] if a body is refused or the first step fails.
pub fn falling_spheres(mode: CollisionDetection) -> Result<BenchScene, BenchSceneError> {
    solo(
        "falling_spheres",
        "64 spheres (r 0.25 m) at 40 m/s onto 2,048 terrain triangles",
        mode,
        0.0,
        0.25,
        || Ok(RigidBody::new_dynamic(Shape::sphere(0.25)?, 1.0)?.with_material(material(0.3)?)),
    )
}

/// 64 rotation-locked upright capsules (r 0.2 m, half height 0.3 m) falling
/// at 40 m/s onto a 2,048-triangle terrain.
///
/// # Errors
///
/// [`BenchSceneError`] if a body is refused or the first step fails.
pub fn locked_capsules(mode: CollisionDetection) -> Result<BenchScene, BenchSceneError> {
    solo(
        "locked_capsules",
        "64 rotation-locked capsules (r 0.2 m, 1 m tall) at 40 m/s onto 2,048 terrain triangles",
        mode,
        0.3,
        0.2,
        || {
            let mut b = RigidBody::new_dynamic(Shape::capsule(0.2, 0.3)?, 1.0)?
                .with_material(material(0.3)?);
            b.set_inverse_inertia(Mat3::zeros())?;
            Ok(b)
        },
    )
}

/// 64 rotation-locked boxes (half extents 0.25 m) falling at 40 m/s onto a
/// 2,048-triangle terrain.
///
/// # Errors
///
/// [`BenchSceneError`] if a body is refused or the first step fails.
pub fn locked_boxes(mode: CollisionDetection) -> Result<BenchScene, BenchSceneError> {
    solo(
        "locked_boxes",
        "64 rotation-locked boxes (0.5 m cubes) at 40 m/s onto 2,048 terrain triangles",
        mode,
        0.25,
        0.36,
        || {
            let mut b = RigidBody::new_dynamic(Shape::cuboid(Vec3::new(0.25, 0.25, 0.25))?, 1.0)?
                .with_material(material(0.3)?);
            b.set_inverse_inertia(Mat3::zeros())?;
            Ok(b)
        },
    )
}

/// Radius (m) of the grouped spheres.
pub const GROUP_RADIUS: f32 = 0.1;

/// A sphere of [`GROUP_RADIUS`].
fn ball(p: Vec3, v: Vec3, restitution: f32) -> Result<RigidBody, BenchSceneError> {
    Ok(RigidBody::new_dynamic(Shape::sphere(GROUP_RADIUS)?, 1.0)?
        .with_material(material(restitution)?)
        .with_position(p)
        .with_linear_velocity(v))
}

fn grouped(
    name: &'static str,
    title: &'static str,
    world: PhysicsWorld,
    groups: Vec<Vec<BodyId>>,
    axis: Vec3,
    ground: Ground,
) -> BenchScene {
    let movers = groups
        .iter()
        .flatten()
        .map(|&id| Mover { id, core_drop: 0.0 })
        .collect();
    BenchScene {
        name,
        title,
        world,
        dt: DT,
        movers,
        groups,
        group_radius: GROUP_RADIUS as f64,
        axis,
        ground,
    }
}

/// 64 head-on pairs of spheres (r 0.1 m) closing at 2 x 30 m/s, without
/// gravity, meeting within the step.
///
/// # Errors
///
/// [`BenchSceneError`] if a body is refused.
pub fn head_on_pairs(mode: CollisionDetection) -> Result<BenchScene, BenchSceneError> {
    pairs(
        mode,
        SPACING * 1.6,
        "head_on_pairs",
        "64 head-on sphere pairs (r 0.1 m) closing at 60 m/s, 4 m apart, no gravity",
    )
}

/// [`head_on_pairs`] packed 1 m apart: each member's reach (0.71 m at the
/// pair's energy bound of 42 m/s, plus its radius) overlaps its neighbours',
/// so all 128 spheres are swept as one group.
///
/// # Errors
///
/// [`BenchSceneError`] if a body is refused.
pub fn packed_pairs(mode: CollisionDetection) -> Result<BenchScene, BenchSceneError> {
    pairs(
        mode,
        1.0,
        "packed_pairs",
        "the same 64 pairs 1 m apart: reach regions overlap, one group of 128",
    )
}

fn pairs(
    mode: CollisionDetection,
    spacing: f64,
    name: &'static str,
    title: &'static str,
) -> Result<BenchScene, BenchSceneError> {
    let mut w = world(mode, false);
    let mut groups = Vec::with_capacity(COUNT);
    for g in 0..COUNT {
        let y = g as f32 * spacing as f32;
        // 0.6 m between surfaces, closing 1 m per step.
        let a = w.add_body(ball(
            Vec3::new(-0.4, y, 0.0),
            Vec3::new(30.0, 0.0, 0.0),
            0.5,
        )?)?;
        let b = w.add_body(ball(
            Vec3::new(0.4, y, 0.0),
            Vec3::new(-30.0, 0.0, 0.0),
            0.5,
        )?)?;
        groups.push(vec![a, b]);
    }
    Ok(grouped(name, title, w, groups, Vec3::x(), Ground::Open))
}

/// 64 chains: five touching spheres (r 0.1 m) in a line along x, struck
/// end-on by a sixth at 30 m/s (a Newton's cradle without gravity).
///
/// # Errors
///
/// [`BenchSceneError`] if a body is refused.
pub fn chains(mode: CollisionDetection) -> Result<BenchScene, BenchSceneError> {
    let mut w = world(mode, false);
    let mut groups = Vec::with_capacity(COUNT);
    let d = 2.0 * GROUP_RADIUS;
    for g in 0..COUNT {
        let y = g as f32 * SPACING as f32 * 1.6;
        let mut ids = vec![w.add_body(ball(
            Vec3::new(-0.3 - d, y, 0.0),
            Vec3::new(30.0, 0.0, 0.0),
            1.0,
        )?)?];
        for k in 0..5 {
            ids.push(w.add_body(ball(Vec3::new(k as f32 * d, y, 0.0), Vec3::zeros(), 1.0)?)?);
        }
        groups.push(ids);
    }
    Ok(grouped(
        "chains",
        "64 chains of 5 touching spheres (r 0.1 m) struck end-on at 30 m/s, no gravity",
        w,
        groups,
        Vec3::x(),
        Ground::Open,
    ))
}

/// The floor `z = 0`: two counter-clockwise triangles, `half` metres each
/// way from `(cx, cy)`.
fn floor(cx: f32, cy: f32, half: f32) -> Result<Shape, ShapeError> {
    Shape::mesh(
        vec![
            Vec3::new(cx - half, cy - half, 0.0),
            Vec3::new(cx + half, cy - half, 0.0),
            Vec3::new(cx + half, cy + half, 0.0),
            Vec3::new(cx - half, cy + half, 0.0),
        ],
        vec![[0, 1, 2], [0, 2, 3]],
    )
}

/// 64 stacks of 4 resting spheres (r 0.1 m), each on its own floor tile, struck from
/// above by a fifth falling at 30 m/s, with gravity (plastic: the cascade
/// settles in the step).
///
/// # Errors
///
/// [`BenchSceneError`] if a body is refused or the first step fails.
pub fn struck_stacks(mode: CollisionDetection) -> Result<BenchScene, BenchSceneError> {
    stacks(mode, COUNT, "struck_stacks")
}

/// One stack of [`struck_stacks`] alone.
///
/// # Errors
///
/// [`BenchSceneError`] if a body is refused.
pub fn struck_stack(mode: CollisionDetection) -> Result<BenchScene, BenchSceneError> {
    stacks(mode, 1, "struck_stack")
}

fn stacks(
    mode: CollisionDetection,
    count: usize,
    name: &'static str,
) -> Result<BenchScene, BenchSceneError> {
    let mut w = world(mode, true);
    let r = GROUP_RADIUS;
    let mut groups = Vec::with_capacity(count);
    for g in 0..count {
        let (x, y) = (
            (g % 8) as f32 * SPACING as f32,
            (g / 8) as f32 * SPACING as f32,
        );
        // One floor tile per stack (a stack's settling then holds its own
        // floor contact only).
        w.add_body(RigidBody::new_static(floor(x, y, 0.4)?).with_material(material(0.0)?))?;
        let mut ids = Vec::new();
        for k in 0..4 {
            ids.push(w.add_body(ball(
                Vec3::new(x, y, r + 2.0 * r * k as f32),
                Vec3::zeros(),
                0.0,
            )?)?);
        }
        // 0.3 m above the top sphere, 0.5 m of travel per step.
        let top = r + 2.0 * r * 4.0 + 0.3;
        ids.push(w.add_body(ball(Vec3::new(x, y, top), Vec3::new(0.0, 0.0, -30.0), 0.0)?)?);
        groups.push(ids);
    }
    Ok(grouped(
        name,
        if count == 1 {
            "1 stack of 4 resting spheres (r 0.1 m) on a floor tile struck from above at 30 m/s"
        } else {
            "64 stacks of 4 resting spheres (r 0.1 m), each on a floor tile, struck from above at 30 m/s"
        },
        w,
        groups,
        Vec3::z(),
        Ground::Floor(0.0),
    ))
}

/// A wall: a square plate through `centre` facing `normal` (±x).
fn wall(centre: Vec3, facing_plus_x: bool, half: f32) -> Result<Shape, ShapeError> {
    let (c, h) = (centre, half);
    let v = vec![
        Vec3::new(c.x, c.y - h, c.z - h),
        Vec3::new(c.x, c.y + h, c.z - h),
        Vec3::new(c.x, c.y + h, c.z + h),
        Vec3::new(c.x, c.y - h, c.z + h),
    ];
    // Counter-clockwise seen from +x for [0, 1, 2] (normal (1, 0, 0)).
    let i = if facing_plus_x {
        vec![[0, 1, 2], [0, 2, 3]]
    } else {
        vec![[0, 2, 1], [0, 3, 2]]
    };
    Shape::mesh(v, i)
}

/// 64 elastic spheres (r 0.1 m) each in a slot between two walls 0.22 m
/// apart, moving at 100 m/s across it: about 75 impacts in the step, beyond
/// the default `ccd_max_impacts` of 64, so SPHERE_MESH_CCD fails with
/// [`StepError::ImpactLimit`] and rolls the world back; DISCRETE steps it.
///
/// # Errors
///
/// [`BenchSceneError`] if a body is refused.
pub fn rolled_back(mode: CollisionDetection) -> Result<BenchScene, BenchSceneError> {
    let mut w = world(mode, false);
    let m = Material::new(0.0, 1.0, 0.5)?;
    let mut movers = Vec::with_capacity(COUNT);
    for g in 0..COUNT {
        // 100 m/s reaches 1.7 m in a step: slots 2 x SPACING apart.
        let y = g as f32 * 2.0 * SPACING as f32;
        w.add_body(
            RigidBody::new_static(wall(Vec3::new(-0.11, y, 0.0), true, 0.9)?).with_material(m),
        )?;
        w.add_body(
            RigidBody::new_static(wall(Vec3::new(0.11, y, 0.0), false, 0.9)?).with_material(m),
        )?;
        let b = RigidBody::new_dynamic(Shape::sphere(GROUP_RADIUS)?, 1.0)?
            .with_material(m)
            .with_position(Vec3::new(0.0, y, 0.0))
            .with_linear_velocity(Vec3::new(100.0, 1.0, 0.0));
        movers.push(Mover {
            id: w.add_body(b)?,
            core_drop: 0.0,
        });
    }
    Ok(BenchScene {
        name: "rolled_back",
        title: "64 elastic spheres in 0.22 m slots at 100 m/s: more than 16 impacts, the CCD step fails and rolls back",
        world: w,
        dt: DT,
        movers,
        groups: Vec::new(),
        group_radius: 0.0,
        axis: Vec3::x(),
        ground: Ground::Open,
    })
}

/// The scenes of the CCD-vs-discrete table, in report order.
pub const SCENES: [&str; 9] = [
    "falling_spheres",
    "locked_capsules",
    "locked_boxes",
    "head_on_pairs",
    "packed_pairs",
    "chains",
    "struck_stacks",
    "struck_stack",
    "rolled_back",
];

/// The scene named `name` (one of [`SCENES`]) in `mode`; `None` for an
/// unknown name.
///
/// # Errors
///
/// [`BenchSceneError`] if the scene cannot be built.
pub fn by_name(
    name: &str,
    mode: CollisionDetection,
) -> Option<Result<BenchScene, BenchSceneError>> {
    Some(match name {
        "falling_spheres" => falling_spheres(mode),
        "locked_capsules" => locked_capsules(mode),
        "locked_boxes" => locked_boxes(mode),
        "head_on_pairs" => head_on_pairs(mode),
        "packed_pairs" => packed_pairs(mode),
        "chains" => chains(mode),
        "struck_stacks" => struck_stacks(mode),
        "struck_stack" => struck_stack(mode),
        "rolled_back" => rolled_back(mode),
        _ => return None,
    })
}

/// The scaling scene: `bodies` spheres (r 0.2 m) falling at 40 m/s onto a
/// terrain of `triangles` triangles, one step before impact.
///
/// # Errors
///
/// [`BenchSceneError`] if a body is refused or the first step fails.
pub fn terrain_spheres(
    mode: CollisionDetection,
    triangles: usize,
    bodies: usize,
) -> Result<BenchScene, BenchSceneError> {
    let (world, movers, field) = over_terrain(mode, triangles, bodies, 0.0, 0.2, || {
        Ok(RigidBody::new_dynamic(Shape::sphere(0.2)?, 1.0)?.with_material(material(0.3)?))
    })?;
    Ok(BenchScene {
        name: "terrain_spheres",
        title: "spheres (r 0.2 m) at 40 m/s onto a terrain",
        world,
        dt: DT,
        movers,
        groups: Vec::new(),
        group_radius: 0.0,
        axis: Vec3::z(),
        ground: Ground::Terrain(field),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_named_scene_builds_in_both_modes_and_starts_without_violations() {
        for name in SCENES {
            for mode in [DISCRETE, SPHERE_MESH_CCD] {
                let s = by_name(name, mode).unwrap().unwrap();
                assert_eq!(s.violations(&s.world), 0, "{name}");
                assert!(s.movers.len() >= COUNT || name == "struck_stack", "{name}");
            }
        }
        assert!(by_name("nothing", DISCRETE).is_none());
    }

    #[test]
    fn the_continuous_step_lets_nothing_through_and_the_slot_scene_is_refused() {
        // The groups are SPACING apart: each is swept and settled alone.
        for name in SCENES {
            let s = by_name(name, SPHERE_MESH_CCD).unwrap().unwrap();
            let mut w = s.world.clone();
            match w.step(s.dt) {
                Ok(()) => assert_eq!(s.violations(&w), 0, "{name}"),
                Err(StepError::ImpactLimit { .. }) => assert_eq!(name, "rolled_back"),
                Err(e) => panic!("{name}: {e}"),
            }
        }
    }
}
