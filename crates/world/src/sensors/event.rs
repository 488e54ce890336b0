//! What sensors report ([`SensorEvent`], [`SensorEventKind`]) and the one
//! list of a step's events a user drains ([`WorldEvent`], [`drain_order`]).
//!
//! # Method
//! A sensor event names the sensor, the body and what the body did in the
//! step (entered, left, or entered and left: crossed), with the step
//! fraction of its entering (of its leaving for `Left`). The drained list
//! holds the step's contact events and sensor events, sorted stably by
//! time, then by kind (contacts before sensor events; initial contacts
//! before swept impacts; entering before crossing before leaving), then by
//! the bodies they name (lower id first); events equal in all of these
//! keep the order of [`crate::PhysicsWorld::events`] and
//! [`crate::PhysicsWorld::sensor_events`].
//!
//! # Source
//! docs/continuous-collision.md, "Filters and sensors".
//!
//! # Precision domain
//! None: the times are copied, never computed here.

use std::cmp::Ordering;
use std::hash::{Hash, Hasher};

use crate::{BodyId, ContactEvent, ContactKind};

/// What a body did to a sensor within one step (more kinds may come: match
/// with a wildcard).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub enum SensorEventKind {
    /// Outside the sensor at the step's start, inside it at the end.
    Entered,
    /// Outside at the start and at the end, and touching it in between (a
    /// fast body through a thin sensor: in and out within the step).
    Crossed,
    /// Inside the sensor at the step's start, outside it at the end.
    Left,
}

/// One body entering, leaving or crossing one sensor in the last
/// successful step ([`crate::PhysicsWorld::sensor_events`]).
///
/// Equality compares `time` by its bits ([`f32::total_cmp`]), so that
/// `Eq` and `Hash` hold for every value (a step's times are finite, in
/// `[0, 1]`).
#[derive(Clone, Copy, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SensorEvent {
    /// The sensor (a body flagged with `RigidBody::with_sensor(true)`).
    pub sensor: BodyId,
    /// The body that entered, left or crossed it.
    pub body: BodyId,
    /// What it did.
    pub kind: SensorEventKind,
    /// When, as a fraction of the step in `[0, 1]`: the first touch for
    /// `Entered` and `Crossed` (never later than the true instant), the
    /// last touch for `Left` (never earlier).
    pub time: f32,
}

impl PartialEq for SensorEvent {
    fn eq(&self, other: &Self) -> bool {
        (self.sensor, self.body, self.kind) == (other.sensor, other.body, other.kind)
            && self.time.total_cmp(&other.time) == Ordering::Equal
    }
}

impl Eq for SensorEvent {}

impl Hash for SensorEvent {
    fn hash<H: Hasher>(&self, state: &mut H) {
        (self.sensor, self.body, self.kind, self.time.to_bits()).hash(state);
    }
}

/// One event of a step, as [`crate::PhysicsWorld::drain_events`] delivers
/// them (more kinds may come: match with a wildcard).
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub enum WorldEvent {
    /// A contact point or swept impact ([`crate::PhysicsWorld::events`]).
    Contact(ContactEvent),
    /// A body entering, leaving or crossing a sensor
    /// ([`crate::PhysicsWorld::sensor_events`]).
    Sensor(SensorEvent),
}

impl WorldEvent {
    /// When it happened, as a fraction of its step in `[0, 1]`.
    pub fn time(&self) -> f32 {
        match self {
            WorldEvent::Contact(e) => e.time,
            WorldEvent::Sensor(e) => e.time,
        }
    }

    /// The kind's rank in the drained order: initial contacts, swept
    /// impacts, then entering, crossing and leaving a sensor.
    fn rank(&self) -> u8 {
        match self {
            WorldEvent::Contact(e) => match e.kind {
                ContactKind::Initial => 0,
                _ => 1,
            },
            WorldEvent::Sensor(e) => match e.kind {
                SensorEventKind::Entered => 2,
                SensorEventKind::Crossed => 3,
                _ => 4,
            },
        }
    }

    /// The bodies it names, lower id first for a contact, the sensor first
    /// for a sensor event.
    fn bodies(&self) -> (BodyId, BodyId) {
        match self {
            WorldEvent::Contact(e) => (e.body_a, e.body_b),
            WorldEvent::Sensor(e) => (e.sensor, e.body),
        }
    }
}

/// The drained list of one step: `contacts` and `sensors` in the order of
/// the module docs.
pub(crate) fn drain_order(contacts: &[ContactEvent], sensors: &[SensorEvent]) -> Vec<WorldEvent> {
    let mut all: Vec<WorldEvent> = contacts
        .iter()
        .copied()
        .map(WorldEvent::Contact)
        .chain(sensors.iter().copied().map(WorldEvent::Sensor))
        .collect();
    all.sort_by(|a, b| {
        a.time()
            .total_cmp(&b.time())
            .then(a.rank().cmp(&b.rank()))
            .then(a.bodies().cmp(&b.bodies()))
    });
    all
}
