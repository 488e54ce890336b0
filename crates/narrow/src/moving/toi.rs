//! The time of impact of two convex cores under two rigid motions: the
//! arbiter's loop over one pair.
//!
//! # Method
//! Conservative advancement to a target gap (Mirtich 1996, ch. 4; the
//! controlled variant of Tang, Kim and Manocha, "C2A", ICRA 2009): from the
//! window start, each iteration
//! 1. poses both cores at the current time `t` ([`Motion`]) in a working
//!    frame centred on A's mass centre at the window start;
//! 2. brackets their signed distance ([`super::separation`]): an upper
//!    bound from GJK witnesses, a lower bound `s(n)` along one axis `n`;
//! 3. stops with a [`Hit`] at `t` when the upper bound, skins and rounding
//!    slack included, is within the tolerance of the target;
//! 4. otherwise advances `t` by the longest time during which the
//!    separation along the FIXED axis `n` certainly stays above the target
//!    ([`super::advance`]), or reports the window clear when that time
//!    covers the rest of it.
//!
//! # Entering a triangle
//! Against a one-sided triangle, the measure of overlapping cores counts
//! the triangle's normal towards its front only ([`super::separation`]),
//! so a core that comes in from behind (partly in front of the plane, so
//! admitted, and sliding in past an edge) is deep the instant it touches:
//! the measure jumps from about zero to minus its depth there. The nearest
//! points' axis bounds the distance of cores apart, not that jump, so with
//! a target below the cores' touching it certifies only until they touch;
//! the largest separation over the axes a surface has bounds the measure
//! on both sides of the touching and certifies down to the target (once a
//! side turns, as the triangle's prism: "Held targets"). Each
//! step takes the longer of the two certified intervals; when neither
//! advances (cores within the tolerance of touching, the surface's axes
//! already below the target), the hit is at that instant, never late, and
//! its gap is the depth the measure jumps to there (its lower bound along
//! the surface's axis), so that a caller holding the pair deeper gets past
//! it.
//!
//! # Held targets
//! Below touching, the measure `M` of a core against a one-sided triangle
//! `T` takes every separating-axis candidate but the one through the
//! triangle's back, so it is not the largest separation over a fixed set
//! of directions: once a side turns, the candidates turn with it, and a
//! fixed axis that was one of them (an axis tilted a little from the
//! triangle's back normal, with the core mostly behind its plane) bounds
//! `M` no longer. Such a step is certified against the triangle's prism
//! `P`: its points and their copies `d` behind its face, with `d` the
//! tolerance minus the level (the certified core separation, target plus
//! skins and slack, negative here), a convex set moving with the mesh.
//! Along any fixed axis the separation from `P` bounds their signed
//! distance `D_P` from below, and `D_P` bounds `M` down to the level: with
//! the cores apart, `M` is their distance, which `P ⊇ T` only lowers;
//! overlapping, each face normal of the Minkowski difference of the core
//! and `P` (the core's faces, the triangle's front, its in-plane normals
//! across its edges, its edges and normal crossed with the core's edges)
//! is a candidate of `M`, along which `P` separates no more than `T`,
//! except `P`'s back, along which the separation is at most `−d`, below the
//! level. So a step that keeps the separation from `P` above the level
//! keeps `M` above it. The axis is the one the step would take anyway.
//! When nothing turns the prism is not needed (the candidates are fixed,
//! and the axis is one of them). When the triangle does not turn, each copy
//! moves with its corner, so the prism's bounds are the corners' moved by
//! the copies' offset along the axis where it reaches behind the face, and
//! the corners' own where it faces the front: a core resting in front of a
//! fixed surface keeps its steps bit for bit. The argument needs every edge
//! of the triangle open: a held edge drops the candidates across it, and
//! there the prism is the same bound, without that proof.
//!
//! # Guarantee
//! Every step is certified for the exact motion: on `[start, t)` the signed
//! distance (skins included) stays above `target`, so a hit is never later
//! than the first time the distance reaches the target, and at the hit the
//! distance is at most `target + tolerance`. A start at or below the target
//! is a hit at the window start. A core that starts wholly behind a
//! one-sided triangle's face plane (every point on or behind it) is not
//! caught by it: clear. Should a step not advance (a lower bound that does
//! not leave the target while the upper bound stays above the tolerance,
//! which a converged bracket rules out), the loop stops early with a hit
//! whose `gap` says how far it is: early, never late. Against a turning
//! triangle with a held target the measure is certified as in "Held
//! targets": a core entering from behind stops at its touching (a jump,
//! as above) where the prism is already deep.
//!
//! # Precision domain
//! See [`super::domain`]: mass centres within `MAX_COORDINATE`, cores and
//! skins within `MAX_SIZE`, and a rounding slack within
//! `MAX_SLACK_FRACTION` of the tolerance.

