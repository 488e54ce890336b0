//! Edge-edge inclusion CCD: the first time two linearly moving segments meet,
//! as a zero of
//! `F(t, u, v) = [a0(t) + u (a1(t) - a0(t))] - [b0(t) + v (b1(t) - b0(t))]`
//! with `u, v in [0, 1]`, `t in [0, 1]` (the multivariate form of Wang et
//! al. 2021, section 4).
//!
//! F is multilinear in (t, u, v), so the 8 corners bound it; the rounding
//! filter is proven in [`super::rounding_error`]; the search is
//! [`super::bisection`]. Parallel and collinear edges need no special case.
//!
//! Precision domain: any finite `f64` coordinates; the time returned is a
//! lower bound of the first contact of the exact inputs.

use parapet_math::Vec3d;

use super::bisection::{prepare_points, search, MultilinearGap, SearchSetup};
use super::config::InclusionConfig;
use super::error::InclusionError;
use super::outcome::InclusionToi;

/// Two segments (edge a, edge b), each endpoint moving linearly from its start
/// position (t = 0) to its end position (t = 1).
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct EdgeEdgeQuery {
    /// Edge a's endpoints at t = 0.
    pub edge_a_start: [Vec3d; 2],
    /// Edge b's endpoints at t = 0.
    pub edge_b_start: [Vec3d; 2],
    /// Edge a's endpoints at t = 1.
    pub edge_a_end: [Vec3d; 2],
    /// Edge b's endpoints at t = 1.
    pub edge_b_end: [Vec3d; 2],
}

impl EdgeEdgeQuery {
    /// Builds a query from 8 points in the benchmark's order: `a0(t0),
    /// a1(t0), b0(t0), b1(t0), a0(t1), a1(t1), b0(t1), b1(t1)`.
    pub fn from_points(points: [[f64; 3]; 8]) -> Self {
        let p = points.map(Vec3d::from);
        Self {
            edge_a_start: [p[0], p[1]],
            edge_b_start: [p[2], p[3]],
            edge_a_end: [p[4], p[5]],
            edge_b_end: [p[6], p[7]],
        }
    }

    /// The 8 points in the order of [`EdgeEdgeQuery::from_points`].
    pub fn points(&self) -> [[f64; 3]; 8] {
        [
            self.edge_a_start[0],
            self.edge_a_start[1],
            self.edge_b_start[0],
            self.edge_b_start[1],
            self.edge_a_end[0],
            self.edge_a_end[1],
            self.edge_b_end[0],
            self.edge_b_end[1],
        ]
        .map(|v| [v.x, v.y, v.z])
    }
}

/// F of an edge-edge query: start positions and displacements of a0, a1, b0,
/// b1 per axis.
struct EdgeEdgeGap {
    /// `start[axis][point]`, points a0, a1, b0, b1.
    start: [[f64; 4]; 3],
    /// `fl(end - start)`, same layout.
    displacement: [[f64; 4]; 3],
}

impl MultilinearGap for EdgeEdgeGap {
    const TRIANGLE_DOMAIN: bool = false;

    #[inline]
    fn corners(&self, axis: usize, t: [f64; 2], u: [f64; 2], v: [f64; 2]) -> [f64; 8] {
        let mut out = [0.0; 8];
        let x0 = &self.start[axis];
        let dx = &self.displacement[axis];
        for (ti, tt) in t.into_iter().enumerate() {
            // Evaluation order of the proof in rounding_error.rs.
            let a0 = x0[0] + tt * dx[0];
            let a1 = x0[1] + tt * dx[1];
            let b0 = x0[2] + tt * dx[2];
            let b1 = x0[3] + tt * dx[3];
            let da = a1 - a0;
            let db = b1 - b0;
            for (ui, uu) in u.into_iter().enumerate() {
                let ea = a0 + uu * da;
                for (vi, vv) in v.into_iter().enumerate() {
                    out[ti * 4 + ui * 2 + vi] = ea - (b0 + vv * db);
                }
            }
        }
        out
    }
}

