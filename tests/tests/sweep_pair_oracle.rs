//! Exact rational oracle for `sweep_segment_pair`: sphere-sphere,
//! sphere-capsule and capsule-capsule pairs under relative motion (aimed,
//! grazing at the summed radius, crossed axes, parallel axes, large
//! coordinates) checked against the exact segment-segment distance.
//!
//! The contract is that of `sweep_sphere_oracle.rs` with the summed radius
//! and the relative displacement `(v_A - v_B) dt` (exact in the oracle),
//! `delta = 2^-40 L`, `L = R + |d| + |A| + |B| + |a_0 - b_0|`. There is no
//! one-sided rule between members. Also checked: swapping A and B gives the
//! same time and the opposite normal.
//!
//! Default 100,000 random cases; set `PARAPET_ORACLE_CASES` for more.

mod sweep_support;

use parapet_math::Vec3;
use parapet_narrow::sweep::{sweep_segment_pair, MovingSegment, SweepOutcome};
use sweep_support::fast::{self, V};
use sweep_support::*;

struct MovingPair {
    a0: P,
    a1: P,
    b0: P,
    b1: P,
    d: P,
}

impl Moving for MovingPair {
    fn closest(&self, t: &Q) -> (P, P) {
        let shift = scale(&self.d, t);
        closest_segment_segment(
            &add(&self.a0, &shift),
            &add(&self.a1, &shift),
            &self.b0,
            &self.b1,
        )
    }
    fn d(&self) -> &P {
        &self.d
    }
}

#[derive(Debug, Clone, Copy)]
struct Case {
    a: MovingSegment,
    b: MovingSegment,
    dt: f32,
}

impl Case {
    fn disp(&self) -> V {
        let rel = fast::sub(fast::of(self.a.velocity), fast::of(self.b.velocity));
        fast::mad([0.0; 3], self.dt as f64, rel)
    }
    fn f64_at(&self, t: f64) -> (f64, f64) {
        let d = self.disp();
        let (x, y) = fast::closest_segment_segment(
            fast::mad(fast::of(self.a.p0), t, d),
            fast::mad(fast::of(self.a.p1), t, d),
            fast::of(self.b.p0),
            fast::of(self.b.p1),
        );
        let g = fast::sub(x, y);
        (fast::dot(g, g).sqrt(), 2.0 * fast::dot(g, d))
    }
}

fn judge(case: &Case, tally: &mut Tally, checks: Checks) {
    tally.cases += 1;
    let out = sweep_segment_pair(&case.a, &case.b, case.dt);
    let swapped = sweep_segment_pair(&case.b, &case.a, case.dt);
    if let SweepOutcome::Refused(e) = out {
        tally.refusal(&e);
        if !swapped.is_refused() {
            tally
                .failures
                .push(format!("refusal depends on the order: {case:?}"));
        }
        return;
    }
    // Swapping the members: same time; opposite normal (to rounding of the
    // re-centred arithmetic, which differs by the frame).
    match (out.impact(), swapped.impact()) {
        (None, None) => {}
        (Some(x), Some(y)) => {
            let time_ok = (x.time - y.time).abs() <= 1e-9 + 1e-6 * x.time.max(y.time);
            let grazing = (x.normal + y.normal).norm() > 1e-6;
            if !time_ok || grazing {
                tally.ambiguous += 1;
            }
        }
        _ => tally.ambiguous += 1,
    }
    if let Some(t) = out.time() {
        if !(0.0..=1.0).contains(&t) {
            tally
                .failures
                .push(format!("time {t} outside [0, 1]: {case:?}"));
            return;
        }
    }
    let r = case.a.radius as f64 + case.b.radius as f64;
    let d = case.disp();
    let len = |p: V| fast::dot(p, p).sqrt();
    let l = r
        + len(d)
        + len(fast::sub(fast::of(case.a.p1), fast::of(case.a.p0)))
        + len(fast::sub(fast::of(case.b.p1), fast::of(case.b.p0)))
        + len(fast::sub(fast::of(case.a.p0), fast::of(case.b.p0)));
    let delta = l * 2f64.powi(-40);
    let make = || MovingPair {
        a0: qv(case.a.p0),
        a1: qv(case.a.p1),
        b0: qv(case.b.p0),
        b1: qv(case.b.p1),
        d: scale(
            &sub(&qv(case.a.velocity), &qv(case.b.velocity)),
            &q(case.dt as f64),
        ),
    };
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
    let ra = (size * rng.log_range(1e-3, 0.5)).max(1.5e-4);
    let rb = (size * rng.log_range(1e-3, 0.5)).max(1.5e-4);
    let half_a = if rng.below(3) == 0 {
        0.0
    } else {
        size * rng.log_range(1e-3, 1.0)
    };
    let half_b = if rng.below(3) == 0 {
        0.0
    } else {
        size * rng.log_range(1e-3, 1.0)
    };
    let axis_a = rng.dir();
    let axis_b = if rng.below(5) == 0 { axis_a } else { rng.dir() };
    let dt = rng.log_range(1e-3, 0.1);
    let mid_b = rng.vec(size);
    let vb = fast::mad([0.0; 3], rng.range(0.0, 2.0) * size / dt, rng.dir());
    let kind = rng.below(3);
    let (mid_a, rel) = match kind {
        // Aimed at a point of B's axis from anywhere.
        0 | 1 => {
            let target = fast::mad(mid_b, rng.range(-1.2, 1.2) * half_b, axis_b);
            let start = fast::mad(target, rng.range(0.0, 4.0) * size, rng.dir());
            let aim = fast::mad(start, rng.range(-1.2, 1.2) * half_a, axis_a);
            (
                start,
                fast::mad([0.0; 3], rng.range(0.3, 2.5), fast::sub(target, aim)),
            )
        }
        // Grazing: A's closest approach at R (1 + eps) from a point of B.
        _ => {
            let fp = fast::mad(mid_b, rng.range(-1.0, 1.0) * half_b, axis_b);
            let off = rng.dir();
            let eps = [0.0, 1e-12, -1e-12, 1e-7, -1e-7, 1e-3, -1e-3][rng.below(7)];
            let closest = fast::mad(fp, (ra + rb) * (1.0 + eps), off);
            let u = fast::unit(fast::cross(off, rng.dir()));
            let len = rng.range(0.5, 3.0) * (size + ra + rb);
            (
                fast::mad(closest, -rng.range(0.2, 0.8) * len, u),
                fast::mad([0.0; 3], len, u),
            )
        }
    };
    let va = fast::mad(vb, 1.0 / dt, rel);
    let shift = if rng.below(8) == 0 {
        rng.vec(1.0e6)
    } else {
        [0.0; 3]
    };
    let big = shift.iter().fold(0.0f64, |m, x| m.max(x.abs())) + 10.0 * size + 4.0 * size;
    let fix = |r: f64| {
        if big / r > 60000.0 {
            (big / 60000.0).min(1.0e4)
        } else {
            r
        }
    };
    let (ra, rb) = (fix(ra), fix(rb));
    let at = |p: V| fast::to_f32(fast::mad(p, 1.0, shift));
    Case {
        a: MovingSegment::capsule(
            at(fast::mad(mid_a, -half_a, axis_a)),
            at(fast::mad(mid_a, half_a, axis_a)),
            ra as f32,
            fast::to_f32(va),
        ),
        b: MovingSegment::capsule(
            at(fast::mad(mid_b, -half_b, axis_b)),
            at(fast::mad(mid_b, half_b, axis_b)),
            rb as f32,
            fast::to_f32(vb),
        ),
        dt: dt as f32,
    }
}

