//! The report's table cells: times with a unit a reader can compare, a
//! figure's median and range, a paired ratio's median and range, and the
//! aim they are read against (shared by every section of the report).

use super::Figure;

/// The CCD/discrete ratio the project aims at, on every scene.
pub const AIM_RATIO: f64 = 1.2;

/// A time in ns, with a unit a reader can compare.
pub fn time(ns: f64) -> String {
    if !ns.is_finite() {
        "n/a".into()
    } else if ns < 1e3 {
        format!("{ns:.0} ns")
    } else if ns < 1e6 {
        format!("{:.1} µs", ns / 1e3)
    } else if ns < 1e9 {
        format!("{:.2} ms", ns / 1e6)
    } else {
        format!("{:.2} s", ns / 1e9)
    }
}

pub(super) fn figure_cell(f: Option<&Figure>) -> String {
    match f {
        Some(f) => {
            let (m, lo, hi) = f.stats();
            format!("{} ({}–{})", time(m), time(lo), time(hi))
        }
        None => "not run".into(),
    }
}

pub(super) fn ratio_cell(r: Option<(f64, f64, f64)>) -> String {
    match r {
        Some((m, lo, hi)) => format!("{m:.2} ({lo:.2}–{hi:.2})"),
        None => "n/a".into(),
    }
}
