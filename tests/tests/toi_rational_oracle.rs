//! Exact rational oracle for the time-of-impact arbiter
//! (`parapet_narrow::moving`) where both shapes translate: every pair of
//! cores (point, segment, box, hull, one-sided triangle, grown by their
//! skins), sizes from 2 mm to 2 m with thin plates and long needles,
//! speeds up to 300 m/s, windows from 1/60 s to 5 s, target gaps of 0 and
//! above, starts in contact.
//!
//! # The contract checked, with `delta = 2^-40 L`
//! `L` is the case's length scale (sizes, distances and travel). The
//! shapes are given to the arbiter in world coordinates (`f32`), so the
//! oracle sees exactly its input; under a relative translation the
//! distance of the cores is a convex function of time, so exact
//! evaluations and slope signs decide everything (`sweep_support`).
//! - **never late**: before a hit's time, and over the whole window of a
//!   clear answer, the exact core distance stays above
//!   `target + skins − delta`; where that level is not positive (a box on a
//!   triangle at target 0), the cores stay disjoint until `delta / |d|`
//!   before the answer (no penetration deeper than about `delta`);
//! - **close at the hit**: the distance at the hit is at most
//!   `target + tolerance` (checked in `f64`, slack `1e-9 L`);
//! - **one-sided**: a core wholly behind a triangle's face plane at the
//!   start (by more than `delta`) is not caught;
//! - **no refusal** inside the precision domain.
//!
//! An independent `f64` estimate (golden-section search of the convex
//! signed distance of `parapet_tests::toi_oracle`) decides the clear
//! cases; only a case within `1e-9 L` of the level is judged in exact
//! arithmetic, and every 500th case is judged exactly whatever its margin.
//! Default 400 cases per family (25 families); `PARAPET_TOI_CASES`
//! runs more (the acceptance run is 100,000 per family).

mod sweep_support;

use std::sync::Arc;

use num_traits::{Signed, Zero};
use parapet_geometry::ConvexHull;
use parapet_math::{Quatd, Vec3, Vec3d};
use parapet_narrow::moving::{time_of_impact, Core, Motion, MovingShape, Toi, ToiRequest};
use parapet_narrow::solid::ConvexSolid;
use parapet_tests::toi_oracle::{signed_distance, Piece};
use sweep_support::*;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Point,
    Segment,
    Box,
    Hull,
    Triangle,
}

const KINDS: [Kind; 5] = [
    Kind::Point,
    Kind::Segment,
    Kind::Box,
    Kind::Hull,
    Kind::Triangle,
];

/// One core in world coordinates at time 0: `f32` points (and a hull's
/// faces), its skin, in the three forms the test needs.
struct Body {
    kind: Kind,
    points: Vec<Vec3>,
    hull: Option<ConvexHull>,
    skin: f32,
    velocity: Vec3,
}

impl Body {
    fn core(&self) -> Core {
        let p: Vec<Vec3d> = self.points.iter().map(|v| v.cast::<f64>()).collect();
        let skin = f64::from(self.skin);
        match self.kind {
            Kind::Point => Core::point(p[0], skin),
            Kind::Segment => Core::segment([p[0], p[1]], skin),
            Kind::Triangle => Core::triangle([p[0], p[1], p[2]]),
            Kind::Box | Kind::Hull => {
                let solid = ConvexSolid::from_hull(self.hull.as_ref().unwrap());
                Core::polytope(Arc::new(solid), Vec3d::zeros(), Quatd::identity())
            }
        }
    }

    fn piece(&self) -> Piece {
        let p: Vec<Vec3d> = self.points.iter().map(|v| v.cast::<f64>()).collect();
        let skin = f64::from(self.skin);
        match self.kind {
            Kind::Point => Piece::point(p[0], skin),
            Kind::Segment => Piece::segment(p[0], p[1], skin),
            Kind::Triangle => Piece::triangle([p[0], p[1], p[2]]),
            Kind::Box | Kind::Hull => Piece::hull(self.hull.as_ref().unwrap()),
        }
    }

