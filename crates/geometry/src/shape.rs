//! [`Shape`]: the collision shapes of a body (docs/physics.md, "Frames and
//! units", says where each is centred), their
//! checked constructors, local bounds and solid mass properties.
//!
//! Shapes are centred on the body origin: sphere centre, capsule segment
//! midpoint, cuboid centre; hull points and mesh vertices are taken as given.

use crate::aabb::Aabb;
use crate::aabb::Aabbd;
use crate::convex_hull::ConvexHull;
use crate::error::ShapeError;
use crate::mass_properties::{
    capsule_mass_properties, check_mass, demote_center, demote_inertia, sphere_mass_properties,
    MassProperties,
};
use crate::mesh::TriangleMesh;
use crate::polyhedron_mass::{inertia_from_moments, polyhedron_moments};
use parapet_math::rounding::{add_up, sqrt_up, sum_up};
use parapet_math::{nalgebra, promote_quat, Quat, Vec3, Vec3d};

/// Relative widening (dimensionless, 2^-40) that [`Shape::world_aabb`] adds
/// for the `f64` rounding of rotating a point: the quaternion-to-matrix
/// conversion and the product round about 20 times with error 2^-53 relative
/// to `|v|`, so 2^-40 covers them more than 400 times over while staying far
/// below `f32` resolution (2^-24).
pub const WORLD_BOUNDS_RELATIVE_MARGIN: f64 = 1.0 / 1_099_511_627_776.0;

fn check_size(quantity: &'static str, value: f32) -> Result<(), ShapeError> {
    if value.is_finite() && value > 0.0 {
        Ok(())
    } else {
        Err(ShapeError::InvalidSize { quantity, value })
    }
}

/// A solid ball centred on the origin.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sphere {
    radius: f32,
}

impl Sphere {
    /// Radius (m), finite and positive.
    pub fn radius(&self) -> f32 {
        self.radius
    }
}

/// A solid capsule: the points within `radius` of the segment from
/// `(0, 0, -half_height)` to `(0, 0, half_height)` (local +Z axis).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Capsule {
    radius: f32,
    half_height: f32,
}

impl Capsule {
    /// Radius (m) of the cylinder and of the two hemispherical caps.
    pub fn radius(&self) -> f32 {
        self.radius
    }

    /// Half the length of the axis segment (m), excluding the caps.
    pub fn half_height(&self) -> f32 {
        self.half_height
    }

    /// The segment end points `(0, 0, -h)` and `(0, 0, h)` (m, local frame).
    pub fn segment(&self) -> [Vec3; 2] {
        [
            Vec3::new(0.0, 0.0, -self.half_height),
            Vec3::new(0.0, 0.0, self.half_height),
        ]
    }
}

/// A solid box centred on the origin with axis-aligned faces.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Cuboid {
    half_extents: Vec3,
}

impl Cuboid {
    /// Half extents along local x, y, z (m), each finite and positive.
    pub fn half_extents(&self) -> Vec3 {
        self.half_extents
    }

    /// The eight corners (m), index bits (x, y, z) = (1, 2, 4) set for the
    /// positive side.
    pub fn corners(&self) -> [Vec3; 8] {
        let h = self.half_extents;
        std::array::from_fn(|i| {
            Vec3::new(
                if i & 1 != 0 { h.x } else { -h.x },
                if i & 2 != 0 { h.y } else { -h.y },
                if i & 4 != 0 { h.z } else { -h.z },
            )
        })
    }

    /// The twelve outward triangles over [`Cuboid::corners`] (two per face).
    pub fn triangles(&self) -> [[u32; 3]; 12] {
        [
            [0, 2, 3],
            [0, 3, 1], // -z
            [4, 5, 7],
            [4, 7, 6], // +z
            [0, 1, 5],
            [0, 5, 4], // -y
            [2, 6, 7],
            [2, 7, 3], // +y
            [0, 4, 6],
            [0, 6, 2], // -x
            [1, 3, 7],
            [1, 7, 5], // +x
        ]
    }
}

/// A collision shape, in the body's local frame (m).
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(try_from = "ShapeDescription", into = "ShapeDescription")
)]
#[non_exhaustive]
pub enum Shape {
    /// A solid ball ([`Shape::sphere`]).
    Sphere(Sphere),
    /// A solid capsule along local +Z ([`Shape::capsule`]).
    Capsule(Capsule),
    /// A solid box ([`Shape::cuboid`]).
    Cuboid(Cuboid),
    /// A convex polyhedron ([`Shape::convex_hull`]).
    ConvexHull(ConvexHull),
    /// A one-sided triangle mesh, not a solid ([`Shape::mesh`]).
    Mesh(TriangleMesh),
}

