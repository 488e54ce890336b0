//! The demo's claims at full length: every scene of `parapet-scenes`, run for
//! its full demo step count in both modes, shows what the demo table says:
//! DISCRETE crosses a surface in every scene; SPHERE_MESH_CCD never does, and
//! refuses the one world it cannot promise (the struck stack: interacting
//! moving bodies) leaving it unchanged. Repeat runs are bitwise identical.

use parapet::prelude::*;
use parapet_scenes::{demo_scenes, run, SceneRun};

fn runs(mode: CollisionDetection) -> Vec<SceneRun> {
    demo_scenes(mode, false)
        .unwrap()
        .into_iter()
        .map(|s| run(s, &mut |_, _| {}))
        .collect()
}

#[test]
fn discrete_crosses_a_surface_in_every_demo_scene() {
    for r in runs(DISCRETE) {
        assert!(r.refusal.is_none(), "{}: {:?}", r.name, r.refusal);
        assert!(r.crossed(), "{}: DISCRETE never crossed", r.name);
    }
}

#[test]
fn ccd_never_crosses_in_any_demo_scene() {
    for r in runs(SPHERE_MESH_CCD) {
        assert!(!r.crossed(), "{} crossed at {:?}", r.name, r.crossed_at);
        let name = r.name;
        assert!(r.refusal.is_none(), "{name}: {:?}", r.refusal);
        assert!(
            r.swept_impacts >= 1,
            "{name}: the fast approach is a swept impact"
        );
        // Plastic impacts and friction remove energy; a swept impact
        // never adds it. The walker's controller does work
        // against friction each step, so its final energy is compared
        // with the drop's, which is hundreds of times larger.
        assert!(
            r.energy_end < r.energy_start,
            "{name}: {} -> {}",
            r.energy_start,
            r.energy_end
        );
        // Never more than the contact solver's slop into the surface:
        // 1 cm is half the contact margin and a tenth of every radius.
        assert!(r.min_gap() > -0.01, "{name}: min gap {}", r.min_gap());
    }
}

#[test]
fn the_tunneling_scene_rests_at_one_radius_in_ccd() {
    let r = runs(SPHERE_MESH_CCD).remove(0);
    assert_eq!(r.name, "tunneling");
    let (_, p) = r.final_positions[0];
    // 1e-4 m: f32 rounding of the impact position and of resting contact.
    assert!((p.z - 0.1).abs() < 1e-4, "{p:?}");
    assert_eq!(r.swept_impacts, 1, "one impact, then resting contact");
}

#[test]
fn repeat_runs_of_every_scene_are_bitwise_identical() {
    for mode in [DISCRETE, SPHERE_MESH_CCD] {
        let (a, b) = (runs(mode), runs(mode));
        for (x, y) in a.iter().zip(&b) {
            assert_eq!(x.samples, y.samples, "{} {mode:?}", x.name);
            assert_eq!(x.final_positions, y.final_positions, "{} {mode:?}", x.name);
            assert_eq!(
                x.energy_end.to_bits(),
                y.energy_end.to_bits(),
                "{} {mode:?}",
                x.name
            );
        }
    }
}
