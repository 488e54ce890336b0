//! Differential test of the sweeps against parry3d 0.31's `cast_shapes`
//! (ball, capsule, cuboid and convex hull against a triangle, and a ball
//! against a `TriMesh`), on random queries that parapet's one-sided rules
//! admit (parry's triangles are two-sided, so shapes starting behind a face
//! are left out).
//!
//! # Agreement
//! parry computes in `f32` and stops its conservative advancement when the
//! distance is within its tolerance of the target; its time of impact is
//! trusted to `PARRY_TRAVEL_TOLERANCE` of the travel plus the shape's size.
//! Where the two disagree (one hits and the other misses, or the times
//! differ by more), the exact rational oracle of `sweep_support` decides for
//! spheres and capsules: a disagreement where the exact contact is deeper
//! than `2^-40 L` and parapet missed it, or where parapet's time is off, fails
//! the test; one where parry is wrong is listed in the output. Boxes and
//! hulls are judged against parry alone, with disagreements listed and their
//! rate bounded (grazing contacts within parry's tolerance are expected).

mod sweep_support;

use num_traits::{One, Zero};
use parapet_math::{Quat, Vec3};
use parapet_narrow::solid::ConvexSolid;
use parapet_narrow::sweep::{
    sweep_capsule_triangle, sweep_solid_triangle, sweep_sphere_triangle, sweep_sphere_triangles,
    Placement, SweepOutcome,
};
use parapet_tests::parry::{parry3d, pose_to_parry, to_parry};
use parry3d::query::{cast_shapes, ShapeCastOptions, ShapeCastStatus};
use parry3d::shape::{Ball, Capsule, ConvexPolyhedron, Cuboid, Shape, TriMesh, Triangle};
use sweep_support::fast::{self, V};
use sweep_support::*;

/// parry's time of impact agrees within this fraction of (travel + size)
/// divided by the travel (dimensionless): parry works in f32 and its
/// conservative advancement stops within about 1e-5 relative of contact.
const PARRY_TRAVEL_TOLERANCE: f64 = 1.0e-4;

/// What a sweep said: miss, initial contact, or a hit at a time.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Verdict {
    Miss,
    Initial,
    Hit(f64),
}

fn ours<F: Copy>(o: &SweepOutcome<F>) -> Verdict {
    match o {
        SweepOutcome::Hit(i) => Verdict::Hit(i.time),
        SweepOutcome::InitiallyTouching(_) => Verdict::Initial,
        _ => Verdict::Miss,
    }
}

/// parry's cast of a moving shape (pose, displacement over the step) against
/// a static shape at the identity pose.
fn parry_cast(
    pose: parry3d::math::Pose,
    disp: Vec3,
    moving: &dyn Shape,
    fixed: &dyn Shape,
) -> Verdict {
    let options = ShapeCastOptions::with_max_time_of_impact(1.0);
    let identity = pose_to_parry(Vec3::zeros(), Quat::identity());
    match cast_shapes(
        &pose,
        to_parry(disp),
        moving,
        &identity,
        to_parry(Vec3::zeros()),
        fixed,
        options,
    ) {
        Ok(Some(hit)) if hit.status == ShapeCastStatus::PenetratingOrWithinTargetDist => {
            Verdict::Initial
        }
        Ok(Some(hit)) => Verdict::Hit(hit.time_of_impact as f64),
        _ => Verdict::Miss,
    }
}

#[derive(Default, Debug)]
struct Stats {
    compared: usize,
    agree: usize,
    parry_wrong: Vec<String>,
    parapet_wrong: Vec<String>,
    unresolved: Vec<String>,
}

impl Stats {
    fn report(&self, what: &str) {
        eprintln!(
            "{what}: {} compared, {} agree, {} where parry is wrong, {} where parapet is wrong, {} unresolved",
            self.compared,
            self.agree,
            self.parry_wrong.len(),
            self.parapet_wrong.len(),
            self.unresolved.len()
        );
        for s in self.parry_wrong.iter().take(5) {
            eprintln!("  parry wrong: {s}");
        }
        for s in self.unresolved.iter().take(5) {
            eprintln!("  unresolved: {s}");
        }
        for s in self.parapet_wrong.iter().take(10) {
            eprintln!("  PARAPET WRONG: {s}");
        }
    }
}