impl Shape {
    /// A sphere of radius `radius` (m).
    ///
    /// # Errors
    /// [`ShapeError::InvalidSize`] unless the radius is finite and positive.
    pub fn sphere(radius: f32) -> Result<Shape, ShapeError> {
        check_size("sphere radius", radius)?;
        Ok(Shape::Sphere(Sphere { radius }))
    }

    /// A capsule of radius `radius` (m) around the local Z segment of half
    /// length `half_height` (m, the caps excluded).
    ///
    /// # Errors
    /// [`ShapeError::InvalidSize`] unless both are finite and positive and
    /// so is their sum rounded up to `f32` (the capsule's reach along its
    /// axis, which its bounds store).
    pub fn capsule(radius: f32, half_height: f32) -> Result<Shape, ShapeError> {
        check_size("capsule radius", radius)?;
        check_size("capsule half height", half_height)?;
        let reach =
            parapet_math::rounding::f32_up(add_up(f64::from(radius), f64::from(half_height)));
        check_size("capsule radius + half height", reach)?;
        Ok(Shape::Capsule(Capsule {
            radius,
            half_height,
        }))
    }

    /// A box with half extents `half_extents` (m).
    ///
    /// # Errors
    /// [`ShapeError::InvalidSize`] naming the first component that is not
    /// finite and positive.
    pub fn cuboid(half_extents: Vec3) -> Result<Shape, ShapeError> {
        check_size("cuboid half extent x", half_extents.x)?;
        check_size("cuboid half extent y", half_extents.y)?;
        check_size("cuboid half extent z", half_extents.z)?;
        Ok(Shape::Cuboid(Cuboid { half_extents }))
    }

    /// The convex hull of `points` (m).
    ///
    /// # Errors
    /// [`ShapeError::NotFinitePoint`], or [`ShapeError::DegenerateHull`] for
    /// fewer than four non-coplanar points.
    pub fn convex_hull(points: &[Vec3]) -> Result<Shape, ShapeError> {
        Ok(Shape::ConvexHull(ConvexHull::new(points)?))
    }

    /// A one-sided triangle mesh: a triangle's front is the side its
    /// counter-clockwise normal `(b - a) x (c - a)` points to.
    ///
    /// # Errors
    /// See [`TriangleMesh::new`].
    pub fn mesh(vertices: Vec<Vec3>, triangles: Vec<[u32; 3]>) -> Result<Shape, ShapeError> {
        Ok(Shape::Mesh(TriangleMesh::new(vertices, triangles)?))
    }

    /// A one-sided triangle mesh whose seams slide: contacts touching only
    /// inactive edges (flat or gentle seams of the tessellation) take the
    /// face normal. See [`TriangleMesh::with_active_edges`].
    ///
    /// # Errors
    /// See [`TriangleMesh::new`].
    pub fn mesh_with_active_edges(
        vertices: Vec<Vec3>,
        triangles: Vec<[u32; 3]>,
    ) -> Result<Shape, ShapeError> {
        Ok(Shape::Mesh(TriangleMesh::with_active_edges(
            vertices, triangles,
        )?))
    }

