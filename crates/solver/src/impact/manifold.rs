//! The impact of a turning body on several contact points at one instant (a
//! box landing flat on four corners, a hull on a crease), solved together as
//! one plastic contact problem with restitution and Coulomb friction.
//!
//! # Method
//! Each point `i` has a lever arm `a_i` from the mass centre, a unit normal
//! `n_i` (from its triangle towards the body) and a mixed material; its
//! normal velocity is `u_i = n_i · (v + ω × a_i)`. With the couplings
//! `K(d, e)` of `impulse.rs` (the world inverse tensor `A` at the step's
//! start orientation), `K_ij = K_j(n_j, n_i)` is the normal velocity change
//! of point `i` per unit normal impulse at point `j`: `K = Gᵀ G`, symmetric
//! positive semi-definite, for the points' directions `g_i` in the
//! mass-weighted velocity space where the kinetic energy is `½ |y|²`.
//!
//! 1. **Compression**: the plastic impulses `λ_c >= 0` of the linear
//!    complementarity problem `u + K λ >= 0`, `λᵀ (u + K λ) = 0` (`nnls.rs`:
//!    the projection of the velocity onto the non-closing cone). Energy
//!    change `−½ λ_cᵀ K λ_c <= 0`.
//! 2. **Restitution** (Poisson's hypothesis, one coefficient for the event):
//!    a further normal impulse `e λ_c`, with `e` the smallest restitution
//!    over the points that took an impulse (`0` for a point whose closing
//!    speed is at or below its mixed bounce threshold). Since
//!    `λ_cᵀ (u + K λ_c) = 0`, the two together change the energy by
//!    `½ (e² − 1) λ_cᵀ K λ_c <= 0` for `e` in `[0, 1]` (Stronge, *Impact
//!    Mechanics*, 2000, ch. 5, for why one coefficient per event is the safe
//!    multi-point law: per-point coefficients can add energy).
//! 3. **Coulomb friction**, [`FRICTION_SWEEPS`] Gauss-Seidel sweeps in point
//!    order: at point `i` the tangential impulse `f_i` (accumulated) moves
//!    towards `f_i − K_t⁻¹ u_t` (the impulse that stops its present slip,
//!    `K_t` its 2 x 2 tangential block) as far as the disc
//!    `|f_i| <= μ_i (1 + e) λ_c,i` allows. The energy is a convex quadratic
//!    of `f_i` with its minimum at the target, so every such move along the
//!    segment towards it lowers the energy.
//! 4. **Re-projection**: friction on a turning body moves the normal
//!    velocities too (`K(t, n) ≠ 0`); a second plastic projection
//!    (step 1 from the present velocity) opens any point it closed. Energy
//!    change `<= 0`, and the cone inequality `|f_i| <= μ_i λ_i` still holds
//!    for the larger total normal impulse.
//!
//! No step adds kinetic energy (measured with the tensor `A`), so a reach
//! bound measured at the step's start holds through every impact; every
//! point ends non-closing up to [`MANIFOLD_RELATIVE_TOLERANCE`] of the
//! largest closing speed. A single point reduces to the normal, friction and
//! re-closing impulses of `turning_point.rs` (without its separation speed).
//!
//! # Source and precision domain
//! Moreau, "Unilateral contact and dry friction in finite freedom dynamics"
//! (1988) for the impact as a projection; Lawson and Hanson (1974) for the
//! solve; Mirtich (1996), ch. 4, for the single-point rules it extends.
//! `f64` from `f32` state.

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
/// per point. Warning: fewer leave the friction of a many-point manifold
/// visibly order-dependent.
pub const FRICTION_SWEEPS: usize = 4;

/// The stopping tolerance of the plastic projection, relative to the
/// largest closing speed of the points (dimensionless): `1e-10`. A point
/// ends non-closing up to this (m/s relative), far above the `f64`
/// rounding of the solve (`1e-15`) and far below any meaningful speed.
pub const MANIFOLD_RELATIVE_TOLERANCE: f64 = 1.0e-10;

