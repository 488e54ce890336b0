//! The reduction of one body's contact points against one mesh:
//! [`reduce_mesh_points`] keeps at most [`MAX_MESH_POINTS`] of the points
//! that the body's tests against the mesh's triangles found, so that a box
//! resting across many small triangles reaches the solver with its support
//! polygon (its four corners), not with every clipped piece of it.
//!
//! Method (the manifold reduction of Box2D and Bullet, per normal
//! direction): the points are grouped by normal, from the deepest point
//! not yet grouped: a group takes every remaining point whose normal lies
//! within [`GROUP_NORMAL_COS`] of the seed's (a flat or gently curved floor
//! is one group; the two sides of a crease are two). A group is reduced to
//! at most four points that span the largest patch seen along the seed's
//! normal: the deepest point, the point farthest from it, then the two
//! points that make the largest triangles on either side of that diagonal;
//! of those, a point closer than [`DUPLICATE_DISTANCE`] to another chosen
//! one (the same corner seen by two triangles of a seam, or the fourth
//! pick of a triangular patch) leaves only the deeper of the two. Linear in
//! the points of a group. Groups are taken until [`MAX_MESH_POINTS`] points
//! are kept. Each kept point keeps its own normal, depth and triangle.
//!
//! Precision domain: `f64` differences relative to the first point; the
//! result is a subset of the input, unchanged.

#[cfg(test)]
use parapet_math::Vec3d;
use parapet_math::{promote, Vec3};

use super::manifold::{reduce_indices, MAX_CONTACT_POINTS};
use super::scratch::ContactScratch;

/// The most points one body keeps against one mesh (count): 8, two groups
/// of four (a box straddling a crease keeps both faces' support polygons).
pub const MAX_MESH_POINTS: usize = 8;

/// Cosine (dimensionless) within which two normals belong to one group:
/// 0.95, about 18 degrees, so that the triangles of a gently curved
/// terrain under one box form one support polygon and the two sides of a
/// real crease stay apart.
pub(crate) const GROUP_NORMAL_COS: f64 = 0.95;

/// Distance (m) within which a shallower point of a group is the same
/// support as a deeper one: 1 mm (the corner of a box counted by the two
/// triangles of a seam, a clipped point on a shared edge).
pub(crate) const DUPLICATE_DISTANCE: f64 = 1.0e-3;

/// One contact point of a body against a mesh, as [`reduce_mesh_points`]
/// takes and keeps it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MeshPoint {
    /// The caller's index of the triangle that gave the point.
    pub triangle: usize,
    /// World point midway between the two surfaces (m).
    pub point: Vec3,
    /// Unit normal from the body to the triangle.
    pub normal: Vec3,
    /// Penetration along the normal (m), negative for a gap.
    pub depth: f32,
}

