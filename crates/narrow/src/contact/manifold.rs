//! The contact manifold: what a discrete contact test returns.
//!
//! A manifold holds one normal, pointing from shape A to shape B, and up to
//! [`MAX_CONTACT_POINTS`] world points, each with a depth along that normal
//! (positive: penetration; negative: a gap within the speculative margin).
//! Each point lies midway between the two surfaces, so swapping A and B
//! keeps the points and depths and flips the normal.
//!
//! Pair functions build a [`LocalManifold`] in `f64`, relative to a working
//! origin (usually shape A's position, to keep precision after large
//! translations: docs/physics.md, "Numeric boundaries"), and round it once
//! to `f32` world values with [`LocalManifold::into_world`].

use parapet_math::{Mat3d, Vec3, Vec3d};

/// The most contact points a manifold holds: four span a face-face patch,
/// which is enough for a box to rest stably on a face.
pub const MAX_CONTACT_POINTS: usize = 4;

/// One contact point of a [`Manifold`].
#[derive(Clone, Copy, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ContactPoint {
    /// World point midway between the surface of A and the surface of B along
    /// the manifold normal (m). A's surface point is `point + normal * depth / 2`,
    /// B's is `point - normal * depth / 2`.
    pub point: Vec3,
    /// Penetration along the normal (m): positive when the shapes overlap,
    /// negative for a gap smaller than the speculative margin.
    pub depth: f32,
}

/// The result of a discrete contact test between shape A and shape B.
///
/// Empty when the shapes are farther apart than the margin. Otherwise a unit
/// `normal` from A to B (the direction in which B must move to separate) and
/// 1 to [`MAX_CONTACT_POINTS`] points.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Manifold {
    normal: Vec3,
    points: [ContactPoint; MAX_CONTACT_POINTS],
    len: usize,
}

impl Manifold {
    /// The manifold with no contact.
    pub(crate) const EMPTY: Manifold = Manifold {
        normal: Vec3::new(0.0, 0.0, 0.0),
        points: [ContactPoint {
            point: Vec3::new(0.0, 0.0, 0.0),
            depth: 0.0,
        }; MAX_CONTACT_POINTS],
        len: 0,
    };

    /// Unit normal from shape A to shape B (world); zero when empty.
    pub fn normal(&self) -> Vec3 {
        self.normal
    }

    /// The contact points (at most [`MAX_CONTACT_POINTS`]).
    pub fn points(&self) -> &[ContactPoint] {
        &self.points[..self.len]
    }

    /// Number of contact points.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when the shapes are farther apart than the margin.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The largest depth (m), `None` when empty.
    pub fn max_depth(&self) -> Option<f32> {
        self.points().iter().map(|p| p.depth).reduce(f32::max)
    }

    /// The same contact seen with A and B swapped: the normal flips, points
    /// and depths stay.
    pub fn flipped(mut self) -> Manifold {
        self.normal = -self.normal;
        self
    }
}

/// The most points a [`LocalManifold`] holds before it reduces them
/// (count): 8, a box face clipped by a triangle (at most 7) and its
/// deepest corner; a longer patch (a hull face) is reduced as it grows.
/// Small, since a manifold is returned by value from every test.
pub(crate) const MAX_LOCAL_POINTS: usize = 8;

/// A manifold under construction, in `f64`, in a working frame (an origin,
/// and for a solid the solid's own axes). Its points live inline: building
/// one allocates nothing.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct LocalManifold {
    /// Unit normal from A to B.
    pub normal: Vec3d,
    points: [(Vec3d, f64); MAX_LOCAL_POINTS],
    len: usize,
}

impl LocalManifold {
    /// No contact.
    pub(crate) fn empty() -> LocalManifold {
        LocalManifold {
            normal: Vec3d::zeros(),
            points: [(Vec3d::zeros(), 0.0); MAX_LOCAL_POINTS],
            len: 0,
        }
    }

    /// No point yet, with the normal `normal`.
    pub(crate) fn with_normal(normal: Vec3d) -> LocalManifold {
        let mut m = LocalManifold::empty();
        m.normal = normal;
        m
    }

    /// One contact point.
    pub(crate) fn single(normal: Vec3d, point: Vec3d, depth: f64) -> LocalManifold {
        let mut m = LocalManifold::with_normal(normal);
        m.push(point, depth);
        m
    }

    /// Adds a point (midpoint, depth); a full manifold first reduces itself
    /// to [`MAX_CONTACT_POINTS`] (see [`LocalManifold::reduce`]).
    pub(crate) fn push(&mut self, point: Vec3d, depth: f64) {
        if self.len == MAX_LOCAL_POINTS {
            self.reduce();
        }
        self.points[self.len] = (point, depth);
        self.len += 1;
    }

    /// The points (midpoint, depth).
    pub(crate) fn points(&self) -> &[(Vec3d, f64)] {
        &self.points[..self.len]
    }

    /// True when there is no point.
    pub(crate) fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The largest depth (m), minus infinity when empty.
    pub(crate) fn deepest(&self) -> f64 {
        self.points()
            .iter()
            .map(|p| p.1)
            .fold(f64::NEG_INFINITY, f64::max)
    }

