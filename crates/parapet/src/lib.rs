//! parapet: rigid-body physics whose continuous collision detection never lets
//! a supported body pass through a surface, and refuses with an error (rolling
//! the step back) where it cannot promise that.
//!
//! This facade is the one dependency users need. Its modules (`math`, `shape`,
//! `body`, `collide`, `world`, `quantities`, `ccd`, `prelude`) re-export the
//! workspace crates under the names of the public API contract.

/// Number types, conversions, outward rounding and exact signs; re-exports nalgebra.
pub mod math {
    pub use parapet_math::*;
}