    /// The shape kind in words ("sphere", "capsule", "cuboid", "convex hull",
    /// "triangle mesh"), for messages.
    pub fn kind_name(&self) -> &'static str {
        match self {
            Shape::Sphere(_) => "sphere",
            Shape::Capsule(_) => "capsule",
            Shape::Cuboid(_) => "cuboid",
            Shape::ConvexHull(_) => "convex hull",
            Shape::Mesh(_) => "triangle mesh",
        }
    }

    /// Whether the shape encloses a volume (everything but a mesh).
    pub fn is_solid(&self) -> bool {
        !matches!(self, Shape::Mesh(_))
    }

    /// Mass properties of the solid with uniform density and total mass
    /// `mass` (kg): center and inertia about it, in the local frame.
    ///
    /// Spheres and capsules use closed forms; cuboids and hulls two `f64`
    /// integration passes (`polyhedron_mass.rs`). Nothing is stored, so
    /// a refusal changes nothing.
    ///
    /// # Errors
    /// [`ShapeError::InvalidMass`] for a non-finite or non-positive mass;
    /// [`ShapeError::NotASolid`] for a mesh; [`ShapeError::ZeroVolume`],
    /// [`ShapeError::NotRepresentable`] (overflow of `f32`) or
    /// [`ShapeError::NotPositiveDefinite`] (underflow to a singular tensor or
    /// lost definiteness, decided exactly).
    pub fn mass_properties(&self, mass: f32) -> Result<MassProperties, ShapeError> {
        check_mass(mass)?;
        match self {
            Shape::Sphere(s) => sphere_mass_properties(s.radius, mass),
            Shape::Capsule(c) => capsule_mass_properties(c.radius, c.half_height, mass),
            Shape::Cuboid(c) => {
                let vertices: Vec<Vec3d> = c.corners().iter().map(|v| v.cast()).collect();
                let triangles: Vec<[usize; 3]> = c
                    .triangles()
                    .iter()
                    .map(|t| t.map(|i| i as usize))
                    .collect();
                polyhedron_mass_properties("cuboid", &vertices, &triangles, mass)
            }
            Shape::ConvexHull(h) => {
                let vertices: Vec<Vec3d> = h.vertices().iter().map(|v| v.cast()).collect();
                let triangles: Vec<[usize; 3]> =
                    h.triangles().map(|t| t.map(|i| i as usize)).collect();
                polyhedron_mass_properties("convex hull", &vertices, &triangles, mass)
            }
            Shape::Mesh(_) => Err(ShapeError::NotASolid {
                shape: "triangle mesh",
            }),
        }
    }

    /// The shape's bounds in its local frame (m). Exact for every shape:
    /// sizes and vertices are `f32`, and sphere/capsule extents are sums
    /// rounded up to `f32`.
    pub fn local_aabb(&self) -> Aabb {
        match self {
            Shape::Sphere(s) => Aabb::new(Vec3::repeat(-s.radius), Vec3::repeat(s.radius)),
            Shape::Capsule(c) => {
                let r = Vec3::new(c.radius, c.radius, c.radius);
                let z = parapet_math::rounding::f32_up(add_up(
                    f64::from(c.radius),
                    f64::from(c.half_height),
                ));
                Aabb::new(Vec3::new(-r.x, -r.y, -z), Vec3::new(r.x, r.y, z))
            }
            Shape::Cuboid(c) => Aabb::new(-c.half_extents, c.half_extents),
            Shape::ConvexHull(h) => Aabb::from_points(h.vertices()),
            Shape::Mesh(m) => Aabb::from_points(m.vertices()),
        }
    }

    /// A conservative `f64` box (m) around the shape placed at `position`
    /// with orientation `rotation` (body to world; renormalized in `f64`).
    ///
    /// Vertices (hull, mesh, cuboid corners, capsule segment ends, sphere
    /// center) are rotated in `f64`; the box is widened by
    /// [`WORLD_BOUNDS_RELATIVE_MARGIN`] times `|position| + bounding radius`
    /// for that rounding, and by the radius (sphere, capsule) rounded outward.
    /// Returns an empty box when the pose is not finite.
    pub fn world_aabb(&self, position: &Vec3, rotation: &Quat) -> Aabbd {
        let q4 = promote_quat(*rotation).into_inner();
        let p: Vec3d = position.cast();
        if q4.coords.iter().chain(p.iter()).any(|x| !x.is_finite()) || q4.norm() == 0.0 {
            return Aabbd::empty();
        }
        let q = nalgebra::UnitQuaternion::new_normalize(q4);
        let place = |v: &Vec3| q * v.cast::<f64>() + p;
        let (core, radius) = match self {
            Shape::Sphere(s) => (Aabbd::new(p, p), f64::from(s.radius)),
            Shape::Capsule(c) => {
                let [a, b] = c.segment();
                (
                    Aabbd::from_points(&[place(&a), place(&b)]),
                    f64::from(c.radius),
                )
            }
            Shape::Cuboid(c) => (Aabbd::from_points(&c.corners().map(|v| place(&v))), 0.0),
            Shape::ConvexHull(h) => {
                let pts: Vec<Vec3d> = h.vertices().iter().map(place).collect();
                (Aabbd::from_points(&pts), 0.0)
            }
            Shape::Mesh(m) => {
                let pts: Vec<Vec3d> = m.vertices().iter().map(place).collect();
                (Aabbd::from_points(&pts), 0.0)
            }
        };
        let scale = add_up(p.abs().max(), self.bounding_radius());
        let margin = add_up(radius, scale * WORLD_BOUNDS_RELATIVE_MARGIN);
        core.grown(margin)
    }

    /// An upper bound (m, rounded up in `f64`) of the distance from the local
    /// origin to any point of the shape: the radius of a ball about the body
    /// origin that contains it.
    pub fn bounding_radius(&self) -> f64 {
        let farthest = |points: &[Vec3]| {
            points
                .iter()
                .map(|p| sqrt_up(sum_up(p.iter().map(|x| f64::from(*x) * f64::from(*x)))))
                .fold(0.0, f64::max)
        };
        match self {
            Shape::Sphere(s) => f64::from(s.radius),
            Shape::Capsule(c) => add_up(f64::from(c.radius), f64::from(c.half_height)),
            Shape::Cuboid(c) => farthest(&[c.half_extents]),
            Shape::ConvexHull(h) => farthest(h.vertices()),
            Shape::Mesh(m) => farthest(m.vertices()),
        }
    }
}

