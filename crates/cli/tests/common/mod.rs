//! Helpers shared by the command's integration tests.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use parapet::prelude::*;

/// Every `f32` of a body's state, as bits, in a fixed order: pose, shape
/// offset, mass centre, velocities, split velocities, pending force and
/// torque, damping, material, effective and retained mass and tensor.
pub fn state_bits(body: &RigidBody) -> Vec<u32> {
    let mut v: Vec<f32> = Vec::new();
    let (offset, offset_rotation) = body.shape_offset();
    for x in [
        body.position(),
        offset,
        body.center_of_mass(),
        body.linear_velocity(),
        body.angular_velocity(),
        body.split_linear_velocity(),
        body.split_angular_velocity(),
        body.force(),
        body.torque(),
    ] {
        v.extend(x.iter());
    }
    for q in [body.rotation(), offset_rotation] {
        v.extend(q.coords.iter());
    }
    let m = body.material();
    v.extend([
        body.linear_damping(),
        body.angular_damping(),
        m.friction,
        m.restitution,
        m.bounce_threshold,
        body.mass(),
        body.inverse_mass(),
        body.dynamic_mass().unwrap_or(f32::NAN),
    ]);
    v.extend(body.inverse_inertia().iter());
    if let Some(inverse) = body.dynamic_inverse_inertia() {
        v.extend(inverse.iter());
    }
    let mut bits: Vec<u32> = v.iter().map(|x| x.to_bits()).collect();
    bits.push(body.kind() as u32);
    bits.push(u32::from(body.collides()));
    bits.push(u32::from(body.has_custom_inverse_inertia()));
    bits
}

/// The state bits of every body of `world`, in insertion order.
pub fn world_bits(world: &PhysicsWorld) -> Vec<Vec<u32>> {
    world.bodies().map(|(_, b)| state_bits(b)).collect()
}

/// A fresh, empty directory under Cargo's temporary directory for
/// integration tests (inside target/).
pub fn fresh_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temporary directory in target/");
    dir
}

/// The repository's `scenes/` directory.
pub fn scenes_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenes")
}

/// A minimal valid scene: one ball over a one-triangle floor.
pub const BALL: &str = r#"{
  "format": "parapet-scene/1",
  "dt": 0.01,
  "steps": 5,
  "world": { "collision_detection": "SPHERE_MESH_CCD" },
  "bodies": [
    { "name": "floor", "kind": "static",
      "shape": { "mesh": { "vertices": [[-10, -10, 0], [10, -10, 0], [0, 10, 0]],
                           "triangles": [[0, 1, 2]] } } },
    { "name": "ball", "kind": "dynamic", "mass": 1.0,
      "shape": { "sphere": { "radius": 0.1 } },
      "position": [0, 0, 0.15], "linear_velocity": [0, 0, -30] }
  ]
}
"#;

/// Runs the built `parapet` binary with `args`.
pub fn parapet(args: &[&std::ffi::OsStr]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_parapet"))
        .args(args)
        .output()
        .expect("the parapet binary runs")
}

/// `parapet` with string arguments.
pub fn parapet_str(args: &[&str]) -> std::process::Output {
    let args: Vec<&std::ffi::OsStr> = args.iter().map(std::ffi::OsStr::new).collect();
    parapet(&args)
}

/// A scene whose first continuous step is refused: an elastic ball flying
/// at 30 m/s between the two plates of a static slot 0.3 m apart (0.1 m of
/// travel between its radii) bounces three times in a step of 0.01 s, one
/// more than the scene's `ccd_max_impacts` of 2. The far ball meets nothing
/// and is never named. In DISCRETE it runs.
pub const REFUSED_SLOT: &str = r#"{
  "format": "parapet-scene/1",
  "dt": 0.01,
  "steps": 3,
  "world": { "collision_detection": "SPHERE_MESH_CCD", "ccd_max_impacts": 2,
             "gravity": [0, 0, 0] },
  "bodies": [
    { "name": "slot", "kind": "static",
      "shape": { "mesh": {
        "vertices": [[-1, -1, 0], [1, -1, 0], [1, 1, 0], [-1, 1, 0],
                     [-1, -1, 0.3], [1, -1, 0.3], [1, 1, 0.3], [-1, 1, 0.3]],
        "triangles": [[0, 1, 2], [0, 2, 3], [4, 6, 5], [4, 7, 6]] } },
      "material": { "restitution": 1, "friction": 0 } },
    { "name": "ball", "kind": "dynamic", "mass": 1,
      "shape": { "sphere": { "radius": 0.1 } },
      "material": { "restitution": 1, "friction": 0 },
      "position": [0, 0, 0.15], "linear_velocity": [0, 0, -30] },
    { "name": "far", "kind": "dynamic", "mass": 1,
      "shape": { "sphere": { "radius": 0.1 } },
      "position": [100, 0, 0.5] }
  ]
}
"#;
