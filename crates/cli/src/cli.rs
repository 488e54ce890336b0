//! The `parapet` command: its arguments (clap) and what each subcommand
//! does, with the exit status of [`ExitStatus`]: 0 success, 1 a step
//! failed (for `check`: a body the first step would refuse), 2 bad input (a scene or trajectory that cannot be read, with one
//! line naming the file, line, column and field; a bad argument; an output
//! that cannot be written).

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use clap::{Parser, Subcommand, ValueEnum};
use parapet::prelude::{BodyId, CollisionDetection, DISCRETE, SPHERE_MESH_CCD};

use crate::batch::{run_batch, Shard};
use crate::check::check_scene;
use crate::events::{read_events, EventWriter};
use crate::plot::{plot_positions, PositionSeries};
use crate::run::{apply_settings, run_scene, step_time, Outcome, RunSettings};
use crate::scene::{load_scene, KindName};
use crate::snapshot::{read_snapshot, resume_from, write_snapshot, SnapshotFormat};
use crate::trajectory::{read_trajectory, TrajectoryWriter};
use crate::view::{replay_html, sensor_marks};

/// The command's exit status.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExitStatus {
    /// 0: everything ran.
    Success = 0,
    /// 1: a step failed (the outputs hold the steps before it).
    StepFailed = 1,
    /// 2: bad input or an output that cannot be written.
    BadInput = 2,
}

/// The collision-detection mode on the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ModeArg {
    /// `DISCRETE`.
    Discrete,
    /// `SPHERE_MESH_CCD`.
    Ccd,
}

impl ModeArg {
    /// The world's mode.
    pub fn mode(self) -> CollisionDetection {
        match self {
            ModeArg::Discrete => DISCRETE,
            ModeArg::Ccd => SPHERE_MESH_CCD,
        }
    }
}

/// Step overrides shared by `run` and `batch`.
#[derive(Debug, Clone, clap::Args)]
pub struct StepArgs {
    /// Steps to take instead of the scene's `steps`.
    #[arg(long, value_name = "N")]
    pub steps: Option<u64>,
    /// Step (s) instead of the scene's `dt`.
    #[arg(long, value_name = "S")]
    pub dt: Option<f32>,
    /// Collision detection instead of the scene's `world.collision_detection`.
    #[arg(long, value_enum)]
    pub mode: Option<ModeArg>,
}

impl StepArgs {
    fn settings(&self) -> RunSettings {
        RunSettings {
            steps: self.steps,
            dt: self.dt,
            mode: self.mode.map(ModeArg::mode),
        }
    }
}

/// parapet: run rigid-body scene files (docs/scenes.md).
#[derive(Debug, Parser)]
#[command(name = "parapet", version, about)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run a scene: a trajectory CSV (one row per body per step, step 0 the
    /// initial state) and a plot of positions over time.
    Run {
        /// The scene file.
        scene: PathBuf,
        /// Step overrides.
        #[command(flatten)]
        step: StepArgs,
        /// The trajectory CSV (default: standard output).
        #[arg(long, value_name = "TRAJ.csv")]
        out: Option<PathBuf>,
        /// Every step's contact and sensor events as CSV (one row per
        /// event, in the world's order).
        #[arg(long, value_name = "EVENTS.csv")]
        events: Option<PathBuf>,
        /// An SVG plot of the moving bodies' positions over time.
        #[arg(long, value_name = "PLOT.svg")]
        plot: Option<PathBuf>,
        /// Write the world after the last step as a snapshot: JSON for a
        /// path ending in `.json`, CBOR for `.bin` or `.cbor`.
        #[arg(long, value_name = "SNAP.json|SNAP.bin")]
        snapshot: Option<PathBuf>,
        /// Start from this snapshot (written by `--snapshot` from a run of
        /// the same scene) instead of the scene's initial world; the scene
        /// still gives the step, the step count and the body names, and
        /// the trajectory's step 0 is the snapshot's state.
        #[arg(long, value_name = "SNAP.json|SNAP.bin")]
        from_snapshot: Option<PathBuf>,
    },
    /// Run one shard of a list of scenes: the scenes whose index i (in the
    /// order given) has i mod N = K; one trajectory per scene and a summary
    /// CSV in DIR.
    Batch {
        /// The scene files.
        #[arg(required = true)]
        scenes: Vec<PathBuf>,
        /// The shard, K/N with 0 <= K < N.
        #[arg(long, value_name = "K/N", default_value = "0/1")]
        shard: Shard,
        /// The output directory (created if absent).
        #[arg(long, value_name = "DIR")]
        out: PathBuf,
        /// Scenes run at once (each scene's result does not depend on it).
        #[arg(long, value_name = "J", default_value_t = 1)]
        jobs: usize,
        /// Step overrides, for every scene.
        #[command(flatten)]
        step: StepArgs,
    },
    /// The dry run of a scene's first step: every body the continuous
    /// stage would refuse, with the reason, the value and the limit (exit
    /// 1 if any, 0 if none). Nothing is stepped or written.
    Check {
        /// The scene file.
        scene: PathBuf,
        /// Overrides (`--dt`, `--mode`; `--steps` is not read: the dry run
        /// looks at the first step).
        #[command(flatten)]
        step: StepArgs,
    },
    /// Write a self-contained HTML page replaying a trajectory in 3D
    /// (sensors drawn translucent; with `--events`, where bodies entered,
    /// crossed or left a sensor marked).
    View {
        /// The trajectory CSV of `parapet run`.
        trajectory: PathBuf,
        /// The scene it was run from (for the shapes).
        #[arg(long)]
        scene: PathBuf,
        /// The events CSV of the same run (`parapet run --events`): its
        /// sensor events are marked where they happened.
        #[arg(long, value_name = "EVENTS.csv")]
        events: Option<PathBuf>,
        /// The page to write.
        #[arg(long, value_name = "replay.html")]
        out: PathBuf,
    },
}

