//! Inclusion CCD against an exact rational oracle (num-rational BigRational,
//! no code shared with parapet-narrow): constructed contacts with an exact
//! witness (random, and the degenerate cases of Wang et al. 2021: coplanar parallel
//! motion where the univariate cubic is identically zero, exact touching at
//! a corner, on an edge and at t = 1, sliding contact), and random queries
//! that the oracle proves to be clear misses.
//!
//! Checks: a witnessed contact at t* is always reported with toi <= t* (toi
//! is a lower bound of the first contact, which is <= t*), in both search
//! orders, at huge and tiny scales, at an L-infinity gap of exactly the
//! minimum separation d, and under a tiny iteration cap; a proven clear miss
//! (L-infinity gap > 8 delta everywhere) is always reported as separated.
//! More random cases: set PARAPET_ORACLE_CASES (default 1000 per family).

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{Signed, Zero};
use parapet_inclusion::{
    edge_edge_toi, vertex_face_toi, EdgeEdgeQuery, InclusionConfig, InclusionStatus, SearchOrder,
    VertexFaceQuery,
};
use parapet_scenes::prng::SplitMix64;

type Q = BigRational;

fn q(x: f64) -> Q {
    Q::from_float(x).expect("finite")
}

fn cases() -> usize {
    std::env::var("PARAPET_ORACLE_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1000)
}

/// The oracle's draws from the one generator ([`SplitMix64`]).
trait Draws {
    /// A dyadic number k/4 in [-4, 4].
    fn coord(&mut self) -> f64;
    /// A point of three such coordinates.
    fn point(&mut self) -> [f64; 3];
    /// One of `items`, uniformly.
    fn pick<T: Copy>(&mut self, items: &[T]) -> T;
}

impl Draws for SplitMix64 {
    fn coord(&mut self) -> f64 {
        self.below(33) as f64 / 4.0 - 4.0
    }
    fn point(&mut self) -> [f64; 3] {
        [self.coord(), self.coord(), self.coord()]
    }
    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }
}

#[derive(Clone, Copy, PartialEq)]
enum Kind {
    VertexFace,
    EdgeEdge,
}

/// Exact position of point i at time t.
fn at(points: &[[f64; 3]; 8], i: usize, t: &Q) -> [Q; 3] {
    std::array::from_fn(|k| {
        let x0 = q(points[i][k]);
        let x1 = q(points[i + 4][k]);
        &x0 + t * (&x1 - &x0)
    })
}

/// Exact gap F(t, u, v), written from the definition (Wang et al. 2021).
fn gap(points: &[[f64; 3]; 8], kind: Kind, t: &Q, u: &Q, v: &Q) -> [Q; 3] {
    let x: Vec<[Q; 3]> = (0..4).map(|i| at(points, i, t)).collect();
    std::array::from_fn(|k| match kind {
        Kind::VertexFace => {
            &x[0][k] - (&x[1][k] + u * (&x[2][k] - &x[1][k]) + v * (&x[3][k] - &x[1][k]))
        }
        Kind::EdgeEdge => {
            (&x[0][k] + u * (&x[1][k] - &x[0][k])) - (&x[2][k] + v * (&x[3][k] - &x[2][k]))
        }
    })
}

/// Resolution of the oracle's parameter grid: t, u, v are `k / 2^PARAM_BITS`.
const PARAM_BITS: u32 = 32;

/// Exact F scaled by `4 * 2^(2 PARAM_BITS)`, for coordinates that are
/// multiples of 1/4 in [-4, 4] (scaled to integers `X`) and parameters given
/// as integers over `2^PARAM_BITS`. Every term stays below `2^80`: exact in
/// i128 (debug overflow checks are on in the test profile).
fn gap_scaled(x: &[[i128; 3]; 8], kind: Kind, t: i128, u: i128, v: i128) -> [i128; 3] {
    let one = 1i128 << PARAM_BITS;
    std::array::from_fn(|k| {
        // Positions scaled by 4 * 2^PARAM_BITS.
        let p: [i128; 4] = std::array::from_fn(|i| x[i][k] * one + t * (x[i + 4][k] - x[i][k]));
        match kind {
            Kind::VertexFace => (p[0] - p[1]) * one - u * (p[2] - p[1]) - v * (p[3] - p[1]),
            Kind::EdgeEdge => (p[0] * one + u * (p[1] - p[0])) - (p[2] * one + v * (p[3] - p[2])),
        }
    })
}

