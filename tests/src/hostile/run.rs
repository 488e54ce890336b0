//! The runs of the hostile targets that drive shapes, bodies, worlds and
//! scene files; each panics with a description when an invariant of the
//! module docs breaks (see [`super`]). The narrow-phase and inclusion runs
//! are in [`super::narrow`].

use arbitrary::{Result, Unstructured};
use parapet_geometry::Shape;
use parapet_math::Vec3;
use parapet_solver::{BodyKind, RigidBody};
use parapet_world::{BodyId, PhysicsWorld, StepError, SPHERE_MESH_CCD};

use super::build::{
    any_body_of, any_kind, any_shape, any_world, configure, room, solid_shape, Setter,
};
use super::oracle::{room_overreach, room_tolerance};
use super::scenes::{crowded_point, elastic_room, ELASTIC_ROOM_DT};
use super::state::{dump, not_finite};
use super::values::{any_dt, any_f32, any_vec, finite, in_range, ordinary_vec, sane_length};
use crate::state::body_bits;

/// Shape constructors: no panic; an accepted shape has finite bounds, a
/// finite bounding radius, and mass properties that are either refused or
/// finite with a positive mass.
pub fn shapes(u: &mut Unstructured<'_>) -> Result<()> {
    for _ in 0..u.int_in_range(1u8..=4)? {
        let Ok(shape) = any_shape(u)? else { continue };
        let _ = shape.kind_name();
        let r = shape.bounding_radius();
        assert!(
            r.is_finite() && r >= 0.0,
            "bounding radius {r} of {shape:?}"
        );
        let bounds = shape.local_aabb();
        assert!(
            finite(&bounds.min) && finite(&bounds.max),
            "{shape:?}: {bounds:?}"
        );
        let mass = any_f32(u)?;
        if let Ok(m) = shape.mass_properties(mass) {
            assert!(
                m.mass.is_finite() && m.mass > 0.0 && finite(&m.center),
                "{shape:?} mass {mass}: {m:?}"
            );
            assert!(m.inertia.iter().all(|c| c.is_finite()), "{m:?}");
        }
    }
    Ok(())
}

/// Body construction and every setter: no panic; a refused setter leaves
/// the body bit for bit unchanged; after any sequence, a body that passes
/// `validate` has finite reads.
pub fn bodies(u: &mut Unstructured<'_>) -> Result<()> {
    let Ok(shape) = any_shape(u)? else {
        return Ok(());
    };
    let kind = any_kind(u)?;
    let Ok(mut body) = any_body_of(u, shape, kind, 5.0)? else {
        return Ok(());
    };
    for _ in 0..u.int_in_range(0u8..=12)? {
        let setter = Setter::arbitrary(u)?;
        let before = body_bits(&body);
        if let Some(Err(e)) = setter.apply(&mut body) {
            let _ = e.to_string();
            assert_eq!(
                body_bits(&body),
                before,
                "{setter:?} was refused ({e}) but changed the body"
            );
        }
    }
    if body.validate().is_ok() {
        let reads = [
            body.position(),
            body.linear_velocity(),
            body.angular_velocity(),
            body.center_of_mass(),
        ];
        // Not `world_center_of_mass`: a valid position at the edge of f32
        // (3.4e38 m) plus a rotated offset may round to infinity; such a
        // body is refused by the step (NotRepresentable), not promised
        // finite reads.
        assert!(reads.iter().all(finite), "valid but not finite: {body:?}");
        assert!(
            body.mass().is_finite() && body.inverse_mass().is_finite(),
            "{body:?}"
        );
        assert!(
            body.inverse_inertia().iter().all(|c| c.is_finite()),
            "{body:?}"
        );
        assert!(
            body.kinetic_energy().is_none_or(|e| e.is_finite()),
            "{body:?}"
        );
    }
    Ok(())
}

/// A fresh world with `w`'s configuration and copies of its bodies, added
/// in the same order: the state a user can see and set, without the
/// step's caches (warm starts, contact history). `None` when a body no
/// longer passes `add_body` as it is, or when a static mesh was moved
/// since it was added: the step sweeps the triangles `add_body` captured
/// (`PhysicsWorld::mesh_snapshot`, which later edits do not move), and a
/// world rebuilt now would capture them where the body is now.
pub fn rebuilt(w: &PhysicsWorld) -> Option<PhysicsWorld> {
    let mut fresh = PhysicsWorld::new();
    fresh.gravity = w.gravity;
    fresh.collision_detection = w.collision_detection;
    fresh.ccd_max_impacts = w.ccd_max_impacts;
    fresh.ccd_max_substeps = w.ccd_max_substeps;
    fresh.sleeping = w.sleeping;
    fresh.sleep_linear_threshold = w.sleep_linear_threshold;
    fresh.sleep_angular_threshold = w.sleep_angular_threshold;
    fresh.time_to_sleep = w.time_to_sleep;
    for (id, b) in w.bodies() {
        let copy = fresh.add_body(b.clone()).ok()?;
        if fresh.mesh_snapshot(copy) != w.mesh_snapshot(id) {
            return None;
        }
    }
    Some(fresh)
}

