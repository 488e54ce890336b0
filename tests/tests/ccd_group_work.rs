//! The work of crowded SPHERE_MESH_CCD steps, counted
//! (`PhysicsWorld::ccd_work`; docs/continuous-collision.md, "Moving groups"
//! and "Performance"): groups join only bodies that can meet within the
//! step, a pedestrian crowd is swept body by body, resting contacts in a
//! group cost no pass, and the elastic room's group sweep does work per
//! pass bounded by the member count (never all pairs and all triangles
//! every pass); the crowded point is refused, its DISCRETE step reports
//! every pair once. Counts, never timings: the
//! benches measure speed.

use parapet::prelude::*;
use parapet_scenes::bench_crowds::{crowd, DT};
use parapet_scenes::bench_dense::{crowded_point, elastic_room, ROOM_DT};
use parapet_scenes::stack::floor;

/// Two upright capsules (r 0.3 m, half height 0.6 m) `gap` metres apart
/// between their surfaces, walking at `speed` m/s towards each other.
fn facing_walkers(gap: f32, speed: f32) -> PhysicsWorld {
    let mut w = PhysicsWorld::new();
    w.collision_detection = SPHERE_MESH_CCD;
    w.gravity = Vec3::zeros();
    let half = 0.3 + gap / 2.0;
    for (x, v) in [(-half, speed), (half, -speed)] {
        let mut b = RigidBody::new_dynamic(Shape::capsule(0.3, 0.6).unwrap(), 70.0).unwrap();
        b.set_inverse_inertia(Mat3::zeros()).unwrap();
        let b = b
            .with_position(Vec3::new(x, 0.0, 0.0))
            .with_linear_velocity(Vec3::new(v, 0.0, 0.0));
        w.add_body(b).unwrap();
    }
    w
}

/// Their reach balls overlap (bounding spheres of 0.9 m plus travel and
/// margin, centres 1.0 m apart) but their shapes stand 0.4 m apart and
/// travel 2.5 cm each: not a group. Closing at 30 m/s (0.5 m per step
/// each) they can meet: one group, and the sweep stops them.
#[test]
fn walkers_whose_reach_balls_overlap_group_only_when_they_can_meet() {
    let mut slow = facing_walkers(0.4, 1.5);
    slow.step(1.0 / 60.0).unwrap();
    let work = slow.ccd_work();
    assert_eq!(work.groups, 0, "{work:?}");
    assert_eq!(work.grouping_tests, 1, "{work:?}");
    let mut fast = facing_walkers(0.4, 30.0);
    fast.step(1.0 / 60.0).unwrap();
    let work = fast.ccd_work();
    assert_eq!((work.groups, work.largest_group), (1, 2), "{work:?}");
    let x: Vec<f32> = fast.bodies().map(|(_, b)| b.position().x).collect();
    // Never closer than the two radii (1 mm, the scenes' crossing
    // tolerance, for the f32 positions at contact).
    assert!(x[1] - x[0] > 0.6 - 1e-3, "{x:?}");
}

/// Two spheres (r 0.25 m) resting on a two-triangle floor under gravity
/// for 30 steps, then sliding towards each other at 30 m/s each, 0.2 m
/// between their surfaces: one group, whose sweep makes one pass, the pair
/// impact. Their resting floor contacts stay with the discrete solver (the
/// speculative contact holds them; they close on the floor by less than
/// the residue bound) and cost no pass of their own; neither sphere ends
/// below the floor (1 mm, the scenes' sinking tolerance) or past the other.
#[test]
fn resting_contacts_in_a_group_cost_no_pass() {
    let mut w = PhysicsWorld::new();
    w.collision_detection = SPHERE_MESH_CCD;
    w.add_body(RigidBody::new_static(floor().unwrap())).unwrap();
    let mut ids = Vec::new();
    for x in [-0.35f32, 0.35] {
        let b = RigidBody::new_dynamic(Shape::sphere(0.25).unwrap(), 1.0)
            .unwrap()
            .with_position(Vec3::new(x, 0.0, 0.25));
        ids.push(w.add_body(b).unwrap());
    }
    for _ in 0..30 {
        w.step(1.0 / 60.0).unwrap();
        assert_eq!(w.ccd_work().groups, 0, "{:?}", w.ccd_work());
    }
    for (id, v) in ids.iter().zip([30.0f32, -30.0]) {
        let b = w.body_mut(*id).unwrap();
        let z = b.linear_velocity().z;
        b.set_linear_velocity(Vec3::new(v, 0.0, z));
    }
    w.step(1.0 / 60.0).unwrap();
    let work = w.ccd_work();
    assert_eq!((work.groups, work.largest_group), (1, 2), "{work:?}");
    assert_eq!(work.group_passes, 1, "{work:?}");
    let [a, b] = [ids[0], ids[1]].map(|id| w.body(id).unwrap().position());
    assert!(a.z > 0.25 - 1e-3 && b.z > 0.25 - 1e-3, "{a:?} {b:?}");
    assert!(b.x - a.x > 0.5 - 1e-3, "{a:?} {b:?}");
}

