//! The scenes of the comparison with other engines, described without an
//! engine: a terrain (or none), bodies (spheres and rotation-locked
//! capsules with their mass, material, pose and velocity), a controller for
//! the crowds, and an independent check of the bodies' positions. Each
//! engine builds its own world from the description ([`VersusScene::parapet`]
//! builds parapet's; the comparison bench builds rapier3d's), so both step
//! the same scene, and the check judges both alike.
//!
//! - Crowds ([`super::bench_crowds`]): 64 or 256 walkers 1.0, 1.8 or 4 m
//!   apart on 2,048 or 8,192 triangles, steered along circles, stepped on
//!   from step to step.
//! - A head-on array of 64 sphere pairs (r 0.1 m), each sphere at 100 m/s
//!   towards its partner, no gravity, meeting in the second step.
//! - 64 spheres (r 0.25 m) falling at 40 m/s onto 2,048 terrain triangles,
//!   striking in the second step.
//! - Boxes ([`super::bench_boxes`]): 16 and 64 crates tumbling onto 8,192
//!   terrain triangles, two cars head-on at 25 m/s on a flat road, a car
//!   rolling over on a terrain, and the stacks of [`super::box_stacks`].

use parapet::prelude::*;

use crate::bench_ccd::{bench_terrain, BenchSceneError};
use crate::bench_crowds::{
    crowd_layout, CrowdLayout, FRICTION, WALKER_HALF_HEIGHT, WALKER_MASS, WALKER_RADIUS,
};
use crate::box_stacks::{StackLayout, MAX_ASIDE, MAX_OVERLAP, MAX_TURN_DEG};
use crate::clearance::height_above;
use crate::obb::Obb;
/// What [`VersusScene::judge`] found: the scenes' one verdict type.
pub use crate::scene::Verdict;
use crate::scene::{CROSSING_TOLERANCE, SOLID_CROSSING_TOLERANCE};
use crate::terrain::HeightField;

/// Step (s) of every comparison scene.
pub const DT: f32 = 1.0 / 60.0;
/// Gravity (m/s²) of the scenes that have it (parapet's default).
pub const GRAVITY: [f32; 3] = [0.0, 0.0, -9.8];
/// Speed (m/s) of each sphere of the head-on array.
pub const HEAD_ON_SPEED: f32 = 100.0;
/// Radius (m) of the head-on spheres.
pub const HEAD_ON_RADIUS: f32 = 0.1;
/// Fall speed (m/s) of the falling spheres.
pub const FALL_SPEED: f32 = 40.0;
/// Radius (m) of the falling spheres.
pub const FALL_RADIUS: f32 = 0.25;
/// The unit quaternion `[x, y, z, w]` of no rotation.
pub const IDENTITY: [f32; 4] = [0.0, 0.0, 0.0, 1.0];

/// A body's shape.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum VersusShape {
    /// A sphere of this radius (m).
    Sphere(f32),
    /// An upright capsule.
    Capsule {
        /// Radius (m).
        radius: f32,
        /// Half height of the core segment (m).
        half_height: f32,
    },
    /// A box of these half extents (m).
    Cuboid([f32; 3]),
}

/// One dynamic body.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct VersusBody {
    /// Its shape.
    pub shape: VersusShape,
    /// Mass (kg).
    pub mass: f32,
    /// Whether its rotation is locked (it never turns).
    pub locked: bool,
    /// Start position (m).
    pub position: [f32; 3],
    /// Start velocity (m/s).
    pub velocity: [f32; 3],
    /// Start rotation, a unit quaternion `[x, y, z, w]`.
    pub rotation: [f32; 4],
    /// Start angular velocity (rad/s).
    pub spin: [f32; 3],
    /// Friction coefficient.
    pub friction: f32,
    /// Restitution.
    pub restitution: f32,
}

