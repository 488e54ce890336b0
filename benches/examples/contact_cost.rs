//! The cost of one box-triangle contact test, parapet beside parry3d, on
//! the tests a world step makes: crates (boxes of 0.3 to 0.6 m half
//! extents, at random orientations) lying on an 8,192-triangle terrain,
//! each tested against every terrain triangle its bounds (grown by the
//! contact margin) overlap, as the contact stage's triangle index gives
//! them. parapet places each box once ([`PlacedShape`], as a world step
//! does once per body) and tests its triangles with
//! [`PlacedShape::triangle`]; parry3d tests the same pairs with its
//! `query::contact` (prediction = the margin).
//!
//! `cargo run --release -p parapet-benches --example contact_cost --
//! <parapet|parry> <rounds>` under
//! `valgrind --tool=callgrind --toggle-collect='contact_cost::run_*'`:
//! instructions per test = the toggled total / (tests x rounds), the tests
//! printed. Also prints how many tests found a contact in each engine.

use parapet::prelude::*;
use parapet_geometry::ActiveEdges;
use parapet_math::nalgebra::{Isometry3, Translation3, UnitQuaternion};
use parapet_narrow::contact::{ContactScratch, PlacedShape};
use parapet_scenes::bench_ccd::bench_terrain;
use parapet_scenes::prng::SplitMix64;
use parapet_tests::parry::{self as bridge, parry3d};

/// The contact margin of the tests (m): the world's.
const MARGIN: f32 = 0.02;

/// Boxes lying on the terrain.
const BOXES: usize = 64;

/// One box and the terrain triangles its grown bounds overlap.
struct Case {
    half: Vec3,
    pose: Isometry3<f32>,
    triangles: Vec<[Vec3; 3]>,
}

/// The boxes: each over a random point of the terrain's middle, turned at
/// random, lowered until its lowest corner is 1 cm below the terrain
/// height under its centre.
fn cases() -> Vec<Case> {
    let field = bench_terrain(8192);
    let (vertices, indices) = field.triangles();
    let triangles: Vec<[Vec3; 3]> = indices
        .iter()
        .map(|t| t.map(|i| vertices[i as usize]))
        .collect();
    let span = field.cell * field.nx as f64;
    let mut rng = SplitMix64::new(29);
    (0..BOXES)
        .map(|_| {
            let half = Vec3::new(
                rng.range_f32(0.3, 0.6),
                rng.range_f32(0.3, 0.6),
                rng.range_f32(0.3, 0.6),
            );
            let x = field.origin[0] + span * rng.range(0.2, 0.8);
            let y = field.origin[1] + span * rng.range(0.2, 0.8);
            let axis = Vec3::new(
                rng.range_f32(-1.0, 1.0),
                rng.range_f32(-1.0, 1.0),
                rng.range_f32(-1.0, 1.0),
            );
            let rotation = UnitQuaternion::from_scaled_axis(axis * 1.5);
            let low = (0..8)
                .map(|i| {
                    let s = |bit: usize| if i & bit == 0 { -1.0 } else { 1.0 };
                    -(rotation * Vec3::new(s(1) * half.x, s(2) * half.y, s(4) * half.z)).z
                })
                .fold(f32::MIN, f32::max);
            let ground = field.height_at(x, y).unwrap_or(0.0) as f32;
            let centre = Vec3::new(x as f32, y as f32, ground + low - 0.01);
            let pose = Isometry3::from_parts(Translation3::from(centre), rotation);
            let reach = half.norm() + MARGIN;
            let near = |t: &[Vec3; 3]| {
                (0..3).all(|k| {
                    let lo = t.iter().map(|v| v[k]).fold(f32::MAX, f32::min);
                    let hi = t.iter().map(|v| v[k]).fold(f32::MIN, f32::max);
                    lo <= centre[k] + reach && hi >= centre[k] - reach
                })
            };
            Case {
                half,
                pose,
                triangles: triangles.iter().filter(|t| near(t)).copied().collect(),
            }
        })
        .collect()
}

/// parapet: every case's box placed once, then tested against its
/// triangles. Returns the tests that found a contact.
#[inline(never)]
fn run_parapet(cases: &[Case], scratch: &mut ContactScratch) -> usize {
    let mut found = 0;
    for c in cases {
        let shape = Shape::cuboid(c.half).expect("a valid box");
        let placed = PlacedShape::new(&shape, &c.pose).expect("a finite pose");
        for t in &c.triangles {
            let m = placed.triangle(t, ActiveEdges::ALL, MARGIN, scratch);
            found += usize::from(!std::hint::black_box(m).is_empty());
        }
    }
    found
}

/// parry3d: the same pairs with `query::contact`.
#[inline(never)]
fn run_parry(cases: &[Case]) -> usize {
    let mut found = 0;
    for c in cases {
        let cube = parry3d::shape::Cuboid::new(bridge::to_parry(c.half));
        let pose = bridge::pose_to_parry(c.pose.translation.vector, c.pose.rotation);
        for t in &c.triangles {
            let tri = parry3d::shape::Triangle::new(
                bridge::to_parry(t[0]),
                bridge::to_parry(t[1]),
                bridge::to_parry(t[2]),
            );
            let hit =
                parry3d::query::contact(&pose, &cube, &parry3d::math::Pose::IDENTITY, &tri, MARGIN)
                    .expect("a supported pair");
            found += usize::from(std::hint::black_box(hit).is_some());
        }
    }
    found
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let usage = || -> ! {
        eprintln!("usage: contact_cost <parapet|parry> <rounds>");
        std::process::exit(2);
    };
    if args.len() != 3 {
        usage();
    }
    let rounds: usize = args[2].parse().unwrap_or_else(|_| usage());
    let cases = cases();
    let tests: usize = cases.iter().map(|c| c.triangles.len()).sum();
    let mut scratch = ContactScratch::new();
    let mut found = 0;
    for _ in 0..rounds {
        found = match args[1].as_str() {
            "parapet" => run_parapet(&cases, &mut scratch),
            "parry" => run_parry(&cases),
            _ => usage(),
        };
    }
    println!(
        "{} box-triangle tests per round ({BOXES} boxes), {rounds} rounds; {found} found a contact",
        tests
    );
}
