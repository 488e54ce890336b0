//! The per-body policy of one step: what each body's [`CcdMode`] resolves
//! to ([`requested`]), the motion test of `Auto` bodies ([`is_fast`],
//! [`AUTO_MOTION_FRACTION`]) and each body's [`Role`] in the continuous
//! step.
//!
//! # Method
//! `Inherit` takes the world's `collision_detection` (`DISCRETE` gives
//! `Discrete`, `SPHERE_MESH_CCD` gives `Continuous`). A dynamic body
//! resolved `Continuous` is a [`Role::Mover`]: swept, and struck by
//! impulses. Every other body that collides is a target of the movers
//! whatever its own mode: a kinematic body, and a dynamic body resolved
//! `Discrete`, is a [`Role::Obstacle`] moving along its own path of the
//! step (never struck, never refused); a static body, and a sleeping one,
//! is [`Role::Fixed`]. An `Auto` dynamic body is a mover when its motion in
//! the step (`(|v| + |v_split|) dt + (|ω| + |ω_split|) dt r`, `r` its
//! farthest point from the mass centre, read after the contact solve)
//! exceeds [`AUTO_MOTION_FRACTION`] of its smallest extent, or when its
//! swept bounds meet a mover's (the continuous step then decides for it
//! too); otherwise an obstacle. Bodies whose collisions are off, and
//! sensors, take no part ([`Role::Idle`]; sensors report crossings in
//! their own stage).
//!
//! # Source
//! docs/continuous-collision.md, "Choosing per body".
//!
//! # Precision domain
//! The motion is rounded outward ([`parapet_math::rounding`]); the
//! smallest extent is a lower bound (twice the inradius about the vertex
//! centroid for a hull), so the motion test errs towards `Continuous`.

// Limits are written `!(value <= limit)` so that a NaN fails them too.
#![allow(clippy::neg_cmp_op_on_partial_ord)]

use parapet_geometry::Shape;
use parapet_math::rounding::{add_up, mul_up};
use parapet_math::{promote, Vec3d};
use parapet_solver::{BodyKind, CcdMode, RigidBody};

use super::CollisionDetection;

/// The share of its smallest extent (dimensionless) that an `Auto` body
/// may move in one step and stay `Discrete`: 0.25. A body passes through a
/// surface between two discrete contact checks only when its centre
/// crosses the surface, which takes a motion of at least half its
/// thickness from a touching start; a quarter keeps a factor of two for a
/// start that already overlaps and for the other body's own motion (two
/// bodies each under a quarter close by less than half their summed
/// thickness).
pub const AUTO_MOTION_FRACTION: f64 = 0.25;

/// What one body is in the continuous step.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) enum Role {
    /// Takes no part: a free slot, a body whose collisions are off, a
    /// sensor.
    #[default]
    Idle,
    /// A dynamic body resolved `Continuous`: swept and struck.
    Mover {
        /// Whether its own mode is `Auto`.
        auto: bool,
    },
    /// A moving target that is never struck: a kinematic body, or a
    /// dynamic body resolved `Discrete` (its own mode `Auto` when `auto`).
    Obstacle {
        /// Whether its own mode is `Auto` (it becomes a mover when its
        /// swept bounds meet a mover's).
        auto: bool,
    },
    /// A static body.
    Fixed,
}

impl Role {
    /// Whether the body is swept and struck.
    pub(crate) fn is_mover(self) -> bool {
        matches!(self, Role::Mover { .. })
    }

    /// Whether the body takes part at all.
    pub(crate) fn takes_part(self) -> bool {
        self != Role::Idle
    }
}

/// The mode `mode` asks for in a world whose default is `world`:
/// `Inherit` resolved, the others as they are.
pub(crate) fn requested(world: CollisionDetection, mode: CcdMode) -> CcdMode {
    match mode {
        CcdMode::Inherit => match world {
            CollisionDetection::Discrete => CcdMode::Discrete,
            CollisionDetection::SphereMeshCcd => CcdMode::Continuous,
        },
        other => other,
    }
}

/// Whether a world needs the continuous stage this step: its default is
/// `SPHERE_MESH_CCD`, or some dynamic body that collides asks for
/// `Continuous` or `Auto` (only dynamic bodies are ever swept).
pub(crate) fn needed<'a>(
    world: CollisionDetection,
    mut bodies: impl Iterator<Item = &'a RigidBody>,
) -> bool {
    match world {
        CollisionDetection::SphereMeshCcd => true,
        CollisionDetection::Discrete => bodies.any(|b| {
            b.collides()
                && b.kind() == BodyKind::Dynamic
                && matches!(b.ccd(), CcdMode::Continuous | CcdMode::Auto)
        }),
    }
}

