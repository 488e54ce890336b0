//! Turning boxes on a vehicle terrain: one step of 16 and 64 turning boxes
//! (`parapet_scenes::bench_vehicles`: 0.5 x 0.3 x 0.2 m half extents,
//! sliding, rolling and resting on the 8,192 triangles of the vehicle
//! scenes' rough terrain after a second of warm-up) in SPHERE_MESH_CCD and
//! in DISCRETE. Each iteration steps a clone of the prepared world (the
//! clone is outside the timing); outside the timing, the step is checked
//! to succeed. The sub-steps per body per step are printed by the example
//! `vehicle_profile`, which also serves callgrind.
//!
//! Run briefly: `cargo bench -p parapet-benches --bench ccd_vehicles --
//! --warm-up-time 1 --measurement-time 3`.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use parapet::prelude::*;
use parapet_scenes::bench_vehicles::{vehicle_world, DT};

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("ccd_vehicles");
    group.sample_size(10);
    for bodies in [16, 64] {
        for (name, mode) in [("discrete", DISCRETE), ("ccd", SPHERE_MESH_CCD)] {
            let w = vehicle_world(bodies, mode).expect("the vehicle bench world builds");
            // Outside the timing: the step succeeds.
            w.clone().step(DT).expect("the vehicle bench step succeeds");
            group.bench_function(format!("{bodies}_boxes_{name}"), |b| {
                b.iter_batched_ref(
                    || w.clone(),
                    |w| black_box(w.step(DT)),
                    BatchSize::LargeInput,
                )
            });
        }
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
