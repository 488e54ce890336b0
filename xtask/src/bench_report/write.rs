//! Writing the report: the Markdown page (machine, commit, date, one table
//! per measured question with a "what this shows" paragraph computed from
//! the figures), the raw CSV of every figure and the plots.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use super::cells::{figure_cell, ratio_cell};
pub use super::cells::{time, AIM_RATIO};
use super::{log_slope, paired_ratio, plot, Figure, Run};

/// The range of CCD/discrete ratios the project set out from (the starting
/// point the aim improves on).
pub const STARTING_RANGE: (f64, f64) = (1.5, 17.0);
/// Sweeps per criterion iteration in `benches/benches/sweeps.rs`.
pub const SWEEP_QUERIES: f64 = 256.0;
/// The scenes of `ccd_step`, in table order.
pub use parapet_scenes::bench_ccd::SCENES as CCD_SCENES;

fn command_line(cmd: &str, args: &[&str]) -> Option<String> {
    let o = Command::new(cmd).args(args).output().ok()?;
    o.status
        .success()
        .then(|| String::from_utf8_lossy(&o.stdout).trim().to_string())
}

fn machine() -> String {
    let info = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let model = info
        .lines()
        .find(|l| l.starts_with("model name"))
        .and_then(|l| l.split(':').nth(1))
        .map(|s| s.trim().to_string())
        .unwrap_or_else(|| "unknown CPU".into());
    let cores = std::thread::available_parallelism().map_or(0, |n| n.get());
    let load = std::fs::read_to_string("/proc/loadavg")
        .map(|l| l.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "unknown".into());
    format!("{model}, {cores} logical cores available; load average at the end of the run: {load}")
}

/// Writes the report into `out`; returns the Markdown path.
pub fn report(run: &Run, root: &Path, out: &Path) -> std::io::Result<PathBuf> {
    let mut md = String::new();
    let commit = command_line("git", &["-C", &root.to_string_lossy(), "rev-parse", "HEAD"])
        .unwrap_or_else(|| "unknown".into());
    let dirty = command_line(
        "git",
        &[
            "-C",
            &root.to_string_lossy(),
            "status",
            "--porcelain",
            "--untracked-files=no",
        ],
    )
    .is_some_and(|s| !s.is_empty());
    let date =
        command_line("date", &["-u", "+%Y-%m-%d %H:%M UTC"]).unwrap_or_else(|| "unknown".into());
    let _ = writeln!(md, "# CCD performance report\n");
    if run.quick {
        let _ = writeln!(
            md,
            "**Quick mode** (`cargo xtask bench-report --quick`, the CI smoke run): very few, very short samples. \
             These figures only show that the harness runs; they are not the committed report (`docs/reports/`).\n"
        );
    }
    let _ = writeln!(md, "- Machine: {}", machine());
    let _ = writeln!(
        md,
        "- The machine is shared: other processes may run on the same cores during a run (the load average above, \
         which includes the bench itself, tells how busy it was), so absolute times are indicative. Ratios pair \
         samples taken minutes apart at most in the same run and are the more telling figures."
    );
    let _ = writeln!(
        md,
        "- Commit: `{commit}`{}",
        if dirty {
            " (with uncommitted changes)"
        } else {
            ""
        }
    );
    let _ = writeln!(md, "- Date: {date}");
    let _ = writeln!(
        md,
        "- Command: `cargo xtask bench-report{}`; criterion arguments `{}`; benches ran for {:.0} s.",
        if run.quick { " --quick" } else { "" },
        run.criterion_args.join(" "),
        run.seconds
    );
    let _ = writeln!(
        md,
        "- Every figure is the median over criterion's samples (each sample: total time / iterations) with the \
         minimum and maximum in parentheses. A ratio A/B divides sample k of A by sample k of B (both measured in \
         this run with the same sample count): median (min–max) of these per-pair ratios."
    );
    if !run.failed.is_empty() {
        let _ = writeln!(
            md,
            "- **Benches that failed to run:** {}",
            run.failed.join(", ")
        );
    }
    let _ = writeln!(
        md,
        "- Raw figures: `ccd-performance.csv` beside this page.\n"
    );

    ccd_section(run, &mut md, out)?;
    index_section(run, &mut md);
    walker_section(run, &mut md);
    sweep_section(run, &mut md);
    scaling_section(run, &mut md, out)?;
    super::policy::section(run, &mut md, 6);
    super::versus::versus_section(run, &mut md);
    super::toi::toi_section(run, &mut md, 8);
    super::filters::section(run, &mut md, 9);

    let mut csv = csv::Writer::from_path(out.join("ccd-performance.csv"))?;
    csv.write_record(["id", "median_ns", "min_ns", "max_ns", "samples"])?;
    for f in &run.figures {
        let (m, lo, hi) = f.stats();
        csv.write_record([
            f.id.clone(),
            format!("{m:.1}"),
            format!("{lo:.1}"),
            format!("{hi:.1}"),
            f.samples.len().to_string(),
        ])?;
    }
    csv.flush()?;
    let path = out.join("ccd-performance.md");
    std::fs::write(&path, md)?;
    Ok(path)
}

