//! Exact rational oracle for `sweep_sphere_triangle`: random and hand-built
//! cases (aimed, grazing, exact tangency, parallel, edge-on, behind, thin
//! triangles, large coordinates) checked against exact squared distances.
//!
//! # The contract checked, with `delta = 2^-40 * L`
//! `L = r + |d| + max |v_i - c|` is the length scale of the re-centred
//! problem; `delta` is about 4096 `f64` ulps of it, room for the sweep's
//! roundoff in cross products of operands of size `L` (a few ulps) and for
//! the approach bound (32 ulps of `|d|`).
//! - **admission**: a centre exactly behind the face plane by more than
//!   `delta` gives Miss; within `delta` of the plane the case is counted as
//!   ambiguous and not judged.
//! - **hit at `t`**: the exact distance at `t` is at most `r + delta`, and the
//!   exact distance stays above `r - delta` on `[0, t]` (so no deeper contact
//!   was skipped).
//! - **miss**: the exact minimum distance over the step is above `r - delta`
//!   (zero false negatives).
//! - **initial contact**: exact start distance at most `r + delta`; a hit or
//!   miss needs start distance above `r - delta`.
//! - **time**: on a subset of hits, the exact first time `T` at which the
//!   distance reaches `r` (bisection to `2^-40`) agrees with parapet's time
//!   within `delta` divided by the exact approach speed, plus `2^-38`.
//!
//! The minimum distance of a miss is first estimated by an independent `f64`
//! search (Ericson's closest point, golden-section over the convex distance);
//! only when it lies within `1e-9 L` of `r - delta` (the golden-section
//! estimate is within about `1e-15 L` of the true minimum) is the exact
//! bracket run. Hits, initial contacts and admission are prefiltered the same
//! way with margins of `delta / 4`. Every 200th case skips the prefilter and
//! is judged wholly in exact arithmetic, and every 1000th hit also gets the
//! exact time bisection; the tally printed by the test gives the counts.
//! Default 100,000 random cases; set `PARAPET_ORACLE_CASES` for more.

mod sweep_support;

use num_traits::Signed;
use parapet_math::Vec3;
use parapet_narrow::sweep::{sweep_sphere_triangle, SweepOutcome};
use sweep_support::fast;
use sweep_support::*;

/// A sphere centre moving by `d` against a fixed triangle, in exact rationals.
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

/// One sweep query in `f32`, as parapet receives it.
#[derive(Debug, Clone, Copy)]
struct Case {
    center: Vec3,
    radius: f32,
    velocity: Vec3,
    dt: f32,
    tri: [Vec3; 3],
}

// ---------- independent f64 estimate (prefilter only) ----------

use fast::V;

/// f64 estimate of the distance and of the slope of the squared distance at t.
fn f64_at(case: &Case, t: f64) -> (f64, f64) {
    let c = fast::of(case.center);
    let d = fast::mad([0.0; 3], case.dt as f64, fast::of(case.velocity));
    let [a, b, cc] = case.tri.map(fast::of);
    let p = fast::mad(c, t, d);
    let g = fast::sub(p, fast::closest_point_triangle(p, a, b, cc));
    (fast::dot(g, g).sqrt(), 2.0 * fast::dot(g, d))
}

/// Minimum over t in [0, 1] of the convex distance (golden section, f64).
fn f64_min_distance(case: &Case) -> f64 {
    fast::min_over_step(|t| f64_at(case, t).0)
}

// ---------- the judgement ----------

