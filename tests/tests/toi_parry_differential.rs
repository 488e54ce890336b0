//! Differential test of `parapet::collide::time_of_impact` against parry3d
//! 0.31's `cast_shapes_nonlinear` (the same motion model: parry's
//! `NonlinearRigidMotion`), every disagreement explained by the
//! independent signed distance of `parapet_tests::toi_oracle` and counted.
//!
//! # Cases
//! Every pair of shapes that both libraries have (ball, capsule, box,
//! convex hull, a triangle: parapet's one-sided one-triangle mesh, parry's
//! two-sided triangle), fixed, translating and turning motions with
//! off-centre mass centres, speeds up to 300 m/s and spins up to 50 rad/s,
//! windows of 1/60 s to 1 s, target distance 0 (parry has none).
//!
//! # Judgement
//! Each answer (parapet's and parry's) is marched along the true motion
//! with the Lipschitz bound (slack `1e-6` m): **late** when the true signed
//! distance falls below `-1e-6` m before the answer's time (or before the
//! window's end for no hit); **early** when a hit's true distance is above
//! the tolerance (parapet's [`TOI_DISTANCE_TOLERANCE`]; parry's own
//! tolerance, 1e-3 m here as well). The outcome classes:
//! - **agree**: both no hit, or both hit within the tolerance's worth of
//!   time of each other (the tolerance over the closing speed);
//! - **parry late**: parry's answer is late (a miss or a hit after the
//!   first contact), parapet's is not;
//! - **parry early**: parry stops with a true distance above its tolerance;
//! - **parapet earlier, within its tolerance**: parapet hits earlier than
//!   parry at a true distance within its tolerance (a graze within the
//!   tolerance parry does not count, or parry's time later within its own
//!   tolerance);
//! - **parry earlier, within its tolerance**: both answers are right (not
//!   late, within their tolerances) and parry's is the earlier (or parry
//!   counts a pass within its tolerance that stays above the target);
//! - **one-sided**: the shape starts wholly behind parapet's one-sided
//!   triangle, which parry (two-sided) catches;
//! - **parry unsupported**;
//! - anything else is unexplained and fails the test, as does a late or
//!   early parapet answer.
//!
//! Default 400 cases per family; `PARAPET_TOI_CASES` runs more.

use parapet::collide::{time_of_impact, Motion, ToiOptions, TOI_DISTANCE_TOLERANCE};
use parapet::math::{Quat, Vec3};
use parapet::shape::{ConvexHull, Shape};
use parapet_math::{Quatd, Vec3d};
use parapet_tests::parry::{parry3d, pose_to_parry, to_parry};
use parapet_tests::toi_oracle::{
    lipschitz, march, signed_distance, wholly_behind, Piece, TrueMotion,
};
use parry3d::query::{cast_shapes_nonlinear, NonlinearRigidMotion};
use parry3d::shape::{Ball, Capsule, ConvexPolyhedron, Cuboid, Triangle};

/// The checker's slack (m): `f32` inputs and both libraries' roundoff.
const SLACK: f64 = 1e-6;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Ball,
    Capsule,
    Cuboid,
    Hull,
    Triangle,
}

const KINDS: [Kind; 5] = [
    Kind::Ball,
    Kind::Capsule,
    Kind::Cuboid,
    Kind::Hull,
    Kind::Triangle,
];

struct Lcg(u64);

impl Lcg {
    fn range(&mut self, lo: f64, hi: f64) -> f64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        lo + (hi - lo) * ((self.0 >> 11) as f64 / (1u64 << 53) as f64)
    }
    fn vec(&mut self, s: f64) -> Vec3 {
        Vec3::new(
            self.range(-s, s) as f32,
            self.range(-s, s) as f32,
            self.range(-s, s) as f32,
        )
    }
    fn dir(&mut self) -> Vec3 {
        loop {
            let v = self.vec(1.0);
            let n = v.norm();
            if n > 0.1 && n <= 1.0 {
                return v / n;
            }
        }
    }
}

/// A shape in parapet's and parry's forms, and the checker's piece.
struct Both {
    shape: Shape,
    parry: Box<dyn parry3d::shape::Shape>,
    piece: Piece,
}

