//! [`ContactScratch`]: the working storage of the contact tests (clipped
//! polygons, candidate points, Gauss-map arcs, a placed solid, the groups
//! of a mesh reduction), kept by a caller that runs many tests so that,
//! once it has grown to the largest test, no test allocates.
//!
//! Method: plain vectors cleared and refilled by each test; nothing in them
//! outlives a test or changes its result. Precision domain: none (storage).

use parapet_math::Vec3d;

use super::placed_solid::Placement;

/// Reusable storage for contact tests. A caller that tests many pairs or
/// triangles (a world step) keeps one and passes it to every test; the
/// one-call functions of [`crate::contact`] make a fresh one each time.
/// Its content never changes a result.
#[derive(Clone, Debug, Default)]
pub struct ContactScratch {
    /// Shape B placed in shape A's frame (a solid pair).
    pub(crate) placement: Placement,
    /// Polygons and candidate points of one test.
    pub(crate) work: Work,
}

/// The buffers one test uses.
#[derive(Clone, Debug, Default)]
pub(crate) struct Work {
    /// A polygon being clipped.
    pub(crate) polygon: Vec<Vec3d>,
    /// The clip's output (swapped with `polygon` after each plane).
    pub(crate) clipped: Vec<Vec3d>,
    /// Candidate points (midpoint, depth) before filtering.
    pub(crate) candidates: Vec<(Vec3d, f64)>,
    /// The Gauss-map arcs of solid A's edges.
    pub(crate) arcs_a: Vec<EdgeArc>,
    /// The Gauss-map arcs of solid B's edges.
    pub(crate) arcs_b: Vec<EdgeArc>,
    /// The group of each point of a mesh reduction.
    pub(crate) groups: Vec<usize>,
    /// The members of one group of a mesh reduction.
    pub(crate) members: Vec<usize>,
    /// One group's points (offset, depth) for the patch reduction.
    pub(crate) patch: Vec<(Vec3d, f64)>,
}

impl ContactScratch {
    /// Empty storage; it grows on first use.
    pub fn new() -> Self {
        Self::default()
    }
}

/// An edge of a solid with what the Minkowski-face test of
/// `solid_solid.rs` needs: its index, first endpoint and direction, its two
/// face normals `n0`, `n1` and `n1 x n0` (the arc of the edge on the Gauss
/// map).
#[derive(Clone, Copy, Debug)]
pub(crate) struct EdgeArc {
    pub(super) index: usize,
    pub(super) p: Vec3d,
    pub(super) dir: Vec3d,
    pub(super) n0: Vec3d,
    pub(super) n1: Vec3d,
    pub(super) n1_x_n0: Vec3d,
}
