//! Digests of the demo scenes (both modes, every step to their demo count)
//! and of the walker bench scenes (64 walkers of each kind, 60 steps driven
//! as the bench drives them), for the scenes that `step_profile` does not
//! cover: turning capsules, spinning anisotropic spheres, walkers. A change
//! meant to leave results as they are shows it by printing the same lines.
//!
//! `cargo run --release -p parapet-benches --example scene_digests`

use parapet::prelude::*;
use parapet_benches::digest::Fnv1a;
use parapet_scenes::bench_walkers::{walkers, WalkerKind};
use parapet_scenes::demo_scenes;

fn main() {
    for (mode, name) in [(DISCRETE, "discrete"), (SPHERE_MESH_CCD, "ccd")] {
        let scenes = demo_scenes(mode, false).expect("the demo scenes build");
        for mut scene in scenes {
            let mut h = Fnv1a::new();
            let mut outcome = String::from("ok");
            for _ in 0..scene.steps {
                if let Err(e) = scene.world.step(scene.dt) {
                    outcome = e.to_string();
                    break;
                }
                h.bodies(&scene.world);
                h.events(&scene.world);
            }
            println!("demo {} {name} {:016x} {outcome}", scene.name, h.value());
        }
    }
    for kind in [WalkerKind::LockedCapsule, WalkerKind::SpinningSphere] {
        let mut w = walkers(kind, 64, 2048).expect("the walker scene builds");
        let mut h = Fnv1a::new();
        let mut outcome = String::from("ok");
        for _ in 0..60 {
            let mut world = std::mem::take(&mut w.world);
            w.drive(&mut world);
            w.world = world;
            if let Err(e) = w.world.step(parapet_scenes::bench_walkers::DT) {
                outcome = e.to_string();
                break;
            }
            h.bodies(&w.world);
            h.events(&w.world);
        }
        println!("walkers {} ccd {:016x} {outcome}", kind.name(), h.value());
    }
}