use parapet_math::rounding::add_down;
use parapet_math::{Quatd, Vec3d};

use super::advance::{
    admissible_time, attached_time, point_bounds, shift_bounds, translating_time, Attached,
    Kinematics, PointBound,
};
use super::core::{Core, CoreKind};
use super::domain::{self, position_slack, Refusal, MAX_SLACK_FRACTION};
use super::exact::translation;
use super::hit::{Feature, Hit};
use super::motion::Motion;
use super::separation::{bracket, largest_separation, PosedCore};

/// The default work budget of a query (advancement iterations): 2^16.
pub const DEFAULT_BUDGET: u32 = 1 << 16;

/// What a caller asks: the window of the motions' time, the target gap and
/// the tolerance of the answer, and the work budget.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ToiRequest {
    /// The window's start (s, the motions' time).
    pub start: f64,
    /// The window's end (s), at least `start`.
    pub end: f64,
    /// The target signed distance (m): the query stops when the distance
    /// (skins included; minus the penetration depth when the shapes
    /// overlap) reaches it. Any finite value: a negative target lets a
    /// held contact sink that deep before it counts.
    pub target: f64,
    /// How far above the target a hit may stop (m), positive.
    pub tolerance: f64,
    /// The most advancement iterations (over every triangle of a mesh).
    pub budget: u32,
}

impl ToiRequest {
    /// A request over `[start, end]` with this target and tolerance and the
    /// [`DEFAULT_BUDGET`].
    pub fn new(start: f64, end: f64, target: f64, tolerance: f64) -> Self {
        ToiRequest {
            start,
            end,
            target,
            tolerance,
            budget: DEFAULT_BUDGET,
        }
    }

    /// The same request with another budget.
    pub fn with_budget(mut self, budget: u32) -> Self {
        self.budget = budget;
        self
    }

    /// Checks the request.
    pub(crate) fn check(&self) -> Result<(), Refusal> {
        domain::finite("window start", self.start)?;
        domain::finite("window end", self.end)?;
        domain::finite("target gap", self.target)?;
        domain::finite("tolerance", self.tolerance)?;
        if !(self.end >= self.start) {
            return Err(Refusal::Invalid {
                quantity: "window end",
                value: self.end,
                limit: self.start,
            });
        }
        if !(self.tolerance > 0.0) {
            return Err(Refusal::Invalid {
                quantity: "tolerance",
                value: self.tolerance,
                limit: 0.0,
            });
        }
        Ok(())
    }
}

/// The answer of the arbiter.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Toi {
    /// The distance stays above the target on the whole window.
    Clear {
        /// The advancement iterations the query used.
        iterations: u32,
    },
    /// The first time of impact.
    Hit(Hit),
}

impl Toi {
    /// The hit, if any.
    pub fn hit(&self) -> Option<&Hit> {
        match self {
            Toi::Hit(h) => Some(h),
            Toi::Clear { .. } => None,
        }
    }

    /// The advancement iterations the query used.
    pub fn iterations(&self) -> u32 {
        match self {
            Toi::Hit(h) => h.iterations,
            Toi::Clear { iterations } => *iterations,
        }
    }
}

/// A motion with a unit `f64` rotation, checked finite.
pub(crate) fn checked_motion(m: &Motion) -> Result<Motion, Refusal> {
    domain::finite_vec("mass centre", &m.center)?;
    domain::finite_vec("local mass centre", &m.local_center)?;
    domain::finite_vec("velocity", &m.velocity)?;
    domain::finite_vec("angular velocity", &m.spin)?;
    let q = m.rotation.into_inner();
    domain::finite_vec("rotation", &q.coords.xyz())?;
    domain::finite("rotation", q.w)?;
    let norm = q.norm();
    if !(norm > 0.0) {
        return Err(Refusal::Invalid {
            quantity: "rotation norm",
            value: norm,
            limit: 0.0,
        });
    }
    Ok(Motion {
        rotation: Quatd::new_normalize(q),
        ..*m
    })
}