/// Proves by exact bisection that the L-infinity gap exceeds `margin` for
/// every admissible (t, u, v) (VF: u, v >= 0, u + v <= 1). `Some(true)`:
/// proven; `None`: not decided within `budget` boxes or the grid resolution.
/// Exact corner values bound the multilinear F exactly, so no rounding filter
/// is needed. Coordinates must be multiples of 1/4 in [-4, 4].
fn proven_clear(points: &[[f64; 3]; 8], kind: Kind, margin: f64, budget: usize) -> Option<bool> {
    let x: [[i128; 3]; 8] = std::array::from_fn(|i| {
        std::array::from_fn(|k| {
            let scaled = points[i][k] * 4.0;
            assert!(scaled.fract() == 0.0 && scaled.abs() <= 16.0);
            scaled as i128
        })
    });
    let one = 1i128 << PARAM_BITS;
    // margin * scale, floored exactly: integer F > floor(m S) <=> F > m S.
    let scale = Q::from_integer(BigInt::from(4) * (BigInt::from(1) << (2 * PARAM_BITS)));
    let m_scaled: i128 = (q(margin) * scale).floor().to_integer().try_into().ok()?;
    let mut stack = vec![[(0i128, one); 3]];
    let mut used = 0;
    while let Some(b) = stack.pop() {
        used += 1;
        if used > budget {
            return None;
        }
        if kind == Kind::VertexFace && b[1].0 + b[2].0 > one {
            continue;
        }
        let mut lo = [i128::MAX; 3];
        let mut hi = [i128::MIN; 3];
        for c in 0..8 {
            let t = if c & 4 == 0 { b[0].0 } else { b[0].1 };
            let u = if c & 2 == 0 { b[1].0 } else { b[1].1 };
            let v = if c & 1 == 0 { b[2].0 } else { b[2].1 };
            let f = gap_scaled(&x, kind, t, u, v);
            for k in 0..3 {
                lo[k] = lo[k].min(f[k]);
                hi[k] = hi[k].max(f[k]);
            }
        }
        if (0..3).any(|k| lo[k] > m_scaled || hi[k] < -m_scaled) {
            continue;
        }
        // Split the widest dimension at its (exact, integer) midpoint.
        let dim = (0..3).max_by_key(|&i| b[i].1 - b[i].0).unwrap();
        if b[dim].1 - b[dim].0 < 2 {
            return None;
        }
        let mid = (b[dim].0 + b[dim].1) / 2;
        let mut low = b;
        low[dim].1 = mid;
        let mut high = b;
        high[dim].0 = mid;
        stack.push(high);
        stack.push(low);
    }
    Some(true)
}

/// The coefficients of the univariate coplanarity cubic
/// `(p - a) . ((b - a) x (c - a))` as an exact polynomial in t, by exact
/// evaluation at t = 0, 1, 2, 3 and the zero test of all four values.
fn coplanarity_cubic_is_zero(points: &[[f64; 3]; 8]) -> bool {
    (0..4).all(|i| {
        let t = Q::from_integer(BigInt::from(i));
        let x: Vec<[Q; 3]> = (0..4).map(|j| at(points, j, &t)).collect();
        let d = |a: usize, b: usize| -> [Q; 3] { std::array::from_fn(|k| &x[a][k] - &x[b][k]) };
        let (p, e1, e2) = (d(0, 1), d(2, 1), d(3, 1));
        let n = [
            &e1[1] * &e2[2] - &e1[2] * &e2[1],
            &e1[2] * &e2[0] - &e1[0] * &e2[2],
            &e1[0] * &e2[1] - &e1[1] * &e2[0],
        ];
        (&p[0] * &n[0] + &p[1] * &n[1] + &p[2] * &n[2]).is_zero()
    })
}

