//! Regression: an inclusion query with the default iteration cap took 0.7 s
//! and more (tolerance `1e-300`, coplanar sliding), where the configuration
//! promised a few tens of milliseconds. The cap of 1,000,000 boxes at about
//! 1 µs each is kept (hard coplanar queries at ordinary tolerances need up
//! to about 1e5 boxes to converge), and its documented cost is now the true
//! one: about 2 s at worst, and a few tens of milliseconds for the 10,000
//! that the docs recommend for a latency bound. These tests pin the
//! worst case to the cap and the recommended cap to its budget.

use std::time::{Duration, Instant};

use parapet_inclusion::{
    edge_edge_toi, vertex_face_toi, EdgeEdgeQuery, InclusionConfig, InclusionStatus, InclusionToi,
    SearchOrder, VertexFaceQuery,
};

/// A coplanar vertex-face query (every point at z = 0, the vertex sliding
/// in the moving triangle's plane): at tolerance 1e-300 no box can be
/// accepted before the parameter resolution and none refuted, so the
/// search runs to the cap.
const COPLANAR_SLIDING: [[f64; 3]; 8] = [
    [0.5332172642342927, 0.19215402478171928, 0.0],
    [1.0734757880834378, 0.498843702438307, 0.0],
    [-1.065756429178918, -1.108579385396093, 0.0],
    [-1.7155309692539635, -1.5803892433146376, 0.0],
    [0.9156069905072202, -0.49844029990995153, 0.0],
    [-1.7645853633475141, -0.3276055846534698, 0.0],
    [-0.3650547471862722, 0.28685753211272846, 0.0],
    [0.2512181863352452, 0.33002780143089216, 0.0],
];

/// A vertex (and, read as edge-edge, an edge) sliding into a coplanar
/// triangle: another query that reaches the cap.
const COPLANAR_EDGES: [[f64; 3]; 8] = [
    [-1.0, 0.25, 0.0],
    [0.0, 0.0, 0.0],
    [1.0, 0.0, 0.0],
    [0.0, 1.0, 0.0],
    [1.0, 0.25, 0.0],
    [0.0, 0.0, 0.0],
    [1.0, 0.0, 0.0],
    [0.0, 1.0, 0.0],
];

/// "A few tens of milliseconds" for the recommended 10,000, with a tenfold
/// margin for a loaded shared machine (10 to 35 ms measured).
const LATENCY_BUDGET: Duration = Duration::from_millis(350);

/// "About 2 s" for the default cap, with a fivefold margin (1 to 2 s
/// measured on the same machine).
const DEFAULT_BUDGET: Duration = Duration::from_secs(10);

/// The CPU time this thread has used (Linux: `/proc/thread-self/stat`,
/// user plus system time in clock ticks of 1/100 s, the kernel's fixed
/// USER_HZ), so that a budget measures the query and not the other load
/// of a shared machine; `None` elsewhere.
fn thread_cpu_time() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/thread-self/stat").ok()?;
    // Fields after the command name (which is in parentheses): state is
    // field 3, utime field 14, stime field 15.
    let rest = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    Some(Duration::from_millis(ticks * 10))
}

/// The time `query` takes: this thread's CPU time where the system tells
/// it, else wall time.
fn timed(query: &impl Fn() -> InclusionToi) -> (InclusionToi, Duration) {
    let (cpu, wall) = (thread_cpu_time(), Instant::now());
    let r = query();
    let took = match (cpu, thread_cpu_time()) {
        (Some(a), Some(b)) => b.saturating_sub(a),
        _ => wall.elapsed(),
    };
    (r, took)
}

/// The fastest of `runs` runs of `query` (the least disturbed by other load).
fn fastest(runs: usize, query: impl Fn() -> InclusionToi) -> (InclusionToi, Duration) {
    let mut best: Option<(InclusionToi, Duration)> = None;
    for _ in 0..runs {
        let (r, took) = timed(&query);
        if best.as_ref().is_none_or(|(_, t)| took < *t) {
            best = Some((r, took));
        }
    }
    best.expect("at least one run")
}

fn tight(order: SearchOrder, max_iterations: u64) -> InclusionConfig {
    InclusionConfig {
        tolerance: 1e-300,
        search_order: order,
        max_iterations,
        ..InclusionConfig::default()
    }
}

#[test]
fn the_default_cap_is_reached_by_coplanar_sliding_at_1e_300_and_costs_what_its_docs_say() {
    // Breadth-first refinement of a vertex sliding into a coplanar
    // triangle: every box of the default cap is evaluated (the default
    // order needs 419,544 boxes on COPLANAR_SLIDING and then converges).
    let config = tight(
        SearchOrder::LevelThenTime,
        InclusionConfig::default().max_iterations,
    );
    assert_eq!(config.max_iterations, 1_000_000);
    let vf = VertexFaceQuery::from_points(COPLANAR_EDGES);
    let (r, took) = fastest(1, || vertex_face_toi(&vf, &config).unwrap());
    assert_eq!(r.status, InclusionStatus::IterationLimit, "{r:?}");
    assert_eq!(r.iterations, config.max_iterations);
    // The vertex enters the triangle at t = 1/2 (x from -1 to 1, the
    // triangle's edge at x = 0): the capped answer is a lower bound of it.
    assert!(r.toi.is_some_and(|t| (0.0..=0.5).contains(&t)), "{r:?}");
    assert!(took < DEFAULT_BUDGET, "took {took:?}");
}

#[test]
fn ten_thousand_boxes_bound_the_same_queries_to_tens_of_milliseconds() {
    for order in [SearchOrder::TimeThenDepth, SearchOrder::LevelThenTime] {
        let config = tight(order, 10_000);
        let vf = VertexFaceQuery::from_points(COPLANAR_SLIDING);
        let (r, took) = fastest(3, || vertex_face_toi(&vf, &config).unwrap());
        assert_eq!(
            r.status,
            InclusionStatus::IterationLimit,
            "{order:?}: {r:?}"
        );
        assert_eq!(r.iterations, 10_000);
        // Still an answer: a possible contact at a time in [0, 1].
        assert!(r.toi.is_some_and(|t| (0.0..=1.0).contains(&t)), "{r:?}");
        assert!(
            took < LATENCY_BUDGET,
            "{order:?}: vertex-face took {took:?}"
        );

        let ee = EdgeEdgeQuery::from_points(COPLANAR_EDGES);
        let (r, took) = fastest(3, || edge_edge_toi(&ee, &config).unwrap());
        assert!(r.iterations <= 10_000 && r.is_hit(), "{order:?}: {r:?}");
        assert!(took < LATENCY_BUDGET, "{order:?}: edge-edge took {took:?}");
    }
}

#[test]
fn at_the_default_tolerance_the_same_query_converges_within_the_default_cap() {
    // Why the cap stays at 1e6: this coplanar query needs more than 10,000
    // boxes even at the default tolerance (1e-6 relative), and converges
    // well within 1e6.
    let config = InclusionConfig::default();
    let r = vertex_face_toi(&VertexFaceQuery::from_points(COPLANAR_SLIDING), &config).unwrap();
    assert_eq!(r.status, InclusionStatus::Converged, "{r:?}");
    assert!(
        r.iterations > 10_000 && r.iterations < config.max_iterations / 4,
        "{r:?}"
    );
}
