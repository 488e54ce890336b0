//! Which bodies may touch: a body's collision groups ([`CollisionGroups`]),
//! 32-bit memberships and a 32-bit filter (see docs/physics.md, "Filters
//! and sensors"; the continuous side in docs/continuous-collision.md).
//!
//! # Method
//! Two bodies interact when each one's memberships meet the other's filter
//! (`a.memberships & b.filter != 0` and `b.memberships & a.filter != 0`),
//! the rule of Box2D's category and mask bits and of rapier's
//! `InteractionGroups`. The default, [`CollisionGroups::ALL`], is a member
//! of every group and accepts every group, so bodies that set nothing
//! interact as before. The world honours the rule everywhere a pair can
//! meet: discrete contacts, the continuous step, sensors and ray casts.
//!
//! # Precision domain
//! None: bit masks.

use super::RigidBody;

/// A body's memberships and filter: two bodies interact when each one's
/// memberships meet the other's filter.
///
/// ```
/// use parapet_solver::body::CollisionGroups;
///
/// let chassis = CollisionGroups::new(0b01, !0b10); // ignores group 2
/// let wheel = CollisionGroups::new(0b10, !0);
/// assert!(!chassis.interacts_with(wheel));
/// assert!(CollisionGroups::ALL.interacts_with(wheel));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct CollisionGroups {
    /// The groups the body belongs to (one bit per group).
    pub memberships: u32,
    /// The groups the body interacts with (one bit per group).
    pub filter: u32,
}

impl CollisionGroups {
    /// Member of every group, interacting with every group (the default).
    pub const ALL: CollisionGroups = CollisionGroups {
        memberships: u32::MAX,
        filter: u32::MAX,
    };

    /// Member of no group and interacting with none: the body touches
    /// nothing (its forces and motion still follow the integration rules).
    pub const NONE: CollisionGroups = CollisionGroups {
        memberships: 0,
        filter: 0,
    };

    /// Groups with these memberships and this filter.
    pub const fn new(memberships: u32, filter: u32) -> Self {
        Self {
            memberships,
            filter,
        }
    }

    /// Whether two bodies with these groups interact: each one's
    /// memberships meet the other's filter (symmetric).
    pub const fn interacts_with(self, other: CollisionGroups) -> bool {
        self.memberships & other.filter != 0 && other.memberships & self.filter != 0
    }
}

impl Default for CollisionGroups {
    fn default() -> Self {
        Self::ALL
    }
}

impl RigidBody {
    /// Builder: the body's collision groups (default
    /// [`CollisionGroups::ALL`]).
    pub fn with_collision_groups(mut self, groups: CollisionGroups) -> Self {
        self.collision_groups = groups;
        self
    }

    /// Sets the body's collision groups and wakes it; the next step
    /// honours them.
    pub fn set_collision_groups(&mut self, groups: CollisionGroups) {
        self.wake();
        self.collision_groups = groups;
    }

    /// The body's collision groups.
    pub fn collision_groups(&self) -> CollisionGroups {
        self.collision_groups
    }

    /// Builder: whether the body is a sensor (default `false`). A sensor
    /// applies no impulse and stops nothing: it reports the bodies that
    /// enter, leave or cross it in each step (the world's
    /// `sensor_events`), in both modes.
    pub fn with_sensor(mut self, sensor: bool) -> Self {
        self.sensor = sensor;
        self
    }

    /// Sets whether the body is a sensor and wakes it; the next step
    /// honours it.
    pub fn set_sensor(&mut self, sensor: bool) {
        self.wake();
        self.sensor = sensor;
    }

    /// Whether the body is a sensor.
    pub fn is_sensor(&self) -> bool {
        self.sensor
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rule is symmetric and needs both directions: a body that accepts
    /// another's group but is not accepted back does not interact.
    #[test]
    fn both_sides_must_accept_each_other() {
        let a = CollisionGroups::new(0b001, 0b010);
        let b = CollisionGroups::new(0b010, 0b001);
        let c = CollisionGroups::new(0b010, 0b100);
        assert!(a.interacts_with(b) && b.interacts_with(a));
        assert!(!a.interacts_with(c) && !c.interacts_with(a));
        assert!(CollisionGroups::ALL.interacts_with(CollisionGroups::ALL));
        assert!(!CollisionGroups::NONE.interacts_with(CollisionGroups::ALL));
        assert_eq!(CollisionGroups::default(), CollisionGroups::ALL);
    }
}
