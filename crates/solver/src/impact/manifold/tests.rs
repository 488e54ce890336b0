//! Tests of the manifold impact: energy, complementarity and the friction
//! cone on random manifolds; a box landing flat; the single-point case
//! against `respond_turning_point`.

use super::*;
use crate::impact::respond_turning_point;
use parapet_math::Mat3d;

/// A deterministic generator for the tests.
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

    fn vec(&mut self, s: f64) -> Vec3d {
        Vec3d::new(self.range(-s, s), self.range(-s, s), self.range(-s, s))
    }

    fn direction(&mut self) -> Vec3d {
        loop {
            let v = self.vec(1.0);
            let l = v.norm();
            if l > 0.1 && l <= 1.0 {
                return v / l;
            }
        }
    }
}

fn energy(mass: &ImpactMass, v: &Vec3d, w: &Vec3d) -> f64 {
    let inertia = mass.inverse_inertia.try_inverse().unwrap();
    0.5 * v.norm_squared() / mass.inverse_mass + 0.5 * w.dot(&(inertia * w))
}

/// A random symmetric positive-definite inverse tensor `R D Rᵀ`.
fn random_mass(rng: &mut Lcg) -> ImpactMass {
    let d = Vec3d::new(
        rng.range(0.1, 20.0),
        rng.range(0.1, 20.0),
        rng.range(0.1, 20.0),
    );
    let r = parapet_math::Quatd::from_scaled_axis(rng.vec(3.0))
        .to_rotation_matrix()
        .into_inner();
    ImpactMass {
        inverse_mass: rng.range(0.05, 5.0),
        inverse_inertia: r * Mat3d::from_diagonal(&d) * r.transpose(),
    }
}

fn material(rng: &mut Lcg) -> Material {
    Material::new(
        rng.range(0.0, 1.5) as f32,
        rng.range(0.0, 1.0) as f32,
        rng.range(0.0, 1.0) as f32,
    )
    .unwrap()
}

#[test]
fn random_manifolds_add_no_energy_open_every_point_and_keep_the_cone() {
    // Random bodies, 1 to 16 points with random arms, normals and
    // materials (restitution in [0, 1]), random closing motions. Energy
    // measured with the same tensor: at most a relative 1e-12 above the
    // start (a few roundings of the sums); every point's normal velocity
    // at least -2 x the projection's tolerance (MANIFOLD_RELATIVE_TOLERANCE
    // of the fastest closing speed); each tangential impulse within the
    // cone of its normal impulse (relative 1e-9 for the disc's root).
    let mut rng = Lcg(0x6d61_6e69);
    let mut responded = 0;
    for case in 0..20_000 {
        let mass = random_mass(&mut rng);
        let count = 1 + (rng.unit() * 16.0) as usize;
        let up = rng.direction();
        let points: Vec<ManifoldPoint> = (0..count)
            .map(|_| {
                // Normals mostly facing one way (a surface), some any way.
                let normal = if rng.unit() < 0.7 {
                    (up + rng.vec(0.4)).normalize()
                } else {
                    rng.direction()
                };
                ManifoldPoint {
                    arm: rng.vec(1.0) - up * 0.5,
                    normal,
                    material: material(&mut rng),
                }
            })
            .collect();
        let v = rng.vec(10.0) - up * rng.range(0.0, 10.0);
        let w = rng.vec(20.0);
        let Some(r) = respond_manifold(&mass, v, w, &points).unwrap() else {
            continue;
        };
        responded += 1;
        let e0 = energy(&mass, &v, &w);
        let e1 = energy(&mass, &r.linear_velocity, &r.angular_velocity);
        assert!(e1 <= e0 * (1.0 + 1e-12), "case {case}: energy {e0} -> {e1}");
        let fastest = points
            .iter()
            .map(|p| -p.normal.dot(&(v + w.cross(&p.arm))))
            .fold(0.0, f64::max);
        for (i, p) in points.iter().enumerate() {
            let un = p
                .normal
                .dot(&(r.linear_velocity + r.angular_velocity.cross(&p.arm)));
            assert!(
                un >= -2.0 * MANIFOLD_RELATIVE_TOLERANCE * fastest - 1e-12 * fastest,
                "case {case} point {i}: closes at {un}"
            );
            let jn = r.normal_impulses[i];
            assert!(jn >= 0.0);
            let jt = r.impulses[i] - p.normal * jn;
            assert!(
                jt.norm() <= p.material.friction as f64 * jn * (1.0 + 1e-9) + 1e-15,
                "case {case} point {i}: |jt| {} > mu jn {}",
                jt.norm(),
                p.material.friction as f64 * jn
            );
        }
        assert!((0.0..=1.0).contains(&r.restitution));
    }
    assert!(responded > 15_000, "{responded}");
}

