//! The triangle bounds tree against parry3d 0.31's BVH on a `TriMesh`: build
//! time and sphere-sweep query time on the seed 000 workloads (a terrain grid
//! and a random soup of 2,048, 8,192 and 32,768 triangles), plus the retained
//! bytes per triangle of both (printed once, before the timings).
//!
//! Queries: 1,000 short sphere sweeps near the surface
//! (`parapet_tests::meshes::sweeps_near`). parapet answers each with its
//! `SweptBall` query (outward-rounded f64 box, plus the conservative
//! segment-versus-grown-box test for the few sweeps longer than
//! `LONG_SWEEP_RADII` radii; sorted indices) and, as the like-for-like
//! control, with the plain box query of the same swept-ball box (`box`);
//! parry answers with `Bvh::intersect_aabb` on the f32 box of the swept ball,
//! collected into a reused vector.
//!
//! Before the criterion timings, the bench prints per workload the retained
//! bytes per triangle of both, hits and node visits per query, and *paired
//! minimum times*: parapet and parry timed alternately, 40 rounds each, the
//! minimum of each kept. On a shared machine the minimum is the estimate
//! least disturbed by other processes, and alternation exposes both sides to
//! the same conditions; the ratios printed are parapet / parry.
//!
//! Run: `cargo bench -p parapet-benches --bench triangle_index`.

use std::hint::black_box;
use std::time::Instant;

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use parapet_geometry::bvh::{BoundsQuery, SweptBall, TriangleBoundsTree};
use parapet_math::Vec3;
use parapet_tests::meshes::{
    soup, sweeps_near, terrain_with, IndexedMesh, Sweep, WORKLOAD_TRIANGLES,
};
use parapet_tests::parry::parry3d::bounding_volume::{Aabb, BoundingVolume};
use parapet_tests::parry::parry3d::shape::TriMesh;
use parapet_tests::parry::{to_parry, ParryVec};

const QUERIES: usize = 1_000;

fn workloads() -> Vec<(String, IndexedMesh)> {
    let mut out = Vec::new();
    for t in WORKLOAD_TRIANGLES {
        out.push((format!("terrain/{t}"), terrain_with(t, 0x7E44)));
        out.push((format!("soup/{t}"), soup(t, 0x5009)));
    }
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

fn report_memory(workloads: &[(String, IndexedMesh)]) {
    for (name, mesh) in workloads {
        let tris = mesh.triangles();
        let tree = TriangleBoundsTree::build(&tris).expect("finite workload");
        let (v, i) = parry_input(mesh);
        let parry = TriMesh::new(v, i).expect("non-empty workload");
        let t = tris.len() as f64;
        let ours = tree.bytes_per_triangle();
        let theirs = parry.bvh().total_memory_size() as f64 / t;
        let sweeps = sweeps_near(mesh, QUERIES, 0x0BA1);
        let mut out = Vec::new();
        let (mut hits, mut box_hits, mut visited, mut parry_hits) = (0, 0, 0, 0);
        let parry_visited = std::cell::Cell::new(0usize);
        for s in &sweeps {
            let stats = tree.query(&swept(s), &mut out);
            hits += stats.hits;
            visited += stats.visited_nodes;
            box_hits += tree.query(&swept(s).bounds(), &mut out).hits;
            let query = parry_box(s);
            parry_hits += parry
                .bvh()
                .leaves(|node| {
                    parry_visited.set(parry_visited.get() + 1);
                    node.aabb().intersects(&query)
                })
                .count();
        }
        println!(
            "triangle_index memory {name}: parapet {ours:.1} B/triangle, parry {theirs:.1} B/triangle, \
             ratio {:.3}; per query: {:.2} swept-ball hits, {:.2} box hits, {:.2} parry hits, {:.1} nodes visited (parry {:.1})",
            ours / theirs,
            hits as f64 / QUERIES as f64,
            box_hits as f64 / QUERIES as f64,
            parry_hits as f64 / QUERIES as f64,
            visited as f64 / QUERIES as f64,
            parry_visited.get() as f64 / QUERIES as f64,
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
        let tree = TriangleBoundsTree::build(&tris).expect("finite workload");
        let (v, i) = parry_input(mesh);
        let parry = TriMesh::new(v, i).expect("non-empty workload");
        let sweeps = sweeps_near(mesh, QUERIES, 0x0BA1);
        let mut ours_out = Vec::new();
        let mut parry_out: Vec<u32> = Vec::new();
        let parry_sweeps = |out: &mut Vec<u32>| -> usize {
            sweeps
                .iter()
                .map(|s| {
                    out.clear();
                    out.extend(parry.bvh().intersect_aabb(&parry_box(black_box(s))));
                    out.len()
                })
                .sum()
        };
        let ours_sweeps = |out: &mut Vec<u32>| -> usize {
            sweeps
                .iter()
                .map(|s| tree.query(&swept(black_box(s)), out).hits)
                .sum()
        };
        let (sweep_ours, sweep_parry) = paired_min(
            ROUNDS,
            || ours_sweeps(&mut ours_out),
            || parry_sweeps(&mut parry_out),
        );
        let (box_ours, box_parry) = paired_min(
            ROUNDS,
            || {
                sweeps
                    .iter()
                    .map(|s| {
                        tree.query(&swept(black_box(s)).bounds(), &mut ours_out)
                            .hits
                    })
                    .sum()
            },
            || parry_sweeps(&mut parry_out),
        );
        println!(
            "triangle_index paired {name}: build parapet {build_ours:.0} µs, parry {build_parry:.0} µs, \
             ratio {:.2}; {QUERIES} sweeps parapet {sweep_ours:.0} µs, parry {sweep_parry:.0} µs, \
             ratio {:.2}; box only parapet {box_ours:.0} µs, parry {box_parry:.0} µs, ratio {:.2}",
            build_ours / build_parry,
            sweep_ours / sweep_parry,
            box_ours / box_parry,
        );
    }
}

fn bench_build(c: &mut Criterion) {
    let workloads = workloads();
    report_memory(&workloads);
    report_paired_times(&workloads);
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
    let mut group = c.benchmark_group("triangle_index/sweep_query");
    group.throughput(Throughput::Elements(QUERIES as u64));
    for (name, mesh) in &workloads() {
        let tris = mesh.triangles();
        let tree = TriangleBoundsTree::build(&tris).expect("finite workload");
        let (v, i) = parry_input(mesh);
        let parry = TriMesh::new(v, i).expect("non-empty workload");
        let sweeps = sweeps_near(mesh, QUERIES, 0x0BA1);
        let mut out: Vec<u32> = Vec::with_capacity(tris.len());
        group.bench_function(format!("parapet/{name}"), |b| {
            b.iter(|| {
                let mut total = 0;
                for s in &sweeps {
                    total += tree.query(&swept(black_box(s)), &mut out).hits;
                }
                total
            })
        });
        group.bench_function(format!("parapet_box/{name}"), |b| {
            b.iter(|| {
                let mut total = 0;
                for s in &sweeps {
                    let q = swept(black_box(s)).bounds();
                    total += tree.query(&q, &mut out).hits;
                }
                total
            })
        });
        group.bench_function(format!("parry/{name}"), |b| {
            b.iter(|| {
                let mut total = 0;
                for s in &sweeps {
                    let aabb = parry_box(black_box(s));
                    out.clear();
                    out.extend(parry.bvh().intersect_aabb(&aabb));
                    total += out.len();
                }
                total
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench_build, bench_query);
criterion_main!(benches);
