//! The contact dispatcher: one entry point from two [`Shape`]s and their
//! poses to a [`Manifold`], choosing the pair function.
//!
//! Working frame: every pair is computed in `f64` in a frame near its
//! shapes (docs/physics.md, "Numeric boundaries"): a box or hull's own
//! frame, or for two round shapes a frame with the world's axes centred on
//! shape A ([`PlacedShape`]); the poses are converted there, once, and the
//! pair functions see only that frame.

use parapet_geometry::{ActiveEdges, Shape, TriangleMesh};
use parapet_math::Vec3;

use super::input_checks::{check_coordinates, check_margin, check_pose, check_size};
use super::placed_shape::PlacedShape;
use super::scratch::ContactScratch;
use super::{ContactError, Manifold, Pose};

fn check_inputs(pose_a: &Pose, pose_b: Option<&Pose>, margin: f32) -> Result<(), ContactError> {
    check_margin(margin)?;
    check_pose("A", pose_a)?;
    if let Some(pose) = pose_b {
        check_pose("B", pose)?;
    }
    Ok(())
}

/// The precision domain of a shape at a pose (its translation and size).
fn check_placed(
    shape: &Shape,
    pose: &Pose,
    which: (&'static str, &'static str),
) -> Result<(), ContactError> {
    check_coordinates(which.0, &pose.translation.vector)?;
    if shape.is_solid() {
        check_size(which.1, shape)?;
    }
    Ok(())
}

/// Contact of solid shape A at `pose_a` with solid shape B at `pose_b`,
/// reported when their distance is below `margin` (m). The normal runs from
/// A to B; see [`Manifold`] for points and depths.
///
/// Dispatch, in this order:
/// 1. Inputs: a negative or non-finite margin, or a non-finite pose, is
///    refused ([`ContactError::InvalidMargin`], [`ContactError::NonFinitePose`]).
/// 2. A triangle mesh on either side: [`ContactError::Unsupported`]. Mesh
///    contacts are per triangle, one manifold each: use [`shape_mesh`] (all
///    triangles) or [`shape_triangle`] (candidates from a triangle index).
///    Mesh against mesh has no test at all (meshes are not solids).
/// 3. Sphere-sphere, sphere-capsule, capsule-capsule: closest points of the
///    cores (`sphere_sphere.rs`, `sphere_capsule.rs`, `capsule_capsule.rs`).
/// 4. Sphere or capsule against a cuboid or hull: closest feature, or the
///    separating-axis test once the core enters (`solid_solid.rs`), in the
///    solid's frame.
/// 5. Cuboid or hull against cuboid or hull: the separating-axis test with
///    face clipping (`solid_solid.rs`), in A's frame.
///
/// Reversed pairs call the same function with the roles swapped and flip
/// the normal. [`PlacedShape::pair`] gives the same answer for shapes
/// placed once for many tests.
///
/// # Errors
/// As listed in steps 1 and 2, and [`ContactError::OutsidePrecisionDomain`]
/// for a translation or a shape's bounding radius beyond
/// [`super::MAX_CONTACT_COORDINATE`].
pub fn shapes(
    shape_a: &Shape,
    pose_a: &Pose,
    shape_b: &Shape,
    pose_b: &Pose,
    margin: f32,
) -> Result<Manifold, ContactError> {
    check_inputs(pose_a, Some(pose_b), margin)?;
    let unsupported = |hint| ContactError::Unsupported {
        shape_a: shape_a.kind_name(),
        shape_b: shape_b.kind_name(),
        hint,
    };
    let hint = if shape_a.is_solid() || shape_b.is_solid() {
        "a mesh contact has one manifold per triangle: use contact::shape_mesh or contact::shape_triangle"
    } else {
        "meshes are not solids and have no contact with each other"
    };
    let a = PlacedShape::place(shape_a, pose_a).ok_or_else(|| unsupported(hint))?;
    let b = PlacedShape::place(shape_b, pose_b).ok_or_else(|| unsupported(hint))?;
    check_placed(
        shape_a,
        pose_a,
        ("translation of A", "bounding radius of A"),
    )?;
    check_placed(
        shape_b,
        pose_b,
        ("translation of B", "bounding radius of B"),
    )?;
    Ok(a.pair(&b, margin, &mut ContactScratch::new()))
}

