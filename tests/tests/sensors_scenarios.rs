//! Sensors in scenes with analytic answers (docs/continuous-collision.md,
//! "Filters and sensors"): a projectile through a thin plate between two
//! steps, a walker standing inside a zone, a body entering and leaving over
//! many steps, a body struck within the step followed along its real path,
//! moving and turning sensors, filters, one-sided mesh sensors, the
//! drained list, rollback and snapshots.

use parapet::prelude::*;
use parapet::snapshot::{from_json, to_json};
use parapet_tests::state::body_bits;

const DT: f32 = 1.0 / 60.0;

fn ball(radius: f32, at: Vec3, v: Vec3) -> RigidBody {
    RigidBody::new_dynamic(Shape::sphere(radius).unwrap(), 1.0)
        .unwrap()
        .with_position(at)
        .with_linear_velocity(v)
}

fn zone(half: Vec3, at: Vec3) -> RigidBody {
    RigidBody::new_static(Shape::cuboid(half).unwrap())
        .with_position(at)
        .with_sensor(true)
}

fn world(mode: CollisionDetection) -> PhysicsWorld {
    let mut w = PhysicsWorld::new();
    w.collision_detection = mode;
    w.gravity = Vec3::zeros();
    w
}

/// The sensor events of `w`'s last step as (sensor, body, kind).
fn kinds(w: &PhysicsWorld) -> Vec<(BodyId, BodyId, SensorEventKind)> {
    w.sensor_events()
        .iter()
        .map(|e| (e.sensor, e.body, e.kind))
        .collect()
}

/// The step fraction at which a body moving along x from `x0` to `x1` in
/// one step reaches `x` (linear path).
fn fraction_at(x0: f32, x1: f32, x: f64) -> f64 {
    (x - x0 as f64) / (x1 as f64 - x0 as f64)
}

/// A 2 cm bullet at 500 m/s crosses a 1 cm plate within one 1/60 s step
/// (8.3 m per step): reported as crossing, at the fraction where it first
/// touches the plate, in both modes, and it flies on exactly as without
/// the plate.
#[test]
fn a_projectile_at_500_m_s_crosses_a_1_cm_plate_in_both_modes() {
    for mode in [DISCRETE, SPHERE_MESH_CCD] {
        let mut w = world(mode);
        let plate = w
            .add_body(zone(Vec3::new(0.005, 1.0, 1.0), Vec3::zeros()))
            .unwrap();
        let start = Vec3::new(-3.0, 0.1, -0.2);
        let v = Vec3::new(500.0, 0.0, 0.0);
        let bullet = w.add_body(ball(0.02, start, v)).unwrap();
        let mut alone = world(mode);
        let only = alone.add_body(ball(0.02, start, v)).unwrap();
        w.step(DT).unwrap();
        alone.step(DT).unwrap();
        assert_eq!(
            kinds(&w),
            vec![(plate, bullet, SensorEventKind::Crossed)],
            "{mode:?}"
        );
        let end = w.body(bullet).unwrap().position().x;
        // It touches the plate's face x = -0.005 when its centre is 0.02 m
        // before it. Never later than that; earlier by at most the
        // arbiter's tolerance (5e-5 m of 8.3 m: 6e-6) and one f32 step of
        // the fraction (6e-8).
        let exact = fraction_at(start.x, end, -0.025);
        let t = w.sensor_events()[0].time as f64;
        assert!(
            t <= exact + 6e-8 && t >= exact - 7e-6,
            "{mode:?}: {t} vs {exact}"
        );
        assert!(w.events().is_empty(), "{mode:?}: {:?}", w.events());
        assert_eq!(
            body_bits(w.body(bullet).unwrap()),
            body_bits(alone.body(only).unwrap()),
            "{mode:?}"
        );
        // Beyond the plate: nothing more.
        w.step(DT).unwrap();
        assert!(w.sensor_events().is_empty());
    }
}

