//! temporary debugging harness (not committed)
use parapet::prelude::*;
fn main() {
    let name = std::env::args().nth(1).unwrap();
    let mut scene = match name.as_str() {
        "dominoes" => parapet_scenes::dominoes::dominoes(SPHERE_MESH_CCD, 120).unwrap(),
        "crossroads" => parapet_scenes::crossroads::crossroads(SPHERE_MESH_CCD, 600).unwrap(),
        "coarse" => parapet_scenes::crossroads::crossroads_coarse(SPHERE_MESH_CCD, 200).unwrap(),
        _ => panic!(),
    };
    for s in 0..scene.steps {
        scene.apply_controls();
        match scene.world.step(scene.dt) {
            Ok(()) => {}
            Err(e) => {
                println!("step {s}: {e}");
                break;
            }
        }
    }
}
