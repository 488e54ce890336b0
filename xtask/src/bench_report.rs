//! `cargo xtask bench-report [--quick]`: runs the criterion benches of
//! `parapet-benches` (ccd_step, walkers, scaling, triangle_index, sweeps,
//! ccd_policy, vs_rapier, toi, filters),
//! reads criterion's per-sample output (`target/criterion/**/new/sample.json`
//! and `benchmark.json`) and the checks the benches record outside their
//! timing, and writes the performance report: `ccd-performance.md` (machine,
//! commit, date, tables with median and min-max per figure, ratios computed
//! pair by pair within this run, a "what this shows" paragraph under each
//! table), `ccd-performance.csv` (every figure) and SVG plots (plotters).
//!
//! The full report goes to `docs/reports/`; `--quick` (CI smoke: few, short
//! samples) writes to `target/parapet/bench-report/` so the tree stays clean.
//!
//! Statistics: a criterion sample of `n` iterations taking `t` gives one
//! per-step time `t / n`; a figure is the median of its samples with their
//! minimum and maximum. A ratio A/B pairs sample k of A with sample k of B
//! (both benches run in this invocation with the same sample count) and
//! reports the median and min-max of these per-pair ratios. A scaling
//! exponent is the least-squares slope of ln(median) against ln(size).

mod cells;
mod filters;
mod parse;
mod plot;
mod policy;
mod toi;
mod versus;
mod write;

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::Instant;

/// The benches run, in report order.
pub const BENCHES: [&str; 9] = [
    "ccd_step",
    "walkers",
    "scaling",
    "triangle_index",
    "sweeps",
    "ccd_policy",
    "vs_rapier",
    "toi",
    "filters",
];

/// One benchmark's per-step times (ns), one per criterion sample.
#[derive(Debug, Clone)]
pub struct Figure {
    /// Criterion's full id (`group/function`).
    pub id: String,
    /// Per-iteration time of each sample (ns).
    pub samples: Vec<f64>,
}

impl Figure {
    /// Median, minimum and maximum of the samples (ns).
    pub fn stats(&self) -> (f64, f64, f64) {
        stats(&self.samples)
    }
}

/// Median, minimum and maximum of `v` (NaN for an empty slice).
pub fn stats(v: &[f64]) -> (f64, f64, f64) {
    if v.is_empty() {
        return (f64::NAN, f64::NAN, f64::NAN);
    }
    let mut s = v.to_vec();
    s.sort_by(f64::total_cmp);
    let n = s.len();
    let median = if n % 2 == 1 {
        s[n / 2]
    } else {
        0.5 * (s[n / 2 - 1] + s[n / 2])
    };
    (median, s[0], s[n - 1])
}

/// The ratio A/B pair by pair: sample k of `a` over sample k of `b` (over
/// the shorter length); median, min and max.
pub fn paired_ratio(a: &Figure, b: &Figure) -> (f64, f64, f64) {
    let r: Vec<f64> = a
        .samples
        .iter()
        .zip(&b.samples)
        .map(|(x, y)| x / y)
        .collect();
    stats(&r)
}

/// Least-squares slope of ln y against ln x.
pub fn log_slope(points: &[(f64, f64)]) -> f64 {
    let n = points.len() as f64;
    let (lx, ly): (Vec<f64>, Vec<f64>) = points.iter().map(|(x, y)| (x.ln(), y.ln())).unzip();
    let mx = lx.iter().sum::<f64>() / n;
    let my = ly.iter().sum::<f64>() / n;
    let sxy: f64 = lx.iter().zip(&ly).map(|(x, y)| (x - mx) * (y - my)).sum();
    let sxx: f64 = lx.iter().map(|x| (x - mx) * (x - mx)).sum();
    sxy / sxx
}

/// What one invocation measured.
pub struct Run {
    /// Every figure, by id.
    pub figures: Vec<Figure>,
    /// The benches' recorded checks: (bench, case, key, value).
    pub checks: Vec<(String, String, String, String)>,
    /// Lines the benches printed that carry their own figures
    /// (`triangle_index memory ...`, `triangle_index paired ...`).
    pub printed: Vec<String>,
    /// Benches that failed to run, with their exit status.
    pub failed: Vec<String>,
    /// Quick mode.
    pub quick: bool,
    /// The criterion arguments used.
    pub criterion_args: Vec<String>,
    /// Wall time of the benches (s).
    pub seconds: f64,
}

impl Run {
    /// The figure with this id.
    pub fn figure(&self, id: &str) -> Option<&Figure> {
        self.figures.iter().find(|f| f.id == id)
    }

    /// The recorded check `key` of `bench`/`case`.
    pub fn check(&self, bench: &str, case: &str, key: &str) -> Option<&str> {
        self.checks
            .iter()
            .find(|(b, c, k, _)| b == bench && c == case && k == key)
            .map(|(_, _, _, v)| v.as_str())
    }
}

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from("."))
}

