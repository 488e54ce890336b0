//! One contact point as the solver input ([`ContactPointInput`]) and as its
//! prepared constraint row ([`ContactRow`]): lever arms, effective masses,
//! tangent basis, the closing velocity before the solve and the speculative gap.
//!
//! Source: Catto, "Iterative Dynamics with Temporal Coherence" (GDC 2005),
//! the effective mass `1 / (m_A⁻¹ + m_B⁻¹ + (A_A (r_A × d)) · (r_A × d) + …)`.
//! Precision domain: `f64` from the `f32` inputs, lever arms relative to the
//! world mass centres; a zero or non-finite denominator gives a zero mass
//! (the row applies nothing).

use parapet_geometry::Material;
use parapet_math::{promote, Vec3, Vec3d};

use super::SolverBody;
use crate::tangent_basis::tangent_basis;

/// One contact point between body `body_a` and body `body_b` (indices into
/// the solver's body slice), as the narrow phase reports it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ContactPointInput {
    /// Index of body A in the solver's body slice.
    pub body_a: usize,
    /// Index of body B in the solver's body slice.
    pub body_b: usize,
    /// World point midway between the two surfaces (m).
    pub point: Vec3,
    /// Unit normal from A to B (world): the direction in which B must move
    /// to separate.
    pub normal: Vec3,
    /// Penetration along the normal (m): positive for overlap, negative for a
    /// gap (a speculative point).
    pub depth: f32,
    /// The mixed material of the pair ([`Material::mix`]).
    pub material: Material,
    /// Warm start (N s): the normal impulse per step this point carried at
    /// the end of the previous step ([`super::ContactImpulse::warm_normal_impulse`];
    /// 0 for a new point). Each substep starts from its share, so that
    /// resting contacts and stacks start from last step's answer (Catto 2005).
    pub warm_normal_impulse: f32,
    /// Warm start (N s, world): last step's friction impulse per step on B
    /// ([`super::ContactImpulse::warm_tangent_impulse`]); its component in
    /// the plane of the new normal is reused.
    pub warm_tangent_impulse: Vec3,
}

/// A prepared contact row: the input plus everything the iterations reuse.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ContactRow {
    /// Index of body A.
    pub body_a: usize,
    /// Index of body B.
    pub body_b: usize,
    /// Lever arm from A's mass centre to the point (m).
    pub arm_a: Vec3d,
    /// Lever arm from B's mass centre to the point (m).
    pub arm_b: Vec3d,
    /// Unit normal from A to B.
    pub normal: Vec3d,
    /// Two unit tangents completing a right-handed basis with the normal.
    pub tangents: [Vec3d; 2],
    /// Effective mass along the normal (kg); 0 when neither body can move.
    pub normal_mass: f64,
    /// Effective masses along the tangents (kg).
    pub tangent_mass: [f64; 2],
    /// Mixed Coulomb friction coefficient.
    pub friction: f64,
    /// Mixed restitution.
    pub restitution: f64,
    /// Mixed bounce threshold (m/s).
    pub bounce_threshold: f64,
    /// Normal relative velocity of B against A before the solve (m/s,
    /// negative when closing).
    pub closing_velocity: f64,
    /// Penetration (m) at the step's start, negative for a gap.
    pub depth: f64,
    /// Accumulated normal impulse (N s): of the step, or of the current
    /// substep.
    pub normal_impulse: f64,
    /// Largest accumulated normal impulse (N s): restitution applies only
    /// to points that took one.
    pub max_normal_impulse: f64,
    /// Accumulated tangent impulses (N s) along [`ContactRow::tangents`]:
    /// of the step, or of the current substep.
    pub tangent_impulse: [f64; 2],
    /// The normal impulse applied over the whole step so far (N s).
    pub total_normal_impulse: f64,
    /// The tangent impulses applied over the whole step so far (N s).
    pub total_tangent_impulse: [f64; 2],
}

/// The effective mass `1 / (mA⁻¹ + mB⁻¹ + (IA⁻¹ (rA × d)) · (rA × d) + ...)`
/// along direction `d`, 0 when the denominator is not positive and finite
/// (two immovable bodies, or a custom tensor with no resistance there).
fn effective_mass(a: &SolverBody, b: &SolverBody, arm_a: &Vec3d, arm_b: &Vec3d, d: &Vec3d) -> f64 {
    let ra = arm_a.cross(d);
    let rb = arm_b.cross(d);
    let k = a.inverse_mass
        + b.inverse_mass
        + (a.world_inverse_inertia * ra).dot(&ra)
        + (b.world_inverse_inertia * rb).dot(&rb);
    if k > 0.0 && k.is_finite() {
        1.0 / k
    } else {
        0.0
    }
}

impl ContactRow {
    /// Prepares the row of `input` against the bodies' state before the solve.
    pub(crate) fn prepare(input: &ContactPointInput, bodies: &[SolverBody]) -> ContactRow {
        let a = &bodies[input.body_a];
        let b = &bodies[input.body_b];
        let point = promote(input.point);
        let normal = promote(input.normal);
        let normal = normal / normal.norm();
        let arm_a = point - a.center;
        let arm_b = point - b.center;
        let tangents = tangent_basis(&normal);
        let relative = b.velocity_at(&arm_b) - a.velocity_at(&arm_a);
        ContactRow {
            body_a: input.body_a,
            body_b: input.body_b,
            arm_a,
            arm_b,
            normal,
            tangents,
            normal_mass: effective_mass(a, b, &arm_a, &arm_b, &normal),
            tangent_mass: tangents.map(|t| effective_mass(a, b, &arm_a, &arm_b, &t)),
            friction: input.material.friction as f64,
            restitution: input.material.restitution as f64,
            bounce_threshold: input.material.bounce_threshold as f64,
            closing_velocity: relative.dot(&normal),
            depth: input.depth as f64,
            normal_impulse: (input.warm_normal_impulse as f64).max(0.0),
            max_normal_impulse: 0.0,
            tangent_impulse: tangents.map(|t| promote(input.warm_tangent_impulse).dot(&t)),
            total_normal_impulse: 0.0,
            total_tangent_impulse: [0.0; 2],
        }
    }
}

/// What the solve applied at one contact point.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ContactImpulse {
    /// The normal impulse (N s, `>= 0`) applied to body B over the step
    /// along the input normal; body A received its negative.
    pub normal_impulse: f64,
    /// The friction impulse (N s, world) applied to body B over the step.
    pub tangent_impulse: Vec3d,
    /// The normal impulse per step the point carried at the end (N s): the
    /// warm start of the next step ([`ContactPointInput::warm_normal_impulse`]).
    pub warm_normal_impulse: f64,
    /// The friction impulse per step on B it carried at the end (N s,
    /// world), the warm start of the next step.
    pub warm_tangent_impulse: Vec3d,
}
