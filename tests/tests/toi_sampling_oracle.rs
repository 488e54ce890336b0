//! Oracle for the time-of-impact arbiter (`parapet_narrow::moving`): every
//! pair of shapes (sphere, capsule, box, hull, triangle mesh, on either
//! side), fixed, translating and turning motions with off-centre mass,
//! thin and long shapes, targets of zero and above, starts in contact, in
//! five regimes (common; 300 m/s and 50 rad/s; shapes of 2 mm; windows of
//! 5 s; held bands with targets below zero),
//! judged by an independent signed distance marched along the true rigid
//! motion (`parapet_tests::toi_oracle`, which shares no code with the
//! arbiter).
//!
//! # The contract checked
//! - **Never late**: on `[start, time)` of a hit, and on the whole window
//!   of a clear answer, the true signed distance never drops below the
//!   target by more than the checker's slack ([`CHECK_SLACK`]).
//! - **Close at the hit**: at a hit's time the true distance is at most
//!   the target plus the request's tolerance (plus the slack).
//! - **No refusal** inside the precision domain.
//!
//! A hit above its target is allowed in one case, counted apart: cores
//! within the tolerance of touching a one-sided triangle they are partly
//! behind, where the one-sided measure jumps from about zero to deep at
//! the touching (the arbiter's "Entering a triangle"). Held targets (below
//! touching) go no deeper than the world's promised depth, 5/16 of the
//! thinner core's inner size.
//!
//! The march is certified by the Lipschitz bound of the pair (see the
//! checker); a step shorter than 1e-6 of the window is floored (sampling
//! only, counted). Default 150 cases per family (25 families, the regimes
//! in turn); `PARAPET_TOI_CASES` runs more (the acceptance run is 100,000
//! per family), `PARAPET_TOI_FAMILY` (say "Hull vs Mesh") judges one
//! family on the same cases, and `PARAPET_TOI_ANSWERS` prints every answer
//! (to compare two builds).

use parapet::ccd::tolerances::inner_size;
use parapet_geometry::{ConvexHull, Shape};
use parapet_math::{Quat, Quatd, Vec3, Vec3d};
use parapet_narrow::moving::{time_of_impact, Motion, MovingShape, Toi, ToiRequest};
use parapet_tests::toi_oracle::{
    lipschitz, march, signed_distance, wholly_behind, Piece, TrueMotion,
};

/// The checker's slack (m): its `f64` distances and the arbiter's differ
/// by roundoff of about `1e-15` of the scene size (at most 1e3 m here).
const CHECK_SLACK: f64 = 1e-9;

/// The request tolerance (m).
const TOLERANCE: f64 = 1e-4;

/// The deepest held target, as a fraction of the thinner core's inner size
/// (dimensionless): 5/16, the world's promised depth (held depth 1/16 plus
/// 16 contact tolerances of 1/64).
const HELD_BAND: f64 = 5.0 / 16.0;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Sphere,
    Capsule,
    Cuboid,
    Hull,
    Mesh,
}

const KINDS: [Kind; 5] = [
    Kind::Sphere,
    Kind::Capsule,
    Kind::Cuboid,
    Kind::Hull,
    Kind::Mesh,
];

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
    fn chance(&mut self, p: f64) -> bool {
        self.range(0.0, 1.0) < p
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
}

fn f32v(v: Vec3d) -> Vec3 {
    v.cast::<f32>()
}

/// A random shape of `kind`, about `size` metres across.
fn draw_shape(rng: &mut Lcg, kind: Kind, size: f64) -> Shape {
    match kind {
        Kind::Sphere => Shape::sphere((size * rng.range(0.1, 0.5)) as f32).unwrap(),
        Kind::Capsule => {
            // One in four a thin long stick.
            let r = if rng.chance(0.25) {
                size * 0.005
            } else {
                size * rng.range(0.05, 0.3)
            };
            Shape::capsule(r as f32, (size * rng.range(0.1, 1.0)) as f32).unwrap()
        }
        Kind::Cuboid => {
            let mut h = Vec3d::new(
                rng.range(0.1, 1.0),
                rng.range(0.1, 1.0),
                rng.range(0.1, 1.0),
            );
            if rng.chance(0.2) {
                h.z *= 0.02; // a thin plate
            }
            Shape::cuboid(f32v(h * size * 0.5)).unwrap()
        }
        Kind::Hull => loop {
            let n = 5 + (rng.range(0.0, 9.0) as usize);
            let axes = Vec3d::new(
                rng.range(0.2, 1.0),
                rng.range(0.2, 1.0),
                rng.range(0.2, 1.0),
            );
            let pts: Vec<Vec3> = (0..n)
                .map(|_| f32v((rng.dir() * size * 0.5).component_mul(&axes)))
                .collect();
            if let Ok(h) = ConvexHull::new(&pts) {
                break Shape::ConvexHull(h);
            }
        },
        Kind::Mesh => {
            let count = 1 + (rng.range(0.0, 3.0) as usize);
            let mut vertices = Vec::new();
            let mut triangles = Vec::new();
            for _ in 0..count {
                let c = rng.vec(size * 0.5);
                let n = rng.dir();
                let u = n.cross(&rng.dir()).normalize();
                let w = n.cross(&u);
                let s = size * rng.range(0.5, 2.0);
                let base = vertices.len() as u32;
                for a in [0.0f64, 2.1, 4.2] {
                    vertices.push(f32v(c + (u * a.cos() + w * a.sin()) * s));
                }
                triangles.push([base, base + 1, base + 2]);
            }
            Shape::mesh(vertices, triangles).unwrap()
        }
    }
}

