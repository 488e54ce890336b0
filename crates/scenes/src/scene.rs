//! A scene: a built [`PhysicsWorld`], its step and step count, its
//! controllers, the body to watch and what to measure about it; [`run`]
//! steps it and records, after every step, the watched clearance (the
//! plotted quantity), whether anything crossed a surface or another body
//! (by the independent checks of [`crate::clearance`] and
//! [`crate::judge`]), impacts, energy and, when the world refuses a step,
//! the error and whether the world stayed exactly as it was.

use std::collections::BTreeSet;

use parapet::prelude::*;

use crate::clearance::{below_terrain, height_above, passed_through_along_x};
use crate::control::Control;
use crate::judge::{BodiesJudge, Finding, Found};
use crate::terrain::HeightField;

/// How far (m) a core point may sit behind a surface before it counts as
/// crossed: 1 mm, a hundred times the f32 spacing of coordinates of a few
/// metres and well below every radius of these scenes (0.1 m or more), so a
/// body resting in contact (overlap within the contact solver's slop) is not
/// counted and a body that went through is.
pub const CROSSING_TOLERANCE: f64 = 1.0e-3;

/// How far (m) a sampled surface point of a solid (a box or hull that
/// turns) may sit behind a surface before it counts as crossed: 1 cm, half
/// the contact margin. A resting solid keeps its surface within the
/// contact solver's slop (5 mm) of the surface, and a turning solid's held
/// contacts sink no deeper than that; a solid that went through is metres
/// behind.
pub const SOLID_CROSSING_TOLERANCE: f64 = 1.0e-2;

/// Points sampled along a capsule's axis by [`Measure::AboveTerrain`]: the
/// two ends and seven between. The height above a piecewise-planar terrain
/// varies linearly between terrain edges, so the samples may miss a ridge
/// between them by at most the slope times the spacing (here the axis / 8);
/// the ends, which decide a landing, are always sampled.
pub const AXIS_SAMPLES: usize = 9;

fn axis_points(body: &RigidBody, half_height: f64) -> Vec<Vec3> {
    let p = body.position();
    let axis = body.rotation() * Vec3::new(0.0, 0.0, half_height as f32);
    (0..AXIS_SAMPLES)
        .map(|i| {
            let s = 2.0 * i as f32 / (AXIS_SAMPLES - 1) as f32 - 1.0;
            p + axis * s
        })
        .collect()
}

/// Body-frame `points` placed by the body's pose.
fn world_points<'a>(body: &'a RigidBody, points: &'a [Vec3]) -> impl Iterator<Item = Vec3> + 'a {
    points
        .iter()
        .map(move |q| body.position() + body.rotation() * q)
}

/// What a scene measures about its watched body.
#[derive(Debug, Clone)]
pub enum Measure {
    /// Height of the body's lowest core point (`position.z - core_drop`)
    /// above the plane `z = floor`, less `radius`: the gap to the floor.
    AboveFloor {
        /// Floor height (m).
        floor: f64,
        /// Distance (m) from the body origin down to its lowest core point
        /// (a capsule's half height; 0 for a sphere).
        core_drop: f64,
        /// The rounded radius around the core (m).
        radius: f64,
    },
    /// Height above a height field of the body's core segment (a capsule's
    /// axis, turned by the body's rotation; a point for a sphere), sampled at
    /// [`AXIS_SAMPLES`] points, less `radius`: the smallest vertical gap to
    /// the terrain. The body crossed when a sample lies below the terrain.
    AboveTerrain {
        /// The terrain, the same that the world holds as a mesh.
        field: HeightField,
        /// The core segment's half length (m) along the body's local +z.
        half_height: f64,
        /// The rounded radius around the core (m).
        radius: f64,
    },
    /// Gap (m) from the body's front face to the wall plane `x = wall`; the
    /// body crossed when its centre is beyond the plane.
    ToWall {
        /// The wall plane's x (m); its front faces -x.
        wall: f64,
        /// The body's half extent along x (m).
        half_extent: f64,
    },
    /// The lowest height (m) of the solid's sampled points (body frame,
    /// placed by the body's pose) above a height field: the gap to the
    /// terrain; crossed when a point is more than
    /// [`SOLID_CROSSING_TOLERANCE`] below it.
    SolidAboveTerrain {
        /// The terrain, the same that the world holds as a mesh.
        field: HeightField,
        /// Points on (or inside) the solid, body frame (m).
        points: Vec<Vec3>,
    },
    /// The smallest distance (m) of the solid's sampled points in front of
    /// the wall plane `x = wall` (front towards -x); crossed when a point
    /// is more than [`SOLID_CROSSING_TOLERANCE`] behind it.
    SolidToWall {
        /// The wall plane's x (m).
        wall: f64,
        /// Points on (or inside) the solid, body frame (m).
        points: Vec<Vec3>,
    },
    /// Smallest gap (m) between the watched sphere and the spheres of a
    /// stack (centre distance less `radius_sum`); crossed when it jumps
    /// through one of them between two steps.
    ToStack {
        /// The stack's bodies.
        stack: Vec<BodyId>,
        /// Sum of the striker's and a stack sphere's radii (m).
        radius_sum: f64,
    },
    /// Every dynamic body of the judge against every other judged body and
    /// the ground ([`BodiesJudge`]); the gap is minus the deepest overlap
    /// (0 when nothing overlaps), and a body crossed when it ended inside
    /// another, passed through one or sank behind the ground deeper than
    /// the continuous mode promises.
    Bodies(BodiesJudge),
}

