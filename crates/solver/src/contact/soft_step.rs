//! The substepped soft solve (Box2D v3's "soft step", Catto's
//! "Solver2D", 2024; `solver.c` and `contact_solver.c`): in each of
//! [`SUBSTEPS`] substeps a share of the step's gravity, the warm start, one
//! pass over the points with the soft bias towards the resting depth, the
//! bodies moved (the points' separations follow), and one relaxing pass
//! without the bias; then restitution, and the split velocities that carry
//! the substeps' displacement to the pose update. See the module
//! documentation of [`crate::contact`].
//!
//! Precision domain: `f64` impulses and displacements; the points are
//! solved in the given order, so the result is deterministic for a given
//! input order.

use parapet_math::nalgebra::Rotation3;
use parapet_math::{Mat3d, Vec3d};

use super::row::ContactImpulse;
use super::solver_body::pair;
use super::tolerances::{
    CONTACT_DAMPING_RATIO, CONTACT_HERTZ, MAX_PUSH_SPEED, RESTING_DEPTH, SUBSTEPS,
};
use super::{ContactRow, SolverBody};

/// The soft constraint of a contact for a substep of `h` seconds (Box2D v3
/// `b2MakeSoft`): the bias rate (1/s), the mass scale and the impulse
/// scale of a spring of [`CONTACT_HERTZ`] and [`CONTACT_DAMPING_RATIO`].
#[derive(Debug, Clone, Copy)]
struct Soft {
    bias_rate: f64,
    mass_scale: f64,
    impulse_scale: f64,
}

impl Soft {
    fn new(h: f64) -> Soft {
        // Stiffer than a quarter of the substep rate rings (Box2D's rule).
        let hertz = CONTACT_HERTZ.min(0.25 / h);
        let omega = 2.0 * std::f64::consts::PI * hertz;
        let a1 = 2.0 * CONTACT_DAMPING_RATIO + h * omega;
        let a2 = h * omega * a1;
        let a3 = 1.0 / (1.0 + a2);
        Soft {
            bias_rate: omega / a1,
            mass_scale: a2 * a3,
            impulse_scale: a3,
        }
    }
}

/// One direction `d` of a contact row as the substeps use it: the lever
/// arms crossed with it, and those turned by each body's inverse tensor, so
/// that a velocity along it and an impulse along it cost a few dot products
/// (the Jacobian form of Catto 2009 and Box2D).
#[derive(Clone, Copy, Debug)]
struct Jacobian {
    d: Vec3d,
    /// `r_A x d` and `r_B x d`.
    ca: Vec3d,
    cb: Vec3d,
    /// `I_A^-1 (r_A x d)` and `I_B^-1 (r_B x d)`.
    ia: Vec3d,
    ib: Vec3d,
}

impl Jacobian {
    fn new(d: Vec3d, row: &ContactRow, bodies: &[SolverBody]) -> Jacobian {
        let (a, b) = (&bodies[row.body_a], &bodies[row.body_b]);
        let ca = row.arm_a.cross(&d);
        let cb = row.arm_b.cross(&d);
        Jacobian {
            d,
            ca,
            cb,
            ia: a.world_inverse_inertia * ca,
            ib: b.world_inverse_inertia * cb,
        }
    }

    /// The velocity of B's point relative to A's along `d` (m/s).
    fn velocity(&self, a: &SolverBody, b: &SolverBody) -> f64 {
        self.d.dot(&(b.linear_velocity - a.linear_velocity)) + self.cb.dot(&b.angular_velocity)
            - self.ca.dot(&a.angular_velocity)
    }

    /// The displacement of B's point relative to A's along `d` during the
    /// substeps so far (m), the turns taken to first order.
    fn displacement(&self, a: &SolverBody, b: &SolverBody) -> f64 {
        self.d.dot(&(b.moved - a.moved)) + self.cb.dot(&b.turned) - self.ca.dot(&a.turned)
    }
}

