//! Fuzz target `bodies`: `parapet_tests::hostile::run::bodies` on libFuzzer's
//! bytes (the assertions are that run's; a panic is a finding).
#![no_main]

use libfuzzer_sys::fuzz_target;
use parapet_tests::hostile::{run, Unstructured};

fuzz_target!(|data: &[u8]| {
    let _ = run::bodies(&mut Unstructured::new(data));
});
