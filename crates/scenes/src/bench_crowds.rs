//! The crowd scenes of the comparison with other engines: rotation-locked
//! capsule walkers (r 0.3 m, half height 0.6 m, 70 kg) walking at 1.5 m/s
//! along circles on a generated terrain, their start positions on a square
//! grid `spacing` metres apart, in either mode; and the independent check
//! of a crowd's positions (walkers sunk into the terrain, walkers passed
//! into each other), which reads positions only, so that it judges any
//! engine's crowd alike.
//!
//! Every walker follows its own circle of [`CIRCLE_RADIUS`] around a centre
//! beside its start, all in the same phase, so the crowd turns as one
//! lattice and neighbours keep about `spacing` apart: a pedestrian crowd
//! whose members never need to touch. The controller ([`CrowdLayout::steer`])
//! reads a walker's position only and sets its horizontal velocity, keeping
//! the vertical one (gravity and the terrain keep it on the ground).

use parapet::prelude::*;

use crate::bench_ccd::{BenchSceneError, TERRAIN_SEED};
use crate::clearance::height_above;
use crate::scene::CROSSING_TOLERANCE;
use crate::terrain::HeightField;

/// Step (s).
pub const DT: f32 = 1.0 / 60.0;
/// Walker radius (m).
pub const WALKER_RADIUS: f32 = 0.3;
/// Walker half height (m): the core segment runs 0.6 m above and below the
/// centre, so a walker stands 1.8 m tall.
pub const WALKER_HALF_HEIGHT: f32 = 0.6;
/// Walker mass (kg).
pub const WALKER_MASS: f32 = 70.0;
/// Walking speed (m/s).
pub const WALK_SPEED: f32 = 1.5;
/// Radius (m) of each walker's circle.
pub const CIRCLE_RADIUS: f64 = 2.0;
/// Friction coefficient of walkers and terrain.
pub const FRICTION: f32 = 0.5;
/// Clearance (m) between a walker's lowest point and the terrain's highest
/// nearby sample at the start.
const START_CLEARANCE: f64 = 0.02;
/// Room (m) kept between the circles and the field's edge.
const EDGE_ROOM: f64 = 2.0;
/// Gain of the radial correction (dimensionless): a walker `x` metres off
/// its circle steers back at `RADIAL_GAIN x / CIRCLE_RADIUS` of its speed.
const RADIAL_GAIN: f64 = 1.0;

/// Where a crowd stands and walks: the terrain, each walker's start and the
/// centre of its circle. Everything an engine needs to build the same crowd.
#[derive(Debug, Clone)]
pub struct CrowdLayout {
    /// The terrain.
    pub field: HeightField,
    /// Each walker's start centre (m, world).
    pub starts: Vec<[f64; 3]>,
    /// Each walker's circle centre (m, horizontal).
    pub centres: Vec<[f64; 2]>,
    /// Grid spacing (m).
    pub spacing: f64,
}

/// The layout of `count` walkers `spacing` metres apart on a terrain of
/// `triangles` triangles (rounded to `2 n²`): cells of 1 m or more, as the
/// crowd and its circles need.
pub fn crowd_layout(count: usize, spacing: f64, triangles: usize) -> CrowdLayout {
    let n = ((triangles as f64 / 2.0).sqrt().round() as usize).max(1);
    let side = (count as f64).sqrt().ceil() as usize;
    let span = spacing * (side - 1) as f64 + 2.0 * CIRCLE_RADIUS + 2.0 * EDGE_ROOM;
    let cell = (span / n as f64).max(1.0);
    let field = HeightField::generate(TERRAIN_SEED, n, n, cell, 0.5);
    let r = WALKER_RADIUS as f64;
    let half = WALKER_HALF_HEIGHT as f64;
    let x0 = field.origin[0] + EDGE_ROOM + CIRCLE_RADIUS;
    let y0 = field.origin[1] + EDGE_ROOM + CIRCLE_RADIUS;
    let mut starts = Vec::with_capacity(count);
    let mut centres = Vec::with_capacity(count);
    for k in 0..count {
        let cx = x0 + spacing * (k % side) as f64;
        let cy = y0 + spacing * (k / side) as f64;
        // The start lies on the circle, on its -x side: it walks towards -y
        // first (counter-clockwise).
        let (x, y) = (cx - CIRCLE_RADIUS, cy);
        let mut top = f64::MIN;
        for dx in [-r, 0.0, r] {
            for dy in [-r, 0.0, r] {
                top = top.max(field.height_at(x + dx, y + dy).unwrap_or(0.0));
            }
        }
        // The field's slopes stay below 1 (heights within ±0.55 m over
        // coarse cells of at least 4 m): r + 2 cm above the highest of nine
        // samples within r is clear, plus 0.3 r for the slope under the
        // rim.
        let z = top + half + r + START_CLEARANCE + 0.3 * r;
        starts.push([x, y, z]);
        centres.push([cx, cy]);
    }
    CrowdLayout {
        field,
        starts,
        centres,
        spacing,
    }
}

