//! Closed axis-aligned `f64` bounds of the triangle bounds tree.
//!
//! Method: a box is the closed set `min <= p <= max` per axis. Stored node
//! bounds are `f32`; every `f32` converts exactly to `f64`, so a stored box is
//! exactly the `f64` box it stands for. Query boxes are `f64`; the traversal
//! compares them with `f32` node bounds through parapet-math's directed
//! conversions `f32_up` / `f32_down`, which turn each `f64` comparison into
//! an exactly equivalent `f32` one. The outward roundings of the query kinds
//! are parapet-math's too (`parapet_math::rounding`).
//!
//! Precision domain: any finite `f32` node bound, any non-NaN `f64` query
//! bound (infinite query bounds are allowed).

use parapet_math::{Vec3, Vec3d};

use super::BvhError;

/// A closed axis-aligned box in `f64`: the points `p` with `min <= p <= max`
/// on every axis. Named `Bounds` so that it never clashes with the geometry
/// crate's own AABB type. Never NaN and never inverted: the corners are
/// private, and every constructor checks or guarantees that.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Bounds {
    /// Lower corner (inclusive).
    pub(crate) min: Vec3d,
    /// Upper corner (inclusive).
    pub(crate) max: Vec3d,
}

impl Bounds {
    /// The lower corner (inclusive).
    #[inline]
    pub fn min(&self) -> Vec3d {
        self.min
    }

    /// The upper corner (inclusive).
    #[inline]
    pub fn max(&self) -> Vec3d {
        self.max
    }

    /// A box from its corners.
    ///
    /// # Errors
    /// [`BvhError::InvalidQuery`] when a coordinate is NaN or `min > max` on an
    /// axis. Infinite coordinates are allowed (an unbounded box).
    #[inline]
    pub fn new(min: Vec3d, max: Vec3d) -> Result<Self, BvhError> {
        for k in 0..3 {
            if min[k].is_nan() {
                return Err(BvhError::InvalidQuery {
                    quantity: "bounds minimum",
                    value: min[k],
                    requirement: "a number (infinity allowed)",
                });
            }
            if max[k].is_nan() {
                return Err(BvhError::InvalidQuery {
                    quantity: "bounds maximum",
                    value: max[k],
                    requirement: "a number (infinity allowed)",
                });
            }
            if min[k] > max[k] {
                return Err(BvhError::InvalidQuery {
                    quantity: "bounds minimum",
                    value: min[k],
                    requirement: "at most the maximum on the same axis",
                });
            }
        }
        Ok(Self { min, max })
    }

    /// The exact bounds of an `f32` triangle: componentwise min and max of
    /// its vertices (exact, no rounding happens).
    pub fn of_triangle(triangle: &[Vec3; 3]) -> Self {
        let [a, b, c] = triangle;
        let min = a.inf(b).inf(c);
        let max = a.sup(b).sup(c);
        Self {
            min: min.cast::<f64>(),
            max: max.cast::<f64>(),
        }
    }

    /// Whether the two closed boxes share at least one point (touching counts).
    #[inline]
    pub fn intersects(&self, other: &Bounds) -> bool {
        (0..3).all(|k| self.min[k] <= other.max[k] && other.min[k] <= self.max[k])
    }

    /// Whether `other` lies inside this closed box (equal boxes contain each other).
    #[inline]
    pub fn contains(&self, other: &Bounds) -> bool {
        (0..3).all(|k| self.min[k] <= other.min[k] && other.max[k] <= self.max[k])
    }

    /// The smallest box containing both.
    #[inline]
    pub fn union(&self, other: &Bounds) -> Bounds {
        Bounds {
            min: self.min.inf(&other.min),
            max: self.max.sup(&other.max),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_refuse_nan_and_inverted_corners() {
        let z = Vec3d::zeros();
        assert!(Bounds::new(Vec3d::new(f64::NAN, 0.0, 0.0), z).is_err());
        assert!(Bounds::new(z, Vec3d::new(0.0, f64::NAN, 0.0)).is_err());
        assert!(Bounds::new(Vec3d::new(1.0, 0.0, 0.0), z).is_err());
        assert!(Bounds::new(z, Vec3d::repeat(f64::INFINITY)).is_ok());
    }

    #[test]
    fn touching_boxes_intersect_and_separated_ones_do_not() {
        let a = Bounds::new(Vec3d::zeros(), Vec3d::repeat(1.0)).unwrap();
        let b = Bounds::new(Vec3d::new(1.0, 0.0, 0.0), Vec3d::repeat(2.0)).unwrap();
        let c = Bounds::new(Vec3d::new(1.0f64.next_up(), 0.0, 0.0), Vec3d::repeat(2.0)).unwrap();
        assert!(a.intersects(&b) && b.intersects(&a));
        assert!(!a.intersects(&c) && !c.intersects(&a));
        assert!(a.union(&b).contains(&a) && a.union(&b).contains(&b));
    }
}
