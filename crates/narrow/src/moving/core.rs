//! The moving-shape layer: every shape is one convex [`Core`] (a point
//! cloud) grown by a skin radius, or a [`MeshSide`] whose triangles are
//! one-sided three-point cores; [`MovingShape`] is the one enum over the two.
//!
//! # Method
//! After Box2D v3's `b2ShapeProxy` (`include/box2d/collision.h`): a sphere
//! is one point grown by its radius, a capsule its axis segment grown by its
//! radius, a box its 8 corners and a hull its vertices (both with the face
//! normals and edge directions of [`ConvexSolid`], parapet's one polytope),
//! a mesh triangle its 3 vertices, one-sided. The convex set is the hull of
//! the points grown by the skin; the arbiter needs nothing else but the
//! separating-axis directions of the polytope ([`Core::face_normals`],
//! [`Core::edge_directions`]), which make its penetration bound exact.
//!
//! Frames: a core's points are in its body's frame (the shape offset
//! applied once, in `f64`). A mesh keeps its `f32` triangles and their
//! bounds tree in the mesh's own shape frame, with the offset beside them,
//! so that a caller's tree (the world's) can be used as it is.
//!
//! # Precision domain
//! Points are `f32` values placed by the `f64` offset (one rotation, a few
//! `ε` of the offset's length); the arbiter checks the size limits of
//! [`super::domain`] per query.

use std::sync::Arc;

use parapet_geometry::bvh::{TriangleBoundsTree, MAX_TRIANGLES};
use parapet_geometry::{concave_edges, open_edges, Aabb, ActiveEdges, Shape};
use parapet_math::{promote, promote_quat, Quat, Quatd, Vec3, Vec3d};

use super::domain::{self, Refusal};
use crate::solid::ConvexSolid;

/// Which kind of core a [`Core`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum CoreKind {
    /// One point (a sphere's centre).
    Point,
    /// Two points (a capsule's axis).
    Segment,
    /// A box or a convex hull (a [`ConvexSolid`]).
    Polytope,
    /// A one-sided triangle: its front is the side its counter-clockwise
    /// normal `(b − a) × (c − a)` points to.
    Triangle,
}

/// A convex core in its body's frame: points, the skin radius that grows
/// their hull, and the separating-axis directions of the hull.
#[derive(Debug, Clone, PartialEq)]
pub struct Core {
    kind: CoreKind,
    points: Vec<Vec3d>,
    skin: f64,
    /// Unit face normals (body frame): a polytope's outward normals, a
    /// triangle's front normal.
    faces: Vec<Vec3d>,
    /// Unit edge directions (body frame), one per parallel class.
    edges: Vec<Vec3d>,
    /// A mesh triangle's held edges (body frame, unit): the seams and
    /// concave creases its neighbours hold (see [`Core::mesh_triangle`]).
    held_edges: Vec<Vec3d>,
    /// A mesh triangle's held edges by index: bit `k` set when edge `k`
    /// (corner `k` to corner `(k + 1) % 3`) is held; 0 for other cores.
    held_mask: u8,
    /// A polytope's solid in its shape frame, and that frame's pose in the
    /// body frame (translation, rotation).
    solid: Option<(Arc<ConvexSolid>, Vec3d, Quatd)>,
}

/// The unit `f64` quaternion nearest `q`.
fn unit(q: &Quat) -> Quatd {
    Quatd::new_normalize(promote_quat(*q).into_inner())
}

impl Core {
    /// One point (body frame) grown by `skin` (m): a sphere.
    pub fn point(p: Vec3d, skin: f64) -> Self {
        Core {
            kind: CoreKind::Point,
            points: vec![p],
            skin,
            faces: Vec::new(),
            edges: Vec::new(),
            held_edges: Vec::new(),
            held_mask: 0,
            solid: None,
        }
    }

    /// A segment (body frame) grown by `skin` (m): a capsule.
    pub fn segment(ends: [Vec3d; 2], skin: f64) -> Self {
        let d = ends[1] - ends[0];
        let len = d.norm();
        let edges = if len > 0.0 { vec![d / len] } else { Vec::new() };
        Core {
            kind: CoreKind::Segment,
            points: ends.to_vec(),
            skin,
            faces: Vec::new(),
            edges,
            held_edges: Vec::new(),
            held_mask: 0,
            solid: None,
        }
    }

