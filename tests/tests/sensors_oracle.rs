//! Randomized oracle of the sensor stage (docs/continuous-collision.md,
//! "Filters and sensors"): every crossing, entering and leaving that an
//! independent checker sees is reported, at a time on the side the event
//! promises, and nothing is reported where the checker proves the body
//! stayed clear of the sensor or inside it.
//!
//! # Oracle
//! Shares no code with the implementation: each body's and sensor's path
//! over a step is the constant-velocity, constant-spin motion from its
//! `f32` pose before the step to its pose after (the path the library
//! promises to sweep), rebuilt here with nalgebra (`scaled_axis` of
//! `q₁ q₀⁻¹`) and Rodrigues' formula; the exact `f64` signed distance of
//! `parapet_tests::toi_oracle` is marched along it with the Lipschitz
//! bound `|v_a − v_b| + |ω_a| R_a + |ω_b| R_b`, so a sample that is clear
//! certifies the interval around it.
//!
//! # Verdicts
//! With `M` = [`MARGIN`]: a pose is *inside* when the signed distance is
//! below `−M`, *outside* above `M`; a path *touches* when the march finds
//! a distance below `−M`, and is *clear* when it certifies a distance
//! above the tolerance plus `M` throughout. Outside at both ends and
//! touching: `Crossed`; outside then inside: `Entered`; inside then
//! outside: `Left`; inside at both ends, or clear: no event. A case in the
//! bands between (a graze within `M`) is counted and skipped.
//!
//! Worlds in both modes, zero gravity, bodies that do not interact with
//! each other (collision groups) so that each flies its free path;
//! spheres, capsules and boxes, 1 to 600 m/s, spins under a third of a
//! radian per step; static, moving and turning sensors down to 1 cm thin.

use parapet::ccd::tolerances::CONTACT_TOLERANCE;
use parapet::prelude::*;
use parapet_math::{Quatd, Vec3d};
use parapet_scenes::prng::SplitMix64;
use parapet_tests::toi_oracle::{lipschitz, march, signed_distance, Piece, TrueMotion};

const DT: f32 = 1.0 / 60.0;

/// The verdicts' margin (m): above the arbiter's tolerance (5e-5 m), the
/// `f32` rounding of poses within 10 m (1e-6 m) and the slack of the
/// arbiter's rounding, so that a verdict outside the bands is one the
/// implementation must agree with.
const MARGIN: f64 = 2e-4;

/// Cases (worlds) and steps per world.
const CASES: usize = 300;
const STEPS: usize = 4;

fn unit_quat(rng: &mut SplitMix64) -> Quat {
    Quat::from_euler_angles(
        rng.range_f32(-3.1, 3.1),
        rng.range_f32(-1.5, 1.5),
        rng.range_f32(-3.1, 3.1),
    )
}

fn vec(rng: &mut SplitMix64, r: f32) -> Vec3 {
    Vec3::new(
        rng.range_f32(-r, r),
        rng.range_f32(-r, r),
        rng.range_f32(-r, r),
    )
}

/// A random sphere, capsule or box between `lo` and `hi` (m), one in three
/// a thin plate when `thin`.
fn shape(rng: &mut SplitMix64, lo: f32, hi: f32, thin: bool) -> Shape {
    match rng.below(3) {
        0 => Shape::sphere(rng.range_f32(lo, hi)).unwrap(),
        1 => Shape::capsule(rng.range_f32(lo, hi), rng.range_f32(0.0, hi)).unwrap(),
        _ => {
            let mut h = Vec3::new(
                rng.range_f32(lo, hi),
                rng.range_f32(lo, hi),
                rng.range_f32(lo, hi),
            );
            if thin && rng.below(3) == 0 {
                h.x = 0.005;
            }
            Shape::cuboid(h).unwrap()
        }
    }
}

