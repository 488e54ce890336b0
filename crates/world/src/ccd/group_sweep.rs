//! The sweep and impact loop of a group of moving bodies (see
//! docs/continuous-collision.md, "Moving groups", "Supported worlds" for
//! kinematic spheres, and "Ordering, limits and rollback").
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
//! * Triangle impacts use [`parapet_solver::impact::respond_body_triangle`] after the
//!   pre-response lookup of the solo sweep.
//! * Pair impacts use [`parapet_solver::impact::respond_pair`] with the
//!   normal between the two closest points.
//! * **Pair cull**: a pass checks each member's precision domain once
//!   ([`parapet_narrow::sweep::CheckedSegment`]), sweeps only the pairs whose widened swept bounds
//!   meet ([`swept_bounds`], [`meeting_pairs`]; conservative, see
//!   [`swept_bounds`]) and reuses the outcomes of members whose input did
//!   not change since the previous pass; the events and their order are
//!   those of sweeping every pair ([`CULL_MIN_MEMBERS`]).
//! * **Pair schedule**: every live pair waits, ordered by the end of the
//!   window over which its certificates show it apart, until a pass's
//!   earliest event comes at or after that end ([`schedule`]): a pass
//!   sweeps only the pairs due by its event, then chooses again.
//! * **Event memo**: each member's best event (its triangles, then its
//!   pairs with higher members) is kept until its input or one of those
//!   pairs changes, and a pass offers the members' best events in member
//!   order, which keeps the flat order's choice. A pass without travel
//!   looks only at the members the previous impulse moved (and at members
//!   holding a `-0.0` coordinate, which `p + v 0` can turn to `+0.0`).
//! * **Triangle cull**: a candidate triangle that passed its own checks in
//!   a sphere member's sweep (any member's: they do not depend on the
//!   sphere) and whose bounds miss a sphere member's widened path bounds
//!   is a miss for that member and is not swept (`TriangleCull`,
//!   conservative as the pair cull is).
//! * **Touching memo**: a settled instant keeps the touching outcomes of
//!   the spheres unchanged at rest since the previous one (they do not
//!   depend on the remaining time, see `at_rest_key`).
//! * **Buffers**: the states, candidate lists, memo and settling buffers
//!   live in one per-thread scratch reused by every group the thread sweeps.
//! * **Cascades**: a second impact at the same instant settles the cascade
//!   ([`super::cascade`]): every contact that touches at that instant
//!   (within [`TOUCH_F32_FACTOR`] of `f32` roundoff), pairs and member
//!   triangles, is solved as one plastic frictionless problem. A bouncing
//!   impact (closing faster than the mixed bounce threshold with nonzero
//!   restitution) stays sequential until the instant holds twice as many
//!   impacts as the group has members; the rest then settles plastically.
//!   The contacts split into connected components (contacts that share a
//!   dynamic member; triangles and kinematic spheres pass no impulse on),
//!   each settled as its own problem. A component of more than ten
//!   contacts, or one that no impulse opens (a dynamic sphere driven into a
//!   static mesh by a kinematic sphere), raises [`CcdError::Unresolvable`]
//!   naming that component's first member and its contact count; so does a
//!   component whose settled impulses would add kinetic energy.
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
//! The sweeps' (see docs/continuous-collision.md, "Precision limits");
//! coordinates within 65536 radii at start and end.

mod certify;
mod cull;
mod memo;
mod schedule;
mod scratch;
mod settle;
mod state;
mod tournament;

use parapet_geometry::bvh::Ball;
use parapet_geometry::Material;
use parapet_math::{demote, promote, Vec3, Vec3d};
use parapet_narrow::sweep::{capsule_half_axis, SweepOutcome};
use parapet_solver::integrate::quaternion_update::quaternion_update;

use super::error::CcdError;
use super::motion::{check_coordinates, MeshView, SweptMotion};
use memo::{earliest, earliest_exhaustive};
use parapet_solver::impact::{respond_body_triangle, respond_pair, ImpactMass};
use scratch::{blank_state, find_negative_zero, Scratch, SCRATCH};
use settle::settle_instant;
pub(crate) use state::SweepWork;
use state::{charge, every_edge, not_representable, Event, State, Statics};

pub(crate) use state::{GroupImpact, GroupInput, GroupMember, GroupOutcome, MemberShape, Struck};

