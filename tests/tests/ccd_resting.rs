//! Resting and sliding contact in SPHERE_MESH_CCD under gravity: initial
//! front-side overlaps keep the discrete solver and its split correction,
//! slow contacts keep the speculative path, and the sweep adds nothing to a
//! body that rests or slides on a single flat face (docs/continuous-collision.md
//! "How a step works"). Each body lands away from the plate's internal
//! diagonal (ghost edges there are the tessellated-floor limitation).

mod ccd_support;

use ccd_support::{mat, mesh};
use parapet_geometry::Shape;
use parapet_math::{Mat3, Vec3};
use parapet_solver::{BodyKind, RigidBody};
use parapet_world::{ContactKind, PhysicsWorld, SPHERE_MESH_CCD};

/// One large triangle facing +z: no internal edge anywhere near the bodies.
fn single_floor() -> RigidBody {
    mesh(
        vec![
            Vec3::new(-50.0, -50.0, 0.0),
            Vec3::new(50.0, -50.0, 0.0),
            Vec3::new(0.0, 50.0, 0.0),
        ],
        vec![[0, 1, 2]],
        mat(0.5, 0.2, 0.5),
    )
}

#[test]
fn dropped_bodies_come_to_rest_and_slide_without_swept_impulses_or_launches() {
    let lying = parapet_math::Quat::from_axis_angle(&Vec3::y_axis(), std::f32::consts::FRAC_PI_2);
    let mut cases: Vec<(&str, RigidBody, f32)> = vec![(
        "sphere",
        RigidBody::new_dynamic(Shape::sphere(0.1).unwrap(), 1.0).unwrap(),
        0.1,
    )];
    let mut capsule = RigidBody::new_dynamic(Shape::capsule(0.1, 0.3).unwrap(), 1.0)
        .unwrap()
        .with_rotation(lying);
    capsule.set_inverse_inertia(Mat3::zeros()).unwrap();
    cases.push(("capsule", capsule, 0.1));
    let mut cube =
        RigidBody::new_dynamic(Shape::cuboid(Vec3::new(0.2, 0.2, 0.2)).unwrap(), 1.0).unwrap();
    cube.set_inverse_inertia(Mat3::zeros()).unwrap();
    cases.push(("box", cube, 0.2));
    for (name, body, height) in cases {
        let mut w = PhysicsWorld::new();
        w.collision_detection = SPHERE_MESH_CCD;
        w.add_body(single_floor()).unwrap();
        let id = w
            .add_body(
                body.with_material(mat(0.5, 0.2, 0.5))
                    .with_position(Vec3::new(0.0, -10.0, height + 1.0))
                    .with_linear_velocity(Vec3::new(2.0, 0.0, -20.0)),
            )
            .unwrap();
        let mut swept = 0;
        for step in 0..200 {
            w.step(1.0 / 60.0).unwrap();
            swept += w
                .events()
                .iter()
                .filter(|e| e.kind == ContactKind::Swept)
                .count();
            let b = w.body(id).unwrap();
            let z = b.position().z;
            // Never below the surface by more than the split correction's
            // slop (5 mm) plus one step of gravity (2.7 mm).
            assert!(z > height - 0.008, "{name}: step {step}: z = {z}");
            if step > 120 {
                // After the restitution-0.2 hops (4 m/s, then 0.8 m/s): at
                // rest vertically, no launches.
                assert!(
                    b.linear_velocity().z.abs() < 0.2,
                    "{name}: step {step}: {:?}",
                    b.linear_velocity()
                );
                assert!(z < height + 0.01, "{name}: step {step}: z = {z}");
            }
        }
        // The 20 m/s landing is swept (one impact, perhaps a second for the
        // restitution-0.2 hop), the resting contact is not.
        assert!((1..=3).contains(&swept), "{name}: {swept} swept impacts");
        let b = w.body(id).unwrap();
        if name == "sphere" {
            // The sphere rolls without slipping: v_x = w_y r, at 5/7 of
            // the 2 m/s it slid with (no rolling resistance in the model).
            let slip = b.linear_velocity().x - b.angular_velocity().y * 0.1;
            assert!(slip.abs() < 1e-3, "sphere slips at {slip} m/s");
            assert!((b.linear_velocity().x - 2.0 * 5.0 / 7.0).abs() < 0.05);
        } else {
            // Bodies that cannot turn slide until friction stops them.
            assert!(
                b.linear_velocity().x.abs() < 1e-3,
                "{name}: {:?}",
                b.linear_velocity()
            );
        }
    }
}

