//! `cargo xtask demo`: runs every scene of `parapet_scenes::demo_scenes`
//! and `parapet_scenes::town_scenes` in
//! DISCRETE and in SPHERE_MESH_CCD, prints a table per scene (steps, impacts,
//! contacts, final positions, energy, whether anything crossed a surface by
//! the scenes' independent clearance checks, refusals) and writes one SVG
//! plot per scene (the measured gap to the surface over time, both modes)
//! with plotters' SVG backend, then a summary: per scene, what DISCRETE
//! crosses and what SPHERE_MESH_CCD holds (or refuses). Progress goes to
//! stderr for any scene run that takes more than a second. `--quick` runs
//! a tenth of the steps, and of the town scenes the few steps that show
//! what DISCRETE crosses (the test that keeps the demo from rotting uses
//! it).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use parapet::prelude::*;
use parapet_scenes::judge::Found;
use parapet_scenes::{demo_scenes, town_scenes, SceneRun};
use plotters::prelude::*;

/// Lowest gap (m) drawn in a plot: a body that fell through keeps falling,
/// and its curve is clipped here so that the other curve stays readable.
pub const PLOT_FLOOR: f64 = -2.0;

/// Final positions printed per run (the crossroads watches 20 cars).
const SHOWN_POSITIONS: usize = 4;

/// How long (s) a scene run may go before progress is shown.
const PROGRESS_AFTER: Duration = Duration::from_secs(1);

pub use crate::demo_error::DemoError;

/// One scene in both modes.
#[derive(Debug, Clone)]
pub struct SceneReport {
    /// The scene's name.
    pub name: &'static str,
    /// What it shows.
    pub title: &'static str,
    /// The run in DISCRETE.
    pub discrete: SceneRun,
    /// The run in SPHERE_MESH_CCD.
    pub ccd: SceneRun,
    /// The SVG plot written for it.
    pub plot: PathBuf,
}

/// What the demo did.
#[derive(Debug, Clone)]
pub struct DemoReport {
    /// One entry per scene, in demo order.
    pub scenes: Vec<SceneReport>,
    /// The box stacks, in [`crate::demo_stacks`] order.
    pub stacks: Vec<crate::demo_stacks::StackDemo>,
}

impl DemoReport {
    /// True when no SPHERE_MESH_CCD run crossed a surface, every refused
    /// step left its world unchanged (the promise of the continuous mode: a
    /// refusal is an honest answer, a crossing is not), and every stack
    /// stood in DISCRETE and, in SPHERE_MESH_CCD, kept its cubes within
    /// the promised depth of each other or was refused with the world
    /// unchanged.
    pub fn all_as_expected(&self) -> bool {
        self.scenes.iter().all(|s| {
            !s.ccd.crossed()
                && [&s.ccd, &s.discrete]
                    .iter()
                    .all(|r| r.refusal.as_ref().is_none_or(|f| f.world_unchanged))
        }) && self.stacks.iter().all(|s| {
            s.discrete.stood()
                && match &s.ccd.refusal {
                    Some(f) => f.world_unchanged,
                    None => s.ccd.kept_the_promise(),
                }
        })
    }
}

/// `target/parapet/demo/` of this workspace.
pub fn default_out_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap_or(Path::new("."))
        .join("target")
        .join("parapet")
        .join("demo")
}

fn mode_name(mode: CollisionDetection) -> &'static str {
    if mode == SPHERE_MESH_CCD {
        "SPHERE_MESH_CCD"
    } else {
        "DISCRETE"
    }
}

fn run_with_progress(scene: parapet_scenes::Scene, show: bool) -> SceneRun {
    let label = format!(
        "{} {}",
        scene.name,
        mode_name(scene.world.collision_detection)
    );
    let start = Instant::now();
    let mut last = start;
    let mut shown = false;
    let result = parapet_scenes::run(scene, &mut |step, steps| {
        let now = Instant::now();
        if show
            && now.duration_since(start) > PROGRESS_AFTER
            && now.duration_since(last) > Duration::from_millis(250)
        {
            eprint!("\r  {label}: step {step}/{steps}");
            last = now;
            shown = true;
        }
    });
    if shown {
        eprintln!(
            "\r  {label}: done in {:.1} s           ",
            start.elapsed().as_secs_f64()
        );
    }
    result
}

