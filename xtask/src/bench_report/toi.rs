//! The report's section "Time of impact against parry3d" (section 8): the
//! `toi` bench's pairs (`parapet_benches::toi`), parapet's arbiter against
//! parry3d 0.31's `cast_shapes` (translating) and `cast_shapes_nonlinear`
//! (turning), ratios paired sample by sample, read against the aims (5x
//! faster translating, 2x turning, answers never later than parry's, which
//! the bench counts outside its timing).

use std::fmt::Write as _;

use super::cells::{figure_cell, ratio_cell};
use super::{paired_ratio, Run};

/// The pairs of the bench, in table order (`parapet_benches::toi::PAIRS`;
/// xtask does not depend on the bench crate).
pub const PAIRS: [&str; 12] = [
    "ball_ball",
    "ball_capsule",
    "capsule_capsule",
    "ball_box",
    "capsule_box",
    "box_box",
    "box_hull",
    "hull_hull",
    "ball_triangle",
    "capsule_triangle",
    "box_triangle",
    "hull_triangle",
];

/// How many times faster than parry3d's `cast_shapes` a translating pair
/// aims to be.
pub const TRANSLATING_AIM: f64 = 5.0;
/// How many times faster than `cast_shapes_nonlinear` a turning pair aims
/// to be.
pub const TURNING_AIM: f64 = 2.0;

/// Writes the section.
pub fn toi_section(run: &Run, md: &mut String, number: usize) {
    let _ = writeln!(md, "## {number}. Time of impact against parry3d\n");
    let _ = writeln!(
        md,
        "`benches/benches/toi.rs`: 128 fixed queries per iteration for each pair (a shape aimed at another from \
         1 to 3 m within 1/60 s: hits, grazes and misses), parapet's arbiter on shapes prepared once (`parapet`, \
         as the world calls it) and the facade's `time_of_impact` converting its shapes per call \
         (`parapet_public`), against parry3d 0.31's `cast_shapes` (translating) and `cast_shapes_nonlinear` \
         (turning at up to 20 rad/s) on shapes built once. Speed-up = parry3d time / parapet time, paired sample by \
         sample. `later` counts parapet answers later than parry's (by more than 1 µs), checked outside the timing.\n"
    );
    let _ = writeln!(
        md,
        "| motion | pair | parapet | parapet_public | parry3d | speed-up (parapet) | aim | later (latest) |"
    );
    let _ = writeln!(md, "|---|---|---:|---:|---:|---:|---:|---|");
    let mut misses = Vec::new();
    let mut worst: Option<(f64, String)> = None;
    for (motion, aim) in [("translating", TRANSLATING_AIM), ("turning", TURNING_AIM)] {
        for pair in PAIRS {
            let group = format!("toi_{motion}/{pair}");
            let f = |e: &str| run.figure(&format!("{group}/{e}"));
            let speedup = f("parry3d")
                .zip(f("parapet"))
                .map(|(p, o)| paired_ratio(p, o));
            let later = run.check("toi", &group, "later").unwrap_or("?");
            let latest = run.check("toi", &group, "latest_ms").unwrap_or("?");
            let _ = writeln!(
                md,
                "| {motion} | {pair} | {} | {} | {} | {}x | {aim}x | {later} ({latest} ms) |",
                figure_cell(f("parapet")),
                figure_cell(f("parapet_public")),
                figure_cell(f("parry3d")),
                ratio_cell(speedup)
            );
            if let Some((m, _, _)) = speedup {
                if m < aim {
                    misses.push(format!("{motion} {pair} ({m:.1}x)"));
                }
                if worst.as_ref().is_none_or(|(w, _)| m < *w) {
                    worst = Some((m, format!("{motion} {pair}")));
                }
            }
        }
    }
    let _ = writeln!(md);
    let mut text = String::from("**What this shows.** ");
    match worst {
        None => text += "The toi bench gave no figures in this run.",
        Some((w, name)) => {
            let _ = write!(
                text,
                "The slowest pair against parry3d is {name} at {w:.1}x. "
            );
            if misses.is_empty() {
                text += "Every pair meets its aim.";
            } else {
                let _ = write!(text, "Below the aim: {}.", misses.join(", "));
            }
        }
    }
    let _ = writeln!(md, "{text}\n");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench_report::Figure;

    /// One translating pair at 6x and one turning pair at 1.5x against
    /// parry3d: the rows show the paired ratios and the checks, and the
    /// summary names the pair below its aim.
    #[test]
    fn the_section_pairs_samples_and_names_the_pairs_below_their_aims() {
        let fig = |id: &str, ns: f64| Figure {
            id: id.into(),
            samples: vec![ns; 3],
        };
        let run = Run {
            figures: vec![
                fig("toi_translating/ball_box/parapet", 100.0),
                fig("toi_translating/ball_box/parry3d", 600.0),
                fig("toi_turning/box_box/parapet", 400.0),
                fig("toi_turning/box_box/parry3d", 600.0),
            ],
            checks: vec![(
                "toi".into(),
                "toi_turning/box_box".into(),
                "later".into(),
                "2".into(),
            )],
            printed: Vec::new(),
            failed: Vec::new(),
            quick: true,
            criterion_args: Vec::new(),
            seconds: 1.0,
        };
        let mut md = String::new();
        toi_section(&run, &mut md, 8);
        let row = |start: &str| {
            md.lines()
                .find(|l| l.starts_with(start))
                .unwrap_or_else(|| panic!("{md}"))
                .to_string()
        };
        assert!(row("| translating | ball_box |").contains("| 6.00 (6.00–6.00)x | 5x |"));
        assert!(row("| turning | box_box |").contains("| 1.50 (1.50–1.50)x | 2x | 2 (? ms) |"));
        assert!(
            md.contains("Below the aim: turning box_box (1.5x)."),
            "{md}"
        );
    }
}
