//! `PhysicsWorld`: the Rust world behind a Python object. `step` releases
//! the GIL (other Python threads run meanwhile; one that touches the same
//! world then gets a RuntimeError rather than a torn state); a refused step
//! raises `StepError` and leaves the world exactly as it was, as in Rust.

use numpy::ndarray::Array3;
use numpy::{IntoPyArray, PyArray2, PyArray3};
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use parapet::math::Vec3;
use parapet::world::PhysicsWorld;

use crate::arrays;
use crate::body::{Place, PyBody};
use crate::convert::{self, Tuple3};
use crate::errors;
use crate::ids::PyBodyId;
use crate::modes::PyCollisionDetection;
use crate::reports::{PyBodyCcdStats, PyCcdRefusal, PyCcdReport, PyContactEvent, PyRayHit};
use crate::shape::PyCollisionGroups;

/// The physics world: bodies, the step (forces, contacts, the continuous
/// stage, integration), contact events, ray casts. Gravity (0, 0, -9.8)
/// m/s², DISCRETE collision detection, ccd_max_impacts 64 and
/// ccd_max_substeps 256 by default; every setting is validated at each step
/// entry.
#[pyclass(name = "PhysicsWorld", module = "parapet")]
pub(crate) struct PyWorld {
    pub(crate) inner: PhysicsWorld,
}

/// A snapshot error as `parapet.SnapshotError`.
fn snapshot_error(e: &parapet::snapshot::SnapshotError) -> PyErr {
    errors::SnapshotError::new_err(e.to_string())
}

/// The error of a body that is already in a world.
fn already_in_a_world(id: parapet::body::BodyId) -> PyErr {
    errors::WorldError::new_err(format!(
        "the body is already in a world as {id} (limit: a body of its own; add body.copy() for another body like it)"
    ))
}

#[pymethods]
impl PyWorld {
    /// An empty world with the default settings.
    #[new]
    fn new() -> Self {
        Self {
            inner: PhysicsWorld::new(),
        }
    }

    /// Gravity (m/s², world).
    #[getter]
    fn gravity(&self) -> Tuple3 {
        convert::tuple3(self.inner.gravity)
    }

    #[setter]
    fn set_gravity(&mut self, value: &Bound<'_, PyAny>) -> PyResult<()> {
        self.inner.gravity = convert::vec3(value, "gravity")?;
        Ok(())
    }

    /// The collision-detection mode: DISCRETE or SPHERE_MESH_CCD (a bare
    /// integer raises TypeError).
    #[getter]
    fn collision_detection(&self) -> PyCollisionDetection {
        PyCollisionDetection(self.inner.collision_detection)
    }

    #[setter]
    fn set_collision_detection(&mut self, value: PyCollisionDetection) {
        self.inner.collision_detection = value.0;
    }

    /// Impacts each body may take in one continuous step (valid 1..=1024).
    #[getter]
    fn ccd_max_impacts(&self) -> u32 {
        self.inner.ccd_max_impacts
    }

    #[setter]
    fn set_ccd_max_impacts(&mut self, value: u32) {
        self.inner.ccd_max_impacts = value;
    }

    /// Sub-steps each turning body may take in one continuous step (valid
    /// 1..=65536).
    #[getter]
    fn ccd_max_substeps(&self) -> u32 {
        self.inner.ccd_max_substeps
    }

    #[setter]
    fn set_ccd_max_substeps(&mut self, value: u32) {
        self.inner.ccd_max_substeps = value;
    }

    /// Whether bodies at rest fall asleep (default True).
    #[getter]
    fn sleeping(&self) -> bool {
        self.inner.sleeping
    }

    #[setter]
    fn set_sleeping(&mut self, value: bool) {
        self.inner.sleeping = value;
    }

    /// Speed (m/s) at or below which a body is at rest (default 0.05;
    /// finite and >= 0, checked at each step).
    #[getter]
    fn sleep_linear_threshold(&self) -> f32 {
        self.inner.sleep_linear_threshold
    }

    #[setter]
    fn set_sleep_linear_threshold(&mut self, value: f32) {
        self.inner.sleep_linear_threshold = value;
    }

    /// Angular speed (rad/s) at or below which a body is at rest (default
    /// 0.05; finite and >= 0).
    #[getter]
    fn sleep_angular_threshold(&self) -> f32 {
        self.inner.sleep_angular_threshold
    }

