//! The numbers of the user pages are the numbers of the code: each limit or
//! default that docs/continuous-collision.md and docs/physics.md state is
//! checked here against the constant that decides it, and the page is checked
//! to still state it, so neither can drift alone (rapier's docs drifted from
//! its defaults; STYLE.md "Results and tolerances").

use std::path::Path;

use parapet::prelude::*;
use parapet_narrow::sweep::{
    APPROACH_EPS_FACTOR, MAX_COORDINATE, MAX_COORDINATE_RADII, MAX_RADIUS, MAX_REACH_RADII,
    MAX_SHAPE_OFFSET, MAX_TRIANGLE_DISTANCE_RADII, MIN_RADIUS, THIN_TRIANGLE_RATIO,
};

fn page(name: &str) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    std::fs::read_to_string(root.join("docs").join(name)).unwrap()
}

fn states(page: &str, text: &str) {
    assert!(page.contains(text), "the page no longer states `{text}`");
}

#[test]
fn continuous_collision_limits_match_the_code() {
    let doc = page("continuous-collision.md");
    assert_eq!(parapet::ccd::AUTO_MOTION_FRACTION, 0.25);
    states(&doc, "`AUTO_MOTION_FRACTION` = 0.25");
    assert_eq!((MIN_RADIUS, MAX_RADIUS), (1.0e-4, 1.0e4));
    states(&doc, "0.0001 m to 10000 m");
    assert_eq!(MAX_COORDINATE, 1.0e6);
    states(&doc, "within 1,000,000 m of the origin per axis");
    assert_eq!(MAX_COORDINATE_RADII, 65536.0);
    states(&doc, "within 65,536 radii per axis");
    // f32 has 24 significand bits: at 65536 = 2^16 radii the spacing of
    // coordinates is 2^16 / 2^23 = 1/128 radius, so rounding is half that,
    // radius / 256, as the page says.
    assert_eq!(
        MAX_COORDINATE_RADII / f64::from(1u32 << 23) / 2.0,
        1.0 / 256.0
    );
    states(&doc, "radius / 256");
    assert_eq!(MAX_REACH_RADII, 1_048_576.0);
    assert_eq!(MAX_TRIANGLE_DISTANCE_RADII, 1_048_576.0);
    assert_eq!(THIN_TRIANGLE_RATIO, 1_048_576.0);
    states(&doc, "at most 1,048,576 radii");
    states(&doc, "longest squared edge / 1,048,576");
    assert_eq!(APPROACH_EPS_FACTOR, 32.0);
    states(&doc, "-32 eps");
    assert_eq!(MAX_SHAPE_OFFSET, 1.0e4);
    states(&doc, "at most 10,000 m");
    assert_eq!(
        parapet_solver::tolerances::UNIT_QUATERNION_SQUARED_NORM_TOLERANCE,
        1.0e-5
    );
    states(&doc, "within 1e-5 in squared norm");
    assert_eq!(parapet::world::CONTACT_MARGIN, 0.02);
    states(&doc, "`CONTACT_MARGIN` (0.02 m)");
    assert_eq!(parapet_geometry::bvh::LINEAR_SCAN_MAX, 8);
}

#[test]
fn continuous_collision_defaults_match_the_world() {
    let doc = page("continuous-collision.md");
    let w = PhysicsWorld::new();
    assert_eq!(w.ccd_max_impacts, 64);
    assert_eq!(parapet::world::CCD_MAX_IMPACTS_LIMIT, 1..=1024);
    states(&doc, "default 64; valid 1..=1024");
    states(&doc, "(default 64, valid 1 to 1024)");
    assert_eq!(w.ccd_max_substeps, 256);
    assert_eq!(parapet::world::CCD_MAX_SUBSTEPS_LIMIT, 1..=65536);
    states(&doc, "default 256; valid 1..=65536");
    assert_eq!(w.collision_detection, DISCRETE);
    assert_eq!(CollisionDetection::try_from(0u8), Ok(DISCRETE));
    assert_eq!(CollisionDetection::try_from(1u8), Ok(SPHERE_MESH_CCD));
    states(&doc, "accepts 0\nand 1 only");
}

#[test]
fn physics_page_defaults_match_the_code() {
    let doc = page("physics.md");
    assert_eq!(PhysicsWorld::new().gravity, Vec3::new(0.0, 0.0, -9.8));
    states(&doc, "(0, 0, -9.8) m/s²");
    assert_eq!(parapet::world::CONTACT_MARGIN, 0.02);
    states(&doc, "`CONTACT_MARGIN` = 0.02 m");
}

#[test]
fn every_test_the_pages_cite_exists() {
    // A page cites a test as `file.rs`: `test_name`; each cited name must be
    // a function in tests/tests/ or a crate's tests/ (a renamed test breaks
    // the citation).
    // Test names have at least five words; API names (`set_center_of_mass`)
    // have fewer.
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut sources = String::new();
    let mut folders = vec![root.join("tests")];
    for krate in std::fs::read_dir(root.join("../crates")).unwrap().flatten() {
        folders.push(krate.path().join("tests"));
    }
    for folder in folders {
        for entry in std::fs::read_dir(folder).into_iter().flatten().flatten() {
            if entry.path().extension().is_some_and(|e| e == "rs") {
                sources.push_str(&std::fs::read_to_string(entry.path()).unwrap());
            }
        }
    }
    let mut missing = Vec::new();
    let mut checked = 0;
    for name in ["continuous-collision.md", "physics.md"] {
        let doc = page(name);
        for cited in doc.split('`').skip(1).step_by(2) {
            let looks_like_a_test = cited.contains('_')
                && cited
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c == '_' || c.is_ascii_digit())
                && cited.split('_').count() >= 5;
            if looks_like_a_test {
                checked += 1;
                if !sources.contains(&format!("fn {cited}(")) {
                    missing.push(format!("{name}: {cited}"));
                }
            }
        }
    }
    // Guards the scan itself: the pages cite dozens of tests.
    assert!(checked >= 30, "only {checked} citations found");
    assert!(
        missing.is_empty(),
        "cited tests not found:\n{}",
        missing.join("\n")
    );
}
