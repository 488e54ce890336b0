//! Oracle for the turning-solid driver (`parapet_narrow::advance`): random
//! boxes and convex hulls that turn (landing, landing flat with a face
//! nearly parallel to the floor, grazing, fast tumbling, approaching a small
//! triangle's edge or vertex, falling into a corner; centred and off-centre
//! mass; sizes from 1e-4 m to 8000 m), each checked against an independent
//! brute-force `f64` signed distance along the true rigid motion
//! (`turning_solid_support`, which shares no code with the driver), and a
//! differential table against parry3d 0.31's `cast_shapes_nonlinear`.
//!
//! # The contract checked
//! With `tol` the shape's tolerance, the driver must never let the true
//! motion sink deeper than `tol (1 + MIN_GAP_FRACTION)` into a triangle that
//! the shape started in front of (until the shape is first wholly behind it),
//! before the time it reports (a contact's sub-step start, or the interval's
//! end when it reports the interval clear): no miss. A reported contact
//! whose true gap is positive is a spurious early stop: a cost, counted
//! with its largest gap.
//!
//! The true motion is marched with certified steps: the signed distance
//! changes at most at the speed bound `L = |v| + |ω| r` of any solid point,
//! so a step of `(s + limit) / L` from a signed distance `s` cannot skip a
//! depth beyond `limit`; no step is shorter than 10^-5 of the interval
//! (where that floor applies, the march is a sampling at 10^5 sub-times of
//! the interval, and the steps are counted). It runs to the later of the
//! driver's and parry's stops. Every 1000th case is also sampled at 10^5
//! uniform sub-times up to the driver's stop
//! (`PARAPET_ORACLE_SUBTIME_EVERY` changes the spacing). Default 10,000
//! cases; `PARAPET_ORACLE_CASES` runs more.
//!
//! # The differential table
//! For the driver and for parry (two-sided triangles, `f32`, its own
//! conservative advancement to distance zero): misses (the true motion
//! deeper than the limit before the tool's stop), early stops (a stop with
//! a true gap above `tol`), and the driver's sub-steps. It is an insta
//! snapshot at the default case count: a change in either tool's results
//! shows in review (`cargo insta review`) instead of a committed table
//! going stale; the no-miss contract is asserted outright.

mod turning_solid_support;

use parapet_geometry::ConvexHull;
use parapet_math::{Quatd, Vec3, Vec3d};
use parapet_narrow::advance::{
    advance, check_candidates, Advance, CoreShape, Placement, RigidMotion, SolidCore,
    SubstepBudget, MIN_GAP_FRACTION,
};
use parapet_tests::parry::{parry3d, pose_to_parry, to_parry};
use parry3d::query::{cast_shapes_nonlinear, NonlinearRigidMotion, ShapeCastStatus};
use parry3d::shape::{ConvexPolyhedron, Cuboid, Shape, Triangle};
use turning_solid_support::*;

/// The step length of the motions (s).
const DT: f64 = 1.0 / 60.0;

/// Uniform sub-times of the sampled cases (a count).
const SUBTIMES: usize = 100_000;

/// The driver's budget in the oracle (the world's largest `ccd_max_substeps`).
const BUDGET: u32 = 65_536;

/// A parry stop before this fraction of the interval is "at the start"
/// (dimensionless): parry 0.31's nonlinear cast of a box or hull against a
/// triangle larger than it often returns `2^-17` of the interval.
const START_FRACTION: f64 = 1e-4;

/// Absolute slack of the checker (in scene sizes, dimensionless): its `f64`
/// vertex positions round by about `1e-15` of the size.
const CHECK_SLACK: f64 = 1e-12;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Family {
    Landing,
    Flat,
    Grazing,
    Tumbling,
    Feature,
    Corner,
}

const FAMILIES: [Family; 6] = [
    Family::Landing,
    Family::Flat,
    Family::Grazing,
    Family::Tumbling,
    Family::Feature,
    Family::Corner,
];

