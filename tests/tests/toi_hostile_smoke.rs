//! The stable smoke of the `toi` fuzz target: the same run
//! (`parapet_tests::hostile::toi::time_of_impact`: no panic, well-formed
//! answers, the same bits twice, and never late on ordinary input against
//! the independent signed distance) over the committed seeds
//! (`fuzz/corpus/toi/seed-*`) and deterministic random byte strings, so that every
//! submission checks it without a nightly toolchain.

use parapet_tests::hostile::{self, toi, Unstructured};

#[test]
fn every_seed_of_the_committed_corpus_passes() {
    let seeds = hostile::seeds("toi");
    assert!(seeds.len() >= 20, "{} seeds", seeds.len());
    for data in seeds {
        let _ = toi::time_of_impact(&mut Unstructured::new(&data));
    }
}

#[test]
fn random_byte_strings_pass_and_most_run_to_the_end() {
    // Deterministic byte strings of 64 to 512 bytes; a run that has not
    // used up its bytes reaches the end (the oracle on ordinary input).
    let mut seed = 0x27u64;
    let mut next = move || {
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (seed >> 33) as u32
    };
    let mut finished = 0;
    for _ in 0..600 {
        let len = 64 + (next() % 448) as usize;
        let data: Vec<u8> = (0..len).map(|_| next() as u8).collect();
        if toi::time_of_impact(&mut Unstructured::new(&data)).is_ok() {
            finished += 1;
        }
    }
    assert!(finished >= 300, "{finished} of 600 runs reached the end");
}
