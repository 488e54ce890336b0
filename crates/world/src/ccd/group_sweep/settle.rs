//! The group sweep's settled instants ([`super`]): when a second impact
//! happens at one instant, every contact touching at that instant (member
//! pairs and member triangles) is found and the contacts are settled
//! together.
//!
//! # Method
//! Two shapes touch when they stand within [`super::state::TOUCH_F32_FACTOR`]
//! `f32` epsilons of their coordinate scale. The touching contacts split
//! into connected components (contacts that share a dynamic member;
//! triangles and kinematic spheres pass no impulse on), and each component
//! is settled as one plastic frictionless problem
//! ([`parapet_solver::impact::settle`]), then checked not to add kinetic
//! energy in the frame where its non-dynamic bodies rest. The touching memo
//! keeps the outcomes of spheres unchanged at rest since the previous
//! settled instant (`at_rest_key`).
//!
//! # Source
//! docs/continuous-collision.md, "Moving groups" (cascades) and
//! "Performance" (members at rest keep their outcomes).
//!
//! # Precision domain
//! The touching tolerance above; components of at most
//! [`parapet_solver::impact::MAX_SETTLED_CONTACTS`] contacts; the energy check
//! allows `1e-12` of the energy for the `f64` elimination.

use parapet_math::{demote, promote, Vec3, Vec3d};
use parapet_narrow::sweep::{sweep_checked_pair, CheckedSegment};
use parapet_narrow::sweep::{sweep_segment_pair, MovingSegment, SweepOutcome, MAX_RADIUS};

use super::cull::{meeting_pairs_into, swept_bounds, SweptBounds, TriangleCull};
use super::state::{
    charge, not_representable, GroupImpact, State, Statics, Struck, TOUCH_F32_FACTOR,
};
use crate::ccd::error::CcdError;
use parapet_solver::impact::{
    settle, ImpactError, SettleBody, SettleContact, MAX_SETTLED_CONTACTS,
};

/// The touching tolerance (m) of two shapes around centres `a` and `b`
/// with summed radius `r` ([`TOUCH_F32_FACTOR`]).
pub(super) fn touch_tolerance(a: Vec3, b: Vec3, r: f64) -> f64 {
    let scale = promote(a).amax().max(promote(b).amax()) + r;
    TOUCH_F32_FACTOR * f32::EPSILON as f64 * scale
}

/// Puts into `scratch.pairs` the member pairs (lexicographic, never two
/// kinematic spheres) whose touching test at a settled instant may find a
/// contact and returns `true`, or returns `false` when every pair must be
/// tested: when a member at rest fails the pair sweep's
/// precision domain (the pair test then refuses exactly as it would
/// without the cull) or has a radius above half [`MAX_RADIUS`] (the
/// touching tolerance could carry it past the limit). Each member's bounds
/// are its segment at rest grown by the largest touching tolerance of the
/// group ([`touch_tolerance`] at the group's largest coordinate and twice
/// its largest radius) and widened as in [`swept_bounds`].
pub(super) fn touching_pairs(states: &[State], step: f32, scratch: &mut SettleScratch) -> bool {
    let SettleScratch {
        segments,
        checked,
        bounds,
        kinematic,
        pairs,
        sorted,
        keys,
        fresh,
        ..
    } = scratch;
    let mut scale = 0.0f64;
    let mut widest = 0.0f64;
    segments.clear();
    fresh.clear();
    let n = states.len();
    if checked.len() != n {
        keys.clear();
        keys.resize(n, None);
        checked.clear();
    }
    for (k, st) in states.iter().enumerate() {
        let mut seg = st.segment(0.0);
        seg.velocity = Vec3::zeros();
        let key = at_rest_key(&seg);
        // The member at rest as at the last settled instant: its check
        // moved to this step ([`CheckedSegment::at_rest_for`], equal to
        // checking it anew), and its touching outcomes stand.
        let kept = match (keys[k] == Some(key), checked.get(k)) {
            (true, Some(c)) => c.at_rest_for(step),
            _ => None,
        };
        fresh.push(kept.is_some());
        let c = match kept {
            Some(c) => c,
            None => match CheckedSegment::new(&seg, step) {
                Ok(c) => c,
                Err(_) => {
                    // Every member is tested anew (uncut) and forgotten.
                    keys.clear();
                    checked.clear();
                    return false;
                }
            },
        };
        if !(st.radius as f64 <= 0.5 * MAX_RADIUS) {
            keys.clear();
            checked.clear();
            return false;
        }
        keys[k] = Some(key);
        if k < checked.len() {
            checked[k] = c;
        } else {
            checked.push(c);
        }
        scale = scale.max(promote(st.p).amax());
        widest = widest.max(st.radius as f64);
        segments.push(seg);
    }
    let origin = Vec3::zeros();
    let tol = touch_tolerance(origin, origin, scale + 2.0 * widest);
    bounds.clear();
    bounds.extend(segments.iter().map(|m| swept_bounds(m, step, tol)));
    kinematic.clear();
    kinematic.extend(states.iter().map(|s| s.kinematic));
    meeting_pairs_into(bounds, kinematic, sorted, pairs);
    true
}