/// The working storage of [`core_pair`]: each side's posed core and point
/// bounds, and the candidate axes. A query over many triangles keeps one,
/// so that it allocates once, not per triangle; its content never changes
/// a result.
#[derive(Debug, Default)]
pub(crate) struct PairScratch {
    a: SideStorage,
    b: SideStorage,
    axes: Vec<Vec3d>,
}

/// One side's storage in a [`PairScratch`].
#[derive(Debug, Default)]
struct SideStorage {
    posed: PosedCore,
    bounds: Vec<PointBound>,
    prism: Vec<Vec3d>,
}

/// One side of a pair: its core, motion and the derived magnitudes.
struct Side<'a, 's> {
    core: &'a Core,
    motion: &'a Motion,
    /// The farthest point's distance from the mass centre (m).
    reach: f64,
    posed: &'s mut PosedCore,
    bounds: &'s mut Vec<PointBound>,
    /// A triangle's posed points and their copies behind it (module docs,
    /// "Held targets").
    prism: &'s mut Vec<Vec3d>,
}

impl<'a, 's> Side<'a, 's> {
    fn new(
        core: &'a Core,
        motion: &'a Motion,
        storage: &'s mut SideStorage,
    ) -> Result<Self, Refusal> {
        let reach = core.reach_from(&motion.local_center);
        domain::within("core reach", reach, domain::MAX_SIZE)?;
        domain::within("skin radius", core.skin(), domain::MAX_SIZE)?;
        Ok(Side {
            core,
            motion,
            reach,
            posed: &mut storage.posed,
            bounds: &mut storage.bounds,
            prism: &mut storage.prism,
        })
    }

    /// Poses the core at `t` in the frame centred on `origin`; returns the
    /// kinematics with the position slack.
    fn pose(&mut self, t: f64, origin: &Vec3d) -> Kinematics {
        let m = self.motion;
        let q = m.rotation_at(t);
        let c = (m.center - origin) + m.velocity * t;
        let lc = m.local_center;
        self.posed.points.clear();
        self.posed
            .points
            .extend(self.core.points().iter().map(|p| c + q * (p - lc)));
        self.posed.faces.clear();
        self.posed
            .faces
            .extend(self.core.face_normals().iter().map(|n| q * n));
        self.posed.edges.clear();
        self.posed
            .edges
            .extend(self.core.edge_directions().iter().map(|e| q * e));
        self.posed.held_edges.clear();
        self.posed
            .held_edges
            .extend(self.core.held_edge_directions().iter().map(|e| q * e));
        self.posed.held_mask = self.core.held_edge_mask();
        let slack = position_slack(
            m.center.amax() + origin.amax(),
            m.velocity.amax(),
            m.spin.amax(),
            self.reach,
            t,
        );
        Kinematics {
            center: c,
            velocity: m.velocity,
            spin: m.spin,
            slack,
        }
    }
}

/// What a one-sided triangle on either side admits of a pair before the
/// loop: nothing, when the other core starts wholly behind it (not caught)
/// or, both translating, stays above the triangle's plane by more than the
/// target over the window ([`stays_above_the_plane`]: B's triangle).
enum Admission {
    Behind,
    AbovePlane,
    Open,
}

/// The [`Admission`] of the pair from `start` to `end` (poses both sides
/// at `start` when either is a triangle).
fn triangle_admission(
    sa: &mut Side<'_, '_>,
    sb: &mut Side<'_, '_>,
    origin: &Vec3d,
    start: f64,
    end: f64,
    request: &ToiRequest,
) -> Admission {
    let (a, b) = (sa.core.kind(), sb.core.kind());
    if a != CoreKind::Triangle && b != CoreKind::Triangle {
        return Admission::Open;
    }
    let ka = sa.pose(start, origin);
    let kb = sb.pose(start, origin);
    if (b == CoreKind::Triangle && wholly_behind(&sb.posed.points, &sa.posed.points))
        || (a == CoreKind::Triangle && wholly_behind(&sa.posed.points, &sb.posed.points))
    {
        return Admission::Behind;
    }
    if b == CoreKind::Triangle
        && !sa.motion.turns()
        && !sb.motion.turns()
        && stays_above_the_plane(sa, sb, (&ka, &kb), end - start, request)
    {
        return Admission::AbovePlane;
    }
    Admission::Open
}

