//! Mass properties of parapet shapes against independent closed-form solid
//! formulas over three length scales (1e-3, 1, 1e3 m) and three masses, plus
//! translated hulls, rotated and reflected tensors, mass scaling, the
//! parallel-axis theorem, exact symmetry and positive definiteness, refusals
//! and their atomicity, and a differential check against parry3d
//! (docs/physics.md "Mass properties").

use parapet_geometry::{MassProperties, Shape, ShapeError};
use parapet_math::{
    is_symmetric_positive_definite, Mat3, Mat3d, OrthogonalBasis, Quat, Vec3, Vec3d,
};
use parapet_scenes::prng::SplitMix64;
use parapet_tests::parry::{parry3d, to_parry};
use rstest::rstest;
use std::f64::consts::PI;

/// Relative tolerance of a tensor or center against an `f64` closed form,
/// measured against the tensor's largest diagonal entry (or the shape size).
/// The implementation rounds each entry once to `f32` (2^-24 = 6e-8 relative)
/// after an `f64` evaluation (about 1e-15); the oracle is `f64`. 5e-7 allows
/// a few `f32` ulps and still fails on any wrong coefficient (the smallest
/// coefficient change below, 83/320 vs 1/4 in a cap term, is 4%).
const REL_TOL: f64 = 5.0e-7;

fn assert_tensor_close(got: &Mat3, expected: &Mat3d, tol: f64, what: &str) {
    let scale = expected.diagonal().abs().max();
    for r in 0..3 {
        for c in 0..3 {
            let diff = (f64::from(got[(r, c)]) - expected[(r, c)]).abs();
            assert!(
                diff <= tol * scale,
                "{what}: entry ({r}, {c}) = {} vs expected {} (diff {diff:e}, limit {:e})",
                got[(r, c)],
                expected[(r, c)],
                tol * scale
            );
        }
    }
}

fn assert_vec_close(got: &Vec3, expected: &Vec3d, tol: f64, what: &str) {
    let diff = (got.cast::<f64>() - expected).norm();
    assert!(
        diff <= tol,
        "{what}: {got:?} vs {expected:?} (diff {diff:e}, limit {tol:e})"
    );
}

/// The invariants every result must satisfy: exact symmetry and exact
/// positive definiteness, finite center.
fn assert_valid(mp: &MassProperties) {
    assert_eq!(
        mp.inertia,
        mp.inertia.transpose(),
        "tensor must be exactly symmetric"
    );
    assert!(
        is_symmetric_positive_definite(&mp.inertia),
        "tensor must be SPD: {}",
        mp.inertia
    );
    assert!(mp.center.iter().all(|x| x.is_finite()));
    assert_eq!(mp.validate(), Ok(()));
}

#[rstest]
fn cubes_match_m_s2_over_6(
    #[values(1.0e-3, 1.0, 1.0e3)] scale: f32,
    #[values(1.0e-3, 1.0, 1.0e3)] mass: f32,
) {
    // A solid cube of side s: I = m s^2 / 6 about every axis through the center.
    let side = f64::from(scale);
    let mp = Shape::cuboid(Vec3::repeat(scale * 0.5))
        .unwrap()
        .mass_properties(mass)
        .unwrap();
    assert_valid(&mp);
    let i = f64::from(mass) * side * side / 6.0;
    assert_tensor_close(
        &mp.inertia,
        &Mat3d::from_diagonal_element(i),
        REL_TOL,
        "cube",
    );
    assert_vec_close(&mp.center, &Vec3d::zeros(), REL_TOL * side, "cube center");
    assert_eq!(mp.mass, mass);
}

