//! The group sweep's event memo ([`super`]): the earliest event of one
//! pass, found either by sweeping every triangle candidate and every pair in
//! order (`earliest_exhaustive`, the reference) or from what the previous
//! passes computed (`earliest`).
//!
//! # Method
//! Per member the memo keeps its checked pair segment, its widened swept
//! bounds, its triangle outcomes, its meeting pairs with higher members and
//! their outcomes, and its best event, while its sweep input (its segment
//! and the remaining time, as bits: `member_key`) is unchanged. A pass
//! recomputes the entries of the members whose input changed, repairs the
//! pair lists they take part in (or pairs every member afresh when many
//! changed), and offers the members' best events in member order (a scan,
//! or the tournament of [`super::tournament`] for large groups): the same
//! event, in the same order, as the exhaustive pass.
//!
//! # Source
//! docs/continuous-collision.md, "Performance" (group sweeps are event
//! driven: each member's earliest event is kept until its motion or a
//! partner changes).
//!
//! # Precision domain
//! Exact reuse: an entry stands only while its inputs are equal bit for bit
//! (the sweeps are pure functions of them); the culls' bounds are those of
//! [`super::cull`].

use parapet_math::{promote, Vec3};
use parapet_narrow::sweep::{sweep_checked_pair, CheckedSegment};
use parapet_narrow::sweep::{sweep_segment_pair, MovingSegment, SweepOutcome};

use super::cull::{
    axis_extent, bounds_meet, meeting_pairs_into, swept_bounds, SweptBounds, TriangleCull,
};
use super::state::{beats, map_pair, offer, pair_event, triangle_event, Event, State, Statics};
use super::tournament::{Tournament, TOURNAMENT_MIN_MEMBERS};
use crate::ccd::error::CcdError;

/// The earliest event of the pass (ordering in the module docs), every
/// triangle candidate and every pair swept in order: the reference pass,
/// and the pass when a member fails the pair sweep's precision domain (the
/// first refusal in this order is the error).
pub(super) fn earliest_exhaustive(
    states: &[State],
    statics: Statics<'_>,
    tau: f32,
) -> Result<Option<Event>, CcdError> {
    let mut best: Option<Event> = None;
    for (i, a) in states.iter().enumerate() {
        let segment = a.segment(0.0);
        if !a.kinematic {
            for &(t, _) in &a.candidates {
                let o = statics.sweep(a, a.sweep_v, tau, t, a.radius);
                if let Some(found) = triangle_event(i, a, t, o)? {
                    offer(found, &mut best);
                }
            }
        }
        let others = (i + 1..states.len()).filter(|&j| !(a.kinematic && states[j].kinematic));
        for j in others {
            let b = &states[j];
            let outcome = sweep_segment_pair(&segment, &b.segment(0.0), tau);
            if let Some(found) = pair_event((i, a), (j, b), outcome)? {
                offer(found, &mut best);
            }
        }
    }
    Ok(best)
}

/// A member's sweep input as bits: its segment and the remaining time. Two
/// passes with the same bits give the same outcomes (the sweeps are pure
/// functions of them).
///
/// # Spheres at rest
/// A sphere whose velocity is zero (either sign) takes [`AT_REST_KEY_TIME`]
/// for the remaining time: its displacement `v tau` is a zero of the same
/// signs for every positive `tau`, so its pair member check and bounds,
/// its sphere-triangle sweeps (no hit without motion; an initial contact
/// carries no time) and its pair sweeps with other members at rest
/// (relative motion zero; the contact point adds `0 · v_B tau`, a zero
/// whose sign does not depend on `tau`) are the same for every remaining
/// time. Its pairs with moving members are swept again when those move,
/// with its check moved to the pass's step length
/// ([`CheckedSegment::at_rest_for`]).
pub(super) type MemberKey = ([u32; 10], u32);

/// The remaining time in the key of a sphere at rest (never a pass's
/// remaining time, which is positive).
pub(super) const AT_REST_KEY_TIME: f32 = 0.0;

pub(super) fn member_key(m: &MovingSegment, tau: f32) -> MemberKey {
    let v = [
        m.p0.x,
        m.p0.y,
        m.p0.z,
        m.p1.x,
        m.p1.y,
        m.p1.z,
        m.radius,
        m.velocity.x,
        m.velocity.y,
        m.velocity.z,
    ];
    (v.map(f32::to_bits), tau.to_bits())
}

