//! [`PlacedShape`]: a solid shape placed once (for a world, once per body
//! and step) and then tested against any number of triangles and other
//! placed shapes, each test allocating nothing (with a [`ContactScratch`]).
//!
//! Working frames (docs/physics.md, "Numeric boundaries"): a sphere or a
//! capsule works in a frame with the world's axes centred on its position
//! (the pair functions of `sphere_*.rs` and `capsule_*.rs`); a box or a hull
//! works in its own frame (its centre and axes), where its vertices, face
//! planes and edges are those of its [`ConvexSolid`] and need no placing:
//! a triangle or the other shape is moved into that frame instead (three
//! vertices, or the other shape's frame), as parry moves one shape into
//! the other's frame (`pos12`). Results are moved back to world
//! coordinates once, then rounded to `f32`.
//!
//! Precision domain: `f64`; coordinates relative to the working frame's
//! origin, so that a large world translation costs no resolution.

use parapet_geometry::{ActiveEdges, Shape};
use std::sync::OnceLock;

use parapet_math::{promote, Mat3d, Vec3, Vec3d};

use super::active_edges::admit_in_place;
use super::capsule_capsule::capsule_capsule;
use super::capsule_triangle::capsule_triangle;
use super::cuboid_cuboid::{cuboid_cuboid, BoxPair};
use super::cuboid_triangle::cuboid_triangle;
use super::placed_solid::{max_distance, mean, own_planes, PlacedSolid, Plane};
use super::scratch::ContactScratch;
use super::solid_solid::{capsule_solid, solid_solid, sphere_solid};
use super::solid_triangle::solid_triangle;
use super::sphere_capsule::sphere_capsule;
use super::sphere_sphere::sphere_sphere;
use super::sphere_triangle::sphere_triangle;
use super::{working_rotation, ContactError, LocalManifold, Manifold, Pose};
use crate::solid::ConvexSolid;
use crate::triangle::relative_triangle;

/// A solid shape (sphere, capsule, box or hull) placed in the world for
/// many contact tests: [`PlacedShape::triangle`] against one-sided
/// triangles, [`PlacedShape::pair`] against another placed shape. The
/// answers are those of [`super::shape_mesh_triangle`] and [`super::shapes`]
/// (which place their shapes this way for one call).
#[derive(Clone, Debug)]
pub struct PlacedShape {
    /// The shape frame's origin in the world (m).
    origin: Vec3d,
    /// Shape frame to world, renormalised in `f64`.
    rotation: Mat3d,
    kind: Kind,
}

/// What a placed shape is, in its working frame.
#[derive(Clone, Debug)]
enum Kind {
    /// A sphere centred on the origin.
    Sphere { radius: f64 },
    /// A capsule whose core runs from `-half` to `half` (world axes).
    Capsule { half: Vec3d, radius: f64 },
    /// A box in its own frame: its half extents, and the general solid
    /// built on first use (only the rare general answers need it).
    Cuboid {
        half: Vec3d,
        solid: OnceLock<Box<SolidFrame>>,
    },
    /// A hull in its own frame.
    Solid(Box<SolidFrame>),
}

/// A solid in its own frame: the solid, its face planes, the mean of its
/// vertices and their largest distance from it.
#[derive(Clone, Debug)]
struct SolidFrame {
    solid: ConvexSolid,
    planes: Vec<Plane>,
    center: Vec3d,
    radius: f64,
}

impl SolidFrame {
    fn new(solid: ConvexSolid) -> Box<Self> {
        let mut planes = Vec::new();
        own_planes(&solid, &mut planes);
        let center = mean(solid.vertices());
        let radius = max_distance(solid.vertices(), center);
        Box::new(SolidFrame {
            solid,
            planes,
            center,
            radius,
        })
    }

    fn placed(&self) -> PlacedSolid<'_> {
        PlacedSolid::with_bounds(
            &self.solid,
            self.solid.vertices(),
            &self.planes,
            self.center,
            self.radius,
        )
    }
}

