//! `parapet batch`: many scenes, one shard of them per invocation, so that
//! an array job (Slurm, a Kubernetes indexed Job) runs a large set in
//! parallel machines without coordination.
//!
//! Shard `K/N` takes the scenes whose index `i` in the order given has
//! `i mod N = K`: the `N` shards of one list are disjoint and their union is
//! the list. Each scene's trajectory goes to `DIR/<i>_<stem>.csv` (the
//! index keeps names unique when two scenes share a stem) and a summary of
//! the shard to `DIR/summary_<K>_of_<N>.csv` (columns [`SUMMARY_HEADER`]),
//! so that every shard writes its own files into a shared directory. A
//! scene that cannot be read or whose step fails is a row of the summary,
//! never the end of the batch. `--jobs J` runs `J` scenes at once on a
//! rayon pool of `J` threads; each scene's run is the same whatever the
//! pool, so the trajectories are byte-identical to single runs.

use std::fs::File;
use std::io::{BufWriter, IsTerminal};
use std::path::{Path, PathBuf};
use std::time::Instant;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rayon::prelude::*;

use crate::run::{apply_settings, run_scene, Outcome, RunSettings};
use crate::scene::load_scene;
use crate::trajectory::TrajectoryWriter;

/// The summary's header row.
pub const SUMMARY_HEADER: [&str; 5] = ["scene", "steps", "outcome", "error", "wall_time_s"];

/// One shard of a list: `index` of `count`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    /// `K`, in `0..count`.
    pub index: usize,
    /// `N`, at least 1.
    pub count: usize,
}

impl std::str::FromStr for Shard {
    type Err = String;

    /// Parses `K/N` with `0 <= K < N`.
    fn from_str(text: &str) -> Result<Self, String> {
        let bad = || format!("`{text}` is not a shard K/N with 0 <= K < N (e.g. 0/4)");
        let (k, n) = text.split_once('/').ok_or_else(bad)?;
        let index: usize = k.trim().parse().map_err(|_| bad())?;
        let count: usize = n.trim().parse().map_err(|_| bad())?;
        if count == 0 || index >= count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

impl Shard {
    /// The `(index, item)` pairs of `items` in this shard, in order.
    pub fn select<'a, T>(&self, items: &'a [T]) -> Vec<(usize, &'a T)> {
        items
            .iter()
            .enumerate()
            .filter(|(i, _)| i % self.count == self.index)
            .collect()
    }
}

/// How one scene of a batch ended (a summary row).
#[derive(Debug, Clone, PartialEq)]
pub struct SceneResult {
    /// The scene file as given.
    pub scene: PathBuf,
    /// The trajectory written (absent when the scene could not be read).
    pub trajectory: Option<PathBuf>,
    /// Steps that succeeded.
    pub steps: u64,
    /// `ok`, `step_failed` or `bad_input`.
    pub outcome: &'static str,
    /// The error, one line; empty when `ok`.
    pub error: String,
    /// Wall time (s) of reading, running and writing.
    pub wall_time: f64,
}

/// The trajectory file of scene `index` at `path`.
pub fn trajectory_name(index: usize, path: &Path) -> String {
    let stem = path
        .file_stem()
        .map_or_else(|| "scene".into(), |s| s.to_string_lossy());
    format!("{index}_{stem}.csv")
}

/// Runs scene `index` at `path`, its trajectory into `out_dir`.
pub fn run_one(index: usize, path: &Path, out_dir: &Path, settings: &RunSettings) -> SceneResult {
    let start = Instant::now();
    let mut result = SceneResult {
        scene: path.to_path_buf(),
        trajectory: None,
        steps: 0,
        outcome: "bad_input",
        error: String::new(),
        wall_time: 0.0,
    };
    match run_to_file(index, path, out_dir, settings) {
        Ok((file, outcome)) => {
            result.trajectory = Some(file);
            result.steps = outcome.steps();
            match outcome {
                Outcome::Completed { .. } => result.outcome = "ok",
                Outcome::StepFailed { steps, error } => {
                    result.outcome = "step_failed";
                    result.error = format!("step {} failed: {error}", steps + 1);
                }
            }
        }
        Err(error) => result.error = error,
    }
    result.wall_time = start.elapsed().as_secs_f64();
    result
}

fn run_to_file(
    index: usize,
    path: &Path,
    out_dir: &Path,
    settings: &RunSettings,
) -> Result<(PathBuf, Outcome), String> {
    let mut loaded = load_scene(path).map_err(|e| e.to_string())?;
    let (dt, steps) = apply_settings(&mut loaded, settings)?;
    let file = out_dir.join(trajectory_name(index, path));
    let out = File::create(&file).map_err(|e| format!("{}: cannot create: {e}", file.display()))?;
    let mut writer = TrajectoryWriter::new(BufWriter::new(out), dt).map_err(|e| e.to_string())?;
    let names = loaded.names.clone();
    let outcome = run_scene(&mut loaded, dt, steps, |step, states, _| {
        writer.frame(step, &names, states)
    })
    .map_err(|e| format!("{}: {e}", file.display()))?;
    writer.finish()?;
    Ok((file, outcome))
}

/// A progress bar on stderr when it is a terminal, hidden otherwise.
fn progress(len: usize) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(len as u64), ProgressDrawTarget::stderr());
    if let Ok(style) = ProgressStyle::with_template("{bar:40} {pos}/{len} scenes {elapsed} {msg}") {
        bar.set_style(style);
    }
    bar
}

