//! What sensors and filters must never do (docs/continuous-collision.md,
//! "Filters and sensors"): a sensor never changes any body's motion (a
//! world with sensors steps to the same bits as the same world without
//! them, in both modes); a filtered pair never exchanges an impulse in
//! either mode (randomized); and the sensor events do not depend on the
//! thread count.

use parapet::prelude::*;
use parapet_scenes::prng::SplitMix64;
use parapet_tests::state::body_bits;

const DT: f32 = 1.0 / 60.0;

fn floor() -> RigidBody {
    RigidBody::new_static(Shape::cuboid(Vec3::new(20.0, 20.0, 0.5)).unwrap())
        .with_position(Vec3::new(0.0, 0.0, -0.5))
}

fn vec(rng: &mut SplitMix64, r: f32) -> Vec3 {
    Vec3::new(
        rng.range_f32(-r, r),
        rng.range_f32(-r, r),
        rng.range_f32(-r, r),
    )
}

fn body(rng: &mut SplitMix64, at: Vec3) -> RigidBody {
    let shape = match rng.below(3) {
        0 => Shape::sphere(rng.range_f32(0.1, 0.3)).unwrap(),
        1 => Shape::capsule(rng.range_f32(0.08, 0.2), rng.range_f32(0.05, 0.3)).unwrap(),
        _ => Shape::cuboid(Vec3::new(
            rng.range_f32(0.1, 0.3),
            rng.range_f32(0.1, 0.3),
            rng.range_f32(0.1, 0.3),
        ))
        .unwrap(),
    };
    RigidBody::new_dynamic(shape, rng.range_f32(0.5, 3.0))
        .unwrap()
        .with_position(at)
        .with_rotation(Quat::from_euler_angles(
            rng.range_f32(-1.5, 1.5),
            rng.range_f32(-1.5, 1.5),
            rng.range_f32(-3.0, 3.0),
        ))
        .with_linear_velocity(vec(rng, 2.0) + Vec3::new(0.0, 0.0, -rng.range_f32(0.0, 15.0)))
        .with_angular_velocity(vec(rng, 5.0))
}

/// A sensor of any kind: a static zone, a kinematic plate sweeping through
/// the pile, or a dynamic ball falling through everything.
fn sensor(rng: &mut SplitMix64) -> RigidBody {
    let at = vec(rng, 1.5) + Vec3::new(0.0, 0.0, 2.0);
    match rng.below(3) {
        0 => RigidBody::new_static(Shape::cuboid(vec(rng, 1.0).abs().add_scalar(0.01)).unwrap()),
        1 => RigidBody::new_kinematic(Shape::cuboid(Vec3::new(0.01, 2.0, 2.0)).unwrap())
            .with_linear_velocity(vec(rng, 30.0))
            .with_angular_velocity(vec(rng, 3.0)),
        _ => RigidBody::new_dynamic(Shape::sphere(rng.range_f32(0.2, 1.0)).unwrap(), 1.0).unwrap(),
    }
    .with_position(at)
    .with_sensor(true)
}

/// Body bits of the bodies that are not sensors, in insertion order, and
/// the contact events with ids replaced by those positions.
fn state(w: &PhysicsWorld) -> (Vec<Vec<u64>>, Vec<String>) {
    let ids: Vec<BodyId> = w
        .bodies()
        .filter(|(_, b)| !b.is_sensor())
        .map(|(id, _)| id)
        .collect();
    let at = |id: BodyId| ids.iter().position(|&x| x == id).expect("not a sensor");
    let bits = ids
        .iter()
        .map(|&id| body_bits(w.body(id).unwrap()))
        .collect();
    let events = w
        .events()
        .iter()
        .map(|e| {
            let mut e = *e;
            let (a, b) = (at(e.body_a), at(e.body_b));
            e.body_a = ids[0];
            e.body_b = ids[0];
            format!("{a} {b} {e:?}")
        })
        .collect();
    (bits, events)
}

