//! parapet: rigid-body physics whose continuous collision detection never lets
//! a supported body pass through a surface, and refuses with an error (rolling
//! the step back) where it cannot promise that.
//!
//! This facade is the one dependency users need. Its modules re-export the
//! workspace crates under the names of the public API contract:
//!
//! | module | what |
//! |---|---|
//! | [`math`] | `Vec3`, `Mat3`, `Quat` (f32 storage), f64 counterparts, outward rounding, exact signs; re-exports `nalgebra` |
//! | [`shape`] | [`Shape`](shape::Shape), [`Material`](shape::Material), [`MassProperties`](shape::MassProperties), triangles and bounds |
//! | [`body`] | [`RigidBody`](body::RigidBody), [`BodyKind`](body::BodyKind), [`BodyError`](body::BodyError) |
//! | [`quantities`] | torque, energy, momentum, stiffness and SI unit constants |
//! | [`prelude`] | everything a scene needs, in one `use` |
//!
//! ```
//! use parapet::prelude::*;
//!
//! let ball = Shape::sphere(0.1)?;
//! let props = ball.mass_properties(2.0)?;
//! // A solid sphere: I = 2/5 m r^2 about every axis.
//! assert!((props.inertia[(0, 0)] - 0.4 * 2.0 * 0.01).abs() < 1e-7);
//!
//! let body = RigidBody::new_dynamic(ball, 2.0)?
//!     .with_position(Vec3::new(0.0, 0.0, 1.0))
//!     .with_linear_velocity(Vec3::new(3.0, 0.0, 0.0));
//! assert_eq!(body.kind(), BodyKind::Dynamic);
//! assert_eq!(body.inverse_mass(), 0.5);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

/// Number types, conversions, outward rounding and exact signs; re-exports nalgebra.
pub mod math {
    pub use parapet_math::*;
}

/// Shapes, materials, mass properties, triangles and bounds.
pub mod shape {
    pub use parapet_geometry::*;
}

/// Rigid bodies: motion modes, mass properties, forces and impulses.
pub mod body {
    pub use parapet_solver::body::*;
}

/// Torque, kinetic energy, momentum, stiffness and SI unit constants (seed 004, "Frames and units").
pub mod quantities {
    pub use parapet_math::quantities::*;
}

/// The names a scene needs, in one `use parapet::prelude::*;`.
pub mod prelude {
    pub use crate::body::{BodyError, BodyKind, RigidBody};
    pub use crate::math::{Mat3, Quat, Vec3};
    pub use crate::shape::{MassProperties, Material, Shape, ShapeError};
}
