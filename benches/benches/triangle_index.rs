//! The triangle bounds tree against parry3d 0.31's BVH on a `TriMesh`: build
//! time and query time on the triangle-index workloads (a terrain grid and a random
//! soup of 2,048, 8,192 and 32,768 triangles) and two controls, plus the
//! retained bytes per triangle of both (printed once, before the timings).
//!
//! Workloads: `terrain/T`, `soup/T` (`parapet_tests::meshes`), `overlap/2048` (the worst
//! case: 2,048 large triangles filling one 4 m cube, where bounds overlap and
//! pruning fails) and `small/8` (8 triangles: parapet's linear scan).
//!
//! Queries, 1,000 of each kind, built from the short sphere sweeps near the
//! surface of `parapet_tests::meshes::sweeps_near`:
//! - `sweep`: parapet's `SweptBall` (outward-rounded f64 box, plus the
//!   segment-versus-grown-box test for sweeps longer than `LONG_SWEEP_RADII`
//!   radii); parry's `Bvh::intersect_aabb` on the f32 box of the swept ball;
//! - `box`: the like-for-like control, parapet's box query of the same
//!   swept-ball box against the same parry query;
//! - `ball`: a ball at the sweep start, radius the sweep radius + 0.5 m;
//!   parry: `Bvh::leaves` keeping nodes whose `Aabb` is within the radius
//!   (`distance_to_local_point`);
//! - `ray`: from the sweep start along the sweep direction, 3 m long;
//!   parry: `Bvh::leaves` keeping nodes whose `Aabb` the ray meets
//!   (`intersects_local_ray`).
//!
//! Every parapet query returns sorted indices; every parry result is
//! collected into a reused vector.
//!
//! Before the criterion timings, the bench prints per workload the retained
//! bytes per triangle of both, hits and node visits per query, and *paired
//! minimum times*: parapet and parry timed alternately, 40 rounds each, the
//! minimum of each kept. On a shared machine the minimum is the estimate
//! least disturbed by other processes, and alternation exposes both sides to
//! the same conditions; the ratios printed are parapet / parry.
//!
//! It also prints the allocations of one cold build of each index and of
//! 1,000 sweep queries (`allocation_counter`'s counting global allocator,
//! which this bench alone links).
//!
//! Run: `cargo bench -p parapet-benches --bench triangle_index -- --warm-up-time 1 --measurement-time 3`.

use std::hint::black_box;
use std::time::Instant;

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use parapet_geometry::bvh::{Ball, BoundsQuery, Ray, SweptBall, TriangleBoundsTree};
use parapet_math::Vec3;
use parapet_tests::meshes::{
    overlapping, soup, sweeps_near, terrain, terrain_with, IndexedMesh, Sweep, WORKLOAD_TRIANGLES,
};
use parapet_tests::parry::parry3d::bounding_volume::{Aabb, BoundingVolume};
use parapet_tests::parry::parry3d::query::{PointQuery, Ray as ParryRay, RayCast};
use parapet_tests::parry::parry3d::shape::TriMesh;
use parapet_tests::parry::{to_parry, ParryVec};

/// What [`count_allocations`] saw while its closure ran, on this thread
/// (the builds and queries measured are single-threaded).
#[derive(Debug, Clone, Copy)]
struct Allocations {
    /// Allocations, reallocations included (count).
    allocations: u64,
    /// Bytes requested by them, in all (B).
    requested_bytes: u64,
    /// Highest live bytes above the level at the start (B): the temporary
    /// plus retained memory at its peak. A reallocation goes through
    /// `GlobalAlloc`'s default (allocate, copy, free), so a block that grows
    /// counts both sizes at that instant.
    peak_bytes: u64,
    /// Live bytes at the end above the level at the start (B): what the
    /// closure's result keeps (negative changes read as 0).
    retained_bytes: u64,
}

