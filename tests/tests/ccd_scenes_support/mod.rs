//! Shared pieces of the `ccd_scenes_*` families: random shapes and bodies
//! drawn with `SplitMix64`, and the oracle of the fact every family
//! checks after every step of SPHERE_MESH_CCD: no dynamic body ends inside
//! another body, or behind a one-sided surface, deeper than the pair's
//! promised depth.
//!
//! The oracle shares no code with parapet's contacts or arbiter: the depth
//! of a pair is parry3d's contact query on the two shapes at their stored
//! poses (`parapet_tests::overlap::depth`; a closed box mesh is given to
//! parry3d as the box it closes); a terrain is also checked as a one-sided
//! surface (a body whose centre is below the height field's surface under
//! it, by `HeightField::height_at` in `f64`, went through it, touching no
//! triangle at the end), and so is the top face of a static floor box.
//!
//! The allowance of a pair is the smaller of the two shapes' promised
//! depths (`parapet::ccd::tolerances::promised_depth`: the held depth plus
//! sixteen contact tolerances) plus the `f32` storage rounding of the
//! positions that `ccd_family.rs` allows (`4 max(|p|, 1) eps`).

#![allow(dead_code)]

pub mod worlds;

use parapet::ccd::tolerances::promised_depth;
use parapet::prelude::*;
use parapet_scenes::prng::SplitMix64;
use parapet_scenes::terrain::HeightField;
use parapet_tests::overlap::{parry_shape, shape_pose};
use parapet_tests::parry::to_parry;
use parry3d::shape::{Cuboid, Shape as ParryShape};

/// The `f32` storage rounding (m) of positions of largest coordinate `m`,
/// as `ccd_family.rs` allows it.
pub fn storage_tolerance(m: f32) -> f64 {
    4.0 * m.abs().max(1.0) as f64 * f32::EPSILON as f64
}

/// A random solid shape of size about `size` (m): a sphere, a capsule, a
/// box or a hull, by `kind` (0 to 3).
pub fn shape(rng: &mut SplitMix64, kind: usize, size: f32) -> Shape {
    let s = |rng: &mut SplitMix64| size * rng.range_f32(0.4, 1.0);
    match kind % 4 {
        0 => Shape::sphere(s(rng)).unwrap(),
        1 => Shape::capsule(0.5 * s(rng), s(rng)).unwrap(),
        2 => Shape::cuboid(Vec3::new(s(rng), s(rng), 0.5 * s(rng))).unwrap(),
        _ => {
            // A box with jittered corners and a roof point: irregular,
            // always a valid hull.
            let (hx, hy, hz) = (s(rng), s(rng), 0.6 * s(rng));
            let mut points = Vec::new();
            for k in 0..8 {
                let sign = |bit: usize| if k & bit == 0 { -1.0 } else { 1.0 };
                let j = |rng: &mut SplitMix64| rng.range_f32(0.75, 1.0);
                points.push(Vec3::new(
                    sign(1) * hx * j(rng),
                    sign(2) * hy * j(rng),
                    sign(4) * hz * j(rng),
                ));
            }
            points.push(Vec3::new(0.0, 0.0, hz * 1.4));
            Shape::convex_hull(&points).unwrap()
        }
    }
}

/// A random unit vector times `len`.
pub fn direction(rng: &mut SplitMix64, len: f32) -> Vec3 {
    loop {
        let v = Vec3::new(
            rng.range_f32(-1.0, 1.0),
            rng.range_f32(-1.0, 1.0),
            rng.range_f32(-1.0, 1.0),
        );
        let n = v.norm();
        if n > 0.1 && n <= 1.0 {
            return v / n * len;
        }
    }
}

/// A random rotation.
pub fn rotation(rng: &mut SplitMix64) -> Quat {
    let angle = rng.range_f32(0.0, 3.1);
    Quat::from_scaled_axis(direction(rng, angle))
}

/// The largest half size (m) of a shape about its origin.
pub fn bound(shape: &Shape) -> f32 {
    shape.bounding_radius() as f32
}

/// A one-sided surface of a family's world.
#[derive(Debug, Clone)]
pub enum Surface {
    /// A terrain the world holds as a static mesh.
    Terrain(HeightField),
    /// The top face (`z = top`) of a static floor box over `|x|, |y| <=
    /// half`.
    FloorTop {
        /// Height of the top face (m).
        top: f64,
        /// Half side of the floor (m).
        half: f64,
    },
}

/// What the oracle knows of a world beyond its bodies.
#[derive(Debug, Clone, Default)]
pub struct Oracle {
    /// One-sided surfaces.
    pub surfaces: Vec<Surface>,
    /// Mesh bodies that close a box, with its half extents (judged as the
    /// box).
    pub boxes: Vec<(BodyId, Vec3)>,
}

/// One violation: what, the depth and the allowance (m).
#[derive(Debug, Clone)]
pub struct Violation {
    /// Which bodies, in words.
    pub what: String,
    /// Measured depth (m).
    pub depth: f64,
    /// The allowance (m).
    pub allowed: f64,
}

