//! Per-body CCD policy (docs/continuous-collision.md, "Choosing per
//! body"): what each `CcdMode` does to a body, the step's report and
//! per-body stats, and the dry run `check_ccd`.
//!
//! Each test states the physical fact it checks: a discrete body passes
//! through a surface that stops a continuous one, a continuous body does
//! not pass through a moving discrete one, a discrete body is never the one
//! refused, `Auto` resolves by the motion of the step, and the dry run
//! changes nothing while naming what the step refuses.

mod ccd_support;
#[path = "world_support/mod.rs"]
mod world_support;

use ccd_support::{mat, plate};
use parapet::ccd::{BodyCcdStats, CcdMode, CcdReport, AUTO_MOTION_FRACTION};
use parapet::prelude::*;
use world_support::capture;

/// A floor plate (20 m square, facing +z) at height 0.
fn floor_world(mode: CollisionDetection) -> PhysicsWorld {
    let mut w = PhysicsWorld::new();
    w.collision_detection = mode;
    w.add_body(plate(Vec3::zeros(), Vec3::z(), 10.0, mat(0.5, 0.0, 0.5)))
        .unwrap();
    w
}

fn ball(r: f32, at: Vec3, v: Vec3) -> RigidBody {
    RigidBody::new_dynamic(Shape::sphere(r).unwrap(), 1.0)
        .unwrap()
        .with_position(at)
        .with_linear_velocity(v)
}

/// A body's stats, every field.
fn stats(w: &PhysicsWorld, id: BodyId) -> BodyCcdStats {
    w.ccd_stats(id).expect("the body was in the last step")
}

/// 0.1 m sphere at 0.15 m falling at 30 m/s: 0.3 m per 0.01 s step, twice its
/// diameter, so discrete contacts miss the floor and the sphere passes it.
#[test]
fn a_discrete_body_passes_where_a_continuous_one_is_stopped() {
    for world in [DISCRETE, SPHERE_MESH_CCD] {
        let mut w = floor_world(world);
        let fast = Vec3::new(0.0, 0.0, -30.0);
        let d = w
            .add_body(ball(0.1, Vec3::new(-1.0, 0.0, 0.15), fast).with_ccd(CcdMode::Discrete))
            .unwrap();
        let c = w
            .add_body(ball(0.1, Vec3::new(1.0, 0.0, 0.15), fast).with_ccd(CcdMode::Continuous))
            .unwrap();
        w.step(0.01).unwrap();
        // Through the floor: 0.15 - 0.3 = -0.15 m (gravity adds 1e-3 m).
        assert!(w.body(d).unwrap().position().z < 0.0, "{world:?}");
        // Stopped with its centre one radius above the surface (1e-4 m: the
        // f32 rounding of the impact position).
        assert!(
            (w.body(c).unwrap().position().z - 0.1).abs() < 1e-4,
            "{world:?}"
        );
        assert_eq!(stats(&w, d).mode, CcdMode::Discrete);
        assert_eq!(stats(&w, c).mode, CcdMode::Continuous);
        assert_eq!(stats(&w, c).impacts, 1);
        assert_eq!(stats(&w, c).group_size, 1);
        assert_eq!(stats(&w, d).group_size, 0);
    }
}

/// Inherit is the world default: a world whose bodies are all marked with
/// the default's mode steps bit for bit as the same world left at Inherit.
#[test]
fn inherit_resolves_to_the_world_default_bit_for_bit() {
    for (world, same) in [
        (DISCRETE, CcdMode::Discrete),
        (SPHERE_MESH_CCD, CcdMode::Continuous),
    ] {
        let build = |mode: CcdMode| {
            let mut w = floor_world(world);
            for i in 0..6 {
                let b = ball(
                    0.2,
                    Vec3::new(i as f32 * 0.35 - 1.0, 0.1 * i as f32, 0.5 + 0.3 * i as f32),
                    Vec3::new(if i % 2 == 0 { 3.0 } else { -3.0 }, 0.0, -20.0),
                );
                w.add_body(b.with_ccd(mode)).unwrap();
            }
            w
        };
        let (mut a, mut b) = (build(CcdMode::Inherit), build(same));
        for _ in 0..40 {
            let (ra, rb) = (a.step(1.0 / 60.0), b.step(1.0 / 60.0));
            assert_eq!(ra, rb);
            assert_eq!(capture(&a), capture(&b));
            assert_eq!(a.ccd_report(), b.ccd_report());
        }
    }
}

