//! `parapet batch` end to end: the four shards of one list are disjoint and
//! their union is the list; every trajectory is byte-identical to a single
//! `parapet run` of the same scene, whatever `--jobs`; a scene that cannot
//! be read or whose step fails is a row of the summary, not the end of the
//! batch.

mod common;

use std::collections::BTreeMap;
use std::path::PathBuf;

use common::{parapet_str, scenes_dir};

/// The example scenes, a bad file and a scene whose first step is refused.
fn scene_list(dir: &std::path::Path) -> Vec<PathBuf> {
    let bad = dir.join("bad.json");
    std::fs::write(
        &bad,
        common::BALL.replace("\"mass\": 1.0", "\"mass\": -1.0"),
    )
    .expect("write");
    let refused = dir.join("refused_slot.json");
    std::fs::write(&refused, common::REFUSED_SLOT).expect("write");
    let mut list: Vec<PathBuf> = [
        "tunneling",
        "struck_stack",
        "fast_box_wall",
        "crowd",
        "walker_on_terrain",
    ]
    .iter()
    .map(|s| scenes_dir().join(format!("{s}.json")))
    .collect();
    list.insert(2, bad);
    list.push(refused);
    list
}

#[test]
fn four_shards_cover_the_list_once_and_match_single_runs() {
    let dir = common::fresh_dir("cli_batch_shards");
    let scenes = scene_list(&dir);
    let out = dir.join("out");
    let mut rows: BTreeMap<String, (String, String)> = BTreeMap::new();
    for k in 0..4 {
        let mut args: Vec<String> = vec!["batch".into()];
        args.extend(scenes.iter().map(|p| p.display().to_string()));
        let jobs = if k % 2 == 0 { "1" } else { "2" };
        args.extend([
            "--shard".into(),
            format!("{k}/4"),
            "--out".into(),
            out.display().to_string(),
        ]);
        args.extend(["--jobs".into(), jobs.into()]);
        let refs: Vec<&str> = args.iter().map(String::as_str).collect();
        let run = parapet_str(&refs);
        // Shard 2 holds the bad file (index 2): exit 2; shard 2 also holds
        // index 6, the refused step. Shards without failures exit 0.
        let expected = match k {
            2 => 2,
            _ => 0,
        };
        assert_eq!(
            run.status.code(),
            Some(expected),
            "shard {k}: {}",
            String::from_utf8_lossy(&run.stderr)
        );
        let summary = out.join(format!("summary_{k}_of_4.csv"));
        let mut reader = csv::Reader::from_path(&summary).expect("the summary");
        assert_eq!(
            reader
                .headers()
                .expect("a header")
                .iter()
                .collect::<Vec<_>>(),
            ["scene", "steps", "outcome", "error", "wall_time_s"]
        );
        for record in reader.records() {
            let record = record.expect("a row");
            let scene = record[0].to_owned();
            let index = scenes
                .iter()
                .position(|p| p.display().to_string() == scene)
                .expect("a listed scene");
            assert_eq!(index % 4, k, "{scene} is in shard {k}");
            let previous = rows.insert(scene, (record[2].to_owned(), record[3].to_owned()));
            assert!(previous.is_none(), "each scene in exactly one shard");
        }
    }
    assert_eq!(
        rows.len(),
        scenes.len(),
        "the union of the shards is the list"
    );
    for (i, path) in scenes.iter().enumerate() {
        let (outcome, error) = &rows[&path.display().to_string()];
        let stem = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        match stem.as_str() {
            "bad" => {
                assert_eq!(outcome, "bad_input");
                assert!(
                    error.contains("bad.json:10:") && error.contains("bodies[1].mass"),
                    "{error}"
                );
                continue;
            }
            "refused_slot" => {
                assert_eq!(outcome, "step_failed");
                assert!(error.starts_with("step 1 failed"), "{error}");
            }
            _ => assert_eq!(outcome, "ok", "{stem}: {error}"),
        }
        let single = dir.join(format!("single_{i}.csv"));
        let run = parapet_str(&[
            "run",
            &path.display().to_string(),
            "--out",
            &single.display().to_string(),
        ]);
        assert!(run.status.code().is_some());
        let batch =
            std::fs::read(out.join(format!("{i}_{stem}.csv"))).expect("the batch trajectory");
        assert!(
            batch == std::fs::read(&single).expect("the single trajectory"),
            "{stem}: batch and run differ"
        );
    }
}

#[test]
fn jobs_do_not_change_any_trajectory() {
    let dir = common::fresh_dir("cli_batch_jobs");
    let scenes: Vec<String> = ["crowd", "struck_stack", "tunneling", "fast_box_wall"]
        .iter()
        .map(|s| scenes_dir().join(format!("{s}.json")).display().to_string())
        .collect();
    let mut outputs = Vec::new();
    for jobs in ["1", "3"] {
        let out = dir.join(format!("jobs{jobs}"));
        let mut args = vec!["batch"];
        args.extend(scenes.iter().map(String::as_str));
        let out_text = out.display().to_string();
        args.extend(["--out", &out_text, "--jobs", jobs, "--steps", "40"]);
        let run = parapet_str(&args);
        assert_eq!(
            run.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&run.stderr)
        );
        outputs.push(out);
    }
    for (i, s) in ["crowd", "struck_stack", "tunneling", "fast_box_wall"]
        .iter()
        .enumerate()
    {
        let name = format!("{i}_{s}.csv");
        let a = std::fs::read(outputs[0].join(&name)).expect("jobs 1");
        let b = std::fs::read(outputs[1].join(&name)).expect("jobs 3");
        assert!(a == b, "{name} differs between --jobs 1 and 3");
        // --steps 40 applies to every scene: 41 frames.
        let bodies = if *s == "crowd" {
            37
        } else if *s == "struck_stack" {
            6
        } else {
            2
        };
        assert_eq!(String::from_utf8_lossy(&a).lines().count(), 1 + 41 * bodies);
    }
}

#[test]
fn bad_shards_are_bad_input() {
    let scene = scenes_dir().join("tunneling.json").display().to_string();
    let dir = common::fresh_dir("cli_batch_bad_shard")
        .display()
        .to_string();
    for shard in ["4/4", "1/0", "x", "1"] {
        let run = parapet_str(&["batch", &scene, "--shard", shard, "--out", &dir]);
        assert_eq!(run.status.code(), Some(2), "{shard}");
    }
}
