//! Every refused body operation leaves the body bit for bit unchanged
//! (docs/physics.md, "Mass properties": failed mass, inertia, shape-pose and
//! centre updates leave the old properties), and property tests: any sequence
//! of setters, mode changes, impulses and steps either succeeds and leaves a
//! valid body, or fails and leaves it bit-identical.
//!
//! The proptest case count is 256 by default; set PARAPET_BODY_CASES for
//! longer runs.

use nalgebra::{Matrix3, Quaternion, UnitQuaternion, Vector3};
use parapet_geometry::{Material, Shape};
use parapet_solver::{BodyError, BodyKind, RigidBody};
use proptest::prelude::*;

type Vec3 = Vector3<f32>;
type Mat3 = Matrix3<f32>;
type Quat = UnitQuaternion<f32>;

use parapet_tests::state::body_snapshot as snapshot;

fn cuboid() -> RigidBody {
    RigidBody::new_dynamic(Shape::cuboid(Vec3::new(0.5, 0.3, 0.1)).unwrap(), 3.0)
        .unwrap()
        .with_rotation(Quat::from_euler_angles(0.1, 0.2, 0.3))
        .with_angular_velocity(Vec3::new(1.0, -2.0, 0.5))
        .with_linear_velocity(Vec3::new(0.0, 1.0, 0.0))
}

/// Runs `op` on a clone of `body`, asserts that it is refused with an error
/// matching `expected`, and that the body is bit for bit unchanged.
fn assert_refused(
    body: &RigidBody,
    what: &str,
    op: impl FnOnce(&mut RigidBody) -> Result<(), BodyError>,
    expected: impl FnOnce(&BodyError) -> bool,
) {
    let mut candidate = body.clone();
    let before = snapshot(&candidate);
    match op(&mut candidate) {
        Ok(()) => panic!("{what}: accepted"),
        Err(error) => {
            assert!(expected(&error), "{what}: unexpected error {error:?}");
            // Every message names its quantity and a limit.
            assert!(
                error.to_string().contains("limit"),
                "{what}: message {error}"
            );
        }
    }
    assert_eq!(snapshot(&candidate), before, "{what}: body changed");
}

#[test]
fn refused_masses_leave_the_body_unchanged() {
    let body = cuboid();
    for mass in [0.0, -0.0, -1.0, f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
        assert_refused(
            &body,
            &format!("mass {mass}"),
            |b| b.set_mass(mass),
            |e| matches!(e, BodyError::InvalidMass { .. }),
        );
    }
    // 1e-45 kg: its reciprocal overflows f32.
    assert_refused(
        &body,
        "subnormal mass",
        |b| b.set_mass(1.0e-45),
        |e| matches!(e, BodyError::InverseMassNotRepresentable { .. }),
    );
    // 1e-38 kg: 1/m fits, but the scaled inverse tensor (~1e39) does not.
    assert_refused(
        &body,
        "tiny mass",
        |b| b.set_mass(1.0e-38),
        |e| matches!(e, BodyError::NotRepresentable { .. }),
    );
}

#[test]
fn accepted_mass_scales_the_tensor() {
    let mut body = cuboid();
    let tensor = body.inverse_inertia();
    body.set_mass(6.0).unwrap();
    assert_eq!(body.mass(), 6.0);
    assert_eq!(body.inverse_mass(), 1.0 / 6.0);
    // Scaling by 3/6 = 1/2 is exact in binary.
    assert_eq!(body.inverse_inertia(), tensor * 0.5);
    body.validate().unwrap();
}

