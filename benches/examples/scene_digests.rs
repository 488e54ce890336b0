//! Digests of the demo scenes (both modes, every step to their demo count)
//! and of the walker bench scenes (64 walkers of each kind, 60 steps driven
//! as the bench drives them), for the scenes that `step_profile` does not
//! cover: turning capsules, spinning anisotropic spheres, walkers. A change
//! meant to leave results as they are shows it by printing the same lines.
//!
//! `cargo run --release -p parapet-benches --example scene_digests`

use parapet::prelude::*;
use parapet_scenes::bench_walkers::{walkers, WalkerKind};
use parapet_scenes::demo_scenes;

/// FNV-1a over the bits of every body's pose and velocities and of every
/// event of the last step.
fn digest(world: &PhysicsWorld, h: &mut u64) {
    let mut eat = |bytes: &[u8]| {
        for &b in bytes {
            *h = (*h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3);
        }
    };
    for (_, b) in world.bodies() {
        let q = b.rotation();
        let p = b.position();
        let v = b.linear_velocity();
        let w = b.angular_velocity();
        for x in [
            p.x, p.y, p.z, q.i, q.j, q.k, q.w, v.x, v.y, v.z, w.x, w.y, w.z,
        ] {
            eat(&x.to_bits().to_le_bytes());
        }
    }
    eat(&(world.contact_count() as u64).to_le_bytes());
    for e in world.events() {
        eat(format!("{:?}{:?}{:?}", e.body_a, e.body_b, e.kind).as_bytes());
        for x in [
            e.point.x,
            e.point.y,
            e.point.z,
            e.normal.x,
            e.normal.y,
            e.normal.z,
            e.normal_impulse.x,
            e.normal_impulse.y,
            e.normal_impulse.z,
            e.time,
        ] {
            eat(&x.to_bits().to_le_bytes());
        }
    }
}

fn main() {
    for (mode, name) in [(DISCRETE, "discrete"), (SPHERE_MESH_CCD, "ccd")] {
        let scenes = demo_scenes(mode, false).expect("the demo scenes build");
        for mut scene in scenes {
            let mut h: u64 = 0xcbf2_9ce4_8422_2325;
            let mut outcome = String::from("ok");
            for _ in 0..scene.steps {
                if let Err(e) = scene.world.step(scene.dt) {
                    outcome = e.to_string();
                    break;
                }
                digest(&scene.world, &mut h);
            }
            println!("demo {} {name} {h:016x} {outcome}", scene.name);
        }
    }
    for kind in [WalkerKind::LockedCapsule, WalkerKind::SpinningSphere] {
        let mut w = walkers(kind, 64, 2048).expect("the walker scene builds");
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        let mut outcome = String::from("ok");
        for _ in 0..60 {
            let mut world = std::mem::take(&mut w.world);
            w.drive(&mut world);
            w.world = world;
            if let Err(e) = w.world.step(parapet_scenes::bench_walkers::DT) {
                outcome = e.to_string();
                break;
            }
            digest(&w.world, &mut h);
        }
        println!("walkers {} ccd {h:016x} {outcome}", kind.name());
    }
}
