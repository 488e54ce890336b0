//! `parapet view` end to end: the replay page is self-contained (no markup
//! that loads anything, no URL other than identifiers and texts of the
//! bundled three.js), and headless Chromium, with every host name made
//! unresolvable, loads it from a file and draws a frame of the scene; with
//! a run's events, it draws the sensors translucent and marks where a body
//! crossed one.
//!
//! The browser test finds Chromium by the standard means
//! (`parapet_cli::browser::find_chromium`: the `CHROME` variable, `PATH`,
//! the usual install locations) and fails, saying so, when there is none:
//! it is never skipped. `cargo xtask test`, the README's test command,
//! installs the system's package first where the user may.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::{parapet_str, scenes_dir};
use parapet_cli::view::{THREE_JS, THREE_LICENSE};

/// Runs `scene` for `steps` steps and writes its replay page into `dir`.
fn replay(dir: &Path, scene: &str, steps: &str) -> PathBuf {
    let scene = scenes_dir()
        .join(format!("{scene}.json"))
        .display()
        .to_string();
    let csv = dir.join("t.csv").display().to_string();
    let html = dir.join("replay.html");
    let run = parapet_str(&["run", &scene, "--steps", steps, "--out", &csv]);
    assert_eq!(
        run.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let view = parapet_str(&[
        "view",
        &csv,
        "--scene",
        &scene,
        "--out",
        &html.display().to_string(),
    ]);
    assert_eq!(
        view.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&view.stderr)
    );
    html
}

/// The page without the contents of its `<script>` elements: the markup.
fn markup(page: &str) -> String {
    let mut out = String::new();
    let mut rest = page;
    while let Some(start) = rest.find("<script") {
        let open_end = rest[start..]
            .find('>')
            .map_or(rest.len(), |e| start + e + 1);
        out.push_str(&rest[..open_end]);
        let close = rest[open_end..]
            .find("</script>")
            .map_or(rest.len(), |c| open_end + c);
        rest = &rest[close..];
        if rest.is_empty() {
            break;
        }
        out.push_str("</script>");
        rest = &rest["</script>".len()..];
    }
    out.push_str(rest);
    out
}

/// Every `http://` or `https://` URL in `text`.
fn urls(text: &str) -> Vec<&str> {
    let mut found = Vec::new();
    for scheme in ["http://", "https://"] {
        let mut from = 0;
        while let Some(i) = text[from..].find(scheme) {
            let start = from + i;
            let end = text[start..]
                .find(|c: char| c.is_whitespace() || "\"'`()<>,".contains(c))
                .map_or(text.len(), |e| start + e);
            found.push(&text[start..end]);
            from = end;
        }
    }
    found
}

/// The URLs the page holds that are never fetched: the XHTML namespace (an
/// identifier three.js passes to `createElementNS`) and two documentation
/// links in the texts of three.js's console messages.
const NOT_FETCHED: [&str; 3] = [
    "http://www.w3.org/1999/xhtml",
    "https://threejs.org/docs/index.html#manual/en/introduction/Installation",
    "https://discourse.threejs.org/t/updates-to-lighting-in-three-js-r155/53733.",
];

#[test]
fn the_page_is_self_contained() {
    let dir = common::fresh_dir("cli_view_page");
    let page = std::fs::read_to_string(replay(&dir, "struck_stack", "20")).expect("the page");
    let markup = markup(&page);
    for loader in [
        "src=", "href=", "<link", "<iframe", "<img", "<object", "<embed", "url(", "@import",
    ] {
        assert!(
            !markup.to_lowercase().contains(loader),
            "the markup loads something: {loader}"
        );
    }
    for url in urls(&page) {
        assert!(
            NOT_FETCHED.contains(&url),
            "a URL that could be fetched: {url}"
        );
    }
    assert!(page.contains(THREE_JS), "three.js is inlined whole");
    assert!(page.contains("Copyright © 2010-2023 three.js authors"));
    assert!(THREE_LICENSE.contains("The MIT License"));
    // The trajectory's 21 frames and the six bodies' names are in the data.
    for name in ["\"floor\"", "\"stack0\"", "\"striker\""] {
        assert!(page.contains(name), "{name}");
    }
}