#[rstest]
fn cuboids_match_m_over_12_sum_of_squared_sides(
    #[values(1.0e-3, 1.0, 1.0e3)] scale: f32,
    #[values([1.0, 2.0, 3.0], [0.1, 5.0, 0.7], [10.0, 0.01, 1.0])] half: [f32; 3],
) {
    // A solid box with sides (a, b, c): Ixx = m (b^2 + c^2) / 12, and so on.
    let h = Vec3::new(half[0], half[1], half[2]) * scale;
    let mass = 2.5f32;
    let mp = Shape::cuboid(h).unwrap().mass_properties(mass).unwrap();
    assert_valid(&mp);
    let [a, b, c] = [0, 1, 2].map(|i| 2.0 * f64::from(h[i]));
    let m = f64::from(mass);
    let expected = Mat3d::from_diagonal(&Vec3d::new(
        m * (b * b + c * c) / 12.0,
        m * (a * a + c * c) / 12.0,
        m * (a * a + b * b) / 12.0,
    ));
    assert_tensor_close(&mp.inertia, &expected, REL_TOL, "cuboid");
}

#[rstest]
fn spheres_match_the_solid_ball_integral(
    #[values(1.0e-3, 1.0, 1.0e3)] radius: f32,
    #[values(1.0e-3, 1.0, 1.0e3)] mass: f32,
) {
    // Through the density: rho = m / (4/3 pi r^3), I = 8/15 pi rho r^5.
    let r = f64::from(radius);
    let rho = f64::from(mass) / (4.0 / 3.0 * PI * r.powi(3));
    let i = 8.0 / 15.0 * PI * rho * r.powi(5);
    let mp = Shape::sphere(radius)
        .unwrap()
        .mass_properties(mass)
        .unwrap();
    assert_valid(&mp);
    assert_tensor_close(
        &mp.inertia,
        &Mat3d::from_diagonal_element(i),
        REL_TOL,
        "sphere",
    );
    assert_eq!(mp.center, Vec3::zeros());
}

/// A capsule from volumes: a cylinder of length 2h plus two hemispheres,
/// each hemisphere's own tensor (83/320 m r^2 across, 2/5 m r^2 along) moved
/// by the parallel-axis theorem from its centroid at h + 3r/8.
fn capsule_oracle(r: f64, h: f64, mass: f64) -> Mat3d {
    let v_cyl = PI * r * r * 2.0 * h;
    let v_hemi = 2.0 / 3.0 * PI * r.powi(3);
    let rho = mass / (v_cyl + 2.0 * v_hemi);
    let (m_cyl, m_hemi) = (rho * v_cyl, rho * v_hemi);
    let cyl_axial = m_cyl * r * r / 2.0;
    let cyl_across = m_cyl * (3.0 * r * r + (2.0 * h).powi(2)) / 12.0;
    let hemi_axial = 0.4 * m_hemi * r * r;
    let d = h + 3.0 * r / 8.0;
    let hemi_across = 83.0 / 320.0 * m_hemi * r * r + m_hemi * d * d;
    let across = cyl_across + 2.0 * hemi_across;
    Mat3d::from_diagonal(&Vec3d::new(across, across, cyl_axial + 2.0 * hemi_axial))
}

#[rstest]
fn capsules_match_cylinder_plus_hemispheres(
    #[values(1.0e-3, 1.0, 1.0e3)] scale: f32,
    #[values((1.0, 0.5), (0.2, 3.0), (1.0, 1.0e-3), (1.0e-3, 1.0))] shape: (f32, f32),
    #[values(1.0e-3, 1.0, 1.0e3)] mass: f32,
) {
    let (radius, half_height) = (shape.0 * scale, shape.1 * scale);
    let mp = Shape::capsule(radius, half_height)
        .unwrap()
        .mass_properties(mass)
        .unwrap();
    assert_valid(&mp);
    let expected = capsule_oracle(f64::from(radius), f64::from(half_height), f64::from(mass));
    assert_tensor_close(&mp.inertia, &expected, REL_TOL, "capsule");
}

/// The right-corner tetrahedron (0, a x, b y, c z): volume abc/6, centroid
/// (a, b, c)/4 and, about the centroid,
/// I = m/80 [[3(b^2+c^2), ab, ac], [ab, 3(a^2+c^2), bc], [ac, bc, 3(a^2+b^2)]].
fn corner_tetrahedron_oracle(a: f64, b: f64, c: f64, m: f64) -> (Vec3d, Mat3d) {
    let k = m / 80.0;
    let inertia = Mat3d::new(
        3.0 * (b * b + c * c),
        a * b,
        a * c,
        a * b,
        3.0 * (a * a + c * c),
        b * c,
        a * c,
        b * c,
        3.0 * (a * a + b * b),
    ) * k;
    (Vec3d::new(a, b, c) / 4.0, inertia)
}

