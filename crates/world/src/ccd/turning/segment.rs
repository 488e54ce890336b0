//! The contact stage of a turning capsule or off-centre sphere (a segment
//! core grown by its radius), one pass: which touched triangles take an
//! impact and at which point.
//!
//! # Method
//! Every candidate that the shape touches (segment-triangle distance at
//! most the radius) and that the segment is not wholly behind (one-sided
//! rule: both ends behind the face plane) is examined in insertion order.
//! The contact point is the end of the touching part of the segment that
//! closes fastest (the point of that part nearest the mass centre when both
//! close alike, so that a flat landing takes no torque from the choice). If
//! the body's velocity closes there beyond the approach bound (32 ε of the
//! terms), the triangle takes the rigid impulse of
//! [`respond_turning_point`] (restitution, Coulomb friction, a further
//! normal impulse when friction closes the contact again), counted against
//! `ccd_max_impacts`. A spinning shape pressed onto a triangle leaves it at
//! least at `sqrt(2 tol a)` (a micro-collision, `a` the touching core
//! point's centripetal acceleration) when the closing speed allows it.
//!
//! # Source and precision domain
//! Mirtich and Canny, "Impulse-based Simulation of Rigid Bodies" (1995) for
//! micro-collisions; Ericson, *Real-Time Collision Detection*, 5.1.10, for
//! the closest points. `f64` in the working frame at the mass centre.

use parapet_math::Vec3d;
use parapet_narrow::advance::{CoreShape, Hold, SegmentCore};
use parapet_narrow::contact::active_edges::seam_normal;
use parapet_narrow::sweep::{
    clearance, segment_parameter, touching_span, Clearance, APPROACH_EPS_FACTOR,
};
use parapet_solver::impact::respond_turning_point;

use super::super::error::CcdError;
use super::super::motion::SweptImpact;
use super::super::reach::norm_up;
use super::{closes, Instant, Motion, Turning, TurningCore};

/// A touched triangle's contact: point on the triangle relative to the mass
/// centre, and the unit normal towards the body.
struct Touch {
    arm: Vec3d,
    normal: Vec3d,
    /// The core segment point that touches, relative to the mass centre.
    core: Vec3d,
}

/// The contact point of a touched triangle (see the module docs).
fn touch(
    ends: &[Vec3d; 2],
    tri: &[Vec3d; 3],
    radius: f64,
    cl: &Clearance,
    velocity: &Vec3d,
    spin: &Vec3d,
) -> Touch {
    let fallback = Touch {
        arm: cl.on_triangle,
        normal: cl.normal,
        core: cl.on_segment,
    };
    if ends[0] == ends[1] {
        return fallback;
    }
    let lambda = segment_parameter(ends, &cl.on_segment);
    let span = touching_span(ends, tri, radius, lambda);
    let at = |l: f64| ends[0] + (ends[1] - ends[0]) * l;
    let rate = |l: f64| cl.normal.dot(&(velocity + spin.cross(&at(l))));
    let (r0, r1) = (rate(span[0]), rate(span[1]));
    let scale = velocity.amax() + spin.amax() * (ends[0].amax() + ends[1].amax());
    let chosen = if (r0 - r1).abs() <= APPROACH_EPS_FACTOR * f64::EPSILON * scale {
        // Alike: the point of the span nearest the mass centre (the origin
        // of the working frame), so that a flat landing takes no torque from
        // the choice of point.
        segment_parameter(ends, &Vec3d::zeros()).clamp(span[0], span[1])
    } else if r0 < r1 {
        span[0]
    } else {
        span[1]
    };
    let x = at(chosen);
    match clearance(&[x, x], tri, radius) {
        Some(c) if c.distance <= radius => Touch {
            arm: c.on_triangle,
            normal: c.normal,
            core: x,
        },
        _ => fallback,
    }
}

impl TurningCore for SegmentCore {
    fn contacts(
        &self,
        sweep: &Turning<'_>,
        m: &mut Motion,
        at: &Instant<'_, [Vec3d; 2]>,
        impacts_taken: &mut u32,
        impacts: &mut Vec<SweptImpact>,
    ) -> Result<bool, CcdError> {
        let (radius, ends) = (sweep.skin, at.posed);
        let mut changed = false;
        for &(t, material) in at.candidates {
            let tri = sweep.relative(t, &m.center);
            let Some(cl) = clearance(ends, &tri, radius) else {
                continue;
            };
            if !(cl.distance <= radius) {
                continue;
            }
            // A held triangle (a slow contact within the held band) is the
            // discrete solver's: no impact, and the split velocities stay.
            if let Some(sep) = self.separation(ends, &tri) {
                if sweep.hold(self, m, at, &tri, &sep) == Hold::Sinking {
                    continue;
                }
            }
            let mut contact = touch(ends, &tri, radius, &cl, &m.velocity, &m.spin);
            // A seam of a mesh with active edges pushes along its face
            // normal only (the discrete and swept admission alike).
            if let Some(mesh) = sweep.mesh {
                contact.normal = seam_normal(contact.normal, contact.arm, &tri, (mesh.edges)(t));
            }
            let moving = (m.split_velocity, m.split_spin) != (Vec3d::zeros(), Vec3d::zeros());
            if moving
                && closes(
                    &contact.normal,
                    &m.moving_velocity(),
                    &m.moving_spin(),
                    &contact.arm,
                )
            {
                m.split_velocity = Vec3d::zeros();
                m.split_spin = Vec3d::zeros();
                changed = true;
            }
            if !closes(&contact.normal, &m.velocity, &m.spin, &contact.arm) {
                continue;
            }
            // Micro-collision: the touching core point's centripetal
            // acceleration a = |ω| |ω × x| could press the shape back by the
            // tolerance within sqrt(2 tol / a); leaving at sqrt(2 tol a) (or
            // at the closing speed, when smaller) prevents that sinking.
            let pressing = norm_up(&m.spin) * norm_up(&m.spin.cross(&contact.core));
            let separation = (2.0 * sweep.tol * pressing).sqrt();
            let Some(r) = respond_turning_point(
                &sweep.mass,
                m.velocity,
                m.spin,
                contact.arm,
                contact.normal,
                &material,
                separation,
            )
            .map_err(|e| CcdError::from_impact(sweep.index, e))?
            else {
                continue;
            };
            if std::env::var("TRACE_TURN").is_ok() {
                eprintln!(
                    "CAP t={:.6} tri {} pre {:.3e} post {:.3e} v={:?} w={:?} core={:?} n={:?}",
                    at.elapsed,
                    t,
                    contact
                        .normal
                        .dot(&(m.velocity + m.spin.cross(&contact.arm))),
                    contact
                        .normal
                        .dot(&(r.linear_velocity + r.angular_velocity.cross(&contact.arm))),
                    m.velocity.as_slice(),
                    m.spin.as_slice(),
                    contact.core.as_slice(),
                    contact.normal.as_slice()
                );
            }
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
            changed = true;
            impacts.push(SweptImpact {
                body: sweep.index,
                triangle: t,
                time: (at.elapsed / sweep.dt).clamp(0.0, 1.0),
                point: m.center + contact.arm,
                normal: contact.normal,
                impulse: r.impulse,
            });
        }
        Ok(changed)
    }
}