/// The crowd scene's bodies come to rest and fall asleep in 300 steps
/// (5 s): the page's per-frame `sleeping` flags (drawn dimmed) say so, all
/// awake in the first frame, some asleep in the last.
#[test]
fn the_page_marks_sleeping_bodies() {
    let dir = common::fresh_dir("cli_view_sleeping");
    let page = std::fs::read_to_string(replay(&dir, "crowd", "300")).expect("the page");
    let start = page.find("\"sleeping\":[").expect("the sleeping flags") + 12;
    let end = start + page[start..].find(']').expect("the end of the flags");
    let flags: Vec<&str> = page[start..end].split(',').collect();
    let frames = 301;
    assert_eq!(flags.len() % frames, 0, "one flag per body per frame");
    let bodies = flags.len() / frames;
    assert!(
        flags[..bodies].iter().all(|f| *f == "0"),
        "asleep at step 0"
    );
    assert!(
        flags[flags.len() - bodies..].contains(&"1"),
        "nothing asleep after 5 s"
    );
}

/// Runs Chromium with `args` for at most 90 s; its stdout (through a file:
/// a dumped page is larger than a pipe's buffer).
fn chromium(profile: &Path, args: &[String]) -> String {
    let browser = parapet_cli::browser::find_chromium().unwrap_or_else(|missing| {
        panic!("{missing} (`cargo xtask test` installs it where the user may)")
    });
    let _ = std::fs::remove_dir_all(profile);
    let stdout_path = profile.with_extension("stdout");
    let stdout = std::fs::File::create(&stdout_path).expect("a file for chromium's output");
    let mut child = Command::new(&browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            // Software WebGL: Chromium's automatic fallback is deprecated in
            // favour of this explicit opt-in.
            "--enable-unsafe-swiftshader",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            // No host name resolves: anything the page tried to fetch fails.
            "--host-resolver-rules=MAP * ~NOTFOUND",
            "--window-size=800,600",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(args)
        .stdin(Stdio::null())
        .stdout(stdout)
        .stderr(Stdio::null())
        .spawn()
        .expect("chromium starts");
    let deadline = Instant::now() + Duration::from_secs(90);
    while child.try_wait().expect("chromium runs").is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("chromium did not finish within 90 s");
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    std::fs::read_to_string(&stdout_path).expect("chromium's output")
}

#[test]
fn headless_chromium_draws_the_replay_offline() {
    let dir = common::fresh_dir("cli_view_chromium");
    let html = replay(&dir, "struck_stack", "30");
    let url = format!(
        "file://{}",
        html.canonicalize().expect("the page").display()
    );
    let dom = chromium(
        &dir.join("profile-dom"),
        &["--dump-dom".into(), url.clone()],
    );
    // The viewer writes this status after it has rendered the first frame
    // (it says "WebGL is not available" when it cannot).
    assert!(
        dom.contains("drawn: frame 1 of 31, 6 bodies"),
        "{}",
        &dom[dom.len().saturating_sub(600)..]
    );
    let shot = dir.join("replay.png");
    chromium(
        &dir.join("profile-shot"),
        &[format!("--screenshot={}", shot.display()), url],
    );
    let decoder = png::Decoder::new(std::fs::File::open(&shot).expect("the screenshot"));
    let mut reader = decoder.read_info().expect("a PNG");
    let mut pixels = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut pixels).expect("a frame");
    let channels = info.color_type.samples();
    assert!(
        channels >= 3 && info.bit_depth == png::BitDepth::Eight,
        "{info:?}"
    );
    // The 3D view: every row above the 48 px control bar.
    let rows = (info.height as usize).saturating_sub(48);
    let view = &pixels[..rows * info.line_size];
    let background = [0x1d, 0x27, 0x33];
    let (mut drawn, mut colours) = (0usize, std::collections::BTreeSet::new());
    for px in view.chunks_exact(channels) {
        // 24 of 255 per channel: well above compression and dithering noise,
        // far below the contrast of a lit body on the background.
        if px[..3]
            .iter()
            .zip(background)
            .any(|(&c, b)| c.abs_diff(b) > 24)
        {
            drawn += 1;
            colours.insert([px[0] / 16, px[1] / 16, px[2] / 16]);
        }
    }
    let total = view.len() / channels;
    // The floor and six lit spheres cover far more than 5 % of the view and
    // shade into many colours; a blank or flat page has none.
    assert!(drawn * 20 > total, "{drawn} of {total} pixels drawn");
    assert!(colours.len() >= 8, "{} colours", colours.len());
}