    /// A one-sided triangle (body frame), no skin, every edge a feature (a
    /// lone triangle).
    pub fn triangle(corners: [Vec3d; 3]) -> Self {
        Core::mesh_triangle(corners, ActiveEdges::ALL, ActiveEdges::NONE)
    }

    /// A one-sided triangle of a mesh (body frame), no skin, whose edges
    /// `active` are open (a mesh boundary or a convex crease). Only
    /// those edges give the triangle's separating axes: a core overlapping
    /// the triangle may leave it across an active edge, but not across a
    /// seam or a concave crease, where the neighbouring face holds it, nor
    /// through its back (see `separation.rs`).
    ///
    /// Across each edge of `concave` (a concave crease: a room's corner,
    /// the foot of a kerb) the triangle extends in its plane by
    /// [`CONCAVE_EDGE_REACH`]: there the surface's solid side is the union
    /// of both triangles' back half-spaces, so a body held a little behind
    /// the neighbour's plane that moves behind this one's is measured
    /// against this plane, instead of slipping past the edge under both.
    pub fn mesh_triangle(corners: [Vec3d; 3], active: ActiveEdges, concave: ActiveEdges) -> Self {
        let mut core = Core::triangle_storage();
        core.set_mesh_triangle(corners, active, concave);
        core
    }

    /// An empty triangle core: storage for [`Core::set_mesh_triangle`].
    pub(crate) fn triangle_storage() -> Self {
        Core {
            kind: CoreKind::Triangle,
            points: Vec::new(),
            skin: 0.0,
            faces: Vec::new(),
            edges: Vec::new(),
            held_edges: Vec::new(),
            held_mask: 0,
            solid: None,
        }
    }

    /// Makes this core the mesh triangle of [`Core::mesh_triangle`],
    /// reusing its storage (a query over many triangles allocates once).
    pub(crate) fn set_mesh_triangle(
        &mut self,
        corners: [Vec3d; 3],
        active: ActiveEdges,
        concave: ActiveEdges,
    ) {
        self.kind = CoreKind::Triangle;
        self.skin = 0.0;
        self.solid = None;
        self.held_mask = 0;
        self.faces.clear();
        self.edges.clear();
        self.held_edges.clear();
        self.points.clear();
        let raw = (corners[1] - corners[0]).cross(&(corners[2] - corners[0]));
        let len = raw.norm();
        if len > 0.0 && len.is_finite() {
            self.faces.push(raw / len);
        }
        self.points.extend_from_slice(&corners);
        for k in 0..3 {
            let e = corners[(k + 1) % 3] - corners[k];
            let l = e.norm();
            if l > 0.0 && active.edge(k) {
                self.edges.push(e / l);
            } else if l > 0.0 {
                self.held_edges.push(e / l);
                self.held_mask |= 1 << k;
            }
            if let (true, Some(face)) = (l > 0.0 && concave.edge(k), self.faces.first()) {
                let out = (e / l).cross(face) * CONCAVE_EDGE_REACH;
                self.points.push(corners[k] + out);
                self.points.push(corners[(k + 1) % 3] + out);
            }
        }
    }

    /// A polytope: the solid placed in the body frame at `offset` with
    /// rotation `rotation`, no skin.
    pub fn polytope(solid: Arc<ConvexSolid>, offset: Vec3d, rotation: Quatd) -> Self {
        let place = |v: &Vec3d| offset + rotation * v;
        Core {
            kind: CoreKind::Polytope,
            points: solid.vertices().iter().map(place).collect(),
            skin: 0.0,
            faces: solid.face_normals().iter().map(|n| rotation * n).collect(),
            edges: solid.edges().iter().map(|e| rotation * e).collect(),
            held_edges: Vec::new(),
            held_mask: 0,
            solid: Some((solid, offset, rotation)),
        }
    }

    /// The kind of core.
    pub fn kind(&self) -> CoreKind {
        self.kind
    }

