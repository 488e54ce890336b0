//! Fuzz target `toi`: `parapet_tests::hostile::toi::time_of_impact` on
//! libFuzzer's bytes (the assertions are that run's; a panic is a finding).
#![no_main]

use libfuzzer_sys::fuzz_target;
use parapet_tests::hostile::{toi, Unstructured};

fuzz_target!(|data: &[u8]| {
    let _ = toi::time_of_impact(&mut Unstructured::new(data));
});
