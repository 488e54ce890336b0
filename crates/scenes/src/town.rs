//! The bodies of the town scenes (the crossroads, the crashes, the bus
//! through a crowd, the lift): a car is the vehicle scenes' chassis (a
//! 4.4 x 1.8 x 1.4 m box, 1,500 kg, that turns), a walker the crowds'
//! rotation-locked capsule, a bus a kinematic box, a bollard a static
//! capsule, a kerb a static box, a lift a kinematic closed box mesh, a
//! projectile a small fast sphere; and [`Cast`], a world being built with
//! the judge's list of its bodies.

use parapet::prelude::*;

use crate::bench_crowds::{FRICTION, WALKER_HALF_HEIGHT, WALKER_MASS, WALKER_RADIUS};
use crate::control::Control;
use crate::judge::{BodiesJudge, Judged};
use crate::overlap::Solid;
use crate::scene::{Measure, Scene};
use crate::terrain::HeightField;
use crate::vehicles::{chassis, CHASSIS_HALF};
use crate::SceneError;

/// Half extents (m) of the bus: 2.5 m wide, 12 m long (along y), 3 m tall.
pub const BUS_HALF: [f32; 3] = [1.25, 6.0, 1.5];
/// Height (m) of the bus's floor above the road: walkers and cars meet its
/// sides, a projectile lying on the road passes under it.
pub const BUS_CLEARANCE: f32 = 0.3;
/// Bollard radius (m).
pub const BOLLARD_RADIUS: f32 = 0.12;
/// Bollard half height (m) of the core segment: 1.14 m tall.
pub const BOLLARD_HALF_HEIGHT: f32 = 0.45;
/// Projectile radius (m).
pub const PROJECTILE_RADIUS: f32 = 0.05;
/// Projectile mass (kg).
pub const PROJECTILE_MASS: f32 = 0.2;
/// Height (m) at which a body is placed above the highest ground point
/// under it: clear of the road's bumps, and within the contact margin
/// so that it settles at once.
pub const SPAWN_CLEARANCE: f32 = 0.01;

/// A world being built, and the judge's list of its bodies.
#[derive(Debug, Clone)]
pub struct Cast {
    /// The world.
    pub world: PhysicsWorld,
    /// Every body but the ground, for [`BodiesJudge`].
    pub judged: Vec<Judged>,
}

impl Cast {
    /// An empty world in `mode`.
    pub fn new(mode: CollisionDetection) -> Self {
        let mut world = PhysicsWorld::new();
        world.collision_detection = mode;
        Self {
            world,
            judged: Vec::new(),
        }
    }

    /// Adds the ground (not judged: the judge's ground is its height
    /// field, or the scene judges a static floor box as a body).
    ///
    /// # Errors
    /// [`SceneError`] when the world refuses it.
    pub fn ground(&mut self, body: RigidBody) -> Result<BodyId, SceneError> {
        Ok(self.world.add_body(body)?)
    }

    /// Adds `body`, judged as the solid of its shape.
    ///
    /// # Errors
    /// [`SceneError`] when the world refuses it or the judge has no solid
    /// for its shape ([`SceneError::Unjudged`]).
    pub fn add(&mut self, body: RigidBody, label: &'static str) -> Result<BodyId, SceneError> {
        let solid = Solid::of(body.shape()).ok_or(SceneError::Unjudged { label })?;
        self.add_as(body, solid, label)
    }

    /// Adds `body`, judged as `solid` (a mesh closing a box).
    ///
    /// # Errors
    /// [`SceneError`] when the world refuses it.
    pub fn add_as(
        &mut self,
        body: RigidBody,
        solid: Solid,
        label: &'static str,
    ) -> Result<BodyId, SceneError> {
        let id = self.world.add_body(body)?;
        self.judged.push(Judged {
            body: id,
            solid,
            label,
        });
        Ok(id)
    }

    /// The judge of these bodies over `ground`.
    pub fn judge(&self, ground: Option<HeightField>) -> BodiesJudge {
        BodiesJudge {
            bodies: self.judged.clone(),
            ground,
        }
    }

    /// A static box floor of half extents `hx` by `hy` (m) and half a metre
    /// thick, its top at z = 0, judged as a body (`floor`).
    ///
    /// # Errors
    /// [`SceneError`] (never for positive extents).
    pub fn floor(&mut self, hx: f32, hy: f32, material: Material) -> Result<BodyId, SceneError> {
        let body =
            block(Vec3::new(0.0, 0.0, -0.5), Vec3::new(hx, hy, 0.5))?.with_material(material);
        self.add(body, "floor")
    }

    /// The scene of this cast, judged over `ground`, watching `watched`
    /// (the first is the plotted subject).
    ///
    /// # Panics
    /// If `watched` is empty.
    pub fn scene(
        self,
        name: &'static str,
        title: &'static str,
        (dt, steps): (f32, usize),
        watched: Vec<BodyId>,
        ground: Option<HeightField>,
        controls: Vec<Control>,
    ) -> Scene {
        let measure = Measure::Bodies(self.judge(ground));
        Scene {
            name,
            title,
            world: self.world,
            dt,
            steps,
            subject: watched[0],
            watched,
            measure,
            controls,
        }
    }
}

