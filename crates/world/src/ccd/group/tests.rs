//! Unit tests of the grouping ([`super`]): the candidate search against
//! testing every pair every round (the grouping as first written), on random
//! regions.

use super::candidates::sort_keys;
use super::*;
use parapet_math::Vec3d;
use proptest::prelude::*;

/// The grouping as first written: every pair tested every round
/// (`O(B²)` per round), labels relabelled by scanning. The oracle of
/// the candidate search.
fn brute_force_groups(
    movers: &[Mover],
    max_impacts: u32,
    dt: f32,
) -> Result<(Vec<usize>, Vec<Reach>), CcdError> {
    let dt = dt as f64;
    let n = movers.len();
    let mut label: Vec<usize> = (0..n).collect();
    let mut reach: Vec<Reach> = movers.iter().map(|m| m.alone).collect();
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
                if can_meet(movers, &reach, i, j, &|_| None) {
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
    for i in 0..n {
        if movers[i].groupable {
            continue;
        }
        let other = (0..n).find(|&j| {
            j != i
                && label[j] == label[i]
                && !(movers[i].kinematic_speed.is_some() && movers[j].kinematic_speed.is_some())
                && can_meet(movers, &reach, i, j, &|_| None)
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
    Ok((label, reach))
}

/// The reach of every mover given the labels, as first written: every
/// member's speed and radius computed on its own (no reuse between
/// members alike).
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

/// The shared groups by scanning every label for every group.
fn brute_force_shared(label: &[usize], movers: &[Mover]) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    for g in 0..label.len() {
        let members: Vec<usize> = (0..label.len()).filter(|&i| label[i] == g).collect();
        let dynamic = members.iter().any(|&i| movers[i].kinematic_speed.is_none());
        if members.len() > 1 && dynamic {
            out.push(members);
        }
    }
    out
}

/// A mover: position in a box of `side` metres (flattened to a plane or
/// a line by `dims`, moved by `offset` metres along x to exercise the
/// rounding of large coordinates), speed 0..30 m/s (energy at 1 kg), kinematic or
/// not groupable with small probabilities, rarely an infinite energy;
/// masses, shape bounds and split travels often equal (members alike
/// share their travel radius) and sometimes not.
fn random_mover(index: usize, side: f64, dims: usize, offset: f64) -> impl Strategy<Value = Mover> {
    (
        prop::array::uniform3(0.0..side),
        prop_oneof![4 => 0.0..30.0f64, 1 => Just(0.0)],
        0..40u8,
        prop_oneof![Just(0.1f64), 0.05..0.5f64],
        prop_oneof![Just(1.0f64), 0.5..4.0f64],
        prop_oneof![3 => Just(0.0f64), 1 => 0.0..0.2f64],
        (0..4u8, 0.0..1.0f64, prop::array::uniform3(-1.0..1.0f64)),
    )
        .prop_map(
            move |(p, speed, kind, bound, mass, split, (shape, length, axis))| {
                let mut c = Vec3d::new(p[0], p[1], p[2]);
                for k in dims..3 {
                    c[k] = 0.0;
                }
                c.x += offset;
                let energy = if kind == 0 {
                    f64::INFINITY
                } else {
                    0.5 * mass * speed * speed
                };
                let kinematic = (1..4).contains(&kind);
                let alone = if kinematic {
                    Reach {
                        center: c,
                        radius: bound + CONTACT_MARGIN as f64 + speed / 60.0,
                    }
                } else {
                    alone_reach(c, bound, speed_bound(energy, mass), split, 1.0 / 60.0)
                };
                // The shape: unknown (the ball decides), a sphere, or a
                // segment of any direction whose ends plus radius stay within
                // the bound.
                let core = match shape {
                    0 => Core::BALL,
                    1 => Core {
                        shape: CoreShape::Segment([c, c]),
                        radius: bound,
                        bound,
                    },
                    _ => {
                        let dir = Vec3d::from(axis);
                        let half = if dir.norm() > 1e-3 {
                            dir.normalize() * (length * bound * 0.9)
                        } else {
                            Vec3d::zeros()
                        };
                        Core {
                            shape: CoreShape::Segment([c - half, c + half]),
                            radius: bound - half.norm() * (1.0 + 1e-12),
                            bound,
                        }
                    }
                };
                Mover {
                    index: 2 * index + 1,
                    alone,
                    groupable: kind != 4,
                    kinematic_speed: kinematic.then_some(speed),
                    shape_bound: bound,
                    mass: if kinematic { f64::INFINITY } else { mass },
                    energy: if kinematic { 0.0 } else { energy },
                    split_travel: if kinematic { 0.0 } else { split },
                    core,
                }
            },
        )
}

/// Moves mover `m`'s centre to `to`, its core with it.
fn move_to(m: &mut Mover, to: Vec3d) {
    let d = to - m.alone.center;
    m.alone.center = to;
    if let CoreShape::Segment(e) = &mut m.core.shape {
        *e = e.map(|x| x + d);
    }
}

fn layout() -> impl Strategy<Value = (Vec<Mover>, u32)> {
    (
        1usize..90,
        prop_oneof![Just(2.0f64), Just(6.0), Just(20.0)],
        1usize..4,
        1u32..20,
        prop_oneof![Just(0.0f64), Just(-3.0e5)],
        prop_oneof![Just(0.0f64), Just(0.5), Just(2.5)],
    )
        .prop_flat_map(|(n, side, dims, impacts, offset, grid)| {
            let movers: Vec<_> = (0..n)
                .map(|i| random_mover(i, side, dims, offset))
                .collect();
            (movers, Just(impacts), Just(grid), Just(offset))
        })
        .prop_map(|(mut movers, impacts, grid, offset)| {
            // Grid layouts (rows and columns of regions, as in the
            // bench scenes: many regions share an interval along every
            // axis): every centre is snapped to the grid.
            if grid > 0.0 {
                for m in &mut movers {
                    let c = m.alone.center;
                    let snapped = Vec3d::new(
                        ((c.x - offset) / grid).round() * grid + offset,
                        (c.y / grid).round() * grid,
                        (c.z / grid).round() * grid,
                    );
                    move_to(m, snapped);
                }
            }
            (movers, impacts)
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]

    /// The candidate search gives the brute-force grouping: the same
    /// labels, the same regions bit for bit (Debug prints every f64
    /// exactly), the same refusal, the same shared groups.
    #[test]
    fn the_candidate_search_groups_exactly_like_testing_every_pair(
        (movers, impacts) in layout(),
    ) {
        let dt = 1.0 / 60.0;
        let fast = form_groups(&movers, impacts, dt);
        let slow = brute_force_groups(&movers, impacts, dt);
        match (fast, slow) {
            (Ok(g), Ok((label, reach))) => {
                prop_assert_eq!(&g.label, &label);
                prop_assert_eq!(format!("{:?}", g.reach), format!("{reach:?}"));
                let shared: Vec<Vec<usize>> =
                    g.shared(&movers).iter().map(|s| s.to_vec()).collect();
                prop_assert_eq!(shared, brute_force_shared(&label, &movers));
                for i in 0..movers.len() {
                    let others = (0..label.len()).any(|j| j != i && label[j] == label[i]);
                    prop_assert_eq!(g.is_shared(i), others);
                }
            }
            (Err(a), Err(b)) => prop_assert_eq!(format!("{a:?}"), format!("{b:?}")),
            (a, b) => prop_assert!(false, "fast {:?} against brute force {:?}", a, b),
        }
    }
}

/// A layout and the same movers moved a little (each centre by up to
/// `jitter` metres per axis, in a random order of magnitude), as from
/// one step to the next.
fn layout_and_next() -> impl Strategy<Value = (Vec<Mover>, Vec<Mover>, u32)> {
    layout().prop_flat_map(|(movers, impacts)| {
        let n = movers.len();
        (
            Just(movers),
            prop::collection::vec(prop::array::uniform3(-1.0..1.0f64), n),
            prop_oneof![Just(0.0f64), Just(1e-3), Just(0.3), Just(5.0)],
            Just(impacts),
        )
            .prop_map(|(movers, moves, jitter, impacts)| {
                let mut next = movers.clone();
                for (m, d) in next.iter_mut().zip(moves) {
                    let to = m.alone.center + Vec3d::from(d) * jitter;
                    move_to(m, to);
                }
                (movers, next, impacts)
            })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// A scratch kept from one step to the next (the last sort order,
    /// re-sorted by insertion, and grown storage) groups exactly as a
    /// fresh one: the same labels, regions, sizes and refusals, for
    /// layouts that moved a little, a lot, or changed their count.
    #[test]
    fn a_kept_scratch_groups_exactly_like_a_fresh_one(
        (movers, next, impacts) in layout_and_next(),
    ) {
        let dt = 1.0 / 60.0;
        let mut scratch = GroupScratch::default();
        let mut kept = Groups::default();
        let fewer = &next[..next.len() / 2];
        for step in [&movers[..], &next[..], &next[..], fewer, &movers[..]] {
            let kept_result =
                form_groups_with(step, impacts, dt, &|_| None, &mut scratch, &mut kept);
            let fresh = form_groups(step, impacts, dt);
            match (kept_result, fresh) {
                (Ok(()), Ok(g)) => {
                    prop_assert_eq!(&kept.label, &g.label);
                    prop_assert_eq!(format!("{:?}", kept.reach), format!("{:?}", g.reach));
                    prop_assert_eq!(&kept.size, &g.size);
                }
                (Err(a), Err(b)) => prop_assert_eq!(format!("{a:?}"), format!("{b:?}")),
                (a, b) => prop_assert!(false, "kept {:?} against fresh {:?}", a, b),
            }
            // And both as testing every pair.
            match (brute_force_groups(step, impacts, dt), form_groups(step, impacts, dt)) {
                (Ok((label, _)), Ok(g)) => prop_assert_eq!(label, g.label),
                (Err(_), Err(_)) => {}
                (a, b) => prop_assert!(false, "brute force {:?} against {:?}", a, b),
            }
        }
    }

    /// The insertion sort with its move budget sorts any order by key,
    /// nearly sorted or shuffled (the fallback).
    #[test]
    fn sorting_the_kept_order_sorts_by_key(
        keys in prop::collection::vec(-20i64..20, 0..80),
        swaps in prop::collection::vec((0usize..80, 0usize..80), 0..40),
    ) {
        let mut order: Vec<(i64, u32)> =
            keys.iter().enumerate().map(|(i, &k)| (k, i as u32)).collect();
        order.sort_unstable_by_key(|&(k, _)| k);
        let n = order.len();
        for (a, b) in swaps {
            if n > 0 {
                order.swap(a % n, b % n);
            }
        }
        let mut expected = order.clone();
        sort_keys(&mut order, |e| e.0);
        prop_assert!(order.windows(2).all(|w| w[0].0 <= w[1].0));
        // The same entries (a permutation).
        expected.sort_unstable();
        let mut got = order.clone();
        got.sort_unstable();
        prop_assert_eq!(got, expected);
    }
}

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
        core: Core::BALL,
    }
}

#[test]
fn groups_grow_until_no_two_overlap() {
    let movers = [
        sphere(0, 0.0, 50.0),
        sphere(1, 1.0, 50.0),
        sphere(2, 3.4, 0.0),
    ];
    // Alone: 0.5 + 0.1 * 10 = 1.5 m; body 2 reaches 0.5 (+margin).
    let g = form_groups(&movers, 16, 0.1).unwrap();
    // Pair energy 100 J gives each 0.1 * sqrt(200) = 1.41 m + 0.5: 1.91
    // m, which reaches body 2's 0.5 m at 2.4 m from body 1.
    assert_eq!(g.label, vec![0, 0, 0]);
    let shared = g.shared(&movers);
    assert_eq!(shared.len(), 1);
    assert_eq!(shared.group(0), &[0, 1, 2]);
    let apart = [
        sphere(0, 0.0, 50.0),
        sphere(1, 1.0, 50.0),
        sphere(2, 9.0, 0.0),
    ];
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
        core: Core::BALL,
    };
    let movers = [sphere(0, 0.0, 0.0), kin];
    let g = form_groups(&movers, 4, 0.1).unwrap();
    assert_eq!(g.label, vec![0, 0]);
    // 2 * 3 m/s * 4 impacts * 1 dynamic member * 0.1 s = 2.4 m of travel.
    // dt = 0.1 is an f32 (0.1 + 1.5e-9): 24 m/s of it is 2.4 + 3.6e-8 m.
    let expected = 0.5 + CONTACT_MARGIN as f64 + 24.0 * (0.1f32 as f64);
    assert!(
        (g.reach[0].radius - expected).abs() < 1e-12,
        "{:?}",
        g.reach[0]
    );
}
