//! parapet-benches: criterion benchmarks in `benches/benches/`, run by
//! `cargo bench -p parapet-benches` or `cargo xtask bench-report`.
//!
//! This library holds what the bench files share; the workloads themselves come
//! from the scene module shared with the tests and the demo
//! (`parapet_scenes::bench_ccd`). [`checks`] records what the benches verify
//! outside their timing, for the report; [`allocations`] counts the allocations
//! of the code a bench measures.

#[allow(unsafe_code)] // `GlobalAlloc` needs `unsafe impl`; see the module header.
pub mod allocations;
pub mod checks;
