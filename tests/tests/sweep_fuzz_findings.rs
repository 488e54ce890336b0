//! Regression tests of the `sweeps` fuzz target's findings: each input
//! kept in `fuzz/findings/sweeps/` is replayed through the target's own
//! run (`parapet_tests::hostile::narrow::sweeps`), whose oracles share no
//! code with the sweeps: a reported miss never hides an overlap sampled
//! with exact distances, and every impact has a unit normal.
//!
//! What broke (each failed before the fix; the 30-minute run saved 156
//! such inputs, all of these two kinds):
//! - a sphere's centre (or a capsule's end, the other behind) exactly on
//!   the line of one of the triangle's edges lies in its plane, and the
//!   computed height's sign is rounding noise; the one-sided admission
//!   read it as behind and answered `Miss` while the shape overlapped the
//!   triangle (143 inputs). A point counts as behind only beyond the
//!   rounding of its height now (`TriangleFrame::behind`).
//! - a triangle far smaller than its distance from the moving shape
//!   (1.7e-20 m across, 2.9 m away) lost its area when the sweep subtracted
//!   its origin, and an impact took the normal 0 / 0 (13 inputs). The
//!   thin-triangle check now runs on the shifted vertices too and refuses
//!   it (`SweepRefusal::ThinTriangle`).

use parapet_tests::hostile::{self, narrow, Unstructured};
use rstest::rstest;

/// Replays one kept input; the run panics on a broken promise.
#[rstest]
#[case::sphere_on_an_edge_line("crash-0008f19968d63088650cba7eddd1d59186352809")]
#[case::sphere_on_an_edge_line_moving("crash-0315a92cb7844b69e964882255a0c1c934b3b360")]
#[case::capsule_end_on_an_edge_line("crash-4254c49f9e71e647503424b195089d56c7cd3770")]
#[case::tiny_triangle_nan_normal("crash-58a27210cf72d3d190d0f0459df4a004357400c5")]
#[case::tiny_far_triangle_nan_normal("crash-67c29226ab273660b10cf90c1bbf994cc6a74da7")]
#[case::list_nan_normal("crash-2d37cf088f3fa684a658260d6cae244969df64b2")]
fn the_sweep_finding_keeps_the_promises(#[case] name: &str) {
    let data = hostile::finding("sweeps", name);
    let _ = narrow::sweeps(&mut Unstructured::new(&data));
}
