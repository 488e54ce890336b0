//! The sweep and impact loop of one body alone in its group (see
//! docs/continuous-collision.md, "How a step works", "Precision limits" and
//! "Ordering, limits and rollback").
//!
//! # Method
//! The body's shape translates at its post-solver velocity (plus its split
//! velocity, as the pose update would move it) over the remaining time. The
//! bounds tree is queried once for the whole reachable region
//! ([`super::reach`]); every candidate whose owner collides is swept each
//! pass, in triangle insertion order, so a refusal of any candidate is
//! returned before any hit is used. Each pass takes the earliest approaching
//! front-side contact (triangle ties by insertion order; the sweeps keep
//! face, edge, vertex order within a triangle): a hit, or an initial contact
//! whose normal closes on the triangle beyond the approach bound. The body
//! advances to it (its position rounded to `f32`, the retained impact
//! position), the world looks up an initial contact of the selected triangle
//! from that position in the incoming direction (its normal, when it
//! exists, controls the response), applies the normal and Coulomb impulse of
//! [`parapet_solver::impact::respond_body_triangle`], and sweeps the rest of the step with the new
//! velocity. After the first impact the split velocity no longer moves the
//! body (it corrected an initial overlap that the impact has replaced).
//! More than `max_impacts` impacts raise [`CcdError::ImpactLimit`]; the loop
//! never drops remaining time, freezes the body or continues through a
//! surface.
//!
//! Clear misses and the first pass's own region (the world's path,
//! `sweep_alone_prepared`, whose mesh snapshot passed its geometry check)
//! are the fast path of `solo/clear_miss.rs`: they give the outcome of sweeping
//! every candidate exactly, bit for bit. The fixed geometry of the moving
//! shape and its per-triangle sweep are in `solo/mover.rs`.
//!
//! Orientation: a body with an impact turns over each time segment by the
//! normalized-quaternion update with that segment's angular velocity (after
//! the split correction's turn, as the pose update does), and keeps the last
//! angular velocity. A body without an impact is not moved here: the world
//! integrates it as in the discrete mode, along the same straight path.
//!
//! # Precision domain
//! The sweeps' (their limits, checked by them and reported as
//! [`CcdError::SweepRefused`]); here also the coordinates of the start and
//! end positions within 65536 radii.
mod clear_miss;
mod mover;

use parapet_geometry::bvh::Ball;
use parapet_math::{demote, promote, Quat, Vec3, Vec3d};
use parapet_narrow::contact::active_edges::admit_impact;
use parapet_narrow::sweep::{Impact, SweepOutcome, SweptShape, APPROACH_EPS_FACTOR};
use parapet_solver::integrate::quaternion_update::quaternion_update;
use parapet_solver::RigidBody;

use super::error::CcdError;
use super::motion::{check_coordinates, MeshView, SweptImpact, SweptMotion};
use super::reach::Reach;
use super::report::SweepCounts;
use clear_miss::{clearly_misses, PassRegion, PassShape};
use mover::Mover;
use parapet_solver::impact::{respond_body_triangle, ImpactMass, TriangleResponse};

/// What one body's sweep produced.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct SoloOutcome {
    /// The end state when the body took an impact (`None`: integrate it as usual).
    pub(crate) motion: Option<SweptMotion>,
    /// Its impacts in time order.
    pub(crate) impacts: Vec<SweptImpact>,
}

/// One body to sweep.
pub(crate) struct SoloInput<'a> {
    /// The body's index (insertion order).
    pub(crate) index: usize,
    /// The body: start-of-step pose, post-solver velocity and split velocity.
    pub(crate) body: &'a RigidBody,
    /// Its swept shape ([`super::support::classify`]).
    pub(crate) shape: &'a SweptShape,
    /// Its reachable region ([`super::reach`]).
    pub(crate) reach: Reach,
    /// Step length (s).
    pub(crate) dt: f32,
    /// `ccd_max_impacts`.
    pub(crate) max_impacts: u32,
}

/// Whether `normal . motion` closes beyond the approach bound (32 eps times
/// the sum of the absolute products).
fn closes(normal: &Vec3d, motion: &Vec3d) -> bool {
    let t = normal.component_mul(motion);
    let dot = t.x + t.y + t.z;
    let scale = t.x.abs() + t.y.abs() + t.z.abs();
    dot < -APPROACH_EPS_FACTOR * f64::EPSILON * scale
}

