//! The 3D convex hull of `f32` points by exact incremental construction.
//!
//! Method: the beneath-beyond incremental algorithm (Kallay 1984; Preparata
//! and Shamos, "Computational Geometry", 3.4.2) made robust by exact
//! predicates, with the conflict lists of Quickhull (Barber, Dobkin and
//! Huhdanpaa 1996). An initial tetrahedron is chosen from extreme points;
//! every other point waits on one triangle that it is strictly in front of by
//! the exact [`orient3d`] (Shewchuk's filtered expansion predicate). The
//! farthest waiting point of a triangle then replaces the connected region of
//! triangles it sees by a fan from the horizon to the point, and the waiting
//! points of the removed triangles move to the new ones; a point on or behind
//! every plane is inside or on the hull and is dropped. Afterwards adjacent triangles
//! that are exactly coplanar are merged into convex polygon faces, and
//! polygon vertices that lie exactly on a straight edge are dropped, so the
//! output vertices are exactly the extreme points of the input.
//!
//! Precision domain: every finite `f32` point set; all decisions are exact
//! signs ([`orient3d`], [`collinear`]), and the output vertices are input
//! points bit for bit. Only the unit face normals are rounded (`f64`, Newell's
//! method). Cost: O(n log n) expected predicate evaluations for points in
//! general position, O(n h) in the worst case for h hull triangles.

use crate::error::ShapeError;
use parapet_math::{collinear, orient3d, Sign, Vec3, Vec3d};
use std::collections::HashMap;

/// The combinatorial hull: extreme points, polygon faces and unique edges.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct HullTopology {
    /// The hull's vertices (input points, ascending input order).
    pub vertices: Vec<Vec3>,
    /// Each face's vertex indices, counter-clockwise seen from outside,
    /// starting at its smallest index; faces sorted lexicographically.
    pub faces: Vec<Vec<u32>>,
    /// Each face's outward unit normal (`f64`).
    pub normals: Vec<Vec3d>,
    /// Unique undirected edges `[i, j]` with `i < j`, sorted.
    pub edges: Vec<[u32; 2]>,
}

#[derive(Debug, Clone, Copy)]
struct Face {
    v: [usize; 3],
    alive: bool,
}

fn p64(p: &Vec3) -> Vec3d {
    p.cast::<f64>()
}

fn degenerate(points: usize, reason: &'static str) -> ShapeError {
    ShapeError::DegenerateHull { points, reason }
}

/// Picks four non-coplanar points, extreme ones where possible.
fn initial_simplex(points: &[Vec3]) -> Result<[usize; 4], ShapeError> {
    let n = points.len();
    let (i0, _) = points
        .iter()
        .enumerate()
        .min_by(|a, b| a.1.x.total_cmp(&b.1.x))
        .ok_or_else(|| degenerate(n, "no points"))?;
    let q0 = p64(&points[i0]);
    let far = |score: &dyn Fn(&Vec3d) -> f64| -> usize {
        let mut best = (0usize, f64::NEG_INFINITY);
        for (i, p) in points.iter().enumerate() {
            let s = score(&p64(p));
            if s > best.1 {
                best = (i, s);
            }
        }
        best.0
    };
    let i1 = far(&|p| (p - q0).norm_squared());
    if points[i1] == points[i0] {
        return Err(degenerate(n, "all points coincide"));
    }
    let q1 = p64(&points[i1]);
    let mut i2 = far(&|p| (q1 - q0).cross(&(p - q0)).norm_squared());
    if collinear(points[i0], points[i1], points[i2]) {
        i2 = (0..n)
            .find(|&i| !collinear(points[i0], points[i1], points[i]))
            .ok_or_else(|| degenerate(n, "all points are collinear"))?;
    }
    let q2 = p64(&points[i2]);
    let normal = (q1 - q0).cross(&(q2 - q0));
    let mut i3 = far(&|p| normal.dot(&(p - q0)).abs());
    if orient3d(points[i0], points[i1], points[i2], points[i3]) == Sign::Zero {
        i3 = (0..n)
            .find(|&i| orient3d(points[i0], points[i1], points[i2], points[i]) != Sign::Zero)
            .ok_or_else(|| degenerate(n, "all points are coplanar"))?;
    }
    Ok([i0, i1, i2, i3])
}

