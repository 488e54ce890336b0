//! One-sided mesh contacts (docs/physics.md "Tessellated surfaces"): a triangle's front is the
//! side its counter-clockwise normal points to; a shape whose centre is
//! behind the plane gets no contact from it, and a shape in front that
//! sinks in is pushed out to the front. Checked for every solid shape kind
//! through the dispatcher, against a floor mesh of two triangles.
//!
//! Tolerance: `TOL = 1e-5 m`, a few `f32` ulps of the 1 m scale plus the
//! rounding of rotated `f32` vertices.

use parapet_geometry::{Shape, TriangleMesh};
use parapet_math::nalgebra::{Isometry3, Translation3, UnitQuaternion};
use parapet_math::Vec3;
use parapet_narrow::contact::{self, ContactError, Pose};

/// Length tolerance (m), see the header.
const TOL: f32 = 1.0e-5;

/// A 10 m square floor at z = 0 facing +Z (`up`) or -Z.
fn floor(up: bool) -> TriangleMesh {
    let vertices = vec![
        Vec3::new(-5.0, -5.0, 0.0),
        Vec3::new(5.0, -5.0, 0.0),
        Vec3::new(5.0, 5.0, 0.0),
        Vec3::new(-5.0, 5.0, 0.0),
    ];
    let triangles = if up {
        vec![[0, 1, 2], [0, 2, 3]]
    } else {
        vec![[0, 2, 1], [0, 3, 2]]
    };
    TriangleMesh::new(vertices, triangles).expect("valid floor")
}

fn at(z: f32) -> Pose {
    Isometry3::from_parts(Translation3::new(0.3, -0.2, z), UnitQuaternion::identity())
}

/// Every solid kind with the height (m) of its lowest point below its centre.
fn solids() -> Vec<(Shape, f32)> {
    let octahedron: Vec<Vec3> = [
        [0.5, 0.0, 0.0],
        [-0.5, 0.0, 0.0],
        [0.0, 0.5, 0.0],
        [0.0, -0.5, 0.0],
        [0.0, 0.0, 0.5],
        [0.0, 0.0, -0.5],
    ]
    .iter()
    .map(|p| Vec3::new(p[0], p[1], p[2]))
    .collect();
    vec![
        (Shape::sphere(0.5).unwrap(), 0.5),
        (Shape::capsule(0.3, 0.4).unwrap(), 0.7),
        (Shape::cuboid(Vec3::new(0.4, 0.3, 0.5)).unwrap(), 0.5),
        (Shape::convex_hull(&octahedron).unwrap(), 0.5),
    ]
}

#[test]
fn every_solid_sinking_into_the_front_is_pushed_up() {
    let mesh = floor(true);
    for (shape, low) in solids() {
        let contacts =
            contact::shape_mesh(&shape, &at(low - 0.02), &mesh, &Isometry3::identity(), 0.0)
                .unwrap();
        assert!(!contacts.is_empty(), "{}", shape.kind_name());
        for c in &contacts {
            assert!(
                (c.manifold.normal() + Vec3::z()).norm() < TOL,
                "{}: {:?}",
                shape.kind_name(),
                c
            );
            let depth = c.manifold.max_depth().unwrap();
            assert!(
                (depth - 0.02).abs() < TOL,
                "{}: depth {depth}",
                shape.kind_name()
            );
        }
    }
}

#[test]
fn every_solid_centred_behind_the_floor_gets_nothing() {
    let mesh = floor(true);
    for (shape, _) in solids() {
        // The centre 1 cm behind the plane: the shape still overlaps it. A
        // capsule is behind only when both segment ends are (the one-sided rule), so
        // this upright one is lowered until its upper end is 1 cm behind.
        let behind = if let Shape::Capsule(c) = &shape {
            c.half_height() + 0.01
        } else {
            0.01
        };
        let contacts =
            contact::shape_mesh(&shape, &at(-behind), &mesh, &Isometry3::identity(), 0.1).unwrap();
        assert!(contacts.is_empty(), "{}: {contacts:?}", shape.kind_name());
    }
}

#[test]
fn a_floor_facing_down_ignores_shapes_above_and_catches_shapes_below() {
    let mesh = floor(false);
    for (shape, low) in solids() {
        let above =
            contact::shape_mesh(&shape, &at(low - 0.02), &mesh, &Isometry3::identity(), 0.0)
                .unwrap();
        assert!(above.is_empty(), "{}", shape.kind_name());
        let below = contact::shape_mesh(
            &shape,
            &at(-(low - 0.02)),
            &mesh,
            &Isometry3::identity(),
            0.0,
        )
        .unwrap();
        assert!(!below.is_empty(), "{}", shape.kind_name());
        for c in &below {
            assert!((c.manifold.normal() - Vec3::z()).norm() < TOL);
        }
    }
}

