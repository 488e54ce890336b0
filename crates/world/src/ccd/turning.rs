//! The sub-step and impact loop of a turning body alone in its group (see
//! docs/turning-bodies.md, and docs/continuous-collision.md, "Precision
//! limits" and "Ordering, limits and rollback").
//!
//! A turning body is a dynamic capsule that can turn, or a dynamic sphere or
//! capsule whose shape sits off its body origin or its mass centre. Its
//! shape does not move in a straight line, so it takes no exact sweep: it
//! advances in sub-steps whose length
//! [`parapet_narrow::sweep::certified_advance`] certifies for every nearby
//! triangle.
//!
//! # Method
//! The state of the step is kept in `f64`: the world mass centre `C`, the
//! unit rotation `Q`, the velocity `v` and the spin `ω`. Between impacts the
//! mass centre moves at constant velocity and the body turns at constant
//! spin: after a sub-step of `t` seconds `C += v t` and `Q ← exp(ω t) Q`,
//! the exact axis-angle turn by `|ω| t` about `ω`. Each loop pass is one
//! sub-step, counted against `ccd_max_substeps`:
//!
//! 1. **Candidates** (at the start and after every impact): the bounds tree
//!    is queried with the ball of radius `farthest end + radius + contact
//!    margin` swept from `C` along `v τ` for the remaining time `τ` (turning
//!    keeps every shape point at its distance from `C`); triangles of owners
//!    whose collisions are off are dropped, the rest are sorted by insertion
//!    order and each passes the turning domain check
//!    ([`parapet_narrow::sweep::check_turning_triangle`]).
//! 2. **Contacts**: every candidate that the shape touches (segment-triangle
//!    distance at most the radius) and that the segment is not wholly behind
//!    (one-sided rule: both ends behind the face plane) is examined in
//!    insertion order. The contact point is the end of the touching part of
//!    the segment that closes fastest (the point of that part nearest the
//!    mass centre when both close alike, so that a flat landing takes no
//!    torque from the choice). If the body's velocity closes there beyond
//!    the approach bound (32 eps of the terms), the triangle takes the rigid impulse of
//!    [`parapet_solver::impact::respond_turning_point`] (restitution, Coulomb friction, a further normal impulse
//!    when friction closes the contact again), counted against
//!    `ccd_max_impacts`, and the candidates are queried again.
//! 3. **Pressing correction**: the spin can press a touching shape onto a
//!    triangle while its contact point barely closes (sustained contact
//!    through a turn). Such a contact is resolved by micro-collisions: the
//!    impulse leaves the contact at least at `sqrt(2 tol a)` (`a` the
//!    touching core point's centripetal acceleration, `tol` the tolerance)
//!    when the closing speed allows it, which never adds energy; and a
//!    touched triangle whose separation is below `radius − tol` plus the
//!    smallest sub-step gap pushes the pose out along its plane by the
//!    shortfall, at most `tol / 256` per pass, pose only (like the split
//!    correction). A pressed shape thus stays within the tolerance band, and
//!    storage rounding between steps does not accumulate.
//! 4. **Certified advance**: the sub-step is the smallest admissible time
//!    over the candidates ([`admissible_time`] with [`sub_step_floor`]) and
//!    the remaining time.
//!
//! The split (pose-only) velocities of the contact stage move the body with
//! its velocity until a touched triangle closes under that combined motion;
//! they are then dropped for the rest of the step (as for bodies that do
//! not turn: an impact replaces the correction). A turning body always
//! takes its pose and velocities from this loop, so the integrate stage
//! skips it; for an anisotropic tensor, the integrator's torque-free
//! precession resumes on the next step. The pose and velocities are rounded
//! to `f32` once, at the end of the step (the mass centre kept, the origin
//! placed from the rounded rotation).
//!
//! Termination: every sub-step keeps a gap of at least `tol / 256` above its
//! floor, so it lasts at least `g / (|n · u| + sqrt(bend g))` for that gap
//! `g` (see `certified_advance`); every pass counts as a sub-step, so the
//! loop ends at the end of the step, with [`CcdError::SubstepLimit`] or with
//! [`CcdError::ImpactLimit`].
//!
//! Guarantee (for the `f64` state, before the final `f32` rounding): a shape
//! that starts a step clear of a triangle's front never comes closer to it
//! than `radius − tol` (plus `tol / 256` for one sub-step of a pressed shape,
//! lifted back in the next pass); one that starts deeper does not sink
//! further than that.
//!
//! # Precision domain
//! Radii in `[1e-4, 1e4]` m, the shape's start and end positions
//! within 65536 radii, candidate triangles within 1048576 radii, offsets
//! within 10000 m; the certificate's own `f64` slacks are documented in
//! `certified_advance`.