/// Runs `f` under `allocation_counter::measure` (every allocation of this
/// bench goes through that crate's counting global allocator: a thread-local
/// tally per allocation, also during the timings) and returns its result,
/// alive, so [`Allocations::retained_bytes`] is what it holds.
fn count_allocations<R>(f: impl FnOnce() -> R) -> (R, Allocations) {
    let mut result = None;
    let info = allocation_counter::measure(|| result = Some(f()));
    let stats = Allocations {
        allocations: info.count_total,
        requested_bytes: info.bytes_total,
        peak_bytes: info.bytes_max,
        retained_bytes: u64::try_from(info.bytes_current).unwrap_or(0),
    };
    (result.expect("measure runs its closure"), stats)
}

const QUERIES: usize = 1_000;

/// Extra ball radius over the sweep radius (m), so that balls find triangles.
const BALL_MARGIN: f32 = 0.5;

/// Ray length (m).
const RAY_LENGTH: f32 = 3.0;

/// The query kinds, in report order.
const KINDS: [&str; 4] = ["sweep", "box", "ball", "ray"];

fn workloads() -> Vec<(String, IndexedMesh)> {
    let mut out = Vec::new();
    for t in WORKLOAD_TRIANGLES {
        out.push((format!("terrain/{t}"), terrain_with(t, 0x7E44)));
        out.push((format!("soup/{t}"), soup(t, 0x5009)));
    }
    out.push(("overlap/2048".to_string(), overlapping(2048, 4.0, 0x0E1A)));
    out.push(("small/8".to_string(), terrain(2, 2, 0x5A11)));
    out
}

fn parry_input(mesh: &IndexedMesh) -> (Vec<ParryVec>, Vec<[u32; 3]>) {
    (
        mesh.vertices.iter().map(|&v| to_parry(v)).collect(),
        mesh.indices.clone(),
    )
}

fn swept(s: &Sweep) -> SweptBall {
    SweptBall::new(s.start.cast(), s.end.cast(), s.radius as f64).expect("finite workload")
}

fn parry_box(s: &Sweep) -> Aabb {
    let r = Vec3::repeat(s.radius);
    Aabb::new(
        to_parry(s.start.inf(&s.end) - r),
        to_parry(s.start.sup(&s.end) + r),
    )
}

fn ball_radius(s: &Sweep) -> f32 {
    s.radius + BALL_MARGIN
}

fn ball(s: &Sweep) -> Ball {
    Ball::new(s.start.cast(), ball_radius(s) as f64).expect("finite workload")
}

/// The unit direction of the sweep (+z for a sweep that does not move).
fn ray_direction(s: &Sweep) -> Vec3 {
    let d = s.end - s.start;
    let n = d.norm();
    if n > 0.0 {
        d / n
    } else {
        Vec3::z()
    }
}

fn ray(s: &Sweep) -> Ray {
    Ray::new(s.start.cast(), ray_direction(s).cast(), RAY_LENGTH as f64).expect("finite workload")
}

fn parry_ray(s: &Sweep) -> ParryRay {
    ParryRay::new(to_parry(s.start), to_parry(ray_direction(s)))
}

/// One workload's two indexes and its queries.
struct Fixture {
    tree: TriangleBoundsTree,
    parry: TriMesh,
    sweeps: Vec<Sweep>,
}

impl Fixture {
    fn new(mesh: &IndexedMesh) -> Self {
        let tree = TriangleBoundsTree::build(&mesh.triangles()).expect("finite workload");
        let (v, i) = parry_input(mesh);
        let parry = TriMesh::new(v, i).expect("non-empty workload");
        let sweeps = sweeps_near(mesh, QUERIES, 0x0BA1);
        Self {
            tree,
            parry,
            sweeps,
        }
    }

    /// Runs all queries of `kind` through parapet; returns (hits, visited nodes).
    fn ours(&self, kind: &str, out: &mut Vec<u32>) -> (usize, usize) {
        let tree = &self.tree;
        let mut total = (0, 0);
        for s in &self.sweeps {
            let s = black_box(s);
            let stats = match kind {
                "sweep" => tree.query(&swept(s), out),
                "box" => tree.query(&swept(s).bounds(), out),
                "ball" => tree.query(&ball(s), out),
                _ => tree.query(&ray(s), out),
            };
            total.0 += stats.hits;
            total.1 += stats.visited_nodes;
        }
        total
    }