#[test]
fn refused_inertias_leave_the_body_unchanged() {
    let body = cuboid();
    let mut nan = Mat3::identity();
    nan[(2, 1)] = f32::NAN;
    nan[(1, 2)] = f32::NAN;
    assert_refused(
        &body,
        "NaN inertia",
        |b| b.set_inertia(nan),
        |e| matches!(e, BodyError::TensorNotFinite { .. }),
    );
    let nonsymmetric = Mat3::new(1.0, 0.1, 0.0, 0.1 + f32::EPSILON, 1.0, 0.0, 0.0, 0.0, 1.0);
    assert_refused(
        &body,
        "nonsymmetric",
        |b| b.set_inertia(nonsymmetric),
        |e| matches!(e, BodyError::TensorNotSymmetric { .. }),
    );
    // Exactly singular: the third row is the sum of the first two.
    let singular = Mat3::new(2.0, 1.0, 3.0, 1.0, 2.0, 3.0, 3.0, 3.0, 6.0);
    assert_refused(
        &body,
        "singular",
        |b| b.set_inertia(singular),
        |e| {
            matches!(
                e,
                BodyError::TensorNotPositiveDefinite {
                    order: 3,
                    sign: 0,
                    ..
                }
            )
        },
    );
    let indefinite = Mat3::from_diagonal(&Vec3::new(1.0, -1.0, 1.0));
    assert_refused(
        &body,
        "indefinite",
        |b| b.set_inertia(indefinite),
        |e| matches!(e, BodyError::TensorNotPositiveDefinite { order: 2, .. }),
    );
    assert_refused(
        &body,
        "zero",
        |b| b.set_inertia(Mat3::zeros()),
        |e| {
            matches!(
                e,
                BodyError::TensorNotPositiveDefinite {
                    order: 1,
                    sign: 0,
                    ..
                }
            )
        },
    );
    // Positive definite, but its inverse overflows f32.
    let tiny = Mat3::from_diagonal(&Vec3::new(1.0e-39, 1.0, 1.0));
    assert_refused(
        &body,
        "tiny",
        |b| b.set_inertia(tiny),
        |e| matches!(e, BodyError::NotRepresentable { .. }),
    );
    // Nearly singular: exactly positive definite (det = 2^-46 > 0), its f64
    // inverse is representable, but the rounded f32 inverse is not exactly
    // positive definite... or is, in which case it is accepted as valid.
    let near = Mat3::new(
        1.0,
        1.0 - 2.0_f32.powi(-23),
        0.0,
        1.0 - 2.0_f32.powi(-23),
        1.0,
        0.0,
        0.0,
        0.0,
        1.0,
    );
    let mut candidate = body.clone();
    let before = snapshot(&candidate);
    match candidate.set_inertia(near) {
        Ok(()) => candidate.validate().unwrap(),
        Err(_) => assert_eq!(snapshot(&candidate), before),
    }
}

#[test]
fn refused_custom_tensors_centres_and_offsets_leave_the_body_unchanged() {
    let body = cuboid();
    let mut inf = Mat3::identity();
    inf[(0, 2)] = f32::INFINITY;
    assert_refused(
        &body,
        "infinite inverse",
        |b| b.set_inverse_inertia(inf),
        |e| matches!(e, BodyError::TensorNotFinite { row: 0, col: 2, .. }),
    );
    assert_refused(
        &body,
        "NaN centre",
        |b| b.set_center_of_mass(Vec3::new(0.0, f32::NAN, 0.0)),
        |e| matches!(e, BodyError::NotFinite { .. }),
    );
    assert_refused(
        &body,
        "infinite offset",
        |b| b.set_shape_offset(Vec3::new(f32::INFINITY, 0.0, 0.0), Quat::identity()),
        |e| matches!(e, BodyError::NotFinite { .. }),
    );
    let zero = Quat::new_unchecked(Quaternion::new(0.0, 0.0, 0.0, 0.0));
    assert_refused(
        &body,
        "zero quaternion",
        |b| b.set_shape_offset(Vec3::zeros(), zero),
        |e| matches!(e, BodyError::NotNormalizable { .. }),
    );
    let nan = Quat::new_unchecked(Quaternion::new(f32::NAN, 0.0, 0.0, 0.0));
    assert_refused(
        &body,
        "NaN quaternion",
        |b| b.set_shape_offset(Vec3::zeros(), nan),
        |e| matches!(e, BodyError::NotFinite { .. }),
    );
    for (what, damping) in [("negative", -1.0), ("NaN", f32::NAN)] {
        assert_refused(
            &body,
            what,
            |b| b.set_linear_damping(damping),
            |e| matches!(e, BodyError::InvalidDamping { .. }),
        );
        assert_refused(
            &body,
            what,
            |b| b.set_angular_damping(damping),
            |e| matches!(e, BodyError::InvalidDamping { .. }),
        );
    }
}

