//! The sub-step and impact loop of a turning body alone in its group (see
//! docs/turning-bodies.md, and docs/continuous-collision.md, "Precision
//! limits" and "Ordering, limits and rollback").
//!
//! A turning body is a dynamic capsule, box or hull that can turn, or a
//! dynamic sphere or capsule whose shape sits off its body origin or its
//! mass centre. Its shape does not move in a straight line, so it takes no
//! exact sweep: it advances in sub-steps that the certified driver of
//! [`parapet_narrow::advance`] certifies for every nearby triangle, the
//! same driver for every shape ([`TurningShape`]: a segment core grown by a
//! radius, or a solid core).
//!
//! # Method
//! The state of the step is kept in `f64`: the world mass centre `C`, the
//! unit rotation `Q`, the velocity `v` and the spin `ω`. Between impacts the
//! mass centre moves at constant velocity and the body turns at constant
//! spin: after a sub-step of `t` seconds `C += v t` and `Q ← exp(ω t) Q`,
//! the exact axis-angle turn by `|ω| t` about `ω`
//! ([`RigidMotion::advanced`]). Each loop pass is one sub-step, counted
//! against `ccd_max_substeps`:
//!
//! 1. **Candidates** (at the start and after every impact): the bounds tree
//!    is queried with the ball of radius `farthest core point + skin +
//!    contact margin` swept from `C` along `v τ` for the remaining time `τ`
//!    (turning keeps every shape point at its distance from `C`); triangles
//!    of owners whose collisions are off are dropped, the rest are sorted by
//!    insertion order and each passes the turning domain check
//!    ([`parapet_narrow::sweep::check_turning_triangle`]).
//! 2. **Contacts** ([`TurningCore::contacts`]): a capsule or sphere takes
//!    one impulse per touched, closing triangle at its fastest-closing
//!    touching point (`segment.rs`); a box or hull takes one manifold impact
//!    over every touch point of the instant (`solid.rs`). Impacts count
//!    against `ccd_max_impacts`; after one, the candidates are queried
//!    again.
//! 3. **Pressing correction**: a touched triangle whose certified
//!    separation is below `skin − tol` plus the smallest sub-step gap
//!    (`tol / 256`) pushes the pose out along its plane by the shortfall,
//!    at most `tol / 256` per pass, pose only (like the split correction).
//!    A pressed shape thus stays within the tolerance band, and storage
//!    rounding between steps does not accumulate.
//! 4. **Certified advance**: the sub-step is the driver's certified step
//!    ([`certified_step`]: the smallest admissible time over the candidates)
//!    and the remaining time.
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
//! `g` (see [`parapet_narrow::advance::bound`]); every pass counts as a
//! sub-step, so the loop ends at the end of the step, with
//! [`CcdError::SubstepLimit`] or with [`CcdError::ImpactLimit`].
//!
//! Held contacts: every candidate has the step's held band ([`held_band`],
//! [`parapet_narrow::advance::held`]). A touched triangle whose touch
//! points all approach slower than half of `CONTACT_MARGIN / dt` and that
//! the shape is more than `tol` above the held floor `skin − depth` of is
//! [`Hold::Sinking`]: it takes no impact (the next step's discrete solver
//! resolves it), and the driver lets slow points sink towards the held
//! floor. At the held floor ([`Hold::AtFloor`]) the usual impacts apply
//! again, and the pose is lifted back to `skin − tol` when that pushes the
//! shape into no other candidate (`lift_held`).
//!
//! Guarantee (for the `f64` state, before the final `f32` rounding): a shape
//! that starts a step clear of a triangle's front never comes closer to it
//! than `skin − tol` with a point approaching at half of `CONTACT_MARGIN /
//! dt` or faster (plus `tol / 256` for one sub-step of a pressed shape,
//! lifted back in the next pass), nor closer than `skin − depth` with
//! slower ones; one that starts deeper does not sink further than that.
//!
//! # Precision domain
//! Domain radii (a capsule's or sphere's radius, a solid's farthest vertex)
//! in `[1e-4, 1e4]` m, the shape's start and end positions within 65536
//! domain radii, candidate triangles within 1048576 domain radii, offsets
//! within 10000 m; the certificate's own `f64` slacks are documented in
//! [`parapet_narrow::advance`].

