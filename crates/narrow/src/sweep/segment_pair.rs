//! Sweep of two translating segments grown by radii (spheres and
//! rotation-locked capsules) against each other: `sweep_segment_pair`.
//!
//! # Method
//! The pair's sweep (docs/continuous-collision.md, "Moving groups") uses their relative motion
//! and their summed radius `R = r_A + r_B`. Body B is held still and A moves
//! by `d = (v_A - v_B) dt`. Each member is a segment (a capsule's axis, or a
//! sphere's centre as a zero-length segment). The first contact is the
//! earliest of:
//! - **end against end**: each end of A against each end of B, a sphere of
//!   radius `R` (the end caps of both cylinders);
//! - **end of A against B's cylinder**: the earlier root of
//!   `|(a_k + t d - b_0) x e_B|^2 = R^2 |e_B|^2`, when the closest axis point
//!   lies within B's segment;
//! - **end of B against A's cylinder**: the same with A's axis moving past
//!   the fixed end of B;
//! - **the two interiors** across the plane that both axes span: the signed
//!   distance between the two lines, `h(t) = (a_0 + t d - b_0) . (e_A x e_B)`
//!   divided by `|e_A x e_B|`, is linear in time; the contact counts when the
//!   closest points of both lines lie within both segments.
//!
//! It is exact for shapes that only translate. A root counts only when the
//! shapes cross into contact (not tangency) and the approach test
//! ([`super::APPROACH_EPS_FACTOR`]) resolves `normal . d < 0`. The contact
//! normal is the unit vector between the two closest axis points, from B to
//! A. Equal times keep end-end, then end of A, then end of B, then interiors,
//! and lower end indices first.
//!
//! # Source and precision domain
//! Ericson, *Real-Time Collision Detection* 5.1.9 for closest points of
//! segments; the limits are those of docs/continuous-collision.md,
//! "Precision limits". `f64` intermediates, re-centred on
//! B's first end. Each member's radius, coordinates (start and end of the
//! step, in its own radii) and reach (its travel plus half length plus
//! radius) are checked as for a single sphere or capsule.

use parapet_math::{promote, Vec3, Vec3d};

use super::capsule_triangle::closest_params;
use super::domain::{self, Checked, SweepRefusal};
use super::sphere_triangle::unit_or;
use super::{approaches, cylinder_entry, sphere_entry, Impact, SweepOutcome};

/// One member of a pair: a segment grown by a radius, translating at a
/// constant velocity. A sphere is a zero-length segment.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MovingSegment {
    /// First end of the axis (world, metres).
    pub p0: Vec3,
    /// Second end of the axis (world, metres); equal to `p0` for a sphere.
    pub p1: Vec3,
    /// Radius (metres).
    pub radius: f32,
    /// Velocity (world, m/s).
    pub velocity: Vec3,
}

impl MovingSegment {
    /// A sphere of `radius` centred at `center`, moving at `velocity`.
    pub fn sphere(center: Vec3, radius: f32, velocity: Vec3) -> Self {
        MovingSegment {
            p0: center,
            p1: center,
            radius,
            velocity,
        }
    }

    /// A rotation-locked capsule: the axis `p0 p1` grown by `radius`.
    pub fn capsule(p0: Vec3, p1: Vec3, radius: f32, velocity: Vec3) -> Self {
        MovingSegment {
            p0,
            p1,
            radius,
            velocity,
        }
    }
}

/// The features of a pair contact (ends are numbered as given: `p0` is end
/// 0, `p1` end 1; a sphere's centre is end 0).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PairFeature {
    /// End `a` of A against end `b` of B.
    Ends {
        /// End of A.
        a: u8,
        /// End of B.
        b: u8,
    },
    /// End `k` of A against the interior of B's segment.
    EndOfA(u8),
    /// End `k` of B against the interior of A's segment.
    EndOfB(u8),
    /// The interiors of both segments.
    Interiors,
}

