//! The example scenes of `scenes/`: each is what `make_scenes` writes from
//! the shared Rust scenes (so the two cannot drift apart), each reads, and
//! each runs all its steps without a refused step.

mod common;

#[path = "../examples/make_scenes.rs"]
mod make_scenes;

use parapet_cli::scene::load_scene;

#[test]
fn the_committed_scenes_are_what_make_scenes_writes() -> Result<(), Box<dyn std::error::Error>> {
    for example in make_scenes::examples()? {
        let path = common::scenes_dir().join(format!("{}.json", example.stem));
        let committed = std::fs::read_to_string(&path)?;
        assert!(
            committed == example.text,
            "{} differs from what `cargo run -p parapet-cli --example make_scenes` writes",
            path.display()
        );
    }
    Ok(())
}

#[test]
fn every_example_scene_runs_all_its_steps() -> Result<(), Box<dyn std::error::Error>> {
    let mut stems = Vec::new();
    for entry in std::fs::read_dir(common::scenes_dir())? {
        let path = entry?.path();
        if path.extension().is_some_and(|e| e == "json") {
            let mut loaded = load_scene(&path)?;
            for step in 0..loaded.scene.steps {
                loaded
                    .world
                    .step(loaded.scene.dt)
                    .map_err(|e| format!("{} step {step}: {e}", path.display()))?;
            }
            stems.push(path.file_stem().map(|s| s.to_string_lossy().into_owned()));
        }
    }
    stems.sort();
    let expected = [
        "car_crash",
        "chassis_kerb",
        "crossroads",
        "crowd",
        "fast_box_wall",
        "filters_sensors",
        "struck_stack",
        "tunneling",
        "walker_on_terrain",
    ];
    assert_eq!(stems, expected.map(|s| Some(s.to_owned())));
    Ok(())
}
