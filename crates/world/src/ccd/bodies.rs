//! The bodies of one continuous step ([`StepBody`]): each participant's
//! role, moving shape, motion over the step and what an impulse needs of
//! it, and the write-back of the bodies the step struck.
//!
//! # Method
//! Every body that moves (a mover or an obstacle) is first integrated on a
//! copy exactly as the integrate stage would move it (`integrate_pose`:
//! split correction, the rotation model, translation): its *free end*. Its
//! motion over the step is the constant-velocity, constant-spin path from
//! its start pose to that end ([`free_motion`]): the mass centre moves at
//! `(c₁ − c₀) / dt`, the body turns by `log(q₁ q₀⁻¹)` (the turn taken the
//! long way round when the body's own spin says so). A body that no event
//! touches ends exactly at its free end, bit for bit as in DISCRETE; a
//! body struck at time `t` leaves that path there with the velocities the
//! impulse gave it, at constant velocity and spin until the next event or
//! the end of the step. A static body is fixed at its pose; a static
//! mesh's world-space snapshot is fixed at the identity.
//!
//! Each motion is kept with its own reference time `since` (the instant it
//! started); a query re-bases the two motions at its window start
//! ([`StepBody::motion_from`]).
//!
//! # Precision domain
//! `f64` from `f32` state; the end state is rounded to `f32` once, and a
//! value `f32` cannot hold is refused (`CcdError::NotRepresentable`).

use std::f64::consts::TAU;

use parapet_geometry::Material;
use parapet_math::{promote, promote_quat, Mat3d, Quatd, Vec3d};
use parapet_narrow::moving::{Motion, MovingShape};
use parapet_solver::impact::{reconstruct, ImpactBody, ImpactMass};
use parapet_solver::RigidBody;

use super::error::CcdError;
use super::policy::Role;
use super::shapes::SweptShape;
use crate::BodyId;

/// One body taking part in the continuous step.
#[derive(Debug, Clone)]
pub(crate) struct StepBody {
    /// The body's slot.
    pub slot: usize,
    /// Its id.
    pub id: BodyId,
    /// Its position in the insertion order (the tie rules' "lower body").
    pub order: usize,
    /// What it is in the step.
    pub role: Role,
    /// Its moving shape.
    pub swept: SweptShape,
    /// Its motion from `since` to the end of the step (time 0 of the motion
    /// is `since`).
    pub motion: Motion,
    /// When the motion started (s from the step's start).
    pub since: f64,
    /// The motions it left at its strikes, each with the step time it
    /// started (its path through the step is these, then `motion` from
    /// `since`).
    pub pieces: Vec<(f64, Motion)>,
    /// The velocity and spin an impulse sees (m/s, rad/s, world): on the
    /// body's first motion, its path's without the split (pose-only)
    /// velocities, or its stored ones where the two agree up to the poses'
    /// `f32` rounding; after a strike, the strike's.
    pub velocities: (Vec3d, Vec3d),
    /// Inverse mass (1/kg; zero unless a mover).
    pub inverse_mass: f64,
    /// Local inverse inertia (1/(kg m²); zero unless a mover).
    pub inverse_inertia: Mat3d,
    /// Its material.
    pub material: Material,
    /// The farthest point of its shape from its mass centre (m): what its
    /// spin can move at `|ω|` times this.
    pub reach: f64,
    /// Its shape's skin radius (m): a sphere's or capsule's radius, 0 for a
    /// polytope or a mesh.
    pub skin: f64,
    /// Impacts charged to it in this step.
    pub impacts: u32,
    /// Advancement iterations of the time-of-impact queries of its pairs
    /// (as the mover A of the pair).
    pub iterations: u64,
    /// The time of its last impact (s), `-1` before any.
    pub last_impact: f64,
    /// Its last strike's first contact, for the `f32` rounding of its end
    /// velocity: the unit normal towards the body, the lever arm, the
    /// other side's point velocity there (m/s) and the normal speed the
    /// strike left (m/s).
    pub last_contact: Option<LastContact>,
}

/// A struck body's last contact (see [`StepBody::last_contact`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct LastContact {
    /// Unit normal pointing into the body's side.
    pub normal: Vec3d,
    /// Lever arm from the body's mass centre (m).
    pub arm: Vec3d,
    /// The other side's velocity at the point (m/s).
    pub other: Vec3d,
    /// The normal speed the strike left (m/s, `>= 0`).
    pub target: f64,
}

