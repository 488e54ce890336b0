//! Hostile shapes, materials, bodies, setters and worlds.
//!
//! Constructors are called with what the generator drew and their `Result`
//! is handed back: a run checks both what a refusal leaves and what an
//! accepted value promises. Structured meshes (a floor grid, a closed room)
//! come alongside random triangle soups, so that the step's contact and
//! sweep paths are reached and not only its validation.

use arbitrary::{Result, Unstructured};
use parapet_geometry::{Material, Shape, ShapeError};
use parapet_math::{Mat3, Quat, Vec3};
use parapet_solver::{BodyError, BodyKind, RigidBody};
use parapet_world::{CollisionDetection, PhysicsWorld, DISCRETE, SPHERE_MESH_CCD};

use super::values::{any_f32, any_quat, any_vec, in_range, length, ordinary_vec, sane_length};

/// Largest vertex count of a generated hull or random mesh (keeps a run
/// fast; the hull and mesh validation paths are all reached well below).
pub const MAX_POINTS: usize = 24;

/// The static floor grid `n x n` of cells of side `cell` (m) at height
/// `z`, counter-clockwise from above (facing +z), each vertex raised by
/// `bumps[k % len]` m.
pub fn floor_grid(n: usize, cell: f32, z: f32, bumps: &[f32]) -> (Vec<Vec3>, Vec<[u32; 3]>) {
    let n = n.max(1);
    let half = n as f32 * cell * 0.5;
    let mut vertices = Vec::new();
    for j in 0..=n {
        for i in 0..=n {
            let k = j * (n + 1) + i;
            let bump = if bumps.is_empty() {
                0.0
            } else {
                bumps[k % bumps.len()]
            };
            vertices.push(Vec3::new(
                i as f32 * cell - half,
                j as f32 * cell - half,
                z + bump,
            ));
        }
    }
    let mut triangles = Vec::new();
    let w = (n + 1) as u32;
    for j in 0..n as u32 {
        for i in 0..n as u32 {
            let a = j * w + i;
            triangles.push([a, a + 1, a + w + 1]);
            triangles.push([a, a + w + 1, a + w]);
        }
    }
    (vertices, triangles)
}

/// The closed box `[-half, half]` (m) as 12 triangles facing inwards: a
/// room whose walls are all front faces seen from inside.
pub fn room(half: Vec3) -> (Vec<Vec3>, Vec<[u32; 3]>) {
    let (x, y, z) = (half.x, half.y, half.z);
    let v = vec![
        Vec3::new(-x, -y, -z),
        Vec3::new(x, -y, -z),
        Vec3::new(x, y, -z),
        Vec3::new(-x, y, -z),
        Vec3::new(-x, -y, z),
        Vec3::new(x, -y, z),
        Vec3::new(x, y, z),
        Vec3::new(-x, y, z),
    ];
    // Outward counter-clockwise faces of the cube, then reversed.
    let outward: [[u32; 3]; 12] = [
        [0, 2, 1],
        [0, 3, 2],
        [4, 5, 6],
        [4, 6, 7],
        [0, 1, 5],
        [0, 5, 4],
        [1, 2, 6],
        [1, 6, 5],
        [2, 3, 7],
        [2, 7, 6],
        [3, 0, 4],
        [3, 4, 7],
    ];
    (v, outward.iter().map(|t| [t[0], t[2], t[1]]).collect())
}

/// Mesh vertices and triangles: a floor grid, a room, or a random soup
/// (any vertices, any indices, possibly out of range or repeated).
pub fn any_mesh_data(u: &mut Unstructured<'_>) -> Result<(Vec<Vec3>, Vec<[u32; 3]>)> {
    Ok(match u.int_in_range(0u8..=3)? {
        0 => {
            let n = u.int_in_range(1usize..=6)?;
            let cell = length(u)?.abs().max(0.01) * 4.0;
            let bumps: Vec<f32> = (0..u.int_in_range(0usize..=4)?)
                .map(|_| in_range(u, -0.2, 0.2, 40))
                .collect::<Result<_>>()?;
            floor_grid(n, cell, in_range(u, -2.0, 0.0, 20)?, &bumps)
        }
        1 => room(Vec3::new(
            sane_length(u, 1.0, 8.0)?,
            sane_length(u, 1.0, 8.0)?,
            sane_length(u, 1.0, 8.0)?,
        )),
        _ => {
            let count = u.int_in_range(0usize..=MAX_POINTS)?;
            let vertices: Vec<Vec3> = (0..count).map(|_| any_vec(u, 5.0)).collect::<Result<_>>()?;
            let triangles: Vec<[u32; 3]> = (0..u.int_in_range(0usize..=MAX_POINTS)?)
                .map(|_| {
                    let top = count as u32 + u32::from(u.ratio(1u8, 16u8)?);
                    Ok([
                        u.int_in_range(0..=top)?,
                        u.int_in_range(0..=top)?,
                        u.int_in_range(0..=top)?,
                    ])
                })
                .collect::<Result<_>>()?;
            (vertices, triangles)
        }
    })
}