/// What the previous passes computed, reused for members whose sweep input
/// has not changed (a pass at the same instant after one impact changes
/// only the members it moved).
#[derive(Default)]
pub(super) struct PassMemo {
    /// Per member: the key of the stored entries (`None`: nothing stored).
    pub(super) keys: Vec<Option<MemberKey>>,
    /// Per member: its checked pair member.
    pub(super) checked: Vec<Option<CheckedSegment>>,
    /// Per member: its widened swept bounds.
    pub(super) bounds: Vec<Option<SweptBounds>>,
    /// The quick axis (set at each full pass) and per member the extent
    /// of its bounds along it (infinite without bounds): a quick first test
    /// of `bounds_meet`.
    pub(super) axis: usize,
    pub(super) extent: Vec<(f64, f64)>,
    /// Per member: its extent before this pass changed it (changed members
    /// only): a stored pair of it met on the axis then.
    pub(super) old_extent: Vec<(f64, f64)>,
    /// How many members have no checked pair member (`checked` is `None`).
    pub(super) unchecked: usize,
    /// Per member: its triangle outcomes other than misses, in candidate
    /// order, ending at the first refusal.
    pub(super) triangle: Vec<Vec<(usize, SweepOutcome<()>)>>,
    /// Per member `i`: the meeting pairs `(i, j)`, `j > i` ascending, with
    /// their outcomes (valid when `complete`).
    pub(super) pairs: Vec<Vec<(usize, SweepOutcome<()>)>>,
    /// Per member `i`: its best event (its triangles, then its pairs with
    /// higher members, in offer order), `None` when it must be found again.
    pub(super) best: Vec<Option<Option<Event>>>,
    /// The members whose best event was forgotten since the last pass.
    pub(super) stale: Vec<usize>,
    /// The tournament of the members' best events.
    pub(super) tournament: Tournament,
    /// Whether `pairs` holds every meeting pair of the current inputs.
    pub(super) complete: bool,
    /// Per member: whether it is a kinematic sphere.
    pub(super) kinematic: Vec<bool>,
    /// Per member: whether every one of its triangle candidates passed the
    /// triangle's own checks in a sweep without refusal (so that
    /// [`TriangleCull`] may skip them).
    pub(super) validated: Vec<bool>,
    /// The triangles (ascending) that passed their own checks in a sphere
    /// member's sweep without refusal: the checks that do not depend on
    /// the sphere (finite coordinates within the limit, not degenerate, not
    /// thin) hold for every member, so any sphere member may cull them
    /// ([`TriangleCull::misses`] checks the one that does).
    pub(super) checked_triangles: Vec<usize>,
    /// Per member: whether its input changed in this pass.
    pub(super) dirty: Vec<bool>,
    /// The members whose input changed in this pass, ascending.
    pub(super) dirty_list: Vec<usize>,
    /// Scratch: the meeting pairs, the sweep's sorted bounds, an old list.
    pub(super) next_pairs: Vec<(usize, usize)>,
    pub(super) sorted: Vec<(SweptBounds, usize)>,
    pub(super) old: Vec<(usize, SweepOutcome<()>)>,
}

impl PassMemo {
    /// Forgets everything stored and sizes the memo for `states`, keeping
    /// the buffers.
    pub(super) fn reset(&mut self, states: &[State]) {
        let n = states.len();
        self.keys.clear();
        self.keys.resize(n, None);
        self.checked.clear();
        self.checked.resize(n, None);
        self.bounds.clear();
        self.bounds.resize(n, None);
        self.axis = 0;
        self.extent.clear();
        self.extent.resize(n, (f64::NEG_INFINITY, f64::INFINITY));
        self.old_extent.clear();
        self.old_extent
            .resize(n, (f64::NEG_INFINITY, f64::INFINITY));
        self.unchecked = n;
        for list in [&mut self.triangle, &mut self.pairs] {
            if list.len() < n {
                list.resize_with(n, Vec::new);
            }
            for l in list.iter_mut().take(n) {
                l.clear();
            }
        }
        self.best.clear();
        self.best.resize(n, None);
        self.stale.clear();
        self.stale.extend(0..n);
        // Built anew at the first pass.
        self.tournament.members = usize::MAX;
        self.complete = false;
        self.kinematic.clear();
        self.kinematic.extend(states.iter().map(|s| s.kinematic));
        self.validated.clear();
        self.validated.resize(n, false);
        self.checked_triangles.clear();
        self.dirty.clear();
        self.dirty.resize(n, false);
        self.dirty_list.clear();
    }
}

