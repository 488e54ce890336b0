//! Tests of [`super::respond_contacts`]: the conservation laws and the
//! complementarity of one event, on analytic cases and random events.

use super::*;
use parapet_math::Mat3d;

/// A deterministic generator for the tests (Knuth's MMIX constants).
struct Lcg(u64);

impl Lcg {
    fn unit(&mut self) -> f64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }
    fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.unit()
    }
    fn vec(&mut self, scale: f64) -> Vec3d {
        Vec3d::new(
            self.range(-scale, scale),
            self.range(-scale, scale),
            self.range(-scale, scale),
        )
    }
}

fn material(friction: f32, restitution: f32) -> Material {
    Material {
        friction,
        restitution,
        bounce_threshold: 0.0,
    }
}

fn body(inverse_mass: f64, inverse_inertia: Mat3d, velocity: Vec3d, spin: Vec3d) -> ImpactBody {
    ImpactBody {
        mass: ImpactMass {
            inverse_mass,
            inverse_inertia,
        },
        velocity,
        spin,
    }
}

/// A random symmetric positive definite inverse tensor `R D Rᵀ`.
fn tensor(rng: &mut Lcg) -> Mat3d {
    let q = parapet_math::Quatd::from_scaled_axis(rng.vec(3.0));
    let r = q.to_rotation_matrix().into_inner();
    let d = Mat3d::from_diagonal(&Vec3d::new(
        rng.range(0.2, 5.0),
        rng.range(0.2, 5.0),
        rng.range(0.2, 5.0),
    ));
    r * d * r.transpose()
}

/// Kinetic energy with the inverse tensors (J).
fn energy(bodies: &[ImpactBody], velocities: &[(Vec3d, Vec3d)]) -> f64 {
    bodies
        .iter()
        .zip(velocities)
        .filter(|(b, _)| b.mass.inverse_mass > 0.0)
        .map(|(b, (v, w))| {
            let inertia = b
                .mass
                .inverse_inertia
                .try_inverse()
                .unwrap_or(Mat3d::zeros());
            0.5 * v.norm_squared() / b.mass.inverse_mass + 0.5 * w.dot(&(inertia * w))
        })
        .sum()
}

/// Total linear and angular momentum (about the origin) of the bodies at
/// `centres` (N s, N m s).
fn momentum(
    bodies: &[ImpactBody],
    velocities: &[(Vec3d, Vec3d)],
    centres: &[Vec3d],
) -> (Vec3d, Vec3d) {
    let mut p = Vec3d::zeros();
    let mut l = Vec3d::zeros();
    for ((b, (v, w)), c) in bodies.iter().zip(velocities).zip(centres) {
        let m = 1.0 / b.mass.inverse_mass;
        let inertia = b.mass.inverse_inertia.try_inverse().unwrap();
        p += v * m;
        l += c.cross(&(v * m)) + inertia * w;
    }
    (p, l)
}

/// Two equal spheres head-on, elastic: they exchange velocities; plastic:
/// they end at the common velocity. Within 1e-7 m/s: the compression's
/// regularization ([`COMPRESSION_REGULARIZATION`], 1e-8 relative) scales
/// the impulse by `1 / (1 + 1e-8)`, 8e-8 m/s of the 8 m/s closing speed.
#[test]
fn equal_spheres_exchange_velocities_when_elastic_and_stick_when_plastic() {
    for (e, expected_a, expected_b) in [(1.0f32, -3.0, 5.0), (0.0, 1.0, 1.0)] {
        let bodies = [
            body(
                1.0,
                Mat3d::identity() * 2.5,
                Vec3d::new(5.0, 0.0, 0.0),
                Vec3d::zeros(),
            ),
            body(
                1.0,
                Mat3d::identity() * 2.5,
                Vec3d::new(-3.0, 0.0, 0.0),
                Vec3d::zeros(),
            ),
        ];
        // A at x = -0.5 and B at x = +0.5, touching at the origin; the
        // normal runs from B towards A (-x).
        let contact = ImpactContact {
            a: 0,
            b: Some(1),
            arm_a: Vec3d::new(0.5, 0.0, 0.0),
            arm_b: Vec3d::new(-0.5, 0.0, 0.0),
            normal: Vec3d::new(-1.0, 0.0, 0.0),
            material: material(0.5, e),
            separation: 0.0,
            leave: 0.0,
            allowed_closing: 0.0,
        };
        let r = respond_contacts(&bodies, &[contact], 0.0).unwrap().unwrap();
        assert!((r.velocities[0].0.x - expected_a).abs() < 1e-7, "{r:?}");
        assert!((r.velocities[1].0.x - expected_b).abs() < 1e-7, "{r:?}");
        assert!(r.velocities[0].1.norm() < 1e-12 && r.velocities[1].1.norm() < 1e-12);
    }
}

