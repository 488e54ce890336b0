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

impl StartPose {
    /// Whether `body` is still at this pose (the same stored bits).
    pub(crate) fn is_at(&self, body: &RigidBody) -> bool {
        body.position() == self.position && body.rotation() == self.rotation
    }
}

/// How much a [`reach_box`] is grown for rounding, relative to the
/// magnitudes of its corners and reach: 1e-9, far above the `f64` rounding
/// of the mass centre's two positions (a few `ε` = 2.2e-16 of the same
/// magnitudes) and of the swept boxes' own margins.
pub(crate) const REACH_SLACK: f64 = 1e-9;

/// A box (m, world) around everything `body` covers over the step from
/// `start` to its present pose along its free motion, grown by the
/// candidates' growth, without its moving shape; `None` for a mesh (its
/// reach is a pass over every vertex: its [`Track`] is as cheap).
///
/// The free motion carries the mass centre at constant velocity from its
/// start to its end position (a segment) and turns the body about it, and
/// no point of the shape is farther from the mass centre than the shape's
/// bounding radius (about the shape's origin, rounded up) plus the
/// distance from the mass centre to that origin. The box is therefore a
/// superset of the track's box less its rounding margins, so a body whose
/// box meets no sensor's has no candidate pair.
pub(crate) fn reach_box(body: &RigidBody, start: &StartPose) -> Option<Aabbd> {
    let shape = body.shape();
    if matches!(shape, parapet_geometry::Shape::Mesh(_)) {
        return None;
    }
    let com = promote(body.center_of_mass());
    let (offset, _) = body.shape_offset();
    let reach = shape.bounding_radius() + (promote(offset) - com).norm();
    let c0 = promote(start.position) + unit_f64(start.rotation) * com;
    let c1 = promote(body.position()) + unit_f64(body.rotation()) * com;
    let size = c0.amax().max(c1.amax()) + reach;
    let grow = reach + CANDIDATE_GROWTH + REACH_SLACK * size.max(1.0);
    Some(Aabbd::new(
        c0.inf(&c1).add_scalar(-grow),
        c0.sup(&c1).add_scalar(grow),
    ))
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

    /// Every point of a body's shape, sampled along its free motion (the
    /// motion a track of an unstruck body takes), lies in its reach box
    /// shrunk by the candidates' growth: spheres, capsules, boxes and hulls
    /// with shape offsets, off-centre mass centres and turns up to two
    /// turns per step.
    #[test]
    fn the_reach_box_holds_the_whole_free_path() {
        use parapet_geometry::Shape;
        let mut seed = 11u64;
        let mut rnd = move || {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (seed >> 11) as f32 / (1u64 << 53) as f32 * 2.0 - 1.0
        };
        let dt = 1.0 / 60.0;
        for case in 0..200 {
            let mut v = |s: f32| Vec3::new(rnd(), rnd(), rnd()) * s;
            let shape = match case % 4 {
                0 => Shape::sphere(0.3).unwrap(),
                1 => Shape::capsule(0.1, 0.6).unwrap(),
                2 => Shape::cuboid(Vec3::new(0.5, 0.1, 0.3)).unwrap(),
                _ => Shape::convex_hull(&(0..8).map(|_| v(0.7)).collect::<Vec<_>>()).unwrap(),
            };
            let mut body = RigidBody::new_dynamic(shape, 2.0).unwrap();
            body.set_shape_offset(v(0.5), Quat::from_scaled_axis(v(2.0)))
                .unwrap();
            body.set_center_of_mass(v(0.2)).unwrap();
            let q0 = Quat::from_scaled_axis(v(3.0));
            let start = StartPose {
                position: v(50.0),
                rotation: q0,
                spin: promote(v(60.0)),
            };
            // Up to two turns about the start spin's axis, and a move.
            let turn = start.spin * dt * f64::from(v(1.0).x.abs() * 2.0);
            body.set_position(start.position + v(2.0));
            body.set_rotation(Quat::from_scaled_axis(turn.cast::<f32>()) * q0);
            let reach = reach_box(&body, &start).unwrap().grown(-CANDIDATE_GROWTH);
            let com = promote(body.center_of_mass());
            let m = free_motion(
                (promote(start.position), unit_f64(start.rotation)),
                (promote(body.position()), unit_f64(body.rotation())),
                com,
                start.spin,
                dt,
            );
            let (offset, rotation) = body.shape_offset();
            let corners: Vec<Vec3d> = match body.shape() {
                Shape::Cuboid(c) => {
                    let h = c.half_extents();
                    (0..8)
                        .map(|k| {
                            let s = |b: usize| if k >> b & 1 == 0 { -1.0 } else { 1.0 };
                            Vec3::new(s(0) * h.x, s(1) * h.y, s(2) * h.z)
                        })
                        .collect::<Vec<_>>()
                }
                Shape::ConvexHull(h) => h.vertices().to_vec(),
                Shape::Sphere(s) => {
                    let r = s.radius();
                    vec![Vec3::x() * r, -Vec3::y() * r, Vec3::z() * r]
                }
                Shape::Capsule(c) => {
                    let (r, h) = (c.radius(), c.half_height());
                    vec![Vec3::new(r, 0.0, h), Vec3::new(0.0, -r, -h)]
                }
                _ => unreachable!("the four shapes above"),
            }
            .into_iter()
            .map(|p| promote(rotation * p + offset))
            .collect();
            for k in 0..=64 {
                let t = dt * k as f64 / 64.0;
                for p in &corners {
                    let x = m.point_at(t, p);
                    assert!(
                        reach.contains_point(&x),
                        "case {case}: {x} outside {reach:?}"
                    );
                }
            }
        }
    }

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
