//! `RigidBody`: a body of its own (made by `new_dynamic`, `new_kinematic`,
//! `new_static`, or returned by `remove_body`) or a live view of a body in a
//! world. `PhysicsWorld.add_body(body)` moves the body into the world and
//! turns the Python object into a view of it, so that the object a script
//! made is the body that moves (as in pymunk); `world.body(id)` gives
//! another view. Reads and writes of a view go to the world's body; a view
//! whose body was removed raises `WorldError`.
//!
//! Properties follow the Rust reads and setters (`position`,
//! `linear_velocity`, ...); the Rust builders (`with_position`, ...) set the
//! value and return the same object, for chaining. Setters take any value,
//! as in Rust: a non-finite pose or velocity is refused by `validate()` and
//! therefore by the next step, as a `StepError`.

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;

use parapet::body::{BodyId, RigidBody};

use crate::convert::{self, Rows3, Tuple3, Tuple4};
use crate::errors;
use crate::ids::PyBodyId;
use crate::modes::{PyBodyKind, PyCcdMode};
use crate::shape::{PyCollisionGroups, PyMaterial, PyShape};
use crate::world::PyWorld;

/// Where a Python body's state lives.
pub(crate) enum Place {
    /// A body of its own, in no world.
    Own(Box<RigidBody>),
    /// The body `id` of `world`.
    InWorld {
        /// The world that holds the body.
        world: Py<PyWorld>,
        /// Its id there.
        id: BodyId,
    },
}

/// A rigid body: a shape placed in a body frame, a motion mode (dynamic,
/// kinematic or static), mass properties and motion state. `position` is the
/// body origin in world coordinates, `rotation` (w, x, y, z) turns body
/// coordinates into world coordinates; velocities are world-frame (the
/// angular one about the mass centre, rad/s). SI units.
#[pyclass(name = "RigidBody", module = "parapet")]
pub(crate) struct PyBody {
    pub(crate) place: Place,
}

/// The error of a view whose body left its world.
fn gone(id: BodyId) -> PyErr {
    errors::world_error(&parapet::world::WorldError::UnknownBody { body: id })
}

/// The error of a world borrowed by a step running in another thread.
fn busy() -> PyErr {
    PyRuntimeError::new_err("the body's world is in use (a step running in another thread)")
}

impl PyBody {
    /// A body of its own.
    pub(crate) fn own(body: RigidBody) -> Self {
        Self {
            place: Place::Own(Box::new(body)),
        }
    }

    /// A view of body `id` of `world`.
    pub(crate) fn view(world: Py<PyWorld>, id: BodyId) -> Self {
        Self {
            place: Place::InWorld { world, id },
        }
    }

    /// `f` of the body.
    pub(crate) fn read<R>(&self, py: Python<'_>, f: impl FnOnce(&RigidBody) -> R) -> PyResult<R> {
        match &self.place {
            Place::Own(body) => Ok(f(body)),
            Place::InWorld { world, id } => {
                let world = world.bind(py).try_borrow().map_err(|_| busy())?;
                world.inner.body(*id).map(f).ok_or_else(|| gone(*id))
            }
        }
    }

    /// `f` of the body, for editing.
    pub(crate) fn write<R>(
        &mut self,
        py: Python<'_>,
        f: impl FnOnce(&mut RigidBody) -> R,
    ) -> PyResult<R> {
        match &mut self.place {
            Place::Own(body) => Ok(f(body)),
            Place::InWorld { world, id } => {
                let mut world = world.bind(py).try_borrow_mut().map_err(|_| busy())?;
                world.inner.body_mut(*id).map(f).ok_or_else(|| gone(*id))
            }
        }
    }

    /// `f` of the body for editing, with its error as a `BodyError`.
    fn try_write(
        &mut self,
        py: Python<'_>,
        f: impl FnOnce(&mut RigidBody) -> Result<(), parapet::body::BodyError>,
    ) -> PyResult<()> {
        self.write(py, f)?.map_err(|e| errors::body_error(&e))
    }
}

