//! Exact rational oracle for `sweep_solid_triangle` (boxes and convex hulls
//! that only translate): the separating-axis test over time evaluated in
//! exact rationals on the complete candidate set (every hull face normal and
//! every hull edge crossed with every triangle edge, with no merging of
//! parallel directions), with the solid's projections shrunk or grown by
//! `delta` along each axis.
//!
//! # The contract checked, with `delta = 2^-40 L`
//! `L` = the solid's farthest-vertex radius + `|d|` + the triangle's farthest
//! vertex from the solid's centre. `G` is the interval of times at which the
//! solid grown by `delta` touches the triangle, `S` the interval at which it
//! overlaps by more than `delta` on every axis (a deep contact).
//! - a **miss** requires `S` empty (zero false negatives);
//! - a **hit at `t`** requires `G.start <= t` and, when `S` is not empty,
//!   `t <= S.start`;
//! - an **initial contact** requires `G.start = 0`;
//! - a solid exactly **wholly behind** the face plane by more than `delta`
//!   must miss.
//!
//! Solids: boxes from `ConvexSolid::from_cuboid` (placed with an offset from
//! their body origin) and random convex hulls (parry3d's hull of random
//! points, given to `ConvexSolid::from_points`), unrotated so that their world
//! vertices are exact. Rotated solids are covered by the parry3d differential
//! test. An f64 evaluation of the same intervals with margins of
//! `delta / 2` certifies most cases; every 100th case and every case it does
//! not certify is judged exactly. Default 10,000 random cases; set `PARAPET_ORACLE_CASES` for more.

mod sweep_support;

use num_traits::{Signed, Zero};
use parapet_math::{Quat, Vec3};
use parapet_narrow::solid::ConvexSolid;
use parapet_narrow::sweep::{sweep_solid_triangle, Placement, SweepOutcome};
use parapet_tests::parry::parry3d;
use sweep_support::fast::{self, V};
use sweep_support::*;

#[derive(Debug, Clone)]
struct Case {
    /// Local vertices (f32) and boundary triangles of the solid.
    vertices: Vec<Vec3>,
    faces: Vec<[u32; 3]>,
    /// `Some(half extents)` when built as a cuboid.
    cuboid: Option<Vec3>,
    body: Vec3,
    offset: Vec3,
    velocity: Vec3,
    dt: f32,
    tri: [Vec3; 3],
}

/// The exact interval `[lo, hi]` within `[0, 1]` of times at which every
/// axis overlaps with the solid's projection moved in by `margin * |axis|`
/// (negative margins grow the solid), or `None` when empty.
fn sat_over_time(verts: &[P], tri: &[P; 3], d: &P, axes: &[(P, Q)], margin: f64) -> Option<(Q, Q)> {
    let mut lo = Q::zero();
    let mut hi = num_traits::One::one();
    for (axis, len) in axes {
        let m = q(margin) * len;
        let proj = |p: &P| dot(axis, p);
        let (mut smin, mut smax) = (proj(&verts[0]), proj(&verts[0]));
        for v in &verts[1..] {
            let x = proj(v);
            if x < smin {
                smin = x;
            } else if x > smax {
                smax = x;
            }
        }
        let (mut tmin, mut tmax) = (proj(&tri[0]), proj(&tri[0]));
        for v in &tri[1..] {
            let x = proj(v);
            if x < tmin {
                tmin = x;
            } else if x > tmax {
                tmax = x;
            }
        }
        let v = dot(axis, d);
        // smin + m + v t <= tmax and smax - m + v t >= tmin.
        let a = &tmax - &smin - &m; // v t <= a
        let b = &tmin - &smax + &m; // v t >= b
        if v.is_zero() {
            if a.is_negative() || b.is_positive() {
                return None;
            }
            continue;
        }
        let (ta, tb) = (&a / &v, &b / &v);
        if v.is_positive() {
            if ta < hi {
                hi = ta;
            }
            if tb > lo {
                lo = tb;
            }
        } else {
            if ta > lo {
                lo = ta;
            }
            if tb < hi {
                hi = tb;
            }
        }
        if lo > hi {
            return None;
        }
    }
    Some((lo, hi))
}