/// 64 walkers 1.0 m and 1.8 m apart on a terrain: every walker alone (no
/// shared group) for 30 steps, and the grouping tests at most the pairs
/// of neighbours whose reach balls overlap (8 per walker at 1 m, each pair
/// once: 4 per walker).
#[test]
fn a_pedestrian_crowd_is_swept_body_by_body() {
    for spacing in [1.0, 1.8] {
        let c = crowd(SPHERE_MESH_CCD, 64, spacing, 2048).unwrap();
        let mut w = c.world.clone();
        for step in 0..30 {
            c.drive(&mut w);
            w.step(DT).unwrap();
            let work = w.ccd_work();
            assert_eq!(work.groups, 0, "{spacing} m, step {step}: {work:?}");
            assert!(work.grouping_tests <= 4 * 64, "{spacing} m: {work:?}");
        }
        let check = c.layout.check(&c.centres(&w));
        assert_eq!((check.sunk, check.crossed), (0, 0), "{spacing} m");
    }
}

/// The elastic room (every sphere reaches every other: one group of all,
/// 100, 200 and 400 spheres in a fixed 10 m box): per pass, the group
/// sweep's work is bounded by the members, not their pairs. Sweeping every
/// pair every pass would be `n (n - 1) / 2` pair sweeps (19,900 at 200),
/// every candidate `12 n` triangle sweeps; the pair schedule sweeps only
/// the pairs due by each pass's event (fewer than `n / 40` per pass: the
/// pairs near contact), decides `O(n)` pair windows per pass (the members
/// with a new velocity against the others, at most `2 n`, plus the first
/// pass's `n (n - 1) / 2` spread over at least `n` passes: `n / 2`), and
/// sweeps fewer than 4 triangles per member. From 100 to 400 spheres the
/// work per pass (sweeps and decisions) grows less than `n log n` does
/// (5.2 times) with a quarter of slack. Every sphere stays in the room.
#[test]
fn the_elastic_room_costs_o_n_log_n_per_pass() {
    let mut per_pass = Vec::new();
    for n in [100usize, 200, 400] {
        let mut w = elastic_room(SPHERE_MESH_CCD, n).unwrap();
        w.step(ROOM_DT).unwrap();
        let work = w.ccd_work();
        assert_eq!((work.groups, work.largest_group), (1, n as u64), "{work:?}");
        let passes = work.group_passes.max(1);
        assert!(passes >= n as u64, "{work:?}");
        let per = |x: u64| x as f64 / passes as f64;
        let nf = n as f64;
        assert!(per(work.pair_sweeps) < nf / 40.0, "{n}: {work:?}");
        assert!(per(work.pair_decisions) < 2.5 * nf, "{n}: {work:?}");
        assert!(per(work.triangle_sweeps) < 4.0 * nf, "{n}: {work:?}");
        per_pass.push(per(work.pair_sweeps
            + work.pair_decisions
            + work.triangle_sweeps));
        for (_, b) in w.bodies().skip(1) {
            let p = b.position();
            assert!(p.iter().all(|x| x.abs() < 5.0), "{p:?}");
        }
    }
    let n_log_n = |n: f64| n * n.ln();
    let bound = 1.25 * n_log_n(400.0) / n_log_n(100.0);
    assert!(
        per_pass[2] < bound * per_pass[0],
        "{per_pass:?}, bound {bound}"
    );
}

/// 300 spheres at one point: DISCRETE reports each of the 44,850 pairs
/// once; SPHERE_MESH_CCD refuses the step (more simultaneous contacts than
/// it settles) and leaves the world as it was.
#[test]
fn the_crowded_point_reports_every_pair_once_or_is_refused() {
    let n = 300usize;
    let mut d = crowded_point(DISCRETE, n).unwrap();
    d.step(1.0 / 60.0).unwrap();
    assert_eq!(d.contact_count(), n * (n - 1) / 2);
    let mut c = crowded_point(SPHERE_MESH_CCD, n).unwrap();
    let before: Vec<_> = c.bodies().map(|(_, b)| b.position()).collect();
    let e = c.step(1.0 / 60.0).unwrap_err();
    assert!(matches!(e, StepError::Unresolvable { .. }), "{e}");
    let after: Vec<_> = c.bodies().map(|(_, b)| b.position()).collect();
    assert_eq!(before, after);
}