impl PlacedShape {
    /// `shape` at `pose` (a rigid pose: rotation then translation).
    ///
    /// # Errors
    /// [`ContactError::NonFinitePose`] for a non-finite pose,
    /// [`ContactError::Unsupported`] for a mesh (meshes are tested by
    /// triangle: see [`PlacedShape::triangle`]),
    /// [`ContactError::OutsidePrecisionDomain`] for a translation or a
    /// bounding radius beyond [`super::MAX_CONTACT_COORDINATE`].
    pub fn new(shape: &Shape, pose: &Pose) -> Result<Self, ContactError> {
        super::input_checks::check_pose("A", pose)?;
        super::input_checks::check_coordinates("translation of A", &pose.translation.vector)?;
        if shape.is_solid() {
            super::input_checks::check_size("bounding radius of A", shape)?;
        }
        Self::place(shape, pose).ok_or(ContactError::Unsupported {
            shape_a: shape.kind_name(),
            shape_b: "triangle",
            hint: "meshes are not solids: test a mesh by its triangles",
        })
    }

    /// `shape` at `pose` without [`PlacedShape::new`]'s checks, `None` for
    /// a mesh: for a caller that keeps its own bounds on poses and sizes
    /// (a world, whose later stages refuse what is not representable).
    /// Outside the precision domain the answers are not promised.
    pub fn place(shape: &Shape, pose: &Pose) -> Option<Self> {
        let rotation = working_rotation(pose);
        let origin = promote(pose.translation.vector);
        let kind = match shape {
            Shape::Sphere(s) => Kind::Sphere {
                radius: s.radius() as f64,
            },
            Shape::Capsule(c) => Kind::Capsule {
                half: rotation * Vec3d::new(0.0, 0.0, c.half_height() as f64),
                radius: c.radius() as f64,
            },
            Shape::Cuboid(c) => Kind::Cuboid {
                half: promote(c.half_extents()),
                solid: OnceLock::new(),
            },
            Shape::ConvexHull(h) => Kind::Solid(SolidFrame::new(ConvexSolid::from_hull(h))),
            _ => return None,
        };
        Some(PlacedShape {
            origin,
            rotation,
            kind,
        })
    }

    /// A box of half extents `h` at `pose` (the pose's rotation and
    /// translation, not checked).
    pub(crate) fn cuboid(h: Vec3d, pose: &Pose) -> Self {
        PlacedShape {
            origin: promote(pose.translation.vector),
            rotation: working_rotation(pose),
            kind: Kind::Cuboid {
                half: h,
                solid: OnceLock::new(),
            },
        }
    }

    /// A sphere of radius `r` centred at `center` (world).
    pub(crate) fn sphere(center: Vec3d, r: f64) -> Self {
        PlacedShape {
            origin: center,
            rotation: Mat3d::identity(),
            kind: Kind::Sphere { radius: r },
        }
    }

    /// A capsule of radius `r` around the core `segment` (world), its
    /// frame centred on the first end.
    pub(crate) fn capsule(segment: [Vec3d; 2], r: f64) -> Self {
        let half = (segment[1] - segment[0]) * 0.5;
        PlacedShape {
            origin: segment[0] + half,
            rotation: Mat3d::identity(),
            kind: Kind::Capsule { half, radius: r },
        }
    }

    /// Whether the shape is a box or a hull (a polytope whose contacts
    /// against a mesh make patches worth reducing).
    pub fn is_polytope(&self) -> bool {
        matches!(self.kind, Kind::Cuboid { .. } | Kind::Solid(_))
    }

    /// The rotation from the working frame to the world: `None` for a
    /// frame with the world's axes.
    fn frame_rotation(&self) -> Option<&Mat3d> {
        match self.kind {
            Kind::Cuboid { .. } | Kind::Solid(_) => Some(&self.rotation),
            _ => None,
        }
    }

    /// A world point in the working frame.
    fn to_frame(&self, p: Vec3d) -> Vec3d {
        match self.kind {
            Kind::Cuboid { .. } | Kind::Solid(_) => self.rotation.tr_mul(&(p - self.origin)),
            _ => p - self.origin,
        }
    }