/// Whether A's core, posed with kinematics `ka` beside B's one-sided
/// triangle (posed with `kb`), both translating, stays further than the
/// request's target (m) in front of the triangle's plane for the next `window`
/// seconds: its least separation along the triangle's front normal, less
/// A's skin, is linear in time, so its smaller end value bounds it, and
/// the arbiter's measure of a core against a one-sided triangle is never
/// below that separation (the front normal is one of its axes, and the
/// distance of cores apart is never below a plane's). A walker resting on
/// a terrain, held a few millimetres down, is then cleared of every
/// triangle around its feet without a sweep. Rounding: the loop's
/// [`rounding_slack`] and `16 ε` of the travel.
fn stays_above_the_plane(
    sa: &Side<'_, '_>,
    sb: &Side<'_, '_>,
    (ka, kb): (&Kinematics, &Kinematics),
    window: f64,
    request: &ToiRequest,
) -> bool {
    let tri = &sb.posed.points;
    let Some(n) = (tri[1] - tri[0])
        .cross(&(tri[2] - tri[0]))
        .try_normalize(0.0)
    else {
        return false;
    };
    let near = sa
        .posed
        .points
        .iter()
        .map(|p| n.dot(&(p - tri[0])))
        .fold(f64::INFINITY, f64::min);
    let travel = n.dot(&(ka.velocity - kb.velocity)) * window;
    let skins = sa.core.skin() + sb.core.skin();
    // Beyond the precision domain: not cleared here, the loop refuses.
    let Ok(slack) = rounding_slack(sa, sb, (ka, kb), skins, request) else {
        return false;
    };
    let slack = slack + 16.0 * f64::EPSILON * (ka.velocity.amax() + kb.velocity.amax()) * window;
    near + travel.min(0.0) - skins - slack > request.target
}

/// Whether every point of `points` is on or behind the front plane of the
/// one-sided triangle `tri` (the one-sided admission: not caught).
fn wholly_behind(tri: &[Vec3d], points: &[Vec3d]) -> bool {
    let n = (tri[1] - tri[0]).cross(&(tri[2] - tri[0]));
    !points.iter().any(|p| n.dot(&(p - tri[0])) > 0.0)
}