    #[setter]
    fn set_sleep_angular_threshold(&mut self, value: f32) {
        self.inner.sleep_angular_threshold = value;
    }

    /// Time (s) every body of an island must rest before it sleeps
    /// (default 0.5; finite and >= 0).
    #[getter]
    fn time_to_sleep(&self) -> f32 {
        self.inner.time_to_sleep
    }

    #[setter]
    fn set_time_to_sleep(&mut self, value: f32) {
        self.inner.time_to_sleep = value;
    }

    /// Wakes body `id` and its sleeping island now. Raises WorldError for a
    /// stale id.
    fn wake(&mut self, id: PyBodyId) -> PyResult<()> {
        self.inner.wake(id.0).map_err(|e| errors::world_error(&e))
    }

    /// Adds `body` after validating it and returns its id; the Python
    /// object becomes a view of the world's body. A mesh body must be
    /// static: its world triangles are captured now. Raises WorldError (the
    /// world and the body then unchanged) for an invalid body or a body
    /// already in a world.
    fn add_body(slf: &Bound<'_, Self>, body: &Bound<'_, PyBody>) -> PyResult<PyBodyId> {
        let mut body = body.try_borrow_mut()?;
        let own = match &body.place {
            Place::Own(own) => (**own).clone(),
            Place::InWorld { id, .. } => return Err(already_in_a_world(*id)),
        };
        let id = slf
            .try_borrow_mut()
            .map_err(|_| busy())?
            .inner
            .add_body(own)
            .map_err(|e| errors::world_error(&e))?;
        body.place = Place::InWorld {
            world: slf.clone().unbind(),
            id,
        };
        Ok(PyBodyId(id))
    }

    /// Removes body `id` and returns it as a body of its own; views of it
    /// raise WorldError from now on. Raises WorldError for a stale id.
    fn remove_body(&mut self, id: PyBodyId) -> PyResult<PyBody> {
        self.inner
            .remove_body(id.0)
            .map(PyBody::own)
            .map_err(|e| errors::world_error(&e))
    }

    /// A view of body `id`, None for a stale or foreign id.
    fn body(slf: &Bound<'_, Self>, id: PyBodyId) -> PyResult<Option<PyBody>> {
        let present = slf
            .try_borrow()
            .map_err(|_| busy())?
            .inner
            .body(id.0)
            .is_some();
        Ok(present.then(|| PyBody::view(slf.clone().unbind(), id.0)))
    }

    /// The ids of the bodies in insertion order (the rows of positions()
    /// and the other arrays).
    fn ids(&self) -> Vec<PyBodyId> {
        self.inner.bodies().map(|(id, _)| PyBodyId(id)).collect()
    }

    /// Every body as (id, view), in insertion order.
    fn bodies(slf: &Bound<'_, Self>) -> PyResult<Vec<(PyBodyId, PyBody)>> {
        let world = slf.try_borrow().map_err(|_| busy())?;
        Ok(world
            .inner
            .bodies()
            .map(|(id, _)| (PyBodyId(id), PyBody::view(slf.clone().unbind(), id)))
            .collect())
    }

    /// The number of bodies.
    fn body_count(&self) -> usize {
        self.inner.body_count()
    }

    fn __len__(&self) -> usize {
        self.inner.body_count()
    }

    /// Advances the world by `dt` seconds, with the GIL released. Raises
    /// StepError (its message names the body, the quantity, its value and
    /// the limit) and leaves the world exactly as it was before the call.
    fn step(&mut self, py: Python<'_>, dt: f32) -> PyResult<()> {
        let world = &mut self.inner;
        py.detach(move || world.step(dt))
            .map_err(|e| errors::step_error(py, &e))
    }

    /// The contact events of the last successful step: initial contacts,
    /// then swept impacts by time.
    fn events(&self) -> Vec<PyContactEvent> {
        self.inner
            .events()
            .iter()
            .map(PyContactEvent::from)
            .collect()
    }

    /// Initial contact points plus swept impacts of the last successful step.
    fn contact_count(&self) -> usize {
        self.inner.contact_count()
    }

    /// The continuous stage's counters of the last successful step.
    fn ccd_report(&self) -> PyCcdReport {
        PyCcdReport::from(self.inner.ccd_report())
    }

    /// Body `id`'s part in the continuous stage of the last successful step;
    /// None for a stale id, before the first step and for a body added since.
    fn ccd_stats(&self, id: PyBodyId) -> Option<PyBodyCcdStats> {
        self.inner.ccd_stats(id.0).map(PyBodyCcdStats::from)
    }