#[pymethods]
impl PyBody {
    /// A dynamic body of uniform density and mass `mass` (kg): its mass
    /// centre is the shape's own and its inertia the shape's solid inertia.
    /// Raises BodyError for a mesh or a mass that is not finite and positive.
    #[staticmethod]
    fn new_dynamic(shape: PyShape, mass: f32) -> PyResult<Self> {
        RigidBody::new_dynamic(shape.0, mass)
            .map(Self::own)
            .map_err(|e| errors::body_error(&e))
    }

    /// A kinematic body: moved by its prescribed velocity, never by forces
    /// or contacts (a mesh must be static: validation refuses it).
    #[staticmethod]
    fn new_kinematic(shape: PyShape) -> Self {
        Self::own(RigidBody::new_kinematic(shape.0))
    }

    /// A static body: it never moves.
    #[staticmethod]
    fn new_static(shape: PyShape) -> Self {
        Self::own(RigidBody::new_static(shape.0))
    }

    /// A body of its own with this body's state (a template for another
    /// body; a view's copy is in no world).
    fn copy(&self, py: Python<'_>) -> PyResult<Self> {
        self.read(py, |b| Self::own(b.clone()))
    }

    /// The id of the body in its world, None for a body of its own.
    #[getter]
    fn id(&self) -> Option<PyBodyId> {
        match &self.place {
            Place::Own(_) => None,
            Place::InWorld { id, .. } => Some(PyBodyId(*id)),
        }
    }

    /// The world that holds the body, None for a body of its own.
    #[getter]
    fn world(&self, py: Python<'_>) -> Option<Py<PyWorld>> {
        match &self.place {
            Place::Own(_) => None,
            Place::InWorld { world, .. } => Some(world.clone_ref(py)),
        }
    }

    /// The body origin in world coordinates (m).
    #[getter]
    fn position(&self, py: Python<'_>) -> PyResult<Tuple3> {
        self.read(py, |b| convert::tuple3(b.position()))
    }

    #[setter]
    fn set_position(&mut self, py: Python<'_>, value: &Bound<'_, PyAny>) -> PyResult<()> {
        let v = convert::vec3(value, "position")?;
        self.write(py, |b| b.set_position(v))
    }

    /// The rotation from body to world coordinates, (w, x, y, z).
    #[getter]
    fn rotation(&self, py: Python<'_>) -> PyResult<Tuple4> {
        self.read(py, |b| convert::tuple4(b.rotation()))
    }

    #[setter]
    fn set_rotation(&mut self, py: Python<'_>, value: &Bound<'_, PyAny>) -> PyResult<()> {
        let q = convert::quat(value, "rotation")?;
        self.write(py, |b| b.set_rotation(q))
    }

    /// The world velocity of the mass centre (m/s).
    #[getter]
    fn linear_velocity(&self, py: Python<'_>) -> PyResult<Tuple3> {
        self.read(py, |b| convert::tuple3(b.linear_velocity()))
    }

    #[setter]
    fn set_linear_velocity(&mut self, py: Python<'_>, value: &Bound<'_, PyAny>) -> PyResult<()> {
        let v = convert::vec3(value, "linear_velocity")?;
        self.write(py, |b| b.set_linear_velocity(v))
    }

    /// The world angular velocity about the mass centre (rad/s).
    #[getter]
    fn angular_velocity(&self, py: Python<'_>) -> PyResult<Tuple3> {
        self.read(py, |b| convert::tuple3(b.angular_velocity()))
    }

    #[setter]
    fn set_angular_velocity(&mut self, py: Python<'_>, value: &Bound<'_, PyAny>) -> PyResult<()> {
        let v = convert::vec3(value, "angular_velocity")?;
        self.write(py, |b| b.set_angular_velocity(v))
    }

    /// The surface material.
    #[getter]
    fn material(&self, py: Python<'_>) -> PyResult<PyMaterial> {
        self.read(py, |b| PyMaterial(b.material()))
    }