/// The time of impact of two cores (see the module docs), counting its
/// iterations in `work` against the request's budget; the window ends at
/// `end` (at most the request's). Motions are checked by the caller.
#[allow(clippy::too_many_arguments)]
pub(crate) fn core_pair(
    a: &Core,
    motion_a: &Motion,
    b: &Core,
    motion_b: &Motion,
    request: &ToiRequest,
    end: f64,
    work: &mut u32,
    scratch: &mut PairScratch,
) -> Result<Option<Hit>, Refusal> {
    let PairScratch {
        a: storage_a,
        b: storage_b,
        axes,
    } = scratch;
    let mut sa = Side::new(a, motion_a, storage_a)?;
    let mut sb = Side::new(b, motion_b, storage_b)?;
    let start = request.start;
    let origin = motion_a.center_at(start);
    for m in [motion_a, motion_b] {
        for t in [start, end] {
            let c = m.center_at(t);
            domain::within("mass centre coordinate", c.amax(), domain::MAX_COORDINATE)?;
        }
    }
    match triangle_admission(&mut sa, &mut sb, &origin, start, end, request) {
        Admission::Behind => return Ok(None),
        Admission::AbovePlane => {
            spend(work, request.budget)?;
            return Ok(None);
        }
        Admission::Open => {}
    }
    if let Some(exact) = translation(
        (a, motion_a),
        (b, motion_b),
        start,
        request.end,
        request.target,
    ) {
        spend(work, request.budget)?;
        return Ok(exact.map(|mut hit| {
            // A polytope's features, and an initial contact's true gap,
            // from the poses at the hit.
            if hit.feature_a.count == 0 || hit.time == start {
                let ka = sa.pose(hit.time, &origin);
                let kb = sb.pose(hit.time, &origin);
                let br = bracket(sa.posed, sb.posed, axes);
                if hit.feature_a.count == 0 {
                    hit.feature_a = feature(br.support_a);
                    hit.feature_b = feature(br.support_b);
                }
                if hit.time == start {
                    let slack = ka.slack + kb.slack + 8.0 * f64::EPSILON * br.upper.abs();
                    hit.gap = hit.gap.min(br.upper - a.skin() - b.skin() + slack);
                }
            }
            hit.iterations = *work;
            hit
        }));
    }
    let skins = a.skin() + b.skin();
    let one_sided = a.kind() == CoreKind::Triangle || b.kind() == CoreKind::Triangle;
    let mut t = start;
    loop {
        spend(work, request.budget)?;
        let ka = sa.pose(t, &origin);
        let kb = sb.pose(t, &origin);
        let br = bracket(sa.posed, sb.posed, axes);
        let slack = rounding_slack(&sa, &sb, (&ka, &kb), skins, request)?;
        let gap = br.upper - skins + slack;
        let lower = br.lower - skins - slack;
        let level = request.target + skins + slack;
        // Below touching, a one-sided triangle is certified as its prism
        // this deep behind it (module docs, "Held targets").
        let behind = (one_sided && level < 0.0).then_some(request.tolerance - level);
        let mut jump = None;
        let h = if gap - request.target <= request.tolerance {
            None
        } else if one_sided && level < 0.0 && br.upper > 0.0 {
            // Apart, with a target below the cores' touching, against a
            // one-sided triangle (module docs, "Entering a triangle"): the
            // nearest points' axis certifies only up to touching; the
            // largest separation over a surface's axes certifies down to
            // the target. Either interval is certified: the longer counts.
            let touching = if br.upper > request.tolerance {
                let apart = slack + 0.5 * request.tolerance;
                certified_time(
                    &mut sa,
                    &mut sb,
                    (&ka, &kb),
                    br.lower,
                    &br.axis,
                    apart,
                    None,
                    end - t,
                )
            } else {
                0.0
            };
            let (s, axis, _, _) = largest_separation(sa.posed, sb.posed, axes);
            let deep = certified_time(
                &mut sa,
                &mut sb,
                (&ka, &kb),
                s,
                &axis,
                level,
                behind,
                end - t,
            );
            if !(touching > 0.0 || deep > 0.0) {
                // Touching, and deep at once: the hit's gap is the depth it
                // jumps to (a lower bound), at most the target.
                jump = Some(s - skins - slack);
            }
            Some(touching.max(deep))
        } else {
            Some(certified_time(
                &mut sa,
                &mut sb,
                (&ka, &kb),
                br.lower,
                &br.axis,
                level,
                behind,
                end - t,
            ))
        };
        let next = h.map(|h| (h, add_down(t, h)));
        match next {
            Some((h, _)) if !(h < end - t) => return Ok(None),
            Some((h, next)) if h > 0.0 && next > t && lower > request.target => t = next,
            _ => {
                let gap = jump.map_or(gap, |j: f64| j.min(gap));
                return Ok(Some(hit_at(t, &br, &origin, a, b, gap, *work)));
            }
        }
    }
}

/// The rounding slack (m) of an iteration at the sides' poses: their
/// position slacks and `8 ε` of the magnitudes; refused beyond
/// `MAX_SLACK_FRACTION` of the request's tolerance.
fn rounding_slack(
    sa: &Side<'_, '_>,
    sb: &Side<'_, '_>,
    (ka, kb): (&Kinematics, &Kinematics),
    skins: f64,
    request: &ToiRequest,
) -> Result<f64, Refusal> {
    let scale = sa
        .posed
        .points
        .iter()
        .chain(&sb.posed.points)
        .fold(0.0f64, |m, p| m.max(p.amax()));
    let slack = ka.slack + kb.slack + 8.0 * f64::EPSILON * (scale + skins + request.target.abs());
    if !(slack <= MAX_SLACK_FRACTION * request.tolerance) {
        return Err(Refusal::PrecisionDomain {
            quantity: "rounding slack (m)",
            value: slack,
            limit: MAX_SLACK_FRACTION * request.tolerance,
        });
    }
    Ok(slack)
}