/// A walker standing in a pedestrian zone reports nothing (it was inside
/// before the first step and stays inside); walking out, it leaves once,
/// at the fraction where it last touches the zone; walking back, it
/// enters once.
#[test]
fn a_walker_standing_inside_reports_nothing_then_leaves_and_enters_once() {
    let mut w = world(DISCRETE);
    let crossing = w
        .add_body(zone(Vec3::new(2.0, 1.5, 1.0), Vec3::new(0.0, 0.0, 1.0)))
        .unwrap();
    let walker = w
        .add_body(
            RigidBody::new_dynamic(Shape::capsule(0.25, 0.6).unwrap(), 70.0)
                .unwrap()
                .with_position(Vec3::new(1.0, 0.0, 0.85)),
        )
        .unwrap();
    for _ in 0..60 {
        w.body_mut(walker)
            .unwrap()
            .set_linear_velocity(Vec3::new(0.0, 0.0, 0.0));
        w.step(DT).unwrap();
        assert!(w.sensor_events().is_empty(), "{:?}", w.sensor_events());
    }
    // Shuffling in place inside the zone: still nothing.
    for k in 0..60 {
        let sway = if k % 20 < 10 { 0.5 } else { -0.5 };
        w.body_mut(walker)
            .unwrap()
            .set_linear_velocity(Vec3::new(sway, sway, 0.0));
        w.step(DT).unwrap();
        assert!(w.sensor_events().is_empty(), "{:?}", w.sensor_events());
    }
    // Walking out along +x at 1.4 m/s: it leaves when its near side passes
    // x = 2 (the capsule's radius beyond the zone's face).
    let mut seen = Vec::new();
    for step in 0..200 {
        let before = w.body(walker).unwrap().position().x;
        w.body_mut(walker)
            .unwrap()
            .set_linear_velocity(Vec3::new(1.4, 0.0, 0.0));
        w.step(DT).unwrap();
        let after = w.body(walker).unwrap().position().x;
        for e in w.sensor_events() {
            seen.push((step, *e, fraction_at(before, after, 2.25)));
        }
    }
    assert_eq!(seen.len(), 1, "{seen:?}");
    let (_, e, exact) = seen[0];
    assert_eq!(
        (e.sensor, e.body, e.kind),
        (crossing, walker, SensorEventKind::Left)
    );
    // Never earlier than the last touch; later by at most the tolerance
    // (5e-5 m of 0.023 m per step: 2e-3) and one f32 step of the fraction.
    let t = e.time as f64;
    assert!(t >= exact - 6e-8 && t <= exact + 3e-3, "{t} vs {exact}");
    // And back in.
    let mut back = Vec::new();
    for _ in 0..200 {
        w.body_mut(walker)
            .unwrap()
            .set_linear_velocity(Vec3::new(-1.4, 0.0, 0.0));
        w.step(DT).unwrap();
        back.extend(kinds(&w));
    }
    assert_eq!(back, vec![(crossing, walker, SensorEventKind::Entered)]);
}