    /// The exact core: points, triangles (faces fanned) and edges.
    fn exact(&self) -> Exact {
        match &self.hull {
            Some(h) => Exact {
                verts: h.vertices().iter().map(|v| qv(*v)).collect(),
                tris: h
                    .faces()
                    .iter()
                    .flat_map(|f| {
                        let l = f.vertices();
                        (1..l.len() - 1)
                            .map(move |k| [l[0] as usize, l[k] as usize, l[k + 1] as usize])
                    })
                    .collect(),
                edges: h
                    .edges()
                    .iter()
                    .map(|e| [e[0] as usize, e[1] as usize])
                    .collect(),
                dim: 3,
            },
            None => {
                let verts: Vec<P> = self.points.iter().map(|v| qv(*v)).collect();
                let n = verts.len();
                Exact {
                    tris: if n == 3 { vec![[0, 1, 2]] } else { vec![] },
                    edges: match n {
                        2 => vec![[0, 1]],
                        3 => vec![[0, 1], [1, 2], [2, 0]],
                        _ => vec![],
                    },
                    dim: (n - 1) as u8,
                    verts,
                }
            }
        }
    }
}

/// A core in exact rationals.
struct Exact {
    verts: Vec<P>,
    tris: Vec<[usize; 3]>,
    edges: Vec<[usize; 2]>,
    dim: u8,
}

impl Exact {
    fn normal(&self, t: &[usize; 3]) -> P {
        let v = &self.verts;
        cross(&sub(&v[t[1]], &v[t[0]]), &sub(&v[t[2]], &v[t[0]]))
    }
    fn dirs(&self) -> Vec<P> {
        self.edges
            .iter()
            .map(|e| sub(&self.verts[e[1]], &self.verts[e[0]]))
            .collect()
    }
}

/// The relative translation: A moving by `d` over the window against B.
struct Pair {
    a: Exact,
    b: Exact,
    d: P,
    /// The case's length scale (m), for the `f64` filters.
    scale: f64,
}

fn interval(points: &[P], axis: &P) -> (Q, Q) {
    let mut lo: Option<Q> = None;
    let mut hi: Option<Q> = None;
    for p in points {
        let x = dot(axis, p);
        if lo.as_ref().is_none_or(|l| x < *l) {
            lo = Some(x.clone());
        }
        if hi.as_ref().is_none_or(|h| x > *h) {
            hi = Some(x);
        }
    }
    (lo.unwrap(), hi.unwrap())
}

/// A candidate pair of features: the exact closest pair is among those
/// whose `f64` distance is within the filter of the least.
#[derive(Clone, Copy)]
enum Features {
    /// A point of A (or of B when `flip`) against a triangle of the other.
    PointTriangle(bool, usize, usize),
    /// A point against an edge of the other.
    PointEdge(bool, usize, usize),
    /// A point against the other's only point.
    PointPoint(usize),
    /// An edge of A against an edge of B.
    EdgeEdge(usize, usize),
}

/// The `f64` filter of the candidate features and axes (a fraction of the
/// case's scale): `f64` feature distances and separations err by about
/// `1e-15` of it, so a candidate farther than this from the best one is
/// certainly not it.
const FILTER: f64 = 1e-9;

impl Pair {
    /// Every feature pair with its `f64` distance.
    fn candidates(&self, av: &[fast::V], bv: &[fast::V]) -> Vec<(f64, Features)> {
        let (a, b) = (&self.a, &self.b);
        let mut out = Vec::new();
        let dist = |u: fast::V, v: fast::V| fast::dot(fast::sub(u, v), fast::sub(u, v)).sqrt();
        for (flip, x, xv, y, yv) in [(false, a, av, b, bv), (true, b, bv, a, av)] {
            for (i, p) in xv.iter().enumerate() {
                if !y.tris.is_empty() {
                    for (k, t) in y.tris.iter().enumerate() {
                        let c = fast::closest_point_triangle(*p, yv[t[0]], yv[t[1]], yv[t[2]]);
                        out.push((dist(*p, c), Features::PointTriangle(flip, i, k)));
                    }
                } else if !y.edges.is_empty() {
                    for (k, e) in y.edges.iter().enumerate() {
                        let (_, c) = fast::closest_segment_segment(*p, *p, yv[e[0]], yv[e[1]]);
                        out.push((dist(*p, c), Features::PointEdge(flip, i, k)));
                    }
                } else if !flip {
                    out.push((dist(*p, yv[0]), Features::PointPoint(i)));
                }
            }
            let _ = x;
        }
        for (i, ea) in a.edges.iter().enumerate() {
            for (k, eb) in b.edges.iter().enumerate() {
                let (u, v) =
                    fast::closest_segment_segment(av[ea[0]], av[ea[1]], bv[eb[0]], bv[eb[1]]);
                out.push((dist(u, v), Features::EdgeEdge(i, k)));
            }
        }
        out
    }