/// Finite shape quaternions are normalized, as construction does.
#[test]
fn shape_offset_normalizes_finite_quaternions() {
    let mut body = cuboid();
    let doubled = Quat::new_unchecked(Quaternion::new(0.0, 0.0, 0.0, 2.0));
    body.set_shape_offset(Vec3::new(0.0, 0.0, 0.25), doubled)
        .unwrap();
    let (offset, rotation) = body.shape_offset();
    assert_eq!(offset, Vec3::new(0.0, 0.0, 0.25));
    assert_eq!(rotation.into_inner(), Quaternion::new(0.0, 0.0, 0.0, 1.0));
    // Only the collision shape moved: the mass centre stays at the origin.
    assert_eq!(body.center_of_mass(), Vec3::zeros());
}

#[test]
fn refused_impulses_leave_the_body_unchanged() {
    let body = cuboid();
    assert_refused(
        &body,
        "NaN impulse",
        |b| b.apply_impulse(Vec3::new(f32::NAN, 0.0, 0.0), Vec3::zeros()),
        |e| matches!(e, BodyError::NotFinite { .. }),
    );
    assert_refused(
        &body,
        "infinite point",
        |b| b.apply_impulse(Vec3::x(), Vec3::new(0.0, f32::INFINITY, 0.0)),
        |e| matches!(e, BodyError::NotFinite { .. }),
    );
    // 3e38 N s at 1 m: r x J overflows the f32 angular velocity.
    assert_refused(
        &body,
        "overflowing impulse",
        |b| b.apply_impulse(Vec3::new(0.0, 3.0e38, 0.0), Vec3::new(1.0, 0.0, 0.0)),
        |e| matches!(e, BodyError::NotRepresentable { .. }),
    );
    // An invalid body (NaN velocity from a plain setter) refuses impulses
    // before changing anything.
    let mut invalid = body.clone();
    invalid.set_linear_velocity(Vec3::new(f32::NAN, 0.0, 0.0));
    assert_refused(
        &invalid,
        "invalid body",
        |b| b.apply_impulse(Vec3::x(), Vec3::zeros()),
        |e| {
            matches!(
                e,
                BodyError::NotFinite {
                    quantity: "linear velocity",
                    ..
                }
            )
        },
    );
}

/// Every fallible setter and mode change validates the body first.
#[test]
fn invalid_bodies_refuse_every_fallible_setter() {
    let mut body = cuboid();
    body.set_rotation(Quat::new_unchecked(Quaternion::new(1.01, 0.0, 0.0, 0.0)));
    let unit = |e: &BodyError| matches!(e, BodyError::NotUnitQuaternion { .. });
    assert_refused(&body, "validate", |b| b.validate(), unit);
    assert_refused(&body, "kind", |b| b.set_kind(BodyKind::Static), unit);
    assert_refused(&body, "mass", |b| b.set_mass(2.0), unit);
    assert_refused(&body, "inertia", |b| b.set_inertia(Mat3::identity()), unit);
    assert_refused(
        &body,
        "inverse",
        |b| b.set_inverse_inertia(Mat3::identity()),
        unit,
    );
    assert_refused(
        &body,
        "centre",
        |b| b.set_center_of_mass(Vec3::zeros()),
        unit,
    );
    assert_refused(
        &body,
        "offset",
        |b| b.set_shape_offset(Vec3::zeros(), Quat::identity()),
        unit,
    );
}