/// A found contact, feature labels dropped.
#[derive(Debug, Clone, Copy)]
struct Found {
    triangle: usize,
    initial: bool,
    impact: Impact<()>,
}

/// Buffers that one thread reuses for the bodies it sweeps alone: the
/// candidate lists and the pass shape. Nothing carries over from one body to
/// the next (each sweep clears them), so results do not depend on which
/// thread swept which body.
#[derive(Debug, Default)]
pub(crate) struct SoloScratch {
    /// The reach ball's candidates (owner collides), ascending.
    reach: Vec<u32>,
    /// One pass's candidates ([`PassRegion`], owner collides), ascending.
    path: Vec<u32>,
    pass: PassShape,
    /// The passes and swept candidates of the sweeps since the caller last
    /// took them (the step's report; never read by a sweep).
    pub(crate) counts: SweepCounts,
}

/// Sweeps one body alone against the static triangles (see the module docs).
///
/// Every candidate is swept exactly; this entry makes no assumption about
/// the mesh (the world's own path, which checks its snapshot first, also
/// answers clear misses without the sweep).
///
/// # Errors
/// [`CcdError::SweepRefused`], [`CcdError::ImpactLimit`],
/// [`CcdError::Precision`] or [`CcdError::NotRepresentable`], naming the body.
#[cfg(test)]
pub(crate) fn sweep_alone(
    input: &SoloInput<'_>,
    mesh: &MeshView<'_>,
) -> Result<SoloOutcome, CcdError> {
    sweep_alone_with(input, mesh, &mut SoloScratch::default(), None)
}

/// [`sweep_alone`] for the world, whose mesh snapshot passed its geometry
/// check (`largest_extent`, m: the widest side of any snapshot triangle's
/// bounds, [`super::mesh_cache::MeshSnapshotCache::largest_extent`]): each
/// pass takes the candidates of its own path ([`PassRegion`]) when it may,
/// clear misses are decided by [`clearly_misses`], and the buffers of
/// `scratch` are reused. The outcome is [`sweep_alone`]'s, bit for bit.
///
/// # Errors
/// As [`sweep_alone`].
pub(crate) fn sweep_alone_prepared(
    input: &SoloInput<'_>,
    mesh: &MeshView<'_>,
    largest_extent: f64,
    scratch: &mut SoloScratch,
) -> Result<SoloOutcome, CcdError> {
    sweep_alone_with(input, mesh, scratch, Some(largest_extent))
}

