//! The contact points of a pair at the instant of an event: what the one
//! impulse routine (`parapet_solver::impact::respond_contacts`) is given,
//! so that a box landing flat takes its four corners at once.
//!
//! # Method
//! The two bodies are placed at their poses at the event's time (their
//! motions there, rounded to the `f32` poses the narrow phase takes) and
//! the discrete contact test (`parapet_narrow::contact`) is asked for the
//! points within [`MANIFOLD_MARGIN`]: every point that
//! touches at that instant, and the corners that would touch within a
//! hair. Against a mesh, every triangle of the mesh within that margin is
//! tested (a box landing across a seam touches two triangles), with the
//! mesh's active edges. When no point of the test carries the arbiter's
//! normal at the arbiter's point (the test finds nothing at that scale,
//! its rounding and the arbiter's differing by a hair, or it measures an
//! overlap along another axis), the arbiter's own witness point and normal
//! join the event's contacts: an event is never lost.
//!
//! # Source
//! docs/continuous-collision.md, "How a step works".
//!
//! # Precision domain
//! The poses are rounded to `f32` once (the narrow phase's input), a
//! relative `6e-8` of the coordinates: far below the margin for the
//! coordinates of the precision domain.

use parapet_geometry::bvh::Bounds;
use parapet_geometry::{Aabbd, Material, Shape};
use parapet_math::nalgebra::{Isometry3, Translation3, UnitQuaternion};
use parapet_math::{promote, Quatd, Vec3, Vec3d};
use parapet_narrow::contact::active_edges::seam_normal;
use parapet_narrow::contact::{self, Manifold, Pose};
use parapet_narrow::moving::{Hit, MovingShape};
use parapet_solver::RigidBody;

use super::bodies::StepBody;
use crate::world::mesh_triangle_edges;

/// The margin (m) of an event's contact test: 1 mm. A pair struck within
/// its contact tolerance (at most 50 µm apart) has its touching points
/// within it, and the corners of a face that lands tilted by a hair join
/// them.
pub const MANIFOLD_MARGIN: f64 = 1.0e-3;

/// The cosine (dimensionless) above which an event point's normal is taken
/// to be the arbiter's: cos 2°. Rounding tilts a contact test's normal by
/// far less; a different feature's normal (a box edge against a face)
/// differs by far more.
pub const NORMAL_AGREEMENT: f64 = 0.999_390_827_019_095_7;

/// One contact point of an event, between the pair's body A and body B.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct EventPoint {
    /// The point (m, world).
    pub point: Vec3d,
    /// Unit normal from B towards A.
    pub normal: Vec3d,
    /// The mesh triangle of B it lies on (its index in the mesh), if any.
    pub triangle: Option<u32>,
    /// The distance (m) between the surfaces there: negative when they
    /// overlap.
    pub gap: f64,
}

/// A body's shape pose (`f32`, the narrow phase's) at step time `t`: its
/// pose along its motion composed with its shape offset.
pub(crate) fn shape_pose_at(step: &StepBody, rigid: &RigidBody, t: f64) -> Option<Pose> {
    let (p, q) = step.motion.pose_at(t - step.since);
    let (offset, offset_rotation) = rigid.shape_offset();
    let position = p + q * promote(offset);
    let rotation =
        q * Quatd::new_normalize(parapet_math::promote_quat(offset_rotation).into_inner());
    let translation = position.cast::<f32>();
    if !translation.iter().all(|x| x.is_finite()) {
        return None;
    }
    let rotation = UnitQuaternion::new_normalize(rotation.into_inner().cast::<f32>());
    Some(Isometry3::from_parts(
        Translation3::from(translation),
        rotation,
    ))
}

/// The world bounds of a solid shape at `pose`, grown by `margin` (m).
fn solid_bounds(shape: &Shape, pose: &Pose, margin: f64) -> Aabbd {
    let c = promote(pose.translation.vector);
    let r = shape.bounding_radius() + margin;
    Aabbd::around_ball(&c, r)
}

/// The points of `manifold` (normal from A to B) within `margin`, with the
/// normal turned to run from B towards A.
fn push_manifold(
    manifold: &Manifold,
    margin: f32,
    triangle: Option<u32>,
    out: &mut Vec<EventPoint>,
) {
    let normal = -promote(manifold.normal());
    for p in manifold.points() {
        if p.depth >= -margin {
            out.push(EventPoint {
                point: promote(p.point),
                normal,
                triangle,
                gap: -(p.depth as f64),
            });
        }
    }
}

