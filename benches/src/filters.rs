//! The workloads of collision filters and sensors (bench `filters`,
//! example `filters_profile`).
//!
//! - **Filtered pairs** ([`pairs_world`]): 512 pairs of spheres (radius
//!   0.2 m) resting on a flat floor, each pair's two spheres side by side.
//!   Every other pair touches and interacts; the rest are, by
//!   [`Layout`]: overlapping and filtered by their collision groups,
//!   overlapping and excluded by `ignore_pair`, or apart (the second
//!   sphere moved 1 m across the row: 0.6 m from its partner, beyond any
//!   reach of a step, on the same stretch of floor, so that the worlds
//!   differ in the filtered pairs alone and not in where the bodies sit).
//!   The aim: a world whose filtered pairs overlap costs no more than the
//!   one whose pairs are apart.
//! - **Sensors** ([`sensor_scene`]): the per-body policy's workload
//!   ([`crate::policy`]: 1,000 slow spheres, half walking at 1 m/s, and 10
//!   fast ones falling at 60 m/s onto 8,192 triangles) with 10 static
//!   sensors: five zones of 6 m by 6 m by 4 m whose near face stands 5 cm
//!   ahead of a walker (it enters in the run's third step; the zone holds
//!   a few more spheres, inside throughout), and five plates 1 cm thick,
//!   2 m by 2 m, across five fast spheres' fall, crossed within the run's
//!   second step on the way down (and again if the rebound reaches them).

use parapet::prelude::*;

use crate::policy::{policy_scene, Policy, PolicyScene, DT, RADIUS, WALK_SPEED};

/// Sphere pairs.
pub const PAIRS: usize = 512;

/// Sphere radius (m).
pub const PAIR_RADIUS: f32 = 0.2;

/// Zone sensors a walker enters.
pub const ZONES: usize = 5;

/// Plate sensors a fast sphere crosses.
pub const PLATES: usize = 5;

/// How the filtered half of the pairs is laid out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// Overlapping, in collision groups that do not accept each other.
    Groups,
    /// Overlapping, excluded by `ignore_pair`.
    Excluded,
    /// Apart: the second sphere 1 m away across the row.
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

/// The filtered-pairs workload, prepared.
#[derive(Debug, Clone)]
pub struct PairsWorld {
    /// The world, one step after it was built (the broad phase's and the
    /// contact cache's storage in place).
    pub world: PhysicsWorld,
    /// The filtered pairs (overlapping or apart, by the layout): no
    /// contact event may name one.
    pub filtered: Vec<(BodyId, BodyId)>,
}

impl PairsWorld {
    /// The contact events of the world's last step that name a filtered
    /// pair (none is expected).
    pub fn filtered_contacts(&self) -> usize {
        self.world
            .events()
            .iter()
            .filter(|e| {
                self.filtered
                    .binary_search(&(e.body_a.min(e.body_b), e.body_a.max(e.body_b)))
                    .is_ok()
            })
            .count()
    }
}

/// The filtered-pairs world in `layout` and `mode`.
///
/// # Errors
/// The world's refusal of a body or of the first step (none is expected).
pub fn pairs_world(
    layout: Layout,
    mode: CollisionDetection,
) -> Result<PairsWorld, Box<dyn std::error::Error>> {
    let mut world = PhysicsWorld::new();
    world.collision_detection = mode;
    world.add_body(
        RigidBody::new_static(Shape::cuboid(Vec3::new(40.0, 40.0, 0.5))?)
            .with_position(Vec3::new(0.0, 0.0, -0.5)),
    )?;
    let side = (PAIRS as f64).sqrt().ceil() as usize;
    let mut filtered_pairs = Vec::with_capacity(PAIRS / 2);
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
        // Rows are 2 m apart: 1 m across keeps clear of the next row too.
        let across = if filtered && layout == Layout::Apart {
            1.0
        } else {
            0.0
        };
        let mut a = ball(Vec3::new(x, y, r))?;
        let mut b = ball(Vec3::new(x + gap, y + across, r))?;
        if filtered && layout == Layout::Groups {
            a = a.with_collision_groups(CollisionGroups::new(0b01, !0b10));
            b = b.with_collision_groups(CollisionGroups::new(0b10, !0b01));
        }
        let (a, b) = (world.add_body(a)?, world.add_body(b)?);
        if filtered && layout == Layout::Excluded {
            world.ignore_pair(a, b)?;
        }
        if filtered {
            filtered_pairs.push((a.min(b), a.max(b)));
        }
    }
    filtered_pairs.sort_unstable();
    world.step(crate::policy::DT)?;
    Ok(PairsWorld {
        world,
        filtered: filtered_pairs,
    })
}

/// The sensors' workload in world `policy` ([`Policy::Discrete`] or
/// [`Policy::Continuous`]), with its 10 sensors when `sensors`, else the
/// same world without them. Both are stepped once after the sensors are
/// placed (the caches a step keeps built: the sensor stage's shapes of
/// every body, the terrain's among them), the fast spheres then put back
/// where that step took them from.
///
/// # Errors
/// The world's refusal of a body or of the warm-up step (none is
/// expected).
pub fn sensor_scene(
    policy: Policy,
    sensors: bool,
) -> Result<PolicyScene, Box<dyn std::error::Error>> {
    let mut scene = policy_scene(policy)?;
    if sensors {
        // Zones on five walkers' rows, their near face 5 cm ahead of the
        // walker's sphere after the warm-up step (1.7 cm per step: entered
        // in the run's third step).
        let ahead = RADIUS + 0.05 + WALK_SPEED * DT;
        for &id in scene.walkers.iter().step_by(100).take(ZONES) {
            let p = scene.world.body(id).ok_or("a walker")?.position();
            let half = Vec3::new(3.0, 3.0, 2.0);
            scene.world.add_body(
                RigidBody::new_static(Shape::cuboid(half)?)
                    .with_position(p + Vec3::new(ahead + half.x, 0.0, 0.0))
                    .with_sensor(true),
            )?;
        }
        // Plates 1.5 m below five fast spheres' start: 1 m of fall per
        // step, the sphere's lowest point 1.2 m down after the first step
        // and 2.2 m down after the second, which crosses the 1 cm plate
        // within the step.
        for &id in scene.fast.iter().take(PLATES) {
            let p = scene.world.body(id).ok_or("a fast sphere")?.position();
            scene.world.add_body(
                RigidBody::new_static(Shape::cuboid(Vec3::new(1.0, 1.0, 0.005))?)
                    .with_position(p - Vec3::new(0.0, 0.0, 1.5))
                    .with_sensor(true),
            )?;
        }
    }
    let starts: Vec<(BodyId, Vec3, Vec3)> = scene
        .fast
        .iter()
        .filter_map(|&id| {
            let b = scene.world.body(id)?;
            Some((id, b.position(), b.linear_velocity()))
        })
        .collect();
    scene.drive();
    scene.world.step(DT)?;
    for (id, p, v) in starts {
        if let Some(b) = scene.world.body_mut(id) {
            b.set_position(p);
            b.set_linear_velocity(v);
            b.set_angular_velocity(Vec3::zeros());
        }
    }
    Ok(scene)
}
