//! The silhouettes of a solid seen along its edge directions, a layer of
//! `sweep_solid_triangle` (see `solid_triangle`).
//!
//! Method: every edge-pair axis `c = e x t` (solid edge direction `e`,
//! triangle edge `t`) is perpendicular to `e`, so the solid's extremes along
//! `c` lie on its outline seen along `e`: the 2D convex hull of the vertices
//! projected onto the plane perpendicular to `e` (Andrew's monotone chain;
//! de Berg, Cheong, van Kreveld and Overmars, *Computational Geometry*, 3rd
//! ed., 1.1). The sweep projects only those vertices, three axes of one edge
//! direction in one pass.
//!
//! Precision domain: points within a relative `1e-9` of the hull boundary
//! are kept and only exact duplicates are merged, so roundoff can only keep
//! more points, never drop an extreme one: the intervals are those of all
//! the vertices.

use parapet_math::Vec3d;

use super::tables::SweepTables;

/// The vertices on the silhouette of `vertices` seen along the unit
/// direction `e`: the 2D convex hull of their projection onto the plane
/// perpendicular to `e` (Andrew's monotone chain). Points within a relative
/// `1e-9` of the hull boundary are kept, so roundoff can only keep more
/// points, never drop an extreme one; only exact duplicates are merged.
pub(crate) fn silhouette(vertices: &[Vec3d], e: &Vec3d) -> [Vec<f64>; 3] {
    let u = e
        .cross(
            &(if e.x.abs() < 0.9 {
                Vec3d::x()
            } else {
                Vec3d::y()
            }),
        )
        .normalize();
    let w = e.cross(&u);
    let mut pts: Vec<(f64, f64, usize)> = vertices
        .iter()
        .enumerate()
        .map(|(i, v)| (v.dot(&u), v.dot(&w), i))
        .collect();
    pts.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)));
    // Vertices that project onto the same point (a box's edges seen end on)
    // have equal projections on every axis perpendicular to `e`: keep one.
    pts.dedup_by(|b, a| a.0 == b.0 && a.1 == b.1);
    let scale = vertices.iter().map(|v| v.norm()).fold(0.0, f64::max);
    let tol = 1.0e-9 * scale * scale;
    let turn = |o: (f64, f64, usize), a: (f64, f64, usize), b: (f64, f64, usize)| {
        (a.0 - o.0) * (b.1 - o.1) - (a.1 - o.1) * (b.0 - o.0)
    };
    let chain = |iter: &mut dyn Iterator<Item = (f64, f64, usize)>| {
        let mut h: Vec<(f64, f64, usize)> = Vec::new();
        for p in iter {
            // Drop the last point only when it is strictly inside by more
            // than the tolerance (a clear right turn).
            while h.len() >= 2 && turn(h[h.len() - 2], h[h.len() - 1], p) < -tol {
                h.pop();
            }
            h.push(p);
        }
        h
    };
    let lower = chain(&mut pts.iter().copied());
    let upper = chain(&mut pts.iter().rev().copied());
    let mut keep: Vec<usize> = lower.iter().chain(upper.iter()).map(|p| p.2).collect();
    keep.sort_unstable();
    keep.dedup();
    [0, 1, 2].map(|k| keep.iter().map(|&i| vertices[i][k]).collect())
}

impl SweepTables {
    /// The solid's projection interval on one axis perpendicular to edge
    /// direction `edge` (over that edge's silhouette).
    #[inline]
    pub(crate) fn silhouette_interval(&self, edge: usize, a: &Vec3d) -> (f64, f64) {
        let [xs, ys, zs] = &self.silhouettes[edge];
        let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
        for ((x, y), z) in xs.iter().zip(ys).zip(zs) {
            let p = a.x * x + a.y * y + a.z * z;
            lo = if p < lo { p } else { lo };
            hi = if p > hi { p } else { hi };
        }
        (lo, hi)
    }

    /// The solid's projection intervals on three axes perpendicular to edge
    /// direction `edge` at once (one pass over that edge's silhouette with
    /// six independent running extremes).
    #[inline]
    pub(crate) fn interval3(&self, edge: usize, a: &[Vec3d; 3]) -> [(f64, f64); 3] {
        let [xs, ys, zs] = &self.silhouettes[edge];
        let mut lo = [f64::INFINITY; 3];
        let mut hi = [f64::NEG_INFINITY; 3];
        for ((x, y), z) in xs.iter().zip(ys).zip(zs) {
            for k in 0..3 {
                let p = a[k].x * x + a[k].y * y + a[k].z * z;
                lo[k] = if p < lo[k] { p } else { lo[k] };
                hi[k] = if p > hi[k] { p } else { hi[k] };
            }
        }
        [(lo[0], hi[0]), (lo[1], hi[1]), (lo[2], hi[2])]
    }
}

#[cfg(test)]
mod tests {
    use crate::sweep::test_fixtures::{skewed_octahedron, unit_box};
    use parapet_math::Vec3d;

    #[test]
    fn silhouettes_keep_every_extreme_perpendicular_to_their_edge() {
        let b = unit_box();
        // A box seen along an edge is a rectangle: 4 of its 8 vertices.
        assert!(b.tables().silhouettes.iter().all(|s| s[0].len() == 4));
        for solid in [skewed_octahedron(), b] {
            for (j, e) in solid.edges().iter().enumerate() {
                for k in 0..16 {
                    let a = (k as f64) * 0.4;
                    let probe = Vec3d::new(a.cos(), a.sin(), 0.3 * a - 1.0);
                    let axis = e.cross(&probe);
                    let [got, ..] = solid.tables().interval3(j, &[axis, axis, axis]);
                    let all = solid.tables().interval(&axis);
                    // Same extremes as all the vertices: the silhouette drops
                    // only interior points and exact duplicates seen along
                    // the edge, whose projections differ by `axis . e`, zero
                    // up to one rounding (1e-15 of these unit lengths).
                    assert!(
                        (got.0 - all.0).abs() < 1e-15 && (got.1 - all.1).abs() < 1e-15,
                        "edge {j} probe {k}: {got:?} vs {all:?}"
                    );
                }
            }
        }
    }
}
