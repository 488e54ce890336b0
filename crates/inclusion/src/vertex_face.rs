//! Vertex-face inclusion CCD: the first time a linearly moving point meets a
//! linearly moving triangle, as a zero of
//! `F(t, u, v) = p(t) - [a(t) + u (b(t) - a(t)) + v (c(t) - a(t))]` with
//! `u, v >= 0`, `u + v <= 1`, `t in [0, 1]` (the multivariate form of the
//! coplanarity condition, Wang et al. 2021, section 4).
//!
//! F is linear in each of t, u and v (multilinear: the t u and t v products
//! appear, but no square), so its range over a box is the hull of its 8
//! corner values; the rounding filter is proven in
//! [`super::rounding_error`]; the search is [`super::bisection`]. Boxes
//! entirely outside the triangle (`u + v > 1`) are dropped.
//!
//! Precision domain: any finite `f64` coordinates; the time returned is a
//! lower bound of the first contact of the exact inputs.

use parapet_math::Vec3d;

use super::bisection::{prepare_points, search, MultilinearGap, SearchSetup};
use super::config::InclusionConfig;
use super::error::InclusionError;
use super::outcome::InclusionToi;

/// A vertex and a triangle, each point moving linearly from its start
/// position (t = 0) to its end position (t = 1).
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct VertexFaceQuery {
    /// The vertex at t = 0.
    pub vertex_start: Vec3d,
    /// The triangle's corners (a, b, c) at t = 0.
    pub face_start: [Vec3d; 3],
    /// The vertex at t = 1.
    pub vertex_end: Vec3d,
    /// The triangle's corners (a, b, c) at t = 1.
    pub face_end: [Vec3d; 3],
}

impl VertexFaceQuery {
    /// Builds a query from 8 points in the benchmark's order: `v(t0), a(t0),
    /// b(t0), c(t0), v(t1), a(t1), b(t1), c(t1)`.
    pub fn from_points(points: [[f64; 3]; 8]) -> Self {
        let p = points.map(Vec3d::from);
        Self {
            vertex_start: p[0],
            face_start: [p[1], p[2], p[3]],
            vertex_end: p[4],
            face_end: [p[5], p[6], p[7]],
        }
    }

    /// The 8 points in the order of [`VertexFaceQuery::from_points`].
    pub fn points(&self) -> [[f64; 3]; 8] {
        [
            self.vertex_start,
            self.face_start[0],
            self.face_start[1],
            self.face_start[2],
            self.vertex_end,
            self.face_end[0],
            self.face_end[1],
            self.face_end[2],
        ]
        .map(|v| [v.x, v.y, v.z])
    }
}

/// F of a vertex-face query: start positions and displacements of p, a, b, c
/// per axis.
struct VertexFaceGap {
    /// `start[axis][point]`, points p, a, b, c.
    start: [[f64; 4]; 3],
    /// `fl(end - start)`, same layout.
    displacement: [[f64; 4]; 3],
}

impl MultilinearGap for VertexFaceGap {
    const TRIANGLE_DOMAIN: bool = true;

    #[inline]
    fn corners(&self, axis: usize, t: [f64; 2], u: [f64; 2], v: [f64; 2]) -> [f64; 8] {
        let mut out = [0.0; 8];
        let x0 = &self.start[axis];
        let dx = &self.displacement[axis];
        for (ti, tt) in t.into_iter().enumerate() {
            // Evaluation order of the proof in rounding_error.rs.
            let p = x0[0] + tt * dx[0];
            let a = x0[1] + tt * dx[1];
            let b = x0[2] + tt * dx[2];
            let c = x0[3] + tt * dx[3];
            let pa = p - a;
            let ba = b - a;
            let ca = c - a;
            for (ui, uu) in u.into_iter().enumerate() {
                let w = pa - uu * ba;
                for (vi, vv) in v.into_iter().enumerate() {
                    out[ti * 4 + ui * 2 + vi] = w - vv * ca;
                }
            }
        }
        out
    }
}

