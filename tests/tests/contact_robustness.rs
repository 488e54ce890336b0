//! No contact or ray function panics or returns NaN for arbitrary finite
//! inputs, and on sensible inputs every manifold keeps its invariants: a
//! unit normal, at most four points, depths above `-margin`.
//!
//! Two input domains: "any finite" (every finite `f32`, including huge,
//! tiny and subnormal values and negative radii), where a pair function
//! either refuses (outside the precision domain: a negative size, a size
//! or coordinate beyond `MAX_CONTACT_COORDINATE`) or answers with a
//! manifold that keeps the invariants, and the ray functions give no NaN;
//! and "physical" (coordinates within +-1e4 m, sizes 1e-3..1e2 m, margins
//! 0..10 m), where nothing is refused and the invariants hold.
//! Set `PARAPET_ROBUSTNESS_CASES` to run more cases than the default 512.

use parapet_geometry::Shape;
use parapet_math::nalgebra::{Isometry3, Translation3, UnitQuaternion};
use parapet_math::Vec3;
use parapet_narrow::contact::{self, ContactError, Manifold, Pose};
use parapet_narrow::ray::{self, RayIntersection};
use proptest::prelude::*;

/// Unit-length tolerance of a normal rounded from `f64` to `f32`
/// (dimensionless): a few `f32` ulps of 1.
const UNIT_TOL: f32 = 1.0e-5;

