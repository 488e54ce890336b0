//! Fuzz target `world`: `parapet_tests::hostile::run::world` on libFuzzer's
//! bytes (the assertions are that run's; a panic is a finding).
#![no_main]

use libfuzzer_sys::fuzz_target;
use parapet_tests::hostile::{run, Unstructured};

fuzz_target!(|data: &[u8]| {
    let _ = run::world(&mut Unstructured::new(data));
});
