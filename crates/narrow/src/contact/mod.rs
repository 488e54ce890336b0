//! Discrete contact tests: pure functions from two shapes and their poses to
//! a [`Manifold`] (up to four points, one normal from shape A to shape B,
//! depths positive for penetration and negative for a gap within the
//! speculative margin).
//!
//! Naming rule (as parry's `query` module): `contact_<a>_<b>` in
//! `<a>_<b>.rs` takes shape A first and returns the normal from A to B; the
//! reversed pair, where it exists, sits in the same file. Pair functions
//! take `f32` world values and compute in `f64` in a working frame centred on
//! shape A (docs/physics.md, "Numeric boundaries"); only the dispatcher
//! [`shapes`] converts poses and shapes.
//!
//! A contact is reported when the distance between the shapes is smaller
//! than `margin` (m): a separated pair within the margin gets points with
//! negative depth, so that the solver can build speculative contacts.
//!
//! # Pair functions
//!
//! The pair functions (`contact_sphere_sphere` and the others) take raw
//! world values (centres, core segments, radii, half extents, poses,
//! triangle vertices) and check them as the dispatchers check shapes and
//! poses: a negative or non-finite margin is
//! [`ContactError::InvalidMargin`]; a negative or NaN radius or half extent
//! [`ContactError::InvalidSize`]; a non-finite pose
//! [`ContactError::NonFinitePose`]; a coordinate (a centre, a core end, a
//! translation, a triangle vertex) or a size that is infinite, NaN or
//! beyond [`MAX_CONTACT_COORDINATE`] [`ContactError::OutsidePrecisionDomain`].
//! Each refusal names the quantity and its value. Inside that domain every
//! manifold is finite with a unit normal, down to degenerate sizes (a zero
//! radius, a flat or point-like box). A pose's rotation need not be unit:
//! it is renormalised in `f64` (a zero quaternion is the identity).
//!
//! Triangles are one-sided: the front is the side the counter-clockwise
//! normal `(b - a) x (c - a)` points to, and a shape whose centre is
//! strictly behind the triangle's plane gets no contact from it (a capsule
//! only when both segment ends are behind).

use parapet_math::nalgebra::Isometry3;
use parapet_math::{promote_quat, Mat3d, Vec3d};

pub mod active_edges;
mod capsule_capsule;
mod capsule_triangle;
mod clip;
pub(crate) mod closest;
mod cuboid_cuboid;
mod cuboid_pairs;
mod cuboid_triangle;
mod dispatch;
mod error;
mod input_checks;
mod manifold;
mod mesh_reduction;
mod placed_shape;
pub(crate) mod placed_solid;
mod prism;
mod scratch;
mod solid_solid;
mod solid_triangle;
mod sphere_capsule;
mod sphere_sphere;
mod sphere_triangle;

pub use capsule_capsule::contact_capsule_capsule;
pub use capsule_triangle::contact_capsule_triangle;
pub use cuboid_pairs::{
    contact_capsule_cuboid, contact_cuboid_capsule, contact_cuboid_cuboid, contact_cuboid_sphere,
    contact_cuboid_triangle, contact_sphere_cuboid,
};
pub use dispatch::{shape_mesh, shape_mesh_triangle, shape_triangle, shapes, MeshContact};
pub use error::ContactError;
pub use manifold::{ContactPoint, Manifold, MAX_CONTACT_POINTS};
pub use mesh_reduction::{reduce_mesh_points, MeshPoint, MAX_MESH_POINTS};
pub use placed_shape::PlacedShape;
pub use scratch::ContactScratch;
pub use sphere_capsule::{contact_capsule_sphere, contact_sphere_capsule};
pub use sphere_sphere::contact_sphere_sphere;
pub use sphere_triangle::contact_sphere_triangle;

pub(crate) use manifold::LocalManifold;

/// A rigid pose: rotation (shape frame to world) then translation (m).
pub type Pose = Isometry3<f32>;

/// The largest magnitude (m) of any coordinate (each component of a pose's
/// translation or of a triangle vertex) and of any shape's bounding radius
/// that the contact queries accept: 1,000,000 m, the triangles' limit
/// (`parapet_geometry::MAX_COORDINATE`), where an `f32` coordinate still
/// resolves 1/16 m and every `f64` product of two coordinates is exact to
/// far below a micrometre. Beyond it [`shapes`], [`shape_triangle`],
/// [`shape_mesh_triangle`], [`shape_mesh`] and [`PlacedShape::new`] refuse
/// ([`ContactError::OutsidePrecisionDomain`]) instead of answering with
/// points off both shapes or beyond `f32`.
pub const MAX_CONTACT_COORDINATE: f64 = parapet_geometry::MAX_COORDINATE;

/// The normal used when the two cores coincide and no direction is defined
/// (concentric spheres, touching segment cores): world +Z, the "up" of the
/// default gravity, so that a degenerate contact pushes B upwards.
pub(crate) const COINCIDENT_NORMAL: Vec3d = Vec3d::new(0.0, 0.0, 1.0);