/// Integrates a closed polyhedron and rounds the result to checked `f32`.
fn polyhedron_mass_properties(
    shape: &'static str,
    vertices: &[Vec3d],
    triangles: &[[usize; 3]],
    mass: f32,
) -> Result<MassProperties, ShapeError> {
    let moments = polyhedron_moments(vertices, triangles).ok_or_else(|| {
        let volume: f64 = triangles
            .iter()
            .map(|t| vertices[t[0]].dot(&vertices[t[1]].cross(&vertices[t[2]])) / 6.0)
            .sum();
        ShapeError::ZeroVolume { shape, volume }
    })?;
    let inertia = inertia_from_moments(&moments, f64::from(mass));
    Ok(MassProperties {
        mass,
        center: demote_center(&moments.center)?,
        inertia: demote_inertia(&inertia)?,
    })
}

/// The serialized form of a [`Shape`]: its constructor arguments. Shapes are
/// rebuilt (and re-checked) through the constructors when deserialized.
/// `#[non_exhaustive]`: it grows with the shapes.
#[cfg(feature = "serde")]
#[derive(serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
#[non_exhaustive]
pub enum ShapeDescription {
    /// [`Shape::sphere`].
    Sphere {
        /// Radius (m).
        radius: f32,
    },
    /// [`Shape::capsule`].
    Capsule {
        /// Radius (m).
        radius: f32,
        /// Half height (m).
        half_height: f32,
    },
    /// [`Shape::cuboid`].
    Cuboid {
        /// Half extents (m).
        half_extents: [f32; 3],
    },
    /// [`Shape::convex_hull`] (the hull's own vertices).
    ConvexHull {
        /// Points (m).
        points: Vec<[f32; 3]>,
    },
    /// [`Shape::mesh`] or [`Shape::mesh_with_active_edges`].
    Mesh {
        /// Vertices (m).
        vertices: Vec<[f32; 3]>,
        /// Index triples.
        triangles: Vec<[u32; 3]>,
        /// Whether the mesh finds its seams
        /// ([`Shape::mesh_with_active_edges`]); absent reads as `false`.
        #[serde(default)]
        active_edges: bool,
    },
}

#[cfg(feature = "serde")]
impl TryFrom<ShapeDescription> for Shape {
    type Error = ShapeError;
    fn try_from(d: ShapeDescription) -> Result<Self, ShapeError> {
        let v = |p: [f32; 3]| Vec3::new(p[0], p[1], p[2]);
        match d {
            ShapeDescription::Sphere { radius } => Shape::sphere(radius),
            ShapeDescription::Capsule {
                radius,
                half_height,
            } => Shape::capsule(radius, half_height),
            ShapeDescription::Cuboid { half_extents } => Shape::cuboid(v(half_extents)),
            ShapeDescription::ConvexHull { points } => {
                Shape::convex_hull(&points.into_iter().map(v).collect::<Vec<_>>())
            }
            ShapeDescription::Mesh {
                vertices,
                triangles,
                active_edges,
            } => {
                let vertices = vertices.into_iter().map(v).collect();
                if active_edges {
                    Shape::mesh_with_active_edges(vertices, triangles)
                } else {
                    Shape::mesh(vertices, triangles)
                }
            }
        }
    }
}

