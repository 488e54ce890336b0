//! The driver: certified sub-steps of one turning shape over an interval,
//! stopping at the first sub-step start where a triangle is within the
//! tolerance band and closing.
//!
//! # Method
//! Each pass is one sub-step, counted against the caller's
//! [`SubstepBudget`] (a world's `ccd_max_substeps`):
//!
//! 1. the core is posed at the current rotation and every candidate
//!    triangle is re-centred on the current mass centre;
//! 2. for each triangle in candidate order, its [`Separation`]
//!    ([`CoreShape::separation`]; `None` for a triangle the shape is wholly
//!    behind, which does not catch it); a triangle the shape touches
//!    ([`CoreShape::touches`]) gives a [`TriangleContact`] with every touch
//!    point and whether its body velocity `v + ω × arm` closes along the
//!    contact normal beyond the approach bound
//!    ([`crate::sweep::APPROACH_EPS_FACTOR`]);
//! 3. if some touch point closes, the pass stops with every touching
//!    triangle ([`Advance::Contact`]);
//! 4. otherwise the sub-step is the smallest admissible time over the
//!    candidates ([`super::bound::admissible_time`] with
//!    [`super::bound::sub_step_floor`]) and the remaining time, and the
//!    motion moves on by exactly that ([`RigidMotion::advanced`]).
//!
//! The end pose of the interval is not examined: the next interval's first
//! pass does that (as the world's loop does between steps).
//!
//! Termination: every sub-step keeps a gap of at least
//! `tol · MIN_GAP_FRACTION` above its floor, so its length is bounded below
//! by `g / (|n · u| + sqrt(b g))` for that gap `g`; a pass that does not
//! reach the end counts against the budget, and an exhausted budget is
//! [`AdvanceError::SubstepLimit`].
//!
//! # Precision domain
//! See the module docs of [`super`]: [`check_candidates`] applies the
//! triangle limits relative to the interval's start mass centre, and the
//! motion and each core point's position are checked at the start and at
//! the returned pose.

use parapet_math::{promote, Quatd, Vec3, Vec3d};

use super::bound::{admissible_time, sub_step_floor, PointMotion};
use super::held::{held_time, HeldBand};
use super::{CoreShape, Separation, Touch};
use crate::sweep::domain::{self, SweepRefusal};
use crate::sweep::APPROACH_EPS_FACTOR;

/// The rigid motion of a body over an interval: its mass centre moves at
/// constant velocity, and it turns at constant spin by exactly `|ω| t`
/// about `ω`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RigidMotion {
    /// The world mass centre now (m).
    pub center: Vec3d,
    /// The body's rotation now (body to world, unit).
    pub rotation: Quatd,
    /// The mass centre's velocity (m/s).
    pub velocity: Vec3d,
    /// The spin (rad/s, world frame).
    pub spin: Vec3d,
}

impl RigidMotion {
    /// The motion `t` seconds later: `C + v t` and `exp(ω t) Q`, the rotation
    /// renormalised (the operations of the world's turning loop).
    pub fn advanced(&self, t: f64) -> RigidMotion {
        let rotation = Quatd::from_scaled_axis(self.spin * t) * self.rotation;
        RigidMotion {
            center: self.center + self.velocity * t,
            rotation: Quatd::new_normalize(rotation.into_inner()),
            velocity: self.velocity,
            spin: self.spin,
        }
    }
}

/// The sub-steps a caller allows one body per step, and how many it has
/// taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SubstepBudget {
    /// Sub-steps taken so far (each pass of the driver counts one).
    pub used: u32,
    /// The limit (a world's `ccd_max_substeps`: default 256, at most 65536).
    pub limit: u32,
}

impl SubstepBudget {
    /// A fresh budget of `limit` sub-steps.
    pub fn new(limit: u32) -> Self {
        SubstepBudget { used: 0, limit }
    }
}

/// A touch point in world coordinates, with whether it closes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TouchPoint {
    /// The point on the shape's surface (m, world).
    pub on_shape: Vec3d,
    /// The nearest triangle point (m, world).
    pub on_triangle: Vec3d,
    /// The gap along the contact normal (m), negative below the surface.
    pub gap: f64,
    /// Whether the body's velocity at the point closes along the normal
    /// beyond the approach bound.
    pub closing: bool,
}