fn ccd_section(run: &Run, md: &mut String, out: &Path) -> std::io::Result<()> {
    let _ = writeln!(md, "## 1. CCD step against the discrete step\n");
    let _ = writeln!(
        md,
        "One step (1/60 s) of each scene of `parapet_scenes::bench_ccd`, taken one step before impact with the mesh \
         index built, in DISCRETE and in SPHERE_MESH_CCD (`benches/benches/ccd_step.rs`). Only `step` is timed; the \
         world's clone and the check (bodies behind the ground, group neighbours overlapping or out of order) run \
         outside the timing. Violations are counted after one step.\n"
    );
    let _ = writeln!(
        md,
        "| scene | bodies | discrete step | CCD step | CCD / discrete | CCD outcome | violations discrete / CCD |"
    );
    let _ = writeln!(md, "|---|---:|---:|---:|---:|---|---:|");
    let mut stepped = Vec::new();
    let mut refused = Vec::new();
    let mut points = Vec::new();
    for scene in CCD_SCENES {
        let d = run.figure(&format!("ccd_step/{scene}/discrete"));
        let c = run.figure(&format!("ccd_step/{scene}/sphere_mesh_ccd"));
        let ratio = d.zip(c).map(|(d, c)| paired_ratio(c, d));
        let case = |m: &str| format!("{scene}/{m}");
        let outcome = run
            .check("ccd_step", &case("sphere_mesh_ccd"), "outcome")
            .unwrap_or("not run");
        let bodies = run
            .check("ccd_step", &case("discrete"), "bodies")
            .unwrap_or("?");
        let vd = run
            .check("ccd_step", &case("discrete"), "violations")
            .unwrap_or("?");
        let vc = run
            .check("ccd_step", &case("sphere_mesh_ccd"), "violations")
            .unwrap_or("?");
        let title = run
            .check("ccd_step", &case("discrete"), "title")
            .unwrap_or(scene);
        let _ = writeln!(
            md,
            "| {scene}: {title} | {bodies} | {} | {} | {} | {outcome} | {vd} / {vc} |",
            figure_cell(d),
            figure_cell(c),
            ratio_cell(ratio)
        );
        if let Some(r) = ratio {
            if outcome == "stepped" {
                stepped.push((scene, r.0));
                points.push((scene.to_string(), r));
            } else {
                refused.push((scene, outcome.to_string(), r.0));
            }
        }
    }
    let _ = writeln!(md);
    let _ = writeln!(md, "![CCD / discrete per scene](ccd-ratio.svg)\n");
    plot::ratios(&out.join("ccd-ratio.svg"), &points, AIM_RATIO).map_err(std::io::Error::other)?;
    let mut text = String::from("**What this shows.** ");
    if stepped.is_empty() {
        text += "No scene was stepped by both modes in this run.";
    } else {
        let lo = stepped.iter().map(|s| s.1).fold(f64::INFINITY, f64::min);
        let hi = stepped.iter().map(|s| s.1).fold(0.0, f64::max);
        let within = stepped.iter().filter(|s| s.1 <= AIM_RATIO).count();
        let _ = write!(
            text,
            "On the {} scenes that SPHERE_MESH_CCD steps, the median CCD/discrete ratio ranges from {lo:.2} to {hi:.2}; \
             {within} of them are within the aim of {AIM_RATIO} (the project set out from {}x to {}x). ",
            stepped.len(),
            STARTING_RANGE.0,
            STARTING_RANGE.1
        );
        let over: Vec<String> = stepped
            .iter()
            .filter(|s| s.1 > AIM_RATIO)
            .map(|s| format!("{} ({:.2})", s.0, s.1))
            .collect();
        if !over.is_empty() {
            let _ = write!(text, "Above the aim: {}. ", over.join(", "));
        }
        let leaks: Vec<&str> = CCD_SCENES
            .iter()
            .filter(|s| {
                run.check("ccd_step", &format!("{s}/discrete"), "violations")
                    .and_then(|v| v.parse::<usize>().ok())
                    .is_some_and(|v| v > 0)
            })
            .copied()
            .collect();
        if !leaks.is_empty() {
            let _ = write!(
                text,
                "The discrete step is cheaper but, after one step, leaves bodies passed through or overlapping by more \
                 than 1 mm on {}; the continuous step had no violation on any scene it stepped (checked after every \
                 timed iteration). ",
                leaks.join(", ")
            );
        }
    }
    for (scene, outcome, r) in &refused {
        let _ = write!(
            text,
            "{scene}: the continuous step is {outcome}, so its time ({r:.2}x the discrete step) is the cost of \
             detecting the failure and restoring the world, not of a completed step. "
        );
        if *r < 1.0 {
            let _ = write!(
                text,
                "It is below 1 because the serial sweep of bodies alone (the scene has fewer than 128) stops at the \
                 first body that fails (in body insertion \
                 order, which decides the reported error) while the discrete step completes. "
            );
        }
    }
    let _ = writeln!(md, "{}\n", text.trim_end());
    Ok(())
}

