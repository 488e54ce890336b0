//! The randomized fast-body scene: 200 spheres of random radius (0.1 to
//! 0.5 m), speed (15 to 50 m/s downward, up to 2 m/s sideways), restitution
//! (0 to 0.5) and friction, dropped onto a rough terrain (a 112 x 112 m grid of 1 m cells,
//! 25088 triangles, sines plus noise), fifteen 1/60 s steps. At 50 m/s a
//! sphere travels 0.83 m per step, up to eight times its radius.
//!
//! The oracle is brute force and independent of parapet: after every step,
//! each sphere's distance to every terrain triangle (plain closest-point
//! geometry) and its height above the terrain surface under its centre.
//! Measured: zero pass-throughs, and no sphere's clearance below
//! `(1 - SINK_TOLERANCE)` of its radius in SPHERE_MESH_CCD. The same scene
//! in DISCRETE is the control that shows the oracle catches failures: there
//! fast spheres pass through the terrain.
//!
//! `PARAPET_CCD_TERRAIN_SCENES` (default 1) runs more random scenes.

mod ccd_support;

use ccd_support::{mat, mesh, plane_height, point_triangle_distance, projects_inside, terrain};
use parapet_geometry::Shape;
use parapet_math::Vec3;
use parapet_solver::RigidBody;
use parapet_tests::meshes::SplitMix64;
use parapet_world::{BodyId, CollisionDetection, PhysicsWorld, DISCRETE, SPHERE_MESH_CCD};

/// Largest accepted sink, as a fraction of the radius: resting spheres
/// overlap the terrain by at most the split correction's slop (5 mm) plus
/// one step of gravity (9.8 / 3600 m), i.e. 7.7 mm, which is 7.7 % of the
/// smallest radius (0.1 m); rapier lets about 1 sphere in 10 sink below 0.9 r
/// in the comparable scene, so 0.1 is the line this test holds.
const SINK_TOLERANCE: f64 = 0.1;

/// Steps per scene (1/60 s each): every sphere reaches the terrain and
/// rebounds within them, and none drifts into a neighbour's reach (groups of
/// interacting bodies have tests of their own, `ccd_group_*.rs`).
const STEPS: usize = 15;

struct Outcome {
    /// Every sphere's final position and velocity, as bits.
    state: Vec<[u32; 6]>,
    pass_throughs: usize,
    worst_sink: f64,
    impacts: usize,
}

fn run(mode: CollisionDetection, seed: u64) -> Outcome {
    run_scene(mode, seed, 200, 7.0, STEPS)
}

/// `count` spheres on a grid of `spacing` (m), stepped `steps` times.
fn run_scene(
    mode: CollisionDetection,
    seed: u64,
    count: usize,
    spacing: f32,
    steps: usize,
) -> Outcome {
    let (v, t) = terrain(112, 1.0, 0.15, seed);
    let tris: Vec<[Vec3; 3]> = t
        .iter()
        .map(|i| [v[i[0] as usize], v[i[1] as usize], v[i[2] as usize]])
        .collect();
    let mut w = PhysicsWorld::new();
    w.collision_detection = mode;
    w.add_body(mesh(v, t, mat(0.5, 0.0, 0.5))).unwrap();
    let mut rng = SplitMix64::new(seed ^ 0x5eed);
    let mut spheres: Vec<(BodyId, f32)> = Vec::new();
    let side = (count as f64).sqrt().ceil() as usize;
    'grid: for j in 0..side {
        for i in 0..side {
            if spheres.len() == count {
                break 'grid;
            }
            let r = rng.range_f32(0.1, 0.5);
            // 7 m apart: each sphere stays alone in its reach region (this
            // test is about bodies alone; a 50 m/s impact on a 17 degree
            // facet throws a sphere sideways at up to 20 m/s).
            let x = -49.0 + spacing * i as f32;
            let y = -49.0 + spacing * j as f32;
            let z = 1.0 + rng.range_f32(0.0, 1.5);
            let vel = Vec3::new(
                rng.range_f32(-2.0, 2.0),
                rng.range_f32(-2.0, 2.0),
                -rng.range_f32(15.0, 50.0),
            );
            let m = mat(rng.range_f32(0.0, 1.0), rng.range_f32(0.0, 0.5), 0.5);
            let b = RigidBody::new_dynamic(Shape::sphere(r).unwrap(), rng.range_f32(0.5, 5.0))
                .unwrap()
                .with_material(m)
                .with_position(Vec3::new(x, y, z))
                .with_linear_velocity(vel);
            spheres.push((w.add_body(b).unwrap(), r));
        }
    }
    let mut out = Outcome {
        state: Vec::new(),
        pass_throughs: 0,
        worst_sink: f64::NEG_INFINITY,
        impacts: 0,
    };
    let mut passed = vec![false; spheres.len()];
    for _ in 0..steps {
        w.step(1.0 / 60.0).unwrap();
        out.impacts += w
            .events()
            .iter()
            .filter(|e| e.kind == parapet_world::ContactKind::Swept)
            .count();
        for (k, (id, r)) in spheres.iter().enumerate() {
            let p = w.body(*id).unwrap().position();
            let mut clearance = f64::INFINITY;
            let mut below = false;
            for tri in &tris {
                // Brute force over every triangle, skipping only those whose
                // first vertex is more than 3 m away on some axis (1 m
                // cells: they can neither be the closest to a sphere within
                // 0.5 m of the surface nor lie under its centre).
                if (tri[0] - p).amax() > 3.0 {
                    continue;
                }
                clearance = clearance.min(point_triangle_distance(p, tri));
                if projects_inside(p, tri) && plane_height(p, tri) < 0.0 {
                    below = true;
                }
            }
            if below && !passed[k] {
                passed[k] = true;
                out.pass_throughs += 1;
            }
            if !below {
                out.worst_sink = out.worst_sink.max(1.0 - clearance / *r as f64);
            }
        }
    }
    out.state = spheres
        .iter()
        .map(|(id, _)| {
            let b = w.body(*id).unwrap();
            let (p, v) = (b.position(), b.linear_velocity());
            [p.x, p.y, p.z, v.x, v.y, v.z].map(f32::to_bits)
        })
        .collect();
    out
}