/// The event of member `i` alone: its triangle events, then its pairs with
/// higher members, offered in that order (the order of the flat pass).
///
/// # Errors
/// The first refusal in that order.
pub(super) fn member_best(
    states: &[State],
    i: usize,
    triangle: &[(usize, SweepOutcome<()>)],
    pairs: &[(usize, SweepOutcome<()>)],
) -> Result<Option<Event>, CcdError> {
    let a = &states[i];
    let mut best: Option<Event> = None;
    for (t, o) in triangle {
        if let Some(found) = triangle_event(i, a, *t, o.clone())? {
            offer(found, &mut best);
        }
    }
    for (j, o) in pairs {
        if let Some(found) = pair_event((i, a), (*j, &states[*j]), o.clone())? {
            offer(found, &mut best);
        }
    }
    Ok(best)
}

/// The earliest event of the pass (ordering in the module docs). Each
/// member is checked once for the pass ([`CheckedSegment`]), pairs whose
/// swept bounds miss are culled ([`swept_bounds`], [`meeting_pairs`]), and
/// outcomes of members whose input did not change since the previous pass
/// are reused ([`PassMemo`]): the events are those of
/// [`earliest_exhaustive`], offered in the same order. When a member fails
/// its check the pass is [`earliest_exhaustive`], which refuses exactly as
/// without the cull.
///
/// Only the members listed in `moved` (any order, repeats allowed) may
/// have a sweep input other than at the previous call; the others are
/// not looked at. Each member's best event is kept between passes
/// ([`member_best`]) until its input or a pair of it changes, and the pass
/// offers the members' best events in member order: the earliest of a
/// member's events is offered first among its equals in the flat order,
/// so the pass keeps the same event as offering every event (`offer`
/// keeps the first of equal events).
pub(super) fn earliest(
    states: &[State],
    statics: Statics<'_>,
    tau: f32,
    memo: &mut PassMemo,
    moved: &mut Vec<usize>,
) -> Result<Option<Event>, CcdError> {
    moved.sort_unstable();
    moved.dedup();
    memo.dirty_list.clear();
    for &i in moved.iter() {
        let st = &states[i];
        let seg = st.segment(0.0);
        // A sphere at rest sweeps the same whatever the remaining time (its
        // travel is zero: its check, bounds, triangle outcomes and pair
        // outcomes with other members at rest do not depend on it, see
        // `member_key`); only its checked step length follows the pass.
        let at_rest = !st.capsule && seg.velocity == Vec3::zeros();
        let key = member_key(&seg, if at_rest { AT_REST_KEY_TIME } else { tau });
        if memo.keys[i] == Some(key) {
            if at_rest {
                if let Some(c) = memo.checked[i] {
                    if c.dt().to_bits() != tau.to_bits() {
                        // Some: `c` is at rest and `tau` is positive and finite.
                        memo.checked[i] = c.at_rest_for(tau);
                    }
                }
            }
            continue;
        }
        memo.dirty[i] = true;
        memo.dirty_list.push(i);
        memo.best[i] = None;
        memo.stale.push(i);
        memo.keys[i] = Some(key);
        let was_checked = memo.checked[i].is_some();
        memo.checked[i] = CheckedSegment::new(&seg, tau).ok();
        match (was_checked, memo.checked[i].is_some()) {
            (true, false) => memo.unchecked += 1,
            (false, true) => memo.unchecked -= 1,
            _ => {}
        }
        memo.bounds[i] = swept_bounds(&seg, tau, 0.0);
        memo.old_extent[i] = memo.extent[i];
        memo.extent[i] = axis_extent(&memo.bounds[i], memo.axis);
        memo.triangle[i].clear();
        if !st.kinematic {
            // A candidate that passed its own checks in a sphere's sweep
            // (this member's or another's: `checked_triangles`) and that
            // this sphere's path bounds miss is a miss (`TriangleCull`).
            // (A sphere's pair member is the sphere the triangle sweep
            // takes: its check and bounds are the cull's.)
            let cull = match (st.capsule, &memo.checked[i], memo.bounds[i]) {
                (false, Some(_), Some(bounds)) => Some(TriangleCull {
                    center: promote(st.p),
                    radius: st.radius as f64,
                    bounds,
                }),
                _ => None,
            };
            let mut refused = false;
            for &(t, _) in &st.candidates {
                let checked_triangle = memo.checked_triangles.binary_search(&t);
                if cull.is_some_and(|c| checked_triangle.is_ok() && c.misses(&statics.triangles[t]))
                {
                    continue;
                }
                let o = statics.sweep(st, st.sweep_v, tau, t, st.radius);
                refused = matches!(o, SweepOutcome::Refused(_));
                if let (false, false, Err(at)) = (refused, st.capsule, checked_triangle) {
                    // The sphere sweep ran the triangle's checks and they
                    // passed (a refusal is passed through by the seam
                    // admission).
                    memo.checked_triangles.insert(at, t);
                }
                if !matches!(o, SweepOutcome::Miss) {
                    memo.triangle[i].push((t, o));
                }
                if refused {
                    break;
                }
            }
            if !refused {
                memo.validated[i] = true;
            }
        }
    }
    let changed = memo.dirty_list.len();
    let result = earliest_memo(states, statics, tau, memo, changed);
    for &i in &memo.dirty_list {
        memo.dirty[i] = false;
    }
    result
}

