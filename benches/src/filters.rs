//! The workloads of collision filters and sensors (bench `filters`,
//! example `filters_profile`).
//!
//! - **Filtered pairs** ([`pairs_world`]): 512 pairs of spheres (radius
//!   0.2 m) resting on a flat floor, each pair's two spheres side by side.
//!   Every other pair touches and interacts; the rest are, by
//!   [`Layout`]: overlapping and filtered by their collision groups,
//!   overlapping and excluded by `ignore_pair`, or apart (the second
//!   sphere 600 m away, where nothing meets it). The aim: a world whose
//!   filtered pairs overlap costs no more than the one whose pairs are
//!   apart.
//! - **Sensors** ([`sensor_scene`]): the per-body policy's workload
//!   ([`crate::policy`]: 1,000 slow spheres, half walking at 1 m/s, and 10
//!   fast ones falling at 60 m/s onto 8,192 triangles) with 10 sensors:
//!   five zones of 6 m by 6 m the walkers walk through, and five 1 cm
//!   plates above fast spheres' cells, crossed within a step.

use parapet::prelude::*;

use crate::policy::{policy_scene, Policy, PolicyScene};

/// Sphere pairs.
pub const PAIRS: usize = 512;

/// Sphere radius (m).
pub const PAIR_RADIUS: f32 = 0.2;

/// How the filtered half of the pairs is laid out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// Overlapping, in collision groups that do not accept each other.
    Groups,
    /// Overlapping, excluded by `ignore_pair`.
    Excluded,
    /// Apart: the second sphere 600 m away.
    Apart,
}

impl Layout {
    /// The three, in report order.
    pub const ALL: [Layout; 3] = [Layout::Groups, Layout::Excluded, Layout::Apart];

    /// The bench's name of the layout.
    pub fn name(self) -> &'static str {
        match self {
            Layout::Groups => "groups",
            Layout::Excluded => "excluded",
            Layout::Apart => "apart",
        }
    }
}

/// The filtered-pairs world in `layout` and `mode`, one step after it was
/// built (the broad phase's and the contact cache's storage in place).
///
/// # Errors
/// The world's refusal of a body or of the first step (none is expected).
pub fn pairs_world(
    layout: Layout,
    mode: CollisionDetection,
) -> Result<PhysicsWorld, Box<dyn std::error::Error>> {
    let mut world = PhysicsWorld::new();
    world.collision_detection = mode;
    world.add_body(
        RigidBody::new_static(Shape::cuboid(Vec3::new(40.0, 340.0, 0.5))?)
            .with_position(Vec3::new(0.0, 300.0, -0.5)),
    )?;
    let side = (PAIRS as f64).sqrt().ceil() as usize;
    let r = PAIR_RADIUS;
    for k in 0..PAIRS {
        let (x, y) = (
            -30.0 + 2.0 * (k % side) as f32,
            -30.0 + 2.0 * (k / side) as f32,
        );
        let ball = |p: Vec3| -> Result<RigidBody, Box<dyn std::error::Error>> {
            Ok(RigidBody::new_dynamic(Shape::sphere(r)?, 1.0)?.with_position(p))
        };
        let filtered = k % 2 == 0;
        // An interacting pair touches (centres 1 mm closer than two radii);
        // a filtered one overlaps by half a radius, or lies apart.
        let gap = if filtered { 1.5 * r } else { 2.0 * r - 0.001 };
        let far = if filtered && layout == Layout::Apart {
            600.0
        } else {
            0.0
        };
        let mut a = ball(Vec3::new(x, y, r))?;
        let mut b = ball(Vec3::new(x + gap, y + far, r))?;
        if filtered && layout == Layout::Groups {
            a = a.with_collision_groups(CollisionGroups::new(0b01, !0b10));
            b = b.with_collision_groups(CollisionGroups::new(0b10, !0b01));
        }
        let (a, b) = (world.add_body(a)?, world.add_body(b)?);
        if filtered && layout == Layout::Excluded {
            world.ignore_pair(a, b)?;
        }
    }
    world.step(crate::policy::DT)?;
    Ok(world)
}

/// The sensors' workload in world `policy` ([`Policy::Discrete`] or
/// [`Policy::Continuous`]), with its 10 sensors when `sensors`, else the
/// same world without them.
///
/// # Errors
/// The world's refusal of a body or of the first step (none is expected).
pub fn sensor_scene(
    policy: Policy,
    sensors: bool,
) -> Result<PolicyScene, Box<dyn std::error::Error>> {
    let mut scene = policy_scene(policy)?;
    if !sensors {
        return Ok(scene);
    }
    // Zones on five walkers' rows, ahead of them.
    for &id in scene.walkers.iter().step_by(100).take(5) {
        let p = scene.world.body(id).ok_or("a walker")?.position();
        scene.world.add_body(
            RigidBody::new_static(Shape::cuboid(Vec3::new(3.0, 3.0, 2.0))?)
                .with_position(p + Vec3::new(2.0, 0.0, 0.0))
                .with_sensor(true),
        )?;
    }
    // Plates 1.2 m above five fast spheres' cells: 1 m of fall per step
    // crosses a 1 cm plate within one step.
    for &id in scene.fast.iter().take(5) {
        let p = scene.world.body(id).ok_or("a fast sphere")?.position();
        scene.world.add_body(
            RigidBody::new_static(Shape::cuboid(Vec3::new(1.0, 1.0, 0.005))?)
                .with_position(p - Vec3::new(0.0, 0.0, 1.2))
                .with_sensor(true),
        )?;
    }
    Ok(scene)
}
