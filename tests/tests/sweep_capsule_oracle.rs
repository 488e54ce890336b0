//! Exact rational oracle for `sweep_capsule_triangle`: random and hand-built
//! capsule sweeps (aimed, lying parallel to the face, grazing the cylinder,
//! straddling the plane, behind, large coordinates) checked against the
//! exact segment-triangle distance.
//!
//! The contract is that of `sweep_sphere_oracle.rs` with the capsule's
//! segment in place of the sphere's centre, `delta = 2^-40 L` and
//! `L = r + |d| + |p1 - p0| + max |v_i - p0|`; admission is judged on both
//! endpoints (behind only when both start behind by more than `delta`).
//! Every case is also swept with its endpoints reversed, which must give the
//! same time, point and normal bit for bit.
//!
//! Default 100,000 random cases, every 500th judged wholly in exact arithmetic (the exact segment-triangle distance costs
//! about five times the point-triangle one); set `PARAPET_ORACLE_CASES` for
//! more.

mod sweep_support;

use num_traits::Signed;
use parapet_math::Vec3;
use parapet_narrow::sweep::{sweep_capsule_triangle, CapsulePart, SweepOutcome};
use sweep_support::fast::{self, V};
use sweep_support::*;

/// The capsule's segment moving by `d` against a fixed triangle, exact.
struct MovingSegment {
    p0: P,
    p1: P,
    d: P,
    tri: [P; 3],
}

impl Moving for MovingSegment {
    fn closest(&self, t: &Q) -> (P, P) {
        let shift = scale(&self.d, t);
        let (a, b) = (add(&self.p0, &shift), add(&self.p1, &shift));
        closest_segment_triangle(&a, &b, &self.tri[0], &self.tri[1], &self.tri[2])
    }
    fn d(&self) -> &P {
        &self.d
    }
}

#[derive(Debug, Clone, Copy)]
struct Case {
    p0: Vec3,
    p1: Vec3,
    radius: f32,
    velocity: Vec3,
    dt: f32,
    tri: [Vec3; 3],
}

impl Case {
    fn disp(&self) -> V {
        fast::mad([0.0; 3], self.dt as f64, fast::of(self.velocity))
    }
    fn f64_at(&self, t: f64) -> (f64, f64) {
        let d = self.disp();
        let [a, b, c] = self.tri.map(fast::of);
        let (x, y) = fast::closest_segment_triangle(
            fast::mad(fast::of(self.p0), t, d),
            fast::mad(fast::of(self.p1), t, d),
            a,
            b,
            c,
        );
        let g = fast::sub(x, y);
        (fast::dot(g, g).sqrt(), 2.0 * fast::dot(g, d))
    }
}

fn judge(case: &Case, tally: &mut Tally, checks: Checks) {
    tally.cases += 1;
    let out = sweep_capsule_triangle(
        case.p0,
        case.p1,
        case.radius,
        case.velocity,
        case.dt,
        &case.tri,
    );
    let rev = sweep_capsule_triangle(
        case.p1,
        case.p0,
        case.radius,
        case.velocity,
        case.dt,
        &case.tri,
    );
    match (&out, &rev) {
        (SweepOutcome::Refused(a), SweepOutcome::Refused(b)) if a == b => {}
        (SweepOutcome::Miss, SweepOutcome::Miss) => {}
        (SweepOutcome::Hit(a), SweepOutcome::Hit(b))
        | (SweepOutcome::InitiallyTouching(a), SweepOutcome::InitiallyTouching(b))
            if (a.time, a.point, a.normal, a.feature.triangle)
                == (b.time, b.point, b.normal, b.feature.triangle)
                && match (a.feature.capsule, b.feature.capsule) {
                    (CapsulePart::Cap(i), CapsulePart::Cap(j)) => {
                        i + j == 1 || (case.p0 == case.p1 && i == j)
                    }
                    (x, y) => x == y,
                } => {}
        _ => tally.failures.push(format!(
            "reversal changed the result: {out:?} vs {rev:?}: {case:?}"
        )),
    }
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
    let p0 = fast::of(case.p0);
    let d = case.disp();
    let seg = fast::sub(fast::of(case.p1), p0);
    let far = case
        .tri
        .iter()
        .map(|v| fast::dot(fast::sub(fast::of(*v), p0), fast::sub(fast::of(*v), p0)).sqrt())
        .fold(0.0f64, f64::max);
    let l = r + fast::dot(d, d).sqrt() + fast::dot(seg, seg).sqrt() + far;
    let delta = l * 2f64.powi(-40);
    let make = || MovingSegment {
        p0: qv(case.p0),
        p1: qv(case.p1),
        d: scale(&qv(case.velocity), &q(case.dt as f64)),
        tri: case.tri.map(qv),
    };
    // Admission on both endpoints' heights: exact unless the f64 heights
    // (error ~1e-15 L) are clearly beyond delta.
    let mut clear_behind = 0;
    let mut in_front = false;
    let [fa, fb, fc] = case.tri.map(fast::of);
    let nf = fast::cross(fast::sub(fb, fa), fast::sub(fc, fa));
    let nfl = fast::dot(nf, nf).sqrt();
    for pf in [case.p0, case.p1] {
        let hf = fast::dot(nf, fast::sub(fast::of(pf), fa)) / nfl;
        let (clear, negative) = if hf.abs() > 2.0 * delta && !checks.all_exact {
            (true, hf < 0.0)
        } else {
            let tri = case.tri.map(qv);
            let n = cross(&sub(&tri[1], &tri[0]), &sub(&tri[2], &tri[0]));
            let h = dot(&n, &sub(&qv(pf), &tri[0]));
            let dq = q(delta);
            (&h * &h > &dq * &dq * dot(&n, &n), h.is_negative())
        };
        if clear && negative {
            clear_behind += 1;
        } else if clear {
            in_front = true;
        }
    }
    if clear_behind == 2 {
        tally.behind += 1;
        if !out.is_miss() {
            tally
                .failures
                .push(format!("caught from behind: {out:?} {case:?}"));
        }
        return;
    }
    if !in_front {
        tally.ambiguous += 1;
        return;
    }
    let said = Said::of(&out);
    judge_contact(
        make,
        said,
        Bounds { r, delta, l },
        |t| case.f64_at(t),
        || fast::min_over_step(|t| case.f64_at(t).0),
        tally,
        checks,
        || format!("{case:?}"),
    );
}

