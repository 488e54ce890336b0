//! Random closed rooms: bodies of every convex shape thrown and spun inside
//! a box-shaped static mesh (twelve one-sided triangles facing in), in
//! SPHERE_MESH_CCD. The fact checked after every step, by an oracle that
//! shares no code with the step (`parapet_tests::hostile::oracle`: the
//! exact support of each shape along the six wall normals, and the deepest
//! overlap of two bodies by `parapet_tests::overlap`): no body reaches
//! behind a wall, nor into another body, deeper than the continuous mode's
//! promised depth (`parapet::ccd::tolerances::promised_depth`) plus 1e-5 m
//! of `f32` pose storage.
//!
//! A refusal is allowed only as the limits' honest answer (the impact or
//! advancement limit, the world unchanged: `world_errors.rs` checks the
//! rollback bit for bit) and is counted; the measured counts are the
//! bounds, so that a change that makes the loop refuse more fails here.

use parapet::prelude::*;
use parapet_scenes::prng::SplitMix64;
use parapet_tests::hostile::build::room;
use parapet_tests::hostile::oracle::{room_overreach, room_tolerance};

fn any_shape(rng: &mut SplitMix64) -> Shape {
    match rng.below(4) {
        0 => Shape::sphere(0.2).unwrap(),
        1 => Shape::capsule(0.1, 0.3).unwrap(),
        2 => Shape::cuboid(Vec3::new(0.3, 0.2, 0.1)).unwrap(),
        _ => Shape::convex_hull(&[
            Vec3::new(0.0, 0.0, 0.0),
            Vec3::new(0.4, 0.0, 0.0),
            Vec3::new(0.0, 0.4, 0.0),
            Vec3::new(0.0, 0.0, 0.4),
        ])
        .unwrap(),
    }
}

fn any_vec(rng: &mut SplitMix64, size: f32) -> Vec3 {
    Vec3::new(
        rng.range_f32(-size, size),
        rng.range_f32(-size, size),
        rng.range_f32(-size, size),
    )
}

fn room_world(half: Vec3, gravity: bool) -> PhysicsWorld {
    let mut w = PhysicsWorld::new();
    w.collision_detection = SPHERE_MESH_CCD;
    if !gravity {
        w.gravity = Vec3::zeros();
    }
    let (v, t) = room(half);
    w.add_body(
        RigidBody::new_static(Shape::mesh(v, t).unwrap()).with_material(Material {
            friction: 0.3,
            restitution: 0.5,
            bounce_threshold: 0.5,
        }),
    )
    .unwrap();
    w
}

/// Steps `w` up to `steps` times; returns the worst breach of the promise
/// found (m beyond the tolerance, with where) and whether a step was refused.
fn run(w: &mut PhysicsWorld, half: Vec3, steps: usize) -> (Option<String>, bool) {
    for step in 0..steps {
        let before: Vec<RigidBody> = w.bodies().map(|(_, b)| b.clone()).collect();
        if let Err(e) = w.step(1.0 / 60.0) {
            assert!(
                matches!(
                    e,
                    StepError::ImpactLimit { .. }
                        | StepError::SubstepLimit { .. }
                        | StepError::EventLimit { .. }
                ),
                "step {step}: {e}"
            );
            let after: Vec<RigidBody> = w.bodies().map(|(_, b)| b.clone()).collect();
            assert_eq!(before, after, "a refused step changes nothing");
            return (None, true);
        }
        for (id, b) in w.bodies() {
            if b.kind() != BodyKind::Dynamic {
                continue;
            }
            let over = room_overreach(b, half).unwrap();
            if over > room_tolerance(b.shape()) {
                return (
                    Some(format!("step {step}: {id:?} {over} m behind a wall")),
                    false,
                );
            }
        }
        if let Some((d, a, b)) = parapet_tests::overlap::deepest(w) {
            let (sa, sb) = (w.body(a).unwrap().shape(), w.body(b).unwrap().shape());
            let tolerance = room_tolerance(sa).min(room_tolerance(sb));
            if d > tolerance {
                return (
                    Some(format!("step {step}: {a:?} {b:?} overlap {d} m")),
                    false,
                );
            }
        }
    }
    (None, false)
}