use parapet_geometry::bvh::SweptBall;
use parapet_geometry::Material;
use parapet_math::nalgebra::UnitQuaternion;
use parapet_math::rounding::{add_up, mul_up, sqrt_up};
use parapet_math::{demote, promote, promote_quat, Quat, Quatd, Vec3, Vec3d};
use parapet_narrow::sweep::{
    admissible_time, check_turning_triangle, clearance, segment_parameter, sub_step_floor,
    touching_span, turning_tolerance, Clearance, TurningSegment, APPROACH_EPS_FACTOR,
    MIN_GAP_FRACTION,
};
use parapet_solver::contact::CONTACT_MARGIN;
use parapet_solver::integrate::rotation_split::widen_rotation;
use parapet_solver::RigidBody;

use super::error::CcdError;
use super::motion::{check_coordinates, MeshView, SweptImpact, SweptMotion, TurningShape};
use super::reach::{dynamic_reach, norm_up, Reach};
use parapet_narrow::contact::active_edges::seam_normal;
use parapet_solver::impact::{respond_turning_point, ImpactMass};

/// One turning body to sweep.
pub(crate) struct TurningInput<'a> {
    /// The body's index (insertion order).
    pub(crate) index: usize,
    /// The body: start-of-step pose, post-solver velocity and split velocity.
    pub(crate) body: &'a RigidBody,
    /// Its shape.
    pub(crate) shape: TurningShape,
    /// Step length (s).
    pub(crate) dt: f32,
    /// `ccd_max_impacts`.
    pub(crate) max_impacts: u32,
    /// `ccd_max_substeps`.
    pub(crate) max_substeps: u32,
}

/// What a turning sweep produced.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct TurningOutcome {
    /// The end-of-step pose and velocities (always: the integrate stage skips
    /// turning bodies).
    pub(crate) motion: SweptMotion,
    /// Its impacts in time order.
    pub(crate) impacts: Vec<SweptImpact>,
    /// The sub-steps it took (loop passes, each counted against
    /// `ccd_max_substeps`).
    pub(crate) substeps: u32,
}

/// The body-frame vectors (m) from the mass centre to the two ends of the
/// core segment: `t_s + R_s (0, 0, ±h) − c`.
pub(crate) fn end_arms(body: &RigidBody, shape: &TurningShape) -> [Vec3d; 2] {
    let (offset, offset_rotation) = body.shape_offset();
    let rs = UnitQuaternion::new_normalize(promote_quat(offset_rotation).into_inner());
    let axis = rs * Vec3d::new(0.0, 0.0, shape.half_height as f64);
    let base = promote(offset) - promote(body.center_of_mass());
    [base - axis, base + axis]
}

/// The largest spin (rad/s) that `energy` (J) allows a body whose inverse
/// tensor has trace `trace` (1/(kg m²)): `½ ωᵀ I ω <= E` gives
/// `|ω|² <= 2 E λ_max(A) <= 2 E trace(A)` for a symmetric positive
/// semi-definite `A`; rounded up.
pub(crate) fn spin_bound(energy: f64, trace: f64) -> f64 {
    if !(energy > 0.0 && trace > 0.0) {
        return 0.0;
    }
    sqrt_up(mul_up(mul_up(2.0, energy), trace) * (1.0 + 4.0 * f64::EPSILON))
}

