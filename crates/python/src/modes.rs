//! The modes and kinds: `CollisionDetection` (the world's mode, with the
//! constants `DISCRETE` and `SPHERE_MESH_CCD`), `CcdMode` (a body's own
//! policy), `BodyKind` and `ContactKind`. None of them is an integer: a bare
//! integer assigned where a mode is expected raises `TypeError`; stored
//! numeric codes convert back through `from_code`, which refuses unknown
//! values.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use parapet::body::BodyKind;
use parapet::ccd::{CcdMode, CollisionDetection, DISCRETE, SPHERE_MESH_CCD};
use parapet::collide::ContactKind;

/// The world's collision-detection mode: `DISCRETE` (the default) or
/// `SPHERE_MESH_CCD` (continuous: a supported body never passes through a
/// surface between two steps; what the mode cannot promise is refused).
#[pyclass(
    name = "CollisionDetection",
    module = "parapet",
    frozen,
    eq,
    hash,
    from_py_object
)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct PyCollisionDetection(pub(crate) CollisionDetection);

impl PyCollisionDetection {
    /// The mode's constant name.
    pub(crate) fn name(self) -> String {
        match self.0 {
            CollisionDetection::Discrete => "DISCRETE".into(),
            CollisionDetection::SphereMeshCcd => "SPHERE_MESH_CCD".into(),
            other => format!("{other:?}"),
        }
    }
}

#[pymethods]
impl PyCollisionDetection {
    /// The mode of a stored numeric code (0 = DISCRETE, 1 = SPHERE_MESH_CCD);
    /// an unknown value raises ValueError, never gives a mode.
    #[staticmethod]
    fn from_code(code: i64) -> PyResult<Self> {
        let refused = |value: i64| {
            PyValueError::new_err(format!(
                "collision detection value {value} is not a mode (limit: 0 = DISCRETE or 1 = SPHERE_MESH_CCD)"
            ))
        };
        let byte = u8::try_from(code).map_err(|_| refused(code))?;
        CollisionDetection::try_from(byte)
            .map(Self)
            .map_err(|e| PyValueError::new_err(e.to_string()))
    }

    /// The mode's numeric code.
    #[getter]
    fn code(&self) -> u8 {
        self.0.code()
    }

    fn __repr__(&self) -> String {
        self.name()
    }

    fn __str__(&self) -> String {
        self.name()
    }
}

/// The `DISCRETE` and `SPHERE_MESH_CCD` constants.
pub(crate) fn constants() -> [(&'static str, PyCollisionDetection); 2] {
    [
        ("DISCRETE", PyCollisionDetection(DISCRETE)),
        ("SPHERE_MESH_CCD", PyCollisionDetection(SPHERE_MESH_CCD)),
    ]
}

/// How the world's continuous stage treats one body: `Inherit` follows the
/// world's `collision_detection` (the default), `Discrete` never sweeps it,
/// `Continuous` sweeps it in every step (and refuses what it cannot
/// promise), `Auto` sweeps it in the steps where it moves far for its size.
#[pyclass(name = "CcdMode", module = "parapet", frozen, eq, hash, from_py_object)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum PyCcdMode {
    /// Follow the world's collision_detection.
    Inherit,
    /// Discrete contacts only.
    Discrete,
    /// Swept in every step.
    Continuous,
    /// Swept when it moves far for its size in the step.
    Auto,
}

impl From<PyCcdMode> for CcdMode {
    fn from(mode: PyCcdMode) -> Self {
        match mode {
            PyCcdMode::Inherit => CcdMode::Inherit,
            PyCcdMode::Discrete => CcdMode::Discrete,
            PyCcdMode::Continuous => CcdMode::Continuous,
            PyCcdMode::Auto => CcdMode::Auto,
        }
    }
}

impl From<CcdMode> for PyCcdMode {
    fn from(mode: CcdMode) -> Self {
        match mode {
            CcdMode::Inherit => PyCcdMode::Inherit,
            CcdMode::Discrete => PyCcdMode::Discrete,
            CcdMode::Continuous => PyCcdMode::Continuous,
            CcdMode::Auto => PyCcdMode::Auto,
        }
    }
}

#[pymethods]
impl PyCcdMode {
    /// The mode of a stored numeric code; an unknown value raises ValueError.
    #[staticmethod]
    fn from_code(code: i64) -> PyResult<Self> {
        let byte = u8::try_from(code).unwrap_or(u8::MAX);
        CcdMode::try_from(byte)
            .map(Self::from)
            .map_err(|_| PyValueError::new_err(format!("CcdMode value {code} is not a mode (limit: 0 = Inherit, 1 = Discrete, 2 = Continuous or 3 = Auto)")))
    }

    /// The mode's numeric code.
    #[getter]
    fn code(&self) -> u8 {
        CcdMode::from(*self).code()
    }
}

/// How a body moves: `Dynamic` (forces and contacts), `Kinematic` (its
/// prescribed velocity only) or `Static` (never).
#[pyclass(
    name = "BodyKind",
    module = "parapet",
    frozen,
    eq,
    hash,
    from_py_object
)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum PyBodyKind {
    /// Moved by forces, impulses and contacts.
    Dynamic,
    /// Moved by its prescribed velocity only.
    Kinematic,
    /// Never moves.
    Static,
}

impl From<PyBodyKind> for BodyKind {
    fn from(kind: PyBodyKind) -> Self {
        match kind {
            PyBodyKind::Dynamic => BodyKind::Dynamic,
            PyBodyKind::Kinematic => BodyKind::Kinematic,
            PyBodyKind::Static => BodyKind::Static,
        }
    }
}

impl From<BodyKind> for PyBodyKind {
    fn from(kind: BodyKind) -> Self {
        match kind {
            BodyKind::Dynamic => PyBodyKind::Dynamic,
            BodyKind::Kinematic => PyBodyKind::Kinematic,
            BodyKind::Static => PyBodyKind::Static,
        }
    }
}

/// How a contact was found: `ContactKind.Initial` (a contact point of the
/// step's start) or `ContactKind.Swept` (an impact the continuous stage found
/// within the step).
#[pyclass(
    name = "ContactKind",
    module = "parapet",
    frozen,
    eq,
    hash,
    from_py_object
)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct PyContactKind(pub(crate) ContactKind);

#[pymethods]
impl PyContactKind {
    /// A contact point at the start of the step.
    #[classattr]
    #[pyo3(name = "Initial")]
    fn initial() -> Self {
        Self(ContactKind::Initial)
    }

    /// An impact found by the continuous stage within the step.
    #[classattr]
    #[pyo3(name = "Swept")]
    fn swept() -> Self {
        Self(ContactKind::Swept)
    }

    fn __repr__(&self) -> String {
        format!("ContactKind.{:?}", self.0)
    }
}