mod segment;
pub(crate) mod shape;
mod solid;

use parapet_geometry::bvh::SweptBall;
use parapet_geometry::Material;
use parapet_math::rounding::{add_up, mul_up, sqrt_up};
use parapet_math::{demote, promote, Quat, Vec3, Vec3d};
use parapet_narrow::advance::{
    certified_step_held, hold, CoreShape, HeldBand, Hold, RigidMotion, SegmentCore, Separation,
};
use parapet_narrow::sweep::{check_turning_triangle, APPROACH_EPS_FACTOR, MIN_GAP_FRACTION};
use parapet_solver::contact::{CONTACT_MARGIN, PENETRATION_SLOP};
use parapet_solver::impact::ImpactMass;
use parapet_solver::integrate::rotation_split::widen_rotation;
use parapet_solver::RigidBody;

use super::error::CcdError;
use super::motion::{check_coordinates, MeshView, SweptImpact, SweptMotion};
use super::reach::{dynamic_reach, norm_up, Reach};
pub(crate) use shape::{end_arms, TurningShape};

/// One turning body to sweep.
pub(crate) struct TurningInput<'a> {
    /// The body's index (insertion order).
    pub(crate) index: usize,
    /// The body: start-of-step pose, post-solver velocity and split velocity.
    pub(crate) body: &'a RigidBody,
    /// Its shape.
    pub(crate) shape: &'a TurningShape,
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

/// The held depth of a turning shape as a fraction of its inner radius (the
/// capsule's or sphere's radius, a solid's inner radius; dimensionless):
/// 1/16, 64 tolerances. A slow contact may sink this far into a triangle
/// (see [`held_band`]); a sixteenth of the radius keeps it a skin that no
/// shape can pass through, and 64 tolerances give the micro-collisions of a
/// rolling or pivoting shape 8 times the room (their period scales with the
/// square root of the depth).
pub(crate) const HELD_DEPTH_FRACTION: f64 = 1.0 / 16.0;

/// The held band of a turning shape of inner radius `inner` (m) for a step
/// of `dt` (s): depth `min(inner / 16, PENETRATION_SLOP)` (m), the overlap
/// that the discrete solver keeps in a resting contact; approach speed
/// below `CONTACT_MARGIN / dt` (m/s), the speed below which the contact
/// stage keeps a contact for the discrete solver instead of deferring it
/// to the sweep (so a contact held here is one that the next step's solver
/// resolves). See the module docs, "Held contacts".
pub(crate) fn held_band(inner: f64, dt: f64) -> HeldBand {
    HeldBand {
        depth: (inner * HELD_DEPTH_FRACTION).min(PENETRATION_SLOP),
        slow: CONTACT_MARGIN as f64 / dt,
    }
}

