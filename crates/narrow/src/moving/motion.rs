//! [`Motion`]: the rigid motion of one body over a window, constant linear
//! velocity of its mass centre and constant angular velocity about it.
//!
//! # Method
//! A body-frame point `p` is at time `t` at
//! `c(t) + R(ω t) · (rotation · (p − local_center))`, with
//! `c(t) = center + velocity · t` and `R(ω t)` the turn by `|ω| t` about
//! `ω / |ω|` (the motion parry3d calls `NonlinearRigidMotion`). A fixed body
//! (`velocity = spin = 0`), a translating one (`spin = 0`) and a turning one
//! are the same data: no code path depends on which it is. The world moves
//! a discrete obstacle along the constant-`ω` motion that takes it from its
//! start pose to its end pose, so this is the only motion the arbiter needs.
//!
//! # Precision domain
//! `f64` throughout. [`Motion::rotation_at`] forms `exp(ω t)` with nalgebra's
//! `from_scaled_axis` (angle error a few `ε (1 + |ω t|)`) and composes it with
//! the start rotation; the arbiter's rounding slack
//! (`super::domain::position_slack`) covers that error for every point.

use parapet_math::{Quatd, Vec3d};

/// The rigid motion of one body: its mass centre moves at constant velocity
/// and it turns at constant angular velocity about the mass centre.
///
/// Time `0` is the motion's reference instant: `center` and `rotation` are
/// the mass centre and orientation then. A query asks about a window
/// `[start, end]` of this time.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Motion {
    /// The world mass centre at time 0 (m).
    pub center: Vec3d,
    /// Body to world rotation at time 0 (unit).
    pub rotation: Quatd,
    /// The mass centre in the body frame (m).
    pub local_center: Vec3d,
    /// Velocity of the mass centre (m/s, world).
    pub velocity: Vec3d,
    /// Angular velocity (rad/s, world), constant.
    pub spin: Vec3d,
}

impl Motion {
    /// The motion of a body whose origin is at `position` with orientation
    /// `rotation` at time 0, its mass centre at `local_center` in the body
    /// frame, moving at `velocity` and turning at `spin` about its mass
    /// centre.
    pub fn new(
        position: Vec3d,
        rotation: Quatd,
        local_center: Vec3d,
        velocity: Vec3d,
        spin: Vec3d,
    ) -> Self {
        Motion {
            center: position + rotation * local_center,
            rotation,
            local_center,
            velocity,
            spin,
        }
    }

    /// A body that stays at `position` with orientation `rotation`.
    pub fn fixed(position: Vec3d, rotation: Quatd) -> Self {
        Self::new(
            position,
            rotation,
            Vec3d::zeros(),
            Vec3d::zeros(),
            Vec3d::zeros(),
        )
    }

    /// The mass centre at time `t` (m).
    #[inline]
    pub fn center_at(&self, t: f64) -> Vec3d {
        self.center + self.velocity * t
    }

    /// The body to world rotation at time `t`.
    #[inline]
    pub fn rotation_at(&self, t: f64) -> Quatd {
        if self.spin == Vec3d::zeros() {
            return self.rotation;
        }
        Quatd::from_scaled_axis(self.spin * t) * self.rotation
    }

    /// The body origin's position and the body's rotation at time `t`.
    pub fn pose_at(&self, t: f64) -> (Vec3d, Quatd) {
        let q = self.rotation_at(t);
        (self.center_at(t) - q * self.local_center, q)
    }

    /// The world position at time `t` of the body-frame point `p` (m).
    pub fn point_at(&self, t: f64, p: &Vec3d) -> Vec3d {
        self.center_at(t) + self.rotation_at(t) * (p - self.local_center)
    }

    /// The world velocity (m/s) of the body point now at world position
    /// `x` (m) at time `t`: `v + ω × (x − c(t))`.
    pub fn velocity_at(&self, t: f64, x: &Vec3d) -> Vec3d {
        self.velocity + self.spin.cross(&(x - self.center_at(t)))
    }

    /// Whether the motion turns (a nonzero angular velocity).
    pub fn turns(&self) -> bool {
        self.spin != Vec3d::zeros()
    }

    /// The same motion with the velocity and angular velocity of a body at
    /// rest: its pose at time `t`, fixed.
    pub fn frozen_at(&self, t: f64) -> Self {
        Motion {
            center: self.center_at(t),
            rotation: self.rotation_at(t),
            local_center: self.local_center,
            velocity: Vec3d::zeros(),
            spin: Vec3d::zeros(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::f64::consts::FRAC_PI_2;

    #[test]
    fn a_quarter_turn_about_the_mass_centre_moves_an_off_centre_point() {
        // Body origin at (1, 0, 0), mass centre 1 m along body x: the centre
        // is at (2, 0, 0). A quarter turn about z in 1 s takes the body
        // origin (1 m behind the centre along -x) to (2, -1, 0).
        let m = Motion::new(
            Vec3d::new(1.0, 0.0, 0.0),
            Quatd::identity(),
            Vec3d::new(1.0, 0.0, 0.0),
            Vec3d::zeros(),
            Vec3d::new(0.0, 0.0, FRAC_PI_2),
        );
        assert_eq!(m.center, Vec3d::new(2.0, 0.0, 0.0));
        let (origin, q) = m.pose_at(1.0);
        // f64 rounding of sin and cos of a quarter turn: 1e-15.
        assert!((origin - Vec3d::new(2.0, -1.0, 0.0)).norm() < 1e-15);
        assert!((q * Vec3d::x() - Vec3d::y()).norm() < 1e-15);
        let p = m.point_at(1.0, &Vec3d::zeros());
        assert!((p - origin).norm() < 1e-15);
    }

    #[test]
    fn a_fixed_motion_stays_put() {
        let q = Quatd::from_scaled_axis(Vec3d::new(0.1, 0.2, 0.3));
        let m = Motion::fixed(Vec3d::new(1.0, 2.0, 3.0), q);
        assert_eq!(m.pose_at(7.5), (Vec3d::new(1.0, 2.0, 3.0), q));
        assert!(!m.turns());
        assert_eq!(m.velocity_at(2.0, &Vec3d::x()), Vec3d::zeros());
    }

    #[test]
    fn the_point_velocity_is_the_derivative_of_the_path() {
        let m = Motion::new(
            Vec3d::new(0.3, -0.2, 0.1),
            Quatd::from_scaled_axis(Vec3d::new(0.4, 0.0, -0.2)),
            Vec3d::new(0.05, 0.0, 0.1),
            Vec3d::new(1.0, -2.0, 0.5),
            Vec3d::new(3.0, 1.0, -2.0),
        );
        let p = Vec3d::new(0.5, 0.25, -0.75);
        let t = 0.3;
        let h = 1e-6;
        let d = (m.point_at(t + h, &p) - m.point_at(t - h, &p)) / (2.0 * h);
        let v = m.velocity_at(t, &m.point_at(t, &p));
        // Central differences: |x'''| h^2 / 6 ~ 1e-11, plus 1e-16 / h rounding.
        assert!((d - v).norm() < 1e-8, "{d} vs {v}");
    }
}