    /// Runs all queries of `kind` through parry; returns (hits, node tests).
    fn theirs(&self, kind: &str, out: &mut Vec<u32>, count_tests: bool) -> (usize, usize) {
        let bvh = self.parry.bvh();
        let tests = std::cell::Cell::new(0usize);
        let count = |pass: bool| {
            if count_tests {
                tests.set(tests.get() + 1);
            }
            pass
        };
        let mut hits = 0;
        for s in &self.sweeps {
            let s = black_box(s);
            out.clear();
            match kind {
                "sweep" | "box" => {
                    let q = parry_box(s);
                    out.extend(bvh.leaves(|n| count(n.aabb().intersects(&q))));
                }
                "ball" => {
                    let (c, r) = (to_parry(s.start), ball_radius(s));
                    out.extend(
                        bvh.leaves(|n| count(n.aabb().distance_to_local_point(c, true) <= r)),
                    );
                }
                _ => {
                    let q = parry_ray(s);
                    out.extend(
                        bvh.leaves(|n| count(n.aabb().intersects_local_ray(&q, RAY_LENGTH))),
                    );
                }
            }
            hits += out.len();
        }
        (hits, tests.get())
    }
}

fn report_memory(workloads: &[(String, IndexedMesh)]) {
    for (name, mesh) in workloads {
        let f = Fixture::new(mesh);
        let t = mesh.indices.len() as f64;
        let ours = f.tree.bytes_per_triangle();
        let theirs = f.parry.bvh().total_memory_size() as f64 / t;
        let mut line = format!(
            "triangle_index memory {name}: parapet {ours:.1} B/triangle, parry {theirs:.1} B/triangle, ratio {:.3}; per query",
            ours / theirs
        );
        let mut out = Vec::new();
        for kind in KINDS {
            let (hits, visited) = f.ours(kind, &mut out);
            let (parry_hits, parry_tests) = f.theirs(kind, &mut out, true);
            let q = QUERIES as f64;
            line += &format!(
                "; {kind} hits {:.2} (parry {:.2}) nodes {:.1} (parry {:.1})",
                hits as f64 / q,
                parry_hits as f64 / q,
                visited as f64 / q,
                parry_tests as f64 / q
            );
        }
        println!("{line}");
    }
}

/// Prints, per workload, the allocations of one cold build of each index
/// (count, bytes requested, peak temporary bytes per triangle above what the
/// index retains, retained bytes per triangle as the allocator saw them) and
/// of 1,000 sweep queries into a reused result vector.
fn report_allocations(workloads: &[(String, IndexedMesh)]) {
    for (name, mesh) in workloads {
        let tris = mesh.triangles();
        let t = tris.len() as f64;
        let (tree, ours) =
            count_allocations(|| TriangleBoundsTree::build(&tris).expect("finite workload"));
        let (v, i) = parry_input(mesh);
        let (parry, theirs) = count_allocations(|| TriMesh::new(v, i).expect("non-empty"));
        let sweeps = sweeps_near(mesh, QUERIES, 0x0BA1);
        let mut out: Vec<u32> = Vec::with_capacity(tris.len());
        let (_, ours_q) = count_allocations(|| {
            sweeps
                .iter()
                .map(|s| tree.query(&swept(s), &mut out).hits)
                .sum::<usize>()
        });
        let bvh = parry.bvh();
        let (_, theirs_q) = count_allocations(|| {
            let mut hits = 0;
            for s in &sweeps {
                out.clear();
                let q = parry_box(s);
                out.extend(bvh.leaves(|n| n.aabb().intersects(&q)));
                hits += out.len();
            }
            hits
        });
        let per = |bytes: u64| bytes as f64 / t;
        println!(
            "triangle_index allocations {name}: build parapet {} allocations, {:.1} B/triangle requested, \
             peak temporary {:.1} B/triangle, retained {:.1} B/triangle; parry (TriMesh, input moved in) {} allocations, \
             {:.1} B/triangle requested, peak temporary {:.1} B/triangle, retained {:.1} B/triangle; \
             {QUERIES} sweep queries into a reused vector: parapet {} allocations, parry {}",
            ours.allocations,
            per(ours.requested_bytes),
            per(ours.peak_bytes - ours.retained_bytes),
            per(ours.retained_bytes),
            theirs.allocations,
            per(theirs.requested_bytes),
            per(theirs.peak_bytes - theirs.retained_bytes),
            per(theirs.retained_bytes),
            ours_q.allocations,
            theirs_q.allocations,
        );
    }
}

