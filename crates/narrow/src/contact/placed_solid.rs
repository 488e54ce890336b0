//! A solid, or a one-sided triangle, placed in a contact test's working
//! frame: [`PlacedSolid`], the form the separating-axis contact tests read.
//!
//! A placed solid holds the [`ConvexSolid`]'s vertices turned and moved into
//! the working frame (in `f64`) and each face's outward unit normal and
//! plane offset there; its faces' vertex loops and its edges with their two
//! faces (the arcs of the Gauss map) are the solid's own, borrowed. A
//! triangle is placed as a *flat* solid with one face, its front: the back
//! is not a face, which makes every test one-sided.
//!
//! Closest points of separated solids are found by brute force over
//! feature pairs (vertex against face polygon, edge against edge; Ericson,
//! *Real-Time Collision Detection* 5.1), which is exact and costs
//! O(V F + E^2). Precision domain: `f64` vertices relative to the working
//! origin (shape A's position).

use parapet_math::{Mat3d, Vec3d};

use super::closest::{point_segment, point_triangle, segment_segment};
use super::{AXIS_TOLERANCE_ABS, AXIS_TOLERANCE_REL};
use crate::solid::{ConvexSolid, Edge, Face};

/// One face in the working frame: outward unit normal and plane offset
/// (`normal . x` on the face).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Plane {
    pub(crate) normal: Vec3d,
    pub(crate) offset: f64,
}

/// A solid (or a one-sided triangle) in the working frame. Its vertices
/// and planes are borrowed: from the solid itself when the working frame is
/// the solid's own (a body's shape, placed once per step), from a
/// [`Placement`] reused from test to test otherwise, so that placing one
/// allocates nothing.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PlacedSolid<'a> {
    pub(crate) vertices: &'a [Vec3d],
    /// Face `f`'s plane in the working frame.
    pub(crate) planes: &'a [Plane],
    faces: &'a [Face],
    loops: &'a [usize],
    pub(crate) edges: &'a [Edge],
    /// A one-sided triangle (one face, three boundary edges).
    pub(crate) flat: bool,
    /// The mean of the vertices: an interior point (on the face when flat).
    pub(crate) center: Vec3d,
    /// The largest distance of a vertex from `center` (m).
    pub(crate) radius: f64,
}

/// The vertices and planes of a solid placed in a working frame, kept
/// between tests so that their storage is reused.
#[derive(Clone, Debug, Default)]
pub(crate) struct Placement {
    vertices: Vec<Vec3d>,
    planes: Vec<Plane>,
}

/// The planes of `solid` in its own frame: each face's unit normal and the
/// mean of its vertices' projections.
pub(crate) fn own_planes(solid: &ConvexSolid, out: &mut Vec<Plane>) {
    place_planes(solid, solid.vertices(), &Mat3d::identity(), out);
}

/// The planes of `solid` turned by `rotation`, over its placed `vertices`:
/// the solid's unit normals rotated and normalised (Newell's method on the
/// placed vertices should one rotate to zero length); each plane offset is
/// the mean of its vertices' projections.
fn place_planes(solid: &ConvexSolid, vertices: &[Vec3d], rotation: &Mat3d, out: &mut Vec<Plane>) {
    let (faces, loops) = (solid.faces(), solid.loops());
    out.clear();
    out.extend(faces.iter().enumerate().map(|(f, face)| {
        let l = &loops[face.start..face.start + face.len];
        let r = rotation * solid.normal(f);
        let len = r.norm();
        let normal = if len > 0.0 {
            r / len
        } else {
            newell_normal(vertices, l)
        };
        let offset =
            l.iter().map(|&i| normal.dot(&vertices[i])).sum::<f64>() / l.len().max(1) as f64;
        Plane { normal, offset }
    }));
}

impl Placement {
    /// `solid` placed by `rotation` then `translation`, in this storage.
    pub(crate) fn place<'a>(
        &'a mut self,
        solid: &'a ConvexSolid,
        rotation: &Mat3d,
        translation: Vec3d,
    ) -> PlacedSolid<'a> {
        self.vertices.clear();
        self.vertices
            .extend(solid.vertices().iter().map(|v| rotation * v + translation));
        place_planes(solid, &self.vertices, rotation, &mut self.planes);
        PlacedSolid::from_parts(solid, &self.vertices, &self.planes)
    }
}