/// A triangle the shape touches, with its manifold.
#[derive(Debug, Clone, PartialEq)]
pub struct TriangleContact {
    /// The triangle's index in the candidate slice.
    pub triangle: usize,
    /// The contact normal (unit, from the triangle towards the shape).
    pub normal: Vec3d,
    /// The certified separation (m) of the core from the triangle.
    pub separation: f64,
    /// Every touch point (at least one).
    pub points: Vec<TouchPoint>,
}

impl TriangleContact {
    /// Whether some touch point closes.
    pub fn closing(&self) -> bool {
        self.points.iter().any(|p| p.closing)
    }
}

/// The first sub-step start at which a triangle is within the tolerance band
/// and closing.
#[derive(Debug, Clone, PartialEq)]
pub struct ContactEvent {
    /// Time since the interval's start (s).
    pub elapsed: f64,
    /// The motion at that time.
    pub motion: RigidMotion,
    /// Every triangle the shape touches then, in candidate order (at least
    /// one of them closing).
    pub contacts: Vec<TriangleContact>,
}

/// What [`advance`] found over an interval.
#[derive(Debug, Clone, PartialEq)]
pub enum Advance {
    /// No triangle is within the band and closing at any sub-step start;
    /// the motion at the interval's end.
    Clear(RigidMotion),
    /// The first sub-step start with a closing contact.
    Contact(ContactEvent),
}

/// Why [`advance`] could not certify the interval.
#[derive(Debug, Clone, Copy, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum AdvanceError {
    /// The budget ran out before the interval's end.
    #[error("turning shape needs more than {limit} sub-steps (sub-step {substeps})")]
    SubstepLimit {
        /// The sub-step that would exceed the limit.
        substeps: u32,
        /// The limit.
        limit: u32,
    },
    /// A candidate triangle lies outside the precision domain.
    #[error("triangle {triangle}: {refusal}")]
    TriangleRefused {
        /// Its index in the candidate slice.
        triangle: usize,
        /// Why.
        refusal: SweepRefusal,
    },
    /// The shape or its motion lies outside the precision domain.
    #[error("turning shape: {refusal}")]
    Refused {
        /// Why.
        refusal: SweepRefusal,
    },
}

/// Checks the shape, its motion and every candidate triangle against the
/// precision domain (module docs of [`super`]), the triangles relative to
/// the motion's mass centre.
///
/// # Errors
/// [`AdvanceError::Refused`] or [`AdvanceError::TriangleRefused`].
pub fn check_candidates<S: CoreShape>(
    shape: &S,
    motion: &RigidMotion,
    triangles: &[[Vec3; 3]],
) -> Result<(), AdvanceError> {
    check_motion(shape, motion)?;
    let r = shape.domain_radius();
    for (triangle, tri) in triangles.iter().enumerate() {
        domain::triangle(tri, motion.center, r)
            .map_err(|refusal| AdvanceError::TriangleRefused { triangle, refusal })?;
    }
    Ok(())
}

fn check_motion<S: CoreShape>(shape: &S, motion: &RigidMotion) -> Result<(), AdvanceError> {
    let refused = |refusal| AdvanceError::Refused { refusal };
    let r = shape.domain_radius();
    domain::radius("turning shape domain radius", r).map_err(refused)?;
    let finite = |v: &Vec3d| v.iter().all(|x| x.is_finite());
    if !(finite(&motion.velocity) && finite(&motion.spin)) {
        return Err(refused(SweepRefusal::NotFinite {
            quantity: "turning shape velocity",
        }));
    }
    if !motion.rotation.coords.iter().all(|x| x.is_finite()) {
        return Err(refused(SweepRefusal::NotFinite {
            quantity: "turning shape rotation",
        }));
    }
    let posed = shape.pose(&motion.rotation);
    for p in S::points(&posed) {
        domain::moving_coordinate("turning shape point", motion.center + p, r).map_err(refused)?;
    }
    Ok(())
}

