//! A solid's sweep prepared once per step (or per pass of a caller's loop)
//! and then run against any number of static triangles: [`SolidSweep`], a
//! layer of `sweep_solid_triangle` (see `solid_triangle`).
//!
//! Method: everything that does not depend on the triangle is done once:
//! the placement's precision checks (`solid_placement`), the shape's world
//! pose as rotation matrices, the step's displacement turned into the shape
//! frame, and the world bounds of the whole path (`solid_path_bounds`). Per
//! triangle, the sweep checks the triangle's precision domain, rejects it
//! by the path's bounds, turns it into the shape frame and runs the
//! separating-axis test over time there. The same operations on the same
//! values in the same order as the pure function, so the outcomes are equal
//! bit for bit (a unit test compares them by their bits).
//!
//! Precision domain: that of `sweep_solid_triangle`.

use parapet_math::{promote, Mat3d, Quatd, Vec3, Vec3d};

use super::domain::{self, SweepRefusal};
use super::placement::Placement;
use super::solid_path_bounds::path_bounds;
use super::solid_placement::checked_placement;
use super::solid_sat::{sat, SatAxis};
use super::{Impact, SweepOutcome, SweptBounds};
use crate::solid::ConvexSolid;
use crate::triangle::{turned_triangle, TriangleFrame};

/// One solid's translation over one step, checked and prepared once to be
/// swept against any number of static triangles: the placement's precision
/// checks, the shape's world pose as rotation matrices, the displacement in
/// the shape frame and the world bounds of the whole path.
///
/// [`SolidSweep::triangle`] gives exactly (bit for bit) what
/// [`sweep_solid_triangle`](super::sweep_solid_triangle) gives for the same solid, placement, velocity,
/// step and triangle; a placement that [`sweep_solid_triangle`](super::sweep_solid_triangle) refuses is
/// refused here by [`SolidSweep::new`], before any triangle.
#[derive(Debug, Clone)]
pub struct SolidSweep<'a> {
    pub(crate) solid: &'a ConvexSolid,
    /// The shape origin in world coordinates at the step start (metres).
    pub(crate) center: Vec3d,
    /// Rotation shape -> world.
    pub(crate) rot: Mat3d,
    /// Rotation world -> shape (the transpose of `rot`).
    pub(crate) inv: Mat3d,
    /// The step's displacement in the shape frame (metres).
    pub(crate) d: Vec3d,
    /// The solid's farthest-vertex radius (metres).
    pub(crate) r: f64,
    /// World bounds of the solid's whole path over the step, rounded
    /// outward: a triangle outside them cannot be touched.
    pub(crate) bounds: SweptBounds,
}

impl<'a> SolidSweep<'a> {
    /// Checks the placement, velocity and step of `solid` against the
    /// precision domain (see `solid_placement`) and
    /// prepares its sweep.
    ///
    /// # Errors
    /// The [`SweepRefusal`] that [`sweep_solid_triangle`](super::sweep_solid_triangle) returns for this
    /// solid, placement, velocity and step whatever the triangle.
    #[inline]
    pub fn new(
        solid: &'a ConvexSolid,
        placement: &Placement,
        velocity: Vec3,
        dt: f32,
    ) -> Result<Self, SweepRefusal> {
        let (center, rot, d, r) = checked_placement(solid, placement, velocity, dt)?;
        Ok(Self::from_pose(solid, center, rot, d, r))
    }

    /// The sweep of `solid` with its shape origin at `center` (world),
    /// rotation `rot` (shape to world, unit) and displacement `d` (world),
    /// `r` its farthest-vertex radius, whose precision domain the caller
    /// has checked: for a placement that [`SolidSweep::new`] accepts, the
    /// same sweep bit for bit.
    pub(crate) fn from_pose(
        solid: &'a ConvexSolid,
        center: Vec3d,
        rot: Quatd,
        d: Vec3d,
        r: f64,
    ) -> Self {
        let rot = rot.to_rotation_matrix().into_inner();
        let inv = rot.transpose();
        let bounds = path_bounds(solid.tables(), center, &rot, d);
        SolidSweep {
            solid,
            center,
            rot,
            inv,
            d: inv * d,
            r,
            bounds,
        }
    }

    /// The solid's sweep against one static one-sided triangle: see
    /// [`sweep_solid_triangle`](super::sweep_solid_triangle). The triangle is checked against the
    /// precision domain first (a refusal), then rejected by the path's
    /// bounds (a miss) when it lies wholly outside them.
    pub fn triangle(&self, triangle: &[Vec3; 3]) -> SweepOutcome<SatAxis> {
        let p = triangle.map(promote);
        if let Err(e) = domain::triangle_promoted(triangle, &p, self.center, self.r) {
            return SweepOutcome::Refused(e);
        }
        self.triangle_promoted(&p)
    }

    /// [`SolidSweep::triangle`] on a triangle given in `f64` whose precision
    /// domain the caller has checked: for a triangle promoted from `f32`,
    /// the same outcome bit for bit.
    pub(crate) fn triangle_promoted(&self, p: &[Vec3d; 3]) -> SweepOutcome<SatAxis> {
        if self.bounds.misses_promoted(p) {
            return SweepOutcome::Miss;
        }
        // Work in the solid's own frame (centred on it): its vertices, face
        // axes and edges are used as stored; the triangle and the motion turn.
        let tri = TriangleFrame::new(turned_triangle(p, self.center, &self.inv));
        match sat(self.solid, self.d, self.r, &tri) {
            SweepOutcome::Hit(i) => SweepOutcome::Hit(self.to_world(i)),
            SweepOutcome::InitiallyTouching(i) => SweepOutcome::InitiallyTouching(self.to_world(i)),
            other => other,
        }
    }