fn box_mass() -> ImpactMass {
    // A 1 kg box of half extents (1, 0.5, 0.25): I = m (b² + c²) / 3 etc.
    let (a, b, c) = (1.0f64, 0.5f64, 0.25f64);
    let i = Vec3d::new(b * b + c * c, a * a + c * c, a * a + b * b) / 3.0;
    ImpactMass {
        inverse_mass: 1.0,
        inverse_inertia: Mat3d::from_diagonal(&i.map(|x| 1.0 / x)),
    }
}

fn corners(m: Material) -> Vec<ManifoldPoint> {
    [(1.0, 0.5), (-1.0, 0.5), (-1.0, -0.5), (1.0, -0.5)]
        .iter()
        .map(|&(x, y)| ManifoldPoint {
            arm: Vec3d::new(x, y, -0.25),
            normal: Vec3d::z(),
            material: m,
        })
        .collect()
}

#[test]
fn a_box_landing_flat_stops_or_bounces_without_spin() {
    // Four corners at once, closing at 3 m/s: plastic stops the fall,
    // restitution 0.5 (above the 0.5 m/s threshold) bounces at 1.5 m/s,
    // and neither leaves a spin (the impulses' torques cancel). Within
    // 1e-7 m/s: the compression's regularization (1e-8 of the coupling)
    // shortens the bounce impulse by about that relative amount.
    for (e, up) in [(0.0f32, 0.0), (0.5, 1.5)] {
        let m = Material::new(0.0, e, 0.5).unwrap();
        let r = respond_manifold(
            &box_mass(),
            Vec3d::new(0.0, 0.0, -3.0),
            Vec3d::zeros(),
            &corners(m),
        )
        .unwrap()
        .unwrap();
        assert!((r.linear_velocity.z - up).abs() < 1e-7, "{r:?}");
        assert!(r.angular_velocity.norm() < 1e-12, "{r:?}");
        let total: f64 = r.normal_impulses.iter().sum();
        assert!((total - (3.0 + up)).abs() < 1e-7);
    }
}

#[test]
fn a_box_landing_flat_while_sliding_is_slowed_by_friction_and_does_not_yaw() {
    // Sliding at 4 m/s along x, landing at 3 m/s, friction 0.5, plastic:
    // the total normal impulse is 3 N s, so friction can remove at most
    // 1.5 m/s of the slide; it also pitches the box (the corners are below
    // the mass centre, so the leading corners dive and take more normal
    // impulse) but gives it no yaw (the arrangement is symmetric): the
    // friction sweeps descend towards the symmetric optimum, within 1e-3
    // rad/s after FRICTION_SWEEPS sweeps (a 2e-4 m/s corner slip
    // difference on a 4 m/s slide).
    let m = Material::new(0.5, 0.0, 0.5).unwrap();
    let v = Vec3d::new(4.0, 0.0, -3.0);
    let mass = box_mass();
    let r = respond_manifold(&mass, v, Vec3d::zeros(), &corners(m))
        .unwrap()
        .unwrap();
    assert!(r.linear_velocity.x < 4.0 && r.linear_velocity.x >= 4.0 - 1.5 * (1.0 + 1e-9));
    assert!(r.angular_velocity.z.abs() < 1e-3, "{r:?}");
    assert!(r.angular_velocity.y > 0.0, "the box pitches forward: {r:?}");
    assert!(r.normal_impulses[0] > r.normal_impulses[1], "{r:?}");
    assert!(
        energy(&mass, &r.linear_velocity, &r.angular_velocity) < energy(&mass, &v, &Vec3d::zeros())
    );
    for p in &corners(m) {
        let un = p
            .normal
            .dot(&(r.linear_velocity + r.angular_velocity.cross(&p.arm)));
        assert!(un >= -1e-9, "{un}");
    }
}

