//! Mixed continuous worlds: spheres, capsules, boxes and hulls (turning
//! or locked, some off-centre), static boxes, kinematic bodies of every
//! solid kind, over a bumpy mesh floor, in `SPHERE_MESH_CCD` with gravity;
//! and the overlap oracle of the continuous step's promise
//! (docs/continuous-collision.md, "The promise"): after every accepted
//! step, no pair with a dynamic body overlaps deeper than its promised
//! depth (the smaller of the two bodies' `promised_depth`) or than it
//! started the step, and no dynamic body has its shape's centre under the
//! floor (a body that went through the floor whole).
//!
//! The oracle is parry3d's contact and ray queries (`crate::overlap`),
//! sharing no code with parapet's narrow phase, sweeps or arbiter. Its
//! tolerance adds 1e-5 m for the `f32` storage of a pose a few metres from
//! the origin (an ulp there is below 1e-6 m).

use arbitrary::{Result, Unstructured};
use parapet_geometry::Shape;
use parapet_math::Vec3;
use parapet_solver::{BodyKind, CcdMode, RigidBody};
use parapet_world::{BodyId, PhysicsWorld, SPHERE_MESH_CCD};
use parry3d::query::{Ray, RayCast};
use parry3d::shape::TriMesh;

use super::build::{floor_grid, solid_shape, valid_material};
use super::run::checked_step;
use super::values::{in_range, ordinary_vec, sane_length};
use crate::overlap::{depth, shape_pose};
use crate::parry::to_parry;

/// Half the side of the floor (m): bodies start within 2.5 m of its
/// centre and travel at most 10 m/s for at most 24 steps of 1/60 s.
pub const FLOOR_HALF: f32 = 8.0;

/// The `f32` storage of a pose a few metres from the origin (m).
pub const POSE_ROUNDING: f64 = 1e-5;

/// A mixed world and its floor (vertices and triangles, for the oracle).
pub struct MixedWorld {
    /// The world, in `SPHERE_MESH_CCD`.
    pub world: PhysicsWorld,
    /// The floor's triangles.
    pub floor: (Vec<Vec3>, Vec<[u32; 3]>),
}

/// A mixed world of up to `count` bodies besides the floor, none
/// overlapping another at the start (a candidate that would is left out).
pub fn mixed_world(u: &mut Unstructured<'_>, count: u8) -> Result<MixedWorld> {
    let mut w = PhysicsWorld::new();
    w.collision_detection = SPHERE_MESH_CCD;
    w.gravity = Vec3::new(0.0, 0.0, -9.81);
    let bumps: Vec<f32> = (0..u.int_in_range(0usize..=4)?)
        .map(|_| in_range(u, -0.1, 0.1, 20))
        .collect::<Result<_>>()?;
    let cells = u.int_in_range(2usize..=8)?;
    let floor = floor_grid(cells, 2.0 * FLOOR_HALF / cells as f32, 0.0, &bumps);
    let mesh = if u.arbitrary()? {
        Shape::mesh(floor.0.clone(), floor.1.clone())
    } else {
        Shape::mesh_with_active_edges(floor.0.clone(), floor.1.clone())
    };
    w.add_body(
        RigidBody::new_static(mesh.expect("a floor grid")).with_material(valid_material(u)?),
    )
    .expect("a floor");
    for _ in 0..u.int_in_range(1..=count.max(1))? {
        let body = mixed_body(u)?;
        let clear = w.bodies().all(|(_, other)| {
            depth(&body, other).is_none_or(|d| d <= 0.0) && !touches(&body, other)
        });
        if clear {
            w.add_body(body).expect("an ordinary body");
        }
    }
    Ok(MixedWorld { world: w, floor })
}

/// Whether two bodies touch or overlap by parry3d's distance (a start
/// with zero clearance is left out, so that every pair starts apart).
fn touches(a: &RigidBody, b: &RigidBody) -> bool {
    let (Some(sa), Some(sb)) = (
        crate::overlap::parry_shape(a.shape()),
        crate::overlap::parry_shape(b.shape()),
    ) else {
        return false;
    };
    parry3d::query::distance(&shape_pose(a), &*sa, &shape_pose(b), &*sb)
        .map_or(true, |d| d.distance <= 1e-4)
}

/// One body of a mixed world: a dynamic solid (turning, locked or
/// off-centre) in 6 cases of 10, a kinematic solid in 2, a static box in 2;
/// above the floor within 2.5 m of its centre, at up to 10 m/s.
fn mixed_body(u: &mut Unstructured<'_>) -> Result<RigidBody> {
    let kind = match u.int_in_range(0u8..=9)? {
        0..=5 => BodyKind::Dynamic,
        6..=7 => BodyKind::Kinematic,
        _ => BodyKind::Static,
    };
    let shape = if kind == BodyKind::Static {
        Shape::cuboid(Vec3::new(
            sane_length(u, 0.1, 1.0)?,
            sane_length(u, 0.1, 1.0)?,
            sane_length(u, 0.1, 0.6)?,
        ))
        .expect("an ordinary box")
    } else {
        solid_shape(u)?
    };
    let reach = shape.bounding_radius() as f32;
    let position = Vec3::new(
        in_range(u, -2.5, 2.5, 100)?,
        in_range(u, -2.5, 2.5, 100)?,
        reach + 0.15 + in_range(u, 0.0, 2.5, 100)?,
    );
    let mut body = match kind {
        BodyKind::Dynamic => {
            RigidBody::new_dynamic(shape, sane_length(u, 0.2, 10.0)?).expect("an ordinary mass")
        }
        BodyKind::Kinematic => RigidBody::new_kinematic(shape),
        _ => RigidBody::new_static(shape),
    };
    body.set_position(position);
    body.set_rotation(parapet_math::Quat::from_scaled_axis(ordinary_vec(u, 3.2)?));
    body.set_material(valid_material(u)?);
    if kind == BodyKind::Static {
        return Ok(body);
    }
    body.set_linear_velocity(ordinary_vec(u, 10.0)?);
    match u.int_in_range(0u8..=4)? {
        0 if kind == BodyKind::Dynamic => {
            let _ = body.set_inverse_inertia(parapet_math::Mat3::zeros());
        }
        1 if kind == BodyKind::Dynamic => {
            let _ = body.set_center_of_mass(ordinary_vec(u, 0.05)?);
        }
        2 | 3 => body.set_angular_velocity(ordinary_vec(u, 6.0)?),
        _ => {}
    }
    if kind == BodyKind::Dynamic && u.ratio(1u8, 4u8)? {
        body.set_ccd(CcdMode::Continuous);
    }
    Ok(body)
}

