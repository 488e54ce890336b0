//! Sensors: bodies that stop nothing and report, every step and in both
//! modes, each body that entered, left or crossed them within the step
//! ([`SensorEvent`]), and the one drainable list of a step's contact and
//! sensor events ([`WorldEvent`]).
//!
//! | file | what |
//! |---|---|
//! | `event.rs` | the events and the drained order |
//! | `track.rs` | one body's path through the step, its start and end poses, its box |
//! | `touch.rs` | one (body, sensor) pair: inside at the start and end, first and last touch |
//! | `stage.rs` | the stage: candidates, classification, order, refusals |
//!
//! A sensor is any body flagged `RigidBody::with_sensor(true)`, of any
//! shape and kind: the contact stage, the continuous step and ray casts
//! skip it, so it applies no impulse and moves as if alone. The sensor
//! stage runs after the integration and sweeps every body the sensor's
//! filters accept along the path it actually took in the step (the
//! continuous step's motions for a body it struck, the free motion from
//! its start pose to its end pose for every other body), so a body that
//! passes through a sensor between two steps is reported. Sensors do not
//! sense each other.

mod event;
mod stage;
mod touch;
mod track;

pub use event::{SensorEvent, SensorEventKind, WorldEvent};

pub(crate) use event::drain_order;
pub(crate) use stage::run;
pub(crate) use track::StartPoses;

use crate::PhysicsWorld;

impl PhysicsWorld {
    /// The sensor events of the last successful step: each body that
    /// entered, left or crossed a sensor within the step, sorted by sensor
    /// (insertion order), then body (insertion order), then time and kind.
    /// A body that stays inside a sensor, or outside and away from it,
    /// reports nothing. Replaced, like [`PhysicsWorld::events`], only by a
    /// successful step (see docs/continuous-collision.md, "Filters and
    /// sensors").
    ///
    /// ```
    /// use parapet_geometry::Shape;
    /// use parapet_math::Vec3;
    /// use parapet_solver::RigidBody;
    /// use parapet_world::{PhysicsWorld, SensorEventKind};
    ///
    /// let mut world = PhysicsWorld::new(); // DISCRETE
    /// world.gravity = Vec3::zeros();
    /// // A finish line 1 cm thick, and a bullet that crosses it within one
    /// // step (8.3 m per step at 60 Hz): in and out between two steps.
    /// let line = RigidBody::new_static(Shape::cuboid(Vec3::new(0.005, 5.0, 5.0))?)
    ///     .with_sensor(true);
    /// let line = world.add_body(line)?;
    /// let bullet = RigidBody::new_dynamic(Shape::sphere(0.01)?, 0.01)?
    ///     .with_position(Vec3::new(-4.0, 0.0, 0.0))
    ///     .with_linear_velocity(Vec3::new(500.0, 0.0, 0.0));
    /// let bullet = world.add_body(bullet)?;
    /// world.step(1.0 / 60.0)?;
    /// let event = world.sensor_events()[0];
    /// assert_eq!((event.sensor, event.body), (line, bullet));
    /// assert_eq!(event.kind, SensorEventKind::Crossed);
    /// assert!(event.time > 0.47 && event.time < 0.48); // 3.985 m of 8.33 m
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn sensor_events(&self) -> &[SensorEvent] {
        &self.sensor_events
    }

    /// The last successful step's contact events ([`PhysicsWorld::events`])
    /// and sensor events ([`PhysicsWorld::sensor_events`]) as one list,
    /// handed over once: a second call before the next step returns an
    /// empty list (the two lists themselves stay readable). A step's
    /// events not drained before the next successful step are replaced by
    /// that step's, as the lists are.
    ///
    /// Order: by time (fraction of the step), then kind (initial contacts,
    /// swept impacts, then entering, crossing and leaving a sensor), then
    /// the bodies named (lower id first for a contact; the sensor, then the
    /// body, for a sensor event); events equal in all of these keep the
    /// order of their own list. The same world and steps give the same
    /// list, whatever the thread count.
    pub fn drain_events(&mut self) -> Vec<WorldEvent> {
        if self.events_drained {
            return Vec::new();
        }
        self.events_drained = true;
        drain_order(&self.events, &self.sensor_events)
    }
}
