//! From a world to a scene: [`scene_from_world`] describes every body through
//! the fields of the scene schema, leaving out those equal to the builder's
//! defaults, and checks that the description builds the same body
//! (`RigidBody` equality: every field, the retained dynamic configuration
//! included); [`write_scene`] prints it so that every `f32` reads back to the
//! same bits ([`super::json`]).
//!
//! What a scene cannot hold: contact events, the warm-starting cache of the
//! last step and a body's id (ids are given again, in order, by `add_body`).

use parapet::math::nalgebra::Quaternion as NaQuaternion;
use parapet::prelude::*;
use parapet::world::{DEFAULT_CCD_MAX_IMPACTS, DEFAULT_CCD_MAX_SUBSTEPS, DEFAULT_GRAVITY};
use serde::Serialize;

use super::build::{build_body, build_shape};
use super::error::{FieldError, FieldPath};
use super::json::SceneFormatter;
use super::schema::{
    BodySpec, GroupsSpec, KindName, MaterialSpec, Matrix, ModeName, OffsetSpec, Quaternion,
    SceneFile, ShapeSpec, Vector, WorldSpec, FORMAT,
};

fn vector(v: &Vec3) -> Vector {
    [v.x, v.y, v.z]
}

fn quaternion(q: &Quat) -> Quaternion {
    let q: &NaQuaternion<f32> = q.as_ref();
    [q.w, q.i, q.j, q.k]
}

fn matrix(m: &Mat3) -> Matrix {
    std::array::from_fn(|r| std::array::from_fn(|c| m[(r, c)]))
}

/// Whether every component has the bits of `+0.0`.
fn zero_bits(v: &[f32]) -> bool {
    v.iter().all(|x| x.to_bits() == 0)
}

fn same_bits(a: &[f32], b: &[f32]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.to_bits() == y.to_bits())
}

/// `Some(v)` unless `v` is exactly `+0` in every component.
fn unless_zero(v: &Vec3) -> Option<Vector> {
    let v = vector(v);
    (!zero_bits(&v)).then_some(v)
}

/// `value` unless it has the bits of `default`.
fn unless_bits(value: f32, default: f32) -> Option<f32> {
    (value.to_bits() != default.to_bits()).then_some(value)
}

/// The shape description of `shape`.
///
/// # Errors
/// A shape kind the scene schema has no description for (a kind newer than
/// this version of the format), named at `path`.
pub fn shape_spec(shape: &Shape, path: &FieldPath) -> Result<ShapeSpec, FieldError> {
    Ok(match shape {
        Shape::Sphere(s) => ShapeSpec::Sphere { radius: s.radius() },
        Shape::Capsule(c) => ShapeSpec::Capsule {
            radius: c.radius(),
            half_height: c.half_height(),
        },
        Shape::Cuboid(c) => ShapeSpec::Cuboid {
            half_extents: vector(&c.half_extents()),
        },
        Shape::ConvexHull(h) => ShapeSpec::ConvexHull {
            points: h.vertices().iter().map(vector).collect(),
        },
        Shape::Mesh(m) => ShapeSpec::Mesh {
            vertices: m.vertices().iter().map(vector).collect(),
            triangles: m.indices().to_vec(),
            active_edges: m.active_edges().is_some(),
        },
        other => {
            return Err(FieldError::new(
                path.clone(),
                format!("a {} has no description in {FORMAT}", other.kind_name()),
            ))
        }
    })
}

