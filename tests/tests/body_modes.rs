//! Motion-mode changes of rigid bodies (docs/physics.md "Motion modes"):
//! what each transition keeps and clears, bit for bit, the retained
//! dynamic configuration through kinematic and static chains, the refused
//! edits of a disabled configuration, bodies created without a dynamic mass,
//! mesh restrictions and the lifetime of pending forces.

use nalgebra::{Matrix3, UnitQuaternion, Vector3};
use parapet_geometry::Shape;
use parapet_solver::{BodyError, BodyKind, RigidBody};

type Vec3 = Vector3<f32>;
type Mat3 = Matrix3<f32>;
type Quat = UnitQuaternion<f32>;

use parapet_tests::state::body_snapshot as snapshot;

/// A dynamic cuboid in motion, with a custom inverse tensor holding
/// off-diagonal entries and a locked axis, and pending loads.
fn configured_body() -> RigidBody {
    let mut body = RigidBody::new_dynamic(Shape::cuboid(Vec3::new(0.5, 0.3, 0.1)).unwrap(), 3.0)
        .unwrap()
        .with_position(Vec3::new(1.0, -2.0, 0.5))
        .with_rotation(Quat::from_euler_angles(0.2, -0.4, 1.1))
        .with_linear_velocity(Vec3::new(0.5, 1.5, -2.0))
        .with_angular_velocity(Vec3::new(-1.0, 0.25, 3.0));
    // Row and column 1 zero: rotation about local y is locked.
    let custom = Mat3::new(1.3, 0.0, -0.2, 0.0, 0.0, 0.0, 0.35, 0.0, 2.5);
    body.set_inverse_inertia(custom).unwrap();
    body.set_split_linear_velocity(Vec3::new(0.0, 0.0, 0.1));
    body.set_split_angular_velocity(Vec3::new(0.01, 0.0, 0.0));
    body.add_force(Vec3::new(1.0, 2.0, 3.0));
    body.add_torque(Vec3::new(-0.5, 0.0, 0.5));
    body
}

#[test]
fn disabling_zeroes_effective_properties_and_retains_the_configuration() {
    for kind in [BodyKind::Kinematic, BodyKind::Static] {
        let mut body = configured_body();
        let (mass, tensor) = (body.mass(), body.inverse_inertia());
        body.set_kind(kind).unwrap();
        assert_eq!(body.kind(), kind);
        assert_eq!(body.mass().to_bits(), 0.0_f32.to_bits());
        assert_eq!(body.inverse_mass().to_bits(), 0.0_f32.to_bits());
        assert_eq!(body.inverse_inertia(), Mat3::zeros());
        assert_eq!(body.dynamic_mass().unwrap().to_bits(), mass.to_bits());
        let kept = body.dynamic_inverse_inertia().unwrap();
        assert!(kept
            .iter()
            .zip(tensor.iter())
            .all(|(a, b)| a.to_bits() == b.to_bits()));
        assert!(body.has_custom_inverse_inertia());
        body.validate().unwrap();
    }
}

#[test]
fn dynamic_to_kinematic_keeps_velocity_and_pending_loads() {
    let mut body = configured_body();
    let before = body.clone();
    body.set_kind(BodyKind::Kinematic).unwrap();
    for (a, b) in [
        (body.linear_velocity(), before.linear_velocity()),
        (body.angular_velocity(), before.angular_velocity()),
        (body.split_linear_velocity(), before.split_linear_velocity()),
        (
            body.split_angular_velocity(),
            before.split_angular_velocity(),
        ),
        (body.force(), before.force()),
        (body.torque(), before.torque()),
        (body.position(), before.position()),
    ] {
        assert_eq!(a, b);
    }
    assert_eq!(body.rotation(), before.rotation());
}

#[test]
fn entering_static_stops_all_velocities_but_keeps_pending_loads() {
    for path in [
        &[BodyKind::Static][..],
        &[BodyKind::Kinematic, BodyKind::Static],
    ] {
        let mut body = configured_body();
        let before = body.clone();
        for &kind in path {
            body.set_kind(kind).unwrap();
        }
        for v in [
            body.linear_velocity(),
            body.angular_velocity(),
            body.split_linear_velocity(),
            body.split_angular_velocity(),
        ] {
            assert_eq!(v, Vec3::zeros());
        }
        assert_eq!(body.force(), before.force());
        assert_eq!(body.torque(), before.torque());
        assert_eq!(body.position(), before.position());
        assert_eq!(body.rotation(), before.rotation());
    }
}

