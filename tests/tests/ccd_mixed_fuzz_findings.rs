//! Regression tests of the `ccd_mixed` fuzz target's findings: each input
//! kept in `fuzz/findings/ccd_mixed/` is replayed through the target's own
//! run (`parapet_tests::hostile::mixed::ccd_mixed`), whose assertion is the
//! continuous step's promise: after every accepted step, no pair with a
//! dynamic body that started apart is deeper than its promised depth
//! (parry3d's contact query) and no dynamic body is under the floor.
//!
//! What broke (each failed before its fix):
//! - `crash-aacc…`: a sphere of 5 cm resting on a grid floor to within
//!   rounding of touching, driven into it by a kinematic box, was neither
//!   touching (the sweep's initial test, `|h| <= r`) nor entering (its
//!   entry, `h_raw > r n_len`): it sank 11.0 mm before the next triangle's
//!   edge caught it. Both now read the same raw quantities.
//! - `crash-c0ae…`: two capsules touching to within rounding and closing
//!   were likewise neither touching (closest points of the segments) nor
//!   entering (the interiors' slab and `entry_root`'s `c > 0`): 21.2 mm
//!   deep. A point on or inside a round surface and approaching now enters
//!   at once.
//! - `crash-0fa1…`: a rotation-locked box and a hull spinning at 27 rad/s,
//!   held at their promised depth: the hit's own point was leaving, so no
//!   leaving speed was set, while the spin kept bringing the hull's next
//!   corner deeper (7.46 mm against 5.81 mm). The pair's sinking rate by
//!   the arbiter's measure now counts too.
//! - `crash-1d95…` and `crash-46d3…`: a rotation-locked box struck by a
//!   cube spinning at 20 rad/s (12.0 mm against 4.25 mm) and by a hull
//!   spinning at 27 rad/s (5.86 mm against 5.81 mm). The event's one
//!   contact point was moved onto the arbiter's witness, which for
//!   overlapping cores is a corner of A's face, 0.82 m from where the
//!   cube reached through it, and leaving: the strike found nothing
//!   closing and the pair was held deeper 5,042 times. A lone point now
//!   takes the witness only when the two are within the manifold margin.
//! - `promise-sphere-spinning-box-5-82-mm` (a case of
//!   `physics_promises.rs` at 20,000 worlds, replayed with its parameters):
//!   a sphere and a box spinning at 22 rad/s held at their promised depth
//!   were struck to a stop there, the spin brought them back at once, and
//!   each hold went a fraction of a tolerance deeper, 10.6 µm beyond the
//!   promise within one step. A pair at its promise that still sinks now
//!   leaves at twice its sinking speed from every strike there.
//! - `crash-ea11…`: the oracle's own mistake. A rotation-locked capsule
//!   sliding at 8.9 m/s along a sloped floor, its cap resting on it to
//!   within 4 nm, read 23.1 mm deep by parry3d's `contact` (its EPA's two
//!   points 0.47 m apart), while parry3d's `distance` read the pair apart.
//!   The oracle (`parapet_tests::overlap::depth`) now gives `contact` only
//!   the pairs and triangles that GJK's distance does not separate.

use parapet_tests::hostile::{self, mixed, Unstructured};
use rstest::rstest;

/// Replays one kept input; the run panics on a broken promise.
#[rstest]
#[case("crash-0fa1b163039a0d61ca579a5d113f80461b2dedce")]
#[case("crash-1d95fc0630a72d2a2ccce33ecc3589ba8888e39a")]
#[case("crash-46d306ef0892873917c05767802f7ff26c154d4f")]
#[case("crash-aacc4ff633bad1f5bc6e13b6a669050ba0d0b217")]
#[case("crash-c0aec305fb8cbb2eec8c404d43ba8835d0a1a0bd")]
#[case("crash-ea11bbce821767d283eabcc7da03ec13f230fd9e")]
fn the_ccd_mixed_finding_keeps_the_promise(#[case] name: &str) {
    let data = hostile::finding("ccd_mixed", name);
    let _ = mixed::ccd_mixed(&mut Unstructured::new(&data));
}

/// Replays the kept `physics_promises.rs` case through that test's run
/// ([`mixed::promise_run`]).
#[test]
fn the_promise_finding_keeps_the_promise() {
    let data = hostile::finding("ccd_mixed", "promise-sphere-spinning-box-5-82-mm");
    let _ = mixed::promise_run(&mut Unstructured::new(&data));
}