/// The scene of `world`, stepped by `dt` for `steps` steps, its bodies in
/// insertion order named `body<index>` (set `bodies[i].name` to rename).
///
/// # Errors
/// A body the schema cannot describe exactly: a non-finite value (JSON has
/// no NaN or infinity), a solid inertia tensor that no `inertia` field
/// reproduces bit for bit, a world mode without a scene name, a shape kind
/// the schema has no description for.
pub fn scene_from_world(
    world: &PhysicsWorld,
    dt: f32,
    steps: u64,
) -> Result<SceneFile, FieldError> {
    let root = FieldPath::root();
    let mode = if world.collision_detection == DISCRETE {
        ModeName::Discrete
    } else if world.collision_detection == SPHERE_MESH_CCD {
        ModeName::SphereMeshCcd
    } else {
        return Err(FieldError::new(
            root.key("world").key("collision_detection"),
            format!("{:?} has no scene name", world.collision_detection),
        ));
    };
    let gravity = vector(&world.gravity);
    let spec = WorldSpec {
        gravity: (!same_bits(&gravity, &vector(&DEFAULT_GRAVITY))).then_some(gravity),
        collision_detection: Some(mode),
        ccd_max_impacts: (world.ccd_max_impacts != DEFAULT_CCD_MAX_IMPACTS)
            .then_some(world.ccd_max_impacts),
        ccd_max_substeps: (world.ccd_max_substeps != DEFAULT_CCD_MAX_SUBSTEPS)
            .then_some(world.ccd_max_substeps),
        sleeping: (!world.sleeping).then_some(false),
        sleep_linear_threshold: unless_bits(
            world.sleep_linear_threshold,
            parapet::world::DEFAULT_SLEEP_LINEAR_THRESHOLD,
        ),
        sleep_angular_threshold: unless_bits(
            world.sleep_angular_threshold,
            parapet::world::DEFAULT_SLEEP_ANGULAR_THRESHOLD,
        ),
        time_to_sleep: unless_bits(world.time_to_sleep, parapet::world::DEFAULT_TIME_TO_SLEEP),
    };
    let bodies = world
        .bodies()
        .enumerate()
        .map(|(i, (_, body))| body_spec(body, &root.key("bodies").index(i)))
        .collect::<Result<Vec<_>, _>>()?;
    let ids: Vec<BodyId> = world.bodies().map(|(id, _)| id).collect();
    let name = |id: BodyId| {
        let at = ids.iter().position(|&i| i == id).unwrap_or(usize::MAX);
        format!("body{at}")
    };
    let ignored_pairs = world
        .ignored_pairs()
        .map(|(a, b)| [name(a), name(b)])
        .collect();
    Ok(SceneFile {
        format: FORMAT.to_owned(),
        dt,
        steps,
        world: spec,
        bodies,
        ignored_pairs,
    })
}

/// The description of `body`, checked to build the same body.
///
/// # Errors
/// See [`scene_from_world`].
pub fn body_spec(body: &RigidBody, path: &FieldPath) -> Result<BodySpec, FieldError> {
    let kind = match body.kind() {
        BodyKind::Dynamic => KindName::Dynamic,
        BodyKind::Kinematic => KindName::Kinematic,
        BodyKind::Static => KindName::Static,
    };
    let (offset_position, offset_rotation) = body.shape_offset();
    let shape_offset = (!zero_bits(&vector(&offset_position))
        || !same_bits(&quaternion(&offset_rotation), &[1.0, 0.0, 0.0, 0.0]))
    .then(|| OffsetSpec {
        position: unless_zero(&offset_position),
        rotation: Some(quaternion(&offset_rotation)),
    });
    let m = body.material();
    let d = Material::default();
    let material = (!same_bits(
        &[m.friction, m.restitution, m.bounce_threshold],
        &[d.friction, d.restitution, d.bounce_threshold],
    ))
    .then_some(MaterialSpec {
        friction: Some(m.friction),
        restitution: Some(m.restitution),
        bounce_threshold: Some(m.bounce_threshold),
    });
    let damping = |x: f32| (x.to_bits() != 0).then_some(x);
    let mut spec = BodySpec {
        name: None,
        kind,
        mass: body.dynamic_mass(),
        shape: shape_spec(body.shape(), &path.key("shape"))?,
        shape_offset,
        center_of_mass: None,
        inertia: None,
        inverse_inertia: None,
        lock_rotation: false,
        position: Some(vector(&body.position())),
        rotation: Some(quaternion(&body.rotation())),
        linear_velocity: unless_zero(&body.linear_velocity()),
        angular_velocity: unless_zero(&body.angular_velocity()),
        material,
        collides: (!body.collides()).then_some(false),
        ccd: (body.ccd() != parapet::ccd::CcdMode::Inherit).then(|| body.ccd().into()),
        collision_groups: (body.collision_groups() != CollisionGroups::ALL).then(|| {
            let g = body.collision_groups();
            GroupsSpec {
                memberships: g.memberships,
                filter: g.filter,
            }
        }),
        sensor: body.is_sensor().then_some(true),
        linear_damping: damping(body.linear_damping()),
        angular_damping: damping(body.angular_damping()),
        force: unless_zero(&body.force()),
        torque: unless_zero(&body.torque()),
        split_linear_velocity: unless_zero(&body.split_linear_velocity()),
        split_angular_velocity: unless_zero(&body.split_angular_velocity()),
        can_sleep: (!body.can_sleep()).then_some(false),
        sleep_timer: unless_bits(body.sleep_timer(), 0.0),
        sleeping: body.is_sleeping(),
    };
    mass_fields(body, &mut spec, path)?;
    let rebuilt = build_body(&spec, path)?;
    if rebuilt != *body {
        return Err(FieldError::new(
            path.clone(),
            "the scene fields do not rebuild this body exactly (a state the builder and setters cannot reach)",
        ));
    }
    Ok(spec)
}