/// A shape constructor's result, from any of the six constructors.
pub fn any_shape(u: &mut Unstructured<'_>) -> Result<std::result::Result<Shape, ShapeError>> {
    Ok(match u.int_in_range(0u8..=9)? {
        0..=2 => Shape::sphere(length(u)?),
        3..=4 => Shape::capsule(length(u)?, length(u)?),
        5..=6 => Shape::cuboid(Vec3::new(length(u)?, length(u)?, length(u)?)),
        7 => {
            let points: Vec<Vec3> = (0..u.int_in_range(0usize..=MAX_POINTS)?)
                .map(|_| {
                    if u.ratio(7u8, 8u8)? {
                        ordinary_vec(u, 1.0)
                    } else {
                        any_vec(u, 1.0)
                    }
                })
                .collect::<Result<_>>()?;
            Shape::convex_hull(&points)
        }
        8 => {
            let (v, t) = any_mesh_data(u)?;
            Shape::mesh(v, t)
        }
        _ => {
            let (v, t) = any_mesh_data(u)?;
            Shape::mesh_with_active_edges(v, t)
        }
    })
}

/// A solid shape that always constructs: a sphere, capsule, cuboid or
/// hull of ordinary size (0.05 m to 1 m).
pub fn solid_shape(u: &mut Unstructured<'_>) -> Result<Shape> {
    let r = sane_length(u, 0.05, 1.0)?;
    let shape = match u.int_in_range(0u8..=3)? {
        0 => Shape::sphere(r),
        1 => Shape::capsule(r, sane_length(u, 0.01, 1.0)?),
        2 => Shape::cuboid(Vec3::new(
            r,
            sane_length(u, 0.05, 1.0)?,
            sane_length(u, 0.05, 1.0)?,
        )),
        _ => {
            let mut points = octahedron(r);
            for _ in 0..u.int_in_range(0usize..=6)? {
                points.push(ordinary_vec(u, r)?);
            }
            Shape::convex_hull(&points)
        }
    };
    Ok(shape.expect("ordinary solids construct"))
}

/// A valid material: the default or an ordinary one (friction in
/// `[0, 1.5]`, restitution in `[0, 1]`, bounce threshold in `[0, 2]` m/s).
pub fn valid_material(u: &mut Unstructured<'_>) -> Result<Material> {
    Ok(if u.ratio(1u8, 4u8)? {
        Material::default()
    } else {
        Material {
            friction: in_range(u, 0.0, 1.5, 30)?,
            restitution: in_range(u, 0.0, 1.0, 20)?,
            bounce_threshold: in_range(u, 0.0, 2.0, 20)?,
        }
    })
}

/// A material: the default, an ordinary valid one, or any three floats
/// (which the body's validation refuses when out of range).
pub fn any_material(u: &mut Unstructured<'_>) -> Result<Material> {
    Ok(match u.int_in_range(0u8..=5)? {
        0 => Material::default(),
        1..=3 => Material {
            friction: in_range(u, 0.0, 1.5, 30)?,
            restitution: in_range(u, 0.0, 1.0, 20)?,
            bounce_threshold: in_range(u, 0.0, 2.0, 20)?,
        },
        _ => Material {
            friction: any_f32(u)?,
            restitution: any_f32(u)?,
            bounce_threshold: any_f32(u)?,
        },
    })
}

/// A 3x3 matrix: a positive diagonal, a random symmetric one, or any nine
/// floats.
pub fn any_mat3(u: &mut Unstructured<'_>) -> Result<Mat3> {
    Ok(match u.int_in_range(0u8..=3)? {
        0 => Mat3::from_diagonal(&Vec3::new(
            sane_length(u, 0.01, 10.0)?,
            sane_length(u, 0.01, 10.0)?,
            sane_length(u, 0.01, 10.0)?,
        )),
        1 => {
            let a = ordinary_vec(u, 2.0)?;
            let b = ordinary_vec(u, 2.0)?;
            Mat3::from_diagonal(&Vec3::repeat(in_range(u, 0.0, 5.0, 50)?))
                + a * a.transpose()
                + b * b.transpose()
        }
        2 => Mat3::zeros(),
        _ => Mat3::from_fn(|_, _| any_f32(u).unwrap_or(0.0)),
    })
}

