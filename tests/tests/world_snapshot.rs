//! World snapshots (`parapet::snapshot`): a world written to JSON or CBOR and
//! read back steps to the same bits as the original for 300 steps (the demo
//! scenes in both modes, high-speed continuous scenes, a crowd of driven
//! walkers on a terrain), taken both before the first step (mesh index not
//! yet built, empty caches) and mid-run (warm-start cache, events, built
//! index, pending loads); writing, reading and writing again gives the same
//! bytes; ids, generations and the free list carry over; a corrupt, wrong
//! format or inconsistent snapshot is a typed error naming what is wrong.
//!
//! "Same bits" is checked on the whole saved state after every step: the
//! CBOR snapshot of the original and of each restored world must be the
//! same bytes (CBOR keeps every `f32` bit for bit, so equal bytes are equal
//! bodies, events, contact caches and configuration).

use parapet::ccd::CcdMode;
use parapet::prelude::*;
use parapet::snapshot::{from_bytes, from_json, to_bytes, to_json, SnapshotError, FORMAT};
use parapet_scenes::bench_ccd::{falling_spheres, head_on_pairs};
use parapet_scenes::bench_walkers::{walkers, WalkerKind};
use parapet_scenes::demo_scenes;

/// Steps each restored world is compared over.
const STEPS: usize = 300;

/// A controller applied to every copy before each step (the scenes' walkers
/// are driven), so that the copies see the same inputs.
type Drive<'a> = &'a dyn Fn(&mut PhysicsWorld);

/// The whole saved state of `world`, as CBOR bytes.
fn state(world: &PhysicsWorld) -> Vec<u8> {
    to_bytes(world).expect("a world in memory always writes as CBOR")
}