/// Parses `args` (the first is the program name) and runs the command,
/// printing errors on stderr. Returns the exit status.
pub fn main_with(args: impl IntoIterator<Item = std::ffi::OsString>) -> i32 {
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() {
                ExitStatus::BadInput as i32
            } else {
                0
            };
        }
    };
    let status = match cli.command {
        Command::Run {
            scene,
            step,
            out,
            events,
            plot,
            snapshot,
            from_snapshot,
        } => run(
            &scene,
            &step,
            &RunOutputs {
                out: out.as_deref(),
                events: events.as_deref(),
                plot: plot.as_deref(),
                snapshot: snapshot.as_deref(),
                from_snapshot: from_snapshot.as_deref(),
            },
        ),
        Command::Batch {
            scenes,
            shard,
            out,
            jobs,
            step,
        } => batch(&scenes, shard, &out, jobs, &step),
        Command::Check { scene, step } => check(&scene, &step),
        Command::View {
            trajectory,
            scene,
            events,
            out,
        } => view(&trajectory, &scene, events.as_deref(), &out),
    };
    status as i32
}

fn bad(message: impl std::fmt::Display) -> ExitStatus {
    eprintln!("parapet: {message}");
    ExitStatus::BadInput
}

/// The files of `parapet run` besides the scene.
struct RunOutputs<'a> {
    out: Option<&'a Path>,
    events: Option<&'a Path>,
    plot: Option<&'a Path>,
    snapshot: Option<&'a Path>,
    from_snapshot: Option<&'a Path>,
}

fn run(scene: &Path, step: &StepArgs, files: &RunOutputs<'_>) -> ExitStatus {
    let (out, plot) = (files.out, files.plot);
    let mut loaded = match load_scene(scene) {
        Ok(loaded) => loaded,
        Err(e) => return bad(e),
    };
    if let Some(path) = files.snapshot {
        // Refuse a bad extension before running, not after.
        if let Err(e) = SnapshotFormat::of(path) {
            return bad(e);
        }
    }
    if let Some(path) = files.from_snapshot {
        match read_snapshot(path).and_then(|world| resume_from(&mut loaded, world, path)) {
            Ok(()) => {}
            Err(e) => return bad(e),
        }
    }
    let (dt, steps) = match apply_settings(&mut loaded, &step.settings()) {
        Ok(v) => v,
        Err(e) => return bad(e),
    };
    let sink: Box<dyn Write> = match out {
        Some(path) => match File::create(path) {
            Ok(file) => Box::new(BufWriter::new(file)),
            Err(e) => return bad(format!("{}: cannot create: {e}", path.display())),
        },
        None => Box::new(BufWriter::new(std::io::stdout().lock())),
    };
    let mut writer = match TrajectoryWriter::new(sink, dt) {
        Ok(w) => w,
        Err(e) => return bad(e),
    };
    let mut events = match files.events.map(|path| {
        File::create(path)
            .map_err(|e| format!("{}: cannot create: {e}", path.display()))
            .and_then(|f| EventWriter::new(BufWriter::new(f), dt).map_err(|e| e.to_string()))
    }) {
        None => None,
        Some(Ok(w)) => Some(w),
        Some(Err(e)) => return bad(e),
    };
    let moving: Vec<bool> = loaded
        .scene
        .bodies
        .iter()
        .map(|b| b.kind != KindName::Static)
        .collect();
    let mut series = PositionSeries::new(&loaded.names, &moving);
    let names = loaded.names.clone();
    let ids = loaded.ids.clone();
    let name_of = |id: BodyId| {
        ids.iter()
            .position(|&i| i == id)
            .map_or_else(|| format!("{id:?}"), |k| names[k].clone())
    };
    let outcome = run_scene(&mut loaded, dt, steps, |i, states, stepped| {
        if plot.is_some() {
            series.push(step_time(i, dt), states);
        }
        if let Some(w) = events.as_mut() {
            w.step(i, stepped, &name_of)?;
        }
        writer.frame(i, &names, states)
    });
    let outcome = match outcome {
        Ok(outcome) => outcome,
        Err(e) => return bad(format!("cannot write the trajectory: {e}")),
    };
    if let Err(e) = writer.finish() {
        return bad(format!("cannot write the trajectory: {e}"));
    }
    if let Some(Err(e)) = events.map(EventWriter::finish) {
        return bad(format!("cannot write the events: {e}"));
    }
    if let Some(path) = plot {
        let title = scene
            .file_stem()
            .map_or_else(|| "scene".into(), |s| s.to_string_lossy());
        if let Err(e) = plot_positions(path, &title, &series) {
            return bad(e);
        }
    }
    if let Some(path) = files.snapshot {
        if let Err(e) = write_snapshot(path, &loaded.world) {
            return bad(e);
        }
    }
    match outcome {
        Outcome::Completed { .. } => ExitStatus::Success,
        Outcome::StepFailed { steps, error } => {
            eprintln!(
                "parapet: {}: step {} failed: {error}",
                scene.display(),
                steps + 1
            );
            ExitStatus::StepFailed
        }
    }
}