/// One public setter of [`RigidBody`] with its argument.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Setter {
    /// `set_position`.
    Position(Vec3),
    /// `set_rotation`.
    Rotation(Quat),
    /// `set_linear_velocity`.
    LinearVelocity(Vec3),
    /// `set_angular_velocity`.
    AngularVelocity(Vec3),
    /// `set_split_linear_velocity`.
    SplitLinearVelocity(Vec3),
    /// `set_split_angular_velocity`.
    SplitAngularVelocity(Vec3),
    /// `set_material`.
    Material(Material),
    /// `set_collides`.
    Collides(bool),
    /// `set_kind`.
    Kind(BodyKind),
    /// `set_mass`.
    Mass(f32),
    /// `set_inertia`.
    Inertia(Mat3),
    /// `set_inverse_inertia`.
    InverseInertia(Mat3),
    /// `set_center_of_mass`.
    CenterOfMass(Vec3),
    /// `set_shape_offset`.
    ShapeOffset(Vec3, Quat),
    /// `add_force`.
    AddForce(Vec3),
    /// `add_torque`.
    AddTorque(Vec3),
    /// `apply_impulse` (impulse, world point).
    ApplyImpulse(Vec3, Vec3),
    /// `set_linear_damping`.
    LinearDamping(f32),
    /// `set_angular_damping`.
    AngularDamping(f32),
}

/// A body kind.
pub fn any_kind(u: &mut Unstructured<'_>) -> Result<BodyKind> {
    Ok(*u.choose(&[BodyKind::Dynamic, BodyKind::Kinematic, BodyKind::Static])?)
}

impl Setter {
    /// A setter and its argument (hostile or ordinary).
    pub fn arbitrary(u: &mut Unstructured<'_>) -> Result<Setter> {
        Ok(match u.int_in_range(0u8..=18)? {
            0 => Setter::Position(any_vec(u, 5.0)?),
            1 => Setter::Rotation(any_quat(u)?),
            2 => Setter::LinearVelocity(any_vec(u, 20.0)?),
            3 => Setter::AngularVelocity(any_vec(u, 20.0)?),
            4 => Setter::SplitLinearVelocity(any_vec(u, 1.0)?),
            5 => Setter::SplitAngularVelocity(any_vec(u, 1.0)?),
            6 => Setter::Material(any_material(u)?),
            7 => Setter::Collides(u.arbitrary()?),
            8 => Setter::Kind(any_kind(u)?),
            9 => Setter::Mass(any_f32(u)?),
            10 => Setter::Inertia(any_mat3(u)?),
            11 => Setter::InverseInertia(any_mat3(u)?),
            12 => Setter::CenterOfMass(any_vec(u, 0.5)?),
            13 => Setter::ShapeOffset(any_vec(u, 0.5)?, any_quat(u)?),
            14 => Setter::AddForce(any_vec(u, 50.0)?),
            15 => Setter::AddTorque(any_vec(u, 5.0)?),
            16 => Setter::ApplyImpulse(any_vec(u, 5.0)?, any_vec(u, 5.0)?),
            17 => Setter::LinearDamping(any_f32(u)?),
            _ => Setter::AngularDamping(any_f32(u)?),
        })
    }

    /// Applies the setter; `Some` with the result for the fallible ones.
    pub fn apply(&self, b: &mut RigidBody) -> Option<std::result::Result<(), BodyError>> {
        match *self {
            Setter::Position(x) => b.set_position(x),
            Setter::Rotation(q) => b.set_rotation(q),
            Setter::LinearVelocity(x) => b.set_linear_velocity(x),
            Setter::AngularVelocity(x) => b.set_angular_velocity(x),
            Setter::SplitLinearVelocity(x) => b.set_split_linear_velocity(x),
            Setter::SplitAngularVelocity(x) => b.set_split_angular_velocity(x),
            Setter::Material(m) => b.set_material(m),
            Setter::Collides(c) => b.set_collides(c),
            Setter::Kind(k) => return Some(b.set_kind(k)),
            Setter::Mass(m) => return Some(b.set_mass(m)),
            Setter::Inertia(m) => return Some(b.set_inertia(m)),
            Setter::InverseInertia(m) => return Some(b.set_inverse_inertia(m)),
            Setter::CenterOfMass(c) => return Some(b.set_center_of_mass(c)),
            Setter::ShapeOffset(t, q) => return Some(b.set_shape_offset(t, q)),
            Setter::AddForce(f) => b.add_force(f),
            Setter::AddTorque(t) => b.add_torque(t),
            Setter::ApplyImpulse(j, p) => return Some(b.apply_impulse(j, p)),
            Setter::LinearDamping(d) => return Some(b.set_linear_damping(d)),
            Setter::AngularDamping(d) => return Some(b.set_angular_damping(d)),
        }
        None
    }

    /// Whether the setter is an ordinary edit a user makes between steps
    /// (not a split velocity, which only the step itself sets).
    pub fn is_ordinary(&self) -> bool {
        !matches!(
            self,
            Setter::SplitLinearVelocity(_) | Setter::SplitAngularVelocity(_)
        )
    }
}

