//! The report's section on the per-body CCD policy (`benches/benches/ccd_policy.rs`):
//! the `Auto` world's step and the all-continuous world's step against the
//! `DISCRETE` world's, pair by pair, with what the bench checked outside its
//! timing.

use std::fmt::Write as _;

use super::cells::{figure_cell, ratio_cell, AIM_RATIO};
use super::{paired_ratio, Run};

/// The bench's case (its criterion id after `ccd_policy/`, before the world).
pub const CASE: &str = "1000_slow_10_fast_8192_triangles";

/// The worlds of the bench, in table order.
pub const WORLDS: [&str; 3] = ["discrete", "auto", "continuous"];

/// Writes section `number` of the report.
pub fn section(run: &Run, md: &mut String, number: u32) {
    let _ = writeln!(md, "## {number}. Per-body CCD policy\n");
    let _ = writeln!(
        md,
        "`benches/benches/ccd_policy.rs`: 1,000 slow spheres (half resting, half walking at 1 m/s) and 10 fast ones \
         falling at 60 m/s onto a terrain of 8,192 triangles, 1/60 s steps, the world reset every 6 steps outside \
         the timing. Three worlds: `DISCRETE` with every body at `Inherit`; every body `Auto`; `SPHERE_MESH_CCD` with \
         every body at `Inherit` (all swept). After every timed step, outside the timing, each fast sphere's centre \
         is checked against the height field's own interpolation of the terrain: in the `Auto` and continuous worlds \
         a crossing fails the bench; in `DISCRETE` the crossings are counted.\n"
    );
    let _ = writeln!(
        md,
        "| world | step | / DISCRETE | continuous bodies per step | fast-sphere crossings | timed steps | outcome |"
    );
    let _ = writeln!(md, "|---|---:|---:|---:|---:|---:|---|");
    let id = |w: &str| format!("ccd_policy/{CASE}/{w}");
    let discrete = run.figure(&id("discrete"));
    let mut auto_ratio = None;
    for world in WORLDS {
        let f = run.figure(&id(world));
        let case = format!("{CASE}/{world}");
        let c = |k: &str| run.check("ccd_policy", &case, k).unwrap_or("?").to_string();
        let ratio = match (f, discrete) {
            (Some(f), Some(d)) if world != "discrete" => Some(paired_ratio(f, d)),
            _ => None,
        };
        if world == "auto" {
            auto_ratio = ratio;
        }
        let _ = writeln!(
            md,
            "| {world} | {} | {} | {} | {} | {} | {} |",
            figure_cell(f),
            if world == "discrete" {
                "1".to_string()
            } else {
                ratio_cell(ratio)
            },
            c("continuous_bodies_per_step"),
            c("fast_crossings"),
            c("timed_steps"),
            c("outcome")
        );
    }
    let _ = writeln!(md);
    let text = match auto_ratio {
        Some((m, _, _)) => format!(
            "**What this shows.** The `Auto` world's step is {m:.2} times the `DISCRETE` one's (aim: at most \
             {AIM_RATIO}, {}), with no fast sphere crossing the terrain (the bench fails otherwise).",
            if m <= AIM_RATIO { "met" } else { "not met" }
        ),
        None => "**What this shows.** The policy bench gave no paired figures in this run.".to_string(),
    };
    let _ = writeln!(md, "{text}\n");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench_report::Figure;

    fn run(auto: Vec<f64>) -> Run {
        let figure = |w: &str, samples: Vec<f64>| Figure {
            id: format!("ccd_policy/{CASE}/{w}"),
            samples,
        };
        let case = format!("{CASE}/auto");
        Run {
            figures: vec![
                figure("discrete", vec![10.0, 20.0, 40.0]),
                figure("auto", auto),
            ],
            checks: vec![(
                "ccd_policy".into(),
                case,
                "fast_crossings".into(),
                "0".into(),
            )],
            printed: Vec::new(),
            failed: Vec::new(),
            quick: true,
            criterion_args: Vec::new(),
            seconds: 0.0,
        }
    }

    #[test]
    fn the_auto_ratio_pairs_samples_and_says_whether_the_aim_is_met() {
        // Pairs 11/10, 22/20, 48/40: median 1.1 (exact halves and tenths
        // print exactly at two decimals).
        let mut md = String::new();
        section(&run(vec![11.0, 22.0, 48.0]), &mut md, 6);
        assert!(md.contains("| auto | "), "{md}");
        assert!(md.contains("1.10 (1.10–1.20)"), "{md}");
        assert!(
            md.contains("1.10 times the `DISCRETE` one's (aim: at most 1.2, met)"),
            "{md}"
        );
        let mut md = String::new();
        section(&run(vec![15.0, 30.0, 60.0]), &mut md, 6);
        assert!(md.contains("1.50 times"), "{md}");
        assert!(md.contains("not met"), "{md}");
        // The continuous world did not run: its row says so.
        assert!(md.contains("| continuous | not run | n/a |"), "{md}");
    }
}