/// The topology of a one-sided triangle: one face, its front, and its three
/// boundary edges (from vertex `i` to `i + 1`).
const TRIANGLE_FACES: [Face; 1] = [Face { start: 0, len: 3 }];
const TRIANGLE_LOOPS: [usize; 3] = [0, 1, 2];
const TRIANGLE_EDGES: [Edge; 3] = [
    Edge {
        a: 0,
        b: 1,
        faces: [Some(0), None],
    },
    Edge {
        a: 1,
        b: 2,
        faces: [Some(0), None],
    },
    Edge {
        a: 2,
        b: 0,
        faces: [Some(0), None],
    },
];

/// A one-sided triangle's storage: its vertices and its one plane.
#[derive(Clone, Copy, Debug)]
pub(crate) struct TrianglePlacement {
    vertices: [Vec3d; 3],
    plane: [Plane; 1],
}

impl TrianglePlacement {
    /// The triangle `tri` with unit front normal `normal`.
    pub(crate) fn new(tri: &[Vec3d; 3], normal: Vec3d) -> Self {
        let offset = tri.iter().map(|v| normal.dot(v)).sum::<f64>() / 3.0;
        TrianglePlacement {
            vertices: *tri,
            plane: [Plane { normal, offset }],
        }
    }

    /// The triangle as a flat placed solid.
    pub(crate) fn placed(&self) -> PlacedSolid<'_> {
        let center = mean(&self.vertices);
        PlacedSolid {
            vertices: &self.vertices,
            planes: &self.plane,
            faces: &TRIANGLE_FACES,
            loops: &TRIANGLE_LOOPS,
            edges: &TRIANGLE_EDGES,
            flat: true,
            center,
            radius: max_distance(&self.vertices, center),
        }
    }
}

impl<'a> PlacedSolid<'a> {
    /// `solid`'s topology over `vertices` and `planes` already placed.
    pub(crate) fn from_parts(
        solid: &'a ConvexSolid,
        vertices: &'a [Vec3d],
        planes: &'a [Plane],
    ) -> Self {
        let center = mean(vertices);
        Self::with_bounds(
            solid,
            vertices,
            planes,
            center,
            max_distance(vertices, center),
        )
    }

    /// [`PlacedSolid::from_parts`] with the vertices' mean `center` and
    /// largest distance from it `radius` already known.
    pub(crate) fn with_bounds(
        solid: &'a ConvexSolid,
        vertices: &'a [Vec3d],
        planes: &'a [Plane],
        center: Vec3d,
        radius: f64,
    ) -> Self {
        PlacedSolid {
            vertices,
            planes,
            faces: solid.faces(),
            loops: solid.loops(),
            edges: solid.edge_list(),
            flat: false,
            center,
            radius,
        }
    }

    /// The vertex indices of face `f`, counter-clockwise from outside.
    pub(crate) fn face_loop(&self, f: usize) -> &[usize] {
        let face = &self.faces[f];
        &self.loops[face.start..face.start + face.len]
    }

    /// The signed distance of `p` to the plane of face `f` (positive outside).
    pub(crate) fn face_distance(&self, f: usize, p: Vec3d) -> f64 {
        self.planes[f].normal.dot(&p) - self.planes[f].offset
    }

    /// Smallest projection of the vertices on `axis`.
    pub(crate) fn min_projection(&self, axis: Vec3d) -> f64 {
        self.vertices
            .iter()
            .map(|v| axis.dot(v))
            .fold(f64::INFINITY, f64::min)
    }

    /// Largest projection of the vertices on `axis`.
    pub(crate) fn max_projection(&self, axis: Vec3d) -> f64 {
        self.vertices
            .iter()
            .map(|v| axis.dot(v))
            .fold(f64::NEG_INFINITY, f64::max)
    }

    /// The largest distance of a vertex from [`PlacedSolid::center`] (m).
    pub(crate) fn radius(&self) -> f64 {
        self.radius
    }