#[test]
fn a_speculative_gap_above_the_floor_gives_negative_depths_within_the_margin() {
    let mesh = floor(true);
    for (shape, low) in solids() {
        let pose = at(low + 0.03);
        let within =
            contact::shape_mesh(&shape, &pose, &mesh, &Isometry3::identity(), 0.05).unwrap();
        assert!(!within.is_empty(), "{}", shape.kind_name());
        for c in &within {
            let depth = c.manifold.max_depth().unwrap();
            assert!((depth + 0.03).abs() < TOL, "{}: {depth}", shape.kind_name());
        }
        let beyond =
            contact::shape_mesh(&shape, &pose, &mesh, &Isometry3::identity(), 0.02).unwrap();
        assert!(beyond.is_empty(), "{}", shape.kind_name());
    }
}

#[test]
fn a_capsule_with_one_end_behind_is_pushed_to_the_front() {
    // The one-sided rule: a capsule is behind only when both segment ends are. This
    // one stands through the floor, its lower end 0.1 m behind the plane.
    let shape = Shape::capsule(0.2, 0.5).unwrap();
    let pose = at(0.4);
    let tri = [
        Vec3::new(-5.0, -5.0, 0.0),
        Vec3::new(5.0, -5.0, 0.0),
        Vec3::new(5.0, 5.0, 0.0),
    ];
    let m = contact::shape_triangle(&shape, &pose, &tri, 0.0).unwrap();
    assert!((m.normal() + Vec3::z()).norm() < TOL);
    // Lower end at z = -0.1: it must rise 0.1 + 0.2 m to clear the floor.
    assert!((m.max_depth().unwrap() - 0.3).abs() < TOL, "{m:?}");
    let behind = contact::shape_triangle(&shape, &at(-0.6), &tri, 0.0).unwrap();
    assert!(behind.is_empty());
}

#[test]
fn a_box_resting_on_the_floor_gets_a_face_manifold_per_triangle() {
    let mesh = floor(true);
    let shape = Shape::cuboid(Vec3::new(0.5, 0.5, 0.5)).unwrap();
    // Centred on the diagonal shared by the two triangles.
    let pose = Isometry3::from_parts(
        Translation3::new(0.0, 0.0, 0.49),
        UnitQuaternion::identity(),
    );
    let contacts = contact::shape_mesh(&shape, &pose, &mesh, &Isometry3::identity(), 0.0).unwrap();
    assert_eq!(
        contacts.iter().map(|c| c.triangle).collect::<Vec<_>>(),
        vec![0, 1]
    );
    for c in &contacts {
        // Each triangle clips the square to its half: 3 or 4 points, all 1 cm deep.
        assert!(c.manifold.len() >= 3, "{c:?}");
        for p in c.manifold.points() {
            assert!((p.depth - 0.01).abs() < TOL);
        }
    }
}

#[test]
fn mesh_pairs_are_refused_not_asserted() {
    let mesh = Shape::mesh(vec![Vec3::zeros(), Vec3::x(), Vec3::y()], vec![[0, 1, 2]]).unwrap();
    let sphere = Shape::sphere(1.0).unwrap();
    let id = Isometry3::identity();
    for (a, b) in [(&mesh, &mesh), (&sphere, &mesh), (&mesh, &sphere)] {
        let err = contact::shapes(a, &id, b, &id, 0.0).unwrap_err();
        assert!(matches!(err, ContactError::Unsupported { .. }), "{err}");
        assert!(err.to_string().contains("triangle mesh"), "{err}");
    }
    let Shape::Mesh(m) = &mesh else {
        unreachable!("built as a mesh")
    };
    let err = contact::shape_mesh(&mesh, &id, m, &id, 0.0).unwrap_err();
    assert!(matches!(err, ContactError::Unsupported { .. }));
}

mod separating_translation {
    use super::*;
    use proptest::prelude::*;