/// A body that takes no impulse (kinematic) keeps its velocity; the
/// dynamic body bounces off it as off a wall moving at that velocity.
#[test]
fn a_kinematic_side_keeps_its_velocity() {
    let bodies = [
        body(
            1.0,
            Mat3d::identity(),
            Vec3d::new(0.0, 0.0, -2.0),
            Vec3d::zeros(),
        ),
        body(
            0.0,
            Mat3d::zeros(),
            Vec3d::new(0.0, 0.0, 3.0),
            Vec3d::zeros(),
        ),
    ];
    let contact = ImpactContact {
        a: 0,
        b: Some(1),
        arm_a: Vec3d::new(0.0, 0.0, -0.5),
        arm_b: Vec3d::new(0.0, 0.0, 0.5),
        normal: Vec3d::z(),
        material: material(0.0, 1.0),
        separation: 0.0,
        leave: 0.0,
        allowed_closing: 0.0,
    };
    let r = respond_contacts(&bodies, &[contact], 0.0).unwrap().unwrap();
    // Closing at 5 m/s, leaving at 5 m/s: 3 + 5 = 8 m/s (within the
    // regularization's 1e-8 relative of the 10 N s impulse).
    assert!((r.velocities[0].0.z - 8.0).abs() < 1e-7, "{r:?}");
    assert_eq!(r.velocities[1], (bodies[1].velocity, bodies[1].spin));
}

/// A unit cube landing flat on its four bottom corners: the fall stops,
/// no spin starts, and the corners share the impulse alike.
#[test]
fn a_box_landing_flat_stops_without_spin() {
    let bodies = [body(
        1.0,
        Mat3d::identity() * 6.0,
        Vec3d::new(0.0, 0.0, -2.0),
        Vec3d::zeros(),
    )];
    let contacts: Vec<ImpactContact> = [(1.0, 1.0), (-1.0, 1.0), (-1.0, -1.0), (1.0, -1.0)]
        .iter()
        .map(|&(x, y)| ImpactContact {
            a: 0,
            b: None,
            arm_a: Vec3d::new(0.5 * x, 0.5 * y, -0.5),
            arm_b: Vec3d::zeros(),
            normal: Vec3d::z(),
            material: material(0.5, 0.0),
            separation: 0.0,
            leave: 0.0,
            allowed_closing: 0.0,
        })
        .collect();
    let r = respond_contacts(&bodies, &contacts, 0.0).unwrap().unwrap();
    let (v, w) = r.velocities[0];
    assert!(v.norm() < 1e-9 && w.norm() < 1e-9, "{v} {w}");
    for l in &r.normal_impulses {
        assert!((l - 0.5).abs() < 1e-6, "{:?}", r.normal_impulses);
    }
}

