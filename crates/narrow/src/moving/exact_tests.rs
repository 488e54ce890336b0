//! Unit tests of the exact translation path: for `f32` inputs, a window
//! starting at 0 and a target of 0, the arbiter's hits are those of the
//! `f32` sweeps of `crate::sweep` bit for bit (time as the window fraction
//! rounded down into seconds, point, normal, features), over random
//! spheres, capsules, boxes, hulls, triangles and segment pairs.

use std::sync::Arc;

use parapet_geometry::Shape;
use parapet_math::{promote, promote_quat, Quat, Quatd, Vec3, Vec3d};

use super::time_at;
use crate::moving::{time_of_impact, Core, Motion, MovingShape, Toi, ToiRequest};
use crate::solid::ConvexSolid;
use crate::sweep::test_fixtures::{skewed_octahedron, xorshift};
use crate::sweep::{
    sweep_capsule_triangle, sweep_segment_pair, sweep_solid_triangle, sweep_sphere_triangle,
    Impact, MovingSegment, Placement, SweepOutcome,
};

/// The arbiter's answer as bits, and the sweep's mapped the same way:
/// `None` for a miss, else (time, point, normal) bits.
type Bits = Option<(u64, [u64; 3], [u64; 3])>;

fn sweep_bits<F>(o: &SweepOutcome<F>, dt: f64) -> Option<Bits> {
    let b = |i: &Impact<F>, t: f64| {
        Some((
            t.to_bits(),
            [
                i.point.x.to_bits(),
                i.point.y.to_bits(),
                i.point.z.to_bits(),
            ],
            [
                i.normal.x.to_bits(),
                i.normal.y.to_bits(),
                i.normal.z.to_bits(),
            ],
        ))
    };
    match o {
        SweepOutcome::Hit(i) => Some(b(i, time_at(0.0, dt, i.time))),
        SweepOutcome::InitiallyTouching(i) => Some(b(i, 0.0)),
        SweepOutcome::Miss => Some(None),
        // Refused by the sweep: the arbiter answers by advancement.
        SweepOutcome::Refused(_) => None,
    }
}

fn toi_bits(t: &Toi) -> Bits {
    t.hit().map(|h| {
        (
            h.time.to_bits(),
            [
                h.point_b.x.to_bits(),
                h.point_b.y.to_bits(),
                h.point_b.z.to_bits(),
            ],
            [
                h.normal.x.to_bits(),
                h.normal.y.to_bits(),
                h.normal.z.to_bits(),
            ],
        )
    })
}

/// A vector with components uniform in `[-s, s)`.
fn rv(unit: &mut impl FnMut() -> f32, s: f32) -> Vec3 {
    Vec3::new(
        s * (2.0 * unit() - 1.0),
        s * (2.0 * unit() - 1.0),
        s * (2.0 * unit() - 1.0),
    )
}

fn mesh(tri: &[Vec3; 3]) -> MovingShape {
    let s = Shape::mesh(tri.to_vec(), vec![[0, 1, 2]]).unwrap();
    MovingShape::from_shape(&s, Vec3::zeros(), Quat::identity()).unwrap()
}

fn still() -> Motion {
    Motion::fixed(Vec3d::zeros(), Quatd::identity())
}

/// A translating body at the origin whose core is placed in world
/// coordinates (its points are its world positions at time 0).
fn sliding(v: Vec3) -> Motion {
    Motion::new(
        Vec3d::zeros(),
        Quatd::identity(),
        Vec3d::zeros(),
        promote(v),
        Vec3d::zeros(),
    )
}

fn arbiter(a: &MovingShape, ma: &Motion, b: &MovingShape, mb: &Motion, dt: f32) -> Bits {
    let req = ToiRequest::new(0.0, f64::from(dt), 0.0, 1e-4);
    toi_bits(&time_of_impact(a, ma, b, mb, &req).unwrap())
}

