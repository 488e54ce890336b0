//! The dry run ([`PhysicsWorld::check_ccd`]): what the next step's
//! continuous stage would refuse, every refused body listed, the world
//! unchanged.
//!
//! # Method
//! The step's own stages run on a copy of the world (bodies, caches and
//! index; the copy is dropped); the continuous stage runs every island and
//! keeps every refusal ([`super::ccd::run`]). The step reports the refusal of the
//! first body in insertion order of this same list, so the two agree by
//! construction: the step fails, naming the first listed body, exactly when
//! the list is not empty. A world whose step fails before the continuous
//! stage for another reason (an invalid body or configuration, a contact
//! the narrow phase refuses) lists the refusals found up to there.
//!
//! # Source
//! docs/continuous-collision.md, "Choosing per body" (the dry run).
//!
//! # Precision domain
//! The step's.

use super::{validate, Failure};
use crate::ccd::error::CcdError;
use crate::ccd::CcdRefusal;
use crate::error::BodyNames;
use crate::{PhysicsWorld, StepError};

/// A refusal of the continuous stage: the slot of the body it names, the
/// other body's slot, and the world's error.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Refusal {
    /// The named body's slot.
    pub slot: usize,
    /// The other body's slot, if the refusal names one.
    pub other: Option<usize>,
    /// The world's error.
    pub error: StepError,
}

/// The world's refusal for an engine error, naming bodies by slot.
pub(crate) fn refusal_of(e: CcdError, world: &PhysicsWorld) -> Refusal {
    Refusal {
        slot: e.body(),
        other: e.other(),
        error: StepError::from_ccd(e, world),
    }
}

/// Every slot's position in the insertion order (`usize::MAX` for a free
/// slot).
pub(crate) fn positions(world: &PhysicsWorld) -> Vec<usize> {
    let mut at = vec![usize::MAX; world.slots.len()];
    for (i, &s) in world.order.iter().enumerate() {
        at[s as usize] = i;
    }
    at
}

/// The step length (s) the dry run assumes before a world's first
/// successful step: 1/60 s, the usual frame. After a step it assumes that
/// step's length.
pub const CHECK_CCD_DEFAULT_DT: f32 = 1.0 / 60.0;

impl PhysicsWorld {
    /// What the next step would refuse: every body the continuous stage
    /// would refuse, in insertion order, each with the step's error for it
    /// (the reason, the value and the limit). The next step fails exactly
    /// when the list is not empty, naming its first body; a body to
    /// `Discrete`, a smaller step or a larger limit clears a refusal (see
    /// docs/continuous-collision.md, "Choosing per body"). Assumes the last
    /// successful step's length ([`CHECK_CCD_DEFAULT_DT`] before the first;
    /// [`PhysicsWorld::check_ccd_for`] takes one). Changes nothing, bit for
    /// bit: it runs the step on a copy.
    ///
    /// ```
    /// use parapet_geometry::{Material, Shape};
    /// use parapet_math::Vec3;
    /// use parapet_solver::{CcdMode, RigidBody};
    /// use parapet_world::{PhysicsWorld, StepError};
    ///
    /// let mut world = PhysicsWorld::new(); // DISCRETE
    /// world.gravity = Vec3::zeros();
    /// world.ccd_max_impacts = 1;
    /// // An elastic bullet between two posts, marked Continuous: it would
    /// // bounce off both within the next step, one impact too many.
    /// let bouncy = Material::new(0.0, 1.0, 0.0)?;
    /// for x in [-0.35, 0.35] {
    ///     let post = RigidBody::new_static(Shape::cuboid(Vec3::new(0.1, 1.0, 1.0))?)
    ///         .with_position(Vec3::new(x, 0.0, 0.0))
    ///         .with_material(bouncy);
    ///     world.add_body(post)?;
    /// }
    /// let bullet = RigidBody::new_dynamic(Shape::sphere(0.1)?, 0.01)?
    ///     .with_material(bouncy)
    ///     .with_linear_velocity(Vec3::new(36.0, 0.0, 0.0))
    ///     .with_ccd(CcdMode::Continuous);
    /// let bullet = world.add_body(bullet)?;
    /// let refusals = world.check_ccd();
    /// assert_eq!(refusals.len(), 1);
    /// assert_eq!(refusals[0].body, bullet);
    /// assert!(matches!(world.step(1.0 / 60.0), Err(StepError::ImpactLimit { .. })));
    /// // The recipe: a larger limit (or a smaller step).
    /// world.ccd_max_impacts = 2;
    /// assert!(world.check_ccd().is_empty());
    /// world.step(1.0 / 60.0)?;
    /// assert_eq!(world.ccd_stats(bullet).map(|s| s.mode), Some(CcdMode::Continuous));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn check_ccd(&self) -> Vec<CcdRefusal> {
        self.check_ccd_for(self.last_dt.unwrap_or(CHECK_CCD_DEFAULT_DT))
    }

    /// [`PhysicsWorld::check_ccd`] for a next step of `dt` seconds (empty
    /// when the step would refuse `dt`, the configuration or a body before
    /// its continuous stage: those errors are the step's own).
    pub fn check_ccd_for(&self, dt: f32) -> Vec<CcdRefusal> {
        if validate::config(self, dt).is_err() || validate::bodies(self).is_err() {
            return Vec::new();
        }
        let mut copy = self.clone();
        let snapshot = super::snapshot::Snapshot::take(&copy);
        validate::live_meshes(&mut copy);
        match copy.run_stages_or_cold(dt, &snapshot) {
            Ok(_) | Err(Failure::Stage(_)) => Vec::new(),
            Err(Failure::Refused(list)) => list
                .into_iter()
                .map(|r| CcdRefusal {
                    body: self.slot_id(r.slot),
                    other: r.other.map(|o| self.slot_id(o)),
                    error: r.error,
                })
                .collect(),
        }
    }
}