/// What the check of a scene looks for.
#[derive(Debug, Clone)]
pub enum VersusCheck {
    /// A crowd: walkers sunk and walkers passed into each other
    /// ([`CrowdLayout::check`]).
    Crowd(CrowdLayout),
    /// Head-on pairs (bodies `2k` and `2k + 1` along x): a pair crossed
    /// when its centres are closer along x than the radius sum less the
    /// tolerance (passed through or overlapping).
    Pairs,
    /// Falling spheres: a sphere sunk when its centre lies below the
    /// terrain by more than the tolerance.
    Falling,
    /// Boxes on a terrain ([`super::bench_boxes`]): a box sunk when a
    /// corner lies below the terrain by more than
    /// [`SOLID_CROSSING_TOLERANCE`]; two boxes crossed when they overlap
    /// by more than [`MAX_OVERLAP`] (passing into or through each other).
    Solids,
    /// A stack ([`super::box_stacks`]): as [`VersusCheck::Solids`], and a
    /// cube displaced when it ends more than [`MAX_ASIDE`] aside of its
    /// place or turned by [`MAX_TURN_DEG`] or more (the stack fell).
    Stack(StackLayout),
}

/// A comparison scene.
#[derive(Debug, Clone)]
pub struct VersusScene {
    /// Short name (bench id).
    pub name: String,
    /// One line saying what it is.
    pub title: String,
    /// The terrain, when there is one (a static mesh).
    pub field: Option<HeightField>,
    /// The terrain's friction and restitution.
    pub ground: (f32, f32),
    /// Whether gravity ([`GRAVITY`]) acts.
    pub gravity: bool,
    /// The dynamic bodies.
    pub bodies: Vec<VersusBody>,
    /// What to check.
    pub check: VersusCheck,
    /// Steps the bench takes from the prepared state before it starts
    /// again (1: every measured step is the scene's second step).
    pub run: usize,
}

/// A body's pose as an engine reports it: centre (m) and rotation, a unit
/// quaternion `[x, y, z, w]`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BodyPose {
    /// The centre (m).
    pub centre: [f64; 3],
    /// The rotation `[x, y, z, w]`.
    pub rotation: [f64; 4],
}

impl VersusScene {
    /// The controller's horizontal velocity for body `k` at `(x, y)`, for
    /// the crowds (`None` for the other scenes).
    pub fn steer(&self, k: usize, x: f64, y: f64) -> Option<[f32; 2]> {
        match &self.check {
            VersusCheck::Crowd(layout) => Some(layout.steer(k, x, y)),
            _ => None,
        }
    }

    /// The check of the bodies' poses (in body order), independent of any
    /// engine.
    pub fn judge(&self, poses: &[BodyPose]) -> Verdict {
        let tol = CROSSING_TOLERANCE;
        let centres: Vec<[f64; 3]> = poses.iter().map(|p| p.centre).collect();
        match &self.check {
            VersusCheck::Crowd(layout) => {
                let c = layout.check(&centres);
                Verdict {
                    sunk: c.sunk,
                    crossed: c.crossed,
                    displaced: 0,
                }
            }
            VersusCheck::Pairs => {
                let crossed = centres
                    .chunks(2)
                    .filter(|p| p.len() == 2)
                    .filter(|p| p[1][0] - p[0][0] < 2.0 * HEAD_ON_RADIUS as f64 - tol)
                    .count();
                Verdict {
                    crossed,
                    ..Verdict::default()
                }
            }
            VersusCheck::Falling => {
                let sunk = match &self.field {
                    Some(f) => centres
                        .iter()
                        .filter(|p| {
                            let q = Vec3::new(p[0] as f32, p[1] as f32, p[2] as f32);
                            height_above(f, q).is_none_or(|h| h < -tol)
                        })
                        .count(),
                    None => 0,
                };
                Verdict {
                    sunk,
                    ..Verdict::default()
                }
            }
            VersusCheck::Solids => judge_solids(self, poses, None),
            VersusCheck::Stack(layout) => judge_solids(self, poses, Some(layout)),
        }
    }

