//! Property tests of the triangle bounds tree against a brute-force scan:
//! for random meshes (general, coplanar, collapsed to one point, long thin
//! strips, duplicated triangles, small and large) and random queries of
//! every kind (box, ball, swept ball, ray), the tree returns exactly the
//! triangles the scan finds, ascending, visiting at most 2T - 1 nodes, and
//! `validate()` passes.
//!
//! The scan shares no code with the tree: it computes each triangle's bounds
//! itself and tests box overlap itself. For the ball, swept ball and ray it
//! asks the query's own predicate (`BoundsQuery::touches`, the definition of
//! what the query returns) about those independently computed bounds; that
//! predicate's conservativeness against exact rational geometry is tested in
//! `bvh_rounding.rs`.
//!
//! Case count: proptest's default 256 per property; set `PROPTEST_CASES`
//! for longer runs (for example `PROPTEST_CASES=5000`).

use parapet_geometry::bvh::{
    Ball, Bounds, BoundsQuery, Layout, Ray, SweptBall, TriangleBoundsTree,
};
use parapet_math::{Vec3, Vec3d};
use proptest::prelude::*;

/// Independent triangle bounds: componentwise min and max in f64.
fn scan_bounds(tri: &[Vec3; 3]) -> (Vec3d, Vec3d) {
    let mut lo = Vec3d::repeat(f64::INFINITY);
    let mut hi = Vec3d::repeat(f64::NEG_INFINITY);
    for v in tri {
        for k in 0..3 {
            lo[k] = lo[k].min(v[k] as f64);
            hi[k] = hi[k].max(v[k] as f64);
        }
    }
    (lo, hi)
}

/// Brute force for a box query: closed-interval overlap on every axis.
fn scan_box(tris: &[[Vec3; 3]], qmin: Vec3d, qmax: Vec3d) -> Vec<u32> {
    (0..tris.len())
        .filter(|&i| {
            let (lo, hi) = scan_bounds(&tris[i]);
            (0..3).all(|k| lo[k] <= qmax[k] && qmin[k] <= hi[k])
        })
        .map(|i| i as u32)
        .collect()
}

/// Brute force for any query: its predicate on each triangle's own bounds.
fn scan_predicate<Q: BoundsQuery>(tris: &[[Vec3; 3]], q: &Q) -> Vec<u32> {
    (0..tris.len())
        .filter(|&i| {
            let (lo, hi) = scan_bounds(&tris[i]);
            q.touches(&Bounds::new(lo, hi).expect("finite triangle bounds"))
        })
        .map(|i| i as u32)
        .collect()
}

#[derive(Debug, Clone, Copy)]
enum Layout3 {
    General,
    Plane,
    Point,
    Strip,
    Duplicates,
}

/// A coordinate: often a quarter-integer (so bounds tie and touch), else any value in range.
fn coord() -> impl Strategy<Value = f32> {
    prop_oneof![(-16i32..=16).prop_map(|q| q as f32 * 0.25), -4.0f32..4.0,]
}

fn vertex() -> impl Strategy<Value = Vec3> {
    (coord(), coord(), coord()).prop_map(|(x, y, z)| Vec3::new(x, y, z))
}

fn triangle() -> impl Strategy<Value = [Vec3; 3]> {
    [vertex(), vertex(), vertex()]
}