    #[setter]
    fn set_material(&mut self, py: Python<'_>, value: PyMaterial) -> PyResult<()> {
        self.write(py, |b| b.set_material(value.0))
    }

    /// Whether the body takes part in contacts and ray casts.
    #[getter]
    fn collides(&self, py: Python<'_>) -> PyResult<bool> {
        self.read(py, |b| b.collides())
    }

    #[setter]
    fn set_collides(&mut self, py: Python<'_>, value: bool) -> PyResult<()> {
        self.write(py, |b| b.set_collides(value))
    }

    /// Whether the body is asleep (not integrated, costing nothing in a
    /// step, a fixed target for the continuous step); always False for
    /// kinematic and static bodies.
    #[getter]
    fn is_sleeping(&self, py: Python<'_>) -> PyResult<bool> {
        self.read(py, |b| b.is_sleeping())
    }

    /// Whether the body may fall asleep (default True); False also wakes it.
    #[getter]
    fn can_sleep(&self, py: Python<'_>) -> PyResult<bool> {
        self.read(py, |b| b.can_sleep())
    }

    #[setter]
    fn set_can_sleep(&mut self, py: Python<'_>, value: bool) -> PyResult<()> {
        self.write(py, |b| b.set_can_sleep(value))
    }

    /// The time (s) the body has been at rest below the world's thresholds.
    #[getter]
    fn sleep_timer(&self, py: Python<'_>) -> PyResult<f32> {
        self.read(py, |b| b.sleep_timer())
    }

    /// Wakes this body (its island wakes with it at the next step; use
    /// PhysicsWorld.wake to wake the island at once).
    fn wake(&mut self, py: Python<'_>) -> PyResult<()> {
        self.write(py, |b| b.wake())
    }

    /// The body's continuous-collision policy (default CcdMode.Inherit).
    #[getter]
    fn ccd(&self, py: Python<'_>) -> PyResult<PyCcdMode> {
        self.read(py, |b| PyCcdMode::from(b.ccd()))
    }

    #[setter]
    fn set_ccd(&mut self, py: Python<'_>, value: PyCcdMode) -> PyResult<()> {
        self.write(py, |b| b.set_ccd(value.into()))
    }

    /// Which bodies it may touch (default CollisionGroups.ALL).
    #[getter]
    fn collision_groups(&self, py: Python<'_>) -> PyResult<PyCollisionGroups> {
        self.read(py, |b| PyCollisionGroups(b.collision_groups()))
    }

    #[setter]
    fn set_collision_groups(&mut self, py: Python<'_>, value: PyCollisionGroups) -> PyResult<()> {
        self.write(py, |b| b.set_collision_groups(value.0))
    }

    /// Whether the body is a sensor: it reports crossings as contact events
    /// and applies no impulse; rays never hit it.
    #[getter]
    fn sensor(&self, py: Python<'_>) -> PyResult<bool> {
        self.read(py, |b| b.is_sensor())
    }

    #[setter]
    fn set_sensor(&mut self, py: Python<'_>, value: bool) -> PyResult<()> {
        self.write(py, |b| b.set_sensor(value))
    }

    /// The motion mode. Setting it keeps the dynamic mass for a later return
    /// to Dynamic; raises BodyError for Dynamic on a body made kinematic or
    /// static, or a mesh leaving Static.
    #[getter]
    fn kind(&self, py: Python<'_>) -> PyResult<PyBodyKind> {
        self.read(py, |b| PyBodyKind::from(b.kind()))
    }

    #[setter]
    fn set_kind(&mut self, py: Python<'_>, value: PyBodyKind) -> PyResult<()> {
        self.try_write(py, |b| b.set_kind(value.into()))
    }

    /// The effective mass (kg): the configured mass when dynamic, 0
    /// otherwise. Setting it (dynamic bodies) scales nothing else; raises
    /// BodyError for a mass that is not finite and positive.
    #[getter]
    fn mass(&self, py: Python<'_>) -> PyResult<f32> {
        self.read(py, |b| b.mass())
    }