/// Builds the hull of finite points (finiteness is checked by the caller).
pub(crate) fn convex_hull(points: &[Vec3]) -> Result<HullTopology, ShapeError> {
    let n = points.len();
    if n < 4 {
        return Err(degenerate(n, "fewer than 4 points"));
    }
    let simplex = initial_simplex(points)?;
    let orient =
        |f: &[usize; 3], p: usize| orient3d(points[f[0]], points[f[1]], points[f[2]], points[p]);

    let mut faces: Vec<Face> = Vec::new();
    let mut edge_face: HashMap<(usize, usize), usize> = HashMap::new();
    let add_face =
        |faces: &mut Vec<Face>, edge_face: &mut HashMap<(usize, usize), usize>, v: [usize; 3]| {
            let id = faces.len();
            for k in 0..3 {
                edge_face.insert((v[k], v[(k + 1) % 3]), id);
            }
            faces.push(Face { v, alive: true });
        };
    for skip in 0..4 {
        let mut tri = [0usize; 3];
        let mut k = 0;
        for (j, &s) in simplex.iter().enumerate() {
            if j != skip {
                tri[k] = s;
                k += 1;
            }
        }
        // Outward: the fourth vertex lies behind the face.
        if orient(&tri, simplex[skip]) == Sign::Positive {
            tri.swap(1, 2);
        }
        add_face(&mut faces, &mut edge_face, tri);
    }

    // Conflict lists (Barber, Dobkin and Huhdanpaa 1996, "The Quickhull
    // algorithm for convex hulls"): each point waits on one triangle it is
    // strictly in front of; a point in front of none is inside and dropped.
    let mut conflicts: Vec<Vec<usize>> = vec![Vec::new(); faces.len()];
    for p in (0..n).filter(|p| !simplex.contains(p)) {
        if let Some(f) = (0..faces.len()).find(|&f| orient(&faces[f].v, p) == Sign::Positive) {
            conflicts[f].push(p);
        }
    }
    let mut pending: Vec<usize> = (0..faces.len()).rev().collect();
    let mut visible = Vec::new();
    let mut stack = Vec::new();
    while let Some(start) = pending.pop() {
        if !faces[start].alive || conflicts[start].is_empty() {
            continue;
        }
        // The farthest waiting point (f64 estimate; ties to the lower index).
        let fv = faces[start].v.map(|i| p64(&points[i]));
        let normal = (fv[1] - fv[0]).cross(&(fv[2] - fv[0]));
        let p = conflicts[start]
            .iter()
            .copied()
            .max_by(|&a, &b| {
                let da = normal.dot(&(p64(&points[a]) - fv[0]));
                let db = normal.dot(&(p64(&points[b]) - fv[0]));
                da.total_cmp(&db).then(b.cmp(&a))
            })
            .unwrap_or(conflicts[start][0]);
        // The visible triangles form a connected region around `start`.
        visible.clear();
        stack.clear();
        faces[start].alive = false;
        stack.push(start);
        while let Some(f) = stack.pop() {
            visible.push(f);
            let v = faces[f].v;
            for k in 0..3 {
                let g = neighbour(&edge_face, v[(k + 1) % 3], v[k], n)?;
                if faces[g].alive && orient(&faces[g].v, p) == Sign::Positive {
                    faces[g].alive = false;
                    stack.push(g);
                }
            }
        }
        let mut horizon = Vec::new();
        for &f in &visible {
            let v = faces[f].v;
            for k in 0..3 {
                let (a, b) = (v[k], v[(k + 1) % 3]);
                let across = neighbour(&edge_face, b, a, n)?;
                if faces[across].alive {
                    horizon.push((a, b));
                }
            }
        }
        for &f in &visible {
            let v = faces[f].v;
            for k in 0..3 {
                let key = (v[k], v[(k + 1) % 3]);
                if edge_face.get(&key) == Some(&f) {
                    edge_face.remove(&key);
                }
            }
        }
        let first_new = faces.len();
        for (a, b) in horizon {
            add_face(&mut faces, &mut edge_face, [a, b, p]);
            conflicts.push(Vec::new());
        }
        // Hand the waiting points of the removed triangles to the new ones.
        let mut orphans: Vec<usize> = visible
            .iter()
            .flat_map(|&f| std::mem::take(&mut conflicts[f]))
            .filter(|&q| q != p)
            .collect();
        orphans.sort_unstable();
        for q in orphans {
            if let Some(f) =
                (first_new..faces.len()).find(|&f| orient(&faces[f].v, q) == Sign::Positive)
            {
                conflicts[f].push(q);
            }
        }
        pending.extend((first_new..faces.len()).rev());
    }

    merge_coplanar(points, &faces, &edge_face, simplex)
}