/// The motion from the pose `(p0, q0)` to `(p1, q1)` over `dt` seconds, of a
/// body whose mass centre is at `com` (body frame) and whose own spin
/// (rad/s, world) is `spin` (see the module docs).
pub(crate) fn free_motion(
    (p0, q0): (Vec3d, Quatd),
    (p1, q1): (Vec3d, Quatd),
    com: Vec3d,
    spin: Vec3d,
    dt: f64,
) -> Motion {
    let c0 = p0 + q0 * com;
    let c1 = p1 + q1 * com;
    let turn = (q1 * q0.inverse()).scaled_axis();
    let angle = turn.norm();
    let turn = if angle > 0.0 {
        // The same rotation is `angle + 2π m` about the axis: take the `m`
        // nearest the body's own spin (a body spinning faster than half a
        // turn per step keeps its direction).
        let axis = turn / angle;
        let m = ((spin.dot(&axis) * dt - angle) / TAU).round();
        axis * (angle + TAU * m)
    } else {
        turn
    };
    Motion {
        center: c0,
        rotation: q0,
        local_center: com,
        velocity: (c1 - c0) / dt,
        spin: turn / dt,
    }
}

/// How far (m) an `f32` pose coordinate of magnitude `x` may be from the
/// exact one: two ulps (the stored coordinate and its integration).
fn pose_rounding(x: f64) -> f64 {
    2.0 * f32::EPSILON as f64 * x.abs().max(1.0)
}

/// The velocity and spin an impulse sees on a body's first motion: its
/// stored ones where they agree with its path (the motion less the split
/// velocities) up to the `f32` rounding of the two poses over the step,
/// so that an impulse is exact where the path is the stored velocity
/// carried over the step; else the path's (an integrator's large turn per
/// step is not the stored spin times the step), so that the impulse stops
/// the motion the arbiter swept.
fn impulse_velocities(body: &RigidBody, motion: &Motion, dt: f64) -> (Vec3d, Vec3d) {
    let path = (
        motion.velocity - promote(body.split_linear_velocity()),
        motion.spin - promote(body.split_angular_velocity()),
    );
    let stored = (
        promote(body.linear_velocity()),
        promote(body.angular_velocity()),
    );
    let linear = pose_rounding(motion.center.amax()) / dt;
    let angular = pose_rounding(1.0) / dt;
    if (path.0 - stored.0).amax() <= linear && (path.1 - stored.1).amax() <= angular {
        stored
    } else {
        path
    }
}

/// The unit `f64` rotation of an `f32` quaternion.
pub(crate) fn unit_f64(q: parapet_math::Quat) -> Quatd {
    Quatd::new_normalize(promote_quat(q).into_inner())
}

impl StepBody {
    /// The step body of `body` (slot, id, insertion position, role, shape)
    /// at the start of a step of `dt` seconds, with its free end `end` (the
    /// body integrated on a copy; `None` for a static body).
    pub(crate) fn new(
        (slot, id, order): (usize, BodyId, usize),
        role: Role,
        swept: SweptShape,
        body: &RigidBody,
        end: Option<&RigidBody>,
        dt: f64,
    ) -> StepBody {
        let com = promote(body.center_of_mass());
        let start = (promote(body.position()), unit_f64(body.rotation()));
        let motion = if swept.world_frame {
            Motion::fixed(Vec3d::zeros(), Quatd::identity())
        } else {
            match end {
                Some(e) => {
                    let spin = promote(body.angular_velocity() + body.split_angular_velocity());
                    let finish = (promote(e.position()), unit_f64(e.rotation()));
                    let mut m = free_motion(start, finish, com, spin, dt);
                    if e.rotation() == body.rotation() {
                        // The same stored rotation (a locked or resting
                        // body): no turn, not the `f64` residue of one.
                        m.spin = Vec3d::zeros();
                    }
                    m
                }
                None => Motion::new(start.0, start.1, com, Vec3d::zeros(), Vec3d::zeros()),
            }
        };
        let velocities = if swept.world_frame || end.is_none() {
            (Vec3d::zeros(), Vec3d::zeros())
        } else {
            impulse_velocities(body, &motion, dt)
        };
        let mover = role.is_mover();
        let skin = swept.shape.core().map_or(0.0, |c| c.skin());
        let reach = match swept.shape.as_ref() {
            MovingShape::Convex(core) => core.reach_from(&com) + core.skin(),
            MovingShape::Mesh(mesh) => mesh
                .bounding_corners()
                .iter()
                .fold(0.0f64, |m, p| m.max((p - com).norm())),
            _ => f64::INFINITY,
        };
        StepBody {
            slot,
            id,
            order,
            role,
            swept,
            motion,
            since: 0.0,
            pieces: Vec::new(),
            velocities,
            inverse_mass: if mover {
                body.inverse_mass() as f64
            } else {
                0.0
            },
            inverse_inertia: if mover {
                body.inverse_inertia().cast::<f64>()
            } else {
                Mat3d::zeros()
            },
            material: body.material(),
            reach,
            skin,
            impacts: 0,
            iterations: 0,
            last_impact: -1.0,
            last_contact: None,
        }
    }