/// The reach of a turning body (see docs/turning-bodies.md, "Reach and
/// refusals"): the ball around
/// its world mass centre of radius
/// `farthest end + radius + margin + speed dt + spin farthest end dt + split travel`,
/// with the speed bound `sqrt(2 E / m)` and the spin bound [`spin_bound`] of
/// the energy `E`; every operation rounded outward. (Turning keeps every
/// shape point at its distance from the mass centre, so the spin term is
/// more than the ball needs; it is kept because it also covers the path of
/// the shape's own centre.)
pub(crate) fn turning_reach(body: &RigidBody, shape: &TurningShape, energy: f64, dt: f32) -> Reach {
    let arms = end_arms(body, shape);
    // Rotation roundoff of the arms: a relative 1e-12 outward.
    let far = norm_up(&arms[0]).max(norm_up(&arms[1])) * (1.0 + 1.0e-12);
    let center = body.world_center_of_mass_f64();
    let trace = body.inverse_inertia().trace().max(0.0) as f64;
    let spin = spin_bound(energy, trace);
    let split_spin = norm_up(&promote(body.split_angular_velocity()));
    let turn = mul_up(mul_up(add_up(spin, split_spin), far), dt as f64);
    let base = dynamic_reach(
        center,
        add_up(far, shape.radius as f64),
        energy,
        body.mass() as f64,
        body.split_linear_velocity(),
        dt,
    );
    Reach {
        center,
        radius: add_up(base.radius, turn),
    }
}

/// Whether the contact velocity `v + ω × a` closes along `n` beyond the
/// approach bound (32 ε times the sum of the absolute terms).
fn closes(n: &Vec3d, v: &Vec3d, w: &Vec3d, arm: &Vec3d) -> bool {
    let a = n.component_mul(v);
    let b = n.component_mul(&w.cross(arm));
    let dot = a.sum() + b.sum();
    let scale = a.abs().sum() + b.abs().sum();
    dot < -APPROACH_EPS_FACTOR * f64::EPSILON * scale
}

/// The working state of the loop.
struct Motion {
    center: Vec3d,
    rotation: Quatd,
    velocity: Vec3d,
    spin: Vec3d,
    split_velocity: Vec3d,
    split_spin: Vec3d,
}

impl Motion {
    fn moving_velocity(&self) -> Vec3d {
        self.velocity + self.split_velocity
    }

    fn moving_spin(&self) -> Vec3d {
        self.spin + self.split_spin
    }
}

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

