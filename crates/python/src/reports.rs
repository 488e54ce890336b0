//! What a step and a query report: `ContactEvent`, `RayHit`, `CcdReport`,
//! `BodyCcdStats` and `CcdRefusal`, as immutable Python values copied from
//! the Rust ones (vectors as tuples, ids as `BodyId`).

use pyo3::prelude::*;

use parapet::ccd::{BodyCcdStats, CcdRefusal, CcdReport};
use parapet::collide::{ContactEvent, RayHit};

use crate::convert::{self, Tuple3};
use crate::errors;
use crate::ids::PyBodyId;
use crate::modes::{PyCcdMode, PyContactKind};

/// A contact of the last step: the two bodies, the contact point (m,
/// world), the normal (from body_a towards body_b), the impulse applied to
/// body_b (N s; body_a receives its negative), the time as a fraction of
/// the step in [0, 1] (0 for initial contacts) and the kind.
#[pyclass(name = "ContactEvent", module = "parapet", frozen, get_all)]
pub(crate) struct PyContactEvent {
    /// The first body.
    body_a: PyBodyId,
    /// The second body (the one the impulse is applied to).
    body_b: PyBodyId,
    /// The contact point (m, world).
    point: Tuple3,
    /// The contact normal, from body_a towards body_b.
    normal: Tuple3,
    /// The impulse applied to body_b (N s).
    normal_impulse: Tuple3,
    /// The time of the contact, a fraction of the step in [0, 1].
    time: f32,
    /// Initial or Swept.
    kind: PyContactKind,
}

impl From<&ContactEvent> for PyContactEvent {
    fn from(e: &ContactEvent) -> Self {
        Self {
            body_a: e.body_a.into(),
            body_b: e.body_b.into(),
            point: convert::tuple3(e.point),
            normal: convert::tuple3(e.normal),
            normal_impulse: convert::tuple3(e.normal_impulse),
            time: e.time,
            kind: PyContactKind(e.kind),
        }
    }
}

#[pymethods]
impl PyContactEvent {
    fn __repr__(&self) -> String {
        format!(
            "ContactEvent({} - {}, {:?}, time={}, point={:?}, normal={:?})",
            self.body_a.0, self.body_b.0, self.kind.0, self.time, self.point, self.normal
        )
    }
}

/// The nearest hit of a ray cast: the body, the distance along the ray (m),
/// the point (m, world) and the surface normal there.
#[pyclass(name = "RayHit", module = "parapet", frozen, get_all)]
pub(crate) struct PyRayHit {
    /// The body hit.
    body: PyBodyId,
    /// The distance along the ray (m).
    distance: f32,
    /// The hit point (m, world).
    point: Tuple3,
    /// The surface normal at the hit point.
    normal: Tuple3,
}

impl From<&RayHit> for PyRayHit {
    fn from(h: &RayHit) -> Self {
        Self {
            body: h.body.into(),
            distance: h.distance,
            point: convert::tuple3(h.point),
            normal: convert::tuple3(h.normal),
        }
    }
}

#[pymethods]
impl PyRayHit {
    fn __repr__(&self) -> String {
        format!(
            "RayHit({}, distance={}, point={:?}, normal={:?})",
            self.body.0, self.distance, self.point, self.normal
        )
    }
}

/// The continuous stage's counters of the last successful step (all zero
/// before the first and in a step without continuous bodies).
#[pyclass(name = "CcdReport", module = "parapet", frozen, get_all)]
pub(crate) struct PyCcdReport {
    /// Bodies resolved Continuous in the step.
    continuous_bodies: u32,
    /// Of them, Auto bodies.
    auto_continuous: u32,
    /// Bodies whose motion the stage swept.
    swept_bodies: u32,
    /// Groups of more than one body swept together.
    groups: u32,
    /// The members of the largest swept group (0 without one).
    largest_group: u32,
    /// Sweep passes.
    passes: u64,
    /// Swept impacts (the step's Swept events).
    swept_impacts: u32,
    /// Instants at which simultaneous contacts were settled together.
    settled_cascades: u32,
    /// Certified sub-steps of the turning bodies.
    certified_substeps: u64,
    /// Triangle candidates swept.
    candidate_triangles: u64,
    /// Body pairs whose swept bounds met.
    candidate_pairs: u64,
    /// Time-of-impact queries the loop asked.
    toi_queries: u64,
    /// Slow contacts held at their floor instead of struck.
    held_contacts: u64,
    /// Islands whose loop ran again.
    island_reruns: u32,
}