/// The checker's pieces of a shape placed in its body frame.
fn pieces(shape: &Shape, offset: Vec3d, rot: Quatd) -> Vec<Piece> {
    let place = |p: Piece| p.mapped(|v| offset + rot * v, |n| rot * n);
    match shape {
        Shape::Mesh(m) => m
            .triangles()
            .map(|t| place(Piece::triangle(t.vertices().map(|v| v.cast::<f64>()))))
            .collect(),
        other => vec![place(Piece::of_shape(other).unwrap())],
    }
}

/// One side of a case.
#[derive(Debug)]
struct Body {
    shape: Shape,
    offset: Vec3,
    offset_rot: Quat,
    position: Vec3d,
    rotation: Quatd,
    local_center: Vec3d,
    velocity: Vec3d,
    spin: Vec3d,
}

impl Body {
    fn motion(&self) -> Motion {
        Motion::new(
            self.position,
            self.rotation,
            self.local_center,
            self.velocity,
            self.spin,
        )
    }

    fn moving(&self) -> MovingShape {
        MovingShape::from_shape(&self.shape, self.offset, self.offset_rot).unwrap()
    }

    fn true_motions(&self) -> Vec<TrueMotion> {
        let off_rot = Quatd::new_normalize(self.offset_rot.into_inner().cast::<f64>());
        pieces(&self.shape, self.offset.cast::<f64>(), off_rot)
            .iter()
            .map(|p| {
                TrueMotion::new(
                    p,
                    self.position,
                    self.rotation,
                    self.local_center,
                    self.velocity,
                    self.spin,
                )
            })
            .collect()
    }
}

/// A random body of `kind` at `position`, moving (or not) at up to
/// `speed` m/s and `spin` rad/s.
fn draw_body(rng: &mut Lcg, kind: Kind, size: f64, position: Vec3d, regime: Regime) -> Body {
    let shape = draw_shape(rng, kind, size);
    let (speed, spin_max) = regime.motion();
    let motion_kind = rng.range(0.0, 3.0) as u32; // fixed, translating, turning
    let (velocity, spin) = match motion_kind {
        0 => (Vec3d::zeros(), Vec3d::zeros()),
        1 => (rng.vec(speed), Vec3d::zeros()),
        _ => (rng.vec(speed), rng.dir() * rng.range(0.0, spin_max)),
    };
    let offset = if rng.chance(0.3) {
        f32v(rng.vec(size * 0.3))
    } else {
        Vec3::zeros()
    };
    let offset_rot = if rng.chance(0.3) {
        Quat::from_scaled_axis(f32v(rng.vec(1.0)))
    } else {
        Quat::identity()
    };
    let local_center = if rng.chance(0.3) {
        rng.vec(size * 0.3)
    } else {
        Vec3d::zeros()
    };
    Body {
        shape,
        offset,
        offset_rot,
        position,
        rotation: Quatd::from_scaled_axis(rng.vec(3.0)),
        local_center,
        velocity,
        spin,
    }
}

/// The true signed distance of the pair at `t`, over the admitted pieces
/// (a triangle that the other piece starts wholly behind does not count).
fn true_distance(pairs: &[(TrueMotion, TrueMotion)], t: f64) -> f64 {
    pairs
        .iter()
        .map(|(a, b)| signed_distance(&a.at(t), &b.at(t)))
        .fold(f64::INFINITY, f64::min)
}