/// Runs the task.
pub fn run(args: &[String]) -> ExitCode {
    let quick = args.iter().any(|a| a == "--quick");
    if let Some(bad) = args.iter().find(|a| a.as_str() != "--quick") {
        eprintln!(
            "bench-report: unknown argument `{bad}` (usage: cargo xtask bench-report [--quick])"
        );
        return ExitCode::from(2);
    }
    let root = workspace_root();
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("target"));
    let out = if quick {
        target.join("parapet").join("bench-report")
    } else {
        root.join("docs").join("reports")
    };
    if let Err(e) = std::fs::create_dir_all(&out) {
        eprintln!("bench-report: cannot create {}: {e}", out.display());
        return ExitCode::FAILURE;
    }
    let criterion_dir = target.join("criterion");
    // One run: earlier criterion results must not mix into this report.
    if criterion_dir.exists() {
        if let Err(e) = std::fs::remove_dir_all(&criterion_dir) {
            eprintln!(
                "bench-report: cannot clear {}: {e}",
                criterion_dir.display()
            );
            return ExitCode::FAILURE;
        }
    }
    let checks_path = target.join("parapet").join("bench-checks.csv");
    let _ = std::fs::create_dir_all(checks_path.parent().unwrap_or(&target));
    let _ = std::fs::remove_file(&checks_path);
    let criterion_args: Vec<String> = if quick {
        [
            "--warm-up-time",
            "0.05",
            "--measurement-time",
            "0.2",
            "--sample-size",
            "10",
        ]
    } else {
        [
            "--warm-up-time",
            "0.5",
            "--measurement-time",
            "3",
            "--sample-size",
            "30",
        ]
    }
    .iter()
    .map(|s| s.to_string())
    .collect();
    let started = Instant::now();
    let mut printed = Vec::new();
    let mut failed = Vec::new();
    for bench in BENCHES {
        eprintln!(
            "bench-report: running {bench} ({:.0} s so far)",
            started.elapsed().as_secs_f64()
        );
        let output = Command::new(env!("CARGO"))
            .current_dir(&root)
            .env(parapet_checks_env(), &checks_path)
            .args(["bench", "-p", "parapet-benches", "--bench", bench, "--"])
            .args(&criterion_args)
            .output();
        match output {
            Ok(o) => {
                let stdout = String::from_utf8_lossy(&o.stdout);
                printed.extend(
                    stdout
                        .lines()
                        .filter(|l| {
                            l.starts_with("triangle_index memory")
                                || l.starts_with("triangle_index allocations")
                                || l.starts_with("triangle_index paired")
                        })
                        .map(str::to_string),
                );
                if !o.status.success() {
                    let stderr = String::from_utf8_lossy(&o.stderr);
                    let tail: Vec<&str> = stderr.lines().rev().take(12).collect();
                    eprintln!("bench-report: {bench} failed ({}):", o.status);
                    for l in tail.iter().rev() {
                        eprintln!("  {l}");
                    }
                    failed.push(format!("{bench} ({})", o.status));
                }
            }
            Err(e) => failed.push(format!("{bench} (cannot start cargo: {e})")),
        }
    }
    let seconds = started.elapsed().as_secs_f64();
    let figures = parse::figures(&criterion_dir);
    let checks = parse::checks(&checks_path);
    let run = Run {
        figures,
        checks,
        printed,
        failed,
        quick,
        criterion_args,
        seconds,
    };
    match write::report(&run, &root, &out) {
        Ok(md) => {
            println!(
                "bench-report: {} figures in {seconds:.0} s; wrote {}{}",
                run.figures.len(),
                md.display(),
                if quick {
                    " (quick mode: not the committed report)"
                } else {
                    ""
                }
            );
            if run.failed.is_empty() && !run.figures.is_empty() {
                ExitCode::SUCCESS
            } else {
                eprintln!("bench-report: failed benches: {:?}", run.failed);
                ExitCode::FAILURE
            }
        }
        Err(e) => {
            eprintln!("bench-report: cannot write the report: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The environment variable through which the benches record their checks
/// (`parapet_benches::checks::CHECKS_ENV`; xtask does not depend on the
/// bench crate).
fn parapet_checks_env() -> &'static str {
    "PARAPET_BENCH_CHECKS"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statistics_and_fits() {
        // Exact in f64: small integers and halves.
        assert_eq!(stats(&[3.0, 1.0, 2.0]), (2.0, 1.0, 3.0));
        assert_eq!(stats(&[4.0, 1.0, 2.0, 3.0]), (2.5, 1.0, 4.0));
        let a = Figure {
            id: "a".into(),
            samples: vec![2.0, 6.0, 4.0],
        };
        let b = Figure {
            id: "b".into(),
            samples: vec![1.0, 2.0, 4.0],
        };
        assert_eq!(paired_ratio(&a, &b), (2.0, 1.0, 3.0));
        // y = 3 x^1.5: the slope of the logs is 1.5 up to rounding of ln
        // and exp (a few ulps of values near 10).
        let pts: Vec<(f64, f64)> = [1.0f64, 4.0, 16.0, 64.0]
            .iter()
            .map(|&x| (x, 3.0 * x.powf(1.5)))
            .collect();
        assert!((log_slope(&pts) - 1.5).abs() < 1e-12);
    }
}
