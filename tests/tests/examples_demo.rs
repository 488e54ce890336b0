//! Every example of the facade (and the scenes crate's capsule walker) and
//! the demo run here, so that they cannot rot: each example file is compiled
//! as a module of this test (the very same source `cargo run --example`
//! builds, no nested cargo), its `main` runs, and the facts it prints are
//! asserted on its data. The demo runs in its quick
//! mode through the xtask library and writes its plots to a temporary folder.

#[path = "../../crates/parapet/examples/tunneling.rs"]
mod tunneling;

#[path = "../../crates/scenes/examples/capsule_walker.rs"]
mod capsule_walker;

#[path = "../../crates/parapet/examples/sphere_stack.rs"]
mod sphere_stack;

#[path = "../../crates/parapet/examples/refusal.rs"]
mod refusal;

#[path = "../../crates/parapet/examples/road_seams.rs"]
mod road_seams;

#[path = "../../crates/parapet/examples/snapshot.rs"]
mod snapshot;

#[path = "../../crates/parapet/examples/ccd_policy.rs"]
mod ccd_policy;

#[path = "../../crates/parapet/examples/filters_sensors.rs"]
mod filters_sensors;

use parapet::prelude::*;

#[test]
fn tunneling_example_discrete_passes_through_and_ccd_stops_on_the_surface() {
    tunneling::main().unwrap();
    let (discrete, ccd) = tunneling::side_by_side(3).unwrap();
    // DISCRETE reaches z = -0.15 m after one step (0.15 - 30 * 0.01,
    // less the 0.001 m that gravity adds in one step: 9.8 * 0.01^2).
    assert!((discrete[0] - (-0.15)).abs() < 2e-3, "{discrete:?}");
    // SPHERE_MESH_CCD stops the centre at one radius, 0.1 m, and it stays
    // there (1e-4 m: f32 rounding of the impact position and resting contact).
    for z in &ccd {
        assert!((z - 0.1).abs() < 1e-4, "{ccd:?}");
    }
}

#[test]
fn snapshot_example_resumes_to_the_same_bits() {
    snapshot::main().unwrap();
    let ([original, text, cbor], json_len, cbor_len) = snapshot::resumed().unwrap();
    assert!(json_len > 0 && cbor_len > 0);
    // The ball bounced (restitution 0.6): it is above the floor's surface.
    assert!(original.position().z > 0.0, "{:?}", original.position());
    for copy in [text, cbor] {
        assert_eq!(copy, original);
        for (a, b) in [
            (copy.position(), original.position()),
            (copy.linear_velocity(), original.linear_velocity()),
            (copy.angular_velocity(), original.angular_velocity()),
        ] {
            assert_eq!(a.map(f32::to_bits), b.map(f32::to_bits));
        }
    }
}

#[test]
fn road_seams_example_stops_on_the_plain_mesh_and_slides_with_active_edges() {
    road_seams::main().unwrap();
    for mode in [DISCRETE, SPHERE_MESH_CCD] {
        // 1 s at 3 m/s without friction: 3 m, up to f32 rounding of the
        // positions summed over 60 steps (1e-3 m).
        let slid = road_seams::slide(mode, true).unwrap();
        assert!((slid - 3.0).abs() < 1e-3, "{mode:?}: slid {slid} m");
    }
    // The plain mesh's ghost stops the crate at the first seam (0.05 m).
    let stopped = road_seams::slide(DISCRETE, false).unwrap();
    assert!(stopped < 0.1, "slid {stopped} m on the plain mesh");
}

#[test]
fn capsule_walker_example_lands_and_walks_in_ccd_and_falls_through_in_discrete() {
    capsule_walker::main().unwrap();
    let ccd = capsule_walker::walk(SPHERE_MESH_CCD, 30).unwrap();
    assert_eq!(ccd.steps_taken, 30);
    assert!(ccd.refusal.is_none());
    assert!(!ccd.crossed(), "crossed at {:?}", ccd.crossed_at);
    assert!(ccd.swept_impacts >= 1, "the 60 m/s drop is a swept impact");
    // It walked: 1 s at 2 m/s along x (friction on the ground is overridden
    // by the controller each step; 0.5 m margin for the landing step).
    let (_, p) = ccd.final_positions[0];
    assert!(p.x > -6.0 + 1.5, "{p:?}");
    let discrete = capsule_walker::walk(DISCRETE, 30).unwrap();
    assert!(discrete.crossed(), "the DISCRETE control must fall through");
}