    /// The points in the body frame (m).
    pub fn points(&self) -> &[Vec3d] {
        &self.points
    }

    /// The skin radius (m).
    pub fn skin(&self) -> f64 {
        self.skin
    }

    /// Unit face normals in the body frame: a polytope's outward normals,
    /// a triangle's front normal; none for a point or a segment.
    pub fn face_normals(&self) -> &[Vec3d] {
        &self.faces
    }

    /// Unit edge directions in the body frame (one per parallel class).
    pub fn edge_directions(&self) -> &[Vec3d] {
        &self.edges
    }

    /// A mesh triangle's held edges (unit, body frame): the edges that are
    /// not open, whose crossings with the other core's edges give the
    /// tilted axes of `separation.rs` (empty for every other core).
    pub(crate) fn held_edge_directions(&self) -> &[Vec3d] {
        &self.held_edges
    }

    /// A mesh triangle's held edges by index: bit `k` set when edge `k`
    /// (corner `k` to corner `(k + 1) % 3`) is held; 0 for other cores.
    pub(crate) fn held_edge_mask(&self) -> u8 {
        self.held_mask
    }

    /// A polytope's solid, with its shape frame's offset and rotation in
    /// the body frame.
    pub fn solid(&self) -> Option<(&Arc<ConvexSolid>, Vec3d, Quatd)> {
        self.solid.as_ref().map(|(s, o, q)| (s, *o, *q))
    }

    /// The farthest point's distance from the body-frame point `center`
    /// (m, `f64`), without the skin.
    pub fn reach_from(&self, center: &Vec3d) -> f64 {
        self.points
            .iter()
            .fold(0.0f64, |m, p| m.max((p - center).norm()))
    }
}

/// How far (m) a mesh triangle extends in its plane across a concave
/// crease (see [`Core::mesh_triangle`]): 0.02 m, over three times the
/// deepest a world holds a body behind a surface (millimetres: the
/// continuous step's promised depth), so a body held behind the neighbour
/// never passes under the extension; short enough to stay behind any
/// neighbour a surface is built with (a kerb, a wall, a step). A longer
/// reach only makes contacts early near narrow grooves.
pub const CONCAVE_EDGE_REACH: f64 = 0.02;

/// A triangle mesh as the arbiter sees it: `f32` triangles in the mesh's
/// shape frame, their bounds tree, and the shape frame's pose in the body
/// frame. Cheap to clone (shared).
#[derive(Debug, Clone)]
pub struct MeshSide {
    triangles: Arc<[[Vec3; 3]]>,
    /// Each triangle's open edges (by end positions, over the soup).
    edges: Arc<[ActiveEdges]>,
    /// Each triangle's concave creases (likewise).
    concave: Arc<[ActiveEdges]>,
    tree: Arc<TriangleBoundsTree>,
    offset: Vec3d,
    rotation: Quatd,
    bounds: Aabb,
}

impl MeshSide {
    /// A mesh side over `triangles` (shape frame) and their tree (built by
    /// the caller over the same slice), placed in the body frame at
    /// `offset` with rotation `rotation`. The triangles' open edges (those
    /// a body may leave the surface across) are found here, over the
    /// triangles as a soup (edges matched by their end positions:
    /// `parapet_geometry::open_edges`).
    pub fn new(
        triangles: Arc<[[Vec3; 3]]>,
        tree: Arc<TriangleBoundsTree>,
        offset: Vec3d,
        rotation: Quatd,
    ) -> Self {
        let bounds = Aabb::from_points(triangles.iter().flatten());
        let vertices: Vec<Vec3> = triangles.iter().flatten().copied().collect();
        let soup: Vec<[u32; 3]> = (0..triangles.len() as u32)
            .map(|t| [3 * t, 3 * t + 1, 3 * t + 2])
            .collect();
        let edges = open_edges(&vertices, &soup).into();
        let concave = concave_edges(&vertices, &soup).into();
        MeshSide {
            triangles,
            edges,
            concave,
            tree,
            offset,
            rotation,
            bounds,
        }
    }

    /// The triangles (shape frame).
    pub fn triangles(&self) -> &[[Vec3; 3]] {
        &self.triangles
    }

