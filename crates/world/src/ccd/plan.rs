//! The continuous stage's plan of one step ([`CcdPlan`]): every body's
//! resolved policy ([`Class`], [`super::policy`]) and role by the support
//! rules ([`super::support`]) with the precision limits of the moving
//! bodies, each swept body's kinetic energy after the force update, the
//! `Auto` bodies the motion test resolves `Continuous`, and the routing of
//! the contact stage's contacts (which ones the sweeps take instead of the
//! impulse solve).
//!
//! # Method
//! Classification runs at step entry, before the forces consume the pending
//! torques that the support rules read, in insertion order; every refusal
//! of a continuous body is kept (the step reports the first in insertion
//! order, the dry run all). A discrete or `Auto` body is classified by the
//! same rules: a group role makes it a mover, anything else (a refusal
//! included) fixed. A separated (negative-depth) mesh contact of a
//! continuous swept or turning body whose closing travel `(v · n) dt`
//! exceeds the contact margin goes to the sweep (no early bounce); so does
//! a separated pair of groupable bodies (centred spheres, capsules that
//! cannot turn, kinematic spheres) closing faster than that, when one of
//! them is a continuous dynamic body or both are continuous (the pair's
//! group is then swept). Slower contacts keep the speculative path,
//! overlaps the solver and its split correction.
//!
//! # Source
//! docs/continuous-collision.md, "Supported worlds", "What it refuses, and
//! why", "How a step works", "Moving groups" (pair routing) and "Choosing
//! per body".
//!
//! # Precision domain
//! Moving bodies' position coordinates within [`MAX_COORDINATE`] m, sphere
//! and capsule radii in `[MIN_RADIUS, MAX_RADIUS]`; limits are written
//! `!(value <= limit)` so that a NaN fails them.

// Limits are written `!(value <= limit)` so that a NaN fails them too.
#![allow(clippy::neg_cmp_op_on_partial_ord)]

use parapet_math::promote;
use parapet_narrow::sweep::{SweptShape, MAX_COORDINATE, MAX_RADIUS, MIN_RADIUS};
use parapet_solver::contact::CONTACT_MARGIN;
use parapet_solver::{BodyKind, CcdMode, RigidBody};

use super::error::CcdError;
use super::policy::{is_fast, requested, Class};
use super::reach;
use super::support::{classify_cached, ClassifyCache, Role};
use super::turning::TurningShape;
use super::CollisionDetection;
use crate::contact_query::ContactQuery;

/// The continuous mode's plan for one step.
#[derive(Debug, Clone)]
pub(crate) struct CcdPlan {
    /// Per slot: the body's role (`None` for free slots and for bodies the
    /// support rules refuse).
    roles: Vec<Option<Role>>,
    /// Per slot: the kinetic energy after the force update (J), swept bodies.
    energy: Vec<f64>,
    /// Per slot: what the body is this step.
    class: Vec<Class>,
    /// The `Auto` bodies the support rules refuse (slot, refusal): the
    /// step's refusal of the body if it resolves `Continuous`.
    auto_refusals: Vec<(usize, CcdError)>,
    /// Whether the mesh snapshot's geometry check was asked in this step.
    pub(crate) mesh_checked: bool,
}

/// The lists a plan hands back for the next step's plan (their storage).
#[derive(Debug, Clone, Default)]
pub(crate) struct PlanLists {
    /// Roles per slot.
    pub(crate) roles: Vec<Option<Role>>,
    /// Energies per slot.
    pub(crate) energy: Vec<f64>,
    /// Classes per slot.
    pub(crate) class: Vec<Class>,
}

fn precision(body: usize, quantity: &'static str, value: f64, limit: f64) -> CcdError {
    CcdError::Precision {
        body,
        quantity,
        value,
        limit,
    }
}

