//! Every class of scene error is one line naming the file, the line, the
//! column and the field: syntax and type errors (positioned by serde_json),
//! unknown and missing fields, unknown shapes and modes, and the semantic
//! checks (negative mass, bad rotation, a mesh index out of range, ...),
//! positioned at the offending value. Never a panic.

mod common;

use parapet_cli::scene::{load_scene, parse_scene, world_to_json, SceneError};

/// A scene whose second body's line is `body` (line 10 of the file).
fn scene_with(body: &str) -> String {
    format!(
        r#"{{
  "format": "parapet-scene/1",
  "dt": 0.01,
  "steps": 5,
  "world": {{ "collision_detection": "SPHERE_MESH_CCD" }},
  "bodies": [
    {{ "name": "floor", "kind": "static",
      "shape": {{ "mesh": {{ "vertices": [[-10, -10, 0], [10, -10, 0], [0, 10, 0]],
                           "triangles": [[0, 1, 2]] }} }} }},
{body}
  ]
}}
"#
    )
}

const BODY_LINE: usize = 10;

fn refuse(text: &str) -> SceneError {
    match parse_scene(text, "scenes/case.json") {
        Ok(_) => panic!("accepted:\n{text}"),
        Err(e) => e,
    }
}

/// Checks the error's file, field and line, and that its column is within
/// `token` on that line (serde_json points at, or just past, the token it
/// stopped at), and that its `Display` is one line of the form
/// `file:line:column: field: message`.
fn assert_names(e: &SceneError, text: &str, line: usize, token: &str, field: &str) {
    assert_eq!(e.file, "scenes/case.json", "{e}");
    assert_eq!(e.field, field, "{e}");
    assert_eq!(e.line, line, "{e}");
    let source_line = text.lines().nth(line - 1).expect("the line exists");
    let start = source_line
        .find(token)
        .unwrap_or_else(|| panic!("`{token}` on line {line}"))
        + 1;
    let end = start + token.len();
    assert!(
        (start..=end).contains(&e.column),
        "{e}: column not in {start}..={end}"
    );
    let shown = e.to_string();
    assert!(!shown.contains('\n'), "{shown}");
    assert!(
        shown.starts_with(&format!("scenes/case.json:{line}:{}: {field}: ", e.column)),
        "{shown}"
    );
}

/// As [`assert_names`], and the column is exactly the token's first byte
/// (the semantic checks locate the value itself).
fn assert_at(e: &SceneError, text: &str, line: usize, token: &str, field: &str) {
    assert_names(e, text, line, token, field);
    let start = text
        .lines()
        .nth(line - 1)
        .and_then(|l| l.find(token))
        .map(|c| c + 1);
    assert_eq!(Some(e.column), start, "{e}");
}

const BALL: &str = r#"    { "name": "ball", "kind": "dynamic", "mass": 1.0, "shape": { "sphere": { "radius": 0.1 } } }"#;

#[test]
fn the_base_scene_is_valid() {
    let loaded = parse_scene(&scene_with(BALL), "scenes/case.json").expect("valid");
    assert_eq!(loaded.names, ["floor", "ball"]);
}

#[test]
fn malformed_json() {
    let text = scene_with(&BALL.replace("\"mass\": 1.0,", "\"mass\": 1.0"));
    let e = refuse(&text);
    assert_names(&e, &text, BODY_LINE, "\"shape\"", "bodies[1]");
    assert!(e.message.contains("expected `,` or `}`"), "{e}");
}

#[test]
fn wrong_type() {
    let text = scene_with(&BALL.replace("\"mass\": 1.0", "\"mass\": \"heavy\""));
    let e = refuse(&text);
    assert_names(&e, &text, BODY_LINE, "\"heavy\"", "bodies[1].mass");
    assert!(e.message.contains("invalid type: string"), "{e}");
}

#[test]
fn unknown_field() {
    let text = scene_with(&BALL.replace("\"mass\": 1.0", "\"mass\": 1.0, \"colour\": 3"));
    let e = refuse(&text);
    assert_names(&e, &text, BODY_LINE, "\"colour\"", "bodies[1].colour");
    assert!(e.message.contains("unknown field `colour`"), "{e}");
}

#[test]
fn missing_field() {
    let text = scene_with(&BALL.replace("\"kind\": \"dynamic\", ", ""));
    let e = refuse(&text);
    // serde_json reports a missing field at the end of its object.
    assert_names(&e, &text, BODY_LINE, "} } }", "bodies[1].kind");
    assert!(e.message.contains("missing field `kind`"), "{e}");
}

