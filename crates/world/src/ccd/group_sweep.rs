//! The sweep and impact loop of a group of moving bodies (seed 000 "Moving
//! sphere pairs", "Supported worlds" for kinematic spheres, "Ordering,
//! limits and rollback").
//!
//! # Method
//! The members (centred spheres, centred capsules that cannot turn and
//! kinematic spheres, in body insertion order) move together in time order.
//! Each pass sweeps every dynamic member against its triangle candidates
//! (the bounds tree queried once with the member's group reach) and every
//! pair of members with at least one dynamic one
//! ([`parapet_narrow::sweep::sweep_segment_pair`]) over the remaining time,
//! and takes the earliest event: a hit, or an initial contact that closes.
//! Equal times keep the lower member first, then a triangle before another
//! member (triangles in insertion order), then the lower other member. Every
//! member moves to that time (dynamic positions rounded to `f32`; a
//! kinematic sphere's position is recomputed from its start as its velocity
//! gives it), the one impulse is applied, and the remaining time is swept
//! again.
//!
//! * Triangle impacts use [`super::response::respond`] after the
//!   pre-response lookup of the solo sweep.
//! * Pair impacts use [`super::group_response::respond_pair`] with the
//!   normal between the two closest points.
//! * **Cascades**: a second impact at the same instant settles the cascade
//!   ([`super::cascade`]): every contact that touches at that instant
//!   (within [`TOUCH_F32_FACTOR`] of `f32` roundoff), pairs and member
//!   triangles, is solved as one plastic frictionless problem. A bouncing
//!   impact (closing faster than the mixed bounce threshold with nonzero
//!   restitution) stays sequential until the instant holds twice as many
//!   impacts as the group has members; the rest then settles plastically.
//!   More than ten contacts, or contacts that no impulse opens (a dynamic
//!   sphere driven into a static mesh by a kinematic sphere), raise
//!   [`CcdError::Unresolvable`]; so does a settled step that would add
//!   kinetic energy.
//! * **Accounting**: each impact counts against `max_impacts` for every
//!   dynamic body it moves; a settled contact with a positive impulse counts
//!   the same way. The group makes at most `G I + 1` passes for `G` dynamic
//!   members.
//!
//! Initial contacts that close by less than [`RESIDUE_F32_FACTOR`] `f32`
//! roundoff of the velocities are not impacts: after a settle or a pair
//! impact the `f32` velocities can leave such a residue, and treating it as
//! an impact would repeat zero-time impacts until the limit.
//!
//! Orientation and end state follow the solo sweep ([`super::solo`]):
//! members with an impulse end the step here; the others are left to the
//! integrator along the same straight path. Kinematic spheres are never
//! moved here.
//!
//! # Precision domain
//! The sweeps' (seed 000); coordinates within 65536 radii at start and end.

use parapet_geometry::bvh::Ball;
use parapet_geometry::Material;
use parapet_math::{demote, promote, Vec3, Vec3d};
use parapet_narrow::sweep::{
    sweep_capsule_triangle, sweep_segment_pair, sweep_sphere_triangle, Impact, MovingSegment,
    SweepOutcome,
};
use parapet_solver::integrate::quaternion_update::quaternion_update;
use parapet_solver::RigidBody;

use super::cascade::{settle, SettleBody, SettleContact, SettleFailure, MAX_SETTLED_CONTACTS};
use super::error::CcdError;
use super::group_response::{respond_pair, PairSide};
use super::reach::Reach;
use super::response::{respond, ResponseBody};
use super::solo::{capsule_half_axis, check_coordinates, MeshView, SweptMotion};

/// How many `f32` epsilons of the velocity scale (`Σ |n_k v_k|` of both
/// members, m/s) an initial contact must close by to be an impact
/// (dimensionless). Rounding a velocity to `f32` moves each component by at
/// most half an ulp, so the residue of a settled or plastic contact is
/// below one epsilon of that scale; four leaves room for the products.
pub const RESIDUE_F32_FACTOR: f64 = 4.0;

/// How many `f32` epsilons of the coordinate scale (largest centre
/// coordinate plus summed radius, m) two shapes may stand apart and still
/// touch at a settled instant (dimensionless). Each member's position is
/// rounded to `f32` at the instant (half an ulp per coordinate, at most
/// `√3/2` epsilon of the scale per member); eight covers both members and
/// the sweep's `f64` contact time.
pub const TOUCH_F32_FACTOR: f64 = 8.0;