fn index_section(run: &Run, md: &mut String) {
    let _ = writeln!(md, "## 2. Triangle index against parry3d's BVH\n");
    let _ = writeln!(
        md,
        "`benches/benches/triangle_index.rs`: building parapet's triangle bounds tree and parry3d 0.31's `TriMesh` \
         BVH on the same triangles (terrains and random soups of 2,048, 8,192 and 32,768 triangles), and batches of \
         queries against each. Ratio: parapet / parry3d (below 1: parapet faster).\n"
    );
    let _ = writeln!(
        md,
        "| measure | workload | parapet | parry3d | parapet / parry3d |"
    );
    let _ = writeln!(md, "|---|---|---:|---:|---:|");
    let mut ratios = Vec::new();
    for f in run
        .figures
        .iter()
        .filter(|f| f.id.starts_with("triangle_index/"))
    {
        let rest = &f.id["triangle_index/".len()..];
        let Some((measure, tail)) = rest.split_once("/parapet/") else {
            continue;
        };
        let theirs = run.figure(&format!("triangle_index/{measure}/parry/{tail}"));
        let r = theirs.map(|t| paired_ratio(f, t));
        let _ = writeln!(
            md,
            "| {measure} | {tail} | {} | {} | {} |",
            figure_cell(Some(f)),
            figure_cell(theirs),
            ratio_cell(r)
        );
        if let Some(r) = r {
            ratios.push((format!("{measure} {tail}"), r.0));
        }
    }
    let _ = writeln!(md);
    if !run.printed.is_empty() {
        let _ = writeln!(md, "Retained memory, nodes visited, allocations (a counting global allocator) and paired minimum times printed by the bench in this run:\n");
        let _ = writeln!(md, "```text");
        for l in &run.printed {
            let _ = writeln!(md, "{l}");
        }
        let _ = writeln!(md, "```\n");
    }
    let mut text = String::from("**What this shows.** ");
    if ratios.is_empty() {
        text += "The triangle index bench gave no figures in this run.";
    } else {
        let faster = ratios.iter().filter(|r| r.1 < 1.0).count();
        let lo = ratios.iter().map(|r| r.1).fold(f64::INFINITY, f64::min);
        let hi = ratios.iter().map(|r| r.1).fold(0.0, f64::max);
        let _ = write!(
            text,
            "parapet's index is faster than parry3d's on {faster} of {} measures (median ratios {lo:.2} to {hi:.2}). ",
            ratios.len()
        );
        if let Some(worst) = ratios.iter().max_by(|a, b| a.1.total_cmp(&b.1)) {
            let _ = write!(
                text,
                "Its weakest measure here is {} ({:.2}). ",
                worst.0, worst.1
            );
        }
        text += &allocation_summary(&run.printed);
    }
    let _ = writeln!(md, "{text}\n");
}

