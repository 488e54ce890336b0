//! The one impact routine of continuous collision: any number of contact
//! points touching at one instant between any bodies (two bodies at a
//! swept impact; a body and a static, kinematic or discrete surface; every
//! body of a cascade at once), solved together as one plastic contact
//! problem with restitution and Coulomb friction.
//!
//! # Method
//! Contact `i` joins body `a_i` and body `b_i` (or a surface with no
//! body), with lever arms `r_ai`, `r_bi` from their mass centres, a unit
//! normal `n_i` from `b_i` towards `a_i` and a mixed material. A body that
//! takes no impulse (kinematic, static, a discrete obstacle) has zero
//! inverse mass and inverse inertia and keeps its prescribed velocity. The
//! normal velocity of a contact is
//! `u_i = n_i · (v_a + ω_a × r_ai − v_b − ω_b × r_bi)` (negative when
//! closing), and `K_ij`, the change of `u_i` per unit normal impulse at
//! contact `j` (`+n_j` on `a_j`, `−n_j` on `b_j`), sums over the bodies
//! the two contacts share: `K = Gᵀ G` for the contacts' directions in the
//! mass-weighted velocity space of all the bodies, where the kinetic
//! energy is `½ |y|²`. Then, as for one body:
//!
//! 1. **Compression**: the plastic impulses `λ_c >= 0` of the linear
//!    complementarity problem `u + K λ >= 0`, `λᵀ (u + K λ) = 0` (Lawson
//!    and Hanson's NNLS, `nnls.rs`), regularized by
//!    [`COMPRESSION_REGULARIZATION`] so that the dependent corners of a face
//!    share the impulse. Energy change `−½ λ_cᵀ K λ_c <= 0`.
//! 2. **Restitution** (Poisson's hypothesis, one coefficient for the
//!    event): a further `e λ_c` with `e` the smallest restitution over the
//!    contacts that took an impulse (`0` for a contact closing at or below
//!    its bounce threshold; `0` for the whole event when a *speculative*
//!    contact, one still apart that may close by its gap over the rest of
//!    the step, took an impulse). With step 1,
//!    `½ (e² − 1) λ_cᵀ K λ_c <= 0`.
//!    **Micro-collisions** (Mirtich and Canny 1995): a contact given a
//!    separation speed `s_i` that closed at `c_i` leaves at least at
//!    `min(c_i, s_i)` (a further non-negative projection onto those
//!    targets), so that a point a spin keeps pressing into a surface does
//!    not come back at once; kept only when the event's kinetic energy
//!    does not grow by it (each target is at most the point's own closing
//!    speed, but per-point targets of several points could).
//!
//! A *pressed* contact, given a leaving speed `l_i`, takes part in steps 1
//! and 4 with the condition `u_i >= l_i` instead of `u_i >= 0` (whatever
//! it closed at, and whether the event's other impulses close it), and
//! makes the event plastic. It is the one way an event may add kinetic
//! energy, up to an allowance the caller gives (the continuous step: the
//! energy its island's earlier strikes of the step took, so that over a
//! step the strikes never add energy); beyond it the event is solved
//! again without the leaving speeds.
//! 3. **Coulomb friction**: [`FRICTION_SWEEPS`] Gauss-Seidel sweeps in
//!    contact order; at each contact the accumulated tangential impulse
//!    moves to the minimizer of the energy over the disc
//!    `|f_i| <= μ_i λ_i` (the energy is a convex quadratic of `f_i`, so
//!    every move lowers it).
//! 4. **Re-projection**: friction of turning bodies moves the normal
//!    velocities too; a second plastic projection (regularized, then exact
//!    to remove the regularization's residue) opens any contact it closed
//!    (energy change `<= 0`; the cone still holds for the larger normal
//!    impulse).
//!
//! Every step is an impulse pair (equal and opposite on the two bodies of a
//! contact at the same point), so linear and angular momentum of the
//! bodies that take impulses are conserved, and no step adds kinetic
//! energy for restitution in `[0, 1]`; every contact ends non-closing up to
//! [`MANIFOLD_RELATIVE_TOLERANCE`] of the fastest closing speed (and never
//! below the rounding floor [`SPEED_ROUNDING`] of the point speeds, nor
//! [`LEAST_CLOSING_SPEED`]).
//!
//! # Source and precision domain
//! Moreau, "Unilateral contact and dry friction in finite freedom dynamics"
//! (1988) for the impact as a projection; Lawson and Hanson (1974) for the
//! solve; Stronge, *Impact Mechanics* (2000), ch. 5, for one restitution
//! coefficient per event; Mirtich (1996), ch. 4, for the single-contact
//! rules it extends. `f64` throughout; [`ImpactError::NotRepresentable`]
//! when a new velocity or an impulse is not a finite `f32`.