/// Sweeps a group (see the module docs). `mesh` is `None` when the world
/// holds no static triangles.
///
/// # Errors
/// [`CcdError::SweepRefused`], [`CcdError::PairSweepRefused`],
/// [`CcdError::ImpactLimit`], [`CcdError::Unresolvable`],
/// [`CcdError::Precision`] or [`CcdError::NotRepresentable`].
pub(crate) fn sweep_group(
    input: &GroupInput<'_>,
    mesh: Option<&MeshView<'_>>,
) -> Result<GroupOutcome, CcdError> {
    let cull = input.members.len() >= CULL_MIN_MEMBERS;
    sweep_group_with(input, mesh, cull)
}

/// The smallest group whose passes cull pairs and reuse unchanged outcomes
/// (members). A smaller group sweeps its few pairs every pass: the
/// bookkeeping would cost more than it saves. Either way the outcome is
/// the same, bit for bit.
pub(crate) const CULL_MIN_MEMBERS: usize = 4;

/// [`sweep_group`], with the pair cull on or off (`cull == false` sweeps
/// every pair every pass and at every settled instant: the reference the
/// tests compare the cull with).
fn sweep_group_with(
    input: &GroupInput<'_>,
    mesh: Option<&MeshView<'_>>,
    cull: bool,
) -> Result<GroupOutcome, CcdError> {
    SCRATCH.with(|cell| match cell.try_borrow_mut() {
        Ok(mut scratch) => sweep_group_in(input, mesh, cull, &mut scratch),
        // Not reached (a group's sweep starts no other on its thread), but
        // a sweep never depends on the buffers it starts with.
        Err(_) => sweep_group_in(input, mesh, cull, &mut Scratch::default()),
    })
}