/// A row's three directions: its normal and its two tangents.
#[derive(Clone, Copy, Debug)]
struct Jacobians {
    normal: Jacobian,
    tangents: [Jacobian; 2],
}

impl Jacobians {
    fn new(row: &ContactRow, bodies: &[SolverBody]) -> Jacobians {
        Jacobians {
            normal: Jacobian::new(row.normal, row, bodies),
            tangents: row.tangents.map(|t| Jacobian::new(t, row, bodies)),
        }
    }

    /// The impulse responses again, from the bodies' inverse tensors as
    /// they have turned (`integrate_positions`).
    fn turn_with(&mut self, row: &ContactRow, bodies: &[SolverBody]) {
        let (a, b) = (&bodies[row.body_a], &bodies[row.body_b]);
        for j in std::iter::once(&mut self.normal).chain(self.tangents.iter_mut()) {
            j.ia = a.world_inverse_inertia * j.ca;
            j.ib = b.world_inverse_inertia * j.cb;
        }
    }
}

/// Applies the impulse `l` (N s) along `j` to B and its negative to A;
/// nothing to a kinematic or static body.
#[inline]
fn push(a: &mut SolverBody, b: &mut SolverBody, j: &Jacobian, l: f64) {
    if a.inverse_mass > 0.0 {
        a.linear_velocity -= j.d * (l * a.inverse_mass);
        a.angular_velocity -= j.ia * l;
    }
    if b.inverse_mass > 0.0 {
        b.linear_velocity += j.d * (l * b.inverse_mass);
        b.angular_velocity += j.ib * l;
    }
}

/// The normal impulse of one point in a substep of `h` seconds: with the
/// soft bias towards the resting depth when `soft` is given (the biased
/// solve), without it otherwise (the relaxing solve); a point short of the
/// resting depth may close by its separation in the substep (speculative).
#[inline]
fn normal(
    a: &mut SolverBody,
    b: &mut SolverBody,
    row: &mut ContactRow,
    j: &Jacobians,
    h: f64,
    soft: Option<&Soft>,
) {
    let s = RESTING_DEPTH - row.depth + j.normal.displacement(a, b);
    let (bias, mass_scale, impulse_scale) = match soft {
        _ if s > 0.0 => (s / h, 1.0, 0.0),
        Some(soft) => (
            (soft.bias_rate * s).max(-MAX_PUSH_SPEED),
            soft.mass_scale,
            soft.impulse_scale,
        ),
        None => (0.0, 1.0, 0.0),
    };
    let vn = j.normal.velocity(a, b);
    let delta = -row.normal_mass * mass_scale * (vn + bias) - impulse_scale * row.normal_impulse;
    let new = (row.normal_impulse + delta).max(0.0);
    let applied = new - row.normal_impulse;
    row.normal_impulse = new;
    row.max_normal_impulse = row.max_normal_impulse.max(new);
    push(a, b, &j.normal, applied);
}

/// The friction impulse of one point: the tangent impulse vector clamped
/// to the Coulomb cone of its normal impulse.
#[inline]
fn friction(a: &mut SolverBody, b: &mut SolverBody, row: &mut ContactRow, j: &Jacobians) {
    if row.friction <= 0.0 {
        return;
    }
    let old = row.tangent_impulse;
    let mut new = [0.0; 2];
    for k in 0..2 {
        new[k] = old[k] - row.tangent_mass[k] * j.tangents[k].velocity(a, b);
    }
    let limit = row.friction * row.normal_impulse;
    // Impulses are far from f64's overflow range, so the plain root is
    // exact enough and much cheaper than `hypot`.
    let length = (new[0] * new[0] + new[1] * new[1]).sqrt();
    if length > limit {
        let scale = if length > 0.0 { limit / length } else { 0.0 };
        new = new.map(|x| x * scale);
    }
    row.tangent_impulse = new;
    push(a, b, &j.tangents[0], new[0] - old[0]);
    push(a, b, &j.tangents[1], new[1] - old[1]);
}

