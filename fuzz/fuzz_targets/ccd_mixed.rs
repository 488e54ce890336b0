//! Fuzz target `ccd_mixed`: `parapet_tests::hostile::mixed::ccd_mixed` on
//! libFuzzer's bytes (the assertions are that run's; a panic is a finding).
#![no_main]

use libfuzzer_sys::fuzz_target;
use parapet_tests::hostile::{mixed, Unstructured};

fuzz_target!(|data: &[u8]| {
    let _ = mixed::ccd_mixed(&mut Unstructured::new(data));
});