/// The same interval in f64 with unit axes (prefilter only: projection
/// errors are about `1e-15 L`, far below the `delta / 2` margins it is used
/// with).
fn sat_over_time_f64(
    verts: &[V],
    tri: &[V; 3],
    d: V,
    axes: &[V],
    margin: f64,
) -> Option<(f64, f64)> {
    let (mut lo, mut hi) = (0.0f64, 1.0f64);
    for axis in axes {
        let (smin, smax) = verts
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), p| {
                let x = fast::dot(*axis, *p);
                (a.min(x), b.max(x))
            });
        let (tmin, tmax) = tri
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), p| {
                let x = fast::dot(*axis, *p);
                (a.min(x), b.max(x))
            });
        let v = fast::dot(*axis, d);
        let a = tmax - smin - margin;
        let b = tmin - smax + margin;
        if v == 0.0 {
            if a < 0.0 || b > 0.0 {
                return None;
            }
            continue;
        }
        let (ta, tb) = (a / v, b / v);
        if v > 0.0 {
            hi = hi.min(ta);
            lo = lo.max(tb);
        } else {
            lo = lo.max(ta);
            hi = hi.min(tb);
        }
        if lo > hi {
            return None;
        }
    }
    Some((lo, hi))
}

/// The f64 prefilter: `true` when the outcome is certainly within the
/// contract (using margins of `delta / 2`), so the exact check can be skipped.
fn f64_certifies(
    case: &Case,
    out: &SweepOutcome<parapet_narrow::sweep::SatAxis>,
    delta: f64,
) -> bool {
    let base = fast::mad(fast::of(case.body), 1.0, fast::of(case.offset));
    let verts: Vec<V> = case
        .vertices
        .iter()
        .map(|v| fast::mad(base, 1.0, fast::of(*v)))
        .collect();
    let tri = case.tri.map(fast::of);
    let d = fast::mad([0.0; 3], case.dt as f64, fast::of(case.velocity));
    let mut axes = Vec::new();
    let mut push = |a: V| {
        let n = fast::dot(a, a).sqrt();
        if n > 0.0 {
            axes.push([a[0] / n, a[1] / n, a[2] / n]);
        }
    };
    let n = fast::cross(fast::sub(tri[1], tri[0]), fast::sub(tri[2], tri[0]));
    push(n);
    for f in &case.faces {
        let [a, b, c] = f.map(|i| verts[i as usize]);
        push(fast::cross(fast::sub(b, a), fast::sub(c, a)));
        for (u, v) in [(a, b), (b, c), (c, a)] {
            for k in 0..3 {
                push(fast::cross(
                    fast::sub(v, u),
                    fast::sub(tri[(k + 1) % 3], tri[k]),
                ));
            }
        }
    }
    let nl = fast::dot(n, n).sqrt();
    let top = verts
        .iter()
        .map(|v| fast::dot(n, fast::sub(*v, tri[0])) / nl)
        .fold(f64::NEG_INFINITY, f64::max);
    if top.abs() <= 2.0 * delta {
        return false;
    }
    if top < 0.0 {
        return out.is_miss();
    }
    let grown = sat_over_time_f64(&verts, &tri, d, &axes, -delta / 2.0);
    let deep = sat_over_time_f64(&verts, &tri, d, &axes, delta / 2.0);
    match out {
        SweepOutcome::Miss => deep.is_none(),
        SweepOutcome::Hit(i) => {
            grown.is_some_and(|(lo, _)| lo <= i.time) && deep.is_none_or(|(lo, _)| i.time <= lo)
        }
        SweepOutcome::InitiallyTouching(_) => grown.is_some_and(|(lo, _)| lo == 0.0),
        SweepOutcome::Refused(_) => false,
    }
}