/// The shape of a group member.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum MemberShape {
    /// A dynamic centred sphere.
    Sphere {
        /// Radius (m).
        radius: f32,
    },
    /// A dynamic centred capsule that cannot turn.
    Capsule {
        /// Radius (m).
        radius: f32,
        /// Half height (m).
        half_height: f32,
    },
    /// A kinematic sphere.
    Kinematic {
        /// Radius (m).
        radius: f32,
    },
}

/// One member of a group.
#[derive(Debug, Clone, Copy)]
pub struct GroupMember<'a> {
    /// The body's index (slot).
    pub index: usize,
    /// The body (start pose, post-solver velocity and split velocity).
    pub body: &'a RigidBody,
    /// Its shape.
    pub shape: MemberShape,
    /// Its reach in the group.
    pub reach: Reach,
}

/// What a member struck.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Struck {
    /// A static triangle (snapshot index).
    Triangle(usize),
    /// Another member (body index).
    Member(usize),
}

/// One impulse of the group's sweep.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GroupImpact {
    /// The member that took `impulse` (body index).
    pub body: usize,
    /// What it struck (which took the opposite impulse if it is a member).
    pub other: Struck,
    /// Fraction of the step in `[0, 1]`.
    pub time: f64,
    /// Contact point (world, m).
    pub point: Vec3d,
    /// Unit normal from `other` towards `body`.
    pub normal: Vec3d,
    /// Impulse on `body` (N s, world).
    pub impulse: Vec3d,
}

/// What a group's sweep produced.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct GroupOutcome {
    /// End states of the dynamic members that took an impulse (body index).
    pub motions: Vec<(usize, SweptMotion)>,
    /// Impulses in pass order.
    pub impacts: Vec<GroupImpact>,
}

struct State {
    index: usize,
    kinematic: bool,
    radius: f32,
    start: Vec3,
    p: Vec3,
    v: Vec3,
    w: Vec3,
    sweep_v: Vec3,
    half_axis: Vec3d,
    capsule: bool,
    candidates: Vec<(usize, Material)>,
    response: ResponseBody,
    material: Material,
    impacts: u32,
    touched: bool,
    segments: Vec<(Vec3, f64)>,
}

impl State {
    fn segment(&self, radius_extra: f64) -> MovingSegment {
        let r = if radius_extra > 0.0 {
            ((self.radius as f64) + radius_extra) as f32
        } else {
            self.radius
        };
        if self.capsule {
            let c = promote(self.p);
            let p0 = (c - self.half_axis).map(|x| x as f32);
            let p1 = (c + self.half_axis).map(|x| x as f32);
            MovingSegment::capsule(p0, p1, r.max(self.radius), self.sweep_v)
        } else {
            MovingSegment::sphere(self.p, r.max(self.radius), self.sweep_v)
        }
    }

    fn sweep_triangle(&self, v: Vec3, tau: f32, tri: &[Vec3; 3], r: f32) -> SweepOutcome<()> {
        let plain = |o: SweepOutcome<()>| o;
        if self.capsule {
            let s = self.segment(0.0);
            plain(map_outcome(sweep_capsule_triangle(s.p0, s.p1, r, v, tau, tri)))
        } else {
            plain(map_outcome(sweep_sphere_triangle(self.p, r, v, tau, tri)))
        }
    }

    /// Lever arm from the centre to a contact point with normal `n` (pointing
    /// away from the contact towards this member).
    fn arm(&self, point: &Vec3d, n: &Vec3d) -> Vec3d {
        if self.capsule {
            point - promote(self.p)
        } else {
            -n * self.radius as f64
        }
    }

    fn side(&self, point: &Vec3d, n: &Vec3d) -> PairSide {
        PairSide {
            body: self.response,
            velocity: self.v,
            spin: self.w,
            arm: self.arm(point, n),
        }
    }
}

