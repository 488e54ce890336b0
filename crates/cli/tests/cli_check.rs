//! `parapet check` end to end, through the built binary: the dry run lists
//! every body the first step would refuse, by its scene name, with the
//! reason and the limit, and exits 1; a scene it passes exits 0; and it
//! agrees with `parapet run`, whose first step fails naming the same body.

mod common;

use common::{parapet_str, scenes_dir};

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn slot_scene(test: &str) -> String {
    let dir = common::fresh_dir(test);
    let scene = dir.join("slot.json");
    std::fs::write(&scene, common::REFUSED_SLOT).expect("write the scene");
    scene.display().to_string()
}

#[test]
fn a_refused_body_is_named_with_its_reason_and_limit_and_exits_1() {
    let scene = slot_scene("cli_check_refused");
    let out = parapet_str(&["check", &scene]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let report = text(&out.stdout);
    let lines: Vec<&str> = report.lines().collect();
    assert_eq!(lines.len(), 1, "one refused body: {report}");
    assert!(
        lines[0].starts_with(&format!("{scene}: body 'ball': ")),
        "{report}"
    );
    assert!(lines[0].contains("impacts"), "the reason: {report}");
    assert!(lines[0].contains("limit: "), "the limit: {report}");
    assert!(!report.contains("'far'"), "{report}");
}

#[test]
fn the_dry_run_agrees_with_the_first_step() {
    let scene = slot_scene("cli_check_agrees");
    let check = parapet_str(&["check", &scene]);
    let run = parapet_str(&["run", &scene, "--steps", "1"]);
    assert_eq!(run.status.code(), Some(1), "{}", text(&run.stderr));
    let listed = text(&check.stdout);
    let (_, reason) = listed
        .trim_end()
        .split_once(": body 'ball': ")
        .expect("the ball is listed");
    let failed = text(&run.stderr);
    assert!(
        failed.contains(&format!("step 1 failed: {reason}")),
        "check: {listed}\nrun: {failed}"
    );
}

#[test]
fn a_scene_with_nothing_to_refuse_exits_0() {
    for name in ["tunneling.json", "crowd.json", "struck_stack.json"] {
        let scene = scenes_dir().join(name).display().to_string();
        let out = parapet_str(&["check", &scene]);
        assert_eq!(out.status.code(), Some(0), "{name}: {}", text(&out.stdout));
        assert_eq!(
            text(&out.stdout),
            format!("{scene}: no body would be refused at the first step\n")
        );
    }
    // The slot scene in DISCRETE: no continuous stage, nothing refused.
    let scene = slot_scene("cli_check_discrete");
    let out = parapet_str(&["check", &scene, "--mode", "discrete"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
}

#[test]
fn a_bad_scene_exits_2_and_checks_nothing() {
    let dir = common::fresh_dir("cli_check_bad");
    let scene = dir.join("bad.json");
    std::fs::write(&scene, "{ \"format\": \"parapet-scene/1\" ").expect("write");
    let out = parapet_str(&["check", &scene.display().to_string()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    assert!(
        text(&out.stderr).starts_with(&format!("parapet: {}:", scene.display())),
        "{}",
        text(&out.stderr)
    );
}
