//! Convex polytopes in the working frame: the common form of cuboids, convex
//! hulls and one-sided triangles for the separating-axis contact tests.
//!
//! A polytope holds its vertices (already rotated and translated into the
//! working frame, in `f64`), its faces (outward unit normal, plane offset and
//! a counter-clockwise vertex loop seen from outside) and its edges with
//! their adjacent faces. A triangle is a *flat* polytope with one face, its
//! front: the back is not a face, which makes every test one-sided.
//!
//! Closest points of separated polytopes are found by brute force over
//! feature pairs (vertex against face polygon, edge against edge; Ericson
//! 5.1), which is exact and costs O(V F + E^2). Precision domain: `f64`
//! vertices relative to the working origin (shape A's position).

use parapet_geometry::ConvexHull;
use parapet_math::{promote, Mat3d, Vec3d};

use super::closest::{point_segment, point_triangle, segment_segment};

/// One face: outward unit normal, plane offset (`normal . x` on the face)
/// and the range of its vertex loop in [`Polytope::loops`].
#[derive(Clone, Debug)]
pub(crate) struct Face {
    pub normal: Vec3d,
    pub offset: f64,
    pub start: usize,
    pub len: usize,
}

/// One edge: its two vertex indices and the faces on either side
/// (`faces[1]` is `None` on a triangle's boundary).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Edge {
    pub a: usize,
    pub b: usize,
    pub faces: [Option<usize>; 2],
}

/// A convex polytope in the working frame.
#[derive(Clone, Debug)]
pub(crate) struct Polytope {
    pub vertices: Vec<Vec3d>,
    pub faces: Vec<Face>,
    pub loops: Vec<usize>,
    pub edges: Vec<Edge>,
    /// A one-sided triangle (one face, three boundary edges).
    pub flat: bool,
    /// The mean of the vertices: an interior point (on the face when flat).
    pub center: Vec3d,
    /// The largest distance of a vertex from `center` (m).
    pub radius: f64,
}

/// Counter-clockwise (from outside) loops of a cuboid whose vertex `i` has
/// coordinate signs `(+ if i & 1, + if i & 2, + if i & 4)`.
/// Local outward normals of the faces of [`CUBOID_LOOPS`], in order.
const CUBOID_NORMALS: [Vec3d; 6] = [
    Vec3d::new(1.0, 0.0, 0.0),
    Vec3d::new(-1.0, 0.0, 0.0),
    Vec3d::new(0.0, 1.0, 0.0),
    Vec3d::new(0.0, -1.0, 0.0),
    Vec3d::new(0.0, 0.0, 1.0),
    Vec3d::new(0.0, 0.0, -1.0),
];

const CUBOID_LOOPS: [[usize; 4]; 6] = [
    [1, 3, 7, 5],
    [0, 4, 6, 2],
    [2, 6, 7, 3],
    [0, 1, 5, 4],
    [4, 5, 7, 6],
    [0, 2, 3, 1],
];

impl Polytope {
    /// A cuboid of half extents `half`, rotated by `rotation` and centred at `center`.
    pub fn cuboid(half: Vec3d, rotation: &Mat3d, center: Vec3d) -> Polytope {
        let local: Vec<Vec3d> = (0..8)
            .map(|i| {
                let s = |bit: usize| if i & bit != 0 { 1.0 } else { -1.0 };
                Vec3d::new(s(1) * half.x, s(2) * half.y, s(4) * half.z)
            })
            .collect();
        let loops: Vec<&[usize]> = CUBOID_LOOPS.iter().map(|l| &l[..]).collect();
        Polytope::from_faces(&local, &loops, Some(&CUBOID_NORMALS), rotation, center)
    }

