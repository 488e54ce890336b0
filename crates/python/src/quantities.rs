//! Torque, energy, momentum, stiffness and the SI unit constants
//! (`parapet.extensions.physics.quantities`): thin calls of the Rust
//! functions, vectors in as sequences of three numbers (rounded to `f32`, as
//! everywhere) and out as tuples of `f64` results.

use pyo3::prelude::*;
use pyo3::types::PyDict;

use parapet::quantities as q;
use parapet::quantities::units;

use crate::convert::{mat3, tuple3d, vec3};

type Out3 = (f64, f64, f64);

/// Torque r x F (N m) of a force (N) at lever arm r (m).
#[pyfunction]
fn torque(lever_arm: &Bound<'_, PyAny>, force: &Bound<'_, PyAny>) -> PyResult<Out3> {
    Ok(tuple3d(q::torque(
        &vec3(lever_arm, "lever_arm")?,
        &vec3(force, "force")?,
    )))
}

/// Linear momentum m v (kg m/s).
#[pyfunction]
fn linear_momentum(mass: f32, velocity: &Bound<'_, PyAny>) -> PyResult<Out3> {
    Ok(tuple3d(q::linear_momentum(
        mass,
        &vec3(velocity, "velocity")?,
    )))
}

/// Angular momentum I w (kg m²/s) for an inertia tensor (three rows) and an
/// angular velocity in the same frame.
#[pyfunction]
fn angular_momentum(
    inertia: &Bound<'_, PyAny>,
    angular_velocity: &Bound<'_, PyAny>,
) -> PyResult<Out3> {
    Ok(tuple3d(q::angular_momentum(
        &mat3(inertia, "inertia")?,
        &vec3(angular_velocity, "angular_velocity")?,
    )))
}

/// Orbital angular momentum r x (m v) (kg m²/s).
#[pyfunction]
fn orbital_angular_momentum(
    lever_arm: &Bound<'_, PyAny>,
    mass: f32,
    velocity: &Bound<'_, PyAny>,
) -> PyResult<Out3> {
    Ok(tuple3d(q::orbital_angular_momentum(
        &vec3(lever_arm, "lever_arm")?,
        mass,
        &vec3(velocity, "velocity")?,
    )))
}

/// Translational kinetic energy m |v|² / 2 (J).
#[pyfunction]
fn translational_kinetic_energy(mass: f32, velocity: &Bound<'_, PyAny>) -> PyResult<f64> {
    Ok(q::translational_kinetic_energy(
        mass,
        &vec3(velocity, "velocity")?,
    ))
}

/// Rotational kinetic energy w . (I w) / 2 (J).
#[pyfunction]
fn rotational_kinetic_energy(
    inertia: &Bound<'_, PyAny>,
    angular_velocity: &Bound<'_, PyAny>,
) -> PyResult<f64> {
    Ok(q::rotational_kinetic_energy(
        &mat3(inertia, "inertia")?,
        &vec3(angular_velocity, "angular_velocity")?,
    ))
}

/// Total kinetic energy (J) with a world-frame inertia tensor and
/// world-frame velocities.
#[pyfunction]
fn kinetic_energy(
    mass: f32,
    velocity: &Bound<'_, PyAny>,
    world_inertia: &Bound<'_, PyAny>,
    angular_velocity: &Bound<'_, PyAny>,
) -> PyResult<f64> {
    Ok(q::kinetic_energy(
        mass,
        &vec3(velocity, "velocity")?,
        &mat3(world_inertia, "world_inertia")?,
        &vec3(angular_velocity, "angular_velocity")?,
    ))
}

/// Force -k x (N) of a linear spring of stiffness k (N/m).
#[pyfunction]
fn spring_force(stiffness: f32, displacement: &Bound<'_, PyAny>) -> PyResult<Out3> {
    Ok(tuple3d(q::spring_force(
        stiffness,
        &vec3(displacement, "displacement")?,
    )))
}

/// Potential energy k |x|² / 2 (J) of a linear spring.
#[pyfunction]
fn spring_potential_energy(stiffness: f32, displacement: &Bound<'_, PyAny>) -> PyResult<f64> {
    Ok(q::spring_potential_energy(
        stiffness,
        &vec3(displacement, "displacement")?,
    ))
}

/// Stiffness m (2 pi f)² (N/m) giving natural frequency f (Hz) to mass m.
#[pyfunction]
fn stiffness_for_frequency(mass: f32, frequency: f32) -> f64 {
    q::stiffness_for_frequency(mass, frequency)
}

/// Natural angular frequency sqrt(k / m) (rad/s).
#[pyfunction]
fn natural_angular_frequency(stiffness: f32, mass: f32) -> f64 {
    q::natural_angular_frequency(stiffness, mass)
}

/// Critical damping coefficient 2 sqrt(k m) (N s/m).
#[pyfunction]
fn critical_damping(stiffness: f32, mass: f32) -> f64 {
    q::critical_damping(stiffness, mass)
}

/// The functions, and the unit constants as the dict `UNITS` (read by name
/// in `parapet/extensions/physics/quantities.py`).
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(torque, m)?)?;
    m.add_function(wrap_pyfunction!(linear_momentum, m)?)?;
    m.add_function(wrap_pyfunction!(angular_momentum, m)?)?;
    m.add_function(wrap_pyfunction!(orbital_angular_momentum, m)?)?;
    m.add_function(wrap_pyfunction!(translational_kinetic_energy, m)?)?;
    m.add_function(wrap_pyfunction!(rotational_kinetic_energy, m)?)?;
    m.add_function(wrap_pyfunction!(kinetic_energy, m)?)?;
    m.add_function(wrap_pyfunction!(spring_force, m)?)?;
    m.add_function(wrap_pyfunction!(spring_potential_energy, m)?)?;
    m.add_function(wrap_pyfunction!(stiffness_for_frequency, m)?)?;
    m.add_function(wrap_pyfunction!(natural_angular_frequency, m)?)?;
    m.add_function(wrap_pyfunction!(critical_damping, m)?)?;
    let unit_table = PyDict::new(m.py());
    for (name, value) in [
        ("METER", units::METER),
        ("MILLIMETER", units::MILLIMETER),
        ("CENTIMETER", units::CENTIMETER),
        ("KILOMETER", units::KILOMETER),
        ("KILOGRAM", units::KILOGRAM),
        ("GRAM", units::GRAM),
        ("TONNE", units::TONNE),
        ("SECOND", units::SECOND),
        ("MILLISECOND", units::MILLISECOND),
        ("RADIAN", units::RADIAN),
        ("DEGREE", units::DEGREE),
        ("NEWTON", units::NEWTON),
        ("NEWTON_METER", units::NEWTON_METER),
        ("JOULE", units::JOULE),
        ("NEWTON_PER_METER", units::NEWTON_PER_METER),
        ("KILOMETER_PER_HOUR", units::KILOMETER_PER_HOUR),
        ("STANDARD_GRAVITY", units::STANDARD_GRAVITY),
        ("DEFAULT_GRAVITY", units::DEFAULT_GRAVITY),
    ] {
        unit_table.set_item(name, value)?;
    }
    m.add("UNITS", unit_table)?;
    Ok(())
}
