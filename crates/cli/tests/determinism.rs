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

/// The committed hashes. All three changed, on purpose, when the
/// continuous step became one event loop over one time-of-impact arbiter
/// (the special loops and their groups retired: the same impacts computed
/// along other arithmetic, and resting contacts held at the held floor) and
/// the discrete contacts of boxes were rewritten (separating axes, the
/// reduced mesh points, the substepped soft solve of DISCRETE). `crowd`
/// changed again when sleeping came (on by default): bodies that come to
/// rest on the terrain fall asleep with zero velocities (with
/// `world.sleeping = false` it hashes to its former 0x3d9b_d169_bbf5_ee3b).
/// All three changed again when the continuous mode took the discrete
/// mode's substepped soft solve (one contact solver for both modes; its
/// substeps turn each body's inverse tensor with it), its arbiter took the
/// longer of a fixed axis and an axis turning with a turning body, and the
/// terrain of `crowd` slides over its seams (active edges).
/// Each is the same on 1, 2 and 4 threads.
const PINNED: [(&str, u64); 3] = [
    ("fast_box_wall", 0xd41a_55bc_eadb_2926),
    ("crowd", 0xdf13_8966_b5f9_9517),
    ("struck_stack", 0x68c9_67b8_7870_b858),
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
