//! parapet-benches: criterion benchmarks in `benches/benches/`, run by
//! `cargo bench -p parapet-benches` or `cargo xtask bench-report`.
//!
//! This library holds what the bench files share; the workloads themselves come
//! from the scene module shared with the tests and the demo
//! (`parapet_scenes::bench_ccd`). [`checks`] records what the benches verify
//! outside their timing, for the report; [`digest`] hashes a world's results
//! for the examples that check a refactor; [`policy`] is the per-body
//! policy's workload; [`filters`] the collision filters' and sensors'; [`toi`] is the time-of-impact workload (against
//! parry3d). The triangle-index bench counts its
//! allocations with the `allocation-counter` crate.

pub mod checks;
pub mod digest;
pub mod filters;
pub mod policy;
pub mod toi;