/// The role of `body` in a step of `dt` seconds of a world whose default is
/// `world` (module docs); an `Auto` body that is not fast is an obstacle
/// until its bounds meet a mover's.
pub(crate) fn role(world: CollisionDetection, body: &RigidBody, dt: f32) -> Role {
    if !body.collides() || body.is_sensor() {
        return Role::Idle;
    }
    if body.is_sleeping() {
        // A fixed target: swept against exactly, woken when struck
        // (`step/sleep.rs`).
        return Role::Fixed;
    }
    match body.kind() {
        BodyKind::Static => Role::Fixed,
        BodyKind::Kinematic => Role::Obstacle { auto: false },
        BodyKind::Dynamic => match requested(world, body.ccd()) {
            CcdMode::Continuous => Role::Mover { auto: false },
            CcdMode::Auto if is_fast(body, dt) => Role::Mover { auto: true },
            CcdMode::Auto => Role::Obstacle { auto: true },
            _ => Role::Obstacle { auto: false },
        },
    }
}

/// The farthest point (m) of the body's shape from its mass centre, rounded
/// up: the shape's bounding radius about its own origin plus the distance
/// from the mass centre to that origin.
pub(crate) fn farthest_point(body: &RigidBody) -> f64 {
    let offset = promote(body.shape_offset().0) - promote(body.center_of_mass());
    add_up(norm_up(&offset), body.shape().bounding_radius())
}

/// `|v|` rounded up.
fn norm_up(v: &Vec3d) -> f64 {
    let s = add_up(add_up(mul_up(v.x, v.x), mul_up(v.y, v.y)), mul_up(v.z, v.z));
    s.sqrt().next_up()
}

/// A lower bound (m) of the shape's smallest width: a sphere's or capsule's
/// diameter, a box's smallest edge, twice a hull's smallest distance from
/// its vertex centroid to a face plane (the ball of that radius fits
/// inside, so every width is at least its diameter); infinite for a mesh;
/// zero for a kind of shape this rule does not know.
pub(crate) fn smallest_extent(shape: &Shape) -> f64 {
    match shape {
        Shape::Sphere(s) => 2.0 * s.radius() as f64,
        Shape::Capsule(c) => 2.0 * c.radius() as f64,
        Shape::Cuboid(c) => 2.0 * c.half_extents().min() as f64,
        Shape::ConvexHull(h) => {
            let vertices = h.vertices();
            let n = vertices.len().max(1) as f64;
            let centroid: Vec3d = vertices.iter().map(|v| promote(*v)).sum::<Vec3d>() / n;
            let inradius = h
                .faces()
                .iter()
                .filter_map(|f| {
                    let v = vertices.get(*f.vertices().first()? as usize)?;
                    Some(f.normal().dot(&(promote(*v) - centroid)))
                })
                .fold(f64::INFINITY, f64::min);
            // Rounding of the centroid and the plane distance: a relative
            // 1e-9 down (far above the `f64` roundoff of a few terms).
            2.0 * inradius.max(0.0) * (1.0 - 1.0e-9)
        }
        Shape::Mesh(_) => f64::INFINITY,
        // A kind whose width this rule does not know yet: no width, so that
        // any motion of an `Auto` body of that kind is fast (conservative).
        _ => 0.0,
    }
}

/// The body's motion (m) in a step of `dt` seconds at its current
/// velocities: `(|v| + |v_split|) dt + (|ω| + |ω_split|) dt r` with `r`
/// the [`farthest_point`], rounded up (0 for a static body).
pub(crate) fn motion(body: &RigidBody, dt: f32) -> f64 {
    if body.kind() == BodyKind::Static {
        return 0.0;
    }
    let dt = dt as f64;
    let speed = add_up(
        norm_up(&promote(body.linear_velocity())),
        norm_up(&promote(body.split_linear_velocity())),
    );
    let spin = add_up(
        norm_up(&promote(body.angular_velocity())),
        norm_up(&promote(body.split_angular_velocity())),
    );
    let turn = if spin == 0.0 {
        0.0
    } else {
        mul_up(mul_up(spin, dt), farthest_point(body))
    };
    add_up(mul_up(speed, dt), turn)
}