/// One pass over the active points: each point's normal impulse, then its
/// friction, the pair of bodies looked up once.
fn solve_pass(
    bodies: &mut [SolverBody],
    rows: &mut [ContactRow],
    jacobians: &[Jacobians],
    active: &[bool],
    h: f64,
    soft: Option<&Soft>,
) {
    for ((row, j), _) in rows
        .iter_mut()
        .zip(jacobians)
        .zip(active)
        .filter(|(_, &on)| on)
    {
        let (a, b) = pair(bodies, row.body_a, row.body_b);
        normal(a, b, row, j, h, soft);
        friction(a, b, row, j);
    }
}

/// The warm start of a substep: every active point's current impulses
/// applied again (they persist from substep to substep and step to step),
/// the tangent part clamped to the cone of the normal part.
fn warm_start(
    bodies: &mut [SolverBody],
    rows: &mut [ContactRow],
    jacobians: &[Jacobians],
    active: &[bool],
) {
    for ((row, j), _) in rows
        .iter_mut()
        .zip(jacobians)
        .zip(active)
        .filter(|(_, &on)| on)
    {
        let limit = row.friction * row.normal_impulse;
        let [t0, t1] = row.tangent_impulse;
        let length = (t0 * t0 + t1 * t1).sqrt();
        if length > limit {
            let scale = if length > 0.0 { limit / length } else { 0.0 };
            row.tangent_impulse = row.tangent_impulse.map(|x| x * scale);
        }
        let (a, b) = pair(bodies, row.body_a, row.body_b);
        push(a, b, &j.normal, row.normal_impulse);
        push(a, b, &j.tangents[0], row.tangent_impulse[0]);
        push(a, b, &j.tangents[1], row.tangent_impulse[1]);
    }
}

/// Moves every body by its velocity for `h` seconds (the substeps'
/// displacement, kept for the separations and the pose update).
fn integrate_positions(bodies: &mut [SolverBody], turning: &[bool], h: f64) {
    for (b, &turns) in bodies.iter_mut().zip(turning) {
        b.moved += b.linear_velocity * h;
        b.turned += b.angular_velocity * h;
        // The world inverse tensor turns with the body, so that the next
        // substep's impulses meet the body as it now lies: a rod spinning
        // flat at 20 rad/s turns 4 degrees per substep, and its tensor of
        // the step's start would send part of each end's torque about its
        // old long axis (its smallest inertia), a wobble that grows.
        let spin = b.angular_velocity * h;
        if turns && spin != Vec3d::zeros() {
            let r = Rotation3::from_scaled_axis(spin).into_inner();
            b.world_inverse_inertia = r * b.world_inverse_inertia * r.transpose();
        }
    }
}

/// Whether the inverse tensor `m` changes when its body turns: not for a
/// multiple of the identity (a sphere, a cube, a locked body's zero).
fn tensor_turns(m: &Mat3d) -> bool {
    *m != Mat3d::identity() * m[(0, 0)]
}

