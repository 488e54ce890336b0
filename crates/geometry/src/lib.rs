//! parapet-geometry: shapes, materials, mass properties, triangles, axis-aligned
//! bounds, mesh validation and the triangle bounds tree.
//!
//! Architecture invariant: geometry knows nothing of motion; it depends on
//! parapet-math only. Everything here is a value: shapes, bounds, trees built
//! from an immutable triangle snapshot.
//!
//! - [`Shape`] with its checked constructors ([`Shape::sphere`],
//!   [`Shape::capsule`], [`Shape::cuboid`], [`Shape::convex_hull`],
//!   [`Shape::mesh`]) and [`Shape::mass_properties`];
//! - [`Material`] and its mixing rule;
//! - [`MassProperties`] with the parallel-axis theorem and frame conversion;
//! - [`Triangle`], [`Aabb`] / [`Aabbd`] and the mesh precision limits of
//!   the continuous mode ([`validate_triangles`]; docs/continuous-collision.md,
//!   "Precision limits").

pub mod aabb;
pub mod convex_hull;
pub mod error;
mod incremental_hull;
pub mod mass_properties;
pub mod material;
pub mod mesh;
pub mod mesh_edges;
mod polyhedron_mass;
pub mod shape;
pub mod triangle;

pub use aabb::{Aabb, Aabbd};
pub use convex_hull::{ConvexHull, HullFace};
pub use error::ShapeError;
pub use mass_properties::{inverse_inertia, MassProperties};
pub use material::{mix_friction, Material, MaterialError};
pub use mesh::TriangleMesh;
pub use mesh_edges::{
    active_edges, concave_edges, open_edges, ActiveEdges, ACTIVE_EDGE_ANGLE, OPEN_EDGE_ANGLE,
};
#[cfg(feature = "serde")]
pub use shape::ShapeDescription;
pub use shape::{Capsule, Cuboid, Shape, Sphere, WORLD_BOUNDS_RELATIVE_MARGIN};
pub use triangle::{
    validate_triangles, Triangle, TriangleError, MAX_COORDINATE, THIN_TRIANGLE_RATIO,
};
pub mod bvh;
