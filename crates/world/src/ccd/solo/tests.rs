//! Unit tests of the sweep of a body alone ([`super`]): the fast path of
//! [`super::clear_miss`] against the exact sweep of every candidate, bit for
//! bit, and the loop's refusals.

use super::clear_miss::{PATH_MARGIN_RADII, REJECT_MARGIN};
use super::*;
use crate::ccd::reach::dynamic_reach;
use crate::ccd::support::classify;
use parapet_geometry::bvh::Bounds;
use parapet_geometry::bvh::{BoundsQuery, TriangleBoundsTree};
use parapet_geometry::Shape;
use parapet_geometry::{ActiveEdges, Material};
use parapet_narrow::sweep::{MAX_COORDINATE, MAX_COORDINATE_RADII, MAX_REACH_RADII};

fn floor() -> Vec<[Vec3; 3]> {
    vec![
        [
            Vec3::new(-5.0, -5.0, 0.0),
            Vec3::new(5.0, -5.0, 0.0),
            Vec3::new(5.0, 5.0, 0.0),
        ],
        [
            Vec3::new(-5.0, -5.0, 0.0),
            Vec3::new(5.0, 5.0, 0.0),
            Vec3::new(-5.0, 5.0, 0.0),
        ],
    ]
}

fn run(
    body: &RigidBody,
    tris: &[[Vec3; 3]],
    dt: f32,
    max_impacts: u32,
) -> Result<SoloOutcome, CcdError> {
    let tree = TriangleBoundsTree::build(tris).unwrap();
    let material = |_: usize| Some(Material::default());
    let mesh = MeshView {
        triangles: tris,
        tree: &tree,
        material: &material,
        edges: &|_| ActiveEdges::ALL,
    };
    let shape = SweptShape::Sphere { radius: 0.1 };
    let e = crate::ccd::reach::bound_energy(body);
    let reach = dynamic_reach(promote(body.position()), 0.1, e, 1.0, Vec3::zeros(), dt);
    sweep_alone(
        &SoloInput {
            index: 7,
            body,
            shape: &shape,
            reach,
            dt,
            max_impacts,
        },
        &mesh,
    )
}

fn sphere(z: f32, vz: f32) -> RigidBody {
    RigidBody::new_dynamic(Shape::sphere(0.1).unwrap(), 1.0)
        .unwrap()
        .with_material(Material {
            friction: 0.0,
            restitution: 1.0,
            bounce_threshold: 0.5,
        })
        .with_position(Vec3::new(0.3, 0.2, z))
        .with_linear_velocity(Vec3::new(0.0, 0.0, vz))
}

#[test]
fn an_elastic_sphere_rebounds_from_the_floor_within_the_step() {
    // Impact after 0.05 m of 0.3 m: at 1/6 of the step, then 0.25 m up.
    let out = run(&sphere(0.15, -30.0), &floor(), 0.01, 16).unwrap();
    let m = out.motion.unwrap();
    assert!((m.position.z - 0.35).abs() < 1e-6, "{}", m.position.z);
    assert_eq!(m.linear_velocity, Vec3::new(0.0, 0.0, 30.0));
    assert_eq!(out.impacts.len(), 1);
    let i = out.impacts[0];
    assert_eq!((i.body, i.triangle), (7, 0));
    assert!((i.time - 1.0 / 6.0).abs() < 1e-6);
    assert!((i.impulse.z - 60.0).abs() < 1e-4);
}

#[test]
fn a_body_without_impact_is_left_to_the_integrator() {
    let out = run(&sphere(2.0, -30.0), &floor(), 0.01, 16).unwrap();
    assert_eq!(out, SoloOutcome::default());
}

#[test]
fn one_impact_too_many_is_an_error_naming_the_body() {
    let e = run(&sphere(0.15, -30.0), &floor(), 0.01, 0).unwrap_err();
    assert_eq!(
        e,
        CcdError::ImpactLimit {
            body: 7,
            impacts: 0,
            limit: 0
        }
    );
}

/// SplitMix64 (Steele et al. 2014): a seeded stream for the random cases.
struct Mix(u64);

