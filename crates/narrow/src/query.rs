//! The public time-of-impact query: the first time two shapes under two
//! rigid motions come within a target distance ([`time_of_impact`]), the
//! user-facing wrapper of the arbiter of [`crate::moving`].
//!
//! # Method
//! The shapes become moving shapes ([`MovingShape::from_shape`]; a mesh's
//! bounds tree is built per call), the motions `f64` motions with constant
//! angular velocity, and the window `[0, max_time]`; the arbiter answers
//! with a time never later than the first time the distance reaches the
//! target, and a distance there at most [`TOI_DISTANCE_TOLERANCE`] above
//! it. The arbiter works to a quarter of that tolerance, which leaves room
//! for rounding its `f64` time down to `f32` at any speed of the domain.
//!
//! # Precision domain
//! That of the arbiter (`crate::moving::domain`): mass centres within
//! [`crate::moving::domain::MAX_COORDINATE`] over the window, shapes within
//! [`crate::moving::domain::MAX_SIZE`], and a rounding slack small beside the
//! tolerance. Shapes of 2 mm and more, speeds up to 300 m/s, spins up to
//! 50 rad/s and windows of several seconds are inside it.

use parapet_geometry::Shape;
use parapet_math::rounding::f32_down;
use parapet_math::{promote, promote_quat, Quat, Quatd, Vec3};

use crate::moving::{self, MovingShape, Refusal, Toi, ToiRequest};

/// The largest distance above the target at a reported time of impact (m):
/// 1e-3. A smaller value costs more advancement iterations near contact.
pub const TOI_DISTANCE_TOLERANCE: f32 = 1.0e-3;

/// The work budget of one query (advancement iterations over every
/// triangle of a mesh): 2^20. Queries inside the precision domain stay far
/// below it; a query that exhausts it is refused with
/// [`ToiError::WorkBudget`].
pub const TOI_MAX_ITERATIONS: u32 = 1 << 20;

/// The rigid motion of a shape: its body's pose at time 0, its mass centre
/// in the body frame, and constant linear and angular velocities.
///
/// The body-frame point `p` is at time `t` at
/// `c(t) + R(ω t) · (rotation · (p − local_center))`, where
/// `c(0) = position + rotation · local_center`, `c(t) = c(0) + linear_velocity · t`
/// and `R(ω t)` turns by `|ω| t` about `ω / |ω|`, `ω = angular_velocity`
/// (the motion parry3d calls `NonlinearRigidMotion`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Motion {
    /// The body origin at time 0 (m, world).
    pub position: Vec3,
    /// Body to world rotation at time 0.
    pub rotation: Quat,
    /// The mass centre in the body frame (m): the point the body turns about.
    pub local_center: Vec3,
    /// Velocity of the mass centre (m/s, world).
    pub linear_velocity: Vec3,
    /// Angular velocity (rad/s, world), constant.
    pub angular_velocity: Vec3,
}

impl Motion {
    /// A body that stays at `position` with orientation `rotation`.
    pub fn fixed(position: Vec3, rotation: Quat) -> Self {
        Self::new(position, rotation, Vec3::zeros(), Vec3::zeros())
    }

    /// A body that translates at `linear_velocity` without turning.
    pub fn linear(position: Vec3, rotation: Quat, linear_velocity: Vec3) -> Self {
        Self::new(position, rotation, linear_velocity, Vec3::zeros())
    }

    /// A body that translates at `linear_velocity` and turns at
    /// `angular_velocity` about its origin (see [`Motion::with_local_center`]).
    pub fn new(
        position: Vec3,
        rotation: Quat,
        linear_velocity: Vec3,
        angular_velocity: Vec3,
    ) -> Self {
        Motion {
            position,
            rotation,
            local_center: Vec3::zeros(),
            linear_velocity,
            angular_velocity,
        }
    }

    /// The same motion turning about `local_center` (m, body frame) instead.
    pub fn with_local_center(mut self, local_center: Vec3) -> Self {
        self.local_center = local_center;
        self
    }

