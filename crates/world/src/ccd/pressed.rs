//! Pressed pairs: the closing acceleration of a contact under its bodies'
//! motions, and the leaving speed a pressed pair's touching points take
//! from it (docs/continuous-collision.md, "How a step works").
//!
//! # Method
//! The closing acceleration is the second derivative of the contact's
//! distance under constant velocities and spins, its centripetal and
//! Coriolis terms ([`closing_acceleration`]); a pressed point leaves at
//! `min(a (dt − t), sqrt(2 h a))` ([`leaving_speed`]).
//!
//! # Source
//! Mirtich and Canny (1995), micro-collisions; the derivation in
//! [`closing_acceleration`].
//!
//! # Precision domain
//! `f64`, the solver's speeds and lever arms.

use parapet_math::Vec3d;
use parapet_narrow::moving::{CoreKind, MovingShape};
use parapet_solver::impact::ImpactBody;

use super::bodies::StepBody;

/// The closing acceleration (m/s², `>= 0`) of a contact along the normal
/// `n` (from B towards A) between A's core point at `arm_a` and B's at
/// `arm_b` under the bodies' motions (constant velocities and spins): the
/// second derivative of their distance, less its sign. Two terms
/// (the distance `g = n · (p_a − p_b)` differentiated twice, the points
/// sliding, the normal turning with the body whose face it is):
/// - centripetal: `n · (ω_a × (ω_a × r_a) − ω_b × (ω_b × r_b))`, the core
///   points (the contact point moved in by each body's skin: the distance
///   follows the cores, a skin's own material point turns away);
/// - Coriolis: `2 (ω_f × n) · v`, `v` the points' relative velocity and
///   `ω_f` the spin of the body whose face carries the normal, the larger
///   over A and B (an edge against an edge turns with both); a sphere
///   carries none (its normal passes through its centre whatever its
///   spin), so its spin enters as 0 (`turns_a`, `turns_b`).
///
/// A micro-collision lets such a point leave at `sqrt(2 h a)` (`h` the
/// pair's held depth), so that it does not sink again by more than that
/// before it comes back.
pub(crate) fn closing_acceleration(
    (a, arm_a, turns_a): (&ImpactBody, &Vec3d, bool),
    (b, arm_b, turns_b): (&ImpactBody, &Vec3d, bool),
    n: &Vec3d,
) -> f64 {
    let centripetal = |w: &Vec3d, r: &Vec3d| w.cross(&w.cross(r));
    let relative = centripetal(&a.spin, arm_a) - centripetal(&b.spin, arm_b);
    let velocity = a.velocity + a.spin.cross(arm_a) - b.velocity - b.spin.cross(arm_b);
    let coriolis = |w: &Vec3d, turns: bool| {
        if turns {
            2.0 * w.cross(n).dot(&velocity)
        } else {
            0.0
        }
    };
    let g2 = n.dot(&relative) + coriolis(&a.spin, turns_a).min(coriolis(&b.spin, turns_b));
    (-g2).max(0.0)
}

/// Whether body `x`'s spin turns the normals of its contacts: any shape
/// but a sphere.
pub(crate) fn turns_normal(x: &StepBody) -> bool {
    !matches!(x.swept.shape.as_ref(), MovingShape::Convex(c) if c.kind() == CoreKind::Point)
}

/// The leaving speed (m/s) of a touching point of a pressed pair with held
/// depth `held` (m), closing at acceleration `a` (m/s²,
/// [`closing_acceleration`]) with `remaining` (s) of the step left:
/// `min(a · remaining, sqrt(2 held a))`. It comes back to where it left no
/// sooner than the end of the step for an acceleration up to twice `a`,
/// and rises no further apart than its held depth.
pub(crate) fn leaving_speed(held: f64, a: f64, remaining: f64) -> f64 {
    (a * remaining).min((2.0 * held * a).sqrt())
}