    /// The world triangle `tri` (already relative to the origin) turned
    /// into the working frame.
    fn turned(&self, rel: [Vec3d; 3]) -> [Vec3d; 3] {
        match self.kind {
            Kind::Cuboid { .. } | Kind::Solid(_) => rel.map(|v| self.rotation.tr_mul(&v)),
            _ => rel,
        }
    }

    /// The contact with the one-sided triangle `tri` (world, counter-
    /// clockwise from the front) of a mesh whose active edges are `edges`,
    /// within `margin` (m): the normal runs from the shape to the triangle.
    /// The answer of [`super::shape_mesh_triangle`]: a contact touching only
    /// inactive edges takes the face normal ([`super::active_edges`]).
    pub fn triangle(
        &self,
        tri: &[Vec3; 3],
        edges: ActiveEdges,
        margin: f32,
        scratch: &mut ContactScratch,
    ) -> Manifold {
        let local = self.turned(relative_triangle(tri, self.origin));
        let mut m = self.triangle_local(&local, margin as f64, scratch);
        admit_in_place(&mut m, &local, edges);
        m.into_world_rotated(self.origin, self.frame_rotation())
    }

    /// [`PlacedShape::triangle`] for a triangle given in `f64` world
    /// coordinates (a mesh placed by a pose, not rounded to `f32`).
    pub(crate) fn triangle_f64(
        &self,
        tri: &[Vec3d; 3],
        edges: ActiveEdges,
        margin: f32,
        scratch: &mut ContactScratch,
    ) -> Manifold {
        let local = self.turned(tri.map(|v| v - self.origin));
        let mut m = self.triangle_local(&local, margin as f64, scratch);
        admit_in_place(&mut m, &local, edges);
        m.into_world_rotated(self.origin, self.frame_rotation())
    }

    /// [`PlacedShape::triangle`] with every edge a feature.
    pub(crate) fn triangle_manifold(
        &self,
        tri: &[Vec3; 3],
        margin: f32,
        scratch: &mut ContactScratch,
    ) -> Manifold {
        self.triangle(tri, ActiveEdges::ALL, margin, scratch)
    }

    /// The contact with the triangle `tri` given in the working frame.
    fn triangle_local(
        &self,
        tri: &[Vec3d; 3],
        margin: f64,
        scratch: &mut ContactScratch,
    ) -> LocalManifold {
        match &self.kind {
            Kind::Sphere { radius } => sphere_triangle(Vec3d::zeros(), *radius, tri, margin),
            Kind::Capsule { half, radius } => {
                capsule_triangle([-half, *half], *radius, tri, margin)
            }
            Kind::Cuboid { half, solid } => {
                let general = || cuboid_frame(solid, half).placed();
                cuboid_triangle(half, &general, tri, margin, &mut scratch.work)
            }
            Kind::Solid(s) => solid_triangle(&s.placed(), tri, margin, &mut scratch.work),
        }
    }

    /// The contact of this shape (A) with `other` (B) within `margin` (m):
    /// the normal runs from A to B; see [`Manifold`] for the points. The
    /// answer of [`super::shapes`].
    pub fn pair(&self, other: &PlacedShape, margin: f32, scratch: &mut ContactScratch) -> Manifold {
        let margin = margin as f64;
        if let Some(pair) = self.box_pair(other) {
            if let Some(m) = cuboid_cuboid(&pair, margin) {
                return m.into_world_rotated(self.origin, Some(&self.rotation));
            }
        }
        self.general_pair(other, margin, scratch)
    }

    /// Two boxes seen from this one's frame, `None` unless both are boxes.
    pub(crate) fn box_pair(&self, other: &PlacedShape) -> Option<BoxPair> {
        match (&self.kind, &other.kind) {
            (Kind::Cuboid { half: ha, .. }, Kind::Cuboid { half: hb, .. }) => Some(BoxPair {
                half_a: *ha,
                half_b: *hb,
                r: self.rotation.tr_mul(&other.rotation),
                t: self.to_frame(other.origin),
            }),
            _ => None,
        }
    }

