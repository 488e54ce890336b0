//! Meshes built with `Shape::mesh_with_active_edges`: the seams of a
//! tessellation (flat, gentle or concave shared edges) give no edge normals,
//! so solids slide over tessellated floors as over one triangle, in DISCRETE
//! and in SPHERE_MESH_CCD, while real features (a crease sharper than
//! `ACTIVE_EDGE_ANGLE`, the rim) keep their edge normals.
//!
//! The tessellated-floor limitation (docs/physics.md "Tessellated surfaces"; its control is kept as is for
//! `Shape::mesh` in `ccd_tessellated.rs`) names the fix: topology-aware
//! feature admission for swept and initial contacts. The controls here are
//! that limitation's own (a 0.1 m sphere overlapping a four-triangle floor by
//! 0.4 mm at 5 m/s) and a grid of 1 m cells crossed by a box, a sphere and a
//! rotation-locked capsule, each started with its front exactly on a grid
//! line (where a box used to stop dead against the next row).

mod ccd_support;

use ccd_support::mat;
use parapet_geometry::{ActiveEdges, Shape};
use parapet_math::nalgebra::{Isometry3, Translation3, UnitQuaternion};
use parapet_math::{Mat3, Vec3};
use parapet_narrow::contact::shape_mesh;
use parapet_solver::RigidBody;
use parapet_world::{CollisionDetection, PhysicsWorld, DISCRETE, SPHERE_MESH_CCD};

/// A flat `n` x `n` grid of `cell` m cells centred on the origin at z = 0,
/// two counter-clockwise triangles per cell.
fn grid(n: u32, cell: f32) -> (Vec<Vec3>, Vec<[u32; 3]>) {
    let half = n as f32 * cell / 2.0;
    let mut v = Vec::new();
    for j in 0..=n {
        for i in 0..=n {
            v.push(Vec3::new(
                i as f32 * cell - half,
                j as f32 * cell - half,
                0.0,
            ));
        }
    }
    let id = |i: u32, j: u32| j * (n + 1) + i;
    let mut t = Vec::new();
    for j in 0..n {
        for i in 0..n {
            t.push([id(i, j), id(i + 1, j), id(i + 1, j + 1)]);
            t.push([id(i, j), id(i + 1, j + 1), id(i, j + 1)]);
        }
    }
    (v, t)
}

/// The control's four-triangle square [-2, 2]^2 around its centre.
fn four_triangles() -> (Vec<Vec3>, Vec<[u32; 3]>) {
    (
        vec![
            Vec3::new(-2.0, -2.0, 0.0),
            Vec3::new(2.0, -2.0, 0.0),
            Vec3::new(2.0, 2.0, 0.0),
            Vec3::new(-2.0, 2.0, 0.0),
            Vec3::new(0.0, 0.0, 0.0),
        ],
        vec![[0, 1, 4], [1, 2, 4], [2, 3, 4], [3, 0, 4]],
    )
}

fn slick_floor(v: Vec<Vec3>, t: Vec<[u32; 3]>) -> RigidBody {
    RigidBody::new_static(Shape::mesh_with_active_edges(v, t).unwrap())
        .with_material(mat(0.0, 0.0, 0.5))
}

/// The tessellated-floor control (`test_tessellated_floor_documents_existing_ghost_contacts`)
/// on a mesh that knows its seams: 0.1 m sphere at z = 0.0996 m, 5 m/s
/// along x, gravity, zero friction and restitution, twenty 0.01 s steps.
/// Over one triangle there is no upward launch; with active edges the
/// four-triangle floor must behave the same (the plain mesh launches the
/// sphere, in both modes).
#[test]
fn the_seeds_tessellated_floor_launches_nothing_with_active_edges() {
    for mode in [DISCRETE, SPHERE_MESH_CCD] {
        let (v, t) = four_triangles();
        let mut w = PhysicsWorld::new();
        w.collision_detection = mode;
        w.add_body(slick_floor(v, t)).unwrap();
        let id = w
            .add_body(
                RigidBody::new_dynamic(Shape::sphere(0.1).unwrap(), 1.0)
                    .unwrap()
                    .with_material(mat(0.0, 0.0, 0.5))
                    .with_position(Vec3::new(-0.5, 0.05, 0.0996))
                    .with_linear_velocity(Vec3::new(5.0, 0.0, 0.0)),
            )
            .unwrap();
        let (mut up, mut min_z) = (f32::MIN, f32::MAX);
        for _ in 0..20 {
            w.step(0.01).unwrap();
            let b = w.body(id).unwrap();
            up = up.max(b.linear_velocity().z);
            min_z = min_z.min(b.position().z);
        }
        // The single-triangle bound of the control: resting support
        // moves the pose only, the velocity takes no more than gravity's
        // rounding (1e-6 m/s).
        assert!(up <= 1e-6, "{mode:?}: launched at {up} m/s");
        // Penetration within the split correction's slop (5 mm) plus the
        // start overlap.
        assert!(min_z > 0.1 - 0.006, "{mode:?}: min z {min_z}");
    }
}