use parapet_geometry::Material;
use parapet_math::nalgebra::{Matrix2, Vector2};
use parapet_math::Vec3d;

use super::impulse::representable;
use super::nnls::plastic_impulses;
use super::{ImpactError, ImpactMass};
use crate::tangent_basis::tangent_basis;

/// Gauss-Seidel sweeps of the friction step (count): 4. Each sweep lowers
/// the energy; four bring the friction of a box landing flat on four
/// corners within a percent of its converged value (measured in the tests:
/// a sliding box's slip after four sweeps), and each costs one 2 x 2 solve
/// per contact. Warning: fewer leave the friction of a many-point event
/// visibly order-dependent.
pub const FRICTION_SWEEPS: usize = 4;

/// The stopping tolerance of the plastic projection, relative to the
/// fastest closing speed of the contacts (dimensionless): `1e-10`. A
/// contact ends non-closing up to this (m/s relative), far above the `f64`
/// rounding of the solve (`1e-15`) and far below any meaningful speed.
pub const MANIFOLD_RELATIVE_TOLERANCE: f64 = 1.0e-10;

/// The regularization of the compression step, relative to the largest
/// diagonal coupling (dimensionless): `1e-8`. The contacts of rigid bodies
/// are dependent as soon as a face touches (four corners span three
/// directions), so the plastic impulses are not unique, only the velocity
/// change is; solving with `K + δ I` picks the solution nearest the
/// least-norm one (Tikhonov), which spreads the impulse over equivalent
/// contacts (a box landing flat loads its four corners alike). It leaves
/// each contact closing by at most about `δ λ`, which the re-projection
/// removes; the energy proof holds with it (`λᵀ(u + K λ) = −δ |λ|² <= 0`).
/// Warning: much smaller values make that solve ill-conditioned, much
/// larger ones move the impulse noticeably.
pub const COMPRESSION_REGULARIZATION: f64 = 1.0e-8;

/// The closing speed, relative to the fastest at the event's start
/// (dimensionless), that a contact may keep after the event before the
/// event is refused as unresolvable: 1e-6. Far above the projection's
/// tolerance ([`MANIFOLD_RELATIVE_TOLERANCE`], 1e-10) and far below any
/// closing a solvable set leaves.
pub const UNRESOLVED_FRACTION: f64 = 1.0e-6;

/// The rounding floor of the event's speeds, relative to the fastest
/// point speed of its contacts (dimensionless): 1e-12. The normal
/// velocities are sums of a few products of `f64` values of that size
/// (1e-16 relative each); a contact closing slower than this floor closes
/// by rounding alone, so it neither starts an event nor counts as left
/// closing after one.
pub const SPEED_ROUNDING: f64 = 1.0e-12;

/// The least closing speed (m/s) an event takes as motion: 1e-12 m/s, a
/// picometre per second, far below the `f32` ulp of any velocity that moves
/// a body measurably within a step; a contact closing slower (the residue
/// of the solver's own `f64` sums at rest) neither starts an event nor
/// counts as left closing after one.
pub const LEAST_CLOSING_SPEED: f64 = 1.0e-12;

/// The most contacts one event solves (count): 512. A box on two triangles
/// has about a dozen, a pile of spheres settling at one instant a few
/// hundred; the dense projection costs `O(n³)` per active-set change.
/// More is refused ([`ImpactError::TooManyContacts`]).
pub const MAX_EVENT_CONTACTS: usize = 512;