    fn solid() -> impl Strategy<Value = Shape> {
        prop_oneof![
            (0.1f32..1.0).prop_map(|r| Shape::sphere(r).unwrap()),
            (0.1f32..0.6, 0.1f32..1.0).prop_map(|(r, h)| Shape::capsule(r, h).unwrap()),
            (0.1f32..1.0, 0.1f32..1.0, 0.1f32..1.0)
                .prop_map(|(x, y, z)| Shape::cuboid(Vec3::new(x, y, z)).unwrap()),
            proptest::collection::vec((-0.5f32..0.5, -0.5f32..0.5, -0.5f32..0.5), 2..8).prop_map(
                |p| {
                    let mut pts = vec![
                        Vec3::new(0.3, 0.3, 0.3),
                        Vec3::new(-0.3, -0.3, 0.3),
                        Vec3::new(0.3, -0.3, -0.3),
                        Vec3::new(-0.3, 0.3, -0.3),
                    ];
                    pts.extend(p.into_iter().map(|(x, y, z)| Vec3::new(x, y, z)));
                    Shape::convex_hull(&pts).unwrap()
                }
            ),
        ]
    }

    fn point() -> impl Strategy<Value = Vec3> {
        (-1.5f32..1.5, -1.5f32..1.5, -1.5f32..1.5).prop_map(|(x, y, z)| Vec3::new(x, y, z))
    }

    /// The one-sided rule: the centre strictly behind the plane (for a hull
    /// the mean of its vertices), for a capsule both segment ends.
    fn behind(shape: &Shape, pose: &Pose, tri: &[Vec3; 3]) -> bool {
        let n = (tri[1] - tri[0]).cross(&(tri[2] - tri[0]));
        let h = |p: Vec3| n.dot(&(p - tri[0])) < 0.0;
        match shape {
            Shape::Capsule(c) => {
                let axis = pose.rotation * Vec3::new(0.0, 0.0, c.half_height());
                h(pose.translation.vector + axis) && h(pose.translation.vector - axis)
            }
            Shape::ConvexHull(hull) => {
                let mean = hull.vertices().iter().sum::<Vec3>() / hull.vertices().len() as f32;
                h((pose * parapet_math::nalgebra::Point3::from(mean)).coords)
            }
            _ => h(pose.translation.vector),
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 1024, max_global_rejects: 8192, ..ProptestConfig::default() })]

        /// A triangle contact's normal and depth form a separating
        /// translation: moving the shape back along the normal by
        /// (depth + gap) leaves at least `gap` (nothing within a narrower
        /// margin; within a wider one, a depth of at most -gap). One-sided
        /// axes may push further than the two-sided minimum (the back is
        /// never an axis), so the gap can exceed `gap`; it must never be less.
        ///
        /// Except along the triangle's own normal: a solid pushed deep
        /// through the front, whose least overlap points to the back, is
        /// pushed out along the face normal by the deepest point over the
        /// triangle (every point on both surfaces, `contact_surface_oracle.rs`). That lifts
        /// everything over the triangle by `gap`, but a part of the solid
        /// beside an edge may stay closer than `gap` to it sideways; the
        /// pair must then still not overlap.
        #[test]
        fn moving_the_shape_out_along_the_normal_separates_it_by_the_gap(
            shape in solid(), t in point(), axis in point(), tri in [point(), point(), point()], gap in 0.01f32..0.2,
        ) {
            prop_assume!((tri[1] - tri[0]).cross(&(tri[2] - tri[0])).norm() > 0.1);
            // Near the triangle, so that most cases touch.
            let t = (tri[0] + tri[1] + tri[2]) / 3.0 + t * 0.5;
            let pose = Isometry3::from_parts(Translation3::from(t), UnitQuaternion::from_scaled_axis(axis * 2.0));
            let m = contact::shape_triangle(&shape, &pose, &tri, 0.0).unwrap();
            prop_assume!(!m.is_empty());
            let depth = m.max_depth().unwrap();
            let mut moved = pose;
            moved.translation.vector -= m.normal() * (depth + gap);
            let within = contact::shape_triangle(&shape, &moved, &tri, gap + 0.05).unwrap();
            // An edge or vertex contact can move the shape round the edge to
            // the back, where the one-sided rule gives no contact at all.
            prop_assume!(!behind(&shape, &moved, &tri));
            // 1e-4 m: f32 poses and points of metre-sized shapes, moved once.
            let face = (tri[1] - tri[0]).cross(&(tri[2] - tri[0])).normalize();
            if m.normal().dot(&-face) > 1.0 - 1e-6 {
                if let Some(d) = within.max_depth() {
                    prop_assert!(d <= 1e-4, "{within:?} after {m:?}");
                }
                return Ok(());
            }
            if let Some(d) = within.max_depth() {
                prop_assert!(d <= -gap + 1e-4, "{within:?} after {m:?}");
            }
            let beyond = contact::shape_triangle(&shape, &moved, &tri, gap - 1e-3).unwrap();
            prop_assert!(beyond.is_empty(), "{beyond:?} after {m:?}");
        }
    }
}