fn judge(case: &Case, tally: &mut Tally, all_exact: bool) {
    tally.cases += 1;
    let solid = match case.cuboid {
        Some(h) => ConvexSolid::from_cuboid(h).expect("valid cuboid"),
        None => ConvexSolid::from_points(&case.vertices, &case.faces).expect("valid hull"),
    };
    let place = Placement {
        body_position: case.body,
        body_rotation: Quat::identity(),
        shape_offset: case.offset,
        shape_rotation: Quat::identity(),
    };
    let out = sweep_solid_triangle(&solid, &place, case.velocity, case.dt, &case.tri);
    if let SweepOutcome::Refused(e) = out {
        tally.refusal(&e);
        return;
    }
    if let Some(t) = out.time() {
        if !(0.0..=1.0).contains(&t) {
            tally
                .failures
                .push(format!("time {t} outside [0, 1]: {case:?}"));
            return;
        }
    }
    // Exact world vertices: body + offset + local vertex.
    let base = add(&qv(case.body), &qv(case.offset));
    let verts: Vec<P> = case.vertices.iter().map(|v| add(&base, &qv(*v))).collect();
    let tri = case.tri.map(qv);
    let d = scale(&qv(case.velocity), &q(case.dt as f64));
    let center = fast::mad(fast::of(case.body), 1.0, fast::of(case.offset));
    let radius = case
        .vertices
        .iter()
        .map(|v| fast::dot(fast::of(*v), fast::of(*v)).sqrt())
        .fold(0.0, f64::max);
    let dv = fast::mad([0.0; 3], case.dt as f64, fast::of(case.velocity));
    let far = case
        .tri
        .iter()
        .map(|v| {
            let r = fast::sub(fast::of(*v), center);
            fast::dot(r, r).sqrt()
        })
        .fold(0.0, f64::max);
    let l = radius + fast::dot(dv, dv).sqrt() + far;
    let delta = l * 2f64.powi(-40);
    match out {
        SweepOutcome::Miss => tally.misses += 1,
        SweepOutcome::Hit(_) => tally.hits += 1,
        _ => tally.initial += 1,
    }
    if !all_exact && f64_certifies(case, &out, delta) {
        tally.f64_decided += 1;
        return;
    }
    tally.exact_hit_checks += 1;

    // Complete candidate axes, each with its f64 length for the margin.
    let mut axes: Vec<(P, Q)> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut push = |a: P| {
        if a.iter().any(|x| !x.is_zero()) && seen.insert(a.clone()) {
            let n = to_f64(&dot(&a, &a)).sqrt();
            axes.push((a, q(n)));
        }
    };
    let n = cross(&sub(&tri[1], &tri[0]), &sub(&tri[2], &tri[0]));
    push(n.clone());
    let tri_edges = [
        sub(&tri[1], &tri[0]),
        sub(&tri[2], &tri[1]),
        sub(&tri[0], &tri[2]),
    ];
    for f in &case.faces {
        let [a, b, c] = f.map(|i| &verts[i as usize]);
        push(cross(&sub(b, a), &sub(c, a)));
        for (u, v) in [(a, b), (b, c), (c, a)] {
            let e = sub(v, u);
            for te in &tri_edges {
                push(cross(&e, te));
            }
        }
    }

    // Wholly behind, exactly.
    let nlen = to_f64(&dot(&n, &n)).sqrt();
    let top = verts
        .iter()
        .map(|v| dot(&n, &sub(v, &tri[0])))
        .max()
        .expect("vertices");
    let dq = q(delta * nlen);
    if top <= -dq.clone() {
        tally.behind += 1;
        if !out.is_miss() {
            tally
                .failures
                .push(format!("caught from wholly behind: {out:?} {case:?}"));
        }
        return;
    }
    if top.abs() <= dq {
        tally.ambiguous += 1;
        return;
    }

    let grown = sat_over_time(&verts, &tri, &d, &axes, -delta);
    let deep = sat_over_time(&verts, &tri, &d, &axes, delta);
    match out {
        SweepOutcome::Miss => {
            if let Some((lo, _)) = deep {
                tally.failures.push(format!(
                    "false negative: deep contact from t = {}: {case:?}",
                    to_f64(&lo)
                ));
            }
        }
        SweepOutcome::Hit(i) => {
            let t = q(i.time);
            match &grown {
                None => tally
                    .failures
                    .push(format!("hit at {} without any contact: {case:?}", i.time)),
                Some((lo, _)) if *lo > t => tally.failures.push(format!(
                    "hit at {} before contact at {}: {case:?}",
                    i.time,
                    to_f64(lo)
                )),
                _ => {}
            }
            if let Some((lo, _)) = &deep {
                if t > *lo {
                    tally.failures.push(format!(
                        "hit at {} after a deep contact at {}: {case:?}",
                        i.time,
                        to_f64(lo)
                    ));
                }
            }
            if let (Some((g, _)), Some((s, _))) = (&grown, &deep) {
                tally.timed += 1;
                let width = to_f64(s) - to_f64(g);
                tally.max_time_error = tally.max_time_error.max(width);
            }
        }
        SweepOutcome::InitiallyTouching(_) => match &grown {
            Some((lo, _)) if lo.is_zero() => {}
            _ => tally.failures.push(format!(
                "initial contact without contact at t = 0: {case:?}"
            )),
        },
        SweepOutcome::Refused(_) => unreachable!(),
    }
}