/// One step with every check of the module docs: an `Ok` leaves the world
/// finite; an `Err` leaves it bit for bit unchanged, and a twin cloned
/// before the step answers the next two steps (the same `dt`, then 1/120 s)
/// exactly as the refused world does, so no hidden state changed either.
/// A refusal also rests on what the user can see and change: a world
/// rebuilt from the visible state ([`rebuilt`]) refuses the same step with
/// the same kind of error, so no refusal comes from a cache the user
/// cannot clear.
pub fn checked_step(w: &mut PhysicsWorld, dt: f32) -> std::result::Result<(), StepError> {
    let twin = w.clone();
    let before = dump(w);
    let result = w.step(dt);
    match &result {
        Ok(()) => {
            if let Some(why) = not_finite(w) {
                panic!("step(dt = {dt}) succeeded but {why}");
            }
        }
        Err(e) => {
            let text = e.to_string();
            assert!(!text.is_empty());
            assert!(
                dump(w) == before,
                "a refused step ({text}) changed the world"
            );
            // (No rebuilt world when a body can no longer be added as it
            // is, a setter having made it invalid, or when a static mesh
            // was moved since it was added: its captured triangles stay
            // where they were; see `rebuilt`.)
            if let Some(mut fresh) = rebuilt(w) {
                let again = fresh.step(dt);
                assert!(
                    again.as_ref().err().map(std::mem::discriminant)
                        == Some(std::mem::discriminant(e)),
                    "a refusal ({text}) that a world rebuilt from the visible state answers with {again:?}"
                );
            }
            let (mut a, mut b) = (w.clone(), twin);
            for dt in [dt, 1.0 / 120.0] {
                let (ra, rb) = (a.step(dt), b.step(dt));
                // Compared as text: a refusal may carry a NaN value.
                assert_eq!(
                    format!("{ra:?}"),
                    format!("{rb:?}"),
                    "after the refusal ({text}) a twin answers differently"
                );
                assert!(
                    dump(&a) == dump(&b),
                    "after the refusal ({text}) a twin differs"
                );
            }
        }
    }
    result
}

/// A few rays, hostile and ordinary: `try_cast_ray` never panics, a hit is
/// finite and within the maximum distance, and `cast_ray` agrees.
pub fn rays(u: &mut Unstructured<'_>, w: &PhysicsWorld) -> Result<()> {
    for _ in 0..u.int_in_range(0u8..=3)? {
        let origin = any_vec(u, 5.0)?;
        let direction = any_vec(u, 1.0)?;
        let max = if u.arbitrary()? { 100.0 } else { any_f32(u)? };
        let checked = w.try_cast_ray(origin, direction, max);
        if let Ok(Some(hit)) = &checked {
            assert!(
                hit.distance.is_finite()
                    && hit.distance >= 0.0
                    && hit.distance <= max
                    && finite(&hit.point)
                    && finite(&hit.normal),
                "ray {origin:?} {direction:?} {max}: {hit:?}"
            );
        }
        if let Err(e) = &checked {
            let _ = e.to_string();
        }
        assert_eq!(checked.ok().flatten(), w.cast_ray(origin, direction, max));
    }
    Ok(())
}

/// An edit a user makes between steps: a setter on a body, a removal, an
/// insertion, a new configuration.
fn edit(u: &mut Unstructured<'_>, w: &mut PhysicsWorld) -> Result<()> {
    let ids: Vec<BodyId> = w.bodies().map(|(id, _)| id).collect();
    match u.int_in_range(0u8..=9)? {
        0..=5 if !ids.is_empty() => {
            let id = *u.choose(&ids)?;
            let setter = Setter::arbitrary(u)?;
            let body = w.body_mut(id).expect("a live id");
            let before = body_bits(body);
            if let Some(Err(e)) = setter.apply(body) {
                assert_eq!(
                    body_bits(body),
                    before,
                    "{setter:?} was refused ({e}) but changed the body"
                );
            }
        }
        6 if !ids.is_empty() => {
            let id = *u.choose(&ids)?;
            w.remove_body(id).expect("a live id");
            assert!(w.body(id).is_none() && w.remove_body(id).is_err());
        }
        7 => {
            if let Ok(shape) = any_shape(u)? {
                let kind = any_kind(u)?;
                if let Ok(body) = any_body_of(u, shape, kind, 3.0)? {
                    let before = dump(w);
                    if let Err(e) = w.add_body(body) {
                        let _ = e.to_string();
                        assert!(
                            dump(w) == before,
                            "a refused add_body ({e}) changed the world"
                        );
                    }
                }
            }
        }
        _ => configure(u, w)?,
    }
    Ok(())
}