/// The regularization of the compression step, relative to the largest
/// diagonal coupling (dimensionless): `1e-8`. The points of one rigid body
/// are dependent as soon as there are more than six (and often before: the
/// four corners of a flat face span three), so the plastic impulses are
/// not unique, only the velocity change is; solving with `K + δ I` picks
/// the unique solution nearest the least-norm one (Tikhonov), which spreads
/// the impulse over equivalent points (a box landing flat loads its four
/// corners alike, and their friction acts alike). It leaves each point
/// closing by at most about `δ λ`, which the re-projection removes; the
/// energy proof holds with it (`λᵀ(u + K λ) = −δ |λ|² <= 0`). Warning: much
/// smaller values make that solve ill-conditioned, much larger ones move
/// the impulse noticeably.
pub const COMPRESSION_REGULARIZATION: f64 = 1.0e-8;

/// The most points one manifold impact solves (count): 64. A box on two
/// triangles has at most about a dozen, a hull on a terrain crease a few
/// dozen; each point costs a row of the projection.
pub const MAX_MANIFOLD_POINTS: usize = 64;

/// One contact point of a manifold impact.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ManifoldPoint {
    /// Lever arm from the mass centre (m, world).
    pub arm: Vec3d,
    /// Unit normal from the surface towards the body.
    pub normal: Vec3d,
    /// The mixed material of the body and the surface at this point.
    pub material: Material,
}

/// The result of a manifold impact.
#[derive(Debug, Clone, PartialEq)]
pub struct ManifoldResponse {
    /// New linear velocity of the mass centre (m/s).
    pub linear_velocity: Vec3d,
    /// New angular velocity (rad/s).
    pub angular_velocity: Vec3d,
    /// The total impulse at each point (N s, world), in point order.
    pub impulses: Vec<Vec3d>,
    /// The total normal impulse at each point (N s, `>= 0`).
    pub normal_impulses: Vec<f64>,
    /// The restitution coefficient applied to the event.
    pub restitution: f64,
}

/// The normal velocities of the points (m/s).
fn normal_velocities(points: &[ManifoldPoint], v: &Vec3d, w: &Vec3d) -> Vec<f64> {
    points
        .iter()
        .map(|p| p.normal.dot(&(v + w.cross(&p.arm))))
        .collect()
}

/// The row-major normal coupling matrix `K_ij` (m/s per N s).
fn normal_coupling(mass: &ImpactMass, points: &[ManifoldPoint]) -> Vec<f64> {
    let n = points.len();
    let mut k = vec![0.0; n * n];
    for i in 0..n {
        for j in 0..n {
            // The velocity change along n_i at a_i per impulse n_j at a_j.
            let pj = &points[j];
            let spin = mass.inverse_inertia * pj.arm.cross(&pj.normal);
            k[i * n + j] = mass.inverse_mass * pj.normal.dot(&points[i].normal)
                + spin.cross(&points[i].arm).dot(&points[i].normal);
        }
    }
    k
}