/// The path the library promises for a body that went from `before` to
/// `after` (origin at the mass centre): constant velocity and spin.
fn path(shape: &Shape, before: (Vec3, Quat), after: (Vec3, Quat)) -> TrueMotion {
    let to64 = |q: Quat| Quatd::new_normalize(q.into_inner().cast::<f64>());
    let (p0, q0) = (before.0.cast::<f64>(), to64(before.1));
    let (p1, q1) = (after.0.cast::<f64>(), to64(after.1));
    let dt = DT as f64;
    let spin = if before.1 == after.1 {
        Vec3d::zeros()
    } else {
        (q1 * q0.inverse()).scaled_axis() / dt
    };
    TrueMotion::new(
        &Piece::of_shape(shape).expect("a convex shape"),
        p0,
        q0,
        Vec3d::zeros(),
        (p1 - p0) / dt,
        spin,
    )
}

#[derive(Debug, Default)]
struct Counts {
    crossed: usize,
    entered: usize,
    left: usize,
    stayed_inside: usize,
    clear: usize,
    banded: usize,
}

/// What the oracle expects of one pair: an event kind with the interval
/// of step times (s) it must be reported in, `None` for no event; or
/// `Err` for a case in the bands.
type Verdict = Result<Option<(SensorEventKind, f64, f64)>, ()>;

fn verdict(body: &TrueMotion, sensor: &TrueMotion, counts: &mut Counts) -> Verdict {
    let dt = DT as f64;
    let d = |t: f64| signed_distance(&body.at(t), &sensor.at(t));
    let back = |t: f64| d(dt - t);
    let lip = lipschitz(body, sensor);
    let min_step = dt * 1e-6;
    let (d0, d1) = (d(0.0), d(dt));
    let clear_level = CONTACT_TOLERANCE + MARGIN;
    let clear = march(d, lip, clear_level, 0.0, 0.0, dt, min_step);
    if clear.first_below.is_none() {
        counts.clear += 1;
        return Ok(None);
    }
    let inside = |x: f64| x < -MARGIN;
    let outside = |x: f64| x > MARGIN;
    if !(inside(d0) || outside(d0)) || !(inside(d1) || outside(d1)) {
        counts.banded += 1;
        return Err(());
    }
    if inside(d0) && inside(d1) {
        counts.stayed_inside += 1;
        return Ok(None);
    }
    if inside(d0) {
        // Left: the last touch is after the last time the backward march
        // finds it deep, and no later than where it is certified clear.
        let deep = march(back, lip, -MARGIN, 0.0, 0.0, dt, min_step);
        let near = march(back, lip, clear_level, 0.0, 0.0, dt, min_step);
        counts.left += 1;
        let (Some(a), Some(b)) = (deep.first_below, near.first_below) else {
            unreachable!("inside at the start: both marches end below");
        };
        return Ok(Some((SensorEventKind::Left, dt - a, dt - b)));
    }
    let deep = march(d, lip, -MARGIN, 0.0, 0.0, dt, min_step);
    let first_near = clear.first_below.expect("checked above");
    let kind = if inside(d1) {
        counts.entered += 1;
        SensorEventKind::Entered
    } else if deep.first_below.is_some() {
        counts.crossed += 1;
        SensorEventKind::Crossed
    } else {
        counts.banded += 1;
        return Err(());
    };
    let latest = deep.first_below.unwrap_or(dt);
    Ok(Some((kind, first_near, latest)))
}