#[rstest]
fn tetrahedra_match_the_corner_formula(
    #[values(1.0e-3, 1.0, 1.0e3)] scale: f32,
    #[values([1.0, 1.0, 1.0], [1.0, 2.0, 3.0], [0.25, 4.0, 0.5])] legs: [f32; 3],
) {
    let [a, b, c] = legs.map(|l| l * scale);
    let points = [
        Vec3::zeros(),
        Vec3::new(a, 0.0, 0.0),
        Vec3::new(0.0, b, 0.0),
        Vec3::new(0.0, 0.0, c),
    ];
    let mass = 3.0f32;
    let mp = Shape::convex_hull(&points)
        .unwrap()
        .mass_properties(mass)
        .unwrap();
    assert_valid(&mp);
    let (center, inertia) =
        corner_tetrahedron_oracle(f64::from(a), f64::from(b), f64::from(c), f64::from(mass));
    assert_vec_close(
        &mp.center,
        &center,
        REL_TOL * f64::from(a.max(b).max(c)),
        "tetrahedron center",
    );
    assert_tensor_close(&mp.inertia, &inertia, REL_TOL, "tetrahedron");
}

/// An irregular convex point set (deterministic, with interior points) whose
/// coordinates are multiples of 2^-10, so translations by multiples of 2^-10
/// up to 2^13 are exact in `f32`.
fn irregular_points(scale_log2: i32) -> Vec<Vec3> {
    seeded_points(scale_log2, 0x2545_f491)
}

fn seeded_points(scale_log2: i32, seed: u64) -> Vec<Vec3> {
    let s = 2f32.powi(scale_log2);
    let mut pts = Vec::new();
    let mut rng = SplitMix64::new(seed);
    // k / 1024 - 1 for k in 0..2048: a multiple of 2^-10 in [-1, 1).
    let mut next = || rng.below(2048) as f32 / 1024.0 - 1.0;
    for _ in 0..40 {
        let p = Vec3::new(next() * 1.5, next(), next() * 0.75);
        pts.push(p * s);
    }
    pts
}

#[rstest]
fn translated_hulls_move_the_center_and_keep_the_tensor(
    #[values(-10, 0, 10)] scale_log2: i32,
    #[values([8.0, -16.0, 32.0], [4096.0, 0.0, -1024.0], [0.0, 0.0, 0.0009765625])] t: [f32; 3],
) {
    let points = irregular_points(scale_log2);
    let offset = Vec3::new(t[0], t[1], t[2]) * 2f32.powi(scale_log2);
    let moved: Vec<Vec3> = points.iter().map(|p| p + offset).collect();
    // The translation is exact in f32 (see irregular_points): same solid.
    for (p, q) in points.iter().zip(&moved) {
        assert_eq!((q - offset), *p);
    }
    let base = Shape::convex_hull(&points)
        .unwrap()
        .mass_properties(1.0)
        .unwrap();
    let shifted = Shape::convex_hull(&moved)
        .unwrap()
        .mass_properties(1.0)
        .unwrap();
    assert_valid(&shifted);
    let size = 2f64.powi(scale_log2);
    // The center moves by the offset: both centers round once to f32 at
    // their own magnitude (|center| up to 4096 size: 2.5e-4 size per ulp).
    let expected = base.center.cast::<f64>() + offset.cast::<f64>();
    let tol = (expected.norm() + size) * 2.0 * f64::from(f32::EPSILON);
    assert_vec_close(&shifted.center, &expected, tol, "translated center");
    // The tensor about the center is unchanged: the second pass integrates
    // about the center, so no translated moment cancels.
    assert_tensor_close(
        &shifted.inertia,
        &base.inertia.cast(),
        REL_TOL,
        "translated tensor",
    );
}

fn rotations() -> Vec<Quat> {
    vec![
        Quat::from_euler_angles(0.3, -0.7, 1.1),
        Quat::from_axis_angle(&Vec3::z_axis(), std::f32::consts::FRAC_PI_2),
        Quat::from_axis_angle(
            &nalgebra::Unit::new_normalize(Vec3::new(1.0, 1.0, 1.0)),
            2.0,
        ),
    ]
}