/// Two of the control's spheres side by side, 0.25 m apart: their reach
/// regions overlap, so SPHERE_MESH_CCD sweeps them together as a group,
/// whose member-triangle sweeps admit seams too. Returns the largest upward
/// velocity and the lowest height of either sphere.
fn pair_over_four_triangles(active_edges: bool) -> (f32, f32) {
    let (v, t) = four_triangles();
    let floor = if active_edges {
        Shape::mesh_with_active_edges(v, t).unwrap()
    } else {
        Shape::mesh(v, t).unwrap()
    };
    let mut w = PhysicsWorld::new();
    w.collision_detection = SPHERE_MESH_CCD;
    w.add_body(RigidBody::new_static(floor).with_material(mat(0.0, 0.0, 0.5)))
        .unwrap();
    let ids: Vec<_> = [0.05f32, -0.2]
        .iter()
        .map(|&y| {
            w.add_body(
                RigidBody::new_dynamic(Shape::sphere(0.1).unwrap(), 1.0)
                    .unwrap()
                    .with_material(mat(0.0, 0.0, 0.5))
                    .with_position(Vec3::new(-0.5, y, 0.0996))
                    .with_linear_velocity(Vec3::new(5.0, 0.0, 0.0)),
            )
            .unwrap()
        })
        .collect();
    let (mut up, mut min_z) = (f32::MIN, f32::MAX);
    for _ in 0..20 {
        w.step(0.01).unwrap();
        for id in &ids {
            let b = w.body(*id).unwrap();
            up = up.max(b.linear_velocity().z);
            min_z = min_z.min(b.position().z);
        }
    }
    (up, min_z)
}

#[test]
fn spheres_swept_as_a_group_slide_across_seams_too() {
    let (up, min_z) = pair_over_four_triangles(true);
    // The control's single-triangle bounds (see above).
    assert!(up <= 1e-6, "launched at {up} m/s");
    assert!(min_z > 0.1 - 0.006, "min z {min_z}");
    // The control: without active edges the group's sweeps launch them.
    let (up, _) = pair_over_four_triangles(false);
    assert!(
        up > 1e-3,
        "expected the ghost launch on the plain mesh, got {up}"
    );
}

/// Slides `body` (resting on the grid, started at `start`) frictionlessly
/// at 3 m/s along `dir` for two seconds; returns the lowest speed along
/// `dir` and the highest and lowest heights seen.
fn slide(mode: CollisionDetection, body: RigidBody, start: Vec3, dir: Vec3) -> (f32, f32, f32) {
    let (v, t) = grid(20, 1.0);
    let mut w = PhysicsWorld::new();
    w.collision_detection = mode;
    w.add_body(slick_floor(v, t)).unwrap();
    let id = w
        .add_body(
            body.with_material(mat(0.0, 0.0, 0.5))
                .with_position(start)
                .with_linear_velocity(dir * 3.0),
        )
        .unwrap();
    let (mut slowest, mut top, mut bottom) = (f32::MAX, f32::MIN, f32::MAX);
    for _ in 0..120 {
        w.step(1.0 / 60.0).unwrap();
        let b = w.body(id).unwrap();
        slowest = slowest.min(b.linear_velocity().dot(&dir));
        top = top.max(b.position().z);
        bottom = bottom.min(b.position().z);
    }
    (slowest, top, bottom)
}