/// Whether two verdicts agree within parry's tolerance.
fn agree(a: Verdict, b: Verdict, travel: f64, size: f64) -> bool {
    match (a, b) {
        (Verdict::Hit(x), Verdict::Hit(y)) => {
            (x - y).abs() * travel <= PARRY_TRAVEL_TOLERANCE * (travel + size)
        }
        (Verdict::Hit(x), Verdict::Initial) | (Verdict::Initial, Verdict::Hit(x)) => {
            x * travel <= PARRY_TRAVEL_TOLERANCE * (travel + size)
        }
        (x, y) => x == y,
    }
}

/// Settles a sphere/capsule disagreement with the exact oracle: the exact
/// first time at which the distance reaches r (or `None` when the exact
/// minimum stays above r - delta), and whether a contact deeper than delta
/// exists.
fn exact_truth<M: Moving>(m: &M, r: f64, delta: f64) -> (Option<f64>, bool) {
    let lo2 = q((r - delta) * (r - delta));
    let deep = min_above(m, &Q::zero(), &Q::one(), &lo2, 60) == Some(false);
    let t = first_time_at_most(m, &q(r * r), 44).map(|t| to_f64(&t));
    (t, deep)
}

fn classify<M: Moving>(
    stats: &mut Stats,
    mine: Verdict,
    theirs: Verdict,
    m: &M,
    r: f64,
    l: f64,
    travel: f64,
    what: String,
) {
    stats.compared += 1;
    if agree(mine, theirs, travel, l) {
        stats.agree += 1;
        return;
    }
    let delta = l * 2f64.powi(-40);
    let (truth, deep) = exact_truth(m, r, delta);
    let close = |x: f64, t: f64| (x - t).abs() * travel <= 1e-9 * l;
    let mine_ok = match (mine, truth) {
        (Verdict::Miss, _) => !deep,
        (Verdict::Hit(x), Some(t)) => close(x, t),
        (Verdict::Initial, Some(t)) => t == 0.0,
        _ => false,
    };
    let theirs_ok = match (theirs, truth) {
        (Verdict::Miss, _) => !deep,
        (Verdict::Hit(x), Some(t)) => {
            (x - t).abs() * travel <= PARRY_TRAVEL_TOLERANCE * (travel + l)
        }
        (Verdict::Initial, Some(t)) => t == 0.0,
        _ => false,
    };
    let line = format!(
        "parapet {mine:?}, parry {theirs:?}, exact first time {truth:?} (deep {deep}): {what}"
    );
    if !mine_ok && deep {
        stats.parapet_wrong.push(line);
    } else if !mine_ok {
        // Grazing within delta: neither answer is wrong.
        stats.unresolved.push(line);
    } else if !theirs_ok {
        stats.parry_wrong.push(line);
    } else {
        stats.unresolved.push(line);
    }
}

struct MovingPoint {
    c: P,
    d: P,
    tri: [P; 3],
}
impl Moving for MovingPoint {
    fn closest(&self, t: &Q) -> (P, P) {
        let p = add(&self.c, &scale(&self.d, t));
        let qq = closest_on_triangle(&p, &self.tri[0], &self.tri[1], &self.tri[2]);
        (p, qq)
    }
    fn d(&self) -> &P {
        &self.d
    }
}

struct MovingSeg {
    p0: P,
    p1: P,
    d: P,
    tri: [P; 3],
}
impl Moving for MovingSeg {
    fn closest(&self, t: &Q) -> (P, P) {
        let s = scale(&self.d, t);
        closest_segment_triangle(
            &add(&self.p0, &s),
            &add(&self.p1, &s),
            &self.tri[0],
            &self.tri[1],
            &self.tri[2],
        )
    }
    fn d(&self) -> &P {
        &self.d
    }
}