use parapet_math::nalgebra;

#[rstest]
fn rotated_hulls_have_the_rotated_tensor(#[values(-10, 0, 10)] scale_log2: i32) {
    let points = irregular_points(scale_log2);
    let base = Shape::convex_hull(&points)
        .unwrap()
        .mass_properties(7.0)
        .unwrap();
    for q in rotations() {
        let basis = OrthogonalBasis::from_rotation(q);
        let rotated: Vec<Vec3> = points
            .iter()
            .map(|p| basis.point(&p.cast()).map(|x| x as f32))
            .collect();
        let direct = Shape::convex_hull(&rotated)
            .unwrap()
            .mass_properties(7.0)
            .unwrap();
        assert_valid(&direct);
        let expected = basis.tensor(&base.inertia.cast());
        // The rotated points are rounded to f32 (relative 6e-8 of the size
        // per coordinate), which moves the tensor by a few 1e-7 of its scale.
        assert_tensor_close(&direct.inertia, &expected, 2.0e-6, "R I R^T");
        let moved = base.transformed(&q, &Vec3::zeros()).unwrap();
        assert_valid(&moved);
        assert_tensor_close(&moved.inertia, &expected, REL_TOL, "transformed");
        let size = 2f64.powi(scale_log2);
        assert_vec_close(
            &direct.center,
            &basis.point(&base.center.cast()),
            1.0e-6 * size,
            "R c",
        );
    }
}

#[test]
fn a_reflection_permutes_the_tensor_and_the_center() {
    // A y/z swap is not a rotation; the tensor still becomes R I R^T.
    let points = irregular_points(0);
    let base = Shape::convex_hull(&points)
        .unwrap()
        .mass_properties(2.0)
        .unwrap();
    let swap =
        OrthogonalBasis::new(Mat3d::new(1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 1.0, 0.0)).unwrap();
    assert!(swap.is_reflection());
    let mirrored: Vec<Vec3> = points.iter().map(|p| Vec3::new(p.x, p.z, p.y)).collect();
    let direct = Shape::convex_hull(&mirrored)
        .unwrap()
        .mass_properties(2.0)
        .unwrap();
    let converted = base.transformed_by_basis(&swap, &Vec3::zeros()).unwrap();
    assert_valid(&converted);
    // A permutation moves entries without arithmetic: equal up to the two
    // integrations' own rounding.
    assert_tensor_close(
        &direct.inertia,
        &converted.inertia.cast(),
        REL_TOL,
        "reflected tensor",
    );
    assert_eq!(
        converted.center,
        Vec3::new(base.center.x, base.center.z, base.center.y)
    );
    assert_eq!(converted.inertia[(1, 2)], base.inertia[(2, 1)]);
    assert_eq!(converted.inertia[(1, 1)], base.inertia[(2, 2)]);
}

#[rstest]
fn mass_scales_the_tensor_linearly(#[values(1.0e-3, 3.0, 1.0e3)] factor: f32) {
    for shape in [
        Shape::cuboid(Vec3::new(0.5, 1.0, 2.0)).unwrap(),
        Shape::sphere(0.3).unwrap(),
        Shape::capsule(0.2, 0.9).unwrap(),
        Shape::convex_hull(&irregular_points(0)).unwrap(),
    ] {
        let one = shape.mass_properties(1.0).unwrap();
        let many = shape.mass_properties(factor).unwrap();
        assert_eq!(
            many.center,
            one.center,
            "{}: the center does not depend on mass",
            shape.kind_name()
        );
        let expected = one.inertia.cast::<f64>() * f64::from(factor);
        // Two f32 roundings (one per result): 2 * 6e-8 relative.
        assert_tensor_close(&many.inertia, &expected, REL_TOL, shape.kind_name());
        let rescaled = one.with_mass(factor).unwrap();
        assert_tensor_close(&rescaled.inertia, &expected, REL_TOL, "with_mass");
        assert_eq!(rescaled.mass, factor);
    }
}

