//! Many fast spheres and locked capsules in a closed box of mesh walls
//! (docs/continuous-collision.md "How a step works"): over several steps no
//! pair interpenetrates beyond the promised depth and no sphere passes a
//! wall by more. Deterministic scenes
//! from seeds (SplitMix64); `PARAPET_GROUP_SCENES` sets how many (default 20; odd seeds
//! with gravity).

mod ccd_group_support;
mod ccd_support;

use ccd_group_support::{axis, ball, ccd_world, clearance, locked_capsule, mat};
use ccd_support::plate;
use parapet_math::Vec3;
use parapet_tests::meshes::SplitMix64;
use parapet_world::{BodyId, PhysicsWorld, StepError};

const DT: f32 = 0.01;
const HALF: f32 = 1.0;
const R: f32 = 0.08;
/// Every fourth body is a locked capsule of radius `R` and this half height.
const HALF_HEIGHT: f32 = 0.06;

fn half_height(i: usize) -> f32 {
    if i % 4 == 3 {
        HALF_HEIGHT
    } else {
        0.0
    }
}

/// Interpenetration tolerance (m): the depth the continuous step promises
/// no body ends beyond (`tolerances::promised_depth` of the sphere, 5.8 mm
/// for R = 0.08 m: a pair that closes slowly, as one resting on a wall or
/// on another under gravity, is held by the discrete contacts and may sink
/// by its held depth within a step), plus 1e-5 m for the `f32` positions
/// (ulp 1.2e-7 m below 1 m, a few ulps of each centre).
fn tolerance() -> f64 {
    parapet_world::ccd::tolerances::promised_depth(&parapet_geometry::Shape::sphere(R).unwrap())
        + 1e-5
}

/// A closed box of six inward-facing plates (two triangles each) and `n`
/// spheres on a jittered grid with random velocities up to `speed` m/s.
fn scene(seed: u64, n: usize, speed: f32) -> (PhysicsWorld, Vec<BodyId>) {
    let mut rng = SplitMix64::new(seed);
    let mut w = ccd_world();
    w.ccd_max_impacts = 64;
    if seed % 2 == 1 {
        w.gravity = Vec3::new(0.0, 0.0, -9.8);
    }
    let e = rng.next_unit_f32();
    let m = mat(0.3 * rng.next_unit_f32(), e);
    for axis in 0..3 {
        for sign in [-1.0f32, 1.0] {
            let mut c = Vec3::zeros();
            c[axis] = sign * HALF;
            let mut normal = Vec3::zeros();
            normal[axis] = -sign;
            w.add_body(plate(c, normal, HALF * 1.5, m)).unwrap();
        }
    }
    let mut ids = Vec::new();
    let per = 4usize;
    let spacing = 2.0 * HALF / per as f32;
    'grid: for i in 0..per {
        for j in 0..per {
            for k in 0..per {
                if ids.len() == n {
                    break 'grid;
                }
                let mut p = Vec3::new(i as f32, j as f32, k as f32) * spacing
                    - Vec3::repeat(HALF - 0.5 * spacing);
                for c in p.iter_mut() {
                    *c += (rng.next_unit_f32() - 0.5) * 0.1 * spacing;
                }
                let v = Vec3::new(
                    rng.next_unit_f32() - 0.5,
                    rng.next_unit_f32() - 0.5,
                    rng.next_unit_f32() - 0.5,
                ) * (2.0 * speed);
                let mass = 0.5 + rng.next_unit_f32();
                let body = if half_height(ids.len()) > 0.0 {
                    let d = Vec3::new(rng.next_unit_f32() - 0.5, rng.next_unit_f32() - 0.5, 0.3);
                    let q = parapet_math::Quat::rotation_between(&Vec3::z(), &d)
                        .unwrap_or_else(parapet_math::Quat::identity);
                    locked_capsule(R, HALF_HEIGHT, mass, p, q, v, m)
                } else {
                    ball(R, mass, p, v, m)
                };
                ids.push(w.add_body(body).unwrap());
            }
        }
    }
    (w, ids)
}

fn check(w: &PhysicsWorld, ids: &[BodyId], label: &str) {
    for (i, a) in ids.iter().enumerate() {
        let ba = w.body(*a).unwrap();
        // Both axis ends (a sphere's centre twice) stay a radius inside.
        let (p, q) = axis(ba, half_height(i));
        for end in [p, q] {
            for c in end {
                assert!(
                    c.abs() <= (HALF - R) as f64 + tolerance(),
                    "{label}: body {i} beyond a wall at {end:?}"
                );
            }
        }
        for (j, b) in ids.iter().enumerate().skip(i + 1) {
            let bb = w.body(*b).unwrap();
            let gap = clearance(ba, R, half_height(i), bb, R, half_height(j));
            assert!(
                -gap <= tolerance(),
                "{label}: bodies {i} and {j} overlap by {} m",
                -gap
            );
        }
    }
}

#[test]
fn fast_spheres_and_capsules_in_a_box_never_interpenetrate_or_leave_it() {
    let scenes: u64 = std::env::var("PARAPET_GROUP_SCENES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(20);
    let mut stepped = 0;
    let mut refused = 0;
    let mut swept = 0;
    for seed in 0..scenes {
        // r / dt = 8 m/s; speeds up to 40 m/s per component.
        let (mut w, ids) = scene(seed, 20, 40.0);
        check(&w, &ids, "start");
        for step in 0..8 {
            match w.step(DT) {
                Ok(()) => {
                    stepped += 1;
                    swept += w
                        .events()
                        .iter()
                        .filter(|e| e.kind == parapet_world::ContactKind::Swept)
                        .count();
                }
                // A cascade the settling cannot take is a documented
                // refusal (rolled back), not a pass-through; stop this scene.
                Err(StepError::Unresolvable { .. } | StepError::ImpactLimit { .. }) => {
                    refused += 1;
                    break;
                }
                Err(e) => panic!("seed {seed} step {step}: {e}"),
            }
            check(&w, &ids, &format!("seed {seed} step {step}"));
        }
    }
    // Most steps must succeed for the test to mean anything.
    assert!(
        stepped >= 6 * scenes as usize,
        "{stepped} steps, {refused} refusals"
    );
    // And the sweeps did the work: many swept impacts per scene.
    eprintln!("{stepped} steps, {refused} refusals, {swept} swept impacts");
    assert!(swept >= 20 * scenes as usize, "{swept} swept impacts");
}

#[test]
fn the_random_box_is_deterministic() {
    let run = || {
        let (mut w, ids) = scene(99, 20, 40.0);
        let mut out = Vec::new();
        for _ in 0..5 {
            let r = w.step(DT);
            out.push(format!("{r:?}"));
            for id in &ids {
                let b = w.body(*id).unwrap();
                out.push(format!(
                    "{:?}{:?}",
                    b.position().map(f32::to_bits),
                    b.linear_velocity().map(f32::to_bits)
                ));
            }
        }
        out
    };
    assert_eq!(run(), run());
}