#[test]
fn solids_slide_across_grid_seams_without_slowing_or_jumping() {
    let locked = |shape: Shape| {
        let mut b = RigidBody::new_dynamic(shape, 1.0).unwrap();
        b.set_inverse_inertia(Mat3::zeros()).unwrap();
        b
    };
    // (name, body, resting height of the centre)
    let cases = [
        (
            "box",
            locked(Shape::cuboid(Vec3::new(0.25, 0.25, 0.25)).unwrap()),
            0.25,
        ),
        (
            "sphere",
            RigidBody::new_dynamic(Shape::sphere(0.25).unwrap(), 1.0).unwrap(),
            0.25,
        ),
        ("capsule", locked(Shape::capsule(0.2, 0.3).unwrap()), 0.5),
    ];
    // The box's front face starts 0.05 m behind the grid line y = -5 and
    // its side straddles x = -5: the first step puts the front face
    // exactly on the seam.
    let directions = [
        Vec3::new(1.0, 0.0, 0.0),
        Vec3::new(0.0, 1.0, 0.0),
        Vec3::new(0.6, 0.8, 0.0),
    ];
    for mode in [DISCRETE, SPHERE_MESH_CCD] {
        for (name, body, z) in &cases {
            for dir in directions {
                let start = Vec3::new(-5.1, -5.3, *z);
                let (slowest, top, bottom) = slide(mode, body.clone(), start, dir);
                // Frictionless horizontal sliding: only rounding changes the
                // speed (1e-4 m/s is 30 ppm of 3 m/s).
                assert!(
                    slowest > 3.0 - 1e-4,
                    "{mode:?} {name} along {dir:?}: slowed to {slowest} m/s"
                );
                // No jump above the resting height, no sink beyond the
                // split correction's slop (5 mm) plus a step of gravity.
                assert!(top < z + 1e-4, "{mode:?} {name}: rose to {top}");
                assert!(bottom > z - 0.006, "{mode:?} {name}: sank to {bottom}");
            }
        }
    }
}

/// A turning body (a capsule lying along x, free to rotate, spinning about
/// the vertical at 1 rad/s) slides across the same seams: in SPHERE_MESH_CCD
/// it is swept by certified sub-steps, whose contacts admit seams too.
#[test]
fn a_turning_capsule_slides_across_grid_seams() {
    for mode in [DISCRETE, SPHERE_MESH_CCD] {
        let lying =
            parapet_math::Quat::from_axis_angle(&Vec3::y_axis(), std::f32::consts::FRAC_PI_2);
        let body = RigidBody::new_dynamic(Shape::capsule(0.2, 0.3).unwrap(), 1.0)
            .unwrap()
            .with_rotation(lying)
            .with_angular_velocity(Vec3::new(0.0, 0.0, 1.0));
        let dir = Vec3::new(0.0, 1.0, 0.0);
        let (slowest, top, bottom) = slide(mode, body, Vec3::new(-5.1, -5.3, 0.2), dir);
        // Frictionless: only rounding changes the speed (1e-4 m/s).
        assert!(slowest > 3.0 - 1e-4, "{mode:?}: slowed to {slowest} m/s");
        // A turning body leaves a pressing contact at a small separation
        // speed (the micro-collision target sqrt(2 tol a) of
        // docs/turning-bodies.md), which may lift it by a fraction of a
        // millimetre (measured 0.67 mm); on the plain mesh the seams lift it
        // by 8 mm and slow it to 2.4 m/s.
        assert!(top < 0.2 + 1e-3, "{mode:?}: rose to {top}");
        assert!(bottom > 0.2 - 0.006, "{mode:?}: sank to {bottom}");
    }
}

/// The same box, on the same grid built with `Shape::mesh` (no adjacency):
/// the seam stops it, which is what active edges remove. This keeps the
/// slide test honest: its start does put the box on a seam.
#[test]
fn the_plain_mesh_stops_the_same_box_at_the_seam() {
    let (v, t) = grid(20, 1.0);
    let mut w = PhysicsWorld::new();
    w.add_body(RigidBody::new_static(Shape::mesh(v, t).unwrap()).with_material(mat(0.0, 0.0, 0.5)))
        .unwrap();
    let mut b = RigidBody::new_dynamic(Shape::cuboid(Vec3::new(0.25, 0.25, 0.25)).unwrap(), 1.0)
        .unwrap()
        .with_material(mat(0.0, 0.0, 0.5))
        .with_position(Vec3::new(-5.1, -5.3, 0.25))
        .with_linear_velocity(Vec3::new(0.0, 3.0, 0.0));
    b.set_inverse_inertia(Mat3::zeros()).unwrap();
    let id = w.add_body(b).unwrap();
    for _ in 0..10 {
        w.step(1.0 / 60.0).unwrap();
    }
    let speed = w.body(id).unwrap().linear_velocity().y;
    assert!(
        speed < 1.0,
        "the plain mesh let the box through at {speed} m/s"
    );
}