#[test]
fn symmetric_solids_have_diagonal_tensors_and_centred_centers() {
    // An octahedron |x| + |y| + |z| <= a: symmetric under every axis
    // reflection, so the products of inertia vanish and the three moments are
    // equal. Its mean x^2 is a^2 / 10 (slices of area 2 (a - |x|)^2), so
    // I = m (<y^2> + <z^2>) = m a^2 / 5.
    let a = 1.5f32;
    let points = [
        Vec3::x(),
        -Vec3::x(),
        Vec3::y(),
        -Vec3::y(),
        Vec3::z(),
        -Vec3::z(),
    ]
    .map(|v| v * a);
    let mp = Shape::convex_hull(&points)
        .unwrap()
        .mass_properties(4.0)
        .unwrap();
    assert_valid(&mp);
    let i = 4.0 * f64::from(a).powi(2) / 5.0;
    assert_tensor_close(
        &mp.inertia,
        &Mat3d::from_diagonal_element(i),
        REL_TOL,
        "octahedron",
    );
    assert_vec_close(&mp.center, &Vec3d::zeros(), 1e-7, "octahedron center");
}

#[test]
fn the_parallel_axis_theorem_matches_the_corner_of_a_cube() {
    // A cube of side s about a corner: Ixx = 2/3 m s^2, Ixy = -1/4 m s^2.
    let s = 2.0f64;
    let m = 3.0f64;
    let mp = Shape::cuboid(Vec3::repeat(1.0))
        .unwrap()
        .mass_properties(m as f32)
        .unwrap();
    let corner = mp.inertia_about(&Vec3::repeat(-1.0)).unwrap();
    let d = 2.0 / 3.0 * m * s * s;
    let o = 0.25 * m * s * s;
    let expected = Mat3d::new(d, -o, -o, -o, d, -o, -o, -o, d);
    assert_tensor_close(&corner, &expected, REL_TOL, "cube about a corner");
    assert_eq!(corner, corner.transpose());
}

#[test]
fn refusals_name_the_value_and_change_nothing() {
    let shape = Shape::capsule(0.5, 1.0).unwrap();
    let before = shape.clone();
    for bad in [0.0, -1.0, f32::NAN, f32::INFINITY] {
        match shape.mass_properties(bad) {
            Err(ShapeError::InvalidMass { value }) => assert!(value.to_bits() == bad.to_bits()),
            other => panic!("mass {bad} must be refused, got {other:?}"),
        }
    }
    assert_eq!(
        shape, before,
        "a refused request leaves the shape as it was"
    );
    let ok = shape.mass_properties(1.0).unwrap();
    let copy = ok;
    assert!(ok.with_mass(-2.0).is_err());
    assert_eq!(
        ok, copy,
        "a refused rescale leaves the mass properties as they were"
    );

    let mesh = Shape::mesh(vec![Vec3::zeros(), Vec3::x(), Vec3::y()], vec![[0, 1, 2]]).unwrap();
    assert_eq!(
        mesh.mass_properties(1.0),
        Err(ShapeError::NotASolid {
            shape: "triangle mesh"
        })
    );
}

#[test]
fn overflow_of_f32_storage_is_refused() {
    // 0.4 * 1e30 kg * (1e10 m)^2 = 4e49 > f32::MAX.
    let err = Shape::sphere(1.0e10)
        .unwrap()
        .mass_properties(1.0e30)
        .unwrap_err();
    assert!(matches!(err, ShapeError::NotRepresentable { .. }), "{err}");
}

#[test]
fn underflow_to_a_singular_tensor_is_refused_exactly() {
    // 0.4 * 1e-30 kg * (1e-10 m)^2 = 4e-51, below the smallest f32 subnormal.
    let err = Shape::sphere(1.0e-10)
        .unwrap()
        .mass_properties(1.0e-30)
        .unwrap_err();
    assert!(
        matches!(err, ShapeError::NotPositiveDefinite { .. }),
        "{err}"
    );
    // A needle hull: length 1 m along x, section 1e-24 m. Ixx ~ m 1e-48
    // underflows to 0 while Iyy and Izz stay ~ m / 12: singular, refused.
    let e = 1.0e-24f32;
    let needle = [
        Vec3::new(-0.5, 0.0, 0.0),
        Vec3::new(0.5, e, 0.0),
        Vec3::new(0.5, 0.0, e),
        Vec3::new(0.5, -e, -e),
    ];
    let err = Shape::convex_hull(&needle)
        .unwrap()
        .mass_properties(1.0)
        .unwrap_err();
    assert!(
        matches!(err, ShapeError::NotPositiveDefinite { .. }),
        "{err}"
    );
}