#[test]
fn round_shapes_against_triangles_match_the_sweeps_bit_for_bit() {
    let mut unit = xorshift(0x2701);
    let mut compared = [0usize; 2];
    for case in 0..3000 {
        let tri = [rv(&mut unit, 2.0), rv(&mut unit, 2.0), rv(&mut unit, 2.0)];
        let p0 = rv(&mut unit, 1.5) + Vec3::new(0.0, 0.0, 0.5);
        let p1 = p0 + rv(&mut unit, 0.5);
        let vel = rv(&mut unit, 20.0);
        let r = 0.05 + 0.3 * (case % 7) as f32 / 7.0;
        let dt = 0.1;
        let fdt = f64::from(dt);
        let (old, new) = if case % 2 == 0 {
            let core = MovingShape::Convex(Core::point(promote(p0), f64::from(r)));
            (
                sweep_bits(&sweep_sphere_triangle(p0, r, vel, dt, &tri), fdt),
                arbiter(&core, &sliding(vel), &mesh(&tri), &still(), dt),
            )
        } else {
            let core = MovingShape::Convex(Core::segment([promote(p0), promote(p1)], f64::from(r)));
            (
                sweep_bits(&sweep_capsule_triangle(p0, p1, r, vel, dt, &tri), fdt),
                arbiter(&core, &sliding(vel), &mesh(&tri), &still(), dt),
            )
        };
        if let Some(old) = old {
            assert_eq!(old, new, "case {case}");
            compared[usize::from(old.is_some())] += 1;
        }
    }
    // Both misses and hits were compared.
    assert!(compared.iter().all(|&n| n > 200), "{compared:?}");
}

#[test]
fn segment_pairs_match_the_pair_sweep_bit_for_bit() {
    let mut unit = xorshift(0x2702);
    let mut compared = [0usize; 2];
    for case in 0..3000 {
        let member = |p: Vec3, q: Vec3, r: f32, sphere: bool| {
            if sphere {
                (
                    MovingSegment::sphere(p, r, Vec3::zeros()),
                    Core::point(promote(p), f64::from(r)),
                )
            } else {
                (
                    MovingSegment::capsule(p, q, r, Vec3::zeros()),
                    Core::segment([promote(p), promote(q)], f64::from(r)),
                )
            }
        };
        let (pa, qa, pb, qb) = (
            rv(&mut unit, 2.0),
            rv(&mut unit, 2.0),
            rv(&mut unit, 2.0),
            rv(&mut unit, 2.0),
        );
        let (mut sa, ca) = member(pa, pa + (qa * 0.3), 0.1 + 0.2 * unit(), case % 3 == 0);
        let (mut sb, cb) = member(pb, pb + (qb * 0.3), 0.1 + 0.2 * unit(), case % 5 == 0);
        sa.velocity = (pb - pa) * (1.0 + unit()) + rv(&mut unit, 1.0);
        sb.velocity = rv(&mut unit, 3.0);
        let dt = 1.0;
        let old = sweep_segment_pair(&sa, &sb, dt);
        let new = arbiter(
            &MovingShape::Convex(ca),
            &sliding(sa.velocity),
            &MovingShape::Convex(cb),
            &sliding(sb.velocity),
            dt,
        );
        if let Some(old) = sweep_bits(&old, f64::from(dt)) {
            assert_eq!(
                old,
                new,
                "case {case}: {:?}",
                sweep_segment_pair(&sa, &sb, dt)
            );
            compared[usize::from(old.is_some())] += 1;
        }
    }
    assert!(compared.iter().all(|&n| n > 200), "{compared:?}");
}

#[test]
fn solids_against_triangles_match_the_solid_sweep_bit_for_bit() {
    let mut unit = xorshift(0x2703);
    let mut compared = [0usize; 2];
    let hull = Arc::new(skewed_octahedron());
    for case in 0..2000 {
        let solid = if case % 2 == 0 {
            Arc::new(
                ConvexSolid::from_cuboid(rv(&mut unit, 0.5).abs() + Vec3::repeat(0.05)).unwrap(),
            )
        } else {
            hull.clone()
        };
        let tri = [rv(&mut unit, 2.0), rv(&mut unit, 2.0), rv(&mut unit, 2.0)];
        let position = rv(&mut unit, 1.5);
        let rotation = Quat::from_scaled_axis(rv(&mut unit, 2.0));
        let vel = (rv(&mut unit, 0.5) - position) * 2.0;
        let dt = 1.0;
        let place = Placement::at(position, rotation);
        let old = sweep_solid_triangle(&solid, &place, vel, dt, &tri);
        let core = MovingShape::Convex(Core::polytope(solid, Vec3d::zeros(), Quatd::identity()));
        // The f32 rotation promoted, not yet normalized: the arbiter
        // normalizes it once, as the sweep does.
        let motion = Motion::new(
            promote(position),
            Quatd::new_unchecked(promote_quat(rotation).into_inner()),
            Vec3d::zeros(),
            promote(vel),
            Vec3d::zeros(),
        );
        let new = arbiter(&core, &motion, &mesh(&tri), &still(), dt);
        if let Some(old) = sweep_bits(&old, f64::from(dt)) {
            assert_eq!(old, new, "case {case}");
            compared[usize::from(old.is_some())] += 1;
        }
    }
    assert!(compared.iter().all(|&n| n > 100), "{compared:?}");
}