    /// The motion re-based at step time `t` (time 0 of the result is `t`).
    pub(crate) fn motion_from(&self, t: f64) -> Motion {
        let s = t - self.since;
        if s == 0.0 {
            return self.motion;
        }
        Motion {
            center: self.motion.center_at(s),
            rotation: self.motion.rotation_at(s),
            ..self.motion
        }
    }

    /// What an impulse at step time `t` needs of the body: its mass at its
    /// orientation then, and its velocities (without the split part).
    pub(crate) fn impact_body(&self, t: f64) -> ImpactBody {
        let r = self
            .motion
            .rotation_at(t - self.since)
            .to_rotation_matrix()
            .into_inner();
        ImpactBody {
            mass: ImpactMass {
                inverse_mass: self.inverse_mass,
                inverse_inertia: r * self.inverse_inertia * r.transpose(),
            },
            velocity: self.velocities.0,
            spin: self.velocities.1,
        }
    }

    /// The body's path through the step: each motion with the step time it
    /// started (time 0 of each motion is its start), in time order; each
    /// holds until the next one starts, the last to the end of the step.
    pub(crate) fn path(&self) -> Vec<(f64, Motion)> {
        let mut path = self.pieces.clone();
        path.push((self.since, self.motion));
        path
    }

    /// The world mass centre at step time `t` (m).
    pub(crate) fn center_at(&self, t: f64) -> Vec3d {
        self.motion.center_at(t - self.since)
    }

    /// Whether the body is a mover whose motion still carries a split
    /// (pose-only) part: its path's velocity or spin differs from the
    /// velocities an impulse sees (never after a strike).
    pub(crate) fn has_split(&self) -> bool {
        self.role.is_mover()
            && (self.motion.velocity != self.velocities.0 || self.motion.spin != self.velocities.1)
    }

    /// Starts a new motion at step time `t` with velocity `v` and spin `w`
    /// (an impulse's result): the split part is spent.
    pub(crate) fn strike(&mut self, t: f64, v: Vec3d, w: Vec3d) {
        let m = self.motion_from(t);
        self.pieces.push((self.since, self.motion));
        self.motion = Motion {
            velocity: v,
            spin: w,
            ..m
        };
        self.since = t;
        self.velocities = (v, w);
    }

    /// Writes the body's state at the end of a step of `dt` seconds into
    /// `body` (pose, velocities, split velocities spent).
    ///
    /// # Errors
    /// [`CcdError::NotRepresentable`] for a value `f32` cannot hold.
    pub(crate) fn write_end(&self, body: &mut RigidBody, dt: f64) -> Result<(), CcdError> {
        let (p, q) = self.motion.pose_at(dt - self.since);
        let f32_of = |quantity: &'static str, v: Vec3d| {
            let f = v.cast::<f32>();
            match f.iter().position(|x| !x.is_finite()) {
                Some(k) => Err(CcdError::NotRepresentable {
                    body: self.slot,
                    quantity,
                    value: v[k],
                }),
                None => Ok(f),
            }
        };
        let position = f32_of("position", p)?;
        let spin = f32_of("angular velocity", self.motion.spin)?;
        let mut velocity = f32_of("linear velocity", self.motion.velocity)?;
        if let Some(c) = &self.last_contact {
            // The stored velocity leaves the last contact at its normal
            // speed or above, whatever the rounding (the spin's part counted
            // as stored).
            let offset = c.normal.dot(&(promote(spin).cross(&c.arm) - c.other));
            velocity = reconstruct(self.motion.velocity, &c.normal, c.target, offset);
        }
        let q = parapet_math::Quat::new_normalize(q.into_inner().cast::<f32>());
        body.set_position(position);
        body.set_rotation(q);
        body.set_linear_velocity(velocity);
        body.set_angular_velocity(spin);
        body.set_split_linear_velocity(parapet_math::Vec3::zeros());
        body.set_split_angular_velocity(parapet_math::Vec3::zeros());
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The free motion reaches the end pose, and a body turning more than
    /// half a turn per step keeps its own direction of spin.
    #[test]
    fn the_free_motion_ends_at_the_end_pose_turning_the_bodys_way() {
        let dt = 0.05;
        let com = Vec3d::new(0.1, -0.2, 0.05);
        let q0 = Quatd::from_scaled_axis(Vec3d::new(0.3, 0.1, -0.2));
        let spin = Vec3d::new(0.0, 0.0, 100.0); // 5 rad in the step
        let q1 = Quatd::from_scaled_axis(spin * dt) * q0;
        let (p0, p1) = (Vec3d::new(1.0, 2.0, 3.0), Vec3d::new(1.5, 2.0, 2.0));
        let m = free_motion((p0, q0), (p1, q1), com, spin, dt);
        let (p, q) = m.pose_at(dt);
        assert!((p - p1).norm() < 1e-12, "{p} {p1}");
        assert!(q.angle_to(&q1) < 1e-9);
        assert!((m.spin - spin).norm() < 1e-9, "{}", m.spin);
    }
}