/// Radius limits of the sweeps for spheres and capsules.
fn check_radius(slot: usize, radius: f32) -> Result<(), CcdError> {
    let r = radius as f64;
    if !(MIN_RADIUS..=MAX_RADIUS).contains(&r) {
        let limit = if r < MIN_RADIUS {
            MIN_RADIUS
        } else {
            MAX_RADIUS
        };
        return Err(precision(slot, "sphere or capsule radius (m)", r, limit));
    }
    Ok(())
}

/// One body's role by the support rules, with the position and radius
/// limits of the moving bodies.
fn classify_one(
    slot: usize,
    body: &RigidBody,
    cache: &mut ClassifyCache,
) -> Result<Role, CcdError> {
    let role = classify_cached(slot, body, cache)?;
    if !matches!(role, Role::Passive) {
        for &x in body.position().iter() {
            if !((x as f64).abs() <= MAX_COORDINATE) {
                return Err(precision(
                    slot,
                    "position coordinate (m)",
                    x as f64,
                    MAX_COORDINATE,
                ));
            }
        }
    }
    match &role {
        Role::KinematicSphere { radius }
        | Role::Swept(SweptShape::Sphere { radius })
        | Role::Swept(SweptShape::Capsule { radius, .. })
        | Role::Turning(TurningShape::Segment { radius, .. }) => check_radius(slot, *radius)?,
        _ => {}
    }
    Ok(role)
}

/// Whether a body of this role can share a group sweep (a centred sphere, a
/// capsule that cannot turn, a kinematic sphere).
pub(crate) fn groupable(role: Option<&Role>) -> bool {
    matches!(
        role,
        Some(
            Role::KinematicSphere { .. }
                | Role::Swept(SweptShape::Sphere { .. })
                | Role::Swept(SweptShape::Capsule { .. })
        )
    )
}

impl CcdPlan {
    /// The plan of a step in a world whose default mode is `world`: every
    /// body of `bodies` (slot, body; insertion order) resolved and
    /// classified in `slots` body slots, the solids and factorable tensors
    /// taken from `cache`; `lists` are the last plan's lists, whose storage
    /// is reused. Returns the plan and the refusals of the continuous bodies
    /// (insertion order).
    pub(crate) fn classify<'a>(
        slots: usize,
        bodies: impl Iterator<Item = (usize, &'a RigidBody)>,
        world: CollisionDetection,
        cache: &mut ClassifyCache,
        lists: PlanLists,
    ) -> (CcdPlan, Vec<CcdError>) {
        let PlanLists {
            mut roles,
            mut energy,
            mut class,
        } = lists;
        roles.clear();
        roles.resize(slots, None);
        class.clear();
        class.resize(slots, Class::Idle);
        energy.clear();
        energy.resize(slots, 0.0);
        cache.reserve_slots(slots);
        let mut refusals = Vec::new();
        let mut auto_refusals = Vec::new();
        for (slot, body) in bodies {
            let mode = requested(world, body.ccd());
            if !body.collides() {
                roles[slot] = Some(Role::Passive);
                continue;
            }
            if mode == CcdMode::Continuous {
                match classify_one(slot, body, cache) {
                    Ok(role) => {
                        if !matches!(role, Role::StaticMesh) {
                            class[slot] = Class::Continuous { auto: false };
                        }
                        roles[slot] = Some(role);
                    }
                    Err(e) => {
                        class[slot] = Class::Refused;
                        refusals.push(e);
                    }
                }
                continue;
            }
            // Discrete or Auto: a static body never moves (a mesh keeps its
            // triangles in the snapshot, a primitive is fixed).
            let auto = mode == CcdMode::Auto && body.kind() != BodyKind::Static;
            let result = if body.kind() == BodyKind::Static && !body.shape().is_solid() {
                Ok(Role::StaticMesh)
            } else if body.kind() == BodyKind::Static {
                class[slot] = Class::Fixed { auto: false };
                continue;
            } else {
                classify_one(slot, body, cache)
            };
            match result {
                Ok(Role::StaticMesh) => roles[slot] = Some(Role::StaticMesh),
                Ok(role) => {
                    class[slot] = if groupable(Some(&role)) {
                        Class::Mover { auto }
                    } else {
                        Class::Fixed { auto }
                    };
                    roles[slot] = Some(role);
                }
                Err(e) => {
                    class[slot] = Class::Fixed { auto };
                    if auto {
                        auto_refusals.push((slot, e));
                    }
                }
            }
        }
        let plan = CcdPlan {
            roles,
            energy,
            class,
            auto_refusals,
            mesh_checked: false,
        };
        (plan, refusals)
    }

