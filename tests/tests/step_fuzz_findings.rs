//! Regression tests of the `world`, `snapshot` and `scene` fuzz targets'
//! findings. Each input kept in `fuzz/findings/world/`,
//! `fuzz/findings/snapshot/` and `fuzz/findings/scene/` is replayed
//! through its target's own run (`parapet_tests::hostile::run::world`,
//! `hostile::snapshot::snapshot`, `hostile::run::scene`),
//! whose assertions (`hostile::run::checked_step`) are that a successful
//! step reports only finite values and that a refused step changes
//! nothing and is refused with the same kind of error by a world rebuilt
//! from the visible state (`hostile::run::rebuilt`).
//!
//! What the findings were (each failed before its fix):
//! - `world/crash-f483…`, a library defect: a step of 2.4e-38 s reported a
//!   swept event whose impulse was `inf`, the sum of a pair's point
//!   impulses that each fit `f32`. The step is now refused with
//!   `StepError::NotRepresentable` ("event impulse").
//! - the other six `world` inputs and `snapshot/crash-63c3…`, the
//!   harness's mistake: a static mesh moved after it was added (by a setter,
//!   or by a number changed in a snapshot) is swept where `add_body`
//!   captured its triangles (docs/continuous-collision.md, "Static mesh
//!   snapshots"), but the rebuilt world captured them where the body now
//!   is, so it stepped a different world (the refusals were the impact
//!   limit, an unresolvable cascade, the advancement budget and the
//!   precision domain). `rebuilt` now declines such a world.
//! - the ten `scene` inputs: a scene read and stepped twice was refused
//!   at its second step for the impact limit (the warm-started contact
//!   velocities steered the continuous step into a longer cascade), where
//!   the rebuilt world, without the warm-start cache, stepped or was
//!   refused as `Unresolvable`. A step whose stages fail after a warm
//!   start now runs again cold from its snapshot and is refused only when
//!   that run fails too.
//! - `snapshot/crash-2ad7…` (an `ImpactLimit` refusal the rebuilt world
//!   did not share, kept from an earlier run) passes since the continuous
//!   step's later changes; it stays as a regression test.

use parapet_tests::hostile::{self, run, snapshot, Unstructured};
use rstest::rstest;

/// Replays one kept `world` input; the run panics on a broken promise.
#[rstest]
#[case::impact_limit("crash-055642764fc6d624cc70e820a98c844e609710e7")]
#[case::unresolvable("crash-0a1d47298e26a1cdee083df57f132c7da6bc712d")]
#[case::rounding_slack("crash-4759fc1039bac5c21b76cd1c30ad0eaf53477642")]
#[case::core_reach("crash-47e5c4511d68fb50ee29e9132161ca0363f01f6e")]
#[case::budget_or_precision("crash-53ee3607944ed83869cc804e117e1132ef672ad6")]
#[case::advancement_budget("crash-62d4eb6e1ff51eb451cae75ffda962bf5457de0e")]
#[case::event_impulse_beyond_f32("crash-f483b96933f5abead432f3609f396c1c8a57437c")]
fn the_world_finding_keeps_the_promises(#[case] name: &str) {
    let data = hostile::finding("world", name);
    let _ = run::world(&mut Unstructured::new(&data));
}

/// Replays one kept `snapshot` input (a world read back from a snapshot);
/// the run panics on a broken promise.
#[rstest]
#[case("crash-2ad778eef55f9a0a1a03940dbcad96ee9b1aa99a")]
#[case("crash-63c3809a5049c6792b2ca212861979c6d8703f63")]
fn the_snapshot_finding_keeps_the_promises(#[case] name: &str) {
    let data = hostile::finding("snapshot", name);
    let _ = snapshot::snapshot(&mut Unstructured::new(&data));
}

/// Replays one kept `scene` input (a scene file read and stepped twice);
/// the run panics on a broken promise.
#[rstest]
#[case("crash-22b6615efcb5e3b00f496c1ac0a8a425255a6ea9")]
#[case("crash-34add38de7273172cdb3139c6155ac3257be378d")]
#[case("crash-4b83eca0e49647b074d712fafc0d563527f4e3db")]
#[case("crash-529d1bd75bf667baa4a0cb9c500c418233da3e31")]
#[case("crash-57ccd8e06de4b502d8a09aee5775f1443a8dbf5c")]
#[case("crash-7992c1c2017c7bab270f17f827ebd4e0b8a1c24a")]
#[case("crash-9cddea79a50a39e55e3a70a81ff5362d3e430372")]
#[case("crash-b595302b1604bdfddddf2ffa8f625ef13b0ebfff")]
#[case("crash-ceeb1a6d1c78d3813af2f4e18cdcee37b40ad1cd")]
#[case("crash-decf3af17ba6e2a34459b5976b3b910ca4735db6")]
fn the_scene_finding_keeps_the_promises(#[case] name: &str) {
    let data = hostile::finding("scene", name);
    let _ = run::scene(&mut Unstructured::new(&data));
}
