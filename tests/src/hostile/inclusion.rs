//! The run of the inclusion target: vertex-face, edge-edge and batch
//! queries on hostile points and configurations. No panic; a refusal names
//! a field; an answer's time lies in `[0, 1]`, its precision is finite and
//! non-negative, its work within the cap; and a query built with an exact
//! contact (small dyadic coordinates, so that the construction is exact in
//! `f64`) is never answered `Separated` nor later than that contact.

use arbitrary::{Result, Unstructured};
use parapet_inclusion::{
    edge_edge_toi, toi_batch, vertex_face_toi, CcdQuery, EdgeEdgeQuery, InclusionConfig,
    InclusionStatus, InclusionToi, SearchOrder, VertexFaceQuery,
};

use super::values::any_f64;

/// The largest cap a run uses (boxes): at about 1 µs a box, a run stays
/// within a few tens of milliseconds.
pub const MAX_RUN_ITERATIONS: u64 = 20_000;

/// A configuration: the default with a small cap, or hostile fields.
fn any_config(u: &mut Unstructured<'_>) -> Result<InclusionConfig> {
    let mut c = InclusionConfig {
        max_iterations: u.int_in_range(1..=MAX_RUN_ITERATIONS)?,
        search_order: if u.arbitrary()? {
            SearchOrder::TimeThenDepth
        } else {
            SearchOrder::LevelThenTime
        },
        ..InclusionConfig::default()
    };
    match u.int_in_range(0u8..=7)? {
        0 => c.tolerance = any_f64(u)?,
        1 => c.min_separation = any_f64(u)?,
        2 => c.length_scale = Some(any_f64(u)?),
        3 => c.tolerance = *u.choose(&[1e-300, 1e-12, 1e-3, 0.5])?,
        4 => c.max_iterations = 0,
        _ => {}
    }
    Ok(c)
}

/// Eight points: small dyadic coordinates (multiples of 1/8 in `[-4, 4]`),
/// any `f64`, or all scaled by a power of two far from 1.
fn any_points(u: &mut Unstructured<'_>) -> Result<[[f64; 3]; 8]> {
    let kind = u.int_in_range(0u8..=3)?;
    let scale = 2f64.powi(u.int_in_range(-600i32..=600)?);
    let mut p = [[0.0; 3]; 8];
    for point in p.iter_mut() {
        for c in point.iter_mut() {
            *c = match kind {
                0 | 1 => u.int_in_range(-32i32..=32)? as f64 / 8.0,
                2 => any_f64(u)?,
                _ => (u.int_in_range(-32i32..=32)? as f64 / 8.0) * scale,
            };
        }
    }
    Ok(p)
}

/// The point at `t` (dyadic) of the linear motion from `p0` to `p1`.
fn at(p0: [f64; 3], p1: [f64; 3], t: f64) -> [f64; 3] {
    std::array::from_fn(|k| p0[k] + t * (p1[k] - p0[k]))
}

/// A vertex-face query whose vertex passes exactly through the moving
/// triangle at `(t, u, v)` (dyadic), and that `t`.
fn witnessed_vertex_face(u: &mut Unstructured<'_>) -> Result<([[f64; 3]; 8], f64)> {
    let mut p = any_points(u)?;
    for point in p.iter_mut() {
        for c in point.iter_mut() {
            *c = u.int_in_range(-32i32..=32)? as f64 / 8.0;
        }
    }
    let t = *u.choose(&[0.0, 0.125, 0.25, 0.5, 1.0])?;
    let (bu, bv) = *u.choose(&[
        (0.25, 0.25),
        (0.0, 0.0),
        (1.0, 0.0),
        (0.5, 0.5),
        (0.125, 0.75),
    ])?;
    let (a, b, c) = (at(p[1], p[5], t), at(p[2], p[6], t), at(p[3], p[7], t));
    let target: [f64; 3] = std::array::from_fn(|k| a[k] + bu * (b[k] - a[k]) + bv * (c[k] - a[k]));
    // The vertex's end: through `target` at `t` (exact: dyadic arithmetic
    // far from the f64 precision limit), unless t = 0.
    if t > 0.0 {
        p[4] = std::array::from_fn(|k| p[0][k] + (target[k] - p[0][k]) / t);
    } else {
        p[0] = target;
    }
    Ok((p, t))
}

fn check_answer(what: &str, r: &InclusionToi, config: &InclusionConfig) {
    assert!(
        r.iterations <= config.max_iterations,
        "{what}: {r:?} with {config:?}"
    );
    assert!(
        r.precision.is_finite() && r.precision >= 0.0,
        "{what}: {r:?}"
    );
    match r.status {
        InclusionStatus::Separated => assert!(r.toi.is_none(), "{what}: {r:?}"),
        _ => assert!(
            r.toi.is_some_and(|t| (0.0..=1.0).contains(&t)),
            "{what}: {r:?}"
        ),
    }
}

/// Inclusion queries: single, batch, and witnessed.
pub fn inclusion(u: &mut Unstructured<'_>) -> Result<()> {
    let config = any_config(u)?;
    let points = any_points(u)?;
    let vf = vertex_face_toi(&VertexFaceQuery::from_points(points), &config);
    let ee = edge_edge_toi(&EdgeEdgeQuery::from_points(points), &config);
    for (what, r) in [("vertex-face", &vf), ("edge-edge", &ee)] {
        match r {
            Ok(r) => check_answer(what, r, &config),
            Err(e) => {
                let _ = e.to_string();
            }
        }
    }
    if u.ratio(1u8, 4u8)? {
        let batch = [
            CcdQuery::VertexFace(VertexFaceQuery::from_points(points)),
            CcdQuery::EdgeEdge(EdgeEdgeQuery::from_points(points)),
        ];
        if let Ok(answers) = toi_batch(&batch, &config) {
            assert_eq!(answers.len(), 2);
            // Compared as text: a refusal may carry a NaN coordinate.
            let text = |r: &dyn std::fmt::Debug| format!("{r:?}");
            assert_eq!(
                text(&answers[0]),
                text(&vf),
                "the batch differs from the single query"
            );
            assert_eq!(
                text(&answers[1]),
                text(&ee),
                "the batch differs from the single query"
            );
        }
    }
    let (witnessed, t) = witnessed_vertex_face(u)?;
    if config.validate().is_ok() {
        let r = vertex_face_toi(&VertexFaceQuery::from_points(witnessed), &config)
            .expect("finite points and a valid configuration");
        check_answer("witnessed vertex-face", &r, &config);
        assert!(
            r.toi.is_some_and(|toi| toi <= t),
            "a contact at t = {t} answered {r:?}: {witnessed:?} with {config:?}"
        );
    }
    Ok(())
}
