//! parapet-carla-compat: the module paths of `extensions.carla.physics`
//! (`shape`, `body`, `collide`, `world`, `quantities`) as re-exports of the very
//! same parapet types: no wrappers and no second solver, so a body made through
//! either path enters the same world.
//!
//! The modules are filled as the types land in the facade.
