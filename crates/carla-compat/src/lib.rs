//! parapet-carla-compat: the module paths of `extensions.carla.physics`
//! (`shape`, `body`, `collide`, `world`, `quantities`) as re-exports of the very
//! same parapet types: no wrappers and no second solver, so a body made through
//! either path enters the same world.
//!
//! ```
//! use parapet_carla_compat::physics;
//!
//! let body = physics::body::RigidBody::new_dynamic(physics::shape::Shape::sphere(0.5)?, 1.0)?;
//! // The very same type as the facade's:
//! let same: parapet::body::RigidBody = body;
//! assert_eq!(same.mass(), 1.0);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

/// The CARLA physics paths: `physics::{shape, body, quantities}` (and, as they
/// land, `collide` and `world`), each a re-export of the facade module.
pub mod physics {
    /// Shapes, materials and mass properties (same types as [`parapet::shape`]).
    pub mod shape {
        pub use parapet::shape::*;
    }
    /// Rigid bodies (same types as [`parapet::body`]).
    pub mod body {
        pub use parapet::body::*;
    }
    /// Torque, energy, momentum, stiffness and unit constants (same items as [`parapet::quantities`]).
    pub mod quantities {
        pub use parapet::quantities::*;
    }
}