/// A continuous sphere thrown at a discrete sphere that moves across its
/// path: the discrete one is an obstacle moving along its own path, so the
/// continuous one never passes through it (their centres stay at least the
/// radius sum apart, less the promised depth), and the discrete one is
/// neither struck by the sweep nor refused.
#[test]
fn a_continuous_body_does_not_pass_through_a_moving_discrete_one() {
    let mut w = PhysicsWorld::new();
    w.gravity = Vec3::zeros();
    let c = w
        .add_body(
            ball(0.05, Vec3::new(-1.0, 0.0, 0.0), Vec3::new(150.0, 0.0, 0.0))
                .with_ccd(CcdMode::Continuous),
        )
        .unwrap();
    let d = w
        .add_body(
            ball(0.05, Vec3::new(0.5, -0.5, 0.0), Vec3::new(0.0, 50.0, 0.0))
                .with_ccd(CcdMode::Discrete),
        )
        .unwrap();
    let dt = 0.01;
    let start = (w.body(c).unwrap().position(), w.body(d).unwrap().position());
    w.step(dt).unwrap();
    let end = (w.body(c).unwrap().position(), w.body(d).unwrap().position());
    // Sample the straight paths between the poses: the continuous sphere
    // reaches x = 0.5 at 10 ms (1.5 m per step), as does the discrete one
    // y = 0; without the sweep they would coincide.
    assert!(w.events().iter().any(|e| e.kind == ContactKind::Swept));
    assert!(end.0.x < 0.5, "{end:?} from {start:?}");
    let depth = parapet::ccd::tolerances::promised_depth(&Shape::sphere(0.05).unwrap());
    assert!((end.0 - end.1).norm() as f64 >= 0.1 - depth, "{end:?}");
    assert_eq!(stats(&w, d).mode, CcdMode::Discrete);
    // The obstacle takes no part in the mover's island.
    assert_eq!(stats(&w, c).group_size, 1);
    assert_eq!(w.ccd_report().groups, 0);
    assert_eq!(w.ccd_report().largest_group, 1);
}

/// A discrete box that turns is an obstacle like any other: a continuous
/// sphere thrown at it is stopped by it (the two never overlap beyond the
/// promised depth), and neither is refused, near or far.
#[test]
fn a_continuous_body_is_stopped_by_a_turning_discrete_box_and_nothing_is_refused() {
    for near in [true, false] {
        let mut w = floor_world(DISCRETE);
        let crate_box =
            RigidBody::new_dynamic(Shape::cuboid(Vec3::new(0.3, 0.3, 0.3)).unwrap(), 5.0)
                .unwrap()
                .with_position(Vec3::new(0.0, 0.0, 0.3))
                .with_angular_velocity(Vec3::new(0.0, 0.0, 2.0))
                .with_ccd(CcdMode::Discrete);
        let b = w.add_body(crate_box).unwrap();
        let x = if near { 0.8 } else { 5.0 };
        let s = w
            .add_body(
                ball(0.1, Vec3::new(x, 0.0, 0.3), Vec3::new(-30.0, 0.0, 0.0))
                    .with_ccd(CcdMode::Continuous),
            )
            .unwrap();
        assert!(w.check_ccd_for(0.01).is_empty());
        w.step(0.01).unwrap();
        let depth = parapet_tests::overlap::depth(w.body(s).unwrap(), w.body(b).unwrap()).unwrap();
        let promised = parapet::ccd::tolerances::promised_depth(&Shape::sphere(0.1).unwrap());
        assert!(depth <= promised, "near {near}: depth {depth}");
        if near {
            assert!(
                w.body(s).unwrap().position().x > 0.3,
                "the sphere went through the box"
            );
            assert_eq!(stats(&w, b).mode, CcdMode::Discrete);
        }
    }
}

