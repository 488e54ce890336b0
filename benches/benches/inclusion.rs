//! Inclusion CCD throughput: the 7,279 handcrafted sample queries (Wang et
//! al. 2021) and random near-miss queries, serial and batched (rayon), and the
//! effect of the tolerance delta (1e-3 .. 1e-8) on time. Before timing, it
//! prints, per delta, the false negatives, false positives and the mean and
//! worst iteration counts (deterministic, not timings).
//!
//! Run: `cargo bench -p parapet-benches --bench inclusion -- --warm-up-time 1 --measurement-time 3`

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use parapet_inclusion::{
    edge_edge_toi, toi_batch, vertex_face_toi, CcdQuery, InclusionConfig, InclusionToi,
    VertexFaceQuery,
};
use parapet_scenes::prng::SplitMix64;
use parapet_tests::ccd_queries::{load_all, SampleQuery};

const DELTAS: [f64; 6] = [1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8];

fn run_one(query: &CcdQuery, config: &InclusionConfig) -> InclusionToi {
    match query {
        CcdQuery::VertexFace(q) => vertex_face_toi(q, config),
        CcdQuery::EdgeEdge(q) => edge_edge_toi(q, config),
    }
    .expect("valid sample query")
}

/// Random near-miss vertex-face queries: a unit triangle, the vertex falling
/// through the plane just outside an edge (gap 1e-4 .. 1e-2 of the size).
fn near_misses(count: usize) -> Vec<CcdQuery> {
    let mut rng = SplitMix64::new(0x5EED);
    let mut next = move || rng.next_unit();
    (0..count)
        .map(|_| {
            let along = next();
            let gap = 1e-4 * 100f64.powf(next());
            // Outside the hypotenuse u + v = 1 by `gap`.
            let (x, y) = (along + gap, 1.0 - along + gap);
            let z = 0.5 + next();
            let drift = next() * 0.1;
            CcdQuery::VertexFace(VertexFaceQuery::from_points([
                [x, y, z],
                [0.0, 0.0, 0.0],
                [1.0, 0.0, 0.0],
                [0.0, 1.0, 0.0],
                [x + drift, y + drift, -z],
                [drift, 0.0, 0.0],
                [1.0 + drift, 0.0, 0.0],
                [drift, 1.0, 0.0],
            ]))
        })
        .collect()
}

fn print_delta_table(samples: &[SampleQuery], queries: &[CcdQuery]) {
    println!("delta,false_negatives,false_positives,capped,mean_iterations,worst_iterations");
    for delta in DELTAS {
        let config = InclusionConfig {
            tolerance: delta,
            ..InclusionConfig::default()
        };
        let results = toi_batch(queries, &config).expect("valid config");
        let (mut fnn, mut fp, mut capped, mut total, mut worst) = (0, 0, 0, 0u64, 0u64);
        for (s, r) in samples.iter().zip(&results) {
            let r = r.as_ref().expect("valid sample query");
            fnn += usize::from(s.truth && !r.is_hit());
            fp += usize::from(!s.truth && r.is_hit());
            capped += usize::from(r.status == parapet_inclusion::InclusionStatus::IterationLimit);
            total += r.iterations;
            worst = worst.max(r.iterations);
        }
        println!(
            "{delta:e},{fnn},{fp},{capped},{:.1},{worst}",
            total as f64 / samples.len() as f64
        );
    }
}

fn bench_inclusion(c: &mut Criterion) {
    let samples = load_all().expect("ccd-sample-queries must be present");
    let queries: Vec<CcdQuery> = samples.iter().map(SampleQuery::to_ccd_query).collect();
    print_delta_table(&samples, &queries);
    let misses = near_misses(2000);
    let default = InclusionConfig::default();

    let mut group = c.benchmark_group("inclusion");
    group.throughput(Throughput::Elements(queries.len() as u64));
    group.bench_function("sample_queries_serial", |b| {
        b.iter(|| {
            for q in &queries {
                black_box(run_one(black_box(q), &default));
            }
        })
    });
    group.bench_function("sample_queries_batch", |b| {
        b.iter(|| black_box(toi_batch(black_box(&queries), &default)))
    });
    for delta in DELTAS {
        let config = InclusionConfig {
            tolerance: delta,
            ..InclusionConfig::default()
        };
        group.bench_with_input(
            BenchmarkId::new("sample_queries_delta", format!("{delta:e}")),
            &config,
            |b, config| {
                b.iter(|| {
                    for q in &queries {
                        black_box(run_one(black_box(q), config));
                    }
                })
            },
        );
    }
    group.throughput(Throughput::Elements(misses.len() as u64));
    group.bench_function("random_near_misses_serial", |b| {
        b.iter(|| {
            for q in &misses {
                black_box(run_one(black_box(q), &default));
            }
        })
    });
    group.finish();

    let results: Vec<_> = misses.iter().map(|q| run_one(q, &default)).collect();
    let total: u64 = results.iter().map(|r| r.iterations).sum();
    let worst = results.iter().map(|r| r.iterations).max().unwrap_or(0);
    let hits = results.iter().filter(|r| r.is_hit()).count();
    println!(
        "random near misses: {} queries, {hits} reported hits, mean iterations {:.1}, worst {worst}",
        misses.len(),
        total as f64 / misses.len() as f64
    );
}

criterion_group!(benches, bench_inclusion);
criterion_main!(benches);