#[test]
fn refused_steps_leave_the_body_unchanged() {
    let body = cuboid();
    for dt in [0.0, -0.01, f32::NAN, f32::INFINITY] {
        assert_refused(
            &body,
            "dt",
            |b| b.integrate_velocity(dt, Vec3::zeros()),
            |e| matches!(e, BodyError::InvalidTimeStep { .. }),
        );
        assert_refused(
            &body,
            "dt",
            |b| b.integrate_pose(dt),
            |e| matches!(e, BodyError::InvalidTimeStep { .. }),
        );
    }
    let mut loaded = body.clone();
    loaded.add_force(Vec3::new(3.0e38, 0.0, 0.0));
    assert_refused(
        &loaded,
        "overflowing force",
        |b| b.integrate_velocity(10.0, Vec3::zeros()),
        |e| matches!(e, BodyError::NotRepresentable { .. }),
    );
    let mut fast = body.clone();
    fast.set_linear_velocity(Vec3::new(3.0e38, 0.0, 0.0));
    fast.set_position(Vec3::new(3.0e38, 0.0, 0.0));
    assert_refused(
        &fast,
        "overflowing position",
        |b| b.integrate_pose(1.0),
        |e| {
            matches!(
                e,
                BodyError::NotRepresentable {
                    quantity: "position",
                    ..
                }
            )
        },
    );
}

// ---------------------------------------------------------------------------
// Property test: sequences of operations.
// ---------------------------------------------------------------------------

/// Floats that exercise every branch: ordinary values, zeros, extremes and
/// non-finite values.
fn any_scalar() -> impl Strategy<Value = f32> {
    prop_oneof![
        6 => -4.0_f32..4.0,
        1 => Just(0.0_f32),
        1 => Just(-0.0_f32),
        1 => Just(f32::NAN),
        1 => Just(f32::INFINITY),
        1 => Just(1.0e-45_f32),
        1 => Just(1.0e-38_f32),
        1 => Just(3.0e38_f32),
        1 => Just(-3.0e38_f32),
    ]
}

fn any_vec() -> impl Strategy<Value = Vec3> {
    (any_scalar(), any_scalar(), any_scalar()).prop_map(|(x, y, z)| Vec3::new(x, y, z))
}

fn finite_vec() -> impl Strategy<Value = Vec3> {
    (-4.0_f32..4.0, -4.0_f32..4.0, -4.0_f32..4.0).prop_map(|(x, y, z)| Vec3::new(x, y, z))
}

fn any_tensor() -> impl Strategy<Value = Mat3> {
    prop_oneof![
        // Arbitrary entries (mostly not symmetric).
        proptest::collection::vec(any_scalar(), 9).prop_map(|v| Mat3::from_column_slice(&v)),
        // Symmetric, often positive definite: diagonal dominance from a shift.
        (proptest::collection::vec(-1.0_f32..1.0, 6), 0.0_f32..3.0).prop_map(|(v, shift)| {
            Mat3::new(
                v[0] + shift,
                v[1],
                v[2],
                v[1],
                v[3] + shift,
                v[4],
                v[2],
                v[4],
                v[5] + shift,
            )
        }),
        // Diagonal, with zeros (locked axes for the custom setter).
        (any_scalar(), any_scalar(), any_scalar())
            .prop_map(|(a, b, c)| Mat3::from_diagonal(&Vec3::new(a, b, c))),
    ]
}

fn any_kind() -> impl Strategy<Value = BodyKind> {
    prop_oneof![
        Just(BodyKind::Dynamic),
        Just(BodyKind::Kinematic),
        Just(BodyKind::Static)
    ]
}

#[derive(Debug, Clone)]
enum Op {
    Kind(BodyKind),
    Mass(f32),
    Inertia(Mat3),
    InverseInertia(Mat3),
    Center(Vec3),
    ShapeOffset(Vec3, [f32; 4]),
    Impulse(Vec3, Vec3),
    Damping(f32, f32),
    // Plain setters with finite values, which keep a valid body valid.
    Velocity(Vec3, Vec3),
    Loads(Vec3, Vec3),
    Step(f32),
}

