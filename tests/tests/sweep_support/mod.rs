//! The sweep oracles' shared support: exact rational geometry (num-rational
//! `BigRational`) and a deterministic random source. Nothing here comes from
//! parapet's implementation: closest points follow Ericson, *Real-Time
//! Collision Detection* 5.1.5 (point-triangle) and 5.1.9 (segment-segment),
//! written again in exact arithmetic.
//!
//! Every moving-shape distance used here is the distance between a convex set
//! translating along a line and a fixed convex set, which is a convex function
//! of time; its derivative is `2 (p - q) . d` at the closest pair `(p, q)`
//! (envelope theorem), so exact first-contact times, minima and lower bounds
//! follow from exact evaluations alone.

#![allow(dead_code)]

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};
use parapet_math::Vec3;

/// An exact rational number.
pub type Q = BigRational;
/// An exact rational point or vector.
pub type P = [Q; 3];

/// A finite `f64` as an exact rational.
pub fn q(x: f64) -> Q {
    Q::from_float(x).expect("finite")
}

/// An `f32` vector as an exact rational vector.
pub fn qv(v: Vec3) -> P {
    [q(v.x as f64), q(v.y as f64), q(v.z as f64)]
}

pub fn zero() -> Q {
    Q::zero()
}

pub fn add(a: &P, b: &P) -> P {
    [&a[0] + &b[0], &a[1] + &b[1], &a[2] + &b[2]]
}

pub fn sub(a: &P, b: &P) -> P {
    [&a[0] - &b[0], &a[1] - &b[1], &a[2] - &b[2]]
}

pub fn scale(a: &P, s: &Q) -> P {
    [&a[0] * s, &a[1] * s, &a[2] * s]
}

pub fn dot(a: &P, b: &P) -> Q {
    &a[0] * &b[0] + &a[1] * &b[1] + &a[2] * &b[2]
}

pub fn cross(a: &P, b: &P) -> P {
    [
        &a[1] * &b[2] - &a[2] * &b[1],
        &a[2] * &b[0] - &a[0] * &b[2],
        &a[0] * &b[1] - &a[1] * &b[0],
    ]
}

pub fn to_f64(x: &Q) -> f64 {
    use num_traits::ToPrimitive;
    x.to_f64().unwrap_or(f64::NAN)
}

/// The closest point of triangle `abc` to `p` (Ericson 5.1.5), exact.
pub fn closest_on_triangle(p: &P, a: &P, b: &P, c: &P) -> P {
    let ab = sub(b, a);
    let ac = sub(c, a);
    let ap = sub(p, a);
    let d1 = dot(&ab, &ap);
    let d2 = dot(&ac, &ap);
    if !d1.is_positive() && !d2.is_positive() {
        return a.clone();
    }
    let bp = sub(p, b);
    let d3 = dot(&ab, &bp);
    let d4 = dot(&ac, &bp);
    if !d3.is_negative() && d4 <= d3 {
        return b.clone();
    }
    let vc = &d1 * &d4 - &d3 * &d2;
    if !vc.is_positive() && !d1.is_negative() && !d3.is_positive() {
        let v = &d1 / (&d1 - &d3);
        return add(a, &scale(&ab, &v));
    }
    let cp = sub(p, c);
    let d5 = dot(&ab, &cp);
    let d6 = dot(&ac, &cp);
    if !d6.is_negative() && d5 <= d6 {
        return c.clone();
    }
    let vb = &d5 * &d2 - &d1 * &d6;
    if !vb.is_positive() && !d2.is_negative() && !d6.is_positive() {
        let w = &d2 / (&d2 - &d6);
        return add(a, &scale(&ac, &w));
    }
    let va = &d3 * &d6 - &d5 * &d4;
    let d43 = &d4 - &d3;
    let d56 = &d5 - &d6;
    if !va.is_positive() && !d43.is_negative() && !d56.is_negative() {
        let w = &d43 / (&d43 + &d56);
        return add(b, &scale(&sub(c, b), &w));
    }
    let denom = Q::one() / (&va + &vb + &vc);
    let v = &vb * &denom;
    let w = &vc * &denom;
    add(a, &add(&scale(&ab, &v), &scale(&ac, &w)))
}