struct Case {
    family: Family,
    hull: Option<ConvexHull>,
    half: Vec3d,
    placement: Placement,
    motion: RigidMotion,
    duration: f64,
    triangles: Vec<[Vec3; 3]>,
    scale: f64,
}

impl Case {
    fn core(&self) -> SolidCore {
        match &self.hull {
            Some(h) => SolidCore::hull(h, &self.placement).unwrap(),
            None => SolidCore::cuboid(self.half, &self.placement).unwrap(),
        }
    }

    /// The checker's polytope in the shape frame.
    fn shape(&self) -> Polytope {
        match &self.hull {
            None => box_polytope(&self.half),
            Some(h) => Polytope {
                vertices: h.vertices().iter().map(|v| v.cast::<f64>()).collect(),
                faces: h
                    .faces()
                    .iter()
                    .map(|f| {
                        (
                            f.normal(),
                            f.vertices().iter().map(|&i| i as usize).collect(),
                        )
                    })
                    .collect(),
                edges: h
                    .edges()
                    .iter()
                    .map(|e| [e[0] as usize, e[1] as usize])
                    .collect(),
            },
        }
    }

    fn true_motion(&self, shape: &Polytope) -> TrueMotion {
        let body = |x: &Vec3d| self.placement.translation + self.placement.rotation * x;
        let q = self.motion.rotation;
        TrueMotion {
            arms: shape.vertices.iter().map(|v| q * body(v)).collect(),
            normals: shape
                .faces
                .iter()
                .map(|(n, _)| q * (self.placement.rotation * n))
                .collect(),
            center: self.motion.center,
            velocity: self.motion.velocity,
            spin: self.motion.spin,
        }
    }

    fn tris(&self) -> Vec<[Vec3d; 3]> {
        self.triangles
            .iter()
            .map(|t| t.map(|v| v.cast::<f64>()))
            .collect()
    }
}

fn random_rotation(rng: &mut Lcg) -> Quatd {
    Quatd::from_scaled_axis(rng.dir() * rng.range(0.0, std::f64::consts::PI))
}

fn f32_tri(t: [Vec3d; 3]) -> [Vec3; 3] {
    t.map(|v| v.cast::<f32>())
}

/// A floor `z = 0` of two triangles of half size `size` around `(x, y)`.
fn floor(x: f64, y: f64, size: f64) -> Vec<[Vec3; 3]> {
    let p = |dx: f64, dy: f64| Vec3d::new(x + dx * size, y + dy * size, 0.0);
    vec![
        f32_tri([p(-1.0, -1.0), p(1.0, -1.0), p(1.0, 1.0)]),
        f32_tri([p(-1.0, -1.0), p(1.0, 1.0), p(-1.0, 1.0)]),
    ]
}

/// The shape of a case: a box (a thin plate one time in ten) or a hull of
/// 6 to 16 random points in an ellipsoid.
fn draw_shape(rng: &mut Lcg, scale: f64) -> (Option<ConvexHull>, Vec3d) {
    if rng.range(0.0, 1.0) < 0.4 {
        let axes = Vec3d::new(
            rng.range(0.3, 1.0),
            rng.range(0.3, 1.0),
            rng.range(0.3, 1.0),
        );
        loop {
            let n = 6 + rng.below(11);
            let pts: Vec<Vec3> = (0..n)
                .map(|_| {
                    let d = rng.dir() * rng.range(0.4, 1.0) * scale;
                    d.component_mul(&axes).cast::<f32>()
                })
                .collect();
            if let Ok(h) = ConvexHull::new(&pts) {
                return (Some(h), Vec3d::zeros());
            }
        }
    }
    let mut h = Vec3d::new(
        rng.range(0.1, 1.0),
        rng.range(0.1, 1.0),
        rng.range(0.1, 1.0),
    ) * scale;
    if rng.range(0.0, 1.0) < 0.1 {
        h[rng.below(3)] *= 0.02;
    }
    (None, h.map(|x| x as f32 as f64))
}

