//! The strike of an event: which bodies and contact points take part, the
//! one impulse routine of the solver, and the new motions.
//!
//! # Method
//! A single impact is the pair's contact points at the event's instant
//! ([`super::contact::event_points`]). A *cascade* — a second impact of a
//! mover at the same instant, a body landing on a resting stack — gathers
//! every contact touching at that instant among the movers the event's
//! movers reach through touching contacts (breadth first over their pairs,
//! in pair order), with the obstacles and static bodies they touch, and
//! solves them together: one call of
//! `parapet_solver::impact::respond_contacts`, which conserves momentum,
//! never adds energy and leaves no contact closing. Every mover of the
//! event is charged one impact (`ccd_max_impacts`) and leaves its path at
//! that instant with its new velocities; obstacles keep theirs.
//!
//! # Source
//! docs/continuous-collision.md, "How a step works" and "Moving groups"
//! (cascades).
//!
//! # Precision domain
//! The solver's (`f64`, refusing values `f32` cannot hold).

use parapet_math::Vec3d;
use parapet_narrow::moving::Hit;
use parapet_solver::impact::{respond_contacts, ImpactBody, ImpactContact};

use super::contact::{event_points, mixed, EventPoint};
use super::error::CcdError;
use super::run::{Impact, Island};

/// The event's contacts: for each, the pair it belongs to and the point.
type Contacts = Vec<(usize, EventPoint)>;

/// The bodies and contacts of the event of pair `p` at step time `t`
/// (module docs): local body indices, the contacts of each pair.
fn gather(
    island: &Island<'_, '_>,
    p: usize,
    t: f64,
    hit: &Hit,
    margin: f64,
) -> (Vec<usize>, Contacts) {
    let points_of = |q: usize, hit: Option<&Hit>| {
        let pair = &island.pairs[q];
        let (ga, gb) = (island.global[pair.a], island.global[pair.b]);
        event_points(
            (&island.bodies[pair.a], island.ctx.rigid[ga]),
            (&island.bodies[pair.b], island.ctx.rigid[gb]),
            t,
            margin,
            hit,
        )
    };
    let pair = &island.pairs[p];
    let mut members = vec![pair.a, pair.b];
    let mut contacts: Contacts = points_of(p, Some(hit))
        .into_iter()
        .map(|c| (p, c))
        .collect();
    let cascade = [pair.a, pair.b].iter().any(|&x| {
        let b = &island.bodies[x];
        b.role.is_mover() && b.last_impact == t
    });
    if !cascade {
        return (members, contacts);
    }
    let mut seen_pairs = vec![p];
    let mut next = 0;
    while next < members.len() {
        let m = members[next];
        next += 1;
        if !island.bodies[m].role.is_mover() {
            continue;
        }
        for &q in &island.pairs_of[m] {
            if seen_pairs.contains(&q) {
                continue;
            }
            seen_pairs.push(q);
            let points = points_of(q, None);
            if points.is_empty() {
                continue;
            }
            let qp = &island.pairs[q];
            for x in [qp.a, qp.b] {
                if !members.contains(&x) {
                    members.push(x);
                }
            }
            contacts.extend(points.into_iter().map(|c| (q, c)));
        }
    }
    (members, contacts)
}

/// Strikes the event of pair `p` at step time `t` (module docs): the local
/// movers it struck, empty when nothing closes there.
///
/// # Errors
/// [`CcdError::ImpactLimit`] for a mover charged beyond
/// `ccd_max_impacts`; the solver's refusals
/// ([`CcdError::from_impact`]).
pub(crate) fn strike(
    island: &mut Island<'_, '_>,
    p: usize,
    t: f64,
    hit: &Hit,
    margin: f64,
) -> Result<Vec<usize>, CcdError> {
    let (members, contacts) = gather(island, p, t, hit, margin);
    if members.len() > 2 {
        island.outcome.counts.cascades += 1;
    }
    let index_of = |x: usize| members.iter().position(|&m| m == x).unwrap_or(0);
    let bodies: Vec<ImpactBody> = members
        .iter()
        .map(|&m| island.bodies[m].impact_body(t))
        .collect();
    let impact_contacts: Vec<ImpactContact> = contacts
        .iter()
        .map(|(q, c)| {
            let pair = &island.pairs[*q];
            let (a, b) = (&island.bodies[pair.a], &island.bodies[pair.b]);
            ImpactContact {
                a: index_of(pair.a),
                b: Some(index_of(pair.b)),
                arm_a: c.point - a.center_at(t),
                arm_b: c.point - b.center_at(t),
                normal: c.normal,
                material: mixed(&a.material, &b.material),
            }
        })
        .collect();
    let first = members
        .iter()
        .filter(|&&m| island.bodies[m].role.is_mover())
        .map(|&m| (island.bodies[m].order, island.bodies[m].slot))
        .min()
        .map_or(island.bodies[island.pairs[p].a].slot, |(_, s)| s);
    let Some(response) =
        respond_contacts(&bodies, &impact_contacts).map_err(|e| CcdError::from_impact(first, e))?
    else {
        return Ok(Vec::new());
    };
    island.outcome.counts.impacts += 1;
    // One impact record per pair, in the order the pairs came.
    let mut pairs_seen: Vec<usize> = Vec::new();
    for (k, (q, c)) in contacts.iter().enumerate() {
        let j = response.impulses[k];
        let at = match pairs_seen.iter().position(|&s| s == *q) {
            Some(at) => at,
            None => {
                pairs_seen.push(*q);
                let pair = &island.pairs[*q];
                island.outcome.impacts.push(Impact {
                    time: t,
                    a: island.global[pair.a],
                    b: island.global[pair.b],
                    point: Vec3d::zeros(),
                    normal: c.normal,
                    impulse: Vec3d::zeros(),
                });
                pairs_seen.len() - 1
            }
        };
        let record = island.outcome.impacts.len() - pairs_seen.len() + at;
        let r = &mut island.outcome.impacts[record];
        r.impulse += j;
        // The point: the normal-impulse-weighted mean of the pair's points.
        r.point += c.point * response.normal_impulses[k];
    }
    let start = island.outcome.impacts.len() - pairs_seen.len();
    for (at, q) in pairs_seen.iter().enumerate() {
        let total: f64 = contacts
            .iter()
            .zip(&response.normal_impulses)
            .filter(|((pq, _), _)| pq == q)
            .map(|(_, l)| *l)
            .sum();
        let r = &mut island.outcome.impacts[start + at];
        if total > 0.0 {
            r.point /= total;
        } else {
            let first = contacts
                .iter()
                .find(|(pq, _)| pq == q)
                .map(|(_, c)| c.point);
            r.point = first.unwrap_or(hit.point);
        }
    }
    // Charge and move every mover of the event, in insertion order.
    let mut movers: Vec<(usize, usize)> = members
        .iter()
        .enumerate()
        .filter(|(_, &m)| island.bodies[m].role.is_mover())
        .map(|(i, &m)| (i, m))
        .collect();
    movers.sort_by_key(|&(_, m)| island.bodies[m].order);
    let limit = island.ctx.max_impacts;
    let mut struck = Vec::with_capacity(movers.len());
    for (i, m) in movers {
        let body = &mut island.bodies[m];
        body.impacts += 1;
        if body.impacts > limit {
            return Err(CcdError::ImpactLimit {
                body: body.slot,
                impacts: body.impacts,
                limit,
            });
        }
        let (v, w) = response.velocities[i];
        body.strike(t, v, w);
        body.last_impact = t;
        struck.push(m);
    }
    Ok(struck)
}