/// One body of an event: how it takes impulses and how it moves at the
/// instant. A body that takes no impulse (kinematic, static or a discrete
/// obstacle) has a zero [`ImpactMass`] and keeps its velocity.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ImpactBody {
    /// Inverse mass and world inverse inertia (zero: takes no impulse).
    pub mass: ImpactMass,
    /// Velocity of the mass centre (m/s, world).
    pub velocity: Vec3d,
    /// Angular velocity (rad/s, world).
    pub spin: Vec3d,
}

/// One contact point of an event, between body `a` and body `b` (or a
/// surface with no body: `b = None`, at rest).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ImpactContact {
    /// Index of body A in the event's bodies.
    pub a: usize,
    /// Index of body B, `None` for a surface at rest with no body.
    pub b: Option<usize>,
    /// Lever arm from A's mass centre to the point (m, world).
    pub arm_a: Vec3d,
    /// Lever arm from B's mass centre to the point (m, world; unused when
    /// `b` is `None`).
    pub arm_b: Vec3d,
    /// Unit normal from B towards A (world).
    pub normal: Vec3d,
    /// The mixed material of the two surfaces.
    pub material: Material,
    /// The least speed (m/s, `>= 0`) at which the contact leaves when it
    /// closed at least that fast: a micro-collision for a point that the
    /// bodies' spins keep pressing into the surface (0: none).
    pub separation: f64,
    /// The least speed (m/s, `>= 0`) at which the contact leaves whatever
    /// it closed at, when it takes an impulse: a *pressed* contact, one the
    /// bodies' motions turn back into the surface again and again after
    /// each strike (a turning car pushing a walker along its side), leaves
    /// fast enough to stay apart for a while instead of being struck at
    /// every few hundred micrometres of travel. Unlike `separation` it may
    /// add kinetic energy (the bodies pushed apart at that speed); 0: none.
    pub leave: f64,
    /// How fast (m/s, `>= 0`) the contact may still close: 0 for a point
    /// that touches; `gap / horizon` for a *speculative* point `gap` apart
    /// that may close that much over the rest of the step. A speculative
    /// point takes an impulse only when it closes faster, and never
    /// restitution.
    pub allowed_closing: f64,
}

impl ImpactContact {
    /// How much faster (m/s) than touching the contact's normal velocity
    /// may close: its allowed closing for a speculative contact, minus its
    /// leaving speed for a pressed one (it must leave at least that fast),
    /// 0 for any other.
    fn slack(&self) -> f64 {
        if self.allowed_closing > 0.0 {
            self.allowed_closing
        } else {
            -self.leave.max(0.0)
        }
    }
}

/// What an event did.
#[derive(Debug, Clone, PartialEq)]
pub struct ImpactResponse {
    /// New velocity and angular velocity of each body, in the event's order
    /// (unchanged for a body that takes no impulse).
    pub velocities: Vec<(Vec3d, Vec3d)>,
    /// The total impulse on body A at each contact (N s, world; B takes
    /// its negative), in contact order.
    pub impulses: Vec<Vec3d>,
    /// The total normal impulse at each contact (N s, `>= 0`).
    pub normal_impulses: Vec<f64>,
    /// The restitution coefficient applied to the event.
    pub restitution: f64,
    /// The change of the kinetic energy of the bodies that take impulses
    /// (J; `<= 0` but for the pressed contacts' leaving speeds and the
    /// pushes of bodies that take none, a kinematic driver's).
    pub energy_change: f64,
}

/// The event's working state: velocities, and the couplings.
struct Event<'a> {
    bodies: &'a [ImpactBody],
    contacts: &'a [ImpactContact],
    velocity: Vec<Vec3d>,
    spin: Vec<Vec3d>,
}