/// The rotation taking the unit `from` to the unit `to`.
fn align(from: &Vec3d, to: &Vec3d) -> Quatd {
    Quatd::rotation_between(from, to).unwrap_or_else(|| {
        let axis = if from.x.abs() < 0.9 {
            Vec3d::x()
        } else {
            Vec3d::y()
        };
        Quatd::from_scaled_axis(from.cross(&axis).normalize() * std::f64::consts::PI)
    })
}

fn draw(rng: &mut Lcg, index: usize) -> Case {
    let family = FAMILIES[index % FAMILIES.len()];
    let scale = match rng.below(50) {
        0 => 1e-3,
        1 => 5e3,
        _ => 10f64.powf(rng.range(-2.5, 3.0)),
    };
    let (hull, half) = draw_shape(rng, scale);
    let placement = if rng.range(0.0, 1.0) < 0.4 {
        Placement {
            translation: rng.vec(1.2 * scale),
            rotation: random_rotation(rng),
        }
    } else {
        Placement::centred()
    };
    let mut case = Case {
        family,
        hull,
        half,
        placement,
        motion: RigidMotion {
            center: Vec3d::zeros(),
            rotation: random_rotation(rng),
            velocity: Vec3d::zeros(),
            spin: Vec3d::zeros(),
        },
        duration: DT * rng.range(0.5, 2.0),
        triangles: Vec::new(),
        scale,
    };
    let speed = scale / DT;
    let shape = case.shape();
    if family == Family::Flat {
        // A face turned to face down, tilted by 1e-7 to 1e-2 rad.
        let (n, _) = &shape.faces[rng.below(shape.faces.len())];
        let world = case.placement.rotation * n;
        let tilt = Quatd::from_scaled_axis(
            Vec3d::new(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0), 0.0).normalize()
                * 10f64.powf(rng.range(-7.0, -2.0)),
        );
        let yaw = Quatd::from_scaled_axis(Vec3d::z() * rng.range(0.0, 6.3));
        case.motion.rotation = tilt * yaw * align(&world, &-Vec3d::z());
    }
    let arms = case.true_motion(&shape).arms;
    let low = arms.iter().map(|a| a.z).fold(f64::INFINITY, f64::min);
    let reach = arms.iter().map(|a| a.norm()).fold(0.0, f64::max);
    let tangential = |rng: &mut Lcg, s: f64| Vec3d::new(rng.range(-s, s), rng.range(-s, s), 0.0);
    let m = &mut case.motion;
    match family {
        Family::Landing | Family::Flat | Family::Grazing | Family::Tumbling => {
            let (h, vz, vt, w) = match family {
                Family::Landing => (rng.range(0.01, 1.5), -rng.range(0.2, 3.0), 2.0, 20.0),
                Family::Flat => (rng.range(0.01, 1.0), -rng.range(0.5, 3.0), 0.3, 0.5),
                Family::Grazing => (rng.range(0.0, 0.05), rng.range(-0.05, 0.02), 3.0, 10.0),
                _ => (
                    rng.range(0.05, 2.0),
                    -rng.range(0.0, 2.0),
                    1.0,
                    rng.range(50.0, 200.0),
                ),
            };
            m.center = Vec3d::new(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0), 0.0) * scale
                + Vec3d::new(0.0, 0.0, h * scale - low);
            m.velocity = tangential(rng, vt * speed) + Vec3d::new(0.0, 0.0, vz * speed);
            m.spin = if family == Family::Tumbling {
                rng.dir() * w
            } else {
                rng.vec(w)
            };
            case.triangles = floor(m.center.x, m.center.y, 20.0 * (reach + scale));
        }
        Family::Feature => {
            let d = rng.dir();
            let size = rng.range(0.2, 2.0) * scale;
            let centroid = d * (reach + rng.range(0.05, 1.0) * scale);
            let frame = random_rotation(rng);
            let mut t = [0.0f64, 2.1, 4.2].map(|a| {
                centroid + frame * Vec3d::new(a.cos(), a.sin(), rng.range(-0.3, 0.3)) * size
            });
            let n = (t[1] - t[0]).cross(&(t[2] - t[0]));
            if n.dot(&(m.center - t[0])) < 0.0 {
                t.swap(1, 2);
            }
            m.velocity = d * rng.range(0.5, 3.0) * speed + rng.vec(speed);
            m.spin = rng.vec(30.0);
            case.triangles = vec![f32_tri(t)];
        }
        Family::Corner => {
            let h = rng.range(0.05, 1.0) * scale;
            let gap = rng.range(0.05, 1.0) * scale;
            m.center = Vec3d::new(-gap - reach, 0.0, h - low);
            let big = 20.0 * (reach + scale);
            let mut tris = floor(0.0, 0.0, big);
            let w = |y: f64, z: f64| Vec3d::new(0.0, y * big, z * big);
            tris.push(f32_tri([w(-1.0, -0.1), w(1.0, 1.0), w(1.0, -0.1)]));
            tris.push(f32_tri([w(-1.0, -0.1), w(-1.0, 1.0), w(1.0, 1.0)]));
            m.velocity = Vec3d::new(
                rng.range(0.2, 3.0),
                rng.range(-0.5, 0.5),
                -rng.range(0.0, 2.0),
            ) * speed;
            m.spin = rng.vec(40.0);
            case.triangles = tris;
        }
    }
    case
}

