//! The triangle frame: the few computations on one triangle that the contact
//! tests, the ray casts and the sweeps all make, written once.
//!
//! Conventions: a triangle is `[a, b, c]`, one-sided, its front the side the
//! counter-clockwise normal `(b - a) x (c - a)` (the *raw* normal) points
//! to; edge `i` runs from vertex `i` to vertex `(i + 1) % 3`. An edge's side
//! function `(v_(i+1) - v_i) x (p - v_i) . n` is non-negative on the
//! triangle's side of the edge for any normal `n` along the front normal, so
//! a point of the plane lies in the closed triangle exactly when all three
//! are (Ericson, *Real-Time Collision Detection* 5.1.5, the barycentric
//! signs written with cross products).
//!
//! Precision domain: every computation is in `f64` on vertices already
//! re-centred on a nearby working origin ([`relative_triangle`]), so that
//! products of coordinates are small; the f32 raw normal of the sweeps'
//! precision check is the same expression on the `f32` input
//! ([`raw_normal`] is generic over the scalar).

use parapet_math::nalgebra::{RealField, Vector3};
use parapet_math::{promote, Mat3d, Vec3, Vec3d};

/// The triangle's vertices in `f64`, relative to `origin` (re-centring on a
/// working origin near the shape or ray).
#[inline]
pub(crate) fn relative_triangle(tri: &[Vec3; 3], origin: Vec3d) -> [Vec3d; 3] {
    [
        promote(tri[0]) - origin,
        promote(tri[1]) - origin,
        promote(tri[2]) - origin,
    ]
}

/// The vertices relative to `origin`, turned by `rotation` (for a sweep in
/// a solid's shape frame).
#[inline]
pub(crate) fn turned_triangle(tri: &[Vec3d; 3], origin: Vec3d, rotation: &Mat3d) -> [Vec3d; 3] {
    [
        rotation * (tri[0] - origin),
        rotation * (tri[1] - origin),
        rotation * (tri[2] - origin),
    ]
}

/// The raw (unnormalised) front normal `(b - a) x (c - a)`; its length is
/// twice the triangle's area.
#[inline]
pub(crate) fn raw_normal<T: RealField + Copy>(tri: &[Vector3<T>; 3]) -> Vector3<T> {
    (tri[1] - tri[0]).cross(&(tri[2] - tri[0]))
}

/// The unit front normal, `None` when the triangle has no area (or a
/// coordinate is not finite).
#[inline]
pub(crate) fn unit_normal(tri: &[Vec3d; 3]) -> Option<Vec3d> {
    let n = raw_normal(tri);
    let len = n.norm();
    (len > 0.0 && len.is_finite()).then(|| n / len)
}

/// Edge `i`: its start vertex and its direction `v_(i+1) - v_i`.
#[inline]
pub(crate) fn edge(tri: &[Vec3d; 3], i: usize) -> (Vec3d, Vec3d) {
    let a = tri[i];
    (a, tri[(i + 1) % 3] - a)
}

/// Edge `i`'s two ends `v_i`, `v_(i+1)`.
#[inline]
pub(crate) fn edge_ends(tri: &[Vec3d; 3], i: usize) -> (Vec3d, Vec3d) {
    (tri[i], tri[(i + 1) % 3])
}

/// The side function of edge `i` at `p` for the normal `n`:
/// `(v_(i+1) - v_i) x (p - v_i) . n`, non-negative on the triangle's side.
#[inline]
pub(crate) fn edge_side(tri: &[Vec3d; 3], i: usize, p: Vec3d, n: &Vec3d) -> f64 {
    let (a, e) = edge(tri, i);
    e.cross(&(p - a)).dot(n)
}

/// Whether `p` (on the triangle's plane, or seen along `n`) lies in the
/// closed triangle; `n` is any normal along the front normal (unit or raw).
#[inline]
pub(crate) fn inside(p: Vec3d, tri: &[Vec3d; 3], n: &Vec3d) -> bool {
    (0..3).all(|i| edge_side(tri, i, p, n) >= 0.0)
}

/// The largest squared edge length.
#[inline]
pub(crate) fn longest_edge_squared(tri: &[Vec3d; 3]) -> f64 {
    let [a, b, c] = *tri;
    (b - a)
        .norm_squared()
        .max((c - b).norm_squared())
        .max((a - c).norm_squared())
}

/// The rounding bound of a computed raw height, in units of
/// `ε (L² D + L D²)` (dimensionless; see [`TriangleFrame::behind`]): 16,
/// over twice the about 6 of the operations' worst case, so that a point
/// the sweeps leave behind the plane is behind it in any other sound
/// evaluation of the same height too.
pub(crate) const HEIGHT_ROUNDING_FACTOR: f64 = 16.0;

