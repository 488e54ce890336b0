//! `parapet run` end to end, through the built binary: the exact trajectory
//! header, one row per body per step with step 0 the initial state, the
//! overrides (`--steps`, `--dt`, `--mode`), the plot, and the exit status:
//! 0 success, 1 a refused step, 2 bad input with one line naming the file,
//! line, column and field.
//!
//! These tests live in crates/cli/tests because only the package that
//! defines the `parapet` binary gets `CARGO_BIN_EXE_parapet`.

mod common;

use std::path::Path;

use common::{parapet_str, scenes_dir};
use parapet_cli::trajectory::{read_trajectory, HEADER};

fn scene(name: &str) -> String {
    scenes_dir().join(name).display().to_string()
}

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn run_writes_the_header_and_a_row_per_body_per_step() {
    let dir = common::fresh_dir("cli_run_rows");
    let csv = dir.join("t.csv");
    let out = parapet_str(&[
        "run",
        &scene("struck_stack.json"),
        "--steps",
        "7",
        "--out",
        &csv.display().to_string(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = std::fs::read_to_string(&csv).expect("the trajectory");
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some("step,time,body,name,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz,sleeping")
    );
    assert_eq!(
        HEADER.join(","),
        "step,time,body,name,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz,sleeping"
    );
    let rows: Vec<&str> = lines.collect();
    // 6 bodies (floor, 4 stacked spheres, striker): N * bodies + bodies rows.
    assert_eq!(rows.len(), 7 * 6 + 6);
    assert!(rows[0].starts_with("0,0,0,floor,"), "{}", rows[0]);
    assert!(
        rows[5].starts_with("0,0,5,striker,-3,0,0.75,1,0,0,0,120,0,0,"),
        "{}",
        rows[5]
    );
    assert!(rows[47].starts_with("7,"), "{}", rows[47]);
}

#[test]
fn the_trajectory_to_stdout_is_the_same_as_to_a_file() {
    let dir = common::fresh_dir("cli_run_stdout");
    let csv = dir.join("t.csv");
    let file = parapet_str(&[
        "run",
        &scene("tunneling.json"),
        "--steps",
        "4",
        "--out",
        &csv.display().to_string(),
    ]);
    let piped = parapet_str(&["run", &scene("tunneling.json"), "--steps", "4"]);
    assert_eq!(
        (file.status.code(), piped.status.code()),
        (Some(0), Some(0))
    );
    assert_eq!(std::fs::read(&csv).expect("the trajectory"), piped.stdout);
}

fn final_ball_height(mode: &str, dir: &Path) -> f32 {
    let csv = dir.join(format!("{mode}.csv"));
    let out = parapet_str(&[
        "run",
        &scene("tunneling.json"),
        "--mode",
        mode,
        "--steps",
        "1",
        "--out",
        &csv.display().to_string(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let trajectory = read_trajectory(&csv).expect("a trajectory the reader accepts");
    assert_eq!(trajectory.names, ["floor", "ball"]);
    trajectory.states[1][1].position.z
}

#[test]
fn mode_switches_between_tunneling_and_stopping() {
    let dir = common::fresh_dir("cli_run_mode");
    // 0.15 m - 30 m/s * 0.01 s = -0.15 m (less the gravity term): through.
    assert!(final_ball_height("discrete", &dir) < -0.1);
    // Stopped one radius (0.1 m) above the surface; 1e-4 m covers the f32
    // rounding of the impact position, far below the radius.
    assert!((final_ball_height("ccd", &dir) - 0.1).abs() < 1e-4);
}

#[test]
fn dt_and_steps_override_the_scene() {
    let out = parapet_str(&[
        "run",
        &scene("tunneling.json"),
        "--steps",
        "2",
        "--dt",
        "0.004",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let times: Vec<&str> = text
        .lines()
        .skip(1)
        .map(|l| l.split(',').nth(1).unwrap_or(""))
        .collect();
    assert_eq!(times, ["0", "0", "0.004", "0.004", "0.008", "0.008"]);
    let bad = parapet_str(&["run", &scene("tunneling.json"), "--dt=-1"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(
        stderr(&bad).contains("--dt -1 must be finite and greater than 0"),
        "{}",
        stderr(&bad)
    );
}

#[test]
fn the_plot_is_an_svg_of_the_moving_bodies() {
    let dir = common::fresh_dir("cli_run_plot");
    let svg = dir.join("p.svg");
    let out = parapet_str(&[
        "run",
        &scene("struck_stack.json"),
        "--steps",
        "5",
        "--plot",
        &svg.display().to_string(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = std::fs::read_to_string(&svg).expect("the plot");
    assert!(text.starts_with("<svg"), "{}", &text[..100.min(text.len())]);
    for name in ["striker", "stack0", "z (m)", "time (s)"] {
        assert!(text.contains(name), "{name}");
    }
    // The static floor never moves: it has no line and no legend entry.
    assert!(!text.contains(">floor<"));
}

#[test]
fn a_refused_step_exits_1_with_the_steps_before_it() {
    let dir = common::fresh_dir("cli_run_refused");
    let scene = dir.join("refused_slot.json");
    std::fs::write(&scene, common::REFUSED_SLOT).expect("write the scene");
    let csv = dir.join("t.csv");
    let out = parapet_str(&[
        "run",
        &scene.display().to_string(),
        "--out",
        &csv.display().to_string(),
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains("step 1 failed"), "{}", stderr(&out));
    // Only the initial state: the header and one row per body (the slot and
    // two balls), the first step was refused.
    let text = std::fs::read_to_string(&csv).expect("the trajectory");
    assert_eq!(text.lines().count(), 1 + 3, "{text}");
    // The same world in DISCRETE steps.
    let ok = parapet_str(&["run", &scene.display().to_string(), "--mode", "discrete"]);
    assert_eq!(ok.status.code(), Some(0), "{}", stderr(&ok));
}

/// Bad input: exit 2 and one stderr line `parapet: file:line:column:
/// field: ...` with the line and field given (the columns of each error
/// class are checked against the text in scene_errors.rs).
fn assert_bad_input(text: &str, line: usize, field: &str) {
    let dir = common::fresh_dir(&format!(
        "cli_run_bad_{}",
        field.replace(['[', ']', '.'], "_")
    ));
    let scene = dir.join("bad.json");
    std::fs::write(&scene, text).expect("write the scene");
    let out = parapet_str(&["run", &scene.display().to_string()]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 1, "{err}");
    let prefix = format!("parapet: {}:{line}:", scene.display());
    let rest = err
        .strip_prefix(&prefix)
        .unwrap_or_else(|| panic!("{err}\nexpected {prefix}"));
    let (column, rest) = rest.split_once(": ").unwrap_or_default();
    assert!(column.parse::<usize>().is_ok_and(|c| c > 0), "{err}");
    assert!(rest.starts_with(&format!("{field}: ")), "{err}");
    assert!(out.stdout.is_empty(), "nothing is run");
}

#[test]
fn bad_input_exits_2_naming_file_line_column_and_field() {
    let ball = common::BALL;
    // Malformed JSON: the comma after the ball's mass is gone; serde_json
    // stops at the next member, on the next line.
    assert_bad_input(
        &ball.replace("\"mass\": 1.0,", "\"mass\": 1.0"),
        11,
        "bodies[1]",
    );
    assert_bad_input(
        &ball.replace("\"mass\": 1.0", "\"mass\": -1.0"),
        10,
        "bodies[1].mass",
    );
    assert_bad_input(
        &ball.replace("\"mass\": 1.0", "\"mass\": 1.0, \"spin\": 1"),
        10,
        "bodies[1].spin",
    );
    assert_bad_input(
        &ball.replace("\"sphere\"", "\"torus\""),
        11,
        "bodies[1].shape",
    );
    assert_bad_input(
        &ball.replace("\"kind\": \"dynamic\", ", ""),
        12,
        "bodies[1].kind",
    );
    assert_bad_input(
        &ball.replace("[0, 1, 2]", "[0, 1, 3]"),
        9,
        "bodies[0].shape.mesh.triangles[0][2]",
    );
    let missing = parapet_str(&["run", "no/such/scene.json"]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(
        stderr(&missing).starts_with("parapet: no/such/scene.json:0:0: (document): cannot read"),
        "{}",
        stderr(&missing)
    );
}

#[test]
fn bad_arguments_exit_2() {
    assert_eq!(parapet_str(&["run"]).status.code(), Some(2));
    assert_eq!(
        parapet_str(&["run", &scene("tunneling.json"), "--mode", "fast"])
            .status
            .code(),
        Some(2)
    );
    assert_eq!(parapet_str(&["fly"]).status.code(), Some(2));
    assert_eq!(parapet_str(&["--version"]).status.code(), Some(0));
}
