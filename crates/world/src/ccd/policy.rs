//! The per-body policy of one step: what each body's [`CcdMode`] resolves
//! to ([`requested`], [`Class`]), the motion test of `Auto` bodies
//! ([`is_fast`], [`AUTO_MOTION_FRACTION`]) and the region of a body the
//! continuous stage does not sweep ([`fixed_reach`]).
//!
//! # Method
//! `Inherit` takes the world's `collision_detection` (`DISCRETE` gives
//! `Discrete`, `SPHERE_MESH_CCD` gives `Continuous`). A continuous body is
//! classified by the support rules ([`super::support`]) and swept; a
//! discrete body whose shape a group sweep can carry (a centred sphere, a
//! capsule that cannot turn, a kinematic sphere, within the precision
//! limits) is a mover of the grouping, swept only in a group with a
//! continuous dynamic body; any other discrete body is fixed: integrated
//! as usual, and a continuous body whose region overlaps its region is
//! refused. An `Auto` body is discrete until its motion in the step
//! (`(|v| + |v_split|) dt + (|ω| + |ω_split|) dt r`, `r` its farthest
//! point from the mass centre, read after the forces and again after the
//! contact solve) exceeds [`AUTO_MOTION_FRACTION`] of its smallest extent,
//! or until it can reach a continuous body (it shares a group with a
//! continuous dynamic body, or its fixed region overlaps a continuous
//! body's region); then it is continuous. Static bodies never move: `Auto`
//! resolves them to `Discrete`.
//!
//! # Source
//! docs/continuous-collision.md, "Choosing per body".
//!
//! # Precision domain
//! The motion and the fixed region are rounded outward
//! ([`parapet_math::rounding`]); the smallest extent is a lower bound
//! (twice the inradius about the vertex centroid for a hull), so the motion
//! test errs towards `Continuous`.

// Limits are written `!(value <= limit)` so that a NaN fails them too.
#![allow(clippy::neg_cmp_op_on_partial_ord)]

use parapet_geometry::Shape;
use parapet_math::rounding::{add_up, mul_up};
use parapet_math::{promote, promote_quat, Vec3d};
use parapet_solver::contact::CONTACT_MARGIN;
use parapet_solver::{BodyKind, CcdMode, RigidBody};

use super::reach::{norm_up, Reach};
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

/// What one body is in the continuous stage of one step.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) enum Class {
    /// A free slot, a body whose collisions are off or a static mesh (its
    /// triangles are every swept body's obstacles whatever its mode).
    #[default]
    Idle,
    /// Resolved `Continuous` and classified by the support rules: swept.
    /// `auto`: resolved from `Auto` in this step.
    Continuous {
        /// Whether the body's own mode is `Auto`.
        auto: bool,
    },
    /// Resolved `Continuous` and refused (its refusal is the step's).
    Refused,
    /// Discrete, with a shape that a group sweep carries: a mover of the
    /// grouping, swept only in a group with a continuous dynamic body.
    Mover {
        /// Whether the body's own mode is `Auto` (then resolved
        /// `Continuous` when it shares such a group).
        auto: bool,
    },
    /// Discrete, and not sweepable as an obstacle: integrated as usual; a
    /// continuous body that can reach it is refused.
    Fixed {
        /// Whether the body's own mode is `Auto` (then resolved
        /// `Continuous`, and so refused, when it can reach a continuous
        /// body).
        auto: bool,
    },
}

impl Class {
    /// Whether the body is resolved `Continuous` (swept or refused).
    pub(crate) fn is_continuous(self) -> bool {
        matches!(self, Class::Continuous { .. } | Class::Refused)
    }

