//! From a [`SceneFile`] to a [`PhysicsWorld`]: every field is applied through
//! the public builder and setters of `RigidBody` in a fixed order, and the
//! body is validated after each one, so that a refusal names the field that
//! caused it (the body was valid before that field). The order:
//!
//! 1. the shape; a dynamic body (or a switched one, see
//!    [`BodySpec::mass`]) from `RigidBody::new_dynamic(shape, mass)`, else
//!    `new_kinematic` / `new_static`;
//! 2. `shape_offset`, `center_of_mass`, then the tensor: `inertia`
//!    (`set_inertia`), `inverse_inertia` (`set_inverse_inertia`) or
//!    `lock_rotation` (a zero inverse), at most one of the three;
//! 3. the switch to `kinematic` or `static` for a body given a mass;
//! 4. pose, velocities, material, `collides`, `ccd`, `collision_groups`,
//!    `sensor`, damping, pending force and torque, split velocities;
//!    then `can_sleep`, `sleep_timer` and `sleeping` (every edit before
//!    them wakes the body);
//! 5. `PhysicsWorld::add_body` (which captures a mesh's world triangles);
//! 6. after every body, the `ignored_pairs` by name
//!    (`PhysicsWorld::ignore_pair`).

use parapet::math::nalgebra::Quaternion as NaQuaternion;
use parapet::prelude::*;
use parapet::world::{CCD_MAX_IMPACTS_LIMIT, CCD_MAX_SUBSTEPS_LIMIT};

use super::error::{FieldError, FieldPath};
use super::schema::{
    BodySpec, KindName, MaterialSpec, Matrix, ModeName, Quaternion, SceneFile, ShapeSpec, Vector,
    WorldSpec, FORMAT,
};

/// A scene made into a world, ready to step.
#[derive(Debug, Clone)]
pub struct LoadedScene {
    /// The scene as read.
    pub scene: SceneFile,
    /// The world it describes.
    pub world: PhysicsWorld,
    /// The id of each body, in the order of `scene.bodies`.
    pub ids: Vec<BodyId>,
    /// The name of each body (given, or `body<index>`), in the same order.
    pub names: Vec<String>,
}

/// `[x, y, z]` as a vector.
pub fn vector(v: &Vector) -> Vec3 {
    Vec3::new(v[0], v[1], v[2])
}

/// `[w, x, y, z]` as a quaternion, unchanged (not normalized: the body's
/// validation decides whether it is a unit quaternion).
pub fn quaternion(q: &Quaternion) -> Quat {
    Quat::new_unchecked(NaQuaternion::new(q[0], q[1], q[2], q[3]))
}

/// Three rows as a matrix.
pub fn matrix(m: &Matrix) -> Mat3 {
    Mat3::new(
        m[0][0], m[0][1], m[0][2], m[1][0], m[1][1], m[1][2], m[2][0], m[2][1], m[2][2],
    )
}