/// A world of arbitrary bodies stepped several times in both modes, with
/// edits and rays between the steps ([`checked_step`]).
pub fn world(u: &mut Unstructured<'_>) -> Result<()> {
    let mut w = any_world(u, 8)?;
    for _ in 0..u.int_in_range(1u8..=6)? {
        for _ in 0..u.int_in_range(0u8..=2)? {
            edit(u, &mut w)?;
        }
        let _ = checked_step(&mut w, any_dt(u)?);
        rays(u, &w)?;
    }
    Ok(())
}

/// A small continuous world in a closed room: every accepted step leaves
/// each dynamic body inside the room up to [`room_tolerance`] (a body
/// inside a closed box of front faces that ends beyond a wall has passed
/// through it). The room holds a few bodies of every supported kind, or a
/// small elastic room or crowded point (the probe's crowds, at small
/// counts).
pub fn ccd_room(u: &mut Unstructured<'_>) -> Result<()> {
    let (mut w, half, dt) = match u.int_in_range(0u8..=7)? {
        0 => {
            let (w, half) = elastic_room(u.int_in_range(1usize..=8)?, u.arbitrary()?);
            (w, half, ELASTIC_ROOM_DT)
        }
        1 => {
            let mut w = crowded_point(u.int_in_range(1usize..=6)?, SPHERE_MESH_CCD);
            let half = Vec3::repeat(3.0);
            let (v, t) = room(half);
            w.add_body(RigidBody::new_static(Shape::mesh(v, t).expect("a room")))
                .expect("a room");
            (w, half, 1.0 / 60.0)
        }
        _ => {
            let half = Vec3::new(
                sane_length(u, 1.0, 6.0)?,
                sane_length(u, 1.0, 6.0)?,
                sane_length(u, 1.0, 6.0)?,
            );
            let mut w = PhysicsWorld::new();
            w.collision_detection = SPHERE_MESH_CCD;
            if u.ratio(1u8, 4u8)? {
                w.gravity = ordinary_vec(u, 20.0)?;
            }
            let (v, t) = room(half);
            let mesh = if u.arbitrary()? {
                Shape::mesh(v, t)
            } else {
                Shape::mesh_with_active_edges(v, t)
            };
            let walls = RigidBody::new_static(mesh.expect("a room"))
                .with_material(super::build::valid_material(u)?);
            w.add_body(walls).expect("a room");
            for _ in 0..u.int_in_range(1u8..=5)? {
                add_room_body(u, &mut w, half)?;
            }
            (w, half, in_range(u, 1.0 / 480.0, 0.1, 200)?)
        }
    };
    for step in 0..u.int_in_range(1u8..=4)? {
        if checked_step(&mut w, dt).is_err() {
            continue;
        }
        for (id, b) in w.bodies() {
            if b.kind() != BodyKind::Dynamic || !b.collides() {
                continue;
            }
            let Some(over) = room_overreach(b, half) else {
                continue;
            };
            let tol = room_tolerance(b.shape());
            assert!(
                over <= tol,
                "step {step}: {id} ends {over} m beyond a wall of the room {half:?} (tolerance {tol}): {b:?}"
            );
        }
    }
    Ok(())
}

/// A body inside the room with clearance from every wall: a solid of any
/// supported kind (a sphere that spins, a locked or turning capsule, a
/// locked box or hull, an off-centre shape, a kinematic sphere), at up to
/// 50 m/s.
fn add_room_body(u: &mut Unstructured<'_>, w: &mut PhysicsWorld, half: Vec3) -> Result<()> {
    let shape = solid_shape(u)?;
    let reach = shape.bounding_radius() as f32 + 0.6;
    if half.min() <= reach {
        return Ok(());
    }
    let inner = half - Vec3::repeat(reach);
    let position = Vec3::new(
        in_range(u, -inner.x, inner.x, 100)?,
        in_range(u, -inner.y, inner.y, 100)?,
        in_range(u, -inner.z, inner.z, 100)?,
    );
    let kinematic = matches!(shape, Shape::Sphere(_)) && u.ratio(1u8, 6u8)?;
    let mut body = if kinematic {
        RigidBody::new_kinematic(shape)
    } else {
        RigidBody::new_dynamic(shape, sane_length(u, 0.1, 10.0)?).expect("an ordinary mass")
    };
    body.set_position(position);
    body.set_rotation(super::values::any_quat(u)?);
    let velocity = ordinary_vec(u, 50.0)?;
    body.set_linear_velocity(velocity);
    body.set_material(super::build::valid_material(u)?);
    match u.int_in_range(0u8..=3)? {
        0 => {
            let _ = body.set_inverse_inertia(parapet_math::Mat3::zeros());
        }
        1 => {
            let _ = body.set_center_of_mass(ordinary_vec(u, 0.1)?);
        }
        2 if !kinematic => body.set_angular_velocity(ordinary_vec(u, 10.0)?),
        _ => {}
    }
    let _ = w.add_body(body);
    Ok(())
}

