//! Filters and sensors through the built `parapet` binary: `run --events`
//! reports what crossed, entered and left the sensors of
//! `scenes/filters_sensors.json` and no contact of a filtered pair; the
//! events file is a deterministic record; `check` honours the filters and
//! sensors (a pair they rule out is never refused); `view --events` refuses
//! an events file of another run.

mod common;

use std::path::Path;

use common::{parapet_str, scenes_dir};
use parapet_cli::events::{read_events, EventKind, EventRow, EVENTS_HEADER};

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn track() -> String {
    scenes_dir()
        .join("filters_sensors.json")
        .display()
        .to_string()
}

/// Runs the track for `steps` steps, the events into `dir/e.csv`.
fn run_track(dir: &Path, steps: &str) -> Vec<EventRow> {
    let events = dir.join("e.csv");
    let out = parapet_str(&[
        "run",
        &track(),
        "--steps",
        steps,
        "--out",
        &dir.join("t.csv").display().to_string(),
        "--events",
        &events.display().to_string(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    read_events(&events).expect("an events file the reader accepts")
}

fn sensor_rows(rows: &[EventRow]) -> Vec<(u64, EventKind, &str, &str)> {
    rows.iter()
        .filter(|r| r.kind.is_sensor())
        .map(|r| (r.step, r.kind, r.a.as_str(), r.b.as_str()))
        .collect()
}

#[test]
fn run_events_report_the_crossing_the_zone_and_no_filtered_contact() {
    let dir = common::fresh_dir("cli_sensors_events");
    let rows = run_track(&dir, "120");
    let header = std::fs::read_to_string(dir.join("e.csv")).expect("the events");
    assert_eq!(
        header.lines().next(),
        Some(EVENTS_HEADER.join(",").as_str())
    );
    // The bullet crosses the 1 cm finish line within the first step; the
    // truck (10 m/s, front at 2.25 m, zone from 8 m) enters the pit lane in
    // step 35 and its bar in step 57; each leaves 48 steps later (the zone
    // is 4 m long, the truck 4 m, the bar 2 m and 2.7 m behind the truck's
    // centre).
    assert_eq!(
        sensor_rows(&rows),
        [
            (1, EventKind::Crossed, "finish_line", "bullet"),
            (35, EventKind::Entered, "pit_lane", "truck"),
            (57, EventKind::Entered, "pit_lane", "tow_bar"),
            (83, EventKind::Left, "pit_lane", "truck"),
            (93, EventKind::Left, "pit_lane", "tow_bar"),
        ]
    );
    // The bullet's front (26.01 m) reaches the line's face (29.995 m) after
    // 3.985 m of the step's 8.333 m: 0.4782 of the step. Never later (the
    // f32 end pose rounds the step's length by 4 µm: 5e-7 of the step);
    // no earlier than the arbiter's 50 µm tolerance (6e-6 of the step).
    let crossing = rows
        .iter()
        .find(|r| r.kind == EventKind::Crossed)
        .expect("the crossing");
    let fraction = f64::from(crossing.fraction);
    assert!(
        (0.4782 - 1e-5..=0.4782 + 1e-6).contains(&fraction),
        "{fraction}"
    );
    // Nothing between the truck and its excluded bar, nor between two
    // pieces of debris (one group that leaves itself out); the debris lands
    // on the floor.
    let debris = |name: &str| name.starts_with("debris");
    for r in rows.iter().filter(|r| !r.kind.is_sensor()) {
        let pair = [r.a.as_str(), r.b.as_str()];
        assert!(
            !(pair.contains(&"truck") && pair.contains(&"tow_bar")),
            "{r:?}"
        );
        assert!(!(debris(&r.a) && debris(&r.b)), "{r:?}");
    }
    assert!(rows
        .iter()
        .any(|r| r.kind == EventKind::Contact && r.a == "floor" && debris(&r.b)));
    // Within a step, rows are in the world's order: by fraction first.
    for w in rows.windows(2) {
        if w[0].step == w[1].step {
            assert!(w[0].fraction <= w[1].fraction, "{:?} then {:?}", w[0], w[1]);
        }
    }
}

#[test]
fn the_events_file_is_the_same_for_every_run() {
    let first = common::fresh_dir("cli_sensors_same_a");
    let second = common::fresh_dir("cli_sensors_same_b");
    run_track(&first, "40");
    run_track(&second, "40");
    let read = |d: &Path| std::fs::read(d.join("e.csv")).expect("the events");
    assert_eq!(read(&first), read(&second));
}

/// The slot scene of `common::REFUSED_SLOT` with `edit` applied to its JSON.
fn slot_variant(test: &str, edit: impl FnOnce(&mut serde_json::Value)) -> String {
    let mut scene: serde_json::Value =
        serde_json::from_str(common::REFUSED_SLOT).expect("the slot scene");
    edit(&mut scene);
    let dir = common::fresh_dir(test);
    let path = dir.join("slot.json");
    std::fs::write(&path, scene.to_string()).expect("write the scene");
    path.display().to_string()
}

#[test]
fn check_and_run_never_refuse_a_pair_the_filters_rule_out() {
    // The ball bounces three times between the plates of the slot in the
    // first step, one impact more than the limit: refused (cli_check)...
    let variants = [
        // ...unless the pair is excluded,
        slot_variant("cli_sensors_slot_excluded", |s| {
            s["ignored_pairs"] = serde_json::json!([["slot", "ball"]]);
        }),
        // or their groups do not accept each other,
        slot_variant("cli_sensors_slot_groups", |s| {
            // The slot is in group 1 only; the ball accepts group 2 only.
            s["bodies"][0]["collision_groups"] =
                serde_json::json!({ "memberships": 1, "filter": 4294967295u32 });
            s["bodies"][1]["collision_groups"] =
                serde_json::json!({ "memberships": 2, "filter": 2 });
        }),
        // or the slot is a sensor (it stops nothing; the ball crosses it).
        slot_variant("cli_sensors_slot_sensor", |s| {
            s["bodies"][0]["sensor"] = serde_json::json!(true);
        }),
    ];
    for scene in &variants {
        let check = parapet_str(&["check", scene]);
        assert_eq!(check.status.code(), Some(0), "{}", text(&check.stdout));
        assert!(text(&check.stdout).ends_with("no body would be refused at the first step\n"));
        let run = parapet_str(&["run", scene, "--steps", "3"]);
        assert_eq!(run.status.code(), Some(0), "{}", text(&run.stderr));
    }
    // The sensor slot reports the ball (one-sided plates: it enters the
    // lower plate's front through the upper one's back, or crosses).
    let dir = common::fresh_dir("cli_sensors_slot_events");
    let events = dir.join("e.csv");
    let run = parapet_str(&[
        "run",
        &variants[2],
        "--steps",
        "3",
        "--out",
        &dir.join("t.csv").display().to_string(),
        "--events",
        &events.display().to_string(),
    ]);
    assert_eq!(run.status.code(), Some(0), "{}", text(&run.stderr));
    let rows = read_events(&events).expect("the events");
    assert!(
        rows.iter()
            .all(|r| r.kind.is_sensor() && r.a == "slot" && r.b == "ball"),
        "{rows:?}"
    );
    assert!(!rows.is_empty());
}

#[test]
fn view_refuses_the_events_of_another_run() {
    let dir = common::fresh_dir("cli_sensors_view_mismatch");
    run_track(&dir, "3");
    let tunneling = scenes_dir().join("tunneling.json").display().to_string();
    let csv = dir.join("other.csv").display().to_string();
    let run = parapet_str(&["run", &tunneling, "--steps", "3", "--out", &csv]);
    assert_eq!(run.status.code(), Some(0), "{}", text(&run.stderr));
    let events = dir.join("e.csv").display().to_string();
    let out = dir.join("x.html").display().to_string();
    let view = parapet_str(&[
        "view", &csv, "--scene", &tunneling, "--events", &events, "--out", &out,
    ]);
    assert_eq!(view.status.code(), Some(2));
    let err = text(&view.stderr);
    assert!(
        err.contains(&format!(
            "{events}:0:0: (file): the events name `finish_line`"
        )),
        "{err}"
    );
    assert!(!Path::new(&out).exists());
}