/// Moves point `i`'s trajectory so that it passes exactly through `target` at
/// time `t` (a power of two, or one minus a power of two, or 0 or 1): solves
/// for the endpoint whose coefficient is a power of two.
fn pass_through(points: &mut [[f64; 3]; 8], i: usize, t: f64, target: [f64; 3]) {
    for k in 0..3 {
        if t == 0.0 {
            points[i][k] = target[k];
        } else if t == 1.0 {
            points[i + 4][k] = target[k];
        } else if t <= 0.5 {
            // x1 = x0 + (target - x0) / t, exact: 1 / t is a power of two.
            points[i + 4][k] = points[i][k] + (target[k] - points[i][k]) / t;
        } else {
            // x0 = (target - t x1) / (1 - t), exact: 1 - t is a power of two.
            points[i][k] = (target[k] - t * points[i + 4][k]) / (1.0 - t);
        }
    }
}

fn position(points: &[[f64; 3]; 8], i: usize, t: f64) -> [f64; 3] {
    // Exact here: small dyadic coordinates and dyadic t.
    std::array::from_fn(|k| points[i][k] + t * (points[i + 4][k] - points[i][k]))
}

const WITNESS_TIMES: [f64; 9] = [0.0, 0.0625, 0.125, 0.25, 0.5, 0.75, 0.875, 0.9375, 1.0];

/// A random vertex-face query with an exact contact at (t*, u*, v*).
fn witnessed_vertex_face(rng: &mut SplitMix64, coplanar: bool) -> ([[f64; 3]; 8], [f64; 3]) {
    let mut points: [[f64; 3]; 8] = std::array::from_fn(|_| rng.point());
    if coplanar {
        for p in points.iter_mut() {
            p[2] = 0.0;
        }
    }
    let t = rng.pick(&WITNESS_TIMES);
    // u*, v* dyadic with u + v <= 1, including the boundary (edges, corners).
    let (u, v) = rng.pick(&[
        (0.25, 0.25),
        (0.5, 0.5),
        (0.0, 0.0),
        (1.0, 0.0),
        (0.0, 0.5),
        (0.125, 0.75),
        (0.75, 0.25),
    ]);
    let a = position(&points, 1, t);
    let b = position(&points, 2, t);
    let c = position(&points, 3, t);
    let target = std::array::from_fn(|k| a[k] + u * (b[k] - a[k]) + v * (c[k] - a[k]));
    pass_through(&mut points, 0, t, target);
    (points, [t, u, v])
}

/// A random edge-edge query with an exact contact at (t*, u*, v*).
fn witnessed_edge_edge(rng: &mut SplitMix64, coplanar: bool) -> ([[f64; 3]; 8], [f64; 3]) {
    let mut points: [[f64; 3]; 8] = std::array::from_fn(|_| rng.point());
    if coplanar {
        for p in points.iter_mut() {
            p[2] = 0.0;
        }
    }
    let t = rng.pick(&WITNESS_TIMES);
    let u = rng.pick(&[0.25, 0.5, 1.0]);
    let v = rng.pick(&[0.0, 0.25, 0.5, 0.75, 1.0]);
    let b0 = position(&points, 2, t);
    let b1 = position(&points, 3, t);
    let target: [f64; 3] = std::array::from_fn(|k| b0[k] + v * (b1[k] - b0[k]));
    let a0 = position(&points, 0, t);
    // a1(t*) = a0(t*) + (target - a0(t*)) / u*, exact: 1 / u* is a power of two.
    let a1: [f64; 3] = std::array::from_fn(|k| a0[k] + (target[k] - a0[k]) / u);
    pass_through(&mut points, 1, t, a1);
    (points, [t, u, v])
}