/// Any chain through kinematic and static modes restores the exact dynamic
/// configuration: mass, inverse mass, and every tensor entry including the
/// off-diagonal ones and the locked axis.
#[test]
fn any_chain_of_disabled_modes_restores_the_exact_configuration() {
    use BodyKind::{Dynamic, Kinematic, Static};
    let chains: [&[BodyKind]; 5] = [
        &[Kinematic, Dynamic],
        &[Static, Dynamic],
        &[Kinematic, Static, Kinematic, Dynamic],
        &[Static, Kinematic, Static, Static, Dynamic],
        &[Kinematic, Kinematic, Static, Kinematic, Static, Dynamic],
    ];
    for chain in chains {
        let mut body = configured_body();
        let (mass, inverse_mass, tensor) =
            (body.mass(), body.inverse_mass(), body.inverse_inertia());
        for &kind in chain {
            body.set_kind(kind).unwrap();
        }
        assert_eq!(body.kind(), Dynamic);
        assert_eq!(body.mass().to_bits(), mass.to_bits());
        assert_eq!(body.inverse_mass().to_bits(), inverse_mass.to_bits());
        let restored = body.inverse_inertia();
        assert!(
            restored
                .iter()
                .zip(tensor.iter())
                .all(|(a, b)| a.to_bits() == b.to_bits()),
            "chain {chain:?}: {restored} vs {tensor}"
        );
        assert!(body.has_custom_inverse_inertia());
        body.validate().unwrap();
    }
}

/// A solid tensor round-trips too, and setting the current kind changes
/// nothing at all.
#[test]
fn solid_tensor_round_trips_and_same_kind_is_a_no_op() {
    let mut body = RigidBody::new_dynamic(Shape::capsule(0.2, 0.5).unwrap(), 7.0)
        .unwrap()
        .with_angular_velocity(Vec3::new(1.0, 2.0, 3.0));
    let original = body.clone();
    body.set_kind(BodyKind::Dynamic).unwrap();
    assert_eq!(snapshot(&body), snapshot(&original));
    body.set_kind(BodyKind::Kinematic).unwrap();
    let disabled = snapshot(&body);
    body.set_kind(BodyKind::Kinematic).unwrap();
    assert_eq!(snapshot(&body), disabled);
    body.set_kind(BodyKind::Dynamic).unwrap();
    // Kinematic kept the velocity, so the whole body is back bit for bit.
    assert_eq!(snapshot(&body), snapshot(&original));
    assert_eq!(body, original);
}

/// Pose may change while disabled; the restored world tensor uses the new
/// orientation with the retained local tensor: R A Rᵀ.
#[test]
fn restored_world_inertia_follows_the_new_orientation() {
    let mut body = configured_body();
    let local = body.inverse_inertia();
    body.set_kind(BodyKind::Static).unwrap();
    let turned = Quat::from_euler_angles(-0.9, 0.3, 2.0);
    body.set_rotation(turned);
    body.set_position(Vec3::new(5.0, 5.0, 5.0));
    body.set_kind(BodyKind::Dynamic).unwrap();
    let r = turned.cast::<f64>().to_rotation_matrix().into_inner();
    let expected = r * local.cast::<f64>() * r.transpose();
    let world = body.world_inverse_inertia().cast::<f64>();
    // f32 rounding of entries of size ~2.5.
    assert!(
        (world - expected).abs().max() < 1.0e-6,
        "{world} vs {expected}"
    );
}

/// Mass, inertia, inverse-inertia, mass-centre and shape-offset edits are
/// refused while a dynamic body is disabled, and leave it unchanged.
#[test]
fn disabled_configuration_edits_are_refused_without_change() {
    for kind in [BodyKind::Kinematic, BodyKind::Static] {
        let mut body = configured_body();
        body.set_kind(kind).unwrap();
        let before = snapshot(&body);
        let results = [
            body.set_mass(2.0),
            body.set_inertia(Mat3::identity()),
            body.set_inverse_inertia(Mat3::identity()),
            body.set_center_of_mass(Vec3::new(0.1, 0.0, 0.0)),
            body.set_shape_offset(Vec3::new(0.0, 0.1, 0.0), Quat::identity()),
        ];
        for result in results {
            assert!(
                matches!(result, Err(BodyError::DisabledDynamicConfiguration { kind: k, .. }) if k == kind),
                "{result:?}"
            );
        }
        assert_eq!(snapshot(&body), before);
        // Plain pose, motion and material setters remain available.
        body.set_position(Vec3::new(0.0, 0.0, 9.0));
        body.set_collides(false);
        assert_eq!(body.position(), Vec3::new(0.0, 0.0, 9.0));
    }
}