/// The pixels of the 3D view (above the 48 px control bar) of a PNG
/// screenshot, with their channel count.
fn view_pixels(shot: &Path) -> (Vec<u8>, usize) {
    let decoder = png::Decoder::new(std::fs::File::open(shot).expect("the screenshot"));
    let mut reader = decoder.read_info().expect("a PNG");
    let mut pixels = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut pixels).expect("a frame");
    let channels = info.color_type.samples();
    assert!(
        channels >= 3 && info.bit_depth == png::BitDepth::Eight,
        "{info:?}"
    );
    let rows = (info.height as usize).saturating_sub(48);
    pixels.truncate(rows * info.line_size);
    (pixels, channels)
}

#[test]
fn the_replay_draws_sensors_translucent_and_marks_a_crossing() {
    let dir = common::fresh_dir("cli_view_sensors");
    let scene = scenes_dir()
        .join("filters_sensors.json")
        .display()
        .to_string();
    let (csv, events) = (dir.join("t.csv"), dir.join("e.csv"));
    let html = dir.join("replay.html");
    let run = parapet_str(&[
        "run",
        &scene,
        "--steps",
        "60",
        "--out",
        &csv.display().to_string(),
        "--events",
        &events.display().to_string(),
    ]);
    assert_eq!(
        run.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let view = parapet_str(&[
        "view",
        &csv.display().to_string(),
        "--scene",
        &scene,
        "--events",
        &events.display().to_string(),
        "--out",
        &html.display().to_string(),
    ]);
    assert_eq!(
        view.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&view.stderr)
    );
    let page = std::fs::read_to_string(&html).expect("the page");
    // The two sensors (the pit lane and the finish line) and nothing else.
    assert_eq!(page.matches("\"sensor\":true").count(), 2);
    // In 60 steps: the bullet crossed the line in step 1 (frame 1), the
    // truck entered the pit lane in step 35, its bar in step 57.
    assert!(
        page.contains(
            "{\"frame\":1,\"fraction\":0.47820005,\"kind\":\"crossed\",\"sensor\":10,\"body\":11}"
        ),
        "{}",
        &page[page.find("\"marks\"").unwrap_or(0)..][..300.min(page.len())]
    );
    // Opened at frame 1 (`#frame=1`), the page draws the crossing's amber
    // marker on the finish line.
    let url = format!(
        "file://{}#frame=1",
        html.canonicalize().expect("the page").display()
    );
    let dom = chromium(
        &dir.join("profile-dom"),
        &["--dump-dom".into(), url.clone()],
    );
    assert!(
        dom.contains("drawn: frame 2 of 61, 13 bodies, 2 sensors, 3 sensor events marked"),
        "{}",
        &dom[dom.len().saturating_sub(600)..]
    );
    let shot = dir.join("replay.png");
    chromium(
        &dir.join("profile-shot"),
        &[format!("--screenshot={}", shot.display()), url],
    );
    let (view, channels) = view_pixels(&shot);
    // The marker is drawn unlit in 0xffb000; no other surface of the scene
    // comes within 40 of it on every channel (the floor is lit red-grey,
    // the sensors cyan, the bodies of other hues).
    let amber = view
        .chunks_exact(channels)
        .filter(|px| {
            px[..3]
                .iter()
                .zip([0xff, 0xb0, 0x00])
                .all(|(&c, a)| c.abs_diff(a) <= 40)
        })
        .count();
    assert!(amber >= 4, "{amber} amber pixels");
}

#[test]
fn a_trajectory_of_another_scene_is_refused() {
    let dir = common::fresh_dir("cli_view_mismatch");
    replay(&dir, "tunneling", "3");
    let csv = dir.join("t.csv").display().to_string();
    let other = scenes_dir().join("struck_stack.json").display().to_string();
    let out = dir.join("x.html").display().to_string();
    let view = parapet_str(&["view", &csv, "--scene", &other, "--out", &out]);
    assert_eq!(view.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&view.stderr).contains("are not the scene's"));
    let text = std::fs::read_to_string(&csv)
        .expect("the trajectory")
        .replace("0.15", "high");
    std::fs::write(&csv, text).expect("write");
    let view = parapet_str(&[
        "view",
        &csv,
        "--scene",
        &scenes_dir().join("tunneling.json").display().to_string(),
        "--out",
        &out,
    ]);
    assert_eq!(view.status.code(), Some(2));
    let err = String::from_utf8_lossy(&view.stderr).into_owned();
    // Row 3 (after the header and the floor's row) holds the ball's z: the
    // 7th column, after "0,0,1,ball,0,0,".
    assert!(err.contains("t.csv:3:16: z: `high`"), "{err}");
}