    /// The scene as a parapet world in `mode`, one step taken (the
    /// triangle index built; the crowds driven first).
    ///
    /// # Errors
    ///
    /// [`BenchSceneError`] if a body is refused or the step fails.
    pub fn parapet(&self, mode: CollisionDetection) -> Result<PhysicsWorld, BenchSceneError> {
        let mut w = PhysicsWorld::new();
        w.collision_detection = mode;
        if !self.gravity {
            w.gravity = Vec3::zeros();
        }
        if let Some(field) = &self.field {
            let m = Material::new(self.ground.0, self.ground.1, 0.5)?;
            w.add_body(RigidBody::new_static(field.mesh()?).with_material(m))?;
        }
        let mut ids = Vec::with_capacity(self.bodies.len());
        for b in &self.bodies {
            let shape = match b.shape {
                VersusShape::Sphere(r) => Shape::sphere(r)?,
                VersusShape::Capsule {
                    radius,
                    half_height,
                } => Shape::capsule(radius, half_height)?,
                VersusShape::Cuboid(h) => Shape::cuboid(Vec3::from(h))?,
            };
            let mut body = RigidBody::new_dynamic(shape, b.mass)?;
            if b.locked {
                body.set_inverse_inertia(Mat3::zeros())?;
            }
            let [x, y, z] = b.position;
            let [vx, vy, vz] = b.velocity;
            let [qx, qy, qz, qw] = b.rotation;
            let body = body
                .with_material(Material::new(b.friction, b.restitution, 0.5)?)
                .with_position(Vec3::new(x, y, z))
                .with_rotation(Quat::new_normalize(
                    parapet::math::nalgebra::Quaternion::new(qw, qx, qy, qz),
                ))
                .with_linear_velocity(Vec3::new(vx, vy, vz))
                .with_angular_velocity(Vec3::from(b.spin));
            ids.push(w.add_body(body)?);
        }
        self.drive_parapet(&mut w, &ids);
        w.step(DT)?;
        Ok(w)
    }

    /// The controller on a parapet world whose bodies are `ids` (body
    /// order); nothing for the scenes without one.
    pub fn drive_parapet(&self, w: &mut PhysicsWorld, ids: &[BodyId]) {
        for (k, id) in ids.iter().enumerate() {
            if let Some(b) = w.body_mut(*id) {
                let p = b.position();
                if let Some([vx, vy]) = self.steer(k, p.x as f64, p.y as f64) {
                    let v = b.linear_velocity();
                    b.set_linear_velocity(Vec3::new(vx, vy, v.z));
                }
            }
        }
    }
}

/// The crowd of `count` walkers `spacing` metres apart on `triangles`
/// terrain triangles.
pub fn crowd_scene(count: usize, spacing: f64, triangles: usize) -> VersusScene {
    let layout = crowd_layout(count, spacing, triangles);
    let bodies = layout
        .starts
        .iter()
        .map(|p| VersusBody {
            shape: VersusShape::Capsule {
                radius: WALKER_RADIUS,
                half_height: WALKER_HALF_HEIGHT,
            },
            mass: WALKER_MASS,
            locked: true,
            position: [p[0] as f32, p[1] as f32, p[2] as f32],
            velocity: [0.0; 3],
            rotation: IDENTITY,
            spin: [0.0; 3],
            friction: FRICTION,
            restitution: 0.0,
        })
        .collect();
    VersusScene {
        name: format!("crowd_{count}_{spacing}m_{triangles}"),
        title: format!(
            "{count} walkers {spacing} m apart on {} triangles",
            layout.field.triangle_count()
        ),
        field: Some(layout.field.clone()),
        ground: (FRICTION, 0.0),
        gravity: true,
        bodies,
        check: VersusCheck::Crowd(layout),
        run: 60,
    }
}

/// 64 head-on pairs of spheres (r 0.1 m, 1 kg, restitution 0.5), each at
/// [`HEAD_ON_SPEED`] towards its partner, 8 m apart along y, no gravity:
/// 5 m between their surfaces, so they close 3.3 m per step and meet in
/// the second step.
pub fn head_on_scene() -> VersusScene {
    let mut bodies = Vec::with_capacity(128);
    for g in 0..64 {
        let y = 8.0 * g as f32;
        for (x, v) in [(-2.6f32, HEAD_ON_SPEED), (2.6, -HEAD_ON_SPEED)] {
            bodies.push(VersusBody {
                shape: VersusShape::Sphere(HEAD_ON_RADIUS),
                mass: 1.0,
                locked: false,
                position: [x, y, 0.0],
                velocity: [v, 0.0, 0.0],
                rotation: IDENTITY,
                spin: [0.0; 3],
                friction: 0.3,
                restitution: 0.5,
            });
        }
    }
    VersusScene {
        name: "head_on_pairs_100".to_string(),
        title: "64 head-on sphere pairs (r 0.1 m), each sphere at 100 m/s, no gravity".to_string(),
        field: None,
        ground: (0.3, 0.0),
        gravity: false,
        bodies,
        check: VersusCheck::Pairs,
        run: 1,
    }
}