/// Bodies alone are swept in parallel; the result must not depend on the
/// thread count (docs/continuous-collision.md "How a step works").
#[test]
fn the_scene_is_bit_identical_on_one_thread_and_on_several() {
    let on = |threads: usize| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(|| run(SPHERE_MESH_CCD, 23).state)
    };
    assert_eq!(on(1), on(3));
}

#[test]
fn two_hundred_fast_spheres_never_pass_through_or_sink_into_rough_terrain() {
    let scenes: u64 = std::env::var("PARAPET_CCD_TERRAIN_SCENES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1);
    for seed in 0..scenes {
        let ccd = run(SPHERE_MESH_CCD, 17 + seed);
        println!(
            "scene {seed}: CCD pass-throughs {}, worst sink {:.3e} r, swept impacts {}",
            ccd.pass_throughs, ccd.worst_sink, ccd.impacts
        );
        assert_eq!(ccd.pass_throughs, 0, "scene {seed}");
        assert!(
            ccd.worst_sink <= SINK_TOLERANCE,
            "scene {seed}: sink {} r",
            ccd.worst_sink
        );
        assert!(
            ccd.impacts >= 150,
            "scene {seed}: only {} swept impacts",
            ccd.impacts
        );
    }
}

/// The settling variant: 64 spheres 14 m apart, 45 steps (0.75 s), so
/// that the spheres also rest and roll on the terrain: resting contact
/// (discrete solver and split correction) must not sink them either.
/// Longer and denser runs, where spheres meet, are
/// `crowded_fast_spheres_...` below.
#[test]
fn fast_spheres_that_land_and_settle_never_sink_into_rough_terrain() {
    let out = run_scene(SPHERE_MESH_CCD, 99, 64, 14.0, 45);
    println!(
        "settling: CCD pass-throughs {}, worst sink {:.3e} r, swept impacts {}",
        out.pass_throughs, out.worst_sink, out.impacts
    );
    assert_eq!(out.pass_throughs, 0);
    assert!(
        out.worst_sink <= SINK_TOLERANCE,
        "sink {} r",
        out.worst_sink
    );
}

/// The crowded variant: 200 spheres 2 m apart (radii up to 0.5 m, sideways
/// speeds up to 2 m/s, bounces thrown sideways by the facets), 120 steps
/// (2 s): their reach regions overlap, so they are swept in groups; they
/// land, bounce into each other, gather in the valleys and settle. Every
/// step must succeed (no refusal at this density), and no sphere may pass
/// through or sink.
#[test]
fn crowded_fast_spheres_meet_in_groups_and_never_sink_into_rough_terrain() {
    let out = run_scene(SPHERE_MESH_CCD, 5, 200, 2.0, 120);
    println!(
        "crowded: CCD pass-throughs {}, worst sink {:.3e} r, swept impacts {}",
        out.pass_throughs, out.worst_sink, out.impacts
    );
    assert_eq!(out.pass_throughs, 0);
    assert!(
        out.worst_sink <= SINK_TOLERANCE,
        "sink {} r",
        out.worst_sink
    );
    // 200 landings at least (measured: about 2,000 swept impacts).
    assert!(out.impacts >= 200, "only {} swept impacts", out.impacts);
}

#[test]
fn the_same_scene_in_discrete_mode_lets_fast_spheres_through() {
    // The control: the oracle sees the failures that CCD prevents.
    let discrete = run(DISCRETE, 17);
    println!(
        "DISCRETE: pass-throughs {}, worst sink {:.3e} r",
        discrete.pass_throughs, discrete.worst_sink
    );
    assert!(discrete.pass_throughs > 20, "{}", discrete.pass_throughs);
}
