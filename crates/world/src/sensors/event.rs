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

#[cfg(test)]
mod tests {
    use super::*;
    use parapet_math::Vec3;

    fn id(n: u32) -> BodyId {
        BodyId::new(n, u64::from(n) + 1)
    }

    fn contact(a: u32, b: u32, time: f32, kind: ContactKind) -> ContactEvent {
        ContactEvent {
            body_a: id(a),
            body_b: id(b),
            point: Vec3::zeros(),
            normal: Vec3::z(),
            normal_impulse: Vec3::zeros(),
            time,
            kind,
        }
    }

    fn sensed(sensor: u32, body: u32, kind: SensorEventKind, time: f32) -> SensorEvent {
        SensorEvent {
            sensor: id(sensor),
            body: id(body),
            kind,
            time,
        }
    }

    /// Time first, then kind (contacts before sensor events), then bodies;
    /// equal keys keep their list's order.
    #[test]
    fn the_drained_order_is_time_kind_bodies_and_stable() {
        let contacts = [
            contact(0, 1, 0.0, ContactKind::Initial),
            contact(0, 1, 0.0, ContactKind::Initial),
            contact(2, 3, 0.5, ContactKind::Swept),
            contact(1, 3, 0.5, ContactKind::Swept),
        ];
        let mut second = contacts[1];
        second.point.x = 1.0;
        let contacts = [contacts[0], second, contacts[2], contacts[3]];
        let sensors = [
            sensed(4, 1, SensorEventKind::Left, 0.5),
            sensed(4, 0, SensorEventKind::Crossed, 0.5),
            sensed(5, 0, SensorEventKind::Entered, 0.25),
        ];
        let drained = drain_order(&contacts, &sensors);
        let expected = vec![
            WorldEvent::Contact(contacts[0]),
            WorldEvent::Contact(second),
            WorldEvent::Sensor(sensors[2]),
            WorldEvent::Contact(contacts[3]),
            WorldEvent::Contact(contacts[2]),
            WorldEvent::Sensor(sensors[1]),
            WorldEvent::Sensor(sensors[0]),
        ];
        assert_eq!(drained, expected);
    }

    /// Equality and hashing see the time's bits, so `Eq` is lawful.
    #[test]
    fn sensor_events_compare_times_by_their_bits() {
        let a = sensed(1, 2, SensorEventKind::Crossed, 0.25);
        assert_eq!(a, a);
        assert_ne!(
            a,
            SensorEvent {
                time: 0.25f32.next_up(),
                ..a
            }
        );
        let nan = SensorEvent {
            time: f32::NAN,
            ..a
        };
        assert_eq!(nan, nan);
    }
}