/// 64 spheres (r 0.25 m, 1 kg) on an 8 x 8 grid 3 m apart, falling at
/// [`FALL_SPEED`] onto 2,048 terrain triangles, 1.2 m above the terrain's
/// highest point: they strike in the second step.
pub fn falling_scene() -> VersusScene {
    let field = bench_terrain(2048);
    let top = field.heights.iter().fold(f32::MIN, |a, &h| a.max(h));
    let mut bodies = Vec::with_capacity(64);
    for k in 0..64 {
        let x = -10.5 + 3.0 * (k % 8) as f32;
        let y = -10.5 + 3.0 * (k / 8) as f32;
        bodies.push(VersusBody {
            shape: VersusShape::Sphere(FALL_RADIUS),
            mass: 1.0,
            locked: false,
            position: [x, y, top + FALL_RADIUS + 1.2],
            velocity: [0.5, 0.0, -FALL_SPEED],
            rotation: IDENTITY,
            spin: [0.0; 3],
            friction: 0.3,
            restitution: 0.3,
        });
    }
    VersusScene {
        name: "falling_spheres".to_string(),
        title: "64 spheres (r 0.25 m) at 40 m/s onto 2,048 terrain triangles".to_string(),
        field: Some(field),
        ground: (0.3, 0.3),
        gravity: true,
        bodies,
        check: VersusCheck::Falling,
        run: 1,
    }
}

/// The boxes of `poses` (all of the scene's bodies must be boxes) judged:
/// corners below the terrain, pairs overlapping, and for a stack cubes
/// displaced from `layout`'s places.
fn judge_solids(s: &VersusScene, poses: &[BodyPose], layout: Option<&StackLayout>) -> Verdict {
    let boxes: Vec<Obb> = poses
        .iter()
        .zip(&s.bodies)
        .map(|(p, b)| {
            let half = match b.shape {
                VersusShape::Cuboid(h) => h.map(f64::from),
                VersusShape::Sphere(r) => [r as f64; 3],
                VersusShape::Capsule {
                    radius,
                    half_height,
                } => [radius as f64, radius as f64, (radius + half_height) as f64],
            };
            Obb::from_parts(p.centre, p.rotation, half)
        })
        .collect();
    let mut v = Verdict::default();
    for (k, b) in boxes.iter().enumerate() {
        if let Some(f) = &s.field {
            let below = b.corners().iter().any(|c| {
                let q = Vec3::new(c[0] as f32, c[1] as f32, c[2] as f32);
                height_above(f, q).is_some_and(|h| h < -SOLID_CROSSING_TOLERANCE)
            });
            v.sunk += usize::from(below);
        }
        v.crossed += boxes[k + 1..]
            .iter()
            .filter(|o| b.overlap(o) > MAX_OVERLAP)
            .count();
        if let Some(place) = layout.and_then(|l| l.places.get(k)) {
            let (dx, dy) = (b.center[0] - place[0] as f64, b.center[1] - place[1] as f64);
            let aside = (dx * dx + dy * dy).sqrt();
            v.displaced += usize::from(aside > MAX_ASIDE || b.turn_deg >= MAX_TURN_DEG);
        }
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The impact scenes strike in their second step: after the prepared
    /// (first) step nothing has been checked wrong, and parapet's CCD step
    /// from there leaves no crossing and no sinking, while its DISCRETE
    /// step lets every head-on pair pass through.
    #[test]
    fn the_impact_scenes_strike_in_the_second_step() {
        for s in [head_on_scene(), falling_scene()] {
            for mode in [DISCRETE, SPHERE_MESH_CCD] {
                let mut w = s.parapet(mode).unwrap();
                let centres = |w: &PhysicsWorld| -> Vec<BodyPose> {
                    w.bodies()
                        .filter(|(_, b)| b.kind() == BodyKind::Dynamic)
                        .map(|(_, b)| BodyPose {
                            centre: b.position().map(|x| x as f64).into(),
                            rotation: b.rotation().coords.map(|x| x as f64).into(),
                        })
                        .collect()
                };
                assert_eq!(s.judge(&centres(&w)), Verdict::default(), "{}", s.name);
                w.step(DT).unwrap();
                let v = s.judge(&centres(&w));
                if mode == SPHERE_MESH_CCD {
                    assert_eq!(v, Verdict::default(), "{}", s.name);
                } else if s.name.starts_with("head_on") {
                    assert_eq!(v.crossed, 64, "{}", s.name);
                }
            }
        }
    }
}
