//! The contact dispatcher: one entry point from two [`Shape`]s and their
//! poses to a [`Manifold`], choosing the pair function.
//!
//! Working frame: every pair is computed in `f64` relative to shape A's
//! position (docs/physics.md, "Numeric boundaries"); the poses are
//! converted here, once, and the pair functions see only that frame.

use parapet_geometry::{ActiveEdges, Shape, TriangleMesh};
use parapet_math::{promote, Vec3, Vec3d};

use super::active_edges::admit;
use super::capsule_capsule::capsule_capsule;
use super::capsule_triangle::capsule_triangle;
use super::placed_solid::PlacedSolid;
use super::solid_solid::{capsule_solid, solid_solid, sphere_solid};
use super::solid_triangle::solid_triangle;
use super::sphere_capsule::sphere_capsule;
use super::sphere_sphere::sphere_sphere;
use super::sphere_triangle::sphere_triangle;
use super::{working_rotation, ContactError, LocalManifold, Manifold, Pose};
use crate::solid::ConvexSolid;
use crate::triangle::relative_triangle;

/// A solid shape placed in the working frame.
enum Placed<'a> {
    Sphere(Vec3d, f64),
    Capsule([Vec3d; 2], f64),
    Solid(PlacedSolid<'a>),
}

/// The [`ConvexSolid`] of a box or hull shape, `None` for any other shape.
fn solid_of(shape: &Shape) -> Option<ConvexSolid> {
    match shape {
        Shape::Cuboid(c) => Some(ConvexSolid::cuboid(promote(c.half_extents()))),
        Shape::ConvexHull(h) => Some(ConvexSolid::from_hull(h)),
        _ => None,
    }
}

/// Places a solid shape at `pose`, relative to `origin` (a box or hull as
/// `solid`, its [`solid_of`]); `None` for a mesh.
fn place<'a>(
    shape: &Shape,
    pose: &Pose,
    origin: Vec3d,
    solid: Option<&'a ConvexSolid>,
) -> Option<Placed<'a>> {
    let rotation = working_rotation(pose);
    let center = promote(pose.translation.vector) - origin;
    Some(match shape {
        Shape::Sphere(s) => Placed::Sphere(center, s.radius() as f64),
        Shape::Capsule(c) => {
            let axis = rotation * Vec3d::new(0.0, 0.0, c.half_height() as f64);
            Placed::Capsule([center - axis, center + axis], c.radius() as f64)
        }
        Shape::Cuboid(_) | Shape::ConvexHull(_) => {
            Placed::Solid(PlacedSolid::new(solid?, &rotation, center))
        }
        Shape::Mesh(_) => return None,
        #[allow(unreachable_patterns)]
        _ => return None,
    })
}

