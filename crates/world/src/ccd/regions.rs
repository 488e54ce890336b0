//! The reachable regions of one step and the grouping decisions: each
//! moving body's reach alone ([`super::reach`]), its view for the grouping
//! ([`super::group::Mover`]), the groups ([`super::group`]), the reach
//! limits of every region, and the bodies swept alone ([`Regions`]).
//!
//! # Method
//! A swept body reaches from its shape centre by its shape bound (sphere
//! radius; a capsule's farther `f32` end plus its radius; a solid's
//! farthest vertex), with the larger of its post-force and post-solver
//! energies and its split travel; a turning body by its turning reach
//! ([`super::turning::turning_reach`]); a kinematic sphere by its radius,
//! the contact margin and `|v| dt`. Each region alone must keep within the
//! reach limit; so must a shared group's members with their group regions.
//! When no group is shared, every moving body is swept alone.
//!
//! # Source
//! docs/continuous-collision.md, "How a step works" (reach) and "Moving
//! groups" (grouping).
//!
//! # Precision domain
//! Every bound is rounded outward ([`parapet_math::rounding`]); a solid's
//! bounding radius is widened by a relative `1e-12` for the roundoff of its
//! rotated vertices; the reach limit is [`super::reach::check_reach`]'s.

use parapet_math::nalgebra::UnitQuaternion;
use parapet_math::rounding::add_up;
use parapet_math::{promote, promote_quat, Quat, Vec3d};
use parapet_narrow::sweep::{capsule_half_axis, SweptShape};
use parapet_solver::RigidBody;

use super::error::CcdError;
use super::group::gap::ROTATION_WIDEN;
use super::group::{form_groups_with, Core, CoreShape, Groups, Mover, SharedGroups};
use super::group_sweep::MemberShape;
use super::plan::CcdPlan;
use super::reach::{self, Reach};
use super::scratch::CcdScratch;
use super::support::Role;
use super::turning::{end_arms, turning_reach, TurningShape};

/// The regions of one step, held in the stage's scratch.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Regions<'s> {
    /// The bodies swept alone (slot, region alone), insertion order.
    pub(crate) alone: &'s [(usize, Reach)],
    /// Every moving body as the grouping saw it, insertion order.
    pub(crate) movers: &'s [Mover],
    /// The groups of the movers (labels, regions in the group, sizes).
    pub(crate) groups: &'s Groups,
    /// The shared groups, in the order of their lowest member.
    pub(crate) shared: &'s SharedGroups,
    /// The pair tests the grouping made.
    pub(crate) grouping_tests: u64,
}