    /// Swaps the roles of A and B.
    pub(crate) fn flipped(mut self) -> LocalManifold {
        self.normal = -self.normal;
        self
    }

    /// Keeps at most [`MAX_CONTACT_POINTS`] points that span the largest patch:
    /// the deepest point, the point farthest from it, then the two points that
    /// make the largest triangles on each side of that diagonal (the usual
    /// manifold reduction of Box2D/Bullet, here on the plane of the normal).
    pub(crate) fn reduce(&mut self) {
        let mut keep = [0usize; MAX_CONTACT_POINTS];
        let n = reduce_indices(self.points(), self.normal, &mut keep);
        let kept: [(Vec3d, f64); MAX_CONTACT_POINTS] =
            std::array::from_fn(|k| self.points[keep[k.min(n.max(1) - 1)]]);
        self.points[..n].copy_from_slice(&kept[..n]);
        self.len = n;
    }

    /// Rounds to `f32` world values: points are `origin + local`.
    pub(crate) fn into_world(self, origin: Vec3d) -> Manifold {
        self.into_world_rotated(origin, None)
    }

    /// Reduces and rounds to `f32` world values: points
    /// `origin + rotation * local`, normal `rotation * local` (`rotation`
    /// `None` for a working frame with the world's axes).
    pub(crate) fn into_world_rotated(
        mut self,
        origin: Vec3d,
        rotation: Option<&Mat3d>,
    ) -> Manifold {
        if self.len > MAX_CONTACT_POINTS {
            self.reduce();
        }
        let mut out = Manifold::EMPTY;
        if self.is_empty() {
            return out;
        }
        let turn = |v: Vec3d| rotation.map_or(v, |r| r * v);
        out.normal = turn(self.normal).cast::<f32>();
        for (slot, (p, depth)) in out.points.iter_mut().zip(self.points()) {
            *slot = ContactPoint {
                point: (origin + turn(*p)).cast::<f32>(),
                depth: *depth as f32,
            };
        }
        out.len = self.len.min(MAX_CONTACT_POINTS);
        out
    }
}

/// The indices of at most [`MAX_CONTACT_POINTS`] of `pts` that span the
/// largest patch seen along `normal` (see [`LocalManifold::reduce`]),
/// written to `keep`; returns how many. All of them when there are at most
/// four.
pub(crate) fn reduce_indices(
    pts: &[(Vec3d, f64)],
    normal: Vec3d,
    keep: &mut [usize; MAX_CONTACT_POINTS],
) -> usize {
    if pts.len() <= MAX_CONTACT_POINTS {
        for (k, slot) in keep.iter_mut().enumerate().take(pts.len()) {
            *slot = k;
        }
        return pts.len();
    }
    let first = (0..pts.len())
        .max_by(|&i, &j| pts[i].1.total_cmp(&pts[j].1).then(j.cmp(&i)))
        .unwrap_or(0);
    let p0 = pts[first].0;
    let second = farthest(pts, |i| (pts[i].0 - p0).norm_squared(), &[first]);
    let p1 = pts[second].0;
    let diagonal = p1 - p0;
    let signed_area = |i: usize| diagonal.cross(&(pts[i].0 - p0)).dot(&normal);
    let third = farthest(pts, signed_area, &[first, second]);
    let fourth = farthest(pts, |i| -signed_area(i), &[first, second, third]);
    *keep = [first, second, third, fourth];
    MAX_CONTACT_POINTS
}

/// Index maximising `score`, skipping `taken`; ties go to the lowest index.
fn farthest(pts: &[(Vec3d, f64)], score: impl Fn(usize) -> f64, taken: &[usize]) -> usize {
    let mut best: Option<(usize, f64)> = None;
    for i in 0..pts.len() {
        if taken.contains(&i) {
            continue;
        }
        let s = score(i);
        if best.is_none_or(|(_, b)| s > b) {
            best = Some((i, s));
        }
    }
    best.map_or(0, |(i, _)| i)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reduction_keeps_the_corners_of_a_square_patch() {
        let mut m = LocalManifold::with_normal(Vec3d::z());
        for x in 0..5 {
            for y in 0..5 {
                let depth = if (x, y) == (0, 0) { 0.2 } else { 0.1 };
                m.push(Vec3d::new(x as f64, y as f64, 0.0), depth);
            }
        }
        m.reduce();
        let mut corners: Vec<(i64, i64)> = m
            .points()
            .iter()
            .map(|(p, _)| (p.x as i64, p.y as i64))
            .collect();
        corners.sort();
        assert_eq!(corners, vec![(0, 0), (0, 4), (4, 0), (4, 4)]);
    }

    #[test]
    fn flipping_keeps_points_and_negates_the_normal() {
        let m = LocalManifold::single(Vec3d::x(), Vec3d::new(1.0, 2.0, 3.0), 0.5)
            .into_world(Vec3d::zeros());
        let f = m.flipped();
        assert_eq!(f.normal(), -m.normal());
        assert_eq!(f.points(), m.points());
        assert_eq!(m.max_depth(), Some(0.5));
    }
}