/// A random triangle (front normal `n`), and a start point and displacement
/// aimed near it from the front half-space.
fn scene(rng: &mut SplitMix64, size: f64) -> ([Vec3; 3], V, V, V) {
    let tri = loop {
        let t = [rng.vec(size), rng.vec(size), rng.vec(size)];
        let n = fast::cross(fast::sub(t[1], t[0]), fast::sub(t[2], t[0]));
        if fast::dot(n, n).sqrt() > 0.05 * size * size {
            break t;
        }
    };
    let n = fast::unit(fast::cross(
        fast::sub(tri[1], tri[0]),
        fast::sub(tri[2], tri[0]),
    ));
    let a = rng.range(-0.3, 1.0);
    let b = rng.range(-0.3, 1.0 - a);
    let target = fast::mad(
        fast::mad(fast::mad([0.0; 3], a, tri[0]), b, tri[1]),
        1.0 - a - b,
        tri[2],
    );
    let start = fast::mad(
        fast::mad(target, rng.range(0.5, 3.0) * size, n),
        rng.range(0.0, 0.5) * size,
        rng.dir(),
    );
    let disp = fast::mad([0.0; 3], rng.range(0.3, 2.0), fast::sub(target, start));
    (tri.map(fast::to_f32), n, start, disp)
}

fn height(tri: &[Vec3; 3], p: Vec3) -> f64 {
    let [a, b, c] = tri.map(fast::of);
    fast::dot(
        fast::cross(fast::sub(b, a), fast::sub(c, a)),
        fast::sub(fast::of(p), a),
    )
}

#[test]
fn ball_casts_agree_with_parry() {
    let mut rng = SplitMix64::new(0xD1FF_0001);
    let mut stats = Stats::default();
    let dt = 0.01f32;
    for _ in 0..4000 {
        let size = rng.log_range(0.1, 10.0);
        let (tri, _, start, disp) = scene(&mut rng, size);
        let r = (size * rng.log_range(0.01, 0.5)) as f32;
        let c = fast::to_f32(start);
        let vel = fast::to_f32(fast::mad([0.0; 3], 1.0 / dt as f64, disp));
        if height(&tri, c) <= 0.0 {
            continue;
        }
        let mine = ours(&sweep_sphere_triangle(c, r, vel, dt, &tri));
        let d32 = vel * dt;
        let theirs = parry_cast(
            pose_to_parry(c, Quat::identity()),
            d32,
            &Ball::new(r),
            &Triangle::new(to_parry(tri[0]), to_parry(tri[1]), to_parry(tri[2])),
        );
        let m = MovingPoint {
            c: qv(c),
            d: scale(&qv(vel), &q(dt as f64)),
            tri: tri.map(qv),
        };
        let travel = (vel.cast::<f64>() * dt as f64).norm();
        classify(
            &mut stats,
            mine,
            theirs,
            &m,
            r as f64,
            4.0 * size + travel,
            travel,
            format!("ball r {r} at {c:?} vel {vel:?} dt {dt} tri {tri:?}"),
        );
    }
    stats.report("ball vs triangle");
    assert!(stats.parapet_wrong.is_empty());
    assert!(
        stats.compared > 2000 && stats.agree * 100 >= stats.compared * 95,
        "{stats:?}"
    );
}

#[test]
fn capsule_casts_agree_with_parry() {
    let mut rng = SplitMix64::new(0xD1FF_0002);
    let mut stats = Stats::default();
    let dt = 0.01f32;
    for _ in 0..3000 {
        let size = rng.log_range(0.1, 10.0);
        let (tri, _, start, disp) = scene(&mut rng, size);
        let r = (size * rng.log_range(0.01, 0.3)) as f32;
        let axis = rng.dir();
        let half = size * rng.range(0.05, 0.8);
        let p0 = fast::to_f32(fast::mad(start, -half, axis));
        let p1 = fast::to_f32(fast::mad(start, half, axis));
        let vel = fast::to_f32(fast::mad([0.0; 3], 1.0 / dt as f64, disp));
        if height(&tri, p0) <= 0.0 && height(&tri, p1) <= 0.0 {
            continue;
        }
        let mine = ours(&sweep_capsule_triangle(p0, p1, r, vel, dt, &tri));
        let cap = Capsule::new(to_parry(p0), to_parry(p1), r);
        let theirs = parry_cast(
            pose_to_parry(Vec3::zeros(), Quat::identity()),
            vel * dt,
            &cap,
            &Triangle::new(to_parry(tri[0]), to_parry(tri[1]), to_parry(tri[2])),
        );
        let m = MovingSeg {
            p0: qv(p0),
            p1: qv(p1),
            d: scale(&qv(vel), &q(dt as f64)),
            tri: tri.map(qv),
        };
        let travel = (vel.cast::<f64>() * dt as f64).norm();
        classify(
            &mut stats,
            mine,
            theirs,
            &m,
            r as f64,
            4.0 * size + travel,
            travel,
            format!("capsule {p0:?} {p1:?} r {r} vel {vel:?} tri {tri:?}"),
        );
    }
    stats.report("capsule vs triangle");
    assert!(stats.parapet_wrong.is_empty());
    assert!(
        stats.compared > 2000 && stats.agree * 100 >= stats.compared * 95,
        "{stats:?}"
    );
}

