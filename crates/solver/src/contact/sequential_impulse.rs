//! The sequential-impulse iterations: friction and speculative normal
//! impulses, the restitution pass and the split (pose-only) correction.
//! See the module documentation of [`crate::contact`] for the method and
//! its sources (Catto 2005 and 2009, Box2D v3 `contact_solver.c`).
//!
//! Precision domain: `f64` accumulated impulses; the points are solved in
//! the given order, so the result is deterministic for a given input order.

use parapet_math::Vec3d;

use super::tolerances::{BAUMGARTE_FACTOR, RESTING_DEPTH, SPLIT_ITERATIONS, VELOCITY_ITERATIONS};
use super::{ContactPointInput, ContactRow, SolverBody};

/// What the solve applied at one contact point.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ContactImpulse {
    /// The accumulated normal impulse (N s, `>= 0`) along the input normal,
    /// applied to body B; body A received its negative.
    pub normal_impulse: f64,
    /// The accumulated friction impulse (N s, world) applied to body B.
    pub tangent_impulse: Vec3d,
    /// The accumulated split (pose-only) normal impulse (N s, `>= 0`).
    pub split_impulse: f64,
}

/// Two distinct mutable bodies of the slice (`a != b`).
fn pair(bodies: &mut [SolverBody], a: usize, b: usize) -> (&mut SolverBody, &mut SolverBody) {
    if a < b {
        let (lo, hi) = bodies.split_at_mut(b);
        (&mut lo[a], &mut hi[0])
    } else {
        let (lo, hi) = bodies.split_at_mut(a);
        (&mut hi[0], &mut lo[b])
    }
}

fn apply(bodies: &mut [SolverBody], row: &ContactRow, impulse: &Vec3d) {
    let (a, b) = pair(bodies, row.body_a, row.body_b);
    a.apply_impulse(&-impulse, &row.arm_a);
    b.apply_impulse(impulse, &row.arm_b);
}