fn rank(f: &PairFeature) -> (u8, u8, u8) {
    match *f {
        PairFeature::Ends { a, b } => (0, a, b),
        PairFeature::EndOfA(k) => (1, k, 0),
        PairFeature::EndOfB(k) => (2, k, 0),
        PairFeature::Interiors => (3, 0, 0),
    }
}

fn offer(best: &mut Option<Impact<PairFeature>>, c: Impact<PairFeature>) {
    let better = match best {
        None => true,
        Some(b) => c.time < b.time || (c.time == b.time && rank(&c.feature) < rank(&b.feature)),
    };
    if better {
        *best = Some(c);
    }
}

/// The refusal names of one role: its ends, radius and velocity.
struct Names {
    end0: &'static str,
    end1: &'static str,
    radius: &'static str,
    velocity: &'static str,
}

const NAMES_A: Names = Names {
    end0: "member A end 0",
    end1: "member A end 1",
    radius: "member A radius",
    velocity: "member A velocity",
};

const NAMES_B: Names = Names {
    end0: "member B end 0",
    end1: "member B end 1",
    radius: "member B radius",
    velocity: "member B velocity",
};

const NAMES_ANY: Names = Names {
    end0: "pair member end 0",
    end1: "pair member end 1",
    radius: "pair member radius",
    velocity: "pair member velocity",
};

/// The member's precision domain over a step of `dt` seconds (module docs),
/// refusals named by `names`; its `f64` ends and radius.
fn checked_member(m: &MovingSegment, dt: f64, names: &Names) -> Checked<(Vec3d, Vec3d, f64)> {
    match accepted_member(m, dt) {
        Some(x) => Ok(x),
        None => checked_member_each(m, dt, names),
    }
}

/// [`checked_member`]'s verdict without naming a failure: the member's
/// ends and radius when every check passes, `None` otherwise (the caller
/// then runs the checks one by one, [`checked_member_each`], which name
/// the first failure). The same checks on the same values, joined: every
/// input finite, the radius within its limits, every coordinate of the
/// ends at the start and at the end of the travel within the coordinate
/// limits ([`coordinates_accepted`]) and the reach, computed as the
/// one-by-one check computes it, within its limit.
#[inline]
fn accepted_member(m: &MovingSegment, dt: f64) -> Option<(Vec3d, Vec3d, f64)> {
    // Components written out: nalgebra's iterators cost more than the test.
    let finite3 = |v: &Vec3| v.x.is_finite() & v.y.is_finite() & v.z.is_finite();
    let finite = finite3(&m.p0) & finite3(&m.p1) & finite3(&m.velocity) & m.radius.is_finite();
    let r = m.radius as f64;
    if !(finite && (domain::MIN_RADIUS..=domain::MAX_RADIUS).contains(&r)) {
        return None;
    }
    let (p0, p1) = (promote(m.p0), promote(m.p1));
    let travel = promote(m.velocity) * dt;
    if p0 == p1 {
        // A sphere (ends equal in value): the coordinates of the second end
        // are those of the first (their magnitudes, all the test reads),
        // and its half length `0.5 |p1 - p0|` is `+0.0` (the difference of
        // equal finite values is a zero, whose norm is `+0.0`), which adds
        // nothing to `|travel| >= 0`: the same verdict and values, exactly.
        if !coordinates_accepted([p0, p0 + travel], r) {
            return None;
        }
        let reach = (travel.norm() + r) / r;
        return (reach <= domain::MAX_REACH_RADII).then_some((p0, p1, r));
    }
    if !coordinates_accepted([p0, p1, p0 + travel, p1 + travel], r) {
        return None;
    }
    let reach = (travel.norm() + 0.5 * (p1 - p0).norm() + r) / r;
    (reach <= domain::MAX_REACH_RADII).then_some((p0, p1, r))
}