#[test]
fn explicit_mass_properties_are_checked_exactly() {
    let singular = Mat3::new(1.0, 1.0, 0.0, 1.0, 1.0, 0.0, 0.0, 0.0, 1.0);
    assert!(matches!(
        MassProperties::new(1.0, Vec3::zeros(), singular),
        Err(ShapeError::NotPositiveDefinite { .. })
    ));
    let mut asymmetric = Mat3::identity();
    asymmetric[(0, 1)] = f32::from_bits(1);
    assert!(MassProperties::new(1.0, Vec3::zeros(), asymmetric).is_err());
    let barely = Mat3::new(1.0, 1.0, 0.0, 1.0, 1.0f32.next_up(), 0.0, 0.0, 0.0, 1.0);
    assert!(MassProperties::new(1.0, Vec3::zeros(), barely).is_ok());
    assert!(matches!(
        MassProperties::new(1.0, Vec3::new(f32::NAN, 0.0, 0.0), Mat3::identity()),
        Err(ShapeError::NotFiniteVector { .. })
    ));
}

#[rstest]
fn power_of_two_scaling_is_exact(#[values(-20, -10, 10, 20)] k: i32) {
    // Scaling every length by 2^k scales every f64 operation of the two
    // passes exactly (no underflow or overflow here), so the center scales by
    // 2^k and the tensor by 2^2k bit for bit.
    let base = Shape::convex_hull(&irregular_points(0))
        .unwrap()
        .mass_properties(1.0)
        .unwrap();
    let scaled = Shape::convex_hull(&irregular_points(k))
        .unwrap()
        .mass_properties(1.0)
        .unwrap();
    assert_eq!(scaled.center, base.center * 2f32.powi(k));
    assert_eq!(scaled.inertia, base.inertia * 2f32.powi(2 * k));
}

#[rstest]
fn hull_mass_properties_agree_with_parry3d(
    #[values(0x2545_f491, 0x1234_5678, 0x0bad_cafe)] seed: u64,
) {
    // parry3d integrates in f32 and stores the tensor as principal moments
    // and a rotation: its reconstruction is good to a few 1e-6 of the
    // tensor's scale at metre scale, so the comparison uses 2e-5. (At 2^-10 m
    // and 2^10 m parry3d's tensor drifts by about 1%, while ours scales
    // exactly: see power_of_two_scaling_is_exact; so only 1 m is compared.)
    let points = seeded_points(0, seed);
    let Shape::ConvexHull(hull) = Shape::convex_hull(&points).unwrap() else {
        unreachable!("convex_hull builds a ConvexHull");
    };
    let ours = Shape::ConvexHull(hull.clone())
        .mass_properties(1.0)
        .unwrap();
    let vertices: Vec<_> = hull.vertices().iter().map(|v| to_parry(*v)).collect();
    let indices: Vec<[u32; 3]> = hull.triangles().collect();
    // Density 1: parry's mass is the volume, and inertia / volume is the
    // tensor of a unit mass.
    let theirs =
        parry3d::mass_properties::MassProperties::from_convex_polyhedron(1.0, &vertices, &indices);
    let rho = 1.0 / f64::from(theirs.mass());
    let m = theirs.reconstruct_inertia_matrix().to_cols_array_2d();
    let theirs_inertia = Mat3d::from_fn(|r, c| f64::from(m[c][r]) * rho);
    assert_tensor_close(&ours.inertia, &theirs_inertia, 2.0e-5, "parry3d tensor");
    let com = theirs.local_com;
    assert_vec_close(
        &ours.center,
        &Vec3d::new(com.x.into(), com.y.into(), com.z.into()),
        1.0e-5,
        "parry3d center",
    );
}