fn map_outcome<F: Copy>(o: SweepOutcome<F>) -> SweepOutcome<()> {
    let f = |i: Impact<F>| Impact {
        time: i.time,
        point: i.point,
        normal: i.normal,
        feature: (),
    };
    match o {
        SweepOutcome::Hit(i) => SweepOutcome::Hit(f(i)),
        SweepOutcome::InitiallyTouching(i) => SweepOutcome::InitiallyTouching(f(i)),
        SweepOutcome::Miss => SweepOutcome::Miss,
        SweepOutcome::Refused(r) => SweepOutcome::Refused(r),
    }
}

/// Whether `n . (va - vb)` closes beyond the `f32` residue bound.
fn closes(n: &Vec3d, va: Vec3, vb: Vec3) -> bool {
    let (a, b) = (promote(va), promote(vb));
    let u = n.dot(&(a - b));
    let scale: f64 = (0..3).map(|k| (n[k] * a[k]).abs() + (n[k] * b[k]).abs()).sum();
    u < -RESIDUE_F32_FACTOR * f32::EPSILON as f64 * scale
}

#[derive(Debug, Clone, Copy)]
struct Event {
    member: usize,
    other: Option<usize>,
    triangle: usize,
    initial: bool,
    impact: Impact<()>,
}

fn not_representable(index: usize, quantity: &'static str, x: &Vec3d) -> CcdError {
    CcdError::NotRepresentable {
        body: index,
        quantity,
        value: x.amax(),
    }
}

/// The group's input.
pub struct GroupInput<'a> {
    /// Members in body insertion order.
    pub members: Vec<GroupMember<'a>>,
    /// Step length (s).
    pub dt: f32,
    /// `ccd_max_impacts`.
    pub max_impacts: u32,
}

