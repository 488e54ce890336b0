//! Sleeping, the body's part: whether it is asleep, how long it has been
//! at rest, whether it may sleep, and the edits that wake it.
//!
//! # Method
//! A dynamic body whose linear speed (of the mass centre) and angular
//! speed both stay below the world's thresholds accumulates time at rest
//! ([`RigidBody::advance_sleep_timer`], called by the world at the end of
//! every step); the world puts a whole island of touching bodies to sleep
//! ([`RigidBody::sleep`]) once every member has been at rest for the
//! world's time to sleep, and wakes it on contact with a moving body (see
//! the world's `step/sleep.rs`). A sleeping body keeps its pose with zero
//! velocities and costs nothing in a step. Every user edit of its motion
//! wakes it: a pose or velocity set, a force, a torque, an impulse, a change
//! of kind, mass, inertia, mass centre, shape offset, material, collision
//! groups, sensor or `collides`, [`RigidBody::set_can_sleep`] with `false`
//! and [`RigidBody::wake`] itself. The contact solve and the pose update are
//! the step's own motion and wake nothing.
//!
//! Kinematic and static bodies never sleep: [`RigidBody::is_sleeping`] is
//! always `false` for them (a kinematic body moves only as the user sets
//! it; a static one never moves, so neither costs a step anything to
//! save).
//!
//! # Source
//! Box2D's island sleep (Catto, `b2Island::Solve`, "sleep time" per body,
//! an island sleeps when its least rested body has rested long enough) and
//! rapier's `RigidBodyActivation` (thresholds on speeds, a time until
//! sleep).
//!
//! # Precision domain
//! The speeds are compared in `f32` as stored; the timer adds `f32` step
//! lengths (no accumulated error that changes a decision by more than one
//! step in a million).

use super::{BodyKind, RigidBody};

/// Serde's default of `can_sleep` for a body saved before sleeping existed.
#[cfg(feature = "serde")]
pub(crate) fn can_sleep_default() -> bool {
    true
}

impl RigidBody {
    /// Whether the body is asleep: not integrated, not tested against meshes
    /// or other sleeping bodies, a fixed target for the continuous step.
    /// Always `false` for kinematic and static bodies (they never sleep).
    pub fn is_sleeping(&self) -> bool {
        self.sleeping && self.kind == BodyKind::Dynamic
    }

    /// Whether the body may fall asleep; default `true`. A body that may
    /// not keeps its whole island awake.
    pub fn can_sleep(&self) -> bool {
        self.can_sleep
    }

    /// Builder: whether the body may fall asleep (default `true`).
    #[must_use]
    pub fn with_can_sleep(mut self, can_sleep: bool) -> Self {
        self.set_can_sleep(can_sleep);
        self
    }

    /// Sets whether the body may fall asleep; `false` also wakes it.
    pub fn set_can_sleep(&mut self, can_sleep: bool) {
        self.can_sleep = can_sleep;
        if !can_sleep {
            self.wake();
        }
    }

    /// The time (s) the body has spent below the world's sleep thresholds
    /// since it last moved or was woken (0 for a body that never rested).
    pub fn sleep_timer(&self) -> f32 {
        self.sleep_timer
    }

    /// Wakes the body: it takes part in the next step again, and its time
    /// at rest starts from zero. The world wakes the sleeping bodies that
    /// touch it at the start of the next step (or at once through
    /// `PhysicsWorld::wake`).
    pub fn wake(&mut self) {
        self.sleeping = false;
        self.sleep_timer = 0.0;
    }

    /// Puts a dynamic body to sleep now: its velocities and split
    /// velocities become zero and it keeps its pose until something wakes
    /// it; its time at rest is kept. Nothing happens to a kinematic or
    /// static body (they never sleep) nor to a body that may not sleep
    /// ([`RigidBody::can_sleep`]). Pending forces and torques are kept
    /// (adding them woke the body; a sleeping body has none of its own).
    pub fn sleep(&mut self) {
        if self.kind != BodyKind::Dynamic || !self.can_sleep {
            return;
        }
        self.sleeping = true;
        self.linear_velocity = parapet_math::Vec3::zeros();
        self.angular_velocity = parapet_math::Vec3::zeros();
        self.split_linear_velocity = parapet_math::Vec3::zeros();
        self.split_angular_velocity = parapet_math::Vec3::zeros();
    }