    #[setter]
    fn set_mass(&mut self, py: Python<'_>, value: f32) -> PyResult<()> {
        self.try_write(py, |b| b.set_mass(value))
    }

    /// The effective inverse mass (1/kg).
    #[getter]
    fn inverse_mass(&self, py: Python<'_>) -> PyResult<f32> {
        self.read(py, |b| b.inverse_mass())
    }

    /// The effective inverse inertia tensor (1/(kg m²), local frame; zero
    /// when not dynamic).
    #[getter]
    fn inverse_inertia(&self, py: Python<'_>) -> PyResult<Rows3> {
        self.read(py, |b| convert::rows3(b.inverse_inertia()))
    }

    /// The effective inverse inertia tensor in world axes (1/(kg m²)).
    #[getter]
    fn world_inverse_inertia(&self, py: Python<'_>) -> PyResult<Rows3> {
        self.read(py, |b| convert::rows3(b.world_inverse_inertia()))
    }

    /// The configured dynamic mass (kg), kept through kinematic and static
    /// phases; None for a body made kinematic or static.
    #[getter]
    fn dynamic_mass(&self, py: Python<'_>) -> PyResult<Option<f32>> {
        self.read(py, |b| b.dynamic_mass())
    }

    /// The mass centre (m): a local offset from the body origin.
    #[getter]
    fn center_of_mass(&self, py: Python<'_>) -> PyResult<Tuple3> {
        self.read(py, |b| convert::tuple3(b.center_of_mass()))
    }

    /// The world mass centre (m).
    #[getter]
    fn world_center_of_mass(&self, py: Python<'_>) -> PyResult<Tuple3> {
        self.read(py, |b| convert::tuple3(b.world_center_of_mass()))
    }

    /// The shape (a copy).
    #[getter]
    fn shape(&self, py: Python<'_>) -> PyResult<PyShape> {
        self.read(py, |b| PyShape(b.shape().clone()))
    }

    /// The pose of the shape in the body frame: (translation, rotation).
    #[getter]
    fn shape_offset(&self, py: Python<'_>) -> PyResult<(Tuple3, Tuple4)> {
        self.read(py, |b| {
            let (t, r) = b.shape_offset();
            (convert::tuple3(t), convert::tuple4(r))
        })
    }

    /// The force (N, world) accumulated for the next step.
    #[getter]
    fn force(&self, py: Python<'_>) -> PyResult<Tuple3> {
        self.read(py, |b| convert::tuple3(b.force()))
    }

    /// The torque (N m, world) accumulated for the next step.
    #[getter]
    fn torque(&self, py: Python<'_>) -> PyResult<Tuple3> {
        self.read(py, |b| convert::tuple3(b.torque()))
    }

    /// Linear velocity damping (1/s). Raises BodyError for a negative or
    /// non-finite value.
    #[getter]
    fn linear_damping(&self, py: Python<'_>) -> PyResult<f32> {
        self.read(py, |b| b.linear_damping())
    }

    #[setter]
    fn set_linear_damping(&mut self, py: Python<'_>, value: f32) -> PyResult<()> {
        self.try_write(py, |b| b.set_linear_damping(value))
    }

    /// Angular velocity damping (1/s). Raises BodyError for a negative or
    /// non-finite value.
    #[getter]
    fn angular_damping(&self, py: Python<'_>) -> PyResult<f32> {
        self.read(py, |b| b.angular_damping())
    }

    #[setter]
    fn set_angular_damping(&mut self, py: Python<'_>, value: f32) -> PyResult<()> {
        self.try_write(py, |b| b.set_angular_damping(value))
    }

    /// The linear momentum m v (kg m/s); zero unless dynamic.
    #[getter]
    fn linear_momentum(&self, py: Python<'_>) -> PyResult<(f64, f64, f64)> {
        self.read(py, |b| convert::tuple3d(b.linear_momentum()))
    }