    /// A convex polytope from local vertices and counter-clockwise (seen from
    /// outside) face loops, placed by `rotation` then `translation`. Face
    /// normals are the given local unit normals rotated, or else come from
    /// Newell's method on the placed vertices; each plane offset is the mean
    /// of its vertices' projections.
    pub fn from_faces(
        local: &[Vec3d],
        face_loops: &[&[usize]],
        local_normals: Option<&[Vec3d]>,
        rotation: &Mat3d,
        translation: Vec3d,
    ) -> Polytope {
        let vertices: Vec<Vec3d> = local.iter().map(|v| rotation * v + translation).collect();
        let mut faces = Vec::with_capacity(face_loops.len());
        let mut loops = Vec::with_capacity(face_loops.len() * 4);
        let mut directed = Vec::with_capacity(face_loops.len() * 4);
        for (f, l) in face_loops.iter().enumerate() {
            let start = loops.len();
            loops.extend_from_slice(l);
            let normal = match local_normals.and_then(|n| n.get(f)) {
                Some(n) => {
                    let r = rotation * n;
                    let len = r.norm();
                    if len > 0.0 {
                        r / len
                    } else {
                        newell_normal(&vertices, l)
                    }
                }
                None => newell_normal(&vertices, l),
            };
            let offset =
                l.iter().map(|&i| normal.dot(&vertices[i])).sum::<f64>() / l.len().max(1) as f64;
            faces.push(Face {
                normal,
                offset,
                start,
                len: l.len(),
            });
            for k in 0..l.len() {
                let (i, j) = (l[k], l[(k + 1) % l.len()]);
                directed.push((i.min(j), i.max(j), f));
            }
        }
        directed.sort_unstable();
        let mut edges: Vec<Edge> = Vec::with_capacity(directed.len() / 2 + 1);
        for (i, j, f) in directed {
            match edges.last_mut() {
                Some(e) if e.a == i && e.b == j && e.faces[1].is_none() => e.faces[1] = Some(f),
                _ => edges.push(Edge {
                    a: i,
                    b: j,
                    faces: [Some(f), None],
                }),
            }
        }
        let center = mean(&vertices);
        let radius = max_distance(&vertices, center);
        Polytope {
            vertices,
            faces,
            loops,
            edges,
            flat: false,
            center,
            radius,
        }
    }

    /// A convex hull placed by `rotation` then `translation`: its polygon
    /// faces keep their exact `f64` normals, rotated.
    pub fn hull(hull: &ConvexHull, rotation: &Mat3d, translation: Vec3d) -> Polytope {
        let local: Vec<Vec3d> = hull.vertices().iter().map(|v| promote(*v)).collect();
        let loops: Vec<Vec<usize>> = hull
            .faces()
            .iter()
            .map(|f| f.vertices().iter().map(|&i| i as usize).collect())
            .collect();
        let loop_refs: Vec<&[usize]> = loops.iter().map(|l| &l[..]).collect();
        let normals: Vec<Vec3d> = hull.faces().iter().map(|f| f.normal()).collect();
        Polytope::from_faces(&local, &loop_refs, Some(&normals), rotation, translation)
    }

    /// A one-sided triangle; `normal` is its unit front normal.
    pub fn triangle(tri: &[Vec3d; 3], normal: Vec3d) -> Polytope {
        let offset = tri.iter().map(|v| normal.dot(v)).sum::<f64>() / 3.0;
        Polytope {
            vertices: tri.to_vec(),
            faces: vec![Face {
                normal,
                offset,
                start: 0,
                len: 3,
            }],
            loops: vec![0, 1, 2],
            edges: (0..3)
                .map(|i| Edge {
                    a: i,
                    b: (i + 1) % 3,
                    faces: [Some(0), None],
                })
                .collect(),
            flat: true,
            center: mean(&tri[..]),
            radius: max_distance(&tri[..], mean(&tri[..])),
        }
    }

    /// The vertex indices of face `f`, counter-clockwise from outside.
    pub fn face_loop(&self, f: usize) -> &[usize] {
        let face = &self.faces[f];
        &self.loops[face.start..face.start + face.len]
    }

    /// The signed distance of `p` to the plane of face `f` (positive outside).
    pub fn face_distance(&self, f: usize, p: Vec3d) -> f64 {
        self.faces[f].normal.dot(&p) - self.faces[f].offset
    }

    /// Smallest projection of the vertices on `axis`.
    pub fn min_projection(&self, axis: Vec3d) -> f64 {
        self.vertices
            .iter()
            .map(|v| axis.dot(v))
            .fold(f64::INFINITY, f64::min)
    }

    /// Largest projection of the vertices on `axis`.
    pub fn max_projection(&self, axis: Vec3d) -> f64 {
        self.vertices
            .iter()
            .map(|v| axis.dot(v))
            .fold(f64::NEG_INFINITY, f64::max)
    }