/// The longest time (s) from the sides' poses during which their
/// separation along the unit `axis`, `separation` (m) now, certainly
/// stays above `level` (m): exact rates when neither side turns, the
/// point bounds of [`super::advance`] along the fixed axis when one does,
/// or along the axis turning with a turning side, if longer (within
/// `horizon`, s, the rest of the window). With `behind` (m), a one-sided
/// triangle is bounded as its prism that deep behind its face (module
/// docs, "Held targets").
#[allow(clippy::too_many_arguments)]
fn certified_time(
    sa: &mut Side<'_, '_>,
    sb: &mut Side<'_, '_>,
    (ka, kb): (&Kinematics, &Kinematics),
    separation: f64,
    axis: &Vec3d,
    level: f64,
    behind: Option<f64>,
    horizon: f64,
) -> f64 {
    let (a_turns, b_turns) = (sa.motion.turns(), sb.motion.turns());
    if !a_turns && !b_turns {
        return translating_time(separation, level, axis, ka, kb);
    }
    side_bounds(sa, ka, axis, true, behind);
    side_bounds(sb, kb, axis, false, behind);
    let fixed = admissible_time(sa.bounds, sb.bounds, level, a_turns, b_turns);
    if !(fixed < horizon) || one_sided(sa, sb) {
        return fixed;
    }
    // The same axis turning with a turning side (`attached_time`): every
    // bound holds, so the longest certified time counts. Not against a
    // one-sided triangle, whose measure is not the largest separation
    // over every direction.
    let (pa, pb) = (&sa.posed.points, &sb.posed.points);
    let mut t = fixed;
    for (turns, side) in [(a_turns, Attached::ToA), (b_turns, Attached::ToB)] {
        if turns {
            t = t.max(attached_time(pa, ka, pb, kb, axis, level, horizon, side));
        }
    }
    t
}

/// Whether either side is a one-sided triangle.
fn one_sided(sa: &Side<'_, '_>, sb: &Side<'_, '_>) -> bool {
    sa.core.kind() == CoreKind::Triangle || sb.core.kind() == CoreKind::Triangle
}

/// Fills a side's point bounds along `axis` (upper bounds for A, lower for
/// B): over its posed points, or, for a one-sided triangle with `behind`
/// (m), over its prism: those points and their copies `behind` behind its
/// face (module docs, "Held targets"). A triangle that does not turn moves
/// every point at one velocity, so each copy's bound is its corner's moved
/// by the copy's offset along `axis`, and the lower of the two is the
/// copy's when `axis` reaches behind the face (from A towards B, along B's
/// normal or against A's), the corner's otherwise: the corners' bounds are
/// moved by that offset, or kept.
fn side_bounds(
    side: &mut Side<'_, '_>,
    k: &Kinematics,
    axis: &Vec3d,
    upper: bool,
    behind: Option<f64>,
) {
    let Side {
        core,
        motion,
        posed,
        bounds,
        prism,
        ..
    } = side;
    let prism_face = match behind {
        Some(depth) if core.kind() == CoreKind::Triangle => {
            posed.faces.first().map(|f| (depth, *f))
        }
        _ => None,
    };
    let Some((depth, face)) = prism_face else {
        point_bounds(&posed.points, k, axis, upper, bounds);
        return;
    };
    if motion.turns() {
        prism.clear();
        prism.extend_from_slice(&posed.points);
        prism.extend(posed.points.iter().map(|p| p - face * depth));
        point_bounds(prism, k, axis, upper, bounds);
        return;
    }
    point_bounds(&posed.points, k, axis, upper, bounds);
    // How far behind the face the axis reaches, per metre of depth: A's
    // copies rise along it, B's sink.
    let back = if upper {
        -axis.dot(&face)
    } else {
        axis.dot(&face)
    };
    if back > 0.0 {
        let offset = depth * back;
        shift_bounds(bounds, if upper { offset } else { -offset });
    }
}

/// Counts one iteration against the budget.
fn spend(work: &mut u32, budget: u32) -> Result<(), Refusal> {
    if *work >= budget {
        return Err(Refusal::WorkBudget {
            iterations: *work,
            limit: budget,
        });
    }
    *work += 1;
    Ok(())
}

/// The feature of a bracket's support (a convex core's: no triangle).
fn feature(s: ([u32; 3], u8)) -> Feature {
    Feature {
        triangle: None,
        points: s.0,
        count: s.1,
    }
}

/// The hit at `t` from the bracket (working frame, A towards B).
fn hit_at(
    t: f64,
    br: &super::separation::Bracket,
    origin: &Vec3d,
    a: &Core,
    b: &Core,
    gap: f64,
    iterations: u32,
) -> Hit {
    let point_a = origin + br.on_a + br.axis * a.skin();
    let point_b = origin + br.on_b - br.axis * b.skin();
    Hit {
        time: t,
        point: (point_a + point_b) * 0.5,
        point_a,
        point_b,
        normal: -br.axis,
        gap,
        feature_a: feature(br.support_a),
        feature_b: feature(br.support_b),
        iterations,
    }
}