/// The world, body ids and names of `scene`.
///
/// # Errors
/// The first refused field: a wrong `format`, a `dt` that is not finite and
/// positive, a world setting out of range, a body field that its setter or
/// validation refuses, a duplicate name.
pub fn build_scene(scene: SceneFile) -> Result<LoadedScene, FieldError> {
    let root = FieldPath::root();
    if scene.format != FORMAT {
        return Err(FieldError::new(
            root.key("format"),
            format!(
                "`{}` is not a format this build reads (expected `{FORMAT}`)",
                scene.format
            ),
        ));
    }
    if !(scene.dt.is_finite() && scene.dt > 0.0) {
        return Err(FieldError::new(
            root.key("dt"),
            format!("dt = {} s must be finite and greater than 0", scene.dt),
        ));
    }
    let mut world = build_world(&scene.world, &root.key("world"))?;
    let mut ids = Vec::with_capacity(scene.bodies.len());
    let mut names: Vec<String> = Vec::with_capacity(scene.bodies.len());
    for (i, spec) in scene.bodies.iter().enumerate() {
        let path = root.key("bodies").index(i);
        let name = spec.name.clone().unwrap_or_else(|| format!("body{i}"));
        if let Some(first) = names.iter().position(|n| *n == name) {
            return Err(FieldError::new(
                path.key("name"),
                format!("duplicate name `{name}` (also bodies[{first}]); names label trajectory rows and must be unique"),
            ));
        }
        let body = build_body(spec, &path)?;
        let id = world.add_body(body).map_err(|e| match e {
            WorldError::MeshSnapshot { .. } => FieldError::new(path.key("shape"), e.to_string()),
            _ => FieldError::new(path.clone(), e.to_string()),
        })?;
        ids.push(id);
        names.push(name);
    }
    for (k, pair) in scene.ignored_pairs.iter().enumerate() {
        let path = root.key("ignored_pairs").index(k);
        let mut pair_ids = Vec::with_capacity(2);
        for (side, name) in pair.iter().enumerate() {
            let Some(at) = names.iter().position(|n| n == name) else {
                return Err(FieldError::new(
                    path.index(side),
                    format!("`{name}` names no body of the scene"),
                ));
            };
            pair_ids.push(ids[at]);
        }
        world
            .ignore_pair(pair_ids[0], pair_ids[1])
            .map_err(|e| FieldError::new(path.clone(), e.to_string()))?;
    }
    Ok(LoadedScene {
        scene,
        world,
        ids,
        names,
    })
}

/// A world with the settings of `spec` (and no bodies).
///
/// # Errors
/// Non-finite gravity, or a CCD limit outside its valid range.
pub fn build_world(spec: &WorldSpec, path: &FieldPath) -> Result<PhysicsWorld, FieldError> {
    let mut world = PhysicsWorld::new();
    if let Some(g) = &spec.gravity {
        finite(path.key("gravity"), "gravity (m/s^2)", g)?;
        world.gravity = vector(g);
    }
    if let Some(mode) = spec.collision_detection {
        world.collision_detection = match mode {
            ModeName::Discrete => DISCRETE,
            ModeName::SphereMeshCcd => SPHERE_MESH_CCD,
        };
    }
    if let Some(n) = spec.ccd_max_impacts {
        in_range(path.key("ccd_max_impacts"), n, &CCD_MAX_IMPACTS_LIMIT)?;
        world.ccd_max_impacts = n;
    }
    if let Some(n) = spec.ccd_max_substeps {
        in_range(path.key("ccd_max_substeps"), n, &CCD_MAX_SUBSTEPS_LIMIT)?;
        world.ccd_max_substeps = n;
    }
    if let Some(on) = spec.sleeping {
        world.sleeping = on;
    }
    for (key, value, unit, field) in [
        (
            "sleep_linear_threshold",
            spec.sleep_linear_threshold,
            "m/s",
            &mut world.sleep_linear_threshold,
        ),
        (
            "sleep_angular_threshold",
            spec.sleep_angular_threshold,
            "rad/s",
            &mut world.sleep_angular_threshold,
        ),
        (
            "time_to_sleep",
            spec.time_to_sleep,
            "s",
            &mut world.time_to_sleep,
        ),
    ] {
        if let Some(v) = value {
            non_negative(path.key(key), key, unit, v)?;
            *field = v;
        }
    }
    Ok(world)
}

fn non_negative(path: FieldPath, what: &str, unit: &str, v: f32) -> Result<(), FieldError> {
    if v.is_finite() && v >= 0.0 {
        Ok(())
    } else {
        Err(FieldError::new(
            path,
            format!("{what} = {v} {unit} is not finite and >= 0"),
        ))
    }
}

fn in_range(
    path: FieldPath,
    value: u32,
    range: &std::ops::RangeInclusive<u32>,
) -> Result<(), FieldError> {
    if range.contains(&value) {
        Ok(())
    } else {
        Err(FieldError::new(
            path,
            format!(
                "{value} is outside the valid range {}..={}",
                range.start(),
                range.end()
            ),
        ))
    }
}