/// What the checker found along the true motion over the whole interval.
struct Truth {
    /// Per triangle: the first sampled time it is wholly behind (`+∞`), or
    /// `-1` when it was never admitted.
    dropped: Vec<f64>,
    /// The first sampled time the shape touches an admitted triangle.
    touch: Option<f64>,
    /// The first time it is deeper than the limit, and how deep.
    deep: Option<(f64, f64)>,
    /// Signed-distance evaluations.
    evals: usize,
    /// Steps lengthened to the sampling floor (not certified).
    floored: usize,
}

fn signed_at(
    solid: &mut Polytope,
    tm: &TrueMotion,
    tris: &[[Vec3d; 3]],
    dropped: &mut [f64],
    t: f64,
    evals: &mut usize,
) -> f64 {
    tm.at_into(t, solid);
    let mut s = f64::INFINITY;
    for (k, tri) in tris.iter().enumerate() {
        if dropped[k] < t || dropped[k] < 0.0 {
            continue;
        }
        if !in_front(solid, tri) {
            dropped[k] = dropped[k].min(t);
            continue;
        }
        *evals += 1;
        s = s.min(signed_distance(solid, tri));
    }
    s
}

/// The march over `[0, end]` (see the module docs): certified steps of
/// `(s + limit) / L`, never shorter than `floor_step` (such a step is
/// counted as uncertified).
fn march(
    shape: &Polytope,
    tm: &TrueMotion,
    tris: &[[Vec3d; 3]],
    end: f64,
    limit: f64,
    floor_step: f64,
) -> Truth {
    let mut solid = tm.at(shape, 0.0);
    let mut dropped: Vec<f64> = tris
        .iter()
        .map(|t| {
            if in_front(&solid, t) {
                f64::INFINITY
            } else {
                -1.0
            }
        })
        .collect();
    let lip = tm.lipschitz();
    let mut truth = Truth {
        dropped: Vec::new(),
        touch: None,
        deep: None,
        evals: 0,
        floored: 0,
    };
    let mut t = 0.0;
    loop {
        let s = signed_at(&mut solid, tm, tris, &mut dropped, t, &mut truth.evals);
        if s <= 0.0 && truth.touch.is_none() {
            truth.touch = Some(t);
        }
        if s < -limit {
            truth.deep = Some((t, -s));
            break;
        }
        if t >= end || lip == 0.0 {
            break;
        }
        let mut step = (s + limit) / lip;
        if step < floor_step {
            step = floor_step;
            truth.floored += 1;
        }
        t = (t + step).min(end);
    }
    truth.dropped = dropped;
    truth
}

