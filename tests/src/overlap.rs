//! An independent measure of how deep two bodies of a world overlap, for
//! the continuous step's families (no body ends inside another deeper than
//! its held depth): parry3d's contact query on the bodies' shapes at their
//! stored poses. Shares no code with parapet's narrow phase or arbiter.

use parapet::prelude::*;
use parry3d::bounding_volume::BoundingVolume;
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
/// triangles it touches, the deepest of them.
///
/// parry3d's `contact` (GJK, then EPA) can answer a pair that touches to
/// within rounding with a garbage penetration: a capsule resting 4 nm into
/// a sloped floor triangle read 23.1 mm deep, its two points 0.47 m apart,
/// while parry3d's `distance` of the same pair read 0.76 mm apart (and the
/// contact with the arguments swapped read apart too). So a pair, or a
/// mesh triangle, that parry3d's GJK distance separates is apart, and only
/// a pair at distance zero is given to `contact`.
pub fn depth(a: &RigidBody, b: &RigidBody) -> Option<f64> {
    let (sa, sb) = (parry_shape(a.shape())?, parry_shape(b.shape())?);
    let (pa, pb) = (shape_pose(a), shape_pose(b));
    match (sa.as_trimesh(), sb.as_trimesh()) {
        (Some(mesh), None) => mesh_depth(&pa, mesh, &pb, &*sb),
        (None, Some(mesh)) => mesh_depth(&pb, mesh, &pa, &*sa),
        _ => pair_depth(&pa, &*sa, &pb, &*sb),
    }
}

/// The depth (m) of two shapes by parry3d: 0 when its GJK distance
/// separates them, else its contact's penetration.
fn pair_depth(
    pa: &ParryPose,
    sa: &dyn ParryShape,
    pb: &ParryPose,
    sb: &dyn ParryShape,
) -> Option<f64> {
    if parry3d::query::distance(pa, sa, pb, sb).is_ok_and(|d| d.distance > 0.0) {
        return Some(0.0);
    }
    let c = parry3d::query::contact(pa, sa, pb, sb, 0.0).ok()?;
    Some(c.map_or(0.0, |c| (-c.dist).max(0.0) as f64))
}

/// The deepest [`pair_depth`] (m) of `solid` against the triangles of
/// `mesh` whose bounds meet its own; 0 without a scan when GJK's distance
/// separates it from the whole mesh.
fn mesh_depth(
    pm: &ParryPose,
    mesh: &TriMesh,
    ps: &ParryPose,
    solid: &dyn ParryShape,
) -> Option<f64> {
    if parry3d::query::distance(pm, mesh, ps, solid).is_ok_and(|d| d.distance > 0.0) {
        return Some(0.0);
    }
    let bounds = solid.compute_aabb(ps);
    let mut deepest = 0.0f64;
    for triangle in mesh.triangles() {
        if triangle.compute_aabb(pm).intersects(&bounds) {
            deepest = deepest.max(pair_depth(pm, &triangle, ps, solid)?);
        }
    }
    Some(deepest)
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