/// Sweeps a group (see the module docs). `mesh` is `None` when the world
/// holds no static triangles.
///
/// # Errors
/// [`CcdError::SweepRefused`], [`CcdError::PairSweepRefused`],
/// [`CcdError::ImpactLimit`], [`CcdError::Unresolvable`],
/// [`CcdError::Precision`] or [`CcdError::NotRepresentable`].
pub fn sweep_group(
    input: &GroupInput<'_>,
    mesh: Option<&MeshView<'_>>,
) -> Result<GroupOutcome, CcdError> {
    let dt = input.dt;
    let mut states: Vec<State> = Vec::with_capacity(input.members.len());
    for m in &input.members {
        let body = m.body;
        let (kinematic, radius, capsule, half_axis) = match m.shape {
            MemberShape::Sphere { radius } => (false, radius, false, Vec3d::zeros()),
            MemberShape::Capsule {
                radius,
                half_height,
            } => (
                false,
                radius,
                true,
                promote(capsule_half_axis(body, half_height)),
            ),
            MemberShape::Kinematic { radius } => (true, radius, false, Vec3d::zeros()),
        };
        let limit = radius as f64;
        check_coordinates(m.index, &promote(body.position()), limit)?;
        let mut candidates = Vec::new();
        if let (false, Some(mesh)) = (kinematic, mesh) {
            let ball = Ball::new(m.reach.center, m.reach.radius).map_err(|_| {
                CcdError::NotRepresentable {
                    body: m.index,
                    quantity: "reach radius",
                    value: m.reach.radius,
                }
            })?;
            let mut tris = mesh.tree.query_vec(&ball);
            tris.sort_unstable();
            candidates = tris
                .into_iter()
                .filter_map(|t| {
                    let t = t as usize;
                    (mesh.material)(t).map(|mat| (t, body.material().mix(&mat)))
                })
                .collect();
        }
        let split = if kinematic {
            Vec3::zeros()
        } else {
            body.split_linear_velocity()
        };
        let sweep_v = if split == Vec3::zeros() {
            body.linear_velocity()
        } else {
            let s = promote(body.linear_velocity()) + promote(split);
            demote(s).map_err(|_| not_representable(m.index, "swept velocity", &s))?
        };
        let response = if kinematic {
            ResponseBody {
                inverse_mass: 0.0,
                inverse_inertia: parapet_math::Mat3d::zeros(),
            }
        } else {
            ResponseBody {
                inverse_mass: body.inverse_mass() as f64,
                inverse_inertia: body.world_inverse_inertia_f64(),
            }
        };
        states.push(State {
            index: m.index,
            kinematic,
            radius,
            start: body.position(),
            p: body.position(),
            v: body.linear_velocity(),
            w: if kinematic {
                Vec3::zeros()
            } else {
                body.angular_velocity()
            },
            sweep_v,
            half_axis,
            capsule,
            candidates,
            response,
            material: body.material(),
            impacts: 0,
            touched: false,
            segments: Vec::new(),
        });
    }
    let triangles: &[[Vec3; 3]] = mesh.map_or(&[], |m| m.triangles);
    let members = states.len();
    let dynamic_members = states.iter().filter(|s| !s.kinematic).count() as u64;
    let pass_limit = dynamic_members * input.max_impacts as u64 + 1;
    let first_dynamic = states.iter().find(|s| !s.kinematic).map_or(0, |s| s.index);

    let mut tau = dt;
    let mut elapsed = 0.0f64;
    let mut passes = 0u64;
    let mut at_instant = 0usize;
    let mut impacts: Vec<GroupImpact> = Vec::new();

    loop {
        if !(tau > 0.0) {
            break;
        }
        let Some(ev) = earliest(&states, triangles, tau)? else {
            break;
        };
        passes += 1;
        if passes > pass_limit {
            return Err(CcdError::ImpactLimit {
                body: first_dynamic,
                impacts: input.max_impacts + 1,
                limit: input.max_impacts,
            });
        }
        let s = ev.impact.time.clamp(0.0, 1.0);
        let travel = tau as f64 * s;
        if travel > 0.0 {
            at_instant = 0;
        }
        elapsed += travel;
        for st in states.iter_mut() {
            if st.kinematic {
                let x = promote(st.start) + promote(st.v) * elapsed;
                st.p = demote(x).map_err(|_| not_representable(st.index, "position", &x))?;
            } else {
                let x = promote(st.p) + promote(st.sweep_v) * travel;
                st.p = demote(x).map_err(|_| not_representable(st.index, "position", &x))?;
                st.segments.push((st.w, travel));
            }
        }
        tau = ((tau as f64 - travel).max(0.0)) as f32;
        let time = (elapsed / dt as f64).clamp(0.0, 1.0);

        let bouncing = is_bouncing(&states, triangles, &ev);
        if at_instant >= 1 && (!bouncing || at_instant >= 2 * members) {
            let settled = settle_instant(&mut states, triangles, tau, time, input.max_impacts)?;
            at_instant += settled.len().max(1);
            impacts.extend(settled);
            continue;
        }
        if let Some(impact) = sequential(&mut states, triangles, tau, &ev, time)? {
            charge(&mut states, ev.member, ev.other, input.max_impacts)?;
            impacts.extend(impact);
        }
        at_instant += 1;
    }

    let mut motions = Vec::new();
    for st in states.iter_mut() {
        if st.kinematic || !st.touched {
            if !st.kinematic {
                let end = promote(st.p) + promote(st.sweep_v) * tau as f64;
                check_coordinates(st.index, &end, st.radius as f64)?;
            }
            continue;
        }
        let x = promote(st.p) + promote(st.sweep_v) * tau as f64;
        let p = demote(x).map_err(|_| not_representable(st.index, "position", &x))?;
        st.segments.push((st.w, tau as f64));
        check_coordinates(st.index, &promote(p), st.radius as f64)?;
        let body = input.members.iter().find(|m| m.index == st.index).map(|m| m.body);
        let Some(body) = body else { continue };
        let mut q = body.rotation();
        let turn = |q: &parapet_math::Quat, w: &Vec3, h: f64| {
            quaternion_update(q, w, h).ok_or(CcdError::NotRepresentable {
                body: st.index,
                quantity: "rotation",
                value: f64::NAN,
            })
        };
        if body.split_angular_velocity() != Vec3::zeros() {
            q = turn(&q, &body.split_angular_velocity(), dt as f64)?;
        }
        for (ws, h) in &st.segments {
            if *ws != Vec3::zeros() && *h > 0.0 {
                q = turn(&q, ws, *h)?;
            }
        }
        motions.push((
            st.index,
            SweptMotion {
                position: p,
                rotation: q,
                linear_velocity: st.v,
                angular_velocity: st.w,
            },
        ));
    }
    Ok(GroupOutcome { motions, impacts })
}