#[cfg(feature = "serde")]
impl From<Shape> for ShapeDescription {
    fn from(s: Shape) -> Self {
        let a = |p: &Vec3| [p.x, p.y, p.z];
        match s {
            Shape::Sphere(s) => ShapeDescription::Sphere { radius: s.radius },
            Shape::Capsule(c) => ShapeDescription::Capsule {
                radius: c.radius,
                half_height: c.half_height,
            },
            Shape::Cuboid(c) => ShapeDescription::Cuboid {
                half_extents: a(&c.half_extents),
            },
            Shape::ConvexHull(h) => ShapeDescription::ConvexHull {
                points: h.vertices().iter().map(a).collect(),
            },
            Shape::Mesh(m) => ShapeDescription::Mesh {
                vertices: m.vertices().iter().map(a).collect(),
                triangles: m.indices().to_vec(),
                active_edges: m.active_edges().is_some(),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_unit_cube_of_one_kilogram_has_inertia_one_sixth() {
        // Side 1 m: I = m (1 + 1) / 12 = 1/6 kg m^2; the f64 integration is
        // exact to a few ulps, then rounded once to f32 (half an ulp).
        let mp = Shape::cuboid(Vec3::repeat(0.5))
            .unwrap()
            .mass_properties(1.0)
            .unwrap();
        assert_eq!(mp.center, Vec3::zeros());
        let expected = (1.0f64 / 6.0) as f32;
        for i in 0..3 {
            assert_eq!(mp.inertia[(i, i)], expected);
            for j in 0..3 {
                if i != j {
                    assert!(mp.inertia[(i, j)].abs() < 1e-7);
                }
            }
        }
    }

    #[test]
    fn sizes_are_checked_and_named() {
        assert_eq!(
            Shape::sphere(-1.0),
            Err(ShapeError::InvalidSize {
                quantity: "sphere radius",
                value: -1.0
            })
        );
        assert!(matches!(
            Shape::cuboid(Vec3::new(1.0, f32::NAN, 1.0)),
            Err(ShapeError::InvalidSize {
                quantity: "cuboid half extent y",
                ..
            })
        ));
        assert!(matches!(
            Shape::capsule(1.0, 0.0),
            Err(ShapeError::InvalidSize {
                quantity: "capsule half height",
                ..
            })
        ));
    }

    #[test]
    fn world_bounds_contain_the_turned_shape() {
        // A capsule of radius 0.5 and half height 1 turned to lie along x,
        // at (10, 0, 0): it spans x in [8.5, 11.5], y and z in [-0.5, 0.5].
        let q = Quat::from_axis_angle(&Vec3::y_axis(), std::f32::consts::FRAC_PI_2);
        let b = Shape::capsule(0.5, 1.0)
            .unwrap()
            .world_aabb(&Vec3::new(10.0, 0.0, 0.0), &q);
        // The f32 quarter-turn quaternion is not exact: a few 1e-7 m of tilt.
        assert!(
            (b.min.x - 8.5).abs() < 1e-6 && (b.max.x - 11.5).abs() < 1e-6,
            "{b:?}"
        );
        assert!(b.min.z <= -0.5 && b.max.z >= 0.5 && b.max.z < 0.5 + 1e-6);
        assert!(Shape::sphere(1.0)
            .unwrap()
            .world_aabb(&Vec3::new(f32::NAN, 0.0, 0.0), &q)
            .is_empty());
    }

    #[cfg(feature = "serde")]
    #[test]
    fn serialized_descriptions_round_trip_and_are_rechecked() {
        let shapes = [
            Shape::sphere(0.5).unwrap(),
            Shape::capsule(0.2, 1.0).unwrap(),
            Shape::cuboid(Vec3::new(1.0, 2.0, 3.0)).unwrap(),
            Shape::convex_hull(
                &Cuboid {
                    half_extents: Vec3::repeat(1.0),
                }
                .corners(),
            )
            .unwrap(),
            Shape::mesh(vec![Vec3::zeros(), Vec3::x(), Vec3::y()], vec![[0, 1, 2]]).unwrap(),
        ];
        for shape in shapes {
            let back = Shape::try_from(ShapeDescription::from(shape.clone())).unwrap();
            assert_eq!(back, shape);
        }
        assert!(Shape::try_from(ShapeDescription::Sphere { radius: -1.0 }).is_err());
    }

    #[test]
    fn a_mesh_is_not_a_solid() {
        let mesh = Shape::mesh(vec![Vec3::zeros(), Vec3::x(), Vec3::y()], vec![[0, 1, 2]]).unwrap();
        assert!(matches!(
            mesh.mass_properties(1.0),
            Err(ShapeError::NotASolid { .. })
        ));
    }
}
