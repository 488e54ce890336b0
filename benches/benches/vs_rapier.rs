//! parapet against rapier3d: the scenes of `parapet_scenes::bench_versus`
//! (crowds of 64 and 256 rotation-locked capsule walkers 1.0, 1.8 and 4 m
//! apart on 2,048 and 8,192 triangles, steered along circles; 64 head-on
//! sphere pairs at 100 m/s; 64 spheres falling at 40 m/s onto a terrain)
//! stepped in one process by parapet (DISCRETE and SPHERE_MESH_CCD) and by
//! rapier3d 0.36 with CCD on every dynamic body (`ccd_enabled(true)`).
//! rapier's CCD bodies ("bullets") sweep fixed, kinematic and dynamic
//! bodies except other bullets, so two head-on bullets pass through each
//! other; the head-on array is also stepped with CCD on one sphere of each
//! pair (`rapier_ccd_one`), the configuration in which rapier sweeps the
//! pair.
//!
//! Each engine builds its world from the same description and takes one
//! untimed step (parapet's triangle index, rapier's broad phase). Timing:
//! `iter_custom` times only the step. The crowds step on from step to step
//! (the controller sets each walker's horizontal velocity before every
//! step, outside the timing) and start again from the prepared state every
//! `run` steps; the impact scenes time their second step, from a copy of
//! the prepared state each time. After every timed step, outside the
//! timing, the scene's independent check (`VersusScene::judge`: walkers
//! sunk into the terrain or passed into each other, pairs passed through,
//! spheres below the terrain, from positions alone) runs on both engines'
//! bodies; the totals are recorded for the report's section "parapet
//! against rapier3d".
//!
//! Run briefly: `cargo bench -p parapet-benches --bench vs_rapier --
//! --warm-up-time 1 --measurement-time 3`.

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, Criterion};
use parapet::prelude::*;
use parapet_benches::checks::record;
use parapet_scenes::bench_versus::{
    versus_scenes, Verdict, VersusCheck, VersusScene, VersusShape, DT, GRAVITY,
};
use rapier3d::prelude::{
    CCDSolver, ColliderBuilder, ColliderSet, ImpulseJointSet, IntegrationParameters, IslandManager,
    MultibodyJointSet, NarrowPhase, PhysicsPipeline, RigidBodyBuilder, RigidBodyHandle,
    RigidBodySet, SoftBodySet, Vector,
};

/// A rapier3d world: every set the pipeline steps, and the handles of the
/// scene's bodies in body order.
#[derive(Clone)]
struct Rapier {
    params: IntegrationParameters,
    gravity: Vector,
    islands: IslandManager,
    broad_phase: rapier3d::prelude::BroadPhaseBvh,
    narrow_phase: NarrowPhase,
    bodies: RigidBodySet,
    colliders: ColliderSet,
    impulse_joints: ImpulseJointSet,
    multibody_joints: MultibodyJointSet,
    soft_bodies: SoftBodySet,
    ccd: CCDSolver,
    handles: Vec<RigidBodyHandle>,
}

impl Rapier {
    /// The scene in rapier3d with CCD on every dynamic body (on the
    /// even-numbered ones only when `every` is false), one step taken (the
    /// controller first, as in parapet).
    fn new(s: &VersusScene, pipeline: &mut PhysicsPipeline, every: bool) -> Rapier {
        let mut params = IntegrationParameters::default();
        params.dt = DT;
        let g = if s.gravity { GRAVITY } else { [0.0; 3] };
        let mut bodies = RigidBodySet::new();
        let mut colliders = ColliderSet::new();
        if let Some(field) = &s.field {
            let (v, t) = field.triangles();
            let vertices = v.iter().map(|p| Vector::new(p.x, p.y, p.z)).collect();
            let mesh = ColliderBuilder::trimesh(vertices, t)
                .expect("the generated terrain is a valid trimesh")
                .friction(s.ground.0)
                .restitution(s.ground.1);
            colliders.insert(mesh);
        }
        let mut handles = Vec::with_capacity(s.bodies.len());
        for (k, b) in s.bodies.iter().enumerate() {
            let [x, y, z] = b.position;
            let [vx, vy, vz] = b.velocity;
            let mut rb = RigidBodyBuilder::dynamic()
                .translation(Vector::new(x, y, z))
                .linvel(Vector::new(vx, vy, vz))
                .ccd_enabled(every || k % 2 == 0);
            if b.locked {
                rb = rb.lock_rotations();
            }
            let h = bodies.insert(rb);
            let shape = match b.shape {
                VersusShape::Sphere(r) => ColliderBuilder::ball(r),
                VersusShape::Capsule {
                    radius,
                    half_height,
                } => ColliderBuilder::capsule_z(half_height, radius),
            };
            let c = shape
                .mass(b.mass)
                .friction(b.friction)
                .restitution(b.restitution);
            colliders.insert_with_parent(c, h, &mut bodies);
            handles.push(h);
        }
        let mut r = Rapier {
            params,
            gravity: Vector::new(g[0], g[1], g[2]),
            islands: IslandManager::new(),
            broad_phase: Default::default(),
            narrow_phase: NarrowPhase::new(),
            bodies,
            colliders,
            impulse_joints: ImpulseJointSet::new(),
            multibody_joints: MultibodyJointSet::new(),
            soft_bodies: SoftBodySet::new(),
            ccd: CCDSolver::new(),
            handles,
        };
        r.drive(s);
        r.step(pipeline);
        r
    }

