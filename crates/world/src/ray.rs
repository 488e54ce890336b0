//! `PhysicsWorld::cast_ray`: the nearest hit over every colliding body.
//!
//! Solids are cast one by one (`parapet_narrow::ray::cast_shape` at the
//! shape pose); mesh snapshots through the mesh index when it is built
//! (`Ray` query, candidates in triangle insertion order), or triangle by
//! triangle when a mesh was added or removed since the last step (same
//! answers). The nearest distance wins; equal distances go to the body
//! added first, then to the lower triangle index. Bodies with
//! `collides == false` are skipped; meshes are one-sided.

use parapet_geometry::bvh::Ray;
use parapet_math::{promote, Vec3};
use parapet_narrow::ray::{cast_shape, cast_triangle, validate_ray, RayIntersection};

use crate::shape_pose::shape_pose;
use crate::{BodyId, PhysicsWorld, RayHit};

/// The best hit so far and its tie-break key.
#[derive(Default)]
struct Nearest {
    best: Option<(f32, BodyId, u32, RayIntersection)>,
}

impl Nearest {
    fn offer(&mut self, body: BodyId, feature: u32, hit: RayIntersection) {
        let better = match &self.best {
            None => true,
            // Numeric comparison, so that -0 and +0 tie (a ray starting on
            // a surface can give either) and go to insertion order.
            Some((d, b, f, _)) => {
                hit.distance < *d || (hit.distance == *d && (body, feature) < (*b, *f))
            }
        };
        if better {
            self.best = Some((hit.distance, body, feature, hit));
        }
    }
}

impl PhysicsWorld {
    /// The nearest hit of the ray from `origin` along `direction` (any
    /// non-zero length; distances are along its unit direction) within
    /// `max_distance` (m). Ties go to the body added first, then to the
    /// lower triangle index. A ray that starts inside a solid hits it at
    /// distance 0 with normal `-direction`. Mesh triangles are hit from
    /// their front only.
    ///
    /// Returns `None` when nothing is hit, and for a ray without meaning (a
    /// non-finite origin, a zero or non-finite direction, a negative or NaN
    /// `max_distance`).
    pub fn cast_ray(&self, origin: Vec3, direction: Vec3, max_distance: f32) -> Option<RayHit> {
        validate_ray(origin, direction, max_distance).ok()?;
        let mut nearest = Nearest::default();
        for e in self.entries() {
            if !e.body.collides() {
                continue;
            }
            if e.body.shape().is_solid() {
                let Some(pose) = shape_pose(&e.body) else {
                    continue;
                };
                if let Ok(Some(hit)) =
                    cast_shape(e.body.shape(), &pose, origin, direction, max_distance)
                {
                    nearest.offer(e.id, 0, hit);
                }
            } else if self.meshes.tree().is_none() {
                if let Some(snapshot) = &e.mesh {
                    for (i, t) in snapshot.iter().enumerate() {
                        if let Some(hit) = cast_triangle(t, origin, direction, max_distance) {
                            nearest.offer(e.id, i as u32, hit);
                        }
                    }
                }
            }
        }
        if let Some(tree) = self.meshes.tree() {
            let d = promote(direction);
            let unit = d / d.norm();
            if let Ok(query) = Ray::new(promote(origin), unit, max_distance as f64) {
                for t in tree.query_vec(&query) {
                    let t = t as usize;
                    let Some(owner) = self.slots[self.meshes.owner(t) as usize].as_ref() else {
                        continue;
                    };
                    if !owner.body.collides() {
                        continue;
                    }
                    let triangle = &self.meshes.triangles()[t];
                    if let Some(hit) = cast_triangle(triangle, origin, direction, max_distance) {
                        nearest.offer(owner.id, self.meshes.local_index(t), hit);
                    }
                }
            }
        }
        nearest.best.map(|(_, body, _, hit)| RayHit {
            body,
            distance: hit.distance,
            point: hit.point,
            normal: hit.normal,
        })
    }
}