/// A body of `shape`: dynamic with a mass (ordinary, or any `f32`),
/// kinematic or static, at an ordinary or hostile pose and velocity, with
/// a material. `Err` is the constructor's refusal of the mass.
pub fn any_body_of(
    u: &mut Unstructured<'_>,
    shape: Shape,
    kind: BodyKind,
    scale: f32,
) -> Result<std::result::Result<RigidBody, BodyError>> {
    let body = match kind {
        BodyKind::Dynamic => {
            let mass = if u.ratio(7u8, 8u8)? {
                sane_length(u, 0.1, 10.0)?
            } else {
                any_f32(u)?
            };
            match RigidBody::new_dynamic(shape, mass) {
                Ok(b) => b,
                Err(e) => return Ok(Err(e)),
            }
        }
        BodyKind::Kinematic => RigidBody::new_kinematic(shape),
        _ => RigidBody::new_static(shape),
    };
    let ordinary = u.ratio(3u8, 4u8)?;
    let (position, velocity, spin) = if ordinary {
        (
            ordinary_vec(u, scale)?,
            ordinary_vec(u, 10.0)?,
            ordinary_vec(u, 3.0)?,
        )
    } else {
        (any_vec(u, scale)?, any_vec(u, 10.0)?, any_vec(u, 3.0)?)
    };
    Ok(Ok(body
        .with_position(position)
        .with_rotation(any_quat(u)?)
        .with_linear_velocity(velocity)
        .with_angular_velocity(spin)
        .with_material(any_material(u)?)))
}

/// A collision-detection mode (each of the two, or a code that
/// `TryFrom<u8>` refuses, which then leaves the mode as it was).
pub fn any_mode(
    u: &mut Unstructured<'_>,
    current: CollisionDetection,
) -> Result<CollisionDetection> {
    Ok(match u.int_in_range(0u8..=4)? {
        0..=1 => DISCRETE,
        2..=3 => SPHERE_MESH_CCD,
        _ => CollisionDetection::try_from(u.arbitrary::<u8>()?).unwrap_or(current),
    })
}

/// World configuration: gravity, mode and limits, ordinary or at and past
/// their documented edges.
pub fn configure(u: &mut Unstructured<'_>, w: &mut PhysicsWorld) -> Result<()> {
    w.collision_detection = any_mode(u, w.collision_detection)?;
    if u.ratio(1u8, 6u8)? {
        w.gravity = any_vec(u, 20.0)?;
    }
    if u.ratio(1u8, 6u8)? {
        w.ccd_max_impacts = *u.choose(&[0u32, 1, 2, 16, 1024, 1025, u32::MAX])?;
    }
    if u.ratio(1u8, 6u8)? {
        w.ccd_max_substeps = *u.choose(&[0u32, 1, 2, 256, 65536, 65537, u32::MAX])?;
    }
    Ok(())
}

/// A world of up to `max_bodies` arbitrary bodies: static meshes, solids
/// of any kind, at most a few with hostile values; bodies that `add_body`
/// refuses are left out (the refusal itself is checked by the run).
pub fn any_world(u: &mut Unstructured<'_>, max_bodies: usize) -> Result<PhysicsWorld> {
    let mut w = PhysicsWorld::new();
    configure(u, &mut w)?;
    for _ in 0..u.int_in_range(0..=max_bodies)? {
        let (shape, kind) = match u.int_in_range(0u8..=9)? {
            0..=1 => match any_mesh_data(u)? {
                (v, t) if u.arbitrary()? => (Shape::mesh(v, t), BodyKind::Static),
                (v, t) => (Shape::mesh_with_active_edges(v, t), BodyKind::Static),
            },
            2 => (any_shape(u)?, any_kind(u)?),
            3 => (Ok(solid_shape(u)?), BodyKind::Kinematic),
            _ => (Ok(solid_shape(u)?), BodyKind::Dynamic),
        };
        let Ok(shape) = shape else { continue };
        let Ok(mut body) = any_body_of(u, shape, kind, 3.0)? else {
            continue;
        };
        for _ in 0..u.int_in_range(0u8..=2)? {
            let _ = Setter::arbitrary(u)?.apply(&mut body);
        }
        let _ = w.add_body(body);
    }
    Ok(w)
}

/// The six vertices of the octahedron of radius `r` about the origin: the
/// core of the random hulls (a hull of it and a few more points has its
/// inradius at least `r / sqrt(3)`).
pub fn octahedron(r: f32) -> Vec<Vec3> {
    vec![
        Vec3::new(r, 0.0, 0.0),
        Vec3::new(-r, 0.0, 0.0),
        Vec3::new(0.0, r, 0.0),
        Vec3::new(0.0, -r, 0.0),
        Vec3::new(0.0, 0.0, r),
        Vec3::new(0.0, 0.0, -r),
    ]
}
