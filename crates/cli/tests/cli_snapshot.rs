//! `parapet run --snapshot` and `--from-snapshot` end to end, through the
//! built binary: a run of 2N steps equals a run of N steps, a snapshot, and
//! a run of N steps from it, bit for bit (the trajectory rows of the second
//! half, and the final snapshots byte for byte), in JSON and in CBOR; a
//! snapshot that does not fit, or does not read, is bad input (exit 2) with
//! one line naming the file.

mod common;

use std::path::Path;

use common::{fresh_dir, parapet_str, scenes_dir};

fn run(args: &[&str]) {
    let out = parapet_str(args);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The rows of a trajectory from column `body` on (the step and time
/// columns restart at 0 in a resumed run), for steps `from..`, with the
/// step relative to `from`.
fn rows_from(csv: &Path, from: u64) -> Vec<(u64, String)> {
    std::fs::read_to_string(csv)
        .expect("the trajectory")
        .lines()
        .skip(1)
        .filter_map(|line| {
            let mut fields = line.splitn(3, ',');
            let step: u64 = fields.next()?.parse().ok()?;
            let _time = fields.next()?;
            let rest = fields.next()?.to_owned();
            step.checked_sub(from).map(|k| (k, rest))
        })
        .collect()
}

/// Runs `scene` for 2n steps at once and as n + n through a snapshot with
/// extension `ext`, and compares.
fn halves_equal_the_whole(scene: &str, n: u64, ext: &str) {
    let dir = fresh_dir(&format!("cli_snapshot_{scene}_{ext}"));
    let path = scenes_dir()
        .join(format!("{scene}.json"))
        .display()
        .to_string();
    let file = |name: &str| dir.join(name).display().to_string();
    let (two_n, n_text) = ((2 * n).to_string(), n.to_string());
    run(&[
        "run",
        &path,
        "--steps",
        &two_n,
        "--out",
        &file("whole.csv"),
        "--snapshot",
        &file(&format!("whole.{ext}")),
    ]);
    run(&[
        "run",
        &path,
        "--steps",
        &n_text,
        "--out",
        &file("first.csv"),
        "--snapshot",
        &file(&format!("half.{ext}")),
    ]);
    run(&[
        "run",
        &path,
        "--steps",
        &n_text,
        "--out",
        &file("second.csv"),
        "--from-snapshot",
        &file(&format!("half.{ext}")),
        "--snapshot",
        &file(&format!("end.{ext}")),
    ]);
    let whole = rows_from(&dir.join("whole.csv"), n);
    let second = rows_from(&dir.join("second.csv"), 0);
    assert!(!second.is_empty());
    assert_eq!(second, whole, "{scene} ({ext}): the resumed half differs");
    let read = |name: &str| std::fs::read(dir.join(name)).expect("a snapshot");
    assert!(
        read(&format!("end.{ext}")) == read(&format!("whole.{ext}")),
        "{scene} ({ext}): the final snapshots differ"
    );
}

#[test]
fn a_run_of_2n_steps_equals_n_steps_a_snapshot_and_n_more() {
    // fast_box_wall: a high-speed continuous impact inside the second half
    // (N = 15 of its 30 steps); crowd: 36 bodies in contact with a terrain.
    for ext in ["json", "bin"] {
        halves_equal_the_whole("fast_box_wall", 15, ext);
        halves_equal_the_whole("crowd", 45, ext);
    }
}

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn a_snapshot_of_another_scene_or_a_corrupt_one_is_bad_input() {
    let dir = fresh_dir("cli_snapshot_errors");
    let scene = |name: &str| scenes_dir().join(name).display().to_string();
    let file = |name: &str| dir.join(name).display().to_string();
    run(&[
        "run",
        &scene("fast_box_wall.json"),
        "--steps",
        "1",
        "--out",
        &file("t.csv"),
        "--snapshot",
        &file("box.json"),
    ]);
    // Another scene's snapshot: its bodies are not this scene's.
    let out = parapet_str(&[
        "run",
        &scene("crowd.json"),
        "--steps",
        "1",
        "--out",
        &file("t.csv"),
        "--from-snapshot",
        &file("box.json"),
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("box.json:0:0: slots:"),
        "{}",
        stderr(&out)
    );
    // A truncated JSON snapshot: file, line, column, field.
    let text = std::fs::read_to_string(dir.join("box.json")).unwrap();
    std::fs::write(dir.join("cut.json"), &text[..text.len() / 2]).unwrap();
    let out = parapet_str(&[
        "run",
        &scene("fast_box_wall.json"),
        "--steps",
        "1",
        "--out",
        &file("t.csv"),
        "--from-snapshot",
        &file("cut.json"),
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("cut.json:1:"), "{}", stderr(&out));
    assert_eq!(stderr(&out).lines().count(), 1, "{}", stderr(&out));
    // A scene file is not a snapshot: refused for its format.
    let out = parapet_str(&[
        "run",
        &scene("fast_box_wall.json"),
        "--steps",
        "1",
        "--out",
        &file("t.csv"),
        "--from-snapshot",
        &scene("fast_box_wall.json"),
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("parapet-scene/1"), "{}", stderr(&out));
    // An extension that names no format, refused before running.
    let out = parapet_str(&[
        "run",
        &scene("fast_box_wall.json"),
        "--steps",
        "1",
        "--out",
        &file("t.csv"),
        "--snapshot",
        &file("world.txt"),
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("world.txt:0:0:"), "{}", stderr(&out));
    assert!(!dir.join("world.txt").exists());
}
