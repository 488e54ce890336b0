//! parapet-world: the physics world and its step pipeline (validate, snapshot,
//! forces, discrete contacts, CCD, integrate, report), CCD grouping, ordering,
//! refusal and rollback.
//!
//! Architecture invariant: the world is the only crate that owns more than one
//! body; a failed step leaves it bit for bit as it was before the call.

pub mod ccd;
