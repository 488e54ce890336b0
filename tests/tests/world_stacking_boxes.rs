//! Stacks that stand: a column of 20 one-metre cubes of 1,000 kg and a
//! pyramid of 55, placed a centimetre apart on a tessellated floor, stand
//! for 10 s of 60 Hz steps in DISCRETE and in SPHERE_MESH_CCD (both modes
//! solve contacts in the same substeps): no two cubes overlap by more than
//! 2 cm, and at the end every cube is within 3 cm sideways of its place and
//! turned less than 1 degree (`parapet_scenes::box_stacks`, whose judge
//! shares no code with the contacts: the least overlap of two boxes over
//! their 15 separating axes, in `f64`). The resting depth is zero
//! (`RESTING_DEPTH`) and a loaded contact sinks like a spring of
//! `CONTACT_HERTZ`: every cube ends no lower than [`settle`] predicts.

use parapet_scenes::box_stacks::{stack_world, StackLayout, StackReport, DT};
use parapet_solver::contact::CONTACT_HERTZ;
use parapet_world::{CollisionDetection, DISCRETE, SPHERE_MESH_CCD};
use rstest::rstest;

/// How far (m) the top of a column of `n` one-metre cubes (or a pyramid
/// of `n` rows, whose cubes carry less) may settle: the
/// documented sinking of the soft contacts (`CONTACT_HERTZ`: a cube under
/// `k` cubes sinks by about `2 k g / ω²`, the floor under `n` by `n g / ω²`),
/// summed over the interfaces, plus 50% for the solver's residual and the
/// landing. A column sliding apart or sinking into itself is decimetres out.
fn settle(n: usize) -> f64 {
    let omega = 2.0 * std::f64::consts::PI * CONTACT_HERTZ;
    let per_cube = 9.8 / (omega * omega);
    let interfaces: f64 = (1..n).map(|k| 2.0 * k as f64).sum::<f64>() + n as f64;
    1.5 * interfaces * per_cube
}

fn stands_for_ten_seconds(layout: &StackLayout, mode: CollisionDetection) {
    let (mut w, ids) = stack_world(layout, mode).unwrap();
    let mut worst_overlap = 0.0f64;
    for step in 0..600 {
        w.step(DT)
            .unwrap_or_else(|e| panic!("{} {mode:?} step {step}: {e}", layout.name));
        let r = StackReport::of_world(layout, &w, &ids);
        worst_overlap = worst_overlap.max(r.overlap);
        assert!(
            r.overlap <= parapet_scenes::box_stacks::MAX_OVERLAP,
            "{} {mode:?} step {step}: {r:?}",
            layout.name
        );
    }
    let r = StackReport::of_world(layout, &w, &ids);
    assert!(r.stands(), "{} {mode:?}: {r:?}", layout.name);
    // Levels: a pyramid's cubes carry less than a column of its height.
    let mut heights: Vec<i64> = layout
        .places
        .iter()
        .map(|p| (p[2] * 100.0) as i64)
        .collect();
    heights.dedup();
    let levels = heights.len();
    assert!(
        r.sink <= settle(levels),
        "{} {mode:?}: {r:?}, limit {}",
        layout.name,
        settle(levels)
    );
    eprintln!(
        "{} {mode:?}: {r:?}, worst overlap {worst_overlap}",
        layout.name
    );
}

#[rstest]
#[case::discrete(DISCRETE)]
#[case::continuous(SPHERE_MESH_CCD)]
fn a_column_of_twenty_cubes_stands_for_ten_seconds(#[case] mode: CollisionDetection) {
    stands_for_ten_seconds(&StackLayout::column(20), mode);
}

#[rstest]
#[case::discrete(DISCRETE)]
#[case::continuous(SPHERE_MESH_CCD)]
fn a_pyramid_of_fifty_five_cubes_stands_for_ten_seconds(#[case] mode: CollisionDetection) {
    stands_for_ten_seconds(&StackLayout::pyramid(10), mode);
}