    /// The bounds tree over [`MeshSide::triangles`].
    pub fn tree(&self) -> &TriangleBoundsTree {
        &self.tree
    }

    /// The shape frame's offset and rotation in the body frame.
    pub fn placement(&self) -> (Vec3d, Quatd) {
        (self.offset, self.rotation)
    }

    /// The triangles' bounds in the shape frame.
    pub fn local_bounds(&self) -> Aabb {
        self.bounds
    }

    /// Triangle `i` as a one-sided core in the body frame.
    pub fn triangle_core(&self, i: usize) -> Core {
        let t = &self.triangles[i];
        Core::mesh_triangle(
            t.map(|v| self.offset + self.rotation * promote(v)),
            self.edges[i],
            self.concave[i],
        )
    }

    /// [`MeshSide::triangle_core`] into `out`, reusing its storage.
    pub(crate) fn triangle_core_into(&self, i: usize, out: &mut Core) {
        let t = &self.triangles[i];
        out.set_mesh_triangle(
            t.map(|v| self.offset + self.rotation * promote(v)),
            self.edges[i],
            self.concave[i],
        );
    }

    /// The eight corners of the shape-frame bounds, in the body frame: a
    /// point cloud whose hull contains the mesh.
    pub fn bounding_corners(&self) -> Vec<Vec3d> {
        let (lo, hi) = (promote(self.bounds.min), promote(self.bounds.max));
        (0..8)
            .map(|i| {
                let c = Vec3d::new(
                    if i & 1 != 0 { hi.x } else { lo.x },
                    if i & 2 != 0 { hi.y } else { lo.y },
                    if i & 4 != 0 { hi.z } else { lo.z },
                );
                self.offset + self.rotation * c
            })
            .collect()
    }
}

/// A shape as the arbiter moves it: one convex core with its skin, or a
/// one-sided triangle mesh. Built from a [`Shape`] by
/// [`MovingShape::from_shape`], so that a caller never matches on shapes.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub enum MovingShape {
    /// A sphere, capsule, box or hull.
    Convex(Core),
    /// A triangle mesh.
    Mesh(MeshSide),
}

impl MovingShape {
    /// The moving shape of `shape` placed in its body's frame at
    /// `offset_position` with rotation `offset_rotation` (the body's shape
    /// offset). A mesh's bounds tree is built here (O(T log T)).
    ///
    /// # Errors
    /// [`Refusal::NotFinite`] for a non-finite offset;
    /// [`Refusal::PrecisionDomain`] for an offset beyond
    /// [`domain::MAX_SIZE`] or a mesh beyond the tree's triangle limit.
    pub fn from_shape(
        shape: &Shape,
        offset_position: Vec3,
        offset_rotation: Quat,
    ) -> Result<Self, Refusal> {
        let offset = promote(offset_position);
        domain::finite_vec("shape offset", &offset)?;
        domain::within("shape offset", offset.amax(), domain::MAX_SIZE)?;
        let q4 = promote_quat(offset_rotation).into_inner();
        domain::finite_vec("shape rotation", &q4.coords.xyz())?;
        domain::finite("shape rotation", q4.w)?;
        let rotation = unit(&offset_rotation);
        let place = |v: Vec3d| offset + rotation * v;
        Ok(match shape {
            Shape::Sphere(s) => MovingShape::Convex(Core::point(offset, f64::from(s.radius()))),
            Shape::Capsule(c) => {
                let [a, b] = c.segment();
                MovingShape::Convex(Core::segment(
                    [place(promote(a)), place(promote(b))],
                    f64::from(c.radius()),
                ))
            }
            Shape::Cuboid(c) => {
                let solid = ConvexSolid::cuboid(promote(c.half_extents()));
                MovingShape::Convex(Core::polytope(Arc::new(solid), offset, rotation))
            }
            Shape::ConvexHull(h) => {
                let solid = ConvexSolid::from_hull(h);
                MovingShape::Convex(Core::polytope(Arc::new(solid), offset, rotation))
            }
            Shape::Mesh(m) => {
                let triangles: Arc<[[Vec3; 3]]> = m.triangles().map(|t| t.vertices()).collect();
                let tree = TriangleBoundsTree::build(&triangles).map_err(|_| {
                    Refusal::PrecisionDomain {
                        quantity: "mesh triangle count",
                        value: triangles.len() as f64,
                        limit: MAX_TRIANGLES as f64,
                    }
                })?;
                MovingShape::Mesh(MeshSide::new(triangles, Arc::new(tree), offset, rotation))
            }
            // A shape this layer does not know yet: refused, never guessed.
            other => {
                return Err(Refusal::UnsupportedShape {
                    shape: other.kind_name(),
                })
            }
        })
    }

