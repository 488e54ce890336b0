//! The sequential-impulse contact solve (Catto 2005 and 2009): its entry
//! point [`solve_contacts`], which prepares the rows and runs the chosen
//! [`SolveScheme`], what each point applied ([`ContactImpulse`]), and the
//! scheme of whole-step iterations: a warm start, [`VELOCITY_ITERATIONS`]
//! passes of friction and speculative normal impulses, restitution, and
//! [`SPLIT_ITERATIONS`] passes of split (pose-only) correction. The
//! substepped soft scheme is in `soft_step.rs`. See the module documentation
//! of [`crate::contact`] for the method and its sources.
//!
//! Precision domain: `f64` accumulated impulses; the points are solved in
//! the given order, so the result is deterministic for a given input order.

use parapet_math::Vec3d;

use super::row::ContactImpulse;
use super::soft_step::solve_substeps;
use super::solver_body::pair;
use super::tolerances::{BAUMGARTE_FACTOR, RESTING_DEPTH, SPLIT_ITERATIONS, VELOCITY_ITERATIONS};
use super::{ContactPointInput, ContactRow, SolverBody};

/// How [`solve_contacts`] solves a step's points.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum SolveScheme {
    /// Substeps with soft contacts ([`super::SUBSTEPS`], Box2D v3's soft
    /// step): stacks stand, every resting point settles at one depth (less
    /// its load's sinking, [`super::CONTACT_HERTZ`]); the substeps'
    /// displacement reaches the pose through the split velocities. The
    /// discrete mode's scheme.
    Substeps,
    /// Whole-step iterations: rigid speculative contacts that never let a
    /// resting point sink, and split correction of overlaps. The scheme the
    /// continuous mode's sweeps are built on (they hold resting contacts at
    /// zero overlap and treat a split velocity as a correction, not as
    /// motion), until its event loop takes the substeps' motion.
    Iterations,
}

/// Applies `impulse` to B at its arm and its negative to A.
fn apply(bodies: &mut [SolverBody], row: &ContactRow, impulse: &Vec3d) {
    let (a, b) = pair(bodies, row.body_a, row.body_b);
    a.apply_impulse(&-impulse, &row.arm_a);
    b.apply_impulse(impulse, &row.arm_b);
}

/// The velocity of B's point relative to A's.
fn relative_velocity(bodies: &[SolverBody], row: &ContactRow) -> Vec3d {
    bodies[row.body_b].velocity_at(&row.arm_b) - bodies[row.body_a].velocity_at(&row.arm_a)
}

/// The friction impulse of one point: the tangent impulse vector clamped
/// to the Coulomb cone of its accumulated normal impulse.
fn friction(bodies: &mut [SolverBody], row: &mut ContactRow) {
    if row.friction <= 0.0 {
        return;
    }
    let dv = relative_velocity(bodies, row);
    let old = row.tangent_impulse;
    let mut new = [0.0; 2];
    for k in 0..2 {
        new[k] = old[k] - row.tangent_mass[k] * dv.dot(&row.tangents[k]);
    }
    // Coulomb cone: the tangent impulse vector is at most mu times the
    // accumulated normal impulse.
    let limit = row.friction * row.normal_impulse;
    // Impulses are far from f64's overflow range, so the plain root is
    // exact enough and much cheaper than `hypot`.
    let length = (new[0] * new[0] + new[1] * new[1]).sqrt();
    if length > limit {
        let scale = if length > 0.0 { limit / length } else { 0.0 };
        new = new.map(|x| x * scale);
    }
    let impulse = row.tangents[0] * (new[0] - old[0]) + row.tangents[1] * (new[1] - old[1]);
    row.tangent_impulse = new;
    apply(bodies, row, &impulse);
}

