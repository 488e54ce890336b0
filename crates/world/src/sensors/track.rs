//! One body's path through a step as the sensor stage sees it
//! ([`Track`]): its moving shape, its poses at the step's start and end
//! (as fixed motions, for the inside tests), the motions it took between
//! them and the box that contains everything it covered.
//!
//! # Method
//! The start poses are taken after the contact stage, before the
//! continuous stage and the integration move anything ([`StartPoses`]).
//! A body the continuous step struck moved along the motions it reports
//! (`CcdOutcome::paths`: each motion with the step time it started, each
//! holding until the next starts). Every other body moved along its free
//! motion from its start pose to its end pose (the continuous step's
//! [`free_motion`]: constant velocity of the mass centre, constant spin,
//! no spin when the stored rotation did not change), which is bit for bit
//! the path the continuous step swept for a mover or an obstacle it did
//! not strike. A static mesh inserted static is its world-space snapshot,
//! fixed at the identity. The poses at the start and the end become fixed
//! motions built the same way whichever step they belong to, so the end
//! of one step and the start of the next are one and the same query.
//!
//! # Precision domain
//! `f64` from `f32` state; the boxes are the arbiter's conservative swept
//! bounds ([`swept_bounds`]), outward-rounded, grown by the continuous
//! step's [`CANDIDATE_GROWTH`].

use std::sync::Arc;

use parapet_geometry::Aabbd;
use parapet_math::{promote, Quat, Quatd, Vec3, Vec3d};
use parapet_narrow::moving::{swept_bounds, Motion, MovingShape};
use parapet_solver::RigidBody;

use crate::ccd::bodies::{free_motion, unit_f64};
use crate::ccd::candidates::CANDIDATE_GROWTH;
use crate::ccd::shapes::SweptShape;
use crate::{BodyId, PhysicsWorld};

/// One body's pose at the step's start and the spin that says which way
/// it turns (rad/s, world: angular plus split angular velocity, read where
/// the continuous step reads it).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct StartPose {
    position: Vec3,
    rotation: Quat,
    spin: Vec3d,
}

/// Every body's [`StartPose`], by slot.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct StartPoses(Vec<Option<StartPose>>);

impl StartPoses {
    /// The start poses of `world`'s bodies, or `None` when no body is a
    /// sensor that collides (the stage then has nothing to do and costs
    /// nothing).
    pub(crate) fn take(world: &PhysicsWorld) -> Option<StartPoses> {
        if !world
            .entries()
            .any(|e| e.body.is_sensor() && e.body.collides())
        {
            return None;
        }
        let mut poses = vec![None; world.slots.len()];
        for e in world.entries() {
            let b = &e.body;
            poses[e.id.index() as usize] = Some(StartPose {
                position: b.position(),
                rotation: b.rotation(),
                spin: promote(b.angular_velocity() + b.split_angular_velocity()),
            });
        }
        Some(StartPoses(poses))
    }

    /// The start pose of the body in `slot`.
    pub(crate) fn get(&self, slot: usize) -> Option<&StartPose> {
        self.0.get(slot)?.as_ref()
    }
}

/// A body (or a sensor) over one step.
#[derive(Debug, Clone)]
pub(crate) struct Track<'a> {
    /// Its slot.
    pub slot: usize,
    /// Its id.
    pub id: BodyId,
    /// Its position in the insertion order.
    pub order: usize,
    /// Its moving shape.
    pub shape: Arc<MovingShape>,
    /// Its inner size (m), for the pair's tolerance.
    pub inner: f64,
    /// Fixed at its pose at the step's start.
    pub start: Motion,
    /// Fixed at its pose at the step's end.
    pub end: Motion,
    /// Its free motion from the step's start (when it was not struck).
    free: (f64, Motion),
    /// Its motions through the step when the continuous step struck it.
    struck: Option<&'a [(f64, Motion)]>,
    /// Whether its pose changed in the step.
    pub moves: bool,
    /// A box around everything it covered in the step.
    pub bounds: Aabbd,
}