/// One sentence on the allocation lines of the triangle index bench: the
/// range of build allocations and of query allocations of each side, read
/// from the printed lines (nothing claimed when they are missing).
fn allocation_summary(printed: &[String]) -> String {
    // A line reads: "... build parapet N allocations, ...; parry (...) M
    // allocations, ...; 1000 sweep queries into a reused vector: parapet Q
    // allocations, parry P".
    let count_before_allocations = |s: &str| -> Option<u64> {
        s.split(" allocations")
            .next()?
            .rsplit(' ')
            .next()?
            .parse()
            .ok()
    };
    let mut builds = (Vec::new(), Vec::new());
    let mut queries = (Vec::new(), Vec::new());
    for l in printed
        .iter()
        .filter(|l| l.starts_with("triangle_index allocations"))
    {
        let parry_build = l.split("; ").find(|p| p.starts_with("parry")).unwrap_or("");
        let build = l.split("build parapet ").nth(1).unwrap_or("");
        if let (Some(a), Some(b)) = (
            count_before_allocations(build),
            count_before_allocations(parry_build),
        ) {
            builds.0.push(a);
            builds.1.push(b);
        }
        let query = l.rsplit("reused vector: ").next().unwrap_or("");
        let theirs = query.rsplit(' ').next().and_then(|w| w.parse::<u64>().ok());
        if let (Some(a), Some(b)) = (count_before_allocations(query), theirs) {
            queries.0.push(a);
            queries.1.push(b);
        }
    }
    let range = |v: &[u64]| {
        let lo = v.iter().min().copied().unwrap_or(0);
        let hi = v.iter().max().copied().unwrap_or(0);
        if lo == hi {
            format!("{lo}")
        } else {
            format!("{lo} to {hi}")
        }
    };
    if builds.0.is_empty() || queries.0.is_empty() {
        return "The bench printed no allocation counts in this run.".to_string();
    }
    format!(
        "A cold build allocates {} times in parapet and {} times in parry3d over these workloads; \
         1,000 sweep queries into a reused result vector allocate {} times in parapet and {} in parry3d.",
        range(&builds.0),
        range(&builds.1),
        range(&queries.0),
        range(&queries.1)
    )
}

fn walker_section(run: &Run, md: &mut String) {
    let _ = writeln!(md, "## 3. Walkers\n");
    let _ = writeln!(
        md,
        "`benches/benches/walkers.rs` (the walker bench): rotation-locked capsule walkers and spinning spheres \
         with an anisotropic inertia on a terrain, in SPHERE_MESH_CCD, driven at 2 m/s before every step; the world \
         runs on across iterations (reset every 90 steps). After every timed step, outside the timing, each body is \
         checked: terrain event, independent clearance (f64 distance from its sampled core to the nearby terrain \
         triangles, less its radius) and height above the local terrain (a core point below it fails the bench).\n"
    );
    let _ = writeln!(
        md,
        "| case | step | per body | body-steps checked | with a terrain event | smallest clearance | smallest height gap | outcome |"
    );
    let _ = writeln!(md, "|---|---:|---:|---:|---:|---:|---:|---|");
    let mut rows = Vec::new();
    for f in run.figures.iter().filter(|f| f.id.starts_with("walkers/")) {
        let case = &f.id["walkers/".len()..];
        let bodies: f64 = case
            .rsplit('/')
            .next()
            .and_then(|s| s.strip_suffix("_bodies"))
            .and_then(|s| s.parse().ok())
            .unwrap_or(1.0);
        let c = |k: &str| run.check("walkers", case, k).unwrap_or("?").to_string();
        let (m, _, _) = f.stats();
        let mm = |k: &str| {
            c(k).parse::<f64>()
                .map(|v| format!("{:.3} mm", v * 1e3))
                .unwrap_or_else(|_| "?".into())
        };
        let _ = writeln!(
            md,
            "| {case} | {} | {} | {} | {} | {} | {} | {} |",
            figure_cell(Some(f)),
            time(m / bodies),
            c("body_steps"),
            c("terrain_event_share"),
            mm("min_clearance_m"),
            mm("min_height_gap_m"),
            c("outcome")
        );
        rows.push((
            case.to_string(),
            m,
            bodies,
            c("min_clearance_m").parse::<f64>().ok(),
        ));
    }
    let _ = writeln!(md);
    let mut text = String::from("**What this shows.** ");
    if rows.is_empty() {
        text += "The walker bench gave no figures in this run.";
    } else {
        let worst = rows
            .iter()
            .filter_map(|r| r.3)
            .fold(f64::INFINITY, f64::min);
        let _ = write!(
            text,
            "No walker's core went below the terrain in any checked step (the bench fails otherwise). The smallest \
             independent clearance over all checked steps is {:.3} mm (negative: resting overlap, bounded by this \
             figure). ",
            worst * 1e3
        );
        let per_body: Vec<String> = rows
            .iter()
            .filter(|r| r.2 > 1.0)
            .map(|r| format!("{} {}", r.0, time(r.1 / r.2)))
            .collect();
        if !per_body.is_empty() {
            let _ = write!(text, "Per body with 64 walkers: {}.", per_body.join("; "));
        }
    }
    let _ = writeln!(md, "{}\n", text.trim_end());
}