impl Mix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `[lo, hi)`.
    fn uniform(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }

    fn unit(&mut self) -> Vec3d {
        loop {
            let v = Vec3d::new(
                self.uniform(-1.0, 1.0),
                self.uniform(-1.0, 1.0),
                self.uniform(-1.0, 1.0),
            );
            let n = v.norm();
            if n > 0.1 && n <= 1.0 {
                return v / n;
            }
        }
    }

    fn pick(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// A gap (in radii) beyond contact: mostly near tangency on both sides
/// of the reject margin, some clearly apart, some overlapping.
fn gap(rng: &mut Mix) -> f64 {
    match rng.pick(4) {
        0 => REJECT_MARGIN * rng.uniform(-4.0, 4.0),
        1 => 1e-6 * rng.uniform(-4.0, 4.0),
        2 => rng.uniform(-1.5, 0.2),
        _ => rng.uniform(0.0, 3.0),
    }
}

/// Cases of the randomized reject tests: 100,000, or
/// `PARAPET_REJECT_CASES`.
fn reject_cases() -> u64 {
    std::env::var("PARAPET_REJECT_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(100_000)
}

/// A random start for `shape`: its centre within 10 scales of the origin,
/// the scale 1, 100 or 3000 radii (within the sweeps' coordinate limit of
/// 65536 radii: the moving shape's own checks are the first candidate's,
/// not the tests').
fn random_start(rng: &mut Mix, shape: &SweptShape) -> Vec3 {
    let scale = shape.limit_radius() * [1.0, 100.0, 3000.0][rng.pick(3) as usize];
    let center = Vec3d::new(
        rng.uniform(-10.0, 10.0),
        rng.uniform(-10.0, 10.0),
        rng.uniform(-10.0, 10.0),
    ) * scale;
    center.map(|x| x as f32)
}

fn random_shape(rng: &mut Mix) -> (SweptShape, Quat) {
    let r = rng.uniform(0.01, 2.0) as f32;
    let rotation = Quat::from_euler_angles(
        rng.uniform(-3.0, 3.0) as f32,
        rng.uniform(-3.0, 3.0) as f32,
        rng.uniform(-3.0, 3.0) as f32,
    );
    let shape = match rng.pick(3) {
        0 => SweptShape::Sphere { radius: r },
        1 => SweptShape::Capsule {
            radius: r,
            half_height: r * rng.uniform(0.0, 4.0) as f32,
        },
        _ => {
            let h = Vec3::new(
                rng.uniform(0.05, 1.0) as f32,
                rng.uniform(0.05, 1.0) as f32,
                rng.uniform(0.05, 1.0) as f32,
            );
            let solid = parapet_narrow::solid::ConvexSolid::from_cuboid(h).unwrap();
            SweptShape::Solid {
                solid: std::sync::Arc::new(solid),
            }
        }
    };
    (shape, rotation)
}

/// Random moving shapes against one triangle each, placed by the
/// clearance of the shape's lowest point from the triangle's plane
/// (near tangency on both sides of the margin, apart, overlapping,
/// behind), the motion towards, along or away from the plane, thin and
/// distant triangles included: every decided miss is a miss of the exact
/// sweep (which is the reference here), and the test decides a good
/// share of the cases (it is not vacuous) while the sweeps still hit in
/// many of the others. 100,000 cases; `PARAPET_REJECT_CASES=<n>` runs
/// more (or fewer).
#[test]
fn a_clear_miss_is_always_a_miss_of_the_exact_sweep() {
    let cases = reject_cases();
    let mut rng = Mix(0x5EED_50C0);
    let (mut decided, mut hits) = (0u64, 0u64);
    let mut pass = PassShape::default();
    for case in 0..cases {
        let (shape, rotation) = random_shape(&mut rng);
        let r = shape.limit_radius();
        let p = random_start(&mut rng, &shape);
        let mover = Mover::new(&shape, rotation, Vec3::zeros(), Quat::identity());
        mover.pass_shape(p, &mut pass);
        // The plane: normal n, placed `gap` radii beyond the shape's
        // lowest point along -n (negative: overlapping or behind).
        let n = rng.unit();
        let radius = match &shape {
            SweptShape::Solid { .. } => 0.0,
            _ => r,
        };
        let low = pass
            .points
            .iter()
            .map(|q| n.dot(q))
            .fold(f64::INFINITY, f64::min)
            .min(n.dot(&promote(p)));
        let plane = low - radius - gap(&mut rng) * r;
        let u = n.cross(&Vec3d::new(0.3, -0.5, 0.8)).normalize();
        let w = n.cross(&u);
        let size = r * [0.1, 1.0, 10.0, 3000.0][rng.pick(4) as usize];
        let foot = promote(p)
            + n * (plane - n.dot(&promote(p)))
            + u * rng.uniform(-3.0, 3.0) * r
            + w * rng.uniform(-3.0, 3.0) * r;
        let thin = if rng.pick(8) == 0 { 1e-4 } else { 1.0 };
        let a = foot - u * size * 0.5 - w * size * 0.3;
        let tri = [
            a.map(|x| x as f32),
            (a + u * size).map(|x| x as f32),
            (a + u * size * 0.4 + w * size * thin).map(|x| x as f32),
        ];
        if parapet_geometry::Triangle::new(tri[0], tri[1], tri[2])
            .validate(0)
            .is_err()
        {
            continue;
        }
        // The motion: towards the plane, along it, or away.
        let along = match rng.pick(4) {
            0 => 0.0,
            1 => rng.uniform(-3.0, 0.0),
            2 => rng.uniform(0.0, 1.0),
            _ => -gap(&mut rng).abs(),
        };
        let tangent = u * rng.uniform(-3.0, 3.0) + w * rng.uniform(-3.0, 3.0);
        let tau = 1.0f32 / 60.0;
        let v = ((n * along + tangent) * r / tau as f64).map(|x| x as f32);
        let d = promote(v) * tau as f64;
        let outcome = mover.sweep(p, v, tau, &tri);
        if matches!(
            outcome,
            SweepOutcome::Hit(_) | SweepOutcome::InitiallyTouching(_)
        ) {
            hits += 1;
        }
        if clearly_misses(&pass, d, &tri) {
            decided += 1;
            assert!(
                matches!(outcome, SweepOutcome::Miss),
                "case {case}: decided a miss, the sweep gave {outcome:?} \
                 ({shape:?}, p {p:?}, v {v:?}, triangle {tri:?})"
            );
        }
    }
    assert!(decided * 8 > cases, "only {decided} of {cases} decided");
    assert!(hits * 10 > cases, "only {hits} of {cases} hit");
}

/// Random moving shapes (spheres, capsules, boxes; near the origin and
/// thousands of radii away), random motions, reach balls from just
/// large enough for the region (the path and [`PATH_MARGIN_RADII`]) to
/// ample, and random triangles placed just beyond one face of the
/// pass's path box (by 2^-40 to a few radii, tilted, facing either way)
/// or across it: every triangle that the region leaves out, and every
/// one it takes in that the reach ball would not return, is a miss of
/// the exact sweep (the reference); all three kinds occur often, and the
/// triangles across the box hit in many cases. 100,000 cases;
/// `PARAPET_REJECT_CASES=<n>` runs more (or fewer).
#[test]
fn a_triangle_outside_the_pass_region_is_always_a_miss_of_the_exact_sweep() {
    let cases = reject_cases();
    let mut rng = Mix(0x9A55_4E61);
    let (mut outside, mut beyond_ball, mut hits) = (0u64, 0u64, 0u64);
    for case in 0..cases {
        let (shape, rotation) = random_shape(&mut rng);
        let r = shape.limit_radius();
        let p = random_start(&mut rng, &shape);
        let mover = Mover::new(&shape, rotation, Vec3::zeros(), Quat::identity());
        let tau = 1.0f32 / 60.0;
        let travel = r * [0.0, 0.5, 3.0, 20.0][rng.pick(4) as usize];
        let v = (rng.unit() * travel / tau as f64).map(|x| x as f32);
        let d = promote(v) * tau as f64;
        let hull = mover.hull(p);
        assert!(mover.shape_clear(&hull, p, v, tau), "case {case}");
        // A reach ball around the whole path, and a snapshot of small
        // triangles (their widest side below 10 radii).
        let held =
            (d.norm() + hull.core_reach + hull.radius + PATH_MARGIN_RADII * r) * (1.0 + 1e-11);
        let spare = [0.0, 1e-3, 0.1, 1.0][rng.pick(4) as usize] * r;
        let reach = Reach {
            center: promote(p),
            radius: held + spare,
        };
        let ball = Ball::new(reach.center, reach.radius).unwrap();
        let region = PassRegion::new(&hull, d, &reach, 10.0 * r, r)
            .expect("a region within the distance limit");
        // Smaller balls cut into the path: no region.
        let short = Reach {
            radius: held * (1.0 - 1e-9),
            ..reach
        };
        assert!(PassRegion::new(&hull, d, &short, 10.0 * r, r).is_none());
        let (lo, hi) = (region.path.min(), region.path.max());
        // One face of the path box, a gap beyond it (negative: across).
        let k = rng.pick(3) as usize;
        let up = rng.pick(2) == 0;
        let gap = r * match rng.pick(8) {
            0 => 1.0 / (1u64 << 40) as f64,
            1 => 1.0 / (1u64 << 20) as f64,
            2 => PATH_MARGIN_RADII * rng.uniform(0.0, 2.0),
            3 => rng.uniform(0.0, 0.01),
            4 => rng.uniform(0.0, 2.0),
            _ => -rng.uniform(0.0, 1.0) * (hi[k] - lo[k]) / r,
        };
        let tri = std::array::from_fn(|i| {
            let beyond = gap
                + if i == 0 || rng.pick(3) == 0 {
                    0.0
                } else {
                    rng.uniform(0.0, 2.0) * r
                };
            let mut q = Vec3d::zeros();
            for j in 0..3 {
                q[j] = if j == k {
                    if up {
                        hi[k] + beyond
                    } else {
                        lo[k] - beyond
                    }
                } else {
                    rng.uniform(lo[j] - r, hi[j] + r)
                };
            }
            q.map(|x| x as f32)
        });
        if parapet_geometry::Triangle::new(tri[0], tri[1], tri[2])
            .validate(0)
            .is_err()
            || Bounds::of_triangle(&tri)
                .max()
                .iter()
                .zip(Bounds::of_triangle(&tri).min().iter())
                .any(|(a, b)| a - b > 10.0 * r)
        {
            continue;
        }
        let outcome = mover.sweep(p, v, tau, &tri);
        if matches!(
            outcome,
            SweepOutcome::Hit(_) | SweepOutcome::InitiallyTouching(_)
        ) {
            hits += 1;
        }
        let bounds = Bounds::of_triangle(&tri);
        let in_region = region.path.intersects(&bounds);
        if !in_region || !ball.touches(&bounds) {
            if in_region {
                beyond_ball += 1;
            } else {
                outside += 1;
            }
            assert!(
                matches!(outcome, SweepOutcome::Miss),
                "case {case}: in region {in_region}, the sweep gave {outcome:?} \
                 ({shape:?}, p {p:?}, v {v:?}, triangle {tri:?})"
            );
        }
    }
    assert!(outside * 4 > cases, "only {outside} of {cases} outside");
    assert!(
        beyond_ball * 400 > cases,
        "only {beyond_ball} of {cases} beyond the ball"
    );
    assert!(hits * 20 > cases, "only {hits} of {cases} hit");
}

/// Random moving shapes around the sweeps' own limits (coordinates near
/// 65536 radii and 1e6 m, motions near the reach limit, radii near
/// 1e-4 m, rotations off unit, far offsets): whenever `shape_clear`
/// vouches for the shape, the exact sweep of a valid nearby triangle is
/// not refused; the cases reach both answers and real refusals.
#[test]
fn a_shape_vouched_clear_is_never_refused_by_a_sweep() {
    let mut rng = Mix(0xC1EA_5A9E);
    let (mut clear, mut refused) = (0u32, 0u32);
    let mut pass = PassShape::default();
    let cases = 20_000;
    for case in 0..cases {
        let (shape, rotation) = random_shape(&mut rng);
        let shape = match shape {
            SweptShape::Sphere { .. } if rng.pick(4) == 0 => SweptShape::Sphere {
                radius: (1e-4 * rng.uniform(0.5, 3.0)) as f32,
            },
            other => other,
        };
        let r = shape.limit_radius();
        // Coordinates: a fraction of the tighter coordinate limit.
        let limit = MAX_COORDINATE.min(MAX_COORDINATE_RADII * r);
        let frac = [0.1, 0.45, 0.5, 0.55, 1.1][rng.pick(5) as usize];
        let center = rng.unit() * limit * frac * rng.uniform(0.9, 1.1);
        let p = center.map(|x| x as f32);
        let tau = 1.0f32 / 60.0;
        // Travel: a fraction of the reach limit.
        let travel = MAX_REACH_RADII * r * [1e-6, 0.2, 0.45, 0.55, 1.2][rng.pick(5) as usize];
        let v = (rng.unit() * travel / tau as f64).map(|x| x as f32);
        let tilt = 1.0 + [0.0, 1e-6, 4e-6, 6e-6, 2e-5][rng.pick(5) as usize] as f32;
        let body_rotation = Quat::new_unchecked(rotation.into_inner() * tilt);
        // Far offsets for a solid only: a sphere or capsule with an offset
        // turns (it is no `SweptShape` of a body alone).
        let offset = [0.0, 4e3, 6e3, 2e4][rng.pick(4) as usize] as f32;
        let offset = match &shape {
            SweptShape::Solid { .. } => offset,
            _ => 0.0,
        };
        let mover = Mover::new(
            &shape,
            body_rotation,
            Vec3::new(offset, 0.0, 0.0),
            Quat::identity(),
        );
        mover.pass_shape(p, &mut pass);
        // A valid triangle a few radii below the shape.
        let n = rng.unit();
        let foot = promote(p) - n * 3.0 * r;
        let u = n.cross(&Vec3d::new(0.3, -0.5, 0.8)).normalize();
        let w = n.cross(&u);
        let tri = [
            foot - u * r - w * r,
            foot + u * 2.0 * r - w * r,
            foot + w * 2.0 * r,
        ]
        .map(|x| x.map(|c| c as f32));
        if parapet_geometry::Triangle::new(tri[0], tri[1], tri[2])
            .validate(0)
            .is_err()
        {
            continue;
        }
        let outcome = mover.sweep(p, v, tau, &tri);
        if let SweepOutcome::Refused(refusal) = outcome {
            refused += 1;
            assert!(
                !mover.shape_clear(&mover.hull(p), p, v, tau),
                "case {case}: vouched clear, refused with {refusal:?} \
                 ({shape:?}, p {p:?}, v {v:?})"
            );
        } else if mover.shape_clear(&mover.hull(p), p, v, tau) {
            clear += 1;
        }
    }
    assert!(clear > cases / 20, "only {clear} of {cases} vouched clear");
    assert!(refused > cases / 10, "only {refused} of {cases} refused");
}

#[test]
fn the_margin_separates_decided_from_swept_at_tangency() {
    // A sphere of 0.1 m sliding parallel to the floor: decided only when
    // its clearance exceeds REJECT_MARGIN radii (here 2 and 1/2 of it).
    let shape = SweptShape::Sphere { radius: 0.1 };
    let mover = Mover::new(&shape, Quat::identity(), Vec3::zeros(), Quat::identity());
    let d = Vec3d::new(0.5, 0.0, 0.0);
    let mut pass = PassShape::default();
    for (factor, expected) in [(2.0, true), (0.5, false), (-1.0, false)] {
        let z = (0.1 * (1.0 + factor * REJECT_MARGIN)) as f32;
        mover.pass_shape(Vec3::new(0.0, 0.0, z), &mut pass);
        assert_eq!(clearly_misses(&pass, d, &floor()[0]), expected, "{factor}");
    }
    // Moving down by more than the clearance is never decided.
    mover.pass_shape(Vec3::new(0.0, 0.0, 0.2), &mut pass);
    assert!(!clearly_misses(
        &pass,
        Vec3d::new(0.0, 0.0, -0.11),
        &floor()[0]
    ));
    assert!(clearly_misses(
        &pass,
        Vec3d::new(0.0, 0.0, -0.09),
        &floor()[0]
    ));
    // A triangle farther than REJECT_DISTANCE_RADII is swept.
    let far = floor()[0].map(|v| v + Vec3::new(200.0, 0.0, 0.0));
    assert!(!clearly_misses(&pass, d, &far));
}

/// A random height field of `n` x `n` cells of 0.5 m.
fn terrain(rng: &mut Mix, n: usize) -> Vec<[Vec3; 3]> {
    let h: Vec<f32> = (0..(n + 1) * (n + 1))
        .map(|_| rng.uniform(-0.3, 0.3) as f32)
        .collect();
    let at = |i: usize, j: usize| Vec3::new(i as f32 * 0.5, j as f32 * 0.5, h[j * (n + 1) + i]);
    let mut tris = Vec::new();
    for j in 0..n {
        for i in 0..n {
            tris.push([at(i, j), at(i + 1, j), at(i + 1, j + 1)]);
            tris.push([at(i, j), at(i + 1, j + 1), at(i, j + 1)]);
        }
    }
    tris
}

/// The world's path (clear misses decided, buffers reused) against the
/// plain path (every candidate swept) over
/// random bodies falling, bouncing and sliding on random terrains:
/// the same outcome, bit for bit, errors included.
#[test]
fn the_prepared_path_gives_the_plain_outcome_bit_for_bit() {
    let mut rng = Mix(0x7E44_A1B5);
    let mut scratch = SoloScratch::default();
    let (mut impacts, mut cases) = (0usize, 0usize);
    for _ in 0..40 {
        let tris = terrain(&mut rng, 12);
        let tree = TriangleBoundsTree::build(&tris).unwrap();
        let mut check = crate::ccd::MeshSnapshotCache::new();
        check.ensure([(0, tris.as_slice())]).unwrap();
        let extent = check.largest_extent().unwrap();
        let material = |t: usize| {
            (t % 7 != 3).then_some(Material {
                friction: 0.3,
                restitution: if t.is_multiple_of(2) { 0.5 } else { 1.0 },
                bounce_threshold: 0.5,
            })
        };
        let mesh = MeshView {
            triangles: &tris,
            tree: &tree,
            material: &material,
            edges: &|_| ActiveEdges::ALL,
        };
        for _ in 0..50 {
            let (shape, _) = random_shape(&mut rng);
            let geometry = match &shape {
                SweptShape::Sphere { radius } => Shape::sphere(*radius).unwrap(),
                SweptShape::Capsule {
                    radius,
                    half_height,
                } => Shape::capsule(*radius, *half_height).unwrap(),
                SweptShape::Solid { solid, .. } => {
                    let e = solid
                        .vertices()
                        .iter()
                        .fold(Vec3d::zeros(), |m, v| m.sup(&v.abs()));
                    Shape::cuboid(e.map(|x| x as f32)).unwrap()
                }
            };
            let sphere = matches!(geometry, Shape::Sphere(_));
            let mut body = RigidBody::new_dynamic(geometry, 1.0).unwrap();
            if !sphere {
                body.set_inverse_inertia(parapet_math::Mat3::zeros())
                    .unwrap();
            }
            let shape = match classify(0, &body).unwrap() {
                crate::ccd::support::Role::Swept(s) => s,
                other => panic!("{other:?}"),
            };
            let bound = shape.limit_radius()
                + match &shape {
                    SweptShape::Capsule { half_height, .. } => *half_height as f64,
                    _ => 0.0,
                };
            let body = body
                .with_material(Material {
                    friction: 0.2,
                    restitution: 0.8,
                    bounce_threshold: 0.5,
                })
                .with_position(Vec3::new(
                    rng.uniform(1.0, 5.0) as f32,
                    rng.uniform(1.0, 5.0) as f32,
                    (bound + rng.uniform(0.3, 1.0)) as f32,
                ))
                .with_linear_velocity(Vec3::new(
                    rng.uniform(-8.0, 8.0) as f32,
                    rng.uniform(-8.0, 8.0) as f32,
                    rng.uniform(-60.0, 2.0) as f32,
                ));
            let dt = 1.0 / 60.0;
            let reach = dynamic_reach(
                promote(body.position()),
                bound,
                crate::ccd::reach::bound_energy(&body),
                1.0,
                Vec3::zeros(),
                dt,
            );
            let input = SoloInput {
                index: 3,
                body: &body,
                shape: &shape,
                reach,
                dt,
                max_impacts: 1 + rng.pick(3) as u32,
            };
            let plain = sweep_alone(&input, &mesh);
            let prepared = sweep_alone_prepared(&input, &mesh, extent, &mut scratch);
            assert_eq!(prepared, plain);
            cases += 1;
            impacts += plain.map(|o| o.impacts.len()).unwrap_or(0);
        }
    }
    assert!(impacts > cases / 4, "{impacts} impacts in {cases} cases");
}