/// Charges one impact to every dynamic member it moves.
fn charge(
    states: &mut [State],
    a: usize,
    b: Option<usize>,
    limit: u32,
) -> Result<(), CcdError> {
    for pos in std::iter::once(a).chain(b) {
        let st = &mut states[pos];
        if st.kinematic {
            continue;
        }
        st.impacts += 1;
        st.touched = true;
        if st.impacts > limit {
            return Err(CcdError::ImpactLimit {
                body: st.index,
                impacts: st.impacts,
                limit,
            });
        }
    }
    Ok(())
}

/// The earliest event of the pass (ordering in the module docs).
fn earliest(states: &[State], triangles: &[[Vec3; 3]], tau: f32) -> Result<Option<Event>, CcdError> {
    let mut best: Option<Event> = None;
    let offer = |e: Event, best: &mut Option<Event>| {
        let better = match best {
            None => true,
            Some(b) => {
                e.impact.time < b.impact.time
                    || (e.impact.time == b.impact.time && e.initial && !b.initial)
            }
        };
        if better {
            *best = Some(e);
        }
    };
    for (i, a) in states.iter().enumerate() {
        if !a.kinematic {
            for &(t, _) in &a.candidates {
                let found = match a.sweep_triangle(a.sweep_v, tau, &triangles[t], a.radius) {
                    SweepOutcome::Refused(refusal) => {
                        return Err(CcdError::SweepRefused {
                            body: a.index,
                            triangle: t,
                            refusal,
                        })
                    }
                    SweepOutcome::Miss => continue,
                    SweepOutcome::Hit(impact) => Event {
                        member: i,
                        other: None,
                        triangle: t,
                        initial: false,
                        impact,
                    },
                    SweepOutcome::InitiallyTouching(impact) => {
                        if !closes(&impact.normal, a.sweep_v, Vec3::zeros()) {
                            continue;
                        }
                        Event {
                            member: i,
                            other: None,
                            triangle: t,
                            initial: true,
                            impact: Impact {
                                time: 0.0,
                                ..impact
                            },
                        }
                    }
                };
                offer(found, &mut best);
            }
        }
        for (j, b) in states.iter().enumerate().skip(i + 1) {
            if a.kinematic && b.kinematic {
                continue;
            }
            let found = match sweep_segment_pair(&a.segment(0.0), &b.segment(0.0), tau) {
                SweepOutcome::Refused(refusal) => {
                    return Err(CcdError::PairSweepRefused {
                        body: a.index,
                        other: b.index,
                        refusal,
                    })
                }
                SweepOutcome::Miss => continue,
                SweepOutcome::Hit(impact) => Event {
                    member: i,
                    other: Some(j),
                    triangle: 0,
                    initial: false,
                    impact: map_impact(impact),
                },
                SweepOutcome::InitiallyTouching(impact) => {
                    if !closes(&impact.normal, a.sweep_v, b.sweep_v) {
                        continue;
                    }
                    Event {
                        member: i,
                        other: Some(j),
                        triangle: 0,
                        initial: true,
                        impact: Impact {
                            time: 0.0,
                            ..map_impact(impact)
                        },
                    }
                }
            };
            offer(found, &mut best);
        }
    }
    Ok(best)
}

fn map_impact<F>(i: Impact<F>) -> Impact<()> {
    Impact {
        time: i.time,
        point: i.point,
        normal: i.normal,
        feature: (),
    }
}

/// The mixed material of the event.
fn event_material(states: &[State], ev: &Event) -> Material {
    let a = &states[ev.member];
    match ev.other {
        None => a
            .candidates
            .iter()
            .find(|(t, _)| *t == ev.triangle)
            .map(|(_, m)| *m)
            .unwrap_or_default(),
        Some(j) => a.material.mix(&states[j].material),
    }
}

/// Whether the event's impact would bounce (restitution above zero and a
/// closing speed above the mixed bounce threshold).
fn is_bouncing(states: &[State], _triangles: &[[Vec3; 3]], ev: &Event) -> bool {
    let m = event_material(states, ev);
    if !(m.restitution > 0.0) {
        return false;
    }
    let a = &states[ev.member];
    let vb = ev.other.map_or(Vec3::zeros(), |j| states[j].v);
    let closing = -ev.impact.normal.dot(&(promote(a.v) - promote(vb)));
    closing > m.bounce_threshold as f64
}