impl Event<'_> {
    /// The relative velocity of contact `i`'s point on A against B (m/s).
    fn relative(&self, i: usize) -> Vec3d {
        let c = &self.contacts[i];
        let mut u = self.velocity[c.a] + self.spin[c.a].cross(&c.arm_a);
        if let Some(b) = c.b {
            u -= self.velocity[b] + self.spin[b].cross(&c.arm_b);
        }
        u
    }

    /// The normal velocities of the contacts (m/s).
    fn normal_velocities(&self) -> Vec<f64> {
        (0..self.contacts.len())
            .map(|i| self.contacts[i].normal.dot(&self.relative(i)))
            .collect()
    }

    /// The change of contact `i`'s relative velocity along `e` per unit
    /// impulse along `d` at contact `j` (`+d` on `a_j`, `−d` on `b_j`).
    fn coupling(&self, i: usize, j: usize, d: &Vec3d, e: &Vec3d) -> f64 {
        let (ci, cj) = (&self.contacts[i], &self.contacts[j]);
        let mut k = 0.0;
        let mut side = |body: usize, arm_j: &Vec3d, sign_j: f64| {
            let m: &ImpactMass = &self.bodies[body].mass;
            if ci.a == body {
                k += sign_j * m.coupling_between(arm_j, &ci.arm_a, d, e);
            }
            if ci.b == Some(body) {
                k -= sign_j * m.coupling_between(arm_j, &ci.arm_b, d, e);
            }
        };
        side(cj.a, &cj.arm_a, 1.0);
        if let Some(b) = cj.b {
            side(b, &cj.arm_b, -1.0);
        }
        k
    }

    /// The row-major normal coupling matrix `K_ij` (m/s per N s).
    fn normal_coupling(&self) -> Vec<f64> {
        let n = self.contacts.len();
        let mut k = vec![0.0; n * n];
        for i in 0..n {
            for j in 0..n {
                let (ni, nj) = (self.contacts[i].normal, self.contacts[j].normal);
                k[i * n + j] = self.coupling(i, j, &nj, &ni);
            }
        }
        k
    }

    /// Applies the impulse `j` (on A, world) at contact `i`.
    fn apply(&mut self, i: usize, j: &Vec3d) {
        let c = self.contacts[i];
        let ma = self.bodies[c.a].mass;
        ma.apply(&mut self.velocity[c.a], &mut self.spin[c.a], &c.arm_a, j);
        if let Some(b) = c.b {
            let mb = self.bodies[b].mass;
            mb.apply(&mut self.velocity[b], &mut self.spin[b], &c.arm_b, &-j);
        }
    }

    /// Applies the normal impulses `lambda`.
    fn apply_normal(&mut self, lambda: &[f64]) {
        for (i, &l) in lambda.iter().enumerate() {
            if l != 0.0 {
                let n = self.contacts[i].normal;
                self.apply(i, &(n * l));
            }
        }
    }

    /// The friction step (step 3 of the module docs): updates the
    /// velocities and the accumulated tangential impulses `friction`.
    fn friction_sweeps(&mut self, limits: &[f64], friction: &mut [Vec3d]) {
        for _ in 0..FRICTION_SWEEPS {
            for (i, &limit) in limits.iter().enumerate() {
                if !(limit > 0.0) {
                    continue;
                }
                let n = self.contacts[i].normal;
                let u = self.relative(i);
                let ut = u - n * n.dot(&u);
                let t = tangent_basis(&n);
                let k = |d: &Vec3d, e: &Vec3d| self.coupling(i, i, d, e);
                let kt = Matrix2::new(
                    k(&t[0], &t[0]),
                    k(&t[1], &t[0]),
                    k(&t[0], &t[1]),
                    k(&t[1], &t[1]),
                );
                let slip = Vector2::new(t[0].dot(&ut), t[1].dot(&ut));
                let old = Vector2::new(t[0].dot(&friction[i]), t[1].dot(&friction[i]));
                let Some(new) = disc_minimizer(&kt, &(slip - kt * old), limit) else {
                    continue;
                };
                let d = new - old;
                if d != Vector2::zeros() {
                    let delta = t[0] * d.x + t[1] * d.y;
                    self.apply(i, &delta);
                    friction[i] += delta;
                }
            }
        }
    }
}