fn clamp01(x: Q) -> Q {
    if x.is_negative() {
        Q::zero()
    } else if x > Q::one() {
        Q::one()
    } else {
        x
    }
}

/// The closest points of segments `p1q1` and `p2q2` (Ericson 5.1.9), exact;
/// either segment may have zero length.
pub fn closest_segment_segment(p1: &P, q1: &P, p2: &P, q2: &P) -> (P, P) {
    let d1 = sub(q1, p1);
    let d2 = sub(q2, p2);
    let r = sub(p1, p2);
    let a = dot(&d1, &d1);
    let e = dot(&d2, &d2);
    let f = dot(&d2, &r);
    let (s, t);
    if a.is_zero() && e.is_zero() {
        return (p1.clone(), p2.clone());
    }
    if a.is_zero() {
        s = Q::zero();
        t = clamp01(&f / &e);
    } else {
        let c = dot(&d1, &r);
        if e.is_zero() {
            t = Q::zero();
            s = clamp01(-&c / &a);
        } else {
            let b = dot(&d1, &d2);
            let denom = &a * &e - &b * &b;
            let mut s0 = if !denom.is_zero() {
                clamp01((&b * &f - &c * &e) / &denom)
            } else {
                Q::zero()
            };
            let mut t0 = (&b * &s0 + &f) / &e;
            if t0.is_negative() {
                t0 = Q::zero();
                s0 = clamp01(-&c / &a);
            } else if t0 > Q::one() {
                t0 = Q::one();
                s0 = clamp01((&b - &c) / &a);
            }
            s = s0;
            t = t0;
        }
    }
    (add(p1, &scale(&d1, &s)), add(p2, &scale(&d2, &t)))
}

/// Where segment `p q` meets the closed triangle `abc`, if it does (exact).
pub fn segment_meets_triangle(p: &P, qq: &P, a: &P, b: &P, c: &P) -> Option<P> {
    let n = cross(&sub(b, a), &sub(c, a));
    let hp = dot(&n, &sub(p, a));
    let hq = dot(&n, &sub(qq, a));
    if (hp.is_positive() && hq.is_positive()) || (hp.is_negative() && hq.is_negative()) {
        return None;
    }
    if hp.is_zero() && hq.is_zero() {
        // Coplanar: the distance is then attained on the triangle's edges or
        // at the segment's ends, which the caller examines anyway.
        return None;
    }
    let s = &hp / (&hp - &hq);
    let x = add(p, &scale(&sub(qq, p), &s));
    let inside = [(a, b), (b, c), (c, a)]
        .iter()
        .all(|(u, v)| !dot(&cross(&sub(v, u), &sub(&x, u)), &n).is_negative());
    inside.then_some(x)
}

/// The closest pair (on the segment, on the triangle) of segment `p q` and
/// triangle `abc`, exact.
pub fn closest_segment_triangle(p: &P, qq: &P, a: &P, b: &P, c: &P) -> (P, P) {
    if let Some(x) = segment_meets_triangle(p, qq, a, b, c) {
        return (x.clone(), x);
    }
    let mut best: Option<(Q, P, P)> = None;
    let mut offer = |u: P, v: P| {
        let d = sub(&u, &v);
        let d2 = dot(&d, &d);
        if best.as_ref().is_none_or(|(b, _, _)| d2 < *b) {
            best = Some((d2, u, v));
        }
    };
    offer(p.clone(), closest_on_triangle(p, a, b, c));
    offer(qq.clone(), closest_on_triangle(qq, a, b, c));
    for (u, v) in [(a, b), (b, c), (c, a)] {
        let (x, y) = closest_segment_segment(p, qq, u, v);
        offer(x, y);
    }
    let (_, u, v) = best.expect("candidates");
    (u, v)
}

