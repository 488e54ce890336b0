//! Times of impact per second: parapet's arbiter against parry3d 0.31 on
//! every convex pair both libraries have (`parapet_benches::toi`), one
//! group per pair and motion: `toi_translating/<pair>` against
//! `cast_shapes`, `toi_turning/<pair>` against `cast_shapes_nonlinear`.
//! Each iteration answers 128 fixed queries. `parapet` is the arbiter on
//! shapes prepared once (as the world calls it), `parapet_public` the
//! facade's `time_of_impact` (shapes converted per call), `parry3d` parry
//! on shapes built once.
//!
//! Outside the timing, the bench records for each group how many of
//! parapet's answers are later than parry's (by more than 1e-6 s) and the
//! latest of them (`later`, `latest_ms`), for the report's section.
//! Run briefly with
//! `cargo bench -p parapet-benches --bench toi -- --warm-up-time 1 --measurement-time 3`.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use parapet_benches::checks::record;
use parapet_benches::toi::{parapet, parapet_public, parry, queries, shape, PAIRS, QUERIES};

fn bench(c: &mut Criterion) {
    for (k, (name, ka, kb)) in PAIRS.iter().enumerate() {
        let (a, b) = (shape(*ka), shape(*kb));
        for turning in [false, true] {
            let group_name = format!("toi_{}", if turning { "turning" } else { "translating" });
            let qs = queries(0x27 + k as u64, turning);
            let (ours, theirs) = (parapet(&a, &b, &qs), parry(&a, &b, &qs));
            let later: Vec<f32> = ours
                .iter()
                .zip(&theirs)
                .map(|(o, t)| o - t)
                .filter(|d| *d > 1e-6)
                .collect();
            let case = format!("{group_name}/{name}");
            record("toi", &case, "later", later.len());
            record(
                "toi",
                &case,
                "latest_ms",
                later.iter().fold(0.0f32, |m, d| m.max(*d)) * 1e3,
            );
            let mut g = c.benchmark_group(format!("{group_name}/{name}"));
            g.throughput(Throughput::Elements(QUERIES as u64));
            g.bench_function("parapet", |bn| bn.iter(|| black_box(parapet(&a, &b, &qs))));
            g.bench_function("parapet_public", |bn| {
                bn.iter(|| black_box(parapet_public(&a, &b, &qs)))
            });
            g.bench_function("parry3d", |bn| bn.iter(|| black_box(parry(&a, &b, &qs))));
            g.finish();
        }
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
