//! Conversions between Python values and parapet's `f32` vectors,
//! quaternions and matrices.
//!
//! Inputs are any sequence of numbers (tuples, lists, NumPy arrays); each
//! number is read as a Python float (`f64`) and rounded once to the nearest
//! `f32`, parapet's storage type, as the scene files do. Outputs are tuples
//! of Python floats, which hold every `f32` exactly. Quaternions are
//! `(w, x, y, z)`, as in scene files, and are taken as given (not
//! normalized): the body's validation decides whether one is a unit
//! quaternion. Matrices are three rows.

use numpy::{PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};

use parapet::math::nalgebra::Quaternion;
use parapet::math::{Mat3, Quat, Vec3, Vec3d};

/// A Python float per component, in order.
pub(crate) type Tuple3 = (f32, f32, f32);
/// A quaternion as `(w, x, y, z)`.
pub(crate) type Tuple4 = (f32, f32, f32, f32);
/// A matrix as three rows.
pub(crate) type Rows3 = (Tuple3, Tuple3, Tuple3);

/// The type name of `obj`, for messages.
fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "?".into())
}

/// `N` numbers from the sequence `obj`; `what` names it in errors and
/// `parts` names its components (`"(x, y, z)"`).
pub(crate) fn numbers<const N: usize>(
    obj: &Bound<'_, PyAny>,
    what: &str,
    parts: &str,
) -> PyResult<[f64; N]> {
    let not_sequence = || {
        PyTypeError::new_err(format!(
            "{what} must be a sequence of {N} numbers {parts}, got {}",
            type_name(obj)
        ))
    };
    if obj.is_instance_of::<PyString>() || obj.is_instance_of::<PyBytes>() {
        return Err(not_sequence());
    }
    let len = obj.len().map_err(|_| not_sequence())?;
    if len != N {
        return Err(PyValueError::new_err(format!(
            "{what} must have {N} components {parts}, got {len}"
        )));
    }
    let mut out = [0.0; N];
    for (i, slot) in out.iter_mut().enumerate() {
        let item = obj.get_item(i)?;
        *slot = item.extract::<f64>().map_err(|_| {
            PyTypeError::new_err(format!(
                "{what}[{i}] must be a number, got {}",
                type_name(&item)
            ))
        })?;
    }
    Ok(out)
}