/// The `Auto` motion test: whether the body's [`motion`] this step exceeds
/// [`AUTO_MOTION_FRACTION`] of its [`smallest_extent`] (a NaN motion is
/// fast).
pub(crate) fn is_fast(body: &RigidBody, dt: f32) -> bool {
    let limit = AUTO_MOTION_FRACTION * smallest_extent(body.shape());
    !(motion(body, dt) <= limit)
}

#[cfg(test)]
mod tests {
    use super::*;
    use parapet_math::Vec3;

    fn ball(v: Vec3) -> RigidBody {
        RigidBody::new_dynamic(Shape::sphere(0.5).unwrap(), 1.0)
            .unwrap()
            .with_linear_velocity(v)
    }

    #[test]
    fn inherit_takes_the_world_default_and_the_others_stay() {
        use CcdMode::*;
        for (world, inherit) in [
            (CollisionDetection::Discrete, Discrete),
            (CollisionDetection::SphereMeshCcd, Continuous),
        ] {
            assert_eq!(requested(world, Inherit), inherit);
            for m in [Discrete, Continuous, Auto] {
                assert_eq!(requested(world, m), m);
            }
        }
    }

    /// A 1 m sphere at 60 Hz: the quarter-width limit is 0.25 m per step,
    /// 15 m/s; just below stays discrete, just above is fast.
    #[test]
    fn the_motion_test_compares_a_step_of_travel_with_a_quarter_width() {
        let dt = 1.0 / 60.0;
        assert!(!is_fast(&ball(Vec3::new(0.0, 0.0, -14.9)), dt));
        assert!(is_fast(&ball(Vec3::new(0.0, 0.0, -15.1)), dt));
        // Spin counts at the farthest point: 0.5 m out, 31 rad/s is 15.5 m/s.
        let spinning = ball(Vec3::zeros()).with_angular_velocity(Vec3::new(31.0, 0.0, 0.0));
        assert!(is_fast(&spinning, dt));
        let slow_spin = ball(Vec3::zeros()).with_angular_velocity(Vec3::new(29.0, 0.0, 0.0));
        assert!(!is_fast(&slow_spin, dt));
    }

    /// Roles by kind and mode: static bodies are fixed, kinematic ones
    /// obstacles, dynamic ones movers when continuous; sensors and bodies
    /// whose collisions are off take no part.
    #[test]
    fn roles_follow_kind_mode_and_flags() {
        let dt = 1.0 / 60.0;
        let ccd = CollisionDetection::SphereMeshCcd;
        let shape = || Shape::cuboid(Vec3::new(0.5, 0.5, 0.5)).unwrap();
        assert_eq!(role(ccd, &RigidBody::new_static(shape()), dt), Role::Fixed);
        assert_eq!(
            role(ccd, &RigidBody::new_kinematic(shape()), dt),
            Role::Obstacle { auto: false }
        );
        assert_eq!(
            role(ccd, &ball(Vec3::zeros()), dt),
            Role::Mover { auto: false }
        );
        let discrete = ball(Vec3::zeros()).with_ccd(CcdMode::Discrete);
        assert_eq!(role(ccd, &discrete, dt), Role::Obstacle { auto: false });
        let slow_auto = ball(Vec3::zeros()).with_ccd(CcdMode::Auto);
        assert_eq!(role(ccd, &slow_auto, dt), Role::Obstacle { auto: true });
        let fast_auto = ball(Vec3::new(0.0, 0.0, -40.0)).with_ccd(CcdMode::Auto);
        assert_eq!(role(ccd, &fast_auto, dt), Role::Mover { auto: true });
        assert_eq!(
            role(ccd, &ball(Vec3::zeros()).with_sensor(true), dt),
            Role::Idle
        );
        let mut off = ball(Vec3::zeros());
        off.set_collides(false);
        assert_eq!(role(ccd, &off, dt), Role::Idle);
    }

    #[test]
    fn smallest_extents_are_lower_bounds_of_the_widths() {
        let cube = Shape::cuboid(Vec3::new(0.5, 0.2, 1.0)).unwrap();
        assert_eq!(smallest_extent(&cube), 2.0 * 0.2f32 as f64);
        let capsule = Shape::capsule(0.1, 2.0).unwrap();
        assert_eq!(smallest_extent(&capsule), 2.0 * 0.1f32 as f64);
    }
}
