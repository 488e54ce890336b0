//! Unit tests of the group sweep ([`super`]): the culls against the uncut
//! pass, bit for bit, on random and grazing groups.

use super::cull::{meeting_pairs, swept_bounds, SweptBounds, TriangleCull};
use super::settle::{contact_components, Components};
use super::state::offer;
use super::tournament::Tournament;
use super::*;
use crate::ccd::reach::Reach;
use parapet_geometry::ActiveEdges;
use parapet_geometry::Shape;
use parapet_math::Quat;
use parapet_narrow::sweep::{sweep_segment_pair, sweep_sphere_triangle, Impact, MovingSegment};
use parapet_solver::impact::SettleContact;
use parapet_solver::RigidBody;
use proptest::prelude::*;

/// Bounds meeting, written out independently of `bounds_meet`.
fn meet(a: &Option<SweptBounds>, b: &Option<SweptBounds>) -> bool {
    let (Some(a), Some(b)) = (a, b) else {
        return true;
    };
    !(0..3).any(|k| a.hi[k] < b.lo[k] || b.hi[k] < a.lo[k])
}

/// A member: a sphere or a capsule (axis up to 3 m, any direction,
/// nearly parallel axes included), radius 0.02..1 m.
fn segment(center: [f32; 3]) -> impl Strategy<Value = MovingSegment> {
    (
        prop::array::uniform3(-1.0f32..1.0),
        prop_oneof![Just(0.0f32), 0.0f32..1.5],
        0.02f32..1.0,
        prop::array::uniform3(-50.0f32..50.0),
    )
        .prop_map(move |(axis, len, radius, v)| {
            let c = Vec3::from(center);
            let h = Vec3::from(axis) * len;
            MovingSegment::capsule(c - h, c + h, radius, Vec3::from(v))
        })
}

/// The bounds of a member's path grown by its radius only (no margin).
fn raw_bounds(m: &MovingSegment, tau: f32) -> ([f64; 3], [f64; 3]) {
    let t = promote(m.velocity) * tau as f64;
    let pts = [
        promote(m.p0),
        promote(m.p1),
        promote(m.p0) + t,
        promote(m.p1) + t,
    ];
    let r = m.radius as f64;
    let lo = [0, 1, 2].map(|k| pts.iter().map(|p| p[k]).fold(f64::INFINITY, f64::min) - r);
    let hi = [0, 1, 2].map(|k| pts.iter().map(|p| p[k]).fold(f64::NEG_INFINITY, f64::max) + r);
    (lo, hi)
}