/// The error for a broken triangle adjacency. Exact predicates keep the
/// triangulation a closed 2-manifold, so this is not expected; it is reported
/// rather than panicking.
fn broken(points: usize) -> ShapeError {
    degenerate(points, "the hull triangulation is not closed")
}

/// The triangle across the directed edge `(a, b)`.
fn neighbour(
    edge_face: &HashMap<(usize, usize), usize>,
    a: usize,
    b: usize,
    points: usize,
) -> Result<usize, ShapeError> {
    edge_face
        .get(&(a, b))
        .copied()
        .ok_or_else(|| broken(points))
}

fn find(parent: &mut [usize], mut x: usize) -> usize {
    while parent[x] != x {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    x
}

/// Merges exactly coplanar adjacent triangles into polygons, removes
/// vertices on straight polygon edges, and indexes the result canonically.
fn merge_coplanar(
    points: &[Vec3],
    faces: &[Face],
    edge_face: &HashMap<(usize, usize), usize>,
    simplex: [usize; 4],
) -> Result<HullTopology, ShapeError> {
    let mut parent: Vec<usize> = (0..faces.len()).collect();
    for (i, f) in faces.iter().enumerate().filter(|(_, f)| f.alive) {
        for k in 0..3 {
            let (a, b) = (f.v[k], f.v[(k + 1) % 3]);
            let g = neighbour(edge_face, b, a, points.len())?;
            let opposite = faces[g]
                .v
                .iter()
                .copied()
                .find(|&x| x != a && x != b)
                .unwrap_or(a);
            if orient3d(
                points[f.v[0]],
                points[f.v[1]],
                points[f.v[2]],
                points[opposite],
            ) == Sign::Zero
            {
                let (ri, rg) = (find(&mut parent, i), find(&mut parent, g));
                parent[ri.max(rg)] = ri.min(rg);
            }
        }
    }
    // Group the directed boundary edges of each coplanar group.
    let mut groups: HashMap<usize, Vec<(usize, usize)>> = HashMap::new();
    for (i, f) in faces.iter().enumerate().filter(|(_, f)| f.alive) {
        let root = find(&mut parent, i);
        for k in 0..3 {
            let (a, b) = (f.v[k], f.v[(k + 1) % 3]);
            let g = neighbour(edge_face, b, a, points.len())?;
            if find(&mut parent, g) != root {
                groups.entry(root).or_default().push((a, b));
            }
        }
    }
    let mut loops: Vec<Vec<usize>> = Vec::with_capacity(groups.len());
    for (root, edges) in groups {
        let next: HashMap<usize, usize> = edges.iter().copied().collect();
        let start = edges.iter().map(|e| e.0).min().unwrap_or(0);
        let mut ring = vec![start];
        let mut cur = next.get(&start).copied().unwrap_or(start);
        while cur != start && ring.len() <= edges.len() {
            ring.push(cur);
            cur = next.get(&cur).copied().unwrap_or(start);
        }
        if ring.len() != edges.len() {
            return Err(broken(points.len()));
        }
        // A point off this face's plane: one of the simplex's four points.
        let f = faces[root].v;
        let off = simplex
            .iter()
            .copied()
            .find(|&s| orient3d(points[f[0]], points[f[1]], points[f[2]], points[s]) != Sign::Zero)
            .unwrap_or(simplex[0]);
        let m = ring.len();
        let kept: Vec<usize> = (0..m)
            .filter(|&i| {
                let (u, v, w) = (ring[(i + m - 1) % m], ring[i], ring[(i + 1) % m]);
                orient3d(points[u], points[v], points[w], points[off]) != Sign::Zero
            })
            .map(|i| ring[i])
            .collect();
        loops.push(kept);
    }

    // Canonical indexing: vertices in ascending input order.
    let mut used: Vec<usize> = loops.iter().flatten().copied().collect();
    used.sort_unstable();
    used.dedup();
    let new_index: HashMap<usize, u32> = used
        .iter()
        .enumerate()
        .map(|(k, &i)| (i, k as u32))
        .collect();
    let vertices: Vec<Vec3> = used.iter().map(|&i| points[i]).collect();
    let mut polygons: Vec<Vec<u32>> = loops
        .into_iter()
        .map(|l| {
            let mut poly: Vec<u32> = l.iter().map(|i| new_index[i]).collect();
            let min_pos = poly
                .iter()
                .enumerate()
                .min_by_key(|(_, v)| **v)
                .map(|(k, _)| k)
                .unwrap_or(0);
            poly.rotate_left(min_pos);
            poly
        })
        .collect();
    polygons.sort();
    if polygons.len() < 4 || polygons.iter().any(|p| p.len() < 3) {
        return Err(degenerate(points.len(), "the hull has no interior"));
    }
    let normals = polygons
        .iter()
        .map(|poly| newell_normal(&vertices, poly))
        .collect();
    let mut edges: Vec<[u32; 2]> = polygons
        .iter()
        .flat_map(|poly| {
            let m = poly.len();
            (0..m).map(move |k| {
                let (a, b) = (poly[k], poly[(k + 1) % m]);
                [a.min(b), a.max(b)]
            })
        })
        .collect();
    edges.sort_unstable();
    edges.dedup();
    Ok(HullTopology {
        vertices,
        faces: polygons,
        normals,
        edges,
    })
}

/// Unit normal of a planar polygon by Newell's method, in `f64` relative to
/// its first vertex (counter-clockwise polygons give the outward normal).
fn newell_normal(vertices: &[Vec3], poly: &[u32]) -> Vec3d {
    let origin = p64(&vertices[poly[0] as usize]);
    let mut n = Vec3d::zeros();
    let m = poly.len();
    for k in 0..m {
        let p = p64(&vertices[poly[k] as usize]) - origin;
        let q = p64(&vertices[poly[(k + 1) % m] as usize]) - origin;
        n += p.cross(&q);
    }
    let len = n.norm();
    if len > 0.0 {
        n / len
    } else {
        n
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cube_with_extras() -> Vec<Vec3> {
        let mut pts = Vec::new();
        // Edge midpoints and face centers first, so they enter the hull
        // before the corners and must be removed again.
        pts.push(Vec3::new(0.0, -1.0, -1.0));
        pts.push(Vec3::new(0.0, 0.0, 1.0));
        pts.push(Vec3::new(0.0, 0.0, 0.0));
        for &x in &[-1.0, 1.0] {
            for &y in &[-1.0, 1.0] {
                for &z in &[-1.0, 1.0] {
                    pts.push(Vec3::new(x, y, z));
                }
            }
        }
        pts.push(Vec3::new(1.0, 0.0, 0.0));
        pts
    }

    #[test]
    fn a_cube_has_eight_corners_six_quads_and_twelve_edges() {
        let h = convex_hull(&cube_with_extras()).unwrap();
        assert_eq!(h.vertices.len(), 8);
        assert_eq!(h.faces.len(), 6);
        assert!(h.faces.iter().all(|f| f.len() == 4));
        assert_eq!(h.edges.len(), 12);
        for (poly, n) in h.faces.iter().zip(&h.normals) {
            // Axis-aligned unit normals, pointing away from the origin.
            let p = h.vertices[poly[0] as usize].cast::<f64>();
            assert!(n.dot(&p) > 0.0);
            assert!((n.norm() - 1.0).abs() < 1e-15);
        }
    }

    #[test]
    fn degenerate_inputs_are_named() {
        let pts = [Vec3::x(); 5];
        assert!(matches!(
            convex_hull(&pts),
            Err(ShapeError::DegenerateHull {
                reason: "all points coincide",
                ..
            })
        ));
        let line: Vec<Vec3> = (0..5).map(|i| Vec3::x() * i as f32).collect();
        assert!(matches!(
            convex_hull(&line),
            Err(ShapeError::DegenerateHull {
                reason: "all points are collinear",
                ..
            })
        ));
        let plane: Vec<Vec3> = (0..9)
            .map(|i| Vec3::new((i % 3) as f32, (i / 3) as f32, 2.0))
            .collect();
        assert!(matches!(
            convex_hull(&plane),
            Err(ShapeError::DegenerateHull {
                reason: "all points are coplanar",
                ..
            })
        ));
    }
}