fn judge(case: &Case, tally: &mut Tally, time_check: bool, all_exact: bool) {
    tally.cases += 1;
    let out = sweep_sphere_triangle(case.center, case.radius, case.velocity, case.dt, &case.tri);
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
    let r = case.radius as f64;
    let c = fast::of(case.center);
    let dv = fast::mad([0.0; 3], case.dt as f64, fast::of(case.velocity));
    let far = case
        .tri
        .iter()
        .map(|v| fast::dot(fast::sub(fast::of(*v), c), fast::sub(fast::of(*v), c)).sqrt())
        .fold(0.0f64, f64::max);
    let l = r + fast::dot(dv, dv).sqrt() + far;
    let delta = l * 2f64.powi(-40);

    let make = || MovingPoint {
        c: qv(case.center),
        d: scale(&qv(case.velocity), &q(case.dt as f64)),
        tri: case.tri.map(qv),
    };
    // Admission: signed height of the start centre; exact unless the f64
    // height (error ~1e-15 L) is clearly beyond delta.
    let behind = {
        let [a, b, cc] = case.tri.map(fast::of);
        let nf = fast::cross(fast::sub(b, a), fast::sub(cc, a));
        let hf = fast::dot(nf, fast::sub(c, a)) / fast::dot(nf, nf).sqrt();
        if hf.abs() > 2.0 * delta && !all_exact {
            hf < 0.0
        } else {
            let tri = case.tri.map(qv);
            let n = cross(&sub(&tri[1], &tri[0]), &sub(&tri[2], &tri[0]));
            let h = dot(&n, &sub(&qv(case.center), &tri[0]));
            let dq = q(delta);
            if &h * &h <= &dq * &dq * dot(&n, &n) {
                tally.ambiguous += 1;
                return;
            }
            h.is_negative()
        }
    };
    if behind {
        tally.behind += 1;
        if !out.is_miss() {
            tally
                .failures
                .push(format!("caught from behind: {out:?} {case:?}"));
        }
        return;
    }
    let said = Said::of(&out);
    judge_contact(
        make,
        said,
        Bounds { r, delta, l },
        |t| f64_at(case, t),
        || f64_min_distance(case),
        tally,
        Checks {
            time_check,
            all_exact,
        },
        || format!("{case:?}"),
    );
}

// ---------- case generators ----------

fn random_triangle(rng: &mut SplitMix64, size: f64) -> [[f64; 3]; 3] {
    loop {
        let t = [rng.vec(size), rng.vec(size), rng.vec(size)];
        let n = fast::cross(fast::sub(t[1], t[0]), fast::sub(t[2], t[0]));
        if fast::dot(n, n).sqrt() > 1e-3 * size * size {
            return t;
        }
    }
}

/// A point of the triangle's plane from barycentric weights that may leave
/// the triangle by `spill`.
fn bary(rng: &mut SplitMix64, t: &[[f64; 3]; 3], spill: f64) -> V {
    let mut w = [
        rng.range(-spill, 1.0),
        rng.range(-spill, 1.0),
        rng.range(-spill, 1.0),
    ];
    let s = w[0] + w[1] + w[2];
    if s.abs() < 1e-3 {
        w = [1.0 / 3.0; 3];
    } else {
        w = [w[0] / s, w[1] / s, w[2] / s];
    }
    let mut p = [0.0; 3];
    for (k, v) in t.iter().enumerate() {
        p = fast::mad(p, w[k], *v);
    }
    p
}