fn sweep_section(run: &Run, md: &mut String) {
    let _ = writeln!(md, "## 4. Sweeps against parry3d's `cast_shapes`\n");
    let _ = writeln!(
        md,
        "`benches/benches/sweeps.rs`: {SWEEP_QUERIES} fixed queries (hits, grazes, misses) per iteration, parapet's \
         analytic sweeps against parry3d 0.31's `cast_shapes` on the same shapes and motions.\n"
    );
    let _ = writeln!(
        md,
        "| sweep | parapet sweeps/s | parry3d sweeps/s | parapet / parry3d time |"
    );
    let _ = writeln!(md, "|---|---:|---:|---:|");
    let pairs = [
        ("sweep_sphere_triangle", "parapet", "parry3d"),
        ("sweep_capsule_triangle", "parapet", "parry3d"),
        ("sweep_box_triangle", "parapet", "parry3d"),
        ("sweep_hull_triangle", "parapet", "parry3d"),
        ("sweep_box_patch_prepared", "parapet_prepared", "parry3d"),
        ("sweep_box_patch_prepared", "parapet_per_call", "parry3d"),
        ("sweep_hull_patch_prepared", "parapet_prepared", "parry3d"),
        ("sweep_hull_patch_prepared", "parapet_per_call", "parry3d"),
        (
            "sweep_sphere_terrain_2048",
            "parapet_bounds_tree",
            "parry3d_trimesh",
        ),
        (
            "sweep_sphere_terrain_2048",
            "parapet_brute_force",
            "parry3d_trimesh",
        ),
    ];
    let rate = |f: &Figure| {
        let (m, lo, hi) = f.stats();
        format!(
            "{:.2} M ({:.2}–{:.2})",
            SWEEP_QUERIES / m * 1e3,
            SWEEP_QUERIES / hi * 1e3,
            SWEEP_QUERIES / lo * 1e3
        )
    };
    let mut ratios = Vec::new();
    for (g, a, b) in pairs {
        let (fa, fb) = (
            run.figure(&format!("{g}/{a}")),
            run.figure(&format!("{g}/{b}")),
        );
        let r = fa.zip(fb).map(|(x, y)| paired_ratio(x, y));
        let _ = writeln!(
            md,
            "| {g} ({a} vs {b}) | {} | {} | {} |",
            fa.map_or("not run".into(), rate),
            fb.map_or("not run".into(), rate),
            ratio_cell(r)
        );
        if let Some(r) = r {
            ratios.push((format!("{g} ({a})"), r.0));
        }
    }
    let _ = writeln!(md);
    let mut text = String::from("**What this shows.** ");
    if ratios.is_empty() {
        text += "The sweep bench gave no figures in this run.";
    } else {
        let list: Vec<String> = ratios
            .iter()
            .map(|(g, r)| {
                if *r < 1.0 {
                    format!("{g}: parapet {:.1}x faster", 1.0 / r)
                } else {
                    format!("{g}: parapet {r:.1}x slower")
                }
            })
            .collect();
        let _ = write!(text, "{}. ", list.join("; "));
        text += "The patch rows sweep one box or hull per query against 8 triangles of a terrain patch (their rates count queries, each 8 sweeps): prepared once per \
                 body (`SolidSweep`, as the world sweeps a body against its candidates) or per call. The terrain rows \
                 compare parry3d's BVH-backed `TriMesh` with parapet's bounds tree (`sweep_sphere_triangles_indexed`, \
                 the tree built once outside the timing as parry's BVH is) and with the brute force over all 2,048 \
                 triangles (bounds rejection, no index).";
    }
    let _ = writeln!(md, "{text}\n");
}