/// A triangle prepared for the sweeps: vertices relative to the sweep's
/// origin and its raw and unit normals.
#[derive(Debug, Clone, Copy)]
pub(crate) struct TriangleFrame {
    pub(crate) v: [Vec3d; 3],
    /// `(v1 - v0) x (v2 - v0)`.
    pub(crate) n_raw: Vec3d,
    /// `|n_raw|`.
    pub(crate) n_len: f64,
    /// `n_raw / n_len`.
    pub(crate) n: Vec3d,
}

impl TriangleFrame {
    /// The frame of a triangle with area (the sweeps check the triangle's
    /// precision domain, which requires area, first).
    pub(crate) fn new(v: [Vec3d; 3]) -> Self {
        let n_raw = raw_normal(&v);
        let n_len = n_raw.norm();
        TriangleFrame {
            v,
            n_raw,
            n_len,
            n: n_raw / n_len,
        }
    }

    /// Edge `i`: start vertex and direction to the next vertex.
    #[inline]
    pub(crate) fn edge(&self, i: usize) -> (Vec3d, Vec3d) {
        edge(&self.v, i)
    }

    /// Raw signed height of `p` over the face plane (times `n_len`).
    #[inline]
    pub(crate) fn raw_height(&self, p: Vec3d) -> f64 {
        self.n_raw.dot(&(p - self.v[0]))
    }

    /// Whether `p` lies behind the face plane by more than the rounding of
    /// its computed height: the sweeps' one-sided admission. A point in
    /// the plane to within rounding (a sphere's centre on the line of one
    /// of the triangle's edges) counts as in front, so that its overlap is
    /// caught (an early contact is a cost, a missed one a defect); its
    /// height's sign is rounding noise.
    ///
    /// The bound: the frame's vertices are the caller's minus the sweep's
    /// origin, each rounded by at most `ε |v|`; the edges, the cross
    /// product and the height add a few `ε` of their operands. With `L`
    /// the longest edge and `D` the farthest vertex from `p`, the computed
    /// raw height is within about `6 ε (L² D + L D²)` of the true one;
    /// [`HEIGHT_ROUNDING_FACTOR`] takes 16.
    #[inline]
    pub(crate) fn behind(&self, p: Vec3d) -> bool {
        let h = self.raw_height(p);
        if h.is_nan() || h >= 0.0 {
            return false;
        }
        let l = longest_edge_squared(&self.v).sqrt();
        let d = self.v.iter().map(|v| (v - p).norm()).fold(0.0, f64::max);
        h < -HEIGHT_ROUNDING_FACTOR * f64::EPSILON * l * d * (l + d)
    }

    /// Edge `i`'s side function at `p` with the raw normal (see
    /// [`edge_side`]).
    #[inline]
    pub(crate) fn edge_side(&self, i: usize, p: Vec3d) -> f64 {
        edge_side(&self.v, i, p, &self.n_raw)
    }

    /// Whether the projection of `p` along the normal lies in the closed
    /// triangle.
    #[inline]
    pub(crate) fn projects_inside(&self, p: Vec3d) -> bool {
        inside(p, &self.v, &self.n_raw)
    }
}

/// The floor triangle of the unit tests: front-facing (+z) in the plane
/// z = 0, `[(-h, -h), (h, -h), (0, h)]`.
#[cfg(test)]
pub(crate) fn test_floor(h: f32) -> [Vec3; 3] {
    [
        Vec3::new(-h, -h, 0.0),
        Vec3::new(h, -h, 0.0),
        Vec3::new(0.0, h, 0.0),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_side_functions_of_a_point_inside_are_all_non_negative() {
        let tri = relative_triangle(&test_floor(2.0), Vec3d::new(0.0, 0.0, 1.0));
        let n = unit_normal(&tri).unwrap();
        assert_eq!(n, Vec3d::z());
        // The centroid is inside, a point beyond edge 0 (y < -2) is not.
        assert!(inside(Vec3d::new(0.0, -2.0 / 3.0, -1.0), &tri, &n));
        assert!(!inside(Vec3d::new(0.0, -2.5, -1.0), &tri, &n));
        // No area, no unit normal.
        let flat = [Vec3d::zeros(), Vec3d::x(), 2.0 * Vec3d::x()];
        assert_eq!(unit_normal(&flat), None);
        assert_eq!(longest_edge_squared(&flat), 4.0);
    }
}