/// Where nothing is fast enough to be swept, SPHERE_MESH_CCD sweeps nothing:
/// spheres settling from 5 mm above a floor (closing travel per step below
/// the 0.02 m margin), rolling, and a locked box sliding on it take no swept
/// impact and report only the discrete contacts, and end at rest or rolling
/// as DISCRETE leaves them, to within the two contact solves' difference
/// (DISCRETE's soft substeps against the continuous mode's whole-step
/// iterations, which hold resting contacts at zero overlap; docs/physics.md,
/// step 4).
#[test]
fn slow_scenes_take_no_swept_impact_and_settle_as_in_the_discrete_mode() {
    let build = |mode| {
        let mut w = PhysicsWorld::new();
        w.collision_detection = mode;
        w.add_body(single_floor()).unwrap();
        for k in 0..4 {
            let b = RigidBody::new_dynamic(Shape::sphere(0.1 + 0.05 * k as f32).unwrap(), 1.0)
                .unwrap()
                .with_material(mat(0.4, 0.3, 0.5))
                .with_position(Vec3::new(3.0 * k as f32, 0.0, 0.105 + 0.05 * k as f32))
                .with_linear_velocity(Vec3::new(1.0, 0.5, -0.3))
                .with_angular_velocity(Vec3::new(0.0, 0.0, 3.0));
            w.add_body(b).unwrap();
        }
        let mut cube =
            RigidBody::new_dynamic(Shape::cuboid(Vec3::new(0.2, 0.3, 0.1)).unwrap(), 2.0)
                .unwrap()
                .with_position(Vec3::new(-4.0, 0.0, 0.15))
                .with_linear_velocity(Vec3::new(-1.0, 0.0, 0.0));
        cube.set_inverse_inertia(Mat3::zeros()).unwrap();
        w.add_body(cube).unwrap();
        w
    };
    let mut discrete = build(parapet_world::DISCRETE);
    let mut ccd = build(SPHERE_MESH_CCD);
    for step in 0..120 {
        discrete.step(1.0 / 60.0).unwrap();
        ccd.step(1.0 / 60.0).unwrap();
        assert!(ccd.events().iter().all(|e| e.kind == ContactKind::Initial));
        assert_eq!(ccd.ccd_report().swept_impacts, 0, "step {step}");
    }
    for ((id, a), (_, b)) in discrete.bodies().zip(ccd.bodies()) {
        if a.kind() != BodyKind::Dynamic {
            continue;
        }
        // Both rest on the floor: the height each solve settles a 1-2 kg
        // body at differs by under 0.1 mm (the soft substeps' sink under
        // its weight, 2 g / (2 pi 30 Hz)^2 ~ 0.6 mm at most, is relaxed).
        assert!((a.position().z - b.position().z).abs() < 1e-4, "{id:?}");
        // The spheres roll at the same speed (5/7 of the sliding speed
        // once friction has brought them to rolling): within 1% (measured
        // 0.3%: the two solves converge the friction differently); the
        // locked box has stopped in both.
        let (va, vb) = (a.linear_velocity().norm(), b.linear_velocity().norm());
        assert!(
            (va - vb).abs() <= 0.01 * va.max(1e-3),
            "{id:?}: {va} vs {vb}"
        );
    }
}
