//! Axis-aligned bounding boxes: [`Aabb`] in `f32` storage and [`Aabbd`] in
//! `f64` with outward-rounded growth.
//!
//! Conservative bounds (the continuous mode's candidate queries rely on them,
//! docs/continuous-collision.md "Performance"): stored `f32` bounds convert exactly to `f64`; every addition of a displacement or
//! a radius rounds the lower corner down and the upper corner up
//! ([`parapet_math::rounding`]), and conversion back to `f32` rounds outward,
//! so a box never shrinks below the exact set it bounds.

use parapet_math::rounding::{add_down, add_up, f32_down, f32_up, sub_down};
use parapet_math::{Vec3, Vec3d};

/// An axis-aligned box in `f32` (m): every point `p` with `min <= p <= max`
/// componentwise. An empty box has some `min > max`.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Aabb {
    /// Lower corner (m).
    pub min: Vec3,
    /// Upper corner (m).
    pub max: Vec3,
}

impl Aabb {
    /// The box with these corners.
    pub fn new(min: Vec3, max: Vec3) -> Self {
        Self { min, max }
    }

    /// The empty box (`min = +inf`, `max = -inf`): the identity of [`Aabb::merged`].
    pub fn empty() -> Self {
        Self {
            min: Vec3::repeat(f32::INFINITY),
            max: Vec3::repeat(f32::NEG_INFINITY),
        }
    }

    /// The smallest box containing the points (empty for no points).
    pub fn from_points<'a>(points: impl IntoIterator<Item = &'a Vec3>) -> Self {
        points.into_iter().fold(Self::empty(), |b, p| Self {
            min: b.min.inf(p),
            max: b.max.sup(p),
        })
    }

    /// Whether the box contains no point.
    pub fn is_empty(&self) -> bool {
        (0..3).any(|i| self.min[i] > self.max[i])
    }

    /// The smallest box containing both.
    pub fn merged(&self, other: &Aabb) -> Aabb {
        Aabb {
            min: self.min.inf(&other.min),
            max: self.max.sup(&other.max),
        }
    }

    /// Whether the closed boxes share a point.
    pub fn intersects(&self, other: &Aabb) -> bool {
        (0..3).all(|i| self.min[i] <= other.max[i] && other.min[i] <= self.max[i])
    }

    /// Whether the closed box contains `p`.
    pub fn contains_point(&self, p: &Vec3) -> bool {
        (0..3).all(|i| self.min[i] <= p[i] && p[i] <= self.max[i])
    }

    /// Whether `other` lies inside `self` (closed).
    pub fn contains(&self, other: &Aabb) -> bool {
        (0..3).all(|i| self.min[i] <= other.min[i] && other.max[i] <= self.max[i])
    }

    /// The same box in `f64` (exact).
    pub fn to_f64(&self) -> Aabbd {
        Aabbd {
            min: self.min.cast(),
            max: self.max.cast(),
        }
    }

    /// The box grown by `margin` (m, `>= 0`) on every side, rounded outward.
    pub fn grown(&self, margin: f32) -> Aabb {
        self.to_f64().grown(f64::from(margin)).to_f32_outward()
    }

    /// Center (m), in `f64`.
    pub fn center(&self) -> Vec3d {
        (self.min.cast::<f64>() + self.max.cast::<f64>()) * 0.5
    }
}

/// An axis-aligned box in `f64` (m) whose growth rounds outward.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Aabbd {
    /// Lower corner (m).
    pub min: Vec3d,
    /// Upper corner (m).
    pub max: Vec3d,
}

impl Aabbd {
    /// The box with these corners.
    pub fn new(min: Vec3d, max: Vec3d) -> Self {
        Self { min, max }
    }

    /// The empty box: the identity of [`Aabbd::merged`].
    pub fn empty() -> Self {
        Self {
            min: Vec3d::repeat(f64::INFINITY),
            max: Vec3d::repeat(f64::NEG_INFINITY),
        }
    }