/// Applies one impact in sequence; returns its report (`None`: it did not close).
fn sequential(
    states: &mut [State],
    triangles: &[[Vec3; 3]],
    tau: f32,
    ev: &Event,
    time: f64,
) -> Result<Option<Vec<GroupImpact>>, CcdError> {
    let material = event_material(states, ev);
    match ev.other {
        None => {
            let a = &states[ev.member];
            let mut contact = ev.impact;
            if !ev.initial {
                let probe = a.sweep_triangle(a.sweep_v, tau, &triangles[ev.triangle], a.radius);
                if let SweepOutcome::InitiallyTouching(i) = probe {
                    contact = i;
                }
            }
            let mut r = respond(
                a.index,
                &a.response,
                a.v,
                a.w,
                a.arm(&contact.point, &contact.normal),
                contact.normal,
                &material,
            )?;
            if r.is_none() && contact != ev.impact {
                contact = ev.impact;
                r = respond(
                    a.index,
                    &a.response,
                    a.v,
                    a.w,
                    a.arm(&contact.point, &contact.normal),
                    contact.normal,
                    &material,
                )?;
            }
            let Some(r) = r else { return Ok(None) };
            let a = &mut states[ev.member];
            a.v = r.linear_velocity;
            a.w = r.angular_velocity;
            a.sweep_v = a.v;
            Ok(Some(vec![GroupImpact {
                body: a.index,
                other: Struck::Triangle(ev.triangle),
                time,
                point: contact.point,
                normal: contact.normal,
                impulse: r.impulse,
            }]))
        }
        Some(j) => {
            let n = ev.impact.normal;
            let point = ev.impact.point;
            let sa = states[ev.member].side(&point, &n);
            let sb = states[j].side(&point, &-n);
            let Some(r) = respond_pair(states[ev.member].index, &sa, &sb, n, &material)? else {
                return Ok(None);
            };
            for (pos, (v, w)) in [(ev.member, r.a), (j, r.b)] {
                let st = &mut states[pos];
                if !st.kinematic {
                    st.v = v;
                    st.w = w;
                    st.sweep_v = v;
                }
            }
            let (a, b) = (&states[ev.member], &states[j]);
            let report = if a.kinematic {
                GroupImpact {
                    body: b.index,
                    other: Struck::Member(a.index),
                    time,
                    point,
                    normal: -n,
                    impulse: -r.impulse,
                }
            } else {
                GroupImpact {
                    body: a.index,
                    other: Struck::Member(b.index),
                    time,
                    point,
                    normal: n,
                    impulse: r.impulse,
                }
            };
            Ok(Some(vec![report]))
        }
    }
}

/// The touching tolerance (m) of two shapes around centres `a` and `b`
/// with summed radius `r` ([`TOUCH_F32_FACTOR`]).
fn touch_tolerance(a: Vec3, b: Vec3, r: f64) -> f64 {
    let scale = promote(a).amax().max(promote(b).amax()) + r;
    TOUCH_F32_FACTOR * f32::EPSILON as f64 * scale
}