    /// The body origin's position and the body's rotation at time `t` (s),
    /// computed in `f64` and rounded to `f32`.
    pub fn pose_at(&self, t: f32) -> (Vec3, Quat) {
        let (p, q) = self.arbiter().pose_at(f64::from(t));
        let q = q.into_inner().cast::<f32>();
        (p.cast::<f32>(), Quat::new_normalize(q))
    }

    /// The `f64` motion of the arbiter.
    fn arbiter(&self) -> moving::Motion {
        moving::Motion::new(
            promote(self.position),
            Quatd::new_unchecked(promote_quat(self.rotation).into_inner()),
            promote(self.local_center),
            promote(self.linear_velocity),
            promote(self.angular_velocity),
        )
    }
}

/// What a query asks: how long to look, and how close counts as an impact.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ToiOptions {
    /// The end of the window (s), finite and positive: the query looks at
    /// `[0, max_time]`.
    pub max_time: f32,
    /// The distance at which the shapes count as touching (m), finite and
    /// at least 0 (default 0: contact).
    pub target_distance: f32,
}

impl ToiOptions {
    /// The window `[0, max_time]` and a target distance of 0.
    pub fn new(max_time: f32) -> Self {
        ToiOptions {
            max_time,
            target_distance: 0.0,
        }
    }

    /// The same options with another target distance (m).
    pub fn with_target_distance(mut self, target_distance: f32) -> Self {
        self.target_distance = target_distance;
        self
    }
}

/// A time of impact.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TimeOfImpact {
    /// The time (s), never later than the first time the distance reaches
    /// the target; 0 for shapes that start at or within it.
    pub time: f32,
    /// A contact point at `time` (m, world): midway between the two shapes'
    /// nearest surface points.
    pub point: Vec3,
    /// Unit normal at `time` (world), from shape `a` towards shape `b`.
    pub normal: Vec3,
}

/// Why a time-of-impact query was not answered; each variant names the
/// value and the limit.
#[derive(Debug, Clone, Copy, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ToiError {
    /// An input is NaN or infinite.
    #[error("{quantity} is not finite ({value})")]
    NotFinite {
        /// What the value is.
        quantity: &'static str,
        /// The value.
        value: f64,
    },
    /// `max_time` is not finite and positive.
    #[error("max_time = {value} s is not finite and positive")]
    InvalidMaxTime {
        /// The value (s).
        value: f32,
    },
    /// `target_distance` is negative or not finite.
    #[error("target_distance = {value} m is not finite and at least 0")]
    InvalidTargetDistance {
        /// The value (m).
        value: f32,
    },
    /// An input is beyond the precision domain (positions or speeds far
    /// beyond it, such as 1e30).
    #[error("{quantity} = {value} is beyond the precision domain (limit {limit})")]
    OutsideDomain {
        /// What the value is.
        quantity: &'static str,
        /// The value.
        value: f64,
        /// The limit.
        limit: f64,
    },
    /// A shape kind the query does not know.
    #[error("a {shape} has no time of impact")]
    UnsupportedShape {
        /// The shape kind.
        shape: &'static str,
    },
    /// The query used up its work budget ([`TOI_MAX_ITERATIONS`]).
    #[error("the time of impact took {iterations} iterations, beyond its budget of {limit}")]
    WorkBudget {
        /// Iterations done.
        iterations: u32,
        /// The budget.
        limit: u32,
    },
}

impl From<Refusal> for ToiError {
    fn from(r: Refusal) -> Self {
        match r {
            Refusal::NotFinite { quantity, value } => ToiError::NotFinite { quantity, value },
            Refusal::Invalid {
                quantity,
                value,
                limit,
            }
            | Refusal::PrecisionDomain {
                quantity,
                value,
                limit,
            } => ToiError::OutsideDomain {
                quantity,
                value,
                limit,
            },
            Refusal::UnsupportedShape { shape } => ToiError::UnsupportedShape { shape },
            Refusal::WorkBudget { iterations, limit } => ToiError::WorkBudget { iterations, limit },
        }
    }
}