/// [`sweep_group_with`] in the buffers of `scratch`.
fn sweep_group_in(
    input: &GroupInput<'_>,
    mesh: Option<&MeshView<'_>>,
    cull: bool,
    scratch: &mut Scratch,
) -> Result<GroupOutcome, CcdError> {
    let dt = input.dt;
    let members = input.members.len();
    while scratch.states.len() < members {
        scratch.states.push(blank_state());
    }
    let Scratch {
        states,
        query,
        memo,
        moved,
        negative_zero,
        settle,
    } = scratch;
    let states = &mut states[..members];
    for (m, st) in input.members.iter().zip(states.iter_mut()) {
        start_member(m, mesh, st, query)?;
    }
    let mut counts = crate::ccd::report::SweepCounts {
        candidates: states.iter().map(|s| s.candidates.len() as u64).sum(),
        ..Default::default()
    };
    let statics = Statics {
        triangles: mesh.map_or(&[], |m| m.triangles),
        edges: mesh.map_or(&every_edge, |m| m.edges),
    };
    let dynamic_members = states.iter().filter(|s| !s.kinematic).count() as u64;
    let pass_limit = dynamic_members * input.max_impacts as u64 + 1;
    let first_dynamic = states.iter().find(|s| !s.kinematic).map_or(0, |s| s.index);

    let mut tau = dt;
    let mut elapsed = 0.0f64;
    let mut passes = 0u64;
    let mut at_instant = 0usize;
    let mut impacts: Vec<GroupImpact> = Vec::with_capacity(2 * members);
    // Every member is new to the memo (which only the culled passes use).
    moved.clear();
    settle.forget(members);
    let horizon = certify::horizon(dt);
    memo.work = SweepWork::default();
    if cull {
        memo.reset(states);
        find_negative_zero(states, negative_zero);
        moved.extend(0..members);
    }

    loop {
        if !(tau > 0.0) {
            break;
        }
        counts.passes += 1;
        let found = if cull {
            earliest(states, statics, tau, (elapsed, horizon), memo, moved)?
        } else {
            earliest_exhaustive(states, statics, tau, &mut memo.work)?
        };
        moved.clear();
        let Some(ev) = found else {
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
        move_members(states, cull, travel, elapsed, moved, negative_zero)?;
        tau = ((tau as f64 - travel).max(0.0)) as f32;
        let time = (elapsed / dt as f64).clamp(0.0, 1.0);

        let bouncing = is_bouncing(states, &ev);
        if at_instant >= 1 && (!bouncing || at_instant >= 2 * members) {
            let validated: &[bool] = if cull { &memo.validated } else { &[] };
            let settled = settle_instant(
                states,
                statics,
                tau,
                time,
                input.max_impacts,
                cull,
                validated,
                moved,
                settle,
            )?;
            if !settled.is_empty() {
                counts.settled += 1;
                at_instant += settled.len();
                impacts.extend(settled);
                continue;
            }
            // Nothing touching took an impulse (the event's contact lies
            // outside the touching tolerance): it is applied on its own.
        }
        if let Some(impact) = sequential(states, statics, tau, &ev, time, moved)? {
            charge(states, ev.member, ev.other, input.max_impacts)?;
            impacts.push(impact);
        }
        at_instant += 1;
    }

    let motions = end_motions(states, &input.members, tau, dt)?;
    let work = SweepWork {
        passes,
        ..memo.work
    };
    Ok(GroupOutcome {
        motions,
        impacts,
        work,
        counts,
    })
}

/// Fills member `m`'s state `st` for the start of the step: its shape, its
/// triangle candidates (the bounds tree queried with its group reach, into
/// `query`, ascending; owners that collide, materials mixed), its swept
/// velocity (plus its split velocity) and its response body.
///
/// # Errors
/// [`CcdError::Precision`] for a start position beyond the coordinate
/// limits, [`CcdError::NotRepresentable`] for a reach radius or a swept
/// velocity out of range.
fn start_member(
    m: &GroupMember<'_>,
    mesh: Option<&MeshView<'_>>,
    st: &mut State,
    query: &mut Vec<u32>,
) -> Result<(), CcdError> {
    let body = m.body;
    let (body_rotation, shape_rotation) = (body.rotation(), body.shape_offset().1);
    let (kinematic, radius, capsule, half_height) = match m.shape {
        MemberShape::Sphere { radius } => (false, radius, false, 0.0),
        MemberShape::Capsule {
            radius,
            half_height,
        } => (false, radius, true, half_height),
        MemberShape::Kinematic { radius } => (true, radius, false, 0.0),
    };
    let half_axis = if capsule {
        promote(capsule_half_axis(
            body_rotation,
            shape_rotation,
            half_height,
        ))
    } else {
        Vec3d::zeros()
    };
    let limit = radius as f64;
    check_coordinates(m.index, &promote(body.position()), limit)?;
    st.candidates.clear();
    if let (false, Some(mesh)) = (kinematic, mesh) {
        let ball =
            Ball::new(m.reach.center, m.reach.radius).map_err(|_| CcdError::NotRepresentable {
                body: m.index,
                quantity: "reach radius",
                value: m.reach.radius,
            })?;
        mesh.tree.query(&ball, query);
        query.sort_unstable();
        st.candidates.extend(query.iter().filter_map(|&t| {
            let t = t as usize;
            (mesh.material)(t).map(|mat| (t, body.material().mix(&mat)))
        }));
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
        ImpactMass {
            inverse_mass: 0.0,
            inverse_inertia: parapet_math::Mat3d::zeros(),
        }
    } else {
        ImpactMass {
            inverse_mass: body.inverse_mass() as f64,
            inverse_inertia: body.world_inverse_inertia_f64(),
        }
    };
    st.index = m.index;
    st.kinematic = kinematic;
    st.radius = radius;
    st.start = body.position();
    st.p = body.position();
    st.v = body.linear_velocity();
    st.w = if kinematic {
        Vec3::zeros()
    } else {
        body.angular_velocity()
    };
    st.sweep_v = sweep_v;
    st.half_axis = half_axis;
    st.capsule = capsule;
    st.half_height = half_height;
    st.body_rotation = body_rotation;
    st.shape_rotation = shape_rotation;
    st.response = response;
    st.material = body.material();
    st.impacts = 0;
    st.touched = false;
    st.segments.clear();
    Ok(())
}

/// Moves every member to the event `travel` (s) later, `elapsed` (s) after
/// the step's start, listing in `moved` the members whose position may have
/// changed; `negative_zero` lists the members holding a `-0.0` coordinate
/// (the culled passes keep it up to date).
///
/// # Errors
/// [`CcdError::NotRepresentable`] for a position out of `f32` range.
fn move_members(
    states: &mut [State],
    cull: bool,
    travel: f64,
    elapsed: f64,
    moved: &mut Vec<usize>,
    negative_zero: &mut Vec<usize>,
) -> Result<(), CcdError> {
    // The reference (`cull == false`) moves every member every pass.
    if travel != 0.0 || !cull {
        for (k, st) in states.iter_mut().enumerate() {
            if st.kinematic {
                let x = promote(st.start) + promote(st.v) * elapsed;
                st.p = demote(x).map_err(|_| not_representable(st.index, "position", &x))?;
            } else {
                let x = promote(st.p) + promote(st.sweep_v) * travel;
                st.p = demote(x).map_err(|_| not_representable(st.index, "position", &x))?;
                // A segment without travel turns nothing (the rotation
                // update below skips it): not stored.
                if travel > 0.0 {
                    st.segments.push((st.w, travel));
                }
            }
            moved.push(k);
        }
    } else {
        // No travel: the move of every member gives its position again
        // (`p + v 0 == p` for finite velocities, and a kinematic
        // sphere's `start + v elapsed` with `elapsed` unchanged is the
        // position it already holds, or its start when it never moved),
        // except that a coordinate `-0.0` can take the sign `+0.0` of
        // `-0.0 + v 0` (a `+0.0` stays): the members holding one
        // (`negative_zero`, kept since their last move) are moved as
        // the formulas say, the others keep their bits.
        for &k in negative_zero.iter() {
            let st = &mut states[k];
            let x = if st.kinematic {
                promote(st.start) + promote(st.v) * elapsed
            } else {
                promote(st.p) + promote(st.sweep_v) * travel
            };
            let p = demote(x).map_err(|_| not_representable(st.index, "position", &x))?;
            if p.map(f32::to_bits) != st.p.map(f32::to_bits) {
                st.p = p;
                moved.push(k);
            }
        }
    }
    if travel != 0.0 && cull {
        find_negative_zero(states, negative_zero);
    }
    Ok(())
}

/// The end states of the dynamic members that took an impulse (`tau`, s,
/// left after the last event; `dt`, s, the step): each moves on with its
/// last velocity and turns over its segments (after the split correction's
/// turn); the others are left to the integrator, their end positions
/// checked against the coordinate limits.
///
/// # Errors
/// [`CcdError::Precision`] for an end position beyond the coordinate
/// limits, [`CcdError::NotRepresentable`] for a position or a rotation out
/// of range.
fn end_motions(
    states: &mut [State],
    members: &[GroupMember<'_>],
    tau: f32,
    dt: f32,
) -> Result<Vec<(usize, SweptMotion)>, CcdError> {
    let mut motions = Vec::with_capacity(members.len());
    for (st, m) in states.iter_mut().zip(members) {
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
        let body = m.body;
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
    Ok(motions)
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
fn is_bouncing(states: &[State], ev: &Event) -> bool {
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
    statics: Statics<'_>,
    tau: f32,
    ev: &Event,
    time: f64,
    moved: &mut Vec<usize>,
) -> Result<Option<GroupImpact>, CcdError> {
    let material = event_material(states, ev);
    match ev.other {
        None => {
            let a = &states[ev.member];
            let mut contact = ev.impact;
            if !ev.initial {
                let probe = statics.sweep(a, a.sweep_v, tau, ev.triangle, a.radius);
                if let SweepOutcome::InitiallyTouching(i) = probe {
                    contact = i;
                }
            }
            let mut r = respond_body_triangle(
                &a.response,
                a.v,
                a.w,
                a.arm(&contact.point, &contact.normal),
                contact.normal,
                &material,
            )
            .map_err(|e| CcdError::from_impact(a.index, e))?;
            if r.is_none() && contact != ev.impact {
                contact = ev.impact;
                r = respond_body_triangle(
                    &a.response,
                    a.v,
                    a.w,
                    a.arm(&contact.point, &contact.normal),
                    contact.normal,
                    &material,
                )
                .map_err(|e| CcdError::from_impact(a.index, e))?;
            }
            let Some(r) = r else { return Ok(None) };
            let a = &mut states[ev.member];
            a.v = r.linear_velocity;
            a.w = r.angular_velocity;
            a.sweep_v = a.v;
            moved.push(ev.member);
            Ok(Some(GroupImpact {
                body: a.index,
                other: Struck::Triangle(ev.triangle),
                time,
                point: contact.point,
                normal: contact.normal,
                impulse: r.impulse,
            }))
        }
        Some(j) => {
            let n = ev.impact.normal;
            let point = ev.impact.point;
            let sa = states[ev.member].side(&point, &n);
            let sb = states[j].side(&point, &-n);
            let Some(r) = respond_pair(&sa, &sb, n, &material)
                .map_err(|e| CcdError::from_impact(states[ev.member].index, e))?
            else {
                return Ok(None);
            };
            for (pos, (v, w)) in [(ev.member, r.a), (j, r.b)] {
                let st = &mut states[pos];
                if !st.kinematic {
                    st.v = v;
                    st.w = w;
                    st.sweep_v = v;
                    moved.push(pos);
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
            Ok(Some(report))
        }
    }
}

#[cfg(test)]
mod tests;
