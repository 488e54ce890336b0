//! Scene files (`"format": "parapet-scene/1"`, the `parapet` command's
//! input): `load_scene(path)` and `parse_scene(text)` give a `Scene`, whose
//! `world` is a `PhysicsWorld` ready to step. A refused file raises
//! `SceneError` naming the file, line, column and field.

use std::path::PathBuf;

use pyo3::prelude::*;

use parapet_cli::scene::{self, LoadedScene, SceneError};

use crate::body::PyBody;
use crate::errors;
use crate::ids::PyBodyId;
use crate::world::PyWorld;

/// A scene read from a file: the world it describes, its step `dt` (s) and
/// step count `steps`, and each body's id and name in file order.
#[pyclass(name = "Scene", module = "parapet", frozen)]
pub(crate) struct PyScene {
    /// The world (a PhysicsWorld).
    #[pyo3(get)]
    world: Py<PyWorld>,
    /// The step (s).
    #[pyo3(get)]
    dt: f32,
    /// How many steps `parapet run` takes.
    #[pyo3(get)]
    steps: u64,
    /// The body ids, in file order.
    #[pyo3(get)]
    ids: Vec<PyBodyId>,
    /// The body names (given, or body<index>), in file order.
    #[pyo3(get)]
    names: Vec<String>,
}

impl PyScene {
    fn new(py: Python<'_>, loaded: LoadedScene) -> PyResult<Self> {
        Ok(Self {
            dt: loaded.scene.dt,
            steps: loaded.scene.steps,
            ids: loaded.ids.into_iter().map(PyBodyId).collect(),
            names: loaded.names,
            world: Py::new(
                py,
                PyWorld {
                    inner: loaded.world,
                },
            )?,
        })
    }
}

#[pymethods]
impl PyScene {
    /// The id of the body named `name`, None without one.
    fn id_of(&self, name: &str) -> Option<PyBodyId> {
        self.names
            .iter()
            .position(|n| n == name)
            .map(|i| self.ids[i])
    }

    /// A view of the body named `name` in the scene's world, None without one.
    fn body(&self, py: Python<'_>, name: &str) -> Option<PyBody> {
        self.id_of(name)
            .map(|id| PyBody::view(self.world.clone_ref(py), id.0))
    }

    fn __repr__(&self) -> String {
        format!(
            "<Scene of {} bodies, dt={}, steps={}>",
            self.ids.len(),
            self.dt,
            self.steps
        )
    }
}

/// A scene error as `parapet.SceneError`.
fn scene_error(e: &SceneError) -> PyErr {
    errors::SceneError::new_err(e.to_string())
}

/// The scene in the file at `path`. Raises SceneError naming the file,
/// line, column and field.
#[pyfunction]
fn load_scene(py: Python<'_>, path: PathBuf) -> PyResult<PyScene> {
    let loaded = scene::load_scene(&path).map_err(|e| scene_error(&e))?;
    PyScene::new(py, loaded)
}

/// The scene in `text`; `file` names it in errors.
#[pyfunction]
#[pyo3(signature = (text, file = "<string>"))]
fn parse_scene(py: Python<'_>, text: &str, file: &str) -> PyResult<PyScene> {
    let loaded = scene::parse_scene(text, file).map_err(|e| scene_error(&e))?;
    PyScene::new(py, loaded)
}

/// The scene class and functions.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyScene>()?;
    m.add_function(wrap_pyfunction!(load_scene, m)?)?;
    m.add_function(wrap_pyfunction!(parse_scene, m)?)?;
    m.add("SCENE_FORMAT", scene::FORMAT)?;
    m.add("SNAPSHOT_FORMAT", parapet::snapshot::FORMAT)?;
    Ok(())
}
