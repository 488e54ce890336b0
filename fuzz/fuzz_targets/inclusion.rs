//! Fuzz target `inclusion`: `parapet_tests::hostile::inclusion::inclusion` on libFuzzer's
//! bytes (the assertions are that run's; a panic is a finding).
#![no_main]

use libfuzzer_sys::fuzz_target;
use parapet_tests::hostile::{inclusion, Unstructured};

fuzz_target!(|data: &[u8]| {
    let _ = inclusion::inclusion(&mut Unstructured::new(data));
});