/// Conservative first time of contact (within `config.min_separation`)
/// between a moving vertex and a moving triangle, by inclusion bisection.
///
/// Never later than the true first contact; see [`InclusionToi`] for the
/// status, the precision reached and the iteration count.
///
/// # Errors
/// [`InclusionError`] for a non-finite coordinate or an invalid config.
pub fn vertex_face_toi(
    query: &VertexFaceQuery,
    config: &InclusionConfig,
) -> Result<InclusionToi, InclusionError> {
    config.validate()?;
    vertex_face_toi_unchecked_config(query, config)
}

/// [`vertex_face_toi`] without validating `config` (already validated).
pub(crate) fn vertex_face_toi_unchecked_config(
    query: &VertexFaceQuery,
    config: &InclusionConfig,
) -> Result<InclusionToi, InclusionError> {
    let prepared = prepare_points(query.points(), "vertex-face")?;
    let x = &prepared.points;
    let mut start = [[0.0; 4]; 3];
    let mut displacement = [[0.0; 4]; 3];
    for axis in 0..3 {
        for point in 0..4 {
            start[axis][point] = x[point][axis];
            displacement[axis][point] = x[point + 4][axis] - x[point][axis];
        }
    }
    // Bounds of |dF/dt|, |dF/du|, |dF/dv| (L-infinity over axes) inside the
    // triangle domain: the vertex's displacement plus the largest face
    // displacement; the edges b - a and c - a at either end time.
    let mut slope = [0.0f64; 3];
    for axis in 0..3 {
        let d = &displacement[axis];
        let face_motion = d[1].abs().max(d[2].abs()).max(d[3].abs());
        slope[0] = slope[0].max(d[0].abs() + face_motion);
        for (dim, corner) in [(1, 2), (2, 3)] {
            let at_start = (x[corner][axis] - x[1][axis]).abs();
            let at_end = (x[corner + 4][axis] - x[5][axis]).abs();
            slope[dim] = slope[dim].max(at_start.max(at_end));
        }
    }
    let setup = SearchSetup::new(&prepared, slope, config);
    Ok(search(
        &VertexFaceGap {
            start,
            displacement,
        },
        &setup,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn query(points: [[f64; 3]; 8]) -> VertexFaceQuery {
        VertexFaceQuery::from_points(points)
    }

    /// Triangle (0,0,0), (1,0,0), (0,1,0) fixed; vertex falls from z = 1 to
    /// z = -1 above (0.25, 0.25): it crosses the face at t = 0.5 exactly.
    fn falling_vertex() -> VertexFaceQuery {
        query([
            [0.25, 0.25, 1.0],
            [0.0, 0.0, 0.0],
            [1.0, 0.0, 0.0],
            [0.0, 1.0, 0.0],
            [0.25, 0.25, -1.0],
            [0.0, 0.0, 0.0],
            [1.0, 0.0, 0.0],
            [0.0, 1.0, 0.0],
        ])
    }

    #[test]
    fn falling_vertex_hits_at_half_from_below() {
        let result = vertex_face_toi(&falling_vertex(), &InclusionConfig::default()).unwrap();
        let toi = result.toi.unwrap();
        // Lower bound, and within the t tolerance: delta = 1e-6 of the
        // extent 2, |dF/dt| <= 2, so tol_t = 2e-6 / 6; allow 1e-6.
        assert!(toi <= 0.5 && toi > 0.5 - 1e-6, "{toi}");
        assert!(result.precision <= 2.0 * 2e-6, "{}", result.precision);
    }

    #[test]
    fn vertex_outside_the_triangle_misses() {
        let mut q = falling_vertex();
        // Above (0.75, 0.75): u + v = 1.5 > 1, outside the face.
        q.vertex_start = Vec3d::new(0.75, 0.75, 1.0);
        q.vertex_end = Vec3d::new(0.75, 0.75, -1.0);
        let result = vertex_face_toi(&q, &InclusionConfig::default()).unwrap();
        assert_eq!(result.toi, None);
    }

    #[test]
    fn min_separation_reports_contact_before_the_plane() {
        // With d = 0.1 the vertex (speed 2 per unit t) enters the slab
        // |z| <= 0.1 at t = 0.45.
        let config = InclusionConfig {
            min_separation: 0.1,
            ..InclusionConfig::default()
        };
        let result = vertex_face_toi(&falling_vertex(), &config).unwrap();
        let toi = result.toi.unwrap();
        assert!(toi <= 0.45 && toi > 0.45 - 1e-6, "{toi}");
    }
}
