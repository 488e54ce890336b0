//! `Shape`, `Material`, `MassProperties` and `CollisionGroups`: immutable
//! Python values around the Rust ones. A shape or material is checked when
//! it is made (a `ShapeError` or `MaterialError` then); a body stores a copy.

use numpy::ndarray::Array2;
use numpy::{IntoPyArray, PyArray2};
use pyo3::prelude::*;

use parapet::body::CollisionGroups;
use parapet::shape::{MassProperties, Material, Shape};

use crate::convert::{self, Rows3, Tuple3};
use crate::errors;

/// A collision shape, centred on the body origin unless the body's shape
/// offset moves it: a sphere, a capsule along local +Z, a box, a convex hull
/// (solids), or a one-sided triangle mesh (static bodies only; a triangle's
/// front is the side its counter-clockwise normal `(b - a) x (c - a)` points
/// to). Immutable.
#[pyclass(name = "Shape", module = "parapet", frozen, from_py_object)]
#[derive(Clone)]
pub(crate) struct PyShape(pub(crate) Shape);

#[pymethods]
impl PyShape {
    /// A sphere of radius `radius` (m). Raises ShapeError unless the radius
    /// is finite and positive.
    #[staticmethod]
    fn sphere(radius: f32) -> PyResult<Self> {
        Shape::sphere(radius)
            .map(Self)
            .map_err(|e| errors::shape_error(&e))
    }

    /// A capsule of radius `radius` (m) around the local Z segment of half
    /// length `half_height` (m, the caps excluded). Raises ShapeError unless
    /// both are finite and positive.
    #[staticmethod]
    fn capsule(radius: f32, half_height: f32) -> PyResult<Self> {
        Shape::capsule(radius, half_height)
            .map(Self)
            .map_err(|e| errors::shape_error(&e))
    }

    /// A box with half extents `(x, y, z)` (m). Raises ShapeError naming the
    /// first component that is not finite and positive.
    #[staticmethod]
    fn cuboid(half_extents: &Bound<'_, PyAny>) -> PyResult<Self> {
        let h = convert::vec3(half_extents, "half_extents")?;
        Shape::cuboid(h)
            .map(Self)
            .map_err(|e| errors::shape_error(&e))
    }

    /// The convex hull of `points` (m): a sequence of `(x, y, z)` or a NumPy
    /// `(n, 3)` array. Raises ShapeError for a non-finite point or fewer than
    /// four non-coplanar points.
    #[staticmethod]
    fn convex_hull(points: &Bound<'_, PyAny>) -> PyResult<Self> {
        let p = convert::points(points, "points")?;
        Shape::convex_hull(&p)
            .map(Self)
            .map_err(|e| errors::shape_error(&e))
    }

    /// A one-sided triangle mesh of `vertices` (m; `(x, y, z)` each, or a
    /// NumPy `(n, 3)` array) and `triangles` (three vertex indices each,
    /// counter-clockwise seen from the front). Raises ShapeError for an
    /// index out of range, a degenerate or too thin triangle, or a coordinate
    /// beyond the precision domain.
    #[staticmethod]
    fn mesh(vertices: &Bound<'_, PyAny>, triangles: &Bound<'_, PyAny>) -> PyResult<Self> {
        let v = convert::points(vertices, "vertices")?;
        let t = convert::triangles(triangles)?;
        Shape::mesh(v, t)
            .map(Self)
            .map_err(|e| errors::shape_error(&e))
    }

    /// A mesh as `Shape.mesh` whose seams slide: contacts touching only
    /// inactive edges (flat or gentle seams of the tessellation) take the
    /// face normal, so bodies slide over a tessellated road or terrain
    /// without ghost contacts.
    #[staticmethod]
    fn mesh_with_active_edges(
        vertices: &Bound<'_, PyAny>,
        triangles: &Bound<'_, PyAny>,
    ) -> PyResult<Self> {
        let v = convert::points(vertices, "vertices")?;
        let t = convert::triangles(triangles)?;
        Shape::mesh_with_active_edges(v, t)
            .map(Self)
            .map_err(|e| errors::shape_error(&e))
    }