/// Whether a hit above its target is where the one-sided measure jumps:
/// cores (skins excluded) within the tolerance of touching a triangle they
/// are partly behind, so that touching makes them deep at once (the
/// arbiter's "Entering a triangle"); the hit is at the touching, not late.
fn at_jump(pairs: &[(TrueMotion, TrueMotion)], t: f64) -> bool {
    pairs.iter().any(|(a, b)| {
        let (pa, pb) = (a.at(t), b.at(t));
        let core = signed_distance(&pa, &pb) + pa.skin + pb.skin;
        let partly_behind = |tri: &Piece, other: &Piece| {
            tri.dim == 2 && {
                let v = &tri.vertices;
                let n = (v[1] - v[0]).cross(&(v[2] - v[0]));
                other.vertices.iter().any(|p| n.dot(&(p - v[0])) < 0.0)
            }
        };
        (partly_behind(&pb, &pa) || partly_behind(&pa, &pb)) && core <= TOLERANCE + CHECK_SLACK
    })
}

/// The admitted pairs of pieces at the window start.
fn admitted(a: &Body, b: &Body, start: f64) -> Vec<(TrueMotion, TrueMotion)> {
    let mut out = Vec::new();
    for pa in a.true_motions() {
        for pb in b.true_motions() {
            let (xa, xb) = (pa.at(start), pb.at(start));
            let behind = |tri: &Piece, other: &Piece| {
                tri.dim == 2
                    && wholly_behind(&[tri.vertices[0], tri.vertices[1], tri.vertices[2]], other)
            };
            if !behind(&xb, &xa) && !behind(&xa, &xb) {
                out.push((pa.clone(), pb));
            }
        }
    }
    out
}

#[derive(Debug, Default, Clone, Copy)]
struct Tally {
    cases: usize,
    hits: usize,
    later_hits: usize,
    clears: usize,
    late: usize,
    far_at_hit: usize,
    at_jump: usize,
    refused: usize,
    floored: usize,
    iterations: u64,
}

/// Runs one random case of the family `(ka, kb)` and records it.
/// The regime of a case: the domain in five corners.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Regime {
    /// Sizes 0.3 to 2 m, speeds up to 10 m/s, spins up to 30 rad/s.
    Common,
    /// Speeds up to 300 m/s, spins up to 50 rad/s.
    Fast,
    /// Shapes of 2 mm to 1 cm.
    Tiny,
    /// Windows of 2 to 5 s, slow drift, spins up to 50 rad/s.
    Long,
    /// A held band: targets below zero (a resting contact's depth), starts
    /// near contact.
    Held,
}

const REGIMES: [Regime; 5] = [
    Regime::Common,
    Regime::Fast,
    Regime::Tiny,
    Regime::Long,
    Regime::Held,
];

impl Regime {
    /// The largest speed (m/s) and spin (rad/s) of a body.
    fn motion(self) -> (f64, f64) {
        match self {
            Regime::Fast => (300.0, 50.0),
            Regime::Long => (1.0, 50.0),
            _ => (10.0, 30.0),
        }
    }
}