/// Scene files: an arbitrary text, or the scene of an arbitrary world with
/// one of its numbers replaced by a hostile literal. No panic; a refusal
/// names a line and column within the text; an accepted scene's world
/// writes back to a scene that reads to the same bodies bit for bit, its
/// snapshot reads back to the same world, bit for bit, that steps as it
/// does ([`super::snapshot::read_back`]), and it steps with the checks of
/// [`checked_step`].
pub fn scene(u: &mut Unstructured<'_>) -> Result<()> {
    let text = if u.ratio(1u8, 4u8)? {
        String::from_utf8_lossy(u.bytes(u.len().min(4096))?).into_owned()
    } else {
        let w = any_world(u, 4)?;
        let dt = any_dt(u)?;
        let Ok(text) = parapet_cli::scene::world_to_json(&w, dt, u.int_in_range(0u64..=3)?) else {
            return Ok(());
        };
        mutate(u, text)?
    };
    let loaded = match parapet_cli::scene::parse_scene(&text, "fuzz.json") {
        Ok(l) => l,
        Err(e) => {
            let lines = text.lines().count().max(1);
            assert!(e.line <= lines + 1, "{e} beyond the text's {lines} lines");
            let _ = e.to_string();
            return Ok(());
        }
    };
    let mut w = loaded.world;
    let (dt, steps) = (loaded.scene.dt, loaded.scene.steps);
    if let Ok(again) = parapet_cli::scene::world_to_json(&w, dt, steps) {
        let back = parapet_cli::scene::parse_scene(&again, "again.json")
            .unwrap_or_else(|e| panic!("a written scene does not read back: {e}\n{again}"));
        // Zeros compared without their sign: a written tensor re-reads its
        // -0.0 off-diagonal entries as +0.0, which no product or sum of
        // the step tells apart from -0.0 except in the sign of a zero.
        let zero = |x: u64| if x == 0x8000_0000 { 0 } else { x };
        let bits = |w: &PhysicsWorld| -> Vec<Vec<u64>> {
            w.bodies()
                .map(|(_, b)| body_bits(b).into_iter().map(zero).collect())
                .collect()
        };
        assert_eq!(
            bits(&w),
            bits(&back.world),
            "the scene does not round-trip:\n{again}"
        );
    }
    let mut copy = w.clone();
    super::snapshot::read_back(&mut copy, &[dt]);
    for _ in 0..steps.min(2) {
        let _ = checked_step(&mut w, dt);
    }
    Ok(())
}

/// `text` with a few edits: a number replaced by a hostile literal, a
/// character removed or inserted.
pub(crate) fn mutate(u: &mut Unstructured<'_>, mut text: String) -> Result<String> {
    const LITERALS: [&str; 14] = [
        "1e39",
        "-1e39",
        "1e-46",
        "0",
        "-0",
        "1e308",
        "1e400",
        "NaN",
        "null",
        "\"x\"",
        "[]",
        "3.4028236e38",
        "-1",
        "18446744073709551616",
    ];
    for _ in 0..u.int_in_range(0u8..=2)? {
        let starts: Vec<usize> = text
            .char_indices()
            .filter(|(i, c)| {
                (c.is_ascii_digit() || *c == '-')
                    && text[..*i]
                        .chars()
                        .last()
                        .is_some_and(|p| p == ' ' || p == '[' || p == ':')
            })
            .map(|(i, _)| i)
            .collect();
        if starts.is_empty() {
            break;
        }
        let start = *u.choose(&starts)?;
        let end = text[start..]
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '.' || c == '-' || c == '+'))
            .map_or(text.len(), |k| start + k);
        text.replace_range(start..end, u.choose(&LITERALS)?);
    }
    if u.ratio(1u8, 8u8)? && !text.is_empty() {
        let at = u.int_in_range(0..=text.len() - 1)?;
        if text.is_char_boundary(at) && text.is_char_boundary(at + 1) {
            text.remove(at);
        }
    }
    Ok(text)
}
