//! Fuzz target `rays`: `parapet_tests::hostile::narrow::shape_rays` on libFuzzer's
//! bytes (the assertions are that run's; a panic is a finding).
#![no_main]

use libfuzzer_sys::fuzz_target;
use parapet_tests::hostile::{narrow, Unstructured};

fuzz_target!(|data: &[u8]| {
    let _ = narrow::shape_rays(&mut Unstructured::new(data));
});