/// Auto: a sphere moving less than a quarter of its diameter per step stays
/// discrete; the same sphere faster is continuous (and stopped by the
/// floor it would otherwise pass); a slow Auto sphere beside a continuous
/// one that can reach it is continuous too.
#[test]
fn auto_resolves_by_the_motion_of_the_step_and_by_reach() {
    assert_eq!(AUTO_MOTION_FRACTION, 0.25);
    let dt = 0.01;
    let mut w = floor_world(DISCRETE);
    // 0.2 m diameter: the limit is 0.05 m per step, 5 m/s.
    let slow = w
        .add_body(
            ball(0.1, Vec3::new(-3.0, 0.0, 1.0), Vec3::new(4.0, 0.0, 0.0)).with_ccd(CcdMode::Auto),
        )
        .unwrap();
    let fast = w
        .add_body(
            ball(0.1, Vec3::new(3.0, 0.0, 0.15), Vec3::new(0.0, 0.0, -30.0))
                .with_ccd(CcdMode::Auto),
        )
        .unwrap();
    let leader = w
        .add_body(
            ball(0.1, Vec3::new(0.0, 3.0, 1.0), Vec3::new(20.0, 0.0, 0.0))
                .with_ccd(CcdMode::Continuous),
        )
        .unwrap();
    let follower = w
        .add_body(ball(0.1, Vec3::new(0.25, 3.0, 1.0), Vec3::zeros()).with_ccd(CcdMode::Auto))
        .unwrap();
    w.step(dt).unwrap();
    assert_eq!(stats(&w, slow).mode, CcdMode::Discrete);
    assert_eq!(stats(&w, fast).mode, CcdMode::Continuous);
    assert!((w.body(fast).unwrap().position().z - 0.1).abs() < 1e-4);
    assert_eq!(stats(&w, leader).mode, CcdMode::Continuous);
    assert_eq!(stats(&w, follower).mode, CcdMode::Continuous);
    let report = *w.ccd_report();
    assert_eq!(report.continuous_bodies, 3);
    assert_eq!(report.auto_continuous, 2);
}

/// The report counts what the stage did: one sphere striking the floor is
/// one swept body, one impact, at least two passes (the hit, then the rest
/// of the step clear) over at least one triangle candidate each.
#[test]
fn the_report_counts_the_sweeps_of_the_step() {
    let mut w = floor_world(SPHERE_MESH_CCD);
    assert_eq!(*w.ccd_report(), CcdReport::default());
    let id = w
        .add_body(ball(
            0.1,
            Vec3::new(0.0, 0.0, 0.15),
            Vec3::new(0.0, 0.0, -30.0),
        ))
        .unwrap();
    assert_eq!(w.ccd_stats(id), None);
    w.step(0.01).unwrap();
    let r = *w.ccd_report();
    assert_eq!(r.swept_bodies, 1);
    assert_eq!(r.swept_impacts, 1);
    assert_eq!(r.continuous_bodies, 1);
    assert_eq!(r.groups, 0);
    assert!(r.passes >= 2, "{r:?}");
    assert!(r.candidate_triangles >= r.passes, "{r:?}");
    assert_eq!(stats(&w, id).impacts, 1);
}

/// A failed step leaves the previous report and stats in place, bit for
/// bit, as it leaves everything else; the dry run touches neither.
#[test]
fn a_failed_step_and_the_dry_run_leave_the_report_in_place() {
    let mut w = floor_world(SPHERE_MESH_CCD);
    let id = w
        .add_body(ball(
            0.1,
            Vec3::new(0.0, 0.0, 0.15),
            Vec3::new(0.0, 0.0, -30.0),
        ))
        .unwrap();
    w.step(0.01).unwrap();
    let report = *w.ccd_report();
    let mine = w.ccd_stats(id);
    // An elastic sphere between two walls at 100 m/s with one impact
    // allowed: refused (the impact limit).
    w.ccd_max_impacts = 1;
    let elastic = Material {
        friction: 0.0,
        restitution: 1.0,
        bounce_threshold: 0.5,
    };
    for x in [3.7f32, 4.3] {
        w.add_body(
            RigidBody::new_static(Shape::cuboid(Vec3::new(0.05, 1.0, 1.0)).unwrap())
                .with_position(Vec3::new(x, 0.0, 1.0))
                .with_material(elastic),
        )
        .unwrap();
    }
    let bad = w
        .add_body(
            ball(0.1, Vec3::new(4.0, 0.0, 1.0), Vec3::new(100.0, 0.0, 0.0)).with_material(elastic),
        )
        .unwrap();
    let before = capture(&w);
    let listed = w.check_ccd();
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0].body, bad);
    assert!(
        listed[0].to_string().contains("ccd_max_impacts"),
        "{}",
        listed[0]
    );
    assert_eq!(capture(&w), before);
    assert_eq!(w.step(0.01).unwrap_err(), listed[0].error);
    assert_eq!(capture(&w), before);
    assert_eq!(*w.ccd_report(), report);
    assert_eq!(w.ccd_stats(id), mine);
    assert_eq!(w.ccd_stats(bad), None);
}

