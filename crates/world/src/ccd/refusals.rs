//! The policy's decisions after the contact solve ([`settle`]): the regions
//! and groups of the movers ([`super::regions`]), the `Auto` movers that
//! share a group with a continuous dynamic body (resolved `Continuous`),
//! and every refusal of the step's support and reach rules, one per body.
//!
//! # Method
//! A group is swept when it holds a continuous dynamic body; its discrete
//! members are swept with it as obstacles (never refused: when one's group
//! region is beyond the reach limit, the group's continuous dynamic members
//! are refused, naming it). A fixed body ([`super::policy::Class::Fixed`])
//! is tested against every continuous body's region (its group region when
//! it shares a group): a continuous dynamic body that can reach a fixed
//! discrete body is refused, naming it; a fixed `Auto` body that can reach a
//! continuous body is resolved `Continuous` and refused (by the support rules'
//! refusal, or as a body that cannot share a group). The candidate pairs come
//! from a sweep along x over the regions' bounds (`O((F + C) log(F + C))`
//! plus the candidates), each tested exactly ([`super::reach::overlaps`]).
//!
//! The refusals of one grouping are taken together; each refused body then
//! leaves the grouping (it is neither a mover nor an obstacle of the others:
//! what it would be once the user changes it is not known) and the rest is
//! grouped again, until a grouping refuses nobody. A refusal of the
//! grouping itself (a reach limit, a body that cannot share a group) names
//! one body and is taken alone. The first grouping is the step's own when
//! nothing is refused, so a world without a refusal pays for one grouping
//! and the linear tests.
//!
//! # Source
//! docs/continuous-collision.md, "Choosing per body" and "Moving groups".
//!
//! # Precision domain
//! The regions' ([`super::regions`], [`super::policy::fixed_reach`]); the
//! sweep along x widens every bound by a relative `1e-9`, far above the
//! roundoff of one coordinate, so it misses no pair that the exact test
//! accepts.

use parapet_solver::RigidBody;

use super::error::{CcdError, UnsupportedReason};
use super::plan::CcdPlan;
use super::policy::{fixed_reach, Class};
use super::policy_scratch::PolicyScratch;
use super::reach::check_reach;
use super::regions::{fill_regions, Regions};
use super::scratch::CcdScratch;
use super::support::Role;

/// The bodies of one world as the policy reads them: the insertion order of
/// the slots and the body in a slot.
pub(crate) struct Bodies<'a> {
    /// Live slots in insertion order.
    pub(crate) order: &'a [u32],
    /// The body in a slot (`None` for a free slot).
    pub(crate) body: &'a dyn Fn(usize) -> Option<&'a RigidBody>,
}

impl<'a> Bodies<'a> {
    /// Every body (slot, body) in insertion order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = (usize, &'a RigidBody)> + '_ {
        self.order
            .iter()
            .filter_map(|&s| (self.body)(s as usize).map(|b| (s as usize, b)))
    }
}

/// Why a fixed body cannot be swept with a continuous body (the reason's
/// `why`).
fn why_fixed(plan: &CcdPlan, slot: usize, body: &RigidBody) -> &'static str {
    match plan.role(slot) {
        Some(Role::Turning(_)) | Some(Role::Swept(_)) => {
            "it cannot share a group: a turning body, box or hull"
        }
        _ if body.kind() == parapet_solver::BodyKind::Static => "it is a static primitive",
        _ => "it is outside the support rules or the precision limits",
    }
}

/// Settles the policy after the contact solve (see the module docs): the
/// final grouping is left in `scratch` (read it with [`Regions::of`]), the
/// `Auto` movers it resolves are marked `Continuous` in `plan`, and every
/// refusal goes onto `refusals` (the refused bodies are marked
/// [`Class::Refused`]).
pub(crate) fn settle(
    bodies: &Bodies<'_>,
    plan: &mut CcdPlan,
    dt: f32,
    max_impacts: u32,
    scratch: &mut CcdScratch,
    refusals: &mut Vec<CcdError>,
) {
    let mut pol = std::mem::take(&mut scratch.policy);
    loop {
        if let Err(e) = fill_regions(bodies.iter(), plan, dt, max_impacts, scratch) {
            let slot = e.body();
            let mover = matches!(
                plan.class(slot),
                Class::Continuous { .. } | Class::Mover { .. }
            );
            plan.set_class(slot, Class::Refused);
            refusals.push(e);
            if mover {
                continue;
            }
            // Not reached (the grouping refuses only its movers), but a
            // refusal that removes nobody must not group again.
            break;
        }
        check(bodies, plan, dt, &Regions::of(scratch), &mut pol);
        if pol.found.is_empty() {
            let movers = &scratch.movers;
            for (m, &p) in movers.iter().zip(&pol.promoted) {
                if p {
                    plan.set_class(m.index, Class::Continuous { auto: true });
                }
            }
            break;
        }
        for e in pol.found.drain(..) {
            plan.set_class(e.body(), Class::Refused);
            refusals.push(e);
        }
    }
    scratch.policy = pol;
}

/// Whether the mover in `slot` is a continuous dynamic body.
fn continuous_dynamic(plan: &CcdPlan, slot: usize, promoted: bool) -> bool {
    (plan.is_continuous(slot) || promoted)
        && matches!(plan.role(slot), Some(Role::Swept(_) | Role::Turning(_)))
}

