//! The inscribed ball of a solid, one of its sweep tables: the radius of a
//! ball around the shape origin inside the solid, and the edge directions
//! whose silhouettes are large enough to be worth the sweep's
//! inscribed-ball test (`sweep/solid_inscribed_ball.rs` states the test).
//!
//! Method: the smallest distance from the origin to a face plane, read off
//! the face axes' projection intervals.
//!
//! Precision domain: the radius is shrunk by a relative `1e-9`, far above
//! the rounding of the face intervals, so the ball lies inside the solid.

use super::tables::FaceAxis;

/// Silhouettes with at least this many vertices are first checked against
/// the inscribed ball before their projections are computed (a count of
/// vertices; a box's 4-vertex silhouettes cost less to project than to
/// check, a hull's 5 or more do not: callgrind instruction counts).
pub(crate) const SLACK_TEST_MIN_SILHOUETTE: usize = 5;

/// The inscribed-ball radius (m) from the face axes' projection intervals:
/// the smallest distance from the shape origin to a face plane, shrunk by a
/// relative `1e-9`, or 0 when the origin is not inside.
pub(crate) fn inner_radius(face_axes: &[FaceAxis]) -> f64 {
    let r = face_axes
        .iter()
        .map(|&(_, lo, hi, _)| (-lo).min(hi))
        .fold(f64::INFINITY, f64::min);
    if r.is_finite() && r > 0.0 {
        r * (1.0 - 1.0e-9)
    } else {
        0.0
    }
}

/// The `slack_edges` mask of a solid with this inscribed-ball radius and
/// these silhouettes (one per edge direction).
pub(crate) fn slack_edges(inner_radius: f64, silhouettes: &[[Vec<f64>; 3]]) -> u64 {
    silhouettes
        .iter()
        .take(64)
        .enumerate()
        .filter(|(_, s)| inner_radius > 0.0 && s[0].len() >= SLACK_TEST_MIN_SILHOUETTE)
        .fold(0, |m, (j, _)| m | 1 << j)
}