/// A car at `(x, y)` heading `yaw` (rad from +x), resting `base` metres
/// above the ground, moving at `speed` (m/s) along its heading.
///
/// # Errors
/// [`SceneError`] (never for finite values).
pub fn car(x: f32, y: f32, base: f32, yaw: f32, speed: f32) -> Result<RigidBody, SceneError> {
    Ok(chassis()?
        .with_position(Vec3::new(x, y, base + CHASSIS_HALF[2] + SPAWN_CLEARANCE))
        .with_rotation(Quat::from_axis_angle(&Vec3::z_axis(), yaw))
        .with_linear_velocity(Vec3::new(yaw.cos(), yaw.sin(), 0.0) * speed))
}

/// A walker (the crowds' capsule, rotation locked) standing at `(x, y)`
/// on ground of height `base`.
///
/// # Errors
/// [`SceneError`] (never for finite values).
pub fn walker(x: f32, y: f32, base: f32) -> Result<RigidBody, SceneError> {
    let mut b = RigidBody::new_dynamic(
        Shape::capsule(WALKER_RADIUS, WALKER_HALF_HEIGHT)?,
        WALKER_MASS,
    )?;
    b.set_inverse_inertia(Mat3::zeros())?;
    let z = base + WALKER_HALF_HEIGHT + WALKER_RADIUS + SPAWN_CLEARANCE;
    Ok(b.with_material(Material::new(FRICTION, 0.0, 0.5)?)
        .with_position(Vec3::new(x, y, z)))
}

/// The bus, kinematic, its floor [`BUS_CLEARANCE`] above ground of height
/// `base` at `(x, y)`, moving at `velocity` (m/s).
///
/// # Errors
/// [`SceneError`] (never for finite values).
pub fn bus(x: f32, y: f32, base: f32, velocity: Vec3) -> Result<RigidBody, SceneError> {
    Ok(
        RigidBody::new_kinematic(Shape::cuboid(Vec3::from(BUS_HALF))?)
            .with_position(Vec3::new(x, y, base + BUS_CLEARANCE + BUS_HALF[2]))
            .with_linear_velocity(velocity),
    )
}

/// A static upright bollard standing at `(x, y)` on ground of height
/// `base`.
///
/// # Errors
/// [`SceneError`] (never for finite values).
pub fn bollard(x: f32, y: f32, base: f32) -> Result<RigidBody, SceneError> {
    let z = base + BOLLARD_HALF_HEIGHT + BOLLARD_RADIUS;
    Ok(
        RigidBody::new_static(Shape::capsule(BOLLARD_RADIUS, BOLLARD_HALF_HEIGHT)?)
            .with_position(Vec3::new(x, y, z)),
    )
}

/// A static box of half extents `half` centred at `centre`.
///
/// # Errors
/// [`SceneError`] (never for positive extents).
pub fn block(centre: Vec3, half: Vec3) -> Result<RigidBody, SceneError> {
    Ok(RigidBody::new_static(Shape::cuboid(half)?).with_position(centre))
}

/// A projectile at `p` moving at `v` (m/s), plastic (restitution 0).
///
/// # Errors
/// [`SceneError`] (never for finite values).
pub fn projectile(p: Vec3, v: Vec3) -> Result<RigidBody, SceneError> {
    Ok(
        RigidBody::new_dynamic(Shape::sphere(PROJECTILE_RADIUS)?, PROJECTILE_MASS)?
            .with_material(Material::new(0.5, 0.0, 0.5)?)
            .with_position(p)
            .with_linear_velocity(v),
    )
}

/// A closed box mesh of half extents `half` (12 triangles, fronts
/// outwards): a lift's platform or a loading bay, as a mesh body.
///
/// # Errors
/// [`ShapeError`] (never for positive extents).
pub fn box_mesh(half: Vec3) -> Result<Shape, ShapeError> {
    let v: Vec<Vec3> = (0..8)
        .map(|k| {
            let s = |bit: usize| if k & bit == 0 { -1.0 } else { 1.0 };
            Vec3::new(s(1) * half.x, s(2) * half.y, s(4) * half.z)
        })
        .collect();
    // Corners k = x + 2y + 4z (bits); each face counter-clockwise seen
    // from outside.
    let faces = [
        [0, 2, 3, 1], // -z
        [4, 5, 7, 6], // +z
        [0, 1, 5, 4], // -y
        [2, 6, 7, 3], // +y
        [0, 4, 6, 2], // -x
        [1, 3, 7, 5], // +x
    ];
    let triangles = faces
        .iter()
        .flat_map(|f| [[f[0], f[1], f[2]], [f[0], f[2], f[3]]])
        .collect();
    Shape::mesh(v, triangles)
}

/// The highest ground (m) of `field` under the rectangle of half sides
/// `hx`, `hy` about `(x, y)` (axis aligned), sampled at its corners, edge
/// midpoints and centre; 0 off the field.
pub fn ground_under(field: &HeightField, x: f32, y: f32, hx: f32, hy: f32) -> f32 {
    let mut top = f64::MIN;
    for i in [-1.0f32, 0.0, 1.0] {
        for j in [-1.0f32, 0.0, 1.0] {
            let h = field.height_at((x + i * hx) as f64, (y + j * hy) as f64);
            top = top.max(h.unwrap_or(0.0));
        }
    }
    top as f32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_box_mesh_faces_outwards() {
        let half = Vec3::new(2.0, 1.0, 0.5);
        let Shape::Mesh(m) = box_mesh(half).unwrap() else {
            panic!("a mesh");
        };
        for t in m.indices() {
            let [a, b, c] = (*t).map(|k| m.vertices()[k as usize]);
            let n = (b - a).cross(&(c - a));
            let centre = (a + b + c) / 3.0;
            assert!(n.dot(&centre) > 0.0, "{t:?} faces inwards");
        }
        assert_eq!(m.indices().len(), 12);
    }
}
