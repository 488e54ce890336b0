//! Every body's state at once as NumPy arrays: `(n, 3)` float32 positions
//! and velocities and `(n, 4)` rotations `(w, x, y, z)`, in the world's
//! body order (`PhysicsWorld.ids()`), filled in Rust without a per-body
//! Python call; and the writes back, which take any array-like of that
//! shape (converted once by NumPy to float32, rounding to nearest as the
//! scalar setters do).

use numpy::ndarray::Array2;
use numpy::{IntoPyArray, PyArray2, PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use parapet::body::RigidBody;
use parapet::world::PhysicsWorld;

/// `width` numbers per body, read by `read`, as an `(n, width)` array.
pub(crate) fn gather<'py, const W: usize>(
    py: Python<'py>,
    world: &PhysicsWorld,
    read: impl Fn(&RigidBody) -> [f32; W],
) -> Bound<'py, PyArray2<f32>> {
    let mut flat = Vec::with_capacity(world.body_count() * W);
    for (_, body) in world.bodies() {
        flat.extend_from_slice(&read(body));
    }
    let rows = flat.len() / W;
    Array2::from_shape_vec((rows, W), flat)
        .expect("rows * W numbers")
        .into_pyarray(py)
}

/// `values` as a float32 `(n, W)` array, `n` the world's body count.
fn rows<'py, const W: usize>(
    values: &Bound<'py, PyAny>,
    world: &PhysicsWorld,
    what: &str,
) -> PyResult<PyReadonlyArray2<'py, f32>> {
    let py = values.py();
    let numpy = py.import("numpy")?;
    let array = numpy.call_method1("ascontiguousarray", (values, "float32"))?;
    let array: PyReadonlyArray2<'py, f32> = array.extract().map_err(|_| {
        PyValueError::new_err(format!(
            "{what} must be a 2-D array of shape ({}, {W})",
            world.body_count()
        ))
    })?;
    let shape = array.shape();
    if shape != [world.body_count(), W] {
        return Err(PyValueError::new_err(format!(
            "{what} has shape ({}, {}) (limit: ({}, {W}), one row per body in body order)",
            shape[0],
            shape[1],
            world.body_count()
        )));
    }
    Ok(array)
}

/// Writes row `i` of `values` to the `i`-th body with `write`; the shape is
/// checked first, so that a refused call changes nothing.
pub(crate) fn scatter<const W: usize>(
    values: &Bound<'_, PyAny>,
    world: &mut PhysicsWorld,
    what: &str,
    write: impl Fn(&mut RigidBody, [f32; W]),
) -> PyResult<()> {
    let array = rows::<W>(values, world, what)?;
    let view = array.as_array();
    let ids: Vec<_> = world.bodies().map(|(id, _)| id).collect();
    for (id, row) in ids.into_iter().zip(view.rows()) {
        let mut value = [0.0f32; W];
        for (slot, v) in value.iter_mut().zip(row.iter()) {
            *slot = *v;
        }
        if let Some(body) = world.body_mut(id) {
            write(body, value);
        }
    }
    Ok(())
}