impl<'s> Regions<'s> {
    /// The regions that [`fill_regions`] left in `scratch`.
    pub(crate) fn of(scratch: &'s CcdScratch) -> Regions<'s> {
        Regions {
            alone: if scratch.all_alone {
                &scratch.moving
            } else {
                &scratch.alone
            },
            movers: &scratch.movers,
            groups: &scratch.groups,
            shared: &scratch.shared,
            grouping_tests: scratch.group.tests,
        }
    }
}

/// The regions of every moving body of `bodies` (slot, body; insertion
/// order) by its role in `plan`, grouped (`max_impacts`: `ccd_max_impacts`,
/// `dt`: the step, s), in the lists of `scratch` (read them with
/// [`Regions::of`]).
///
/// # Errors
/// [`CcdError::Precision`] for a region beyond the reach limit (a body
/// alone's in insertion order, then the shared groups' members'),
/// [`CcdError::Unsupported`] for a turning body, box or hull that can reach
/// another moving body.
pub(crate) fn fill_regions<'a>(
    bodies: impl Iterator<Item = (usize, &'a RigidBody)>,
    plan: &CcdPlan,
    dt: f32,
    max_impacts: u32,
    scratch: &mut CcdScratch,
) -> Result<(), CcdError> {
    let CcdScratch {
        moving,
        movers,
        alone,
        groups,
        group,
        shared,
        all_alone: alone_flag,
        ..
    } = scratch;
    moving.clear();
    movers.clear();
    // Reach bounds, and each moving body as the grouping sees it.
    for (slot, body) in bodies {
        // Continuous bodies and discrete movers (fixed and refused bodies
        // are not movers).
        let Some(role) = plan.mover_role(slot) else {
            continue;
        };
        let (r, bound, energy) = match role {
            Role::Swept(shape) => {
                let bound = swept_bound(body, shape);
                let energy = plan.energy(slot).max(reach::bound_energy(body));
                let r = swept_reach(body, bound, energy, dt);
                // A discrete mover is never refused (its limit is checked
                // when it shares a continuous body's group).
                if plan.is_continuous(slot) {
                    reach::check_reach(slot, &r, shape.limit_radius())?;
                }
                (r, bound.1, energy)
            }
            Role::Turning(shape) => {
                let energy = plan.energy(slot).max(reach::bound_energy(body));
                let r = turning_reach(body, shape, energy, dt);
                reach::check_reach(slot, &r, shape.domain_radius())?;
                (r, 0.0, 0.0)
            }
            Role::KinematicSphere { radius } => {
                let r = reach::kinematic_reach(
                    promote(body.position()),
                    *radius,
                    body.linear_velocity(),
                    dt,
                );
                (r, 0.0, 0.0)
            }
            _ => continue,
        };
        moving.push((slot, r));
        let mut m = mover_of(body, slot, role, r, bound, energy, dt);
        m.core = core_of(body, role);
        movers.push(m);
    }
    let solids = |slot: usize| match plan.role(slot) {
        Some(Role::Swept(SweptShape::Solid { solid, .. })) => Some(&**solid),
        _ => None,
    };
    form_groups_with(movers, max_impacts, dt, &solids, group, groups)?;
    // A mover alone keeps its region alone (checked above); a shared
    // group's members are checked with their group regions.
    let mut all_alone = true;
    for (i, m) in movers.iter().enumerate() {
        if !groups.is_shared(i) {
            continue;
        }
        all_alone = false;
        if let (true, Some(Role::Swept(shape))) = (plan.is_continuous(m.index), plan.role(m.index))
        {
            reach::check_reach(m.index, &groups.reach[i], shape.limit_radius())?;
        }
    }
    // Every mover alone: no group is shared (`Groups::shared` lists groups
    // of more than one mover), and the bodies alone are the moving bodies.
    *alone_flag = all_alone;
    if all_alone {
        shared.clear();
    } else {
        groups.shared_into(movers, shared);
        alone.clear();
        alone.extend(
            moving
                .iter()
                .enumerate()
                .filter(|(i, _)| !groups.is_shared(*i))
                .map(|(_, m)| *m),
        );
    }
    Ok(())
}

/// The shape a body of this role takes in a shared group (`None` for a
/// role that cannot share one).
pub(crate) fn member_shape(role: Option<&Role>) -> Option<MemberShape> {
    match role {
        Some(Role::KinematicSphere { radius }) => Some(MemberShape::Kinematic { radius: *radius }),
        Some(Role::Swept(SweptShape::Sphere { radius })) => {
            Some(MemberShape::Sphere { radius: *radius })
        }
        Some(Role::Swept(SweptShape::Capsule {
            radius,
            half_height,
        })) => Some(MemberShape::Capsule {
            radius: *radius,
            half_height: *half_height,
        }),
        _ => None,
    }
}

/// The reach of a swept body from its region centre and shape bound
/// ([`swept_bound`]) and its bound energy (J, the larger of the post-force
/// and post-solver energies).
fn swept_reach(body: &RigidBody, (center, bound): (Vec3d, f64), energy: f64, dt: f32) -> Reach {
    reach::dynamic_reach(
        center,
        bound,
        energy,
        body.mass() as f64,
        body.split_linear_velocity(),
        dt,
    )
}

/// The region centre and shape bound of a swept body.
fn swept_bound(body: &RigidBody, shape: &SweptShape) -> (Vec3d, f64) {
    let p = body.position();
    match shape {
        SweptShape::Sphere { radius } => (promote(p), *radius as f64),
        SweptShape::Capsule {
            radius,
            half_height,
        } => {
            let a = promote(capsule_half_axis(
                body.rotation(),
                body.shape_offset().1,
                *half_height,
            ));
            let c = promote(p);
            let ends = [(c - a).map(|x| x as f32), (c + a).map(|x| x as f32)];
            (c, reach::capsule_bound(p, ends, *radius))
        }
        SweptShape::Solid { solid, .. } => {
            let (offset, _) = body.shape_offset();
            let q = parapet_math::promote_quat(body.rotation());
            let q = parapet_math::nalgebra::UnitQuaternion::new_normalize(q.into_inner());
            let c: Vec3d = promote(p) + q * promote(offset);
            // Rotation roundoff of the vertices: a relative 1e-12 outward.
            (c, solid.bounding_radius() * (1.0 + 1.0e-12))
        }
    }
}

/// A unit `f64` rotation from an `f32` quaternion.
fn unit(q: Quat) -> UnitQuaternion<f64> {
    UnitQuaternion::new_normalize(promote_quat(q).into_inner())
}

/// The shape of moving body `body` in `role` for the grouping's meeting
/// test ([`super::group::gap`]): a sphere's centre, a capsule's `f32`
/// world segment (the one its reach bound measures), a solid's centre
/// and rotation, a turning body's core segment at the step's start;
/// each with the shape bound its reach was built from.
fn core_of(body: &RigidBody, role: &Role) -> Core {
    match role {
        Role::Swept(shape) => {
            let (center, bound) = swept_bound(body, shape);
            match shape {
                SweptShape::Sphere { radius } => Core {
                    shape: CoreShape::Segment([center, center]),
                    radius: *radius as f64,
                    bound,
                },
                SweptShape::Capsule {
                    radius,
                    half_height,
                } => {
                    let a = promote(capsule_half_axis(
                        body.rotation(),
                        body.shape_offset().1,
                        *half_height,
                    ));
                    let ends = [
                        (center - a).map(|x| x as f32),
                        (center + a).map(|x| x as f32),
                    ];
                    Core {
                        shape: CoreShape::Segment(ends.map(promote)),
                        radius: *radius as f64,
                        bound,
                    }
                }
                SweptShape::Solid { solid, .. } => {
                    let (offset, offset_rotation) = body.shape_offset();
                    let extent = solid.bounding_radius() + promote(offset).norm();
                    Core {
                        shape: CoreShape::Solid {
                            center,
                            rotation: unit(body.rotation()) * unit(offset_rotation),
                        },
                        radius: ROTATION_WIDEN * extent,
                        bound,
                    }
                }
            }
        }
        Role::Turning(TurningShape::Segment {
            radius,
            half_height,
        }) => {
            // The bound of `turning_reach`: the farther end arm, widened
            // for its rotation's roundoff, plus the radius.
            let arms = end_arms(body, *half_height);
            let far = reach::norm_up(&arms[0]).max(reach::norm_up(&arms[1])) * (1.0 + 1.0e-12);
            let center = body.world_center_of_mass_f64();
            let q = unit(body.rotation());
            Core {
                shape: CoreShape::Segment(arms.map(|arm| center + q * arm)),
                radius: *radius as f64 + ROTATION_WIDEN * far,
                bound: add_up(far, *radius as f64),
            }
        }
        Role::KinematicSphere { radius } => {
            let c = promote(body.position());
            Core {
                shape: CoreShape::Segment([c, c]),
                radius: *radius as f64,
                bound: *radius as f64,
            }
        }
        _ => Core::BALL,
    }
}

/// The grouping's view of moving body `slot` with region `alone`: `bound`
/// is a swept body's shape bound (m) and `energy` its bound energy (J, the
/// larger of the post-force and post-solver energies).
fn mover_of(
    body: &RigidBody,
    slot: usize,
    role: &Role,
    alone: Reach,
    bound: f64,
    energy: f64,
    dt: f32,
) -> Mover {
    let mut m = Mover {
        index: slot,
        alone,
        groupable: false,
        kinematic_speed: None,
        shape_bound: 0.0,
        mass: body.mass() as f64,
        energy: 0.0,
        split_travel: 0.0,
        core: Core::BALL,
    };
    match role {
        Role::KinematicSphere { .. } => {
            m.groupable = true;
            m.kinematic_speed = Some(reach::norm_up(&promote(body.linear_velocity())));
        }
        Role::Swept(shape) => {
            m.groupable = matches!(
                shape,
                SweptShape::Sphere { .. } | SweptShape::Capsule { .. }
            );
            m.shape_bound = bound;
            m.energy = energy;
            m.split_travel = reach::split_travel(body.split_linear_velocity(), dt as f64);
        }
        _ => {}
    }
    m
}