fn finite(path: FieldPath, what: &str, v: &[f32]) -> Result<(), FieldError> {
    match v.iter().position(|x| !x.is_finite()) {
        None => Ok(()),
        Some(i) => Err(FieldError::new(
            path.index(i),
            format!(
                "{what} component {i} = {} is not finite (f32 range exceeded)",
                v[i]
            ),
        )),
    }
}

/// Maps a refusal of one field to that field.
fn at<E: std::fmt::Display>(path: &FieldPath, key: &str) -> impl Fn(E) -> FieldError {
    let path = path.key(key);
    move |e| FieldError::new(path.clone(), e.to_string())
}

/// Applies `edit`, then validates: a refusal of either names `key`.
fn checked(
    body: &mut RigidBody,
    path: &FieldPath,
    key: &str,
    edit: impl FnOnce(&mut RigidBody) -> Result<(), BodyError>,
) -> Result<(), FieldError> {
    edit(body)
        .and_then(|()| body.validate())
        .map_err(at(path, key))
}

/// The body of `spec` (not yet in a world).
///
/// # Errors
/// The first refused field (see the module documentation for the order).
pub fn build_body(spec: &BodySpec, path: &FieldPath) -> Result<RigidBody, FieldError> {
    let shape = build_shape(&spec.shape, &path.key("shape"))?;
    if !shape.is_solid() && spec.kind == KindName::Dynamic {
        return Err(FieldError::new(
            path.key("kind"),
            "a mesh body must be static or kinematic, not dynamic (a mesh is a one-sided surface: no volume, no mass)",
        ));
    }
    let mut body = base_body(spec, shape, path)?;
    mass_properties(spec, &mut body, path)?;
    match (spec.kind, spec.mass) {
        (KindName::Kinematic, Some(_)) => {
            checked(&mut body, path, "kind", |b| b.set_kind(BodyKind::Kinematic))?
        }
        (KindName::Static, Some(_)) => {
            checked(&mut body, path, "kind", |b| b.set_kind(BodyKind::Static))?
        }
        _ => {}
    }
    motion(spec, &mut body, path)?;
    surface(spec, &mut body, path)?;
    sleep_state(spec, &mut body, path)?;
    Ok(body)
}

/// `can_sleep`, `sleep_timer` and `sleeping`, after every edit that wakes
/// the body.
fn sleep_state(spec: &BodySpec, body: &mut RigidBody, path: &FieldPath) -> Result<(), FieldError> {
    if let Some(can) = spec.can_sleep {
        body.set_can_sleep(can);
    }
    if let Some(t) = spec.sleep_timer {
        non_negative(path.key("sleep_timer"), "sleep_timer", "s", t)?;
        if t > 0.0 {
            if body.kind() != BodyKind::Dynamic || !body.can_sleep() {
                return Err(FieldError::new(
                    path.key("sleep_timer"),
                    "only a dynamic body that may sleep has a time at rest",
                ));
            }
            // Thresholds that every speed meets: the timer becomes 0 + t = t.
            body.advance_sleep_timer(t, f32::INFINITY, f32::INFINITY);
        }
    }
    if spec.sleeping {
        body.sleep();
        if !body.is_sleeping() {
            return Err(FieldError::new(
                path.key("sleeping"),
                "only a dynamic body that may sleep can start asleep",
            ));
        }
    }
    Ok(())
}

fn base_body(spec: &BodySpec, shape: Shape, path: &FieldPath) -> Result<RigidBody, FieldError> {
    match (spec.kind, spec.mass) {
        (_, Some(mass)) => RigidBody::new_dynamic(shape, mass).map_err(at(path, "mass")),
        (KindName::Dynamic, None) => Err(FieldError::new(
            path.key("mass"),
            "a dynamic body needs a mass (kg, finite and positive)",
        )),
        (KindName::Kinematic, None) => Ok(RigidBody::new_kinematic(shape)),
        (KindName::Static, None) => Ok(RigidBody::new_static(shape)),
    }
}