#[test]
fn unknown_shape() {
    let text = scene_with(&BALL.replace("\"sphere\"", "\"cone\""));
    let e = refuse(&text);
    assert_names(&e, &text, BODY_LINE, "\"cone\"", "bodies[1].shape");
    assert!(e.message.contains("unknown variant `cone`"), "{e}");
}

#[test]
fn negative_mass() {
    let text = scene_with(&BALL.replace("1.0", "-2.5"));
    let e = refuse(&text);
    assert_at(&e, &text, BODY_LINE, "-2.5", "bodies[1].mass");
    assert!(e.message.contains("-2.5"), "{e}");
}

#[test]
fn a_dynamic_body_without_mass() {
    let text = scene_with(&BALL.replace("\"mass\": 1.0, ", ""));
    let e = refuse(&text);
    // The field is absent: the body object is the position.
    assert_at(&e, &text, BODY_LINE, "{ \"name\"", "bodies[1].mass");
}

#[test]
fn bad_rotation() {
    let text =
        scene_with(&BALL.replace("\"mass\": 1.0", "\"mass\": 1.0, \"rotation\": [2, 0, 0, 0]"));
    let e = refuse(&text);
    assert_at(&e, &text, BODY_LINE, "[2, 0, 0, 0]", "bodies[1].rotation");
    assert!(e.message.contains("squared norm 4"), "{e}");
}

#[test]
fn mesh_index_out_of_range() {
    let text = scene_with(BALL).replace("[[0, 1, 2]]", "[[0, 1, 2], [0, 2, 7]]");
    let e = refuse(&text);
    // Line 9 holds the triangles; corner 2 of triangle 1 is the 7.
    assert_at(&e, &text, 9, "7]", "bodies[0].shape.mesh.triangles[1][2]");
    assert!(e.message.contains("vertex index 7"), "{e}");
}

#[test]
fn non_positive_size() {
    let text = scene_with(&BALL.replace("0.1", "0"));
    let e = refuse(&text);
    assert_at(&e, &text, BODY_LINE, "0 }", "bodies[1].shape.sphere.radius");
}

#[test]
fn out_of_f32_range() {
    let text = scene_with(&BALL.replace("0.1", "1e40"));
    let e = refuse(&text);
    assert_names(
        &e,
        &text,
        BODY_LINE,
        "1e40",
        "bodies[1].shape.sphere.radius",
    );
}

#[test]
fn a_mesh_body_that_is_dynamic() {
    let text = scene_with(BALL).replace("\"kind\": \"static\"", "\"kind\": \"dynamic\"");
    let e = refuse(&text);
    assert_at(&e, &text, 7, "\"dynamic\"", "bodies[0].kind");
    assert!(e.to_string().contains("static or kinematic"), "{e}");
}

/// A kinematic mesh (a lift, a platform) reads: its triangles move with
/// its pose.
#[test]
fn a_kinematic_mesh_body_reads() {
    let text = scene_with(BALL).replace("\"kind\": \"static\"", "\"kind\": \"kinematic\"");
    let loaded = parse_scene(&text, "scenes/case.json").unwrap();
    let (_, floor) = loaded.world.bodies().next().unwrap();
    assert_eq!(floor.kind(), parapet::prelude::BodyKind::Kinematic);
}

#[test]
fn two_tensors() {
    let text = scene_with(&BALL.replace("\"mass\": 1.0", "\"mass\": 1.0, \"lock_rotation\": true, \"inverse_inertia\": [[1, 0, 0], [0, 1, 0], [0, 0, 1]]"));
    let e = refuse(&text);
    assert_at(&e, &text, BODY_LINE, "true", "bodies[1].lock_rotation");
}

#[test]
fn material_out_of_range() {
    let text = scene_with(&BALL.replace(
        "\"mass\": 1.0",
        "\"mass\": 1.0, \"material\": { \"restitution\": 1.5 }",
    ));
    let e = refuse(&text);
    assert_at(
        &e,
        &text,
        BODY_LINE,
        "1.5",
        "bodies[1].material.restitution",
    );
}

#[test]
fn duplicate_name() {
    let text = scene_with(&BALL.replace("\"ball\"", "\"floor\""));
    let e = refuse(&text);
    assert_at(&e, &text, BODY_LINE, "\"floor\"", "bodies[1].name");
}

#[test]
fn world_limit_out_of_range() {
    let text = scene_with(BALL).replace(
        "\"SPHERE_MESH_CCD\"",
        "\"SPHERE_MESH_CCD\", \"ccd_max_impacts\": 0",
    );
    let e = refuse(&text);
    assert_at(&e, &text, 5, "0 }", "world.ccd_max_impacts");
}

#[test]
fn unknown_world_mode() {
    let text = scene_with(BALL).replace("\"SPHERE_MESH_CCD\"", "\"FAST\"");
    let e = refuse(&text);
    assert_names(&e, &text, 5, "\"FAST\"", "world.collision_detection");
}

