//! Where a swept shape sits: [`Placement`], its body's world pose and the
//! shape's offset and rotation in the body frame.
//!
//! Method: the shape's world pose is
//! `body_position + body_rotation * (shape_offset + shape_rotation * x)`,
//! formed in `f64` from the unit `f64` quaternions nearest the `f32` ones;
//! the body's position is taken as it is when the offset is exactly zero,
//! and the body's rotation alone when the shape's is exactly the identity,
//! so a centred shape's pose involves no rounding at all.
//!
//! Precision domain: the sweeps check a placement's limits themselves
//! (rotations unit within [`super::ROTATION_NORM_SQ_TOLERANCE`] in squared
//! norm, the offset at most [`super::MAX_SHAPE_OFFSET`]); see
//! docs/continuous-collision.md, "Precision limits".

use parapet_math::{promote, promote_quat, Quat, Quatd, Vec3, Vec3d};

/// Where a swept shape sits: its body's world pose and the shape's offset
/// in the body frame (a shape may sit off its body's origin by at most
/// [`super::MAX_SHAPE_OFFSET`]). The shape's world pose is
/// `body_position + body_rotation * (shape_offset + shape_rotation * x)`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Placement {
    /// The body origin in world coordinates (metres).
    pub body_position: Vec3,
    /// The body's rotation, body to world.
    pub body_rotation: Quat,
    /// The shape origin in the body frame (metres).
    pub shape_offset: Vec3,
    /// The shape's rotation in the body frame.
    pub shape_rotation: Quat,
}

impl Placement {
    /// A shape centred on its body's origin, with the body at this pose.
    pub fn at(position: Vec3, rotation: Quat) -> Self {
        Placement {
            body_position: position,
            body_rotation: rotation,
            shape_offset: Vec3::zeros(),
            shape_rotation: Quat::identity(),
        }
    }
}

/// The unit `f64` quaternion nearest `q`.
pub(super) fn unit_quat(q: &Quat) -> Quatd {
    Quatd::new_normalize(promote_quat(*q).into_inner())
}

/// The shape's world rotation and origin from a placement whose rotations
/// are finite and near unit: `body_rotation * shape_rotation` (the body's
/// alone when the shape's is exactly the identity) and
/// `body_position + body_rotation * shape_offset` (the body position when
/// the offset is exactly zero).
#[inline]
pub(super) fn shape_pose(place: &Placement) -> (Quatd, Vec3d) {
    let body_rot = unit_quat(&place.body_rotation);
    let rot = if place.shape_rotation == Quat::identity() {
        body_rot
    } else {
        body_rot * unit_quat(&place.shape_rotation)
    };
    let body = promote(place.body_position);
    let center = if place.shape_offset == Vec3::zeros() {
        body
    } else {
        body + body_rot * promote(place.shape_offset)
    };
    (rot, center)
}