/// One random world: three sensors and eight bodies aimed at them.
fn random_world(rng: &mut SplitMix64, mode: CollisionDetection) -> PhysicsWorld {
    let mut w = PhysicsWorld::new();
    w.collision_detection = mode;
    w.gravity = Vec3::zeros();
    let sensor_groups = CollisionGroups::new(0b10, 0b01);
    let body_groups = CollisionGroups::new(0b01, 0b10);
    let mut targets = Vec::new();
    for _ in 0..3 {
        let at = vec(rng, 3.0);
        let s = shape(rng, 0.05, 1.0, true);
        let body = if rng.below(5) < 3 {
            RigidBody::new_static(s)
        } else {
            RigidBody::new_kinematic(s)
                .with_linear_velocity(vec(rng, 50.0))
                .with_angular_velocity(vec(rng, 10.0))
        };
        w.add_body(
            body.with_position(at)
                .with_rotation(unit_quat(rng))
                .with_sensor(true)
                .with_collision_groups(sensor_groups),
        )
        .unwrap();
        targets.push(at);
    }
    for _ in 0..8 {
        let at = vec(rng, 4.0);
        let aim = targets[rng.below(3)] + vec(rng, 0.5) - at;
        let speed = match rng.below(3) {
            0 => rng.range_f32(1.0, 10.0),
            1 => rng.range_f32(10.0, 100.0),
            _ => rng.range_f32(100.0, 600.0),
        };
        let body = RigidBody::new_dynamic(shape(rng, 0.01, 0.4, false), 1.0)
            .unwrap()
            .with_position(at)
            .with_rotation(unit_quat(rng))
            .with_linear_velocity(aim.normalize() * speed)
            .with_angular_velocity(vec(rng, 11.0))
            .with_collision_groups(body_groups);
        w.add_body(body).unwrap();
    }
    w
}

#[test]
fn every_crossing_the_oracle_sees_is_reported_on_time() {
    let mut rng = SplitMix64::new(0x05e4_50e5_0a4c);
    let mut counts = Counts::default();
    for case in 0..CASES {
        let mode = if case % 2 == 0 {
            DISCRETE
        } else {
            SPHERE_MESH_CCD
        };
        let mut w = random_world(&mut rng, mode);
        for step in 0..STEPS {
            let before: Vec<(BodyId, Vec3, Quat)> = w
                .bodies()
                .map(|(id, b)| (id, b.position(), b.rotation()))
                .collect();
            w.step(DT).unwrap();
            let motions: Vec<(BodyId, bool, TrueMotion)> = before
                .iter()
                .map(|&(id, p, q)| {
                    let b = w.body(id).unwrap();
                    let m = path(b.shape(), (p, q), (b.position(), b.rotation()));
                    (id, b.is_sensor(), m)
                })
                .collect();
            let mut expected_events = 0;
            for (sid, _, sm) in motions.iter().filter(|m| m.1) {
                for (bid, _, bm) in motions.iter().filter(|m| !m.1) {
                    let got = w
                        .sensor_events()
                        .iter()
                        .find(|e| (e.sensor, e.body) == (*sid, *bid));
                    let label = format!("case {case} step {step} {mode:?} {sid} {bid}: {got:?}");
                    match verdict(bm, sm, &mut counts) {
                        Err(()) => {
                            expected_events += usize::from(got.is_some());
                        }
                        Ok(None) => assert!(got.is_none(), "{label}: no event expected"),
                        Ok(Some((kind, lo, hi))) => {
                            expected_events += 1;
                            let e = got.unwrap_or_else(|| panic!("{label}: {kind:?} missed"));
                            assert_eq!(e.kind, kind, "{label}");
                            // The f32 fraction: one step of 1.2e-7 of the
                            // step length either way.
                            let t = e.time as f64 * DT as f64;
                            let eps = 1.2e-7 * DT as f64;
                            assert!(
                                t >= lo - eps && t <= hi + eps,
                                "{label}: time {t} outside [{lo}, {hi}]"
                            );
                        }
                    }
                }
            }
            assert_eq!(w.sensor_events().len(), expected_events, "case {case}");
        }
    }
    // The oracle saw every kind many times (at this seed: 609 crossed, 444
    // entered, 336 left, 142 stayed inside, 27,267 clear, 2 in the bands;
    // the thresholds are about a third), and few grazes in the bands.
    println!("{counts:?}");
    assert!(counts.crossed >= 200, "{counts:?}");
    assert!(counts.entered >= 150, "{counts:?}");
    assert!(counts.left >= 100, "{counts:?}");
    assert!(counts.stayed_inside >= 50, "{counts:?}");
    assert!(counts.clear >= 9000, "{counts:?}");
    assert!(
        counts.banded * 100 <= counts.crossed + counts.entered + counts.left,
        "{counts:?}"
    );
}