    /// What the next step would refuse, one CcdRefusal per refused body,
    /// for a step of `dt` seconds (default: the last step's, or 1/60 s);
    /// changes nothing.
    #[pyo3(signature = (dt = None))]
    fn check_ccd(&self, py: Python<'_>, dt: Option<f32>) -> PyResult<Vec<PyCcdRefusal>> {
        let refusals = match dt {
            Some(dt) => self.inner.check_ccd_for(dt),
            None => self.inner.check_ccd(),
        };
        refusals.iter().map(|r| PyCcdRefusal::new(py, r)).collect()
    }

    /// The nearest hit of the ray from `origin` along `direction` within
    /// `max_distance` (m; default unbounded), None without one; with
    /// `groups`, only bodies those groups interact with are hit. Sensors and
    /// bodies that do not collide are never hit. Raises RayError for an
    /// invalid ray.
    #[pyo3(signature = (origin, direction, max_distance = f32::INFINITY, groups = None))]
    fn cast_ray(
        &self,
        origin: &Bound<'_, PyAny>,
        direction: &Bound<'_, PyAny>,
        max_distance: f32,
        groups: Option<PyCollisionGroups>,
    ) -> PyResult<Option<PyRayHit>> {
        let o = convert::vec3(origin, "origin")?;
        let d = convert::vec3(direction, "direction")?;
        let groups = groups
            .map(|g| g.0)
            .unwrap_or(parapet::body::CollisionGroups::ALL);
        self.inner
            .try_cast_ray_filtered(o, d, max_distance, groups)
            .map(|hit| hit.as_ref().map(PyRayHit::from))
            .map_err(|e| errors::ray_error(&e))
    }

    /// Bodies `a` and `b` never interact from now on, whatever their
    /// collision groups. Raises WorldError for a stale id or a == b.
    fn ignore_pair(&mut self, a: PyBodyId, b: PyBodyId) -> PyResult<()> {
        self.inner
            .ignore_pair(a.0, b.0)
            .map_err(|e| errors::world_error(&e))
    }

    /// Undoes ignore_pair. Raises WorldError for a stale id or a == b.
    fn restore_pair(&mut self, a: PyBodyId, b: PyBodyId) -> PyResult<()> {
        self.inner
            .restore_pair(a.0, b.0)
            .map_err(|e| errors::world_error(&e))
    }

    /// Whether ignore_pair excludes `a` and `b`.
    fn is_pair_ignored(&self, a: PyBodyId, b: PyBodyId) -> bool {
        self.inner.is_pair_ignored(a.0, b.0)
    }

    /// The pairs ignore_pair excludes.
    fn ignored_pairs(&self) -> Vec<(PyBodyId, PyBodyId)> {
        self.inner
            .ignored_pairs()
            .map(|(a, b)| (PyBodyId(a), PyBodyId(b)))
            .collect()
    }