/// Contact of solid shape A at `pose_a` with one static, one-sided
/// triangle B (world vertices, counter-clockwise from the front). The
/// normal runs from A to the triangle. A shape whose centre is strictly
/// behind the triangle's plane gets no contact (a capsule: both segment
/// ends behind).
///
/// # Errors
/// [`ContactError::InvalidMargin`], [`ContactError::NonFinitePose`],
/// [`ContactError::Unsupported`] when A is a mesh, and
/// [`ContactError::OutsidePrecisionDomain`] for a translation, a vertex or
/// A's bounding radius beyond [`super::MAX_CONTACT_COORDINATE`].
pub fn shape_triangle(
    shape_a: &Shape,
    pose_a: &Pose,
    triangle_b: &[Vec3; 3],
    margin: f32,
) -> Result<Manifold, ContactError> {
    // A lone triangle: every edge is a feature, and admission keeps the
    // manifold as the pair test found it.
    shape_mesh_triangle(shape_a, pose_a, triangle_b, ActiveEdges::ALL, margin)
}

/// The placed shape A of a triangle test, or the refusal of a mesh.
fn placed_for_triangles(
    shape_a: &Shape,
    pose_a: &Pose,
    shape_b: &'static str,
) -> Result<PlacedShape, ContactError> {
    PlacedShape::place(shape_a, pose_a).ok_or(ContactError::Unsupported {
        shape_a: shape_a.kind_name(),
        shape_b,
        hint: "meshes are not solids and have no contact with triangles",
    })
}

/// Contact of solid shape A at `pose_a` with triangle B of a mesh (world
/// vertices, counter-clockwise from the front) whose active edges are
/// `edges_b` ([`TriangleMesh::active_edges`]): as [`shape_triangle`], except
/// that a contact touching only inactive edges (seams of the tessellation,
/// for a mesh built with [`TriangleMesh::with_active_edges`]) takes the
/// face normal ([`super::active_edges`]), so that solids slide
/// over the seams of a flat or gently curved mesh. With
/// [`ActiveEdges::ALL`] it equals [`shape_triangle`]. [`PlacedShape::triangle`]
/// gives the same answer for a shape placed once for many triangles.
///
/// # Errors
/// As [`shape_triangle`].
pub fn shape_mesh_triangle(
    shape_a: &Shape,
    pose_a: &Pose,
    triangle_b: &[Vec3; 3],
    edges_b: ActiveEdges,
    margin: f32,
) -> Result<Manifold, ContactError> {
    check_inputs(pose_a, None, margin)?;
    let a = placed_for_triangles(shape_a, pose_a, "triangle")?;
    check_placed(
        shape_a,
        pose_a,
        ("translation of A", "bounding radius of A"),
    )?;
    for v in triangle_b {
        check_coordinates("triangle vertex", v)?;
    }
    Ok(a.triangle(triangle_b, edges_b, margin, &mut ContactScratch::new()))
}

/// One triangle's contact in [`shape_mesh`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MeshContact {
    /// The triangle's index in the mesh (insertion order).
    pub triangle: usize,
    /// The contact of the solid shape (A) with that triangle.
    pub manifold: Manifold,
}

/// Contacts of solid shape A at `pose_a` with every triangle of `mesh_b` at
/// `pose_b`, in triangle order, one manifold per touching triangle (each
/// one-sided, and with the inactive edges of a mesh that has them taking
/// the face normal, as [`shape_mesh_triangle`]). This tests every triangle: a world
/// with a triangle index should call [`PlacedShape::triangle`] on its
/// candidates (and may reduce a body's points with [`super::reduce_mesh_points`]).
/// The mesh vertices are placed in `f64`, not rounded to `f32` world
/// coordinates first.
///
/// # Errors
/// As [`shape_triangle`] (the mesh's translation and vertices too).
pub fn shape_mesh(
    shape_a: &Shape,
    pose_a: &Pose,
    mesh_b: &TriangleMesh,
    pose_b: &Pose,
    margin: f32,
) -> Result<Vec<MeshContact>, ContactError> {
    check_inputs(pose_a, Some(pose_b), margin)?;
    let a = placed_for_triangles(shape_a, pose_a, "triangle mesh")?;
    check_placed(
        shape_a,
        pose_a,
        ("translation of A", "bounding radius of A"),
    )?;
    check_coordinates("translation of B", &pose_b.translation.vector)?;
    for v in mesh_b.vertices() {
        check_coordinates("mesh vertex", v)?;
    }
    let rotation = super::working_rotation(pose_b);
    let translation = parapet_math::promote(pose_b.translation.vector);
    let placed: Vec<parapet_math::Vec3d> = mesh_b
        .vertices()
        .iter()
        .map(|v| rotation * parapet_math::promote(*v) + translation)
        .collect();
    let mut scratch = ContactScratch::new();
    let mut out = Vec::new();
    for (index, idx) in mesh_b.indices().iter().enumerate() {
        let tri = idx.map(|i| placed[i as usize]);
        let edges = mesh_b.triangle_edges(index);
        let m = a.triangle_f64(&tri, edges, margin, &mut scratch);
        if !m.is_empty() {
            out.push(MeshContact {
                triangle: index,
                manifold: m,
            });
        }
    }
    Ok(out)
}