impl ImpactMass {
    /// The velocity change along `e` of the point at lever arm `at` per
    /// unit impulse along `d` applied at lever arm `arm` (m/s per N s):
    /// `e · (d / m + (A (arm × d)) × at)`.
    fn coupling_between(&self, arm: &Vec3d, at: &Vec3d, d: &Vec3d, e: &Vec3d) -> f64 {
        let spin = self.inverse_inertia * arm.cross(d);
        self.inverse_mass * d.dot(e) + spin.cross(at).dot(e)
    }
}

/// Bisections (count) that locate the disc minimizer's multiplier: 80,
/// from the bracket `[0, |c| / B]` down to its `f64` resolution.
const DISC_BISECTIONS: u32 = 80;

/// The minimizer of `½ fᵀ K f + cᵀ f` over the disc `|f| <= limit`, for a
/// symmetric positive-definite 2 x 2 `K` (the trust-region subproblem):
/// the unconstrained minimizer `−K⁻¹ c` when it lies inside, else
/// `−(K + μ I)⁻¹ c` with the multiplier `μ > 0` that puts it on the circle
/// (`|(K + μ I)⁻¹ c|` decreases in `μ` and is at most `limit` at
/// `μ = |c| / limit`), found by bisection and scaled onto the disc.
fn disc_minimizer(k: &Matrix2<f64>, c: &Vector2<f64>, limit: f64) -> Option<Vector2<f64>> {
    let inside = -(k.try_inverse()? * c);
    if inside.norm() <= limit {
        return Some(inside);
    }
    let at = |mu: f64| {
        (k + Matrix2::identity() * mu)
            .try_inverse()
            .map(|m| -(m * c))
    };
    let (mut lo, mut hi) = (0.0f64, c.norm() / limit);
    for _ in 0..DISC_BISECTIONS {
        let mid = 0.5 * (lo + hi);
        match at(mid) {
            Some(f) if f.norm() > limit => lo = mid,
            _ => hi = mid,
        }
    }
    let f = at(hi)?;
    let len = f.norm();
    Some(if len > limit { f * (limit / len) } else { f })
}

/// The event restitution: the smallest over the contacts that took an
/// impulse (`0` for one closing at or below its bounce threshold), `0`
/// when none did.
fn event_restitution(contacts: &[ImpactContact], compression: &[f64], u: &[f64]) -> f64 {
    let e = contacts
        .iter()
        .zip(compression)
        .zip(u)
        .filter(|((c, &l), _)| l > 0.0 && c.slack() == 0.0)
        .map(|((c, _), &ui)| {
            if -ui > c.material.bounce_threshold as f64 {
                (c.material.restitution as f64).clamp(0.0, 1.0)
            } else {
                0.0
            }
        })
        .fold(f64::INFINITY, f64::min);
    if e.is_finite() {
        e
    } else {
        0.0
    }
}

/// The rounding allowance of the micro-collisions' energy test, relative
/// (dimensionless): 1e-12. A micro-collision of one contact at its own
/// closing speed keeps the energy exactly in exact arithmetic; its `f64`
/// evaluation differs by a few roundings (1e-16 relative each).
const ENERGY_ROUNDING: f64 = 1.0e-12;

/// The kinetic energy (J) of the event's bodies that take impulses.
fn kinetic_energy(event: &Event<'_>) -> f64 {
    event
        .bodies
        .iter()
        .enumerate()
        .filter(|(_, b)| b.mass.inverse_mass > 0.0)
        .map(|(i, b)| {
            let v = event.velocity[i];
            let w = event.spin[i];
            let inertia = b
                .mass
                .inverse_inertia
                .try_inverse()
                .unwrap_or_else(parapet_math::Mat3d::zeros);
            0.5 * v.norm_squared() / b.mass.inverse_mass + 0.5 * w.dot(&(inertia * w))
        })
        .sum()
}