/// The sweep loop; `checked` is `Some(largest_extent)` on the world's path
/// (snapshot checked: clear misses and pass regions), `None` on the plain one.
fn sweep_alone_with(
    input: &SoloInput<'_>,
    mesh: &MeshView<'_>,
    scratch: &mut SoloScratch,
    checked: Option<f64>,
) -> Result<SoloOutcome, CcdError> {
    let rejects = checked.is_some();
    let (index, body, dt) = (input.index, input.body, input.dt);
    let limit_radius = input.shape.limit_radius();
    let mover = mover_of(input);
    let mut p = body.position();
    let mut v = body.linear_velocity();
    let mut w = body.angular_velocity();
    let swept = swept_velocity(body, index);
    // The first pass's shape on the world's path: when it vouches clear
    // (`shape_clear`), the body origin lies within half the coordinate
    // limits at the start and the end of the straight motion, so the two
    // coordinate checks below pass and are skipped (the errors keep their
    // order: an unsure shape is checked here as before).
    let start = match (checked, &swept) {
        (Some(_), Ok(sv)) => {
            let hull = mover.hull(p);
            Some((hull, mover.shape_clear(&hull, p, *sv, dt)))
        }
        _ => None,
    };
    let start_clear = matches!(start, Some((_, true)));
    if !start_clear {
        check_coordinates(index, &promote(p), limit_radius)?;
    }
    // The first pass's own region, when the shape vouches clear, the reach
    // ball holds its path and the snapshot's triangles are small enough
    // (see `PassRegion`; it needs no reach ball query, and its checks fail
    // for a reach that the ball would refuse).
    let region = match (checked, start, &swept) {
        (Some(largest_extent), Some((hull, true)), Ok(sv)) => {
            let d = promote(*sv) * dt as f64;
            PassRegion::new(&hull, d, &input.reach, largest_extent, limit_radius)
        }
        _ => None,
    };
    // The reach ball, made (and its refusal reported, before the swept
    // velocity's) when the first pass needs it, else at the first later pass.
    let mut ball = match region {
        Some(_) => None,
        None => Some(reach_ball(input)?),
    };
    let SoloScratch {
        reach,
        path,
        pass,
        counts,
    } = scratch;
    // Whether `reach` holds the reach ball's candidates (queried at the
    // first pass that needs them).
    let mut reach_ready = false;
    // Only needed at an impact (the world tensor costs a matrix product).
    let mut response_body: Option<ImpactMass> = None;
    let mut sweep_v = swept?;
    let mut tau = dt;
    let mut elapsed = 0.0f64;
    let mut impacts: Vec<SweptImpact> = Vec::new();
    let mut segments: Vec<(Vec3, f64)> = Vec::new();
    let mut passes = 0u32;

    while tau > 0.0 {
        // The motion as the sweeps compute it.
        let d = promote(sweep_v) * tau as f64;
        // Whether the first candidate may be decided too (else its sweep
        // checks the moving shape, so a refusal names the same triangle).
        // The first pass's shape was vouched for above (same position,
        // velocity and time).
        let first = checked.is_some()
            && match start {
                Some((_, clear)) if passes == 0 => clear,
                _ => mover.shape_clear(&mover.hull(p), p, sweep_v, tau),
            };
        // The first pass only: after an impact, the reach ball's
        // candidates, queried once, serve every later pass.
        let pass_region = if passes == 0 { region } else { None };
        let candidates = pass_candidates(
            pass_region.as_ref(),
            &mut ball,
            &mut reach_ready,
            input,
            mesh,
            reach,
            path,
        )?;
        counts.passes += 1;
        counts.candidates += candidates.len() as u64;
        let decide = rejects && !candidates.is_empty();
        if decide {
            mover.pass_shape(p, pass);
        }
        let found = earliest_found(&mover, mesh, candidates, p, sweep_v, tau, index, |k, t| {
            decide && (k > 0 || first) && clearly_misses(pass, d, t)
        })?;
        let Some(hit) = found else {
            break;
        };
        passes += 1;
        if passes > input.max_impacts {
            return Err(impact_limit(index, passes, input.max_impacts));
        }
        let s = hit.impact.time.clamp(0.0, 1.0);
        let travel = tau as f64 * s;
        p = to_f32(index, "position", promote(p) + promote(sweep_v) * travel)?;
        elapsed += travel;
        segments.push((w, travel));
        tau = ((tau as f64 - travel).max(0.0)) as f32;

        let response_body = response_body.get_or_insert_with(|| ImpactMass {
            inverse_mass: body.inverse_mass() as f64,
            inverse_inertia: body.world_inverse_inertia_f64(),
        });
        let at = Retained { p, sweep_v, tau };
        if let Some((contact, r)) = respond_to(&hit, &mover, mesh, input, at, response_body, v, w)?
        {
            v = r.linear_velocity;
            w = r.angular_velocity;
            impacts.push(SweptImpact {
                body: index,
                triangle: hit.triangle,
                time: (elapsed / dt as f64).clamp(0.0, 1.0),
                point: contact.point,
                normal: contact.normal,
                impulse: r.impulse,
            });
        }
        sweep_v = v;
    }

    if passes == 0 {
        // Unmoved since the first pass: a shape vouched clear there ends
        // within half the coordinate limits.
        if !start_clear {
            let end = promote(p) + promote(sweep_v) * tau as f64;
            check_coordinates(index, &end, limit_radius)?;
        }
        return Ok(SoloOutcome::default());
    }
    let end = Retained { p, sweep_v, tau };
    let motion = end_motion(input, end, v, w, &mut segments)?;
    Ok(SoloOutcome {
        motion: Some(motion),
        impacts,
    })
}

/// The refusal of body `index` at its impact number `passes`, one more
/// than the `limit`.
fn impact_limit(index: usize, passes: u32, limit: u32) -> CcdError {
    CcdError::ImpactLimit {
        body: index,
        impacts: passes - 1,
        limit,
    }
}

/// The fixed geometry of `input`'s shape for the step.
fn mover_of<'a>(input: &SoloInput<'a>) -> Mover<'a> {
    let body = input.body;
    let (shape_offset, shape_rotation) = body.shape_offset();
    Mover::new(input.shape, body.rotation(), shape_offset, shape_rotation)
}