fn write_table(out: &mut dyn Write, report: &SceneReport) -> std::io::Result<()> {
    writeln!(out, "\n== {}: {}", report.name, report.title)?;
    writeln!(
        out,
        "{:<16} {:>6} {:>8} {:>9} {:>11} {:>24}  crossed a surface",
        "mode", "steps", "impacts", "contacts", "min gap m", "energy J start -> end",
    )?;
    for r in [&report.discrete, &report.ccd] {
        let crossed = match r.crossed_at {
            Some(t) => format!("YES, at t = {t:.3} s"),
            None => "no".to_string(),
        };
        writeln!(
            out,
            "{:<16} {:>6} {:>8} {:>9} {:>11.4} {:>11.2} -> {:>9.2}  {}",
            mode_name(r.mode),
            r.steps_taken,
            r.swept_impacts,
            r.contacts,
            r.min_gap(),
            r.energy_start,
            r.energy_end,
            crossed
        )?;
    }
    for r in [&report.discrete, &report.ccd] {
        let mut positions: Vec<String> = r
            .final_positions
            .iter()
            .take(SHOWN_POSITIONS)
            .map(|(id, p)| format!("{id} ({:.3}, {:.3}, {:.3})", p.x, p.y, p.z))
            .collect();
        if r.final_positions.len() > SHOWN_POSITIONS {
            positions.push(format!(
                "and {} more",
                r.final_positions.len() - SHOWN_POSITIONS
            ));
        }
        writeln!(
            out,
            "  {} final positions (m): {}",
            mode_name(r.mode),
            positions.join(", ")
        )?;
        if let Some((t, w)) = &r.worst {
            writeln!(
                out,
                "  {} judge: {} sunk, {} crossed; deepest: {} {:.4} m {} {} at t = {t:.3} s (allowed {:.4} m)",
                mode_name(r.mode),
                r.verdict.sunk,
                r.verdict.crossed,
                w.label,
                w.depth,
                match w.found {
                    Found::Inside => "inside a",
                    Found::Through => "through a",
                    _ => "behind the",
                },
                w.other_label,
                w.allowance
            )?;
        }
        if let Some(f) = &r.refusal {
            writeln!(
                out,
                "  {} refused step {}: {}\n    world unchanged by the refused step: {}",
                mode_name(r.mode),
                f.step,
                f.error,
                if f.world_unchanged { "yes" } else { "NO" }
            )?;
        }
    }
    Ok(())
}

/// What a run shows in the summary: what it crossed, or that it held.
fn outcome(r: &SceneRun) -> String {
    let judged = r.verdict.sunk + r.verdict.crossed;
    let crossed = match (r.crossed_at, judged) {
        (None, _) => None,
        (Some(t), 0) => Some(format!("crossed at t = {t:.2} s")),
        (Some(t), _) => Some(format!(
            "{} sunk, {} crossed (first at t = {t:.2} s)",
            r.verdict.sunk, r.verdict.crossed
        )),
    };
    let refused = r
        .refusal
        .as_ref()
        .map(|f| format!("refused at step {}", f.step));
    match (crossed, refused) {
        (None, None) => "holds".to_string(),
        (Some(c), None) => c,
        (None, Some(f)) => format!("holds until {f}"),
        (Some(c), Some(f)) => format!("{c}; {f}"),
    }
}

/// The table of every scene: what DISCRETE crosses, what
/// SPHERE_MESH_CCD holds.
fn write_summary(out: &mut dyn Write, scenes: &[SceneReport]) -> std::io::Result<()> {
    writeln!(out, "\n{:<18} {:<44} SPHERE_MESH_CCD", "scene", "DISCRETE")?;
    for s in scenes {
        writeln!(
            out,
            "{:<18} {:<44} {}",
            s.name,
            outcome(&s.discrete),
            outcome(&s.ccd)
        )?;
    }
    Ok(())
}

