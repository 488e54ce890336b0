//! The engines of the parapet-against-rapier3d scenes
//! (`parapet_scenes::bench_versus`), shared by the `vs_rapier` bench and
//! the `versus_profile` example: a rapier3d 0.36 world built from a scene
//! description with rapier's defaults (sleeping on; CCD off, on every
//! dynamic body, or on every other one), both engines combining friction
//! by the geometric mean and restitution by the maximum (parapet's
//! `Material::mix`), and a parapet world with its dynamic bodies in body
//! order.
//!
//! Each engine builds its world from the same description and takes one
//! step (parapet's triangle index, rapier's broad phase), the controller
//! first.

use parapet::prelude::*;
use parapet_scenes::bench_versus::{BodyPose, VersusScene, VersusShape, DT, GRAVITY};
use parapet_tests::parry::pose_to_parry;
use rapier3d::prelude::{
    CCDSolver, CoefficientCombineRule, ColliderBuilder, ColliderSet, ImpulseJointSet,
    IntegrationParameters, IslandManager, MultibodyJointSet, NarrowPhase, PhysicsPipeline,
    RigidBodyBuilder, RigidBodyHandle, RigidBodySet, SoftBodySet, Vector,
};

/// Which of rapier's dynamic bodies get CCD (`ccd_enabled`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RapierCcd {
    /// None: rapier's discrete step.
    Off,
    /// Every dynamic body.
    Every,
    /// The even-numbered ones (one of each head-on pair).
    Half,
}

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
    /// The scene in rapier3d with CCD as `ccd` says, one step taken (the
    /// controller first, as in parapet).
    pub fn new(s: &VersusScene, pipeline: &mut PhysicsPipeline, ccd: RapierCcd) -> Rapier {
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
                .friction_combine_rule(CoefficientCombineRule::GeometricMean)
                .restitution(s.ground.1)
                .restitution_combine_rule(CoefficientCombineRule::Max);
            colliders.insert(mesh);
        }
        let mut handles = Vec::with_capacity(s.bodies.len());
        for (k, b) in s.bodies.iter().enumerate() {
            let [vx, vy, vz] = b.velocity;
            let [sx, sy, sz] = b.spin;
            let [qx, qy, qz, qw] = b.rotation;
            let rotation =
                Quat::new_normalize(parapet::math::nalgebra::Quaternion::new(qw, qx, qy, qz));
            let ccd_on = match ccd {
                RapierCcd::Off => false,
                RapierCcd::Every => true,
                RapierCcd::Half => k % 2 == 0,
            };
            let mut rb = RigidBodyBuilder::dynamic()
                .pose(pose_to_parry(Vec3::from(b.position), rotation))
                .linvel(Vector::new(vx, vy, vz))
                .angvel(Vector::new(sx, sy, sz))
                .ccd_enabled(ccd_on);
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
                VersusShape::Cuboid([hx, hy, hz]) => ColliderBuilder::cuboid(hx, hy, hz),
            };
            let c = shape
                .mass(b.mass)
                .friction(b.friction)
                .friction_combine_rule(CoefficientCombineRule::GeometricMean)
                .restitution(b.restitution)
                .restitution_combine_rule(CoefficientCombineRule::Max);
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

    /// Every scene body's pose.
    pub fn poses(&self) -> Vec<BodyPose> {
        self.handles
            .iter()
            .map(|h| {
                let b = &self.bodies[*h];
                let (p, q) = (b.translation(), b.rotation());
                BodyPose {
                    centre: [p.x as f64, p.y as f64, p.z as f64],
                    rotation: [q.x as f64, q.y as f64, q.z as f64, q.w as f64],
                }
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

    /// Every scene body's pose.
    pub fn poses(&self) -> Vec<BodyPose> {
        self.ids
            .iter()
            .filter_map(|id| self.world.body(*id))
            .map(|b| {
                let (p, q) = (b.position(), b.rotation());
                BodyPose {
                    centre: [p.x as f64, p.y as f64, p.z as f64],
                    rotation: [q.i as f64, q.j as f64, q.k as f64, q.w as f64],
                }
            })
            .collect()
    }
}