impl CrowdLayout {
    /// The horizontal velocity (m/s) the controller sets for walker `k` at
    /// `(x, y)`: [`WALK_SPEED`] along its circle (counter-clockwise), turned
    /// towards the circle when the walker is off it.
    pub fn steer(&self, k: usize, x: f64, y: f64) -> [f32; 2] {
        let [cx, cy] = self.centres[k];
        let (rx, ry) = (x - cx, y - cy);
        let d = (rx * rx + ry * ry).sqrt();
        if d.is_nan() || d <= 1e-9 {
            return [WALK_SPEED, 0.0];
        }
        let (ux, uy) = (rx / d, ry / d);
        let back = RADIAL_GAIN * (CIRCLE_RADIUS - d) / CIRCLE_RADIUS;
        let (vx, vy) = (-uy + back * ux, ux + back * uy);
        let s = WALK_SPEED as f64 / (vx * vx + vy * vy).sqrt();
        [(vx * s) as f32, (vy * s) as f32]
    }

    /// The number of walkers.
    pub fn len(&self) -> usize {
        self.starts.len()
    }

    /// Whether the crowd is empty.
    pub fn is_empty(&self) -> bool {
        self.starts.is_empty()
    }

    /// The check of a crowd (walker centres, m, in walker order): see
    /// [`CrowdCheck`]. Positions only: walkers never turn (their rotations
    /// are locked upright in every engine the benches build), so each
    /// core is the vertical segment of half height [`WALKER_HALF_HEIGHT`]
    /// through its centre.
    pub fn check(&self, centres: &[[f64; 3]]) -> CrowdCheck {
        let r = WALKER_RADIUS as f64;
        let half = WALKER_HALF_HEIGHT as f64;
        let mut out = CrowdCheck {
            sunk: 0,
            crossed: 0,
            min_gap: f64::INFINITY,
        };
        for p in centres {
            let low = Vec3::new(p[0] as f32, p[1] as f32, (p[2] - half) as f32);
            if height_above(&self.field, low).is_none_or(|h| h < -CROSSING_TOLERANCE) {
                out.sunk += 1;
            }
        }
        // Two upright segments: the horizontal distance, and the vertical
        // distance beyond their overlap (exact for parallel segments).
        for (i, a) in centres.iter().enumerate() {
            for b in &centres[i + 1..] {
                let (dx, dy) = (b[0] - a[0], b[1] - a[1]);
                let dz = ((b[2] - a[2]).abs() - 2.0 * half).max(0.0);
                let gap = (dx * dx + dy * dy + dz * dz).sqrt() - 2.0 * r;
                out.min_gap = out.min_gap.min(gap);
                out.crossed += usize::from(gap < -CROSSING_TOLERANCE);
            }
        }
        out
    }
}

/// What [`CrowdLayout::check`] found.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CrowdCheck {
    /// Walkers whose lowest core point lies more than
    /// [`CROSSING_TOLERANCE`] below the terrain under it (or off the field).
    pub sunk: usize,
    /// Walker pairs overlapping by more than [`CROSSING_TOLERANCE`] (one
    /// passed into the other).
    pub crossed: usize,
    /// The smallest surface gap between two walkers (m).
    pub min_gap: f64,
}

/// A crowd in a parapet world.
#[derive(Debug, Clone)]
pub struct Crowd {
    /// The world after one step (index built), in the requested mode.
    pub world: PhysicsWorld,
    /// The walkers, in layout order.
    pub walkers: Vec<BodyId>,
    /// The layout.
    pub layout: CrowdLayout,
}

impl Crowd {
    /// The controller: each walker's horizontal velocity from
    /// [`CrowdLayout::steer`], its vertical velocity kept.
    pub fn drive(&self, world: &mut PhysicsWorld) {
        for (k, id) in self.walkers.iter().enumerate() {
            if let Some(b) = world.body_mut(*id) {
                let p = b.position();
                let v = b.linear_velocity();
                let [vx, vy] = self.layout.steer(k, p.x as f64, p.y as f64);
                b.set_linear_velocity(Vec3::new(vx, vy, v.z));
            }
        }
    }