/// Runs the shard `shard` of `scenes` on `jobs` threads (at least 1) into
/// `out_dir` (created if absent) and writes the summary. Returns the
/// summary rows in scene order.
///
/// # Errors
/// The output directory or the summary cannot be written, or the thread
/// pool cannot be built (scene failures are rows, not errors).
pub fn run_batch(
    scenes: &[PathBuf],
    shard: Shard,
    out_dir: &Path,
    jobs: usize,
    settings: &RunSettings,
) -> Result<Vec<SceneResult>, String> {
    std::fs::create_dir_all(out_dir)
        .map_err(|e| format!("{}: cannot create: {e}", out_dir.display()))?;
    let selected = shard.select(scenes);
    let bar = progress(selected.len());
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs.max(1))
        .build()
        .map_err(|e| format!("cannot start {jobs} jobs: {e}"))?;
    let results: Vec<SceneResult> = pool.install(|| {
        selected
            .par_iter()
            .map(|(i, path)| {
                let result = run_one(*i, path, out_dir, settings);
                bar.inc(1);
                result
            })
            .collect()
    });
    bar.finish_and_clear();
    let summary = out_dir.join(format!("summary_{}_of_{}.csv", shard.index, shard.count));
    write_summary(&summary, &results).map_err(|e| format!("{}: {e}", summary.display()))?;
    Ok(results)
}

fn write_summary(path: &Path, results: &[SceneResult]) -> csv::Result<()> {
    let mut csv = csv::Writer::from_path(path)?;
    csv.write_record(SUMMARY_HEADER)?;
    for r in results {
        csv.write_record([
            r.scene.display().to_string(),
            r.steps.to_string(),
            r.outcome.to_owned(),
            r.error.clone(),
            format!("{:.6}", r.wall_time),
        ])?;
    }
    csv.flush()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shards_of_a_list_partition_it() {
        let items: Vec<usize> = (0..11).collect();
        for count in 1..=5 {
            let mut seen: Vec<usize> = (0..count)
                .flat_map(|index| Shard { index, count }.select(&items))
                .map(|(i, &item)| {
                    assert_eq!(i, item);
                    item
                })
                .collect();
            seen.sort_unstable();
            assert_eq!(seen, items, "shards of {count}");
        }
    }

    #[test]
    fn shards_parse_only_when_k_is_below_n() {
        assert_eq!("2/4".parse(), Ok(Shard { index: 2, count: 4 }));
        for bad in ["4/4", "0/0", "-1/3", "1", "a/b", "1/2/3"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
    }
}
