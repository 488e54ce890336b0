//! The contact stage of a turning box or hull (a solid core), one pass:
//! every touched triangle's manifold, and one impact over all of them when
//! some point closes.
//!
//! # Method
//! Every candidate that the solid touches (certified separation at most
//! zero, not wholly behind its face plane) gives its touch points
//! ([`parapet_narrow::advance`]: every solid point within the manifold band,
//! so a box landing flat reports its four corners), each with the
//! triangle's contact normal (along the face normal at a seam of a mesh
//! with active edges) and the mixed material. When the body's velocity
//! `v + ω × a` closes at some point beyond the approach bound, all the
//! points of the instant take one manifold impact together
//! ([`respond_manifold`]: plastic projection, one restitution coefficient,
//! Coulomb friction, re-projection), counted as one impact against
//! `ccd_max_impacts` and reported as one swept event per point that took an
//! impulse. The response leaves every point non-closing up to
//! [`MANIFOLD_RELATIVE_TOLERANCE`] of the closing speed; the approach
//! bound here is [`MANIFOLD_CLOSING_FACTOR`] of the terms, so that residue
//! never triggers a second impact at the same instant.
//!
//! # Source and precision domain
//! The manifold of Ericson, *Real-Time Collision Detection*, 5.5; the
//! impulses of Moreau (1988) and Mirtich (1996). `f64` in the working frame.

use parapet_math::Vec3d;
use parapet_narrow::advance::{CoreShape, Hold, PosedSolid, SolidCore, Touch};
use parapet_narrow::contact::active_edges::seam_normal;
use parapet_narrow::sweep::APPROACH_EPS_FACTOR;
use parapet_solver::impact::{respond_manifold, ManifoldPoint, MANIFOLD_RELATIVE_TOLERANCE};

use super::super::error::CcdError;
use super::super::motion::SweptImpact;
use super::{Instant, Motion, Turning, TurningCore};

/// The approach bound of a solid's contact points, relative to the sum of
/// the absolute terms of `n · (v + ω × a)` (dimensionless): the larger of
/// the swept loops' `32 ε` and four times the manifold response's residual
/// tolerance, which the response leaves at most (relative to the closing
/// speed, itself at most that sum).
pub(crate) const MANIFOLD_CLOSING_FACTOR: f64 = 4.0 * MANIFOLD_RELATIVE_TOLERANCE;

/// Whether the velocity `v + ω × arm` closes along `n` beyond the solid
/// approach bound ([`MANIFOLD_CLOSING_FACTOR`]).
fn closes_solid(n: &Vec3d, v: &Vec3d, w: &Vec3d, arm: &Vec3d) -> bool {
    let a = n.component_mul(v);
    let b = n.component_mul(&w.cross(arm));
    let dot = a.sum() + b.sum();
    let scale = a.abs().sum() + b.abs().sum();
    let factor = MANIFOLD_CLOSING_FACTOR.max(APPROACH_EPS_FACTOR * f64::EPSILON);
    dot < -factor * scale
}

/// One contact row of the instant: its triangle and its manifold point
/// (lever arm from the mass centre on the solid's surface).
struct Row {
    triangle: usize,
    /// Whether its triangle is held ([`Turning::holds`]).
    held: bool,
    point: ManifoldPoint,
    /// The triangle point nearest the solid point, relative to the mass
    /// centre (the reported contact point).
    on_triangle: Vec3d,
}

impl TurningCore for SolidCore {
    fn contacts(
        &self,
        sweep: &Turning<'_>,
        m: &mut Motion,
        at: &Instant<'_, PosedSolid>,
        impacts_taken: &mut u32,
        impacts: &mut Vec<SweptImpact>,
    ) -> Result<bool, CcdError> {
        let mut rows: Vec<Row> = Vec::new();
        let mut touches: Vec<Touch> = Vec::new();
        for &(t, material) in at.candidates {
            let tri = sweep.relative(t, &m.center);
            let Some(sep) = self.separation(at.posed, &tri) else {
                continue;
            };
            if !self.touches(&sep) {
                continue;
            }
            let held = sweep.hold(self, m, at, &tri, &sep) == Hold::Sinking;
            touches.clear();
            self.touch_points(at.posed, &tri, &sep, &mut touches);
            for touch in &touches {
                let normal = match sweep.mesh {
                    Some(mesh) => seam_normal(sep.normal, touch.on_triangle, &tri, (mesh.edges)(t)),
                    None => sep.normal,
                };
                rows.push(Row {
                    triangle: t,
                    held,
                    point: ManifoldPoint {
                        arm: touch.on_shape,
                        normal,
                        material,
                    },
                    on_triangle: touch.on_triangle,
                });
            }
        }
        if rows.is_empty() {
            return Ok(false);
        }
        let mut changed = false;
        let moving = (m.split_velocity, m.split_spin) != (Vec3d::zeros(), Vec3d::zeros());
        if moving
            && rows.iter().any(|r| {
                !r.held
                    && closes_solid(
                        &r.point.normal,
                        &m.moving_velocity(),
                        &m.moving_spin(),
                        &r.point.arm,
                    )
            })
        {
            m.split_velocity = Vec3d::zeros();
            m.split_spin = Vec3d::zeros();
            changed = true;
        }
        if !rows
            .iter()
            .any(|r| !r.held && closes_solid(&r.point.normal, &m.velocity, &m.spin, &r.point.arm))
        {
            return Ok(changed);
        }
        let points: Vec<ManifoldPoint> = rows.iter().map(|r| r.point).collect();
        let Some(r) = respond_manifold(&sweep.mass, m.velocity, m.spin, &points)
            .map_err(|e| CcdError::from_impact(sweep.index, e))?
        else {
            return Ok(changed);
        };
        *impacts_taken += 1;
        if *impacts_taken > sweep.max_impacts {
            return Err(CcdError::ImpactLimit {
                body: sweep.index,
                impacts: *impacts_taken,
                limit: sweep.max_impacts,
            });
        }
        m.velocity = r.linear_velocity;
        m.spin = r.angular_velocity;
        let time = (at.elapsed / sweep.dt).clamp(0.0, 1.0);
        for (row, impulse) in rows.iter().zip(&r.impulses) {
            if *impulse == Vec3d::zeros() {
                continue;
            }
            impacts.push(SweptImpact {
                body: sweep.index,
                triangle: row.triangle,
                time,
                point: m.center + row.on_triangle,
                normal: row.point.normal,
                impulse: *impulse,
            });
        }
        Ok(true)
    }
}
