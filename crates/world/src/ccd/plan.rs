//! The continuous mode's plan of one step ([`CcdPlan`]): every body's role
//! by the support rules ([`super::support`]) with the precision limits of
//! the moving bodies, each swept body's kinetic energy after the force
//! update, and the routing of the contact stage's contacts (which ones the
//! sweeps take instead of the impulse solve).
//!
//! # Method
//! Classification runs at step entry, before the forces consume the pending
//! torques that the support rules read, in insertion order, so the first
//! refused body is the one reported. A separated (negative-depth) mesh
//! contact of a swept or turning body whose closing travel `(v · n) dt`
//! exceeds the contact margin goes to the sweep (no early bounce); so does
//! a separated pair of groupable bodies (centred spheres, capsules that
//! cannot turn, kinematic spheres) whose relative closing travel exceeds
//! it. Slower contacts keep the speculative path, overlaps the solver and
//! its split correction.
//!
//! # Source
//! docs/continuous-collision.md, "Supported worlds", "What it refuses, and
//! why", "How a step works" and "Moving groups" (pair routing).
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
use parapet_solver::RigidBody;

use super::error::CcdError;
use super::motion::TurningShape;
use super::reach;
use super::support::{classify_cached, ClassifyCache, Role};
use crate::contact_query::ContactQuery;

/// The continuous mode's plan for one step.
#[derive(Debug, Clone)]
pub(crate) struct CcdPlan {
    /// Per slot: the body's role (`None` for free slots).
    roles: Vec<Option<Role>>,
    /// Per slot: the kinetic energy after the force update (J), swept bodies.
    energy: Vec<f64>,
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

/// Every body's role into `roles` (sized for `slots` body slots, `None`
/// for free slots), in the order of `bodies` (slot, body; insertion order),
/// with the position and radius limits of the moving bodies.
fn classify_all<'a>(
    slots: usize,
    bodies: impl Iterator<Item = (usize, &'a RigidBody)>,
    cache: &mut ClassifyCache,
    roles: &mut Vec<Option<Role>>,
) -> Result<(), CcdError> {
    roles.clear();
    roles.resize(slots, None);
    cache.reserve_slots(slots);
    for (slot, body) in bodies {
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
            | Role::Turning(TurningShape { radius, .. }) => check_radius(slot, *radius)?,
            _ => {}
        }
        roles[slot] = Some(role);
    }
    Ok(())
}

impl CcdPlan {
    /// The plan of a step: every body of `bodies` (slot, body; insertion
    /// order) classified in `slots` body slots, the solids and factorable
    /// tensors taken from `cache`; `roles` and `energy` are the last plan's
    /// lists ([`CcdPlan::into_lists`]), whose storage is reused.
    ///
    /// # Errors
    /// [`CcdError::Unsupported`] or [`CcdError::Precision`] for the first
    /// refused body in the order of `bodies`.
    pub(crate) fn classify<'a>(
        slots: usize,
        bodies: impl Iterator<Item = (usize, &'a RigidBody)>,
        cache: &mut ClassifyCache,
        mut roles: Vec<Option<Role>>,
        mut energy: Vec<f64>,
    ) -> Result<CcdPlan, CcdError> {
        classify_all(slots, bodies, cache, &mut roles)?;
        energy.clear();
        energy.resize(roles.len(), 0.0);
        Ok(CcdPlan { roles, energy })
    }

    /// The plan's lists, for the next step's plan to reuse (only their
    /// capacity: [`CcdPlan::classify`] refills both). No role (nor a solid
    /// it shares) outlives its step.
    pub(crate) fn into_lists(mut self) -> (Vec<Option<Role>>, Vec<f64>) {
        self.roles.clear();
        (self.roles, self.energy)
    }

    /// The role of the body in `slot` (`None` for a free slot).
    pub(crate) fn role(&self, slot: usize) -> Option<&Role> {
        self.roles.get(slot).and_then(|r| r.as_ref())
    }

    /// The kinetic energy (J) of the swept or turning body in `slot` after
    /// the force update (0 for other bodies).
    pub(crate) fn energy(&self, slot: usize) -> f64 {
        self.energy[slot]
    }

    /// Records the swept and turning bodies' energies after the force
    /// update (`bodies`: slot and body).
    pub(crate) fn after_forces<'a>(
        mut self,
        bodies: impl Iterator<Item = (usize, &'a RigidBody)>,
    ) -> CcdPlan {
        for (slot, body) in bodies {
            if matches!(
                self.roles.get(slot),
                Some(Some(Role::Swept(_) | Role::Turning(_)))
            ) {
                self.energy[slot] = reach::bound_energy(body);
            }
        }
        self
    }

    /// Whether the contact stage hands this contact to the sweep: a mesh
    /// contact of a swept or turning body, separated (negative depth), whose
    /// closing travel `(v . n) dt` exceeds [`CONTACT_MARGIN`] (for a turning
    /// body, `v` is its contact point's velocity); a primitive pair goes
    /// through [`CcdPlan::defers_pair`].
    pub(crate) fn defers(&self, q: &ContactQuery<'_>) -> bool {
        if q.triangle.is_none() {
            return self.defers_pair(q);
        }
        let role = self.roles.get(q.body.index() as usize);
        let swept = matches!(role, Some(Some(Role::Swept(_) | Role::Turning(_))));
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
    /// bodies (centred spheres, capsules that cannot turn, kinematic
    /// spheres) whose relative closing travel `((v_A - v_B) . n) dt`
    /// exceeds [`CONTACT_MARGIN`] goes to the group sweep; slower pairs keep
    /// the speculative contact, overlaps keep the solver.
    fn defers_pair(&self, q: &ContactQuery<'_>) -> bool {
        let groupable = |slot: usize| {
            matches!(
                self.roles.get(slot),
                Some(Some(
                    Role::KinematicSphere { .. }
                        | Role::Swept(SweptShape::Sphere { .. })
                        | Role::Swept(SweptShape::Capsule { .. })
                ))
            )
        };
        if !groupable(q.body.index() as usize)
            || !groupable(q.other.index() as usize)
            || !(q.depth < 0.0)
        {
            return false;
        }
        let relative =
            promote(q.rigid.linear_velocity()) - promote(q.other_rigid.linear_velocity());
        let closing = relative.dot(&promote(q.normal));
        closing * q.dt as f64 > CONTACT_MARGIN as f64
    }
}