/// A body created kinematic or static has no saved dynamic mass: restoring
/// dynamic mode and mass edits are refused with a clear error; its shape
/// offset and mass centre (the kinematic pivot) can still be set.
#[test]
fn bodies_created_without_a_dynamic_mass_refuse_dynamic_mode() {
    let shape = Shape::sphere(0.5).unwrap();
    for mut body in [
        RigidBody::new_kinematic(shape.clone()).with_linear_velocity(Vec3::new(1.0, 0.0, 0.0)),
        RigidBody::new_static(shape.clone()),
    ] {
        assert_eq!(body.dynamic_mass(), None);
        let before = snapshot(&body);
        let error = body.set_kind(BodyKind::Dynamic).unwrap_err();
        assert!(
            matches!(error, BodyError::NoDynamicConfiguration { .. }),
            "{error}"
        );
        assert!(error.to_string().contains("new_dynamic"), "{error}");
        assert!(matches!(
            body.set_mass(1.0),
            Err(BodyError::NoDynamicConfiguration { .. })
        ));
        assert!(matches!(
            body.set_inertia(Mat3::identity()),
            Err(BodyError::NoDynamicConfiguration { .. })
        ));
        assert_eq!(snapshot(&body), before);
        body.set_shape_offset(Vec3::new(0.0, 0.0, 1.0), Quat::identity())
            .unwrap();
        body.set_center_of_mass(Vec3::new(0.0, 0.0, 1.0)).unwrap();
        body.validate().unwrap();
    }
}

/// A mesh body is static or kinematic, never dynamic: a mesh has no volume
/// and no mass, so it cannot be made dynamic (refused, the body unchanged),
/// while a kinematic mesh (a lift, a platform) validates and a static one
/// may become kinematic and back.
#[test]
fn mesh_bodies_are_static_or_kinematic_never_dynamic() {
    let mesh = Shape::mesh(
        vec![
            Vec3::new(0.0, 0.0, 0.0),
            Vec3::new(1.0, 0.0, 0.0),
            Vec3::new(0.0, 1.0, 0.0),
        ],
        vec![[0, 1, 2]],
    )
    .unwrap();
    assert!(matches!(
        RigidBody::new_dynamic(mesh.clone(), 1.0),
        Err(BodyError::Shape(_))
    ));
    let kinematic = RigidBody::new_kinematic(mesh.clone());
    kinematic.validate().unwrap();
    let mut body = RigidBody::new_static(mesh);
    body.validate().unwrap();
    let before = snapshot(&body);
    assert!(matches!(
        body.set_kind(BodyKind::Dynamic),
        Err(BodyError::MeshNotStatic {
            kind: BodyKind::Dynamic
        })
    ));
    assert_eq!(snapshot(&body), before);
    body.set_kind(BodyKind::Kinematic).unwrap();
    body.set_kind(BodyKind::Static).unwrap();
}

/// Pending force and torque keep their one-step lifetime across mode
/// changes: a disabled body's step consumes them without moving it, and a
/// restored body is pushed by loads added after restoration only.
#[test]
fn pending_loads_are_consumed_by_one_step_in_every_mode() {
    let mut body = configured_body();
    body.set_kind(BodyKind::Static).unwrap();
    let pose = (body.position(), body.rotation());
    body.integrate_velocity(0.01, Vec3::new(0.0, 0.0, -9.8))
        .unwrap();
    body.integrate_pose(0.01).unwrap();
    assert_eq!((body.position(), body.rotation()), pose);
    assert_eq!(body.force(), Vec3::zeros());
    assert_eq!(body.torque(), Vec3::zeros());
    body.set_kind(BodyKind::Dynamic).unwrap();
    body.add_force(Vec3::new(3.0, 0.0, 0.0));
    body.integrate_velocity(0.5, Vec3::zeros()).unwrap();
    // Δv = h F / m = 0.5 * 3 / 3, from rest (static stopped the body).
    assert_eq!(body.linear_velocity(), Vec3::new(0.5, 0.0, 0.0));
}

/// A kinematic body follows its prescribed velocities: no gravity, no force,
/// the mass centre moves at v and the body turns about it at ω.
#[test]
fn kinematic_body_moves_at_its_prescribed_velocity() {
    let mut body = RigidBody::new_kinematic(Shape::sphere(0.5).unwrap())
        .with_linear_velocity(Vec3::new(1.0, 0.0, 0.0))
        .with_angular_velocity(Vec3::new(0.0, 0.0, 1.0));
    body.set_center_of_mass(Vec3::new(0.5, 0.0, 0.0)).unwrap();
    let start = body.world_center_of_mass();
    for _ in 0..100 {
        body.add_force(Vec3::new(0.0, 100.0, 0.0));
        body.integrate_velocity(0.01, Vec3::new(0.0, 0.0, -9.8))
            .unwrap();
        body.integrate_pose(0.01).unwrap();
    }
    assert_eq!(body.linear_velocity(), Vec3::new(1.0, 0.0, 0.0));
    assert_eq!(body.angular_velocity(), Vec3::new(0.0, 0.0, 1.0));
    let moved = body.world_center_of_mass() - start;
    // 100 roundings of positions near 1 m (ulp 1.2e-7).
    assert!(
        (moved - Vec3::new(1.0, 0.0, 0.0)).norm() < 2.0e-5,
        "{moved}"
    );
    // First-order angle error O((h ω)^3) per step: 1e-6 * 100.
    assert!((body.rotation().angle() - 1.0).abs() < 1.0e-3);
}