/// The pass of [`earliest`] once the changed members' entries are fresh.
pub(super) fn earliest_memo(
    states: &[State],
    statics: Statics<'_>,
    tau: f32,
    memo: &mut PassMemo,
    changed: usize,
) -> Result<Option<Event>, CcdError> {
    let n = states.len();
    if memo.unchecked > 0 {
        memo.complete = false;
        return earliest_exhaustive(states, statics, tau);
    }
    if !memo.complete || changed > 0 {
        if memo.complete && changed * 2 <= n {
            // At most half the members changed: each changed member's pairs
            // (its bounds against every other's) are swept anew, in the
            // list of the lower member; the lists of unchanged pairs stay.
            // (More changed members are cheaper to pair afresh below; both
            // ways give the same lists.)
            repair_pairs(memo);
        } else {
            pair_afresh(memo, n);
        }
        memo.complete = true;
    }
    for &i in &memo.stale {
        if memo.best[i].is_none() {
            memo.best[i] = Some(member_best(states, i, &memo.triangle[i], &memo.pairs[i])?);
        }
    }
    if n < TOURNAMENT_MIN_MEMBERS {
        // Few members: a scan (`offer` on references) costs less than the
        // tournament's upkeep, and chooses the same event.
        memo.stale.clear();
        let mut found: Option<&Event> = None;
        for e in memo.best.iter().take(n).flatten().flatten() {
            if found.is_none_or(|b| beats(e, b)) {
                found = Some(e);
            }
        }
        return Ok(found.copied());
    }
    memo.tournament.update(&memo.best, &memo.stale);
    memo.stale.clear();
    Ok(memo.tournament.winner(&memo.best).copied())
}

/// The pair sweep of members `i` and `j` from their checked segments (a
/// miss when either has none: the pass is then exhaustive).
fn sweep_checked(checked: &[Option<CheckedSegment>], i: usize, j: usize) -> SweepOutcome<()> {
    match (&checked[i], &checked[j]) {
        (Some(a), Some(b)) => map_pair(sweep_checked_pair(a, b)),
        _ => SweepOutcome::Miss,
    }
}

/// Whether the pair of members `i` and `j` is swept: not two kinematic
/// spheres, and their bounds meet.
fn pair_meets(kinematic: &[bool], bounds: &[Option<SweptBounds>], i: usize, j: usize) -> bool {
    !(kinematic[i] && kinematic[j]) && bounds_meet(&bounds[i], &bounds[j])
}

