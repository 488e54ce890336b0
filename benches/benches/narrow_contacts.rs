//! Discrete contact tests and ray casts of parapet-narrow, beside parry3d
//! 0.31's `query::contact` and `cast_ray_and_get_normal` on the same inputs.
//!
//! Run briefly: `cargo bench -p parapet-benches --bench narrow_contacts --
//! --warm-up-time 1 --measurement-time 3`.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use parapet_geometry::Shape;
use parapet_math::nalgebra::{Isometry3, Translation3, UnitQuaternion};
use parapet_math::Vec3;
use parapet_narrow::{contact, ray};
use parapet_tests::parry::{self as bridge, parry3d};
use parry3d::query::Ray;

fn pose(t: Vec3, axis: Vec3) -> contact::Pose {
    Isometry3::from_parts(
        Translation3::from(t),
        UnitQuaternion::from_scaled_axis(axis),
    )
}

fn hull_points() -> Vec<Vec3> {
    // A 20-point hull: two twisted decagons.
    (0..20)
        .map(|i| {
            let a = i as f32 * std::f32::consts::TAU / 10.0 + if i >= 10 { 0.3 } else { 0.0 };
            Vec3::new(
                0.5 * a.cos(),
                0.5 * a.sin(),
                if i >= 10 { 0.4 } else { -0.4 },
            )
        })
        .collect()
}

fn contacts(c: &mut Criterion) {
    let half = Vec3::new(0.5, 0.5, 0.5);
    let cube = Shape::cuboid(half).unwrap();
    let resting = (
        pose(Vec3::zeros(), Vec3::zeros()),
        pose(Vec3::new(0.1, 0.2, 0.99), Vec3::new(0.0, 0.0, 0.3)),
    );
    let h = std::f32::consts::FRAC_1_SQRT_2;
    let crossed = (
        pose(
            Vec3::zeros(),
            Vec3::new(std::f32::consts::FRAC_PI_4, 0.0, 0.0),
        ),
        pose(
            Vec3::new(0.1, -0.2, 2.0 * h - 0.01),
            Vec3::new(0.0, std::f32::consts::FRAC_PI_4, 0.0),
        ),
    );
    let parry_cube = parry3d::shape::Cuboid::new(bridge::to_parry(half));
    let to_parry = |p: &contact::Pose| bridge::pose_to_parry(p.translation.vector, p.rotation);

    let mut g = c.benchmark_group("contact");
    for (name, (a, b)) in [
        ("cuboid_cuboid_face", resting),
        ("cuboid_cuboid_edge", crossed),
    ] {
        g.bench_function(format!("parapet/{name}"), |bench| {
            bench.iter(|| contact::shapes(black_box(&cube), &a, &cube, &b, 0.02).unwrap())
        });
        let (pa, pb) = (to_parry(&a), to_parry(&b));
        g.bench_function(format!("parry3d/{name}"), |bench| {
            bench.iter(|| {
                parry3d::query::contact(black_box(&pa), &parry_cube, &pb, &parry_cube, 0.02)
                    .unwrap()
            })
        });
    }
    let hull = Shape::convex_hull(&hull_points()).unwrap();
    let Shape::ConvexHull(hh) = &hull else {
        unreachable!("built as a hull")
    };
    let pts: Vec<_> = hh.vertices().iter().map(|v| bridge::to_parry(*v)).collect();
    let parry_hull = parry3d::shape::ConvexPolyhedron::from_convex_hull(&pts).unwrap();
    let (a, b) = (
        pose(Vec3::zeros(), Vec3::zeros()),
        pose(Vec3::new(0.2, 0.1, 0.75), Vec3::new(0.4, 0.2, 0.1)),
    );
    g.bench_function("parapet/hull_hull", |bench| {
        bench.iter(|| contact::shapes(black_box(&hull), &a, &hull, &b, 0.02).unwrap())
    });
    let (pa, pb) = (to_parry(&a), to_parry(&b));
    g.bench_function("parry3d/hull_hull", |bench| {
        bench.iter(|| {
            parry3d::query::contact(black_box(&pa), &parry_hull, &pb, &parry_hull, 0.02).unwrap()
        })
    });
    let sphere = Shape::sphere(0.5).unwrap();
    let capsule = Shape::capsule(0.3, 0.5).unwrap();
    let tri = [
        Vec3::new(-5.0, -5.0, 0.0),
        Vec3::new(5.0, -5.0, 0.0),
        Vec3::new(0.0, 5.0, 0.0),
    ];
    for (name, shape) in [
        ("sphere", &sphere),
        ("capsule", &capsule),
        ("cuboid", &cube),
        ("hull", &hull),
    ] {
        let p = pose(Vec3::new(0.1, 0.2, 0.45), Vec3::new(0.0, 1.5, 0.0));
        g.bench_function(format!("parapet/{name}_triangle"), |bench| {
            bench.iter(|| contact::shape_triangle(black_box(shape), &p, &tri, 0.02).unwrap())
        });
    }
    g.finish();
}

fn rays(c: &mut Criterion) {
    let mut g = c.benchmark_group("ray");
    let p = pose(Vec3::new(0.0, 0.0, 0.0), Vec3::new(0.3, 0.2, 0.1));
    let origin = Vec3::new(0.1, 0.2, 5.0);
    let dir = -Vec3::z();
    let hull = Shape::convex_hull(&hull_points()).unwrap();
    let Shape::ConvexHull(hh) = &hull else {
        unreachable!("built as a hull")
    };
    let pts: Vec<_> = hh.vertices().iter().map(|v| bridge::to_parry(*v)).collect();
    let cases: Vec<(&str, Shape, Box<dyn parry3d::shape::Shape>)> = vec![
        (
            "sphere",
            Shape::sphere(0.5).unwrap(),
            Box::new(parry3d::shape::Ball::new(0.5)),
        ),
        (
            "capsule",
            Shape::capsule(0.3, 0.5).unwrap(),
            Box::new(parry3d::shape::Capsule::new_z(0.5, 0.3)),
        ),
        (
            "cuboid",
            Shape::cuboid(Vec3::new(0.5, 0.4, 0.3)).unwrap(),
            Box::new(parry3d::shape::Cuboid::new(bridge::to_parry(Vec3::new(
                0.5, 0.4, 0.3,
            )))),
        ),
        (
            "hull",
            hull.clone(),
            Box::new(parry3d::shape::ConvexPolyhedron::from_convex_hull(&pts).unwrap()),
        ),
    ];
    let pp = bridge::pose_to_parry(p.translation.vector, p.rotation);
    let r = Ray::new(bridge::to_parry(origin), bridge::to_parry(dir));
    for (name, ours, theirs) in &cases {
        g.bench_function(format!("parapet/{name}"), |bench| {
            bench.iter(|| ray::cast_shape(black_box(ours), &p, origin, dir, 10.0).unwrap())
        });
        g.bench_function(format!("parry3d/{name}"), |bench| {
            bench.iter(|| theirs.cast_ray_and_get_normal(black_box(&pp), &r, 10.0, true))
        });
    }
    g.finish();
}

criterion_group!(benches, contacts, rays);
criterion_main!(benches);