/// The member's checks one by one, in their order (module docs): the first
/// failure, named by `names`.
fn checked_member_each(m: &MovingSegment, dt: f64, names: &Names) -> Checked<(Vec3d, Vec3d, f64)> {
    domain::finite_vec(names.end0, m.p0)?;
    domain::finite_vec(names.end1, m.p1)?;
    domain::finite_scalar(names.radius, m.radius)?;
    domain::finite_vec(names.velocity, m.velocity)?;
    let r = m.radius as f64;
    domain::radius(names.radius, r)?;
    let (p0, p1) = (promote(m.p0), promote(m.p1));
    let travel = promote(m.velocity) * dt;
    for p in [p0, p1] {
        domain::moving_coordinate(names.end0, p, r)?;
        domain::moving_coordinate(names.end0, p + travel, r)?;
    }
    domain::reach(travel.norm() + 0.5 * (p1 - p0).norm() + r, r)?;
    Ok((p0, p1, r))
}

/// Whether every coordinate of `points` passes `domain::moving_coordinate`
/// with radius `r`: the same verdict as checking them one by one, from the
/// largest magnitude only. For finite coordinates the maximum is exact and
/// `x / r` is monotone in `x` for `r > 0` (correctly rounded division), so
/// the largest coordinate passes both limits exactly when every one does; a
/// coordinate that is not finite (which the one-by-one checks refuse) gives
/// `false`. A `false` sends the caller to the one-by-one checks, which name
/// the failure.
#[inline]
fn coordinates_accepted<const N: usize>(points: [Vec3d; N], r: f64) -> bool {
    let mut largest = 0.0f64;
    let mut finite = true;
    for p in points {
        // Components written out: nalgebra's iterators cost more than the test.
        for x in [p.x, p.y, p.z] {
            finite &= x.is_finite();
            largest = largest.max(x.abs());
        }
    }
    finite && largest <= domain::MAX_COORDINATE && largest / r <= domain::MAX_COORDINATE_RADII
}

/// A pair member whose precision domain has been checked once for one step
/// length, so that a caller sweeping it against many others
/// ([`sweep_checked_pair`]) does not check it again for every pair. Built
/// by [`CheckedSegment::new`]; the sweep of two checked members is bit for
/// bit that of [`sweep_segment_pair`] on the same members and step.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CheckedSegment {
    segment: MovingSegment,
    dt: f32,
    p0: Vec3d,
    p1: Vec3d,
    radius: f64,
}

impl CheckedSegment {
    /// Checks `segment` for a step of `dt` seconds: the step length and the
    /// member's checks of [`sweep_segment_pair`] (module docs).
    ///
    /// # Errors
    /// The first failed check as a [`SweepRefusal`]; its quantity names a
    /// "pair member" (not A or B: the role is not known yet).
    /// [`sweep_segment_pair`] on the same inputs refuses with the same
    /// check, naming the role.
    pub fn new(segment: &MovingSegment, dt: f32) -> Result<Self, SweepRefusal> {
        domain::step(dt)?;
        let (p0, p1, radius) = checked_member(segment, dt as f64, &NAMES_ANY)?;
        Ok(CheckedSegment {
            segment: *segment,
            dt,
            p0,
            p1,
            radius,
        })
    }

    /// The same member checked for a step of `dt` seconds, when it does not
    /// move (zero velocity): its travel is zero for any finite step, so
    /// every check but the step length's gives the same verdict and values,
    /// and the result equals [`CheckedSegment::new`] on the same segment and
    /// `dt`. `None` when the member moves or `dt` is refused.
    pub fn at_rest_for(&self, dt: f32) -> Option<Self> {
        let v = self.segment.velocity;
        let at_rest = v.x == 0.0 && v.y == 0.0 && v.z == 0.0;
        (at_rest && domain::step(dt).is_ok()).then_some(CheckedSegment { dt, ..*self })
    }

