//! Fuzz target `snapshot`: `parapet_tests::hostile::snapshot::snapshot` on
//! libFuzzer's bytes (the assertions are that run's; a panic is a finding).
#![no_main]

use libfuzzer_sys::fuzz_target;
use parapet_tests::hostile::{snapshot, Unstructured};

fuzz_target!(|data: &[u8]| {
    let _ = snapshot::snapshot(&mut Unstructured::new(data));
});