/// Random events of two to five bodies and up to twelve contacts between
/// them (no surfaces; some speculative, some with micro-collision speeds):
/// linear and angular momentum are conserved (relative 1e-9: sums of a few
/// dozen roundings of unit-scale terms), the kinetic energy never grows
/// (relative 1e-9), every contact ends closing no faster than it may (up
/// to 1e-7 of the fastest closing speed: the tolerance plus the
/// regularization's residue) and each friction impulse lies in its cone
/// (relative 1e-9).
#[test]
fn random_events_conserve_momentum_lose_energy_and_open_every_contact() {
    let mut rng = Lcg(0x5eed);
    let mut events = 0;
    for case in 0..4000 {
        let count = 2 + (rng.unit() * 4.0) as usize;
        let centres: Vec<Vec3d> = (0..count).map(|_| rng.vec(3.0)).collect();
        let bodies: Vec<ImpactBody> = (0..count)
            .map(|_| {
                body(
                    rng.range(0.05, 3.0),
                    tensor(&mut rng),
                    rng.vec(5.0),
                    rng.vec(4.0),
                )
            })
            .collect();
        let contacts: Vec<ImpactContact> = (0..1 + (rng.unit() * 12.0) as usize)
            .map(|_| {
                let a = (rng.unit() * count as f64) as usize;
                let b = (a + 1 + (rng.unit() * (count - 1) as f64) as usize) % count;
                let point = rng.vec(3.0);
                ImpactContact {
                    a,
                    b: Some(b),
                    arm_a: point - centres[a],
                    arm_b: point - centres[b],
                    normal: rng.vec(1.0).normalize(),
                    material: material(rng.range(0.0, 1.5) as f32, rng.range(0.0, 1.0) as f32),
                    separation: if rng.unit() < 0.3 {
                        rng.range(0.0, 3.0)
                    } else {
                        0.0
                    },
                    leave: 0.0,
                    allowed_closing: if rng.unit() < 0.3 {
                        rng.range(0.0, 2.0)
                    } else {
                        0.0
                    },
                }
            })
            .collect();
        let Some(r) = respond_contacts(&bodies, &contacts, 0.0).unwrap() else {
            continue;
        };
        events += 1;
        let before: Vec<(Vec3d, Vec3d)> = bodies.iter().map(|b| (b.velocity, b.spin)).collect();
        let (p0, l0) = momentum(&bodies, &before, &centres);
        let (p1, l1) = momentum(&bodies, &r.velocities, &centres);
        let scale = 1.0 + p0.norm() + l0.norm();
        assert!((p1 - p0).norm() <= 1e-9 * scale, "case {case}: {p0} {p1}");
        assert!((l1 - l0).norm() <= 1e-9 * scale, "case {case}: {l0} {l1}");
        let (e0, e1) = (energy(&bodies, &before), energy(&bodies, &r.velocities));
        assert!(e1 <= e0 * (1.0 + 1e-9) + 1e-12, "case {case}: {e0} -> {e1}");
        let fastest = contacts
            .iter()
            .map(|c| {
                let mut u = bodies[c.a].velocity + bodies[c.a].spin.cross(&c.arm_a);
                if let Some(b) = c.b {
                    u -= bodies[b].velocity + bodies[b].spin.cross(&c.arm_b);
                }
                -(c.normal.dot(&u) + c.allowed_closing)
            })
            .fold(0.0f64, f64::max);
        for (i, c) in contacts.iter().enumerate() {
            let (va, wa) = r.velocities[c.a];
            let (vb, wb) = r.velocities[c.b.unwrap()];
            let u = va + wa.cross(&c.arm_a) - vb - wb.cross(&c.arm_b);
            assert!(
                c.normal.dot(&u) + c.allowed_closing >= -1e-7 * fastest,
                "case {case} contact {i}: {} allowed {} fastest {fastest} contacts {}",
                c.normal.dot(&u),
                c.allowed_closing,
                contacts.len()
            );
            let j = r.impulses[i];
            let tangential = (j - c.normal * c.normal.dot(&j)).norm();
            let cone = c.material.friction as f64 * r.normal_impulses[i];
            assert!(
                tangential <= cone * (1.0 + 1e-9) + 1e-12,
                "case {case} contact {i}"
            );
        }
    }
    assert!(
        events > 2000,
        "{events} events: the cases must mostly close"
    );
}