    /// An impact found in the shape frame, in world coordinates.
    #[inline]
    fn to_world(&self, i: Impact<SatAxis>) -> Impact<SatAxis> {
        Impact {
            time: i.time,
            point: self.rot * i.point + self.center,
            normal: self.rot * i.normal,
            feature: i.feature,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::solid_triangle::sweep_solid_triangle;
    use super::super::test_fixtures::{
        skewed_octahedron, solid_floor as floor, unit_box, xorshift,
    };
    use super::*;
    use parapet_math::Quat;

    /// The pure function's outcome and the prepared sweep's, built once and
    /// reused for every triangle in `tris`: equal bit for bit (`f64` fields
    /// compared by their bits, so even the sign of a zero must agree).
    fn assert_prepared_matches(
        solid: &ConvexSolid,
        place: &Placement,
        vel: Vec3,
        dt: f32,
        tris: &[[Vec3; 3]],
    ) -> Vec<SweepOutcome<SatAxis>> {
        let bits = |o: &SweepOutcome<SatAxis>| match o {
            SweepOutcome::Hit(i) | SweepOutcome::InitiallyTouching(i) => Some((
                i.time.to_bits(),
                i.point.map(f64::to_bits),
                i.normal.map(f64::to_bits),
                i.feature,
            )),
            _ => None,
        };
        let prepared = SolidSweep::new(solid, place, vel, dt);
        tris.iter()
            .map(|tri| {
                let pure = sweep_solid_triangle(solid, place, vel, dt, tri);
                let reused = match &prepared {
                    Ok(sweep) => sweep.triangle(tri),
                    Err(e) => SweepOutcome::Refused(*e),
                };
                assert_eq!(pure, reused, "{place:?} {vel:?} {dt} {tri:?}");
                assert_eq!(bits(&pure), bits(&reused));
                pure
            })
            .collect()
    }

    #[test]
    fn a_prepared_sweep_gives_the_pure_functions_outcomes_bit_for_bit() {
        // Hand-built cases (landing flat, sliding with zero clearance,
        // resting with overlap, wholly behind, offset shape, edge grazing)
        // and random boxes and hulls, poses, motions and triangles, each
        // prepared once and swept against 8 triangles in turn.
        let mut unit = xorshift(0x9e37_79b9_7f4a_7c15);
        let b = unit_box();
        let hand: [(Vec3, Vec3, f32); 6] = [
            (Vec3::new(0.0, 0.0, 2.5), Vec3::new(0.0, 0.0, -4.0), 1.0),
            (Vec3::new(0.0, 0.0, 0.5), Vec3::new(3.0, 1.0, 0.0), 0.5),
            (Vec3::new(0.0, 0.0, 0.499), Vec3::new(3.0, 0.0, 0.0), 0.1),
            (Vec3::new(0.0, 0.0, -0.5), Vec3::new(0.0, 0.0, 4.0), 1.0),
            (Vec3::new(4.5, 0.0, 0.5), Vec3::new(0.0, 0.0, -1.0), 1.0),
            (Vec3::new(0.3, -0.2, 3.0), Vec3::new(1.0, 0.5, -6.0), 1.0),
        ];
        let mut seen = [0usize; 4];
        let mut tally = |outs: &[SweepOutcome<SatAxis>]| {
            for o in outs {
                seen[match o {
                    SweepOutcome::Hit(_) => 0,
                    SweepOutcome::InitiallyTouching(_) => 1,
                    SweepOutcome::Miss => 2,
                    SweepOutcome::Refused(_) => 3,
                }] += 1;
            }
        };
        for (p, v, dt) in hand {
            let place = Placement::at(p, Quat::identity());
            tally(&assert_prepared_matches(&b, &place, v, dt, &[floor()]));
        }
        let hull = skewed_octahedron();
        for case in 0..2_000 {
            let solid = if case % 2 == 0 {
                ConvexSolid::from_cuboid(Vec3::new(0.05 + unit(), 0.05 + unit(), 0.05 + unit()))
                    .unwrap()
            } else {
                hull.clone()
            };
            let v = |u: &mut dyn FnMut() -> f32| {
                Vec3::new(4.0 * u() - 2.0, 4.0 * u() - 2.0, 4.0 * u() - 2.0)
            };
            let tris: Vec<[Vec3; 3]> = (0..8)
                .map(|_| [v(&mut unit), v(&mut unit), v(&mut unit)])
                .collect();
            let start = v(&mut unit);
            let place = Placement {
                body_position: start,
                body_rotation: Quat::from_euler_angles(3.0 * unit(), 3.0 * unit(), 3.0 * unit()),
                shape_offset: if case % 3 == 0 {
                    Vec3::zeros()
                } else {
                    v(&mut unit) * 0.3
                },
                shape_rotation: if case % 5 == 0 {
                    Quat::from_euler_angles(unit(), unit(), unit())
                } else {
                    Quat::identity()
                },
            };
            let vel = (v(&mut unit) * 0.5 - start) * (0.5 + 2.0 * unit());
            // Every 50th case is out of the precision domain: a placement
            // refused before any triangle, or one triangle that is refused.
            let (vel, dt, tris) = match case % 50 {
                7 => (Vec3::new(f32::NAN, 0.0, 0.0), 1.0, tris),
                17 => (vel, -1.0, tris),
                27 => {
                    let mut tris = tris;
                    tris[3] = [Vec3::zeros(), Vec3::x(), Vec3::x() * 2.0];
                    (vel, 1.0, tris)
                }
                _ => (vel, 1.0, tris),
            };
            tally(&assert_prepared_matches(&solid, &place, vel, dt, &tris));
        }
        // The cases reach hits, initial contacts, misses and refusals.
        assert!(seen.iter().all(|&n| n > 10), "{seen:?}");
    }
}