impl Measure {
    /// Whether a crossing is a sinking behind the ground (else a crossing
    /// of a wall or of another body), for the verdict's counts.
    fn is_ground(&self) -> bool {
        matches!(
            self,
            Measure::AboveFloor { .. }
                | Measure::AboveTerrain { .. }
                | Measure::SolidAboveTerrain { .. }
        )
    }
}

/// A scene ready to run.
#[derive(Debug, Clone)]
pub struct Scene {
    /// Short name, used for file names (`tunneling`, `capsule_walker`, ...).
    pub name: &'static str,
    /// One line saying what the scene shows.
    pub title: &'static str,
    /// The world, already in the mode it was built for.
    pub world: PhysicsWorld,
    /// Step (s).
    pub dt: f32,
    /// Number of steps to run.
    pub steps: usize,
    /// The body whose clearance is measured and plotted.
    pub subject: BodyId,
    /// The bodies whose final positions are reported.
    pub watched: Vec<BodyId>,
    /// What to measure.
    pub measure: Measure,
    /// The controllers, applied in order before each step.
    pub controls: Vec<Control>,
}

impl Scene {
    /// Applies every controller to the world, for the next step.
    pub fn apply_controls(&mut self) {
        for c in &mut self.controls {
            c.apply(&mut self.world);
        }
    }
}

/// One measurement after a step.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sample {
    /// Time (s) since the start of the scene.
    pub time: f64,
    /// The measured gap (m): negative is an overlap.
    pub gap: f64,
}

/// A step the world refused.
#[derive(Debug, Clone)]
pub struct Refusal {
    /// The index of the refused step (0 for the first).
    pub step: usize,
    /// The error.
    pub error: StepError,
    /// Whether every body was exactly as before the call (the contract of
    /// [`PhysicsWorld::step`]).
    pub world_unchanged: bool,
}

/// What a judge found: bodies sunk behind the ground, bodies crossed into
/// or through another body (or a wall), cubes of a stack displaced. A
/// scene run counts each body once over the run; the comparison scenes
/// count what one state shows (their crossings in pairs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Verdict {
    /// Bodies sunk into the terrain.
    pub sunk: usize,
    /// Bodies (or, in the comparison scenes, pairs) passed into or through
    /// each other.
    pub crossed: usize,
    /// Cubes of a stack displaced from their places (a stack that fell).
    pub displaced: usize,
}