/// Squared sine of the angle (dimensionless) below which two directions
/// count as parallel: 1e-12, i.e. 1 microradian. Cross products of nearly
/// parallel edges are then too short to give a trustworthy axis, and the
/// face axes already cover those configurations.
pub(crate) const PARALLEL_SIN_SQ: f64 = 1.0e-12;

/// Cosine (dimensionless) above which a closest direction counts as the
/// face normal of a triangle (1 - 1e-9: about 45 microradians), so that a
/// capsule lying on a face gets the face normal and two points even when
/// its closest pair was found on an edge.
pub(crate) const FACE_NORMAL_COS: f64 = 1.0 - 1.0e-9;

/// Absolute part (m) of the tolerance by which an axis must beat a
/// preferred one in the separating-axis tests: 1 micrometre. Face axes are
/// preferred over edge axes and A's faces over B's, so that a resting box
/// keeps a stable face manifold; the reported depth can then be off by at
/// most this tolerance. Warning: raising it trades edge accuracy for
/// manifold stability.
pub(crate) const AXIS_TOLERANCE_ABS: f64 = 1.0e-6;

/// Relative part (dimensionless, times the sum of the two shapes' bounding
/// radii) of the axis preference tolerance: 1e-6, about eight `f32` ulps of
/// the shapes' size, the rounding of their `f32` vertices.
pub(crate) const AXIS_TOLERANCE_REL: f64 = 1.0e-6;

/// Cosine (dimensionless) above which an edge-pair axis counts as the face
/// normal it nearly equals: cos 1 degree. Such an axis comes from a face
/// resting on a face (an edge of one lying in the other's face, turned by
/// a fraction of a degree): its overlap is the edge's local one, a few
/// micrometres below the face axes' (which count the whole face), so the
/// test would flicker between one edge point and the face's patch as the
/// resting depths change by rounding. The face's clipped patch is the
/// contact instead: its points lie on both surfaces and it keeps the
/// support polygon. Warning: a larger angle turns real edge contacts into
/// face ones.
pub(crate) const NEAR_FACE_AXIS_COS: f64 = 0.999_847_695_156_391_2;

/// Slack (dimensionless, a cosine) for edge axes against a one-sided
/// triangle: an overlapping axis whose normal from the shape to the
/// triangle points to the front by more than this is refused, since it
/// would push the shape behind the face. 1e-9 lets axes lying in the
/// triangle's plane through.
pub(crate) const ONE_SIDED_TOLERANCE: f64 = 1.0e-9;

/// Size (dimensionless) below which a triangle's raw normal is rounding:
/// a triangle in a working frame whose raw normal `(b - a) x (c - a)` is
/// at most this times `R L` (`R` the largest distance of a vertex from the
/// frame's origin, `L` its longest edge, m) has no front ([`front_normal`])
/// and gives no contact, as a triangle without area. 2^-35 (about
/// 2.9e-11): the frame's `f64` placing and turning of the vertices moves
/// the raw normal by up to about `12 ε R L` (`ε = 2^-53`), so a front kept
/// is resolved to within 1e-4 rad, where a collinear triangle's rounding
/// would otherwise become a front in any direction. A mesh triangle (raw
/// normal at least `L² / THIN_TRIANGLE_RATIO`) is that thin only when its
/// distance from the frame's origin exceeds 32768 times its longest edge.
pub(crate) const UNRESOLVED_FRONT: f64 = 1.0 / 34_359_738_368.0;

/// The unit front normal of the triangle `tri` (working frame), `None`
/// when its raw normal is within [`UNRESOLVED_FRONT`] of the frame's
/// rounding (a triangle without area, or collinear vertices that turning
/// gave a rounding-sized area) or a coordinate is not finite.
pub(crate) fn front_normal(tri: &[Vec3d; 3]) -> Option<Vec3d> {
    let n = crate::triangle::raw_normal(tri);
    let reach = tri.iter().map(|v| v.norm()).fold(0.0, f64::max);
    let longest = (0..3)
        .map(|k| (tri[(k + 1) % 3] - tri[k]).norm())
        .fold(0.0, f64::max);
    let len = n.norm();
    (len > UNRESOLVED_FRONT * reach * longest && len.is_finite()).then(|| n / len)
}

/// The rotation of `pose` as an `f64` matrix, renormalised in `f64`.
pub(crate) fn working_rotation(pose: &Pose) -> Mat3d {
    let q = promote_quat(pose.rotation).into_inner();
    let norm = q.norm();
    if norm > 0.0 && norm.is_finite() {
        parapet_math::Quatd::new_unchecked(q / norm)
            .to_rotation_matrix()
            .into_inner()
    } else {
        Mat3d::identity()
    }
}

/// Whether a signed gap (m; negative for overlap) is reported as a contact:
/// strictly below the margin. A NaN gap (only from non-finite input) is
/// never within it, so such input gives no contact rather than NaN points.
#[inline]
pub(crate) fn within_margin(gap: f64, margin: f64) -> bool {
    gap < margin
}
