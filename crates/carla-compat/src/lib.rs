//! parapet-carla-compat: the module paths of `extensions.carla.physics`
//! (`shape`, `body`, `collide`, `world`, `quantities`) as re-exports of the very
//! same parapet types: no wrappers and no second solver, so a body made through
//! either path enters the same world (docs/physics.md, "Modules"), and
//! `physics::world` exports the same collision-detection mode type and
//! constants as `parapet::ccd` (docs/continuous-collision.md, "Turning it on").
//!
//! New code should depend on the facade, `parapet`; these paths have no planned
//! removal.
//!
//! ```
//! use parapet_carla_compat::physics;
//!
//! let body = physics::body::RigidBody::new_dynamic(physics::shape::Shape::sphere(0.5)?, 1.0)?;
//! // The very same type as the facade's:
//! let same: parapet::body::RigidBody = body;
//! let mut world = parapet::world::PhysicsWorld::new();
//! world.collision_detection = physics::world::SPHERE_MESH_CCD;
//! let id: physics::body::BodyId = world.add_body(same)?;
//! assert_eq!(world.body(id).map(|b| b.mass()), Some(1.0));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

/// The CARLA physics paths `physics::{shape, body, collide, world,
/// quantities}`, each a re-export of the facade module of the same name.
pub mod physics {
    /// Shapes, materials and mass properties (same items as [`parapet::shape`]).
    pub mod shape {
        pub use parapet::shape::*;
    }
    /// Rigid bodies, body ids, forces and impulses (same items as [`parapet::body`]).
    pub mod body {
        pub use parapet::body::*;
    }
    /// Contact points and narrow-phase collision tests (same items as [`parapet::collide`]).
    pub mod collide {
        pub use parapet::collide::*;
    }
    /// The world: contact solving, integration, ray casts, and the
    /// collision-detection mode type and constants (same items as
    /// [`parapet::world`]).
    pub mod world {
        pub use parapet::world::*;
    }
    /// Torque, energy, momentum, stiffness and unit constants (same items as [`parapet::quantities`]).
    pub mod quantities {
        pub use parapet::quantities::*;
    }
}