/// With `print`, every answer is printed (one line per case).
fn run_case(
    rng: &mut Lcg,
    ka: Kind,
    kb: Kind,
    regime: Regime,
    tally: &mut Tally,
    draw_only: bool,
    print: bool,
) {
    let size = match regime {
        Regime::Tiny => rng.range(0.002, 0.01),
        _ if rng.chance(0.1) => 0.05,
        _ => rng.range(0.3, 2.0),
    };
    let pb = rng.vec(2.0);
    let b = draw_body(rng, kb, size, pb, regime);
    let size_a = size * rng.range(0.5, 2.0);
    let mut a = draw_body(rng, ka, size_a, Vec3d::zeros(), regime);
    // Bounding balls apart by -0.2 to 2 sizes: about one start in ten
    // touches or overlaps (held: -0.2 to 0.1, near contact).
    let reach = |body: &Body| body.shape.bounding_radius() + body.offset.cast::<f64>().norm();
    let gap = size
        * match regime {
            Regime::Held => rng.range(-0.2, 0.1),
            _ => rng.range(-0.2, 2.0),
        };
    a.position = b.position + rng.dir() * (reach(&a) + reach(&b) + gap);
    let window = match regime {
        Regime::Long => rng.range(2.0, 5.0),
        _ => [1.0 / 60.0, 0.1, 0.5][rng.range(0.0, 3.0) as usize],
    };
    // Aim A at B about half the time (at most the regime's speed).
    if rng.chance(0.5) {
        let aim = (b.position - a.position) / window * rng.range(0.5, 2.0);
        let top = regime.motion().0.max(10.0);
        a.velocity += if aim.norm() > top {
            aim * (top / aim.norm())
        } else {
            aim
        };
    }
    let start = if rng.chance(0.3) {
        rng.range(0.0, 0.2)
    } else {
        0.0
    };
    let end = start + window;
    let target = match regime {
        // The world's held band: never deeper than its promised depth, at
        // most 5/16 of the thinner core's inner size (held depth 1/16 plus
        // 16 tolerances of 1/64), the arbiter's domain for targets below
        // touching.
        // (Two meshes have no inner size and are never held in a world,
        // where a pair has a solid: their target is touching.)
        Regime::Held => {
            let inner = inner_size(&a.shape).min(inner_size(&b.shape));
            let depth = rng.range(0.0, 1.0) * HELD_BAND * inner;
            if depth.is_finite() {
                -depth
            } else {
                0.0
            }
        }
        _ => [0.0, 0.0, 0.01 * size, 0.05 * size][rng.range(0.0, 4.0) as usize],
    };
    let request = ToiRequest::new(start, end, target, TOLERANCE);
    if draw_only {
        return;
    }
    let (ma, mb) = (a.motion(), b.motion());
    let answer = time_of_impact(&a.moving(), &ma, &b.moving(), &mb, &request);
    tally.cases += 1;
    let toi = match answer {
        Ok(t) => t,
        Err(e) => {
            tally.refused += 1;
            eprintln!("refused {ka:?} vs {kb:?}: {e}");
            return;
        }
    };
    tally.iterations += u64::from(toi.iterations());
    if print {
        println!(
            "answer {ka:?} vs {kb:?} {}: {regime:?} {toi:?}",
            tally.cases
        );
    }
    let pairs = admitted(&a, &b, start);
    let stop = match toi {
        Toi::Hit(h) => {
            tally.hits += 1;
            tally.later_hits += usize::from(h.time > start);
            let d = true_distance(&pairs, h.time);
            if d > target + TOLERANCE + CHECK_SLACK {
                if at_jump(&pairs, h.time) {
                    tally.at_jump += 1;
                } else {
                    tally.far_at_hit += 1;
                    eprintln!("far at hit {ka:?} vs {kb:?}: distance {d} target {target} {h:?}");
                }
            }
            h.time
        }
        _ => {
            tally.clears += 1;
            end
        }
    };
    if pairs.is_empty() || stop <= start {
        return;
    }
    let lip = pairs
        .iter()
        .map(|(x, y)| lipschitz(x, y))
        .fold(0.0, f64::max);
    let m = march(
        |t| true_distance(&pairs, t),
        lip,
        target,
        CHECK_SLACK,
        start,
        stop,
        window * 1e-6,
    );
    tally.floored += m.floored;
    if let Some(t) = m.first_below {
        tally.late += 1;
        eprintln!("late {ka:?} vs {kb:?}: below the target at {t}, answer {toi:?}");
        eprintln!("  case: {regime:?} {request:?}\n  a: {a:?}\n  b: {b:?}");
    }
}

#[test]
fn every_pair_under_every_motion_is_never_late() {
    let per_family: usize = std::env::var("PARAPET_TOI_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(150);
    // `PARAPET_TOI_FAMILY` ("Cuboid vs Mesh") judges one family only; the
    // others are drawn but not queried, so its cases are the same.
    let only = std::env::var("PARAPET_TOI_FAMILY").ok();
    // `PARAPET_TOI_ANSWERS` prints every answer, to compare two builds.
    let print = std::env::var_os("PARAPET_TOI_ANSWERS").is_some();
    let mut rng = Lcg(0x5eed_0027);
    let mut total = Tally::default();
    for ka in KINDS {
        for kb in KINDS {
            let mut t = Tally::default();
            let skip = only
                .as_ref()
                .is_some_and(|f| *f != format!("{ka:?} vs {kb:?}"));
            for k in 0..per_family {
                run_case(
                    &mut rng,
                    ka,
                    kb,
                    REGIMES[k % REGIMES.len()],
                    &mut t,
                    skip,
                    print,
                );
            }
            if skip {
                continue;
            }
            println!(
                "{ka:?} vs {kb:?}: {} cases, {} hits ({} after the start), {} clear, {} late, {} far, {} at a jump, {} refused, {} floored, {:.1} iterations/case",
                t.cases, t.hits, t.later_hits, t.clears, t.late, t.far_at_hit, t.at_jump, t.refused, t.floored,
                t.iterations as f64 / t.cases as f64
            );
            assert!(
                t.later_hits > 0 && t.clears > 0,
                "{ka:?} vs {kb:?}: a one-sided family {t:?}"
            );
            total.late += t.late;
            total.far_at_hit += t.far_at_hit;
            total.refused += t.refused;
        }
    }
    assert_eq!(total.late, 0, "late answers");
    assert_eq!(total.far_at_hit, 0, "hits farther than the tolerance");
    assert_eq!(total.refused, 0, "refusals inside the domain");
}