fn run(points: &[[f64; 3]; 8], kind: Kind) -> parapet_inclusion::InclusionToi {
    run_in(points, kind, SearchOrder::default())
}

fn run_in(
    points: &[[f64; 3]; 8],
    kind: Kind,
    search_order: SearchOrder,
) -> parapet_inclusion::InclusionToi {
    let config = InclusionConfig {
        search_order,
        ..InclusionConfig::default()
    };
    match kind {
        Kind::VertexFace => vertex_face_toi(&VertexFaceQuery::from_points(*points), &config),
        Kind::EdgeEdge => edge_edge_toi(&EdgeEdgeQuery::from_points(*points), &config),
    }
    .expect("finite input, default config")
}

/// Checks the exact witness, then that the contact is reported no later.
fn check_witnessed(points: &[[f64; 3]; 8], kind: Kind, witness: [f64; 3], label: &str) {
    let [t, u, v] = witness.map(q);
    let f = gap(points, kind, &t, &u, &v);
    assert!(
        f.iter().all(Zero::is_zero),
        "{label}: construction is not an exact contact"
    );
    let result = run(points, kind);
    let toi = result
        .toi
        .unwrap_or_else(|| panic!("{label}: false negative, witness {witness:?}, {points:?}"));
    assert!(
        toi <= witness[0],
        "{label}: toi {toi} after the witnessed contact {witness:?}"
    );
    assert!((0.0..=1.0).contains(&toi));
}

#[test]
fn witnessed_random_contacts_are_never_missed_nor_late() {
    let mut rng = SplitMix64::new(0x1234_5678);
    for i in 0..cases() {
        let (p, w) = witnessed_vertex_face(&mut rng, false);
        check_witnessed(&p, Kind::VertexFace, w, &format!("random VF {i}"));
        let (p, w) = witnessed_edge_edge(&mut rng, false);
        check_witnessed(&p, Kind::EdgeEdge, w, &format!("random EE {i}"));
    }
}

#[test]
fn witnessed_contacts_at_huge_and_tiny_scales_are_never_missed() {
    // Scaling by a power of two is exact and keeps the contact; 2^+-600 puts
    // the query outside [2^-500, 2^500], through the rescaling path, and
    // 2^-1000 makes coordinates partly subnormal-adjacent.
    let mut rng = SplitMix64::new(0x5CA1E);
    for i in 0..cases() / 4 {
        for k in [600, -600, -1000, 1000] {
            let factor = 2f64.powi(k / 2) * 2f64.powi(k - k / 2);
            let (p, w) = witnessed_vertex_face(&mut rng, i % 2 == 0);
            let scaled = p.map(|x| x.map(|c| c * factor));
            check_witnessed(&scaled, Kind::VertexFace, w, &format!("VF 2^{k} {i}"));
            let (p, w) = witnessed_edge_edge(&mut rng, i % 2 == 1);
            let scaled = p.map(|x| x.map(|c| c * factor));
            check_witnessed(&scaled, Kind::EdgeEdge, w, &format!("EE 2^{k} {i}"));
        }
    }
}

#[test]
fn coplanar_parallel_motion_with_identically_zero_cubic_is_caught() {
    let mut rng = SplitMix64::new(0xC0FFEE);
    let mut checked = 0;
    for i in 0..cases() {
        let (p, w) = witnessed_vertex_face(&mut rng, true);
        // All z = 0: the univariate cubic is identically zero (the case where
        // root-finding CCD fails), confirmed exactly.
        assert!(coplanarity_cubic_is_zero(&p));
        check_witnessed(&p, Kind::VertexFace, w, &format!("coplanar VF {i}"));
        let (p, w) = witnessed_edge_edge(&mut rng, true);
        check_witnessed(&p, Kind::EdgeEdge, w, &format!("coplanar EE {i}"));
        checked += 2;
    }
    assert_eq!(checked, 2 * cases());
}