#[test]
fn one_point_takes_the_single_point_response() {
    // One point, plastic or elastic, with friction that does not reach the
    // cone (a slow slide): the same velocities as respond_turning_point
    // without a separation speed, within 1e-7 of the speeds (the
    // compression's 1e-8 regularization, and a different order of
    // operations).
    let mut rng = Lcg(5);
    let mut compared = 0;
    for _ in 0..2000 {
        let mass = random_mass(&mut rng);
        let p = ManifoldPoint {
            arm: rng.vec(1.0),
            normal: rng.direction(),
            material: material(&mut rng),
        };
        let v = rng.vec(3.0);
        let w = rng.vec(3.0);
        let one = respond_manifold(&mass, v, w, &[p]).unwrap();
        // Speeds of a few m/s: the impulse is far within f32.
        let two = respond_turning_point(&mass, v, w, p.arm, p.normal, &p.material, 0.0)
            .expect("an impulse within f32");
        let (Some(a), Some(b)) = (one, two) else {
            continue;
        };
        // Friction that reached the cone (the slip goes on): the sweeps
        // then slide along the cone's edge further than the single radial
        // scaling; compare only where friction stopped the slip.
        let u = b.linear_velocity + b.angular_velocity.cross(&p.arm);
        let slip = u - p.normal * p.normal.dot(&u);
        if slip.norm() > 1e-9 * (1.0 + v.norm() + w.norm()) {
            continue;
        }
        compared += 1;
        let scale = 1.0 + v.norm() + w.norm();
        assert!(
            (a.linear_velocity - b.linear_velocity).norm() < 1e-7 * scale,
            "{a:?} {b:?}"
        );
        assert!((a.angular_velocity - b.angular_velocity).norm() < 1e-7 * scale);
    }
    assert!(compared > 200, "{compared}");
}

#[test]
fn too_many_points_are_refused() {
    let m = Material::new(0.0, 0.0, 0.5).unwrap();
    let p = ManifoldPoint {
        arm: Vec3d::new(0.0, 0.0, -1.0),
        normal: Vec3d::z(),
        material: m,
    };
    let err = respond_manifold(
        &box_mass(),
        Vec3d::new(0.0, 0.0, -1.0),
        Vec3d::zeros(),
        &vec![p; MAX_MANIFOLD_POINTS + 1],
    )
    .unwrap_err();
    assert_eq!(
        err,
        ImpactError::TooManyContacts {
            contacts: MAX_MANIFOLD_POINTS + 1,
            limit: MAX_MANIFOLD_POINTS
        }
    );
}

#[test]
fn an_impulse_beyond_f32_is_refused_as_for_a_turning_point() {
    // A box of 1e39 kg closing at 10 m/s needs 2.5e39 N s at each corner:
    // beyond f32, refused naming the impulse, as `respond_turning_point`
    // refuses it.
    let heavy = ImpactMass {
        inverse_mass: 1e-39,
        inverse_inertia: box_mass().inverse_inertia * 1e-39,
    };
    let m = Material::new(0.0, 0.0, 0.5).unwrap();
    let r = respond_manifold(
        &heavy,
        Vec3d::new(0.0, 0.0, -10.0),
        Vec3d::zeros(),
        &corners(m),
    );
    assert!(
        matches!(r, Err(ImpactError::NotRepresentable { quantity: "impulse", value }) if value.abs() > f32::MAX as f64),
        "{r:?}"
    );
}
