//! Fuzz target `ccd_room`: `parapet_tests::hostile::run::ccd_room` on libFuzzer's
//! bytes (the assertions are that run's; a panic is a finding).
#![no_main]

use libfuzzer_sys::fuzz_target;
use parapet_tests::hostile::{run, Unstructured};

fuzz_target!(|data: &[u8]| {
    let _ = run::ccd_room(&mut Unstructured::new(data));
});