/// Keeps at most [`MAX_MESH_POINTS`] of `points` (one body against one
/// mesh) that span the body's support (see the module docs), in the order
/// they were chosen; `scratch` holds the working lists. The same input
/// gives the same output, bit for bit.
pub fn reduce_mesh_points(points: &mut Vec<MeshPoint>, scratch: &mut ContactScratch) {
    let Some(first) = points.first() else {
        return;
    };
    let origin = promote(first.point);
    let work = &mut scratch.work;
    work.candidates.clear();
    work.candidates.extend(
        points
            .iter()
            .map(|p| (promote(p.point) - origin, p.depth as f64)),
    );
    // Group index per point: usize::MAX while ungrouped.
    work.groups.clear();
    work.groups.resize(points.len(), usize::MAX);
    let mut kept = [0usize; MAX_MESH_POINTS];
    let mut count = 0;
    let mut group = 0;
    while count < MAX_MESH_POINTS {
        let Some(seed) = (0..points.len())
            .filter(|&i| work.groups[i] == usize::MAX)
            .max_by(|&i, &j| {
                work.candidates[i]
                    .1
                    .total_cmp(&work.candidates[j].1)
                    .then(j.cmp(&i))
            })
        else {
            break;
        };
        let normal = promote(points[seed].normal);
        // The group's members, in input order.
        work.members.clear();
        for (i, p) in points.iter().enumerate() {
            if work.groups[i] == usize::MAX && promote(p.normal).dot(&normal) >= GROUP_NORMAL_COS {
                work.groups[i] = group;
                work.members.push(i);
            }
        }
        let depths = &work.candidates;
        work.patch.clear();
        work.patch.extend(work.members.iter().map(|&i| depths[i]));
        let mut chosen = [0usize; MAX_CONTACT_POINTS];
        let n = reduce_indices(&work.patch, normal, &mut chosen);
        // The chosen points without duplicates: of two within the distance,
        // the deeper (the earlier chosen on a tie).
        let mut distinct = [0usize; MAX_CONTACT_POINTS];
        let mut len = 0;
        for &c in &chosen[..n] {
            let i = work.members[c];
            let near = distinct[..len].iter().position(|&j| {
                (depths[j].0 - depths[i].0).norm_squared()
                    <= DUPLICATE_DISTANCE * DUPLICATE_DISTANCE
            });
            match near {
                Some(k) if depths[i].1 > depths[distinct[k]].1 => distinct[k] = i,
                Some(_) => {}
                None => {
                    distinct[len] = i;
                    len += 1;
                }
            }
        }
        for &i in distinct.iter().take(len.min(MAX_MESH_POINTS - count)) {
            kept[count] = i;
            count += 1;
        }
        group += 1;
    }
    let chosen: [MeshPoint; MAX_MESH_POINTS] =
        std::array::from_fn(|k| points[kept[k.min(count.max(1) - 1)]]);
    points.clear();
    points.extend_from_slice(&chosen[..count]);
}

/// The point `p` as an `f64` offset from `origin` (for tests).
#[cfg(test)]
fn offset(p: Vec3, origin: Vec3d) -> Vec3d {
    promote(p) - origin
}

#[cfg(test)]
mod tests {
    use super::*;

    fn point(x: f32, y: f32, depth: f32, normal: Vec3, triangle: usize) -> MeshPoint {
        MeshPoint {
            triangle,
            point: Vec3::new(x, y, 0.0),
            normal,
            depth,
        }
    }

    #[test]
    fn a_box_over_many_triangles_keeps_its_four_corners() {
        // The clipped pieces of a 1 m box bottom over a 0.25 m grid: every
        // grid crossing inside the square and its corners, all at one depth.
        let down = -Vec3::z();
        let mut points = Vec::new();
        for i in 0..=4 {
            for j in 0..=4 {
                let (x, y) = (-0.5 + 0.25 * i as f32, -0.5 + 0.25 * j as f32);
                points.push(point(x, y, 0.001, down, i * 5 + j));
                // The same crossing seen by a neighbouring triangle.
                points.push(point(x, y, 0.001, down, 100 + i * 5 + j));
            }
        }
        let mut scratch = ContactScratch::new();
        reduce_mesh_points(&mut points, &mut scratch);
        assert_eq!(points.len(), 4);
        let mut corners: Vec<(i32, i32)> = points
            .iter()
            .map(|p| ((p.point.x * 2.0) as i32, (p.point.y * 2.0) as i32))
            .collect();
        corners.sort();
        assert_eq!(corners, vec![(-1, -1), (-1, 1), (1, -1), (1, 1)]);
        assert!(offset(points[0].point, Vec3d::zeros()).norm() > 0.7);
    }

    #[test]
    fn the_two_sides_of_a_crease_keep_a_patch_each() {
        let a = Vec3::new(0.0, -0.6, -0.8);
        let b = Vec3::new(0.0, 0.6, -0.8);
        let mut points = Vec::new();
        for k in 0..6 {
            let x = k as f32 * 0.2;
            points.push(point(x, 0.1, 0.002, a, k));
            points.push(point(x, -0.1, 0.001, b, 10 + k));
        }
        let mut scratch = ContactScratch::new();
        reduce_mesh_points(&mut points, &mut scratch);
        assert_eq!(points.len(), 8);
        assert_eq!(points.iter().filter(|p| p.normal == a).count(), 4);
        // The deepest group comes first.
        assert!(points[..4].iter().all(|p| p.normal == a));
    }
}