    /// The same member with its radius grown to `radius` (metres, not
    /// below its own), checked for the same step: equal to
    /// [`CheckedSegment::new`] on the grown segment. Only the radius limits
    /// and the reach are checked again: a coordinate within the limit in
    /// the member's radii is within it in any larger radius (`|x| / r` only
    /// falls as `r` grows, also rounded). `None` when the grown member
    /// fails a check or `radius` is below the member's.
    pub fn grown(&self, radius: f32) -> Option<Self> {
        if !(radius >= self.segment.radius) {
            return None;
        }
        let r = radius as f64;
        domain::radius("pair member radius", r).ok()?;
        let travel = promote(self.segment.velocity) * self.dt as f64;
        let reach = (travel.norm() + 0.5 * (self.p1 - self.p0).norm() + r) / r;
        (reach <= domain::MAX_REACH_RADII).then_some(CheckedSegment {
            segment: MovingSegment {
                radius,
                ..self.segment
            },
            radius: r,
            ..*self
        })
    }

    /// The member as given.
    pub fn segment(&self) -> &MovingSegment {
        &self.segment
    }

    /// The step length (s) it was checked for.
    pub fn dt(&self) -> f32 {
        self.dt
    }
}

/// A point and normal of a contact between axis points `pa` (on A) and `pb`
/// (on B): the normal from B to A, the point on B's surface.
fn contact(pa: Vec3d, pb: Vec3d, rb: f64, fallback: impl Fn() -> Vec3d) -> (Vec3d, Vec3d) {
    // `unit_or(pa - pb, fallback())`, the fallback found only when used.
    let v = pa - pb;
    let len = v.norm();
    let n = if len > 0.0 && len.is_finite() {
        v / len
    } else {
        fallback()
    };
    (pb + rb * n, n)
}

/// Sweeps two translating members (spheres or rotation-locked capsules) over
/// a step of `dt` seconds and returns their first approaching contact.
///
/// The time is a fraction of the step, the normal is the unit vector from
/// B's closest axis point towards A's (the direction of the impulse on A),
/// and the point lies on B's surface where A touches it, in world
/// coordinates at the time of contact. Members already
/// within their summed radius give [`SweepOutcome::InitiallyTouching`] with
/// the closest-point normal; inputs outside the precision domain give
/// [`SweepOutcome::Refused`].
///
/// ```
/// use parapet_math::Vec3;
/// use parapet_narrow::sweep::{sweep_segment_pair, MovingSegment, PairFeature};
/// // Two unit spheres 10 m apart closing at 16 m/s: gap 8 m, t = 0.5.
/// let a = MovingSegment::sphere(Vec3::new(-5.0, 0.0, 0.0), 1.0, Vec3::new(8.0, 0.0, 0.0));
/// let b = MovingSegment::sphere(Vec3::new(5.0, 0.0, 0.0), 1.0, Vec3::new(-8.0, 0.0, 0.0));
/// let hit = sweep_segment_pair(&a, &b, 1.0).impact().unwrap();
/// assert!((hit.time - 0.5).abs() < 1e-15);
/// assert_eq!(hit.feature, PairFeature::Ends { a: 0, b: 0 });
/// assert_eq!(hit.normal.x, -1.0);
/// ```
pub fn sweep_segment_pair(
    a: &MovingSegment,
    b: &MovingSegment,
    dt: f32,
) -> SweepOutcome<PairFeature> {
    if let Err(e) = domain::step(dt) {
        return SweepOutcome::Refused(e);
    }
    let dtd = dt as f64;
    let (a0, a1, ra) = match checked_member(a, dtd, &NAMES_A) {
        Ok(x) => x,
        Err(e) => return SweepOutcome::Refused(e),
    };
    let (b0, b1, rb) = match checked_member(b, dtd, &NAMES_B) {
        Ok(x) => x,
        Err(e) => return SweepOutcome::Refused(e),
    };
    sweep_members(a, (a0, a1, ra), b, (b0, b1, rb), dtd)
}

