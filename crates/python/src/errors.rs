//! The package's exceptions: one Python class per Rust error type, all under
//! `parapet.ParapetError`, each raised with the Rust error's own message
//! (which names the body, the quantity, its value and the limit).
//!
//! `StepError` instances also carry `variant` (the Rust variant's name, such
//! as `"Unsupported"`) and `body` (the `BodyId` the error names, or `None`),
//! so that a script can react without parsing the message.

use pyo3::create_exception;
use pyo3::exceptions::PyException;
use pyo3::prelude::*;

use parapet::body::BodyError as RustBodyError;
use parapet::shape::{MaterialError as RustMaterialError, ShapeError as RustShapeError};
use parapet::world::{
    RayError as RustRayError, StepError as RustStepError, WorldError as RustWorldError,
};

use crate::ids::PyBodyId;

create_exception!(
    parapet,
    ParapetError,
    PyException,
    "The base of every error parapet raises."
);
create_exception!(
    parapet,
    ShapeError,
    ParapetError,
    "A shape that cannot be built (a radius, a hull, a mesh), or mass properties a shape cannot have."
);
create_exception!(
    parapet,
    MaterialError,
    ParapetError,
    "A material coefficient out of its range."
);
create_exception!(
    parapet,
    BodyError,
    ParapetError,
    "A body setting refused (mass, inertia, centre of mass, kind, impulse), or a body that fails validation."
);
create_exception!(
    parapet,
    WorldError,
    ParapetError,
    "A refused insertion, removal or pair exclusion (the world is then unchanged), or a body view whose body left its world."
);
create_exception!(
    parapet,
    StepError,
    ParapetError,
    "A refused or failed step: the world is exactly as it was before the call. `variant` names the Rust variant, `body` the body it names (or None)."
);
create_exception!(
    parapet,
    RayError,
    ParapetError,
    "A ray cast refused: a non-finite origin, a direction without unit direction, a negative max_distance, or a body whose hit cannot be represented."
);
create_exception!(
    parapet,
    SnapshotError,
    ParapetError,
    "A world snapshot that cannot be written, or bytes or text that are not a snapshot this build reads."
);
create_exception!(
    parapet,
    SceneError,
    ParapetError,
    "A scene file refused: the message names the file, line, column and field."
);

/// The exception classes, for the module's registration.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("ParapetError", py.get_type::<ParapetError>())?;
    m.add("ShapeError", py.get_type::<ShapeError>())?;
    m.add("MaterialError", py.get_type::<MaterialError>())?;
    m.add("BodyError", py.get_type::<BodyError>())?;
    m.add("WorldError", py.get_type::<WorldError>())?;
    m.add("StepError", py.get_type::<StepError>())?;
    m.add("RayError", py.get_type::<RayError>())?;
    m.add("SnapshotError", py.get_type::<SnapshotError>())?;
    m.add("SceneError", py.get_type::<SceneError>())?;
    Ok(())
}

/// A shape error as `parapet.ShapeError`.
pub(crate) fn shape_error(e: &RustShapeError) -> PyErr {
    self::ShapeError::new_err(e.to_string())
}

/// A material error as `parapet.MaterialError`.
pub(crate) fn material_error(e: &RustMaterialError) -> PyErr {
    self::MaterialError::new_err(e.to_string())
}

/// A body error as `parapet.BodyError`.
pub(crate) fn body_error(e: &RustBodyError) -> PyErr {
    self::BodyError::new_err(e.to_string())
}

/// A world error as `parapet.WorldError`.
pub(crate) fn world_error(e: &RustWorldError) -> PyErr {
    self::WorldError::new_err(e.to_string())
}

/// A ray error as `parapet.RayError`.
pub(crate) fn ray_error(e: &RustRayError) -> PyErr {
    self::RayError::new_err(e.to_string())
}

/// The name of `e`'s variant: its `Debug` form up to the first character
/// that cannot be part of a Rust identifier (`Unsupported { .. }` gives
/// `Unsupported`).
fn variant_name(e: &RustStepError) -> String {
    format!("{e:?}")
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect()
}

/// The body a step error names, when it names one.
fn step_error_body(e: &RustStepError) -> Option<parapet::body::BodyId> {
    match e {
        RustStepError::InvalidBody { body, .. }
        | RustStepError::NotRepresentable { body, .. }
        | RustStepError::Contact { body, .. }
        | RustStepError::Unsupported { body, .. }
        | RustStepError::Precision { body, .. }
        | RustStepError::ImpactLimit { body, .. }
        | RustStepError::SubstepLimit { body, .. }
        | RustStepError::EventLimit { body, .. }
        | RustStepError::TimeOfImpact { body, .. }
        | RustStepError::Unresolvable { body, .. }
        | RustStepError::ImpactRefused { body, .. } => Some(*body),
        _ => None,
    }
}

/// A step error as a `parapet.StepError` instance (not raised) with its
/// `variant` and `body` attributes set.
pub(crate) fn step_error_value(py: Python<'_>, e: &RustStepError) -> PyResult<Py<PyAny>> {
    let err = self::StepError::new_err(e.to_string());
    let value = err.value(py);
    value.setattr("variant", variant_name(e))?;
    let body = step_error_body(e).map(PyBodyId::from);
    value.setattr("body", body)?;
    Ok(value.clone().into_any().unbind())
}

/// A step error as a raised `parapet.StepError`.
pub(crate) fn step_error(py: Python<'_>, e: &RustStepError) -> PyErr {
    match step_error_value(py, e) {
        Ok(value) => PyErr::from_value(value.into_bound(py)),
        Err(err) => err,
    }
}