/// The micro-collision step (module docs, step 2): the contacts that took
/// a compression impulse leave at least at `min(c_i, s_i)`; undone when the
/// kinetic energy would exceed `before` (J, the event's at its start).
fn micro_collisions(
    event: &mut Event<'_>,
    (k, u, compression): (&[f64], &[f64], &[f64]),
    normal: &mut [f64],
    tolerance: f64,
    before: f64,
) {
    let targets: Vec<f64> = event
        .contacts
        .iter()
        .zip(compression)
        .zip(u)
        .map(|((c, &l), &ui)| {
            if l > 0.0 && c.separation > 0.0 && c.slack() == 0.0 {
                c.separation.min(-ui)
            } else {
                0.0
            }
        })
        .collect();
    if targets.iter().all(|&x| !(x > 0.0)) {
        return;
    }
    let (v0, w0) = (event.velocity.clone(), event.spin.clone());
    let now = event.normal_velocities();
    let shifted: Vec<f64> = now.iter().zip(&targets).map(|(x, t)| x - t).collect();
    let extra = plastic_impulses(k, &shifted, tolerance);
    event.apply_normal(&extra);
    // A single contact's target is at most its closing speed (a
    // restitution of at most 1): the energy cannot grow but by rounding,
    // a relative 1e-12 (a few roundings of the energy's terms).
    if kinetic_energy(event) > before * (1.0 + ENERGY_ROUNDING) {
        event.velocity = v0;
        event.spin = w0;
        return;
    }
    for (total, e) in normal.iter_mut().zip(&extra) {
        *total += e;
    }
}

/// The response of `bodies` to `contacts` touching at one instant (module
/// docs). `None` when no contact closes (`u_i >= 0` for all) or no contact
/// has a positive normal effective mass; the bodies then keep their
/// velocities. The pressed contacts' leaving speeds may add at most
/// `leave_energy` (J) of kinetic energy over the same event solved without
/// them; beyond it the event is solved without them.
///
/// # Errors
/// [`ImpactError::TooManyContacts`] above [`MAX_EVENT_CONTACTS`] contacts;
/// [`ImpactError::NoOpening`] when a contact still closes after the
/// projections (beyond [`UNRESOLVED_FRACTION`] of the fastest closing
/// speed: no non-negative impulses open every contact);
/// [`ImpactError::NotRepresentable`] when a new velocity or an impulse is
/// not a finite `f32`.
pub fn respond_contacts(
    bodies: &[ImpactBody],
    contacts: &[ImpactContact],
    leave_energy: f64,
) -> Result<Option<ImpactResponse>, ImpactError> {
    let response = respond(bodies, contacts)?;
    if leave_energy == f64::INFINITY || !contacts.iter().any(|c| c.leave > 0.0) {
        return Ok(response);
    }
    // What the leaving speeds add: the energy change with them less the
    // change without them (a kinematic body's push adds energy either way).
    let plain: Vec<ImpactContact> = contacts
        .iter()
        .map(|c| ImpactContact { leave: 0.0, ..*c })
        .collect();
    let without = respond(bodies, &plain)?;
    let change = |r: &Option<ImpactResponse>| r.as_ref().map_or(0.0, |r| r.energy_change);
    if change(&response) - change(&without) > leave_energy.max(0.0) {
        Ok(without)
    } else {
        Ok(response)
    }
}