const BOX_FACES: [[u32; 3]; 12] = [
    [0, 2, 1],
    [1, 2, 3],
    [4, 5, 6],
    [5, 7, 6],
    [0, 1, 4],
    [1, 5, 4],
    [2, 6, 3],
    [3, 6, 7],
    [0, 4, 2],
    [2, 4, 6],
    [1, 3, 5],
    [3, 7, 5],
];

fn make_case(rng: &mut SplitMix64) -> Case {
    let size = rng.log_range(0.05, 50.0);
    let (vertices, faces, cuboid) = if rng.below(2) == 0 {
        let h = Vec3::new(
            (size * rng.range(0.05, 1.0)) as f32,
            (size * rng.range(0.05, 1.0)) as f32,
            (size * rng.range(0.05, 1.0)) as f32,
        );
        let mut v = Vec::new();
        for i in 0..8 {
            let s = |bit: usize| if i & bit == 0 { -1.0 } else { 1.0 };
            v.push(Vec3::new(s(1) * h.x, s(2) * h.y, s(4) * h.z));
        }
        (v, BOX_FACES.to_vec(), Some(h))
    } else {
        let pts: Vec<parry3d::math::Vector> = (0..rng.below(12) + 5)
            .map(|_| {
                let d = rng.dir();
                let r = size * rng.range(0.3, 1.0);
                parry3d::math::Vector::new((d[0] * r) as f32, (d[1] * r) as f32, (d[2] * r) as f32)
            })
            .collect();
        let (hv, hf) = parry3d::transformation::convex_hull(&pts);
        let v: Vec<Vec3> = hv.iter().map(|p| Vec3::new(p.x, p.y, p.z)).collect();
        (v, hf, None)
    };
    let tsize = size * rng.log_range(0.3, 10.0);
    let tri = loop {
        let t = [rng.vec(tsize), rng.vec(tsize), rng.vec(tsize)];
        let n = fast::cross(fast::sub(t[1], t[0]), fast::sub(t[2], t[0]));
        if fast::dot(n, n).sqrt() > 1e-3 * tsize * tsize {
            break t;
        }
    };
    let n = fast::unit(fast::cross(
        fast::sub(tri[1], tri[0]),
        fast::sub(tri[2], tri[0]),
    ));
    let dt = rng.log_range(1e-3, 0.1);
    let w = {
        let a = rng.range(-0.2, 1.0);
        let b = rng.range(-0.2, 1.0 - a);
        [a, b, 1.0 - a - b]
    };
    let target = fast::mad(
        fast::mad(fast::mad([0.0; 3], w[0], tri[0]), w[1], tri[1]),
        w[2],
        tri[2],
    );
    let (center, disp) = match rng.below(3) {
        // Aimed at the triangle from in front or anywhere.
        0 | 1 => {
            let start = fast::mad(
                fast::mad(target, rng.range(-0.5, 3.0) * (size + tsize), n),
                rng.range(0.0, 1.0) * size,
                rng.dir(),
            );
            (
                start,
                fast::mad([0.0; 3], rng.range(0.3, 2.5), fast::sub(target, start)),
            )
        }
        // Sliding parallel to the face.
        _ => {
            let u = fast::unit(fast::cross(n, rng.dir()));
            let start = fast::mad(
                fast::mad(target, rng.range(0.0, 1.5) * size, n),
                -rng.range(0.5, 2.0) * tsize,
                u,
            );
            (start, fast::mad([0.0; 3], rng.range(0.5, 3.0) * tsize, u))
        }
    };
    let offset = if rng.below(2) == 0 {
        rng.vec(size)
    } else {
        [0.0; 3]
    };
    let body = fast::sub(center, offset);
    Case {
        vertices,
        faces,
        cuboid,
        body: fast::to_f32(body),
        offset: fast::to_f32(offset),
        velocity: fast::to_f32(fast::mad([0.0; 3], 1.0 / dt, disp)),
        dt: dt as f32,
        tri: tri.map(fast::to_f32),
    }
}

