//! parapet-geometry: shapes, materials, mass properties, triangles, axis-aligned
//! bounds, mesh validation and the triangle bounds tree.
//!
//! Architecture invariant: geometry knows nothing of motion; it depends on
//! parapet-math only. Everything here is a value: shapes, bounds, trees built
//! from an immutable triangle snapshot.
pub mod bvh;