/// One body per room, 300 rooms of 2-8 m, thrown at up to 120 m/s and spun
/// at up to 30 rad/s without gravity, for 4 steps of 1/60 s (up to 8 m of
/// travel: several walls a step).
#[test]
fn a_lone_body_thrown_in_a_closed_room_never_leaves_it() {
    let mut rng = SplitMix64::new(7);
    let (mut breaches, mut refusals) = (Vec::new(), 0);
    for case in 0..300 {
        let half = Vec3::new(
            rng.range_f32(1.0, 4.0),
            rng.range_f32(1.0, 4.0),
            rng.range_f32(1.0, 4.0),
        );
        let mut w = room_world(half, false);
        let b = RigidBody::new_dynamic(any_shape(&mut rng), 1.0)
            .unwrap()
            .with_linear_velocity(any_vec(&mut rng, LONE_SPEED))
            .with_angular_velocity(any_vec(&mut rng, 30.0));
        w.add_body(b).unwrap();
        let (breach, refused) = run(&mut w, half, 4);
        refusals += usize::from(refused);
        breaches.extend(breach.map(|b| format!("case {case}: {b}")));
    }
    assert!(breaches.is_empty(), "{breaches:#?}");
    eprintln!("lone bodies: {refusals} of 300 rooms refused by the limits");
    assert!(refusals <= LONE_REFUSALS, "{refusals} refused rooms");
}

/// The speed bound (m/s per axis) of the lone bodies.
const LONE_SPEED: f32 = 120.0;
/// Rooms refused by the limits, measured with the default limits: 1 of
/// 300 (its island needs more than its 2,592 events in one step; 3 of 300
/// while the continuous mode solved its contacts in whole-step
/// iterations).
const LONE_REFUSALS: usize = 1;

/// Eight bodies in a 6 m room, 1.2 m apart, thrown at up to `CROWD_SPEED`
/// per axis and spun at up to 20 rad/s with random restitution, half the
/// rooms with gravity, for 30 steps of 1/60 s: they strike the walls and
/// each other and come to rest in the corners.
#[test]
fn a_crowd_thrown_in_a_closed_room_never_leaves_it_nor_ends_inside_itself() {
    let mut rng = SplitMix64::new(11);
    let half = Vec3::new(3.0, 3.0, 3.0);
    let (mut breaches, mut refusals) = (Vec::new(), 0);
    for case in 0..120 {
        let mut w = room_world(half, case % 2 == 1);
        for k in 0..8 {
            let at = Vec3::new(
                -1.8 + 1.2 * (k % 4) as f32,
                -0.6 + 1.2 * (k / 4) as f32,
                rng.range_f32(-1.0, 1.0),
            );
            let shape = any_shape(&mut rng);
            let b = RigidBody::new_dynamic(shape, 1.0)
                .unwrap()
                .with_position(at)
                .with_material(Material {
                    friction: 0.5,
                    restitution: rng.range_f32(0.0, 1.0),
                    bounce_threshold: 0.5,
                })
                .with_linear_velocity(any_vec(&mut rng, CROWD_SPEED))
                .with_angular_velocity(any_vec(&mut rng, 20.0));
            w.add_body(b).unwrap();
        }
        let (breach, refused) = run(&mut w, half, 30);
        refusals += usize::from(refused);
        breaches.extend(breach.map(|b| format!("case {case}: {b}")));
    }
    assert!(breaches.is_empty(), "{breaches:#?}");
    eprintln!("crowds: {refusals} of 120 rooms refused by the limits");
    // At most the measured count, which is none.
    assert_eq!(refusals, CROWD_REFUSALS, "{refusals} refused rooms");
}

/// The speed bound (m/s per axis) of the crowds.
const CROWD_SPEED: f32 = 30.0;
/// Rooms refused by the limits, measured with the default limits: none of
/// 120 (2 while the continuous mode solved its contacts in whole-step
/// iterations, and its arbiter advanced along fixed axes only: queries of
/// more than 256 iterations near a corner).
const CROWD_REFUSALS: usize = 0;