#[test]
fn non_positive_step() {
    let text = scene_with(BALL).replace("\"dt\": 0.01", "\"dt\": -0.01");
    let e = refuse(&text);
    assert_at(&e, &text, 3, "-0.01", "dt");
}

#[test]
fn wrong_format() {
    let text = scene_with(BALL).replace("parapet-scene/1", "parapet-scene/2");
    let e = refuse(&text);
    assert_at(&e, &text, 2, "\"parapet-scene/2\"", "format");
}

#[test]
fn per_body_ccd_modes_reach_the_body_and_round_trip() {
    use parapet::ccd::CcdMode;
    let inherit = scene_with(&BALL.replace("\"mass\": 1.0", "\"mass\": 1.0, \"ccd\": \"Inherit\""));
    for (name, mode) in [
        ("Inherit", CcdMode::Inherit),
        ("Discrete", CcdMode::Discrete),
        ("Continuous", CcdMode::Continuous),
        ("Auto", CcdMode::Auto),
    ] {
        let text = inherit.replace("\"Inherit\"", &format!("\"{name}\""));
        let loaded = parse_scene(&text, "scenes/case.json").unwrap();
        let ball = loaded.world.body(loaded.ids[1]).unwrap();
        assert_eq!(ball.ccd(), mode);
        // Written back, the mode is kept (omitted when it is the default)
        // and reads back the same body.
        let written = world_to_json(&loaded.world, 0.01, 5).unwrap();
        assert_eq!(
            written.contains(&format!("\"ccd\": \"{name}\"")),
            mode != CcdMode::Inherit,
            "{written}"
        );
        let again = parse_scene(&written, "scenes/again.json").unwrap();
        assert_eq!(again.world.body(again.ids[1]).unwrap(), ball);
    }
    let text = inherit.replace("\"Inherit\"", "\"Sometimes\"");
    let e = refuse(&text);
    assert_names(&e, &text, BODY_LINE, "\"Sometimes\"", "bodies[1].ccd");
}

#[test]
fn trailing_text_and_empty_files() {
    let text = format!("{}x\n", scene_with(BALL));
    let e = refuse(&text);
    assert_names(&e, &text, 13, "x", "(document)");
    let e = refuse("");
    assert_eq!((e.line, e.field.as_str()), (1, "(document)"), "{e}");
}

#[test]
fn a_missing_file_names_the_file() {
    let dir = common::fresh_dir("scene_errors_missing");
    let path = dir.join("absent.json");
    let e = load_scene(&path).expect_err("no such file");
    let shown = e.to_string();
    assert!(
        shown.starts_with(&format!("{}:0:0: (document): cannot read", path.display())),
        "{shown}"
    );
}

/// Every prefix of a valid scene, and the scene with each byte replaced by
/// characters that break JSON or its types, is refused (or read) without a
/// panic, each refusal one line with a line number inside the text.
#[test]
fn damaged_files_are_refused_without_panicking() {
    let text = scene_with(BALL);
    let lines = text.lines().count();
    let check = |damaged: &str| {
        if let Err(e) = parse_scene(damaged, "scenes/case.json") {
            let shown = e.to_string();
            assert!(!shown.contains('\n'), "{shown}");
            assert!(e.line >= 1 && e.line <= lines + 1, "{shown}");
        }
    };
    for end in 0..text.len() {
        check(&text[..end]);
    }
    for (i, _) in text.char_indices() {
        for replacement in ["\"", "]", "-", "9e99", "{", "\\"] {
            let mut damaged = text.clone();
            damaged.replace_range(i..i + 1, replacement);
            check(&damaged);
        }
    }
}

/// An excluded pair that names no body is refused at its name, also in a
/// scene without bodies (it used to index the empty body list); a pair of a
/// body with itself is refused at the pair.
#[test]
fn excluded_pairs_name_bodies_of_the_scene() {
    let text = r#"{ "format": "parapet-scene/1", "dt": 0.01, "steps": 1, "bodies": [],
  "ignored_pairs": [["truck", "bar"]] }"#;
    let e = refuse(text);
    assert_at(&e, text, 2, "\"truck\"", "ignored_pairs[0][0]");
    assert!(
        e.to_string().contains("`truck` names no body of the scene"),
        "{e}"
    );
    let text = scene_with(BALL).replacen(
        "\n  ]\n}",
        "\n  ],\n  \"ignored_pairs\": [[\"ball\", \"ball\"]]\n}",
        1,
    );
    let e = refuse(&text);
    assert_eq!(e.field, "ignored_pairs[0]", "{e}");
    assert!(e.to_string().contains("with itself"), "{e}");
}