/// Alternating minimum times (µs) of `a` and `b` over `rounds` rounds.
fn paired_min(
    rounds: usize,
    mut a: impl FnMut() -> usize,
    mut b: impl FnMut() -> usize,
) -> (f64, f64) {
    let (mut best_a, mut best_b) = (f64::INFINITY, f64::INFINITY);
    for _ in 0..rounds {
        let t = Instant::now();
        black_box(a());
        best_a = best_a.min(t.elapsed().as_secs_f64());
        let t = Instant::now();
        black_box(b());
        best_b = best_b.min(t.elapsed().as_secs_f64());
    }
    (best_a * 1e6, best_b * 1e6)
}

fn report_paired_times(workloads: &[(String, IndexedMesh)]) {
    const ROUNDS: usize = 40;
    for (name, mesh) in workloads {
        let tris = mesh.triangles();
        let (build_ours, build_parry) = paired_min(
            ROUNDS,
            || {
                TriangleBoundsTree::build(black_box(&tris))
                    .expect("finite")
                    .node_count()
            },
            || {
                let (v, i) = parry_input(mesh);
                TriMesh::new(v, i).expect("non-empty").num_triangles()
            },
        );
        let f = Fixture::new(mesh);
        let mut line = format!(
            "triangle_index paired {name}: build parapet {build_ours:.1} µs, parry {build_parry:.1} µs, ratio {:.2}",
            build_ours / build_parry
        );
        let (mut ours_out, mut parry_out) = (Vec::new(), Vec::new());
        for kind in KINDS {
            let (ours, theirs) = paired_min(
                ROUNDS,
                || f.ours(kind, &mut ours_out).0,
                || f.theirs(kind, &mut parry_out, false).0,
            );
            line += &format!(
                "; {QUERIES} {kind} parapet {ours:.1} µs, parry {theirs:.1} µs, ratio {:.2}",
                ours / theirs
            );
        }
        println!("{line}");
    }
}

fn bench_build(c: &mut Criterion) {
    let workloads = workloads();
    // `TRIANGLE_INDEX_NO_REPORT=1` skips the printed report (for profiling
    // one criterion function).
    if std::env::var_os("TRIANGLE_INDEX_NO_REPORT").is_none() {
        report_memory(&workloads);
        report_allocations(&workloads);
        report_paired_times(&workloads);
    }
    let mut group = c.benchmark_group("triangle_index/build");
    for (name, mesh) in &workloads {
        let tris = mesh.triangles();
        group.throughput(Throughput::Elements(tris.len() as u64));
        group.bench_function(format!("parapet/{name}"), |b| {
            b.iter(|| TriangleBoundsTree::build(black_box(&tris)).expect("finite"))
        });
        group.bench_function(format!("parry/{name}"), |b| {
            b.iter_batched(
                || parry_input(mesh),
                |(v, i)| TriMesh::new(v, i).expect("non-empty"),
                BatchSize::LargeInput,
            )
        });
    }
    group.finish();
}

fn bench_query(c: &mut Criterion) {
    let workloads = workloads();
    for kind in KINDS {
        let mut group = c.benchmark_group(format!("triangle_index/{kind}_query"));
        group.throughput(Throughput::Elements(QUERIES as u64));
        for (name, mesh) in &workloads {
            let f = Fixture::new(mesh);
            let mut out: Vec<u32> = Vec::with_capacity(mesh.indices.len());
            group.bench_function(format!("parapet/{name}"), |b| {
                b.iter(|| f.ours(kind, &mut out).0)
            });
            group.bench_function(format!("parry/{name}"), |b| {
                b.iter(|| f.theirs(kind, &mut out, false).0)
            });
        }
        group.finish();
    }
}

criterion_group!(benches, bench_build, bench_query);
criterion_main!(benches);