/// The velocity the body's shape translates at: its post-solver velocity
/// plus its split velocity, as the pose update would move it.
///
/// # Errors
/// [`CcdError::NotRepresentable`] when the sum overflows `f32`.
fn swept_velocity(body: &RigidBody, index: usize) -> Result<Vec3, CcdError> {
    let split = body.split_linear_velocity();
    let v = body.linear_velocity();
    if split == Vec3::zeros() {
        Ok(v)
    } else {
        demote(promote(v) + promote(split)).map_err(|_| CcdError::NotRepresentable {
            body: index,
            quantity: "swept velocity",
            value: f64::INFINITY,
        })
    }
}

/// The candidates of one pass, ascending, whose owner collides: every
/// triangle whose bounds meet the pass's own region (`pass_region`, the
/// first pass's: among the reach ball's, every one that the pass's sweeps
/// can touch), else every triangle whose bounds the reach ball touches,
/// queried into `reach` at the first pass that needs them (`reach_ready`)
/// and reused by every later pass; the ball is made then when it was not.
///
/// # Errors
/// [`CcdError::NotRepresentable`] for a reach ball the tree refuses.
fn pass_candidates<'s>(
    pass_region: Option<&PassRegion>,
    ball: &mut Option<Ball>,
    reach_ready: &mut bool,
    input: &SoloInput<'_>,
    mesh: &MeshView<'_>,
    reach: &'s mut Vec<u32>,
    path: &'s mut Vec<u32>,
) -> Result<&'s [u32], CcdError> {
    if let Some(region) = pass_region {
        mesh.tree.query(&region.path, path);
        if !path.is_empty() {
            path.retain(|&t| (mesh.material)(t as usize).is_some());
        }
        return Ok(&path[..]);
    }
    if !*reach_ready {
        let ball = match *ball {
            Some(ball) => ball,
            None => *ball.insert(reach_ball(input)?),
        };
        mesh.tree.query(&ball, reach);
        reach.retain(|&t| (mesh.material)(t as usize).is_some());
        *reach_ready = true;
    }
    Ok(&reach[..])
}

/// The ball of the body's reachable region for the bounds tree.
///
/// # Errors
/// [`CcdError::NotRepresentable`] for a radius the tree refuses.
fn reach_ball(input: &SoloInput<'_>) -> Result<Ball, CcdError> {
    Ball::new(input.reach.center, input.reach.radius).map_err(|_| CcdError::NotRepresentable {
        body: input.index,
        quantity: "reach radius",
        value: input.reach.radius,
    })
}

/// `x` rounded to `f32`.
///
/// # Errors
/// [`CcdError::NotRepresentable`] naming `quantity` when it overflows.
fn to_f32(index: usize, quantity: &'static str, x: Vec3d) -> Result<Vec3, CcdError> {
    demote(x).map_err(|_| CcdError::NotRepresentable {
        body: index,
        quantity,
        value: x.amax(),
    })
}

/// The earliest approaching front-side contact of one pass over
/// `candidates` (the shape at `p` moving at `v` for `tau`): a hit, or an
/// initial contact whose normal closes on the triangle beyond the approach
/// bound; ties keep the earlier triangle, an initial contact before a hit.
/// `skip(k, triangle)` answers candidate `k` as a clear miss without its
/// sweep.
///
/// # Errors
/// [`CcdError::SweepRefused`] for the first candidate whose sweep refuses.
fn earliest_found(
    mover: &Mover<'_>,
    mesh: &MeshView<'_>,
    candidates: &[u32],
    p: Vec3,
    v: Vec3,
    tau: f32,
    index: usize,
    skip: impl Fn(usize, &[Vec3; 3]) -> bool,
) -> Result<Option<Found>, CcdError> {
    let mut best: Option<Found> = None;
    // A box or hull prepared once for this pass's candidates.
    let mut prepared = None;
    // The motion as the sweeps compute it.
    let d = promote(v) * tau as f64;
    for (k, &t) in candidates.iter().enumerate() {
        let t = t as usize;
        let triangle = &mesh.triangles[t];
        if skip(k, triangle) {
            continue;
        }
        let outcome = mover.sweep_pass(p, v, tau, triangle, &mut prepared);
        let found = match admit_impact(outcome, v, triangle, (mesh.edges)(t)) {
            SweepOutcome::Refused(refusal) => {
                return Err(CcdError::SweepRefused {
                    body: index,
                    triangle: t,
                    refusal,
                })
            }
            SweepOutcome::Miss => continue,
            SweepOutcome::Hit(impact) => Found {
                triangle: t,
                initial: false,
                impact,
            },
            SweepOutcome::InitiallyTouching(impact) => {
                if !closes(&impact.normal, &d) {
                    continue;
                }
                Found {
                    triangle: t,
                    initial: true,
                    impact: Impact {
                        time: 0.0,
                        ..impact
                    },
                }
            }
        };
        let earlier = match &best {
            None => true,
            Some(b) => {
                found.impact.time < b.impact.time
                    || (found.impact.time == b.impact.time && found.initial && !b.initial)
            }
        };
        if earlier {
            best = Some(found);
        }
    }
    Ok(best)
}