fn make_case(rng: &mut SplitMix64) -> Case {
    let size = rng.log_range(0.01, 100.0);
    let tri = loop {
        let t = [rng.vec(size), rng.vec(size), rng.vec(size)];
        let n = fast::cross(fast::sub(t[1], t[0]), fast::sub(t[2], t[0]));
        if fast::dot(n, n).sqrt() > 1e-3 * size * size {
            break t;
        }
    };
    let n = fast::unit(fast::cross(
        fast::sub(tri[1], tri[0]),
        fast::sub(tri[2], tri[0]),
    ));
    let r = (size * rng.log_range(1e-3, 0.5)).max(1.5e-4);
    let half = size * rng.log_range(1e-3, 1.0);
    let dt = rng.log_range(1e-3, 0.1);
    let w = {
        let mut x = [rng.range(-0.2, 1.2), rng.range(-0.2, 1.2), 0.0];
        x[2] = 1.0 - x[0] - x[1];
        x
    };
    let target = fast::mad(
        fast::mad(fast::mad([0.0; 3], w[0], tri[0]), w[1], tri[1]),
        w[2],
        tri[2],
    );
    let kind = rng.below(6);
    let (axis, mid, disp) = match kind {
        // Lying parallel to the face at height r (1 + eps) or above it,
        // dropping onto it or sliding along it.
        0 | 1 => {
            let axis = fast::unit(fast::cross(n, rng.dir()));
            let eps = [0.0, 1e-9, -1e-9, 1e-5, -1e-5, 0.5][rng.below(6)];
            let mid = fast::mad(target, r * (1.0 + eps), n);
            let disp = if kind == 0 {
                fast::mad([0.0; 3], -rng.range(0.0, 2.0) * size, n)
            } else {
                fast::mad(
                    [0.0; 3],
                    rng.range(0.5, 3.0) * size,
                    fast::unit(fast::cross(n, rng.dir())),
                )
            };
            let start = fast::mad(mid, -rng.range(0.0, 1.0), disp);
            (axis, start, disp)
        }
        // Grazing: the capsule axis passes a vertex or an edge point at
        // r (1 + eps), moving perpendicular to the offset.
        2 => {
            let i = rng.below(3);
            let fp = fast::mad(
                tri[i],
                rng.next_unit() * rng.below(2) as f64,
                fast::sub(tri[(i + 1) % 3], tri[i]),
            );
            let off = fast::unit(fast::mad(n, rng.range(-1.0, 1.0), rng.dir()));
            let axis = fast::unit(fast::cross(off, rng.dir()));
            let eps = [0.0, 1e-12, -1e-12, 1e-7, -1e-7, 1e-3, -1e-3][rng.below(7)];
            let closest = fast::mad(fp, r * (1.0 + eps), off);
            let mut u = fast::cross(off, axis);
            if fast::dot(u, u) < 1e-9 {
                u = fast::cross(off, rng.dir());
            }
            let u = fast::unit(u);
            let len = rng.range(0.5, 3.0) * (size + r);
            let mid = fast::mad(
                fast::mad(closest, rng.range(-0.9, 0.9) * half, axis),
                -rng.range(0.2, 0.8) * len,
                u,
            );
            (axis, mid, fast::mad([0.0; 3], len, u))
        }
        // Aimed from anywhere, possibly straddling or behind the plane.
        _ => {
            let start = fast::mad(target, rng.range(-0.5, 3.0) * size, n);
            let start = fast::mad(start, rng.range(0.0, 1.0) * size, rng.dir());
            let disp = fast::mad([0.0; 3], rng.range(0.3, 2.5), fast::sub(target, start));
            (rng.dir(), start, disp)
        }
    };
    let shift = if rng.below(8) == 0 {
        rng.vec(1.0e6)
    } else {
        [0.0; 3]
    };
    let big =
        shift.iter().fold(0.0f64, |m, x| m.max(x.abs())) + fast::dot(mid, mid).sqrt() + size + half;
    let r = if big / r > 60000.0 {
        (big / 60000.0).min(1.0e4)
    } else {
        r
    };
    let at = |p: V| fast::to_f32(fast::mad(p, 1.0, shift));
    Case {
        p0: at(fast::mad(mid, -half, axis)),
        p1: at(fast::mad(mid, half, axis)),
        radius: r as f32,
        velocity: fast::to_f32(fast::mad([0.0; 3], 1.0 / dt, disp)),
        dt: dt as f32,
        tri: [at(tri[0]), at(tri[1]), at(tri[2])],
    }
}