    /// The exact closest pair of one feature pair.
    fn exact_pair(&self, f: Features, av: &[P]) -> (P, P) {
        let (a, b) = (&self.a, &self.b);
        let sides = |flip: bool| {
            if flip {
                (&b.verts[..], av, a)
            } else {
                (av, &b.verts[..], b)
            }
        };
        let order = |flip: bool, p: P, c: P| if flip { (c, p) } else { (p, c) };
        match f {
            Features::PointTriangle(flip, i, k) => {
                let (xv, yv, y) = sides(flip);
                let t = y.tris[k];
                let c = closest_on_triangle(&xv[i], &yv[t[0]], &yv[t[1]], &yv[t[2]]);
                order(flip, xv[i].clone(), c)
            }
            Features::PointEdge(flip, i, k) => {
                let (xv, yv, y) = sides(flip);
                let e = y.edges[k];
                let c = closest_segment_segment(&xv[i], &xv[i], &yv[e[0]], &yv[e[1]]).1;
                order(flip, xv[i].clone(), c)
            }
            Features::PointPoint(i) => (av[i].clone(), b.verts[0].clone()),
            Features::EdgeEdge(i, k) => {
                let (ea, eb) = (a.edges[i], b.edges[k]);
                closest_segment_segment(&av[ea[0]], &av[ea[1]], &b.verts[eb[0]], &b.verts[eb[1]])
            }
        }
    }

    /// Whether the cores overlap (touching included), exact; `f64`
    /// separations decide every axis farther than the filter from zero.
    fn overlapping(&self, av: &[P], scale: f64) -> bool {
        let shifted = Exact {
            verts: av.to_vec(),
            tris: self.a.tris.clone(),
            edges: self.a.edges.clone(),
            dim: self.a.dim,
        };
        let b = &self.b;
        let mut axes: Vec<P> = Vec::new();
        for (x, y) in [(&shifted, b), (b, &shifted)] {
            for t in &x.tris {
                let n = x.normal(t);
                if x.dim == 2 {
                    for e in x.dirs().iter().chain(&y.dirs()) {
                        axes.push(cross(&n, e));
                    }
                }
                axes.push(n);
            }
        }
        for ea in &shifted.dirs() {
            for eb in &b.dirs() {
                axes.push(cross(ea, eb));
            }
        }
        let f = |p: &P| [to_f64(&p[0]), to_f64(&p[1]), to_f64(&p[2])];
        let (af, bf): (Vec<fast::V>, Vec<fast::V>) =
            (av.iter().map(f).collect(), b.verts.iter().map(f).collect());
        let gap = |u: fast::V| {
            let l = fast::dot(u, u).sqrt();
            let proj = |v: &[fast::V]| {
                v.iter().fold((f64::MAX, f64::MIN), |(lo, hi), p| {
                    let x = fast::dot(u, *p) / l;
                    (lo.min(x), hi.max(x))
                })
            };
            let ((alo, ahi), (blo, bhi)) = (proj(&af), proj(&bf));
            (blo - ahi).max(alo - bhi)
        };
        let mut ambiguous = Vec::new();
        for u in &axes {
            if u.iter().all(|x| x.is_zero()) {
                continue;
            }
            let g = gap(f(u));
            if g > FILTER * scale {
                return false;
            }
            if g >= -FILTER * scale || !g.is_finite() {
                ambiguous.push(u);
            }
        }
        !ambiguous.iter().any(|u| {
            let (alo, ahi) = interval(av, u);
            let (blo, bhi) = interval(&b.verts, u);
            ahi < blo || bhi < alo
        })
    }
}

impl Moving for Pair {
    fn closest(&self, t: &Q) -> (P, P) {
        let shift = scale(&self.d, t);
        let av: Vec<P> = self.a.verts.iter().map(|p| add(p, &shift)).collect();
        if self.a.dim + self.b.dim >= 3 && self.overlapping(&av, self.scale) {
            let z = [Q::zero(), Q::zero(), Q::zero()];
            return (z.clone(), z);
        }
        let f = |p: &P| [to_f64(&p[0]), to_f64(&p[1]), to_f64(&p[2])];
        let (af, bf): (Vec<fast::V>, Vec<fast::V>) = (
            av.iter().map(f).collect(),
            self.b.verts.iter().map(f).collect(),
        );
        let cands = self.candidates(&af, &bf);
        let least = cands.iter().map(|c| c.0).fold(f64::INFINITY, f64::min);
        let mut best: Option<(Q, P, P)> = None;
        for (d, feature) in cands {
            if d > least + FILTER * self.scale {
                continue;
            }
            let (u, v) = self.exact_pair(feature, &av);
            let g = sub(&u, &v);
            let d2 = dot(&g, &g);
            if best.as_ref().is_none_or(|(b, _, _)| d2 < *b) {
                best = Some((d2, u, v));
            }
        }
        let (_, u, v) = best.expect("features");
        (u, v)
    }
    fn d(&self) -> &P {
        &self.d
    }
}

