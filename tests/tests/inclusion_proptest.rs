//! Property tests of inclusion CCD on arbitrary finite inputs, including huge
//! and tiny magnitudes: never a panic, never NaN, toi in [0, 1] or none,
//! non-negative precision, errors (not panics) for non-finite input, batch
//! results in input order and independent of the thread count.

use parapet_inclusion::{
    edge_edge_toi, toi_batch, vertex_face_toi, CcdQuery, EdgeEdgeQuery, InclusionConfig,
    InclusionError, InclusionToi, VertexFaceQuery,
};
use proptest::prelude::*;

/// A coordinate from everywhere in f64: moderate, huge, tiny, subnormal, zero.
fn coordinate() -> impl Strategy<Value = f64> {
    prop_oneof![
        4 => -10.0f64..10.0,
        1 => -1e300f64..1e300,
        1 => -1e-300f64..1e-300,
        1 => prop::num::f64::NORMAL | prop::num::f64::SUBNORMAL | prop::num::f64::ZERO,
        1 => Just(0.0),
        1 => prop::sample::select(vec![f64::MAX, -f64::MAX, f64::MIN_POSITIVE, 5e-324, 1.0]),
    ]
}

fn points() -> impl Strategy<Value = [[f64; 3]; 8]> {
    prop::array::uniform8(prop::array::uniform3(coordinate()))
}

fn config() -> impl Strategy<Value = InclusionConfig> {
    (
        prop::sample::select(vec![1e-3, 1e-6, 1e-9]),
        prop::sample::select(vec![0.0, 1e-6, 1.0]),
    )
        .prop_map(|(tolerance, min_separation)| InclusionConfig {
            tolerance,
            min_separation,
            // A small cap keeps the worst case of random input fast; the cap
            // path is part of what is tested.
            max_iterations: 2_000,
            ..InclusionConfig::default()
        })
}

fn check(result: &InclusionToi) {
    match result.toi {
        Some(t) => assert!((0.0..=1.0).contains(&t), "toi {t}"),
        None => assert_eq!(result.precision, 0.0),
    }
    assert!(!result.precision.is_nan() && result.precision >= 0.0);
    assert!(result.iterations >= 1);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn vertex_face_answers_sanely(p in points(), c in config()) {
        let result = vertex_face_toi(&VertexFaceQuery::from_points(p), &c).expect("finite input");
        check(&result);
    }

    #[test]
    fn edge_edge_answers_sanely(p in points(), c in config()) {
        let result = edge_edge_toi(&EdgeEdgeQuery::from_points(p), &c).expect("finite input");
        check(&result);
    }

    #[test]
    fn scaling_by_a_power_of_two_keeps_the_answer(p in prop::array::uniform8(prop::array::uniform3(-4.0f64..4.0)), k in -900i32..900) {
        // Exact scaling (k within the normal range for these magnitudes)
        // changes nothing but the units: same times with a relative delta.
        let factor = 2f64.powi(k);
        let scaled = p.map(|x| x.map(|c| c * factor));
        let config = InclusionConfig { max_iterations: 5_000, ..InclusionConfig::default() };
        let a = vertex_face_toi(&VertexFaceQuery::from_points(p), &config).unwrap();
        let b = vertex_face_toi(&VertexFaceQuery::from_points(scaled), &config).unwrap();
        prop_assert_eq!(a.toi.is_some(), b.toi.is_some());
    }

    #[test]
    fn non_finite_input_is_an_error(p in points(), i in 0usize..8, k in 0usize..3,
                                    bad in prop::sample::select(vec![f64::NAN, f64::INFINITY, f64::NEG_INFINITY])) {
        let mut p = p;
        p[i][k] = bad;
        let err = vertex_face_toi(&VertexFaceQuery::from_points(p), &InclusionConfig::default()).unwrap_err();
        let is_coordinate_error = matches!(err, InclusionError::NonFiniteCoordinate { point, axis, .. } if point == i && axis == k);
        prop_assert!(is_coordinate_error);
        prop_assert!(edge_edge_toi(&EdgeEdgeQuery::from_points(p), &InclusionConfig::default()).is_err());
    }
}

#[test]
fn batch_is_in_input_order_and_thread_count_independent() {
    // Deterministic mixed batch: a hit (crossing edges scaled by i) and a
    // miss alternate, so a reordering would show.
    let queries: Vec<CcdQuery> = (0..200)
        .map(|i| {
            let s = 1.0 + i as f64;
            let z = if i % 2 == 0 { 1.0 } else { 5.0 };
            let mut p = [
                [-s, 0.0, z],
                [s, 0.0, z],
                [0.0, -s, 0.0],
                [0.0, s, 0.0],
                [-s, 0.0, -1.0],
                [s, 0.0, -1.0],
                [0.0, -s, 0.0],
                [0.0, s, 0.0],
            ];
            if i % 3 == 0 {
                p[4][2] = 3.0;
                p[5][2] = 3.0;
            }
            if i % 5 == 0 {
                CcdQuery::VertexFace(VertexFaceQuery::from_points(p))
            } else {
                CcdQuery::EdgeEdge(EdgeEdgeQuery::from_points(p))
            }
        })
        .collect();
    let config = InclusionConfig::default();
    let serial: Vec<_> = queries
        .iter()
        .map(|q| match q {
            CcdQuery::VertexFace(q) => vertex_face_toi(q, &config),
            CcdQuery::EdgeEdge(q) => edge_edge_toi(q, &config),
        })
        .collect();
    for threads in [1, 2, 3] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("thread pool");
        let batch = pool
            .install(|| toi_batch(&queries, &config))
            .expect("valid config");
        assert_eq!(batch, serial, "{threads} threads");
    }
    assert!(serial.iter().any(|r| r.as_ref().unwrap().is_hit()));
    assert!(serial.iter().any(|r| !r.as_ref().unwrap().is_hit()));
    // An invalid config is refused as a whole.
    let bad = InclusionConfig {
        tolerance: -1.0,
        ..config
    };
    assert!(matches!(
        toi_batch(&queries, &bad),
        Err(InclusionError::InvalidTolerance { .. })
    ));
}