/// More contacts than an event solves are refused, naming the limit.
#[test]
fn too_many_contacts_are_refused() {
    let bodies = [body(1.0, Mat3d::identity(), -Vec3d::z(), Vec3d::zeros())];
    let c = ImpactContact {
        a: 0,
        b: None,
        arm_a: Vec3d::zeros(),
        arm_b: Vec3d::zeros(),
        normal: Vec3d::z(),
        material: material(0.0, 0.0),
        separation: 0.0,
        leave: 0.0,
        allowed_closing: 0.0,
    };
    let contacts = vec![c; MAX_EVENT_CONTACTS + 1];
    assert_eq!(
        respond_contacts(&bodies, &contacts, 0.0),
        Err(ImpactError::TooManyContacts {
            contacts: MAX_EVENT_CONTACTS + 1,
            limit: MAX_EVENT_CONTACTS
        })
    );
}

/// A frictionless, plastic contact of body 0 on a floor below it (arm
/// 0.5 m down, normal up), with a separation speed and a leaving speed.
fn floor_contact(separation: f64, leave: f64) -> ImpactContact {
    ImpactContact {
        a: 0,
        b: None,
        arm_a: Vec3d::new(0.0, 0.0, -0.5),
        arm_b: Vec3d::zeros(),
        normal: Vec3d::z(),
        material: material(0.0, 0.0),
        separation,
        leave,
        allowed_closing: 0.0,
    }
}

/// A micro-collision: a plastic contact given a separation speed leaves at
/// that speed when it closed faster, at its own closing speed when it
/// closed slower (never faster than it came: no energy gained).
#[test]
fn a_separation_speed_lifts_a_plastic_contact_but_never_beyond_its_closing() {
    for (closing, separation, leaving) in [(2.0, 0.5, 0.5), (0.3, 0.5, 0.3), (2.0, 0.0, 0.0)] {
        let bodies = [body(
            1.0,
            Mat3d::identity(),
            Vec3d::new(0.0, 0.0, -closing),
            Vec3d::zeros(),
        )];
        let contact = floor_contact(separation, 0.0);
        let r = respond_contacts(&bodies, &[contact], 0.0).unwrap().unwrap();
        // Within the regularization's 1e-8 relative of the impulse.
        assert!(
            (r.velocities[0].0.z - leaving).abs() < 1e-7,
            "{closing} {separation}: {r:?}"
        );
    }
}

/// A pressed contact: given a leaving speed, a plastic contact leaves at
/// it whatever it closed at (slower or faster; plastic without one), and
/// the energy grows by no more than the body's at the leaving speed (a
/// single free body pushed straight off a surface: `½ m leave²`).
#[test]
fn a_pressed_contact_leaves_at_its_leaving_speed_and_gains_at_most_its_energy() {
    for (closing, leave) in [(0.01, 0.2), (0.5, 0.2), (0.01, 0.0)] {
        let mass = 80.0;
        let bodies = [body(
            1.0 / mass,
            Mat3d::identity(),
            Vec3d::new(0.0, 0.0, -closing),
            Vec3d::zeros(),
        )];
        let contact = floor_contact(0.0, leave);
        let allowance = 0.5 * mass * leave * leave * (1.0 + 1e-9);
        let r = respond_contacts(&bodies, &[contact], allowance)
            .unwrap()
            .unwrap();
        let leaving = r.velocities[0].0.z;
        // Plastic (0) or the leaving speed, within the regularization's
        // 1e-8 relative of the impulse.
        assert!((leaving - leave).abs() < 1e-7, "{closing} {leave}: {r:?}");
        let gained = 0.5 * mass * (leaving * leaving - closing * closing);
        assert!(gained <= 0.5 * mass * leave * leave + 1e-12, "{gained}");
    }
}