/// A deterministic generator (64-bit LCG, Knuth's MMIX constants).
struct Lcg(u64);

impl Lcg {
    fn range(&mut self, lo: f64, hi: f64) -> f64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        lo + (hi - lo) * ((self.0 >> 11) as f64 / (1u64 << 53) as f64)
    }
    fn vec(&mut self, s: f64) -> Vec3d {
        Vec3d::new(self.range(-s, s), self.range(-s, s), self.range(-s, s))
    }
    fn dir(&mut self) -> Vec3d {
        loop {
            let v = self.vec(1.0);
            let n = v.norm();
            if n > 0.1 && n <= 1.0 {
                return v / n;
            }
        }
    }
    fn pick<T: Copy>(&mut self, options: &[T]) -> T {
        options[((self.range(0.0, 1.0) * options.len() as f64) as usize).min(options.len() - 1)]
    }
}

/// A random core of `kind` about `c`, about `s` metres across.
fn draw(rng: &mut Lcg, kind: Kind, c: Vec3d, s: f64) -> Body {
    let rot = Quatd::from_scaled_axis(rng.vec(3.0));
    let f = |v: Vec3d| v.cast::<f32>();
    let (points, hull, skin) = match kind {
        Kind::Point => (vec![f(c)], None, s * rng.range(0.2, 0.5)),
        Kind::Segment => {
            // One in four a needle: 2 mm thick for every 1 m of length.
            let half = s * rng.range(0.2, 1.0);
            let skin = if rng.range(0.0, 1.0) < 0.25 {
                half * 0.002
            } else {
                s * rng.range(0.02, 0.3)
            };
            let axis = rng.dir() * half;
            (vec![f(c - axis), f(c + axis)], None, skin)
        }
        Kind::Triangle => {
            let n = rng.dir();
            let u = n.cross(&rng.dir()).normalize();
            let w = n.cross(&u);
            let r = s * rng.range(0.5, 2.0);
            let pts = [0.0f64, 2.1, 4.3].map(|a| f(c + (u * a.cos() + w * a.sin()) * r));
            (pts.to_vec(), None, 0.0)
        }
        Kind::Box | Kind::Hull => loop {
            let pts: Vec<Vec3> = if kind == Kind::Box {
                let mut h = Vec3d::new(
                    rng.range(0.1, 0.5),
                    rng.range(0.1, 0.5),
                    rng.range(0.1, 0.5),
                ) * s;
                if rng.range(0.0, 1.0) < 0.2 {
                    h.z *= 0.02; // a thin plate
                }
                (0..8)
                    .map(|i| {
                        let v = Vec3d::new(
                            if i & 1 != 0 { h.x } else { -h.x },
                            if i & 2 != 0 { h.y } else { -h.y },
                            if i & 4 != 0 { h.z } else { -h.z },
                        );
                        f(c + rot * v)
                    })
                    .collect()
            } else {
                let n = 5 + rng.range(0.0, 8.0) as usize;
                (0..n).map(|_| f(c + rot * (rng.dir() * s * 0.5))).collect()
            };
            if let Ok(h) = ConvexHull::new(&pts) {
                break (h.vertices().to_vec(), Some(h), 0.0);
            }
        },
    };
    Body {
        kind,
        points,
        hull,
        skin: skin as f32,
        velocity: Vec3::zeros(),
    }
}

fn centroid(b: &Body) -> Vec3d {
    b.points.iter().map(|p| p.cast::<f64>()).sum::<Vec3d>() / b.points.len() as f64
}

fn reach(b: &Body) -> f64 {
    let c = centroid(b);
    b.points
        .iter()
        .map(|p| (p.cast::<f64>() - c).norm())
        .fold(0.0, f64::max)
        + f64::from(b.skin)
}

/// One case: the two bodies (A moving relative to B), window and target.
struct Case {
    a: Body,
    b: Body,
    window: f32,
    target: f32,
    tolerance: f64,
    scale: f64,
}

