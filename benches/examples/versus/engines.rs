//! The engines of the parapet-against-rapier3d scenes
//! (`parapet_scenes::bench_versus`), shared by the `vs_rapier` bench and
//! the `versus_profile` example: a rapier3d 0.36 world built from a scene
//! description (CCD on every dynamic body, or on every other one), and a
//! parapet world with its dynamic bodies in body order.
//!
//! Each engine builds its world from the same description and takes one
//! step (parapet's triangle index, rapier's broad phase), the controller
//! first.

use parapet::prelude::*;
use parapet_scenes::bench_versus::{VersusScene, VersusShape, DT, GRAVITY};
use rapier3d::prelude::{
    CCDSolver, ColliderBuilder, ColliderSet, ImpulseJointSet, IntegrationParameters, IslandManager,
    MultibodyJointSet, NarrowPhase, PhysicsPipeline, RigidBodyBuilder, RigidBodyHandle,
    RigidBodySet, SoftBodySet, Vector,
};

/// A rapier3d world: every set the pipeline steps, and the handles of the
/// scene's bodies in body order.
#[derive(Clone)]
pub struct Rapier {
    params: IntegrationParameters,
    gravity: Vector,
    islands: IslandManager,
    broad_phase: rapier3d::prelude::BroadPhaseBvh,
    narrow_phase: NarrowPhase,
    /// The bodies.
    pub bodies: RigidBodySet,
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
    pub fn new(s: &VersusScene, pipeline: &mut PhysicsPipeline, every: bool) -> Rapier {
        let params = IntegrationParameters {
            dt: DT,
            ..IntegrationParameters::default()
        };
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
    pub fn drive(&mut self, s: &VersusScene) {
        for (k, h) in self.handles.iter().enumerate() {
            let b = &mut self.bodies[*h];
            let p = b.translation();
            if let Some([vx, vy]) = s.steer(k, p.x as f64, p.y as f64) {
                let v = b.linvel();
                b.set_linvel(Vector::new(vx, vy, v.z), true);
            }
        }
    }

    /// One step of rapier's pipeline.
    pub fn step(&mut self, pipeline: &mut PhysicsPipeline) {
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

    /// Every scene body's centre (m).
    pub fn centres(&self) -> Vec<[f64; 3]> {
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
pub struct Parapet {
    /// The world.
    pub world: PhysicsWorld,
    /// Its scene bodies, in body order.
    pub ids: Vec<BodyId>,
}

impl Parapet {
    /// The scene in parapet in `mode`.
    pub fn new(s: &VersusScene, mode: CollisionDetection) -> Result<Parapet, String> {
        let world = s.parapet(mode).map_err(|e| e.to_string())?;
        let ids = world
            .bodies()
            .filter(|(_, b)| b.kind() == BodyKind::Dynamic)
            .map(|(id, _)| id)
            .collect();
        Ok(Parapet { world, ids })
    }

    /// Every scene body's centre (m).
    pub fn centres(&self) -> Vec<[f64; 3]> {
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