/// A ball at 3 m/s through a 1 m box: entered in the step and at the
/// fraction where its front reaches the box, left in the step and at the
/// fraction where its back clears it, nothing in between.
#[test]
fn a_slow_body_enters_then_leaves_at_the_analytic_times() {
    for mode in [DISCRETE, SPHERE_MESH_CCD] {
        let mut w = world(mode);
        let box_zone = w
            .add_body(zone(Vec3::new(0.5, 0.5, 0.5), Vec3::zeros()))
            .unwrap();
        let b = w
            .add_body(ball(
                0.1,
                Vec3::new(-1.02, 0.0, 0.0),
                Vec3::new(3.0, 0.0, 0.0),
            ))
            .unwrap();
        let mut seen = Vec::new();
        for step in 0..60 {
            let x0 = w.body(b).unwrap().position().x;
            w.step(DT).unwrap();
            let x1 = w.body(b).unwrap().position().x;
            for e in w.sensor_events() {
                assert_eq!((e.sensor, e.body), (box_zone, b));
                let touch = if e.kind == SensorEventKind::Entered {
                    -0.6
                } else {
                    0.6
                };
                seen.push((step, e.kind, e.time as f64, fraction_at(x0, x1, touch)));
            }
        }
        // Entering: the front reaches x = -0.5 after 0.42 m, 8.4 steps of
        // 0.05 m; leaving: the back clears x = 0.5 after 1.62 m, 32.4 steps.
        assert_eq!(seen.len(), 2, "{mode:?}: {seen:?}");
        assert_eq!((seen[0].0, seen[0].1), (8, SensorEventKind::Entered));
        assert_eq!((seen[1].0, seen[1].1), (32, SensorEventKind::Left));
        // Each within the tolerance's share of a step (5e-5 m of 0.05 m:
        // 1e-3) of the linear path between the step's two f32 poses, on
        // the side the event promises.
        let (t, exact) = (seen[0].2, seen[0].3);
        assert!(t <= exact + 6e-8 && t >= exact - 1.1e-3, "{t} {exact}");
        assert!((exact - 0.4).abs() < 1e-4, "{exact}");
        let (t, exact) = (seen[1].2, seen[1].3);
        assert!(t >= exact - 6e-8 && t <= exact + 1.1e-3, "{t} {exact}");
    }
}

/// An elastic ball at 100 m/s strikes a wall within the step and comes
/// back: it crosses a plate on its way in and again on its way out, and
/// ends the step on the near side. The sensor follows the ball's real path
/// (the continuous step's two motions), not the straight line from its
/// start to its end pose, which never reaches the plate.
#[test]
fn a_ball_struck_within_the_step_is_followed_along_its_path() {
    let mut w = world(SPHERE_MESH_CCD);
    let elastic = Material {
        friction: 0.0,
        restitution: 1.0,
        bounce_threshold: 0.5,
    };
    w.add_body(
        RigidBody::new_static(Shape::cuboid(Vec3::new(0.1, 1.0, 1.0)).unwrap())
            .with_position(Vec3::new(1.1, 0.0, 0.0))
            .with_material(elastic),
    )
    .unwrap();
    let plate = w
        .add_body(zone(Vec3::new(0.005, 1.0, 1.0), Vec3::new(0.5, 0.0, 0.0)))
        .unwrap();
    let b = w
        .add_body(ball(0.1, Vec3::zeros(), Vec3::new(100.0, 0.0, 0.0)).with_material(elastic))
        .unwrap();
    w.step(DT).unwrap();
    let end = w.body(b).unwrap().position().x;
    // Strikes the wall (face x = 1.0) at centre x = 0.9 and comes back
    // 1/60 * 100 - 0.9 m = 0.767 m: it ends at x = 0.133, before the plate.
    assert!((end - 0.1333).abs() < 1e-3, "x = {end}");
    assert!(w.events().iter().any(|e| e.kind == ContactKind::Swept));
    assert_eq!(kinds(&w), vec![(plate, b, SensorEventKind::Crossed)]);
    // First touch: centre at 0.395 m of the 1.667 m path.
    let t = w.sensor_events()[0].time as f64;
    let exact = 0.395 / (100.0 * DT as f64);
    assert!(t <= exact + 1e-6 && t >= exact - 1e-4, "{t} vs {exact}");
}