fn batch(scenes: &[PathBuf], shard: Shard, out: &Path, jobs: usize, step: &StepArgs) -> ExitStatus {
    let results = match run_batch(scenes, shard, out, jobs, &step.settings()) {
        Ok(results) => results,
        Err(e) => return bad(e),
    };
    let mut status = ExitStatus::Success;
    for r in &results {
        match r.outcome {
            "ok" => {}
            "step_failed" => {
                eprintln!("parapet: {}: {}", r.scene.display(), r.error);
                if status == ExitStatus::Success {
                    status = ExitStatus::StepFailed;
                }
            }
            _ => {
                eprintln!("parapet: {}", r.error);
                status = ExitStatus::BadInput;
            }
        }
    }
    status
}

fn check(scene: &Path, step: &StepArgs) -> ExitStatus {
    let mut loaded = match load_scene(scene) {
        Ok(loaded) => loaded,
        Err(e) => return bad(e),
    };
    let (dt, _) = match apply_settings(&mut loaded, &step.settings()) {
        Ok(v) => v,
        Err(e) => return bad(e),
    };
    let refused = check_scene(&loaded, dt);
    let mut stdout = std::io::stdout().lock();
    let written = if refused.is_empty() {
        writeln!(
            stdout,
            "{}: no body would be refused at the first step",
            scene.display()
        )
    } else {
        refused
            .iter()
            .try_for_each(|r| writeln!(stdout, "{}: {r}", scene.display()))
    };
    match (written, refused.is_empty()) {
        (Err(e), _) => bad(format!("cannot write the report: {e}")),
        (Ok(()), true) => ExitStatus::Success,
        (Ok(()), false) => ExitStatus::StepFailed,
    }
}

fn view(trajectory: &Path, scene: &Path, events: Option<&Path>, out: &Path) -> ExitStatus {
    let loaded = match load_scene(scene) {
        Ok(loaded) => loaded,
        Err(e) => return bad(e),
    };
    let frames = match read_trajectory(trajectory) {
        Ok(frames) => frames,
        Err(e) => return bad(e),
    };
    let marks = match events {
        None => Vec::new(),
        Some(path) => match read_events(path) {
            Ok(rows) => match sensor_marks(&frames, &rows) {
                Ok(marks) => marks,
                Err(e) => return bad(format!("{}:0:0: (file): {e}", path.display())),
            },
            Err(e) => return bad(e),
        },
    };
    let title = scene
        .file_stem()
        .map_or_else(|| "scene".into(), |s| s.to_string_lossy());
    let html = match replay_html(&title, &loaded, &frames, &marks) {
        Ok(html) => html,
        Err(e) => return bad(format!("{}:0:0: (file): {e}", trajectory.display())),
    };
    match std::fs::write(out, html) {
        Ok(()) => ExitStatus::Success,
        Err(e) => bad(format!("{}: cannot write: {e}", out.display())),
    }
}