#[test]
fn random_capsule_sweeps_agree_with_the_exact_oracle() {
    let n = oracle_cases(100_000);
    let mut rng = SplitMix64::new(0x5EED_0000_0000_0002);
    let mut tally = Tally::default();
    for i in 0..n {
        let case = make_case(&mut rng);
        judge(
            &case,
            &mut tally,
            Checks {
                time_check: i % 500 == 0,
                all_exact: i % 100 == 0,
            },
        );
    }
    tally.report();
    assert!(tally.hits > n / 10 && tally.misses > n / 20, "{tally:?}");
    assert!(
        tally.behind > 0 && tally.exact_miss_checks > 0 && tally.timed > 5,
        "{tally:?}"
    );
    assert!(tally.refused < n / 20, "{tally:?}");
}

fn floor_tri() -> [Vec3; 3] {
    [
        Vec3::new(-1.0, -1.0, 0.0),
        Vec3::new(1.0, -1.0, 0.0),
        Vec3::new(0.0, 1.0, 0.0),
    ]
}

#[test]
fn hand_built_capsule_cases_agree_with_the_exact_oracle() {
    let mut tally = Tally::default();
    let cases = [
        // Lying across the triangle, both caps outside, dropping flat.
        Case {
            p0: Vec3::new(-3.0, 0.0, 1.0),
            p1: Vec3::new(3.0, 0.0, 1.0),
            radius: 0.5,
            velocity: Vec3::new(0.0, 0.0, -1.0),
            dt: 1.0,
            tri: floor_tri(),
        },
        // Lying, sliding at exactly one radius: tangency, no hit.
        Case {
            p0: Vec3::new(-3.0, -0.5, 0.5),
            p1: Vec3::new(-2.0, 0.5, 0.5),
            radius: 0.5,
            velocity: Vec3::new(5.0, 0.0, 0.0),
            dt: 1.0,
            tri: floor_tri(),
        },
        // Standing, straddling the plane beside the triangle, into edge 0.
        Case {
            p0: Vec3::new(0.0, -3.0, -1.0),
            p1: Vec3::new(0.0, -3.0, 1.0),
            radius: 0.5,
            velocity: Vec3::new(0.0, 4.0, 0.0),
            dt: 1.0,
            tri: floor_tri(),
        },
        // Crossing over vertex 2 with the cylinder.
        Case {
            p0: Vec3::new(-2.0, 3.0, 0.25),
            p1: Vec3::new(2.0, 3.0, 0.25),
            radius: 0.5,
            velocity: Vec3::new(0.0, -4.0, 0.0),
            dt: 1.0,
            tri: floor_tri(),
        },
        // Both ends behind: not caught.
        Case {
            p0: Vec3::new(0.0, 0.0, -2.0),
            p1: Vec3::new(0.1, 0.0, -1.0),
            radius: 0.25,
            velocity: Vec3::new(0.0, 0.0, 3.0),
            dt: 1.0,
            tri: floor_tri(),
        },
        // Tilted, falling onto the face with its lower cap.
        Case {
            p0: Vec3::new(0.3, -0.2, 1.0),
            p1: Vec3::new(-0.1, 0.4, 2.5),
            radius: 0.2,
            velocity: Vec3::new(0.7, -0.3, -4.0),
            dt: 0.5,
            tri: floor_tri(),
        },
    ];
    for c in &cases {
        judge(
            c,
            &mut tally,
            Checks {
                time_check: true,
                all_exact: true,
            },
        );
    }
    tally.report();
    assert_eq!(tally.refused, 0, "{tally:?}");
    assert_eq!(tally.behind, 1, "{tally:?}");
    assert!(tally.hits >= 4, "{tally:?}");
}
