//! The report's section on collision filters and sensors
//! (`benches/benches/filters.rs`): a world whose filtered pairs overlap
//! against the same world with those bodies apart, pair by pair, read
//! against the aim (no more), and the cost of 10 sensors in a world of
//! 1,000 bodies, with what the bench checked outside its timing.

use std::fmt::Write as _;

use super::cells::{figure_cell, ratio_cell};
use super::{paired_ratio, Run};

/// The filtered-pairs case (its criterion id after `filters/`).
pub const PAIRS_CASE: &str = "512_pairs";

/// The sensors case.
pub const SENSORS_CASE: &str = "1000_bodies_10_sensors";

/// The layouts of the filtered half of the pairs, in table order; the last
/// is the reference (`parapet_benches::filters::Layout`; xtask does not
/// depend on the bench crate).
pub const LAYOUTS: [&str; 3] = ["groups", "excluded", "apart"];

/// The modes of the filtered-pairs case.
pub const PAIR_MODES: [&str; 2] = ["discrete", "ccd"];

/// The worlds of the sensors case.
pub const SENSOR_WORLDS: [&str; 2] = ["discrete", "continuous"];

/// What a filtered world may cost against the world with those bodies
/// apart: no more (ratio 1).
pub const FILTER_AIM_RATIO: f64 = 1.0;

/// How a ratio reads against [`FILTER_AIM_RATIO`]: met (median at most),
/// within the spread (the smallest paired ratio at most), or not met.
fn verdict((median, lo, _): (f64, f64, f64)) -> &'static str {
    if median <= FILTER_AIM_RATIO {
        "met"
    } else if lo <= FILTER_AIM_RATIO {
        "within the spread"
    } else {
        "not met"
    }
}