/// Random piles falling on a floor, in both modes, with sensors inserted
/// among the bodies (static zones, sweeping plates, falling balls): every
/// body that is not a sensor, and every contact event, is bit for bit as
/// in the same world without the sensors, for 60 steps.
#[test]
fn sensors_never_change_any_bodys_motion() {
    let mut rng = SplitMix64::new(0x5e_4505);
    let (mut reported, mut steps, mut refused) = (0usize, 0usize, 0usize);
    for case in 0..12 {
        let mode = if case % 2 == 0 {
            DISCRETE
        } else {
            SPHERE_MESH_CCD
        };
        let mut with = PhysicsWorld::new();
        let mut without = PhysicsWorld::new();
        for w in [&mut with, &mut without] {
            w.collision_detection = mode;
            w.add_body(floor()).unwrap();
        }
        // Sensors among the bodies in odd cases, after them in even ones.
        let among = case % 4 >= 2;
        for k in 0..12 {
            let at = Vec3::new(
                rng.range_f32(-2.5, 2.5),
                rng.range_f32(-2.5, 2.5),
                0.4 + 0.3 * k as f32,
            );
            let b = body(&mut rng, at);
            with.add_body(b.clone()).unwrap();
            without.add_body(b).unwrap();
            if among && k % 3 == 1 {
                with.add_body(sensor(&mut rng)).unwrap();
            }
        }
        for _ in 0..4 * usize::from(!among) {
            with.add_body(sensor(&mut rng)).unwrap();
        }
        for step in 0..60 {
            // The continuous step may refuse a pile (its impact limit):
            // then both refuse alike (the same error when the ids are the
            // same, sensors last), and the case ends there.
            let (a, b) = (with.step(DT), without.step(DT));
            assert_eq!(
                a.is_err(),
                b.is_err(),
                "case {case} step {step}: {a:?} {b:?}"
            );
            if !among {
                assert_eq!(a, b, "case {case} step {step}");
            }
            if a.is_err() {
                refused += 1;
                break;
            }
            steps += 1;
            reported += with.sensor_events().len();
            assert!(without.sensor_events().is_empty());
            assert_eq!(state(&with), state(&without), "case {case} step {step}");
        }
    }
    // The sensors were busy: bodies entered, left and crossed them; and
    // nearly every case ran its 60 steps.
    assert!(reported >= 100, "{reported}");
    assert!(
        steps >= 600 && refused <= 2,
        "{steps} steps, {refused} refused"
    );
}

/// Fast bodies on crossing paths, every pair filtered (by collision groups
/// for some, by exclusions for the others): in both modes each body moves
/// bit for bit as it would alone, and no event names two of them.
#[test]
fn a_filtered_pair_never_exchanges_an_impulse_in_either_mode() {
    let mut rng = SplitMix64::new(0xf11_7e45);
    for case in 0..20 {
        let mode = if case % 2 == 0 {
            DISCRETE
        } else {
            SPHERE_MESH_CCD
        };
        let mut w = PhysicsWorld::new();
        w.collision_detection = mode;
        w.gravity = Vec3::zeros();
        let mut alone = Vec::new();
        let mut ids = Vec::new();
        for k in 0..8u32 {
            // Aimed through the origin from 3 m out at 20 to 300 m/s.
            let at = vec(&mut rng, 1.0).normalize() * 3.0;
            let b = body(&mut rng, at).with_linear_velocity(-at * rng.range_f32(7.0, 100.0));
            // Even bodies: a group of their own that accepts no other even
            // body; odd bodies: everything, excluded pair by pair below.
            let b = if k % 2 == 0 {
                b.with_collision_groups(CollisionGroups::new(1 << k, !0x55))
            } else {
                b
            };
            let mut solo = PhysicsWorld::new();
            solo.collision_detection = mode;
            solo.gravity = Vec3::zeros();
            let sid = solo.add_body(b.clone()).unwrap();
            alone.push((solo, sid));
            ids.push(w.add_body(b).unwrap());
        }
        for (i, &a) in ids.iter().enumerate() {
            for (j, &b) in ids.iter().enumerate().skip(i + 1) {
                if i % 2 == 1 || j % 2 == 1 {
                    w.ignore_pair(a, b).unwrap();
                }
            }
        }
        for step in 0..12 {
            w.step(DT).unwrap();
            assert!(w.events().is_empty(), "case {case}: {:?}", w.events());
            for ((solo, sid), id) in alone.iter_mut().zip(&ids) {
                solo.step(DT).unwrap();
                assert_eq!(
                    body_bits(w.body(*id).unwrap()),
                    body_bits(solo.body(*sid).unwrap()),
                    "case {case} step {step} {mode:?}"
                );
            }
        }
    }
}