/// [`hold`] for the core `core` posed as `posed` against the triangle
/// `tri` (working frame) of separation `sep`, the touch points' approach
/// rates taken from the moving velocities of `m`.
fn hold_at<C: CoreShape>(
    core: &C,
    posed: &C::Posed,
    m: &Motion,
    tri: &[Vec3d; 3],
    sep: &Separation,
    band: &HeldBand,
) -> Hold {
    let mut touches = Vec::new();
    core.touch_points(posed, tri, sep, &mut touches);
    let (v, w) = (m.moving_velocity(), m.moving_spin());
    let n = sep.plane.normal;
    let rates = touches.iter().map(|t| -n.dot(&(v + w.cross(&t.on_shape))));
    hold(rates, sep, core.skin(), core.tolerance(), band)
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
/// refusals"): the ball around its world mass centre of radius
/// `far + skin + margin + speed dt + spin far dt + split travel`, with `far`
/// the farthest core point from the mass centre, the speed bound
/// `sqrt(2 E / m)` and the spin bound [`spin_bound`] of the energy `E`;
/// every operation rounded outward. (Turning keeps every shape point at its
/// distance from the mass centre, so the spin term is more than the ball
/// needs; it is kept because it also covers the path of the shape's own
/// centre.)
pub(crate) fn turning_reach(body: &RigidBody, shape: &TurningShape, energy: f64, dt: f32) -> Reach {
    let far = shape.far(body);
    let center = body.world_center_of_mass_f64();
    let trace = body.inverse_inertia().trace().max(0.0) as f64;
    let spin = spin_bound(energy, trace);
    let split_spin = norm_up(&promote(body.split_angular_velocity()));
    let turn = mul_up(mul_up(add_up(spin, split_spin), far), dt as f64);
    let base = dynamic_reach(
        center,
        add_up(far, shape.skin()),
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
pub(super) fn closes(n: &Vec3d, v: &Vec3d, w: &Vec3d, arm: &Vec3d) -> bool {
    let a = n.component_mul(v);
    let b = n.component_mul(&w.cross(arm));
    let dot = a.sum() + b.sum();
    let scale = a.abs().sum() + b.abs().sum();
    dot < -APPROACH_EPS_FACTOR * f64::EPSILON * scale
}

/// The working state of the loop.
pub(super) struct Motion {
    pub(super) center: Vec3d,
    pub(super) rotation: parapet_math::Quatd,
    pub(super) velocity: Vec3d,
    pub(super) spin: Vec3d,
    pub(super) split_velocity: Vec3d,
    pub(super) split_spin: Vec3d,
}

impl Motion {
    pub(super) fn moving_velocity(&self) -> Vec3d {
        self.velocity + self.split_velocity
    }

    pub(super) fn moving_spin(&self) -> Vec3d {
        self.spin + self.split_spin
    }
}

/// One kind of core as the world's loop uses it: the driver's geometry
/// ([`CoreShape`]) and the contact stage of one pass.
pub(super) trait TurningCore: CoreShape {
    /// The contacts at the current pose (step 2 of the module docs): drops
    /// the split velocities when the combined motion closes on a touched
    /// triangle, takes the impacts (counted in `impacts_taken`, reported in
    /// `impacts`), and says whether the motion changed (the candidates are
    /// then queried again).
    ///
    /// # Errors
    /// [`CcdError::ImpactLimit`] when the impacts exceed `ccd_max_impacts`;
    /// an impact the solver refuses.
    fn contacts(
        &self,
        sweep: &Turning<'_>,
        m: &mut Motion,
        at: &Instant<'_, Self::Posed>,
        impacts_taken: &mut u32,
        impacts: &mut Vec<SweptImpact>,
    ) -> Result<bool, CcdError>;
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
    match input.shape {
        TurningShape::Segment {
            radius,
            half_height,
        } => {
            let core = SegmentCore::new(end_arms(input.body, *half_height), *radius as f64);
            run(input, mesh, &core)
        }
        TurningShape::Solid { core, .. } => run(input, mesh, &**core),
    }
}

fn run<C: TurningCore>(
    input: &TurningInput<'_>,
    mesh: Option<&MeshView<'_>>,
    core: &C,
) -> Result<TurningOutcome, CcdError> {
    let body = input.body;
    let tol = core.tolerance();
    let sweep = Turning {
        index: input.index,
        held: held_band(
            tol / parapet_narrow::advance::TOLERANCE_FRACTION,
            input.dt as f64,
        ),
        body,
        mesh,
        skin: core.skin(),
        tol,
        domain: core.domain_radius(),
        dt: input.dt as f64,
        far: input.shape.far(body),
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
    sweep.check_pose(core, &m)?;

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
        let posed = core.pose(&m.rotation);
        let at = Instant {
            posed: &posed,
            candidates: &candidates.list,
            elapsed,
        };
        if core.contacts(&sweep, &mut m, &at, &mut impacts_taken, &mut impacts)? {
            candidates = sweep.query(&m, tau)?;
        }
        sweep.lift_held(core, &mut m, &posed, &candidates.list);
        sweep.press_out(core, &mut m, &posed, &candidates.list);
        let (step, last) = sweep.advance(core, &mut m, &candidates, tau);
        elapsed += step;
        tau = if last { 0.0 } else { tau - step };
    }
    sweep.check_pose(core, &m)?;
    Ok(TurningOutcome {
        motion: sweep.end_motion(&m)?,
        impacts,
        substeps,
    })
}

/// What stays fixed while one turning body is swept: the body, the static
/// triangles, the core's skin, tolerance and reach, and the step.
pub(super) struct Turning<'a> {
    pub(super) index: usize,
    /// The held band of the step ([`held_band`]).
    held: HeldBand,
    body: &'a RigidBody,
    pub(super) mesh: Option<&'a MeshView<'a>>,
    /// The skin (m): the radius around a segment core, `0` for a solid.
    pub(super) skin: f64,
    /// The turning tolerance (m, [`CoreShape::tolerance`]).
    pub(super) tol: f64,
    /// The domain radius (m, [`CoreShape::domain_radius`]).
    domain: f64,
    /// The step (s).
    pub(super) dt: f64,
    /// The farthest core point's distance from the mass centre (m), rounded
    /// up and widened for the rotation's roundoff.
    far: f64,
    pub(super) mass: ImpactMass,
    /// `ccd_max_impacts`.
    pub(super) max_impacts: u32,
}

/// One sub-step's pose as the contact pass sees it: the posed core
/// (relative to the mass centre), the candidates (with their mixed
/// materials) and the time elapsed since the step's start (s).
pub(super) struct Instant<'s, P> {
    pub(super) posed: &'s P,
    pub(super) candidates: &'s [(usize, Material)],
    pub(super) elapsed: f64,
}

/// The candidates of the rest of a step: snapshot index and mixed material,
/// and the triangles themselves (world, `f32`) in the same order.
struct Candidates {
    list: Vec<(usize, Material)>,
    triangles: Vec<[Vec3; 3]>,
    /// The held band of each triangle (every one the step's).
    bands: Vec<Option<HeldBand>>,
}

impl Turning<'_> {
    /// Every core point of the shape at pose `m` within the coordinate
    /// limits.
    fn check_pose<C: CoreShape>(&self, core: &C, m: &Motion) -> Result<(), CcdError> {
        let posed = core.pose(&m.rotation);
        for p in C::points(&posed) {
            check_coordinates(self.index, &(m.center + p), self.domain)?;
        }
        Ok(())
    }

    /// The candidates of the rest of the step from pose `m` (`tau`, s,
    /// left): the triangles the bounds tree returns for the ball of radius
    /// `farthest core point + skin + contact margin` swept along the moving
    /// velocity, in insertion order, owners that collide, each with its
    /// mixed material and checked by the turning domain check.
    ///
    /// # Errors
    /// [`CcdError::NotRepresentable`] for a query ball the tree refuses,
    /// [`CcdError::SweepRefused`] for a triangle outside the domain.
    fn query(&self, m: &Motion, tau: f64) -> Result<Candidates, CcdError> {
        let mut out = Candidates {
            list: Vec::new(),
            triangles: Vec::new(),
            bands: Vec::new(),
        };
        let Some(mesh) = self.mesh else {
            return Ok(out);
        };
        let reach = add_up(add_up(self.far, self.skin), CONTACT_MARGIN as f64);
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
        for t in found {
            let Some(other) = (mesh.material)(t) else {
                continue;
            };
            check_turning_triangle(&mesh.triangles[t], m.center, self.domain).map_err(
                |refusal| CcdError::SweepRefused {
                    body: self.index,
                    triangle: t,
                    refusal,
                },
            )?;
            out.list.push((t, self.body.material().mix(&other)));
            out.triangles.push(mesh.triangles[t]);
            out.bands.push(Some(self.held));
        }
        Ok(out)
    }

    /// How the held band takes the triangle of separation `sep` at the
    /// pass's pose ([`hold`]): the contact stage takes no impact on a
    /// triangle that is [`Hold::Sinking`].
    pub(super) fn hold<C: CoreShape>(
        &self,
        core: &C,
        m: &Motion,
        at: &Instant<'_, C::Posed>,
        tri: &[Vec3d; 3],
        sep: &Separation,
    ) -> Hold {
        if !core.touches(sep) {
            return Hold::Free;
        }
        hold_at(core, at.posed, m, tri, sep, &self.held)
    }

    /// Held lift: a held triangle within the tolerance of its held floor
    /// ([`Hold::AtFloor`]: a slow contact that the spin or a slow approach
    /// pressed to the bottom of the held band) lifts the pose along its
    /// plane back to the usual floor `skin − tol`, pose only (the discrete
    /// solver's split correction, in one move). The lift is kept only if no
    /// candidate ends below `min(its separation before, skin − tol)`: it
    /// pushes the shape into no other triangle. A quarter and a sixteenth
    /// of it are tried in turn, else the pose stays (and the pressing
    /// correction lifts it by the smallest gap per pass).
    fn lift_held<C: CoreShape>(
        &self,
        core: &C,
        m: &mut Motion,
        posed: &C::Posed,
        candidates: &[(usize, Material)],
    ) {
        let (skin, tol) = (self.skin, self.tol);
        let seps: Vec<Option<Separation>> = candidates
            .iter()
            .map(|&(t, _)| core.separation(posed, &self.relative(t, &m.center)))
            .collect();
        let Some(lift) = candidates.iter().zip(&seps).find_map(|(&(t, _), sep)| {
            let sep = sep.as_ref()?;
            let below = skin - tol - (sep.separation - sep.plane.slack);
            let tri = self.relative(t, &m.center);
            (below > 0.0
                && core.touches(sep)
                && hold_at(core, posed, m, &tri, sep, &self.held) == Hold::AtFloor)
                .then(|| sep.plane.normal * below)
        }) else {
            return;
        };
        for fraction in [1.0, 0.25, 0.0625] {
            let center = m.center + lift * fraction;
            let clear = candidates.iter().zip(&seps).all(|(&(t, _), before)| {
                let Some(before) = before else {
                    return true;
                };
                let after = core.separation(posed, &self.relative(t, &center));
                let limit = (before.separation - before.plane.slack).min(skin - tol);
                after.is_none_or(|a| a.separation - a.plane.slack >= limit)
            });
            if clear {
                m.center = center;
                return;
            }
        }
    }

    /// Triangle `t` relative to `origin` (m).
    pub(super) fn relative(&self, t: usize, origin: &Vec3d) -> [Vec3d; 3] {
        let tri = match self.mesh {
            Some(mesh) => &mesh.triangles[t],
            None => return [Vec3d::zeros(); 3],
        };
        tri.map(|v| promote(v) - origin)
    }

    /// Pressing correction: a touched triangle whose certified separation
    /// has sunk below `skin − tolerance` plus the smallest sub-step gap (a
    /// shape that the spin presses on it without closing fast enough for an
    /// impulse to lift it, or one that storage rounding left a little
    /// deeper) pushes the pose out along its plane by the shortfall, at
    /// most MIN_GAP_FRACTION of the tolerance per pass, pose only (like the
    /// split correction): velocities, hence energy, are untouched, and a
    /// pressed shape never sinks below where it started.
    fn press_out<C: CoreShape>(
        &self,
        core: &C,
        m: &mut Motion,
        posed: &C::Posed,
        candidates: &[(usize, Material)],
    ) {
        let (skin, tol) = (self.skin, self.tol);
        let lift = tol * MIN_GAP_FRACTION;
        for &(t, _) in candidates {
            let tri = self.relative(t, &m.center);
            let Some(sep) = core.separation(posed, &tri) else {
                continue;
            };
            let shortfall = skin - tol + lift - (sep.separation - sep.plane.slack);
            if core.touches(&sep) && shortfall > 0.0 {
                m.center += sep.plane.normal * shortfall.min(lift);
            }
        }
    }

    /// The certified sub-step from pose `m` (`tau`, s, left): the driver's
    /// held step ([`certified_step_held`]) over the candidates along the
    /// moving velocities, at most the remaining time; moves the pose by it
    /// and returns its length (s) and whether it ends the step.
    fn advance<C: CoreShape>(
        &self,
        core: &C,
        m: &mut Motion,
        candidates: &Candidates,
        tau: f64,
    ) -> (f64, bool) {
        let moving = RigidMotion {
            center: m.center,
            rotation: m.rotation,
            velocity: m.moving_velocity(),
            spin: m.moving_spin(),
        };
        let step =
            certified_step_held(core, &moving, &candidates.triangles, tau, &candidates.bands);
        let last = step >= tau;
        let step = if last { tau } else { step.max(0.0) };
        let end = moving.advanced(step);
        m.center = end.center;
        m.rotation = end.rotation;
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
    use parapet_math::nalgebra::UnitQuaternion;
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
            shape: &TurningShape::Segment {
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
        let shape = TurningShape::Segment {
            radius: 0.1,
            half_height: 0.4,
        };
        let dt = 0.05f32;
        let energy = b.kinetic_energy().unwrap();
        let reach = turning_reach(&b, &shape, energy, dt);
        let arms = end_arms(&b, 0.4);
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
