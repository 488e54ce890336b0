//! The precision-domain checks of a contact query's inputs: margins,
//! poses, coordinates and sizes, for the dispatcher and every public pair
//! function alike (a leaf: it imports no pair function).
//!
//! Method: plain comparisons; each refusal names the quantity (with its
//! A or B role), the value and the limit.
//!
//! Precision domain: coordinates and sizes within
//! [`MAX_CONTACT_COORDINATE`], finite poses, a finite non-negative margin.

use parapet_geometry::Shape;
use parapet_math::Vec3;

use super::{ContactError, Pose, MAX_CONTACT_COORDINATE};

/// `Ok` when `pose` is finite; `which` names it ("A" or "B") in the error.
pub(crate) fn check_pose(which: &'static str, pose: &Pose) -> Result<(), ContactError> {
    let t = pose.translation.vector;
    let q = pose.rotation.into_inner();
    let finite = t.iter().chain(q.coords.iter()).all(|x| x.is_finite());
    if finite {
        Ok(())
    } else {
        Err(ContactError::NonFinitePose {
            which,
            translation: t,
            rotation: [q.i, q.j, q.k, q.w],
        })
    }
}

/// `Ok` when `margin` is finite and non-negative.
pub(crate) fn check_margin(margin: f32) -> Result<(), ContactError> {
    if margin.is_finite() && margin >= 0.0 {
        Ok(())
    } else {
        Err(ContactError::InvalidMargin { margin })
    }
}

/// `Ok` when every component of `point` is finite and lies within
/// [`MAX_CONTACT_COORDINATE`]; `quantity` names it in the refusal, whose
/// value is the first component beyond (its magnitude, or NaN).
pub(crate) fn check_coordinates(quantity: &'static str, point: &Vec3) -> Result<(), ContactError> {
    match point
        .iter()
        .map(|x| (*x as f64).abs())
        .find(|x| x.is_nan() || *x > MAX_CONTACT_COORDINATE)
    {
        None => Ok(()),
        Some(value) => Err(ContactError::OutsidePrecisionDomain {
            quantity,
            value,
            limit: MAX_CONTACT_COORDINATE,
        }),
    }
}

/// `Ok` when the size `value` (a radius or a half extent, m) is
/// non-negative and within [`MAX_CONTACT_COORDINATE`]: a negative or NaN
/// size is [`ContactError::InvalidSize`], a larger one (infinity included)
/// [`ContactError::OutsidePrecisionDomain`].
pub(crate) fn check_length(quantity: &'static str, value: f32) -> Result<(), ContactError> {
    if value.is_nan() || value < 0.0 {
        Err(ContactError::InvalidSize { quantity, value })
    } else if value as f64 > MAX_CONTACT_COORDINATE {
        Err(ContactError::OutsidePrecisionDomain {
            quantity,
            value: value as f64,
            limit: MAX_CONTACT_COORDINATE,
        })
    } else {
        Ok(())
    }
}

/// One shape of a pair function, as its raw parameters (world values).
#[derive(Clone, Copy, Debug)]
pub(crate) enum RawShape<'a> {
    /// A sphere: centre and radius (m).
    Sphere(&'a Vec3, f32),
    /// A capsule: core segment ends and radius (m).
    Capsule(&'a [Vec3; 2], f32),
    /// A box: half extents (m) and pose.
    Cuboid(&'a Vec3, &'a Pose),
    /// A one-sided triangle: its vertices.
    Triangle(&'a [Vec3; 3]),
}

impl RawShape<'_> {
    /// `Ok` when every coordinate and size lies in the precision domain
    /// and a pose is finite; `a` says whether this is shape A (for the
    /// names in the refusal).
    fn check(&self, a: bool) -> Result<(), ContactError> {
        let name = |for_a: &'static str, for_b: &'static str| if a { for_a } else { for_b };
        match *self {
            RawShape::Sphere(center, radius) => {
                check_coordinates(name("centre of A", "centre of B"), center)?;
                check_length(name("radius of A", "radius of B"), radius)
            }
            RawShape::Capsule(segment, radius) => {
                for end in segment {
                    check_coordinates(name("core end of A", "core end of B"), end)?;
                }
                check_length(name("radius of A", "radius of B"), radius)
            }
            RawShape::Cuboid(half, pose) => {
                for &h in half.iter() {
                    check_length(name("half extent of A", "half extent of B"), h)?;
                }
                check_pose(name("A", "B"), pose)?;
                check_coordinates(
                    name("translation of A", "translation of B"),
                    &pose.translation.vector,
                )
            }
            RawShape::Triangle(tri) => tri
                .iter()
                .try_for_each(|v| check_coordinates("triangle vertex", v)),
        }
    }
}

/// `Ok` when a pair function's margin and both shapes' raw parameters lie
/// in the precision domain (see the module's "Pair functions").
pub(crate) fn check_pair(
    a: RawShape<'_>,
    b: RawShape<'_>,
    margin: f32,
) -> Result<(), ContactError> {
    check_margin(margin)?;
    a.check(true)?;
    b.check(false)
}

/// `Ok` when `shape`'s bounding radius lies within [`MAX_CONTACT_COORDINATE`].
pub(crate) fn check_size(quantity: &'static str, shape: &Shape) -> Result<(), ContactError> {
    let value = shape.bounding_radius();
    if value <= MAX_CONTACT_COORDINATE {
        Ok(())
    } else {
        Err(ContactError::OutsidePrecisionDomain {
            quantity,
            value,
            limit: MAX_CONTACT_COORDINATE,
        })
    }
}