/// Fills the centre-of-mass and tensor fields where they differ from what
/// the body's construction gives by itself.
fn mass_fields(body: &RigidBody, spec: &mut BodySpec, path: &FieldPath) -> Result<(), FieldError> {
    let shape = build_shape(&spec.shape, &path.key("shape"))?;
    let fresh = match spec.mass {
        Some(mass) => Some(
            RigidBody::new_dynamic(shape, mass)
                .map_err(|e| FieldError::new(path.key("mass"), e.to_string()))?,
        ),
        None => None,
    };
    let default_center = fresh
        .as_ref()
        .map_or(Vec3::zeros(), RigidBody::center_of_mass);
    let default_inverse = fresh.as_ref().and_then(RigidBody::dynamic_inverse_inertia);
    let center = vector(&body.center_of_mass());
    if !same_bits(&center, &vector(&default_center)) {
        spec.center_of_mass = Some(center);
    }
    let (Some(inverse), Some(default_inverse)) = (body.dynamic_inverse_inertia(), default_inverse)
    else {
        return Ok(());
    };
    if body.has_custom_inverse_inertia() {
        if zero_bits(inverse.as_slice()) {
            spec.lock_rotation = true;
        } else {
            spec.inverse_inertia = Some(matrix(&inverse));
        }
    } else if !same_bits(inverse.as_slice(), default_inverse.as_slice()) {
        let reproduces = |candidate: &Matrix| {
            let mut probe = fresh.clone()?;
            probe.set_inertia(super::build::matrix(candidate)).ok()?;
            let rebuilt = probe.dynamic_inverse_inertia()?;
            same_bits(rebuilt.as_slice(), inverse.as_slice()).then_some(())
        };
        // The shortest of: the f64 inverse rounded to 6 or 7 significant
        // digits, or to f32, that gives back the same inverse.
        let exact = solid_inertia(&inverse);
        spec.inertia = [rounded(&exact, 6), rounded(&exact, 7)]
            .into_iter()
            .find(|c| reproduces(c).is_some())
            .or(Some(exact));
    }
    Ok(())
}

/// A solid tensor whose checked inverse is `inverse`: the `f64` inverse,
/// symmetrized and rounded once, negative zeros made positive (the check in
/// [`body_spec`] refuses a tensor for which this is not exact).
fn solid_inertia(inverse: &Mat3) -> Matrix {
    let wide = inverse.cast::<f64>();
    let inertia = wide.try_inverse().unwrap_or(wide);
    std::array::from_fn(|r| {
        std::array::from_fn(|c| ((inertia[(r, c)] + inertia[(c, r)]) / 2.0) as f32 + 0.0)
    })
}

/// Each entry rounded to `digits` significant decimal digits.
fn rounded(m: &Matrix, digits: usize) -> Matrix {
    let round = |x: f32| -> f32 { format!("{:.*e}", digits - 1, x).parse().unwrap_or(x) + 0.0 };
    m.map(|row| row.map(round))
}

/// The JSON text of `scene`: one member per line, numeric arrays on one
/// line, every `f32` written so that it reads back to the same bits.
///
/// # Errors
/// A serialization error of serde_json (none is expected for these types:
/// every map key is a string and the output is memory).
pub fn write_scene(scene: &SceneFile) -> Result<String, serde_json::Error> {
    let mut out = Vec::new();
    let mut serializer =
        serde_json::Serializer::with_formatter(&mut out, SceneFormatter::default());
    scene.serialize(&mut serializer)?;
    out.push(b'\n');
    // serde_json writes UTF-8 only.
    Ok(String::from_utf8_lossy(&out).into_owned())
}