    /// The closest point of the solid's surface to `p`, for `p` outside
    /// or on it (a point inside returns itself). A flat solid is treated
    /// as its triangle, from both sides.
    pub(crate) fn closest_point(&self, p: Vec3d) -> Vec3d {
        if self.flat {
            let tri = [self.vertices[0], self.vertices[1], self.vertices[2]];
            return point_triangle(p, &tri).0;
        }
        let mut best = p;
        let mut best_d = f64::INFINITY;
        for f in 0..self.planes.len() {
            if self.face_distance(f, p) <= 0.0 {
                continue;
            }
            let q = self.closest_on_face(f, p);
            let d = (q - p).norm_squared();
            if d < best_d {
                best_d = d;
                best = q;
            }
        }
        best
    }

    /// Whether face `f` is a face of the solid in its working frame: its
    /// polygon wider than the solid's rounding (twice its area more than
    /// [`AXIS_TOLERANCE_ABS`] plus [`AXIS_TOLERANCE_REL`] of the solid's
    /// radius times its longest edge). A box with a zero or tiny half
    /// extent, placed, has faces collapsed to a segment or a point (or
    /// slivers whose side edges are rounding; a flat solid's one face, a
    /// triangle with a front, always counts): their side planes bound
    /// nothing, so no point counts as over them, and their normals are no
    /// separating axis a contact can be built on (the solid's edges give
    /// those directions).
    pub(crate) fn face_has_area(&self, f: usize) -> bool {
        if self.flat {
            // A triangle's front: resolved by `front_normal` already.
            return true;
        }
        let n = self.planes[f].normal;
        let l = self.face_loop(f);
        let o = self.vertices[l[0]];
        let mut twice_area = 0.0;
        let mut longest = 0.0f64;
        for k in 0..l.len() {
            let a = self.vertices[l[k]] - o;
            let b = self.vertices[l[(k + 1) % l.len()]] - o;
            twice_area += a.cross(&b).dot(&n);
            longest = longest.max((b - a).norm());
        }
        let tol = AXIS_TOLERANCE_ABS + AXIS_TOLERANCE_REL * self.radius;
        twice_area > tol * longest
    }

    /// The closest point of the face polygon `f` to `p` (on its boundary
    /// for a collapsed face, [`PlacedSolid::face_has_area`]).
    pub(crate) fn closest_on_face(&self, f: usize, p: Vec3d) -> Vec3d {
        let n = self.planes[f].normal;
        let projected = p - n * self.face_distance(f, p);
        let l = self.face_loop(f);
        let mut inside = true;
        let mut best = projected;
        let mut best_d = f64::INFINITY;
        for k in 0..l.len() {
            let a = self.vertices[l[k]];
            let b = self.vertices[l[(k + 1) % l.len()]];
            let outward = (b - a).cross(&n);
            if outward.dot(&(projected - a)) > 0.0 {
                inside = false;
            }
            let (_, q) = point_segment(p, a, b);
            let d = (q - p).norm_squared();
            if d < best_d {
                best_d = d;
                best = q;
            }
        }
        if inside && self.face_has_area(f) {
            projected
        } else {
            best
        }
    }

    /// The points of face `f`'s polygon, in loop order, into `out`.
    pub(crate) fn face_polygon(&self, f: usize, out: &mut Vec<Vec3d>) {
        out.clear();
        out.extend(self.face_loop(f).iter().map(|&i| self.vertices[i]));
    }

    /// The face whose normal is most anti-parallel to `n`.
    pub(crate) fn incident_face(&self, n: Vec3d) -> usize {
        let mut best = 0;
        let mut best_dot = f64::INFINITY;
        for (f, plane) in self.planes.iter().enumerate() {
            let d = plane.normal.dot(&n);
            if d < best_dot {
                best_dot = d;
                best = f;
            }
        }
        best
    }

    /// The feature of the solid farthest along `n` that an edge axis built
    /// on edge `e` touches: the edge parallel to `e` whose points project
    /// highest on `n` (a box has four), when it reaches the solid's support
    /// plane within `tol` (m); otherwise the supporting vertex, as a
    /// segment of no length. The first such edge in edge order wins a tie.
    pub(crate) fn support_segment(&self, n: Vec3d, e: usize, tol: f64) -> (Vec3d, Vec3d) {
        let (p, q) = self.edge_points(e);
        let dir = q - p;
        let mut best: Option<(f64, usize)> = None;
        for k in 0..self.edges.len() {
            let (pk, qk) = self.edge_points(k);
            let dk = qk - pk;
            if dk.cross(&dir).norm_squared()
                > super::PARALLEL_SIN_SQ * dk.norm_squared() * dir.norm_squared()
            {
                continue;
            }
            let h = n.dot(&pk).min(n.dot(&qk));
            if best.is_none_or(|(b, _)| h > b) {
                best = Some((h, k));
            }
        }
        let top = self
            .vertices
            .iter()
            .copied()
            .max_by(|x, y| n.dot(x).total_cmp(&n.dot(y)))
            .unwrap_or(self.center);
        match best {
            Some((h, k)) if h >= n.dot(&top) - tol => self.edge_points(k),
            _ => (top, top),
        }
    }