    /// The world's end-of-step bookkeeping of an awake body: `dt` (s) more
    /// at rest when the body may sleep and both `|v| <= linear_threshold`
    /// (m/s) and `|ω| <= angular_threshold` (rad/s), else the timer starts
    /// again from zero. Returns the new time at rest (s). A sleeping,
    /// kinematic or static body's timer does not change.
    pub fn advance_sleep_timer(
        &mut self,
        dt: f32,
        linear_threshold: f32,
        angular_threshold: f32,
    ) -> f32 {
        if self.kind != BodyKind::Dynamic || self.sleeping {
            return self.sleep_timer;
        }
        let at_rest = self.can_sleep
            && self.linear_velocity.norm() <= linear_threshold
            && self.angular_velocity.norm() <= angular_threshold;
        self.sleep_timer = if at_rest { self.sleep_timer + dt } else { 0.0 };
        self.sleep_timer
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use parapet_geometry::Shape;
    use parapet_math::Vec3;

    fn ball() -> RigidBody {
        RigidBody::new_dynamic(Shape::sphere(0.5).unwrap(), 1.0).unwrap()
    }

    fn asleep() -> RigidBody {
        let mut b = ball();
        b.advance_sleep_timer(1.0, 0.05, 0.05);
        b.sleep();
        assert!(b.is_sleeping());
        b
    }

    #[test]
    fn the_timer_counts_only_time_below_both_thresholds() {
        let mut b = ball().with_linear_velocity(Vec3::new(0.04, 0.0, 0.0));
        assert_eq!(b.advance_sleep_timer(0.25, 0.05, 0.05), 0.25);
        assert_eq!(b.advance_sleep_timer(0.25, 0.05, 0.05), 0.5);
        b.angular_velocity = Vec3::new(0.0, 0.06, 0.0);
        assert_eq!(b.advance_sleep_timer(0.25, 0.05, 0.05), 0.0);
        let mut pinned = ball().with_can_sleep(false);
        assert_eq!(pinned.advance_sleep_timer(0.25, 0.05, 0.05), 0.0);
        pinned.sleep();
        assert!(!pinned.is_sleeping());
    }

    #[test]
    fn sleep_stops_the_body_and_every_user_edit_wakes_it() {
        let b = asleep();
        assert_eq!(b.linear_velocity(), Vec3::zeros());
        assert_eq!(b.sleep_timer(), 1.0);
        type Edit = fn(&mut RigidBody);
        let edits: [(&str, Edit); 9] = [
            ("position", |b| b.set_position(Vec3::x())),
            ("rotation", |b| {
                b.set_rotation(parapet_math::Quat::identity())
            }),
            ("linear velocity", |b| b.set_linear_velocity(Vec3::zeros())),
            ("angular velocity", |b| {
                b.set_angular_velocity(Vec3::zeros())
            }),
            ("force", |b| b.add_force(Vec3::x())),
            ("torque", |b| b.add_torque(Vec3::x())),
            ("impulse", |b| {
                b.apply_impulse(Vec3::x(), Vec3::zeros()).unwrap()
            }),
            ("can_sleep false", |b| b.set_can_sleep(false)),
            ("wake", |b| b.wake()),
        ];
        for (name, edit) in edits {
            let mut b = asleep();
            edit(&mut b);
            assert!(!b.is_sleeping(), "{name} woke nothing");
            assert_eq!(b.sleep_timer(), 0.0, "{name} kept the time at rest");
        }
    }

    #[test]
    fn kinematic_and_static_bodies_never_sleep() {
        let mut k = RigidBody::new_kinematic(Shape::sphere(0.5).unwrap());
        k.sleep();
        assert!(!k.is_sleeping());
        assert_eq!(k.advance_sleep_timer(1.0, 0.05, 0.05), 0.0);
        let mut b = asleep();
        b.set_kind(BodyKind::Kinematic).unwrap();
        assert!(!b.is_sleeping());
    }
}