/// The pair lists after a pass in which the members of `memo.dirty_list`
/// changed (the lists were complete before it): each changed member's
/// pairs are swept anew, in the list of the lower member, and every member
/// whose list changed is marked stale.
fn repair_pairs(memo: &mut PassMemo) {
    let PassMemo {
        bounds,
        extent,
        old_extent,
        pairs,
        best,
        kinematic,
        dirty,
        dirty_list,
        checked,
        stale,
        ..
    } = memo;
    for &j in dirty_list.iter() {
        // A lower unchanged member needs work only when its extent
        // on the quick axis meets `j`'s new one (a pair to sweep)
        // or its old one (a stored pair: it met then, as the full
        // bounds of a stored pair did when it was swept).
        let (new, old) = (extent[j], old_extent[j]);
        // First against the hull of both extents (never NaN: bounds
        // are finite, a member without them spans every value):
        // apart from it is apart from both.
        let (u0, u1) = (new.0.min(old.0), new.1.max(old.1));
        for (i, &(lo, hi)) in extent[..j].iter().enumerate() {
            if hi < u0 || u1 < lo {
                continue;
            }
            let apart = hi < new.0 || new.1 < lo;
            if (apart && (hi < old.0 || old.1 < lo)) || dirty[i] {
                continue;
            }
            let list = &mut pairs[i];
            let slot = list.binary_search_by_key(&j, |e| e.0);
            match (slot, !apart && pair_meets(kinematic, bounds, i, j)) {
                (Ok(k), true) => list[k].1 = sweep_checked(checked, i, j),
                (Ok(k), false) => {
                    list.remove(k);
                }
                (Err(k), true) => list.insert(k, (j, sweep_checked(checked, i, j))),
                (Err(_), false) => continue,
            }
            best[i] = None;
            stale.push(i);
        }
        let list = &mut pairs[j];
        list.clear();
        for (k, &(lo, hi)) in extent.iter().enumerate().skip(j + 1) {
            let apart = hi < new.0 || new.1 < lo;
            if !apart && pair_meets(kinematic, bounds, j, k) {
                list.push((k, sweep_checked(checked, j, k)));
            }
        }
    }
}

/// Every member's pair list afresh (`n` members): the quick axis chosen
/// again, the meeting pairs found by [`meeting_pairs_into`], and the stored
/// outcome of a pair of two unchanged members kept (when the lists were
/// complete); a member whose list is not its old one is marked stale.
fn pair_afresh(memo: &mut PassMemo, n: usize) {
    let PassMemo {
        bounds,
        axis,
        extent,
        pairs,
        best,
        complete,
        kinematic,
        dirty,
        next_pairs,
        sorted,
        checked,
        old,
        stale,
        ..
    } = memo;
    // The quick axis: where the members' bounds spread most.
    let (mut lo, mut hi) = ([f64::INFINITY; 3], [f64::NEG_INFINITY; 3]);
    for b in bounds.iter().flatten() {
        for k in 0..3 {
            lo[k] = lo[k].min(b.lo[k]);
            hi[k] = hi[k].max(b.hi[k]);
        }
    }
    *axis = (0..3)
        .max_by(|&a, &b| (hi[a] - lo[a]).total_cmp(&(hi[b] - lo[b])))
        .unwrap_or(0);
    for (e, b) in extent.iter_mut().zip(bounds.iter()) {
        *e = axis_extent(b, *axis);
    }
    meeting_pairs_into(bounds, kinematic, sorted, next_pairs);
    let mut at = 0usize;
    for i in 0..n {
        std::mem::swap(old, &mut pairs[i]);
        let list = &mut pairs[i];
        list.clear();
        // Whether every pair of `i` is a kept one (then, with as
        // many pairs as before, the list is the old one and the
        // member's best event stands).
        let mut all_kept = *complete && !dirty[i];
        while at < next_pairs.len() && next_pairs[at].0 == i {
            let j = next_pairs[at].1;
            at += 1;
            let kept = if *complete && !dirty[i] && !dirty[j] {
                old.binary_search_by_key(&j, |e| e.0).ok()
            } else {
                None
            };
            let o = match kept {
                Some(k) => old[k].1.clone(),
                None => {
                    all_kept = false;
                    sweep_checked(checked, i, j)
                }
            };
            list.push((j, o));
        }
        if !(all_kept && list.len() == old.len()) {
            best[i] = None;
            stale.push(i);
        }
    }
}
