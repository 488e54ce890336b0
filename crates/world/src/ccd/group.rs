//! Moving-body groups and their reach (seed 000 "Supported worlds", "Moving
//! sphere pairs", "Performance and verification").
//!
//! # Method
//! Every moving body starts in a group of its own with its own reach
//! ([`super::reach`]). An impact can give one member the energy of every
//! other member, so in a group of more than one body each dynamic member
//! reaches as far as the whole group's energy takes it: its speed bound is
//! `sqrt(2 E_group / m)`, where `E_group` sums the bound energies of the
//! group's dynamic members. Each impact with a kinematic sphere raises a
//! dynamic member's speed by at most twice the kinematic speed (in the
//! kinematic sphere's frame an impact cannot add energy), so when the group
//! holds kinematic spheres the bound adds `2 V_k` for every impact that the
//! impact limit allows the group's dynamic members (`I G_dyn` impacts, `V_k`
//! the fastest kinematic speed in the group). Two bodies whose regions
//! overlap join one group; regions are recomputed and tested again until no
//! two groups overlap: `O(B²)` per round, at most `B` rounds. Two kinematic
//! spheres pass through each other and never join on their own.
//!
//! A group of more than one body may hold only centred spheres, centred
//! capsules that cannot turn and kinematic spheres ([`Mover::groupable`]); a
//! turning body, box or hull that can reach another moving body is refused
//! with [`UnsupportedReason::Interacting`].
//!
//! # Precision domain
//! Every bound is rounded outward ([`parapet_math::rounding`]); overlaps are
//! decided conservatively ([`super::reach::overlaps`]).

use parapet_math::rounding::{add_up, mul_up};
use parapet_math::Vec3d;
use parapet_solver::contact::CONTACT_MARGIN;

use super::error::{CcdError, UnsupportedReason};
use super::reach::{overlaps, speed_bound, Reach};

/// One moving body as the grouping sees it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Mover {
    /// The body's index (slot).
    pub index: usize,
    /// Its reach when alone.
    pub alone: Reach,
    /// Whether it may share a group: a centred sphere, a centred capsule
    /// that cannot turn, or a kinematic sphere.
    pub groupable: bool,
    /// `Some(|v|)` (m/s) for a kinematic sphere.
    pub kinematic_speed: Option<f64>,
    /// Dynamic bodies: the shape bound around [`Reach::center`] (m).
    pub shape_bound: f64,
    /// Dynamic bodies: mass (kg).
    pub mass: f64,
    /// Dynamic bodies: bound energy after forces and solve (J).
    pub energy: f64,
    /// Dynamic bodies: split-correction travel this step (m).
    pub split_travel: f64,
}

/// The groups of one step.
#[derive(Debug, Clone, PartialEq)]
pub struct Groups {
    /// Per mover (same order as the input): its group's label, the
    /// position of the group's first mover.
    pub label: Vec<usize>,
    /// Per mover: its reach inside its group.
    pub reach: Vec<Reach>,
}

impl Groups {
    /// The groups of more than one mover that hold a dynamic body, each as
    /// the positions of its movers in input order; groups come in the order
    /// of their lowest member.
    pub fn shared(&self, movers: &[Mover]) -> Vec<Vec<usize>> {
        let mut out: Vec<Vec<usize>> = Vec::new();
        for (g, _) in self.label.iter().enumerate().filter(|(i, l)| *i == **l) {
            let members: Vec<usize> = (0..self.label.len())
                .filter(|&i| self.label[i] == g)
                .collect();
            let dynamic = members
                .iter()
                .any(|&i| movers[i].kinematic_speed.is_none());
            if members.len() > 1 && dynamic {
                out.push(members);
            }
        }
        out
    }

    /// Whether mover `i` shares its group with another mover.
    pub fn is_shared(&self, i: usize) -> bool {
        let l = self.label[i];
        self.label.iter().enumerate().any(|(j, &m)| m == l && j != i)
    }
}

/// The reach of dynamic mover `m` with the speed bound `speed` (m/s).
fn reach_with(m: &Mover, speed: f64, dt: f64) -> Reach {
    let radius = add_up(
        add_up(
            add_up(m.shape_bound, CONTACT_MARGIN as f64),
            mul_up(speed, dt),
        ),
        m.split_travel,
    );
    Reach {
        center: m.alone.center,
        radius: radius.max(m.alone.radius),
    }
}

/// The reach of every mover given the labels (see the module docs).
fn reaches(movers: &[Mover], label: &[usize], max_impacts: u32, dt: f64) -> Vec<Reach> {
    let n = movers.len();
    let mut energy = vec![0.0f64; n];
    let mut dynamic = vec![0u64; n];
    let mut kin = vec![0.0f64; n];
    let mut size = vec![0usize; n];
    for (i, m) in movers.iter().enumerate() {
        let g = label[i];
        size[g] += 1;
        match m.kinematic_speed {
            Some(s) => kin[g] = kin[g].max(s),
            None => {
                energy[g] = add_up(energy[g], m.energy);
                dynamic[g] += 1;
            }
        }
    }
    movers
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let g = label[i];
            if m.kinematic_speed.is_some() || size[g] == 1 || !m.groupable {
                return m.alone;
            }
            let impacts = (max_impacts as u64 * dynamic[g]) as f64;
            let kick = mul_up(mul_up(2.0, kin[g]), impacts);
            let speed = add_up(speed_bound(energy[g], m.mass), kick);
            reach_with(m, speed, dt)
        })
        .collect()
}

