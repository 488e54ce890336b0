//! Many inclusion CCD queries at once, in parallel with rayon; the results
//! are in input order and do not depend on the thread count (each query is
//! computed independently and deterministically).

use rayon::prelude::*;

use super::config::InclusionConfig;
use super::edge_edge::{edge_edge_toi_unchecked_config, EdgeEdgeQuery};
use super::error::InclusionError;
use super::outcome::InclusionToi;
use super::vertex_face::{vertex_face_toi_unchecked_config, VertexFaceQuery};

/// One primitive-pair query of a batch.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum CcdQuery {
    /// A moving vertex against a moving triangle.
    VertexFace(VertexFaceQuery),
    /// A moving segment against a moving segment.
    EdgeEdge(EdgeEdgeQuery),
}

impl CcdQuery {
    /// Runs this query (config assumed valid).
    fn run(&self, config: &InclusionConfig) -> Result<InclusionToi, InclusionError> {
        match self {
            CcdQuery::VertexFace(q) => vertex_face_toi_unchecked_config(q, config),
            CcdQuery::EdgeEdge(q) => edge_edge_toi_unchecked_config(q, config),
        }
    }
}

/// Runs every query with `config` on rayon's pool; `result[i]` answers
/// `queries[i]`. A query with invalid coordinates gets its own error without
/// affecting the others.
///
/// # Errors
/// The outer `Err` is an invalid `config` (nothing is computed).
pub fn toi_batch(
    queries: &[CcdQuery],
    config: &InclusionConfig,
) -> Result<Vec<Result<InclusionToi, InclusionError>>, InclusionError> {
    config.validate()?;
    Ok(queries.par_iter().map(|q| q.run(config)).collect())
}