/// The promised depth (m) of a pair: the smaller of the two shapes'
/// (`parapet::ccd::tolerances::promised_depth`; a mesh has the larger).
pub fn pair_promise(a: &RigidBody, b: &RigidBody) -> f64 {
    let promise = |s: &Shape| parapet::ccd::tolerances::promised_depth(s);
    promise(a.shape()).min(promise(b.shape()))
}

/// The depth (m) of every pair with a dynamic body that both collide,
/// by parry3d (`None` pairs left out).
pub fn pair_depths(w: &PhysicsWorld) -> Vec<((BodyId, BodyId), f64)> {
    let bodies: Vec<(BodyId, &RigidBody)> = w.bodies().collect();
    let mut out = Vec::new();
    for (i, (ia, a)) in bodies.iter().enumerate() {
        for (ib, b) in &bodies[i + 1..] {
            let dynamic = a.kind() == BodyKind::Dynamic || b.kind() == BodyKind::Dynamic;
            if !dynamic || !a.collides() || !b.collides() {
                continue;
            }
            if let Some(d) = depth(a, b) {
                out.push(((*ia, *ib), d));
            }
        }
    }
    out
}

/// Why the world breaks the promise after a step that started with the
/// pair depths `before`, if it does (see the module docs).
pub fn breach(
    w: &PhysicsWorld,
    floor: &(Vec<Vec3>, Vec<[u32; 3]>),
    before: &[((BodyId, BodyId), f64)],
) -> Option<String> {
    for (pair, d) in pair_depths(w) {
        let (a, b) = (w.body(pair.0)?, w.body(pair.1)?);
        let start = before
            .iter()
            .find(|(p, _)| *p == pair)
            .map_or(0.0, |(_, d)| *d);
        let allowed = pair_promise(a, b).max(start) + POSE_ROUNDING;
        if d > allowed {
            return Some(format!(
                "{} and {} overlap {d} m (started {start} m, allowed {allowed} m): {a:?} {b:?}",
                pair.0, pair.1
            ));
        }
    }
    let vertices: Vec<_> = floor.0.iter().map(|v| to_parry(*v)).collect();
    let mesh = TriMesh::new(vertices, floor.1.clone()).ok()?;
    for (id, b) in w.bodies() {
        if b.kind() != BodyKind::Dynamic {
            continue;
        }
        let centre = shape_pose(b).translation;
        let up = Ray::new(centre, to_parry(Vec3::z()));
        if mesh.intersects_ray(&parry3d::math::Pose::identity(), &up, 1e3) {
            return Some(format!("{id} is under the floor: {b:?}"));
        }
    }
    None
}

/// The `ccd_mixed` run: a mixed world of up to 8 bodies stepped up to 12
/// times with [`checked_step`] (a refusal changes nothing, a success is
/// finite), a kinematic body's velocity changed now and then between
/// steps, and the promise checked after every accepted step.
pub fn ccd_mixed(u: &mut Unstructured<'_>) -> Result<()> {
    // The fuzz target's steps stay 1/60 s and 1/120 s, so that its corpus
    // and kept findings decode as they were found.
    run_mixed(u, 8, 12, &[1.0 / 60.0, 1.0 / 120.0])
}

/// A mixed world of up to `count` bodies stepped up to `steps` times by a
/// step chosen from `steps_of` (s), with every check of [`ccd_mixed`].
pub fn run_mixed(u: &mut Unstructured<'_>, count: u8, steps: u8, steps_of: &[f32]) -> Result<()> {
    let MixedWorld {
        world: mut w,
        floor,
    } = mixed_world(u, count)?;
    let dt = *u.choose(steps_of)?;
    for step in 0..u.int_in_range(1..=steps.max(1))? {
        if u.ratio(1u8, 4u8)? {
            let kinematic: Vec<BodyId> = w
                .bodies()
                .filter(|(_, b)| b.kind() == BodyKind::Kinematic)
                .map(|(id, _)| id)
                .collect();
            if !kinematic.is_empty() {
                let id = *u.choose(&kinematic)?;
                let v = ordinary_vec(u, 10.0)?;
                w.body_mut(id).expect("a live id").set_linear_velocity(v);
            }
        }
        let before = pair_depths(&w);
        if checked_step(&mut w, dt).is_err() {
            continue;
        }
        if let Some(why) = breach(&w, &floor, &before) {
            panic!("step {step} of {dt} s: {why}");
        }
    }
    Ok(())
}

/// The run of `physics_promises.rs`: a mixed world of up to 10 bodies
/// stepped up to 24 times, at a game's 1/30 s (where a breach was found)
/// or the usual 1/60 s and 1/120 s, with every check of [`ccd_mixed`].
pub fn promise_run(u: &mut Unstructured<'_>) -> Result<()> {
    run_mixed(u, 10, 24, &[1.0 / 30.0, 1.0 / 60.0, 1.0 / 120.0])
}