#[test]
fn box_and_hull_casts_agree_with_parry() {
    let mut rng = SplitMix64::new(0xD1FF_0003);
    let mut listed = Vec::new();
    let (mut compared, mut agreed) = (0usize, 0usize);
    let dt = 0.01f32;
    for i in 0..3000 {
        let size = rng.log_range(0.1, 10.0);
        let (tri, _, start, disp) = scene(&mut rng, size);
        let rot = Quat::from_euler_angles(
            rng.range(-3.0, 3.0) as f32,
            rng.range(-1.5, 1.5) as f32,
            rng.range(-3.0, 3.0) as f32,
        );
        let c = fast::to_f32(start);
        let vel = fast::to_f32(fast::mad([0.0; 3], 1.0 / dt as f64, disp));
        let (solid, shape): (ConvexSolid, Box<dyn Shape>) = if i % 2 == 0 {
            let h = Vec3::new(
                (size * rng.range(0.05, 0.5)) as f32,
                (size * rng.range(0.05, 0.5)) as f32,
                (size * rng.range(0.05, 0.5)) as f32,
            );
            (
                ConvexSolid::from_cuboid(h).unwrap(),
                Box::new(Cuboid::new(to_parry(h))),
            )
        } else {
            let pts: Vec<parry3d::math::Vector> = (0..10)
                .map(|_| {
                    let d = rng.dir();
                    let r = size * rng.range(0.1, 0.5);
                    parry3d::math::Vector::new(
                        (d[0] * r) as f32,
                        (d[1] * r) as f32,
                        (d[2] * r) as f32,
                    )
                })
                .collect();
            let (hv, hf) = parry3d::transformation::convex_hull(&pts);
            let verts: Vec<Vec3> = hv.iter().map(|p| Vec3::new(p.x, p.y, p.z)).collect();
            let Some(poly) = ConvexPolyhedron::from_convex_hull(&hv) else {
                continue;
            };
            (
                ConvexSolid::from_points(&verts, &hf).unwrap(),
                Box::new(poly),
            )
        };
        let world: Vec<Vec3> = solid
            .vertices()
            .iter()
            .map(|v| rot * v.cast::<f32>() + c)
            .collect();
        if world.iter().all(|p| height(&tri, *p) <= 0.0) {
            continue;
        }
        let mine = ours(&sweep_solid_triangle(
            &solid,
            &Placement::at(c, rot),
            vel,
            dt,
            &tri,
        ));
        let theirs = parry_cast(
            pose_to_parry(c, rot),
            vel * dt,
            shape.as_ref(),
            &Triangle::new(to_parry(tri[0]), to_parry(tri[1]), to_parry(tri[2])),
        );
        let travel = (vel.cast::<f64>() * dt as f64).norm();
        compared += 1;
        if agree(mine, theirs, travel, 4.0 * size + travel) {
            agreed += 1;
        } else {
            // Diagnose with a separation certificate: the largest gap over
            // every axis built from the solid's vertex pairs and the
            // triangle's edges (a lower bound on the distance), at 2001
            // sampled times.
            let tv = tri.map(fast::of);
            let d = fast::of(vel * dt);
            let wv: Vec<V> = world.iter().map(|p| fast::of(*p)).collect();
            let mut axes: Vec<V> = vec![fast::cross(
                fast::sub(tv[1], tv[0]),
                fast::sub(tv[2], tv[0]),
            )];
            for a in 0..wv.len() {
                for b in 0..wv.len() {
                    let e = fast::sub(wv[b], wv[a]);
                    for k in 0..3 {
                        axes.push(fast::cross(e, fast::sub(tv[(k + 1) % 3], tv[k])));
                    }
                    for c in &wv {
                        axes.push(fast::cross(e, fast::sub(*c, wv[a])));
                    }
                }
            }
            let axes: Vec<V> = axes
                .into_iter()
                .filter(|a| fast::dot(*a, *a) > 1e-24)
                .map(fast::unit)
                .collect();
            let closest_gap = (0..=2000)
                .map(|step| {
                    let t = step as f64 / 2000.0;
                    axes.iter()
                        .map(|u| {
                            let span = |pts: &mut dyn Iterator<Item = f64>| {
                                pts.fold((f64::INFINITY, f64::NEG_INFINITY), |(x, y), v| {
                                    (x.min(v), y.max(v))
                                })
                            };
                            let (smin, smax) =
                                span(&mut wv.iter().map(|p| fast::dot(*u, fast::mad(*p, t, d))));
                            let (tmin, tmax) = span(&mut tv.iter().map(|p| fast::dot(*u, *p)));
                            (smin - tmax).max(tmin - smax)
                        })
                        .fold(f64::NEG_INFINITY, f64::max)
                })
                .fold(f64::INFINITY, f64::min);
            let verdict = if mine == Verdict::Miss && closest_gap > 0.0 {
                format!(
                    "parry wrong: separated by at least {closest_gap:e} m at every sampled time"
                )
            } else {
                format!("smallest sampled separation certificate {closest_gap:e} m")
            };
            listed.push(format!("{verdict}; parapet {mine:?}, parry {theirs:?}: solid {i} at {c:?} rot {rot:?} vel {vel:?} tri {tri:?}"));
        }
    }
    eprintln!("box/hull vs triangle: {compared} compared, {agreed} agree; disagreements:");
    for l in listed.iter().take(10) {
        eprintln!("  {l}");
    }
    assert!(
        compared > 2000 && agreed * 1000 >= compared * 990,
        "{agreed} of {compared}"
    );
}

