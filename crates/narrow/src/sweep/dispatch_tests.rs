//! Unit tests of the sweep dispatcher: its outcomes are those of the
//! per-pair sweeps bit for bit, for triangles (one at a time and prepared)
//! and for pairs, over random shapes, placements, motions and triangles.

use super::*;
use crate::sweep::test_fixtures::{floor, skewed_octahedron, xorshift};
use crate::sweep::{
    sweep_capsule_triangle, sweep_solid_triangle, sweep_sphere_triangle, Impact, MAX_SHAPE_OFFSET,
};

/// An outcome by its bits: the kind, the feature, and the time, point and
/// normal as `f64` bits (so even the sign of a zero must agree).
fn bits<F: Copy + std::fmt::Debug>(o: &SweepOutcome<F>) -> String {
    let impact = |i: &Impact<F>| {
        format!(
            "{:x} {:?} {:?} {:?}",
            i.time.to_bits(),
            i.point.map(f64::to_bits),
            i.normal.map(f64::to_bits),
            i.feature
        )
    };
    match o {
        SweepOutcome::Hit(i) => format!("hit {}", impact(i)),
        SweepOutcome::InitiallyTouching(i) => format!("touch {}", impact(i)),
        SweepOutcome::Miss => "miss".to_string(),
        SweepOutcome::Refused(r) => format!("refused {r:?}"),
    }
}

/// A random shape of each kind in turn: spheres and capsules (a few with a
/// radius below the precision domain), boxes and a skewed octahedron.
fn random_shape(case: usize, unit: &mut dyn FnMut() -> f32) -> SweptShape {
    let r = if case.is_multiple_of(23) {
        1.0e-5
    } else {
        0.05 + 0.5 * unit()
    };
    match case % 4 {
        0 => SweptShape::Sphere { radius: r },
        1 => SweptShape::Capsule {
            radius: r,
            half_height: if case % 9 == 1 { 0.0 } else { unit() },
        },
        2 => SweptShape::Solid {
            solid: Arc::new(
                ConvexSolid::from_cuboid(Vec3::new(0.05 + unit(), 0.05 + unit(), 0.05 + unit()))
                    .unwrap(),
            ),
        },
        _ => SweptShape::Solid {
            solid: Arc::new(skewed_octahedron()),
        },
    }
}

/// The per-pair sweep of `shape` at `place` as a caller that matches on the
/// shape runs it: a sphere at the body position, a capsule between the
/// centre minus and plus its half axis (each rounded to `f32` once), a
/// solid by its placement.
fn per_pair(
    shape: &SweptShape,
    place: &Placement,
    v: Vec3,
    dt: f32,
    tri: &[Vec3; 3],
) -> SweepOutcome<SweptFeature> {
    match shape {
        SweptShape::Sphere { radius } => {
            sweep_sphere_triangle(place.body_position, *radius, v, dt, tri)
                .map_feature(SweptFeature::Sphere)
        }
        SweptShape::Capsule {
            radius,
            half_height,
        } => {
            let half = promote(capsule_half_axis(
                place.body_rotation,
                place.shape_rotation,
                *half_height,
            ));
            let c = promote(place.body_position);
            let (p0, p1) = ((c - half).map(|x| x as f32), (c + half).map(|x| x as f32));
            sweep_capsule_triangle(p0, p1, *radius, v, dt, tri).map_feature(SweptFeature::Capsule)
        }
        SweptShape::Solid { solid } => {
            sweep_solid_triangle(solid, place, v, dt, tri).map_feature(SweptFeature::Solid)
        }
    }
}