/// Random groups and exclusions in fast piles on a floor, in the
/// continuous mode (the discrete one is `filters_groups.rs`): no contact
/// event ever names a pair the groups or an exclusion filter out, while
/// accepted pairs do touch.
#[test]
fn continuous_events_never_name_a_filtered_pair() {
    let mut rng = SplitMix64::new(0x6f72_0ccd);
    let masks = [0b01u32, 0b10, 0b11];
    let (mut accepted, mut steps, mut refused) = (0usize, 0usize, 0usize);
    for case in 0..16 {
        let mut w = PhysicsWorld::new();
        w.collision_detection = SPHERE_MESH_CCD;
        // Piles of fast bodies strike often and turn: room for them (at the
        // defaults, 16 impacts and 256 iterations, the continuous step
        // refuses 5 of these 16 piles today).
        w.ccd_max_impacts = 64;
        w.ccd_max_substeps = 4096;
        let ground = w.add_body(floor()).unwrap();
        let mut ids = Vec::new();
        for k in 0..10 {
            let at = Vec3::new(
                rng.range_f32(-1.2, 1.2),
                rng.range_f32(-1.2, 1.2),
                0.4 + 0.4 * k as f32,
            );
            let groups = CollisionGroups::new(masks[rng.below(3)], masks[rng.below(3)]);
            ids.push(
                w.add_body(body(&mut rng, at).with_collision_groups(groups))
                    .unwrap(),
            );
        }
        for _ in 0..3 {
            let (a, b) = (ids[rng.below(10)], ids[rng.below(10)]);
            if a != b {
                w.ignore_pair(a, b).unwrap();
            }
        }
        for step in 0..60 {
            // The continuous step may refuse a pile (its impact limit): the
            // case ends there.
            if w.step(DT).is_err() {
                refused += 1;
                break;
            }
            steps += 1;
            for e in w.events() {
                let (a, b) = (w.body(e.body_a).unwrap(), w.body(e.body_b).unwrap());
                assert!(
                    a.collision_groups().interacts_with(b.collision_groups())
                        && !w.is_pair_ignored(e.body_a, e.body_b),
                    "case {case} step {step}: {e:?}"
                );
                accepted += usize::from(e.body_a != ground && e.kind == ContactKind::Swept);
            }
        }
    }
    assert!(accepted >= 20, "{accepted} swept events between bodies");
    assert!(
        steps >= 800 && refused <= 2,
        "{steps} steps, {refused} refused"
    );
}

/// A shower of 150 bodies falling through twelve zones and sweeping
/// plates (more candidate pairs than the stage's parallel threshold), in
/// the continuous mode: the sensor events and every body are bit for bit
/// the same on one thread and on three.
#[test]
fn sensor_events_are_the_same_on_one_thread_and_on_three() {
    let run = || {
        let mut rng = SplitMix64::new(0x7e4d_5e45);
        let mut w = PhysicsWorld::new();
        w.collision_detection = SPHERE_MESH_CCD;
        for _ in 0..12 {
            let groups = CollisionGroups::new(0b10, 0b01);
            w.add_body(sensor(&mut rng).with_collision_groups(groups))
                .unwrap();
        }
        for k in 0..150 {
            let at = Vec3::new(
                -3.0 + 0.8 * (k % 8) as f32,
                -3.0 + 0.8 * ((k / 8) % 8) as f32,
                3.0 + 0.8 * (k / 64) as f32,
            );
            // The bodies pass through each other (their groups accept
            // only the sensors'), so that each falls its free path.
            let groups = CollisionGroups::new(0b01, 0b10);
            w.add_body(body(&mut rng, at).with_collision_groups(groups))
                .unwrap();
        }
        let mut out = Vec::new();
        let mut events = 0;
        for _ in 0..40 {
            // A refusal of the continuous step (its limits) ends the run,
            // alike on any thread count.
            if let Err(e) = w.step(DT) {
                out.push(format!("{e:?}"));
                break;
            }
            events += w.sensor_events().len();
            out.push(format!("{:?}", w.sensor_events()));
            out.extend(w.bodies().map(|(_, b)| format!("{:?}", body_bits(b))));
        }
        (out, events)
    };
    let on = |threads: usize| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(run)
    };
    let (one, three) = (on(1), on(3));
    assert!(one.1 >= 100, "only {} sensor events", one.1);
    assert_eq!(one, three);
}