fn draw(rng: &mut Lcg, kind: Kind, s: f64) -> Both {
    match kind {
        Kind::Ball => {
            let r = (s * rng.range(0.1, 0.5)) as f32;
            Both {
                shape: Shape::sphere(r).unwrap(),
                parry: Box::new(Ball::new(r)),
                piece: Piece::point(Vec3d::zeros(), f64::from(r)),
            }
        }
        Kind::Capsule => {
            let (r, h) = (
                (s * rng.range(0.02, 0.3)) as f32,
                (s * rng.range(0.1, 1.0)) as f32,
            );
            Both {
                shape: Shape::capsule(r, h).unwrap(),
                parry: Box::new(Capsule::new_z(h, r)),
                piece: Piece::segment(
                    Vec3d::new(0.0, 0.0, -f64::from(h)),
                    Vec3d::new(0.0, 0.0, f64::from(h)),
                    f64::from(r),
                ),
            }
        }
        Kind::Cuboid => {
            let h = Vec3::new(
                rng.range(0.1, 0.5) as f32,
                rng.range(0.1, 0.5) as f32,
                rng.range(0.1, 0.5) as f32,
            ) * s as f32;
            Both {
                shape: Shape::cuboid(h).unwrap(),
                parry: Box::new(Cuboid::new(to_parry(h))),
                piece: Piece::cuboid(h.cast::<f64>()),
            }
        }
        Kind::Hull => loop {
            let pts: Vec<Vec3> = (0..8).map(|_| rng.dir() * (s * 0.5) as f32).collect();
            let (Ok(h), Some(poly)) = (
                ConvexHull::new(&pts),
                ConvexPolyhedron::from_convex_hull(
                    &pts.iter().map(|p| to_parry(*p)).collect::<Vec<_>>(),
                ),
            ) else {
                continue;
            };
            break Both {
                shape: Shape::ConvexHull(h.clone()),
                parry: Box::new(poly),
                piece: Piece::hull(&h),
            };
        },
        Kind::Triangle => {
            let r = s * rng.range(0.5, 2.0);
            let t = [0.0f64, 2.1, 4.3]
                .map(|a| Vec3::new((a.cos() * r) as f32, (a.sin() * r) as f32, 0.0));
            Both {
                shape: Shape::mesh(t.to_vec(), vec![[0, 1, 2]]).unwrap(),
                parry: Box::new(Triangle::new(
                    to_parry(t[0]),
                    to_parry(t[1]),
                    to_parry(t[2]),
                )),
                piece: Piece::triangle(t.map(|v| v.cast::<f64>())),
            }
        }
    }
}

/// A random motion about `position`: fixed, translating or turning.
fn motion(rng: &mut Lcg, position: Vec3, fast: bool, s: f64) -> Motion {
    let (speed, spin) = if fast { (300.0, 50.0) } else { (10.0, 20.0) };
    let rotation = Quat::from_scaled_axis(rng.vec(3.0));
    let v = rng.vec(speed);
    let w = rng.vec(spin);
    let m = match rng.range(0.0, 3.0) as u32 {
        0 => Motion::fixed(position, rotation),
        1 => Motion::linear(position, rotation, v),
        _ => Motion::new(position, rotation, v, w),
    };
    if rng.range(0.0, 1.0) < 0.3 {
        m.with_local_center(rng.vec(s * 0.3))
    } else {
        m
    }
}

fn parry_motion(m: &Motion) -> NonlinearRigidMotion {
    NonlinearRigidMotion::new(
        pose_to_parry(m.position, m.rotation),
        to_parry(m.local_center),
        to_parry(m.linear_velocity),
        to_parry(m.angular_velocity),
    )
}

fn true_motion(both: &Both, m: &Motion) -> TrueMotion {
    let q = Quatd::new_normalize(m.rotation.into_inner().cast::<f64>());
    TrueMotion::new(
        &both.piece,
        m.position.cast::<f64>(),
        q,
        m.local_center.cast::<f64>(),
        m.linear_velocity.cast::<f64>(),
        m.angular_velocity.cast::<f64>(),
    )
}

#[derive(Debug, Default, Clone, Copy)]
struct Tally {
    cases: usize,
    agree: usize,
    parry_late: usize,
    parry_early: usize,
    parapet_earlier: usize,
    parry_earlier: usize,
    one_sided: usize,
    parry_unsupported: usize,
    unexplained: usize,
    parapet_late: usize,
    parapet_early: usize,
}

/// Whether an answer stopping at `stop` (the window's end for none) is
/// late, and the true distance at a hit.
fn judge(ta: &TrueMotion, tb: &TrueMotion, stop: f64) -> bool {
    let d = |t: f64| signed_distance(&ta.at(t), &tb.at(t));
    let m = march(d, lipschitz(ta, tb), 0.0, SLACK, 0.0, stop, stop * 1e-6);
    m.first_below.is_some_and(|t| t < stop)
}