/// Settles every contact touching at this instant (see the module docs).
fn settle_instant(
    states: &mut [State],
    triangles: &[[Vec3; 3]],
    tau: f32,
    time: f64,
    limit: u32,
) -> Result<Vec<GroupImpact>, CcdError> {
    // The contacts, in member order: triangles, then higher members.
    let mut contacts: Vec<(SettleContact, Vec3d, Option<usize>)> = Vec::new();
    let step = tau.max(f32::MIN_POSITIVE);
    for (i, a) in states.iter().enumerate() {
        if !a.kinematic {
            for &(t, _) in &a.candidates {
                let tol = touch_tolerance(a.p, a.p, a.radius as f64);
                let r = ((a.radius as f64) + tol) as f32;
                if let SweepOutcome::InitiallyTouching(c) =
                    a.sweep_triangle(Vec3::zeros(), step, &triangles[t], r.max(a.radius))
                {
                    contacts.push((
                        SettleContact {
                            a: i,
                            b: None,
                            normal: c.normal,
                        },
                        c.point,
                        Some(t),
                    ));
                }
            }
        }
        for (j, b) in states.iter().enumerate().skip(i + 1) {
            if a.kinematic && b.kinematic {
                continue;
            }
            let tol = touch_tolerance(a.p, b.p, (a.radius + b.radius) as f64);
            let mut sa = a.segment(tol);
            let mut sb = b.segment(0.0);
            sa.velocity = Vec3::zeros();
            sb.velocity = Vec3::zeros();
            match sweep_segment_pair(&sa, &sb, step) {
                SweepOutcome::InitiallyTouching(c) => contacts.push((
                    SettleContact {
                        a: i,
                        b: Some(j),
                        normal: c.normal,
                    },
                    c.point,
                    None,
                )),
                SweepOutcome::Refused(refusal) => {
                    return Err(CcdError::PairSweepRefused {
                        body: a.index,
                        other: b.index,
                        refusal,
                    })
                }
                _ => {}
            }
        }
    }
    let first = contacts
        .first()
        .map_or(states.first().map_or(0, |s| s.index), |c| states[c.0.a].index);
    let unresolvable = |reason: &'static str| CcdError::Unresolvable {
        body: first,
        contacts: contacts.len(),
        reason,
        limit: MAX_SETTLED_CONTACTS,
    };
    let bodies: Vec<SettleBody> = states
        .iter()
        .map(|s| SettleBody {
            inverse_mass: s.response.inverse_mass,
            velocity: promote(s.v),
        })
        .collect();
    let list: Vec<SettleContact> = contacts.iter().map(|c| c.0).collect();
    let lambda = settle(&bodies, &list).map_err(|f| match f {
        SettleFailure::TooMany => unresolvable("more simultaneous contacts than the settling solves"),
        SettleFailure::NoOpening => unresolvable("no set of non-negative impulses opens every contact"),
    })?;
    let mut v: Vec<Vec3d> = bodies.iter().map(|b| b.velocity).collect();
    for (c, l) in list.iter().zip(&lambda) {
        v[c.a] += c.normal * (l * bodies[c.a].inverse_mass);
        if let Some(b) = c.b {
            v[b] -= c.normal * (l * bodies[b].inverse_mass);
        }
    }
    // Energy check (frame of the static world; only without kinematic
    // contacts, whose frame differs).
    let kinematic_contact = list
        .iter()
        .any(|c| states[c.a].kinematic || c.b.is_some_and(|b| states[b].kinematic));
    if !kinematic_contact {
        let energy = |vs: &[Vec3d]| -> f64 {
            states
                .iter()
                .zip(vs)
                .filter(|(s, _)| !s.kinematic)
                .map(|(s, v)| 0.5 * v.norm_squared() / s.response.inverse_mass)
                .sum()
        };
        let (before, after) = (energy(&bodies.iter().map(|b| b.velocity).collect::<Vec<_>>()), energy(&v));
        if after > before * (1.0 + 1.0e-12) + 1.0e-300 {
            return Err(unresolvable("the settled impulses would add kinetic energy"));
        }
    }
    let mut report = Vec::new();
    for ((c, point, tri), l) in contacts.iter().zip(&lambda) {
        if !(*l > 0.0) {
            continue;
        }
        charge(states, c.a, c.b, limit)?;
        let a_kin = states[c.a].kinematic;
        let (body, other, normal, impulse) = match (c.b, a_kin) {
            (Some(b), true) => (b, Struck::Member(states[c.a].index), -c.normal, -c.normal * *l),
            (Some(b), false) => (c.a, Struck::Member(states[b].index), c.normal, c.normal * *l),
            (None, _) => (c.a, Struck::Triangle(tri.unwrap_or(0)), c.normal, c.normal * *l),
        };
        report.push(GroupImpact {
            body: states[body].index,
            other,
            time,
            point: *point,
            normal,
            impulse,
        });
    }
    for (st, nv) in states.iter_mut().zip(&v) {
        if st.kinematic || *nv == promote(st.v) {
            continue;
        }
        let v32 = demote(*nv).map_err(|_| not_representable(st.index, "linear velocity", nv))?;
        st.v = v32;
        st.sweep_v = v32;
        st.touched = true;
    }
    Ok(report)
}