/// The body's retained state at an impact (or at the end of its last
/// pass): its `f32` position, the velocity it sweeps at and the time left
/// (s).
#[derive(Debug, Clone, Copy)]
struct Retained {
    p: Vec3,
    sweep_v: Vec3,
    tau: f32,
}

/// The impulse of impact `hit` at the retained position `at` (velocities
/// `v`, `w` before it): the initial contact of the selected triangle looked
/// up from that position in the incoming direction controls the response
/// when it exists and closes, else the sweep's own contact (which
/// approaches by construction, so the loop always makes progress). `None`
/// when neither closes.
///
/// # Errors
/// As [`respond`].
fn respond_to(
    hit: &Found,
    mover: &Mover<'_>,
    mesh: &MeshView<'_>,
    input: &SoloInput<'_>,
    at: Retained,
    response_body: &ImpactMass,
    v: Vec3,
    w: Vec3,
) -> Result<Option<(Impact<()>, TriangleResponse)>, CcdError> {
    let Retained { p, sweep_v, tau } = at;
    let index = input.index;
    // Pre-response lookup at the retained impact position.
    let mut contact = hit.impact;
    if !hit.initial {
        let triangle = &mesh.triangles[hit.triangle];
        let probe = admit_impact(
            mover.sweep(p, sweep_v, tau, triangle),
            sweep_v,
            triangle,
            (mesh.edges)(hit.triangle),
        );
        if let SweepOutcome::InitiallyTouching(i) = probe {
            contact = i;
        }
    }
    let material = (mesh.material)(hit.triangle)
        .map(|m| input.body.material().mix(&m))
        .unwrap_or_default();
    let arm = mover.arm(p, &contact);
    let mut response = respond_body_triangle(response_body, v, w, arm, contact.normal, &material)
        .map_err(|e| CcdError::from_impact(index, e))?;
    if response.is_none() && contact != hit.impact {
        // The looked-up contact does not close: the sweep's own normal,
        // which approaches by construction, takes the impact, so the
        // loop always makes progress.
        contact = hit.impact;
        let arm = mover.arm(p, &contact);
        response = respond_body_triangle(response_body, v, w, arm, contact.normal, &material)
            .map_err(|e| CcdError::from_impact(index, e))?;
    }
    Ok(response.map(|r| (contact, r)))
}

/// The end of the step of a body that took an impact: it moves on from
/// `end` with its last velocity `v` and keeps its last spin `w`, turning
/// over each time segment (after the split correction's turn, as the pose
/// update does).
///
/// # Errors
/// [`CcdError::Precision`] for an end position beyond the coordinate
/// limits, [`CcdError::NotRepresentable`] for a position or a rotation out
/// of range.
fn end_motion(
    input: &SoloInput<'_>,
    end: Retained,
    v: Vec3,
    w: Vec3,
    segments: &mut Vec<(Vec3, f64)>,
) -> Result<SweptMotion, CcdError> {
    let index = input.index;
    let body = input.body;
    let Retained { p, sweep_v, tau } = end;
    let p = to_f32(
        index,
        "position",
        promote(p) + promote(sweep_v) * tau as f64,
    )?;
    segments.push((w, tau as f64));
    check_coordinates(index, &promote(p), input.shape.limit_radius())?;

    let mut q = body.rotation();
    let turn = |q: &Quat, w: &Vec3, h: f64| {
        quaternion_update(q, w, h).ok_or(CcdError::NotRepresentable {
            body: index,
            quantity: "rotation",
            value: f64::NAN,
        })
    };
    if body.split_angular_velocity() != Vec3::zeros() {
        q = turn(&q, &body.split_angular_velocity(), input.dt as f64)?;
    }
    for (ws, h) in segments.iter() {
        if *ws != Vec3::zeros() && *h > 0.0 {
            q = turn(&q, ws, *h)?;
        }
    }
    Ok(SweptMotion {
        position: p,
        rotation: q,
        linear_velocity: v,
        angular_velocity: w,
    })
}

#[cfg(test)]
mod lookup_tests;
#[cfg(test)]
mod tests;