#[test]
fn ball_casts_against_a_trimesh_agree_with_parry() {
    // A 4 x 4 grid floor of 32 triangles, slightly bumpy.
    let mut rng = SplitMix64::new(0xD1FF_0004);
    let mut vertices = Vec::new();
    for j in 0..5 {
        for i in 0..5 {
            vertices.push(Vec3::new(
                i as f32 - 2.0,
                j as f32 - 2.0,
                (rng.range(-0.2, 0.2)) as f32,
            ));
        }
    }
    let mut indices = Vec::new();
    for j in 0..4u32 {
        for i in 0..4u32 {
            let a = j * 5 + i;
            indices.push([a, a + 1, a + 6]);
            indices.push([a, a + 6, a + 5]);
        }
    }
    let tris: Vec<[Vec3; 3]> = indices
        .iter()
        .map(|t| t.map(|k| vertices[k as usize]))
        .collect();
    let mesh = TriMesh::new(
        vertices.iter().map(|v| to_parry(*v)).collect(),
        indices.clone(),
    )
    .unwrap();
    let dt = 0.01f32;
    let (mut compared, mut agreed) = (0usize, 0usize);
    let mut listed = Vec::new();
    for _ in 0..2000 {
        let c = Vec3::new(
            rng.range(-2.5, 2.5) as f32,
            rng.range(-2.5, 2.5) as f32,
            rng.range(0.5, 2.0) as f32,
        );
        let target = Vec3::new(
            rng.range(-2.5, 2.5) as f32,
            rng.range(-2.5, 2.5) as f32,
            rng.range(-0.5, 0.3) as f32,
        );
        let r = rng.range(0.02, 0.4) as f32;
        let vel = (target - c) * (rng.range(0.5, 2.0) as f32 / dt);
        let mine = ours(&sweep_sphere_triangles(c, r, vel, dt, &tris));
        let theirs = parry_cast(
            pose_to_parry(c, Quat::identity()),
            vel * dt,
            &Ball::new(r),
            &mesh,
        );
        let travel = (vel.cast::<f64>() * dt as f64).norm();
        compared += 1;
        if agree(mine, theirs, travel, 5.0 + travel) {
            agreed += 1;
        } else {
            listed.push(format!(
                "parapet {mine:?}, parry {theirs:?}: ball r {r} at {c:?} vel {vel:?}"
            ));
        }
    }
    eprintln!("ball vs trimesh: {compared} compared, {agreed} agree");
    for l in listed.iter().take(10) {
        eprintln!("  {l}");
    }
    assert!(agreed * 100 >= compared * 98, "{agreed} of {compared}");
}