/// Sweeps one turning body alone against the static triangles (see the
/// module docs). `mesh` is `None` when the world holds no mesh.
///
/// # Errors
/// [`CcdError::SubstepLimit`], [`CcdError::ImpactLimit`],
/// [`CcdError::SweepRefused`], [`CcdError::Precision`] or
/// [`CcdError::NotRepresentable`], naming the body.
pub(crate) fn sweep_turning(
    input: &TurningInput<'_>,
    mesh: Option<&MeshView<'_>>,
) -> Result<TurningOutcome, CcdError> {
    let body = input.body;
    let radius = input.shape.radius as f64;
    let arms = end_arms(body, &input.shape);
    let sweep = Turning {
        index: input.index,
        body,
        mesh,
        radius,
        tol: turning_tolerance(radius),
        dt: input.dt as f64,
        far: norm_up(&arms[0]).max(norm_up(&arms[1])) * (1.0 + 1.0e-12),
        arms,
        mass: ImpactMass {
            inverse_mass: body.inverse_mass() as f64,
            inverse_inertia: body.world_inverse_inertia_f64(),
        },
        max_impacts: input.max_impacts,
    };
    let mut m = Motion {
        center: body.world_center_of_mass_f64(),
        rotation: widen_rotation(&body.rotation()),
        velocity: promote(body.linear_velocity()),
        spin: promote(body.angular_velocity()),
        split_velocity: promote(body.split_linear_velocity()),
        split_spin: promote(body.split_angular_velocity()),
    };
    sweep.check_ends(&m)?;

    let mut tau = sweep.dt;
    let mut elapsed = 0.0f64;
    let mut substeps = 0u32;
    let mut impacts_taken = 0u32;
    let mut impacts: Vec<SweptImpact> = Vec::new();
    let mut candidates = sweep.query(&m, tau)?;

    while tau > 0.0 {
        if substeps >= input.max_substeps {
            return Err(CcdError::SubstepLimit {
                body: sweep.index,
                substeps: substeps + 1,
                limit: input.max_substeps,
            });
        }
        substeps += 1;
        let ends = [m.rotation * sweep.arms[0], m.rotation * sweep.arms[1]];
        let at = Instant {
            ends: &ends,
            candidates: &candidates,
            elapsed,
        };
        if sweep.contacts(&mut m, &at, &mut impacts_taken, &mut impacts)? {
            candidates = sweep.query(&m, tau)?;
        }
        sweep.press_out(&mut m, &ends, &candidates);
        let (step, last) = sweep.advance(&mut m, &ends, &candidates, tau);
        elapsed += step;
        tau = if last { 0.0 } else { tau - step };
    }
    sweep.check_ends(&m)?;
    Ok(TurningOutcome {
        motion: sweep.end_motion(&m)?,
        impacts,
        substeps,
    })
}

/// What stays fixed while one turning body is swept: the body and its
/// shape, the static triangles, the tolerance and the step.
struct Turning<'a> {
    index: usize,
    body: &'a RigidBody,
    mesh: Option<&'a MeshView<'a>>,
    /// Radius (m).
    radius: f64,
    /// The turning tolerance (m, [`turning_tolerance`]).
    tol: f64,
    /// The step (s).
    dt: f64,
    /// The body-frame arms of the core segment's ends ([`end_arms`]).
    arms: [Vec3d; 2],
    /// The farther arm's length (m), rounded up and widened for the
    /// rotation's roundoff.
    far: f64,
    mass: ImpactMass,
    /// `ccd_max_impacts`.
    max_impacts: u32,
}

/// One sub-step's pose as the contact pass sees it: the core segment's
/// ends relative to the mass centre, the candidates (with their mixed
/// materials) and the time elapsed since the step's start (s).
struct Instant<'s> {
    ends: &'s [Vec3d; 2],
    candidates: &'s [(usize, Material)],
    elapsed: f64,
}