fn relative_velocity(bodies: &[SolverBody], row: &ContactRow) -> Vec3d {
    bodies[row.body_b].velocity_at(&row.arm_b) - bodies[row.body_a].velocity_at(&row.arm_a)
}

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
/// `dt` seconds, changing the velocities and split velocities of `bodies`;
/// returns what each point applied, in input order.
///
/// A point whose two bodies are the same, or whose bodies cannot move
/// (zero effective mass), applies nothing. A non-positive or non-finite
/// `dt` applies nothing (the world validates `dt` before it calls this).
pub fn solve_contacts(
    bodies: &mut [SolverBody],
    contacts: &[ContactPointInput],
    dt: f64,
) -> Vec<ContactImpulse> {
    let valid_step = dt.is_finite() && dt > 0.0;
    let mut rows: Vec<ContactRow> = contacts
        .iter()
        .map(|c| ContactRow::prepare(c, bodies))
        .collect();
    let active = |row: &ContactRow| valid_step && row.body_a != row.body_b && row.normal_mass > 0.0;
    // Speculative target (Box2D v3's `s = separation + linearSlop`): a point
    // may close during the step until it reaches the resting depth
    // (its gap plus that depth for a separated point); one at or beyond it
    // may not close. Together with the split correction of the points
    // beyond it, every resting point settles at that one depth, so a box
    // lies level whatever depths its corners landed at.
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
        .map(|r| ContactImpulse {
            normal_impulse: r.normal_impulse,
            tangent_impulse: r.tangents[0] * r.tangent_impulse[0]
                + r.tangents[1] * r.tangent_impulse[1],
            split_impulse: r.split_impulse,
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

    /// A depth (m) just beyond the resting depth, where a point may not
    /// close at all: the touching contact of these tests.
    const RESTING: f32 = RESTING_DEPTH as f32 + 0.0005;

    fn floor_contact(depth: f32, material: Material) -> ContactPointInput {
        // Body 0 is the floor (A), body 1 the ball (B): the normal points up.
        ContactPointInput {
            body_a: 0,
            body_b: 1,
            point: Vec3::new(0.0, 0.0, -depth / 2.0),
            normal: Vec3::z(),
            depth,
            material,
            warm_normal_impulse: 0.0,
            warm_tangent_impulse: Vec3::zeros(),
        }
    }

    #[test]
    fn a_plastic_impact_stops_the_normal_velocity() {
        let mut bodies = vec![
            SolverBody::immovable(Vec3d::zeros()),
            ball(Vec3::new(0.0, 0.0, -3.0)),
        ];
        let m = Material::new(0.0, 0.0, 0.5).unwrap();
        let out = solve_contacts(&mut bodies, &[floor_contact(RESTING, m)], 0.01);
        assert!(bodies[1].linear_velocity.z.abs() < 1e-12);
        // Impulse = m |v| = 6 N s on the ball, along +z.
        assert!((out[0].normal_impulse - 6.0).abs() < 1e-12);
    }

    #[test]
    fn restitution_reverses_above_the_threshold_only() {
        let m = Material::new(0.0, 0.5, 1.0).unwrap();
        let mut fast = vec![
            SolverBody::immovable(Vec3d::zeros()),
            ball(Vec3::new(0.0, 0.0, -4.0)),
        ];
        solve_contacts(&mut fast, &[floor_contact(RESTING, m)], 0.01);
        assert!((fast[1].linear_velocity.z - 2.0).abs() < 1e-12);
        let mut slow = vec![
            SolverBody::immovable(Vec3d::zeros()),
            ball(Vec3::new(0.0, 0.0, -0.9)),
        ];
        solve_contacts(&mut slow, &[floor_contact(RESTING, m)], 0.01);
        assert!(slow[1].linear_velocity.z.abs() < 1e-12);
    }

    #[test]
    fn a_speculative_point_lets_the_body_close_its_gap_only() {
        let m = Material::default();
        // Gap 1 cm to the resting depth (the surface), dt 0.01 s: closing at
        // up to 1 m/s is allowed.
        let mut slow = vec![
            SolverBody::immovable(Vec3d::zeros()),
            ball(Vec3::new(0.0, 0.0, -0.5)),
        ];
        let out = solve_contacts(&mut slow, &[floor_contact(-0.01, m)], 0.01);
        assert_eq!(out[0].normal_impulse, 0.0);
        assert_eq!(slow[1].linear_velocity.z, -0.5);
        let mut fast = vec![
            SolverBody::immovable(Vec3d::zeros()),
            ball(Vec3::new(0.0, 0.0, -3.0)),
        ];
        solve_contacts(&mut fast, &[floor_contact(-0.01, m)], 0.01);
        // The gap is the f32 depth 0.01 (relative rounding 6e-8): 1e-6 m/s.
        assert!((fast[1].linear_velocity.z + 1.0).abs() < 1e-6);
    }

    #[test]
    fn an_overlapping_point_does_not_close_and_is_pushed_back_to_the_resting_depth() {
        let m = Material::default();
        // Overlap 2 mm beyond the resting depth: no closing at all, and a
        // split push of 0.2 * 0.002 / 0.01 = 0.04 m/s towards it.
        let mut bodies = vec![
            SolverBody::immovable(Vec3d::zeros()),
            ball(Vec3::new(0.0, 0.0, -1.0)),
        ];
        solve_contacts(
            &mut bodies,
            &[floor_contact(RESTING_DEPTH as f32 + 0.002, m)],
            0.01,
        );
        assert!(bodies[1].linear_velocity.z.abs() < 1e-9);
        // The depth is an f32 value (relative rounding 6e-8): 1e-6 m/s.
        assert!((bodies[1].split_linear_velocity.z - 0.04).abs() < 1e-6);
    }

    #[test]
    fn friction_is_bounded_by_the_coulomb_cone() {
        let m = Material::new(0.25, 0.0, 0.5).unwrap();
        let mut bodies = vec![
            SolverBody::immovable(Vec3d::zeros()),
            ball(Vec3::new(5.0, 0.0, -2.0)),
        ];
        bodies[1].world_inverse_inertia = parapet_math::Mat3d::zeros();
        let out = solve_contacts(&mut bodies, &[floor_contact(RESTING, m)], 0.01);
        // Normal impulse 4 N s; friction at most 0.25 * 4 = 1 N s, so the
        // ball (2 kg) loses 0.5 m/s of its 5 m/s slide.
        assert!((out[0].normal_impulse - 4.0).abs() < 1e-12);
        assert!((bodies[1].linear_velocity.x - 4.5).abs() < 1e-12);
        assert!((out[0].tangent_impulse.norm() - 1.0).abs() < 1e-12);
    }

    #[test]
    fn split_correction_moves_the_pose_only() {
        let m = Material::default();
        let mut bodies = vec![SolverBody::immovable(Vec3d::zeros()), ball(Vec3::zeros())];
        let out = solve_contacts(&mut bodies, &[floor_contact(0.1, m)], 0.01);
        assert_eq!(bodies[1].linear_velocity, Vec3d::zeros());
        // Split velocity = 0.2 * (0.1 - 0) / 0.01 = 2 m/s upwards.
        // The depth is the f32 value of 0.1 (relative rounding 6e-8): 1e-6 m/s.
        assert!((bodies[1].split_linear_velocity.z - 2.0).abs() < 1e-6);
        assert!(out[0].split_impulse > 0.0);
    }
}