fn mass_properties(
    spec: &BodySpec,
    body: &mut RigidBody,
    path: &FieldPath,
) -> Result<(), FieldError> {
    if let Some(offset) = &spec.shape_offset {
        let translation = offset.position.as_ref().map_or(Vec3::zeros(), vector);
        let rotation = offset
            .rotation
            .as_ref()
            .map_or(Quat::identity(), quaternion);
        body.set_shape_offset(translation, rotation).map_err(|e| {
            let key = match e {
                BodyError::NotFinite {
                    quantity: "shape translation",
                    ..
                } => "position",
                _ => "rotation",
            };
            FieldError::new(path.key("shape_offset").key(key), e.to_string())
        })?;
    }
    if let Some(c) = &spec.center_of_mass {
        checked(body, path, "center_of_mass", |b| {
            b.set_center_of_mass(vector(c))
        })?;
    }
    let tensors = [
        ("inertia", spec.inertia.is_some()),
        ("inverse_inertia", spec.inverse_inertia.is_some()),
        ("lock_rotation", spec.lock_rotation),
    ];
    let given: Vec<&str> = tensors.iter().filter(|t| t.1).map(|t| t.0).collect();
    if given.len() > 1 {
        return Err(FieldError::new(
            path.key(given[1]),
            format!(
                "`{}` and `{}` both set the inertia tensor: give at most one",
                given[0], given[1]
            ),
        ));
    }
    if let Some(m) = &spec.inertia {
        checked(body, path, "inertia", |b| b.set_inertia(matrix(m)))?;
    }
    if let Some(m) = &spec.inverse_inertia {
        checked(body, path, "inverse_inertia", |b| {
            b.set_inverse_inertia(matrix(m))
        })?;
    }
    if spec.lock_rotation {
        checked(body, path, "lock_rotation", |b| {
            b.set_inverse_inertia(Mat3::zeros())
        })?;
    }
    Ok(())
}

/// A setter of a vector field that cannot fail by itself (the validation
/// after it decides).
type VectorSetter = fn(&mut RigidBody, Vec3);

fn motion(spec: &BodySpec, body: &mut RigidBody, path: &FieldPath) -> Result<(), FieldError> {
    if let Some(p) = &spec.position {
        checked(body, path, "position", |b| {
            b.set_position(vector(p));
            Ok(())
        })?;
    }
    if let Some(q) = &spec.rotation {
        checked(body, path, "rotation", |b| {
            b.set_rotation(quaternion(q));
            Ok(())
        })?;
    }
    let vectors: [(&str, &Option<Vector>, VectorSetter); 6] = [
        (
            "linear_velocity",
            &spec.linear_velocity,
            RigidBody::set_linear_velocity,
        ),
        (
            "angular_velocity",
            &spec.angular_velocity,
            RigidBody::set_angular_velocity,
        ),
        ("force", &spec.force, RigidBody::add_force),
        ("torque", &spec.torque, RigidBody::add_torque),
        (
            "split_linear_velocity",
            &spec.split_linear_velocity,
            RigidBody::set_split_linear_velocity,
        ),
        (
            "split_angular_velocity",
            &spec.split_angular_velocity,
            RigidBody::set_split_angular_velocity,
        ),
    ];
    for (key, value, set) in vectors {
        if let Some(v) = value {
            checked(body, path, key, |b| {
                set(b, vector(v));
                Ok(())
            })?;
        }
    }
    Ok(())
}