fn make_case(rng: &mut SplitMix64) -> Case {
    let kind = rng.below(9);
    let size = rng.log_range(0.01, 100.0);
    let mut tri = random_triangle(rng, size);
    if kind == 6 {
        // Near-degenerate: squash the third vertex towards the first edge,
        // down to about twice the thin-triangle limit (2^-20 relative).
        let k = rng.log_range(2e-6, 1e-2);
        let mid = fast::mad(tri[0], 0.5, fast::sub(tri[1], tri[0]));
        tri[2] = fast::mad(mid, k, fast::sub(tri[2], mid));
    }
    if kind == 7 {
        // Axis-aligned floor at a random height, axis-aligned motion below.
        let z = rng.range(-size, size);
        for v in tri.iter_mut() {
            v[2] = z;
        }
        if fast::cross(fast::sub(tri[1], tri[0]), fast::sub(tri[2], tri[0]))[2] < 0.0 {
            tri.swap(1, 2);
        }
    }
    let n = fast::unit(fast::cross(
        fast::sub(tri[1], tri[0]),
        fast::sub(tri[2], tri[0]),
    ));
    let r = (size * rng.log_range(1e-3, 1.0)).max(1.5e-4);
    let dt = rng.log_range(1e-3, 0.1);
    let (center, disp): (V, V) = match kind {
        // Aimed at a point of the plane around the triangle.
        0..=2 | 6 => {
            let target = bary(rng, &tri, 0.3);
            let start = fast::mad(
                fast::mad(target, rng.range(0.0, 3.0) * size, n),
                rng.range(-1.0, 1.0) * size,
                rng.dir(),
            );
            let over = rng.range(0.3, 2.5);
            (start, fast::mad([0.0; 3], over, fast::sub(target, start)))
        }
        // Grazing: closest approach of the path at r (1 + eps) from a point
        // of the triangle's boundary or face.
        3 | 4 => {
            let feature_point = match rng.below(3) {
                0 => tri[rng.below(3)],
                1 => {
                    let i = rng.below(3);
                    fast::mad(tri[i], rng.next_unit(), fast::sub(tri[(i + 1) % 3], tri[i]))
                }
                _ => bary(rng, &tri, 0.0),
            };
            let eps = [0.0, 1e-12, -1e-12, 1e-9, -1e-9, 1e-6, -1e-6, 1e-3, -1e-3][rng.below(9)];
            // Outward direction: the normal tilted at random.
            let w = fast::unit(fast::mad(n, rng.range(-0.8, 0.8), rng.dir()));
            let w = if fast::dot(w, n) < 0.0 {
                fast::mad(w, -2.0 * fast::dot(w, n), n)
            } else {
                w
            };
            let mut u = fast::cross(w, rng.dir());
            while fast::dot(u, u) < 1e-6 {
                u = fast::cross(w, rng.dir());
            }
            let u = fast::unit(u);
            let closest = fast::mad(feature_point, r * (1.0 + eps), w);
            let len = rng.range(0.5, 4.0) * (r + size);
            let frac = rng.range(0.2, 0.8);
            let start = fast::mad(closest, -frac * len, u);
            (start, fast::mad([0.0; 3], len, u))
        }
        // Parallel to the face at height r (1 + eps), or edge-on in the plane.
        5 | 8 => {
            let eps = [0.0, 1e-9, -1e-9, 1e-4, -1e-4][rng.below(5)];
            let height = if kind == 8 { 0.0 } else { r * (1.0 + eps) };
            let inplane = fast::unit(fast::cross(n, rng.dir()));
            let through = bary(rng, &tri, 0.2);
            let len = rng.range(1.0, 4.0) * (size + r);
            let start = fast::mad(fast::mad(through, height, n), -0.5 * len, inplane);
            (start, fast::mad([0.0; 3], len, inplane))
        }
        // Axis-aligned straight down onto the floor.
        _ => {
            let target = bary(rng, &tri, 0.2);
            let start = fast::mad(target, rng.range(-0.5, 3.0) * size + r, [0.0, 0.0, 1.0]);
            (start, [0.0, 0.0, -rng.range(0.5, 4.0) * (size + r)])
        }
    };
    // Large coordinates for one case in eight: shift the whole scene by up to
    // 1e6 m per axis and keep the radius within 65536 radii of the origin.
    let shift = if rng.below(8) == 0 {
        rng.vec(1.0e6)
    } else {
        [0.0; 3]
    };
    let mut r = r;
    let big =
        shift.iter().fold(0.0f64, |m, x| m.max(x.abs())) + fast::dot(center, center).sqrt() + size;
    if big / r > 60000.0 {
        r = (big / 60000.0).min(1.0e4);
    }
    let vel = fast::mad([0.0; 3], 1.0 / dt, disp);
    Case {
        center: fast::to_f32(fast::mad(center, 1.0, shift)),
        radius: r as f32,
        velocity: fast::to_f32(vel),
        dt: dt as f32,
        tri: [
            fast::to_f32(fast::mad(tri[0], 1.0, shift)),
            fast::to_f32(fast::mad(tri[1], 1.0, shift)),
            fast::to_f32(fast::mad(tri[2], 1.0, shift)),
        ],
    }
}

