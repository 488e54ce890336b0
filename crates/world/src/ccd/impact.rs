//! The strike of an event: which bodies and contact points take part, the
//! one impulse routine of the solver, and the new motions.
//!
//! # Method
//! A bouncing impact is the pair's contact points at the event's instant
//! ([`super::contact::event_points`]), struck in turn as they come (an
//! elastic stack bounces, a Newton's cradle passes its impulse on), unless
//! the pair was struck twice at that same instant already (it is pressed
//! between others: it gathers as below). A
//! plastic impact — a *cascade* when it reaches further: a body landing on
//! a resting stack, a body wedged between two others — gathers every contact touching at that instant among the
//! movers the event's movers reach through touching contacts (breadth first
//! over their pairs, in pair order, at most [`CLUSTER_CONTACTS`] more), with
//! the obstacles and static bodies they touch, and solves them together: one call of
//! `parapet_solver::impact::respond_contacts`, which conserves momentum,
//! never adds energy and leaves no contact closing. A gathered pair struck
//! at that instant already brings its speculative points, and one whose
//! own hit is at that instant its witness. Every mover of the
//! event is charged one impact (`ccd_max_impacts`) and leaves its path at
//! that instant with its new velocities; obstacles keep theirs.
//!
//! A *pressed* pair (`super::run::Pair::pressed`: struck again at its
//! held floor in the step, turned back into contact by its bodies' motions
//! or its neighbours' strikes) leaves at a *leaving speed* in every strike
//! that takes it (`leaving_speed` of its `closing_acceleration`), so
//! that it stays apart for the rest of the step instead of taking a strike
//! every few hundred micrometres; what the leaving speeds add is bounded by
//! what the island's strikes took so far in the step (`leave_energy`),
//! unbounded against a kinematic or discrete pusher.
//!
//! # Source
//! docs/continuous-collision.md, "How a step works" and "Moving groups"
//! (cascades); Mirtich and Canny (1995) for micro-collisions that leave at
//! a speed set by the contact's acceleration.
//!
//! # Precision domain
//! The solver's (`f64`, refusing values `f32` cannot hold).

use parapet_math::Vec3d;
use parapet_narrow::moving::Hit;
use parapet_solver::impact::{respond_contacts, ImpactBody, ImpactContact, SPEED_ROUNDING};

use super::bodies::LastContact;
use super::contact::{event_points, mixed, EventPoint, MANIFOLD_MARGIN};
use super::error::CcdError;
use super::policy::Role;
use super::pressed::{closing_acceleration, leaving_speed, turns_normal};
use super::run::{Impact, Island};

/// The event's contacts: for each, the pair it belongs to and the point.
type Contacts = Vec<(usize, EventPoint)>;

/// The largest margin (m) of an event pair's speculative points, as a
/// multiple of the pair's held depth: 16. Beyond it a point is far enough
/// for its own event.
pub const SPECULATIVE_HELD_DEPTHS: f64 = 16.0;

/// The margin (m) within which pair `p`'s points join its strike at step
/// time `t` as speculative points: how far any of its points can move
/// relative to the other body in the rest of the step, at most
/// [`SPECULATIVE_HELD_DEPTHS`] held depths. A face rotating onto a surface
/// about the corner struck first is then stopped in the same strike,
/// instead of by a string of strikes as its contact slides along it.
fn speculative_margin(island: &Island<'_, '_>, p: usize, t: f64) -> f64 {
    let pair = &island.pairs[p];
    let remaining = (island.ctx.dt - t).max(0.0);
    let travel = island.relative_speed(p) * remaining;
    travel.min(SPECULATIVE_HELD_DEPTHS * pair.lengths.held)
}

/// The most contacts an event gathers beyond its own pair's (count): 64.
/// A strike solves every contact touching at its instant among the bodies
/// it reaches, so that a body wedged between two others, or landing on a
/// resting stack, takes its impulses at once instead of ping-ponging; the
/// gathering stops at this many (contacts beyond it are struck by later
/// events, as sequential impacts).
pub const CLUSTER_CONTACTS: usize = 64;

