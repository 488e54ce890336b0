//! Running a scene: its world stepped `steps` times by `dt`, the state of
//! every body observed before the first step (step 0) and after each
//! successful step, with that step's events (drained: the command is the
//! one consumer of a step's events, so a world it saves records them as
//! handed over). A refused step ends the run: the world is as it was
//! before that step (the step's own contract), and the outcome says which
//! step and why.

use parapet::prelude::*;

use crate::scene::LoadedScene;

/// The observed state of one body: what a trajectory row holds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BodyState {
    /// The body origin (m, world).
    pub position: Vec3,
    /// Body to world.
    pub rotation: Quat,
    /// Velocity of the mass centre (m/s, world).
    pub linear_velocity: Vec3,
    /// Angular velocity about the mass centre (rad/s, world).
    pub angular_velocity: Vec3,
    /// Whether the body is asleep (`RigidBody::is_sleeping`).
    pub sleeping: bool,
}

impl BodyState {
    /// The state of `body`.
    pub fn of(body: &RigidBody) -> Self {
        BodyState {
            position: body.position(),
            rotation: body.rotation(),
            linear_velocity: body.linear_velocity(),
            angular_velocity: body.angular_velocity(),
            sleeping: body.is_sleeping(),
        }
    }
}

/// Overrides of a scene's own settings (the command's `--steps`, `--dt`,
/// `--mode`).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct RunSettings {
    /// Steps to take instead of the scene's `steps`.
    pub steps: Option<u64>,
    /// Step (s) instead of the scene's `dt`; finite and positive.
    pub dt: Option<f32>,
    /// Collision-detection mode instead of the scene's.
    pub mode: Option<CollisionDetection>,
}

/// How a run ended.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// Every step succeeded.
    Completed {
        /// Steps taken.
        steps: u64,
    },
    /// A step was refused; the run stopped there.
    StepFailed {
        /// Steps that succeeded before it (the refused step is number `steps + 1`).
        steps: u64,
        /// The refusal.
        error: StepError,
    },
}

impl Outcome {
    /// Steps that succeeded.
    pub fn steps(&self) -> u64 {
        match self {
            Outcome::Completed { steps } | Outcome::StepFailed { steps, .. } => *steps,
        }
    }
}

/// The step (s) and step count of `loaded` under `settings`, with the mode
/// applied to its world.
///
/// # Errors
/// A `--dt` that is not finite and positive, as a message.
pub fn apply_settings(
    loaded: &mut LoadedScene,
    settings: &RunSettings,
) -> Result<(f32, u64), String> {
    if let Some(mode) = settings.mode {
        loaded.world.collision_detection = mode;
    }
    let dt = settings.dt.unwrap_or(loaded.scene.dt);
    if !(dt.is_finite() && dt > 0.0) {
        return Err(format!("--dt {dt} must be finite and greater than 0 (s)"));
    }
    Ok((dt, settings.steps.unwrap_or(loaded.scene.steps)))
}

/// The time (s) of step `step`: `step * dt` in `f64`, rounded to `f32` like
/// the states it labels.
pub fn step_time(step: u64, dt: f32) -> f32 {
    (step as f64 * f64::from(dt)) as f32
}

/// Steps `loaded.world` `steps` times by `dt`, calling `observe(step,
/// states, events)` for step 0 (no events) and after each successful step,
/// with the states of `loaded.ids` in order and the step's contact and
/// sensor events in the world's order ([`PhysicsWorld::drain_events`]).
///
/// # Errors
/// The first error of `observe` (writing a trajectory, say); the world is
/// then left after the last observed step.
pub fn run_scene<E>(
    loaded: &mut LoadedScene,
    dt: f32,
    steps: u64,
    mut observe: impl FnMut(u64, &[BodyState], &[WorldEvent]) -> Result<(), E>,
) -> Result<Outcome, E> {
    let mut states = Vec::with_capacity(loaded.ids.len());
    let mut record = |step: u64, world: &mut PhysicsWorld, states: &mut Vec<BodyState>| {
        states.clear();
        states.extend(
            loaded
                .ids
                .iter()
                .filter_map(|&id| world.body(id).map(BodyState::of)),
        );
        let events = if step == 0 {
            Vec::new()
        } else {
            world.drain_events()
        };
        observe(step, states, &events)
    };
    record(0, &mut loaded.world, &mut states)?;
    for step in 1..=steps {
        if let Err(error) = loaded.world.step(dt) {
            return Ok(Outcome::StepFailed {
                steps: step - 1,
                error,
            });
        }
        record(step, &mut loaded.world, &mut states)?;
    }
    Ok(Outcome::Completed { steps })
}