fn mesh() -> impl Strategy<Value = (Layout3, Vec<[Vec3; 3]>)> {
    let layout = prop_oneof![
        3 => Just(Layout3::General),
        1 => Just(Layout3::Plane),
        1 => Just(Layout3::Point),
        1 => Just(Layout3::Strip),
        1 => Just(Layout3::Duplicates),
    ];
    let count = prop_oneof![3 => 0usize..40, 2 => 40usize..400];
    (layout, count)
        .prop_flat_map(|(layout, count)| {
            (
                Just(layout),
                proptest::collection::vec(triangle(), count),
                vertex(),
                0usize..8,
            )
        })
        .prop_map(|(layout, mut tris, point, distinct)| {
            match layout {
                Layout3::General => {}
                Layout3::Plane => {
                    for t in &mut tris {
                        for v in t.iter_mut() {
                            v.z = point.z;
                        }
                    }
                }
                Layout3::Point => {
                    tris.fill([point; 3]);
                }
                Layout3::Strip => {
                    // Long in x (hundreds of metres), a millimetre thin in y and z.
                    for (i, t) in tris.iter_mut().enumerate() {
                        for v in t.iter_mut() {
                            v.x = v.x * 0.5 + i as f32;
                            v.y *= 1.0e-3;
                            v.z *= 1.0e-3;
                        }
                    }
                }
                Layout3::Duplicates => {
                    let keep = distinct.max(1).min(tris.len());
                    for i in keep..tris.len() {
                        tris[i] = tris[i % keep.max(1)];
                    }
                }
            }
            (layout, tris)
        })
}

#[derive(Debug, Clone)]
enum Query {
    Box(Vec3d, Vec3d),
    Ball(Vec3d, f64),
    Sweep(Vec3d, Vec3d, f64),
    Ray(Vec3d, Vec3d, f64),
}

fn point() -> impl Strategy<Value = Vec3d> {
    let c = prop_oneof![(-20i32..=20).prop_map(|q| q as f64 * 0.25), -5.0f64..5.0,];
    (c.clone(), c.clone(), c).prop_map(|(x, y, z)| Vec3d::new(x, y, z))
}

fn length() -> impl Strategy<Value = f64> {
    prop_oneof![
        Just(0.0),
        (0i32..=8).prop_map(|q| q as f64 * 0.25),
        0.0f64..3.0
    ]
}

fn query() -> impl Strategy<Value = Query> {
    prop_oneof![
        (point(), point()).prop_map(|(a, b)| Query::Box(a.inf(&b), a.sup(&b))),
        (point(), length()).prop_map(|(c, r)| Query::Ball(c, r)),
        (point(), point(), length()).prop_map(|(s, e, r)| Query::Sweep(s, e, r)),
        (point(), point(), prop_oneof![length(), Just(f64::INFINITY)])
            .prop_map(|(o, d, t)| Query::Ray(o, d, t)),
    ]
}

/// Runs `q` through the tree and the scan and checks the contract.
fn check<Q: BoundsQuery>(
    tree: &TriangleBoundsTree,
    tris: &[[Vec3; 3]],
    q: &Q,
    expected: Vec<u32>,
    out: &mut Vec<u32>,
) -> Result<(), TestCaseError> {
    // Stale content must be replaced, not appended to.
    out.push(u32::MAX);
    let stats = tree.query(q, out);
    prop_assert_eq!(&*out, &expected[..]);
    prop_assert_eq!(stats.hits, expected.len());
    prop_assert!(stats.hits <= tris.len());
    let t = tris.len();
    prop_assert!(
        stats.visited_nodes <= (2 * t).saturating_sub(1),
        "{} visits for T = {}",
        stats.visited_nodes,
        t
    );
    prop_assert!(
        out.windows(2).all(|w| w[0] < w[1]),
        "not strictly ascending: {:?}",
        out
    );
    Ok(())
}