impl Turning<'_> {
    /// Both core ends of the shape at pose `m` within the coordinate
    /// limits.
    fn check_ends(&self, m: &Motion) -> Result<(), CcdError> {
        for a in &self.arms {
            check_coordinates(self.index, &(m.center + m.rotation * a), self.radius)?;
        }
        Ok(())
    }

    /// The candidates of the rest of the step from pose `m` (`tau`, s,
    /// left): the triangles the bounds tree returns for the ball of radius
    /// `farthest end + radius + contact margin` swept along the moving
    /// velocity, in insertion order, owners that collide, each with its
    /// mixed material and checked by the turning domain check.
    ///
    /// # Errors
    /// [`CcdError::NotRepresentable`] for a query ball the tree refuses,
    /// [`CcdError::SweepRefused`] for a triangle outside the domain.
    fn query(&self, m: &Motion, tau: f64) -> Result<Vec<(usize, Material)>, CcdError> {
        let Some(mesh) = self.mesh else {
            return Ok(Vec::new());
        };
        let reach = add_up(add_up(self.far, self.radius), CONTACT_MARGIN as f64);
        let end = m.center + m.moving_velocity() * tau;
        // A relative 1e-12 of the coordinates covers the f64 rounding of the end.
        let slack = 1.0e-12 * (m.center.amax() + end.amax() + reach);
        let ball = SweptBall::new(m.center, end, reach + slack).map_err(|_| {
            CcdError::NotRepresentable {
                body: self.index,
                quantity: "turning query",
                value: reach,
            }
        })?;
        let mut found: Vec<usize> = mesh
            .tree
            .query_vec(&ball)
            .into_iter()
            .map(|t| t as usize)
            .collect();
        found.sort_unstable();
        let mut out = Vec::with_capacity(found.len());
        for t in found {
            let Some(other) = (mesh.material)(t) else {
                continue;
            };
            check_turning_triangle(&mesh.triangles[t], m.center, self.radius).map_err(
                |refusal| CcdError::SweepRefused {
                    body: self.index,
                    triangle: t,
                    refusal,
                },
            )?;
            out.push((t, self.body.material().mix(&other)));
        }
        Ok(out)
    }

    /// Triangle `t` relative to `origin` (m).
    fn relative(&self, t: usize, origin: &Vec3d) -> [Vec3d; 3] {
        let tri = match self.mesh {
            Some(mesh) => &mesh.triangles[t],
            None => return [Vec3d::zeros(); 3],
        };
        tri.map(|v| promote(v) - origin)
    }

    /// The contacts at the current pose, in triangle insertion order (step
    /// 2 of the module docs): a touched triangle drops the split velocities
    /// when the combined motion closes on it, and one that the body's own
    /// velocity closes on beyond the approach bound takes the rigid impulse
    /// (counted in `impacts_taken`, reported in `impacts`). Whether the
    /// motion changed (the candidates are then queried again).
    ///
    /// # Errors
    /// [`CcdError::ImpactLimit`] when the impacts exceed `ccd_max_impacts`;
    /// [`CcdError::NotRepresentable`] for an impulse beyond `f32`.
    fn contacts(
        &self,
        m: &mut Motion,
        at: &Instant<'_>,
        impacts_taken: &mut u32,
        impacts: &mut Vec<SweptImpact>,
    ) -> Result<bool, CcdError> {
        let (radius, ends) = (self.radius, at.ends);
        let mut changed = false;
        for &(t, material) in at.candidates {
            let tri = self.relative(t, &m.center);
            let Some(cl) = clearance(ends, &tri, radius) else {
                continue;
            };
            if !(cl.distance <= radius) {
                continue;
            }
            let mut contact = touch(ends, &tri, radius, &cl, &m.velocity, &m.spin);
            // A seam of a mesh with active edges pushes along its face
            // normal only (the discrete and swept admission alike).
            if let Some(mesh) = self.mesh {
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
            let separation = (2.0 * self.tol * pressing).sqrt();
            let Some(r) = respond_turning_point(
                &self.mass,
                m.velocity,
                m.spin,
                contact.arm,
                contact.normal,
                &material,
                separation,
            )
            .map_err(|e| CcdError::from_impact(self.index, e))?
            else {
                continue;
            };
            *impacts_taken += 1;
            if *impacts_taken > self.max_impacts {
                return Err(CcdError::ImpactLimit {
                    body: self.index,
                    impacts: *impacts_taken,
                    limit: self.max_impacts,
                });
            }
            m.velocity = r.linear_velocity;
            m.spin = r.angular_velocity;
            changed = true;
            impacts.push(SweptImpact {
                body: self.index,
                triangle: t,
                time: (at.elapsed / self.dt).clamp(0.0, 1.0),
                point: m.center + contact.arm,
                normal: contact.normal,
                impulse: r.impulse,
            });
        }
        Ok(changed)
    }

    /// Pressing correction: a touched triangle whose separation has sunk
    /// below `radius − tolerance` plus the smallest sub-step gap (a shape
    /// that the spin presses on it without closing fast enough for an
    /// impulse to lift it, or one that storage rounding left a little
    /// deeper) pushes the pose out along its plane by the shortfall, at
    /// most MIN_GAP_FRACTION of the tolerance per pass, pose only (like
    /// the split correction): velocities, hence energy, are untouched,
    /// and a pressed shape never sinks below where it started.
    fn press_out(&self, m: &mut Motion, ends: &[Vec3d; 2], candidates: &[(usize, Material)]) {
        let (radius, tol) = (self.radius, self.tol);
        let lift = tol * MIN_GAP_FRACTION;
        for &(t, _) in candidates {
            let tri = self.relative(t, &m.center);
            let Some(cl) = clearance(ends, &tri, radius) else {
                continue;
            };
            let shortfall = radius - tol + lift - cl.separation;
            if cl.distance <= radius && shortfall > 0.0 {
                m.center += cl.plane_normal * shortfall.min(lift);
            }
        }
    }

    /// The certified sub-step from pose `m` (`tau`, s, left): the smallest
    /// admissible time over the candidates and the remaining time; moves
    /// the pose by it and returns its length (s) and whether it ends the
    /// step.
    fn advance(
        &self,
        m: &mut Motion,
        ends: &[Vec3d; 2],
        candidates: &[(usize, Material)],
        tau: f64,
    ) -> (f64, bool) {
        let radius = self.radius;
        let v = m.moving_velocity();
        let w = m.moving_spin();
        let wn = norm_up(&w);
        let lever = norm_up(&w.cross(&ends[0])).max(norm_up(&w.cross(&ends[1])));
        let segment = TurningSegment {
            ends: *ends,
            velocities: [v + w.cross(&ends[0]), v + w.cross(&ends[1])],
            // |ω|² r / 2 with r |ω| = |ω × ℓ|, rounded up.
            bend: mul_up(mul_up(wn, lever), 0.5) * (1.0 + 8.0 * f64::EPSILON),
            radius,
        };
        let mut step = tau;
        for &(t, _) in candidates {
            let tri = self.relative(t, &m.center);
            if let Some(cl) = clearance(ends, &tri, radius) {
                let floor = sub_step_floor(cl.separation, radius, self.tol);
                step = step.min(admissible_time(&segment, &cl, floor));
            }
        }
        let last = step >= tau;
        let step = if last { tau } else { step.max(0.0) };
        m.center += v * step;
        m.rotation = UnitQuaternion::from_scaled_axis(w * step) * m.rotation;
        m.rotation = UnitQuaternion::new_normalize(m.rotation.into_inner());
        (step, last)
    }

    /// The end-of-step pose and velocities, rounded to `f32` once: the
    /// rotation, and the body origin placed from the rounded rotation so
    /// that the mass centre is kept.
    ///
    /// # Errors
    /// [`CcdError::NotRepresentable`] for a rotation, position or velocity
    /// out of `f32` range.
    fn end_motion(&self, m: &Motion) -> Result<SweptMotion, CcdError> {
        let not_representable = |quantity: &'static str, value: f64| CcdError::NotRepresentable {
            body: self.index,
            quantity,
            value,
        };
        let rotation = {
            let q = m.rotation.into_inner().cast::<f32>();
            Quat::new_normalize(q)
        };
        if !rotation.coords.iter().all(|x| x.is_finite()) {
            return Err(not_representable("rotation", f64::NAN));
        }
        let origin = m.center - widen_rotation(&rotation) * promote(self.body.center_of_mass());
        let position = demote(origin).map_err(|_| not_representable("position", origin.amax()))?;
        let linear_velocity: Vec3 = demote(m.velocity)
            .map_err(|_| not_representable("linear velocity", m.velocity.amax()))?;
        let angular_velocity: Vec3 =
            demote(m.spin).map_err(|_| not_representable("angular velocity", m.spin.amax()))?;
        Ok(SweptMotion {
            position,
            rotation,
            linear_velocity,
            angular_velocity,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use parapet_geometry::Shape;
    use parapet_math::Mat3;

    fn capsule() -> RigidBody {
        let mut b = RigidBody::new_dynamic(Shape::capsule(0.1, 0.4).unwrap(), 2.0)
            .unwrap()
            .with_position(Vec3::new(1.0, -2.0, 3.0))
            .with_rotation(Quat::from_scaled_axis(Vec3::new(0.4, -0.2, 0.9)))
            .with_linear_velocity(Vec3::new(3.0, -1.0, 0.5))
            .with_angular_velocity(Vec3::new(2.0, 7.0, -4.0));
        b.set_center_of_mass(Vec3::new(0.02, 0.0, 0.1)).unwrap();
        b
    }

    #[test]
    fn the_spin_bound_covers_every_spin_of_that_energy() {
        // E = w^T I w / 2 for a few anisotropic tensors and directions.
        for (d, w) in [
            (Vec3::new(1.0, 2.0, 5.0), Vec3::new(1.0, 0.0, 0.0)),
            (Vec3::new(0.1, 3.0, 0.7), Vec3::new(0.3, -2.0, 0.5)),
            (Vec3::new(4.0, 4.0, 0.02), Vec3::new(0.0, 0.0, 9.0)),
        ] {
            let inertia = Mat3::from_diagonal(&d).cast::<f64>();
            let wd = promote(w);
            let energy = 0.5 * wd.dot(&(inertia * wd));
            let trace = d.map(|x| 1.0 / x).sum() as f64;
            assert!(wd.norm() <= spin_bound(energy, trace), "{d:?} {w:?}");
        }
    }

    #[test]
    fn without_meshes_the_pose_turns_exactly_about_the_spin_in_one_substep() {
        let b = capsule();
        let input = TurningInput {
            index: 0,
            body: &b,
            shape: TurningShape {
                radius: 0.1,
                half_height: 0.4,
            },
            dt: 0.05,
            max_impacts: 16,
            max_substeps: 256,
        };
        let out = sweep_turning(&input, None).unwrap();
        assert_eq!(out.substeps, 1);
        assert!(out.impacts.is_empty());
        let w = promote(b.angular_velocity());
        let expected = UnitQuaternion::from_scaled_axis(w * 0.05) * widen_rotation(&b.rotation());
        let got = widen_rotation(&out.motion.rotation);
        // f32 storage of the quaternion: about 1e-7 rad.
        assert!(
            got.angle_to(&expected) < 3e-7,
            "{}",
            got.angle_to(&expected)
        );
        // The mass centre moved by v dt (f32 storage of the origin: 1e-6 m here).
        let mut end = b.clone();
        end.set_position(out.motion.position);
        end.set_rotation(out.motion.rotation);
        let moved = end.world_center_of_mass_f64() - b.world_center_of_mass_f64();
        assert!((moved - promote(b.linear_velocity()) * 0.05).norm() < 2e-6);
        assert_eq!(out.motion.angular_velocity, b.angular_velocity());
    }

    #[test]
    fn the_reach_contains_the_whole_shape_along_its_true_path() {
        let b = capsule();
        let shape = TurningShape {
            radius: 0.1,
            half_height: 0.4,
        };
        let dt = 0.05f32;
        let energy = b.kinetic_energy().unwrap();
        let reach = turning_reach(&b, &shape, energy, dt);
        let arms = end_arms(&b, &shape);
        let q0 = widen_rotation(&b.rotation());
        let c0 = b.world_center_of_mass_f64();
        let v = promote(b.linear_velocity());
        let w = promote(b.angular_velocity());
        for k in 0..=50 {
            let t = dt as f64 * k as f64 / 50.0;
            let q = UnitQuaternion::from_scaled_axis(w * t) * q0;
            for a in &arms {
                let end = c0 + v * t + q * a;
                let d = (end - reach.center).norm() + 0.1;
                assert!(d <= reach.radius, "{d} > {}", reach.radius);
            }
        }
    }
}