fn draw_case(rng: &mut Lcg, ka: Kind, kb: Kind) -> Case {
    let s = 10f64.powf(rng.range(-2.7, 0.3));
    let center = rng.vec(5.0);
    let mut b = draw(rng, kb, center, s);
    let sa = s * rng.range(0.5, 2.0);
    let mut a = draw(rng, ka, Vec3d::zeros(), sa);
    let gap = s * rng.range(-0.3, 3.0);
    let offset = centroid(&b) + rng.dir() * (reach(&a) + reach(&b) + gap);
    a.points.iter_mut().for_each(|p| *p += offset.cast::<f32>());
    if let Some(h) = &a.hull {
        a.hull = Some(ConvexHull::new(&a.points).unwrap_or_else(|_| h.clone()));
        a.points = a.hull.as_ref().unwrap().vertices().to_vec();
    }
    let window = rng.pick(&[1.0f32 / 60.0, 0.1, 1.0, 5.0]);
    let top = rng.pick(&[10.0, 300.0]);
    let aim = (centroid(&b) - centroid(&a)) / f64::from(window) * rng.range(0.3, 2.0)
        + rng.vec(top * 0.05);
    let aim = if aim.norm() > top {
        aim * (top / aim.norm())
    } else {
        aim
    };
    a.velocity = aim.cast::<f32>();
    b.velocity = rng.vec(top * 0.05).cast::<f32>();
    let target = rng.pick(&[0.0, 0.0, 0.01, 0.1]) * s;
    let d = (a.velocity - b.velocity).cast::<f64>().norm() * f64::from(window);
    Case {
        scale: s.max(sa) + d + (centroid(&a) - centroid(&b)).norm() + reach(&a) + reach(&b),
        a,
        b,
        window,
        target: target as f32,
        tolerance: 1e-3 * s,
    }
}

/// The tally of one family.
#[derive(Debug, Default, Clone, Copy)]
struct Tally {
    cases: usize,
    hits: usize,
    clears: usize,
    exact: usize,
    undecided: usize,
    late: usize,
    far: usize,
    caught_behind: usize,
    refused: usize,
}

/// The `f64` signed distance at the window fraction `tau` (A shifted).
fn sd_at(pa: &Piece, pb: &Piece, d: &Vec3d, tau: f64) -> f64 {
    let shift = d * tau;
    signed_distance(&pa.mapped(|v| v + shift, |n| *n), pb)
}

/// The least `f64` signed distance over `[0, hi]` (golden section on the
/// convex function, plus both ends).
fn least_sd(pa: &Piece, pb: &Piece, d: &Vec3d, hi: f64) -> f64 {
    let f = |t: f64| sd_at(pa, pb, d, t);
    let (mut a, mut b) = (0.0, hi);
    let g = (5f64.sqrt() - 1.0) / 2.0;
    let (mut x1, mut x2) = (b - g * (b - a), a + g * (b - a));
    let (mut f1, mut f2) = (f(x1), f(x2));
    for _ in 0..60 {
        if f1 < f2 {
            b = x2;
            x2 = x1;
            f2 = f1;
            x1 = b - g * (b - a);
            f1 = f(x1);
        } else {
            a = x1;
            x1 = x2;
            f1 = f2;
            x2 = a + g * (b - a);
            f2 = f(x2);
        }
    }
    f(0.0).min(f(hi)).min(f1).min(f2)
}

/// Whether B is a triangle that A starts wholly behind by more than
/// `delta` (`Some(true)`), clearly in front of (`Some(false)`), or neither.
fn behind(tri: &Body, other: &Body, delta: f64) -> Option<bool> {
    if tri.kind != Kind::Triangle {
        return Some(false);
    }
    let v: Vec<P> = tri.points.iter().map(|p| qv(*p)).collect();
    let n = cross(&sub(&v[1], &v[0]), &sub(&v[2], &v[0]));
    let margin = q(delta) * q(to_f64(&dot(&n, &n)).sqrt());
    let heights: Vec<Q> = other
        .points
        .iter()
        .map(|p| dot(&n, &sub(&qv(*p), &v[0])))
        .collect();
    if heights.iter().all(|h| *h < -margin.clone()) {
        Some(true)
    } else if heights.iter().any(|h| *h > margin) {
        Some(false)
    } else {
        None
    }
}