/// A kinematic plate swept at 300 m/s over a resting ball, and a paddle
/// turning at 60 rad/s through a static post: each reports the crossing.
#[test]
fn moving_and_turning_sensors_report_what_they_sweep_over() {
    let mut w = world(DISCRETE);
    let post = w
        .add_body(
            RigidBody::new_static(Shape::sphere(0.05).unwrap())
                .with_position(Vec3::new(0.0, 0.0, 0.0)),
        )
        .unwrap();
    let wiper = w
        .add_body(
            RigidBody::new_kinematic(Shape::cuboid(Vec3::new(0.005, 0.5, 0.5)).unwrap())
                .with_position(Vec3::new(-2.0, 0.0, 0.0))
                .with_linear_velocity(Vec3::new(300.0, 0.0, 0.0))
                .with_sensor(true),
        )
        .unwrap();
    // A paddle 1 m long about the z axis at (0, 5, 0), its tip sweeping a
    // quarter turn per step (60 rad/s * 1/60 s = 1 rad); a post 0.8 m from
    // the axis at 0.5 rad of the way.
    let paddle = w
        .add_body(
            RigidBody::new_kinematic(Shape::cuboid(Vec3::new(0.5, 0.01, 0.1)).unwrap())
                .with_position(Vec3::new(0.5, 5.0, 0.0))
                .with_angular_velocity(Vec3::new(0.0, 0.0, 60.0))
                .with_sensor(true),
        )
        .unwrap();
    // The paddle turns about its own centre (0.5, 5, 0): a post 0.4 m from
    // it at 0.5 rad.
    let (s, c) = 0.5f32.sin_cos();
    let post2 = w
        .add_body(
            RigidBody::new_static(Shape::sphere(0.02).unwrap()).with_position(Vec3::new(
                0.5 + 0.4 * c,
                5.0 + 0.4 * s,
                0.0,
            )),
        )
        .unwrap();
    w.step(DT).unwrap();
    assert_eq!(
        kinds(&w),
        vec![
            (wiper, post, SensorEventKind::Crossed),
            (paddle, post2, SensorEventKind::Crossed),
        ]
    );
    // The wiper's face reaches the post's surface (x = -0.05) from
    // x = -2.005 + ... : 1.945 m of 5 m.
    let t = w.sensor_events()[0].time as f64;
    assert!(
        (1.945 / 5.0 - 1e-4..=1.945 / 5.0 + 1e-6).contains(&t),
        "{t}"
    );
    // The paddle's half width (0.01 m) and the post's radius (0.02 m) at
    // 0.4 m: it touches about 0.075 rad before 0.5 rad, of 1 rad.
    let t = w.sensor_events()[1].time as f64;
    assert!(t > 0.40 && t < 0.5, "{t}");
}

/// Sensors respect filters: a body whose groups the sensor does not
/// accept, an excluded pair, a body whose collisions are off and another
/// sensor are not reported; restoring the pair reports it again.
#[test]
fn filtered_bodies_and_other_sensors_are_not_reported() {
    let mut w = world(DISCRETE);
    let gate = w
        .add_body(
            zone(Vec3::new(0.01, 2.0, 2.0), Vec3::zeros())
                .with_collision_groups(CollisionGroups::new(0b10, 0b01)),
        )
        .unwrap();
    let v = Vec3::new(120.0, 0.0, 0.0);
    let accepted = w
        .add_body(
            ball(0.1, Vec3::new(-1.0, 0.0, 0.0), v)
                .with_collision_groups(CollisionGroups::new(0b01, 0b10)),
        )
        .unwrap();
    w.add_body(
        ball(0.1, Vec3::new(-1.0, 0.5, 0.0), v)
            .with_collision_groups(CollisionGroups::new(0b100, !0)),
    )
    .unwrap();
    let excluded = w.add_body(ball(0.1, Vec3::new(-1.0, 1.0, 0.0), v)).unwrap();
    w.ignore_pair(gate, excluded).unwrap();
    let mut off = ball(0.1, Vec3::new(-1.0, -0.5, 0.0), v);
    off.set_collides(false);
    w.add_body(off).unwrap();
    w.add_body(
        RigidBody::new_kinematic(Shape::sphere(0.1).unwrap())
            .with_position(Vec3::new(-1.0, -1.0, 0.0))
            .with_linear_velocity(v)
            .with_sensor(true),
    )
    .unwrap();
    w.step(DT).unwrap();
    assert_eq!(kinds(&w), vec![(gate, accepted, SensorEventKind::Crossed)]);
    // Back through the gate, the exclusion lifted.
    w.restore_pair(gate, excluded).unwrap();
    for id in w.bodies().map(|(id, _)| id).collect::<Vec<_>>() {
        let b = w.body_mut(id).unwrap();
        if b.kind() != BodyKind::Static {
            let p = b.position();
            b.set_position(Vec3::new(-1.0, p.y, p.z));
        }
    }
    w.step(DT).unwrap();
    assert_eq!(
        kinds(&w),
        vec![
            (gate, accepted, SensorEventKind::Crossed),
            (gate, excluded, SensorEventKind::Crossed),
        ]
    );
}