#[test]
fn random_sphere_sweeps_agree_with_the_exact_oracle() {
    let n = oracle_cases(100_000);
    let mut rng = SplitMix64::new(0x5EED_0000_0000_0001);
    let mut tally = Tally::default();
    for i in 0..n {
        let case = make_case(&mut rng);
        judge(&case, &mut tally, i % 1000 == 0, i % 200 == 0);
    }
    tally.report();
    // The generator must exercise every outcome, or this test proves little.
    assert!(tally.hits > n / 10 && tally.misses > n / 10, "{tally:?}");
    assert!(
        tally.behind > 0 && tally.exact_miss_checks > 0 && tally.timed > 20,
        "{tally:?}"
    );
    assert!(tally.refused < n / 20, "{tally:?}");
}

fn floor_tri(z: f32) -> [Vec3; 3] {
    [
        Vec3::new(-1.0, -1.0, z),
        Vec3::new(1.0, -1.0, z),
        Vec3::new(0.0, 1.0, z),
    ]
}

#[test]
fn hand_built_cases_agree_with_the_exact_oracle() {
    let mut tally = Tally::default();
    let down = Vec3::new(0.0, 0.0, -30.0);
    let cases = [
        // The tunnelling example (docs/continuous-collision.md).
        Case {
            center: Vec3::new(0.0, 0.0, 0.15),
            radius: 0.1,
            velocity: down,
            dt: 0.01,
            tri: floor_tri(0.0),
        },
        // Exact tangency with the face (parallel at height r).
        Case {
            center: Vec3::new(-3.0, 0.0, 0.5),
            radius: 0.5,
            velocity: Vec3::new(6.0, 0.0, 0.0),
            dt: 1.0,
            tri: floor_tri(0.0),
        },
        // Exact tangency with vertex 2.
        Case {
            center: Vec3::new(-3.0, 1.0, 0.5),
            radius: 0.5,
            velocity: Vec3::new(6.0, 0.0, 0.0),
            dt: 1.0,
            tri: floor_tri(0.0),
        },
        // Edge-on: 1 mm over the plane, moving parallel to it into edge 0.
        Case {
            center: Vec3::new(0.25, -3.0, 0.001),
            radius: 0.5,
            velocity: Vec3::new(0.0, 4.0, 0.0),
            dt: 1.0,
            tri: floor_tri(0.0),
        },
        // Vertex-on: 1 mm over the plane, straight at vertex 0.
        Case {
            center: Vec3::new(-3.0, -3.0, 0.001),
            radius: 0.25,
            velocity: Vec3::new(3.0, 3.0, 0.0),
            dt: 1.0,
            tri: floor_tri(0.0),
        },
        // Large coordinates at the limit: 1e6 m with a 16 m radius.
        Case {
            center: Vec3::new(999_800.0, -999_800.0, 999_980.0),
            radius: 16.0,
            velocity: Vec3::new(0.0, 0.0, -100.0),
            dt: 0.1,
            tri: [
                Vec3::new(999_700.0, -999_900.0, 999_960.0),
                Vec3::new(999_900.0, -999_900.0, 999_960.0),
                Vec3::new(999_800.0, -999_700.0, 999_960.0),
            ],
        },
        // A sliver just above the thin-triangle limit.
        Case {
            center: Vec3::new(0.3, 0.0, 1.0),
            radius: 0.01,
            velocity: Vec3::new(0.0, 0.0, -2.0),
            dt: 1.0,
            tri: [
                Vec3::new(0.0, 0.0, 0.0),
                Vec3::new(1.0, 0.0, 0.0),
                Vec3::new(0.5, 2.0e-6, 0.0),
            ],
        },
    ];
    for c in &cases {
        judge(c, &mut tally, true, true);
    }
    tally.report();
    assert_eq!(tally.cases, cases.len());
    assert_eq!(tally.refused, 0, "{tally:?}");
    assert!(tally.hits >= 4, "{tally:?}");
}