    /// Every walker's centre (m) in `world`.
    pub fn centres(&self, world: &PhysicsWorld) -> Vec<[f64; 3]> {
        self.walkers
            .iter()
            .filter_map(|id| world.body(*id))
            .map(|b| {
                let p = b.position();
                [p.x as f64, p.y as f64, p.z as f64]
            })
            .collect()
    }
}

/// `count` walkers `spacing` metres apart on `triangles` terrain triangles
/// ([`crowd_layout`]) in `mode`, after one driven step.
///
/// # Errors
///
/// [`BenchSceneError`] if a body is refused or the first step fails.
pub fn crowd(
    mode: CollisionDetection,
    count: usize,
    spacing: f64,
    triangles: usize,
) -> Result<Crowd, BenchSceneError> {
    let layout = crowd_layout(count, spacing, triangles);
    let mut world = PhysicsWorld::new();
    world.collision_detection = mode;
    let m = Material::new(FRICTION, 0.0, 0.5)?;
    world.add_body(RigidBody::new_static(layout.field.mesh()?).with_material(m))?;
    let mut walkers = Vec::with_capacity(count);
    for p in &layout.starts {
        let mut b = RigidBody::new_dynamic(
            Shape::capsule(WALKER_RADIUS, WALKER_HALF_HEIGHT)?,
            WALKER_MASS,
        )?;
        b.set_inverse_inertia(Mat3::zeros())?;
        let b = b
            .with_material(m)
            .with_position(Vec3::new(p[0] as f32, p[1] as f32, p[2] as f32));
        walkers.push(world.add_body(b)?);
    }
    let crowd = Crowd {
        world,
        walkers,
        layout,
    };
    let mut world = crowd.world.clone();
    crowd.drive(&mut world);
    world.step(DT)?;
    Ok(Crowd { world, ..crowd })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two seconds of the densest crowd in both modes: nobody sinks, nobody
    /// passes into a neighbour, and the lattice keeps its spacing (the
    /// smallest gap stays within 5 cm of the start's: the walkers follow
    /// their circles in phase).
    #[test]
    fn a_dense_crowd_walks_its_circles_without_sinking_or_touching() {
        for mode in [DISCRETE, SPHERE_MESH_CCD] {
            let c = crowd(mode, 16, 1.0, 2048).unwrap();
            let mut w = c.world.clone();
            let start = c.layout.check(&c.centres(&w));
            assert_eq!((start.sunk, start.crossed), (0, 0));
            for _ in 0..120 {
                c.drive(&mut w);
                w.step(DT).unwrap();
            }
            let end = c.layout.check(&c.centres(&w));
            assert_eq!((end.sunk, end.crossed), (0, 0), "{mode:?}");
            // 1.0 m apart, 0.6 m wide: a 0.4 m gap, kept within 5 cm.
            assert!(
                (end.min_gap - 0.4).abs() < 0.05,
                "{mode:?}: {}",
                end.min_gap
            );
            // They walked: 2 s at 1.5 m/s along a circle of 2 m moves a
            // walker about 2.5 m from its start.
            let p = c.centres(&w)[0];
            let s = c.layout.starts[0];
            let moved = ((p[0] - s[0]).powi(2) + (p[1] - s[1]).powi(2)).sqrt();
            assert!(moved > 1.5, "{mode:?}: {moved}");
        }
    }

    #[test]
    fn the_steering_follows_the_circle_and_turns_back_onto_it() {
        let l = crowd_layout(4, 1.8, 512);
        let [cx, cy] = l.centres[0];
        // On the circle: tangent, at walking speed.
        let v = l.steer(0, cx + CIRCLE_RADIUS, cy);
        assert!(
            v[0].abs() < 1e-6 && (v[1] - WALK_SPEED).abs() < 1e-6,
            "{v:?}"
        );
        // Outside: inward component.
        let v = l.steer(0, cx + 2.0 * CIRCLE_RADIUS, cy);
        assert!(v[0] < 0.0 && v[1] > 0.0, "{v:?}");
        let s = (v[0] * v[0] + v[1] * v[1]).sqrt();
        assert!((s - WALK_SPEED).abs() < 1e-5);
    }
}