/// A mesh sensor is a surface with a front: a trip wire of one triangle
/// reports a ball crossing it from the front, and nothing from behind (as
/// every mesh triangle, it is one-sided).
#[test]
fn a_mesh_sensor_reports_crossings_from_its_front_only() {
    let mut w = world(DISCRETE);
    // Front normal +x: (b - a) x (c - a) for these corners.
    let wire = Shape::mesh(
        vec![
            Vec3::new(0.0, -2.0, -2.0),
            Vec3::new(0.0, 2.0, -2.0),
            Vec3::new(0.0, 0.0, 2.0),
        ],
        vec![[0, 1, 2]],
    )
    .unwrap();
    let wire = w
        .add_body(RigidBody::new_static(wire).with_sensor(true))
        .unwrap();
    let from_front = w
        .add_body(ball(
            0.1,
            Vec3::new(1.0, 0.0, 0.0),
            Vec3::new(-120.0, 0.0, 0.0),
        ))
        .unwrap();
    w.add_body(ball(
        0.1,
        Vec3::new(-1.0, 0.5, 0.0),
        Vec3::new(120.0, 0.0, 0.0),
    ))
    .unwrap();
    w.step(DT).unwrap();
    assert_eq!(
        kinds(&w),
        vec![(wire, from_front, SensorEventKind::Crossed)]
    );
}

/// The drained list holds the step's contacts (a box resting on a floor:
/// initial contacts at time 0) and its sensor crossing, in time order; it
/// is handed over once, and the two lists stay readable.
#[test]
fn the_drained_list_merges_contacts_and_sensor_events_once() {
    let mut w = PhysicsWorld::new();
    w.add_body(
        RigidBody::new_static(Shape::cuboid(Vec3::new(5.0, 5.0, 0.5)).unwrap())
            .with_position(Vec3::new(0.0, 0.0, -0.5)),
    )
    .unwrap();
    w.add_body(
        RigidBody::new_dynamic(Shape::cuboid(Vec3::new(0.25, 0.25, 0.25)).unwrap(), 1.0)
            .unwrap()
            .with_position(Vec3::new(0.0, 0.0, 0.25)),
    )
    .unwrap();
    let gate = w
        .add_body(zone(Vec3::new(0.01, 1.0, 1.0), Vec3::new(3.0, 0.0, 2.0)))
        .unwrap();
    let fast = w
        .add_body(ball(
            0.05,
            Vec3::new(1.0, 0.0, 2.0),
            Vec3::new(200.0, 0.0, 0.0),
        ))
        .unwrap();
    w.step(DT).unwrap();
    assert!(!w.events().is_empty());
    let drained = w.drain_events();
    assert_eq!(drained.len(), w.events().len() + 1);
    let times: Vec<f32> = drained.iter().map(WorldEvent::time).collect();
    assert!(times.windows(2).all(|p| p[0] <= p[1]), "{times:?}");
    match drained.last() {
        Some(WorldEvent::Sensor(e)) => {
            assert_eq!(
                (e.sensor, e.body, e.kind),
                (gate, fast, SensorEventKind::Crossed)
            )
        }
        other => panic!("{other:?}"),
    }
    for (d, c) in drained.iter().zip(w.events()) {
        assert_eq!(d, &WorldEvent::Contact(*c));
    }
    assert!(w.drain_events().is_empty());
    assert_eq!(w.sensor_events().len(), 1);
    w.step(DT).unwrap();
    assert_eq!(w.drain_events().len(), w.events().len());
}