    /// The angular momentum about the mass centre (kg m²/s, world); zero
    /// unless dynamic, None for a tensor that is not positive definite.
    #[getter]
    fn angular_momentum(&self, py: Python<'_>) -> PyResult<Option<(f64, f64, f64)>> {
        self.read(py, |b| b.angular_momentum().map(convert::tuple3d))
    }

    /// The kinetic energy (J); zero unless dynamic, None when the angular
    /// momentum is None.
    #[getter]
    fn kinetic_energy(&self, py: Python<'_>) -> PyResult<Option<f64>> {
        self.read(py, |b| b.kinetic_energy())
    }

    /// The world velocity (m/s) of the body point at the world point `point`.
    fn point_velocity(
        &self,
        py: Python<'_>,
        point: &Bound<'_, PyAny>,
    ) -> PyResult<(f64, f64, f64)> {
        let p = convert::vec3(point, "point")?;
        self.read(py, |b| convert::tuple3d(b.point_velocity(p)))
    }

    /// Sets the inertia tensor (kg m², local frame, three rows; symmetric
    /// positive definite). Raises BodyError otherwise.
    fn set_inertia(&mut self, py: Python<'_>, inertia: &Bound<'_, PyAny>) -> PyResult<()> {
        let m = convert::mat3(inertia, "inertia")?;
        self.try_write(py, |b| b.set_inertia(m))
    }

    /// Sets a custom inverse inertia tensor (1/(kg m²), local frame; finite;
    /// zeros lock axes). Raises BodyError otherwise.
    fn set_inverse_inertia(&mut self, py: Python<'_>, inverse: &Bound<'_, PyAny>) -> PyResult<()> {
        let m = convert::mat3(inverse, "inverse_inertia")?;
        self.try_write(py, |b| b.set_inverse_inertia(m))
    }

    /// Moves the mass centre to the local offset `center` (m) from the body
    /// origin. Raises BodyError for a non-finite offset.
    fn set_center_of_mass(&mut self, py: Python<'_>, center: &Bound<'_, PyAny>) -> PyResult<()> {
        let c = convert::vec3(center, "center")?;
        self.try_write(py, |b| b.set_center_of_mass(c))
    }

    /// Places the shape in the body frame: translation (m) and rotation
    /// (w, x, y, z; default none). Raises BodyError for a non-finite pose.
    #[pyo3(signature = (translation, rotation = None))]
    fn set_shape_offset(
        &mut self,
        py: Python<'_>,
        translation: &Bound<'_, PyAny>,
        rotation: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        let t = convert::vec3(translation, "translation")?;
        let r = match rotation {
            Some(r) => convert::quat(r, "rotation")?,
            None => parapet::math::Quat::identity(),
        };
        self.try_write(py, |b| b.set_shape_offset(t, r))
    }

    /// Adds a force (N, world frame, at the mass centre) for the next step.
    fn add_force(&mut self, py: Python<'_>, force: &Bound<'_, PyAny>) -> PyResult<()> {
        let f = convert::vec3(force, "force")?;
        self.write(py, |b| b.add_force(f))
    }

    /// Adds a torque (N m, world frame) for the next step.
    fn add_torque(&mut self, py: Python<'_>, torque: &Bound<'_, PyAny>) -> PyResult<()> {
        let t = convert::vec3(torque, "torque")?;
        self.write(py, |b| b.add_torque(t))
    }

    /// Applies an impulse (N s, world frame) at the world point `point` (m)
    /// now. Kinematic and static bodies are not moved. Raises BodyError for
    /// a non-finite impulse or point, or a velocity f32 cannot hold (the body
    /// is then unchanged).
    fn apply_impulse(
        &mut self,
        py: Python<'_>,
        impulse: &Bound<'_, PyAny>,
        point: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let j = convert::vec3(impulse, "impulse")?;
        let p = convert::vec3(point, "point")?;
        self.try_write(py, |b| b.apply_impulse(j, p))
    }

    /// Checks the body as a step will; raises BodyError naming what fails.
    fn validate(&self, py: Python<'_>) -> PyResult<()> {
        self.read(py, |b| b.validate())?
            .map_err(|e| errors::body_error(&e))
    }