    /// The plan's lists, for the next step's plan to reuse (only their
    /// capacity: [`CcdPlan::classify`] refills them). No role (nor a solid
    /// it shares) outlives its step.
    pub(crate) fn into_lists(mut self) -> PlanLists {
        self.roles.clear();
        PlanLists {
            roles: self.roles,
            energy: self.energy,
            class: self.class,
        }
    }

    /// The role of the body in `slot` (`None` for a free slot or a refused
    /// body).
    pub(crate) fn role(&self, slot: usize) -> Option<&Role> {
        self.roles.get(slot).and_then(|r| r.as_ref())
    }

    /// The class of the body in `slot` ([`Class::Idle`] for a free slot).
    pub(crate) fn class(&self, slot: usize) -> Class {
        self.class.get(slot).copied().unwrap_or_default()
    }

    /// Sets the class of the body in `slot`.
    pub(crate) fn set_class(&mut self, slot: usize, class: Class) {
        if let Some(c) = self.class.get_mut(slot) {
            *c = class;
        }
    }

    /// Whether the body in `slot` is continuous and classified (swept).
    pub(crate) fn is_continuous(&self, slot: usize) -> bool {
        matches!(self.class(slot), Class::Continuous { .. })
    }

    /// The role of the body in `slot` when it is a mover of the grouping
    /// (continuous and classified, or a discrete mover).
    pub(crate) fn mover_role(&self, slot: usize) -> Option<&Role> {
        match self.class(slot) {
            Class::Continuous { .. } | Class::Mover { .. } => self.role(slot),
            _ => None,
        }
    }

    /// Whether some body is resolved `Continuous` (swept or refused).
    pub(crate) fn has_continuous(&self) -> bool {
        self.class.iter().any(|c| c.is_continuous())
    }

    /// Whether some body is `Auto` and not yet resolved `Continuous`.
    pub(crate) fn has_pending_auto(&self) -> bool {
        self.class.iter().any(|c| c.is_pending_auto())
    }

    /// The kinetic energy (J) of the swept or turning body in `slot` after
    /// the force update (0 for other bodies).
    pub(crate) fn energy(&self, slot: usize) -> f64 {
        self.energy[slot]
    }

    /// Records the swept and turning bodies' energies after the force
    /// update (`bodies`: slot and body; movers included, whose regions the
    /// grouping needs).
    pub(crate) fn after_forces<'a>(
        mut self,
        bodies: impl Iterator<Item = (usize, &'a RigidBody)>,
    ) -> CcdPlan {
        for (slot, body) in bodies {
            if matches!(
                self.roles.get(slot),
                Some(Some(Role::Swept(_) | Role::Turning(_)))
            ) && !matches!(self.class(slot), Class::Fixed { .. })
            {
                self.energy[slot] = reach::bound_energy(body);
            }
        }
        self
    }

    /// Resolves `Continuous` every pending `Auto` body of `bodies` (slot,
    /// body; insertion order) that [`is_fast`] at its current velocities,
    /// pushing the refusal of one the support rules refuse onto `refusals`.
    /// A fixed body that becomes continuous takes its energy now.
    pub(crate) fn resolve_fast<'a>(
        &mut self,
        bodies: impl Iterator<Item = (usize, &'a RigidBody)>,
        dt: f32,
        refusals: &mut Vec<CcdError>,
    ) {
        for (slot, body) in bodies {
            if !self.class(slot).is_pending_auto() || !is_fast(body, dt) {
                continue;
            }
            self.promote(slot, body, refusals);
        }
    }

