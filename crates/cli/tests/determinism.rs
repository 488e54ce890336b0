//! Determinism pinned by hashes (after Box2D's `test/test_determinism.c` and
//! rapier's thread-count determinism test): the final state of three example
//! scenes, run from their files, hashes to a committed constant on 1, 2 and
//! 4 rayon threads (each run inside its own `ThreadPool`, so the world's
//! parallel continuous stage splits its work differently each time).
//!
//! The scenes: `fast_box_wall` (a rotation-locked cube at 80 m/s into a
//! wall, the high-speed continuous case), `crowd` (36 bodies onto a
//! terrain) and `struck_stack` (a group swept together). A changed hash is
//! a changed result: if the change is intended, say so and update the
//! constant; if it differs between thread counts, determinism is broken.

mod common;

use parapet_cli::scene::load_scene;

/// FNV-1a (64 bit) over the state bits of every body, in insertion order.
fn state_hash(world: &parapet::prelude::PhysicsWorld) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for bits in common::world_bits(world) {
        for word in bits {
            for byte in word.to_le_bytes() {
                hash ^= u64::from(byte);
                hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
            }
        }
    }
    hash
}

/// The hash of `scene`'s final state after all its steps, on `threads`
/// rayon threads.
fn final_hash(scene: &str, threads: usize) -> u64 {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("a thread pool");
    pool.install(|| {
        let path = common::scenes_dir().join(format!("{scene}.json"));
        let mut loaded = load_scene(&path).unwrap_or_else(|e| panic!("{e}"));
        for step in 0..loaded.scene.steps {
            if let Err(e) = loaded.world.step(loaded.scene.dt) {
                panic!("{scene} step {step}: {e}");
            }
        }
        state_hash(&loaded.world)
    })
}

/// The committed hashes. `crowd`'s changed once, on purpose, when groups
/// began to join only bodies that can meet within the step: bodies that a
/// shared reach region used to put in one group are now swept alone, the
/// same contacts computed along other arithmetic.
const PINNED: [(&str, u64); 3] = [
    ("fast_box_wall", 0x4995_a3d0_38f7_f53b),
    ("crowd", 0xf923_da5d_2f70_adb6),
    ("struck_stack", 0x5740_6159_6099_a62a),
];

#[test]
fn final_states_hash_to_the_pinned_values_on_1_2_and_4_threads() {
    for (scene, pinned) in PINNED {
        for threads in [1, 2, 4] {
            let hash = final_hash(scene, threads);
            assert_eq!(hash, pinned, "{scene} on {threads} threads: {hash:#018x}");
        }
    }
}