    /// Sets `position` and returns the body (a builder, for chaining).
    fn with_position<'py>(
        mut slf: PyRefMut<'py, Self>,
        value: &Bound<'_, PyAny>,
    ) -> PyResult<PyRefMut<'py, Self>> {
        let py = slf.py();
        slf.set_position(py, value)?;
        Ok(slf)
    }

    /// Sets `rotation` and returns the body.
    fn with_rotation<'py>(
        mut slf: PyRefMut<'py, Self>,
        value: &Bound<'_, PyAny>,
    ) -> PyResult<PyRefMut<'py, Self>> {
        let py = slf.py();
        slf.set_rotation(py, value)?;
        Ok(slf)
    }

    /// Sets `linear_velocity` and returns the body.
    fn with_linear_velocity<'py>(
        mut slf: PyRefMut<'py, Self>,
        value: &Bound<'_, PyAny>,
    ) -> PyResult<PyRefMut<'py, Self>> {
        let py = slf.py();
        slf.set_linear_velocity(py, value)?;
        Ok(slf)
    }

    /// Sets `angular_velocity` and returns the body.
    fn with_angular_velocity<'py>(
        mut slf: PyRefMut<'py, Self>,
        value: &Bound<'_, PyAny>,
    ) -> PyResult<PyRefMut<'py, Self>> {
        let py = slf.py();
        slf.set_angular_velocity(py, value)?;
        Ok(slf)
    }

    /// Sets `material` and returns the body.
    fn with_material(
        mut slf: PyRefMut<'_, Self>,
        value: PyMaterial,
    ) -> PyResult<PyRefMut<'_, Self>> {
        let py = slf.py();
        slf.set_material(py, value)?;
        Ok(slf)
    }

    /// Sets `ccd` and returns the body.
    fn with_ccd(mut slf: PyRefMut<'_, Self>, value: PyCcdMode) -> PyResult<PyRefMut<'_, Self>> {
        let py = slf.py();
        slf.set_ccd(py, value)?;
        Ok(slf)
    }

    /// Sets `collision_groups` and returns the body.
    fn with_collision_groups(
        mut slf: PyRefMut<'_, Self>,
        value: PyCollisionGroups,
    ) -> PyResult<PyRefMut<'_, Self>> {
        let py = slf.py();
        slf.set_collision_groups(py, value)?;
        Ok(slf)
    }

    /// Sets `can_sleep` and returns the body.
    fn with_can_sleep(mut slf: PyRefMut<'_, Self>, value: bool) -> PyResult<PyRefMut<'_, Self>> {
        let py = slf.py();
        slf.set_can_sleep(py, value)?;
        Ok(slf)
    }

    /// Sets `sensor` and returns the body.
    fn with_sensor(mut slf: PyRefMut<'_, Self>, value: bool) -> PyResult<PyRefMut<'_, Self>> {
        let py = slf.py();
        slf.set_sensor(py, value)?;
        Ok(slf)
    }

    /// Whether two bodies have the same state, bit for bit (views compare
    /// their world's bodies).
    fn __eq__(&self, py: Python<'_>, other: &Self) -> PyResult<bool> {
        let mine = self.read(py, |b| b.clone())?;
        other.read(py, |b| *b == mine)
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        let state = self.read(py, |b| {
            let p = b.position();
            format!(
                "{:?} {} at ({}, {}, {})",
                b.kind(),
                b.shape().kind_name(),
                p.x,
                p.y,
                p.z
            )
        });
        match (&self.place, state) {
            (Place::Own(_), Ok(s)) => format!("<RigidBody {s}>"),
            (Place::InWorld { id, .. }, Ok(s)) => format!("<RigidBody {s}, {id} of a world>"),
            (Place::InWorld { id, .. }, Err(_)) => {
                format!("<RigidBody view of {id}, no longer in its world>")
            }
            (Place::Own(_), Err(_)) => "<RigidBody>".into(),
        }
    }
}
