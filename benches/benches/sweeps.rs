//! Sweeps per second: parapet's analytic sweeps (sphere, capsule, box and
//! convex hull against one triangle, and a sphere against a 2,048-triangle
//! terrain by brute force with bounds rejection) against parry3d 0.31's
//! `cast_shapes` on the same queries (parry's `TriMesh` uses its BVH).
//!
//! Each benchmark sweeps a fixed set of 256 deterministic queries, a mix of
//! hits, grazes and misses aimed at the triangle; throughput is reported in
//! queries per second.
//!
//! The groups `sweep_box_patch_prepared` and `sweep_hull_patch_prepared`
//! measure boxes and hulls as the world uses them: each of the 256 queries
//! (one body's pose and velocity) is swept against the 8 triangles of a small
//! terrain patch, so throughput there counts body-triangle sweeps (2,048 per
//! iteration). `parapet_prepared` builds one `SolidSweep` per body and sweeps
//! it against the 8 triangles; `parapet_per_call` calls
//! `sweep_solid_triangle` for each pair (the same results, bit for bit);
//! `parry3d` calls `cast_shapes` for each pair. Run briefly with
//! `cargo bench -p parapet-benches --bench sweeps -- --warm-up-time 1 --measurement-time 3`.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use parapet_geometry::bvh::TriangleBoundsTree;
use parapet_math::{Quat, Vec3};
use parapet_narrow::solid::ConvexSolid;
use parapet_narrow::sweep::{
    sweep_capsule_triangle, sweep_solid_triangle, sweep_sphere_triangle, sweep_sphere_triangles,
    sweep_sphere_triangles_indexed, Placement, SolidSweep,
};
use parapet_scenes::prng::SplitMix64;
use parapet_tests::parry::{parry3d, pose_to_parry, to_parry};
use parry3d::query::{cast_shapes, ShapeCastOptions};
use parry3d::shape::{Ball, Capsule, ConvexPolyhedron, Cuboid, Shape, TriMesh, Triangle};

const QUERIES: usize = 256;
const DT: f32 = 1.0 / 60.0;

/// A uniform `f32` in `[lo, hi)` in `f32` arithmetic from the top 24 bits
/// of the one generator (the queries' draw).
fn range(rng: &mut SplitMix64, lo: f32, hi: f32) -> f32 {
    lo + (hi - lo) * rng.next_unit_f32()
}

/// One query: a start position above a unit-scale triangle and a velocity
/// aimed at a point within or near it.
struct Query {
    start: Vec3,
    velocity: Vec3,
}

fn triangle() -> [Vec3; 3] {
    [
        Vec3::new(-1.0, -1.0, 0.0),
        Vec3::new(1.5, -0.8, 0.2),
        Vec3::new(-0.2, 1.3, -0.1),
    ]
}

fn queries(seed: u64) -> Vec<Query> {
    let mut rng = SplitMix64::new(seed);
    (0..QUERIES)
        .map(|_| {
            let start = Vec3::new(
                range(&mut rng, -2.0, 2.0),
                range(&mut rng, -2.0, 2.0),
                range(&mut rng, 0.3, 2.5),
            );
            let target = Vec3::new(
                range(&mut rng, -1.8, 1.8),
                range(&mut rng, -1.8, 1.8),
                range(&mut rng, -0.3, 0.1),
            );
            Query {
                start,
                velocity: (target - start) * (range(&mut rng, 0.4, 1.6) / DT),
            }
        })
        .collect()
}

fn parry_triangle(t: &[Vec3; 3]) -> Triangle {
    Triangle::new(to_parry(t[0]), to_parry(t[1]), to_parry(t[2]))
}

fn parry_cast(
    pos: Vec3,
    rot: Quat,
    disp: Vec3,
    shape: &dyn Shape,
    fixed: &dyn Shape,
) -> Option<f32> {
    let identity = pose_to_parry(Vec3::zeros(), Quat::identity());
    cast_shapes(
        &pose_to_parry(pos, rot),
        to_parry(disp),
        shape,
        &identity,
        to_parry(Vec3::zeros()),
        fixed,
        ShapeCastOptions::with_max_time_of_impact(1.0),
    )
    .ok()
    .flatten()
    .map(|h| h.time_of_impact)
}

fn sphere(c: &mut Criterion) {
    let tri = triangle();
    let qs = queries(1);
    let r = 0.25f32;
    let mut g = c.benchmark_group("sweep_sphere_triangle");
    g.throughput(Throughput::Elements(QUERIES as u64));
    g.bench_function("parapet", |b| {
        b.iter(|| {
            for q in &qs {
                black_box(sweep_sphere_triangle(
                    black_box(q.start),
                    r,
                    q.velocity,
                    DT,
                    &tri,
                ));
            }
        })
    });
    let (ball, ptri) = (Ball::new(r), parry_triangle(&tri));
    g.bench_function("parry3d", |b| {
        b.iter(|| {
            for q in &qs {
                black_box(parry_cast(
                    black_box(q.start),
                    Quat::identity(),
                    q.velocity * DT,
                    &ball,
                    &ptri,
                ));
            }
        })
    });
    g.finish();
}