fn cases() -> u32 {
    std::env::var("PARAPET_ROBUSTNESS_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(512)
}

fn any_finite() -> impl Strategy<Value = f32> {
    prop_oneof![
        proptest::num::f32::NORMAL | proptest::num::f32::SUBNORMAL | proptest::num::f32::ZERO,
        -2.0f32..2.0,
    ]
}

fn any_vec() -> impl Strategy<Value = Vec3> {
    (any_finite(), any_finite(), any_finite()).prop_map(|(x, y, z)| Vec3::new(x, y, z))
}

fn any_pose() -> impl Strategy<Value = Pose> {
    (any_vec(), (-10.0f32..10.0, -10.0f32..10.0, -10.0f32..10.0)).prop_map(|(t, (a, b, c))| {
        Isometry3::from_parts(
            Translation3::from(t),
            UnitQuaternion::from_scaled_axis(Vec3::new(a, b, c)),
        )
    })
}

fn phys_vec() -> impl Strategy<Value = Vec3> {
    (-1.0e4f32..1.0e4, -1.0e4f32..1.0e4, -1.0e4f32..1.0e4).prop_map(|(x, y, z)| Vec3::new(x, y, z))
}

/// A point near `base`: within 3 m, so that most pairs touch.
fn near(base: Vec3) -> impl Strategy<Value = Vec3> {
    (-3.0f32..3.0, -3.0f32..3.0, -3.0f32..3.0).prop_map(move |(x, y, z)| base + Vec3::new(x, y, z))
}

fn size() -> impl Strategy<Value = f32> {
    1.0e-3f32..1.0e2
}

fn rotation() -> impl Strategy<Value = UnitQuaternion<f32>> {
    (-10.0f32..10.0, -10.0f32..10.0, -10.0f32..10.0)
        .prop_map(|(a, b, c)| UnitQuaternion::from_scaled_axis(Vec3::new(a, b, c)))
}

fn no_nan(m: &Manifold) -> Result<(), TestCaseError> {
    prop_assert!(!m.normal().iter().any(|x| x.is_nan()), "{m:?}");
    for p in m.points() {
        prop_assert!(
            !p.depth.is_nan() && !p.point.iter().any(|x| x.is_nan()),
            "{m:?}"
        );
    }
    Ok(())
}

fn invariants(m: &Manifold, margin: f32) -> Result<(), TestCaseError> {
    no_nan(m)?;
    prop_assert!(m.len() <= contact::MAX_CONTACT_POINTS);
    if !m.is_empty() {
        prop_assert!((m.normal().norm() - 1.0).abs() < UNIT_TOL, "{m:?}");
        for p in m.points() {
            // Reported only below the margin; f64 -> f32 rounding of the depth.
            prop_assert!(
                p.depth >= -margin * (1.0 + 1e-6) - 1e-6,
                "{m:?} margin {margin}"
            );
            prop_assert!(p.point.iter().all(|x| x.is_finite()), "{m:?}");
        }
    }
    Ok(())
}

fn ray_ok(hit: Option<RayIntersection>, max: f32) -> Result<(), TestCaseError> {
    if let Some(h) = hit {
        prop_assert!(
            !h.distance.is_nan()
                && !h.point.iter().any(|x| x.is_nan())
                && !h.normal.iter().any(|x| x.is_nan()),
            "{h:?}"
        );
        prop_assert!(h.distance >= 0.0 && h.distance <= max.max(0.0), "{h:?}");
    }
    Ok(())
}

/// Every pair function on one input set.
#[allow(clippy::type_complexity)]
fn all_pairs(
    c: [Vec3; 6],
    r: [f32; 2],
    pa: &Pose,
    pb: &Pose,
    margin: f32,
) -> Vec<Result<Manifold, ContactError>> {
    let seg_a = [c[0], c[1]];
    let seg_b = [c[2], c[3]];
    let tri = [c[3], c[4], c[5]];
    let half_a = c[4].map(|x| x.abs());
    let half_b = c[5].map(|x| x.abs());
    vec![
        contact::contact_sphere_sphere(c[0], r[0], c[2], r[1], margin),
        contact::contact_sphere_capsule(c[0], r[0], seg_b, r[1], margin),
        contact::contact_capsule_sphere(seg_a, r[0], c[2], r[1], margin),
        contact::contact_capsule_capsule(seg_a, r[0], seg_b, r[1], margin),
        contact::contact_sphere_triangle(c[0], r[0], &tri, margin),
        contact::contact_capsule_triangle(seg_a, r[0], &tri, margin),
        contact::contact_cuboid_cuboid(half_a, pa, half_b, pb, margin),
        contact::contact_sphere_cuboid(c[0], r[0], half_b, pb, margin),
        contact::contact_cuboid_sphere(half_a, pa, c[2], r[1], margin),
        contact::contact_capsule_cuboid(seg_a, r[0], half_b, pb, margin),
        contact::contact_cuboid_capsule(half_a, pa, seg_b, r[1], margin),
        contact::contact_cuboid_triangle(half_a, pa, &tri, margin),
    ]
}

fn all_rays(c: [Vec3; 6], r: [f32; 2], pa: &Pose, max: f32) -> Vec<Option<RayIntersection>> {
    let (o, d) = (c[0], c[1]);
    vec![
        ray::cast_sphere(c[2], r[0], o, d, max).ok().flatten(),
        ray::cast_capsule(r[0], r[1], pa, o, d, max).ok().flatten(),
        ray::cast_cuboid(c[4].map(|x| x.abs()), pa, o, d, max)
            .ok()
            .flatten(),
        ray::cast_triangle(&[c[3], c[4], c[5]], o, d, max)
            .ok()
            .flatten(),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), ..ProptestConfig::default() })]

    #[test]
    fn any_finite_input_gives_no_panic_and_no_nan(
        c in [any_vec(), any_vec(), any_vec(), any_vec(), any_vec(), any_vec()],
        r in [any_finite(), any_finite()],
        pa in any_pose(), pb in any_pose(), margin in any_finite(),
    ) {
        // Refused (a negative or huge size, a huge coordinate: outside
        // the precision domain), or a manifold that keeps every invariant.
        for m in all_pairs(c, r, &pa, &pb, margin).into_iter().flatten() {
            invariants(&m, margin)?;
        }
        for h in all_rays(c, r, &pa, margin).into_iter().flatten() {
            prop_assert!(!h.distance.is_nan() && !h.normal.iter().any(|x| x.is_nan()), "{h:?}");
        }
    }

    #[test]
    fn physical_inputs_keep_the_manifold_invariants(
        base in phys_vec(),
        offsets in [near(Vec3::zeros()), near(Vec3::zeros()), near(Vec3::zeros()), near(Vec3::zeros()), near(Vec3::zeros()), near(Vec3::zeros())],
        r in [size(), size()],
        qa in rotation(), qb in rotation(),
        margin in 0.0f32..10.0,
    ) {
        let c = offsets.map(|o| base + o);
        let pa = Isometry3::from_parts(Translation3::from(c[0]), qa);
        let pb = Isometry3::from_parts(Translation3::from(c[2]), qb);
        // Sizes within the physical range for the cuboids too.
        let mut c2 = c;
        c2[4] = Vec3::new(r[0], r[1], 0.5 * (r[0] + r[1]));
        c2[5] = Vec3::new(r[1], 0.3 * r[0] + 1e-3, r[0]);
        for m in all_pairs(c2, r, &pa, &pb, margin) {
            // Inside the precision domain: never refused.
            let m = m.map_err(|e| TestCaseError::fail(format!("refused: {e}")))?;
            invariants(&m, margin)?;
        }
        for hit in all_rays(c, r, &pa, margin) {
            ray_ok(hit, margin)?;
        }
    }

    #[test]
    fn the_dispatcher_keeps_the_invariants_for_every_solid_pair(
        base in phys_vec(),
        da in near(Vec3::zeros()), db in near(Vec3::zeros()),
        r in [0.05f32..3.0, 0.05f32..3.0],
        qa in rotation(), qb in rotation(),
        margin in 0.0f32..1.0,
        hull_pts in proptest::collection::vec((-1.0f32..1.0, -1.0f32..1.0, -1.0f32..1.0), 4..12),
    ) {
        let pts: Vec<Vec3> = hull_pts.into_iter().map(|(x, y, z)| Vec3::new(x, y, z)).collect();
        let mut shapes = vec![
            Shape::sphere(r[0]).unwrap(),
            Shape::capsule(r[1], r[0]).unwrap(),
            Shape::cuboid(Vec3::new(r[0], r[1], r[0])).unwrap(),
        ];
        if let Ok(h) = Shape::convex_hull(&pts) {
            shapes.push(h);
        }
        let pa = Isometry3::from_parts(Translation3::from(base + da), qa);
        let pb = Isometry3::from_parts(Translation3::from(base + db), qb);
        for a in &shapes {
            for b in &shapes {
                let m = contact::shapes(a, &pa, b, &pb, margin).unwrap();
                invariants(&m, margin)?;
            }
            let hit = ray::cast_shape(a, &pa, base + db, da - db, 10.0).unwrap();
            ray_ok(hit, 10.0)?;
        }
    }
}