fn scaling_section(run: &Run, md: &mut String, out: &Path) -> std::io::Result<()> {
    let _ = writeln!(md, "## 5. Scaling\n");
    let _ = writeln!(
        md,
        "`benches/benches/scaling.rs`: one step of spheres (r 0.2 m) falling at 40 m/s onto a terrain, one step before \
         impact; against the number of bodies (on 8,192 triangles) and the number of triangles (64 bodies). The \
         exponent is the least-squares slope of ln(median step) on ln(size).\n"
    );
    let mut text = String::from("**What this shows.** ");
    for (series, unit) in [("bodies", "bodies"), ("triangles", "triangles")] {
        let _ = writeln!(md, "| {unit} | discrete step | CCD step | CCD / discrete |");
        let _ = writeln!(md, "|---:|---:|---:|---:|");
        let mut curves: Vec<(String, Vec<(f64, f64)>)> = Vec::new();
        for mode in ["discrete", "sphere_mesh_ccd"] {
            let mut pts: Vec<(f64, f64)> = run
                .figures
                .iter()
                .filter_map(|f| {
                    let x = f.id.strip_prefix(&format!("scaling/{series}/{mode}/"))?;
                    Some((x.parse::<f64>().ok()?, f.stats().0))
                })
                .collect();
            pts.sort_by(|a, b| a.0.total_cmp(&b.0));
            curves.push((mode.to_string(), pts));
        }
        for &(x, _) in &curves[0].1 {
            let d = run.figure(&format!("scaling/{series}/discrete/{x}"));
            let c = run.figure(&format!("scaling/{series}/sphere_mesh_ccd/{x}"));
            let _ = writeln!(
                md,
                "| {x} | {} | {} | {} |",
                figure_cell(d),
                figure_cell(c),
                ratio_cell(d.zip(c).map(|(d, c)| paired_ratio(c, d)))
            );
        }
        let mut slopes = Vec::new();
        let mut last = Vec::new();
        for (mode, pts) in &curves {
            if pts.len() >= 2 {
                slopes.push(format!("{mode} {:.2}", log_slope(pts)));
                last.push(format!("{mode} {:.2}", log_slope(&pts[pts.len() - 2..])));
            }
        }
        let _ = writeln!(
            md,
            "\nFitted exponent against {unit}: {} (between the last two sizes alone: {}).\n",
            slopes.join(", "),
            last.join(", ")
        );
        let file = format!("scaling-{series}.svg");
        let _ = writeln!(md, "![step time against {unit}]({file})\n");
        plot::log_log(&out.join(&file), unit, &curves).map_err(std::io::Error::other)?;
        let _ = write!(
            text,
            "Against {unit} the step time grows with exponent {} over this range, {} between the last two \
             sizes{}. ",
            if slopes.is_empty() {
                "n/a".into()
            } else {
                slopes.join(" and ")
            },
            if last.is_empty() {
                "n/a".into()
            } else {
                last.join(" and ")
            },
            if series == "bodies" {
                " (1 means linear, 2 quadratic)"
            } else {
                " (0 would mean a step cost independent of the triangle count; the mesh index is built before the timed step)"
            }
        );
    }
    let _ = writeln!(md, "{}\n", text.trim_end());
    Ok(())
}

#[cfg(test)]
mod allocation_summary_tests {
    use super::allocation_summary;

    #[test]
    fn reads_the_counts_of_the_printed_lines() {
        let line = |b: u32, p: u32, q: u32, r: u32| {
            format!(
                "triangle_index allocations terrain/2048: build parapet {b} allocations, 90.0 B/triangle requested, \
                 peak temporary 20.0 B/triangle, retained 64.0 B/triangle; parry (TriMesh, input moved in) {p} allocations, \
                 1.0 B/triangle requested, peak temporary 2.0 B/triangle, retained 80.0 B/triangle; \
                 1000 sweep queries into a reused vector: parapet {q} allocations, parry {r}"
            )
        };
        let text = allocation_summary(&[line(4, 9, 0, 12), line(6, 9, 0, 30)]);
        assert_eq!(
            text,
            "A cold build allocates 4 to 6 times in parapet and 9 times in parry3d over these workloads; \
             1,000 sweep queries into a reused result vector allocate 0 times in parapet and 12 to 30 in parry3d."
        );
        assert_eq!(
            allocation_summary(&[]),
            "The bench printed no allocation counts in this run."
        );
    }
}
