//! The report's section "parapet against rapier3d" (section 7): the scenes of
//! `parapet_scenes::bench_versus` stepped by parapet (DISCRETE and
//! SPHERE_MESH_CCD) and by rapier3d 0.36 with CCD on in one run of the
//! `vs_rapier` bench, with per-scene ratios paired sample by sample and the
//! bench's independent checks (crossings and sinking) of both engines.

use std::fmt::Write as _;

use parapet_scenes::versus_scenes::versus_scenes;

use super::cells::{figure_cell, ratio_cell};
use super::{paired_ratio, Run};

/// The CCD / DISCRETE ratio the crowds aim at.
pub const CROWD_AIM: f64 = 1.3;

/// The engines of a scene, as the bench labels them.
const ENGINES: [&str; 5] = [
    "parapet_discrete",
    "parapet_ccd",
    "rapier_discrete",
    "rapier_ccd",
    "rapier_ccd_one",
];

/// One scene's row: its name, the paired ratios (CCD / DISCRETE, parapet
/// CCD / rapier CCD, parapet DISCRETE / rapier discrete) and whether any
/// check failed.
struct Row {
    crowd: bool,
    ccd_over_discrete: Option<f64>,
    ccd_over_rapier: Option<f64>,
    discrete_over_rapier: Option<f64>,
    parapet_faults: Option<usize>,
}

/// The checked faults (sunk + crossed) of one engine, `None` when not run.
fn faults(run: &Run, case: &str) -> Option<usize> {
    let n = |k: &str| {
        run.check("vs_rapier", case, k)
            .and_then(|v| v.parse::<usize>().ok())
    };
    Some(n("sunk")? + n("crossed")?)
}

/// The checks cell of one engine: sunk, crossed, displaced, steps checked, outcome.
fn check_cell(run: &Run, case: &str) -> String {
    let c = |k: &str| run.check("vs_rapier", case, k).unwrap_or("?");
    match run.check("vs_rapier", case, "steps") {
        None => "not run".into(),
        Some(steps) => {
            let tail = match run.check("vs_rapier", case, "outcome") {
                None | Some("stepped") => String::new(),
                Some(outcome) => format!(", {outcome}"),
            };
            format!(
                "{} / {} / {} of {steps}{tail}",
                c("sunk"),
                c("crossed"),
                c("displaced")
            )
        }
    }
}

/// Writes the section.
pub fn versus_section(run: &Run, md: &mut String) {
    let _ = writeln!(md, "## 7. parapet against rapier3d\n");
    let _ = writeln!(
        md,
        "`benches/benches/vs_rapier.rs`: the same scenes built from one description in parapet (DISCRETE and \
         SPHERE_MESH_CCD) and in rapier3d 0.36 with its defaults (sleeping on), CCD off (`rapier_discrete`) or on \
         every dynamic body (`ccd_enabled(true)`; the head-on array also with CCD on one sphere of each pair, \
         `rapier_ccd_one`, since rapier does not sweep two CCD bodies against each other), in one process; both \
         engines combine friction by the geometric mean and restitution by the maximum. The crowds step on (their \
         controller steers each walker along a circle before every step, outside the timing; reset every 60 \
         steps); the impact scenes time their second step; the box scenes step from their start. After every \
         timed step, outside the timing, the scene's engine-independent check counts bodies sunk into the \
         ground, bodies passed into each other and stack cubes displaced (sunk / crossed / displaced of the \
         steps checked). Ratios pair sample k of one engine with sample k of the other.\n"
    );
    let _ = writeln!(
        md,
        "| scene | parapet DISCRETE | rapier discrete | DISCRETE / rapier discrete | parapet CCD | rapier CCD | \
         CCD / DISCRETE | parapet CCD / rapier CCD | checks: parapet DISCRETE | parapet CCD | rapier discrete | \
         rapier CCD | rapier CCD on one of each pair |"
    );
    let _ = writeln!(
        md,
        "|---|---:|---:|---:|---:|---:|---:|---:|---|---|---|---|---|"
    );
    let mut rows = Vec::new();
    for s in versus_scenes() {
        let id = |e: &str| format!("vs_rapier/{}/{e}", s.name);
        let [discrete, ccd, rapier_discrete, rapier, _] = ENGINES.map(|e| run.figure(&id(e)));
        if [discrete, ccd, rapier_discrete, rapier]
            .iter()
            .all(Option::is_none)
        {
            continue;
        }
        let over_discrete = ccd.zip(discrete).map(|(a, b)| paired_ratio(a, b));
        let over_rapier = ccd.zip(rapier).map(|(a, b)| paired_ratio(a, b));
        let discrete_over = discrete
            .zip(rapier_discrete)
            .map(|(a, b)| paired_ratio(a, b));
        let case = |e: &str| format!("{}/{e}", s.name);
        let checks = ENGINES.map(|e| {
            if run.check("vs_rapier", &case(e), "steps").is_some()
                || run.check("vs_rapier", &case(e), "outcome").is_some()
            {
                check_cell(run, &case(e))
            } else {
                "-".into()
            }
        });
        let _ = writeln!(
            md,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            s.title,
            figure_cell(discrete),
            figure_cell(rapier_discrete),
            ratio_cell(discrete_over),
            figure_cell(ccd),
            figure_cell(rapier),
            ratio_cell(over_discrete),
            ratio_cell(over_rapier),
            checks.join(" | "),
        );
        rows.push(Row {
            crowd: s.name.starts_with("crowd"),
            ccd_over_discrete: over_discrete.map(|r| r.0),
            ccd_over_rapier: over_rapier.map(|r| r.0),
            discrete_over_rapier: discrete_over.map(|r| r.0),
            parapet_faults: faults(run, &case(ENGINES[1])),
        });
    }
    let _ = writeln!(md);
    let _ = writeln!(md, "{}\n", summary(&rows));
}