    /// Whether the body's own mode is `Auto` and the step has not resolved
    /// it `Continuous` yet.
    pub(crate) fn is_pending_auto(self) -> bool {
        matches!(
            self,
            Class::Mover { auto: true } | Class::Fixed { auto: true }
        )
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
/// `SPHERE_MESH_CCD`, or some body that collides and is not static asks for
/// `Continuous` or `Auto` (a static body never moves, and a static primitive
/// or mesh marked `Continuous` is refused or swept against only when some
/// moving body is continuous: it asks too, so that the refusal is the same
/// in every world).
pub(crate) fn needed<'a>(
    world: CollisionDetection,
    mut bodies: impl Iterator<Item = &'a RigidBody>,
) -> bool {
    match world {
        CollisionDetection::SphereMeshCcd => true,
        CollisionDetection::Discrete => bodies.any(|b| {
            b.collides()
                && match b.ccd() {
                    CcdMode::Continuous => true,
                    CcdMode::Auto => b.kind() != BodyKind::Static,
                    CcdMode::Inherit | CcdMode::Discrete => false,
                }
        }),
    }
}

/// The farthest point (m) of the body's shape from its mass centre, rounded
/// up: the shape's bounding radius about its own origin plus the distance
/// from the mass centre to that origin.
pub(crate) fn farthest_point(body: &RigidBody) -> f64 {
    let offset = promote(body.shape_offset().0) - promote(body.center_of_mass());
    add_up(norm_up(&offset), body.shape().bounding_radius())
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

/// The region (m) a body that the continuous stage does not sweep can
/// touch during the step: the ball around its mass centre of radius
/// `r + margin + (|v| + |v_split|) dt` (`r` its [`farthest_point`]). The
/// integrate stage moves the mass centre by `(v + v_split) dt` and every
/// point of the body stays within `r` of it whatever the rotation, so the
/// ball holds the body at every instant of the step.
pub(crate) fn fixed_reach(body: &RigidBody, dt: f32) -> Reach {
    let q = promote_quat(body.rotation());
    let q = parapet_math::nalgebra::UnitQuaternion::new_normalize(q.into_inner());
    let com = promote(body.center_of_mass());
    let center = promote(body.position()) + q * com;
    let travel = if body.kind() == BodyKind::Static {
        0.0
    } else {
        let speed = add_up(
            norm_up(&promote(body.linear_velocity())),
            norm_up(&promote(body.split_linear_velocity())),
        );
        mul_up(speed, dt as f64)
    };
    // Rotation roundoff of the mass centre: a relative 1e-12 of its offset.
    let slack = mul_up(norm_up(&com), 1.0e-12);
    let radius = add_up(
        add_up(add_up(farthest_point(body), CONTACT_MARGIN as f64), travel),
        slack,
    );
    Reach { center, radius }
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

    #[test]
    fn smallest_extents_are_lower_bounds_of_the_widths() {
        let cube = Shape::cuboid(Vec3::new(0.5, 0.2, 1.0)).unwrap();
        assert_eq!(smallest_extent(&cube), 2.0 * 0.2f32 as f64);
        // The same box as a hull: its inradius about the centroid is its
        // smallest half extent, within the 1e-9 relative rounding allowance.
        let corners: Vec<Vec3> = (0..8)
            .map(|i| {
                Vec3::new(
                    if i & 1 == 0 { -0.5 } else { 0.5 },
                    if i & 2 == 0 { -0.2 } else { 0.2 },
                    if i & 4 == 0 { -1.0 } else { 1.0 },
                )
            })
            .collect();
        let hull = Shape::convex_hull(&corners).unwrap();
        let e = smallest_extent(&hull);
        let width = 2.0 * 0.2f32 as f64;
        assert!(e <= width && e > width * (1.0 - 1.0e-6), "{e}");
        let capsule = Shape::capsule(0.1, 2.0).unwrap();
        assert_eq!(smallest_extent(&capsule), 2.0 * 0.1f32 as f64);
    }

    /// The fixed region holds the body after the integrate stage moves it:
    /// a box spinning and sliding ends inside the ball around its start.
    #[test]
    fn the_fixed_region_holds_the_integrated_body() {
        let dt = 0.1;
        let mut body =
            RigidBody::new_dynamic(Shape::cuboid(Vec3::new(1.0, 0.2, 0.3)).unwrap(), 2.0)
                .unwrap()
                .with_position(Vec3::new(3.0, -1.0, 2.0))
                .with_linear_velocity(Vec3::new(4.0, 1.0, -2.0))
                .with_angular_velocity(Vec3::new(0.0, 9.0, 3.0));
        let reach = fixed_reach(&body, dt);
        body.integrate_pose(dt).unwrap();
        let q = body.rotation();
        for i in 0..8 {
            let c = Vec3::new(
                if i & 1 == 0 { -1.0 } else { 1.0 },
                if i & 2 == 0 { -0.2 } else { 0.2 },
                if i & 4 == 0 { -0.3 } else { 0.3 },
            );
            let p = promote(body.position() + q * c);
            assert!((p - reach.center).norm() <= reach.radius, "{p:?}");
        }
    }
}