/// [`super::solve_contacts`]: `rows`
/// prepared, their warm starts per step.
pub(super) fn solve_substeps(
    bodies: &mut [SolverBody],
    mut rows: Vec<ContactRow>,
    dt: f64,
) -> Vec<ContactImpulse> {
    let valid_step = dt.is_finite() && dt > 0.0;
    let n = SUBSTEPS as f64;
    let active: Vec<bool> = rows
        .iter()
        .map(|row| valid_step && row.body_a != row.body_b && row.normal_mass > 0.0)
        .collect();
    let mut jacobians: Vec<Jacobians> = rows.iter().map(|r| Jacobians::new(r, bodies)).collect();
    let turning: Vec<bool> = bodies
        .iter()
        .map(|b| tensor_turns(&b.world_inverse_inertia))
        .collect();
    for (row, &on) in rows.iter_mut().zip(&active) {
        if on {
            // The warm start is an impulse per step; each substep carries
            // its share.
            row.normal_impulse /= n;
            row.tangent_impulse = row.tangent_impulse.map(|x| x / n);
        } else {
            row.normal_impulse = 0.0;
            row.tangent_impulse = [0.0; 2];
        }
    }
    if valid_step {
        let h = dt / n;
        let soft = Soft::new(h);
        for b in bodies.iter_mut() {
            b.linear_velocity -= b.external_velocity;
        }
        for _ in 0..SUBSTEPS {
            for b in bodies.iter_mut() {
                b.linear_velocity += b.external_velocity / n;
            }
            warm_start(bodies, &mut rows, &jacobians, &active);
            solve_pass(bodies, &mut rows, &jacobians, &active, h, Some(&soft));
            integrate_positions(bodies, &turning, h);
            for ((j, row), _) in jacobians
                .iter_mut()
                .zip(&rows)
                .zip(&active)
                .filter(|((_, r), &on)| on && (turning[r.body_a] || turning[r.body_b]))
            {
                j.turn_with(row, bodies);
            }
            solve_pass(bodies, &mut rows, &jacobians, &active, h, None);
            for (row, _) in rows.iter_mut().zip(&active).filter(|(_, &on)| on) {
                row.total_normal_impulse += row.normal_impulse;
                row.total_tangent_impulse[0] += row.tangent_impulse[0];
                row.total_tangent_impulse[1] += row.tangent_impulse[1];
            }
        }
    }
    // Restitution (Box2D v3 `b2ApplyRestitution`): only points that took an
    // impulse, and that closed faster than the bounce threshold.
    for ((row, j), _) in rows
        .iter_mut()
        .zip(&jacobians)
        .zip(&active)
        .filter(|(_, &on)| on)
    {
        if row.restitution > 0.0
            && row.closing_velocity < -row.bounce_threshold
            && row.max_normal_impulse > 0.0
        {
            let vn = j.normal.velocity(&bodies[row.body_a], &bodies[row.body_b]);
            let target = -row.restitution * row.closing_velocity;
            let new = (row.normal_impulse + row.normal_mass * (target - vn)).max(0.0);
            let applied = new - row.normal_impulse;
            row.normal_impulse = new;
            row.total_normal_impulse += applied;
            let (a, b) = pair(bodies, row.body_a, row.body_b);
            push(a, b, &j.normal, applied);
        }
    }
    if valid_step {
        // The substeps moved each body by `moved` and turned it by
        // `turned`; the pose update moves it by its velocity plus the split
        // velocity over the step, so the split velocity carries the rest.
        for b in bodies.iter_mut() {
            if b.inverse_mass > 0.0 {
                b.split_linear_velocity += b.moved / dt - b.linear_velocity;
                b.split_angular_velocity += b.turned / dt - b.angular_velocity;
            }
        }
    }
    rows.iter()
        .map(|r| ContactImpulse {
            normal_impulse: r.total_normal_impulse,
            tangent_impulse: r.tangents[0] * r.total_tangent_impulse[0]
                + r.tangents[1] * r.total_tangent_impulse[1],
            warm_normal_impulse: r.normal_impulse * n,
            warm_tangent_impulse: (r.tangents[0] * r.tangent_impulse[0]
                + r.tangents[1] * r.tangent_impulse[1])
                * n,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contact::{solve_contacts, ContactPointInput};
    use crate::RigidBody;
    use parapet_geometry::{Material, Shape};
    use parapet_math::Vec3;

    fn solve(
        bodies: &mut [SolverBody],
        contacts: &[ContactPointInput],
        dt: f64,
    ) -> Vec<ContactImpulse> {
        solve_contacts(bodies, contacts, dt)
    }

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
        let out = solve(&mut bodies, &[floor_contact(RESTING, m)], 0.01);
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
        solve(&mut fast, &[floor_contact(RESTING, m)], 0.01);
        assert!((fast[1].linear_velocity.z - 2.0).abs() < 1e-12);
        let mut slow = vec![
            SolverBody::immovable(Vec3d::zeros()),
            ball(Vec3::new(0.0, 0.0, -0.9)),
        ];
        solve(&mut slow, &[floor_contact(RESTING, m)], 0.01);
        assert!(slow[1].linear_velocity.z.abs() < 1e-12);
    }

    #[test]
    fn a_speculative_point_lets_the_body_close_its_gap_only() {
        let m = Material::default();
        // Gap 1 cm to the resting depth (the surface), dt 0.01 s.
        let mut slow = vec![
            SolverBody::immovable(Vec3d::zeros()),
            ball(Vec3::new(0.0, 0.0, -0.5)),
        ];
        let out = solve(&mut slow, &[floor_contact(-0.01, m)], 0.01);
        // 5 mm in the step: short of the surface, nothing applied.
        assert_eq!(out[0].normal_impulse, 0.0);
        assert_eq!(slow[1].linear_velocity.z, -0.5);
        let mut fast = vec![
            SolverBody::immovable(Vec3d::zeros()),
            ball(Vec3::new(0.0, 0.0, -3.0)),
        ];
        solve(&mut fast, &[floor_contact(-0.01, m)], 0.01);
        // 3 cm in the step: the ball stops on the surface within the step,
        // having moved by its gap; the split velocity carries that move.
        assert!(fast[1].linear_velocity.z.abs() < 1e-9);
        let moved = (fast[1].linear_velocity.z + fast[1].split_linear_velocity.z) * 0.01;
        // The gap is the f32 depth 0.01 (relative rounding 6e-8): 1e-8 m.
        assert!((moved + 0.01).abs() < 1e-8, "{moved}");
    }

    #[test]
    fn an_overlapping_point_does_not_close_and_is_pushed_back_to_the_resting_depth() {
        let m = Material::default();
        let mut bodies = vec![
            SolverBody::immovable(Vec3d::zeros()),
            ball(Vec3::new(0.0, 0.0, -1.0)),
        ];
        solve(
            &mut bodies,
            &[floor_contact(RESTING_DEPTH as f32 + 0.002, m)],
            0.01,
        );
        // No velocity left along the normal; the pose moves out (the split
        // velocity), by a fraction of the 2 mm overlap.
        assert!(bodies[1].linear_velocity.z.abs() < 1e-9);
        let out = bodies[1].split_linear_velocity.z * 0.01;
        assert!(out > 0.0 && out < 0.002, "{out}");
    }

    #[test]
    fn friction_is_bounded_by_the_coulomb_cone() {
        let m = Material::new(0.25, 0.0, 0.5).unwrap();
        let mut bodies = vec![
            SolverBody::immovable(Vec3d::zeros()),
            ball(Vec3::new(5.0, 0.0, -2.0)),
        ];
        bodies[1].world_inverse_inertia = parapet_math::Mat3d::zeros();
        let out = solve(&mut bodies, &[floor_contact(RESTING, m)], 0.01);
        // Normal impulse 4 N s; friction at most 0.25 * 4 = 1 N s, so the
        // ball (2 kg) loses 0.5 m/s of its 5 m/s slide.
        assert!((out[0].normal_impulse - 4.0).abs() < 1e-12);
        assert!((bodies[1].linear_velocity.x - 4.5).abs() < 1e-12);
        assert!((out[0].tangent_impulse.norm() - 1.0).abs() < 1e-12);
    }

    #[test]
    fn the_push_out_moves_the_pose_only_and_no_faster_than_the_limit() {
        let m = Material::default();
        let mut bodies = vec![SolverBody::immovable(Vec3d::zeros()), ball(Vec3::zeros())];
        solve(&mut bodies, &[floor_contact(0.1, m)], 0.01);
        assert!(bodies[1].linear_velocity.norm() < 1e-9);
        // A 10 cm overlap: pushed out at the limit speed, 3 m/s.
        let push = bodies[1].split_linear_velocity.z;
        assert!(push > 0.0 && push <= MAX_PUSH_SPEED + 1e-9, "{push}");
    }
}