#[test]
fn random_pair_sweeps_agree_with_the_exact_oracle() {
    let n = oracle_cases(100_000);
    let mut rng = SplitMix64::new(0x5EED_0000_0000_0003);
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
    assert!(tally.exact_miss_checks > 0 && tally.timed > 5, "{tally:?}");
    assert!(tally.refused < n / 20, "{tally:?}");
}

#[test]
fn hand_built_pair_cases_agree_with_the_exact_oracle() {
    let mut tally = Tally::default();
    let z = Vec3::zeros();
    let cases = [
        // Head-on spheres.
        Case {
            a: MovingSegment::sphere(Vec3::new(-5.0, 0.0, 0.0), 1.0, Vec3::new(8.0, 0.0, 0.0)),
            b: MovingSegment::sphere(Vec3::new(5.0, 0.0, 0.0), 1.0, Vec3::new(-8.0, 0.0, 0.0)),
            dt: 1.0,
        },
        // Spheres passing at exactly the summed radius: tangency.
        Case {
            a: MovingSegment::sphere(Vec3::new(-5.0, 1.0, 0.0), 0.25, Vec3::new(10.0, 0.0, 0.0)),
            b: MovingSegment::sphere(z, 0.75, z),
            dt: 1.0,
        },
        // Crossed capsules falling onto each other.
        Case {
            a: MovingSegment::capsule(
                Vec3::new(-2.0, 0.0, 3.0),
                Vec3::new(2.0, 0.0, 3.0),
                0.5,
                Vec3::new(0.0, 0.0, -4.0),
            ),
            b: MovingSegment::capsule(Vec3::new(0.0, -2.0, 0.0), Vec3::new(0.0, 2.0, 0.0), 0.5, z),
            dt: 1.0,
        },
        // Parallel capsules side by side, closing.
        Case {
            a: MovingSegment::capsule(
                Vec3::new(-1.0, 2.0, 0.0),
                Vec3::new(1.0, 2.0, 0.0),
                0.5,
                Vec3::new(0.0, -3.0, 0.0),
            ),
            b: MovingSegment::capsule(Vec3::new(-1.5, 0.0, 0.0), Vec3::new(0.5, 0.0, 0.0), 0.5, z),
            dt: 1.0,
        },
        // A sphere onto a capsule's cap, end on.
        Case {
            a: MovingSegment::sphere(Vec3::new(0.0, 0.0, 5.0), 0.5, Vec3::new(0.0, 0.0, -6.0)),
            b: MovingSegment::capsule(Vec3::new(0.0, 0.0, -1.0), Vec3::new(0.0, 0.0, 1.0), 0.5, z),
            dt: 1.0,
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
    assert_eq!(tally.hits, 4, "{tally:?}");
}
