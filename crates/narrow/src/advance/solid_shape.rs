//! The solid core as the certified driver sees it: the [`CoreShape`]
//! implementation of [`SolidCore`], which poses the solid at a rotation and
//! answers the driver's questions through the separating planes of
//! `solid_plane.rs` and the touch points of `solid_manifold.rs`.
//!
//! # Method
//! Posing turns the body-frame arms, face normals and edge directions by
//! the rotation's matrix and takes each face's support as the largest
//! `normal · vertex` over the posed vertices, so that no vertex lies in
//! front of its face plane. A solid has no skin: it touches when its
//! certified separation is at most zero.
//!
//! # Precision domain
//! As `solid.rs`: `f64` arms of `f32` shape-frame points, turned in `f64`.

use parapet_math::{Mat3d, Quatd, Vec3d};

use super::bound::BendMode;
use super::solid::{PosedSolid, SolidCore};
use super::{CoreShape, Separation, Touch, TOLERANCE_FRACTION};

impl CoreShape for SolidCore {
    type Posed = PosedSolid;

    fn pose(&self, rotation: &Quatd) -> PosedSolid {
        let m: Mat3d = *rotation.to_rotation_matrix().matrix();
        let points: Vec<Vec3d> = self.arms.iter().map(|a| m * a).collect();
        let normals: Vec<Vec3d> = self.normals.iter().map(|n| m * n).collect();
        let offsets = normals
            .iter()
            .map(|n| {
                points
                    .iter()
                    .map(|p| n.dot(p))
                    .fold(f64::NEG_INFINITY, f64::max)
            })
            .collect();
        let directions = self.directions.iter().map(|d| m * d).collect();
        PosedSolid {
            points,
            normals,
            offsets,
            directions,
        }
    }

    fn points(posed: &PosedSolid) -> &[Vec3d] {
        &posed.points
    }

    fn skin(&self) -> f64 {
        0.0
    }

    fn tolerance(&self) -> f64 {
        self.inner_radius * TOLERANCE_FRACTION
    }

    fn domain_radius(&self) -> f64 {
        self.bounding_radius
    }

    fn reach(&self) -> f64 {
        self.reach
    }

    fn bend_mode(&self) -> BendMode {
        BendMode::AlongNormal
    }

    fn separation(&self, posed: &PosedSolid, tri: &[Vec3d; 3]) -> Option<Separation> {
        super::solid_plane::separation(self, posed, tri)
    }

    fn touches(&self, separation: &Separation) -> bool {
        separation.separation <= 0.0
    }

    fn touch_points(
        &self,
        posed: &PosedSolid,
        tri: &[Vec3d; 3],
        separation: &Separation,
        out: &mut Vec<Touch>,
    ) {
        super::solid_manifold::touch_points(self, posed, tri, separation, out);
    }
}