/// Writes `world` as JSON and as CBOR, checks that each reads back to a
/// world that writes the same bytes again, and returns the two copies.
fn restored_copies(name: &str, world: &PhysicsWorld) -> [PhysicsWorld; 2] {
    let json = to_json(world).unwrap_or_else(|e| panic!("{name}: {e}"));
    let bytes = state(world);
    let from_text = from_json(&json).unwrap_or_else(|e| panic!("{name}: {e}"));
    let from_cbor = from_bytes(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert_eq!(
        to_json(&from_text).unwrap(),
        json,
        "{name}: JSON round trip"
    );
    assert_eq!(state(&from_cbor), bytes, "{name}: CBOR round trip");
    assert_eq!(state(&from_text), bytes, "{name}: JSON to CBOR");
    [from_text, from_cbor]
}

/// Steps `original` and its two restored copies `STEPS` times by `dt`,
/// comparing the whole state after every step (a refused step must be
/// refused by every copy with the same error, each left unchanged).
fn steps_alike(name: &str, original: &mut PhysicsWorld, dt: f32, drive: Drive<'_>) {
    let mut copies = restored_copies(name, original);
    for step in 0..STEPS {
        drive(original);
        let expected = original.step(dt).map_err(|e| e.to_string());
        let bytes = state(original);
        for (copy, format) in copies.iter_mut().zip(["JSON", "CBOR"]) {
            drive(copy);
            let got = copy.step(dt).map_err(|e| e.to_string());
            assert_eq!(got, expected, "{name} from {format}, step {step}");
            assert!(
                state(copy) == bytes,
                "{name} from {format}: state differs after step {step}"
            );
        }
        if expected.is_err() {
            // A refused step leaves every world as it was: the next one
            // would be refused the same way, so the comparison ends here.
            return;
        }
    }
}

/// Restores at step 0 and again after `warm` steps (with a pending force
/// and torque on the first dynamic body), comparing 300 steps each time.
fn check_scene(name: &str, world: PhysicsWorld, dt: f32, warm: usize, drive: Drive<'_>) {
    let mut fresh = world.clone();
    steps_alike(&format!("{name} at step 0"), &mut fresh, dt, drive);
    let mut warmed = world;
    for step in 0..warm {
        drive(&mut warmed);
        if let Err(e) = warmed.step(dt) {
            panic!("{name}: warm-up step {step}: {e}");
        }
    }
    let first_dynamic = warmed
        .bodies()
        .find(|(_, b)| b.kind() == BodyKind::Dynamic)
        .map(|(id, _)| id);
    if let Some(body) = first_dynamic.and_then(|id| warmed.body_mut(id)) {
        body.add_force(Vec3::new(3.0, -2.0, 1.5));
        body.add_torque(Vec3::new(0.0, 0.0, 0.25));
    }
    steps_alike(
        &format!("{name} after {warm} steps"),
        &mut warmed,
        dt,
        drive,
    );
}

fn no_drive(_: &mut PhysicsWorld) {}

#[test]
fn restored_demo_scenes_step_to_the_same_bits_for_300_steps() {
    for mode in [DISCRETE, SPHERE_MESH_CCD] {
        for scene in demo_scenes(mode, false).unwrap() {
            // The demo scenes' controllers keep no state (a walking
            // velocity), so a fresh copy drives each world alike.
            let controls = scene.controls.clone();
            let drive = move |w: &mut PhysicsWorld| {
                for c in &controls {
                    c.clone().apply(w);
                }
            };
            let name = format!("{} in {mode:?}", scene.name);
            check_scene(&name, scene.world, scene.dt, 20, &drive);
        }
    }
}

#[test]
fn restored_high_speed_ccd_scenes_step_to_the_same_bits_for_300_steps() {
    for scene in [
        falling_spheres(SPHERE_MESH_CCD).unwrap(),
        head_on_pairs(SPHERE_MESH_CCD).unwrap(),
    ] {
        check_scene(scene.name, scene.world, scene.dt, 3, &no_drive);
    }
}

#[test]
fn a_restored_crowd_steps_to_the_same_bits_for_300_steps() {
    let crowd = walkers(WalkerKind::LockedCapsule, 64, 2048).unwrap();
    let drive = |w: &mut PhysicsWorld| crowd.drive(w);
    check_scene("64 walkers", crowd.world.clone(), 1.0 / 60.0, 30, &drive);
}

/// Random `f32` bit patterns checked by the JSON number test (2^21, spread
/// over every binade and both signs), besides the edge cases listed in it:
/// the workspace's serde_json (`float_roundtrip`) reads an `f32` directly
/// rather than through `f64`, and this checks that on the values written.
const RANDOM_FLOATS: usize = 1 << 21;

#[test]
fn every_f32_written_as_json_reads_back_to_the_same_bits() {
    let mut state = 0x9e37_79b9_7f4a_7c15_u64;
    let mut random = || {
        // SplitMix64 (Steele, Lea and Flood 2014).
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        (z ^ (z >> 31)) as u32
    };
    let edges = [
        0.0f32,
        -0.0,
        f32::MIN_POSITIVE,
        -f32::MIN_POSITIVE,
        f32::MAX,
        f32::MIN,
        f32::EPSILON,
        1.0e-45,
        -1.0e-45,
        0.1,
        1.0 / 3.0,
        16_777_217.0,
        -9.8,
    ];
    let randoms = (0..RANDOM_FLOATS).map(|_| f32::from_bits(random()));
    for x in edges.into_iter().chain(randoms).filter(|x| x.is_finite()) {
        let text = serde_json::to_string(&x).unwrap();
        let back: f32 = serde_json::from_str(&text).unwrap();
        assert_eq!(back.to_bits(), x.to_bits(), "{x:e} written as {text}");
    }
}

fn ball(z: f32) -> RigidBody {
    RigidBody::new_dynamic(Shape::sphere(0.5).unwrap(), 1.0)
        .unwrap()
        .with_position(Vec3::new(0.0, 0.0, z))
}

#[test]
fn ids_generations_and_free_slots_carry_over() {
    let mut world = PhysicsWorld::new();
    let ids: Vec<BodyId> = (0..5)
        .map(|i| world.add_body(ball(i as f32 * 2.0)).unwrap())
        .collect();
    world.remove_body(ids[1]).unwrap();
    world.remove_body(ids[3]).unwrap();
    for mut copy in restored_copies("removals", &world) {
        assert!(copy.body(ids[1]).is_none() && copy.body(ids[3]).is_none());
        let listed: Vec<BodyId> = copy.bodies().map(|(id, _)| id).collect();
        assert_eq!(listed, vec![ids[0], ids[2], ids[4]]);
        // The next insertion reuses the last freed slot with a new
        // generation, exactly as in the original.
        let mut original = world.clone();
        let a = original.add_body(ball(20.0)).unwrap();
        let b = copy.add_body(ball(20.0)).unwrap();
        assert_eq!((a, a.index(), a.generation()), (b, ids[3].index(), 6));
        assert_eq!(state(&original), state(&copy));
    }
}

#[test]
fn a_wrong_format_or_version_is_refused_for_its_format() {
    let mut world = PhysicsWorld::new();
    world.add_body(ball(1.0)).unwrap();
    let next = FORMAT.replace("/2", "/3");
    let json = to_json(&world).unwrap().replace(FORMAT, &next);
    let err = from_json(&json).unwrap_err();
    assert_eq!(
        err,
        SnapshotError::Format {
            found: format!("{next:?}"),
            expected: FORMAT
        }
    );
    assert!(err.to_string().contains("parapet-world/3"), "{err}");
    // The same in CBOR: the format is text of the same length.
    let mut bytes = state(&world);
    let at = bytes
        .windows(FORMAT.len())
        .position(|w| w == FORMAT.as_bytes())
        .expect("the format string in the bytes");
    bytes[at..at + FORMAT.len()].copy_from_slice(next.as_bytes());
    assert!(
        matches!(from_bytes(&bytes), Err(SnapshotError::Format { found, .. }) if found == format!("{next:?}"))
    );
    // A scene file is not a world snapshot.
    let scene = r#"{"format": "parapet-scene/1", "dt": 0.01, "steps": 1, "bodies": []}"#;
    assert!(
        matches!(from_json(scene), Err(SnapshotError::Format { found, .. }) if found.contains("parapet-scene/1"))
    );
    let untagged = r#"{"gravity": [0, 0, -9.8]}"#;
    assert!(
        matches!(from_json(untagged), Err(SnapshotError::Format { found, .. }) if found == "none")
    );
}

#[test]
fn corrupt_snapshots_are_typed_errors_naming_the_field() {
    let mut world = PhysicsWorld::new();
    world.add_body(ball(1.0)).unwrap();
    let json = to_json(&world).unwrap();
    // Truncated text: a JSON error with its position.
    let err = from_json(&json[..json.len() / 2]).unwrap_err();
    assert!(
        matches!(&err, SnapshotError::Json { line: 1, column, .. } if *column > 0),
        "{err}"
    );
    // A field of the wrong type is named.
    let typed = json.replace("\"ccd_max_impacts\":64", "\"ccd_max_impacts\":\"many\"");
    assert_ne!(typed, json);
    let err = from_json(&typed).unwrap_err();
    assert!(
        matches!(&err, SnapshotError::Json { field, .. } if field == "ccd_max_impacts"),
        "{err}"
    );
    // An unknown field is refused, not ignored.
    let extra = json.replacen('{', "{\"extra\":1,", 1);
    assert!(
        matches!(from_json(&extra), Err(SnapshotError::Json { message, .. }) if message.contains("extra"))
    );
    // Truncated CBOR.
    let bytes = state(&world);
    let err = from_bytes(&bytes[..bytes.len() / 2]).unwrap_err();
    assert!(matches!(err, SnapshotError::Cbor { .. }), "{err}");
    assert!(matches!(from_bytes(&[]), Err(SnapshotError::Cbor { .. })));
}

/// `json` with `edit` applied to its parsed value.
fn edited(json: &str, edit: impl FnOnce(&mut serde_json::Value)) -> String {
    let mut value: serde_json::Value = serde_json::from_str(json).unwrap();
    edit(&mut value);
    value.to_string()
}

#[test]
fn inconsistent_snapshots_name_the_broken_invariant() {
    let mut world = PhysicsWorld::new();
    let a = world.add_body(ball(1.0)).unwrap();
    world.add_body(ball(3.0)).unwrap();
    world.add_body(ball(5.0)).unwrap();
    world.remove_body(a).unwrap();
    let json = to_json(&world).unwrap();
    let field_of = |text: &str| match from_json(text) {
        Err(SnapshotError::Inconsistent { field, .. }) => field,
        other => panic!("{other:?}"),
    };
    assert_eq!(
        field_of(&edited(&json, |v| v["free"] = serde_json::json!([]))),
        "free"
    );
    assert_eq!(
        field_of(&edited(&json, |v| v["order"] = [2, 1].into())),
        "order[1]"
    );
    assert_eq!(
        field_of(&edited(&json, |v| v["order"] = [1, 1].into())),
        "order[1]"
    );
    assert_eq!(
        field_of(&edited(&json, |v| v["next_generation"] = 2.into())),
        "slots[1].id"
    );
    assert_eq!(
        field_of(&edited(&json, |v| v["slots"][1]["id"]["index"] = 2.into())),
        "slots[1].id"
    );
    assert_eq!(
        field_of(&edited(&json, |v| v["slots"][1]["mesh"] = serde_json::json!([]))),
        "slots[1].mesh"
    );
}

#[test]
fn a_value_json_cannot_hold_is_refused_when_written() {
    let mut world = PhysicsWorld::new();
    world.add_body(ball(1.0)).unwrap();
    world.gravity = Vec3::new(0.0, f32::NAN, -9.8);
    let err = to_json(&world).unwrap_err();
    assert!(
        matches!(&err, SnapshotError::NotRepresentable { field, .. } if field.starts_with("gravity")),
        "{err}"
    );
    // CBOR keeps it, and the restored world refuses its step as the
    // original does.
    let mut copy = from_bytes(&state(&world)).unwrap();
    assert!(copy.gravity.y.is_nan());
    assert_eq!(
        copy.step(0.01).unwrap_err().to_string(),
        world.step(0.01).unwrap_err().to_string()
    );
}

#[test]
fn a_mesh_snapshot_edited_into_a_bad_triangle_is_refused_on_load() {
    let scene = falling_spheres(SPHERE_MESH_CCD).unwrap();
    let json = to_json(&scene.world).unwrap();
    let terrain = edited(&json, |v| {
        let slot = v["slots"]
            .as_array()
            .unwrap()
            .iter()
            .position(|s| !s["mesh"].is_null())
            .unwrap();
        // Collapse the first snapshot triangle onto one point.
        let corner = v["slots"][slot]["mesh"][0][0].clone();
        v["slots"][slot]["mesh"][0][1] = corner.clone();
        v["slots"][slot]["mesh"][0][2] = corner;
    });
    match from_json(&terrain) {
        Err(SnapshotError::Inconsistent { field, message }) => {
            assert!(
                field.starts_with("slots[") && field.ends_with("].mesh"),
                "{field}: {message}"
            );
            assert!(message.contains("triangle 0"), "{message}");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn the_world_is_serde_serializable_in_any_format() {
    let mut world = PhysicsWorld::new();
    world.add_body(ball(1.0)).unwrap();
    world.step(0.01).unwrap();
    // The serde impls are the snapshot's own form.
    let text = serde_json::to_string(&world).unwrap();
    assert_eq!(text, to_json(&world).unwrap());
    let back: PhysicsWorld = serde_json::from_str(&text).unwrap();
    assert_eq!(state(&back), state(&world));
    // The load checks run there too, as serde errors naming the field.
    let broken = edited(&text, |v| v["order"] = serde_json::json!([]));
    let err = serde_json::from_str::<PhysicsWorld>(&broken).unwrap_err();
    assert!(err.to_string().contains("field `order`"), "{err}");
}

#[test]
fn per_body_ccd_modes_and_the_last_ccd_report_carry_over() {
    let scene = falling_spheres(SPHERE_MESH_CCD).unwrap();
    let mut world = scene.world;
    let ids: Vec<BodyId> = world
        .bodies()
        .filter(|(_, b)| b.kind() == BodyKind::Dynamic)
        .map(|(id, _)| id)
        .collect();
    for (k, id) in ids.iter().enumerate() {
        let mode = [CcdMode::Auto, CcdMode::Discrete, CcdMode::Continuous][k % 3];
        world.body_mut(*id).unwrap().set_ccd(mode);
    }
    world.step(scene.dt).unwrap();
    for copy in restored_copies("per-body modes", &world) {
        assert_eq!(copy.ccd_report(), world.ccd_report());
        assert!(world.ccd_report().continuous_bodies > 0);
        for id in &ids {
            assert_eq!(
                copy.body(*id).unwrap().ccd(),
                world.body(*id).unwrap().ccd()
            );
            assert_eq!(copy.ccd_stats(*id), world.ccd_stats(*id));
        }
        // The dry run assumes the last step's length: the same answer.
        assert_eq!(copy.check_ccd(), world.check_ccd());
    }
    steps_alike("per-body modes", &mut world, scene.dt, &no_drive);
}

/// Collision groups, sensors and excluded pairs are part of the saved
/// world: a restored world excludes the same pairs and steps to the same
/// bits; a snapshot whose excluded pair names a removed body is refused.
#[test]
fn filters_and_exclusions_carry_over() {
    let mut world = PhysicsWorld::new();
    let a = world
        .add_body(ball(1.0).with_collision_groups(CollisionGroups::new(0b01, 0b10)))
        .unwrap();
    let b = world.add_body(ball(1.5).with_sensor(true)).unwrap();
    let c = world.add_body(ball(2.0)).unwrap();
    world.ignore_pair(c, a).unwrap();
    let [from_text, from_cbor] = restored_copies("filters", &world);
    for copy in [&from_text, &from_cbor] {
        assert_eq!(copy.ignored_pairs().collect::<Vec<_>>(), vec![(a, c)]);
        assert_eq!(
            copy.body(a).unwrap().collision_groups(),
            CollisionGroups::new(0b01, 0b10)
        );
        assert!(copy.body(b).unwrap().is_sensor());
    }
    steps_alike("filters", &mut world, 1.0 / 60.0, &no_drive);
    let json = to_json(&world).unwrap();
    let stale = edited(&json, |v| {
        v["ignored_pairs"][0][1] = serde_json::json!({ "index": 7, "generation": 99 });
    });
    let err = from_json(&stale).unwrap_err();
    assert!(err.to_string().contains("ignored_pairs[0]"), "{err}");
}

/// Regression, found by the `snapshot` fuzz target's smoke: a mesh added
/// as a kinematic body (a live mesh, a lift or a platform) keeps no
/// world-space snapshot, and the snapshot reader refused every such world
/// as inconsistent ("0 snapshot triangles for a triangle mesh of 2
/// triangles"). It now reads back, and steps to the same bits for 300
/// steps with a ball riding the moving platform.
#[test]
fn a_world_with_a_kinematic_mesh_reads_back_and_steps_alike() {
    let platform = Shape::mesh(
        vec![
            Vec3::new(-2.0, -2.0, 0.0),
            Vec3::new(2.0, -2.0, 0.0),
            Vec3::new(2.0, 2.0, 0.0),
            Vec3::new(-2.0, 2.0, 0.0),
        ],
        vec![[0, 1, 2], [0, 2, 3]],
    )
    .unwrap();
    for mode in [
        CollisionDetection::Discrete,
        CollisionDetection::SphereMeshCcd,
    ] {
        let mut world = PhysicsWorld::new();
        world.collision_detection = mode;
        let lift = RigidBody::new_kinematic(platform.clone())
            .with_linear_velocity(Vec3::new(0.0, 0.0, 0.5));
        let id = world.add_body(lift).unwrap();
        assert!(world.mesh_snapshot(id).is_none(), "a live mesh");
        world.add_body(ball(0.6)).unwrap();
        check_scene(
            &format!("kinematic mesh in {mode:?}"),
            world,
            1.0 / 60.0,
            30,
            &no_drive,
        );
    }
}