fn run(rng: &mut Lcg, ka: Kind, kb: Kind, t: &mut Tally) {
    t.cases += 1;
    let s = rng.range(0.3, 2.0);
    let (a, b) = (draw(rng, ka, s), draw(rng, kb, s));
    let fast = rng.range(0.0, 1.0) < 0.5;
    let window = [1.0f32 / 60.0, 0.1, 1.0][rng.range(0.0, 3.0) as usize];
    let gap =
        (a.shape.bounding_radius() + b.shape.bounding_radius() + s * rng.range(-0.1, 2.0)) as f32;
    let pb = rng.vec(3.0);
    let pa = pb + rng.dir() * gap;
    let mut ma = motion(rng, pa, fast, s);
    let mb = motion(rng, pb, fast, s);
    if rng.range(0.0, 1.0) < 0.5 {
        ma.linear_velocity += (pb - pa) / window * rng.range(0.5, 2.0) as f32;
    }
    let ours = time_of_impact(&a.shape, &ma, &b.shape, &mb, &ToiOptions::new(window))
        .expect("in the domain");
    let theirs = cast_shapes_nonlinear(
        &parry_motion(&ma),
        a.parry.as_ref(),
        &parry_motion(&mb),
        b.parry.as_ref(),
        0.0,
        window,
        true,
    );
    let (ta, tb) = (true_motion(&a, &ma), true_motion(&b, &mb));
    let end = f64::from(window);
    let dist = |time: f64| signed_distance(&ta.at(time), &tb.at(time));
    let tol = f64::from(TOI_DISTANCE_TOLERANCE);
    let our_stop = ours.map_or(end, |h| f64::from(h.time));
    let Ok(theirs) = theirs else {
        t.parry_unsupported += 1;
        return;
    };
    let their_stop = theirs.map_or(end, |h| f64::from(h.time_of_impact));
    // One-sided: a shape wholly behind parapet's triangle at the start is
    // not caught (the contract); parry's two-sided triangle may catch it.
    let behind = |tri: &TrueMotion, other: &TrueMotion| {
        let x = tri.at(0.0);
        x.dim == 2
            && wholly_behind(
                &[x.vertices[0], x.vertices[1], x.vertices[2]],
                &other.at(0.0),
            )
    };
    if behind(&tb, &ta) || behind(&ta, &tb) {
        if ours.is_some() {
            t.parapet_early += 1;
        } else if theirs.is_some() {
            t.one_sided += 1;
        } else {
            t.agree += 1;
        }
        return;
    }
    if judge(&ta, &tb, our_stop) {
        t.parapet_late += 1;
    }
    if ours.is_some_and(|h| dist(f64::from(h.time)) > tol + SLACK) {
        t.parapet_early += 1;
    }
    let closing = lipschitz(&ta, &tb).max(1e-9);
    let same = (our_stop - their_stop).abs() <= (tol + SLACK) / closing + 1e-6;
    if ours.is_some() == theirs.is_some() && same {
        t.agree += 1;
    } else if judge(&ta, &tb, their_stop) {
        t.parry_late += 1;
    } else if theirs.is_some() && dist(their_stop) > tol + SLACK {
        t.parry_early += 1;
    } else if ours.is_some() && our_stop <= their_stop && dist(our_stop) <= tol + SLACK {
        t.parapet_earlier += 1;
    } else if theirs.is_some() && (ours.is_none() || their_stop < our_stop) {
        // Parry is neither late nor beyond its tolerance: both answers are
        // right (a hit within parry's tolerance where the distance stays
        // above parapet's target, or an earlier stop in the band).
        t.parry_earlier += 1;
    } else {
        t.unexplained += 1;
        eprintln!("unexplained {ka:?} vs {kb:?}: ours {ours:?}, parry {theirs:?}");
    }
}

#[test]
fn every_disagreement_with_parry_is_explained() {
    let per_family: usize = std::env::var("PARAPET_TOI_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(400);
    let mut rng = Lcg(0x0027_9a22);
    let mut total = Tally::default();
    for ka in KINDS {
        for kb in KINDS {
            let mut t = Tally::default();
            for _ in 0..per_family {
                run(&mut rng, ka, kb, &mut t);
            }
            println!("{ka:?} vs {kb:?}: {t:?}");
            total.cases += t.cases;
            total.agree += t.agree;
            total.parry_late += t.parry_late;
            total.parry_early += t.parry_early;
            total.parapet_earlier += t.parapet_earlier;
            total.parry_earlier += t.parry_earlier;
            total.one_sided += t.one_sided;
            total.parry_unsupported += t.parry_unsupported;
            total.unexplained += t.unexplained;
            total.parapet_late += t.parapet_late;
            total.parapet_early += t.parapet_early;
        }
    }
    println!("total: {total:?}");
    assert_eq!(total.parapet_late, 0, "parapet late: {total:?}");
    assert_eq!(
        total.parapet_early, 0,
        "parapet beyond its tolerance: {total:?}"
    );
    assert_eq!(total.unexplained, 0, "unexplained disagreements: {total:?}");
    assert!(total.agree > total.cases / 2, "{total:?}");
}