    /// The convex core, if this is one.
    pub fn core(&self) -> Option<&Core> {
        match self {
            MovingShape::Convex(c) => Some(c),
            MovingShape::Mesh(_) => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_shape_becomes_its_core() {
        let s = MovingShape::from_shape(
            &Shape::sphere(0.5).unwrap(),
            Vec3::new(1.0, 0.0, 0.0),
            Quat::identity(),
        )
        .unwrap();
        let core = s.core().unwrap();
        assert_eq!(core.kind(), CoreKind::Point);
        assert_eq!(core.points(), &[Vec3d::new(1.0, 0.0, 0.0)]);
        assert_eq!(core.skin(), 0.5);

        // A capsule turned a quarter about x: its axis runs along -y.
        let q = Quat::from_axis_angle(&Vec3::x_axis(), std::f32::consts::FRAC_PI_2);
        let c =
            MovingShape::from_shape(&Shape::capsule(0.1, 1.0).unwrap(), Vec3::zeros(), q).unwrap();
        let core = c.core().unwrap();
        assert_eq!(core.kind(), CoreKind::Segment);
        // f32 quaternion of a quarter turn, renormalized in f64: 1e-7.
        assert!((core.points()[0] - Vec3d::new(0.0, 1.0, 0.0)).norm() < 1e-6);
        assert_eq!(core.edge_directions().len(), 1);

        let b = MovingShape::from_shape(
            &Shape::cuboid(Vec3::new(1.0, 2.0, 3.0)).unwrap(),
            Vec3::zeros(),
            Quat::identity(),
        )
        .unwrap();
        let core = b.core().unwrap();
        assert_eq!(core.kind(), CoreKind::Polytope);
        assert_eq!(core.points().len(), 8);
        assert_eq!(core.face_normals().len(), 6);
        assert_eq!(core.edge_directions().len(), 3);
        assert_eq!(core.reach_from(&Vec3d::zeros()), 14f64.sqrt());
    }

    #[test]
    fn a_mesh_keeps_its_triangles_and_tree() {
        let m = Shape::mesh(
            vec![
                Vec3::new(0.0, 0.0, 0.0),
                Vec3::new(1.0, 0.0, 0.0),
                Vec3::new(0.0, 1.0, 0.0),
            ],
            vec![[0, 1, 2]],
        )
        .unwrap();
        let s = MovingShape::from_shape(&m, Vec3::new(0.0, 0.0, 2.0), Quat::identity()).unwrap();
        let MovingShape::Mesh(mesh) = s else {
            panic!("a mesh is a mesh side")
        };
        assert_eq!(mesh.triangles().len(), 1);
        assert_eq!(mesh.tree().triangle_count(), 1);
        let t = mesh.triangle_core(0);
        assert_eq!(t.kind(), CoreKind::Triangle);
        assert_eq!(t.points()[1], Vec3d::new(1.0, 0.0, 2.0));
        assert_eq!(t.face_normals(), &[Vec3d::z()]);
        assert!(mesh
            .bounding_corners()
            .iter()
            .all(|c| c.z == 2.0 && c.x >= 0.0 && c.y <= 1.0));
    }

    #[test]
    fn a_non_finite_offset_is_refused() {
        let r = MovingShape::from_shape(
            &Shape::sphere(1.0).unwrap(),
            Vec3::new(f32::NAN, 0.0, 0.0),
            Quat::identity(),
        );
        assert!(matches!(r, Err(Refusal::NotFinite { .. })));
    }
}