    /// The shape's kind: "sphere", "capsule", "cuboid", "convex hull" or
    /// "triangle mesh".
    #[getter]
    fn kind(&self) -> &'static str {
        self.0.kind_name()
    }

    /// Whether the shape is a solid (every shape but a mesh).
    #[getter]
    fn is_solid(&self) -> bool {
        self.0.is_solid()
    }

    /// The radius (m) of a sphere or capsule, None for other shapes.
    #[getter]
    fn radius(&self) -> Option<f32> {
        match &self.0 {
            Shape::Sphere(s) => Some(s.radius()),
            Shape::Capsule(c) => Some(c.radius()),
            _ => None,
        }
    }

    /// The half height (m) of a capsule's segment, None for other shapes.
    #[getter]
    fn half_height(&self) -> Option<f32> {
        match &self.0 {
            Shape::Capsule(c) => Some(c.half_height()),
            _ => None,
        }
    }

    /// The half extents (m) of a box, None for other shapes.
    #[getter]
    fn half_extents(&self) -> Option<Tuple3> {
        match &self.0 {
            Shape::Cuboid(c) => Some(convert::tuple3(c.half_extents())),
            _ => None,
        }
    }

    /// The vertices (m, local frame) of a hull or mesh as a NumPy `(n, 3)`
    /// float32 array, None for other shapes.
    #[getter]
    fn vertices<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyArray2<f32>>> {
        let v = match &self.0 {
            Shape::ConvexHull(h) => h.vertices(),
            Shape::Mesh(m) => m.vertices(),
            _ => return None,
        };
        let flat: Vec<f32> = v.iter().flat_map(|p| [p.x, p.y, p.z]).collect();
        Array2::from_shape_vec((v.len(), 3), flat)
            .ok()
            .map(|a| a.into_pyarray(py))
    }

    /// The triangles of a mesh as a NumPy `(n, 3)` uint32 array of vertex
    /// indices, None for other shapes.
    #[getter]
    fn triangles<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyArray2<u32>>> {
        let Shape::Mesh(m) = &self.0 else {
            return None;
        };
        let flat: Vec<u32> = m.indices().iter().flatten().copied().collect();
        Array2::from_shape_vec((m.indices().len(), 3), flat)
            .ok()
            .map(|a| a.into_pyarray(py))
    }

    /// The mass properties of the shape as a solid of uniform density and
    /// mass `mass` (kg). Raises ShapeError for a mesh, a non-finite or
    /// non-positive mass, or properties `f32` cannot hold.
    fn mass_properties(&self, mass: f32) -> PyResult<PyMassProperties> {
        self.0
            .mass_properties(mass)
            .map(PyMassProperties)
            .map_err(|e| errors::shape_error(&e))
    }

    /// The shape's bounds in its local frame (m): `(min, max)`.
    fn local_aabb(&self) -> (Tuple3, Tuple3) {
        let b = self.0.local_aabb();
        (convert::tuple3(b.min), convert::tuple3(b.max))
    }

    /// An upper bound (m) of the distance from the local origin to any point
    /// of the shape.
    fn bounding_radius(&self) -> f64 {
        self.0.bounding_radius()
    }

    fn __eq__(&self, other: &Self) -> bool {
        self.0 == other.0
    }

    fn __repr__(&self) -> String {
        match &self.0 {
            Shape::Sphere(s) => format!("Shape.sphere({})", s.radius()),
            Shape::Capsule(c) => format!("Shape.capsule({}, {})", c.radius(), c.half_height()),
            Shape::Cuboid(c) => {
                let h = c.half_extents();
                format!("Shape.cuboid(({}, {}, {}))", h.x, h.y, h.z)
            }
            Shape::ConvexHull(h) => format!("<Shape hull of {} vertices>", h.vertices().len()),
            Shape::Mesh(m) => format!(
                "<Shape mesh of {} vertices, {} triangles>",
                m.vertices().len(),
                m.indices().len()
            ),
            other => format!("<Shape {}>", other.kind_name()),
        }
    }
}

/// The mass properties of a solid: mass (kg), mass centre (m, local frame)
/// and inertia tensor about the centre (kg m², local frame, three rows).
#[pyclass(name = "MassProperties", module = "parapet", frozen)]
pub(crate) struct PyMassProperties(pub(crate) MassProperties);