/// Two members, the second moved along one axis so that the gap
/// between their radius-grown paths is `frac` times three cull margins
/// (`frac` from -0.2 to 1, often right at the cull threshold of one
/// third), anywhere across or facing the first: the grazing cases
/// where the cull is tightest. `far` moves both up to 1,000 m from the origin (within the
/// sweeps' 65,536 radii for radii above 0.02 m).
fn grazing_pair() -> impl Strategy<Value = (MovingSegment, MovingSegment, f32)> {
    (
        prop::array::uniform3(-1000.0f32..1000.0),
        prop::bool::ANY,
        0.001f32..0.05,
    )
        .prop_flat_map(|(far, use_far, tau)| {
            let c = if use_far { far } else { [0.0; 3] };
            (
                segment(c),
                segment(c),
                0usize..3,
                prop::bool::ANY,
                prop_oneof![-0.2f64..1.0, (1.0f64 / 3.0 - 1.0e-3)..(1.0 / 3.0 + 1.0e-3)],
                Just(tau),
                prop::bool::ANY,
            )
        })
        .prop_map(|(a, b, axis, above, frac, tau, align)| {
            // Aligned: b's path starts across from a's first end, so the
            // two face each other over the gap.
            let b = if align {
                let mut d = a.p0 - b.p0;
                d[axis] = 0.0;
                MovingSegment {
                    p0: b.p0 + d,
                    p1: b.p1 + d,
                    ..b
                }
            } else {
                b
            };
            let (la, ha) = raw_bounds(&a, tau);
            let (lb, hb) = raw_bounds(&b, tau);
            let (wa, wb) = (
                swept_bounds(&a, tau, 0.0).unwrap(),
                swept_bounds(&b, tau, 0.0).unwrap(),
            );
            let margins = (wa.hi[axis] - ha[axis]) + (wb.hi[axis] - hb[axis]);
            let gap = frac * 3.0 * margins;
            let shift = if above {
                ha[axis] - lb[axis] + gap
            } else {
                la[axis] - hb[axis] - gap
            };
            let mut d = Vec3::zeros();
            d[axis] = shift as f32;
            let b = MovingSegment {
                p0: b.p0 + d,
                p1: b.p1 + d,
                ..b
            };
            (a, b, tau)
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(20000))]

    /// Whenever the cull drops a pair, the exact pair sweep (either
    /// role order) finds no hit and no initial contact.
    #[test]
    fn the_cull_never_drops_a_contact_the_pair_sweep_finds((a, b, tau) in grazing_pair()) {
        let (ba, bb) = (swept_bounds(&a, tau, 0.0), swept_bounds(&b, tau, 0.0));
        if !meet(&ba, &bb) {
            for o in [sweep_segment_pair(&a, &b, tau), sweep_segment_pair(&b, &a, tau)] {
                prop_assert!(
                    matches!(o, SweepOutcome::Miss | SweepOutcome::Refused(_)),
                    "culled pair {:?} {:?} over {} s: {:?}", a, b, tau, o
                );
            }
        }
    }
}