/// Applies the normal impulses `lambda` at the points.
fn apply_normal(
    mass: &ImpactMass,
    points: &[ManifoldPoint],
    lambda: &[f64],
    v: &mut Vec3d,
    w: &mut Vec3d,
) {
    for (p, &l) in points.iter().zip(lambda) {
        if l != 0.0 {
            mass.apply(v, w, &p.arm, &(p.normal * l));
        }
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

/// The friction step (step 3 of the module docs): updates the velocities
/// and the accumulated tangential impulses `friction` (world vectors).
fn friction_sweeps(
    mass: &ImpactMass,
    points: &[ManifoldPoint],
    limits: &[f64],
    friction: &mut [Vec3d],
    v: &mut Vec3d,
    w: &mut Vec3d,
) {
    for _ in 0..FRICTION_SWEEPS {
        for (i, p) in points.iter().enumerate() {
            let limit = limits[i];
            if !(limit > 0.0) {
                continue;
            }
            let n = p.normal;
            let u = *v + w.cross(&p.arm);
            let ut = u - n * n.dot(&u);
            let t = tangent_basis(&n);
            let k = |d: &Vec3d, e: &Vec3d| mass.coupling(&p.arm, d, e);
            let kt = Matrix2::new(
                k(&t[0], &t[0]),
                k(&t[1], &t[0]),
                k(&t[0], &t[1]),
                k(&t[1], &t[1]),
            );
            // The block's energy as a function of its total impulse f:
            // ½ fᵀ K_t f + (u_t − K_t f_old)ᵀ f, the others held.
            let slip = Vector2::new(t[0].dot(&ut), t[1].dot(&ut));
            let old = Vector2::new(t[0].dot(&friction[i]), t[1].dot(&friction[i]));
            let Some(new) = disc_minimizer(&kt, &(slip - kt * old), limit) else {
                continue;
            };
            let d = new - old;
            if d != Vector2::zeros() {
                let delta = t[0] * d.x + t[1] * d.y;
                mass.apply(v, w, &p.arm, &delta);
                friction[i] += delta;
            }
        }
    }
}

/// The response of a body with `mass` moving at `(velocity, spin)` to the
/// contact `points` touching at one instant (see the module docs). `None`
/// when no point closes (`u_i >= 0` for all) or no point has a positive
/// normal effective mass.
///
/// # Errors
/// [`ImpactError::TooManyContacts`] above [`MAX_MANIFOLD_POINTS`] points;
/// [`ImpactError::NotRepresentable`] (quantity "impulse") when a point's
/// impulse or its normal part has a component beyond `f32`, as
/// [`super::respond_turning_point`] refuses.
pub fn respond_manifold(
    mass: &ImpactMass,
    velocity: Vec3d,
    spin: Vec3d,
    points: &[ManifoldPoint],
) -> Result<Option<ManifoldResponse>, ImpactError> {
    if points.len() > MAX_MANIFOLD_POINTS {
        return Err(ImpactError::TooManyContacts {
            contacts: points.len(),
            limit: MAX_MANIFOLD_POINTS,
        });
    }
    let u = normal_velocities(points, &velocity, &spin);
    let fastest = u.iter().fold(0.0f64, |m, &x| m.max(-x));
    if !(fastest > 0.0 && fastest.is_finite()) {
        return Ok(None);
    }
    let k = normal_coupling(mass, points);
    let n = points.len();
    if !(0..n).any(|i| k[i * n + i] > 0.0 && k[i * n + i].is_finite()) {
        return Ok(None);
    }
    let tolerance = MANIFOLD_RELATIVE_TOLERANCE * fastest;
    let (mut v, mut w) = (velocity, spin);

    let largest = (0..n).map(|i| k[i * n + i]).fold(0.0f64, f64::max);
    let mut regularized = k.clone();
    for i in 0..n {
        regularized[i * n + i] += COMPRESSION_REGULARIZATION * largest;
    }
    let compression = plastic_impulses(&regularized, &u, tolerance);
    let restitution = points
        .iter()
        .zip(&compression)
        .zip(&u)
        .filter(|((_, &l), _)| l > 0.0)
        .map(|((p, _), &ui)| {
            let closing = -ui;
            if closing > p.material.bounce_threshold as f64 {
                (p.material.restitution as f64).clamp(0.0, 1.0)
            } else {
                0.0
            }
        })
        .fold(f64::INFINITY, f64::min);
    let restitution = if restitution.is_finite() {
        restitution
    } else {
        0.0
    };
    let mut normal: Vec<f64> = compression
        .iter()
        .map(|l| l * (1.0 + restitution))
        .collect();
    apply_normal(mass, points, &normal, &mut v, &mut w);

    let limits: Vec<f64> = points
        .iter()
        .zip(&normal)
        .map(|(p, &l)| p.material.friction as f64 * l)
        .collect();
    let mut friction = vec![Vec3d::zeros(); n];
    friction_sweeps(mass, points, &limits, &mut friction, &mut v, &mut w);

    let u2 = normal_velocities(points, &v, &w);
    if u2.iter().any(|&x| -x > tolerance) {
        let extra = plastic_impulses(&k, &u2, tolerance);
        apply_normal(mass, points, &extra, &mut v, &mut w);
        for (total, e) in normal.iter_mut().zip(&extra) {
            *total += e;
        }
    }
    let impulses: Vec<Vec3d> = points
        .iter()
        .zip(&normal)
        .zip(&friction)
        .map(|((p, &l), f)| p.normal * l + f)
        .collect();
    // The limits of `respond_turning_point`: every impulse and its normal
    // part within `f32` (the world stores and reports them in `f32`).
    for ((p, &l), impulse) in points.iter().zip(&normal).zip(&impulses) {
        representable("impulse", impulse)?;
        representable("impulse", &(p.normal * l))?;
    }
    Ok(Some(ManifoldResponse {
        linear_velocity: v,
        angular_velocity: w,
        impulses,
        normal_impulses: normal,
        restitution,
    }))
}

#[cfg(test)]
mod tests;