/// The signed distance at `t` over the triangles admitted then.
fn gap_at(shape: &Polytope, tm: &TrueMotion, tris: &[[Vec3d; 3]], truth: &Truth, t: f64) -> f64 {
    let mut dropped = truth.dropped.clone();
    let mut evals = 0;
    let mut solid = shape.clone();
    signed_at(&mut solid, tm, tris, &mut dropped, t, &mut evals)
}

/// parry's first time of impact over the triangles (`None`: no hit), its
/// status, and whether any query was unsupported.
fn parry_toi(case: &Case) -> (Option<(f64, ShapeCastStatus)>, bool) {
    let p = &case.placement;
    let q = case.motion.rotation;
    let position = case.motion.center + q * p.translation;
    let rotation = q * p.rotation;
    let start = pose_to_parry(position.cast::<f32>(), rotation.cast::<f32>());
    let local_center = p.rotation.inverse() * -p.translation;
    let motion = NonlinearRigidMotion::new(
        start,
        to_parry(local_center.cast::<f32>()),
        to_parry(case.motion.velocity.cast::<f32>()),
        to_parry(case.motion.spin.cast::<f32>()),
    );
    let shape: Box<dyn Shape> = match &case.hull {
        None => Box::new(Cuboid::new(to_parry(case.half.cast::<f32>()))),
        Some(h) => {
            let pts: Vec<_> = h.vertices().iter().map(|v| to_parry(*v)).collect();
            match ConvexPolyhedron::from_convex_hull(&pts) {
                Some(poly) => Box::new(poly),
                None => return (None, true),
            }
        }
    };
    let fixed = NonlinearRigidMotion::identity();
    let mut best: Option<(f64, ShapeCastStatus)> = None;
    let mut unsupported = false;
    for t in &case.triangles {
        let tri = Triangle::new(to_parry(t[0]), to_parry(t[1]), to_parry(t[2]));
        match cast_shapes_nonlinear(
            &motion,
            shape.as_ref(),
            &fixed,
            &tri,
            0.0,
            case.duration as f32,
            true,
        ) {
            Ok(Some(hit)) => {
                let toi = hit.time_of_impact as f64;
                if best.is_none_or(|(b, _)| toi < b) {
                    best = Some((toi, hit.status));
                }
            }
            Ok(None) => {}
            Err(_) => unsupported = true,
        }
    }
    (best, unsupported)
}

#[derive(Default, Clone)]
struct Row {
    cases: usize,
    driver_misses: usize,
    driver_early: usize,
    driver_spurious: usize,
    driver_contacts: usize,
    substeps: Vec<u32>,
    parry_misses: usize,
    parry_early: usize,
    parry_unsupported: usize,
    parry_at_start: usize,
    parry_tunnels: usize,
    parry_failed: usize,
    touched: usize,
}