/// A sphere (radius 0.02..1 m, up to 60 m/s, anywhere within 1,000 m of
/// the origin) and a triangle (edges up to 50 m) moved along one axis
/// so that the gap between the triangle's bounds and the sphere's
/// radius-grown path is `frac` times three cull margins (often right at
/// the cull threshold of one third), with its nearest vertex straight
/// across from the path's nearest end or lying flat across the axis
/// under the sphere, facing it: the grazing cases where the triangle
/// cull is tightest.
fn grazing_triangle() -> impl Strategy<Value = (Vec3, f32, Vec3, f32, [Vec3; 3])> {
    (
        (
            prop::array::uniform3(-1000.0f32..1000.0),
            prop::bool::ANY,
            0.02f32..1.0,
            prop::array::uniform3(-60.0f32..60.0),
            0.001f32..0.05,
        ),
        prop::array::uniform3(prop::array::uniform3(-1.0f32..1.0)),
        prop_oneof![0.05f32..2.0, 2.0f32..50.0],
        0usize..3,
        prop::bool::ANY,
        prop_oneof![-0.2f64..1.0, (1.0f64 / 3.0 - 1.0e-3)..(1.0 / 3.0 + 1.0e-3)],
        0u8..3,
    )
        .prop_map(
            |((far, use_far, r, v, tau), shape, size, axis, above, frac, how)| {
                let c = if use_far {
                    Vec3::from(far)
                } else {
                    Vec3::zeros()
                };
                let v = Vec3::from(v);
                let mut tri = shape.map(|p| c + Vec3::from(p) * size);
                let seg = MovingSegment::sphere(c, r, v);
                let b = swept_bounds(&seg, tau, 0.0).unwrap();
                let t = promote(v) * tau as f64;
                let end = |hi: bool| {
                    let moved = c[axis] as f64 + t[axis];
                    let (lo, top) = ((c[axis] as f64).min(moved), (c[axis] as f64).max(moved));
                    // The path's end nearest the triangle.
                    let at_end = (moved > c[axis] as f64) == hi;
                    (
                        if hi { top } else { lo },
                        if at_end { promote(c) + t } else { promote(c) },
                    )
                };
                let (edge, near) = end(above);
                let edge = edge + if above { r as f64 } else { -(r as f64) };
                // The widening beyond the radius-grown path on `axis`.
                let margin = if above {
                    b.hi[axis] - edge
                } else {
                    edge - b.lo[axis]
                };
                let gap = frac * 3.0 * margin;
                let (u, w) = ((axis + 1) % 3, (axis + 2) % 3);
                match how {
                    // Flat across the axis, centred under the near end,
                    // its front towards the sphere.
                    0 => {
                        let mut p = [Vec3::zeros(); 3];
                        for (k, q) in p.iter_mut().enumerate() {
                            let a = k as f32 * 2.0944;
                            q[u] = near[u] as f32 + size * a.cos();
                            q[w] = near[w] as f32 + size * a.sin();
                        }
                        // Counter-clockwise about +axis faces +axis.
                        if above {
                            p.swap(1, 2);
                        }
                        tri = p;
                    }
                    // Nearest vertex straight across from the near end.
                    1 => {
                        let k = (0..3)
                            .min_by(|&i, &j| {
                                let (a, b) = (tri[i][axis], tri[j][axis]);
                                if above {
                                    a.total_cmp(&b)
                                } else {
                                    b.total_cmp(&a)
                                }
                            })
                            .unwrap_or(0);
                        let mut d = Vec3::zeros();
                        d[u] = (near[u] - tri[k][u] as f64) as f32;
                        d[w] = (near[w] - tri[k][w] as f64) as f32;
                        tri = tri.map(|p| p + d);
                    }
                    _ => {}
                }
                let lo = tri
                    .iter()
                    .map(|p| p[axis] as f64)
                    .fold(f64::INFINITY, f64::min);
                let hi = tri
                    .iter()
                    .map(|p| p[axis] as f64)
                    .fold(f64::NEG_INFINITY, f64::max);
                let shift = if above {
                    edge + gap - lo
                } else {
                    edge - gap - hi
                };
                let mut d = Vec3::zeros();
                d[axis] = shift as f32;
                (c, r, v, tau, tri.map(|p| p + d))
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(20000))]

    /// Whenever the triangle cull skips a triangle, the sphere's sweep
    /// against it finds no hit and no initial contact (a refusal of a
    /// triangle too thin for the sweep is not the cull's concern: the
    /// cull only skips triangles that passed their checks before).
    #[test]
    fn a_culled_triangle_sweep_is_a_miss((c, r, v, tau, tri) in grazing_triangle()) {
        let Some(cull) = TriangleCull::new(c, r, v, tau) else {
            return Ok(());
        };
        let outcome = sweep_sphere_triangle(c, r, v, tau, &tri);
        if cull.misses(&tri) {
            prop_assert!(
                matches!(outcome, SweepOutcome::Miss | SweepOutcome::Refused(_)),
                "culled sphere {:?} r {} v {:?} over {} s vs {:?}: {:?}", c, r, v, tau, tri, outcome
            );
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// The flat components are those of a label propagation written
    /// independently: contacts sharing a dynamic member repeatedly take
    /// the lower label until nothing changes; components in the order
    /// of their first contact, contacts in list order.
    #[test]
    fn contact_components_are_the_classes_of_shared_dynamic_members(
        kinematic in prop::collection::vec(prop::bool::weighted(0.25), 1..12),
        raw in prop::collection::vec((0usize..12, prop::option::of(0usize..12)), 0..16),
    ) {
        let n = kinematic.len();
        let mut states: Vec<State> = (0..n).map(|_| blank_state()).collect();
        for (st, &k) in states.iter_mut().zip(&kinematic) {
            st.kinematic = k;
        }
        // Valid contacts only: `a` dynamic unless `b` is a dynamic member.
        let list: Vec<SettleContact> = raw
            .into_iter()
            .filter_map(|(a, b)| {
                let (a, b) = (a % n, b.map(|b| b % n));
                match b {
                    Some(b) if b == a || (kinematic[a] && kinematic[b]) => None,
                    None if kinematic[a] => None,
                    _ => Some(SettleContact { a, b, normal: Vec3d::z() }),
                }
            })
            .collect();
        let dynamic_of = |c: &SettleContact| -> Vec<usize> {
            std::iter::once(c.a).chain(c.b).filter(|&k| !kinematic[k]).collect()
        };
        let mut label: Vec<usize> = (0..list.len()).collect();
        loop {
            let mut changed = false;
            for i in 0..list.len() {
                for j in 0..list.len() {
                    let shared = dynamic_of(&list[i])
                        .iter()
                        .any(|k| dynamic_of(&list[j]).contains(k));
                    if shared && label[j] < label[i] {
                        label[i] = label[j];
                        changed = true;
                    }
                }
            }
            if !changed {
                break;
            }
        }
        let mut expected: Vec<Vec<usize>> = Vec::new();
        let mut seen: Vec<usize> = Vec::new();
        for (i, &l) in label.iter().enumerate() {
            match seen.iter().position(|&s| s == l) {
                Some(k) => expected[k].push(i),
                None => {
                    seen.push(l);
                    expected.push(vec![i]);
                }
            }
        }
        let mut out = Components::default();
        contact_components(&states, &list, &mut out);
        let got: Vec<Vec<usize>> =
            out.ranges.iter().map(|&(a, b)| out.items[a..b].to_vec()).collect();
        prop_assert_eq!(got, expected);
    }
}

/// An event of member `i` at `time` (a hit, or an initial contact).
fn event_at(i: usize, time: f64, initial: bool) -> Event {
    Event {
        member: i,
        other: None,
        triangle: 0,
        initial,
        impact: Impact {
            time,
            point: Vec3d::zeros(),
            normal: Vec3d::z(),
            feature: (),
        },
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// After any sequence of changed members' events, the tournament's
    /// winner is the event that offering every member's event in member
    /// order keeps (ties in time and kind are frequent: times from a
    /// few values, signed zeros included).
    #[test]
    fn the_tournament_keeps_the_event_offered_first(
        n in 1usize..70,
        rounds in prop::collection::vec(
            prop::collection::vec(
                (0usize..70, prop::option::of((0u8..5, prop::bool::ANY))),
                0..12,
            ),
            1..8,
        ),
    ) {
        let times = [0.0, -0.0, 0.25, 0.5, 1.0];
        let mut best: Vec<Option<Option<Event>>> = vec![Some(None); n];
        let mut tournament = Tournament::default();
        tournament.update(&best, &(0..n).collect::<Vec<_>>());
        for round in rounds {
            let mut changed = Vec::new();
            for (i, e) in round {
                let i = i % n;
                best[i] = Some(e.map(|(t, initial)| event_at(i, times[t as usize], initial)));
                changed.push(i);
            }
            tournament.update(&best, &changed);
            let mut offered: Option<Event> = None;
            for e in best.iter().flatten().flatten() {
                offer(*e, &mut offered);
            }
            prop_assert_eq!(
                format!("{:?}", tournament.winner(&best)),
                format!("{:?}", offered.as_ref())
            );
        }
    }
}

#[test]
fn meeting_pairs_are_those_whose_bounds_meet_except_skipped_pairs() {
    // Brute force over random boxes on a line and in a cube.
    let mut seed = 0x5EEDu64;
    let mut next = || {
        seed = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = seed;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) >> 11) as f64 / (1u64 << 53) as f64
    };
    for round in 0..200 {
        let n = 1 + round % 40;
        let bounds: Vec<Option<SweptBounds>> = (0..n)
            .map(|_| {
                if next() < 0.05 {
                    return None;
                }
                let c = [next() * 10.0, next() * 10.0 * (round % 2) as f64, next()];
                let h = [next(), next(), next()];
                Some(SweptBounds {
                    lo: [0, 1, 2].map(|k| c[k] - h[k]),
                    hi: [0, 1, 2].map(|k| c[k] + h[k]),
                })
            })
            .collect();
        let skip: Vec<bool> = (0..n).map(|_| next() < 0.3).collect();
        let mut expected = Vec::new();
        for i in 0..n {
            for j in i + 1..n {
                if !(skip[i] && skip[j]) && meet(&bounds[i], &bounds[j]) {
                    expected.push((i, j));
                }
            }
        }
        assert_eq!(meeting_pairs(&bounds, &skip), expected, "round {round}");
    }
}

/// The members of `bodies`, each reaching a ball of `reach_radius`
/// metres around its position.
/// A sweep's result as text, bit for bit (Debug prints every f64
/// exactly), without its work counters (which differ between the culled
/// and the uncut sweep by design).
fn physics(o: &Result<GroupOutcome, CcdError>) -> String {
    match o {
        Ok(g) => format!("Ok({:?} {:?})", g.motions, g.impacts),
        Err(e) => format!("Err({e:?})"),
    }
}

fn members_of(bodies: &[(RigidBody, MemberShape)], reach_radius: f64) -> Vec<GroupMember<'_>> {
    bodies
        .iter()
        .enumerate()
        .map(|(i, (body, shape))| GroupMember {
            index: i,
            body,
            shape: *shape,
            reach: Reach {
                center: promote(body.position()),
                radius: reach_radius,
            },
        })
        .collect()
}

