//! `parapet check`: the dry run of a scene's first step. Every body the
//! continuous stage would refuse ([`PhysicsWorld::check_ccd_for`]), named
//! as the scene names it, with the reason, the value and the limit; the
//! world is not stepped and nothing is written.
//!
//! The dry run agrees with the step: a scene it passes is not refused at
//! its first step for a support or domain reason, and each body it lists
//! makes that step fail with that body in the error (see
//! docs/continuous-collision.md, "Choosing per body", for the fixes).

use parapet::prelude::{BodyId, CcdRefusal, PhysicsWorld};

use crate::scene::LoadedScene;

/// One body the first step would refuse.
#[derive(Debug, Clone, PartialEq)]
pub struct Refused {
    /// The refused body's name in the scene.
    pub name: String,
    /// The other body the refusal names (the one it can reach, or the other
    /// side of a pair), by its name in the scene, if any.
    pub other: Option<String>,
    /// What the step would say of it.
    pub refusal: CcdRefusal,
}

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "body '{}'", self.name)?;
        if let Some(other) = &self.other {
            write!(f, " (with '{other}')")?;
        }
        write!(f, ": {}", self.refusal)
    }
}

/// The name of `id` in `loaded`, or its id when the scene does not hold it.
fn name_of(loaded: &LoadedScene, id: BodyId) -> String {
    loaded
        .ids
        .iter()
        .position(|&i| i == id)
        .map_or_else(|| format!("{id:?}"), |i| loaded.names[i].clone())
}

/// What the first step of `dt` seconds of `loaded.world` would refuse, in
/// insertion order; empty when it would refuse nothing. Changes nothing.
pub fn check_scene(loaded: &LoadedScene, dt: f32) -> Vec<Refused> {
    let world: &PhysicsWorld = &loaded.world;
    world
        .check_ccd_for(dt)
        .into_iter()
        .map(|refusal| Refused {
            name: name_of(loaded, refusal.body),
            other: refusal.other.map(|o| name_of(loaded, o)),
            refusal,
        })
        .collect()
}