proptest! {
    #[test]
    fn tree_equals_brute_force((layout, tris) in mesh(), queries in proptest::collection::vec(query(), 1..24)) {
        let tree = TriangleBoundsTree::build(&tris).expect("finite mesh");
        tree.validate(&tris).map_err(|e| TestCaseError::fail(format!("{layout:?}: {e}")))?;
        let t = tris.len();
        match t {
            0 => prop_assert_eq!(tree.layout(), Layout::Empty),
            1..=8 => prop_assert_eq!(tree.layout(), Layout::LinearScan),
            _ => {
                prop_assert_eq!(tree.layout(), Layout::Tree);
                prop_assert_eq!(tree.node_count(), 2 * t - 1);
                // ceil(log2 T), computed independently of the library.
                let bound = (t as f64).log2().ceil() as u32;
                prop_assert!(tree.depth() <= bound, "depth {} > {}", tree.depth(), bound);
            }
        }
        let mut out = Vec::new();
        for q in &queries {
            match *q {
                Query::Box(lo, hi) => {
                    let b = Bounds::new(lo, hi).expect("ordered corners");
                    check(&tree, &tris, &b, scan_box(&tris, lo, hi), &mut out)?;
                }
                Query::Ball(c, r) => {
                    let b = Ball::new(c, r).expect("valid ball");
                    check(&tree, &tris, &b, scan_predicate(&tris, &b), &mut out)?;
                }
                Query::Sweep(s, e, r) => {
                    let b = SweptBall::new(s, e, r).expect("valid sweep");
                    check(&tree, &tris, &b, scan_predicate(&tris, &b), &mut out)?;
                    // The swept ball's box query returns a superset.
                    let outer = scan_box(&tris, b.bounds().min(), b.bounds().max());
                    let inner = scan_predicate(&tris, &b);
                    prop_assert!(inner.iter().all(|i| outer.contains(i)));
                }
                Query::Ray(o, d, t) => {
                    let b = Ray::new(o, d, t).expect("valid ray");
                    check(&tree, &tris, &b, scan_predicate(&tris, &b), &mut out)?;
                }
            }
        }
    }

    #[test]
    fn every_triangle_is_in_exactly_one_leaf((_layout, tris) in mesh()) {
        let tree = TriangleBoundsTree::build(&tris).expect("finite mesh");
        let mut seen = vec![0u32; tris.len()];
        for i in 0..tree.node_count() {
            let node = tree.node(i).expect("index below node_count");
            if let Some(t) = node.triangle {
                seen[t as usize] += 1;
                let (lo, hi) = scan_bounds(&tris[t as usize]);
                prop_assert_eq!(node.bounds, Bounds::new(lo, hi).unwrap());
                prop_assert_eq!(node.escape as usize, i + 1);
            } else {
                prop_assert!(node.escape as usize > i + 1 && node.escape as usize <= tree.node_count());
            }
        }
        prop_assert!(seen.iter().all(|&n| n == 1), "{:?}", seen);
    }
}

/// A query that covers everything visits every node once and returns every
/// triangle in insertion order, whatever the tree order.
#[test]
fn an_all_covering_query_visits_each_node_once_and_returns_insertion_order() {
    let tris: Vec<[Vec3; 3]> = (0..1000)
        .map(|i| {
            // Reverse spatial order against insertion order.
            let x = (1000 - i) as f32;
            [
                Vec3::new(x, 0.0, 0.0),
                Vec3::new(x + 1.0, 0.0, 0.0),
                Vec3::new(x, 1.0, 0.0),
            ]
        })
        .collect();
    let tree = TriangleBoundsTree::build(&tris).unwrap();
    let all = Bounds::new(Vec3d::repeat(-1e9), Vec3d::repeat(1e9)).unwrap();
    let mut out = Vec::new();
    let stats = tree.query(&all, &mut out);
    assert_eq!(stats.visited_nodes, 2 * 1000 - 1);
    assert_eq!(out, (0..1000).collect::<Vec<u32>>());
}

/// Non-finite snapshots are refused with the triangle named; they never panic.
#[test]
fn non_finite_coordinates_are_refused_by_triangle() {
    for bad in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
        let mut tris = vec![[Vec3::zeros(), Vec3::x(), Vec3::y()]; 50];
        tris[37][1].z = bad;
        let err = TriangleBoundsTree::build(&tris).unwrap_err();
        assert!(err.to_string().contains("triangle 37"), "{err}");
    }
}