/// A random group of spheres, locked capsules and kinematic spheres in
/// a box of `side` metres (close enough to collide often, including
/// several contacts at one instant), with restitution 0 or 0.5.
fn group_bodies(n: usize, side: f32) -> impl Strategy<Value = Vec<(RigidBody, MemberShape)>> {
    prop::collection::vec(
        (
            prop::array::uniform3(0.0f32..side),
            prop::array::uniform3(-40.0f32..40.0),
            0..10u8,
            0.05f32..0.3,
            prop_oneof![Just(0.0f32), Just(0.5)],
            prop::array::uniform3(-1.0f32..1.0),
        ),
        n,
    )
    .prop_map(|v| {
        v.into_iter()
            .map(|(p, vel, kind, r, e, q)| {
                let material = Material::new(0.3, e, 0.5).unwrap();
                let (p, vel) = (Vec3::from(p), Vec3::from(vel));
                match kind {
                    0 => (
                        RigidBody::new_kinematic(Shape::sphere(r).unwrap())
                            .with_position(p)
                            .with_linear_velocity(vel * 0.25)
                            .with_material(material),
                        MemberShape::Kinematic { radius: r },
                    ),
                    1..=3 => {
                        let q = Quat::from_euler_angles(3.0 * q[0], 3.0 * q[1], 3.0 * q[2]);
                        let mut b =
                            RigidBody::new_dynamic(Shape::capsule(r, 2.0 * r).unwrap(), 1.0)
                                .unwrap()
                                .with_position(p)
                                .with_rotation(q)
                                .with_linear_velocity(vel)
                                .with_material(material);
                        b.set_inverse_inertia(parapet_math::Mat3::zeros()).unwrap();
                        (
                            b,
                            MemberShape::Capsule {
                                radius: r,
                                half_height: 2.0 * r,
                            },
                        )
                    }
                    _ => (
                        RigidBody::new_dynamic(Shape::sphere(r).unwrap(), 0.5 + r)
                            .unwrap()
                            .with_position(p)
                            .with_linear_velocity(vel)
                            .with_material(material),
                        MemberShape::Sphere { radius: r },
                    ),
                }
            })
            .collect()
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// The culled sweep of a whole group is the uncut one bit for bit:
    /// the same impacts in the same order, the same end states, or the
    /// same error (Debug prints every f64 exactly).
    #[test]
    fn a_culled_group_sweep_is_the_uncut_sweep_bit_for_bit(
        bodies in (2usize..24, prop_oneof![Just(1.0f32), Just(3.0), Just(12.0)])
            .prop_flat_map(|(n, side)| group_bodies(n, side)),
        impacts in prop_oneof![Just(4u32), Just(16)],
    ) {
        let members = members_of(&bodies, 1.0);
        let input = GroupInput { members, dt: 1.0 / 60.0, max_impacts: impacts };
        let culled = sweep_group_with(&input, None, true);
        let uncut = sweep_group_with(&input, None, false);
        prop_assert_eq!(physics(&culled), physics(&uncut));
    }

    /// The same on a floor of triangles, for groups large enough that
    /// a pass at one instant re-sweeps only the few members it moved
    /// (up to 40), with coordinates snapped to `+0.0` or `-0.0` (the
    /// members that a pass without travel moves again), members at rest
    /// (kept across passes with travel) and members resting on the
    /// floor, so that passes at one instant, settled cascades and floor
    /// contacts mix.
    #[test]
    fn a_culled_group_sweep_on_a_floor_is_the_uncut_sweep_bit_for_bit(
        bodies in (2usize..40, prop_oneof![Just(1.0f32), Just(3.0), Just(6.0)])
            .prop_flat_map(|(n, side)| group_bodies(n, side)),
        snaps in prop::collection::vec((0usize..40, 0usize..3, 0u8..6), 0..30),
        impacts in prop_oneof![Just(4u32), Just(16)],
    ) {
        let mut bodies = bodies;
        for (k, axis, how) in snaps {
            let Some((body, shape)) = bodies.get_mut(k) else { continue };
            let mut p = body.position();
            let r = match *shape {
                MemberShape::Sphere { radius } | MemberShape::Kinematic { radius } => radius,
                MemberShape::Capsule { radius, .. } => radius,
            };
            match how {
                0 => p[axis] = 0.0,
                1 => p[axis] = -0.0,
                // On the floor (z = 0) at rest or sliding.
                2 if axis == 2 && !matches!(shape, MemberShape::Capsule { .. }) => p.z = r,
                // At rest (zeros of either sign).
                4 => body.set_linear_velocity(Vec3::zeros()),
                5 => body.set_linear_velocity(Vec3::new(-0.0, 0.0, -0.0)),
                _ => {
                    let v = body.linear_velocity();
                    body.set_linear_velocity(Vec3::new(v.x, v.y, 0.0));
                }
            }
            *body = body.clone().with_position(p);
        }
        let floor: Vec<[Vec3; 3]> = vec![
            [Vec3::new(-20.0, -20.0, 0.0), Vec3::new(20.0, -20.0, 0.0), Vec3::new(20.0, 20.0, 0.0)],
            [Vec3::new(-20.0, -20.0, 0.0), Vec3::new(20.0, 20.0, 0.0), Vec3::new(-20.0, 20.0, 0.0)],
            // A wall at x = 4 facing -x.
            [Vec3::new(4.0, -20.0, -20.0), Vec3::new(4.0, 20.0, 20.0), Vec3::new(4.0, 20.0, -20.0)],
        ];
        let tree = parapet_geometry::bvh::TriangleBoundsTree::build(&floor).unwrap();
        let material = |_: usize| Some(Material::new(0.3, 0.0, 0.5).unwrap());
        let edges = |_: usize| ActiveEdges::ALL;
        let mesh = MeshView { triangles: &floor, tree: &tree, material: &material, edges: &edges };
        let members = members_of(&bodies, 2.0);
        let input = GroupInput { members, dt: 1.0 / 60.0, max_impacts: impacts };
        let culled = sweep_group_with(&input, Some(&mesh), true);
        let uncut = sweep_group_with(&input, Some(&mesh), false);
        prop_assert_eq!(physics(&culled), physics(&uncut));
    }
}

/// A stack of `n` spheres (radius `r`, touching, lowest on the floor
/// `z = 0`) sinking as gravity left them, struck from above at
/// `speed`, with `others` spheres resting on the floor beside it: the
/// bench scene `struck_stacks` generalised.
fn struck_stack_bodies(
    n: usize,
    r: f32,
    speed: f32,
    restitution: f32,
    offset: [f32; 2],
    others: usize,
) -> Vec<(RigidBody, MemberShape)> {
    let material = Material::new(0.3, restitution, 0.5).unwrap();
    let sphere = |p: Vec3, v: Vec3| {
        (
            RigidBody::new_dynamic(Shape::sphere(r).unwrap(), 1.0)
                .unwrap()
                .with_position(p)
                .with_linear_velocity(v)
                .with_material(material),
            MemberShape::Sphere { radius: r },
        )
    };
    let mut bodies: Vec<_> = (0..n)
        .map(|k| {
            let z = r * (1 + 2 * k) as f32;
            sphere(
                Vec3::new(0.0, 0.0, z),
                Vec3::new(0.0, 0.0, -0.01 * (k + 1) as f32),
            )
        })
        .collect();
    for k in 0..others {
        bodies.push(sphere(
            Vec3::new(3.0 * r * (k + 1) as f32, 0.0, r),
            Vec3::new(0.0, 0.0, -0.01),
        ));
    }
    let top = Vec3::new(offset[0], offset[1], r * (2 * n + 4) as f32);
    bodies.push(sphere(top, Vec3::new(0.0, 0.0, -speed)));
    bodies
}

/// The culled sweep of `bodies` on a floor and the uncut one, and how
/// many members kept their touching outcomes between settled instants
/// in the culled one.
fn culled_and_uncut_on_floor(
    bodies: &[(RigidBody, MemberShape)],
    sliver: Option<f32>,
) -> (String, String, usize) {
    let mut floor: Vec<[Vec3; 3]> = vec![
        [
            Vec3::new(-2.0, -2.0, 0.0),
            Vec3::new(2.0, -2.0, 0.0),
            Vec3::new(2.0, 2.0, 0.0),
        ],
        [
            Vec3::new(-2.0, -2.0, 0.0),
            Vec3::new(2.0, 2.0, 0.0),
            Vec3::new(-2.0, 2.0, 0.0),
        ],
    ];
    // A degenerate triangle (collinear vertices) at height `z`: every
    // sweep against it refuses.
    if let Some(z) = sliver {
        floor.push([
            Vec3::new(-1.0, 0.5, z),
            Vec3::new(0.0, 0.5, z),
            Vec3::new(1.0, 0.5, z),
        ]);
    }
    let tree = parapet_geometry::bvh::TriangleBoundsTree::build(&floor).unwrap();
    let material = |_: usize| Some(Material::new(0.3, 0.0, 0.5).unwrap());
    let edges = |_: usize| ActiveEdges::ALL;
    let mesh = MeshView {
        triangles: &floor,
        tree: &tree,
        material: &material,
        edges: &edges,
    };
    let members = members_of(bodies, 1.0);
    let input = GroupInput {
        members,
        dt: 1.0 / 60.0,
        max_impacts: 16,
    };
    let mut scratch = Scratch::default();
    let culled = sweep_group_in(&input, Some(&mesh), true, &mut scratch);
    let uncut = sweep_group_in(&input, Some(&mesh), false, &mut Scratch::default());
    (
        physics(&culled),
        physics(&uncut),
        scratch.settle.kept_members,
    )
}

/// The bench's struck stack (four spheres on a floor struck at 30 m/s)
/// settles twice, the lower spheres unchanged at rest in between: they
/// keep their touching outcomes, and the sweep is the uncut one bit for
/// bit.
#[test]
fn a_struck_stack_keeps_its_resting_members_touching_outcomes() {
    let bodies = struck_stack_bodies(4, 0.1, 30.0, 0.0, [0.0, 0.0], 0);
    let (culled, uncut, kept) = culled_and_uncut_on_floor(&bodies, None);
    assert_eq!(culled, uncut);
    assert!(kept > 0, "no member kept its outcomes: {culled}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Struck stacks of any height, struck off centre at any speed,
    /// elastic or plastic, with resting spheres beside them, and maybe a
    /// degenerate triangle among the candidates: the culled sweep
    /// (which keeps the touching outcomes of members unchanged at rest
    /// between settled instants, and culls triangles checked in another
    /// member's sweep) is the uncut one bit for bit, refusals
    /// included.
    #[test]
    fn a_struck_stack_sweep_is_the_uncut_sweep_bit_for_bit(
        n in 1usize..6,
        r in 0.05f32..0.3,
        speed in 1.0f32..60.0,
        restitution in prop_oneof![Just(0.0f32), Just(0.5)],
        offset in prop::array::uniform2(-0.1f32..0.1),
        others in 0usize..3,
        sliver in prop_oneof![Just(None), (-1.0f32..3.0).prop_map(Some)],
    ) {
        let bodies = struck_stack_bodies(n, r, speed, restitution, offset, others);
        let (culled, uncut, _) = culled_and_uncut_on_floor(&bodies, sliver);
        prop_assert_eq!(culled, uncut);
    }
}

/// The twelve triangles of a closed box of half side `h` (m) around the
/// origin, every front face inward.
fn closed_box(h: f32) -> Vec<[Vec3; 3]> {
    let mut out = Vec::new();
    for axis in 0..3 {
        for side in [-1.0f32, 1.0] {
            let (u, w) = ((axis + 1) % 3, (axis + 2) % 3);
            let corner = |a: f32, b: f32| {
                let mut p = Vec3::zeros();
                p[axis] = side * h;
                p[u] = a * h;
                p[w] = b * h;
                p
            };
            let quad = [
                corner(-1.0, -1.0),
                corner(1.0, -1.0),
                corner(1.0, 1.0),
                corner(-1.0, 1.0),
            ];
            for mut t in [[quad[0], quad[1], quad[2]], [quad[0], quad[2], quad[3]]] {
                // Inward: the normal points against the face's side.
                if (t[1] - t[0]).cross(&(t[2] - t[0]))[axis] * side > 0.0 {
                    t.swap(1, 2);
                }
                out.push(t);
            }
        }
    }
    out
}

/// An elastic room (`n` spheres of radius 0.2 m, restitution 1, up to 50
/// m/s per axis, in a closed 10 m box, a 0.5 s step: hundreds of passes,
/// the pair windows opening and expiring): the culled sweep, which sweeps
/// only the pairs due by each pass's event, is the uncut sweep bit for
/// bit, and sweeps a small share of its pairs.
#[test]
fn an_elastic_room_sweep_is_the_uncut_sweep_bit_for_bit() {
    let triangles = closed_box(5.0);
    let tree = parapet_geometry::bvh::TriangleBoundsTree::build(&triangles).unwrap();
    let elastic = Material::new(0.0, 1.0, 0.0).unwrap();
    let material = |_: usize| Some(elastic);
    let edges = |_: usize| ActiveEdges::ALL;
    let mesh = MeshView {
        triangles: &triangles,
        tree: &tree,
        material: &material,
        edges: &edges,
    };
    for (n, seed) in [(40usize, 7u64), (80, 11)] {
        let mut state = seed;
        let mut next = || {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 11) as f32 / (1u64 << 53) as f32
        };
        let bodies: Vec<(RigidBody, MemberShape)> = (0..n)
            .map(|_| {
                let p = Vec3::new(next(), next(), next()).map(|x| (x - 0.5) * 9.0);
                let v = Vec3::new(next(), next(), next()).map(|x| (x - 0.5) * 100.0);
                let b = RigidBody::new_dynamic(Shape::sphere(0.2).unwrap(), 1.0)
                    .unwrap()
                    .with_position(p)
                    .with_linear_velocity(v)
                    .with_material(elastic);
                (b, MemberShape::Sphere { radius: 0.2 })
            })
            .collect();
        let input = GroupInput {
            members: members_of(&bodies, 20.0),
            dt: 0.5,
            max_impacts: 1024,
        };
        let culled = sweep_group_with(&input, Some(&mesh), true);
        let uncut = sweep_group_with(&input, Some(&mesh), false);
        assert_eq!(physics(&culled), physics(&uncut), "{n} spheres");
        let (c, u) = (culled.unwrap().work, uncut.unwrap().work);
        assert!(c.passes > n as u64, "{n}: {c:?}");
        // Every pair every pass would be `n (n - 1) / 2` per pass; the due
        // pairs are those near an impact: fewer than the members.
        assert!(c.pair_sweeps < c.passes * n as u64, "{n}: {c:?} vs {u:?}");
    }
}