#[test]
fn random_solid_sweeps_agree_with_the_exact_oracle() {
    let n = oracle_cases(10_000);
    let mut rng = SplitMix64::new(0x5EED_0000_0000_0004);
    let mut tally = Tally::default();
    for i in 0..n {
        let case = make_case(&mut rng);
        judge(&case, &mut tally, i % 100 == 0);
    }
    tally.report();
    assert!(
        tally.hits > n / 10 && tally.misses > n / 20 && tally.exact_hit_checks >= n / 100,
        "{tally:?}"
    );
    assert!(tally.refused < n / 20, "{tally:?}");
}

#[test]
fn hand_built_solid_cases_agree_with_the_exact_oracle() {
    let h = Vec3::new(0.5, 0.5, 0.5);
    let mut v = Vec::new();
    for i in 0..8 {
        let s = |bit: usize| if i & bit == 0 { -1.0 } else { 1.0 };
        v.push(Vec3::new(s(1) * h.x, s(2) * h.y, s(4) * h.z));
    }
    let floor = [
        Vec3::new(-4.0, -4.0, 0.0),
        Vec3::new(4.0, -4.0, 0.0),
        Vec3::new(0.0, 4.0, 0.0),
    ];
    let mk = |body: Vec3, offset: Vec3, velocity: Vec3| Case {
        vertices: v.clone(),
        faces: BOX_FACES.to_vec(),
        cuboid: Some(h),
        body,
        offset,
        velocity,
        dt: 1.0,
        tri: floor,
    };
    let cases = [
        // Falling flat.
        mk(
            Vec3::new(0.0, 0.0, 2.5),
            Vec3::zeros(),
            Vec3::new(0.0, 0.0, -4.0),
        ),
        // Sliding with zero clearance: no impact.
        mk(
            Vec3::new(0.0, 0.0, 0.5),
            Vec3::zeros(),
            Vec3::new(3.0, 1.0, 0.0),
        ),
        // Off its body origin by 2 m.
        mk(
            Vec3::new(0.0, 0.0, 5.0),
            Vec3::new(0.0, 0.0, -2.0),
            Vec3::new(0.0, 0.0, -5.0),
        ),
        // Wholly behind, rising.
        mk(
            Vec3::new(0.0, 0.0, -0.75),
            Vec3::zeros(),
            Vec3::new(0.0, 0.0, 4.0),
        ),
        // Edge-on: sliding in sideways at the floor's height into the
        // triangle's edge 0 (y = -4), half above and half below the plane.
        mk(
            Vec3::new(0.0, -6.0, 0.0),
            Vec3::zeros(),
            Vec3::new(0.0, 3.0, 0.0),
        ),
    ];
    let mut tally = Tally::default();
    for c in &cases {
        judge(c, &mut tally, true);
    }
    tally.report();
    assert_eq!(tally.refused, 0, "{tally:?}");
    assert_eq!(
        (tally.hits, tally.misses, tally.behind),
        (3, 2, 1),
        "{tally:?}"
    );
}