/// [`respond_contacts`] with every leaving speed taken.
fn respond(
    bodies: &[ImpactBody],
    contacts: &[ImpactContact],
) -> Result<Option<ImpactResponse>, ImpactError> {
    if contacts.len() > MAX_EVENT_CONTACTS {
        return Err(ImpactError::TooManyContacts {
            contacts: contacts.len(),
            limit: MAX_EVENT_CONTACTS,
        });
    }
    let mut event = Event {
        bodies,
        contacts,
        velocity: bodies.iter().map(|b| b.velocity).collect(),
        spin: bodies.iter().map(|b| b.spin).collect(),
    };
    let u: Vec<f64> = event
        .normal_velocities()
        .iter()
        .zip(contacts)
        .map(|(x, c)| x + c.slack())
        .collect();
    let fastest = u.iter().fold(0.0f64, |m, &x| m.max(-x));
    let speed_scale = (0..contacts.len())
        .map(|i| event.relative(i).norm() + contacts[i].slack().abs())
        .fold(0.0f64, f64::max);
    let floor = (SPEED_ROUNDING * speed_scale).max(LEAST_CLOSING_SPEED);
    if !(fastest > floor && fastest.is_finite()) {
        return Ok(None);
    }
    let k = event.normal_coupling();
    let n = contacts.len();
    if !(0..n).any(|i| k[i * n + i] > 0.0 && k[i * n + i].is_finite()) {
        return Ok(None);
    }
    let tolerance = (MANIFOLD_RELATIVE_TOLERANCE * fastest).max(floor);
    let initial = kinetic_energy(&event);
    let largest = (0..n).map(|i| k[i * n + i]).fold(0.0f64, f64::max);
    let mut regularized = k.clone();
    if n > 1 {
        // One contact has nothing to share: its impulse stays exact.
        for i in 0..n {
            regularized[i * n + i] += COMPRESSION_REGULARIZATION * largest;
        }
    }
    let compression = plastic_impulses(&regularized, &u, tolerance);
    // Poisson restitution over the touching contacts; an event in which a
    // speculative or a pressed contact took an impulse is plastic
    // (restitution on the others alone has no energy proof then; a pressed
    // one leaves at its leaving speed).
    let speculative_pushed = contacts
        .iter()
        .zip(&compression)
        .any(|(c, &l)| c.slack() != 0.0 && l > 0.0);
    let restitution = if speculative_pushed {
        0.0
    } else {
        event_restitution(contacts, &compression, &u)
    };
    let mut normal: Vec<f64> = compression
        .iter()
        .map(|l| l * (1.0 + restitution))
        .collect();
    event.apply_normal(&normal);
    micro_collisions(
        &mut event,
        (&k, &u, &compression),
        &mut normal,
        tolerance,
        initial,
    );

    let limits: Vec<f64> = contacts
        .iter()
        .zip(&normal)
        .map(|(c, &l)| c.material.friction as f64 * l)
        .collect();
    let mut friction = vec![Vec3d::zeros(); n];
    event.friction_sweeps(&limits, &mut friction);

    // Re-projection: regularized (dependent contacts share), then exact
    // (the regularization's residue of about `δ λ` removed).
    for matrix in [&regularized, &k] {
        let u2: Vec<f64> = event
            .normal_velocities()
            .iter()
            .zip(contacts)
            .map(|(x, c)| x + c.slack())
            .collect();
        if u2.iter().any(|&x| -x > tolerance) {
            let extra = plastic_impulses(matrix, &u2, tolerance);
            event.apply_normal(&extra);
            for (total, e) in normal.iter_mut().zip(&extra) {
                *total += e;
            }
        }
    }
    // A set of contacts that no non-negative impulses open (a body pinned
    // between a kinematic body and a static surface) is refused.
    let closing_left = event
        .normal_velocities()
        .iter()
        .zip(contacts)
        .any(|(x, c)| -(x + c.slack()) > (UNRESOLVED_FRACTION * fastest).max(floor));
    if closing_left {
        return Err(ImpactError::NoOpening { contacts: n });
    }
    let impulses: Vec<Vec3d> = contacts
        .iter()
        .zip(&normal)
        .zip(&friction)
        .map(|((c, &l), f)| c.normal * l + f)
        .collect();
    for j in &impulses {
        representable("impulse", j)?;
    }
    for (v, w) in event.velocity.iter().zip(&event.spin) {
        representable("linear velocity", v)?;
        representable("angular velocity", w)?;
    }
    let energy_change = kinetic_energy(&event) - initial;
    Ok(Some(ImpactResponse {
        velocities: event.velocity.into_iter().zip(event.spin).collect(),
        impulses,
        normal_impulses: normal,
        restitution,
        energy_change,
    }))
}

#[cfg(test)]
mod tests;