/// An exact moving-distance problem: `closest(t)` gives the closest pair
/// (moving side, fixed side) at time `t`; `d` is the moving side's
/// displacement over the step.
pub trait Moving {
    /// The closest pair at time `t`.
    fn closest(&self, t: &Q) -> (P, P);
    /// The displacement over the step.
    fn d(&self) -> &P;

    /// Squared distance and its time derivative at `t` (exact).
    fn f_and_slope(&self, t: &Q) -> (Q, Q) {
        let (p, qq) = self.closest(t);
        let g = sub(&p, &qq);
        let two = Q::from_integer(BigInt::from(2));
        (dot(&g, &g), two * dot(&g, self.d()))
    }
}

/// A dyadic rational `k / 2^bits`.
pub fn dyadic(k: u64, bits: u32) -> Q {
    Q::new(BigInt::from(k), BigInt::from(1u64) << bits)
}

/// `t` rounded down to a multiple of `2^-bits`, as a dyadic rational.
pub fn dyadic_floor(t: f64, bits: u32) -> Q {
    let k = (t.clamp(0.0, 1.0) * (1u64 << bits) as f64).floor() as u64;
    dyadic(k, bits)
}

/// The exact minimum of the squared distance over `[lo, hi]`, bracketed:
/// returns `(lower bound, upper bound, a time where the upper bound is
/// attained)` after `iters` bisections on the sign of the exact slope. The
/// lower bound uses convexity: the function lies above each tangent line.
pub fn min_bracket<M: Moving>(m: &M, lo: &Q, hi: &Q, iters: u32) -> (Q, Q, Q) {
    let (flo, slo) = m.f_and_slope(lo);
    if !slo.is_negative() {
        // Non-decreasing from lo: the minimum is at lo.
        return (flo.clone(), flo, lo.clone());
    }
    let (fhi, shi) = m.f_and_slope(hi);
    if !shi.is_positive() {
        return (fhi.clone(), fhi, hi.clone());
    }
    let two = Q::from_integer(BigInt::from(2));
    let (mut a, mut fa, mut sa) = (lo.clone(), flo, slo);
    let (mut b, mut fb, mut sb) = (hi.clone(), fhi, shi);
    for _ in 0..iters {
        let mid = (&a + &b) / &two;
        let (fm, sm) = m.f_and_slope(&mid);
        if sm.is_negative() {
            a = mid;
            fa = fm;
            sa = sm;
        } else {
            b = mid;
            fb = fm;
            sb = sm;
        }
    }
    let w = &b - &a;
    // Tangent lower bounds on [a, b] from both ends.
    let lb_a = &fa + &sa * &w;
    let lb_b = &fb - &sb * &w;
    let lower = if lb_a > lb_b { lb_a } else { lb_b };
    let lower = if lower.is_negative() {
        Q::zero()
    } else {
        lower
    };
    if fa < fb {
        (lower, fa, a)
    } else {
        (lower, fb, b)
    }
}

/// Whether the minimum squared distance over `[lo, hi]` is above `level2`:
/// `Some(true)` when proven above, `Some(false)` when a time at or below it is
/// found, `None` when `iters` slope bisections do not decide. Stops as soon as
/// the exact tangent lower bound or an exact value decides.
pub fn min_above<M: Moving>(m: &M, lo: &Q, hi: &Q, level2: &Q, iters: u32) -> Option<bool> {
    let (flo, slo) = m.f_and_slope(lo);
    if flo <= *level2 {
        return Some(false);
    }
    if !slo.is_negative() {
        return Some(true);
    }
    let (fhi, shi) = m.f_and_slope(hi);
    if fhi <= *level2 {
        return Some(false);
    }
    if !shi.is_positive() {
        return Some(true);
    }
    let two = Q::from_integer(BigInt::from(2));
    let (mut a, mut fa, mut sa) = (lo.clone(), flo, slo);
    let (mut b, mut fb, mut sb) = (hi.clone(), fhi, shi);
    for _ in 0..iters {
        let w = &b - &a;
        let lb_a = &fa + &sa * &w;
        let lb_b = &fb - &sb * &w;
        if lb_a > *level2 || lb_b > *level2 {
            return Some(true);
        }
        let mid = (&a + &b) / &two;
        let (fm, sm) = m.f_and_slope(&mid);
        if fm <= *level2 {
            return Some(false);
        }
        if sm.is_negative() {
            a = mid;
            fa = fm;
            sa = sm;
        } else {
            b = mid;
            fb = fm;
            sb = sm;
        }
    }
    None
}