/// What a scene run did.
#[derive(Debug, Clone)]
pub struct SceneRun {
    /// The scene's name.
    pub name: &'static str,
    /// The mode it ran in.
    pub mode: CollisionDetection,
    /// Steps that succeeded.
    pub steps_taken: usize,
    /// Swept impacts over the run ([`ContactKind::Swept`] events; zero in DISCRETE).
    pub swept_impacts: usize,
    /// Contact points plus swept impacts over the run (sum of `contact_count`).
    pub contacts: usize,
    /// The gap after each step, starting with the initial state at time 0.
    pub samples: Vec<Sample>,
    /// The first time (s) at which something crossed a surface, if ever.
    pub crossed_at: Option<f64>,
    /// Final positions of the watched bodies.
    pub final_positions: Vec<(BodyId, Vec3)>,
    /// Mechanical energy (J: kinetic plus gravitational potential of the
    /// dynamic bodies) at the start.
    pub energy_start: f64,
    /// Mechanical energy (J) at the end.
    pub energy_end: f64,
    /// The refused step, if the world refused one (the run stops there).
    pub refusal: Option<Refusal>,
    /// How many bodies sank or crossed over the run.
    pub verdict: Verdict,
    /// The deepest finding of a [`Measure::Bodies`] judge over the run,
    /// with the time (s) of its step.
    pub worst: Option<(f64, Finding)>,
}

impl SceneRun {
    /// The smallest gap over the run (m).
    pub fn min_gap(&self) -> f64 {
        self.samples
            .iter()
            .map(|s| s.gap)
            .fold(f64::INFINITY, f64::min)
    }

    /// Whether anything crossed a surface.
    pub fn crossed(&self) -> bool {
        self.crossed_at.is_some()
    }
}

/// Kinetic plus gravitational potential energy (J) of the dynamic bodies,
/// potential measured from the origin along `-gravity`.
pub fn mechanical_energy(world: &PhysicsWorld) -> f64 {
    let g = world.gravity.cast::<f64>();
    world
        .bodies()
        .filter(|(_, b)| b.kind() == BodyKind::Dynamic)
        .map(|(_, b)| {
            let v = b.linear_velocity().cast::<f64>();
            let m = b.mass() as f64;
            let kinetic = b.kinetic_energy().unwrap_or(0.5 * m * v.norm_squared());
            kinetic - m * g.dot(&b.position().cast::<f64>())
        })
        .sum()
}

fn gap(scene: &Scene, world: &PhysicsWorld) -> f64 {
    let Some(body) = world.body(scene.subject) else {
        return f64::NAN;
    };
    let p = body.position();
    match &scene.measure {
        Measure::AboveFloor {
            floor,
            core_drop,
            radius,
        } => p.z as f64 - core_drop - radius - floor,
        Measure::AboveTerrain {
            field,
            half_height,
            radius,
        } => axis_points(body, *half_height)
            .into_iter()
            .map(|c| height_above(field, c).map_or(f64::NAN, |h| h - radius))
            .fold(f64::INFINITY, f64::min),
        Measure::ToWall { wall, half_extent } => wall - (p.x as f64 + half_extent),
        Measure::SolidAboveTerrain { field, points } => world_points(body, points)
            .map(|q| height_above(field, q).unwrap_or(f64::NAN))
            .fold(f64::INFINITY, f64::min),
        Measure::SolidToWall { wall, points } => world_points(body, points)
            .map(|q| wall - q.x as f64)
            .fold(f64::INFINITY, f64::min),
        Measure::ToStack { stack, radius_sum } => stack
            .iter()
            .filter_map(|id| world.body(*id))
            .map(|s| (p - s.position()).cast::<f64>().norm() - radius_sum)
            .fold(f64::INFINITY, f64::min),
        Measure::Bodies(judge) => -judge.deepest(world),
    }
}