/// The "what this shows" paragraph, computed from the rows.
fn summary(rows: &[Row]) -> String {
    let mut text = String::from("**What this shows.** ");
    if rows.is_empty() {
        text += "The vs_rapier bench gave no figures in this run.";
        return text;
    }
    let faults: usize = rows.iter().filter_map(|r| r.parapet_faults).sum();
    let _ = write!(
        text,
        "parapet's CCD step left {faults} sunk or crossed bodies over every checked step. "
    );
    let discrete: Vec<f64> = rows.iter().filter_map(|r| r.discrete_over_rapier).collect();
    if !discrete.is_empty() {
        let at_most = discrete.iter().filter(|&&r| r <= 1.0).count();
        let worst = discrete.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let _ = write!(
            text,
            "Its DISCRETE step took at most rapier's discrete step on {at_most} of {} scenes (the largest \
             ratio is {worst:.2}). ",
            discrete.len()
        );
    }
    let vs: Vec<f64> = rows.iter().filter_map(|r| r.ccd_over_rapier).collect();
    if !vs.is_empty() {
        let at_most = vs.iter().filter(|&&r| r <= 1.0).count();
        let worst = vs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let _ = write!(
            text,
            "Its CCD step took at most rapier's CCD step on {at_most} of {} scenes (median paired ratio; the \
             largest is {worst:.2}). ",
            vs.len()
        );
    }
    let crowds: Vec<f64> = rows
        .iter()
        .filter(|r| r.crowd)
        .filter_map(|r| r.ccd_over_discrete)
        .collect();
    if !crowds.is_empty() {
        let met = crowds.iter().filter(|&&r| r <= CROWD_AIM).count();
        let worst = crowds.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let _ = write!(
            text,
            "On the crowds CCD / DISCRETE is at most {CROWD_AIM} on {met} of {} (the largest is {worst:.2}).",
            crowds.len()
        );
    }
    text.trim_end().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench_report::Figure;

    fn run() -> Run {
        let scene = "crowd_64_1m_2048";
        let fig = |e: &str, ns: f64| Figure {
            id: format!("vs_rapier/{scene}/{e}"),
            samples: vec![ns, ns * 1.1, ns * 0.9],
        };
        let mut checks = Vec::new();
        for e in ["parapet_ccd", "rapier_ccd"] {
            for (k, v) in [
                ("steps", "90"),
                ("sunk", "0"),
                ("crossed", "0"),
                ("displaced", "0"),
            ] {
                checks.push((
                    "vs_rapier".to_string(),
                    format!("{scene}/{e}"),
                    k.to_string(),
                    v.to_string(),
                ));
            }
        }
        Run {
            figures: vec![
                fig("parapet_discrete", 1000.0),
                fig("parapet_ccd", 1200.0),
                fig("rapier_discrete", 2000.0),
                fig("rapier_ccd", 2400.0),
            ],
            checks,
            printed: Vec::new(),
            failed: Vec::new(),
            quick: true,
            criterion_args: Vec::new(),
            seconds: 1.0,
        }
    }

    /// The section pairs the samples of one run: CCD / DISCRETE 1.2 and
    /// parapet CCD / rapier CCD 0.5 on every pair of samples, the checks of
    /// both engines, and a summary that counts the scenes meeting the aims.
    #[test]
    fn the_section_pairs_samples_and_reports_checks() {
        let mut md = String::new();
        versus_section(&run(), &mut md);
        let row = md
            .lines()
            .find(|l| l.starts_with("| 64 walkers 1 m apart"))
            .unwrap_or_else(|| panic!("{md}"));
        assert!(row.contains("| 0.50 (0.50–0.50) |"), "{row}");
        assert!(
            row.contains("| 1.20 (1.20–1.20) | 0.50 (0.50–0.50) |"),
            "{row}"
        );
        assert!(
            row.contains("| - | 0 / 0 / 0 of 90 | - | 0 / 0 / 0 of 90 | - |"),
            "{row}"
        );
        assert!(
            md.contains("at most rapier's discrete step on 1 of 1 scenes"),
            "{md}"
        );
        assert!(
            md.contains("at most rapier's CCD step on 1 of 1 scenes"),
            "{md}"
        );
        assert!(md.contains("at most 1.3 on 1 of 1"), "{md}");
    }
}