/// [`sweep_segment_pair`] on two members checked by [`CheckedSegment::new`],
/// over the step `a` was checked for: the same outcome, bit for bit, without
/// checking the members again. When `b` was checked for another step
/// length, the pair is swept by [`sweep_segment_pair`] (which checks both).
///
/// ```
/// use parapet_math::Vec3;
/// use parapet_narrow::sweep::{
///     sweep_checked_pair, sweep_segment_pair, CheckedSegment, MovingSegment,
/// };
/// let a = MovingSegment::sphere(Vec3::new(-5.0, 0.0, 0.0), 1.0, Vec3::new(8.0, 0.0, 0.0));
/// let b = MovingSegment::sphere(Vec3::new(5.0, 0.0, 0.0), 1.0, Vec3::new(-8.0, 0.0, 0.0));
/// let (ca, cb) = (CheckedSegment::new(&a, 1.0).unwrap(), CheckedSegment::new(&b, 1.0).unwrap());
/// assert_eq!(sweep_checked_pair(&ca, &cb), sweep_segment_pair(&a, &b, 1.0));
/// ```
pub fn sweep_checked_pair(a: &CheckedSegment, b: &CheckedSegment) -> SweepOutcome<PairFeature> {
    if a.dt.to_bits() != b.dt.to_bits() {
        return sweep_segment_pair(&a.segment, &b.segment, a.dt);
    }
    sweep_members(
        &a.segment,
        (a.p0, a.p1, a.radius),
        &b.segment,
        (b.p0, b.p1, b.radius),
        a.dt as f64,
    )
}

/// The sweep of two checked members (`f64` ends and radius) over `dtd`
/// seconds (module docs).
fn sweep_members(
    a: &MovingSegment,
    (a0, a1, ra): (Vec3d, Vec3d, f64),
    b: &MovingSegment,
    (b0, b1, rb): (Vec3d, Vec3d, f64),
    dtd: f64,
) -> SweepOutcome<PairFeature> {
    sweep_segments(
        (a0, a1, ra),
        (b0, b1, rb),
        (promote(a.velocity) - promote(b.velocity)) * dtd,
        promote(b.velocity) * dtd,
    )
}

/// The sweep of two members given in `f64` (ends and radius, their
/// precision domain checked by the caller), A moving by `d` relative to B
/// and B by `db` over the step (module docs): for members promoted from
/// `f32`, the outcome of [`sweep_segment_pair`] bit for bit.
pub(crate) fn sweep_segments(
    (a0, a1, ra): (Vec3d, Vec3d, f64),
    (b0, b1, rb): (Vec3d, Vec3d, f64),
    d: Vec3d,
    db: Vec3d,
) -> SweepOutcome<PairFeature> {
    // Relative frame: B fixed with its first end at the origin.
    let origin = b0;
    let pair = RelativePair::new(
        (a0 - origin, a1 - origin),
        (Vec3d::zeros(), b1 - origin),
        d,
        ra,
        rb,
    );
    // Points are found in B's frame; B itself moves by db over the step.
    let to_world = |i: Impact<PairFeature>| Impact {
        point: i.point + origin + i.time * db,
        ..i
    };
    if let Some(i) = pair.initial() {
        return SweepOutcome::InitiallyTouching(to_world(i));
    }
    let mut best = None;
    pair.ends_against_ends(&mut best);
    pair.ends_of_a_against_b(&mut best);
    pair.ends_of_b_against_a(&mut best);
    pair.interiors(&mut best);
    match best {
        Some(i) => SweepOutcome::Hit(to_world(i)),
        None => SweepOutcome::Miss,
    }
}