/// The tests of one grouping (see the module docs) into `pol.found`, one
/// refusal per body.
fn check(
    bodies: &Bodies<'_>,
    plan: &CcdPlan,
    dt: f32,
    regions: &Regions<'_>,
    pol: &mut PolicyScratch,
) {
    let Regions {
        movers,
        groups,
        shared,
        ..
    } = *regions;
    pol.found.clear();
    pol.promoted.clear();
    pol.promoted.resize(movers.len(), false);
    // Swept groups: their Auto members resolved, their discrete members'
    // reach limits.
    for g in shared.iter() {
        let active = g
            .iter()
            .any(|&i| continuous_dynamic(plan, movers[i].index, false));
        if !active {
            continue;
        }
        let mut beyond: Option<usize> = None;
        for &i in g {
            let slot = movers[i].index;
            let Some(Role::Swept(shape)) = plan.role(slot) else {
                if plan.class(slot) == (Class::Mover { auto: true }) {
                    pol.promoted[i] = true;
                }
                continue;
            };
            let limit = check_reach(slot, &groups.reach[i], shape.limit_radius());
            match plan.class(slot) {
                Class::Mover { auto: true } => {
                    pol.promoted[i] = true;
                    if let Err(e) = limit {
                        pol.found.push(e);
                    }
                }
                Class::Mover { auto: false } if limit.is_err() => {
                    beyond.get_or_insert(slot);
                }
                _ => {}
            }
        }
        if let Some(d) = beyond {
            for &i in g {
                let slot = movers[i].index;
                if continuous_dynamic(plan, slot, pol.promoted[i]) {
                    pol.found.push(CcdError::Unsupported {
                        body: slot,
                        reason: UnsupportedReason::Obstacle {
                            other: d,
                            reach: groups.reach[i].radius,
                            why: "its region in the group is beyond the reach limit",
                        },
                    });
                }
            }
        }
    }
    check_fixed(bodies, plan, dt, regions, pol);
    // One refusal per body: the first found.
    let mut seen: Vec<usize> = Vec::new();
    pol.found.retain(|e| {
        let b = e.body();
        let first = !seen.contains(&b);
        seen.push(b);
        first
    });
}

/// The fixed bodies against the continuous bodies' regions (see the module
/// docs), into `pol.found`.
fn check_fixed(
    bodies: &Bodies<'_>,
    plan: &CcdPlan,
    dt: f32,
    regions: &Regions<'_>,
    pol: &mut PolicyScratch,
) {
    pol.fixed.clear();
    for (slot, body) in bodies.iter() {
        if let Class::Fixed { auto } = plan.class(slot) {
            pol.fixed.push((slot, fixed_reach(body, dt), auto));
        }
    }
    if pol.fixed.is_empty() {
        return;
    }
    pol.targets.clear();
    for (i, m) in regions.movers.iter().enumerate() {
        let slot = m.index;
        if plan.is_continuous(slot) || pol.promoted[i] {
            let dynamic = matches!(plan.role(slot), Some(Role::Swept(_) | Role::Turning(_)));
            pol.targets.push((slot, regions.groups.reach[i], dynamic));
        }
    }
    let PolicyScratch {
        fixed,
        targets,
        pairs,
        found,
        sweep,
        ..
    } = pol;
    sweep.pairs(fixed, targets, pairs);
    pairs.sort_unstable();
    let mut refused: Vec<usize> = Vec::new();
    for &(f, t) in pairs.iter() {
        let (fs, fr, auto) = fixed[f];
        let (ts, tr, dynamic) = targets[t];
        if auto {
            if refused.contains(&fs) {
                continue;
            }
            refused.push(fs);
            found.push(
                plan.auto_refusal(fs)
                    .cloned()
                    .unwrap_or(CcdError::Unsupported {
                        body: fs,
                        reason: UnsupportedReason::Interacting {
                            other: ts,
                            reach: fr.radius,
                        },
                    }),
            );
        } else if dynamic && !refused.contains(&ts) {
            refused.push(ts);
            let why = (bodies.body)(fs).map_or("", |b| why_fixed(plan, fs, b));
            found.push(CcdError::Unsupported {
                body: ts,
                reason: UnsupportedReason::Obstacle {
                    other: fs,
                    reach: tr.radius,
                    why,
                },
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::ccd::policy_scratch::AxisSweep;
    use crate::ccd::reach::{overlaps, Reach};
    use parapet_math::Vec3d;

    /// The sweep along x finds exactly the overlapping pairs that testing
    /// every pair finds, on regions of every size and place (a grid of
    /// centres and radii from a fixed linear congruential sequence).
    #[test]
    fn the_axis_sweep_finds_every_overlapping_pair() {
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut next = || {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1);
            (state >> 11) as f64 / (1u64 << 53) as f64
        };
        for round in 0..50 {
            let mut list = |n: usize| -> Vec<(usize, Reach, bool)> {
                (0..n)
                    .map(|k| {
                        let center = Vec3d::new(
                            20.0 * next() - 10.0,
                            4.0 * next() - 2.0,
                            4.0 * next() - 2.0,
                        );
                        (
                            k,
                            Reach {
                                center,
                                radius: 3.0 * next() * next(),
                            },
                            true,
                        )
                    })
                    .collect()
            };
            let a = list(round % 13);
            let b = list(round % 7 + 1);
            let mut found = Vec::new();
            AxisSweep::default().pairs(&a, &b, &mut found);
            found.sort_unstable();
            let mut every = Vec::new();
            for (i, x) in a.iter().enumerate() {
                for (j, y) in b.iter().enumerate() {
                    if overlaps(&x.1, &y.1) {
                        every.push((i, j));
                    }
                }
            }
            assert_eq!(found, every, "round {round}");
        }
    }
}