/// The first time in `[0, 1]` at which the squared distance is at most
/// `level2`, to within `2^-bits` (the returned time is at or just after the
/// crossing), or `None` when the distance stays above it at every bracketed
/// time. Exact bisection.
pub fn first_time_at_most<M: Moving>(m: &M, level2: &Q, bits: u32) -> Option<Q> {
    let z = Q::zero();
    if m.f_and_slope(&z).0 <= *level2 {
        return Some(z);
    }
    let (_, upper, at) = min_bracket(m, &z, &Q::one(), bits);
    if upper > *level2 {
        return None;
    }
    // f(0) > level >= f(at), and f is convex: one crossing in (0, at].
    let (mut lo, mut hi) = (z, at);
    let two = Q::from_integer(BigInt::from(2));
    for _ in 0..bits {
        let mid = (&lo + &hi) / &two;
        if m.f_and_slope(&mid).0 <= *level2 {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    Some(hi)
}

/// What a sweep said, reduced to what the oracle judges.
#[derive(Debug, Clone, Copy)]
pub enum Said {
    /// A miss.
    Miss,
    /// A hit at this time.
    Hit(f64),
    /// An initial contact.
    Initial,
}

impl Said {
    /// What `out` says.
    pub fn of<F>(out: &parapet_narrow::sweep::SweepOutcome<F>) -> Said {
        use parapet_narrow::sweep::SweepOutcome;
        match out {
            SweepOutcome::InitiallyTouching(_) => Said::Initial,
            SweepOutcome::Hit(i) => Said::Hit(i.time),
            _ => Said::Miss,
        }
    }
}

/// The tolerance scale of one case: contact radius, `delta`, length scale.
#[derive(Debug, Clone, Copy)]
pub struct Bounds {
    pub r: f64,
    pub delta: f64,
    pub l: f64,
}

/// How much exact work a case gets.
#[derive(Debug, Clone, Copy)]
pub struct Checks {
    /// Also bisect the exact first time and compare.
    pub time_check: bool,
    /// Judge exactly even where the f64 prefilter is decisive.
    pub all_exact: bool,
}

/// Counts of an oracle run.
#[derive(Default, Debug)]
pub struct Tally {
    pub cases: usize,
    pub refused: usize,
    pub refusals: std::collections::BTreeMap<String, usize>,
    pub behind: usize,
    pub ambiguous: usize,
    pub hits: usize,
    pub misses: usize,
    pub initial: usize,
    pub exact_miss_checks: usize,
    pub exact_hit_checks: usize,
    pub f64_decided: usize,
    pub timed: usize,
    pub max_time_error: f64,
    pub failures: Vec<String>,
}

impl Tally {
    /// Records a refusal by its variant name.
    pub fn refusal(&mut self, e: &dyn std::fmt::Debug) {
        self.refused += 1;
        let name = format!("{e:?}");
        let name = name.split([' ', '{', '(']).next().unwrap_or("").to_string();
        *self.refusals.entry(name).or_default() += 1;
    }

    /// Prints the tally and panics on any failure.
    pub fn report(&self) {
        eprintln!("{self:#?}");
        if !self.failures.is_empty() {
            for f in self.failures.iter().take(20) {
                eprintln!("FAIL {f}");
            }
            panic!("{} oracle disagreements", self.failures.len());
        }
    }
}

/// Judges one admitted case (see the oracle files for the contract):
/// `f64_at(t)` is an independent f64 estimate of (distance, slope of the
/// squared distance) and `f64_min()` of the minimum distance over the step.
pub fn judge_contact<M: Moving>(
    make_m: impl Fn() -> M,
    said: Said,
    bounds: Bounds,
    f64_at: impl Fn(f64) -> (f64, f64),
    f64_min: impl Fn() -> f64,
    tally: &mut Tally,
    checks: Checks,
    describe: impl Fn() -> String,
) {
    // The exact problem and the case text are built only when needed.
    let cell = std::cell::OnceCell::new();
    let m = || cell.get_or_init(&make_m);
    let Bounds { r, delta, l } = bounds;
    let Checks {
        time_check,
        all_exact,
    } = checks;
    let f0 = || m().f_and_slope(&Q::zero()).0;
    let lo2 = q((r - delta) * (r - delta));
    let hi2 = q((r + delta) * (r + delta));
    match said {
        Said::Initial => {
            tally.initial += 1;
            if !all_exact && f64_at(0.0).0 <= r + delta - delta / 4.0 {
                tally.f64_decided += 1;
                return;
            }
            if f0() > hi2 {
                tally.failures.push(format!(
                    "initial contact at exact distance {}: {}",
                    to_f64(&f0()).sqrt(),
                    describe()
                ));
            }
        }
        Said::Hit(time) => {
            tally.hits += 1;
            if !all_exact && !time_check {
                // f64 prefilter (error ~1e-15 L, far inside delta / 4): decide
                // clear cases without exact arithmetic.
                let (d0, _) = f64_at(0.0);
                let (dt_, slope) = f64_at(time);
                let m4 = delta / 4.0;
                if d0 > r - delta + m4
                    && dt_ <= r + delta - m4
                    && dt_ > r - delta + m4
                    && slope < 0.0
                {
                    tally.f64_decided += 1;
                    return;
                }
            }
            tally.exact_hit_checks += 1;
            if f0() <= lo2 {
                tally.failures.push(format!(
                    "hit reported for an initial overlap: {}",
                    describe()
                ));
                return;
            }
            let tp = q(time);
            let (ft, slope) = m().f_and_slope(&tp);
            if ft > hi2 {
                tally.failures.push(format!(
                    "hit at t = {} where the exact distance is {} > r + delta ({} + {delta:e}): {}",
                    time,
                    to_f64(&ft).sqrt(),
                    r,
                    describe()
                ));
                return;
            }
            let earlier_ok = if !slope.is_positive() {
                ft > lo2
            } else {
                match min_above(m(), &Q::zero(), &tp, &lo2, 50) {
                    Some(above) => above,
                    None => {
                        tally.ambiguous += 1;
                        true
                    }
                }
            };
            if !earlier_ok {
                tally.failures.push(format!(
                    "an earlier deeper contact was skipped: {}",
                    describe()
                ));
                return;
            }
            if time_check {
                let r2 = q(r) * q(r);
                if let Some(t_exact) = first_time_at_most(m(), &r2, 40) {
                    let (_, s) = m().f_and_slope(&t_exact);
                    // d(dist)/dt = f' / (2 dist) with dist = r at the crossing.
                    let speed = to_f64(&s).abs() / (2.0 * r);
                    let err = (time - to_f64(&t_exact)).abs();
                    let allowed = 2.0 * delta / speed.max(1e-300) + 2f64.powi(-38);
                    tally.timed += 1;
                    if speed > 0.0 {
                        tally.max_time_error = tally.max_time_error.max(err / allowed);
                    }
                    if err > allowed {
                        tally.failures.push(format!(
                            "time {} vs exact {} (allowed {allowed:e}): {}",
                            time,
                            to_f64(&t_exact),
                            describe()
                        ));
                    }
                }
            }
        }
        Said::Miss => {
            tally.misses += 1;
            // f64 prefilter: the golden-section minimum (within ~1e-15 L of
            // the true one) clearly above r - delta decides the case (it
            // includes the start distance).
            let est = f64_min();
            if !all_exact && est > r - delta + 1e-9 * l {
                tally.f64_decided += 1;
                return;
            }
            if f0() <= lo2 {
                tally
                    .failures
                    .push(format!("miss for an initial overlap: {}", describe()));
                return;
            }
            tally.exact_miss_checks += 1;
            match min_above(m(), &Q::zero(), &Q::one(), &lo2, 50) {
                Some(true) => {}
                Some(false) => tally.failures.push(format!(
                    "false negative: the exact distance falls below r - delta: {}",
                    describe()
                )),
                None => tally.ambiguous += 1,
            }
        }
    }
}

/// The one deterministic generator (the scenes' SplitMix64), for
/// reproducible cases.
pub use parapet_scenes::prng::SplitMix64;

/// Random vectors in `f64` drawn from [`SplitMix64`].
pub trait VectorDraws {
    /// A vector with components uniform in `[-h, h)`.
    fn vec(&mut self, h: f64) -> [f64; 3];
    /// A random unit direction (rejection from the unit ball, then normalized).
    fn dir(&mut self) -> [f64; 3];
}

impl VectorDraws for SplitMix64 {
    fn vec(&mut self, h: f64) -> [f64; 3] {
        [self.range(-h, h), self.range(-h, h), self.range(-h, h)]
    }

    fn dir(&mut self) -> [f64; 3] {
        loop {
            let v = self.vec(1.0);
            let n = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
            if n > 0.1 && n <= 1.0 {
                return [v[0] / n, v[1] / n, v[2] / n];
            }
        }
    }
}

/// Case count of a randomized oracle: `default`, or the environment variable
/// `PARAPET_ORACLE_CASES` when it is set.
pub fn oracle_cases(default: usize) -> usize {
    std::env::var("PARAPET_ORACLE_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

/// Independent `f64` estimates used only as prefilters (the same algorithms
/// as the exact functions above, in floating point).
pub mod fast {
    pub type V = [f64; 3];

    pub fn sub(a: V, b: V) -> V {
        [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
    }
    pub fn dot(a: V, b: V) -> f64 {
        a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
    }
    /// `a + s b`.
    pub fn mad(a: V, s: f64, b: V) -> V {
        [a[0] + s * b[0], a[1] + s * b[1], a[2] + s * b[2]]
    }
    pub fn cross(a: V, b: V) -> V {
        [
            a[1] * b[2] - a[2] * b[1],
            a[2] * b[0] - a[0] * b[2],
            a[0] * b[1] - a[1] * b[0],
        ]
    }
    pub fn of(v: parapet_math::Vec3) -> V {
        [v.x as f64, v.y as f64, v.z as f64]
    }
    /// `a` rounded to `f32` per component.
    pub fn to_f32(a: V) -> parapet_math::Vec3 {
        parapet_math::Vec3::new(a[0] as f32, a[1] as f32, a[2] as f32)
    }
    /// `a / |a|`.
    pub fn unit(a: V) -> V {
        let n = dot(a, a).sqrt();
        [a[0] / n, a[1] / n, a[2] / n]
    }

    /// Ericson 5.1.5.
    pub fn closest_point_triangle(p: V, a: V, b: V, c: V) -> V {
        let ab = sub(b, a);
        let ac = sub(c, a);
        let ap = sub(p, a);
        let (d1, d2) = (dot(ab, ap), dot(ac, ap));
        if d1 <= 0.0 && d2 <= 0.0 {
            return a;
        }
        let bp = sub(p, b);
        let (d3, d4) = (dot(ab, bp), dot(ac, bp));
        if d3 >= 0.0 && d4 <= d3 {
            return b;
        }
        let vc = d1 * d4 - d3 * d2;
        if vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 {
            return mad(a, d1 / (d1 - d3), ab);
        }
        let cp = sub(p, c);
        let (d5, d6) = (dot(ab, cp), dot(ac, cp));
        if d6 >= 0.0 && d5 <= d6 {
            return c;
        }
        let vb = d5 * d2 - d1 * d6;
        if vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 {
            return mad(a, d2 / (d2 - d6), ac);
        }
        let va = d3 * d6 - d5 * d4;
        if va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0 {
            return mad(b, (d4 - d3) / ((d4 - d3) + (d5 - d6)), sub(c, b));
        }
        let den = 1.0 / (va + vb + vc);
        mad(mad(a, vb * den, ab), vc * den, ac)
    }

    /// Ericson 5.1.9 (clamped).
    pub fn closest_segment_segment(p1: V, q1: V, p2: V, q2: V) -> (V, V) {
        let d1 = sub(q1, p1);
        let d2 = sub(q2, p2);
        let r = sub(p1, p2);
        let a = dot(d1, d1);
        let e = dot(d2, d2);
        let f = dot(d2, r);
        let (s, t);
        if a <= 0.0 && e <= 0.0 {
            return (p1, p2);
        }
        if a <= 0.0 {
            s = 0.0;
            t = (f / e).clamp(0.0, 1.0);
        } else {
            let c = dot(d1, r);
            if e <= 0.0 {
                t = 0.0;
                s = (-c / a).clamp(0.0, 1.0);
            } else {
                let b = dot(d1, d2);
                let denom = a * e - b * b;
                let mut s0 = if denom > 0.0 {
                    ((b * f - c * e) / denom).clamp(0.0, 1.0)
                } else {
                    0.0
                };
                let mut t0 = (b * s0 + f) / e;
                if t0 < 0.0 {
                    t0 = 0.0;
                    s0 = (-c / a).clamp(0.0, 1.0);
                } else if t0 > 1.0 {
                    t0 = 1.0;
                    s0 = ((b - c) / a).clamp(0.0, 1.0);
                }
                s = s0;
                t = t0;
            }
        }
        (mad(p1, s, d1), mad(p2, t, d2))
    }

    /// Closest pair of segment `p q` and triangle `abc`.
    pub fn closest_segment_triangle(p: V, q: V, a: V, b: V, c: V) -> (V, V) {
        let n = cross(sub(b, a), sub(c, a));
        let (hp, hq) = (dot(n, sub(p, a)), dot(n, sub(q, a)));
        if (hp <= 0.0 && hq >= 0.0 || hp >= 0.0 && hq <= 0.0) && hp != hq {
            let x = mad(p, hp / (hp - hq), sub(q, p));
            let inside = [(a, b), (b, c), (c, a)]
                .iter()
                .all(|&(u, v)| dot(cross(sub(v, u), sub(x, u)), n) >= 0.0);
            if inside {
                return (x, x);
            }
        }
        let mut best = (f64::INFINITY, p, p);
        let mut offer = |u: V, v: V| {
            let g = sub(u, v);
            let d2 = dot(g, g);
            if d2 < best.0 {
                best = (d2, u, v);
            }
        };
        offer(p, closest_point_triangle(p, a, b, c));
        offer(q, closest_point_triangle(q, a, b, c));
        for (u, v) in [(a, b), (b, c), (c, a)] {
            let (x, y) = closest_segment_segment(p, q, u, v);
            offer(x, y);
        }
        (best.1, best.2)
    }

    /// Minimum over `[0, 1]` of a convex function (golden section).
    pub fn min_over_step(f: impl Fn(f64) -> f64) -> f64 {
        let g = 0.5 * (5f64.sqrt() - 1.0);
        let (mut lo, mut hi) = (0.0f64, 1.0f64);
        let mut best = f(0.0).min(f(1.0));
        for _ in 0..80 {
            let m1 = hi - g * (hi - lo);
            let m2 = lo + g * (hi - lo);
            let (f1, f2) = (f(m1), f(m2));
            best = best.min(f1).min(f2);
            if f1 <= f2 {
                hi = m2;
            } else {
                lo = m1;
            }
        }
        best
    }
}