/// The first time in `[0, options.max_time]` at which the distance between
/// shape `a` moving along `motion_a` and shape `b` moving along `motion_b`
/// reaches `options.target_distance`.
///
/// `Ok(None)`: the distance stays above the target on the whole window.
/// `Ok(Some(toi))`: `toi.time` is never later than the first time the
/// distance reaches the target, and at `toi.time` the distance is at most
/// the target plus [`TOI_DISTANCE_TOLERANCE`]; shapes already within the
/// target at time 0 give time 0. A mesh is one-sided, as in the world: a
/// shape wholly behind a triangle's face plane at time 0 is not caught by
/// that triangle. Shapes sit at their body's origin (use
/// [`Motion::with_local_center`] for a body turning about another point).
///
/// # Errors
/// [`ToiError::NotFinite`] for a non-finite input,
/// [`ToiError::InvalidMaxTime`], [`ToiError::InvalidTargetDistance`],
/// [`ToiError::OutsideDomain`] for input beyond the precision domain (see
/// the module docs) and [`ToiError::WorkBudget`].
///
/// # Example
/// A box falling at 10 m/s and spinning at 2 rad/s about the vertical,
/// 1 m above a floor: its bottom face reaches the floor after 0.05 s.
///
/// ```
/// use parapet_geometry::Shape;
/// use parapet_math::{Quat, Vec3};
/// use parapet_narrow::query::{time_of_impact, Motion, ToiOptions};
///
/// let floor = Shape::cuboid(Vec3::new(10.0, 10.0, 0.5))?;
/// let crate_box = Shape::cuboid(Vec3::new(0.5, 0.5, 0.5))?;
/// let still = Motion::fixed(Vec3::new(0.0, 0.0, -0.5), Quat::identity());
/// let falling = Motion::new(
///     Vec3::new(0.0, 0.0, 1.0),
///     Quat::identity(),
///     Vec3::new(0.0, 0.0, -10.0),
///     Vec3::new(0.0, 0.0, 2.0),
/// );
/// let toi = time_of_impact(&crate_box, &falling, &floor, &still, &ToiOptions::new(1.0))?
///     .expect("the box lands");
/// assert!(toi.time <= 0.05 && toi.time > 0.05 - 1e-3 / 10.0);
/// assert!((toi.normal - Vec3::new(0.0, 0.0, -1.0)).norm() < 1e-6); // from the box to the floor
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn time_of_impact(
    a: &Shape,
    motion_a: &Motion,
    b: &Shape,
    motion_b: &Motion,
    options: &ToiOptions,
) -> Result<Option<TimeOfImpact>, ToiError> {
    let max_time = options.max_time;
    if !(max_time.is_finite() && max_time > 0.0) {
        return Err(ToiError::InvalidMaxTime { value: max_time });
    }
    let target = options.target_distance;
    if !(target.is_finite() && target >= 0.0) {
        return Err(ToiError::InvalidTargetDistance { value: target });
    }
    let sa = MovingShape::from_shape(a, Vec3::zeros(), Quat::identity())?;
    let sb = MovingShape::from_shape(b, Vec3::zeros(), Quat::identity())?;
    let request = ToiRequest::new(
        0.0,
        f64::from(max_time),
        f64::from(target),
        f64::from(TOI_DISTANCE_TOLERANCE) / 4.0,
    )
    .with_budget(TOI_MAX_ITERATIONS);
    let toi = moving::time_of_impact(&sa, &motion_a.arbiter(), &sb, &motion_b.arbiter(), &request)?;
    Ok(match toi {
        Toi::Clear { .. } => None,
        Toi::Hit(h) => {
            let n = (-h.normal).cast::<f32>();
            let len = n.norm();
            Some(TimeOfImpact {
                time: f32_down(h.time).max(0.0),
                point: h.point.cast::<f32>(),
                normal: if len > 0.0 { n / len } else { n },
            })
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ball() -> Shape {
        Shape::sphere(0.5).unwrap()
    }

    #[test]
    fn spheres_closing_head_on_meet_when_their_gap_closes() {
        // Centres 4 m apart, radii 0.5, closing at 10 m/s: 3 m in 0.3 s.
        let a = Motion::linear(Vec3::zeros(), Quat::identity(), Vec3::new(5.0, 0.0, 0.0));
        let b = Motion::linear(
            Vec3::new(4.0, 0.0, 0.0),
            Quat::identity(),
            Vec3::new(-5.0, 0.0, 0.0),
        );
        let toi = time_of_impact(&ball(), &a, &ball(), &b, &ToiOptions::new(1.0))
            .unwrap()
            .unwrap();
        // Exact closed form in f64, rounded down to f32.
        assert!(toi.time <= 0.3 && toi.time > 0.3 - 1e-6, "{toi:?}");
        assert_eq!(toi.normal, Vec3::x());
        assert!((toi.point - Vec3::new(2.0, 0.0, 0.0)).norm() < 1e-5);
        // A target distance of 1 m: 2 m to close, 0.2 s.
        let near = ToiOptions::new(1.0).with_target_distance(1.0);
        let toi = time_of_impact(&ball(), &a, &ball(), &b, &near)
            .unwrap()
            .unwrap();
        assert!(toi.time <= 0.2 && toi.time > 0.2 - 1e-6, "{toi:?}");
    }

    #[test]
    fn touching_shapes_hit_at_time_zero_and_parting_ones_never() {
        let at = |x: f32| Motion::fixed(Vec3::new(x, 0.0, 0.0), Quat::identity());
        let toi = time_of_impact(&ball(), &at(0.0), &ball(), &at(0.9), &ToiOptions::new(1.0));
        assert_eq!(toi.unwrap().unwrap().time, 0.0);
        let away = Motion::linear(Vec3::new(2.0, 0.0, 0.0), Quat::identity(), Vec3::x());
        assert_eq!(
            time_of_impact(&ball(), &at(0.0), &ball(), &away, &ToiOptions::new(10.0)),
            Ok(None)
        );
    }

    #[test]
    fn a_local_center_turns_the_body_about_it() {
        let m = Motion::new(
            Vec3::zeros(),
            Quat::identity(),
            Vec3::zeros(),
            Vec3::new(0.0, 0.0, std::f32::consts::PI),
        )
        .with_local_center(Vec3::new(1.0, 0.0, 0.0));
        // Half a turn about (1, 0, 0) takes the origin to (2, 0, 0).
        let (p, _) = m.pose_at(1.0);
        assert!((p - Vec3::new(2.0, 0.0, 0.0)).norm() < 1e-6, "{p}");
    }

    #[test]
    fn invalid_input_is_an_error_naming_the_value() {
        let m = Motion::fixed(Vec3::zeros(), Quat::identity());
        let far = Motion::fixed(Vec3::new(1e30, 0.0, 0.0), Quat::identity());
        let o = ToiOptions::new(1.0);
        let e = time_of_impact(&ball(), &m, &ball(), &far, &o).unwrap_err();
        assert!(
            matches!(e, ToiError::OutsideDomain { value, .. } if value == f64::from(1e30f32)),
            "{e}"
        );
        let fast = Motion::linear(Vec3::zeros(), Quat::identity(), Vec3::new(1e30, 0.0, 0.0));
        assert!(matches!(
            time_of_impact(&ball(), &fast, &ball(), &m, &o),
            Err(ToiError::OutsideDomain { .. })
        ));
        let nan = Motion::linear(
            Vec3::zeros(),
            Quat::identity(),
            Vec3::new(f32::NAN, 0.0, 0.0),
        );
        assert!(matches!(
            time_of_impact(&ball(), &nan, &ball(), &m, &o),
            Err(ToiError::NotFinite { .. })
        ));
        for t in [0.0, -1.0, f32::INFINITY, f32::NAN] {
            assert!(matches!(
                time_of_impact(&ball(), &m, &ball(), &m, &ToiOptions::new(t)),
                Err(ToiError::InvalidMaxTime { .. })
            ));
        }
        for d in [-0.1, f32::NAN, f32::INFINITY] {
            let o = ToiOptions::new(1.0).with_target_distance(d);
            assert!(matches!(
                time_of_impact(&ball(), &m, &ball(), &m, &o),
                Err(ToiError::InvalidTargetDistance { .. })
            ));
        }
        let budget = ToiError::from(Refusal::WorkBudget {
            iterations: 5,
            limit: 5,
        });
        assert!(budget.to_string().contains("budget of 5"));
    }
}