/// Whether the body velocity at `arm` closes along `n` beyond the approach
/// bound (`32 ε` times the sum of the absolute terms).
fn closes(n: &Vec3d, v: &Vec3d, w: &Vec3d, arm: &Vec3d) -> bool {
    let a = n.component_mul(v);
    let b = n.component_mul(&w.cross(arm));
    let dot = a.sum() + b.sum();
    let scale = a.abs().sum() + b.abs().sum();
    dot < -APPROACH_EPS_FACTOR * f64::EPSILON * scale
}

/// One pass at the motion's pose: the touching triangles (when `contacts`
/// is given) and the certified sub-step, at most `remaining`.
fn survey<S: CoreShape>(
    shape: &S,
    motion: &RigidMotion,
    triangles: &[[Vec3; 3]],
    remaining: f64,
    mut contacts: Option<&mut Vec<TriangleContact>>,
    bands: Option<&[Option<HeldBand>]>,
) -> f64 {
    let posed = shape.pose(&motion.rotation);
    let points = S::points(&posed);
    let bound = PointMotion::new(points, motion.velocity, motion.spin, shape.bend_mode());
    let tol = shape.tolerance();
    let skin = shape.skin();
    let mut step = remaining;
    let mut touches: Vec<Touch> = Vec::new();
    for (index, t) in triangles.iter().enumerate() {
        let tri = t.map(|v| promote(v) - motion.center);
        let Some(sep) = shape.separation(&posed, &tri) else {
            continue;
        };
        if let Some(out) = contacts.as_deref_mut() {
            if shape.touches(&sep) {
                out.push(contact(
                    shape,
                    &posed,
                    &tri,
                    &sep,
                    index,
                    motion,
                    &mut touches,
                ));
            }
        }
        let separation = sep.separation - sep.plane.slack;
        let t = match bands.and_then(|b| b.get(index)).copied().flatten() {
            Some(band) => held_time(points, &bound, &sep.plane, separation, (skin, tol), &band),
            None => admissible_time(
                points,
                &bound,
                &sep.plane,
                sub_step_floor(separation, skin, tol),
            ),
        };
        step = step.min(t);
    }
    step
}

fn contact<S: CoreShape>(
    shape: &S,
    posed: &S::Posed,
    tri: &[Vec3d; 3],
    sep: &Separation,
    triangle: usize,
    motion: &RigidMotion,
    touches: &mut Vec<Touch>,
) -> TriangleContact {
    touches.clear();
    shape.touch_points(posed, tri, sep, touches);
    let points = touches
        .iter()
        .map(|t| TouchPoint {
            on_shape: t.on_shape + motion.center,
            on_triangle: t.on_triangle + motion.center,
            gap: t.gap,
            closing: closes(&sep.normal, &motion.velocity, &motion.spin, &t.on_shape),
        })
        .collect();
    TriangleContact {
        triangle,
        normal: sep.normal,
        separation: sep.separation,
        points,
    }
}

/// The triangles the shape touches at the motion's pose, in candidate
/// order, with their touch points and whether each closes, appended to
/// `out` (the contact stage of one pass).
pub fn contacts_at<S: CoreShape>(
    shape: &S,
    motion: &RigidMotion,
    triangles: &[[Vec3; 3]],
    out: &mut Vec<TriangleContact>,
) {
    survey(shape, motion, triangles, 0.0, Some(out), None);
}

/// The certified sub-step (s) at the motion's pose: the smallest admissible
/// time over the triangles, at most `remaining` (the advance stage of one
/// pass).
pub fn certified_step<S: CoreShape>(
    shape: &S,
    motion: &RigidMotion,
    triangles: &[[Vec3; 3]],
    remaining: f64,
) -> f64 {
    survey(shape, motion, triangles, remaining, None, None)
}