/// A step refused by the sensor stage itself (a turning paddle's query
/// needs more than one advancement iteration, `ccd_max_substeps = 1`)
/// leaves the last step's sensor events and the drained state as they
/// were; the dry run names the body and the sensor.
#[test]
fn a_refused_step_leaves_the_sensor_events_and_the_drained_list_as_they_were() {
    let mut w = world(DISCRETE);
    let plate = w
        .add_body(zone(Vec3::new(0.005, 1.0, 1.0), Vec3::zeros()))
        .unwrap();
    let b = w
        .add_body(ball(
            0.02,
            Vec3::new(-3.0, 0.0, 0.0),
            Vec3::new(500.0, 0.0, 0.0),
        ))
        .unwrap();
    w.step(DT).unwrap();
    let before = w.sensor_events().to_vec();
    assert_eq!(before.len(), 1);
    // A tumbling box flies at the plate's edge from the other side.
    let tumbler = w
        .add_body(
            RigidBody::new_dynamic(Shape::cuboid(Vec3::new(0.2, 0.05, 0.05)).unwrap(), 1.0)
                .unwrap()
                .with_position(Vec3::new(0.6, 0.0, 0.0))
                .with_linear_velocity(Vec3::new(-30.0, 0.0, 0.0))
                .with_angular_velocity(Vec3::new(0.0, 40.0, 25.0)),
        )
        .unwrap();
    w.body_mut(b)
        .unwrap()
        .set_position(Vec3::new(20.0, 0.0, 0.0));
    w.ccd_max_substeps = 1;
    for drained in [false, true] {
        if drained {
            w.drain_events();
        }
        let bodies: Vec<Vec<u64>> = w.bodies().map(|(_, b)| body_bits(b)).collect();
        let err = w.step(DT).unwrap_err();
        assert!(
            matches!(err, StepError::SubstepLimit { body, .. } if body == tumbler),
            "{err}"
        );
        assert_eq!(w.sensor_events(), before.as_slice());
        let after: Vec<Vec<u64>> = w.bodies().map(|(_, b)| body_bits(b)).collect();
        assert_eq!(after, bodies);
        let refusals = w.check_ccd();
        assert_eq!(refusals.len(), 1, "{refusals:?}");
        assert_eq!((refusals[0].body, refusals[0].other), (tumbler, None));
        let _ = plate;
        assert_eq!(w.drain_events().is_empty(), drained);
    }
    w.ccd_max_substeps = 256;
    w.step(DT).unwrap();
}

/// The last step's sensor events, and whether they were drained, are
/// part of a world snapshot.
#[test]
fn sensor_events_and_the_drained_state_persist_in_snapshots() {
    let mut w = world(DISCRETE);
    w.add_body(zone(Vec3::new(0.005, 1.0, 1.0), Vec3::zeros()))
        .unwrap();
    w.add_body(ball(
        0.02,
        Vec3::new(-3.0, 0.0, 0.0),
        Vec3::new(500.0, 0.0, 0.0),
    ))
    .unwrap();
    w.step(DT).unwrap();
    let mut copy = from_json(&to_json(&w).unwrap()).unwrap();
    assert_eq!(copy.sensor_events(), w.sensor_events());
    assert_eq!(copy.drain_events(), w.drain_events());
    let mut again = from_json(&to_json(&w).unwrap()).unwrap();
    assert!(again.drain_events().is_empty());
    assert!(copy.drain_events().is_empty());
}