fn surface(spec: &BodySpec, body: &mut RigidBody, path: &FieldPath) -> Result<(), FieldError> {
    if let Some(m) = &spec.material {
        let material = material(m);
        material.validate().map_err(|e| {
            let parapet::shape::MaterialError::OutOfRange { quantity, .. } = e else {
                return FieldError::new(path.key("material"), e.to_string());
            };
            FieldError::new(
                path.key("material").key(&quantity.replace(' ', "_")),
                e.to_string(),
            )
        })?;
        checked(body, path, "material", |b| {
            b.set_material(material);
            Ok(())
        })?;
    }
    if let Some(collides) = spec.collides {
        body.set_collides(collides);
    }
    if let Some(mode) = spec.ccd {
        body.set_ccd(mode.into());
    }
    if let Some(g) = spec.collision_groups {
        body.set_collision_groups(CollisionGroups::new(g.memberships, g.filter));
    }
    if let Some(sensor) = spec.sensor {
        body.set_sensor(sensor);
    }
    if let Some(d) = spec.linear_damping {
        checked(body, path, "linear_damping", |b| b.set_linear_damping(d))?;
    }
    if let Some(d) = spec.angular_damping {
        checked(body, path, "angular_damping", |b| b.set_angular_damping(d))?;
    }
    Ok(())
}

/// The material of `spec`, absent fields from `Material::default()`.
pub fn material(spec: &MaterialSpec) -> Material {
    let base = Material::default();
    Material {
        friction: spec.friction.unwrap_or(base.friction),
        restitution: spec.restitution.unwrap_or(base.restitution),
        bounce_threshold: spec.bounce_threshold.unwrap_or(base.bounce_threshold),
    }
}

/// The shape of `spec`; `path` is the `shape` field.
///
/// # Errors
/// The constructor's refusal, at the offending member (a radius, a half
/// extent, a hull point, a mesh vertex or a triangle's corner).
pub fn build_shape(spec: &ShapeSpec, path: &FieldPath) -> Result<Shape, FieldError> {
    let (variant, result) = match spec {
        ShapeSpec::Sphere { radius } => ("sphere", Shape::sphere(*radius)),
        ShapeSpec::Capsule {
            radius,
            half_height,
        } => ("capsule", Shape::capsule(*radius, *half_height)),
        ShapeSpec::Cuboid { half_extents } => ("cuboid", Shape::cuboid(vector(half_extents))),
        ShapeSpec::ConvexHull { points } => {
            let points: Vec<Vec3> = points.iter().map(vector).collect();
            ("convex_hull", Shape::convex_hull(&points))
        }
        ShapeSpec::Mesh {
            vertices,
            triangles,
            active_edges,
        } => {
            let vertices = vertices.iter().map(vector).collect();
            let triangles = triangles.clone();
            let shape = if *active_edges {
                Shape::mesh_with_active_edges(vertices, triangles)
            } else {
                Shape::mesh(vertices, triangles)
            };
            ("mesh", shape)
        }
    };
    result.map_err(|e| FieldError::new(shape_field(&path.key(variant), &e), e.to_string()))
}

/// The member of a shape that a [`ShapeError`] is about.
fn shape_field(path: &FieldPath, error: &ShapeError) -> FieldPath {
    match error {
        ShapeError::InvalidSize { quantity, .. } => match *quantity {
            "capsule half height" => path.key("half_height"),
            q if q.starts_with("cuboid half extent") => {
                let axis = q
                    .bytes()
                    .last()
                    .map_or(0, |c| usize::from(c.saturating_sub(b'x')));
                path.key("half_extents").index(axis.min(2))
            }
            _ => path.key("radius"),
        },
        ShapeError::NotFinitePoint {
            quantity: "mesh vertex",
            index,
            ..
        } => path.key("vertices").index(*index),
        ShapeError::NotFinitePoint { index, .. } => path.key("points").index(*index),
        ShapeError::DegenerateHull { .. } => path.key("points"),
        ShapeError::EmptyMesh { quantity } => path.key(quantity),
        ShapeError::TooManyVertices { .. } => path.key("vertices"),
        ShapeError::IndexOutOfRange {
            triangle, corner, ..
        } => path.key("triangles").index(*triangle).index(*corner),
        _ => path.clone(),
    }
}