/// The normal impulse towards the normal relative velocity `target` (m/s),
/// keeping the accumulated impulse non-negative.
fn normal(bodies: &mut [SolverBody], row: &mut ContactRow, target: f64) {
    let vn = relative_velocity(bodies, row).dot(&row.normal);
    let new = (row.normal_impulse + row.normal_mass * (target - vn)).max(0.0);
    let delta = new - row.normal_impulse;
    row.normal_impulse = new;
    row.max_normal_impulse = row.max_normal_impulse.max(new);
    apply(bodies, row, &(row.normal * delta));
}

fn split(bodies: &mut [SolverBody], row: &mut ContactRow, target: f64) {
    let vn = (bodies[row.body_b].split_velocity_at(&row.arm_b)
        - bodies[row.body_a].split_velocity_at(&row.arm_a))
    .dot(&row.normal);
    let new = (row.split_impulse + row.normal_mass * (target - vn)).max(0.0);
    let delta = new - row.split_impulse;
    row.split_impulse = new;
    let impulse = row.normal * delta;
    let (a, b) = pair(bodies, row.body_a, row.body_b);
    a.apply_split_impulse(&-impulse, &row.arm_a);
    b.apply_split_impulse(&impulse, &row.arm_b);
}

/// Solves the contact points `contacts`, in the given order, for a step of
/// `dt` seconds in `scheme`, changing the velocities and split velocities
/// of `bodies`; returns what each point applied, in input order.
///
/// A point whose two bodies are the same, or whose bodies cannot move
/// (zero effective mass), applies nothing. A non-positive or non-finite
/// `dt` applies nothing (the world validates `dt` before it calls this).
pub fn solve_contacts(
    bodies: &mut [SolverBody],
    contacts: &[ContactPointInput],
    dt: f64,
    scheme: SolveScheme,
) -> Vec<ContactImpulse> {
    let rows: Vec<ContactRow> = contacts
        .iter()
        .map(|c| ContactRow::prepare(c, bodies))
        .collect();
    match scheme {
        SolveScheme::Substeps => solve_substeps(bodies, rows, dt),
        SolveScheme::Iterations => solve_iterations(bodies, rows, dt),
    }
}