fn check_inputs(pose_a: &Pose, pose_b: Option<&Pose>, margin: f32) -> Result<(), ContactError> {
    if !(margin.is_finite() && margin >= 0.0) {
        return Err(ContactError::InvalidMargin { margin });
    }
    for (which, pose) in [("A", Some(pose_a)), ("B", pose_b)] {
        let Some(pose) = pose else { continue };
        let t = pose.translation.vector;
        let q = pose.rotation.into_inner();
        let finite = t.iter().chain(q.coords.iter()).all(|x| x.is_finite());
        if !finite {
            return Err(ContactError::NonFinitePose {
                which,
                translation: t,
                rotation: [q.i, q.j, q.k, q.w],
            });
        }
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
///    separating-axis test once the core enters (`solid_solid.rs`).
/// 5. Cuboid or hull against cuboid or hull: the separating-axis test with
///    face clipping (`solid_solid.rs`).
///
/// Reversed pairs call the same function with the roles swapped and flip
/// the normal.
///
/// # Errors
/// As listed in steps 1 and 2.
pub fn shapes(
    shape_a: &Shape,
    pose_a: &Pose,
    shape_b: &Shape,
    pose_b: &Pose,
    margin: f32,
) -> Result<Manifold, ContactError> {
    check_inputs(pose_a, Some(pose_b), margin)?;
    let origin = promote(pose_a.translation.vector);
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
    let (solid_a, solid_b) = (solid_of(shape_a), solid_of(shape_b));
    let a = place(shape_a, pose_a, origin, solid_a.as_ref()).ok_or_else(|| unsupported(hint))?;
    let b = place(shape_b, pose_b, origin, solid_b.as_ref()).ok_or_else(|| unsupported(hint))?;
    Ok(placed_pair(&a, &b, margin as f64).into_world(origin))
}

fn placed_pair(a: &Placed<'_>, b: &Placed<'_>, margin: f64) -> LocalManifold {
    use Placed::{Capsule, Solid, Sphere};
    match (a, b) {
        (Sphere(ca, ra), Sphere(cb, rb)) => sphere_sphere(*ca, *ra, *cb, *rb, margin),
        (Sphere(c, r), Capsule(s, rs)) => sphere_capsule(*c, *r, *s, *rs, margin),
        (Capsule(s, rs), Sphere(c, r)) => sphere_capsule(*c, *r, *s, *rs, margin).flipped(),
        (Capsule(sa, ra), Capsule(sb, rb)) => capsule_capsule(*sa, *ra, *sb, *rb, margin),
        (Sphere(c, r), Solid(p)) => sphere_solid(*c, *r, p, margin),
        (Solid(p), Sphere(c, r)) => sphere_solid(*c, *r, p, margin).flipped(),
        (Capsule(s, r), Solid(p)) => capsule_solid(*s, *r, p, margin),
        (Solid(p), Capsule(s, r)) => capsule_solid(*s, *r, p, margin).flipped(),
        (Solid(pa), Solid(pb)) => solid_solid(pa, pb, margin),
    }
}

/// Contact of solid shape A at `pose_a` with one static, one-sided
/// triangle B (world vertices, counter-clockwise from the front). The
/// normal runs from A to the triangle. A shape whose centre is strictly
/// behind the triangle's plane gets no contact (a capsule: both segment
/// ends behind).
///
/// # Errors
/// [`ContactError::InvalidMargin`], [`ContactError::NonFinitePose`], and
/// [`ContactError::Unsupported`] when A is a mesh.
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

/// Contact of solid shape A at `pose_a` with triangle B of a mesh (world
/// vertices, counter-clockwise from the front) whose active edges are
/// `edges_b` ([`TriangleMesh::active_edges`]): as [`shape_triangle`], except
/// that a contact touching only inactive edges (seams of the tessellation,
/// for a mesh built with [`TriangleMesh::with_active_edges`]) takes the
/// face normal ([`super::active_edges`]), so that solids slide
/// over the seams of a flat or gently curved mesh. With
/// [`ActiveEdges::ALL`] it equals [`shape_triangle`].
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
    let origin = promote(pose_a.translation.vector);
    let solid_a = solid_of(shape_a);
    let a = place(shape_a, pose_a, origin, solid_a.as_ref()).ok_or(ContactError::Unsupported {
        shape_a: shape_a.kind_name(),
        shape_b: "triangle",
        hint: "meshes are not solids and have no contact with triangles",
    })?;
    let tri = relative_triangle(triangle_b, origin);
    let m = placed_triangle(&a, &tri, margin as f64);
    Ok(admit(m, &tri, edges_b).into_world(origin))
}

fn placed_triangle(a: &Placed<'_>, tri: &[Vec3d; 3], margin: f64) -> LocalManifold {
    match a {
        Placed::Sphere(c, r) => sphere_triangle(*c, *r, tri, margin),
        Placed::Capsule(s, r) => capsule_triangle(*s, *r, tri, margin),
        Placed::Solid(p) => solid_triangle(p, tri, margin),
    }
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
/// with a triangle index should call [`shape_mesh_triangle`] on its candidates.
/// The mesh vertices are placed in `f64` relative to A, not rounded to `f32`
/// world coordinates first.
///
/// # Errors
/// [`ContactError::InvalidMargin`], [`ContactError::NonFinitePose`], and
/// [`ContactError::Unsupported`] when A is a mesh.
pub fn shape_mesh(
    shape_a: &Shape,
    pose_a: &Pose,
    mesh_b: &TriangleMesh,
    pose_b: &Pose,
    margin: f32,
) -> Result<Vec<MeshContact>, ContactError> {
    check_inputs(pose_a, Some(pose_b), margin)?;
    let origin = promote(pose_a.translation.vector);
    let solid_a = solid_of(shape_a);
    let a = place(shape_a, pose_a, origin, solid_a.as_ref()).ok_or(ContactError::Unsupported {
        shape_a: shape_a.kind_name(),
        shape_b: "triangle mesh",
        hint: "meshes are not solids and have no contact with each other",
    })?;
    let rotation = working_rotation(pose_b);
    let translation = promote(pose_b.translation.vector) - origin;
    let placed: Vec<Vec3d> = mesh_b
        .vertices()
        .iter()
        .map(|v| rotation * promote(*v) + translation)
        .collect();
    let mut out = Vec::new();
    for (index, idx) in mesh_b.indices().iter().enumerate() {
        let tri = idx.map(|i| placed[i as usize]);
        let edges = mesh_b.triangle_edges(index);
        let m = admit(placed_triangle(&a, &tri, margin as f64), &tri, edges);
        if !m.is_empty() {
            out.push(MeshContact {
                triangle: index,
                manifold: m.into_world(origin),
            });
        }
    }
    Ok(out)
}