/// A vector `(x, y, z)`.
pub(crate) fn vec3(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Vec3> {
    let [x, y, z] = numbers::<3>(obj, what, "(x, y, z)")?;
    Ok(Vec3::new(x as f32, y as f32, z as f32))
}

/// A quaternion `(w, x, y, z)`, unchanged.
pub(crate) fn quat(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Quat> {
    let [w, x, y, z] = numbers::<4>(obj, what, "(w, x, y, z)")?;
    Ok(Quat::new_unchecked(Quaternion::new(
        w as f32, x as f32, y as f32, z as f32,
    )))
}

/// A 3 x 3 matrix given as three rows.
pub(crate) fn mat3(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Mat3> {
    if obj.is_instance_of::<PyString>() || obj.len().ok() != Some(3) {
        return Err(PyTypeError::new_err(format!(
            "{what} must be three rows of three numbers, got {}",
            type_name(obj)
        )));
    }
    let mut m = Mat3::zeros();
    for r in 0..3 {
        let row = numbers::<3>(&obj.get_item(r)?, &format!("{what}[{r}]"), "(a, b, c)")?;
        for (c, value) in row.iter().enumerate() {
            m[(r, c)] = *value as f32;
        }
    }
    Ok(m)
}

/// Points `[(x, y, z), ...]`: a NumPy `(n, 3)` array of floats (read
/// without a per-point Python call) or any sequence of sequences.
pub(crate) fn points(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Vec<Vec3>> {
    if let Ok(array) = obj.extract::<PyReadonlyArray2<'_, f32>>() {
        return rows_of(&array, what, |v| v);
    }
    if let Ok(array) = obj.extract::<PyReadonlyArray2<'_, f64>>() {
        return rows_of(&array, what, |v| v as f32);
    }
    let mut out = Vec::new();
    for (i, item) in obj.try_iter()?.enumerate() {
        out.push(vec3(&item?, &format!("{what}[{i}]"))?);
    }
    Ok(out)
}

/// The rows of an `(n, 3)` array as vectors.
fn rows_of<T: numpy::Element + Copy>(
    array: &PyReadonlyArray2<'_, T>,
    what: &str,
    to_f32: impl Fn(T) -> f32,
) -> PyResult<Vec<Vec3>> {
    let shape = array.shape();
    if shape[1] != 3 {
        return Err(PyValueError::new_err(format!(
            "{what} must have shape (n, 3), got ({}, {})",
            shape[0], shape[1]
        )));
    }
    Ok(array
        .as_array()
        .rows()
        .into_iter()
        .map(|r| Vec3::new(to_f32(r[0]), to_f32(r[1]), to_f32(r[2])))
        .collect())
}

/// The error of a vertex index out of `0..=u32::MAX`.
fn bad_index(what: &str, value: &dyn std::fmt::Display) -> PyErr {
    crate::errors::ShapeError::new_err(format!(
        "{what} = {value} is not a vertex index (limit: an integer in 0..={})",
        u32::MAX
    ))
}

/// The rows of an integer `(n, 3)` array as index triples.
fn index_rows<T: numpy::Element + Copy + TryInto<u32> + std::fmt::Display>(
    array: &PyReadonlyArray2<'_, T>,
) -> PyResult<Vec<[u32; 3]>> {
    let shape = array.shape();
    if shape[1] != 3 {
        return Err(PyValueError::new_err(format!(
            "triangles must have shape (n, 3), got ({}, {})",
            shape[0], shape[1]
        )));
    }
    let mut out = Vec::with_capacity(shape[0]);
    for (t, row) in array.as_array().rows().into_iter().enumerate() {
        let mut indices = [0u32; 3];
        for (k, slot) in indices.iter_mut().enumerate() {
            let value = row[k];
            *slot = value
                .try_into()
                .map_err(|_| bad_index(&format!("triangles[{t}][{k}]"), &value))?;
        }
        out.push(indices);
    }
    Ok(out)
}

/// Triangles `[(a, b, c), ...]` of vertex indices, each in `0..=u32::MAX`:
/// a NumPy `(n, 3)` integer array (read without a per-triangle Python
/// call) or any sequence of sequences.
pub(crate) fn triangles(obj: &Bound<'_, PyAny>) -> PyResult<Vec<[u32; 3]>> {
    if let Ok(array) = obj.extract::<PyReadonlyArray2<'_, u32>>() {
        return index_rows(&array);
    }
    if let Ok(array) = obj.extract::<PyReadonlyArray2<'_, i32>>() {
        return index_rows(&array);
    }
    if let Ok(array) = obj.extract::<PyReadonlyArray2<'_, i64>>() {
        return index_rows(&array);
    }
    let mut out = Vec::new();
    for (t, item) in obj.try_iter()?.enumerate() {
        let item = item?;
        let what = format!("triangles[{t}]");
        let [a, b, c] = numbers::<3>(&item, &what, "(a, b, c)")?;
        let mut indices = [0u32; 3];
        for (k, (slot, value)) in indices.iter_mut().zip([a, b, c]).enumerate() {
            if value.fract() != 0.0 || !(0.0..=f64::from(u32::MAX)).contains(&value) {
                return Err(bad_index(&format!("{what}[{k}]"), &value));
            }
            *slot = value as u32;
        }
        out.push(indices);
    }
    Ok(out)
}

/// A vector as a tuple.
pub(crate) fn tuple3(v: Vec3) -> Tuple3 {
    (v.x, v.y, v.z)
}

/// An `f64` vector as a tuple.
pub(crate) fn tuple3d(v: Vec3d) -> (f64, f64, f64) {
    (v.x, v.y, v.z)
}

/// A quaternion as `(w, x, y, z)`.
pub(crate) fn tuple4(q: Quat) -> Tuple4 {
    (q.w, q.i, q.j, q.k)
}

/// A matrix as three rows.
pub(crate) fn rows3(m: Mat3) -> Rows3 {
    let row = |r: usize| (m[(r, 0)], m[(r, 1)], m[(r, 2)]);
    (row(0), row(1), row(2))
}