/// [`solve_contacts`] in [`SolveScheme::Iterations`].
fn solve_iterations(
    bodies: &mut [SolverBody],
    mut rows: Vec<ContactRow>,
    dt: f64,
) -> Vec<ContactImpulse> {
    let valid_step = dt.is_finite() && dt > 0.0;
    let active = |row: &ContactRow| valid_step && row.body_a != row.body_b && row.normal_mass > 0.0;
    // Speculative target: a point may close during the step until it
    // reaches the resting depth (its gap plus that depth for a separated
    // point); one at or beyond it may not close. Together with the split
    // correction of the points beyond it, every resting point settles at
    // that one depth, so a box lies level whatever depths its corners
    // landed at.
    let targets: Vec<f64> = rows
        .iter()
        .map(|r| -(RESTING_DEPTH - r.depth).max(0.0) / dt)
        .collect();
    // Warm start: last step's accumulated impulses, applied once; the
    // iterations then correct them (the clamps still hold on the totals).
    for row in rows.iter_mut() {
        if active(row) {
            let friction_limit = row.friction * row.normal_impulse;
            let length = (row.tangent_impulse[0].powi(2) + row.tangent_impulse[1].powi(2)).sqrt();
            if length > friction_limit {
                let scale = if length > 0.0 {
                    friction_limit / length
                } else {
                    0.0
                };
                row.tangent_impulse = row.tangent_impulse.map(|x| x * scale);
            }
            let impulse = row.normal * row.normal_impulse
                + row.tangents[0] * row.tangent_impulse[0]
                + row.tangents[1] * row.tangent_impulse[1];
            apply(bodies, row, &impulse);
        } else {
            row.normal_impulse = 0.0;
            row.tangent_impulse = [0.0; 2];
        }
    }
    for _ in 0..VELOCITY_ITERATIONS {
        for (row, &target) in rows.iter_mut().zip(&targets) {
            if active(row) {
                friction(bodies, row);
                normal(bodies, row, target);
            }
        }
    }
    // Restitution (Box2D v3 `b2ApplyRestitution`): only points that took an
    // impulse, and that closed faster than the bounce threshold.
    for row in rows.iter_mut() {
        if active(row)
            && row.restitution > 0.0
            && row.closing_velocity < -row.bounce_threshold
            && row.max_normal_impulse > 0.0
        {
            normal(bodies, row, -row.restitution * row.closing_velocity);
        }
    }
    for _ in 0..SPLIT_ITERATIONS {
        for row in rows.iter_mut() {
            if active(row) && row.depth > RESTING_DEPTH {
                let target = BAUMGARTE_FACTOR * (row.depth - RESTING_DEPTH) / dt;
                split(bodies, row, target);
            }
        }
    }
    rows.iter()
        .map(|r| {
            let tangent =
                r.tangents[0] * r.tangent_impulse[0] + r.tangents[1] * r.tangent_impulse[1];
            ContactImpulse {
                normal_impulse: r.normal_impulse,
                tangent_impulse: tangent,
                warm_normal_impulse: r.normal_impulse,
                warm_tangent_impulse: tangent,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::RigidBody;
    use parapet_geometry::{Material, Shape};
    use parapet_math::Vec3;

    fn ball(velocity: Vec3) -> SolverBody {
        SolverBody::of(
            &RigidBody::new_dynamic(Shape::sphere(0.5).unwrap(), 2.0)
                .unwrap()
                .with_position(Vec3::new(0.0, 0.0, 0.5))
                .with_linear_velocity(velocity),
        )
    }

    fn floor_contact(depth: f32) -> ContactPointInput {
        // Body 0 is the floor (A), body 1 the ball (B): the normal points up.
        ContactPointInput {
            body_a: 0,
            body_b: 1,
            point: Vec3::new(0.0, 0.0, -depth / 2.0),
            normal: Vec3::z(),
            depth,
            material: Material::new(0.0, 0.0, 0.5).unwrap(),
            warm_normal_impulse: 0.0,
            warm_tangent_impulse: Vec3::zeros(),
        }
    }

    fn solve(bodies: &mut [SolverBody], depth: f32) -> Vec<ContactImpulse> {
        solve_contacts(
            bodies,
            &[floor_contact(depth)],
            0.01,
            SolveScheme::Iterations,
        )
    }

    #[test]
    fn iterations_let_a_speculative_point_close_exactly_its_gap_in_the_step() {
        // Gap 1 cm, dt 0.01 s: the ball keeps -1 m/s and lands at the step's
        // end (its split velocity stays zero).
        let mut fast = vec![
            SolverBody::immovable(Vec3d::zeros()),
            ball(Vec3::new(0.0, 0.0, -3.0)),
        ];
        solve(&mut fast, -0.01);
        // The gap is the f32 depth 0.01 (relative rounding 6e-8): 1e-6 m/s.
        assert!((fast[1].linear_velocity.z + 1.0).abs() < 1e-6);
        assert_eq!(fast[1].split_linear_velocity, Vec3d::zeros());
    }

    #[test]
    fn iterations_stop_an_impact_and_split_correct_an_overlap() {
        let mut bodies = vec![
            SolverBody::immovable(Vec3d::zeros()),
            ball(Vec3::new(0.0, 0.0, -3.0)),
        ];
        let out = solve(&mut bodies, 0.1);
        assert!(bodies[1].linear_velocity.z.abs() < 1e-12);
        // Impulse = m |v| = 6 N s on the ball, along +z.
        assert!((out[0].normal_impulse - 6.0).abs() < 1e-12);
        // Split velocity = 0.2 * (0.1 - 0) / 0.01 = 2 m/s upwards; the
        // depth is the f32 value of 0.1 (relative rounding 6e-8): 1e-6 m/s.
        assert!((bodies[1].split_linear_velocity.z - 2.0).abs() < 1e-6);
    }
}
