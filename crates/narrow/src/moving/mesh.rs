//! A mesh side: the earliest time of impact of a convex core (or of
//! another mesh) against the one-sided triangles of a mesh that moves
//! rigidly with its body.
//!
//! # Method
//! 1. **Candidates**: a region of the mesh's shape frame that contains
//!    every position of the other shape over the window, queried in the
//!    mesh's bounds tree (`parapet_geometry::bvh`; results in ascending
//!    triangle order). When the mesh does not turn, the other shape's
//!    motion seen from the mesh frame is again a constant-`ω` motion, and
//!    the region is its swept box ([`super::bounds`]). When the mesh turns,
//!    the region is a ball about the other shape's start position in the
//!    mesh frame whose radius adds the relative travel `|v_rel| Δt` and the
//!    mesh's turn of the start offset `min(2, |ω| Δt) |e|`
//!    (`‖R(θ) − I‖ = 2 sin(θ/2)`). Both are grown by the target gap (when
//!    positive) and the tolerance: a triangle outside stays farther than
//!    the target.
//! 2. **Each candidate** is a one-sided three-point core in the mesh's body
//!    frame, moving with the mesh's motion, answered by the core pair loop
//!    ([`super::toi`]) over the window cut at the earliest hit so far.
//!    Earliest wins; equal times keep the lower triangle index.
//! 3. **Mesh against mesh**: each candidate triangle of one mesh, as a
//!    moving core, against the other mesh by 1 and 2.
//!
//! The work budget is shared by every triangle of the query.
//!
//! # Precision domain
//! That of the core pair loop; the regions are grown by twice the position
//! slack of [`super::domain`].

use parapet_geometry::bvh::{Ball, Bounds, BoundsQuery};
use parapet_math::Vec3d;

use super::bounds::swept_points;
use super::core::{Core, MeshSide};
use super::domain::{position_slack, Refusal};
use super::hit::Hit;
use super::motion::Motion;
use super::toi::{core_pair, PairScratch, ToiRequest};

/// The motion of body-frame points of a body moving along `other`, seen in
/// the shape frame of `mesh` moving along `mesh_motion`, when the mesh
/// does not turn (see the module docs).
fn relative_motion(other: &Motion, mesh: &MeshSide, mesh_motion: &Motion) -> Motion {
    let (offset, rotation) = mesh.placement();
    let q = mesh_motion.rotation * rotation;
    let origin = mesh_motion.center + mesh_motion.rotation * (offset - mesh_motion.local_center);
    let qi = q.inverse();
    Motion {
        center: qi * (other.center - origin),
        rotation: qi * other.rotation,
        local_center: other.local_center,
        velocity: qi * (other.velocity - mesh_motion.velocity),
        spin: qi * other.spin,
    }
}

/// Fills `out` with the candidate triangles of `mesh` for the body-frame
/// points `points` grown by `skin`, moving along `motion` (module docs).
fn candidates(
    points: &[Vec3d],
    skin: f64,
    motion: &Motion,
    mesh: &MeshSide,
    mesh_motion: &Motion,
    request: &ToiRequest,
    out: &mut Vec<u32>,
) -> Result<(), Refusal> {
    let (start, end) = (request.start, request.end);
    let grow = request.target.max(0.0) + request.tolerance;
    let bad = |_| Refusal::NotFinite {
        quantity: "candidate region",
        value: f64::NAN,
    };
    out.clear();
    if !mesh_motion.turns() {
        let rel = relative_motion(motion, mesh, mesh_motion);
        let b = swept_points(points, skin, &rel, start, end).grown(grow);
        let region = Bounds::new(b.min, b.max).map_err(bad)?;
        query(mesh, &region, out);
        return Ok(());
    }
    let (offset, rotation) = mesh.placement();
    let reach = points
        .iter()
        .fold(0.0f64, |m, p| m.max((p - motion.local_center).norm()));
    let e = motion.center_at(start) - mesh_motion.center_at(start);
    let z = mesh_motion.rotation_at(start).inverse() * e;
    let center = rotation.inverse() * (z + mesh_motion.local_center - offset);
    let dt = end - start;
    let travel = (motion.velocity - mesh_motion.velocity).norm() * dt;
    let turn = (mesh_motion.spin.norm() * dt).min(2.0) * e.norm();
    let slack = position_slack(
        e.amax() + mesh_motion.center.amax(),
        travel,
        mesh_motion.spin.norm(),
        reach + e.norm(),
        start.abs().max(end.abs()),
    );
    let radius = (reach + skin + travel + turn + grow + 2.0 * slack) * (1.0 + 16.0 * f64::EPSILON);
    let ball = Ball::new(center, radius).map_err(bad)?;
    query(mesh, &ball, out);
    Ok(())
}

fn query<Q: BoundsQuery>(mesh: &MeshSide, region: &Q, out: &mut Vec<u32>) {
    mesh.tree().query(region, out);
}

/// The earliest hit of `core` moving along `motion` against the triangles
/// of `mesh` moving along `mesh_motion` (the core is side A, the mesh side
/// B), with B's feature naming the triangle.
pub(crate) fn core_mesh(
    core: &Core,
    motion: &Motion,
    mesh: &MeshSide,
    mesh_motion: &Motion,
    request: &ToiRequest,
    work: &mut u32,
) -> Result<Option<Hit>, Refusal> {
    let mut list = Vec::new();
    candidates(
        core.points(),
        core.skin(),
        motion,
        mesh,
        mesh_motion,
        request,
        &mut list,
    )?;
    let mut best: Option<Hit> = None;
    let mut scratch = PairScratch::default();
    let mut tri = Core::triangle_storage();
    for &i in &list {
        if best.is_some_and(|h| h.time <= request.start) {
            // A hit at the window's start: no later candidate can be
            // earlier, and a tie goes to the first.
            break;
        }
        mesh.triangle_core_into(i as usize, &mut tri);
        let end = best.map_or(request.end, |h| h.time);
        if let Some(mut hit) = core_pair(
            core,
            motion,
            &tri,
            mesh_motion,
            request,
            end,
            work,
            &mut scratch,
        )? {
            if best.is_none_or(|b| hit.time < b.time) {
                hit.feature_b.triangle = Some(i);
                best = Some(hit);
            }
        }
    }
    Ok(best.map(|mut h| {
        h.iterations = *work;
        h
    }))
}

/// The earliest hit of mesh `a` moving along `motion_a` against mesh `b`
/// moving along `motion_b`; features name both triangles.
pub(crate) fn mesh_mesh(
    a: &MeshSide,
    motion_a: &Motion,
    b: &MeshSide,
    motion_b: &Motion,
    request: &ToiRequest,
    work: &mut u32,
) -> Result<Option<Hit>, Refusal> {
    let mut list = Vec::new();
    candidates(
        &a.bounding_corners(),
        0.0,
        motion_a,
        b,
        motion_b,
        request,
        &mut list,
    )?;
    let mut best: Option<Hit> = None;
    let mut tri = Core::triangle_storage();
    for &j in &list {
        if best.is_some_and(|h| h.time <= request.start) {
            break; // as in `core_mesh`
        }
        b.triangle_core_into(j as usize, &mut tri);
        let end = best.map_or(request.end, |h| h.time);
        let cut = ToiRequest { end, ..*request };
        if let Some(hit) = core_mesh(&tri, motion_b, a, motion_a, &cut, work)? {
            if best.is_none_or(|h| hit.time < h.time) {
                let mut hit = hit.swapped();
                hit.feature_b.triangle = Some(j);
                best = Some(hit);
            }
        }
    }
    Ok(best)
}
