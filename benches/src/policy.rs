//! The per-body policy's workload (bench `ccd_policy`, example
//! `ccd_policy_profile`): 1,000 slow spheres, half resting and half walking
//! at 1 m/s, and 10 fast ones falling at 60 m/s, on a terrain of 8,192
//! triangles, in three worlds: `DISCRETE` with every body at `Inherit`,
//! every body `Auto`, and `SPHERE_MESH_CCD` with every body at `Inherit`
//! (all continuous).
//!
//! The bodies stand on a square grid [`SPACING`] apart (so that no two
//! regions meet: each body is alone), the fast ones on 10 cells spread over
//! it. The world is prepared one step after it is built (the mesh index is
//! built) and reset from that world every [`RUN`] steps, outside any
//! timing: each run sees the fast spheres strike the terrain. The check of
//! a fast sphere is independent of parapet's narrow phase: its centre's
//! height above the height field's own interpolation of the terrain, less
//! its radius ([`parapet_scenes::clearance::height_above`]).

use parapet::ccd::CcdMode;
use parapet::prelude::*;
use parapet_scenes::bench_ccd::{bench_terrain_for, SPACING};
use parapet_scenes::clearance::height_above;
use parapet_scenes::terrain::HeightField;

/// The step (s): 1/60.
pub const DT: f32 = 1.0 / 60.0;

/// Slow bodies.
pub const SLOW: usize = 1000;

/// Fast bodies.
pub const FAST: usize = 10;

/// Steps from a reset to the next (0.1 s): the fast spheres start two steps
/// of travel above the terrain, so each run holds their strike and rebound.
pub const RUN: usize = 6;

/// Sphere radius (m).
pub const RADIUS: f32 = 0.2;

/// The fall speed of the fast spheres (m/s): 1 m per step, 2.5 times
/// their diameter.
pub const FAST_SPEED: f32 = 60.0;

/// The walking speed of half the slow spheres (m/s): 1.7 cm per step, a
/// twelfth of their diameter (`Auto` keeps them discrete: the limit is a
/// quarter).
pub const WALK_SPEED: f32 = 1.0;

/// Which of the three worlds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Policy {
    /// `DISCRETE`, every body at `Inherit`.
    Discrete,
    /// `DISCRETE`, every body `Auto`.
    Auto,
    /// `SPHERE_MESH_CCD`, every body at `Inherit`.
    Continuous,
}

impl Policy {
    /// The three, in report order.
    pub const ALL: [Policy; 3] = [Policy::Discrete, Policy::Auto, Policy::Continuous];

    /// The bench's name of the world.
    pub fn name(self) -> &'static str {
        match self {
            Policy::Discrete => "discrete",
            Policy::Auto => "auto",
            Policy::Continuous => "continuous",
        }
    }
}

/// One prepared world of the workload.
#[derive(Debug, Clone)]
pub struct PolicyScene {
    /// The world, one step after it was built.
    pub world: PhysicsWorld,
    /// The fast spheres.
    pub fast: Vec<BodyId>,
    /// The walking spheres (driven at [`WALK_SPEED`] along x).
    pub walkers: Vec<BodyId>,
    /// The terrain.
    pub field: HeightField,
}

/// The grid cells of the fast spheres: 10 cells spread over the 1,024.
fn fast_cell(k: usize) -> bool {
    k % 102 == 51 && k / 102 < FAST
}

/// The workload in world `policy`.
///
/// # Errors
/// The world's refusal of a body or of the first step (none is expected).
pub fn policy_scene(policy: Policy) -> Result<PolicyScene, Box<dyn std::error::Error>> {
    let field = bench_terrain_for(8192, SLOW + FAST);
    let mut world = PhysicsWorld::new();
    if policy == Policy::Continuous {
        world.collision_detection = SPHERE_MESH_CCD;
    }
    let material = Material::new(0.5, 0.3, 0.5)?;
    world.add_body(RigidBody::new_static(field.mesh()?).with_material(material))?;
    let side = ((SLOW + FAST) as f64).sqrt().ceil() as usize;
    let span = field.nx as f64 * field.cell - 2.0;
    let spacing = span / side as f64;
    assert!(spacing >= SPACING, "cells {spacing} m apart");
    let mode = match policy {
        Policy::Auto => CcdMode::Auto,
        Policy::Discrete | Policy::Continuous => CcdMode::Inherit,
    };
    let (mut fast, mut walkers, mut slow) = (Vec::new(), Vec::new(), 0);
    for k in 0..side * side {
        let is_fast = fast_cell(k);
        if !is_fast && slow == SLOW {
            continue;
        }
        let x = field.origin[0] + 1.0 + spacing * ((k % side) as f64 + 0.5);
        let y = field.origin[1] + 1.0 + spacing * ((k / side) as f64 + 0.5);
        let ground = field.height_at(x, y).ok_or("cell off the terrain")?;
        // Resting just above the ground (a millimetre), or two steps of
        // travel above it for a fast sphere (plus the terrain's relief
        // within a radius: 0.5 m at most).
        let (z, v) = if is_fast {
            let drop = 2.0 * (FAST_SPEED * DT) as f64 + 0.5;
            (
                ground + RADIUS as f64 + drop,
                Vec3::new(0.0, 0.0, -FAST_SPEED),
            )
        } else {
            (ground + RADIUS as f64 + 0.5, Vec3::zeros())
        };
        let ball = RigidBody::new_dynamic(Shape::sphere(RADIUS)?, 1.0)?
            .with_material(material)
            .with_position(Vec3::new(x as f32, y as f32, z as f32))
            .with_linear_velocity(v)
            .with_ccd(mode);
        let id = world.add_body(ball)?;
        if is_fast {
            fast.push(id);
        } else {
            if slow % 2 == 1 {
                walkers.push(id);
            }
            slow += 1;
        }
    }
    let mut scene = PolicyScene {
        world,
        fast,
        walkers,
        field,
    };
    // The slow spheres fall the half metre and settle before the workload
    // is taken (a second); the fast ones are then placed again above their
    // cells.
    let starts: Vec<(BodyId, Vec3)> = scene
        .fast
        .iter()
        .map(|&id| {
            (
                id,
                scene
                    .world
                    .body(id)
                    .map(|b| b.position())
                    .unwrap_or_default(),
            )
        })
        .collect();
    for _ in 0..60 {
        scene.drive();
        scene.world.step(DT)?;
    }
    for (id, p) in starts {
        if let Some(b) = scene.world.body_mut(id) {
            b.set_position(p);
            b.set_linear_velocity(Vec3::new(0.0, 0.0, -FAST_SPEED));
            b.set_angular_velocity(Vec3::zeros());
        }
    }
    Ok(scene)
}

impl PolicyScene {
    /// The walkers' controller, run before every step: each walking sphere
    /// takes [`WALK_SPEED`] along x (its vertical velocity kept).
    pub fn drive(&mut self) {
        for id in &self.walkers {
            if let Some(b) = self.world.body_mut(*id) {
                let v = b.linear_velocity();
                b.set_linear_velocity(Vec3::new(WALK_SPEED, 0.0, v.z));
            }
        }
    }

    /// The fast spheres of `world` whose centre is below the terrain (or
    /// off it), by the height field's own interpolation: those that crossed
    /// it.
    pub fn crossed(&self, world: &PhysicsWorld) -> usize {
        self.fast
            .iter()
            .filter(|id| {
                let p = world.body(**id).map(|b| b.position()).unwrap_or_default();
                height_above(&self.field, p).is_none_or(|h| h < 0.0)
            })
            .count()
    }
}