fn plot(report: &SceneReport, path: &Path) -> Result<(), DemoError> {
    let series = [(&report.discrete, RED), (&report.ccd, BLUE)];
    let t_end = series
        .iter()
        .flat_map(|(r, _)| r.samples.last().map(|s| s.time))
        .fold(0.0, f64::max)
        .max(1e-3);
    let finite = |r: &SceneRun| {
        r.samples
            .iter()
            .filter(|s| s.gap.is_finite())
            .map(|s| s.gap)
            .collect::<Vec<_>>()
    };
    let all: Vec<f64> = series.iter().flat_map(|(r, _)| finite(r)).collect();
    let high = all.iter().copied().fold(0.0, f64::max);
    let low = all.iter().copied().fold(0.0, f64::min).max(PLOT_FLOOR);
    let pad = 0.05 * (high - low).max(1e-3);
    let (low, high) = (low - pad, high + pad);
    let root = SVGBackend::new(path, (900, 500)).into_drawing_area();
    let err = |e: &dyn std::fmt::Display| DemoError::Plot(e.to_string());
    root.fill(&WHITE).map_err(|e| err(&e))?;
    let mut chart = ChartBuilder::on(&root)
        .caption(
            format!("{}: gap to the surface (m) over time (s)", report.name),
            ("sans-serif", 20),
        )
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(60)
        .build_cartesian_2d(0.0..t_end, low..high)
        .map_err(|e| err(&e))?;
    chart
        .configure_mesh()
        .x_desc("time (s)")
        .y_desc(format!("gap (m), clipped at {PLOT_FLOOR}"))
        .draw()
        .map_err(|e| err(&e))?;
    chart
        .draw_series(LineSeries::new([(0.0, 0.0), (t_end, 0.0)], BLACK.mix(0.5)))
        .map_err(|e| err(&e))?
        .label("surface (gap 0)")
        .legend(|(x, y)| PathElement::new([(x, y), (x + 20, y)], BLACK.mix(0.5)));
    for (r, color) in series {
        let points: Vec<(f64, f64)> = r
            .samples
            .iter()
            .filter(|s| s.gap.is_finite())
            .map(|s| (s.time, s.gap.clamp(low, high)))
            .collect();
        let label = match (&r.refusal, r.crossed_at) {
            (Some(f), _) => format!("{} (refused at step {})", mode_name(r.mode), f.step),
            (None, Some(t)) => format!("{} (crossed at {t:.3} s)", mode_name(r.mode)),
            (None, None) => format!("{} (never crossed)", mode_name(r.mode)),
        };
        chart
            .draw_series(LineSeries::new(points.clone(), color.stroke_width(2)))
            .map_err(|e| err(&e))?
            .label(label)
            .legend(move |(x, y)| PathElement::new([(x, y), (x + 20, y)], color.stroke_width(2)));
        chart
            .draw_series(points.iter().map(|p| Circle::new(*p, 2, color.filled())))
            .map_err(|e| err(&e))?;
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .draw()
        .map_err(|e| err(&e))?;
    root.present().map_err(|e| err(&e))?;
    Ok(())
}

/// Runs the demo: every scene in both modes (`quick`: a tenth of the
/// steps), a table per scene on `out`, an SVG per scene in `out_dir`;
/// `progress` shows progress on stderr for runs longer than a second.
///
/// # Errors
///
/// [`DemoError`] when a scene cannot be built or a file cannot be written.
pub fn run(
    quick: bool,
    out_dir: &Path,
    out: &mut dyn Write,
    progress: bool,
) -> Result<DemoReport, DemoError> {
    writeln!(
        out,
        "parapet {} demo{}: each scene in DISCRETE and in SPHERE_MESH_CCD",
        env!("CARGO_PKG_VERSION"),
        if quick {
            " (quick: a tenth of the steps)"
        } else {
            ""
        }
    )?;
    writeln!(
        out,
        "gap: distance from the watched body to the surface it approaches (negative: overlap);\n\
         crossed: a core point of the watched body ended behind the surface it approaches\n\
         (independent check in parapet-scenes, not parapet's contacts; tolerance {} m);\n\
         in the town scenes (crossroads and after), every dynamic body is judged against every\n\
         other body and the ground: crossed when it ends inside one, passes through one or sinks\n\
         behind the ground deeper than the continuous mode promises (gap: minus the deepest overlap)",
        parapet_scenes::scene::CROSSING_TOLERANCE
    )?;
    std::fs::create_dir_all(out_dir)?;
    let mut discrete = demo_scenes(DISCRETE, quick)?;
    discrete.extend(town_scenes(DISCRETE, quick)?);
    let mut ccd = demo_scenes(SPHERE_MESH_CCD, quick)?;
    ccd.extend(town_scenes(SPHERE_MESH_CCD, quick)?);
    let mut scenes = Vec::new();
    for (d, c) in discrete.into_iter().zip(ccd) {
        let (name, title) = (d.name, d.title);
        let report = SceneReport {
            name,
            title,
            discrete: run_with_progress(d, progress),
            ccd: run_with_progress(c, progress),
            plot: out_dir.join(format!("{name}.svg")),
        };
        plot(&report, &report.plot)?;
        write_table(out, &report)?;
        writeln!(out, "  plot: {}", report.plot.display())?;
        scenes.push(report);
    }
    writeln!(
        out,
        "\n{} plots written under {}",
        scenes.len(),
        out_dir.display()
    )?;
    write_summary(out, &scenes)?;
    let stacks = crate::demo_stacks::run(quick, out)?;
    Ok(DemoReport { scenes, stacks })
}
