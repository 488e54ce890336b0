//! Loader of the CCD sample queries with exact ground truth
//! (`tests/data/ccd-sample-queries/`, from the benchmark of Wang et al. 2021,
//! MIT licence, see its README and LICENSE): 7,279 vertex-face and edge-edge queries, every coordinate
//! a rational `num/den` that is exactly an `f64`. Shared by the inclusion
//! tests and the inclusion bench.

use std::fmt;
use std::path::{Path, PathBuf};

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{ToPrimitive, Zero};
use parapet_inclusion::{CcdQuery, EdgeEdgeQuery, VertexFaceQuery};

/// Which primitive pair a sample query is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Primitive {
    /// Vertex against face (`vertex-face/` files).
    VertexFace,
    /// Edge against edge (`edge-edge/` files).
    EdgeEdge,
}

impl Primitive {
    /// The directory name in the data set.
    pub fn dir_name(self) -> &'static str {
        match self {
            Primitive::VertexFace => "vertex-face",
            Primitive::EdgeEdge => "edge-edge",
        }
    }
}

impl fmt::Display for Primitive {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.dir_name())
    }
}

/// One sample query: 8 points (benchmark order) and the exact ground truth.
#[derive(Debug, Clone)]
pub struct SampleQuery {
    /// Scene directory name, e.g. `erleben-spikes`.
    pub scene: String,
    /// Vertex-face or edge-edge.
    pub primitive: Primitive,
    /// File name within the scene's primitive directory.
    pub file: String,
    /// Index of the query within its file (8 rows each).
    pub index: usize,
    /// The 8 points, exactly as in the file.
    pub points: [[f64; 3]; 8],
    /// Whether the primitives touch for some t in [0, 1] (exact).
    pub truth: bool,
}

impl SampleQuery {
    /// The query in parapet's inclusion CCD form.
    pub fn to_ccd_query(&self) -> CcdQuery {
        match self.primitive {
            Primitive::VertexFace => {
                CcdQuery::VertexFace(VertexFaceQuery::from_points(self.points))
            }
            Primitive::EdgeEdge => CcdQuery::EdgeEdge(EdgeEdgeQuery::from_points(self.points)),
        }
    }
}

/// The data directory, `tests/data/ccd-sample-queries` inside this
/// workspace (the data set, its licence and its README are checked in).
pub fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("data/ccd-sample-queries")
}

/// Parses `num/den` (decimal integers) and returns it as the `f64` it equals
/// exactly, or an error if it is not exactly an `f64`.
pub fn exact_f64(num: &str, den: &str) -> Result<f64, String> {
    let n: BigInt = num
        .trim()
        .parse()
        .map_err(|e| format!("numerator {num:?}: {e}"))?;
    let d: BigInt = den
        .trim()
        .parse()
        .map_err(|e| format!("denominator {den:?}: {e}"))?;
    if d.is_zero() {
        return Err(format!("zero denominator in {num}/{den}"));
    }
    let exact = BigRational::new(n, d);
    let value = exact
        .to_f64()
        .ok_or_else(|| format!("{num}/{den} has no f64 value"))?;
    let back = BigRational::from_float(value).ok_or_else(|| format!("{num}/{den} -> {value}"))?;
    if back != exact {
        return Err(format!(
            "{num}/{den} is not exactly an f64 (nearest {value:e})"
        ));
    }
    Ok(value)
}

/// Parses one CSV file (8 rows per query, 7 columns, no header).
pub fn parse_file(
    text: &str,
    scene: &str,
    primitive: Primitive,
    file: &str,
) -> Result<Vec<SampleQuery>, String> {
    let rows: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    if !rows.len().is_multiple_of(8) {
        return Err(format!(
            "{scene}/{primitive}/{file}: {} rows, not a multiple of 8",
            rows.len()
        ));
    }
    let mut queries = Vec::with_capacity(rows.len() / 8);
    for (index, chunk) in rows.chunks(8).enumerate() {
        let mut points = [[0.0; 3]; 8];
        let mut truth = None;
        for (row, line) in chunk.iter().enumerate() {
            let cols: Vec<&str> = line.split(',').collect();
            if cols.len() != 7 {
                return Err(format!(
                    "{scene}/{primitive}/{file}: row {line:?} has {} columns",
                    cols.len()
                ));
            }
            for axis in 0..3 {
                points[row][axis] = exact_f64(cols[2 * axis], cols[2 * axis + 1])
                    .map_err(|e| format!("{scene}/{primitive}/{file} query {index}: {e}"))?;
            }
            let t = match cols[6].trim() {
                "0" => false,
                "1" => true,
                other => return Err(format!("{scene}/{primitive}/{file}: truth {other:?}")),
            };
            if truth.is_some_and(|previous| previous != t) {
                return Err(format!(
                    "{scene}/{primitive}/{file} query {index}: mixed truth"
                ));
            }
            truth = Some(t);
        }
        queries.push(SampleQuery {
            scene: scene.to_owned(),
            primitive,
            file: file.to_owned(),
            index,
            points,
            truth: truth.unwrap_or(false),
        });
    }
    Ok(queries)
}

/// Loads every query of every scene, sorted by scene, primitive, file and
/// index (a deterministic order).
pub fn load_all() -> Result<Vec<SampleQuery>, String> {
    let root = data_dir();
    let mut scenes: Vec<String> = std::fs::read_dir(&root)
        .map_err(|e| format!("{}: {e}", root.display()))?
        .filter_map(|entry| entry.ok())
        .filter(|entry| entry.path().is_dir())
        .map(|entry| entry.file_name().to_string_lossy().into_owned())
        .collect();
    scenes.sort();
    let mut all = Vec::new();
    for scene in &scenes {
        for primitive in [Primitive::VertexFace, Primitive::EdgeEdge] {
            let dir = root.join(scene).join(primitive.dir_name());
            if !dir.is_dir() {
                continue;
            }
            let mut files: Vec<String> = std::fs::read_dir(&dir)
                .map_err(|e| format!("{}: {e}", dir.display()))?
                .filter_map(|entry| entry.ok())
                .map(|entry| entry.file_name().to_string_lossy().into_owned())
                .filter(|name| name.ends_with(".csv"))
                .collect();
            files.sort();
            for file in files {
                let text = std::fs::read_to_string(dir.join(&file))
                    .map_err(|e| format!("{}/{file}: {e}", dir.display()))?;
                all.extend(parse_file(&text, scene, primitive, &file)?);
            }
        }
    }
    Ok(all)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_f64_accepts_dyadic_and_rejects_thirds() {
        assert_eq!(exact_f64("-1", "8388608"), Ok(-1.0 / 8388608.0));
        assert_eq!(exact_f64("3", "4"), Ok(0.75));
        assert!(exact_f64("1", "3").is_err());
        assert!(exact_f64("1", "0").is_err());
    }
}