/// Forms the groups (see the module docs). `movers` come in body insertion
/// order.
///
/// # Errors
/// [`CcdError::Unsupported`] with [`UnsupportedReason::Interacting`] for the
/// first mover (insertion order) that may not share a group but does,
/// naming another member it overlaps.
pub fn form_groups(movers: &[Mover], max_impacts: u32, dt: f32) -> Result<Groups, CcdError> {
    let dt = dt as f64;
    let n = movers.len();
    let mut label: Vec<usize> = (0..n).collect();
    let mut reach: Vec<Reach> = movers.iter().map(|m| m.alone).collect();
    // At most n - 1 merges, each in its own round, and a final quiet round.
    for _ in 0..n.max(1) {
        let mut merged = false;
        for i in 0..n {
            for j in i + 1..n {
                if label[i] == label[j] {
                    continue;
                }
                if movers[i].kinematic_speed.is_some() && movers[j].kinematic_speed.is_some() {
                    continue;
                }
                if overlaps(&reach[i], &reach[j]) {
                    let (keep, gone) = (label[i].min(label[j]), label[i].max(label[j]));
                    for l in label.iter_mut() {
                        if *l == gone {
                            *l = keep;
                        }
                    }
                    merged = true;
                }
            }
        }
        if !merged {
            break;
        }
        reach = reaches(movers, &label, max_impacts, dt);
    }
    // A body that may not share a group, in a shared group, is refused.
    for i in 0..n {
        if movers[i].groupable {
            continue;
        }
        let other = (0..n).find(|&j| {
            j != i
                && label[j] == label[i]
                && !(movers[i].kinematic_speed.is_some() && movers[j].kinematic_speed.is_some())
                && overlaps(&reach[i], &reach[j])
        });
        let other = other.or_else(|| (0..n).find(|&j| j != i && label[j] == label[i]));
        if let Some(j) = other {
            return Err(CcdError::Unsupported {
                body: movers[i].index,
                reason: UnsupportedReason::Interacting {
                    other: movers[j].index,
                    reach: reach[i].radius,
                },
            });
        }
    }
    Ok(Groups { label, reach })
}

/// A helper for tests and callers: the reach of a dynamic mover alone.
pub fn alone_reach(center: Vec3d, shape_bound: f64, speed: f64, split_travel: f64, dt: f32) -> Reach {
    let m = Mover {
        index: 0,
        alone: Reach {
            center,
            radius: 0.0,
        },
        groupable: true,
        kinematic_speed: None,
        shape_bound,
        mass: 1.0,
        energy: 0.0,
        split_travel,
    };
    reach_with(&m, speed, dt as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sphere(index: usize, x: f64, energy: f64) -> Mover {
        let speed = speed_bound(energy, 1.0);
        let alone = alone_reach(Vec3d::new(x, 0.0, 0.0), 0.5, speed, 0.0, 0.1);
        Mover {
            index,
            alone,
            groupable: true,
            kinematic_speed: None,
            shape_bound: 0.5,
            mass: 1.0,
            energy,
            split_travel: 0.0,
        }
    }

    #[test]
    fn groups_grow_until_no_two_overlap() {
        let movers = [sphere(0, 0.0, 50.0), sphere(1, 1.0, 50.0), sphere(2, 3.4, 0.0)];
        // Alone: 0.5 + 0.1 * 10 = 1.5 m; body 2 reaches 0.5 (+margin).
        let g = form_groups(&movers, 16, 0.1).unwrap();
        // Pair energy 100 J gives each 0.1 * sqrt(200) = 1.41 m + 0.5: 1.91
        // m, which reaches body 2's 0.5 m at 2.4 m from body 1.
        assert_eq!(g.label, vec![0, 0, 0]);
        assert_eq!(g.shared(&movers), vec![vec![0, 1, 2]]);
        let apart = [sphere(0, 0.0, 50.0), sphere(1, 1.0, 50.0), sphere(2, 9.0, 0.0)];
        let g = form_groups(&apart, 16, 0.1).unwrap();
        assert_eq!(g.label, vec![0, 0, 2]);
        assert!(!g.is_shared(2));
    }

    #[test]
    fn a_body_that_cannot_share_a_group_is_refused_naming_the_other() {
        let mut movers = [sphere(3, 0.0, 50.0), sphere(5, 1.0, 50.0)];
        movers[1].groupable = false;
        let e = form_groups(&movers, 16, 0.1).unwrap_err();
        assert!(matches!(
            e,
            CcdError::Unsupported {
                body: 5,
                reason: UnsupportedReason::Interacting { other: 3, .. }
            }
        ));
    }

    #[test]
    fn kinematic_spheres_widen_the_reach_by_twice_their_speed_per_allowed_impact() {
        let kin = Mover {
            index: 1,
            alone: Reach {
                center: Vec3d::new(1.5, 0.0, 0.0),
                radius: 1.0,
            },
            groupable: true,
            kinematic_speed: Some(3.0),
            shape_bound: 0.5,
            mass: f64::INFINITY,
            energy: 0.0,
            split_travel: 0.0,
        };
        let movers = [sphere(0, 0.0, 0.0), kin];
        let g = form_groups(&movers, 4, 0.1).unwrap();
        assert_eq!(g.label, vec![0, 0]);
        // 2 * 3 m/s * 4 impacts * 1 dynamic member * 0.1 s = 2.4 m of travel.
        // dt = 0.1 is an f32 (0.1 + 1.5e-9): 24 m/s of it is 2.4 + 3.6e-8 m.
        let expected = 0.5 + CONTACT_MARGIN as f64 + 24.0 * (0.1f32 as f64);
        assert!((g.reach[0].radius - expected).abs() < 1e-12, "{:?}", g.reach[0]);
    }
}
