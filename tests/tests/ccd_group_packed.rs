//! A large group (bench scene `packed_pairs`): 64 head-on sphere
//! pairs 1 m apart whose reach regions merge into one group of 128, swept
//! with the pair cull and the reuse of unchanged outcomes
//! (`parapet_world::ccd::group_sweep`). The step must stay exact: no pair
//! passes through, each pair rebounds symmetrically (equal masses, equal
//! and opposite speeds), the steps give the same bits on one thread and on
//! two, and several steps in a row keep every pair apart.

use parapet::prelude::*;
use parapet_scenes::bench_ccd::packed_pairs;

/// The scene's rows are exact in `f32` (x = ±0.4 m, y = k m): a pair's
/// mirror image is exact unless the two members round differently at the
/// instant of impact; one `f32` ulp at 0.4 m (3e-8 m) covers it.
const MIRROR_TOLERANCE: f32 = 3.0e-8;

#[test]
fn packed_pairs_rebound_symmetrically_without_passing_through() {
    let scene = packed_pairs(SPHERE_MESH_CCD).unwrap();
    let mut w = scene.world.clone();
    w.step(scene.dt).unwrap();
    assert_eq!(scene.violations(&w), 0);
    for pair in &scene.groups {
        let (a, b) = (w.body(pair[0]).unwrap(), w.body(pair[1]).unwrap());
        let (pa, pb) = (a.position(), b.position());
        // Mirror images through x = 0 on the pair's row.
        assert!((pa.x + pb.x).abs() <= MIRROR_TOLERANCE, "{pa:?} {pb:?}");
        assert_eq!(pa.y, pb.y);
        // Restitution 0.5 at 60 m/s closing: each leaves at 15 m/s, away
        // from the other (f32 velocities, relative 1e-6).
        let (va, vb) = (a.linear_velocity(), b.linear_velocity());
        assert!(
            (va.x + 15.0).abs() < 1e-4 && (vb.x - 15.0).abs() < 1e-4,
            "{va:?} {vb:?}"
        );
        // Apart by at least the summed radius.
        assert!(pb.x - pa.x >= 0.2 - 1e-6, "{pa:?} {pb:?}");
    }
    for _ in 0..5 {
        w.step(scene.dt).unwrap();
        assert_eq!(scene.violations(&w), 0);
    }
}

#[test]
fn a_large_group_gives_the_same_bits_on_one_thread_and_on_two() {
    let run = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| {
            let scene = packed_pairs(SPHERE_MESH_CCD).unwrap();
            let mut w = scene.world.clone();
            let mut trace = Vec::new();
            for _ in 0..3 {
                w.step(scene.dt).unwrap();
                for id in scene.groups.iter().flatten() {
                    let b = w.body(*id).unwrap();
                    let (p, v) = (b.position(), b.linear_velocity());
                    trace.push([p.x, p.y, p.z, v.x, v.y, v.z].map(f32::to_bits));
                }
            }
            (trace, w.events().len())
        })
    };
    assert_eq!(run(1), run(2));
}
