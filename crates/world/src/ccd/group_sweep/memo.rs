//! The group sweep's event memo ([`super`]): the earliest event of one
//! pass, found either by sweeping every triangle candidate and every pair in
//! order (`earliest_exhaustive`, the reference) or from what the previous
//! passes computed (`earliest`).
//!
//! # Method
//! Per member the memo keeps its checked pair segment, its widened swept
//! bounds, its triangle outcomes, the outcomes of its due pairs with higher
//! members, and its best event, while its sweep input (its segment and the
//! remaining time, as bits: `member_key`) is unchanged. Live pairs wait in
//! the pair schedule ([`super::schedule`]) until their window ends: a pass
//! recomputes the entries of the members whose input changed, forgets the
//! pair outcomes they take part in, schedules again the pairs of the members
//! with a new certificate (every pair when the lists are not complete),
//! offers the members' best events in member order (a scan, or the
//! tournament of [`super::tournament`] for large groups), then sweeps the
//! pairs due by that event's time and offers again: the same event, in the
//! same order, as the exhaustive pass. A pass costs `O(n)` for `n` members
//! plus `O(d log L)` for the `d` due pairs of `L` scheduled (the first
//! pass, which schedules every pair, `O(n²)`).
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

use super::certify::{triangle_apart, Cert, Path};
use super::cull::{bounds_meet, swept_bounds, SweptBounds, TriangleCull};
use super::schedule::{window, PairSchedule, WINDOW_PAD};
use super::state::{
    beats, map_pair, offer, pair_event, triangle_event, Event, State, Statics, SweepWork,
};
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
    work: &mut SweepWork,
) -> Result<Option<Event>, CcdError> {
    let mut best: Option<Event> = None;
    for (i, a) in states.iter().enumerate() {
        let segment = a.segment(0.0);
        if !a.kinematic {
            for &(t, _) in &a.candidates {
                work.triangle_sweeps += 1;
                let o = statics.sweep(a, a.sweep_v, tau, t, a.radius);
                if let Some(found) = triangle_event(i, a, t, o)? {
                    offer(found, &mut best);
                }
            }
        }
        let others = (i + 1..states.len()).filter(|&j| !(a.kinematic && states[j].kinematic));
        for j in others {
            let b = &states[j];
            work.pair_sweeps += 1;
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
    /// How many members have no checked pair member (`checked` is `None`).
    pub(super) unchecked: usize,
    /// Per member: its triangle outcomes other than misses, in candidate
    /// order, ending at the first refusal.
    pub(super) triangle: Vec<Vec<(usize, SweepOutcome<()>)>>,
    /// Per member `i`: the outcomes of its pairs `(i, j)`, `j > i`
    /// ascending, swept for the current inputs (valid when `complete`):
    /// the live pairs that came due ([`PairSchedule`]); a pair not listed
    /// is certified apart for the step or until after the pass's event.
    pub(super) pairs: Vec<Vec<(usize, SweepOutcome<()>)>>,
    /// Every live pair by the end of its window ([`super::schedule`]).
    pub(super) schedule: PairSchedule,
    /// The members whose `pairs` list is not empty.
    pub(super) near: Vec<usize>,
    /// Per member: whether it is listed in `near`.
    pub(super) in_near: Vec<bool>,
    /// Per member: its certificate (`None`: none, its pairs and triangles
    /// are all live).
    pub(super) cert: Vec<Option<Cert>>,
    /// Per member: whether it took a new certificate in this pass (its
    /// pairs and triangles are decided again).
    pub(super) hard: Vec<bool>,
    /// The members with a new certificate in this pass, ascending.
    pub(super) hard_list: Vec<usize>,
    /// Per sphere member: the positions in its candidate list of the
    /// triangles no certificate shows apart (valid while its certificate
    /// stands and `tri_ready`).
    pub(super) tri_live: Vec<Vec<usize>>,
    /// Per member: whether `tri_live` is complete for its certificate.
    pub(super) tri_ready: Vec<bool>,
    /// Work counters of the sweep (pair and triangle sweeps run).
    pub(super) work: SweepWork,
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
        self.unchecked = n;
        for list in [&mut self.triangle, &mut self.pairs] {
            if list.len() < n {
                list.resize_with(n, Vec::new);
            }
            for l in list.iter_mut().take(n) {
                l.clear();
            }
        }
        if self.tri_live.len() < n {
            self.tri_live.resize_with(n, Vec::new);
        }
        for l in self.tri_live.iter_mut().take(n) {
            l.clear();
        }
        self.tri_ready.clear();
        self.tri_ready.resize(n, false);
        self.cert.clear();
        self.cert.resize(n, None);
        self.schedule.reset(n);
        self.near.clear();
        self.in_near.clear();
        self.in_near.resize(n, false);
        self.hard.clear();
        self.hard.resize(n, false);
        self.hard_list.clear();
        self.work = SweepWork::default();
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
/// member is checked once for the pass ([`CheckedSegment`]), pairs and
/// triangles that a certificate shows apart are not swept
/// ([`super::certify`]), pairs whose swept bounds miss are culled
/// ([`swept_bounds`]), and outcomes of members whose input did not change
/// since the previous pass are reused ([`PassMemo`]): the events are those
/// of [`earliest_exhaustive`], offered in the same order. When a member
/// fails its check the pass is [`earliest_exhaustive`], which refuses
/// exactly as without the cull.
///
/// `elapsed` (s) is the time since the step's start and `horizon` the
/// certificates' ([`super::certify::horizon`]). Only the members listed in
/// `moved` (any order, repeats allowed) may have a sweep input other than
/// at the previous call; the others are not looked at. Each member's best
/// event is kept between passes ([`member_best`]) until its input or a
/// pair of it changes, and the pass offers the members' best events in
/// member order: the earliest of a member's events is offered first among
/// its equals in the flat order, so the pass keeps the same event as
/// offering every event (`offer` keeps the first of equal events).
pub(super) fn earliest(
    states: &[State],
    statics: Statics<'_>,
    tau: f32,
    (elapsed, horizon): (f64, f64),
    memo: &mut PassMemo,
    moved: &mut Vec<usize>,
) -> Result<Option<Event>, CcdError> {
    // The certificates cover the rest of the step up to the horizon; a
    // pass beyond it (never within 2^14 passes) trusts none and makes none.
    let covered = elapsed + tau as f64 <= horizon;
    let span = horizon - elapsed;
    if !covered {
        memo.complete = false;
        for (c, ready) in memo.cert.iter_mut().zip(memo.tri_ready.iter_mut()) {
            *c = None;
            *ready = false;
        }
    }
    moved.sort_unstable();
    moved.dedup();
    memo.dirty_list.clear();
    memo.hard_list.clear();
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
        // Its certificate: kept while it stands, else a new one (none
        // beyond the horizon).
        let stands = covered && memo.cert[i].is_some_and(|c| c.stands(st, elapsed));
        if !stands {
            memo.cert[i] = covered.then(|| Cert::new(st, elapsed));
            memo.hard[i] = true;
            memo.hard_list.push(i);
            memo.tri_ready[i] = false;
        }
        member_triangles(states, statics, tau, (elapsed, span), memo, i);
    }
    let result = earliest_memo(states, statics, tau, (elapsed, span), memo);
    for &i in &memo.dirty_list {
        memo.dirty[i] = false;
        memo.hard[i] = false;
    }
    result
}

/// Member `i`'s triangle outcomes for this pass into `memo.triangle[i]`
/// (non-misses in candidate order, ending at the first refusal): every
/// candidate when its live list is not ready (a new certificate), else its
/// live candidates only; a sphere's candidate that its certificate shows
/// apart ([`triangle_apart`]) is left out of the live list.
fn member_triangles(
    states: &[State],
    statics: Statics<'_>,
    tau: f32,
    (elapsed, span): (f64, f64),
    memo: &mut PassMemo,
    i: usize,
) {
    let st = &states[i];
    memo.triangle[i].clear();
    if st.kinematic {
        return;
    }
    // A candidate that passed its own checks in a sphere's sweep (this
    // member's or another's: `checked_triangles`) and that this sphere's
    // path bounds miss is a miss (`TriangleCull`). (A sphere's pair member
    // is the sphere the triangle sweep takes: its check and bounds are the
    // cull's.)
    let cull = match (st.capsule, &memo.checked[i], memo.bounds[i]) {
        (false, Some(_), Some(bounds)) => Some(TriangleCull {
            center: promote(st.p),
            radius: st.radius as f64,
            bounds,
        }),
        _ => None,
    };
    // The certificate's path (spheres only).
    let path = match (st.capsule, memo.cert[i]) {
        (false, Some(c)) => Some(Path::of(st, &c, elapsed)),
        _ => None,
    };
    let full = !memo.tri_ready[i] || path.is_none();
    let mut live = std::mem::take(&mut memo.tri_live[i]);
    if full {
        // Read from the candidates; the live list is written afresh.
        live.clear();
    }
    let count = if full {
        st.candidates.len()
    } else {
        live.len()
    };
    // Keeps candidate position `k` live: in place when reading the live
    // list (`kept <= x`), appended when reading the candidates.
    let keep = |live: &mut Vec<usize>, kept: &mut usize, k: usize| {
        if *kept < live.len() {
            live[*kept] = k;
        } else {
            live.push(k);
        }
        *kept += 1;
    };
    let mut kept = 0usize;
    let mut refused = false;
    for x in 0..count {
        let k = if full { x } else { live[x] };
        let t = st.candidates[k].0;
        let tri = &statics.triangles[t];
        let checked_triangle = memo.checked_triangles.binary_search(&t);
        let apart = |checked: bool| checked && path.is_some_and(|p| triangle_apart(&p, tri, span));
        if full && apart(checked_triangle.is_ok()) {
            continue;
        }
        if cull.is_some_and(|c| checked_triangle.is_ok() && c.misses(tri)) {
            keep(&mut live, &mut kept, k);
            continue;
        }
        memo.work.triangle_sweeps += 1;
        let o = statics.sweep(st, st.sweep_v, tau, t, st.radius);
        refused = matches!(o, SweepOutcome::Refused(_));
        let mut now_checked = checked_triangle.is_ok();
        if let (false, false, Err(at)) = (refused, st.capsule, checked_triangle) {
            // The sphere sweep ran the triangle's checks and they passed
            // (a refusal is passed through by the seam admission).
            memo.checked_triangles.insert(at, t);
            now_checked = true;
        }
        let miss = matches!(o, SweepOutcome::Miss);
        if !miss {
            memo.triangle[i].push((t, o));
        }
        if refused {
            break;
        }
        if !(full && miss && apart(now_checked)) {
            keep(&mut live, &mut kept, k);
        }
    }
    live.truncate(kept);
    memo.tri_live[i] = live;
    // The live list is complete for this certificate unless a refusal cut
    // the loop (then the next pass looks at every candidate again).
    memo.tri_ready[i] = path.is_some() && !refused && (full || memo.tri_ready[i]);
    if !refused && full {
        memo.validated[i] = true;
    }
}

/// The pass of [`earliest`] once the changed members' entries are fresh.
pub(super) fn earliest_memo(
    states: &[State],
    statics: Statics<'_>,
    tau: f32,
    (elapsed, span): (f64, f64),
    memo: &mut PassMemo,
) -> Result<Option<Event>, CcdError> {
    let n = states.len();
    if memo.unchecked > 0 {
        memo.complete = false;
        return earliest_exhaustive(states, statics, tau, &mut memo.work);
    }
    update_pairs(states, (elapsed, span), memo);
    memo.complete = true;
    // The earliest event of the swept pairs and triangles, then the pairs
    // due by its time swept and the choice made again (it can only come
    // earlier, so no further pair comes due).
    let mut swept_due = false;
    loop {
        for &i in &memo.stale {
            if memo.best[i].is_none() {
                memo.best[i] = Some(member_best(states, i, &memo.triangle[i], &memo.pairs[i])?);
            }
        }
        let found = if n < TOURNAMENT_MIN_MEMBERS {
            // Few members: a scan (`offer` on references) costs less than
            // the tournament's upkeep, and chooses the same event.
            memo.stale.clear();
            let mut found: Option<&Event> = None;
            for e in memo.best.iter().take(n).flatten().flatten() {
                if found.is_none_or(|b| beats(e, b)) {
                    found = Some(e);
                }
            }
            found.copied()
        } else {
            memo.tournament.update(&memo.best, &memo.stale);
            memo.stale.clear();
            memo.tournament.winner(&memo.best).copied()
        };
        if swept_due {
            return Ok(found);
        }
        let share = found.map_or(1.0, |e| e.impact.time.clamp(0.0, 1.0));
        let until = elapsed + tau as f64 * share + WINDOW_PAD * (elapsed + span);
        if !sweep_due(states, (elapsed, span), memo, until) {
            return Ok(found);
        }
        swept_due = true;
    }
}

/// The pair sweep of members `i` and `j` from their checked segments (a
/// miss when either has none: the pass is then exhaustive), or a miss
/// without the sweep when their swept bounds miss (the pair cull).
fn sweep_live(memo: &mut PassMemo, i: usize, j: usize) -> SweepOutcome<()> {
    if !bounds_meet(&memo.bounds[i], &memo.bounds[j]) {
        return SweepOutcome::Miss;
    }
    match (&memo.checked[i], &memo.checked[j]) {
        (Some(a), Some(b)) => {
            memo.work.pair_sweeps += 1;
            map_pair(sweep_checked_pair(a, b))
        }
        _ => SweepOutcome::Miss,
    }
}

/// The window of the pair of members `i < j` ([`window`]): `None` when
/// the pair is not live (two kinematic spheres, or certified apart for the
/// rest of the step), else the end of the span over which its certificates
/// show it apart (`elapsed` when either has none).
fn pair_window(
    states: &[State],
    memo: &PassMemo,
    (elapsed, span): (f64, f64),
    i: usize,
    j: usize,
) -> Option<f64> {
    if memo.kinematic[i] && memo.kinematic[j] {
        return None;
    }
    match (&memo.cert[i], &memo.cert[j]) {
        (Some(a), Some(b)) => window(
            &Path::of(&states[i], a, elapsed),
            &Path::of(&states[j], b, elapsed),
            elapsed,
            span,
        ),
        _ => Some(elapsed),
    }
}

/// The schedule and the swept outcomes for this pass: every pair scheduled
/// again when the lists are not complete; else the outcomes with a changed
/// member forgotten and the pairs of the members with a new certificate
/// scheduled again. Every member whose list changed is marked stale.
/// `O(n)` per member with a new certificate and `O(k)` for `k` swept
/// outcomes kept from the previous pass (`O(n²)` when not complete).
fn update_pairs(states: &[State], (elapsed, span): (f64, f64), memo: &mut PassMemo) {
    let n = states.len();
    if !memo.complete {
        memo.schedule.reset(n);
        memo.near.clear();
        for i in 0..n {
            memo.pairs[i].clear();
            memo.in_near[i] = false;
            memo.best[i] = None;
            memo.stale.push(i);
            memo.work.pair_decisions += (n - i - 1) as u64;
            for j in i + 1..n {
                if let Some(end) = pair_window(states, memo, (elapsed, span), i, j) {
                    memo.schedule.insert(i, j, end);
                }
            }
        }
        return;
    }
    // Swept outcomes with a changed member are forgotten.
    if !memo.dirty_list.is_empty() {
        let PassMemo {
            near,
            in_near,
            pairs,
            dirty,
            best,
            stale,
            ..
        } = memo;
        near.retain(|&i| {
            let list = &mut pairs[i];
            let before = list.len();
            list.retain(|e| !(dirty[i] || dirty[e.0]));
            if list.len() != before {
                best[i] = None;
                stale.push(i);
            }
            in_near[i] = !list.is_empty();
            in_near[i]
        });
    }
    // The pairs of the members with a new certificate, scheduled again
    // (a member with a new certificate changed: its outcomes are gone).
    for x in 0..memo.hard_list.len() {
        let j = memo.hard_list[x];
        memo.schedule.remove_member(j);
    }
    for x in 0..memo.hard_list.len() {
        let j = memo.hard_list[x];
        for k in 0..n {
            if k == j || (memo.hard[k] && k < j) {
                continue;
            }
            let (lo, hi) = (j.min(k), j.max(k));
            memo.work.pair_decisions += 1;
            if let Some(end) = pair_window(states, memo, (elapsed, span), lo, hi) {
                memo.schedule.insert(lo, hi, end);
            }
        }
    }
}

/// Sweeps every scheduled pair whose window ends by `until` (s) and has no
/// swept outcome for the current inputs; a due pair whose window ended
/// before `elapsed` is scheduled again from now first (and is swept only if
/// still due). Returns whether any pair was swept. `O(d log L)` for `d` due
/// pairs of `L` scheduled.
fn sweep_due(
    states: &[State],
    (elapsed, span): (f64, f64),
    memo: &mut PassMemo,
    until: f64,
) -> bool {
    let due = memo.schedule.due(until).to_vec();
    let mut swept = false;
    memo.work.pair_decisions += due.len() as u64;
    for (i, j, end) in due {
        if end < elapsed {
            memo.schedule.remove(i, j, end);
            match pair_window(states, memo, (elapsed, span), i, j) {
                Some(next) => {
                    memo.schedule.insert(i, j, next);
                    if !(next <= until) {
                        continue;
                    }
                }
                None => continue,
            }
        }
        let at = match memo.pairs[i].binary_search_by_key(&j, |e| e.0) {
            Ok(_) => continue,
            Err(at) => at,
        };
        let o = sweep_live(memo, i, j);
        memo.pairs[i].insert(at, (j, o));
        if !memo.in_near[i] {
            memo.in_near[i] = true;
            memo.near.push(i);
        }
        memo.best[i] = None;
        memo.stale.push(i);
        swept = true;
    }
    swept
}
