//! `BodyId`: the id a world gives a body, as a hashable, ordered Python
//! value.

use pyo3::prelude::*;

/// The id a world gives a body: a slot index and a generation that is never
/// reused, so that a removed body's id is refused rather than naming a new
/// body. Hashable and ordered (by generation, then index, as in Rust).
#[pyclass(
    name = "BodyId",
    module = "parapet",
    frozen,
    eq,
    ord,
    hash,
    from_py_object
)]
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct PyBodyId(pub(crate) parapet::body::BodyId);

impl From<parapet::body::BodyId> for PyBodyId {
    fn from(id: parapet::body::BodyId) -> Self {
        Self(id)
    }
}

#[pymethods]
impl PyBodyId {
    /// The slot the body occupies in its world (reused after a removal).
    #[getter]
    fn index(&self) -> u32 {
        self.0.index()
    }

    /// The insertion counter of the body (never reused in a world).
    #[getter]
    fn generation(&self) -> u64 {
        self.0.generation()
    }

    fn __repr__(&self) -> String {
        format!(
            "BodyId(generation={}, index={})",
            self.0.generation(),
            self.0.index()
        )
    }

    fn __str__(&self) -> String {
        self.0.to_string()
    }
}