fn any_op() -> impl Strategy<Value = Op> {
    prop_oneof![
        3 => any_kind().prop_map(Op::Kind),
        2 => any_scalar().prop_map(Op::Mass),
        2 => any_tensor().prop_map(Op::Inertia),
        2 => any_tensor().prop_map(Op::InverseInertia),
        1 => any_vec().prop_map(Op::Center),
        1 => (any_vec(), proptest::array::uniform4(any_scalar())).prop_map(|(v, q)| Op::ShapeOffset(v, q)),
        2 => (any_vec(), any_vec()).prop_map(|(j, p)| Op::Impulse(j, p)),
        1 => (any_scalar(), any_scalar()).prop_map(|(a, b)| Op::Damping(a, b)),
        1 => (finite_vec(), finite_vec()).prop_map(|(v, w)| Op::Velocity(v, w)),
        1 => (finite_vec(), finite_vec()).prop_map(|(f, t)| Op::Loads(f, t)),
        2 => prop_oneof![0.001_f32..0.1, Just(0.0_f32), Just(f32::NAN), Just(1.0e30_f32)].prop_map(Op::Step),
    ]
}

fn apply(body: &mut RigidBody, op: &Op) -> Result<(), BodyError> {
    match op {
        Op::Kind(k) => body.set_kind(*k),
        Op::Mass(m) => body.set_mass(*m),
        Op::Inertia(i) => body.set_inertia(*i),
        Op::InverseInertia(a) => body.set_inverse_inertia(*a),
        Op::Center(c) => body.set_center_of_mass(*c),
        Op::ShapeOffset(v, q) => body.set_shape_offset(
            *v,
            Quat::new_unchecked(Quaternion::new(q[0], q[1], q[2], q[3])),
        ),
        Op::Impulse(j, p) => body.apply_impulse(*j, *p),
        Op::Damping(l, a) => {
            // Two setters: check each separately for atomicity.
            body.set_linear_damping(*l)?;
            body.set_angular_damping(*a)
        }
        Op::Velocity(v, w) => {
            body.set_linear_velocity(*v);
            body.set_angular_velocity(*w);
            Ok(())
        }
        Op::Loads(f, t) => {
            body.add_force(*f);
            body.add_torque(*t);
            Ok(())
        }
        Op::Step(dt) => {
            body.integrate_velocity(*dt, Vec3::new(0.0, 0.0, -9.8))?;
            body.integrate_pose(*dt)
        }
    }
}

fn cases() -> u32 {
    std::env::var("PARAPET_BODY_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(256)
}

fn start_body(which: u8) -> RigidBody {
    let material = Material::default();
    match which % 4 {
        0 => cuboid().with_material(material),
        1 => RigidBody::new_dynamic(Shape::sphere(0.4).unwrap(), 2.0).unwrap(),
        2 => RigidBody::new_kinematic(Shape::capsule(0.2, 0.3).unwrap())
            .with_angular_velocity(Vec3::new(0.0, 1.0, 0.0)),
        _ => RigidBody::new_static(Shape::cuboid(Vec3::new(1.0, 1.0, 1.0)).unwrap()),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    /// Any sequence of operations: each either succeeds and leaves a valid
    /// body, or fails and leaves the body bit-identical. (A two-setter
    /// operation, damping or a step, may fail in its second half; its first
    /// half then succeeded and left a valid body, checked the same way.)
    #[test]
    fn every_operation_succeeds_validly_or_changes_nothing(
        which in 0u8..4,
        ops in proptest::collection::vec(any_op(), 1..40),
    ) {
        let mut body = start_body(which);
        prop_assert!(body.validate().is_ok());
        for op in &ops {
            let before = snapshot(&body);
            let partial = matches!(op, Op::Damping(..) | Op::Step(_));
            match apply(&mut body, op) {
                Ok(()) => prop_assert!(body.validate().is_ok(), "{op:?} left {:?}", body.validate()),
                Err(_) if partial => {
                    // The body is either unchanged or the valid result of the first half.
                    if snapshot(&body) != before {
                        prop_assert!(body.validate().is_ok());
                    }
                }
                Err(_) => prop_assert_eq!(snapshot(&body), before, "{:?} changed the body", op),
            }
            // Kind-specific invariants hold after every operation.
            match body.kind() {
                BodyKind::Dynamic => prop_assert!(body.inverse_mass() > 0.0),
                _ => {
                    prop_assert_eq!(body.inverse_mass(), 0.0);
                    prop_assert_eq!(body.inverse_inertia(), Mat3::zeros());
                }
            }
        }
    }
}
