//! Reading criterion's output and the benches' checks: every
//! `<criterion>/**/new/sample.json` (`{"iters":[..],"times":[..]}`, times in
//! ns per sample) with its `benchmark.json` (`"full_id":"group/function"`),
//! read with `serde_json`; and the checks CSV (`bench,case,key,value`), read
//! with the `csv` crate.

use std::path::Path;

use serde::Deserialize;

use super::Figure;

/// The part of criterion's `new/sample.json` the report reads: per sample,
/// the iteration count and the total time (ns).
#[derive(Debug, Deserialize)]
struct Sample {
    iters: Vec<f64>,
    times: Vec<f64>,
}

/// The part of criterion's `new/benchmark.json` the report reads: the
/// benchmark's id, `group/function[/parameter]`.
#[derive(Debug, Deserialize)]
struct Benchmark {
    full_id: String,
}

/// The figure of one criterion result directory (`.../new`), or `None` when
/// its files are missing or not criterion's shapes.
fn figure(new_dir: &Path) -> Option<Figure> {
    let sample = std::fs::read_to_string(new_dir.join("sample.json")).ok()?;
    let bench = std::fs::read_to_string(new_dir.join("benchmark.json")).ok()?;
    let sample: Sample = serde_json::from_str(&sample).ok()?;
    let bench: Benchmark = serde_json::from_str(&bench).ok()?;
    let samples = sample
        .iters
        .iter()
        .zip(&sample.times)
        .filter(|(n, _)| **n > 0.0)
        .map(|(n, t)| t / n)
        .collect();
    Some(Figure {
        id: bench.full_id,
        samples,
    })
}

fn walk(dir: &Path, out: &mut Vec<Figure>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if !p.is_dir() {
            continue;
        }
        if p.file_name().is_some_and(|n| n == "new") {
            out.extend(figure(&p));
        } else {
            walk(&p, out);
        }
    }
}

/// Every figure under `criterion_dir`, sorted by id.
pub fn figures(criterion_dir: &Path) -> Vec<Figure> {
    let mut out = Vec::new();
    walk(criterion_dir, &mut out);
    out.sort_by(|a, b| a.id.cmp(&b.id));
    out
}

/// The records of the checks CSV (`bench,case,key,value`, written by
/// `parapet_benches::checks::record` with the `csv` crate, so a value that
/// holds commas is quoted); a missing file has none, and a malformed record
/// is passed over.
pub fn checks(path: &Path) -> Vec<(String, String, String, String)> {
    let Ok(mut reader) = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_path(path)
    else {
        return Vec::new();
    };
    reader
        .records()
        .filter_map(|record| {
            let record = record.ok()?;
            match record.iter().collect::<Vec<_>>()[..] {
                [bench, case, key, value] => Some((
                    bench.to_owned(),
                    case.to_owned(),
                    key.to_owned(),
                    value.to_owned(),
                )),
                _ => None,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_criterion_shapes() {
        let dir = std::env::temp_dir().join(format!("xtask-parse-{}", std::process::id()));
        let new = dir.join("ccd_step").join("x_y").join("new");
        std::fs::create_dir_all(&new).unwrap();
        std::fs::write(
            new.join("sample.json"),
            r#"{"sampling_mode":"Linear","iters":[1.0,2.0],"times":[10.0,30.0]}"#,
        )
        .unwrap();
        std::fs::write(
            new.join("benchmark.json"),
            r#"{"group_id":"ccd_step","function_id":"x/y","value_str":null,"throughput":null,"full_id":"ccd_step/x/y","directory_name":"ccd_step/x_y","title":"ccd_step/x/y"}"#,
        )
        .unwrap();
        let found = figures(&dir);
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].id, "ccd_step/x/y");
        // Time per iteration of each sample: 10 / 1 and 30 / 2 (exact).
        assert_eq!(found[0].samples, vec![10.0, 15.0]);
    }

    #[test]
    fn reads_quoted_check_values() {
        let path = std::env::temp_dir().join(format!("xtask-checks-{}.csv", std::process::id()));
        std::fs::write(
            &path,
            "ccd_step,head_on_pairs/discrete,violations,64\nccd_step,packed_pairs/discrete,title,\"64 pairs, 1 m apart\"\n",
        )
        .unwrap();
        let rows = checks(&path);
        std::fs::remove_file(&path).unwrap();
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0].3, "64");
        assert_eq!(rows[1].3, "64 pairs, 1 m apart");
    }
}