#[test]
fn exact_touching_and_sliding_contacts() {
    // Vertex touches the triangle's corner a exactly at t = 1.
    let touch_corner_at_end = [
        [1.0, 1.0, 1.0],
        [0.0, 0.0, 0.0],
        [1.0, 0.0, 0.0],
        [0.0, 1.0, 0.0],
        [0.0, 0.0, 0.0],
        [0.0, 0.0, 0.0],
        [1.0, 0.0, 0.0],
        [0.0, 1.0, 0.0],
    ];
    check_witnessed(
        &touch_corner_at_end,
        Kind::VertexFace,
        [1.0, 0.0, 0.0],
        "corner at t = 1",
    );
    // Vertex grazes the hypotenuse (u + v = 1) at t = 1/2 while passing the plane.
    let graze_edge = [
        [0.5, 0.5, 1.0],
        [0.0, 0.0, 0.0],
        [1.0, 0.0, 0.0],
        [0.0, 1.0, 0.0],
        [0.5, 0.5, -1.0],
        [0.0, 0.0, 0.0],
        [1.0, 0.0, 0.0],
        [0.0, 1.0, 0.0],
    ];
    check_witnessed(
        &graze_edge,
        Kind::VertexFace,
        [0.5, 0.5, 0.5],
        "graze hypotenuse",
    );
    // Sliding: the vertex lies on the moving face at (u, v) = (1/4, 1/4) for
    // all t; the first contact is t = 0, so toi must be exactly 0.
    let sliding = [
        [0.25, 0.25, 0.0],
        [0.0, 0.0, 0.0],
        [1.0, 0.0, 0.0],
        [0.0, 1.0, 0.0],
        [2.25, 0.25, 1.0],
        [2.0, 0.0, 1.0],
        [3.0, 0.0, 1.0],
        [2.0, 1.0, 1.0],
    ];
    check_witnessed(&sliding, Kind::VertexFace, [0.0, 0.25, 0.25], "sliding VF");
    check_witnessed(
        &sliding,
        Kind::VertexFace,
        [0.5, 0.25, 0.25],
        "sliding VF later",
    );
    assert_eq!(run(&sliding, Kind::VertexFace).toi, Some(0.0));
    // Edge-edge: collinear edges sliding into overlap, endpoints touching at t = 1/2.
    let collinear = [
        [-4.0, 0.0, 0.0],
        [-2.0, 0.0, 0.0],
        [1.0, 0.0, 0.0],
        [3.0, 0.0, 0.0],
        [0.0, 0.0, 0.0],
        [2.0, 0.0, 0.0],
        [1.0, 0.0, 0.0],
        [3.0, 0.0, 0.0],
    ];
    // a1(t) = -2 + 4t reaches b0 = 1 at t = 3/4.
    check_witnessed(&collinear, Kind::EdgeEdge, [0.75, 1.0, 0.0], "collinear EE");
    // Parallel coplanar edges that touch end to end exactly at t = 1.
    let parallel = [
        [0.0, 1.0, 0.0],
        [1.0, 1.0, 0.0],
        [1.0, 0.0, 0.0],
        [2.0, 0.0, 0.0],
        [0.0, 0.0, 0.0],
        [1.0, 0.0, 0.0],
        [1.0, 0.0, 0.0],
        [2.0, 0.0, 0.0],
    ];
    check_witnessed(&parallel, Kind::EdgeEdge, [1.0, 1.0, 0.0], "parallel EE");
}