/// Buffers of the settled instants of a group's sweep (see [`Scratch`]).
#[derive(Default)]
pub(super) struct SettleScratch {
    /// The contacts found touching: contact, point, triangle.
    pub(super) contacts: Vec<(SettleContact, Vec3d, Option<usize>)>,
    /// [`touching_pairs`]'s members at rest, checked, their bounds, the
    /// kinematic flags, the pairs and the sort's scratch.
    pub(super) segments: Vec<MovingSegment>,
    pub(super) checked: Vec<CheckedSegment>,
    pub(super) bounds: Vec<Option<SweptBounds>>,
    pub(super) kinematic: Vec<bool>,
    pub(super) pairs: Vec<(usize, usize)>,
    pub(super) sorted: Vec<(SweptBounds, usize)>,
    /// The touching memo of the group's settled instants (see
    /// [`at_rest_key`]): per member the key of its segment at rest at the
    /// last settled instant (`None`: nothing stored), whether it is
    /// unchanged at this one (`fresh`), its triangle contacts, and its pairs
    /// with higher members tested then with their contacts (`j`
    /// ascending); `old` is scratch.
    pub(super) keys: Vec<Option<AtRestKey>>,
    pub(super) fresh: Vec<bool>,
    pub(super) triangle_contacts: Vec<Vec<(SettleContact, Vec3d, Option<usize>)>>,
    pub(super) pair_contacts: Vec<Vec<PairTouch>>,
    pub(super) old: Vec<PairTouch>,
    /// How many members kept their touching outcomes (tests only).
    #[cfg(test)]
    pub(super) kept_members: usize,
    /// The settling's bodies, contacts, components, impulses, one
    /// component's contacts, velocities (after, before, with one
    /// component's impulses), rest frames and moved members.
    pub(super) bodies: Vec<SettleBody>,
    pub(super) list: Vec<SettleContact>,
    pub(super) components: Components,
    pub(super) lambda: Vec<f64>,
    pub(super) part: Vec<SettleContact>,
    pub(super) velocities: Vec<Vec3d>,
    pub(super) before: Vec<Vec3d>,
    pub(super) after: Vec<Vec3d>,
    pub(super) frames: Vec<Vec3d>,
    pub(super) moved: Vec<bool>,
}

impl SettleScratch {
    /// Forgets the touching memo (a new group of `members` members).
    pub(super) fn forget(&mut self, members: usize) {
        self.keys.clear();
        self.keys.resize(members, None);
        self.checked.clear();
        self.fresh.clear();
        for list in [&mut self.triangle_contacts] {
            if list.len() < members {
                list.resize_with(members, Vec::new);
            }
        }
        if self.pair_contacts.len() < members {
            self.pair_contacts.resize_with(members, Vec::new);
        }
    }
}

/// A pair's touching outcome at a settled instant: the higher member and
/// the contact with its point, if the pair touched.
pub(super) type PairTouch = (usize, Option<(SettleContact, Vec3d)>);