impl Oracle {
    fn parry_of(&self, id: BodyId, body: &RigidBody) -> Option<Box<dyn ParryShape>> {
        match self.boxes.iter().find(|(b, _)| *b == id) {
            Some((_, half)) => Some(Box::new(Cuboid::new(to_parry(*half)))),
            None => parry_shape(body.shape()),
        }
    }

    /// How deep (m) bodies `a` and `b` of `world` overlap by parry3d.
    fn pair_depth(&self, world: &PhysicsWorld, a: BodyId, b: BodyId) -> Option<f64> {
        let (ba, bb) = (world.body(a)?, world.body(b)?);
        let (sa, sb) = (self.parry_of(a, ba)?, self.parry_of(b, bb)?);
        let c = parry3d::query::contact(&shape_pose(ba), &*sa, &shape_pose(bb), &*sb, 0.0).ok()?;
        Some(c.map_or(0.0, |c| (-c.dist).max(0.0) as f64))
    }

    /// Every violation in `world`: pairs with a dynamic body deeper than
    /// their allowance, dynamic bodies behind a surface.
    pub fn violations(&self, world: &PhysicsWorld) -> Vec<Violation> {
        let bodies: Vec<(BodyId, &RigidBody)> = world.bodies().collect();
        let mut out = Vec::new();
        for (i, (ia, a)) in bodies.iter().enumerate() {
            for (ib, b) in &bodies[i + 1..] {
                if a.kind() != BodyKind::Dynamic && b.kind() != BodyKind::Dynamic {
                    continue;
                }
                let Some(d) = self.pair_depth(world, *ia, *ib) else {
                    continue;
                };
                let m = a.position().amax().max(b.position().amax());
                let allowed =
                    promised_depth(a.shape()).min(promised_depth(b.shape())) + storage_tolerance(m);
                if d > allowed {
                    out.push(Violation {
                        what: format!("{ia} {:?} inside {ib} {:?}", a.kind(), b.kind()),
                        depth: d,
                        allowed,
                    });
                }
            }
            if a.kind() == BodyKind::Dynamic {
                self.behind(*ia, a, &mut out);
            }
        }
        out
    }

    /// A dynamic body whose centre lies behind a surface: it went through.
    fn behind(&self, id: BodyId, body: &RigidBody, out: &mut Vec<Violation>) {
        let p = body.position();
        let (x, y, z) = (p.x as f64, p.y as f64, p.z as f64);
        let allowed = promised_depth(body.shape()) + storage_tolerance(p.amax());
        for s in &self.surfaces {
            let under = match s {
                Surface::Terrain(field) => field.height_at(x, y).map(|h| h - z),
                Surface::FloorTop { top, half } => {
                    (x.abs() <= *half && y.abs() <= *half).then_some(top - z)
                }
            };
            if let Some(d) = under.filter(|d| *d > allowed) {
                out.push(Violation {
                    what: format!("{id} centre behind a surface"),
                    depth: d,
                    allowed,
                });
            }
        }
    }
}

/// The prefix of a failure that is a limit's refusal (counted, not a
/// breach of the promise).
pub const REFUSED: &str = "refused by a limit: ";

/// Steps `world` `steps` times at `dt`, checking after every step that the
/// oracle finds nothing, and that a refused step is a limit's (impacts,
/// advancement iterations or events) and changed nothing; the first
/// failure, in words, naming `case` (a refusal prefixed by [`REFUSED`]).
pub fn run_checked(
    case: &str,
    world: &mut PhysicsWorld,
    oracle: &Oracle,
    dt: f32,
    steps: usize,
) -> Result<(), String> {
    for step in 0..steps {
        let before: Vec<RigidBody> = world.bodies().map(|(_, b)| b.clone()).collect();
        if let Err(e) = world.step(dt) {
            let after: Vec<RigidBody> = world.bodies().map(|(_, b)| b.clone()).collect();
            let limit = matches!(
                e,
                StepError::ImpactLimit { .. }
                    | StepError::SubstepLimit { .. }
                    | StepError::EventLimit { .. }
            );
            let prefix = if limit && before == after {
                REFUSED
            } else {
                ""
            };
            return Err(format!("{prefix}{case}: step {step} refused: {e}"));
        }
        if let Some(v) = oracle.violations(world).first() {
            return Err(format!(
                "{case}: step {step}: {} by {:.6} m (allowed {:.6} m)",
                v.what, v.depth, v.allowed
            ));
        }
    }
    Ok(())
}

/// Asserts that no case of a family breached the promise, and that at
/// most `max_refused` were refused by the limits (the measured count: more
/// refusals fail), listing every failure.
pub fn assert_all_hold(family: &str, cases: usize, failures: &[String], max_refused: usize) {
    let (refused, breaches): (Vec<&String>, Vec<&String>) =
        failures.iter().partition(|f| f.starts_with(REFUSED));
    println!(
        "{family}: {} of {cases} cases refused by the limits (measured: {max_refused})",
        refused.len()
    );
    assert!(
        breaches.is_empty(),
        "{family}: {} of {cases} cases breached the promise:\n{}",
        breaches.len(),
        breaches
            .iter()
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    );
    assert!(
        refused.len() <= max_refused,
        "{family}: {} of {cases} cases refused by the limits (measured: {max_refused}):\n{}",
        refused.len(),
        refused
            .iter()
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    );
}
