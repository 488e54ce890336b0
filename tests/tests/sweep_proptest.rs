//! Property tests of every sweep: for arbitrary finite inputs (including the
//! refusal paths: tiny and huge radii, far coordinates, degenerate
//! triangles), no sweep panics, no result holds a NaN, and every reported
//! time lies in `[0, 1]` with a unit normal.

use parapet_math::Quat;
use parapet_math::Vec3;
use parapet_narrow::solid::ConvexSolid;
use parapet_narrow::sweep::{
    sweep_capsule_triangle, sweep_capsule_triangles, sweep_segment_pair, sweep_solid_triangle,
    sweep_sphere_triangle, sweep_sphere_triangles, Impact, MovingSegment, Placement, SweepOutcome,
};
use proptest::prelude::*;

/// Any finite f32, with extra weight on small, unit-scale and limit values.
fn coord() -> impl Strategy<Value = f32> {
    prop_oneof![
        4 => -10.0f32..10.0,
        1 => -2.0e6f32..2.0e6,
        1 => prop::num::f32::NORMAL | prop::num::f32::SUBNORMAL | prop::num::f32::ZERO,
        1 => Just(0.0f32),
    ]
}

fn vec3() -> impl Strategy<Value = Vec3> {
    (coord(), coord(), coord()).prop_map(|(x, y, z)| Vec3::new(x, y, z))
}

fn radius() -> impl Strategy<Value = f32> {
    prop_oneof![
        4 => 1.0e-3f32..5.0,
        1 => prop::num::f32::POSITIVE | prop::num::f32::ZERO | prop::num::f32::NEGATIVE,
    ]
}

fn dt() -> impl Strategy<Value = f32> {
    prop_oneof![4 => 0.0f32..0.1, 1 => prop::num::f32::ANY]
}

fn triangle() -> impl Strategy<Value = [Vec3; 3]> {
    prop_oneof![
        3 => [vec3(), vec3(), vec3()],
        // Degenerate and near-degenerate: the third vertex on or near the first edge.
        1 => (vec3(), vec3(), 0.0f32..1.0, -1.0e-6f32..1.0e-6).prop_map(|(a, b, s, e)| {
            [a, b, a + (b - a) * s + Vec3::new(0.0, 0.0, e)]
        }),
    ]
}

/// The invariants every outcome must satisfy.
fn well_formed<F: std::fmt::Debug + Copy>(o: &SweepOutcome<F>) -> Result<(), TestCaseError> {
    let check = |i: &Impact<F>| -> Result<(), TestCaseError> {
        prop_assert!(
            (0.0..=1.0).contains(&i.time),
            "time {} outside [0, 1]",
            i.time
        );
        prop_assert!(i.point.iter().all(|x| x.is_finite()), "point {:?}", i.point);
        prop_assert!(
            i.normal.iter().all(|x| x.is_finite()),
            "normal {:?}",
            i.normal
        );
        // A unit normal to f64 rounding of one normalisation.
        prop_assert!(
            (i.normal.norm() - 1.0).abs() < 1e-9,
            "normal {:?}",
            i.normal
        );
        Ok(())
    };
    match o {
        SweepOutcome::Hit(i) => check(i),
        SweepOutcome::InitiallyTouching(i) => {
            prop_assert_eq!(i.time, 0.0);
            check(i)
        }
        SweepOutcome::Miss | SweepOutcome::Refused(_) => Ok(()),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 4000, ..ProptestConfig::default() })]

    #[test]
    fn sphere_sweeps_are_well_formed(c in vec3(), r in radius(), v in vec3(), dt in dt(), tri in triangle()) {
        let o = sweep_sphere_triangle(c, r, v, dt, &tri);
        well_formed(&o)?;
        let m = sweep_sphere_triangles(c, r, v, dt, &[tri, tri]);
        well_formed(&m)?;
        // The mesh helper agrees with the single sweep on its first triangle.
        prop_assert_eq!(m.time(), o.time());
    }

    #[test]
    fn capsule_sweeps_are_well_formed(p0 in vec3(), p1 in vec3(), r in radius(), v in vec3(), dt in dt(), tri in triangle()) {
        let o = sweep_capsule_triangle(p0, p1, r, v, dt, &tri);
        well_formed(&o)?;
        let rev = sweep_capsule_triangle(p1, p0, r, v, dt, &tri);
        prop_assert_eq!(o.time(), rev.time());
        let m = sweep_capsule_triangles(p0, p1, r, v, dt, &[tri]);
        well_formed(&m)?;
        prop_assert_eq!(m.time(), o.time());
    }

    #[test]
    fn lying_capsules_near_a_floor_are_well_formed(
        x in -2.0f32..2.0, y in -2.0f32..2.0, z in 0.0f32..1.0, len in 0.0f32..3.0,
        ang in 0.0f32..6.3, r in 0.01f32..1.0, v in vec3(), dt in 0.0f32..0.1,
    ) {
        let floor = [Vec3::new(-1.0, -1.0, 0.0), Vec3::new(1.0, -1.0, 0.0), Vec3::new(0.0, 1.0, 0.0)];
        let half = Vec3::new(ang.cos(), ang.sin(), 0.0) * len;
        let c = Vec3::new(x, y, z);
        let o = sweep_capsule_triangle(c - half, c + half, r, v, dt, &floor);
        well_formed(&o)?;
    }

    #[test]
    fn pair_sweeps_are_well_formed(
        a0 in vec3(), a1 in vec3(), ra in radius(), va in vec3(),
        b0 in vec3(), b1 in vec3(), rb in radius(), vb in vec3(), dt in dt(), sphere in any::<bool>(),
    ) {
        let a = if sphere { MovingSegment::sphere(a0, ra, va) } else { MovingSegment::capsule(a0, a1, ra, va) };
        let b = MovingSegment::capsule(b0, b1, rb, vb);
        let o = sweep_segment_pair(&a, &b, dt);
        well_formed(&o)?;
        let s = sweep_segment_pair(&b, &a, dt);
        well_formed(&s)?;
        prop_assert_eq!(o.is_refused(), s.is_refused());
    }

    #[test]
    fn solid_sweeps_are_well_formed(
        h in vec3(), body in vec3(), offset in vec3(), v in vec3(), dt in dt(), tri in triangle(),
        (w, i, j, k) in (-1.0f32..1.0, -1.0f32..1.0, -1.0f32..1.0, -1.0f32..1.0),
    ) {
        // Any half extents: invalid ones are a construction error, never a panic.
        let Ok(solid) = ConvexSolid::from_cuboid(h) else { return Ok(()); };
        let q = parapet_math::nalgebra::Quaternion::new(w, i, j, k);
        // Unit or not: a non-unit rotation must be refused, not trusted.
        let rot = Quat::new_unchecked(q);
        let place = Placement { body_position: body, body_rotation: rot, shape_offset: offset, shape_rotation: Quat::identity() };
        let o = sweep_solid_triangle(&solid, &place, v, dt, &tri);
        well_formed(&o)?;
    }
}
