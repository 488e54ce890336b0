//! parapet's developer tasks as a library, so that the tests can run them
//! without a nested `cargo` (the binary `src/main.rs` only parses arguments):
//!
//! - [`demo`]: runs the demo scenes of `parapet-scenes` in DISCRETE and in
//!   SPHERE_MESH_CCD, prints a table per scene and writes an SVG plot per
//!   scene under `target/parapet/demo/`; then stands the box stacks
//!   ([`demo_stacks`]) in both modes and prints how each held.

pub mod demo;
pub mod demo_error;
pub mod demo_stacks;