    /// Resolves the pending `Auto` body in `slot` `Continuous` (refused when
    /// the support rules refuse it; its refusal onto `refusals`).
    pub(crate) fn promote(&mut self, slot: usize, body: &RigidBody, refusals: &mut Vec<CcdError>) {
        if self.role(slot).is_some() {
            if matches!(self.class(slot), Class::Fixed { .. }) {
                self.energy[slot] = reach::bound_energy(body);
            }
            self.class[slot] = Class::Continuous { auto: true };
        } else {
            self.class[slot] = Class::Refused;
            if let Some(k) = self.auto_refusals.iter().position(|(s, _)| *s == slot) {
                refusals.push(self.auto_refusals.swap_remove(k).1);
            }
        }
    }

    /// The refusal the support rules give the `Auto` body in `slot`, if any.
    pub(crate) fn auto_refusal(&self, slot: usize) -> Option<&CcdError> {
        self.auto_refusals
            .iter()
            .find(|(s, _)| *s == slot)
            .map(|(_, e)| e)
    }

    /// Whether the contact stage hands this contact to the sweep: a mesh
    /// contact of a continuous swept or turning body, separated (negative
    /// depth), whose closing travel `(v . n) dt` exceeds [`CONTACT_MARGIN`]
    /// (for a turning body, `v` is its contact point's velocity); a
    /// primitive pair goes through [`CcdPlan::defers_pair`].
    pub(crate) fn defers(&self, q: &ContactQuery<'_>) -> bool {
        if q.triangle.is_none() {
            return self.defers_pair(q);
        }
        let slot = q.body.index() as usize;
        let role = self.roles.get(slot);
        let swept = matches!(role, Some(Some(Role::Swept(_) | Role::Turning(_))))
            && self.is_continuous(slot);
        if !swept || !(q.depth < 0.0) {
            return false;
        }
        // A turning body's contact point moves with its spin too.
        let velocity = if matches!(role, Some(Some(Role::Turning(_)))) {
            q.rigid.point_velocity(q.point)
        } else {
            promote(q.rigid.linear_velocity())
        };
        let closing = velocity.dot(&promote(q.normal));
        closing * q.dt as f64 > CONTACT_MARGIN as f64
    }

    /// Pair routing (moving sphere pairs): a separated pair of group-able
    /// movers (centred spheres, capsules that cannot turn, kinematic
    /// spheres) of which one is a continuous dynamic body or both are
    /// continuous, whose relative closing travel `((v_A - v_B) . n) dt`
    /// exceeds [`CONTACT_MARGIN`], goes to the group sweep; slower pairs
    /// keep the speculative contact, overlaps keep the solver.
    fn defers_pair(&self, q: &ContactQuery<'_>) -> bool {
        let (a, b) = (q.body.index() as usize, q.other.index() as usize);
        let mover = |slot: usize| groupable(self.mover_role(slot));
        if !mover(a) || !mover(b) || !(q.depth < 0.0) {
            return false;
        }
        let continuous_dynamic = |slot: usize| {
            self.is_continuous(slot) && matches!(self.role(slot), Some(Role::Swept(_)))
        };
        let swept = continuous_dynamic(a)
            || continuous_dynamic(b)
            || (self.is_continuous(a) && self.is_continuous(b));
        if !swept {
            return false;
        }
        let relative =
            promote(q.rigid.linear_velocity()) - promote(q.other_rigid.linear_velocity());
        let closing = relative.dot(&promote(q.normal));
        closing * q.dt as f64 > CONTACT_MARGIN as f64
    }
}