    /// The contact of two shapes by their general tests (a box as a solid),
    /// what [`Self::pair`] falls back to when the box pair does not answer.
    pub(crate) fn general_pair(
        &self,
        other: &PlacedShape,
        margin: f64,
        scratch: &mut ContactScratch,
    ) -> Manifold {
        match (self.solid_frame(), other.solid_frame()) {
            (Some(a), Some(b)) => {
                // B moved into A's frame.
                let rotation = self.rotation.tr_mul(&other.rotation);
                let translation = self.to_frame(other.origin);
                let ContactScratch {
                    placement, work, ..
                } = scratch;
                let placed_b = placement.place(&b.solid, &rotation, translation);
                solid_solid(&a.placed(), &placed_b, margin, work)
                    .into_world_rotated(self.origin, Some(&self.rotation))
            }
            (None, Some(b)) => {
                // A round shape in B's frame.
                let m = round_solid(self, other, b, margin);
                m.into_world_rotated(other.origin, Some(&other.rotation))
            }
            (Some(a), None) => {
                let m = round_solid(other, self, a, margin).flipped();
                m.into_world_rotated(self.origin, Some(&self.rotation))
            }
            (None, None) => round_pair(self, other, margin).into_world(self.origin),
        }
    }

    /// The general solid of a box or hull (a box's built on first use),
    /// `None` for a sphere or capsule.
    fn solid_frame(&self) -> Option<&SolidFrame> {
        match &self.kind {
            Kind::Cuboid { half, solid } => Some(cuboid_frame(solid, half)),
            Kind::Solid(s) => Some(s),
            _ => None,
        }
    }
}

/// A box's general solid, built once.
fn cuboid_frame<'a>(cell: &'a OnceLock<Box<SolidFrame>>, half: &Vec3d) -> &'a SolidFrame {
    cell.get_or_init(|| SolidFrame::new(ConvexSolid::cuboid(*half)))
}

/// Contact of the sphere or capsule `round` (A) with the solid `solid` (B,
/// placed as `placed`), in the solid's frame; the normal runs from A to B.
fn round_solid(
    round: &PlacedShape,
    placed: &PlacedShape,
    solid: &SolidFrame,
    margin: f64,
) -> LocalManifold {
    let c = placed.to_frame(round.origin);
    match round.kind {
        Kind::Sphere { radius } => sphere_solid(c, radius, &solid.placed(), margin),
        Kind::Capsule { half, radius } => {
            let h = placed.rotation.tr_mul(&half);
            capsule_solid([c - h, c + h], radius, &solid.placed(), margin)
        }
        Kind::Cuboid { .. } | Kind::Solid(_) => LocalManifold::empty(),
    }
}

/// Contact of two spheres or capsules, in a frame with the world's axes
/// centred on A.
fn round_pair(a: &PlacedShape, b: &PlacedShape, margin: f64) -> LocalManifold {
    let cb = b.origin - a.origin;
    match (&a.kind, &b.kind) {
        (Kind::Sphere { radius: ra }, Kind::Sphere { radius: rb }) => {
            sphere_sphere(Vec3d::zeros(), *ra, cb, *rb, margin)
        }
        (Kind::Sphere { radius: ra }, Kind::Capsule { half, radius: rb }) => {
            sphere_capsule(Vec3d::zeros(), *ra, [cb - half, cb + half], *rb, margin)
        }
        (Kind::Capsule { half, radius: ra }, Kind::Sphere { radius: rb }) => {
            sphere_capsule(cb, *rb, [-half, *half], *ra, margin).flipped()
        }
        (
            Kind::Capsule {
                half: ha,
                radius: ra,
            },
            Kind::Capsule {
                half: hb,
                radius: rb,
            },
        ) => capsule_capsule([-ha, *ha], *ra, [cb - hb, cb + hb], *rb, margin),
        _ => LocalManifold::empty(),
    }
}