/// Modes stored as numbers come back through TryFrom<u8>; an unknown value
/// is an error naming it, never a mode.
#[test]
fn modes_restored_from_numbers_go_through_try_from() {
    for m in [
        CcdMode::Inherit,
        CcdMode::Discrete,
        CcdMode::Continuous,
        CcdMode::Auto,
    ] {
        assert_eq!(CcdMode::try_from(m.code()), Ok(m));
    }
    let e = CcdMode::try_from(9u8).unwrap_err();
    assert!(e.to_string().contains('9'), "{e}");
}

/// 64 elastic spheres each between two walls 0.22 m apart at 100 m/s need
/// about 75 impacts in the step, more than `ccd_max_impacts` = 64: the dry
/// run lists every one of them in insertion order (and not a static box
/// added last: every body is a target); the step reports the first
/// sphere's, and rolls back.
#[test]
fn the_dry_run_lists_every_sweep_refusal_and_the_step_reports_the_first() {
    let scene = parapet_scenes::bench_ccd::rolled_back(SPHERE_MESH_CCD).unwrap();
    let mut w = scene.world;
    let spheres: Vec<BodyId> = scene.movers.iter().map(|m| m.id).collect();
    let post = w
        .add_body(
            RigidBody::new_static(Shape::cuboid(Vec3::new(0.1, 0.1, 0.1)).unwrap())
                .with_position(Vec3::new(0.0, 0.0, -50.0)),
        )
        .unwrap();
    let list = w.check_ccd_for(scene.dt);
    let named: Vec<BodyId> = list.iter().map(|r| r.body).collect();
    assert_eq!(named, spheres);
    for r in &list[..spheres.len()] {
        assert!(
            matches!(r.error, StepError::ImpactLimit { limit: 64, .. }),
            "{r}"
        );
    }
    let before = capture(&w);
    assert_eq!(w.step(scene.dt).unwrap_err(), list[0].error);
    assert_eq!(capture(&w), before);
    // The recipe: a larger limit clears the impact refusals.
    w.ccd_max_impacts = 128;
    assert!(w.body(post).is_some());
    assert_eq!(w.check_ccd_for(scene.dt), Vec::new());
    w.step(scene.dt).unwrap();
}

#[test]
fn the_pages_example_sweeps_the_bullet_and_leaves_the_slow_debris_discrete() {
    // docs/continuous-collision.md, "Choosing per body", as written there.
    let mut world = PhysicsWorld::new();
    let bullet = RigidBody::new_dynamic(Shape::sphere(0.02).unwrap(), 0.01)
        .unwrap()
        .with_linear_velocity(Vec3::new(300.0, 0.0, 0.0))
        .with_ccd(CcdMode::Continuous);
    let debris = RigidBody::new_dynamic(Shape::cuboid(Vec3::new(0.1, 0.1, 0.1)).unwrap(), 1.0)
        .unwrap()
        .with_position(Vec3::new(0.0, 20.0, 0.0))
        .with_ccd(CcdMode::Auto);
    let bullet = world.add_body(bullet).unwrap();
    let debris = world.add_body(debris).unwrap();
    let refusals = world.check_ccd();
    assert!(refusals.is_empty(), "{refusals:?}");
    world.step(1.0 / 60.0).unwrap();
    assert_eq!(stats(&world, bullet).mode, CcdMode::Continuous);
    // The debris falls 9.8/3600 m in its first step, far under a quarter of
    // its 0.2 m edge, and the bullet's region (the 5 m it can travel in the
    // step, in any direction) stays 15 m away.
    assert_eq!(stats(&world, debris).mode, CcdMode::Discrete);
    assert_eq!(world.ccd_report().continuous_bodies, 1);
}