    /// The world triangles captured when mesh body `id` was added, as a
    /// NumPy (n, 3, 3) float32 array (triangle, corner, axis); None for
    /// other bodies and stale ids.
    fn mesh_snapshot<'py>(
        &self,
        py: Python<'py>,
        id: PyBodyId,
    ) -> Option<Bound<'py, PyArray3<f32>>> {
        let triangles = self.inner.mesh_snapshot(id.0)?;
        let flat: Vec<f32> = triangles
            .iter()
            .flat_map(|t| t.iter().flat_map(|v: &Vec3| [v.x, v.y, v.z]))
            .collect();
        Array3::from_shape_vec((triangles.len(), 3, 3), flat)
            .ok()
            .map(|a| a.into_pyarray(py))
    }

    /// Every body's position (m) as a NumPy (n, 3) float32 array, in body
    /// order (ids()).
    fn positions<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<f32>> {
        arrays::gather(py, &self.inner, |b| b.position().into())
    }

    /// Every body's rotation (w, x, y, z) as a NumPy (n, 4) float32 array.
    fn rotations<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<f32>> {
        arrays::gather(py, &self.inner, |b| {
            let q = b.rotation();
            [q.w, q.i, q.j, q.k]
        })
    }

    /// Every body's linear velocity (m/s) as a NumPy (n, 3) float32 array.
    fn linear_velocities<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<f32>> {
        arrays::gather(py, &self.inner, |b| b.linear_velocity().into())
    }

    /// Every body's angular velocity (rad/s) as a NumPy (n, 3) float32 array.
    fn angular_velocities<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<f32>> {
        arrays::gather(py, &self.inner, |b| b.angular_velocity().into())
    }

    /// Sets every body's position from an (n, 3) array-like in body order.
    /// Raises ValueError for another shape (nothing is then changed).
    fn set_positions(&mut self, values: &Bound<'_, PyAny>) -> PyResult<()> {
        arrays::scatter::<3>(values, &mut self.inner, "positions", |b, v| {
            b.set_position(v.into())
        })
    }

    /// Sets every body's rotation from an (n, 4) array-like (w, x, y, z).
    fn set_rotations(&mut self, values: &Bound<'_, PyAny>) -> PyResult<()> {
        arrays::scatter::<4>(values, &mut self.inner, "rotations", |b, [w, x, y, z]| {
            b.set_rotation(parapet::math::Quat::new_unchecked(
                parapet::math::nalgebra::Quaternion::new(w, x, y, z),
            ))
        })
    }

    /// Sets every body's linear velocity from an (n, 3) array-like.
    fn set_linear_velocities(&mut self, values: &Bound<'_, PyAny>) -> PyResult<()> {
        arrays::scatter::<3>(values, &mut self.inner, "linear_velocities", |b, v| {
            b.set_linear_velocity(v.into())
        })
    }

    /// Sets every body's angular velocity from an (n, 3) array-like.
    fn set_angular_velocities(&mut self, values: &Bound<'_, PyAny>) -> PyResult<()> {
        arrays::scatter::<3>(values, &mut self.inner, "angular_velocities", |b, v| {
            b.set_angular_velocity(v.into())
        })
    }

    /// The world as a snapshot in CBOR bytes; `from_bytes` reads it back to a
    /// world that steps to the same bits.
    fn to_bytes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let bytes = parapet::snapshot::to_bytes(&self.inner).map_err(|e| snapshot_error(&e))?;
        Ok(PyBytes::new(py, &bytes))
    }

    /// The world of a snapshot written by `to_bytes`. Raises SnapshotError
    /// for bytes that are not a snapshot this build reads.
    #[staticmethod]
    fn from_bytes(data: &[u8]) -> PyResult<Self> {
        parapet::snapshot::from_bytes(data)
            .map(|inner| Self { inner })
            .map_err(|e| snapshot_error(&e))
    }

    /// The world as a snapshot in JSON text.
    fn to_json(&self) -> PyResult<String> {
        parapet::snapshot::to_json(&self.inner).map_err(|e| snapshot_error(&e))
    }

    /// The world of a JSON snapshot written by `to_json`. Raises
    /// SnapshotError for text that is not a snapshot this build reads.
    #[staticmethod]
    fn from_json(text: &str) -> PyResult<Self> {
        parapet::snapshot::from_json(text)
            .map(|inner| Self { inner })
            .map_err(|e| snapshot_error(&e))
    }

    /// The world as a scene file (JSON text, "parapet-scene/1") with step
    /// `dt` (s) and `steps` steps, which `parse_scene` reads back to the
    /// same bodies. Raises SceneError for what a scene cannot describe.
    fn to_scene_json(&self, dt: f32, steps: u64) -> PyResult<String> {
        parapet_cli::scene::world_to_json(&self.inner, dt, steps)
            .map_err(errors::SceneError::new_err)
    }

    /// An independent copy of the world (bodies, settings, caches).
    fn copy(&self) -> Self {
        Self {
            inner: self.inner.clone(),
        }
    }

    fn __copy__(&self) -> Self {
        self.copy()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Self {
        self.copy()
    }

    /// Pickling: the world as its CBOR snapshot.
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyAny>, (Bound<'py, PyBytes>,))> {
        let from_bytes = slf.get_type().getattr("from_bytes")?;
        let bytes = slf.borrow().to_bytes(slf.py())?;
        Ok((from_bytes, (bytes,)))
    }

    fn __repr__(&self) -> String {
        format!(
            "<PhysicsWorld of {} bodies, {}>",
            self.inner.body_count(),
            PyCollisionDetection(self.inner.collision_detection).name()
        )
    }
}

/// The error of a world borrowed by a step running in another thread.
fn busy() -> PyErr {
    PyRuntimeError::new_err("the world is in use (a step running in another thread)")
}