#[test]
fn the_dispatcher_gives_the_per_pair_sweeps_outcomes_bit_for_bit() {
    // Random shapes, centred placements (turned bodies and shapes, and
    // solids off their body origin), motions and 8 triangles per case,
    // swept one at a time and prepared once per case; every 50th case out
    // of the precision domain (a NaN velocity, a negative step, a
    // degenerate triangle).
    let mut unit = xorshift(0x51ed_27a9_0c3b_e44d);
    let mut seen = [0usize; 4];
    for case in 0..4_000 {
        let shape = random_shape(case, &mut unit);
        let v3 = |u: &mut dyn FnMut() -> f32, s: f32| {
            Vec3::new(s * (u() - 0.5), s * (u() - 0.5), s * (u() - 0.5))
        };
        let mut tris: Vec<[Vec3; 3]> = (0..8)
            .map(|_| [v3(&mut unit, 4.0), v3(&mut unit, 4.0), v3(&mut unit, 4.0)])
            .collect();
        let start = v3(&mut unit, 4.0);
        let turned = case % 3 != 0;
        let place = Placement {
            body_position: start,
            body_rotation: if turned {
                Quat::from_euler_angles(3.0 * unit(), 3.0 * unit(), 3.0 * unit())
            } else {
                Quat::identity()
            },
            shape_offset: match shape {
                SweptShape::Solid { .. } if case % 5 == 2 => v3(&mut unit, 0.6),
                _ => Vec3::zeros(),
            },
            shape_rotation: if case % 7 == 0 {
                Quat::from_euler_angles(unit(), unit(), unit())
            } else {
                Quat::identity()
            },
        };
        let mut vel = (v3(&mut unit, 1.0) - start) * (0.5 + 2.0 * unit());
        let mut dt = 0.5 + unit();
        match case % 50 {
            7 => vel.x = f32::NAN,
            17 => dt = -1.0,
            27 => tris[3] = [Vec3::zeros(), Vec3::x(), Vec3::x() * 2.0],
            _ => {}
        }
        let prepared = shape.prepare(&place, vel, dt);
        for tri in &tris {
            let want = bits(&per_pair(&shape, &place, vel, dt, tri));
            let one = shape.sweep_triangle(&place, vel, dt, tri);
            assert_eq!(
                bits(&one),
                want,
                "case {case}: {shape:?} {place:?} {vel:?} {tri:?}"
            );
            let reused = prepared.triangle(tri);
            assert_eq!(bits(&reused), want, "case {case} prepared");
            seen[match one {
                SweepOutcome::Hit(_) => 0,
                SweepOutcome::InitiallyTouching(_) => 1,
                SweepOutcome::Miss => 2,
                SweepOutcome::Refused(_) => 3,
            }] += 1;
        }
        assert_eq!(
            prepared.refusal().is_some(),
            matches!(case % 50, 7 | 17) || case.is_multiple_of(23) && case % 4 < 2,
            "case {case}"
        );
    }
    // The cases reach hits, initial contacts, misses and refusals.
    assert!(seen.iter().all(|&n| n > 100), "{seen:?}");
}

#[test]
fn the_pair_dispatcher_gives_the_segment_pair_sweep_bit_for_bit() {
    let mut unit = xorshift(0x0ddb_a11c_afe0_f00d);
    let mut hits = 0;
    for case in 0..4_000 {
        let v3 = |u: &mut dyn FnMut() -> f32, s: f32| {
            Vec3::new(s * (u() - 0.5), s * (u() - 0.5), s * (u() - 0.5))
        };
        // Spheres and capsules only (every other case), both ways round.
        let a = random_shape(4 * case + case % 2, &mut unit);
        let b = random_shape(4 * case + (case / 2) % 2, &mut unit);
        let (pa, pb) = (
            Placement::at(
                v3(&mut unit, 3.0),
                Quat::from_euler_angles(3.0 * unit(), 3.0 * unit(), 3.0 * unit()),
            ),
            Placement::at(v3(&mut unit, 3.0), Quat::identity()),
        );
        let (va, vb) = (v3(&mut unit, 8.0), v3(&mut unit, 8.0));
        let dt = 0.5 + unit();
        let segment = |s: &SweptShape, p: &Placement, v: Vec3| match s {
            SweptShape::Sphere { radius } => MovingSegment::sphere(p.body_position, *radius, v),
            SweptShape::Capsule {
                radius,
                half_height,
            } => {
                let half = promote(capsule_half_axis(
                    p.body_rotation,
                    p.shape_rotation,
                    *half_height,
                ));
                let c = promote(p.body_position);
                MovingSegment::capsule(
                    (c - half).map(|x| x as f32),
                    (c + half).map(|x| x as f32),
                    *radius,
                    v,
                )
            }
            SweptShape::Solid { .. } => unreachable!("no solid in these cases"),
        };
        let want = sweep_segment_pair(&segment(&a, &pa, va), &segment(&b, &pb, vb), dt);
        let got = sweep_shape_pair(&a, &pa, va, &b, &pb, vb, dt);
        assert_eq!(bits(&got), bits(&want), "case {case}");
        hits += usize::from(got.is_hit());
    }
    assert!(hits > 100, "{hits}");
    // A solid has no pair sweep: refused, naming it.
    let solid = random_shape(2, &mut unit);
    let sphere = SweptShape::Sphere { radius: 0.5 };
    let at = Placement::at(Vec3::zeros(), Quat::identity());
    let o = sweep_shape_pair(&sphere, &at, Vec3::x(), &solid, &at, Vec3::zeros(), 1.0);
    assert_eq!(
        o,
        SweepOutcome::Refused(SweepRefusal::UnsupportedShape {
            shape: "box",
            target: "another moving shape",
        })
    );
}