    /// The smallest box containing the points (empty for no points).
    pub fn from_points<'a>(points: impl IntoIterator<Item = &'a Vec3d>) -> Self {
        points.into_iter().fold(Self::empty(), |b, p| Self {
            min: b.min.inf(p),
            max: b.max.sup(p),
        })
    }

    /// A box containing the ball of radius `radius` (m) around `center` (m),
    /// rounded outward.
    pub fn around_ball(center: &Vec3d, radius: f64) -> Self {
        Self {
            min: center.map(|c| sub_down(c, radius)),
            max: center.map(|c| add_up(c, radius)),
        }
    }

    /// Whether the box contains no point.
    pub fn is_empty(&self) -> bool {
        (0..3).any(|i| self.min[i] > self.max[i])
    }

    /// The smallest box containing both.
    pub fn merged(&self, other: &Aabbd) -> Aabbd {
        Aabbd {
            min: self.min.inf(&other.min),
            max: self.max.sup(&other.max),
        }
    }

    /// The box grown by `margin` (m, `>= 0`) on every side, rounded outward.
    pub fn grown(&self, margin: f64) -> Aabbd {
        Aabbd {
            min: self.min.map(|v| sub_down(v, margin)),
            max: self.max.map(|v| add_up(v, margin)),
        }
    }

    /// The box moved by `displacement` (m), rounded outward (it contains the
    /// exact translate).
    pub fn translated(&self, displacement: &Vec3d) -> Aabbd {
        Aabbd {
            min: self.min.zip_map(displacement, add_down),
            max: self.max.zip_map(displacement, add_up),
        }
    }

    /// A box containing every translate of `self` by `t * displacement` for
    /// `t` in `[0, 1]`: the union of the start box and the outward-rounded end box.
    pub fn swept(&self, displacement: &Vec3d) -> Aabbd {
        self.merged(&self.translated(displacement))
    }

    /// Whether the closed boxes share a point.
    pub fn intersects(&self, other: &Aabbd) -> bool {
        (0..3).all(|i| self.min[i] <= other.max[i] && other.min[i] <= self.max[i])
    }

    /// Whether the closed box contains `p`.
    pub fn contains_point(&self, p: &Vec3d) -> bool {
        (0..3).all(|i| self.min[i] <= p[i] && p[i] <= self.max[i])
    }

    /// The smallest `f32` box that contains this one (lower corner rounded
    /// down, upper corner rounded up).
    pub fn to_f32_outward(&self) -> Aabb {
        Aabb {
            min: self.min.map(f32_down),
            max: self.max.map(f32_up),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn growth_rounds_outward() {
        let b = Aabbd::new(Vec3d::repeat(0.1), Vec3d::repeat(0.7)).grown(0.2);
        // 0.1 - 0.2 and 0.7 + 0.2 are inexact in binary: the bounds must not
        // fall inside the exact decimal-free results.
        assert!(b.min.x <= 0.1 - 0.2);
        assert!(b.max.x >= 0.7 + 0.2);
        let f = Aabb::new(Vec3::repeat(0.1), Vec3::repeat(0.3)).grown(0.1);
        assert!(f64::from(f.min.x) <= f64::from(0.1f32) - f64::from(0.1f32));
        assert!(f64::from(f.max.x) >= f64::from(0.3f32) + f64::from(0.1f32));
    }

    #[test]
    fn a_swept_box_covers_both_ends() {
        let b = Aabbd::new(Vec3d::zeros(), Vec3d::repeat(1.0));
        let s = b.swept(&Vec3d::new(2.0, -3.0, 0.0));
        assert!(s.contains_point(&Vec3d::new(3.0, -3.0, 1.0)));
        assert!(s.contains_point(&Vec3d::zeros()));
    }

    #[test]
    fn points_bound_and_empty_is_the_merge_identity() {
        let pts = [Vec3::new(1.0, -2.0, 3.0), Vec3::new(-1.0, 5.0, 0.0)];
        let b = Aabb::from_points(&pts);
        assert_eq!(b.min, Vec3::new(-1.0, -2.0, 0.0));
        assert_eq!(b.max, Vec3::new(1.0, 5.0, 3.0));
        assert_eq!(Aabb::empty().merged(&b), b);
        assert!(Aabb::empty().is_empty());
    }
}