fn judge(case: &Case, exact_anyway: bool, t: &mut Tally) {
    t.cases += 1;
    let motion = |b: &Body| {
        Motion::new(
            Vec3d::zeros(),
            Quatd::identity(),
            Vec3d::zeros(),
            b.velocity.cast::<f64>(),
            Vec3d::zeros(),
        )
    };
    let req = ToiRequest::new(
        0.0,
        f64::from(case.window),
        f64::from(case.target),
        case.tolerance,
    );
    let (sa, sb) = (
        MovingShape::Convex(case.a.core()),
        MovingShape::Convex(case.b.core()),
    );
    let toi = match time_of_impact(&sa, &motion(&case.a), &sb, &motion(&case.b), &req) {
        Ok(toi) => toi,
        Err(e) => {
            t.refused += 1;
            eprintln!("refused: {e}");
            return;
        }
    };
    let delta = case.scale * 2f64.powi(-40);
    let (stop, hit) = match toi {
        Toi::Hit(h) => (h.time, true),
        Toi::Clear { .. } => (f64::from(case.window), false),
    };
    t.hits += usize::from(hit);
    t.clears += usize::from(!hit);
    match (
        behind(&case.b, &case.a, delta),
        behind(&case.a, &case.b, delta),
    ) {
        (Some(true), _) | (_, Some(true)) => {
            t.caught_behind += usize::from(hit);
            return;
        }
        (None, _) | (_, None) => return,
        _ => {}
    }
    let dv = (case.a.velocity - case.b.velocity).cast::<f64>();
    let d64 = dv * f64::from(case.window);
    let tau = stop / f64::from(case.window);
    let (pa, pb) = (case.a.piece(), case.b.piece());
    let target = f64::from(case.target);
    if hit && sd_at(&pa, &pb, &d64, tau) > target + case.tolerance + 1e-9 * case.scale {
        t.far += 1;
        eprintln!("far: {:?} vs {:?} at {stop}", case.a.kind, case.b.kind);
    }
    if tau <= 0.0 {
        return;
    }
    let margin = least_sd(&pa, &pb, &d64, tau) - target;
    if margin > 1e-9 * case.scale && !exact_anyway {
        return;
    }
    t.exact += 1;
    match exactly_not_late(case, stop, delta) {
        Some(true) => {}
        Some(false) => {
            t.late += 1;
            eprintln!(
                "late: {:?} vs {:?}: stop {stop}, f64 margin {margin}",
                case.a.kind, case.b.kind
            );
        }
        None => t.undecided += 1,
    }
}

/// The exact judgement of the module docs: `Some(true)` when the answer
/// stopping at `stop` is not late.
fn exactly_not_late(case: &Case, stop: f64, delta: f64) -> Option<bool> {
    let window = q(f64::from(case.window));
    let dv = sub(&qv(case.a.velocity), &qv(case.b.velocity));
    let pair = Pair {
        a: case.a.exact(),
        b: case.b.exact(),
        d: scale(&dv, &window),
        scale: case.scale,
    };
    let hi = q(stop) / &window;
    let level = q(f64::from(case.target)) + q(f64::from(case.a.skin)) + q(f64::from(case.b.skin))
        - q(delta);
    if level.is_positive() {
        return min_above(&pair, &Q::zero(), &hi, &(&level * &level), 80);
    }
    // No positive level: the cores stay disjoint until delta / |d| before.
    let len = to_f64(&dot(&pair.d, &pair.d)).sqrt();
    let eta = if len > 0.0 { delta / len } else { 1.0 };
    let hi = hi - q(eta);
    if !hi.is_positive() {
        return Some(true);
    }
    min_above(&pair, &Q::zero(), &hi, &Q::zero(), 80)
}

#[test]
fn translating_pairs_are_never_late_in_exact_arithmetic() {
    let per_family: usize = std::env::var("PARAPET_TOI_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(400);
    let mut rng = Lcg(0x0027_7a7e);
    let mut failures = 0;
    for ka in KINDS {
        for kb in KINDS {
            let mut t = Tally::default();
            for k in 0..per_family {
                let case = draw_case(&mut rng, ka, kb);
                judge(&case, k % 500 == 0, &mut t);
            }
            println!("{ka:?} vs {kb:?}: {t:?}");
            assert!(
                t.hits > 0 && t.clears > 0,
                "{ka:?} vs {kb:?}: a one-sided family"
            );
            failures += t.late + t.far + t.caught_behind + t.refused;
        }
    }
    assert_eq!(
        failures, 0,
        "late, far, caught from behind or refused answers"
    );
}