/// Writes section `number` of the report.
pub fn section(run: &Run, md: &mut String, number: u32) {
    let _ = writeln!(md, "## {number}. Collision filters and sensors\n");
    let _ = writeln!(
        md,
        "`benches/benches/filters.rs`: 512 pairs of spheres resting on a floor, half of them touching and \
         interacting; the other half overlapping and filtered by their collision groups (`groups`), overlapping \
         and excluded by `ignore_pair` (`excluded`), or apart (`apart`: 1 m across the row, beyond any reach of a \
         step). Each iteration steps a clone of the prepared world; a contact event naming a filtered pair fails \
         the bench. The aim: a filtered world costs no more than the world apart.\n"
    );
    let _ = writeln!(
        md,
        "| mode | layout | step | / apart | verdict | contact events per step | outcome |"
    );
    let _ = writeln!(md, "|---|---|---:|---:|---|---:|---|");
    let mut verdicts = Vec::new();
    for mode in PAIR_MODES {
        let id = |layout: &str| format!("filters/{PAIRS_CASE}/{layout}/{mode}");
        let apart = run.figure(&id("apart"));
        for layout in LAYOUTS {
            let f = run.figure(&id(layout));
            let case = format!("{PAIRS_CASE}/{layout}/{mode}");
            let c = |k: &str| run.check("filters", &case, k).unwrap_or("?").to_string();
            let ratio = match (f, apart) {
                (Some(f), Some(a)) if layout != "apart" => Some(paired_ratio(f, a)),
                _ => None,
            };
            let said = ratio.map_or("", verdict);
            if let Some((m, _, _)) = ratio {
                verdicts.push(format!("{layout} in {mode} {m:.2} ({said})"));
            }
            let _ = writeln!(
                md,
                "| {mode} | {layout} | {} | {} | {said} | {} | {} |",
                figure_cell(f),
                if layout == "apart" {
                    "1".to_string()
                } else {
                    ratio_cell(ratio)
                },
                c("contact_events_per_step"),
                c("outcome")
            );
        }
    }
    let _ = writeln!(md);
    let text = if verdicts.is_empty() {
        "**What this shows.** The filters bench gave no paired figures in this run.".to_string()
    } else {
        format!(
            "**What this shows.** Filtered world over the world apart, median of the paired ratios (aim: at most \
             {FILTER_AIM_RATIO}): {}. A filtered pair is dropped where the sweep finds it, before any narrow-phase \
             or continuous query, so what is left is a predicate call per overlapping pair; wall-time ratios this \
             close to 1 are within the machine's noise (instruction counts, which do not move with the load, are in the \
             documentation's section \"Filters and sensors\").",
            verdicts.join("; ")
        )
    };
    let _ = writeln!(md, "{text}\n");
    let _ = writeln!(
        md,
        "The same bench steps the per-body policy's workload (1,000 slow spheres, half walking at 1 m/s, 10 falling \
         at 60 m/s onto 8,192 triangles) with 10 sensors (five zones a walker enters, five 1 cm plates the fast \
         spheres cross within a step) and without them (`bare`), reset every 6 steps; a run with fewer crossings \
         than plates fails the bench.\n"
    );
    let _ = writeln!(
        md,
        "| world | sensors | step | / bare | sensor events per step | checked runs | outcome |"
    );
    let _ = writeln!(md, "|---|---|---:|---:|---:|---:|---|");
    let mut costs = Vec::new();
    for world in SENSOR_WORLDS {
        let id = |s: &str| format!("filters/{SENSORS_CASE}/{s}/{world}");
        let bare = run.figure(&id("bare"));
        for sensors in ["bare", "sensors"] {
            let f = run.figure(&id(sensors));
            let case = format!("{SENSORS_CASE}/{sensors}/{world}");
            let c = |k: &str| run.check("filters", &case, k).unwrap_or("?").to_string();
            let ratio = match (f, bare) {
                (Some(f), Some(b)) if sensors == "sensors" => Some(paired_ratio(f, b)),
                _ => None,
            };
            if let Some((m, _, _)) = ratio {
                costs.push(format!("{m:.2} in {world}"));
            }
            let _ = writeln!(
                md,
                "| {world} | {sensors} | {} | {} | {} | {} | {} |",
                figure_cell(f),
                if sensors == "bare" {
                    "1".to_string()
                } else {
                    ratio_cell(ratio)
                },
                c("sensor_events_per_step"),
                c("checked_runs"),
                c("outcome")
            );
        }
    }
    let _ = writeln!(md);
    let text = if costs.is_empty() {
        "**What this shows.** The sensors bench gave no paired figures in this run.".to_string()
    } else {
        format!(
            "**What this shows.** The step with 10 sensors over the step without them: {}. A body is swept \
             against a sensor only when a cheap box around its whole path meets the sensor's.",
            costs.join(", ")
        )
    };
    let _ = writeln!(md, "{text}\n");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench_report::Figure;

    fn run(groups: Vec<f64>) -> Run {
        let figure = |id: String, samples: Vec<f64>| Figure { id, samples };
        Run {
            figures: vec![
                figure(
                    format!("filters/{PAIRS_CASE}/apart/discrete"),
                    vec![10.0, 20.0, 40.0],
                ),
                figure(format!("filters/{PAIRS_CASE}/groups/discrete"), groups),
                figure(
                    format!("filters/{SENSORS_CASE}/bare/continuous"),
                    vec![4.0, 4.0],
                ),
                figure(
                    format!("filters/{SENSORS_CASE}/sensors/continuous"),
                    vec![5.0, 6.0],
                ),
            ],
            checks: vec![(
                "filters".into(),
                format!("{SENSORS_CASE}/sensors/continuous"),
                "sensor_events_per_step".into(),
                "4.00".into(),
            )],
            printed: Vec::new(),
            failed: Vec::new(),
            quick: true,
            criterion_args: Vec::new(),
            seconds: 0.0,
        }
    }

    #[test]
    fn the_filtered_ratio_pairs_samples_and_reads_against_the_aim() {
        // Pairs 9/10, 20/20, 36/40: median 0.9 (exact tenths print exactly
        // at two decimals).
        let mut md = String::new();
        section(&run(vec![9.0, 20.0, 36.0]), &mut md, 9);
        assert!(md.contains("## 9. Collision filters and sensors"), "{md}");
        assert!(md.contains("| discrete | groups | "), "{md}");
        assert!(md.contains("0.90 (0.90–1.00) | met |"), "{md}");
        assert!(md.contains("groups in discrete 0.90 (met)"), "{md}");
        // 11/10, 19/20, 48/40: median 1.1, least 0.95.
        let mut md = String::new();
        section(&run(vec![11.0, 19.0, 48.0]), &mut md, 9);
        assert!(
            md.contains("1.10 (0.95–1.20) | within the spread |"),
            "{md}"
        );
        // 12/10, 24/20, 60/40: every pair above 1.
        let mut md = String::new();
        section(&run(vec![12.0, 24.0, 60.0]), &mut md, 9);
        assert!(md.contains("| not met |"), "{md}");
        // The layouts and worlds that did not run say so.
        assert!(md.contains("| ccd | excluded | not run | n/a |"), "{md}");
        // Sensors: 5/4 and 6/4, median 1.375; its recorded events.
        assert!(md.contains("| continuous | sensors | "), "{md}");
        assert!(md.contains("| 4.00 | ? | ? |"), "{md}");
        assert!(md.contains("1.38 in continuous"), "{md}");
    }
}