fn env_count(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn percentile(sorted: &[u32], p: f64) -> u32 {
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

fn table(rows: &[(String, Row)]) -> String {
    let mut out = String::from(
        "| family | cases | touched | driver misses | driver early (gap > tol) | driver spurious (gap > 0) | driver contacts | sub-steps median / p99 / max | parry misses | of which through (gap > 0 at its stop) | parry early (gap > tol) | of which at the start | parry status Failed | parry unsupported |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n",
    );
    for (name, r) in rows {
        let mut s = r.substeps.clone();
        s.sort_unstable();
        out += &format!(
            "| {name} | {} | {} | {} | {} | {} | {} | {} / {} / {} | {} | {} | {} | {} | {} | {} |\n",
            r.cases,
            r.touched,
            r.driver_misses,
            r.driver_early,
            r.driver_spurious,
            r.driver_contacts,
            percentile(&s, 0.5),
            percentile(&s, 0.99),
            s.last().copied().unwrap_or(0),
            r.parry_misses,
            r.parry_tunnels,
            r.parry_early,
            r.parry_at_start,
            r.parry_failed,
            r.parry_unsupported,
        );
    }
    out
}

#[test]
fn the_driver_misses_no_contact_of_a_turning_solid_and_its_parry_table_holds() {
    let default_cases = 10_000;
    let cases = env_count("PARAPET_ORACLE_CASES", default_cases);
    let every = env_count("PARAPET_ORACLE_SUBTIME_EVERY", 1000).max(1);
    let mut rng = Lcg::new(2024);
    let mut rows: Vec<Row> = vec![Row::default(); FAMILIES.len()];
    let mut misses = Vec::new();
    let mut worst_spurious = 0.0f64;
    let mut deepest = 0.0f64;
    let mut evals = 0usize;
    let mut floored = 0usize;
    let mut drawn = 0usize;
    let mut i = 0;
    while i < cases {
        drawn += 1;
        let case = draw(&mut rng, i);
        let core = case.core();
        let shape = case.shape();
        let tm = case.true_motion(&shape);
        let tris = case.tris();
        let tol = core.tolerance();
        let slack = CHECK_SLACK * (case.scale + tm.center.amax());
        let limit = tol * (1.0 + MIN_GAP_FRACTION) + slack;
        // Start clear of every admitted triangle (a start in the band is a
        // different contract).
        let solid0 = tm.at(&shape, 0.0);
        if tris
            .iter()
            .any(|t| in_front(&solid0, t) && signed_distance(&solid0, t) <= tol)
        {
            continue;
        }
        if check_candidates(&core, &case.motion, &case.triangles).is_err() {
            continue;
        }
        let row = &mut rows[case.family as usize];
        row.cases += 1;
        let mut budget = SubstepBudget::new(BUDGET);
        let out = advance(
            &core,
            &case.motion,
            case.duration,
            &case.triangles,
            &mut budget,
        )
        .unwrap_or_else(|e| panic!("case {i}: {e}"));
        row.substeps.push(budget.used);
        let stop = match &out {
            Advance::Clear(_) => case.duration,
            Advance::Contact(e) => e.elapsed,
        };
        let (hit, unsupported) = parry_toi(&case);
        let toi = hit.map(|(t, _)| t);
        let parry_stop = toi.unwrap_or(case.duration);
        let truth = march(
            &shape,
            &tm,
            &tris,
            stop.max(parry_stop),
            limit,
            case.duration / SUBTIMES as f64,
        );
        evals += truth.evals;
        floored += truth.floored;
        if truth.touch.is_some() {
            row.touched += 1;
        }
        if let Some((t, d)) = truth.deep {
            if t < stop {
                row.driver_misses += 1;
                misses.push(format!(
                    "case {i} ({:?}): {d:e} m deep (tol {tol:e}) at {t} before the stop at {stop}",
                    case.family
                ));
            }
        }
        if (i + 1) % every == 0 {
            let mut dropped = truth.dropped.clone();
            let mut solid = shape.clone();
            for k in 0..=SUBTIMES {
                let t = stop * k as f64 / SUBTIMES as f64;
                let s = signed_at(&mut solid, &tm, &tris, &mut dropped, t, &mut evals);
                if s < -limit {
                    row.driver_misses += 1;
                    misses.push(format!("case {i}: sampled {s:e} at {t} before {stop}"));
                    break;
                }
            }
        }
        // Deepest sinking before the stop, in tolerances (the march's
        // minimum is within a step; the stop pose itself is exact).
        if let Advance::Contact(_) = &out {
            row.driver_contacts += 1;
            let g = gap_at(&shape, &tm, &tris, &truth, stop);
            deepest = deepest.max(-g / tol);
            if g > slack {
                row.driver_spurious += 1;
                worst_spurious = worst_spurious.max(g / tol);
            }
            if g > tol {
                row.driver_early += 1;
            }
        }
        if unsupported {
            row.parry_unsupported += 1;
        }
        if truth.deep.is_some_and(|(t, _)| t < parry_stop) {
            if toi.is_none() || gap_at(&shape, &tm, &tris, &truth, parry_stop) > 0.0 {
                row.parry_tunnels += 1;
            }
            row.parry_misses += 1;
        }
        if let Some(t) = toi {
            if gap_at(&shape, &tm, &tris, &truth, t) > tol {
                row.parry_early += 1;
                if t < START_FRACTION * case.duration {
                    row.parry_at_start += 1;
                }
            }
            if hit.is_some_and(|(_, s)| s == ShapeCastStatus::Failed) {
                row.parry_failed += 1;
            }
        }
        i += 1;
    }
    let mut named: Vec<(String, Row)> = FAMILIES
        .iter()
        .zip(&rows)
        .map(|(f, r)| (format!("{f:?}"), r.clone()))
        .collect();
    let mut total = Row::default();
    for r in &rows {
        total.cases += r.cases;
        total.touched += r.touched;
        total.driver_misses += r.driver_misses;
        total.driver_early += r.driver_early;
        total.driver_spurious += r.driver_spurious;
        total.driver_contacts += r.driver_contacts;
        total.substeps.extend(&r.substeps);
        total.parry_misses += r.parry_misses;
        total.parry_early += r.parry_early;
        total.parry_unsupported += r.parry_unsupported;
        total.parry_at_start += r.parry_at_start;
        total.parry_tunnels += r.parry_tunnels;
        total.parry_failed += r.parry_failed;
    }
    named.push(("all".to_string(), total.clone()));
    let text = table(&named);
    println!("{text}");
    println!(
        "{cases} cases ({drawn} drawn), {evals} signed distances, {floored} steps at the sampling floor; deepest stop {deepest:.3} tol; largest spurious gap {worst_spurious:.3e} tol; mean sub-steps {:.2}",
        total.substeps.iter().map(|&s| s as f64).sum::<f64>() / total.cases as f64
    );
    assert!(misses.is_empty(), "missed contacts:\n{}", misses.join("\n"));
    assert!(
        deepest <= 1.0 + MIN_GAP_FRACTION,
        "a stop {deepest} tolerances deep"
    );
    if cases == default_cases {
        insta::assert_snapshot!(text);
    }
}

/// A bracket `(lower, upper)` of the distance of a posed box to a triangle
/// found without the checker's code: `upper` by a search over the triangle
/// of the exact point-box distance (clamping in the box frame; a grid of
/// `n` steps per edge, then a pattern search along the triangle's edge
/// directions whose step doubles after a move and halves after none), a
/// feasible pair; `lower` the support gap along the direction of the best
/// pair found, `min_T n · q − max_box n · x`, which no pair can beat.
fn bracket_box_distance(
    center: &Vec3d,
    axes: &[Vec3d; 3],
    half: &Vec3d,
    tri: &[Vec3d; 3],
    n: usize,
) -> (f64, f64) {
    let at = |u: f64, v: f64| tri[0] + (tri[1] - tri[0]) * u + (tri[2] - tri[0]) * v;
    let nearest = |p: &Vec3d| {
        let r = p - center;
        let mut c = *center;
        for k in 0..3 {
            c += axes[k] * axes[k].dot(&r).clamp(-half[k], half[k]);
        }
        c
    };
    let f = |u: f64, v: f64| {
        let p = at(u, v);
        (p - nearest(&p)).norm()
    };
    let (mut best, mut bu, mut bv) = (f64::INFINITY, 0.0, 0.0);
    for i in 0..=n {
        for j in 0..=(n - i) {
            let (u, v) = (i as f64 / n as f64, j as f64 / n as f64);
            let d = f(u, v);
            if d < best {
                (best, bu, bv) = (d, u, v);
            }
        }
    }
    let mut step = 1.0 / n as f64;
    let mut rounds = 0;
    while step > 1e-13 && best > 0.0 && rounds < 20_000 {
        rounds += 1;
        let mut moved = false;
        for (du, dv) in [
            (1.0, 0.0),
            (-1.0, 0.0),
            (0.0, 1.0),
            (0.0, -1.0),
            (1.0, -1.0),
            (-1.0, 1.0),
        ] {
            let (u, v) = (bu + du * step, bv + dv * step);
            if u < 0.0 || v < 0.0 || u + v > 1.0 {
                continue;
            }
            let d = f(u, v);
            // A move must gain beyond rounding: the distance is constant
            // over the triangle where it faces a box face in parallel.
            if d < best * (1.0 - 1e-14) {
                (best, bu, bv) = (d, u, v);
                moved = true;
            }
        }
        step = if moved {
            (2.0 * step).min(1.0 / n as f64)
        } else {
            0.5 * step
        };
    }
    if best == 0.0 {
        return (f64::NEG_INFINITY, 0.0);
    }
    let q = at(bu, bv);
    let dir = (q - nearest(&q)) / best;
    let support = dir.dot(center)
        + (0..3)
            .map(|k| half[k] * dir.dot(&axes[k]).abs())
            .sum::<f64>();
    let low = tri.iter().map(|t| dir.dot(t)).fold(f64::INFINITY, f64::min);
    (low - support, best)
}

#[test]
fn the_checker_lies_in_an_independent_bracket_on_boxes_and_parry_is_counted() {
    // A second opinion on the checker for boxes at their start poses: it
    // lies in the bracket of `bracket_box_distance`, found by other means,
    // and the bracket's search reaches its value in nearly every case.
    // parry3d's f32 distance is compared too
    // and its disagreements beyond 1e-5 of the scene's largest coordinate
    // counted (they are parry's: the bracket decides; parry 0.31 returns 0 or
    // a larger value for some boxes over triangles much larger than them).
    let mut rng = Lcg::new(77);
    let (mut compared, mut parry_off, mut widest) = (0, 0, 0.0f64);
    let (mut reached, mut overlapping) = (0, 0);
    for index in 0..600 {
        let case = draw(&mut rng, index);
        if case.hull.is_some() {
            continue;
        }
        let shape = case.shape();
        let solid = case.true_motion(&shape).at(&shape, 0.0);
        let q = case.motion.rotation * case.placement.rotation;
        let center = case.motion.center + case.motion.rotation * case.placement.translation;
        let axes = [q * Vec3d::x(), q * Vec3d::y(), q * Vec3d::z()];
        let pose = pose_to_parry(center.cast::<f32>(), q.cast::<f32>());
        let cuboid = Cuboid::new(to_parry(case.half.cast::<f32>()));
        let identity = pose_to_parry(Vec3::zeros(), parapet_math::Quat::identity());
        for (t, t32) in case.tris().iter().zip(&case.triangles) {
            let ours = signed_distance(&solid, t).max(0.0);
            let (lower, upper) = bracket_box_distance(&center, &axes, &case.half, t, 60);
            // Both round by about 1e-15 of the scene.
            let scale = t
                .iter()
                .chain(&solid.vertices)
                .map(|v| v.amax())
                .fold(0.0, f64::max);
            let eps = 1e-12 * scale;
            assert!(
                lower - eps <= ours && ours <= upper + eps,
                "case {index}: checker {ours} outside [{lower}, {upper}]"
            );
            if lower > f64::NEG_INFINITY {
                widest = widest.max((upper - lower) / scale);
                if upper - ours <= 1e-9 * scale {
                    reached += 1;
                }
            } else {
                overlapping += 1;
            }
            let tri = Triangle::new(to_parry(t32[0]), to_parry(t32[1]), to_parry(t32[2]));
            let theirs = parry3d::query::distance(&pose, &cuboid, &identity, &tri)
                .unwrap()
                .distance as f64;
            if (ours - theirs).abs() > 1e-5 * scale {
                parry_off += 1;
            }
            compared += 1;
        }
    }
    println!(
        "checker vs bracket: {compared} box-triangle pairs ({overlapping} overlapping), the search reached the checker's value in {reached}, widest bracket {widest:e} of the scene; parry's distance off in {parry_off}"
    );
    assert!(compared > 350, "{compared}");
    // The search stalls only where the distance is nearly constant over
    // the triangle (a face within 1e-2 rad of parallel to a large floor):
    // there it stays in the bracket without reaching the value.
    assert!(
        reached * 100 >= (compared - overlapping) * 95,
        "{reached} of {compared}"
    );
}
