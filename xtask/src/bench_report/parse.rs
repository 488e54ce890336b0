//! Reading criterion's output and the benches' checks: every
//! `<criterion>/**/new/sample.json` (`{"iters":[..],"times":[..]}`, times in
//! ns per sample) with its `benchmark.json` (`"full_id":"group/function"`),
//! read by a small scanner for these two fixed shapes (xtask has no JSON
//! dependency); and the checks CSV (`bench,case,key,value`).

use std::path::Path;

use super::Figure;

/// The number array after `"key":` in `json`.
fn numbers(json: &str, key: &str) -> Option<Vec<f64>> {
    let start = json.find(&format!("\"{key}\""))?;
    let rest = &json[start..];
    let open = rest.find('[')?;
    let close = rest[open..].find(']')? + open;
    rest[open + 1..close]
        .split(',')
        .filter(|s| !s.trim().is_empty())
        .map(|s| s.trim().parse::<f64>().ok())
        .collect()
}

/// The string after `"key":` in `json` (no escapes in criterion ids).
fn string(json: &str, key: &str) -> Option<String> {
    let start = json.find(&format!("\"{key}\""))? + key.len() + 2;
    let rest = &json[start..];
    let open = rest.find('"')?;
    let close = rest[open + 1..].find('"')? + open + 1;
    Some(rest[open + 1..close].to_string())
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
            let sample = std::fs::read_to_string(p.join("sample.json"));
            let bench = std::fs::read_to_string(p.join("benchmark.json"));
            if let (Ok(sample), Ok(bench)) = (sample, bench) {
                let (Some(iters), Some(times), Some(id)) = (
                    numbers(&sample, "iters"),
                    numbers(&sample, "times"),
                    string(&bench, "full_id"),
                ) else {
                    continue;
                };
                let samples = iters
                    .iter()
                    .zip(&times)
                    .filter(|(n, _)| **n > 0.0)
                    .map(|(n, t)| t / n)
                    .collect();
                out.push(Figure { id, samples });
            }
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

/// The checks CSV lines (`bench,case,key,value`; the value may hold commas).
pub fn checks(path: &Path) -> Vec<(String, String, String, String)> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| {
            let mut it = l.splitn(4, ',');
            Some((
                it.next()?.to_string(),
                it.next()?.to_string(),
                it.next()?.to_string(),
                it.next()?.to_string(),
            ))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scans_criterion_shapes() {
        let s = r#"{"sampling_mode":"Linear","iters":[1.0,2.0],"times":[10.0,30.0]}"#;
        assert_eq!(numbers(s, "iters"), Some(vec![1.0, 2.0]));
        assert_eq!(numbers(s, "times"), Some(vec![10.0, 30.0]));
        let b = r#"{"group_id":"ccd_step","function_id":"x/y","full_id":"ccd_step/x/y","directory_name":"ccd_step/x_y"}"#;
        assert_eq!(string(b, "full_id").as_deref(), Some("ccd_step/x/y"));
        assert_eq!(string(b, "missing"), None);
    }
}