#[test]
fn proven_clear_misses_are_reported_separated() {
    let mut rng = SplitMix64::new(0xABCDEF);
    let mut proven = 0;
    let total = cases();
    for i in 0..total {
        for kind in [Kind::VertexFace, Kind::EdgeEdge] {
            let points: [[f64; 3]; 8] = std::array::from_fn(|_| rng.point());
            // The margin 8 delta covers every acceptance rule: a box is
            // accepted only with a gap within delta + err at a corner, or
            // within its image width, which the tolerances keep below ~3 delta.
            let extent = (0..3)
                .map(|k| {
                    let xs = points.iter().map(|p| p[k]);
                    xs.clone().fold(f64::MIN, f64::max) - xs.fold(f64::MAX, f64::min)
                })
                .fold(0.0, f64::max);
            let margin = 8.0 * InclusionConfig::default().tolerance * extent;
            if proven_clear(&points, kind, margin, 20_000) == Some(true) {
                proven += 1;
                let result = run(&points, kind);
                assert_eq!(
                    result.status,
                    InclusionStatus::Separated,
                    "case {i}: proven clear miss reported as {result:?}: {points:?}"
                );
            }
        }
    }
    println!(
        "{proven} of {} random queries proven clear misses",
        2 * total
    );
    // Random unit-size queries are mostly clear misses: the test must decide
    // a good share of them to mean anything.
    assert!(
        proven * 4 >= total,
        "only {proven} of {} cases decided",
        2 * total
    );
}

#[test]
fn contact_at_exactly_the_minimum_separation_is_caught() {
    // Build an exact contact, then lift the vertex (VF) or edge a (EE) by
    // d = 1/8 on one axis: at t* the L-infinity gap is exactly d (the d-cube
    // is touched), so with min_separation = d the contact must be reported
    // no later than t*.
    let d = 0.125;
    let config = InclusionConfig {
        min_separation: d,
        ..InclusionConfig::default()
    };
    let mut rng = SplitMix64::new(0xD15_7A9CE);
    for i in 0..cases() {
        let axis = i % 3;
        let (mut p, w) = witnessed_vertex_face(&mut rng, false);
        p[0][axis] += d;
        p[4][axis] += d;
        let [t, u, v] = w.map(q);
        let f = gap(&p, Kind::VertexFace, &t, &u, &v);
        let gap_inf = f.iter().map(|x| x.clone().abs()).max().unwrap();
        assert_eq!(gap_inf, q(d), "construction");
        let r = vertex_face_toi(&VertexFaceQuery::from_points(p), &config).unwrap();
        assert!(
            r.toi.is_some_and(|toi| toi <= w[0]),
            "VF {i}: {r:?} vs {w:?}"
        );

        let (mut p, w) = witnessed_edge_edge(&mut rng, false);
        for point in [0, 1, 4, 5] {
            p[point][axis] -= d;
        }
        let r = edge_edge_toi(&EdgeEdgeQuery::from_points(p), &config).unwrap();
        assert!(
            r.toi.is_some_and(|toi| toi <= w[0]),
            "EE {i}: {r:?} vs {w:?}"
        );
    }
}

#[test]
fn iteration_cap_still_answers_no_later_than_the_contact() {
    // With a tiny cap m_I the search stops early; the answer must still be a
    // lower bound (the earliest time still possible), never a miss.
    let mut rng = SplitMix64::new(0xCA9);
    for i in 0..cases() {
        let cap = 1 + (i as u64 % 6);
        let config = InclusionConfig {
            max_iterations: cap,
            ..InclusionConfig::default()
        };
        let (p, w) = witnessed_vertex_face(&mut rng, i % 2 == 0);
        let r = vertex_face_toi(&VertexFaceQuery::from_points(p), &config).unwrap();
        assert!(r.iterations <= cap);
        assert!(
            r.toi.is_some_and(|toi| toi <= w[0]),
            "VF {i}: {r:?} vs {w:?}"
        );
        assert!(r.status != InclusionStatus::Separated);
        let (p, w) = witnessed_edge_edge(&mut rng, i % 2 == 1);
        let r = edge_edge_toi(&EdgeEdgeQuery::from_points(p), &config).unwrap();
        assert!(
            r.toi.is_some_and(|toi| toi <= w[0]),
            "EE {i}: {r:?} vs {w:?}"
        );
    }
}