/// A pressed contact whose leaving speed would add more kinetic energy
/// than the event is allowed leaves plastically instead (at 0), and the
/// response reports the energy it took.
#[test]
fn a_leaving_speed_beyond_the_energy_allowance_is_dropped() {
    let mass = 80.0;
    let bodies = [body(
        1.0 / mass,
        Mat3d::identity(),
        Vec3d::new(0.0, 0.0, -0.01),
        Vec3d::zeros(),
    )];
    let contact = floor_contact(0.0, 0.2);
    // Leaving at 0.2 m/s from 0.01 m/s closing adds 1.596 J; 1 J is allowed.
    let r = respond_contacts(&bodies, &[contact], 1.0).unwrap().unwrap();
    assert!(r.velocities[0].0.z.abs() < 1e-9, "{r:?}");
    let lost = 0.5 * mass * 0.01 * 0.01;
    assert!((r.energy_change + lost).abs() < 1e-9, "{}", r.energy_change);
}

/// The `f32` limits of the retired single-point turning response, on a
/// manifold: a box of 3e38 kg (near `f32::MAX` kg, a mass a body accepts)
/// landing flat at 10 m/s on its four corners needs 7.5e38 N s at each
/// corner, beyond `f32`: the event is refused naming the impulse and its
/// value, instead of reporting infinite impulses.
#[test]
fn a_manifold_impulse_beyond_f32_is_refused() {
    let mass = 3.0e38;
    let bodies = [body(
        1.0 / mass,
        Mat3d::identity() * (6.0 / mass),
        Vec3d::new(0.0, 0.0, -10.0),
        Vec3d::zeros(),
    )];
    let contacts: Vec<ImpactContact> = [(1.0, 1.0), (-1.0, 1.0), (-1.0, -1.0), (1.0, -1.0)]
        .iter()
        .map(|&(x, y)| ImpactContact {
            arm_a: Vec3d::new(0.5 * x, 0.5 * y, -0.5),
            ..floor_contact(0.0, 0.0)
        })
        .collect();
    let r = respond_contacts(&bodies, &contacts, 0.0);
    assert!(
        matches!(
            r,
            Err(ImpactError::NotRepresentable { quantity: "impulse", value })
                if value > f32::MAX as f64
        ),
        "{r:?}"
    );
    // The same box at 1e38 kg needs 2.5e38 N s per corner: within `f32`,
    // answered (the limit is the representation, not the mass).
    let light = [body(
        1.0e-38,
        Mat3d::identity() * 6.0e-38,
        Vec3d::new(0.0, 0.0, -10.0),
        Vec3d::zeros(),
    )];
    let ok = respond_contacts(&light, &contacts, 0.0).unwrap().unwrap();
    assert!(ok.impulses.iter().all(|j| j.z <= f32::MAX as f64), "{ok:?}");
}

/// A new velocity beyond `f32` is refused too: a 0.5 kg ball at rest
/// struck elastically by a kinematic wall moving at 2e38 m/s (a finite
/// `f32` speed) would leave at 4e38 m/s (its impulse, 2e38 N s, fits).
#[test]
fn a_velocity_beyond_f32_is_refused() {
    let bodies = [
        body(2.0, Mat3d::identity(), Vec3d::zeros(), Vec3d::zeros()),
        body(
            0.0,
            Mat3d::zeros(),
            Vec3d::new(0.0, 0.0, 2.0e38),
            Vec3d::zeros(),
        ),
    ];
    let contact = ImpactContact {
        a: 0,
        b: Some(1),
        arm_a: Vec3d::new(0.0, 0.0, -0.5),
        arm_b: Vec3d::zeros(),
        normal: Vec3d::z(),
        material: material(0.0, 1.0),
        separation: 0.0,
        leave: 0.0,
        allowed_closing: 0.0,
    };
    let r = respond_contacts(&bodies, &[contact], 0.0);
    assert!(
        matches!(
            r,
            Err(ImpactError::NotRepresentable { quantity: "linear velocity", value })
                if value > f32::MAX as f64
        ),
        "{r:?}"
    );
}
