//! Sweep of two translating segments grown by radii (spheres and
//! rotation-locked capsules) against each other: `sweep_segment_pair`.
//!
//! # Method
//! Seed 000 "Moving sphere pairs": the pair's sweep uses their relative motion
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
//! shapes cross into contact (not tangency) and the approach test of seed 000
//! ([`super::APPROACH_EPS_FACTOR`]) resolves `normal . d < 0`. The contact
//! normal is the unit vector between the two closest axis points, from B to
//! A. Equal times keep end-end, then end of A, then end of B, then interiors,
//! and lower end indices first.
//!
//! # Source and precision domain
//! Seed 000 "Moving sphere pairs", "Precision and refusal limits"; Ericson
//! 5.1.9 for closest points of segments. `f64` intermediates, re-centred on
//! B's first end. Each member's radius, coordinates (start and end of the
//! step, in its own radii) and reach (its travel plus half length plus
//! radius) are checked as for a single sphere or capsule.

use parapet_math::{promote, Vec3, Vec3d};

use super::capsule_triangle::closest_params;
use super::domain::{self, Checked, SweepRefusal};
use super::sphere_triangle::unit_or;
use super::{approaches, entry_root, Impact, SweepOutcome};

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
/// use parapet_narrow::sweep::segment_pair::{sweep_checked_pair, CheckedSegment};
/// use parapet_narrow::sweep::{sweep_segment_pair, MovingSegment};
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
    // Relative frame: B fixed with its first end at the origin.
    let origin = b0;
    let (a0, a1) = (a0 - origin, a1 - origin);
    let (b0, b1) = (Vec3d::zeros(), b1 - origin);
    let d = (promote(a.velocity) - promote(b.velocity)) * dtd;
    let rr = ra + rb;
    let ea = a1 - a0;
    let eb = b1 - b0;
    let (aa, bb) = (ea.norm_squared(), eb.norm_squared());
    let a_ends: &[Vec3d] = if aa > 0.0 { &[a0, a1] } else { &[a0] };
    let b_ends: &[Vec3d] = if bb > 0.0 { &[b0, b1] } else { &[b0] };
    // Fallback normal for coincident axes: the members' relative offset, or +z.
    // (Found only when a contact needs it: a pure function of the members.)
    let fallback = || unit_or((a0 + 0.5 * ea) - (b0 + 0.5 * eb), Vec3d::z());
    // Points are found in B's frame; B itself moves by db over the step.
    let db = promote(b.velocity) * dtd;
    let to_world = |i: Impact<PairFeature>| Impact {
        point: i.point + origin + i.time * db,
        ..i
    };

    // Initial contact: closest points of the two segments.
    let (s, u) = closest_params(a0, ea, b0, eb);
    let (pa, pb) = (a0 + s * ea, b0 + u * eb);
    if (pa - pb).norm_squared() <= rr * rr {
        let end = |x: f64, len2: f64| {
            if len2 <= 0.0 || x <= 0.0 {
                Some(0u8)
            } else if x >= 1.0 {
                Some(1u8)
            } else {
                None
            }
        };
        let feature = match (end(s, aa), end(u, bb)) {
            (Some(i), Some(j)) => PairFeature::Ends { a: i, b: j },
            (Some(i), None) => PairFeature::EndOfA(i),
            (None, Some(j)) => PairFeature::EndOfB(j),
            (None, None) => PairFeature::Interiors,
        };
        let (point, normal) = contact(pa, pb, rb, fallback);
        return SweepOutcome::InitiallyTouching(to_world(Impact {
            time: 0.0,
            point,
            normal,
            feature,
        }));
    }

    let mut best = None;
    // End against end.
    for (i, &pa) in a_ends.iter().enumerate() {
        for (j, &pb) in b_ends.iter().enumerate() {
            let m = pa - pb;
            let Some(t) = entry_root(d.norm_squared(), m.dot(&d), m.norm_squared() - rr * rr)
            else {
                continue;
            };
            let nrm = m + t * d;
            if t <= 1.0 && approaches(nrm, d) {
                let (point, normal) = contact(pa + t * d, pb, rb, fallback);
                let feature = PairFeature::Ends {
                    a: i as u8,
                    b: j as u8,
                };
                offer(
                    &mut best,
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
    // Ends of A against B's cylinder.
    if bb > 0.0 {
        for (i, &pa) in a_ends.iter().enumerate() {
            let m = pa - b0;
            let (mxe, dxe) = (m.cross(&eb), d.cross(&eb));
            let Some(t) = entry_root(
                dxe.norm_squared(),
                mxe.dot(&dxe),
                mxe.norm_squared() - rr * rr * bb,
            ) else {
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
                let (point, normal) = contact(p, q, rb, fallback);
                offer(
                    &mut best,
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
    // Ends of B against A's cylinder.
    if aa > 0.0 {
        for (j, &pb) in b_ends.iter().enumerate() {
            let m = a0 - pb;
            let (mxe, dxe) = (m.cross(&ea), d.cross(&ea));
            let Some(t) = entry_root(
                dxe.norm_squared(),
                mxe.dot(&dxe),
                mxe.norm_squared() - rr * rr * aa,
            ) else {
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
                let (point, normal) = contact(p, pb, rb, fallback);
                offer(
                    &mut best,
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
    // The two interiors, across the plane both axes span.
    if aa > 0.0 && bb > 0.0 {
        let w = ea.cross(&eb);
        let ww = w.norm_squared();
        if ww > aa * bb * f64::EPSILON {
            let wl = ww.sqrt();
            let h0 = (a0 - b0).dot(&w);
            let side = if h0 > rr * wl {
                1.0
            } else if h0 < -rr * wl {
                -1.0
            } else {
                0.0
            };
            let nrm = side * w;
            if side != 0.0 && approaches(nrm, d) {
                let t = (side * h0 - rr * wl) / -nrm.dot(&d);
                if t <= 1.0 {
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
                            &mut best,
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
        }
    }
    match best {
        Some(i) => SweepOutcome::Hit(to_world(i)),
        None => SweepOutcome::Miss,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sweep::test_fixtures::hit;
    use proptest::prelude::*;

    /// A member near the origin: a sphere (`len == 0`) or a capsule, with a
    /// radius that may fall outside the precision domain (`radius` down to
    /// 1e-5 m against the 1e-4 m limit) and coordinates up to 20 m.
    fn member() -> impl Strategy<Value = MovingSegment> {
        (
            prop::array::uniform3(-20.0f32..20.0),
            prop::array::uniform3(-2.0f32..2.0),
            prop_oneof![Just(0.0f32), 0.0f32..1.0],
            prop_oneof![1.0e-5f32..1.0e-3, 0.01f32..2.0],
            prop::array::uniform3(-60.0f32..60.0),
        )
            .prop_map(|(c, axis, len, radius, v)| {
                let c = Vec3::from(c);
                let h = Vec3::from(axis) * len;
                MovingSegment::capsule(c - h, c + h, radius, Vec3::from(v))
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4096))]

        /// The checked path is the pure function bit for bit: the same
        /// outcome (Debug prints every f64 exactly, signed zeros included)
        /// whenever both members pass their checks, and a member refused by
        /// `CheckedSegment::new` exactly when the pure sweep refuses it.
        #[test]
        fn checked_members_sweep_bit_for_bit_like_the_pure_sweep(
            a in member(),
            b in member(),
            dt in prop_oneof![Just(0.0f32), 1.0e-3f32..0.2],
        ) {
            let pure = sweep_segment_pair(&a, &b, dt);
            let pure_swapped = sweep_segment_pair(&b, &a, dt);
            match (CheckedSegment::new(&a, dt), CheckedSegment::new(&b, dt)) {
                (Ok(ca), Ok(cb)) => {
                    prop_assert_eq!(
                        format!("{:?}", sweep_checked_pair(&ca, &cb)),
                        format!("{pure:?}")
                    );
                    prop_assert_eq!(
                        format!("{:?}", sweep_checked_pair(&cb, &ca)),
                        format!("{pure_swapped:?}")
                    );
                }
                (Err(_), _) => prop_assert!(matches!(pure, SweepOutcome::Refused(_))),
                (Ok(_), Err(_)) => {
                    prop_assert!(matches!(pure, SweepOutcome::Refused(_)));
                    prop_assert!(matches!(pure_swapped, SweepOutcome::Refused(_)));
                }
            }
        }
    }

    /// A coordinate magnitude around the two limits that `moving_coordinate`
    /// applies (the absolute `MAX_COORDINATE` and `MAX_COORDINATE_RADII`
    /// radii), a step either side, or not finite.
    fn coordinate(r: f64) -> impl Strategy<Value = f64> {
        let radii = domain::MAX_COORDINATE_RADII * r;
        prop_oneof![
            -10.0f64..10.0,
            Just(radii),
            Just(-radii),
            Just(radii.next_up()),
            Just(radii.next_down()),
            Just(domain::MAX_COORDINATE),
            Just(domain::MAX_COORDINATE.next_up()),
            0.9 * radii..1.1 * radii,
            Just(f64::NAN),
            Just(f64::INFINITY),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4096))]

        /// The one-shot coordinate check accepts exactly the points that
        /// pass `moving_coordinate` one by one.
        #[test]
        fn the_one_shot_coordinate_check_is_the_check_of_every_coordinate(
            (r, xs) in prop_oneof![Just(1.0e-4f64), 0.01f64..2.0, Just(1.0e4f64)]
                .prop_flat_map(|r| (Just(r), prop::collection::vec(coordinate(r), 12))),
            plain in prop::collection::vec(0usize..12, 0..12),
        ) {
            // Most coordinates plain, so that one far one decides.
            let mut xs = xs;
            for k in plain {
                xs[k] = 0.5;
            }
            let points: [Vec3d; 4] =
                std::array::from_fn(|i| Vec3d::new(xs[3 * i], xs[3 * i + 1], xs[3 * i + 2]));
            let each = points
                .iter()
                .all(|p| domain::moving_coordinate("p", *p, r).is_ok());
            prop_assert_eq!(coordinates_accepted(points, r), each);
        }
    }

    /// A member anywhere in or just outside the precision domain: radii
    /// around both radius limits, coordinates around both coordinate limits,
    /// velocities up to a reach beyond its limit, and non-finite inputs.
    fn edge_member() -> impl Strategy<Value = MovingSegment> {
        let radius = prop_oneof![
            Just(domain::MIN_RADIUS as f32),
            Just((domain::MIN_RADIUS as f32).next_down()),
            Just(domain::MAX_RADIUS as f32),
            Just((domain::MAX_RADIUS as f32).next_up()),
            1.0e-4f32..10.0,
            Just(f32::NAN),
            Just(f32::INFINITY),
        ];
        radius
            .prop_flat_map(|r| {
                // The coordinate and speed scales of a finite radius.
                let r_scale = if r.is_finite() {
                    r.clamp(1.0e-4, 1.0e4)
                } else {
                    1.0
                };
                let far = (domain::MAX_COORDINATE_RADII * r_scale as f64) as f32;
                let coord = prop_oneof![
                    -10.0f32..10.0,
                    Just(far),
                    Just(-far.next_up()),
                    0.99 * far..1.01 * far,
                    Just(f32::NAN),
                ];
                let speed = prop_oneof![
                    -100.0f32..100.0,
                    Just(f32::INFINITY),
                    (-1.0f32..1.0).prop_map(move |x| x * 2.0e6 * r_scale),
                ];
                (
                    Just(r),
                    prop::array::uniform3(coord.clone()),
                    prop::array::uniform3(coord),
                    prop::array::uniform3(speed),
                    prop::bool::ANY,
                    prop::array::uniform3(0usize..3),
                )
            })
            .prop_map(|(r, p0, p1, v, sphere, plain)| {
                // Mostly plain coordinates, so that one edge value decides.
                let (mut p0, mut p1) = (Vec3::from(p0), Vec3::from(p1));
                for k in plain {
                    p0[k] = 0.5;
                    p1[k] = -0.5;
                }
                let p1 = if sphere { p0 } else { p1 };
                MovingSegment::capsule(p0, p1, r, Vec3::from(v))
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4096))]

        /// The joined member check accepts exactly the members that pass the
        /// checks one by one, with the same ends and radius.
        #[test]
        fn the_joined_member_check_is_the_checks_one_by_one(
            m in edge_member(),
            dt in prop_oneof![Just(0.0f64), 1.0e-3f64..0.2, Just(1.0)],
        ) {
            let each = checked_member_each(&m, dt, &NAMES_ANY);
            prop_assert_eq!(accepted_member(&m, dt).ok_or(()), each.map_err(|_| ()));
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4096))]

        /// A sphere's check (ends equal in value, which takes the short
        /// path of `accepted_member`) is the checks one by one, with the
        /// same ends and radius, also when its ends differ only in the
        /// signs of zero coordinates.
        #[test]
        fn a_sphere_member_check_is_the_checks_one_by_one(
            m in edge_member(),
            zeros in prop::array::uniform3(0u8..4),
            dt in prop_oneof![Just(0.0f64), 1.0e-3f64..0.2, Just(1.0)],
        ) {
            // Zero coordinates of either sign at either end (0: as drawn).
            let mut p0 = m.p0;
            let mut p1 = m.p0;
            for (k, z) in zeros.iter().enumerate() {
                match z {
                    1 => (p0[k], p1[k]) = (0.0, -0.0),
                    2 => (p0[k], p1[k]) = (-0.0, 0.0),
                    3 => (p0[k], p1[k]) = (-0.0, -0.0),
                    _ => {}
                }
            }
            let m = MovingSegment { p0, p1, ..m };
            let each = checked_member_each(&m, dt, &NAMES_ANY);
            let joined = accepted_member(&m, dt);
            prop_assert_eq!(
                format!("{:?}", joined.ok_or(())),
                format!("{:?}", each.map_err(|_| ()))
            );
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4096))]

        /// A member at rest checked for one step and moved to another is
        /// the member checked for the other step, field for field; a
        /// moving member is not moved.
        #[test]
        fn a_member_at_rest_moved_to_another_step_is_checked_for_it(
            m in member(),
            at_rest in prop::bool::ANY,
            negative_zero in prop::bool::ANY,
            dt in prop_oneof![Just(0.0f32), 1.0e-3f32..0.2],
            other in prop_oneof![Just(0.0f32), 1.0e-3f32..0.2, Just(-1.0), Just(f32::NAN)],
        ) {
            let zero = if negative_zero { -0.0 } else { 0.0 };
            let m = if at_rest { MovingSegment { velocity: Vec3::new(zero, 0.0, zero), ..m } } else { m };
            let Ok(c) = CheckedSegment::new(&m, dt) else { return Ok(()) };
            let moved = c.at_rest_for(other);
            if m.velocity == Vec3::zeros() {
                prop_assert_eq!(moved, CheckedSegment::new(&m, other).ok());
            } else {
                prop_assert_eq!(moved, None);
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4096))]

        /// A checked member grown to a larger radius is the grown member
        /// checked anew (or refused exactly when that is); a smaller radius
        /// is refused.
        #[test]
        fn a_grown_member_is_the_grown_member_checked(
            m in prop_oneof![member(), edge_member()],
            dt in prop_oneof![Just(0.0f32), 1.0e-3f32..0.2],
            growth in prop_oneof![Just(0.0f32), 0.0f32..1.0e-3, 0.0f32..2.0, Just(2.0e4)],
        ) {
            let Ok(c) = CheckedSegment::new(&m, dt) else { return Ok(()) };
            let radius = m.radius + growth * m.radius;
            let grown = MovingSegment { radius, ..m };
            prop_assert_eq!(c.grown(radius), CheckedSegment::new(&grown, dt).ok());
            if m.radius > 0.0 {
                prop_assert_eq!(c.grown(m.radius.next_down()), None);
            }
        }
    }

    #[test]
    fn members_checked_for_different_steps_are_checked_again_by_the_pure_sweep() {
        let a = MovingSegment::sphere(Vec3::new(-5.0, 0.0, 0.0), 1.0, Vec3::new(8.0, 0.0, 0.0));
        let b = MovingSegment::sphere(Vec3::new(5.0, 0.0, 0.0), 1.0, Vec3::new(-8.0, 0.0, 0.0));
        let ca = CheckedSegment::new(&a, 1.0).unwrap();
        let cb = CheckedSegment::new(&b, 0.25).unwrap();
        // Over A's step of 1 s the gap of 8 m closes at t = 0.5.
        assert_eq!(
            sweep_checked_pair(&ca, &cb),
            sweep_segment_pair(&a, &b, 1.0)
        );
        assert!((hit(sweep_checked_pair(&ca, &cb)).time - 0.5).abs() < 1e-15);
    }

    #[test]
    fn a_refused_member_names_no_role_and_the_pure_sweep_names_it() {
        let bad = MovingSegment::sphere(Vec3::zeros(), 1.0e-5, Vec3::zeros());
        let good = MovingSegment::sphere(Vec3::new(3.0, 0.0, 0.0), 1.0, Vec3::zeros());
        let e = CheckedSegment::new(&bad, 0.1).unwrap_err();
        assert!(e.to_string().contains("pair member radius"), "{e}");
        let SweepOutcome::Refused(e) = sweep_segment_pair(&good, &bad, 0.1) else {
            panic!("a radius of 1e-5 m is below the 1e-4 m limit")
        };
        assert!(e.to_string().contains("member B radius"), "{e}");
    }

    #[test]
    fn head_on_spheres_meet_at_the_summed_radius() {
        let a = MovingSegment::sphere(Vec3::new(0.0, 0.0, 0.0), 0.5, Vec3::new(10.0, 0.0, 0.0));
        let b = MovingSegment::sphere(Vec3::new(4.0, 0.0, 0.0), 1.5, Vec3::new(-2.0, 0.0, 0.0));
        let i = hit(sweep_segment_pair(&a, &b, 0.5));
        // Gap 4 - 2 = 2 m at 12 m/s closing over 6 m of relative travel: t = 1/3.
        assert!((i.time - 1.0 / 3.0).abs() < 1e-15);
        assert_eq!(i.normal, Vec3d::new(-1.0, 0.0, 0.0));
        // B's centre has moved to 4 - 1 / 3 m; the point is on its surface
        // towards A, at the time of contact.
        assert!(
            (i.point - Vec3d::new(4.0 - 1.0 / 3.0 - 1.5, 0.0, 0.0)).norm() < 1e-12,
            "{:?}",
            i.point
        );
    }

    #[test]
    fn a_sphere_reaches_a_capsule_side_on_its_cylinder() {
        let a = MovingSegment::sphere(Vec3::new(0.0, 3.0, 0.0), 0.5, Vec3::new(0.0, -4.0, 0.0));
        let b = MovingSegment::capsule(
            Vec3::new(-2.0, 0.0, 0.0),
            Vec3::new(2.0, 0.0, 0.0),
            0.5,
            Vec3::zeros(),
        );
        let i = hit(sweep_segment_pair(&a, &b, 1.0));
        assert!((i.time - 0.5).abs() < 1e-15);
        assert_eq!(i.feature, PairFeature::EndOfA(0));
        assert_eq!(i.normal, Vec3d::new(0.0, 1.0, 0.0));
        // Swapped roles: the capsule's cylinder reaches the sphere.
        let i = hit(sweep_segment_pair(&b, &a, 1.0));
        assert!((i.time - 0.5).abs() < 1e-15);
        assert_eq!(i.feature, PairFeature::EndOfB(0));
        assert_eq!(i.normal, Vec3d::new(0.0, -1.0, 0.0));
    }

    #[test]
    fn crossed_capsules_meet_across_the_plane_of_their_axes() {
        // A along x at z = 3 falling; B along y at z = 0: the interiors meet
        // when the gap 3 - 1 = 2 m closes at 4 m per step: t = 0.5.
        let a = MovingSegment::capsule(
            Vec3::new(-2.0, 0.0, 3.0),
            Vec3::new(2.0, 0.0, 3.0),
            0.5,
            Vec3::new(0.0, 0.0, -4.0),
        );
        let b = MovingSegment::capsule(
            Vec3::new(0.0, -2.0, 0.0),
            Vec3::new(0.0, 2.0, 0.0),
            0.5,
            Vec3::zeros(),
        );
        let i = hit(sweep_segment_pair(&a, &b, 1.0));
        assert!((i.time - 0.5).abs() < 1e-15, "{i:?}");
        assert_eq!(i.feature, PairFeature::Interiors);
        assert_eq!(i.normal, Vec3d::new(0.0, 0.0, 1.0));
        assert!((i.point - Vec3d::new(0.0, 0.0, 0.5)).norm() < 1e-15);
    }

    #[test]
    fn spheres_passing_at_exactly_the_summed_radius_do_not_collide() {
        let a = MovingSegment::sphere(Vec3::new(-5.0, 1.0, 0.0), 0.25, Vec3::new(10.0, 0.0, 0.0));
        let b = MovingSegment::sphere(Vec3::zeros(), 0.75, Vec3::zeros());
        assert_eq!(sweep_segment_pair(&a, &b, 1.0), SweepOutcome::Miss);
    }

    #[test]
    fn overlapping_members_are_initially_touching() {
        let a = MovingSegment::sphere(Vec3::new(0.5, 0.0, 0.0), 0.5, Vec3::zeros());
        let b = MovingSegment::sphere(Vec3::zeros(), 0.5, Vec3::zeros());
        let o = sweep_segment_pair(&a, &b, 1.0);
        let SweepOutcome::InitiallyTouching(i) = o else {
            panic!("{o:?}")
        };
        assert_eq!(i.normal, Vec3d::new(1.0, 0.0, 0.0));
    }
}