#[test]
fn sphere_stack_example_discrete_passes_through_and_ccd_never_does() {
    sphere_stack::main().unwrap();
    let discrete = sphere_stack::strike(DISCRETE, 10).unwrap();
    assert!(
        discrete.crossed(),
        "the striker passes through the stack between steps"
    );
    // The striker and the stack form one group, swept together.
    let ccd = sphere_stack::strike(SPHERE_MESH_CCD, 10).unwrap();
    assert!(ccd.refusal.is_none(), "{:?}", ccd.refusal);
    assert!(!ccd.crossed(), "crossed at {:?}", ccd.crossed_at);
    assert!(ccd.swept_impacts >= 1, "the strike is a swept impact");
    assert_eq!(ccd.steps_taken, 10);
}

#[test]
fn refusal_example_every_case_errs_and_leaves_the_world_unchanged() {
    refusal::main().unwrap();
    let (cases, fixed) = refusal::cases().unwrap();
    assert_eq!(cases.len(), 5);
    for c in &cases {
        assert!(c.unchanged, "{}: {}", c.case, c.error);
    }
    let kinds = [
        matches!(
            cases[0].error,
            StepError::ImpactLimit {
                impacts: 1,
                limit: 1,
                ..
            }
        ),
        matches!(cases[1].error, StepError::SubstepLimit { limit: 1, .. }),
        matches!(cases[2].error, StepError::Unresolvable { .. }),
        matches!(cases[3].error, StepError::Precision { .. }),
        matches!(cases[4].error, StepError::InvalidConfig { .. }),
    ];
    for (c, ok) in cases.iter().zip(kinds) {
        assert!(ok, "{}: {}", c.case, c.error);
    }
    assert_eq!(fixed.slot_impacts, 2);
    assert!(fixed.stick_stepped);
    // The ball rests on the floor at its radius, 0.1 m (held band: 5 mm).
    assert!(
        (fixed.pressed_ball_z - 0.1).abs() < 5e-3,
        "z = {}",
        fixed.pressed_ball_z
    );
}