fn capsule(c: &mut Criterion) {
    let tri = triangle();
    let qs = queries(2);
    let (r, half) = (0.15f32, Vec3::new(0.3, 0.1, 0.35));
    let mut g = c.benchmark_group("sweep_capsule_triangle");
    g.throughput(Throughput::Elements(QUERIES as u64));
    g.bench_function("parapet", |b| {
        b.iter(|| {
            for q in &qs {
                black_box(sweep_capsule_triangle(
                    black_box(q.start - half),
                    q.start + half,
                    r,
                    q.velocity,
                    DT,
                    &tri,
                ));
            }
        })
    });
    let ptri = parry_triangle(&tri);
    g.bench_function("parry3d", |b| {
        b.iter(|| {
            for q in &qs {
                let cap = Capsule::new(to_parry(q.start - half), to_parry(q.start + half), r);
                black_box(parry_cast(
                    Vec3::zeros(),
                    Quat::identity(),
                    q.velocity * DT,
                    &cap,
                    &ptri,
                ));
            }
        })
    });
    g.finish();
}

fn solids(c: &mut Criterion) {
    let qs = queries(3);
    let rot = Quat::from_euler_angles(0.3, -0.2, 0.7);
    let h = Vec3::new(0.3, 0.2, 0.25);
    let boxed = ConvexSolid::from_cuboid(h).unwrap();
    let cuboid = Cuboid::new(to_parry(h));
    solid_one_triangle(c, "sweep_box_triangle", &boxed, &cuboid, rot, &qs);

    // A 12-vertex hull (an icosahedron scaled unevenly).
    let p = 1.618_034f32;
    let pts: Vec<parry3d::math::Vector> = [
        (-1.0, p, 0.0),
        (1.0, p, 0.0),
        (-1.0, -p, 0.0),
        (1.0, -p, 0.0),
        (0.0, -1.0, p),
        (0.0, 1.0, p),
        (0.0, -1.0, -p),
        (0.0, 1.0, -p),
        (p, 0.0, -1.0),
        (p, 0.0, 1.0),
        (-p, 0.0, -1.0),
        (-p, 0.0, 1.0),
    ]
    .iter()
    .map(|&(x, y, z)| parry3d::math::Vector::new(0.2 * x, 0.15 * y, 0.1 * z))
    .collect();
    let (hv, hf) = parry3d::transformation::convex_hull(&pts);
    let verts: Vec<Vec3> = hv.iter().map(|v| Vec3::new(v.x, v.y, v.z)).collect();
    let hull = ConvexSolid::from_points(&verts, &hf).unwrap();
    let phull = ConvexPolyhedron::from_convex_hull(&hv).unwrap();
    solid_one_triangle(c, "sweep_hull_triangle", &hull, &phull, rot, &qs);

    solid_patch(c, "sweep_box_patch_prepared", &boxed, &cuboid, rot, &qs);
    solid_patch(c, "sweep_hull_patch_prepared", &hull, &phull, rot, &qs);
}

/// The 8 triangles of a 2 x 2-cell terrain patch over [-2, 2] x [-2, 2]
/// with uneven heights, front faces up.
fn patch() -> Vec<[Vec3; 3]> {
    let h = |i: usize, j: usize| 0.15 * ((3 * i + 5 * j) % 4) as f32 - 0.2;
    let p = |i: usize, j: usize| Vec3::new(2.0 * i as f32 - 2.0, 2.0 * j as f32 - 2.0, h(i, j));
    let mut tris = Vec::new();
    for j in 0..2 {
        for i in 0..2 {
            tris.push([p(i, j), p(i + 1, j), p(i + 1, j + 1)]);
            tris.push([p(i, j), p(i + 1, j + 1), p(i, j + 1)]);
        }
    }
    tris
}

/// One solid (`ours`, `theirs`) swept per query against one triangle:
/// parapet's per-call `sweep_solid_triangle` against parry3d.
fn solid_one_triangle(
    c: &mut Criterion,
    group: &str,
    ours: &ConvexSolid,
    theirs: &dyn Shape,
    rot: Quat,
    qs: &[Query],
) {
    let tri = triangle();
    let ptri = parry_triangle(&tri);
    let mut g = c.benchmark_group(group);
    g.throughput(Throughput::Elements(qs.len() as u64));
    g.bench_function("parapet", |b| {
        b.iter(|| {
            for q in qs {
                black_box(sweep_solid_triangle(
                    ours,
                    &Placement::at(black_box(q.start), rot),
                    q.velocity,
                    DT,
                    &tri,
                ));
            }
        })
    });
    g.bench_function("parry3d", |b| {
        b.iter(|| {
            for q in qs {
                black_box(parry_cast(
                    black_box(q.start),
                    rot,
                    q.velocity * DT,
                    theirs,
                    &ptri,
                ));
            }
        })
    });
    g.finish();
}

