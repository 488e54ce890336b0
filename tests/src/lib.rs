//! parapet-tests: shared helpers of the cross-crate scenario, oracle and
//! differential tests in `tests/tests/`.
//!
//! parry3d lives here and in benches/ only: an oracle and a yardstick, never a
//! runtime dependency of parapet. [`parry`] is the one place that converts
//! between parapet's nalgebra types and parry3d's glam types.

pub mod ccd_queries;
pub mod hostile;
pub mod meshes;
pub mod overlap;
pub mod parry;
pub mod property_runs;
pub mod state;
pub mod toi_oracle;
