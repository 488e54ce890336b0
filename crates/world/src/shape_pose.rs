//! Where a body's shape is in the world: the shape pose (body pose composed
//! with the shape offset) and its world bounds grown by a margin.

use parapet_geometry::{Aabbd, Shape};
use parapet_math::nalgebra::{Isometry3, Translation3, UnitQuaternion};
use parapet_math::{promote, Vec3d};
use parapet_narrow::contact::Pose;
use parapet_solver::RigidBody;

/// The world pose of `body`'s shape: translation `p + R t_s` (computed in
/// `f64`, rounded once) and rotation `R R_s`. `None` when a component is
/// not a finite `f32` (only for bodies that validation would refuse).
pub(crate) fn shape_pose(body: &RigidBody) -> Option<Pose> {
    let (offset, offset_rotation) = body.shape_offset();
    let rotation = body.rotation();
    let r = UnitQuaternion::new_normalize(parapet_math::promote_quat(rotation).into_inner());
    let t = promote(body.position()) + r.transform_vector(&promote(offset));
    let t = t.cast::<f32>();
    if !t.iter().all(|x| x.is_finite()) {
        return None;
    }
    let q = rotation * offset_rotation;
    let q = UnitQuaternion::new_normalize(q.into_inner());
    Some(Isometry3::from_parts(Translation3::from(t), q))
}

/// The world bounds (m) of a solid `shape` at `pose`, grown by `margin` on
/// every side; `None` for a mesh (meshes enter through the mesh index).
pub(crate) fn shape_bounds(shape: &Shape, pose: &Pose, margin: f64) -> Option<Aabbd> {
    let q = parapet_math::promote_quat(pose.rotation);
    let r = q.to_rotation_matrix().into_inner();
    let c: Vec3d = promote(pose.translation.vector);
    let bounds = match shape {
        Shape::Sphere(s) => Aabbd::around_ball(&c, s.radius() as f64),
        Shape::Capsule(cap) => {
            let axis = r * Vec3d::new(0.0, 0.0, cap.half_height() as f64);
            let ends = [c - axis, c + axis];
            Aabbd::from_points(ends.iter()).grown(cap.radius() as f64)
        }
        Shape::Cuboid(b) => {
            let h = promote(b.half_extents());
            let extent = r.abs() * h;
            Aabbd::new(c - extent, c + extent)
        }
        Shape::ConvexHull(h) => {
            let points: Vec<Vec3d> = h.vertices().iter().map(|v| r * promote(*v) + c).collect();
            Aabbd::from_points(points.iter())
        }
        _ => return None,
    };
    // A relative widening of 1e-12 of the coordinates covers the f64
    // roundings of the rotation above, far below any margin.
    let slack = 1e-12 * (c.amax() + shape.bounding_radius());
    Some(bounds.grown(margin + slack))
}