/// One solid (`ours`, `theirs`) swept per query against every triangle of
/// the patch: prepared once per body, per call, and parry3d.
fn solid_patch(
    c: &mut Criterion,
    group: &str,
    ours: &ConvexSolid,
    theirs: &dyn Shape,
    rot: Quat,
    qs: &[Query],
) {
    let tris = patch();
    let ptris: Vec<Triangle> = tris.iter().map(parry_triangle).collect();
    let mut g = c.benchmark_group(group);
    g.throughput(Throughput::Elements((qs.len() * tris.len()) as u64));
    g.bench_function("parapet_prepared", |b| {
        b.iter(|| {
            for q in qs {
                let place = Placement::at(black_box(q.start), rot);
                match SolidSweep::new(ours, &place, q.velocity, DT) {
                    Ok(sweep) => {
                        for t in &tris {
                            black_box(sweep.triangle(black_box(t)));
                        }
                    }
                    Err(e) => {
                        black_box(e);
                    }
                }
            }
        })
    });
    g.bench_function("parapet_per_call", |b| {
        b.iter(|| {
            for q in qs {
                let place = Placement::at(black_box(q.start), rot);
                for t in &tris {
                    black_box(sweep_solid_triangle(
                        ours,
                        &place,
                        q.velocity,
                        DT,
                        black_box(t),
                    ));
                }
            }
        })
    });
    g.bench_function("parry3d", |b| {
        b.iter(|| {
            for q in qs {
                for t in &ptris {
                    black_box(parry_cast(
                        black_box(q.start),
                        rot,
                        q.velocity * DT,
                        theirs,
                        black_box(t),
                    ));
                }
            }
        })
    });
    g.finish();
}

fn terrain(c: &mut Criterion) {
    // 32 x 32 cells, two triangles each: 2,048 triangles over 16 m x 16 m.
    let n = 32u32;
    let mut vertices = Vec::new();
    for j in 0..=n {
        for i in 0..=n {
            let (x, y) = (i as f32 * 0.5 - 8.0, j as f32 * 0.5 - 8.0);
            vertices.push(Vec3::new(x, y, 0.3 * (0.7 * x).sin() * (0.5 * y).cos()));
        }
    }
    let mut indices = Vec::new();
    for j in 0..n {
        for i in 0..n {
            let a = j * (n + 1) + i;
            indices.push([a, a + 1, a + n + 2]);
            indices.push([a, a + n + 2, a + n + 1]);
        }
    }
    assert_eq!(indices.len(), 2048);
    let tris: Vec<[Vec3; 3]> = indices
        .iter()
        .map(|t| t.map(|k| vertices[k as usize]))
        .collect();
    let mesh = TriMesh::new(vertices.iter().map(|v| to_parry(*v)).collect(), indices).unwrap();
    let mut rng = SplitMix64::new(4);
    let qs: Vec<Query> = (0..QUERIES)
        .map(|_| {
            let start = Vec3::new(
                range(&mut rng, -7.0, 7.0),
                range(&mut rng, -7.0, 7.0),
                range(&mut rng, 0.8, 2.0),
            );
            let target = start
                + Vec3::new(
                    range(&mut rng, -0.5, 0.5),
                    range(&mut rng, -0.5, 0.5),
                    -range(&mut rng, 0.5, 2.5),
                );
            Query {
                start,
                velocity: (target - start) / DT,
            }
        })
        .collect();
    let r = 0.2f32;
    let ball = Ball::new(r);
    let mut g = c.benchmark_group("sweep_sphere_terrain_2048");
    g.throughput(Throughput::Elements(QUERIES as u64));
    g.bench_function("parapet_brute_force", |b| {
        b.iter(|| {
            for q in &qs {
                black_box(sweep_sphere_triangles(
                    black_box(q.start),
                    r,
                    q.velocity,
                    DT,
                    &tris,
                ));
            }
        })
    });
    // The world's path: the triangles' bounds tree, built once outside the
    // timing (as parry3d's `TriMesh` builds its BVH once), then the sweep of
    // the tree's candidates; the outcome equals the brute force bit for bit
    // (tests/tests/sweep_indexed.rs).
    let tree = TriangleBoundsTree::build(&tris).unwrap();
    g.bench_function("parapet_bounds_tree", |b| {
        b.iter(|| {
            for q in &qs {
                black_box(sweep_sphere_triangles_indexed(
                    black_box(q.start),
                    r,
                    q.velocity,
                    DT,
                    &tris,
                    &tree,
                ));
            }
        })
    });
    g.bench_function("parry3d_trimesh", |b| {
        b.iter(|| {
            for q in &qs {
                black_box(parry_cast(
                    black_box(q.start),
                    Quat::identity(),
                    q.velocity * DT,
                    &ball,
                    &mesh,
                ));
            }
        })
    });
    g.finish();
}

criterion_group!(benches, sphere, capsule, solids, terrain);
criterion_main!(benches);
