//! The vehicle scenes of `parapet-scenes` (turning boxes and hulls): in
//! SPHERE_MESH_CCD none is refused and none crosses a surface by the
//! scenes' independent checks (sampled surface points against the height
//! field or the wall plane in `f64`), each takes swept impacts, and none
//! gains energy; in DISCRETE each crosses. Each scene's own physical claim
//! is checked: the chassis bounces back off the kerb, the car turns over,
//! the crate stays over the terrain.

use parapet::prelude::*;
use parapet_scenes::{car_rollover, chassis_kerb, hull_crate, run, Scene, SceneRun};

fn both(
    build: fn(CollisionDetection, usize) -> Result<Scene, parapet_scenes::SceneError>,
    steps: usize,
) -> (SceneRun, SceneRun, Scene) {
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
    assert!(
        c.energy_end < c.energy_start,
        "{name}: {} -> {}",
        c.energy_start,
        c.energy_end
    );
    // Never deeper than the solid crossing tolerance (1 cm) into a surface.
    assert!(
        c.min_gap() > -parapet_scenes::scene::SOLID_CROSSING_TOLERANCE,
        "{name}: {}",
        c.min_gap()
    );
    assert!(d.crossed(), "{name}: DISCRETE never crossed");
    eprintln!(
        "{name}: ccd min gap {:.4} impacts {} final {:?}; discrete crossed at {:?}",
        c.min_gap(),
        c.swept_impacts,
        c.final_positions,
        d.crossed_at
    );
}

#[test]
fn the_chassis_yawing_into_the_kerb_at_60_m_s_bounces_back_and_never_passes_it() {
    let (d, c, scene) = both(chassis_kerb, 60);
    common(&d, &c);
    // Bounced back: it ends short of the kerb, moving away from it or at
    // rest (the crossing check already keeps every point in front).
    let mut s = scene;
    for _ in 0..60 {
        s.world.step(s.dt).unwrap();
    }
    let b = s.world.body(s.subject).unwrap();
    assert!(b.linear_velocity().x <= 0.5, "{:?}", b.linear_velocity());
    assert!(
        b.position().x < parapet_scenes::vehicles::KERB_X,
        "{:?}",
        b.position()
    );
}

#[test]
fn the_car_that_jumps_rolls_over_on_the_terrain_without_crossing_it() {
    let (d, c, scene) = both(car_rollover, 120);
    common(&d, &c);
    // It turned over: at some step its roof pointed sideways or down (the
    // body's up axis below 30 degrees of elevation).
    let mut s = scene;
    let mut turned = false;
    for _ in 0..120 {
        s.world.step(s.dt).unwrap();
        let up = s.world.body(s.subject).unwrap().rotation() * Vec3::z();
        turned |= up.z < 0.5;
    }
    assert!(turned, "the car never turned over");
}

#[test]
fn the_hull_crate_at_100_m_s_lands_on_the_terrain_without_crossing_it() {
    let (d, c, _) = both(hull_crate, 90);
    assert!(
        c.samples.iter().all(|s| s.gap.is_finite()),
        "the crate left the terrain"
    );
    common(&d, &c);
}
