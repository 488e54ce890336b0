//! The precision checks of a swept solid's [`Placement`], made once per
//! sweep (or once per prepared sweep, `solid_prepared`) of
//! `sweep_solid_triangle` (see `solid_triangle`).
//!
//! Method: the shape's world pose is
//! `body_position + body_rotation * (shape_offset + shape_rotation * x)`,
//! formed in `f64` from unit `f64` quaternions. The accepted placement (the
//! common case) is decided by one joined comparison of the same values that
//! the refusals name one by one ([`checked_placement`] and
//! [`placement_reason`] agree on every input, a unit test shows it).
//!
//! Precision domain (docs/continuous-collision.md, "Precision limits"):
//! rotations finite and unit within
//! [`super::ROTATION_NORM_SQ_TOLERANCE`] in squared norm; the shape offset at
//! most [`super::MAX_SHAPE_OFFSET`]; the solid's farthest-vertex radius
//! within [`super::MIN_RADIUS`] and [`super::MAX_RADIUS`]; the shape's
//! centre at the start and end of the step within [`super::MAX_COORDINATE`]
//! and within [`super::MAX_COORDINATE_RADII`] radii; the reach (travel plus
//! radius) within [`super::MAX_REACH_RADII`] radii.

use parapet_math::{promote, Quat, Quatd, Vec3, Vec3d};

use super::domain::{self, Checked, SweepRefusal};
use super::placement::{shape_pose, Placement};
use crate::solid::ConvexSolid;

/// A checked placement: world centre, rotation shape -> world, the step's
/// displacement (world) and the solid's radius.
///
/// The common case (an acceptable placement) is decided without an early
/// exit per limit: the same comparisons on the same values (a coordinate or
/// rotation norm within its limit is finite, so most finiteness checks are
/// implied; dividing by the positive radius is monotone, so the largest
/// coordinate within the radius-relative limit means all are). Only a
/// placement it does not accept goes through [`placement_reason`], which
/// checks each limit in turn to name the refusal.
#[inline]
pub(crate) fn checked_placement(
    solid: &ConvexSolid,
    place: &Placement,
    velocity: Vec3,
    dt: f32,
) -> Checked<(Vec3d, Quatd, Vec3d, f64)> {
    let unit = |q: &Quat| {
        let n2 = q.into_inner().coords.cast::<f64>().norm_squared();
        (n2 - 1.0).abs() <= domain::ROTATION_NORM_SQ_TOLERANCE
    };
    let r = solid.bounding_radius();
    let offset = promote(place.shape_offset);
    let body = promote(place.body_position);
    let mut ok = unit(&place.body_rotation) && unit(&place.shape_rotation);
    ok &= velocity.x.is_finite() && velocity.y.is_finite() && velocity.z.is_finite();
    ok &= dt.is_finite() && dt >= 0.0;
    ok &= !solid.vertices().is_empty() && !solid.face_normals().is_empty();
    ok &= (domain::MIN_RADIUS..=domain::MAX_RADIUS).contains(&r);
    ok &= offset.norm() <= domain::MAX_SHAPE_OFFSET;
    // Per component (a NaN fails its comparison); with the checks above,
    // this makes the centre and the displacement below finite.
    ok &= body.iter().all(|x| x.abs() <= domain::MAX_COORDINATE);
    if !ok {
        return placement_reason(solid, place, velocity, dt);
    }
    let (rot, center) = shape_pose(place);
    let d = promote(velocity) * dt as f64;
    let far = center.amax().max((center + d).amax());
    if far <= domain::MAX_COORDINATE
        && far / r <= domain::MAX_COORDINATE_RADII
        && (d.norm() + r) / r <= domain::MAX_REACH_RADII
    {
        Ok((center, rot, d, r))
    } else {
        placement_reason(solid, place, velocity, dt)
    }
}

/// The placement checks of [`checked_placement`] one by one, in order: the
/// first that fails names the refusal.
#[cold]
fn placement_reason(
    solid: &ConvexSolid,
    place: &Placement,
    velocity: Vec3,
    dt: f32,
) -> Checked<(Vec3d, Quatd, Vec3d, f64)> {
    domain::finite_vec("body position", place.body_position)?;
    domain::finite_vec("shape offset", place.shape_offset)?;
    domain::rotation("body rotation", &place.body_rotation)?;
    domain::rotation("shape rotation", &place.shape_rotation)?;
    domain::finite_vec("solid velocity", velocity)?;
    domain::step(dt)?;
    if solid.vertices().is_empty() || solid.face_normals().is_empty() {
        return Err(SweepRefusal::EmptySolid {
            vertices: solid.vertices().len(),
            faces: solid.face_normals().len(),
        });
    }
    let r = solid.bounding_radius();
    domain::radius("solid farthest-vertex radius", r)?;
    let offset = promote(place.shape_offset);
    let off_len = offset.norm();
    if !(off_len <= domain::MAX_SHAPE_OFFSET) {
        return Err(SweepRefusal::ShapeOffsetTooLarge {
            value: off_len,
            limit: domain::MAX_SHAPE_OFFSET,
        });
    }
    let (rot, center) = shape_pose(place);
    let body = promote(place.body_position);
    domain::coordinate("body position", body)?;
    let d = promote(velocity) * dt as f64;
    domain::moving_coordinate("solid centre at step start", center, r)?;
    domain::moving_coordinate("solid centre at step end", center + d, r)?;
    domain::reach(d.norm() + r, r)?;
    Ok((center, rot, d, r))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sweep::test_fixtures::unit_box;
    use crate::sweep::MAX_COORDINATE_RADII;

    #[test]
    fn the_quick_placement_acceptance_agrees_with_the_detailed_checks() {
        // Each placement limit just inside and just outside, and non-finite
        // inputs: the same refusal or the same accepted values either way.
        let b = unit_box();
        let r = b.bounding_radius();
        let edge = (MAX_COORDINATE_RADII * r) as f32;
        let ok = Placement::at(Vec3::new(0.0, 0.0, 1.0), Quat::identity());
        let mut cases: Vec<(Placement, Vec3, f32)> = vec![(ok, Vec3::x(), 1.0)];
        for x in [
            edge * 0.999_99,
            edge * 1.000_01,
            f32::NAN,
            f32::INFINITY,
            1.0e7,
        ] {
            let mut p = ok;
            p.body_position.x = x;
            cases.push((p, Vec3::x(), 1.0));
            let mut p = ok;
            p.shape_offset.y = x;
            cases.push((p, Vec3::x(), 1.0));
            cases.push((ok, Vec3::new(0.0, x, 0.0), 1.0));
            cases.push((ok, Vec3::x(), x));
        }
        for w in [1.0f32, 1.000_004, 1.000_006, f32::NAN] {
            let q = parapet_math::nalgebra::Quaternion::new(w, 0.0, 0.0, 0.0);
            let mut p = ok;
            p.body_rotation = Quat::new_unchecked(q);
            cases.push((p, Vec3::x(), 1.0));
            let mut p = ok;
            p.shape_rotation = Quat::new_unchecked(q);
            cases.push((p, Vec3::x(), 1.0));
        }
        cases.push((ok, Vec3::x(), -1.0));
        cases.push((ok, Vec3::x() * 1.0e6, 1.0));
        for (place, vel, dt) in &cases {
            assert_eq!(
                checked_placement(&b, place, *vel, *dt),
                placement_reason(&b, place, *vel, *dt),
                "{place:?} {vel:?} {dt}"
            );
        }
    }
}