/// The contact points of mover `a` against body `b` (a solid, or a mesh)
/// at step time `t` within `margin` (m), normals from B towards A; the
/// arbiter's `hit` when the test finds none (see the module docs).
pub(crate) fn event_points(
    (a, ra): (&StepBody, &RigidBody),
    (b, rb): (&StepBody, &RigidBody),
    t: f64,
    margin: f64,
    hit: Option<&Hit>,
) -> Vec<EventPoint> {
    let mut out = Vec::new();
    let m = margin as f32;
    // The arbiter's normal, as the mesh's active edges admit it: at a seam
    // of the tessellation (an inactive edge), the face normal, as for the
    // contact test's points (a capsule spinning flat over a two-triangle
    // floor, its end dipping onto the diagonal seam, was struck along the
    // seam's tilted normal and slid off sideways).
    let hit_normal = hit.map(|h| match (b.swept.shape.as_ref(), h.feature_b.triangle) {
        (MovingShape::Mesh(mesh), Some(k)) => match mesh.triangles().get(k as usize) {
            Some(tri) => {
                let corners = if b.swept.world_frame {
                    tri.map(promote)
                } else {
                    let (p, q) = mesh_frame(b, rb, t);
                    tri.map(|v| p + q * promote(v))
                };
                let edges = mesh_triangle_edges(rb, k as usize);
                seam_normal(h.normal, h.point_b, &corners, edges)
            }
            None => h.normal,
        },
        _ => h.normal,
    });
    if let Some(pose_a) = shape_pose_at(a, ra, t) {
        match b.swept.shape.as_ref() {
            MovingShape::Mesh(mesh) => {
                // The mesh's shape frame at `t` (the identity for a static
                // snapshot, which is world-space already).
                let (frame_p, frame_q) = if b.swept.world_frame {
                    (Vec3d::zeros(), Quatd::identity())
                } else {
                    mesh_frame(b, rb, t)
                };
                let world = solid_bounds(ra.shape(), &pose_a, margin);
                // The world box as a ball about its centre, in the mesh frame.
                let centre = (world.min + world.max) * 0.5;
                let half = (world.max - world.min).norm() * 0.5;
                let local = frame_q.inverse() * (centre - frame_p);
                if let Ok(query) = Bounds::new(local.add_scalar(-half), local.add_scalar(half)) {
                    let mut candidates = Vec::new();
                    mesh.tree().query(&query, &mut candidates);
                    for &k in &candidates {
                        let tri = mesh.triangles()[k as usize];
                        let corners: [Vec3; 3] = if b.swept.world_frame {
                            tri
                        } else {
                            tri.map(|v| (frame_p + frame_q * promote(v)).cast::<f32>())
                        };
                        let edges = mesh_triangle_edges(rb, k as usize);
                        if let Ok(mf) =
                            contact::shape_mesh_triangle(ra.shape(), &pose_a, &corners, edges, m)
                        {
                            push_manifold(&mf, m, Some(k), &mut out);
                        }
                    }
                }
            }
            _ => {
                if let Some(pose_b) = shape_pose_at(b, rb, t) {
                    if let Ok(mf) = contact::shapes(ra.shape(), &pose_a, rb.shape(), &pose_b, m) {
                        push_manifold(&mf, m, None, &mut out);
                    }
                }
            }
        }
    }
    if let (Some(h), Some(hn)) = (hit, hit_normal) {
        // The arbiter's normal is computed in `f64` at the exact poses; the
        // contact test's from `f32` poses carries their rounding (a small
        // sphere's normal tilts by about an ulp over its radius). Where the
        // two agree within [`NORMAL_AGREEMENT`], the arbiter's is taken.
        for p in out.iter_mut() {
            if p.normal.dot(&hn) > NORMAL_AGREEMENT {
                p.normal = hn;
            }
        }
        // A lone point (a sphere, a capsule's cap, a corner) is the
        // arbiter's own witness on A, in `f64`: its lever arm then lies
        // along the normal as exactly as the geometry says, and a spin that
        // friction starts does not tilt the rebound. Only where the two
        // are the same point to within the margin: for cores that overlap,
        // the arbiter's witness on a face is a corner of that face, not
        // where the other side reaches through it (a locked box struck by a
        // spinning cube had its one contact moved 0.82 m, onto a corner
        // that was leaving, and the cube went on sinking into it).
        if out.len() == 1
            && out[0].normal == hn
            && (out[0].point - h.point_a).norm() <= MANIFOLD_MARGIN
        {
            out[0].point = h.point_a;
        }
    }
    // The arbiter's witness joins when no point of the test carries its
    // normal there (the test found nothing at that scale, or measured the
    // overlap along another axis or at another point than the arbiter's):
    // the event is the arbiter's, and the strike must stop the pair along
    // its normal where it closes.
    if let (Some(h), Some(hn)) = (hit, hit_normal) {
        let carried =
            |p: &EventPoint| p.normal == hn && (p.point - h.point_a).norm() <= MANIFOLD_MARGIN;
        if !out.iter().any(carried) {
            out.push(EventPoint {
                point: h.point_a,
                normal: hn,
                triangle: h.feature_b.triangle,
                gap: h.gap,
            });
        }
    }
    out
}

/// The shape frame of mesh body `b` at step time `t` (world): its pose
/// there, with the body's shape offset.
fn mesh_frame(b: &StepBody, rb: &RigidBody, t: f64) -> (Vec3d, Quatd) {
    let (p, q) = b.motion.pose_at(t - b.since);
    let (o, oq) = rb.shape_offset();
    (
        p + q * promote(o),
        q * Quatd::new_normalize(parapet_math::promote_quat(oq).into_inner()),
    )
}

/// The mixed material of two bodies.
pub(crate) fn mixed(a: &Material, b: &Material) -> Material {
    a.mix(b)
}