/// [`certified_step`] with a [`HeldBand`] for some triangles (`bands[i]`
/// for `triangles[i]`, `None` for the usual band; missing entries are
/// `None`): see [`super::held`].
pub fn certified_step_held<S: CoreShape>(
    shape: &S,
    motion: &RigidMotion,
    triangles: &[[Vec3; 3]],
    remaining: f64,
    bands: &[Option<HeldBand>],
) -> f64 {
    survey(shape, motion, triangles, remaining, None, Some(bands))
}

/// Advances the shape along `motion` for `duration` seconds against the
/// static one-sided `triangles` (see the module docs), counting each pass
/// against `budget`.
///
/// # Errors
/// [`AdvanceError::SubstepLimit`] when the budget runs out;
/// [`AdvanceError::Refused`] / [`AdvanceError::TriangleRefused`] for inputs
/// outside the precision domain (checked before any pass).
pub fn advance<S: CoreShape>(
    shape: &S,
    motion: &RigidMotion,
    duration: f64,
    triangles: &[[Vec3; 3]],
    budget: &mut SubstepBudget,
) -> Result<Advance, AdvanceError> {
    check_candidates(shape, motion, triangles)?;
    if !(duration >= 0.0 && duration.is_finite()) {
        return Err(AdvanceError::Refused {
            refusal: SweepRefusal::NegativeStep { dt: duration },
        });
    }
    let mut m = *motion;
    let mut tau = duration;
    let mut elapsed = 0.0f64;
    let mut contacts = Vec::new();
    while tau > 0.0 {
        if budget.used >= budget.limit {
            return Err(AdvanceError::SubstepLimit {
                substeps: budget.used.saturating_add(1),
                limit: budget.limit,
            });
        }
        budget.used += 1;
        contacts.clear();
        let step = survey(shape, &m, triangles, tau, Some(&mut contacts), None);
        if contacts.iter().any(TriangleContact::closing) {
            check_motion(shape, &m)?;
            return Ok(Advance::Contact(ContactEvent {
                elapsed,
                motion: m,
                contacts,
            }));
        }
        let last = step >= tau;
        let step = if last { tau } else { step.max(0.0) };
        m = m.advanced(step);
        elapsed += step;
        tau = if last { 0.0 } else { tau - step };
    }
    check_motion(shape, &m)?;
    Ok(Advance::Clear(m))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::advance::{Placement, SegmentCore, SolidCore};

    fn floor_triangles(z: f32, size: f32) -> Vec<[Vec3; 3]> {
        vec![
            [
                Vec3::new(-size, -size, z),
                Vec3::new(size, -size, z),
                Vec3::new(size, size, z),
            ],
            [
                Vec3::new(-size, -size, z),
                Vec3::new(size, size, z),
                Vec3::new(-size, size, z),
            ],
        ]
    }

    fn box_core() -> SolidCore {
        SolidCore::cuboid(Vec3d::new(0.5, 0.3, 0.2), &Placement::centred()).unwrap()
    }

    #[test]
    fn a_box_falling_flat_stops_once_with_its_four_corners_in_the_band() {
        let core = box_core();
        let m = RigidMotion {
            center: Vec3d::new(0.1, -0.2, 1.0),
            rotation: Quatd::identity(),
            velocity: Vec3d::new(0.0, 0.0, -10.0),
            spin: Vec3d::zeros(),
        };
        let mut budget = SubstepBudget::new(256);
        let tris = floor_triangles(0.0, 10.0);
        let Advance::Contact(e) =
            advance(&core, &m, 1.0 / 60.0 * 10.0, &tris, &mut budget).unwrap()
        else {
            panic!("expected a contact");
        };
        // A straight fall reaches the floor in one certified sub-step; the
        // second pass stops.
        assert_eq!(budget.used, 2);
        let tol = core.tolerance();
        // Bottom at -tol (less the slacks): t = (0.8 + tol) / 10.
        assert!(
            (e.elapsed - (0.8 + tol) / 10.0).abs() < 1e-12,
            "{}",
            e.elapsed
        );
        // The floor's diagonal seam y = x crosses the box's bottom at
        // (-0.4, -0.4) and (0.1, 0.1): three corners and both crossings on
        // the first triangle, the fourth corner and both crossings on the
        // second.
        let counts: Vec<usize> = e.contacts.iter().map(|c| c.points.len()).collect();
        assert_eq!(counts, [5, 3], "{e:?}");
        for c in &e.contacts {
            assert_eq!(c.normal, Vec3d::z());
            for p in &c.points {
                assert!(p.closing);
                assert!(p.gap <= 0.0 && p.gap >= -tol * 1.01, "{}", p.gap);
            }
        }
    }

    #[test]
    fn a_box_sliding_flat_on_a_floor_is_clear_in_one_sub_step() {
        let core = box_core();
        let m = RigidMotion {
            center: Vec3d::new(0.0, 0.0, 0.2),
            rotation: Quatd::identity(),
            velocity: Vec3d::new(7.0, -3.0, 0.0),
            spin: Vec3d::new(0.0, 0.0, 12.0),
        };
        let mut budget = SubstepBudget::new(256);
        let tris = floor_triangles(0.0, 10.0);
        let out = advance(&core, &m, 1.0 / 60.0, &tris, &mut budget).unwrap();
        assert!(matches!(out, Advance::Clear(_)));
        // Sliding and spinning about the floor normal: no approach, no bend
        // towards the floor.
        assert_eq!(budget.used, 1);
    }

    #[test]
    fn a_box_tumbling_far_from_every_triangle_is_clear_in_few_sub_steps() {
        let core = box_core();
        let m = RigidMotion {
            center: Vec3d::new(0.0, 0.0, 3.0),
            rotation: Quatd::from_scaled_axis(Vec3d::new(0.3, 0.2, 0.1)),
            velocity: Vec3d::new(2.0, 0.0, 1.0),
            spin: Vec3d::new(10.0, -5.0, 3.0),
        };
        let mut budget = SubstepBudget::new(256);
        let out = advance(
            &core,
            &m,
            1.0 / 60.0,
            &floor_triangles(0.0, 10.0),
            &mut budget,
        )
        .unwrap();
        assert!(matches!(out, Advance::Clear(_)));
        assert!(budget.used <= 2, "{}", budget.used);
    }

    #[test]
    fn a_budget_too_small_is_an_error_that_names_the_limit() {
        // A box tumbling fast just above the floor needs many sub-steps.
        let core = box_core();
        let m = RigidMotion {
            center: Vec3d::new(0.0, 0.0, 0.6),
            rotation: Quatd::identity(),
            velocity: Vec3d::zeros(),
            spin: Vec3d::new(40.0, 0.0, 0.0),
        };
        let mut budget = SubstepBudget::new(2);
        let err = advance(&core, &m, 1.0, &floor_triangles(0.0, 10.0), &mut budget).unwrap_err();
        assert_eq!(
            err,
            AdvanceError::SubstepLimit {
                substeps: 3,
                limit: 2
            }
        );
    }

    #[test]
    fn a_capsule_through_the_driver_takes_the_world_loops_sub_steps() {
        // A capsule spinning over a floor: the driver's sub-step lengths are
        // those of the world loop's formulas (pinned bit for bit in
        // segment.rs); here the whole loop reaches the same stop.
        let core = SegmentCore::capsule(0.1, 0.4, &Placement::centred());
        let m = RigidMotion {
            center: Vec3d::new(0.0, 0.0, 0.6),
            rotation: Quatd::from_scaled_axis(Vec3d::new(1.2, 0.0, 0.0)),
            velocity: Vec3d::new(0.5, 0.0, -4.0),
            spin: Vec3d::new(6.0, 1.0, 0.0),
        };
        let mut budget = SubstepBudget::new(256);
        let out = advance(&core, &m, 0.5, &floor_triangles(0.0, 10.0), &mut budget).unwrap();
        let Advance::Contact(e) = out else {
            panic!("the capsule lands");
        };
        let ends = core.pose(&e.motion.rotation);
        let low = ends.iter().map(|p| p.z).fold(f64::INFINITY, f64::min) + e.motion.center.z;
        let tol = core.tolerance();
        // Stopped within the band: the core's lowest end between r - tol
        // (less a sub-step gap) and r.
        assert!(
            low <= 0.1 && low >= 0.1 - tol * (1.0 + 1.0 / 256.0),
            "{low}"
        );
        assert!(budget.used > 2);
    }

    /// The world turning loop's advance stage (`turning.rs`) for a capsule,
    /// with the certified-advance formulas called directly: the sub-step
    /// lengths of every pass until the end of `dt` or `passes` passes.
    fn world_loop_steps(
        core: &SegmentCore,
        m: &RigidMotion,
        dt: f64,
        tris: &[[Vec3; 3]],
        passes: usize,
    ) -> (Vec<u64>, RigidMotion) {
        use crate::sweep::certified_advance as ca;
        use parapet_math::rounding::mul_up;
        let norm_up = crate::advance::bound::norm_up;
        let radius = core.radius();
        let tol = ca::turning_tolerance(radius);
        let arms = core.arms();
        let (mut center, mut rotation) = (m.center, m.rotation);
        let (v, w) = (m.velocity, m.spin);
        let mut tau = dt;
        let mut steps = Vec::new();
        while tau > 0.0 && steps.len() < passes {
            let ends = [rotation * arms[0], rotation * arms[1]];
            let wn = norm_up(&w);
            let lever = norm_up(&w.cross(&ends[0])).max(norm_up(&w.cross(&ends[1])));
            let segment = ca::TurningSegment {
                ends,
                velocities: [v + w.cross(&ends[0]), v + w.cross(&ends[1])],
                bend: mul_up(mul_up(wn, lever), 0.5) * (1.0 + 8.0 * f64::EPSILON),
                radius,
            };
            let mut step = tau;
            for t in tris {
                let tri = t.map(|x| promote(x) - center);
                if let Some(cl) = ca::clearance(&ends, &tri, radius) {
                    let floor = ca::sub_step_floor(cl.separation, radius, tol);
                    step = step.min(ca::admissible_time(&segment, &cl, floor));
                }
            }
            let last = step >= tau;
            let step = if last { tau } else { step.max(0.0) };
            steps.push(step.to_bits());
            center += v * step;
            rotation = Quatd::from_scaled_axis(w * step) * rotation;
            rotation = Quatd::new_normalize(rotation.into_inner());
            tau = if last { 0.0 } else { tau - step };
        }
        let end = RigidMotion {
            center,
            rotation,
            velocity: v,
            spin: w,
        };
        (steps, end)
    }

    #[test]
    fn the_capsule_case_of_the_driver_takes_the_world_loops_sub_steps_bit_for_bit() {
        // Random turning capsules and off-centre spheres over a floor and a
        // wall, contacts ignored (the world responds between passes): every
        // pass's certified step and the final pose have the same bits.
        let mut rng = crate::advance::test_rng::Lcg::new(41);
        let mut floor = floor_triangles(0.0, 10.0);
        floor.push([
            Vec3::new(2.0, -10.0, -1.0),
            Vec3::new(2.0, 10.0, -1.0),
            Vec3::new(2.0, 0.0, 10.0),
        ]);
        let mut passes = 0;
        for _ in 0..300 {
            let radius = rng.range(0.02, 0.3);
            let h = if rng.range(0.0, 1.0) < 0.3 {
                0.0
            } else {
                rng.range(0.0, 0.6)
            };
            let placement = Placement {
                translation: rng.vec(0.2),
                rotation: Quatd::from_scaled_axis(rng.vec(2.0)),
            };
            let core = SegmentCore::capsule(radius, h, &placement);
            let m = RigidMotion {
                center: Vec3d::new(
                    rng.range(-1.0, 1.0),
                    rng.range(-1.0, 1.0),
                    rng.range(0.5, 1.5),
                ),
                rotation: Quatd::from_scaled_axis(rng.vec(3.0)),
                velocity: rng.vec(6.0),
                spin: rng.vec(30.0),
            };
            let dt = rng.range(0.01, 0.2);
            let (world, world_end) = world_loop_steps(&core, &m, dt, &floor, 400);
            let mut ours = Vec::new();
            let mut mm = m;
            let mut tau = dt;
            while tau > 0.0 && ours.len() < 400 {
                let step = certified_step(&core, &mm, &floor, tau);
                let last = step >= tau;
                let step = if last { tau } else { step.max(0.0) };
                ours.push(step.to_bits());
                mm = mm.advanced(step);
                tau = if last { 0.0 } else { tau - step };
            }
            assert_eq!(ours, world);
            assert_eq!(mm, world_end);
            passes += ours.len();
        }
        assert!(passes > 2000, "{passes}");
    }

    #[test]
    fn a_box_resting_and_spinning_on_a_floor_keeps_one_long_sub_step() {
        // Resting exactly on the floor (in the band, not closing), spinning
        // about the floor normal: no contact to report, one sub-step.
        let core = box_core();
        let m = RigidMotion {
            center: Vec3d::new(0.3, 0.1, 0.2),
            rotation: Quatd::identity(),
            velocity: Vec3d::zeros(),
            spin: Vec3d::new(0.0, 0.0, 5.0),
        };
        let tris = floor_triangles(0.0, 10.0);
        let mut touching = Vec::new();
        contacts_at(&core, &m, &tris, &mut touching);
        assert_eq!(touching.len(), 2);
        assert!(touching.iter().all(|c| !c.closing()));
        let mut budget = SubstepBudget::new(256);
        let out = advance(&core, &m, 1.0 / 60.0, &tris, &mut budget).unwrap();
        assert!(matches!(out, Advance::Clear(_)));
        assert_eq!(budget.used, 1);
    }

    #[test]
    fn a_sphere_rolling_on_a_floor_keeps_one_long_sub_step() {
        // A sphere of radius 0.2 rolling at 3 m/s (spin 15 rad/s about y):
        // its core is its centre at the mass centre, which moves parallel
        // to the floor, so nothing bends and nothing approaches.
        let core = SegmentCore::new([Vec3d::zeros(); 2], 0.2);
        let m = RigidMotion {
            center: Vec3d::new(0.0, 0.0, 0.2),
            rotation: Quatd::identity(),
            velocity: Vec3d::new(3.0, 0.0, 0.0),
            spin: Vec3d::new(0.0, 15.0, 0.0),
        };
        let mut budget = SubstepBudget::new(256);
        let out = advance(
            &core,
            &m,
            1.0 / 60.0,
            &floor_triangles(0.0, 10.0),
            &mut budget,
        )
        .unwrap();
        assert!(matches!(out, Advance::Clear(_)));
        assert_eq!(budget.used, 1);
    }

    #[test]
    fn a_shape_behind_the_floor_is_not_caught() {
        let core = box_core();
        let m = RigidMotion {
            center: Vec3d::new(0.0, 0.0, -0.5),
            rotation: Quatd::identity(),
            velocity: Vec3d::new(0.0, 0.0, 30.0),
            spin: Vec3d::zeros(),
        };
        let mut budget = SubstepBudget::new(256);
        let out = advance(&core, &m, 0.02, &floor_triangles(0.0, 10.0), &mut budget).unwrap();
        // 0.6 m in 0.02 s: it passes up through the floor's back.
        let Advance::Clear(end) = out else {
            panic!("a floor approached from behind does not catch");
        };
        assert!((end.center.z - 0.1).abs() < 1e-12);
    }

    #[test]
    fn a_triangle_far_outside_the_domain_is_refused() {
        let core = box_core();
        let m = RigidMotion {
            center: Vec3d::zeros(),
            rotation: Quatd::identity(),
            velocity: Vec3d::zeros(),
            spin: Vec3d::zeros(),
        };
        let far = [[
            Vec3::new(9.0e5, 0.0, 0.0),
            Vec3::new(9.0e5, 1.0, 0.0),
            Vec3::new(9.0e5, 0.0, 1.0),
        ]];
        let mut budget = SubstepBudget::new(256);
        assert!(matches!(
            advance(&core, &m, 0.01, &far, &mut budget),
            Err(AdvanceError::TriangleRefused { triangle: 0, .. })
        ));
        assert_eq!(budget.used, 0);
    }
}