fn crossed(scene: &Scene, before: &PhysicsWorld, after: &PhysicsWorld) -> bool {
    let (Some(b0), Some(b1)) = (before.body(scene.subject), after.body(scene.subject)) else {
        return false;
    };
    let p = b1.position();
    match &scene.measure {
        Measure::AboveFloor {
            floor, core_drop, ..
        } => p.z as f64 - core_drop < floor - CROSSING_TOLERANCE,
        Measure::AboveTerrain {
            field, half_height, ..
        } => axis_points(b1, *half_height)
            .into_iter()
            .any(|c| below_terrain(field, c, CROSSING_TOLERANCE)),
        Measure::ToWall { wall, .. } => p.x as f64 > wall + CROSSING_TOLERANCE,
        Measure::SolidAboveTerrain { field, points } => {
            world_points(b1, points).any(|q| below_terrain(field, q, SOLID_CROSSING_TOLERANCE))
        }
        Measure::SolidToWall { wall, points } => {
            world_points(b1, points).any(|q| q.x as f64 > wall + SOLID_CROSSING_TOLERANCE)
        }
        Measure::Bodies(judge) => !judge.findings(before, after).is_empty(),
        Measure::ToStack { stack, radius_sum } => {
            stack
                .iter()
                .any(|id| match (before.body(*id), after.body(*id)) {
                    (Some(s0), Some(s1)) => passed_through_along_x(
                        (b0.position(), s0.position()),
                        (p, s1.position()),
                        *radius_sum,
                    ),
                    _ => false,
                })
        }
    }
}

/// Runs `scene`, calling `progress(step, steps)` after each step; stops at
/// the first refused step.
pub fn run(mut scene: Scene, progress: &mut dyn FnMut(usize, usize)) -> SceneRun {
    let mode = scene.world.collision_detection;
    let energy_start = mechanical_energy(&scene.world);
    let mut samples = vec![Sample {
        time: 0.0,
        gap: gap(&scene, &scene.world),
    }];
    let (mut swept_impacts, mut contacts, mut steps_taken) = (0, 0, 0);
    let mut crossed_at = None;
    let mut refusal = None;
    let mut tally = Tally::default();
    for step in 0..scene.steps {
        scene.apply_controls();
        let before = scene.world.clone();
        if let Err(error) = scene.world.step(scene.dt) {
            let world_unchanged = before
                .bodies()
                .zip(scene.world.bodies())
                .all(|((i, a), (j, b))| i == j && a == b)
                && before.body_count() == scene.world.body_count();
            refusal = Some(Refusal {
                step,
                error,
                world_unchanged,
            });
            break;
        }
        steps_taken += 1;
        let time = steps_taken as f64 * scene.dt as f64;
        swept_impacts += scene
            .world
            .events()
            .iter()
            .filter(|e| e.kind == ContactKind::Swept)
            .count();
        contacts += scene.world.contact_count();
        if tally.judge(&scene, &before, time) && crossed_at.is_none() {
            crossed_at = Some(time);
        }
        samples.push(Sample {
            time,
            gap: gap(&scene, &scene.world),
        });
        progress(step + 1, scene.steps);
    }
    SceneRun {
        name: scene.name,
        mode,
        steps_taken,
        swept_impacts,
        contacts,
        samples,
        crossed_at,
        final_positions: scene
            .watched
            .iter()
            .filter_map(|id| scene.world.body(*id).map(|b| (*id, b.position())))
            .collect(),
        energy_start,
        energy_end: mechanical_energy(&scene.world),
        refusal,
        verdict: Verdict {
            sunk: tally.sunk.len(),
            crossed: tally.crossed.len(),
            displaced: 0,
        },
        worst: tally.worst,
    }
}

/// The bodies found so far over a run, and the deepest finding.
#[derive(Default)]
struct Tally {
    sunk: BTreeSet<BodyId>,
    crossed: BTreeSet<BodyId>,
    worst: Option<(f64, Finding)>,
}

impl Tally {
    /// Judges the step from `before` to the scene's world at `time`;
    /// whether anything crossed.
    fn judge(&mut self, scene: &Scene, before: &PhysicsWorld, time: f64) -> bool {
        let Measure::Bodies(judge) = &scene.measure else {
            let hit = crossed(scene, before, &scene.world);
            if hit {
                let set = if scene.measure.is_ground() {
                    &mut self.sunk
                } else {
                    &mut self.crossed
                };
                set.insert(scene.subject);
            }
            return hit;
        };
        let findings = judge.findings(before, &scene.world);
        for f in &findings {
            let set = if f.found == Found::Sunk {
                &mut self.sunk
            } else {
                &mut self.crossed
            };
            set.insert(f.body);
            if self.worst.as_ref().is_none_or(|(_, w)| f.depth > w.depth) {
                self.worst = Some((time, f.clone()));
            }
        }
        !findings.is_empty()
    }
}