/// A pair in B's frame (B's first end at the origin, B held still): the
/// members' ends, axes and squared axis lengths, A's displacement `d`
/// relative to B, the summed radius `rr` and B's radius `rb`.
struct RelativePair {
    a0: Vec3d,
    a_ends: [Vec3d; 2],
    ea: Vec3d,
    aa: f64,
    b0: Vec3d,
    b_ends: [Vec3d; 2],
    eb: Vec3d,
    bb: f64,
    d: Vec3d,
    rr: f64,
    rb: f64,
}

impl RelativePair {
    fn new((a0, a1): (Vec3d, Vec3d), (b0, b1): (Vec3d, Vec3d), d: Vec3d, ra: f64, rb: f64) -> Self {
        let ea = a1 - a0;
        let eb = b1 - b0;
        RelativePair {
            a0,
            a_ends: [a0, a1],
            ea,
            aa: ea.norm_squared(),
            b0,
            b_ends: [b0, b1],
            eb,
            bb: eb.norm_squared(),
            d,
            rr: ra + rb,
            rb,
        }
    }

    /// A's ends (one for a sphere).
    fn a_ends(&self) -> &[Vec3d] {
        if self.aa > 0.0 {
            &self.a_ends
        } else {
            &self.a_ends[..1]
        }
    }

    /// B's ends (one for a sphere).
    fn b_ends(&self) -> &[Vec3d] {
        if self.bb > 0.0 {
            &self.b_ends
        } else {
            &self.b_ends[..1]
        }
    }

    /// A point and normal of a contact between axis points `pa` (on A) and
    /// `pb` (on B), see [`contact`]. The fallback normal for coincident
    /// axes is the members' relative offset, or +z (found only when a
    /// contact needs it: a pure function of the members).
    fn contact(&self, pa: Vec3d, pb: Vec3d) -> (Vec3d, Vec3d) {
        contact(pa, pb, self.rb, || {
            unit_or(
                (self.a0 + 0.5 * self.ea) - (self.b0 + 0.5 * self.eb),
                Vec3d::z(),
            )
        })
    }

    /// Initial contact: closest points of the two segments within the
    /// summed radius.
    fn initial(&self) -> Option<Impact<PairFeature>> {
        let (s, u) = closest_params(self.a0, self.ea, self.b0, self.eb);
        let (pa, pb) = (self.a0 + s * self.ea, self.b0 + u * self.eb);
        if !((pa - pb).norm_squared() <= self.rr * self.rr) {
            return None;
        }
        let end = |x: f64, len2: f64| {
            if len2 <= 0.0 || x <= 0.0 {
                Some(0u8)
            } else if x >= 1.0 {
                Some(1u8)
            } else {
                None
            }
        };
        let feature = match (end(s, self.aa), end(u, self.bb)) {
            (Some(i), Some(j)) => PairFeature::Ends { a: i, b: j },
            (Some(i), None) => PairFeature::EndOfA(i),
            (None, Some(j)) => PairFeature::EndOfB(j),
            (None, None) => PairFeature::Interiors,
        };
        let (point, normal) = self.contact(pa, pb);
        Some(Impact {
            time: 0.0,
            point,
            normal,
            feature,
        })
    }

    /// End against end: spheres of the summed radius.
    fn ends_against_ends(&self, best: &mut Option<Impact<PairFeature>>) {
        let (d, rr) = (self.d, self.rr);
        for (i, &pa) in self.a_ends().iter().enumerate() {
            for (j, &pb) in self.b_ends().iter().enumerate() {
                let m = pa - pb;
                let Some(t) = sphere_entry(m, d, rr) else {
                    continue;
                };
                let nrm = m + t * d;
                if t <= 1.0 && approaches(nrm, d) {
                    let (point, normal) = self.contact(pa + t * d, pb);
                    let feature = PairFeature::Ends {
                        a: i as u8,
                        b: j as u8,
                    };
                    offer(
                        best,
                        Impact {
                            time: t,
                            point,
                            normal,
                            feature,
                        },
                    );
                }
            }
        }
    }