    /// Endpoints of edge `e`.
    pub(crate) fn edge_points(&self, e: usize) -> (Vec3d, Vec3d) {
        (
            self.vertices[self.edges[e].a],
            self.vertices[self.edges[e].b],
        )
    }
}

/// Closest points of two solids that do not overlap, by brute force over
/// feature pairs: every vertex against the other solid's faces, every
/// edge against every edge (exact for disjoint convex solids: the closest
/// pair always involves a vertex or two edges). Returns (distance, point on
/// `a`, point on `b`).
pub(crate) fn closest_points(a: &PlacedSolid<'_>, b: &PlacedSolid<'_>) -> (f64, Vec3d, Vec3d) {
    let mut best = (f64::INFINITY, a.center, b.center);
    let mut consider = |pa: Vec3d, pb: Vec3d| {
        let d = (pb - pa).norm();
        if d < best.0 {
            best = (d, pa, pb);
        }
    };
    for &v in b.vertices {
        consider(a.closest_point(v), v);
    }
    for &v in a.vertices {
        consider(v, b.closest_point(v));
    }
    for ea in 0..a.edges.len() {
        let (p1, q1) = a.edge_points(ea);
        for eb in 0..b.edges.len() {
            let (p2, q2) = b.edge_points(eb);
            let (_, _, c1, c2) = segment_segment(p1, q1, p2, q2);
            consider(c1, c2);
        }
    }
    best
}

/// Newell's normal of a polygon loop, normalised (zero for a degenerate loop).
fn newell_normal(vertices: &[Vec3d], l: &[usize]) -> Vec3d {
    let Some(&first) = l.first() else {
        return Vec3d::zeros();
    };
    let o = vertices[first];
    let mut n = Vec3d::zeros();
    for k in 0..l.len() {
        let a = vertices[l[k]] - o;
        let b = vertices[l[(k + 1) % l.len()]] - o;
        n += a.cross(&b);
    }
    let len = n.norm();
    if len > 0.0 {
        n / len
    } else {
        n
    }
}

pub(crate) fn max_distance(points: &[Vec3d], center: Vec3d) -> f64 {
    points
        .iter()
        .map(|v| (v - center).norm())
        .fold(0.0, f64::max)
}

pub(crate) fn mean(points: &[Vec3d]) -> Vec3d {
    if points.is_empty() {
        return Vec3d::zeros();
    }
    points.iter().sum::<Vec3d>() / points.len() as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cube(half: Vec3d) -> ConvexSolid {
        ConvexSolid::cuboid(half)
    }

    #[test]
    fn cuboid_faces_point_outward_and_every_edge_has_two_faces() {
        let solid = cube(Vec3d::new(1.0, 2.0, 3.0));
        let mut placement = Placement::default();
        let c = placement.place(&solid, &Mat3d::identity(), Vec3d::zeros());
        assert_eq!(c.planes.len(), 6);
        assert_eq!(c.edges.len(), 12);
        assert!(c.edges.iter().all(|e| e.faces[1].is_some()));
        for plane in c.planes {
            // The face plane is at the half extent along its own axis.
            let expected = plane.normal.dot(&Vec3d::new(1.0, 2.0, 3.0)).abs();
            assert!((plane.offset - expected).abs() < 1e-12 && plane.offset > 0.0);
        }
    }

    #[test]
    fn closest_point_of_a_cube_to_a_point_beyond_a_corner_is_the_corner() {
        let solid = cube(Vec3d::new(1.0, 1.0, 1.0));
        let mut placement = Placement::default();
        let c = placement.place(&solid, &Mat3d::identity(), Vec3d::zeros());
        let q = c.closest_point(Vec3d::new(3.0, 2.0, 5.0));
        assert!((q - Vec3d::new(1.0, 1.0, 1.0)).norm() < 1e-15);
    }
}