#[pymethods]
impl PyMassProperties {
    /// Mass (kg).
    #[getter]
    fn mass(&self) -> f32 {
        self.0.mass
    }

    /// Mass centre (m), local frame.
    #[getter]
    fn center(&self) -> Tuple3 {
        convert::tuple3(self.0.center)
    }

    /// Inertia tensor about the centre (kg m²), local frame, three rows.
    #[getter]
    fn inertia(&self) -> Rows3 {
        convert::rows3(self.0.inertia)
    }

    fn __repr__(&self) -> String {
        let c = self.0.center;
        format!(
            "MassProperties(mass={}, center=({}, {}, {}))",
            self.0.mass, c.x, c.y, c.z
        )
    }
}

/// A surface material: friction (>= 0), restitution (in [0, 1]) and bounce
/// threshold (m/s: a closing speed below which restitution is not applied).
/// Two materials in contact mix as Box2D does: friction sqrt(f1 f2),
/// restitution and bounce threshold the larger. Immutable; raises
/// MaterialError naming the first coefficient out of range.
#[pyclass(name = "Material", module = "parapet", frozen, from_py_object)]
#[derive(Clone, Copy)]
pub(crate) struct PyMaterial(pub(crate) Material);

#[pymethods]
impl PyMaterial {
    /// A material; the defaults are friction 0.5, restitution 0.0 (plastic)
    /// and bounce threshold 0.5 m/s.
    #[new]
    #[pyo3(signature = (friction = 0.5, restitution = 0.0, bounce_threshold = 0.5))]
    fn new(friction: f32, restitution: f32, bounce_threshold: f32) -> PyResult<Self> {
        Material::new(friction, restitution, bounce_threshold)
            .map(Self)
            .map_err(|e| errors::material_error(&e))
    }

    /// Coulomb friction coefficient.
    #[getter]
    fn friction(&self) -> f32 {
        self.0.friction
    }

    /// Restitution coefficient.
    #[getter]
    fn restitution(&self) -> f32 {
        self.0.restitution
    }

    /// Closing speed (m/s) below which restitution is not applied.
    #[getter]
    fn bounce_threshold(&self) -> f32 {
        self.0.bounce_threshold
    }

    /// The material of a contact between this one and `other`.
    fn mix(&self, other: &Self) -> Self {
        Self(self.0.mix(&other.0))
    }

    fn __eq__(&self, other: &Self) -> bool {
        self.0 == other.0
    }

    fn __repr__(&self) -> String {
        format!(
            "Material(friction={}, restitution={}, bounce_threshold={})",
            self.0.friction, self.0.restitution, self.0.bounce_threshold
        )
    }
}

/// Which bodies a body may touch: `memberships` (the groups it belongs to)
/// and `filter` (the groups it interacts with), one bit per group; two
/// bodies interact when each one's memberships meet the other's filter.
/// Also filters ray casts.
#[pyclass(
    name = "CollisionGroups",
    module = "parapet",
    frozen,
    eq,
    hash,
    from_py_object
)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct PyCollisionGroups(pub(crate) CollisionGroups);

#[pymethods]
impl PyCollisionGroups {
    /// Groups from two 32-bit masks.
    #[new]
    fn new(memberships: u32, filter: u32) -> Self {
        Self(CollisionGroups::new(memberships, filter))
    }

    /// Member of every group, interacting with every group (the default).
    #[classattr]
    #[pyo3(name = "ALL")]
    fn all() -> Self {
        Self(CollisionGroups::ALL)
    }

    /// Member of no group, interacting with none.
    #[classattr]
    #[pyo3(name = "NONE")]
    fn none() -> Self {
        Self(CollisionGroups::NONE)
    }

    /// The groups the body belongs to.
    #[getter]
    fn memberships(&self) -> u32 {
        self.0.memberships
    }

    /// The groups the body interacts with.
    #[getter]
    fn filter(&self) -> u32 {
        self.0.filter
    }

    /// Whether bodies with these groups and `other` interact.
    fn interacts_with(&self, other: &Self) -> bool {
        self.0.interacts_with(other.0)
    }

    fn __repr__(&self) -> String {
        format!(
            "CollisionGroups(memberships={:#x}, filter={:#x})",
            self.0.memberships, self.0.filter
        )
    }
}
