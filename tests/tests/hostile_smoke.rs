//! The stable smoke of the hostile-input targets: the same runs as the
//! cargo-fuzz targets in `fuzz/` (`parapet_tests::hostile`), over proptest
//! byte strings instead of a fuzzer's corpus, so that every submission
//! checks them without a nightly toolchain. Each run asserts what its
//! target does (see `tests/src/hostile/mod.rs`): no panic, a refused step
//! changes nothing (hidden state included), a successful step reports only
//! finite values, no body in a closed room ends beyond its walls, no pair
//! of a mixed continuous world ends deeper than promised, and a snapshot
//! reads back bit for bit.
//!
//! The committed seeds (`fuzz/corpus/<target>/seed-*`) run first, then
//! random byte strings; the case counts keep the whole file under a minute
//! in the test profile.

use parapet_tests::hostile::{self, inclusion, mixed, narrow, run, snapshot, Unstructured};
use proptest::prelude::*;

type Run = fn(&mut Unstructured<'_>) -> arbitrary::Result<()>;

/// Every target, its run and its proptest case count.
const TARGETS: [(&str, Run, u32); 11] = [
    ("shapes", run::shapes, 600),
    ("bodies", run::bodies, 600),
    ("world", run::world, 300),
    ("ccd_room", run::ccd_room, 200),
    ("sweeps", narrow::sweeps, 600),
    ("contacts", narrow::contacts, 500),
    ("rays", narrow::shape_rays, 400),
    ("inclusion", inclusion::inclusion, 200),
    ("scene", run::scene, 200),
    ("ccd_mixed", mixed::ccd_mixed, 100),
    ("snapshot", snapshot::snapshot, 200),
];

fn drive(f: Run, data: &[u8]) {
    let _ = f(&mut Unstructured::new(data));
}

#[test]
fn every_seed_of_the_committed_corpus_passes_its_target() {
    for (name, f, _) in TARGETS {
        let seeds = hostile::seeds(name);
        assert!(seeds.len() >= 20, "{name}: {} seeds", seeds.len());
        for data in seeds {
            drive(f, &data);
        }
    }
}

fn bytes() -> impl Strategy<Value = Vec<u8>> {
    proptest::collection::vec(any::<u8>(), 0..2048)
}

macro_rules! smoke {
    ($test:ident, $index:expr) => {
        proptest! {
            #![proptest_config(ProptestConfig {
                cases: TARGETS[$index].2,
                failure_persistence: None,
                ..ProptestConfig::default()
            })]
            #[test]
            fn $test(data in bytes()) {
                drive(TARGETS[$index].1, &data);
            }
        }
    };
}

smoke!(shapes_survive_hostile_input, 0);
smoke!(bodies_and_every_setter_survive_hostile_input, 1);
smoke!(worlds_step_finitely_or_refuse_without_a_trace, 2);
smoke!(no_body_leaves_a_closed_room_in_continuous_mode, 3);
smoke!(sweeps_agree_with_their_brute_force_oracles, 4);
smoke!(contacts_are_finite_and_lie_on_both_shapes, 5);
smoke!(ray_casts_refuse_what_they_cannot_answer, 6);
smoke!(inclusion_queries_stay_conservative, 7);
smoke!(scene_files_round_trip_or_name_their_error, 8);
smoke!(mixed_continuous_worlds_keep_bodies_apart, 9);
smoke!(snapshots_read_back_bit_for_bit_or_name_their_error, 10);