fn at(p: Vec3) -> Isometry3<f32> {
    Isometry3::from_parts(Translation3::from(p), UnitQuaternion::identity())
}

/// A roof: two 45-degree faces meeting along the ridge x = 0 (a convex
/// crease of 90 degrees, far above `ACTIVE_EDGE_ANGLE`).
fn roof() -> (Vec<Vec3>, Vec<[u32; 3]>) {
    (
        vec![
            Vec3::new(-1.0, -1.0, -1.0),
            Vec3::new(0.0, -1.0, 0.0),
            Vec3::new(0.0, 1.0, 0.0),
            Vec3::new(-1.0, 1.0, -1.0),
            Vec3::new(1.0, -1.0, -1.0),
            Vec3::new(1.0, 1.0, -1.0),
        ],
        vec![[0, 1, 2], [0, 2, 3], [1, 4, 5], [1, 5, 2]],
    )
}

#[test]
fn a_sharp_ridge_keeps_its_edge_normal() {
    let (v, t) = roof();
    let shape = Shape::mesh_with_active_edges(v, t).unwrap();
    let Shape::Mesh(mesh) = &shape else {
        unreachable!("a mesh shape")
    };
    // The ridge edge (corners 1-2 of triangle 0) is active; the flat
    // diagonal seams of each face are not.
    assert!(mesh.triangle_edges(0).edge(1));
    assert!(!mesh.triangle_edges(0).edge(2));
    // A sphere just above the ridge, 1 cm off to +x: its contacts with the
    // ridge are edge contacts whose normal runs from the centre to the
    // ridge line (nearly -z), not a 45-degree face normal.
    let ball = Shape::sphere(0.1).unwrap();
    let centre = Vec3::new(0.01, 0.0, 0.095);
    let contacts = shape_mesh(&ball, &at(centre), mesh, &at(Vec3::zeros()), 0.02).unwrap();
    assert!(!contacts.is_empty());
    let expected = (Vec3::new(0.0, 0.0, 0.0) - centre).normalize();
    for c in &contacts {
        let n = c.manifold.normal();
        // f32 rounding of the normal: 1e-6.
        assert!(
            (n - expected).norm() < 1e-6,
            "triangle {}: normal {n:?}, expected {expected:?}",
            c.triangle
        );
    }
}

#[test]
fn a_box_on_a_seam_gets_face_normals_only_with_active_edges() {
    let (v, t) = grid(4, 1.0);
    // The box rests on the floor with its +y face exactly on the seam
    // y = 0 between rows (0.1 mm overlap with the floor).
    let cube = Shape::cuboid(Vec3::new(0.25, 0.25, 0.25)).unwrap();
    let pose = at(Vec3::new(0.3, -0.25, 0.2499));
    let floor_pose = at(Vec3::zeros());
    let smooth = Shape::mesh_with_active_edges(v.clone(), t.clone()).unwrap();
    let plain = Shape::mesh(v, t).unwrap();
    let (Shape::Mesh(smooth), Shape::Mesh(plain)) = (&smooth, &plain) else {
        unreachable!("mesh shapes")
    };
    for c in shape_mesh(&cube, &pose, smooth, &floor_pose, 0.02).unwrap() {
        assert_eq!(
            c.manifold.normal(),
            -Vec3::z(),
            "triangle {} (edges {:?})",
            c.triangle,
            smooth.triangle_edges(c.triangle)
        );
    }
    // Without adjacency, some triangle of the next row gives the ghost.
    let ghost = shape_mesh(&cube, &pose, plain, &floor_pose, 0.02)
        .unwrap()
        .iter()
        .any(|c| c.manifold.normal().z.abs() < 0.5);
    assert!(
        ghost,
        "expected a horizontal ghost normal on the plain mesh"
    );
    assert_eq!(plain.triangle_edges(0), ActiveEdges::ALL);
}