/// A member's segment at rest as bits (ends and radius; its velocity is
/// zero). At a settled instant every touching test of a sphere or kinematic
/// sphere at rest (its triangles, at the tolerance-grown radius, and its
/// pairs) is a function of these bits and of the other member's, and not
/// of the step: without motion there is no hit, an initial contact
/// carries no time, the contact point adds `0 · 0` to the world
/// coordinates and every check but the step length's (which
/// [`CheckedSegment::at_rest_for`] makes) reads no travel. So a member
/// whose key did not change since the last settled instant keeps its
/// outcomes there, and so does a pair of two such members.
pub(super) type AtRestKey = [u32; 7];

pub(super) fn at_rest_key(m: &MovingSegment) -> AtRestKey {
    [m.p0.x, m.p0.y, m.p0.z, m.p1.x, m.p1.y, m.p1.z, m.radius].map(f32::to_bits)
}

/// The connected components of the contacts (positions in `list`) into
/// `out`: two contacts are in one component when they share a dynamic
/// member (triangles and kinematic spheres, of infinite mass, pass no
/// impulse on). Components come in the order of their first contact,
/// contacts in list order.
pub(super) fn contact_components(states: &[State], list: &[SettleContact], out: &mut Components) {
    let Components {
        parent,
        label_of,
        slot,
        items,
        ranges,
    } = out;
    parent.clear();
    parent.extend(0..states.len());
    fn root(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    // The dynamic member of each contact that labels it (every contact has
    // one: triangle contacts belong to dynamic members, and two kinematic
    // spheres are never a contact).
    let dynamic = |k: usize| !states[k].kinematic;
    for c in list {
        if let Some(b) = c.b {
            if dynamic(c.a) && dynamic(b) {
                let (ra, rb) = (root(parent, c.a), root(parent, b));
                parent[ra.max(rb)] = ra.min(rb);
            }
        }
    }
    // Each contact's component, numbered in the order of first contacts;
    // then the contacts grouped by component in list order (`ranges[k]`
    // is component `k`'s span of `items`).
    label_of.clear();
    label_of.resize(states.len(), None);
    slot.clear();
    ranges.clear();
    for c in list {
        let member = match c.b {
            Some(b) if !dynamic(c.a) => b,
            _ => c.a,
        };
        let r = root(parent, member);
        let k = *label_of[r].get_or_insert_with(|| {
            ranges.push((0, 0));
            ranges.len() - 1
        });
        slot.push(k);
        ranges[k].1 += 1;
    }
    let mut start = 0;
    for r in ranges.iter_mut() {
        let count = r.1;
        *r = (start, start);
        start += count;
    }
    items.clear();
    items.resize(list.len(), 0);
    for (i, &k) in slot.iter().enumerate() {
        items[ranges[k].1] = i;
        ranges[k].1 += 1;
    }
}

/// The connected components of a settled instant's contacts
/// ([`contact_components`]), flat: component `k` is
/// `items[ranges[k].0..ranges[k].1]`; the rest is scratch.
#[derive(Default)]
pub(super) struct Components {
    pub(super) parent: Vec<usize>,
    pub(super) label_of: Vec<Option<usize>>,
    pub(super) slot: Vec<usize>,
    pub(super) items: Vec<usize>,
    pub(super) ranges: Vec<(usize, usize)>,
}

/// Settles every contact touching at this instant (see the module docs).
pub(super) fn settle_instant(
    states: &mut [State],
    statics: Statics<'_>,
    tau: f32,
    time: f64,
    limit: u32,
    cull: bool,
    validated: &[bool],
    moved: &mut Vec<usize>,
    scratch: &mut SettleScratch,
) -> Result<Vec<GroupImpact>, CcdError> {
    let step = tau.max(f32::MIN_POSITIVE);
    let culled = cull && touching_pairs(states, step, scratch);
    if !culled {
        scratch.keys.clear();
        scratch.checked.clear();
    }
    #[cfg(test)]
    if culled {
        scratch.kept_members += scratch.fresh.iter().filter(|&&f| f).count();
    }
    touching_contacts(states, statics, step, culled, validated, scratch)?;
    solve_components(states, scratch)?;
    check_energy(states, scratch)?;
    let report = settled_report(states, time, limit, scratch)?;
    for (st, nv) in states.iter_mut().zip(scratch.velocities.iter()) {
        if st.kinematic || *nv == promote(st.v) {
            continue;
        }
        let v32 = demote(*nv).map_err(|_| not_representable(st.index, "linear velocity", nv))?;
        st.v = v32;
        st.sweep_v = v32;
        st.touched = true;
    }
    // Every member whose velocity may have changed (a cheap superset: the
    // memo compares each one's sweep input anyway).
    moved.extend((0..states.len()).filter(|&k| !states[k].kinematic));
    Ok(report)
}

/// The contacts touching at this instant into `scratch.contacts`, in member
/// order: each dynamic member's triangles, then its pairs with higher
/// members (`culled`: only the pairs [`touching_pairs`] found, with the
/// touching memo's outcomes of members unchanged at rest; else every pair).
///
/// # Errors
/// [`CcdError::PairSweepRefused`] naming both members of a refused pair.
fn touching_contacts(
    states: &[State],
    statics: Statics<'_>,
    step: f32,
    culled: bool,
    validated: &[bool],
    scratch: &mut SettleScratch,
) -> Result<(), CcdError> {
    let SettleScratch {
        contacts,
        pairs,
        checked,
        fresh,
        triangle_contacts,
        pair_contacts,
        old,
        ..
    } = scratch;
    let pairs = culled.then_some(&*pairs);
    let checked = culled.then_some(&checked[..]);
    // Whether member `k`'s touching outcomes at the last settled instant
    // stand (a sphere or kinematic sphere unchanged at rest, see
    // `at_rest_key`).
    let kept = |k: usize| culled && fresh[k] && !states[k].capsule;
    // The contacts, in member order: triangles, then higher members.
    contacts.clear();
    let mut next_pair = 0usize;
    for (i, a) in states.iter().enumerate() {
        if !a.kinematic && kept(i) {
            contacts.extend_from_slice(&triangle_contacts[i]);
        } else if !a.kinematic {
            let from = contacts.len();
            triangle_touches(i, a, statics, step, validated, contacts);
            if culled {
                triangle_contacts[i].clear();
                triangle_contacts[i].extend_from_slice(&contacts[from..]);
            }
        }
        match &pairs {
            Some(pairs) => {
                std::mem::swap(old, &mut pair_contacts[i]);
                pair_contacts[i].clear();
                while next_pair < pairs.len() && pairs[next_pair].0 == i {
                    let j = pairs[next_pair].1;
                    next_pair += 1;
                    let stored = if kept(i) && kept(j) {
                        old.binary_search_by_key(&j, |e| e.0).ok().map(|k| old[k].1)
                    } else {
                        None
                    };
                    let found = match stored {
                        Some(found) => {
                            if let Some((c, point)) = found {
                                contacts.push((c, point, None));
                            }
                            found
                        }
                        None => {
                            let from = contacts.len();
                            touching_pair(states, checked, i, j, step, contacts)?;
                            contacts.get(from).map(|c| (c.0, c.1))
                        }
                    };
                    pair_contacts[i].push((j, found));
                }
            }
            None => {
                for j in (i + 1..states.len()).filter(|&j| !(a.kinematic && states[j].kinematic)) {
                    touching_pair(states, None, i, j, step, contacts)?;
                }
            }
        }
    }
    Ok(())
}

/// Pushes onto `contacts` the triangles that dynamic member `i` (`a`)
/// touches at rest, its radius grown by the touching tolerance; a sphere
/// whose candidates all passed their own checks (`validated`) skips those
/// its bounds miss ([`TriangleCull`]).
fn triangle_touches(
    i: usize,
    a: &State,
    statics: Statics<'_>,
    step: f32,
    validated: &[bool],
    contacts: &mut Vec<(SettleContact, Vec3d, Option<usize>)>,
) {
    let tol = touch_tolerance(a.p, a.p, a.radius as f64);
    let r = ((a.radius as f64) + tol) as f32;
    let cull = match (a.capsule, validated.get(i), a.candidates.is_empty()) {
        (false, Some(true), false) => TriangleCull::new(a.p, r.max(a.radius), Vec3::zeros(), step),
        _ => None,
    };
    for &(t, _) in &a.candidates {
        if cull.is_some_and(|c| c.misses(&statics.triangles[t])) {
            continue;
        }
        if let SweepOutcome::InitiallyTouching(c) =
            statics.sweep(a, Vec3::zeros(), step, t, r.max(a.radius))
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

/// The error of a component (positions in `list`) that cannot be settled,
/// naming its first contact's member (the group's first member when empty).
fn unresolvable(
    states: &[State],
    list: &[SettleContact],
    component: &[usize],
    reason: &'static str,
) -> CcdError {
    CcdError::Unresolvable {
        body: component
            .first()
            .map_or(states.first().map_or(0, |s| s.index), |&c| {
                states[list[c].a].index
            }),
        contacts: component.len(),
        reason,
        limit: MAX_SETTLED_CONTACTS,
    }
}

/// Settles each connected component of `scratch.contacts` as its own
/// problem (no impulse of one moves a body of another; the limit of ten
/// contacts holds per component): the impulses into `scratch.lambda`, the
/// velocities they give into `scratch.velocities`.
///
/// # Errors
/// [`CcdError::Unresolvable`] for a component too large to settle or one
/// that no set of non-negative impulses opens.
fn solve_components(states: &[State], scratch: &mut SettleScratch) -> Result<(), CcdError> {
    let SettleScratch {
        contacts,
        bodies,
        list,
        components,
        lambda,
        part,
        velocities: v,
        ..
    } = scratch;
    bodies.clear();
    bodies.extend(states.iter().map(|s| SettleBody {
        inverse_mass: s.response.inverse_mass,
        velocity: promote(s.v),
    }));
    list.clear();
    list.extend(contacts.iter().map(|c| c.0));
    contact_components(states, list, components);
    let list = &*list;
    lambda.clear();
    lambda.resize(list.len(), 0.0);
    for &(from, to) in &components.ranges {
        let component = &components.items[from..to];
        part.clear();
        part.extend(component.iter().map(|&c| list[c]));
        let solved = settle(bodies, part).map_err(|f| match f {
            ImpactError::TooManyContacts { .. } => unresolvable(
                states,
                list,
                component,
                "more simultaneous contacts than the settling solves",
            ),
            _ => unresolvable(
                states,
                list,
                component,
                "no set of non-negative impulses opens every contact",
            ),
        })?;
        for (&c, l) in component.iter().zip(solved) {
            lambda[c] = l;
        }
    }
    v.clear();
    v.extend(bodies.iter().map(|b| b.velocity));
    for (c, l) in list.iter().zip(lambda.iter()) {
        v[c.a] += c.normal * (l * bodies[c.a].inverse_mass);
        if let Some(b) = c.b {
            v[b] -= c.normal * (l * bodies[b].inverse_mass);
        }
    }
    Ok(())
}

/// Energy check per component, in the frame where the component's
/// non-dynamic bodies rest: the static world's, or a kinematic sphere's
/// (static triangles and kinematic spheres of different velocities share
/// no rest frame; such a component is solved but not checked).
///
/// # Errors
/// [`CcdError::Unresolvable`] for a component whose settled impulses would
/// add kinetic energy.
fn check_energy(states: &[State], scratch: &mut SettleScratch) -> Result<(), CcdError> {
    let SettleScratch {
        bodies,
        list,
        components,
        velocities: v,
        before,
        after,
        frames,
        moved: moved_by,
        ..
    } = scratch;
    before.clear();
    before.extend(bodies.iter().map(|b| b.velocity));
    for &(from, to) in &components.ranges {
        let component = &components.items[from..to];
        frames.clear();
        moved_by.clear();
        moved_by.resize(states.len(), false);
        for c in component.iter().map(|&c| &list[c]) {
            for k in std::iter::once(Some(c.a)).chain(std::iter::once(c.b)) {
                let u = match k {
                    None => Vec3d::zeros(),
                    Some(k) if states[k].kinematic => promote(states[k].v),
                    Some(k) => {
                        moved_by[k] = true;
                        continue;
                    }
                };
                if !frames.contains(&u) {
                    frames.push(u);
                }
            }
        }
        if frames.len() > 1 {
            continue;
        }
        let frame = frames.first().copied().unwrap_or_else(Vec3d::zeros);
        let energy = |vs: &[Vec3d]| -> f64 {
            states
                .iter()
                .zip(vs)
                .filter(|(s, _)| !s.kinematic)
                .map(|(s, v)| 0.5 * (v - frame).norm_squared() / s.response.inverse_mass)
                .sum()
        };
        // The velocities with this component's impulses only.
        after.clear();
        after.extend((0..states.len()).map(|k| if moved_by[k] { v[k] } else { before[k] }));
        let (e0, e1) = (energy(before), energy(after));
        // The exact plastic solution removes ½ λᵀ A λ >= 0; 1e-12 of the
        // energy covers the f64 elimination.
        if e1 > e0 * (1.0 + 1.0e-12) + f64::MIN_POSITIVE {
            return Err(unresolvable(
                states,
                list,
                component,
                "the settled impulses would add kinetic energy",
            ));
        }
    }
    Ok(())
}

/// The report of the settled contacts with a positive impulse, each
/// charged to the dynamic members it moves (`limit`: `ccd_max_impacts`).
///
/// # Errors
/// [`CcdError::ImpactLimit`] for a member that exceeds the limit.
fn settled_report(
    states: &mut [State],
    time: f64,
    limit: u32,
    scratch: &SettleScratch,
) -> Result<Vec<GroupImpact>, CcdError> {
    let mut report = Vec::new();
    for ((c, point, tri), l) in scratch.contacts.iter().zip(scratch.lambda.iter()) {
        if !(*l > 0.0) {
            continue;
        }
        charge(states, c.a, c.b, limit)?;
        let a_kin = states[c.a].kinematic;
        let (body, other, normal, impulse) = match (c.b, a_kin) {
            (Some(b), true) => (
                b,
                Struck::Member(states[c.a].index),
                -c.normal,
                -c.normal * *l,
            ),
            (Some(b), false) => (
                c.a,
                Struck::Member(states[b].index),
                c.normal,
                c.normal * *l,
            ),
            (None, _) => (
                c.a,
                Struck::Triangle(tri.unwrap_or(0)),
                c.normal,
                c.normal * *l,
            ),
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
    Ok(report)
}

/// The touching test at a settled instant of members `i` and `j`: pushes
/// their contact, if they touch within the touching tolerance. `checked`:
/// every member at rest checked for `step` ([`touching_pairs`]), so that
/// the pair is swept without checking its members again (the first grown
/// by the tolerance, [`CheckedSegment::grown`]; the same outcome).
///
/// # Errors
/// [`CcdError::PairSweepRefused`] naming both members.
pub(super) fn touching_pair(
    states: &[State],
    checked: Option<&[CheckedSegment]>,
    i: usize,
    j: usize,
    step: f32,
    contacts: &mut Vec<(SettleContact, Vec3d, Option<usize>)>,
) -> Result<(), CcdError> {
    let (a, b) = (&states[i], &states[j]);
    let tol = touch_tolerance(a.p, b.p, (a.radius + b.radius) as f64);
    let mut sa = a.segment(tol);
    let mut sb = b.segment(0.0);
    sa.velocity = Vec3::zeros();
    sb.velocity = Vec3::zeros();
    let grown = checked.and_then(|c| Some((c[i].grown(sa.radius)?, &c[j])));
    let outcome = match grown {
        Some((ca, cb)) => sweep_checked_pair(&ca, cb),
        None => sweep_segment_pair(&sa, &sb, step),
    };
    match outcome {
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
    Ok(())
}