#[test]
fn an_offset_sphere_is_swept_where_its_shape_sits() {
    // Body at z = 5, sphere 2 m below its origin: centre at z = 3 (exact),
    // radius 0.5, falling 5 m onto the floor: the sweep of a sphere at
    // z = 3, bit for bit.
    let sphere = SweptShape::Sphere { radius: 0.5 };
    let place = Placement {
        body_position: Vec3::new(0.0, 0.0, 5.0),
        body_rotation: Quat::identity(),
        shape_offset: Vec3::new(0.0, 0.0, -2.0),
        shape_rotation: Quat::identity(),
    };
    let v = Vec3::new(0.0, 0.0, -5.0);
    let o = sphere.sweep_triangle(&place, v, 1.0, &floor());
    let at3 = sweep_sphere_triangle(Vec3::new(0.0, 0.0, 3.0), 0.5, v, 1.0, &floor());
    assert_eq!(bits(&o), bits(&at3.map_feature(SweptFeature::Sphere)));
    // 2.5 m of 5 m: half the step.
    assert_eq!(o.time(), Some(0.5));
    // An offset beyond the limit is refused, as a solid's is.
    let far = Placement {
        shape_offset: Vec3::new(0.0, 0.0, 2.0 * MAX_SHAPE_OFFSET as f32),
        ..place
    };
    assert!(matches!(
        sphere.sweep_triangle(&far, v, 1.0, &floor()),
        SweepOutcome::Refused(SweepRefusal::ShapeOffsetTooLarge { .. })
    ));
}

#[test]
fn a_capsule_half_axis_is_its_z_axis_turned_by_both_rotations() {
    // Upright: exactly (0, 0, h).
    let i = Quat::identity();
    assert_eq!(capsule_half_axis(i, i, 0.75), Vec3::new(0.0, 0.0, 0.75));
    // A quarter turn about x takes z to -y; about x again (in the shape)
    // to -z: within f32 rounding of the turned unit axis (1e-7 relative).
    let quarter = Quat::from_axis_angle(&Vec3::x_axis(), std::f32::consts::FRAC_PI_2);
    let h = capsule_half_axis(quarter, i, 0.75);
    assert!((h - Vec3::new(0.0, -0.75, 0.0)).norm() < 1e-6, "{h:?}");
    let h = capsule_half_axis(quarter, quarter, 0.75);
    assert!((h - Vec3::new(0.0, 0.0, -0.75)).norm() < 1e-6, "{h:?}");
}

#[test]
fn an_upright_capsule_half_axis_is_the_turned_axis_bit_for_bit() {
    // The general turn with the normalized product of both rotations.
    let turned = |q: Quat, h: f32| {
        let q = UnitQuaternion::new_normalize(
            promote_quat(q).into_inner() * promote_quat(Quat::identity()).into_inner(),
        );
        (q * Vec3d::new(0.0, 0.0, h as f64)).map(|x| x as f32)
    };
    let i = Quat::identity();
    for h in [0.0f32, 1e-4, 0.3, 7.25, 1e4] {
        // The upright shortcut is the turn by the identity, bit for bit.
        let fast = capsule_half_axis(i, i, h);
        assert_eq!(
            fast.map(f32::to_bits),
            turned(i, h).map(f32::to_bits),
            "h {h}"
        );
        // A turned capsule still takes the turn.
        let tilt = Quat::from_euler_angles(0.3, 0.0, 0.0);
        assert_eq!(capsule_half_axis(tilt, i, h), turned(tilt, h));
    }
}

#[test]
fn the_limit_radius_is_the_radius_or_the_solids_farthest_vertex() {
    assert_eq!(SweptShape::Sphere { radius: 0.25 }.limit_radius(), 0.25);
    let capsule = SweptShape::Capsule {
        radius: 0.5,
        half_height: 3.0,
    };
    assert_eq!(capsule.limit_radius(), 0.5);
    let cube = ConvexSolid::from_cuboid(Vec3::new(1.0, 2.0, 2.0)).unwrap();
    let solid = SweptShape::Solid {
        solid: Arc::new(cube),
    };
    // The corner (1, 2, 2) is 3 m from the centre.
    assert_eq!(solid.limit_radius(), 3.0);
}