/// The bodies and contacts of the event of pair `p` at step time `t`
/// (module docs): local body indices, the contacts of each pair.
fn gather(
    island: &Island<'_, '_>,
    p: usize,
    t: f64,
    hit: &Hit,
    margin: f64,
) -> (Vec<usize>, Contacts) {
    let points_of = |q: usize, hit: Option<&Hit>, margin: f64| {
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
    // A pair struck again in the same step is in persistent contact (a face
    // rotating onto a surface, a body scraping along it): its strike takes
    // its speculative points too.
    let speculative = if pair.strikes > 0 {
        speculative_margin(island, p, t).max(margin)
    } else {
        margin
    };
    let mut contacts: Contacts = points_of(p, Some(hit), speculative)
        .into_iter()
        .map(|c| (p, c))
        .collect();
    let own = contacts.len();
    // A bouncing impact stays sequential (an elastic stack, a Newton's
    // cradle: each contact takes its impulse in turn); a plastic one
    // gathers the contacts touching then (a stack settles at once, a wedged
    // body takes both sides' impulses together).
    // A bouncing pair struck a third time at the same instant is pressed
    // between others (a row of dominoes pushed by a box): taken in turn
    // its impulses would ping-pong along the row at that instant, so it
    // gathers like a plastic one. (Twice is an elastic column's exchange,
    // down and back up.)
    let (a, b) = (&island.bodies[pair.a], &island.bodies[pair.b]);
    // So does a pair found pressed (`Pair::pressed`: struck again at its
    // floor, or pushed back by its neighbours): a walker wedged between two
    // cars, taken one side at a time, is struck back and forth at every
    // instant.
    let pressed = pair.pressed || (pair.last_strike == Some(t) && pair.instant_strikes >= 2);
    if a.material.mix(&b.material).restitution > 0.0 && !pressed {
        return (members, contacts);
    }
    // Struck by a static body, a body takes its other static surfaces in
    // turn (ties go to the first); struck by anything that moves, it brings
    // every surface it touches (a body pinned by a kinematic one against
    // the floor: no impulse opens both, and the event says so).
    let by_mover = b.role != Role::Fixed;
    let mut seen_pairs = vec![p];
    let mut next = 0;
    while next < members.len() && contacts.len() < own + CLUSTER_CONTACTS {
        let m = members[next];
        next += 1;
        if !island.bodies[m].role.is_mover() {
            continue;
        }
        for &q in &island.pairs_of[m] {
            if seen_pairs.contains(&q) || contacts.len() >= own + CLUSTER_CONTACTS {
                continue;
            }
            // A body struck by a surface takes its other surfaces in turn (a
            // tie between two triangles goes to the first, the second then
            // no longer closes); two bodies struck together bring theirs,
            // and so does every body the event reaches (the floor under a
            // struck stack).
            let qp = &island.pairs[q];
            let other = if qp.a == m { qp.b } else { qp.a };
            if next <= 2 && !by_mover && !island.bodies[other].role.is_mover() {
                continue;
            }
            seen_pairs.push(q);
            // A pair struck at this instant already brings its speculative
            // points too, as its own strikes did: two events at one instant
            // then solve the same contacts instead of ping-ponging.
            let reach = if island.pairs[q].last_strike == Some(t) {
                speculative_margin(island, q, t).max(margin)
            } else {
                margin
            };
            // A pair whose own hit is at this instant brings its witness
            // (the arbiter's point, which the discrete test may not find).
            let own_hit = island.pairs[q].hit.filter(|_| island.pairs[q].hit_at == t);
            let points = points_of(q, own_hit.as_ref(), reach);
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

impl Island<'_, '_> {
    /// The closing acceleration (m/s², `closing_acceleration`) of pair
    /// `p`'s hit at step time `t`, at its surface points' cores.
    pub(crate) fn hit_acceleration(&self, p: usize, t: f64, hit: &Hit) -> f64 {
        let pair = &self.pairs[p];
        let (a, b) = (&self.bodies[pair.a], &self.bodies[pair.b]);
        let core_a = hit.point_a - hit.normal * a.skin - a.center_at(t);
        let core_b = hit.point_b + hit.normal * b.skin - b.center_at(t);
        closing_acceleration(
            (&a.impact_body(t), &core_a, turns_normal(a)),
            (&b.impact_body(t), &core_b, turns_normal(b)),
            &hit.normal,
        )
    }

    /// Strikes the event of pair `p` at step time `t` (module docs): the
    /// local movers it struck (those whose velocities the impulses
    /// changed), empty when nothing closes there. The touching points of
    /// a pressed pair (`Pair::pressed`) leave at least at their leaving
    /// speed (`leaving_speed`).
    ///
    /// # Errors
    /// [`CcdError::ImpactLimit`] for a mover charged beyond
    /// `ccd_max_impacts`; the solver's refusals
    /// ([`CcdError::from_impact`]).
    pub(crate) fn strike(
        &mut self,
        p: usize,
        t: f64,
        hit: &Hit,
        margin: f64,
    ) -> Result<Vec<usize>, CcdError> {
        strike_event(self, p, t, hit, margin)
    }
}

/// The kinetic energy (J) the leaving speeds of an event among `bodies`
/// with `contacts` may add: the island's credit (what its strikes took so
/// far in the step); and no bound when a pressed pair's other side is a
/// moving obstacle (a kinematic driver, a discrete body), which does work
/// on what it pushes whatever the strike; and for a pair sinking at its
/// promised depth, the energy of every body of the event at its promise's
/// leaving speed (`½ Σ m L²`: small, twice a sinking speed).
fn leave_energy(island: &Island<'_, '_>, bodies: &[ImpactBody], contacts: &Contacts) -> f64 {
    let pushed = contacts.iter().any(|(q, _)| {
        let pair = &island.pairs[*q];
        pair.pressed
            && [pair.a, pair.b]
                .iter()
                .any(|&x| matches!(island.bodies[x].role, Role::Obstacle { .. }))
    });
    if pushed {
        return f64::INFINITY;
    }
    let promise = contacts
        .iter()
        .map(|(q, _)| island.pairs[*q].promise_leave)
        .fold(0.0f64, f64::max);
    let mass: f64 = bodies
        .iter()
        .filter(|b| b.mass.inverse_mass > 0.0)
        .map(|b| 1.0 / b.mass.inverse_mass)
        .sum();
    island.energy_credit + 0.5 * mass * promise * promise
}

/// [`Island::strike`]: the island's event `p` gathered, solved and recorded.
fn strike_event(
    island: &mut Island<'_, '_>,
    p: usize,
    t: f64,
    hit: &Hit,
    margin: f64,
) -> Result<Vec<usize>, CcdError> {
    let (members, contacts) = gather(island, p, t, hit, margin);
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
            let (arm_a, arm_b) = (c.point - a.center_at(t), c.point - b.center_at(t));
            let (ia, ib) = (index_of(pair.a), index_of(pair.b));
            let core_a = arm_a + c.normal * a.skin;
            let core_b = arm_b - c.normal * b.skin;
            let pressing = closing_acceleration(
                (&bodies[ia], &core_a, turns_normal(a)),
                (&bodies[ib], &core_b, turns_normal(b)),
                &c.normal,
            );
            let remaining = (island.ctx.dt - t).max(f64::MIN_POSITIVE);
            let allowed_closing = if c.gap > MANIFOLD_MARGIN {
                c.gap / remaining
            } else {
                0.0
            };
            let held = pair.lengths.held;
            ImpactContact {
                a: ia,
                b: Some(ib),
                arm_a,
                arm_b,
                normal: c.normal,
                material: mixed(&a.material, &b.material),
                separation: (2.0 * held * pressing).sqrt(),
                leave: match (pair.pressed, allowed_closing == 0.0) {
                    (true, true) => {
                        leaving_speed(held, pressing, remaining).max(pair.promise_leave)
                    }
                    (false, true) => pair.promise_leave,
                    _ => 0.0,
                },
                allowed_closing,
            }
        })
        .collect();
    let first = members
        .iter()
        .filter(|&&m| island.bodies[m].role.is_mover())
        .map(|&m| (island.bodies[m].order, island.bodies[m].slot))
        .min()
        .map_or(island.bodies[island.pairs[p].a].slot, |(_, s)| s);
    let Some(response) = respond_contacts(
        &bodies,
        &impact_contacts,
        leave_energy(island, &bodies, &contacts),
    )
    .map_err(|e| CcdError::from_impact(first, e))?
    else {
        return Ok(Vec::new());
    };
    record(
        island,
        t,
        &contacts,
        &response.impulses,
        &response.normal_impulses,
    )?;
    island.outcome.counts.impacts += 1;
    island.energy_credit = (island.energy_credit - response.energy_change).max(0.0);
    if members.len() > 2 {
        island.outcome.counts.cascades += 1;
    }
    // Charge and move every mover whose velocities changed, in insertion
    // order.
    let mut movers: Vec<(usize, usize)> = members
        .iter()
        .enumerate()
        .filter(|(i, &m)| {
            island.bodies[m].role.is_mover()
                && response.velocities[*i] != (bodies[*i].velocity, bodies[*i].spin)
        })
        .map(|(i, &m)| (i, m))
        .collect();
    movers.sort_by_key(|&(_, m)| island.bodies[m].order);
    let limit = island.ctx.max_impacts;
    let mut struck = Vec::with_capacity(movers.len());
    for (i, m) in movers {
        let body = &mut island.bodies[m];
        if body.impacts >= limit {
            return Err(CcdError::ImpactLimit {
                body: body.slot,
                impacts: body.impacts,
                limit,
            });
        }
        body.impacts += 1;
        let (v, w) = response.velocities[i];
        body.strike(t, v, w);
        body.last_impact = t;
        body.last_contact = last_contact(i, &impact_contacts, &bodies, &response.velocities);
        struck.push(m);
    }
    // Each pair that took an impulse notes its bodies' impacts now, so
    // that a later hit can tell whether another strike moved them since.
    for (q, _) in &contacts {
        let pair = &island.pairs[*q];
        let mark = island.bodies[pair.a].impacts + island.bodies[pair.b].impacts;
        island.pairs[*q].impacts_mark = mark;
    }
    Ok(struck)
}

/// The first touching contact of body `i` among `contacts` (speculative
/// ones left out), with the velocities after the event, as the body's
/// [`LastContact`]. A normal speed left below the rounding floor of the
/// point's speeds before and after ([`SPEED_ROUNDING`]) is the `f64`
/// residue of a plastic contact: its target is 0.
fn last_contact(
    i: usize,
    contacts: &[ImpactContact],
    before: &[ImpactBody],
    velocities: &[(Vec3d, Vec3d)],
) -> Option<LastContact> {
    // A speculative contact (still apart, allowed to close by its gap over
    // the rest of the step) may be left closing: its normal speed is no
    // target for the write-back's rounding correction.
    let c = contacts
        .iter()
        .find(|c| (c.a == i || c.b == Some(i)) && c.allowed_closing == 0.0)?;
    let (sign, arm, other, other_arm) = if c.a == i {
        (1.0, c.arm_a, c.b, c.arm_b)
    } else {
        (-1.0, c.arm_b, Some(c.a), c.arm_a)
    };
    let normal = c.normal * sign;
    let (v, w) = velocities[i];
    let other = other.map_or(Vec3d::zeros(), |o| {
        let (vo, wo) = velocities[o];
        vo + wo.cross(&other_arm)
    });
    let relative = v + w.cross(&arm) - other;
    let b = &before[i];
    let speeds = relative.norm() + (b.velocity + b.spin.cross(&arm)).norm();
    let target = normal.dot(&relative);
    let target = if target > SPEED_ROUNDING * speeds {
        target
    } else {
        0.0
    };
    Some(LastContact {
        normal,
        arm,
        other,
        target,
    })
}

/// Records one impact per pair of the event that took an impulse, in the
/// order the pairs came: the total impulse on A, the normal-impulse
/// weighted mean of the pair's points, the normal of its first point.
///
/// # Errors
/// [`CcdError::NotRepresentable`] (naming the pair's body A) where a
/// pair's total impulse is beyond `f32`, which its contact event carries:
/// each point's impulse fits (the solver refuses otherwise), their sum may
/// not. Every pair is checked before any is recorded.
fn record(
    island: &mut Island<'_, '_>,
    t: f64,
    contacts: &Contacts,
    impulses: &[Vec3d],
    normal_impulses: &[f64],
) -> Result<(), CcdError> {
    let mut pairs: Vec<usize> = Vec::new();
    for (q, _) in contacts {
        if !pairs.contains(q) {
            pairs.push(*q);
        }
    }
    let mut sums = Vec::with_capacity(pairs.len());
    for &q in &pairs {
        let points = contacts
            .iter()
            .zip(impulses)
            .filter(|((pq, _), _)| *pq == q);
        // The event's normal: its first point's (as recorded below).
        let normal = contacts
            .iter()
            .find(|(pq, _)| *pq == q)
            .map_or(Vec3d::zeros(), |(_, c)| c.normal);
        let body = island.bodies[island.pairs[q].a].slot;
        sums.push(event_impulse(body, &normal, points.map(|(_, j)| j))?);
    }
    for (q, impulse) in pairs.into_iter().zip(sums) {
        let mut weighted = Vec3d::zeros();
        let mut total = 0.0;
        let mut first: Option<EventPoint> = None;
        for (k, (pq, c)) in contacts.iter().enumerate() {
            if *pq != q {
                continue;
            }
            first.get_or_insert(*c);
            weighted += c.point * normal_impulses[k];
            total += normal_impulses[k];
        }
        let (Some(first), true) = (first, total > 0.0) else {
            continue;
        };
        let pair = &mut island.pairs[q];
        pair.strikes += 1;
        pair.instant_strikes = if pair.last_strike == Some(t) {
            pair.instant_strikes + 1
        } else {
            1
        };
        pair.last_strike = Some(t);
        let pair = &island.pairs[q];
        let record = Impact {
            time: t,
            a: island.global[pair.a],
            b: island.global[pair.b],
            point: weighted / total,
            normal: first.normal,
            impulse,
        };
        island.outcome.impacts.push(record);
    }
    Ok(())
}

/// The sum of a pair's point impulses on body A (slot `body`), refused
/// with [`CcdError::NotRepresentable`] where `f32`, in which the pair's
/// contact event reports it, cannot hold a component of it or of its part
/// along the event's unit `normal` (what the event reports, whose
/// components can exceed the sum's largest).
fn event_impulse<'a>(
    body: usize,
    normal: &Vec3d,
    impulses: impl Iterator<Item = &'a Vec3d>,
) -> Result<Vec3d, CcdError> {
    let sum: Vec3d = impulses.sum();
    let along = normal * normal.dot(&sum);
    for v in [sum, along] {
        if let Some(k) = v.cast::<f32>().iter().position(|x| !x.is_finite()) {
            return Err(CcdError::NotRepresentable {
                body,
                quantity: "event impulse",
                value: v[k],
            });
        }
    }
    Ok(sum)
}

#[cfg(test)]
mod tests {
    use super::*;
    use parapet_geometry::Material;
    use parapet_math::Mat3d;
    use parapet_solver::impact::ImpactMass;

    fn contact(arm: Vec3d, normal: Vec3d, allowed_closing: f64) -> ImpactContact {
        ImpactContact {
            a: 0,
            b: None,
            arm_a: arm,
            arm_b: Vec3d::zeros(),
            normal,
            material: Material::default(),
            separation: 0.0,
            leave: 0.0,
            allowed_closing,
        }
    }

    /// The write-back's target is a touching contact's, never a
    /// speculative one's (still apart, allowed to close: left closing, its
    /// normal speed would steer the stored velocity into it). Found by the
    /// property tests: two spinning boxes changed their momentum by 41 of
    /// 44 kg m/s in one step.
    #[test]
    fn the_last_contact_is_a_touching_one_never_a_speculative_one() {
        let body = ImpactBody {
            mass: ImpactMass {
                inverse_mass: 1.0,
                inverse_inertia: Mat3d::identity(),
            },
            velocity: Vec3d::zeros(),
            spin: Vec3d::zeros(),
        };
        // The body leaves the touching floor at 0.5 m/s and still closes on
        // a speculative wall at 2 m/s.
        let velocities = [(Vec3d::new(-2.0, 0.0, 0.5), Vec3d::zeros())];
        let wall = contact(Vec3d::new(-0.5, 0.0, 0.0), Vec3d::x(), 3.0);
        let floor = contact(Vec3d::new(0.0, 0.0, -0.5), Vec3d::z(), 0.0);
        let last = last_contact(0, &[wall, floor], &[body], &velocities).unwrap();
        assert_eq!(
            (last.normal, last.arm),
            (Vec3d::z(), Vec3d::new(0.0, 0.0, -0.5))
        );
        assert_eq!(last.target, 0.5);
        // With only the speculative one, there is none.
        assert!(last_contact(0, &[wall], &[body], &velocities).is_none());
    }

    /// Two point impulses that each fit `f32` (the solver refuses any that
    /// does not) can sum to one that does not: the event, which reports
    /// the sum in `f32`, is refused naming the body and the sum, not
    /// reported as infinite.
    #[test]
    fn an_event_impulse_beyond_f32_is_refused_not_reported_infinite() {
        let near_max = Vec3d::new(3.0e38, -1.0, 0.0);
        assert_eq!(
            event_impulse(7, &Vec3d::x(), [near_max].iter()).unwrap(),
            near_max,
            "one point at 3e38 kg m/s fits f32 (max 3.40e38)"
        );
        match event_impulse(7, &Vec3d::x(), [near_max, near_max].iter()) {
            Err(CcdError::NotRepresentable {
                body,
                quantity,
                value,
            }) => assert_eq!((body, quantity, value), (7, "event impulse", 6.0e38)),
            other => panic!("expected a NotRepresentable refusal, got {other:?}"),
        }
    }

    /// The event reports the impulse's part along its normal, whose
    /// components can exceed the impulse's: 3e38 kg m/s on two axes, along
    /// a normal at 67.5° from the first, has a second component of
    /// 3e38 (1 + √2) / 2 = 3.62e38, beyond `f32` (3.40e38).
    #[test]
    fn an_event_impulse_whose_normal_part_is_beyond_f32_is_refused() {
        let j = Vec3d::new(3.0e38, 3.0e38, 0.0);
        let angle = 67.5f64.to_radians();
        let tilted = Vec3d::new(angle.cos(), angle.sin(), 0.0);
        assert!(event_impulse(3, &Vec3d::z(), [j].iter()).is_ok());
        match event_impulse(3, &tilted, [j].iter()) {
            Err(CcdError::NotRepresentable { body, value, .. }) => {
                assert_eq!(body, 3);
                assert!(value > f32::MAX as f64, "{value}");
            }
            other => panic!("expected a NotRepresentable refusal, got {other:?}"),
        }
    }
}