    /// Ends of A against B's cylinder.
    fn ends_of_a_against_b(&self, best: &mut Option<Impact<PairFeature>>) {
        let (b0, eb, bb, d, rr) = (self.b0, self.eb, self.bb, self.d, self.rr);
        if !(bb > 0.0) {
            return;
        }
        for (i, &pa) in self.a_ends().iter().enumerate() {
            let Some(t) = cylinder_entry(pa - b0, eb, bb, d, rr) else {
                continue;
            };
            if t > 1.0 {
                continue;
            }
            let p = pa + t * d;
            let w = (p - b0).dot(&eb) / bb;
            if !(0.0..=1.0).contains(&w) {
                continue;
            }
            let q = b0 + w * eb;
            if approaches(p - q, d) {
                let (point, normal) = self.contact(p, q);
                offer(
                    best,
                    Impact {
                        time: t,
                        point,
                        normal,
                        feature: PairFeature::EndOfA(i as u8),
                    },
                );
            }
        }
    }

    /// Ends of B against A's cylinder.
    fn ends_of_b_against_a(&self, best: &mut Option<Impact<PairFeature>>) {
        let (a0, ea, aa, d, rr) = (self.a0, self.ea, self.aa, self.d, self.rr);
        if !(aa > 0.0) {
            return;
        }
        for (j, &pb) in self.b_ends().iter().enumerate() {
            let Some(t) = cylinder_entry(a0 - pb, ea, aa, d, rr) else {
                continue;
            };
            if t > 1.0 {
                continue;
            }
            let a_now = a0 + t * d;
            let w = (pb - a_now).dot(&ea) / aa;
            if !(0.0..=1.0).contains(&w) {
                continue;
            }
            let p = a_now + w * ea;
            if approaches(p - pb, d) {
                let (point, normal) = self.contact(p, pb);
                offer(
                    best,
                    Impact {
                        time: t,
                        point,
                        normal,
                        feature: PairFeature::EndOfB(j as u8),
                    },
                );
            }
        }
    }

    /// The two interiors, across the plane both axes span.
    fn interiors(&self, best: &mut Option<Impact<PairFeature>>) {
        let (a0, ea, aa, b0, eb, bb) = (self.a0, self.ea, self.aa, self.b0, self.eb, self.bb);
        let (d, rr, rb) = (self.d, self.rr, self.rb);
        if !(aa > 0.0 && bb > 0.0) {
            return;
        }
        let w = ea.cross(&eb);
        let ww = w.norm_squared();
        if !(ww > aa * bb * f64::EPSILON) {
            return;
        }
        let wl = ww.sqrt();
        let h0 = (a0 - b0).dot(&w);
        let side = if h0 > 0.0 {
            1.0
        } else if h0 < 0.0 {
            -1.0
        } else {
            0.0
        };
        let nrm = side * w;
        if !(side != 0.0 && approaches(nrm, d)) {
            return;
        }
        // Already within the summed radius of the other axis's plane (the
        // closest points checked below): touching to within the rounding
        // of `initial`, entering at once (see `entry_root`).
        let t = ((side * h0 - rr * wl) / -nrm.dot(&d)).max(0.0);
        if !(t <= 1.0) {
            return;
        }
        let a_now = a0 + t * d;
        let r = a_now - b0;
        let (ab, c, f) = (ea.dot(&eb), ea.dot(&r), eb.dot(&r));
        let denom = aa * bb - ab * ab;
        let s = (ab * f - c * bb) / denom;
        let u = (aa * f - ab * c) / denom;
        if (0.0..=1.0).contains(&s) && (0.0..=1.0).contains(&u) {
            let q = b0 + u * eb;
            let normal = nrm / wl;
            offer(
                best,
                Impact {
                    time: t,
                    point: q + rb * normal,
                    normal,
                    feature: PairFeature::Interiors,
                },
            );
        }
    }
}

#[cfg(test)]
#[path = "segment_pair_tests.rs"]
mod tests;