/// Conservative first time of contact (within `config.min_separation`)
/// between two moving segments, by inclusion bisection.
///
/// Never later than the true first contact; see [`InclusionToi`] for the
/// status, the precision reached and the iteration count.
///
/// # Errors
/// [`InclusionError`] for a non-finite coordinate or an invalid config.
pub fn edge_edge_toi(
    query: &EdgeEdgeQuery,
    config: &InclusionConfig,
) -> Result<InclusionToi, InclusionError> {
    config.validate()?;
    edge_edge_toi_unchecked_config(query, config)
}

/// [`edge_edge_toi`] without validating `config` (already validated).
pub(crate) fn edge_edge_toi_unchecked_config(
    query: &EdgeEdgeQuery,
    config: &InclusionConfig,
) -> Result<InclusionToi, InclusionError> {
    let prepared = prepare_points(query.points(), "edge-edge")?;
    let x = &prepared.points;
    let mut start = [[0.0; 4]; 3];
    let mut displacement = [[0.0; 4]; 3];
    for axis in 0..3 {
        for point in 0..4 {
            start[axis][point] = x[point][axis];
            displacement[axis][point] = x[point + 4][axis] - x[point][axis];
        }
    }
    // Bounds of |dF/dt|, |dF/du|, |dF/dv| (L-infinity over axes): the largest
    // endpoint displacement of each edge, summed; each edge's extent at
    // either end time.
    let mut slope = [0.0f64; 3];
    for axis in 0..3 {
        let d = &displacement[axis];
        let motion_a = d[0].abs().max(d[1].abs());
        let motion_b = d[2].abs().max(d[3].abs());
        slope[0] = slope[0].max(motion_a + motion_b);
        for (dim, first) in [(1, 0), (2, 2)] {
            let at_start = (x[first + 1][axis] - x[first][axis]).abs();
            let at_end = (x[first + 5][axis] - x[first + 4][axis]).abs();
            slope[dim] = slope[dim].max(at_start.max(at_end));
        }
    }
    let setup = SearchSetup::new(&prepared, slope, config);
    Ok(search(
        &EdgeEdgeGap {
            start,
            displacement,
        },
        &setup,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Edge a along x at z = 1 moving down to z = -1; edge b fixed along y at
    /// z = 0: they cross at t = 0.5 at the origin.
    fn crossing_edges() -> EdgeEdgeQuery {
        EdgeEdgeQuery::from_points([
            [-1.0, 0.0, 1.0],
            [1.0, 0.0, 1.0],
            [0.0, -1.0, 0.0],
            [0.0, 1.0, 0.0],
            [-1.0, 0.0, -1.0],
            [1.0, 0.0, -1.0],
            [0.0, -1.0, 0.0],
            [0.0, 1.0, 0.0],
        ])
    }

    #[test]
    fn crossing_edges_hit_at_half_from_below() {
        let result = edge_edge_toi(&crossing_edges(), &InclusionConfig::default()).unwrap();
        let toi = result.toi.unwrap();
        // delta = 1e-6 of the extent 2, |dF/dt| <= 2: tol_t ~ 3.3e-7.
        assert!(toi <= 0.5 && toi > 0.5 - 1e-6, "{toi}");
    }

    #[test]
    fn edges_passing_beside_each_other_miss() {
        let mut q = crossing_edges();
        // Shift edge b to y in [2, 4]: edge a (y = 0) never reaches it.
        q.edge_b_start = [Vec3d::new(0.0, 2.0, 0.0), Vec3d::new(0.0, 4.0, 0.0)];
        q.edge_b_end = q.edge_b_start;
        let result = edge_edge_toi(&q, &InclusionConfig::default()).unwrap();
        assert_eq!(result.toi, None);
        assert_eq!(result.status, crate::InclusionStatus::Separated);
    }

    #[test]
    fn collinear_overlapping_edges_touch_at_start() {
        // Both edges on the x axis, overlapping at t = 0, sliding along it:
        // the univariate cubic is identically zero here.
        let q = EdgeEdgeQuery::from_points([
            [0.0, 0.0, 0.0],
            [2.0, 0.0, 0.0],
            [1.0, 0.0, 0.0],
            [3.0, 0.0, 0.0],
            [1.0, 0.0, 0.0],
            [3.0, 0.0, 0.0],
            [1.0, 0.0, 0.0],
            [3.0, 0.0, 0.0],
        ]);
        let result = edge_edge_toi(&q, &InclusionConfig::default()).unwrap();
        assert_eq!(result.toi, Some(0.0));
    }
}