impl From<&CcdReport> for PyCcdReport {
    fn from(r: &CcdReport) -> Self {
        // Destructured whole, so that a field added in Rust is a compile
        // error here until the Python report carries it too.
        let CcdReport {
            continuous_bodies,
            auto_continuous,
            swept_bodies,
            groups,
            largest_group,
            passes,
            swept_impacts,
            settled_cascades,
            certified_substeps,
            candidate_triangles,
            candidate_pairs,
            toi_queries,
            held_contacts,
            island_reruns,
        } = *r;
        Self {
            continuous_bodies,
            auto_continuous,
            swept_bodies,
            groups,
            largest_group,
            passes,
            swept_impacts,
            settled_cascades,
            certified_substeps,
            candidate_triangles,
            candidate_pairs,
            toi_queries,
            held_contacts,
            island_reruns,
        }
    }
}

#[pymethods]
impl PyCcdReport {
    fn __repr__(&self) -> String {
        format!(
            "CcdReport(continuous_bodies={}, swept_bodies={}, groups={}, passes={}, swept_impacts={}, certified_substeps={})",
            self.continuous_bodies,
            self.swept_bodies,
            self.groups,
            self.passes,
            self.swept_impacts,
            self.certified_substeps
        )
    }
}

/// One body's part in the continuous stage of the last successful step.
#[pyclass(name = "BodyCcdStats", module = "parapet", frozen, get_all)]
pub(crate) struct PyBodyCcdStats {
    /// The mode it resolved to: Continuous or Discrete.
    mode: PyCcdMode,
    /// Swept impacts it took part in.
    impacts: u32,
    /// Certified sub-steps it took (turning bodies).
    substeps: u32,
    /// The members of the group it was swept in (1 alone, 0 not swept).
    group_size: u32,
}

impl From<BodyCcdStats> for PyBodyCcdStats {
    fn from(s: BodyCcdStats) -> Self {
        let BodyCcdStats {
            mode,
            impacts,
            substeps,
            group_size,
        } = s;
        Self {
            mode: mode.into(),
            impacts,
            substeps,
            group_size,
        }
    }
}

#[pymethods]
impl PyBodyCcdStats {
    fn __repr__(&self) -> String {
        format!(
            "BodyCcdStats(mode={:?}, impacts={}, substeps={}, group_size={})",
            parapet::ccd::CcdMode::from(self.mode),
            self.impacts,
            self.substeps,
            self.group_size
        )
    }
}

/// A body the next step would refuse: the body, the other body the refusal
/// names (or None), and the StepError the step would raise (`error`, not
/// raised; `str(refusal)` is its message: the reason, the value, the limit).
#[pyclass(name = "CcdRefusal", module = "parapet", frozen, get_all)]
pub(crate) struct PyCcdRefusal {
    /// The refused body.
    body: PyBodyId,
    /// The other body the refusal names, if any.
    other: Option<PyBodyId>,
    /// The StepError the step would raise.
    error: Py<PyAny>,
    /// Its message.
    message: String,
}

impl PyCcdRefusal {
    /// The Python form of `r`.
    pub(crate) fn new(py: Python<'_>, r: &CcdRefusal) -> PyResult<Self> {
        Ok(Self {
            body: r.body.into(),
            other: r.other.map(PyBodyId::from),
            error: errors::step_error_value(py, &r.error)?,
            message: r.to_string(),
        })
    }
}

#[pymethods]
impl PyCcdRefusal {
    fn __str__(&self) -> String {
        self.message.clone()
    }

    fn __repr__(&self) -> String {
        format!("CcdRefusal({}: {})", self.body.0, self.message)
    }
}