#[test]
fn the_quick_demo_runs_every_scene_and_ccd_never_crosses_a_surface() {
    let dir = std::env::temp_dir().join(format!("parapet-demo-test-{}", std::process::id()));
    let mut text = Vec::new();
    let report = xtask::demo::run(true, &dir, &mut text, false).unwrap();
    let text = String::from_utf8(text).unwrap();
    // The eight demo scenes, then the eight town scenes.
    assert_eq!(report.scenes.len(), 16, "{text}");
    assert!(report.all_as_expected(), "{text}");
    for s in &report.scenes {
        let svg = std::fs::read_to_string(&s.plot).unwrap();
        assert!(
            svg.starts_with("<svg") && svg.contains("SPHERE_MESH_CCD"),
            "{}",
            s.plot.display()
        );
        assert!(text.contains(&format!("== {}", s.name)), "{text}");
        // Every scene in DISCRETE crosses a surface: that is what each shows.
        assert!(
            s.discrete.crossed(),
            "{}: DISCRETE did not cross\n{text}",
            s.name
        );
    }
    assert!(
        text.contains(&dir.display().to_string()),
        "the demo says where the plots are"
    );
    // The summary names every scene beside what each mode did.
    for s in &report.scenes {
        assert!(
            text.lines()
                .any(|l| l.starts_with(s.name) && l.contains("crossed")),
            "{}: no summary line\n{text}",
            s.name
        );
    }
    // The stacks: the column and the pyramid of 55 stand their second in
    // DISCRETE (all_as_expected above holds them to the stack limits).
    let stacks: Vec<&str> = report.stacks.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(stacks, ["column_20", "pyramid_55"], "{text}");
    for s in &report.stacks {
        assert_eq!(s.discrete.steps_taken, 60, "{}", s.name);
        assert!(text.contains(&format!("== {}", s.name)), "{text}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn ccd_policy_example_each_mode_does_what_it_says_and_the_dry_run_guides_the_fixes() {
    use parapet::ccd::CcdMode;
    ccd_policy::main().unwrap();
    let (drops, report) = ccd_policy::per_body().unwrap();
    // Discrete passes the floor (0.15 - 0.3 m); Continuous and fast Auto
    // stop one radius above it (1e-4 m: f32 rounding of the impact
    // position); the slow Auto sphere moved 0.02 m, discretely.
    assert!(drops[0].z < 0.0);
    for d in &drops[1..3] {
        assert!((d.z - 0.1).abs() < 1e-4, "{:?} at {}", d.mode, d.z);
        assert_eq!(d.stats.mode, CcdMode::Continuous);
        assert_eq!(d.stats.impacts, 1);
    }
    assert_eq!(drops[0].stats.mode, CcdMode::Discrete);
    assert_eq!(drops[3].stats.mode, CcdMode::Discrete);
    assert_eq!((report.continuous_bodies, report.auto_continuous), (2, 1));
    assert_eq!(report.swept_impacts, 2);
    let (lists, unchanged) = ccd_policy::dry_run().unwrap();
    assert!(unchanged);
    let counts: Vec<usize> = lists.iter().map(|l| l.len()).collect();
    assert_eq!(counts, vec![2, 1, 0]);
    assert!(
        matches!(lists[0][0].error, StepError::Unresolvable { .. }),
        "{}",
        lists[0][0]
    );
    assert!(
        matches!(lists[0][1].error, StepError::ImpactLimit { limit: 1, .. }),
        "{}",
        lists[0][1]
    );
}

#[test]
fn filters_sensors_example_keeps_filtered_pairs_apart_and_reports_every_sensor_event() {
    filters_sensors::main().unwrap();
    let run = filters_sensors::run().unwrap();
    let t = &run.track;
    let seen: Vec<(usize, BodyId, BodyId, SensorEventKind)> = run
        .sensed
        .iter()
        .map(|(step, e)| (*step, e.sensor, e.body, e.kind))
        .collect();
    // The bullet reaches the line's face (29.995 m) with its 0.01 m radius
    // after 3.985 m of the 8.33 m of step 1; the truck's front reaches the
    // zone (x = 8) after 0.575 s (step 35) and its back leaves it (x = 12)
    // after 1.375 s (step 83); the bar, 2.7 m behind, after 0.945 s and
    // 1.545 s (steps 57 and 93).
    assert_eq!(
        seen,
        vec![
            (1, t.finish, t.bullet, SensorEventKind::Crossed),
            (35, t.pit, t.truck, SensorEventKind::Entered),
            (57, t.pit, t.bar, SensorEventKind::Entered),
            (83, t.pit, t.truck, SensorEventKind::Left),
            (93, t.pit, t.bar, SensorEventKind::Left),
        ]
    );
    // 0.478 of the step, never later (the tolerance, 5e-5 m of 8.33 m,
    // and the f32 fraction: 1e-5).
    let crossing = run.sensed[0].1.time;
    assert!(
        crossing <= 3.985 / (500.0 / 60.0) + 1e-7 && crossing > 0.478 - 1e-5,
        "{crossing}"
    );
    assert_eq!(run.filtered_contacts, 0);
    assert!(run.debris_on_floor > 0);
    // The machine slid as one: at the same speed, 2.7 m apart along x as
    // at the start (each position rounds to f32 once per step: 120 steps
    // of at most 1.9e-6 m at 16 to 32 m, for each body).
    let (truck, bar) = (
        t.world.body(t.truck).unwrap().position(),
        t.world.body(t.bar).unwrap().position(),
    );
    assert!((truck.x - bar.x - 2.7).abs() < 5e-4, "{truck:?} {bar:?}");
    assert_eq!(
        t.world.body(t.truck).unwrap().linear_velocity().x,
        t.world.body(t.bar).unwrap().linear_velocity().x
    );
    // The debris passed through each other and all rest on the floor (their
    // half extent, 0.1 m, within the contact solver's slop of 5 mm).
    for &d in &t.debris {
        let z = t.world.body(d).unwrap().position().z;
        assert!((z - 0.1).abs() < 5e-3, "debris at z = {z}");
    }
}
