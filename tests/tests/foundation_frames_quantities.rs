//! Frame conversion and physical quantities (docs/physics.md "Frames and units"):
//! the polar/axial sign rule under rotations and reflections checked through
//! physical invariants (L = I w, r x F, kinetic energy), and the
//! parallel-axis theorem against the orbital angular momentum.

use parapet_math::quantities::{
    angular_momentum, kinetic_energy, orbital_angular_momentum, rotational_kinetic_energy, torque,
};
use parapet_math::{Mat3, Mat3d, OrthogonalBasis, Quat, Vec3, Vec3d};
use rstest::rstest;

fn bases() -> Vec<(&'static str, OrthogonalBasis)> {
    vec![
        ("identity", OrthogonalBasis::new(Mat3d::identity()).unwrap()),
        (
            "rotation",
            OrthogonalBasis::from_rotation(Quat::from_euler_angles(0.4, -1.2, 2.5)),
        ),
        (
            "y/z swap",
            OrthogonalBasis::new(Mat3d::new(1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 1.0, 0.0)).unwrap(),
        ),
        (
            "point inversion",
            OrthogonalBasis::new(-Mat3d::identity()).unwrap(),
        ),
        (
            "y-up to z-up with a mirror",
            OrthogonalBasis::new(Mat3d::new(0.0, 0.0, 1.0, 1.0, 0.0, 0.0, 0.0, -1.0, 0.0) * -1.0)
                .unwrap(),
        ),
    ]
}

/// A full (anisotropic, off-diagonal) inertia tensor, kg m^2.
fn tensor() -> Mat3d {
    Mat3d::new(3.0, 0.4, -0.7, 0.4, 5.0, 0.25, -0.7, 0.25, 4.0)
}

/// Relative tolerance of f64 frame conversions: a handful of roundings of
/// 2^-53 on operands of size ~10; 1e-13 is far above them, far below any
/// sign or entry error.
const TOL: f64 = 1.0e-13;

#[rstest]
fn angular_momentum_is_an_axial_vector(#[values(0, 1, 2, 3, 4)] which: usize) {
    // L = I w holds in every frame when I -> R I R^T and w, L -> det(R) R (.).
    let (name, basis) = bases().swap_remove(which);
    let w = Vec3d::new(0.3, -2.0, 1.25);
    let l = tensor() * w;
    let l_converted = basis.tensor(&tensor()) * basis.axial(&w);
    assert!(
        (l_converted - basis.axial(&l)).norm() < TOL * l.norm(),
        "{name}"
    );
    if basis.is_reflection() {
        // Treating the reflection as a rotation gets the sign wrong.
        assert!((l_converted - basis.point(&l)).norm() > 0.1, "{name}");
    }
}

#[rstest]
fn torque_of_polar_vectors_is_axial(#[values(0, 1, 2, 3, 4)] which: usize) {
    // r and F are polar: (R r) x (R F) = det(R) R (r x F).
    let (name, basis) = bases().swap_remove(which);
    let r = Vec3::new(0.5, -1.5, 2.0);
    let f = Vec3::new(10.0, 3.0, -4.0);
    let t = torque(&r, &f);
    let rr = basis.point(&r.cast());
    let ff = basis.point(&f.cast());
    assert!(
        (rr.cross(&ff) - basis.axial(&t)).norm() < TOL * t.norm(),
        "{name}"
    );
}

#[rstest]
fn kinetic_energy_is_frame_invariant(#[values(0, 1, 2, 3, 4)] which: usize) {
    let (name, basis) = bases().swap_remove(which);
    let w = Vec3d::new(0.3, -2.0, 1.25);
    let e = 0.5 * w.dot(&(tensor() * w));
    let i2 = basis.tensor(&tensor());
    let w2 = basis.axial(&w);
    let e2 = 0.5 * w2.dot(&(i2 * w2));
    assert!((e2 - e).abs() < TOL * e, "{name}");
    // The converted tensor keeps all six entries and is exactly symmetric.
    assert_eq!(i2, i2.transpose(), "{name}");
    assert!((i2.trace() - tensor().trace()).abs() < TOL * 12.0);
}

#[test]
fn the_f32_quantities_agree_with_their_definitions() {
    // I = [[2, 0.5, 0], [0.5, 3, 0], [0, 0, 1]], w = (1, 2, 0.5):
    // I w = (3, 6.5, 0.5), w . I w = 3 + 13 + 0.25 = 16.25, all exact.
    let i = Mat3::new(2.0, 0.5, 0.0, 0.5, 3.0, 0.0, 0.0, 0.0, 1.0);
    let w = Vec3::new(1.0, 2.0, 0.5);
    assert_eq!(angular_momentum(&i, &w), Vec3d::new(3.0, 6.5, 0.5));
    assert_eq!(rotational_kinetic_energy(&i, &w), 8.125);
    // m = 4 kg at (1, 2, 2) m/s: 0.5 * 4 * 9 = 18 J.
    assert_eq!(
        kinetic_energy(4.0, &Vec3::new(1.0, 2.0, 2.0), &i, &w),
        18.0 + 8.125
    );
}

#[test]
fn parallel_axis_matches_the_orbital_momentum() {
    // A body spinning at w with its center moving at w x d about a point at
    // -d: the momentum about that point is I_c w + d x (m (w x d)), which the
    // parallel-axis tensor I_c + m (|d|^2 E - d d^T) applied to w reproduces.
    let m = 2.0f32;
    let i_c = tensor();
    let d = Vec3::new(0.5, -1.0, 2.0);
    let w = Vec3::new(0.25, 1.5, -0.75);
    let v = w.cross(&d);
    let about_point = i_c * w.cast::<f64>() + orbital_angular_momentum(&d, m, &v);
    let dd = d.cast::<f64>();
    let shifted =
        i_c + (Mat3d::identity() * dd.norm_squared() - dd * dd.transpose()) * f64::from(m);
    let via_tensor = shifted * w.cast::<f64>();
    // v = w x d is rounded to f32 (relative 6e-8): 1e-6 relative margin.
    assert!((about_point - via_tensor).norm() < 1e-6 * via_tensor.norm());
}