    /// The controller: each walker's horizontal velocity, its vertical kept.
    fn drive(&mut self, s: &VersusScene) {
        for (k, h) in self.handles.iter().enumerate() {
            let b = &mut self.bodies[*h];
            let p = b.translation();
            if let Some([vx, vy]) = s.steer(k, p.x as f64, p.y as f64) {
                let v = b.linvel();
                b.set_linvel(Vector::new(vx, vy, v.z), true);
            }
        }
    }

    fn step(&mut self, pipeline: &mut PhysicsPipeline) {
        pipeline.step(
            self.gravity,
            &self.params,
            &mut self.islands,
            &mut self.broad_phase,
            &mut self.narrow_phase,
            &mut self.bodies,
            &mut self.colliders,
            &mut self.impulse_joints,
            &mut self.multibody_joints,
            &mut self.soft_bodies,
            &mut self.ccd,
            &(),
            &(),
        );
    }

    fn centres(&self) -> Vec<[f64; 3]> {
        self.handles
            .iter()
            .map(|h| {
                let p = self.bodies[*h].translation();
                [p.x as f64, p.y as f64, p.z as f64]
            })
            .collect()
    }
}

/// A parapet world of the scene with its bodies in body order.
#[derive(Clone)]
struct Parapet {
    world: PhysicsWorld,
    ids: Vec<BodyId>,
}

impl Parapet {
    fn new(s: &VersusScene, mode: CollisionDetection) -> Result<Parapet, String> {
        let world = s.parapet(mode).map_err(|e| e.to_string())?;
        let ids = world
            .bodies()
            .filter(|(_, b)| b.kind() == BodyKind::Dynamic)
            .map(|(id, _)| id)
            .collect();
        Ok(Parapet { world, ids })
    }

    fn centres(&self) -> Vec<[f64; 3]> {
        self.ids
            .iter()
            .filter_map(|id| self.world.body(*id))
            .map(|b| {
                let p = b.position();
                [p.x as f64, p.y as f64, p.z as f64]
            })
            .collect()
    }
}

/// What the checks of one engine found over its timed steps.
#[derive(Default)]
struct Tally {
    steps: usize,
    verdict: Verdict,
    refused: Option<String>,
}

impl Tally {
    fn add(&mut self, v: Verdict) {
        self.steps += 1;
        self.verdict.sunk += v.sunk;
        self.verdict.crossed += v.crossed;
    }

    fn record(&self, case: &str) {
        record("vs_rapier", case, "steps", self.steps);
        record("vs_rapier", case, "sunk", self.verdict.sunk);
        record("vs_rapier", case, "crossed", self.verdict.crossed);
        record(
            "vs_rapier",
            case,
            "outcome",
            self.refused.as_deref().unwrap_or("stepped"),
        );
    }
}

fn bench_parapet(c: &mut Criterion, s: &VersusScene, mode: CollisionDetection, label: &str) {
    let case = format!("{}/{label}", s.name);
    let prepared = match Parapet::new(s, mode) {
        Ok(p) => p,
        Err(e) => {
            record("vs_rapier", &case, "outcome", format!("refused: {e}"));
            return;
        }
    };
    let mut tally = Tally::default();
    let mut w = prepared.clone();
    let mut steps = 0usize;
    c.bench_function(&format!("vs_rapier/{case}"), |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                if steps == s.run {
                    w = prepared.clone();
                    steps = 0;
                }
                s.drive_parapet(&mut w.world, &w.ids);
                let t = Instant::now();
                let r = black_box(w.world.step(DT));
                total += t.elapsed();
                steps += 1;
                match r {
                    Ok(()) => tally.add(s.judge(&w.centres())),
                    Err(e) => {
                        tally.refused.get_or_insert(e.to_string());
                        w = prepared.clone();
                        steps = 0;
                    }
                }
            }
            total
        })
    });
    tally.record(&case);
}

fn bench_rapier(c: &mut Criterion, s: &VersusScene, every: bool) {
    let label = if every {
        "rapier_ccd"
    } else {
        "rapier_ccd_one"
    };
    let case = format!("{}/{label}", s.name);
    let mut pipeline = PhysicsPipeline::new();
    let prepared = Rapier::new(s, &mut pipeline, every);
    let mut tally = Tally::default();
    let mut w = prepared.clone();
    let mut steps = 0usize;
    c.bench_function(&format!("vs_rapier/{case}"), |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                if steps == s.run {
                    w = prepared.clone();
                    steps = 0;
                }
                w.drive(s);
                let t = Instant::now();
                w.step(&mut pipeline);
                black_box(&w.bodies);
                total += t.elapsed();
                steps += 1;
                tally.add(s.judge(&w.centres()));
            }
            total
        })
    });
    tally.record(&case);
}

fn bench(c: &mut Criterion) {
    for s in versus_scenes() {
        record("vs_rapier", &s.name, "title", &s.title);
        bench_parapet(c, &s, DISCRETE, "parapet_discrete");
        bench_parapet(c, &s, SPHERE_MESH_CCD, "parapet_ccd");
        bench_rapier(c, &s, true);
        if matches!(s.check, VersusCheck::Pairs) {
            bench_rapier(c, &s, false);
        }
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