/// The pose of a body fixed at `(position, rotation)`, its mass centre at
/// `com` in its frame (a world-frame snapshot at the identity).
fn fixed(position: Vec3, rotation: Quat, com: Vec3, world_frame: bool) -> Motion {
    if world_frame {
        return Motion::fixed(Vec3d::zeros(), Quatd::identity());
    }
    Motion::new(
        promote(position),
        unit_f64(rotation),
        promote(com),
        Vec3d::zeros(),
        Vec3d::zeros(),
    )
}

/// The motion `m` re-based at time `t` of its own clock (time 0 of the
/// result is `t`).
pub(crate) fn rebased(m: &Motion, t: f64) -> Motion {
    if t == 0.0 {
        return *m;
    }
    Motion {
        center: m.center_at(t),
        rotation: m.rotation_at(t),
        ..*m
    }
}

impl<'a> Track<'a> {
    /// The track of `body` (slot, id and insertion position `key`) with
    /// moving shape `swept`, from `start` to its present (end) pose over a
    /// step of `dt` seconds; `struck` is its path when the continuous step
    /// struck it.
    pub(crate) fn new(
        key: (usize, BodyId, usize),
        body: &RigidBody,
        swept: SweptShape,
        start: &StartPose,
        struck: Option<&'a [(f64, Motion)]>,
        dt: f64,
    ) -> Track<'a> {
        let (slot, id, order) = key;
        let com = body.center_of_mass();
        let wf = swept.world_frame;
        let (p1, q1) = (body.position(), body.rotation());
        let still = p1 == start.position && q1 == start.rotation;
        let free = if wf {
            Motion::fixed(Vec3d::zeros(), Quatd::identity())
        } else {
            let mut m = free_motion(
                (promote(start.position), unit_f64(start.rotation)),
                (promote(p1), unit_f64(q1)),
                promote(com),
                start.spin,
                dt,
            );
            if q1 == start.rotation {
                // The continuous step's rule: the same stored rotation is
                // no turn, not the `f64` residue of one.
                m.spin = Vec3d::zeros();
            }
            m
        };
        let mut track = Track {
            slot,
            id,
            order,
            inner: swept.inner,
            start: fixed(start.position, start.rotation, com, wf),
            end: fixed(p1, q1, com, wf),
            free: (0.0, free),
            struck,
            moves: !wf && (struck.is_some() || !still),
            bounds: Aabbd::empty(),
            shape: swept.shape,
        };
        track.bounds = track.swept_box(dt);
        track
    }

    /// Its motions through the step, each with the step time it started.
    pub(crate) fn pieces(&self) -> &[(f64, Motion)] {
        self.struck.unwrap_or(std::slice::from_ref(&self.free))
    }

    /// The box of everything the shape covers over the step.
    fn swept_box(&self, dt: f64) -> Aabbd {
        let pieces = self.pieces();
        let mut bounds = Aabbd::empty();
        for (k, (since, m)) in pieces.iter().enumerate() {
            let until = pieces.get(k + 1).map_or(dt, |p| p.0).max(*since);
            bounds = bounds.merged(&swept_bounds(&self.shape, m, 0.0, until - since));
        }
        bounds.grown(CANDIDATE_GROWTH)
    }

    /// The motion that holds at step time `t`, re-based at `t` (time 0 of
    /// the result is `t`); of motions starting at one instant, the last.
    pub(crate) fn motion_from(&self, t: f64) -> Motion {
        let pieces = self.pieces();
        let k = pieces.partition_point(|p| p.0 <= t).max(1) - 1;
        let (since, m) = &pieces[k];
        rebased(m, t - since)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A re-based motion is at the original's pose at the same instant.
    #[test]
    fn a_rebased_motion_keeps_the_path() {
        let m = Motion::new(
            Vec3d::new(1.0, 2.0, 3.0),
            Quatd::from_scaled_axis(Vec3d::new(0.1, 0.2, 0.3)),
            Vec3d::new(0.1, 0.0, 0.0),
            Vec3d::new(3.0, -1.0, 0.5),
            Vec3d::new(0.0, 4.0, 1.0),
        );
        let r = rebased(&m, 0.25);
        let (p, q) = r.pose_at(0.5);
        let (p0, q0) = m.pose_at(0.75);
        // f64 rounding of two compositions of a small turn: 1e-15.
        assert!((p - p0).norm() < 1e-14, "{p} {p0}");
        assert!(q.angle_to(&q0) < 1e-14);
    }
}
