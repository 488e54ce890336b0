//! An independent measure of how deep two bodies of a world overlap, for
//! the continuous step's families (no body ends inside another deeper than
//! its held depth): parry3d's contact query on the bodies' shapes at their
//! stored poses. Shares no code with parapet's narrow phase or arbiter.

use parapet::prelude::*;
use parry3d::shape::{Ball, Capsule, ConvexPolyhedron, Cuboid, Shape as ParryShape, TriMesh};

use crate::parry::{pose_to_parry, to_parry, ParryPose};

/// parry3d's shape of `shape` (`None` for a shape kind it is not given).
pub fn parry_shape(shape: &Shape) -> Option<Box<dyn ParryShape>> {
    Some(match shape {
        Shape::Sphere(s) => Box::new(Ball::new(s.radius())),
        Shape::Capsule(c) => Box::new(Capsule::new_z(c.half_height(), c.radius())),
        Shape::Cuboid(c) => Box::new(Cuboid::new(to_parry(c.half_extents()))),
        Shape::ConvexHull(h) => {
            let points: Vec<_> = h.vertices().iter().map(|v| to_parry(*v)).collect();
            Box::new(ConvexPolyhedron::from_convex_hull(&points)?)
        }
        Shape::Mesh(m) => {
            let vertices: Vec<_> = m.vertices().iter().map(|v| to_parry(*v)).collect();
            let indices: Vec<[u32; 3]> = m.indices().to_vec();
            Box::new(TriMesh::new(vertices, indices).ok()?)
        }
        _ => return None,
    })
}

/// The world pose of a body's shape (body pose composed with its offset).
pub fn shape_pose(body: &RigidBody) -> ParryPose {
    let (t, r) = body.shape_offset();
    let q = body.rotation();
    pose_to_parry(body.position() + q * t, q * r)
}

/// How deep (m) bodies `a` and `b` overlap (0 when apart or touching;
/// `None` when parry3d has no query for the pair). A mesh is a surface:
/// against a mesh, the depth is how far the solid reaches through the
/// triangle it touches.
pub fn depth(a: &RigidBody, b: &RigidBody) -> Option<f64> {
    let (sa, sb) = (parry_shape(a.shape())?, parry_shape(b.shape())?);
    let c = parry3d::query::contact(&shape_pose(a), &*sa, &shape_pose(b), &*sb, 0.0).ok()?;
    Some(c.map_or(0.0, |c| (-c.dist).max(0.0) as f64))
}

/// The deepest overlap (m) over every pair of `world`'s bodies that both
/// collide and interact, with the pair: `(depth, a, b)`, pairs of two
/// bodies neither of which is dynamic left out.
pub fn deepest(world: &PhysicsWorld) -> Option<(f64, BodyId, BodyId)> {
    let bodies: Vec<(BodyId, &RigidBody)> = world.bodies().collect();
    let mut worst: Option<(f64, BodyId, BodyId)> = None;
    for (i, (ia, a)) in bodies.iter().enumerate() {
        for (ib, b) in &bodies[i + 1..] {
            let dynamic = a.kind() == BodyKind::Dynamic || b.kind() == BodyKind::Dynamic;
            let meet = a.collides()
                && b.collides()
                && !a.is_sensor()
                && !b.is_sensor()
                && a.collision_groups().interacts_with(b.collision_groups())
                && !world.is_pair_ignored(*ia, *ib);
            if !dynamic || !meet {
                continue;
            }
            if let Some(d) = depth(a, b) {
                if worst.is_none_or(|w| d > w.0) {
                    worst = Some((d, *ia, *ib));
                }
            }
        }
    }
    worst
}
