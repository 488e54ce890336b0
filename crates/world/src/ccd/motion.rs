//! The motion types that the continuous sweeps share, apart from any sweep
//! algorithm: the static triangles a body can hit ([`MeshView`]), what a
//! sweep reports ([`SweptImpact`], [`SweptMotion`]), and the coordinate
//! check every loop uses ([`check_coordinates`]). The shape of a body that
//! moves in a straight line is a [`parapet_narrow::sweep::SweptShape`]; a
//! turning body's is `super::turning::TurningShape`.
//!
//! # Method
//! Plain data; the placement of a swept shape (a capsule's world half
//! axis included) is narrow's ([`parapet_narrow::sweep::capsule_half_axis`]).
//!
//! # Source
//! The shapes and motions of docs/continuous-collision.md, "Supported
//! worlds" and "How a step works".
//!
//! # Precision domain
//! [`check_coordinates`] enforces the coordinate limits of the sweeps
//! ([`MAX_COORDINATE`] m and [`MAX_COORDINATE_RADII`] radii per axis).

use parapet_geometry::bvh::TriangleBoundsTree;
use parapet_geometry::{ActiveEdges, Material};
use parapet_math::{Quat, Vec3, Vec3d};
use parapet_narrow::sweep::{MAX_COORDINATE, MAX_COORDINATE_RADII};

use super::error::CcdError;

/// The static triangles a body can hit: the world's snapshot, its bounds
/// tree, the material of each triangle's owner (`None` when the owner's
/// collisions are off: its triangles stay in the snapshot but collide with
/// nothing), and each triangle's active edges (seams of a mesh built with
/// `Shape::mesh_with_active_edges` admit impacts as face contacts,
/// [`parapet_narrow::contact::active_edges::admit_impact`]).
pub(crate) struct MeshView<'a> {
    /// The snapshot, world space, insertion order.
    pub(crate) triangles: &'a [[Vec3; 3]],
    /// The bounds tree of the snapshot.
    pub(crate) tree: &'a TriangleBoundsTree,
    /// The owner's material of triangle `i`, `None` when it does not collide.
    pub(crate) material: &'a (dyn Fn(usize) -> Option<Material> + Sync),
    /// The active edges of triangle `i` ([`ActiveEdges::ALL`] for a mesh
    /// without adjacency).
    pub(crate) edges: &'a (dyn Fn(usize) -> ActiveEdges + Sync),
}

/// One swept impact.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct SweptImpact {
    /// The moving body's index.
    pub(crate) body: usize,
    /// The triangle's snapshot index.
    pub(crate) triangle: usize,
    /// Fraction of the step in `[0, 1]`.
    pub(crate) time: f64,
    /// Contact point on the triangle (world, m).
    pub(crate) point: Vec3d,
    /// Unit normal from the triangle towards the body.
    pub(crate) normal: Vec3d,
    /// Impulse applied to the moving body (N s, world).
    pub(crate) impulse: Vec3d,
}

/// The pose and velocities a body ends the step with after its impacts.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct SweptMotion {
    /// Body origin (m).
    pub(crate) position: Vec3,
    /// Body rotation.
    pub(crate) rotation: Quat,
    /// Linear velocity (m/s).
    pub(crate) linear_velocity: Vec3,
    /// Angular velocity (rad/s).
    pub(crate) angular_velocity: Vec3,
}

/// Checks that every coordinate of `p` is within [`MAX_COORDINATE`] m and
/// within [`MAX_COORDINATE_RADII`] radii.
///
/// # Errors
/// [`CcdError::Precision`] naming the coordinate.
pub(crate) fn check_coordinates(index: usize, p: &Vec3d, radius: f64) -> Result<(), CcdError> {
    for &x in p.iter() {
        if !(x.abs() <= MAX_COORDINATE) {
            return Err(CcdError::Precision {
                body: index,
                quantity: "position coordinate (m)",
                value: x,
                limit: MAX_COORDINATE,
            });
        }
        let ratio = x.abs() / radius;
        if !(ratio <= MAX_COORDINATE_RADII) {
            return Err(CcdError::Precision {
                body: index,
                quantity: "position coordinate (radii)",
                value: ratio,
                limit: MAX_COORDINATE_RADII,
            });
        }
    }
    Ok(())
}