    /// The largest distance of a vertex from [`Polytope::center`] (m).
    pub fn radius(&self) -> f64 {
        self.radius
    }

    /// The closest point of the polytope's surface to `p`, for `p` outside
    /// or on it (a point inside returns itself). A flat polytope is treated
    /// as its triangle, from both sides.
    pub fn closest_point(&self, p: Vec3d) -> Vec3d {
        if self.flat {
            let tri = [self.vertices[0], self.vertices[1], self.vertices[2]];
            return point_triangle(p, &tri).0;
        }
        let mut best = p;
        let mut best_d = f64::INFINITY;
        for f in 0..self.faces.len() {
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

    /// The closest point of the face polygon `f` to `p`.
    pub fn closest_on_face(&self, f: usize, p: Vec3d) -> Vec3d {
        let n = self.faces[f].normal;
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
        if inside {
            projected
        } else {
            best
        }
    }

    /// The points of face `f`'s polygon, in loop order.
    pub fn face_polygon(&self, f: usize) -> Vec<Vec3d> {
        self.face_loop(f)
            .iter()
            .map(|&i| self.vertices[i])
            .collect()
    }

    /// The face whose normal is most anti-parallel to `n`.
    pub fn incident_face(&self, n: Vec3d) -> usize {
        let mut best = 0;
        let mut best_dot = f64::INFINITY;
        for (f, face) in self.faces.iter().enumerate() {
            let d = face.normal.dot(&n);
            if d < best_dot {
                best_dot = d;
                best = f;
            }
        }
        best
    }

    /// Endpoints of edge `e`.
    pub fn edge_points(&self, e: usize) -> (Vec3d, Vec3d) {
        (
            self.vertices[self.edges[e].a],
            self.vertices[self.edges[e].b],
        )
    }
}

/// Closest points of two polytopes that do not overlap, by brute force over
/// feature pairs: every vertex against the other polytope's faces, every
/// edge against every edge (exact for disjoint convex polytopes: the closest
/// pair always involves a vertex or two edges). Returns (distance, point on
/// `a`, point on `b`).
pub(crate) fn closest_points(a: &Polytope, b: &Polytope) -> (f64, Vec3d, Vec3d) {
    let mut best = (f64::INFINITY, a.center, b.center);
    let mut consider = |pa: Vec3d, pb: Vec3d| {
        let d = (pb - pa).norm();
        if d < best.0 {
            best = (d, pa, pb);
        }
    };
    for &v in &b.vertices {
        consider(a.closest_point(v), v);
    }
    for &v in &a.vertices {
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

fn max_distance(points: &[Vec3d], center: Vec3d) -> f64 {
    points
        .iter()
        .map(|v| (v - center).norm())
        .fold(0.0, f64::max)
}

fn mean(points: &[Vec3d]) -> Vec3d {
    if points.is_empty() {
        return Vec3d::zeros();
    }
    points.iter().sum::<Vec3d>() / points.len() as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cuboid_faces_point_outward_and_every_edge_has_two_faces() {
        let c = Polytope::cuboid(
            Vec3d::new(1.0, 2.0, 3.0),
            &Mat3d::identity(),
            Vec3d::zeros(),
        );
        assert_eq!(c.faces.len(), 6);
        assert_eq!(c.edges.len(), 12);
        assert!(c.edges.iter().all(|e| e.faces[1].is_some()));
        for face in &c.faces {
            // The face plane is at the half extent along its own axis.
            let expected = face.normal.dot(&Vec3d::new(1.0, 2.0, 3.0)).abs();
            assert!((face.offset - expected).abs() < 1e-12 && face.offset > 0.0);
        }
    }

    #[test]
    fn closest_point_of_a_cube_to_a_point_beyond_a_corner_is_the_corner() {
        let c = Polytope::cuboid(
            Vec3d::new(1.0, 1.0, 1.0),
            &Mat3d::identity(),
            Vec3d::zeros(),
        );
        let q = c.closest_point(Vec3d::new(3.0, 2.0, 5.0));
        assert!((q - Vec3d::new(1.0, 1.0, 1.0)).norm() < 1e-15);
    }
}
