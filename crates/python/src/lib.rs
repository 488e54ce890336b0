//! The `parapet` Python package's native module, `parapet._parapet`: PyO3
//! classes around the facade's types (built against the stable ABI, one
//! wheel for CPython 3.9 and later). The package's Python side
//! (`python/parapet/`) re-exports them under `parapet` and the contract's
//! module paths `parapet.extensions.physics.*` and
//! `parapet.extensions.carla.physics.*`.
//!
//! The wrapper is thin on purpose: each Python method calls one Rust method
//! of the same name, errors keep the Rust messages, and no physics happens
//! here. The crate's `README.md` is the user's guide.

use pyo3::prelude::*;

mod arrays;
mod body;
mod convert;
mod errors;
mod ids;
mod modes;
mod quantities;
mod reports;
mod scene;
mod shape;
mod world;

/// Registers every class, function and constant.
#[pymodule]
fn _parapet(m: &Bound<'_, PyModule>) -> PyResult<()> {
    errors::register(m)?;
    m.add_class::<ids::PyBodyId>()?;
    m.add_class::<modes::PyCollisionDetection>()?;
    m.add_class::<modes::PyCcdMode>()?;
    m.add_class::<modes::PyBodyKind>()?;
    m.add_class::<modes::PyContactKind>()?;
    for (name, mode) in modes::constants() {
        m.add(name, mode)?;
    }
    m.add_class::<shape::PyShape>()?;
    m.add_class::<shape::PyMaterial>()?;
    m.add_class::<shape::PyMassProperties>()?;
    m.add_class::<shape::PyCollisionGroups>()?;
    m.add_class::<body::PyBody>()?;
    m.add_class::<world::PyWorld>()?;
    m.add_class::<reports::PyContactEvent>()?;
    m.add_class::<reports::PyRayHit>()?;
    m.add_class::<reports::PyCcdReport>()?;
    m.add_class::<reports::PyBodyCcdStats>()?;
    m.add_class::<reports::PyCcdRefusal>()?;
    quantities::register(m)?;
    scene::register(m)?;
    constants(m)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}

/// The tolerances and limits of the facade, by their Rust names.
fn constants(m: &Bound<'_, PyModule>) -> PyResult<()> {
    use parapet::world as w;
    let gravity = w::DEFAULT_GRAVITY;
    m.add("DEFAULT_GRAVITY", (gravity.x, gravity.y, gravity.z))?;
    m.add("DEFAULT_CCD_MAX_IMPACTS", w::DEFAULT_CCD_MAX_IMPACTS)?;
    m.add("DEFAULT_CCD_MAX_SUBSTEPS", w::DEFAULT_CCD_MAX_SUBSTEPS)?;
    let impacts = w::CCD_MAX_IMPACTS_LIMIT;
    m.add("CCD_MAX_IMPACTS_LIMIT", (*impacts.start(), *impacts.end()))?;
    let substeps = w::CCD_MAX_SUBSTEPS_LIMIT;
    m.add(
        "CCD_MAX_SUBSTEPS_LIMIT",
        (*substeps.start(), *substeps.end()),
    )?;
    m.add("CONTACT_MARGIN", w::CONTACT_MARGIN)?;
    m.add("CHECK_CCD_DEFAULT_DT", parapet::ccd::CHECK_CCD_DEFAULT_DT)?;
    m.add("AUTO_MOTION_FRACTION", parapet::ccd::AUTO_MOTION_FRACTION)?;
    m.add("MAX_COORDINATE", parapet::shape::MAX_COORDINATE)?;
    m.add("THIN_TRIANGLE_RATIO", parapet::shape::THIN_TRIANGLE_RATIO)?;
    m.add("ACTIVE_EDGE_ANGLE", parapet::shape::ACTIVE_EDGE_ANGLE)?;
    Ok(())
}
