//! FNV-1a digests of a world's results (Fowler, Noll and Vo's FNV-1a, 64-bit
//! offset basis and prime), for the examples that show a refactor leaves
//! results as they are (`step_profile`, `scene_digests`): equal digests mean
//! equal bits.

use parapet::prelude::*;

/// A running 64-bit FNV-1a hash.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fnv1a(u64);

impl Default for Fnv1a {
    fn default() -> Self {
        Self::new()
    }
}

impl Fnv1a {
    /// The hash of nothing (the FNV-1a offset basis).
    pub const fn new() -> Self {
        Self(0xcbf2_9ce4_8422_2325)
    }

    /// The hash value so far.
    pub fn value(self) -> u64 {
        self.0
    }

    /// Hashes `bytes` in.
    pub fn eat(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3);
        }
    }

    /// Hashes in the bits of every body's position, orientation (i, j, k, w),
    /// linear and angular velocity, in insertion order.
    pub fn bodies(&mut self, world: &PhysicsWorld) {
        for (_, b) in world.bodies() {
            let (p, q) = (b.position(), b.rotation());
            let (v, w) = (b.linear_velocity(), b.angular_velocity());
            for x in [
                p.x, p.y, p.z, q.i, q.j, q.k, q.w, v.x, v.y, v.z, w.x, w.y, w.z,
            ] {
                self.eat(&x.to_bits().to_le_bytes());
            }
        }
    }

    /// Hashes in the contact count and every event of the last step (bodies,
    /// kind, and the bits of point, normal, impulse and time).
    pub fn events(&mut self, world: &PhysicsWorld) {
        self.eat(&(world.contact_count() as u64).to_le_bytes());
        for e in world.events() {
            self.eat(format!("{:?}{:?}{:?}", e.body_a, e.body_b, e.kind).as_bytes());
            for x in [
                e.point.x,
                e.point.y,
                e.point.z,
                e.normal.x,
                e.normal.y,
                e.normal.z,
                e.normal_impulse.x,
                e.normal_impulse.y,
                e.normal_impulse.z,
                e.time,
            ] {
                self.eat(&x.to_bits().to_le_bytes());
            }
        }
    }
}
