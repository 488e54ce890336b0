//! Physical quantities of rigid-body mechanics and SI unit constants
//! (docs/physics.md, "Frames and units").
//!
//! Every function takes the `f32` state that bodies store and returns an `f64`
//! result: products of two `f32` values are exact in `f64`, so a cross product
//! or a momentum is rounded once, and an energy a few times, never in `f32`.
//! Vectors are expressed in one frame chosen by the caller (world frame for
//! world-frame velocities and tensors); the vector types do not enforce units,
//! the documentation of each function states them.

use crate::{Mat3, Vec3, Vec3d};

/// SI unit constants: multiply a number by a unit to express it in parapet's
/// base units (metre, kilogram, second, radian), e.g. `250.0 * MILLIMETER`.
pub mod units {
    /// One metre (m), the unit of length.
    pub const METER: f32 = 1.0;
    /// One millimetre (m).
    pub const MILLIMETER: f32 = 1.0e-3;
    /// One centimetre (m).
    pub const CENTIMETER: f32 = 1.0e-2;
    /// One kilometre (m).
    pub const KILOMETER: f32 = 1.0e3;
    /// One kilogram (kg), the unit of mass.
    pub const KILOGRAM: f32 = 1.0;
    /// One gram (kg).
    pub const GRAM: f32 = 1.0e-3;
    /// One tonne (kg).
    pub const TONNE: f32 = 1.0e3;
    /// One second (s), the unit of time.
    pub const SECOND: f32 = 1.0;
    /// One millisecond (s).
    pub const MILLISECOND: f32 = 1.0e-3;
    /// One radian (rad), the unit of angle.
    pub const RADIAN: f32 = 1.0;
    /// One degree (rad): pi / 180.
    pub const DEGREE: f32 = core::f32::consts::PI / 180.0;
    /// One newton (kg m / s^2), the unit of force.
    pub const NEWTON: f32 = 1.0;
    /// One newton metre (kg m^2 / s^2), the unit of torque.
    pub const NEWTON_METER: f32 = 1.0;
    /// One joule (kg m^2 / s^2), the unit of energy.
    pub const JOULE: f32 = 1.0;
    /// One newton per metre (kg / s^2), the unit of linear stiffness.
    pub const NEWTON_PER_METER: f32 = 1.0;
    /// One kilometre per hour (m/s): 1 / 3.6.
    pub const KILOMETER_PER_HOUR: f32 = 1.0 / 3.6;
    /// Standard gravity g0 (m/s^2): 9.80665 exactly by definition (CGPM 1901).
    pub const STANDARD_GRAVITY: f32 = 9.80665;
    /// The default gravity magnitude of a parapet world (m/s^2): 9.8, not
    /// [`STANDARD_GRAVITY`], kept for compatibility with the CARLA physics
    /// module whose paths `parapet-carla-compat` mirrors.
    pub const DEFAULT_GRAVITY: f32 = 9.8;
}

fn wide(v: &Vec3) -> Vec3d {
    v.cast::<f64>()
}

/// Torque `r x F` (N m) of a force `force` (N) applied at lever arm
/// `lever_arm` (m) from the reference point. Each component is one exact
/// difference of exact products, rounded once.
pub fn torque(lever_arm: &Vec3, force: &Vec3) -> Vec3d {
    wide(lever_arm).cross(&wide(force))
}

/// Linear momentum `m v` (kg m/s) of mass `mass` (kg) at velocity `velocity` (m/s). Exact.
pub fn linear_momentum(mass: f32, velocity: &Vec3) -> Vec3d {
    wide(velocity) * f64::from(mass)
}

/// Angular momentum `I w` (kg m^2/s) about the mass center, for the inertia
/// tensor `inertia` (kg m^2) and angular velocity `angular_velocity` (rad/s)
/// expressed in the same frame. All nine tensor entries are used.
pub fn angular_momentum(inertia: &Mat3, angular_velocity: &Vec3) -> Vec3d {
    inertia.cast::<f64>() * wide(angular_velocity)
}

/// Angular momentum `r x (m v)` (kg m^2/s) of a mass `mass` (kg) at offset
/// `lever_arm` (m) from the reference point moving at `velocity` (m/s): the
/// orbital part that the parallel-axis theorem adds about another point.
pub fn orbital_angular_momentum(lever_arm: &Vec3, mass: f32, velocity: &Vec3) -> Vec3d {
    wide(lever_arm).cross(&linear_momentum(mass, velocity))
}

/// Translational kinetic energy `m |v|^2 / 2` (J), mass in kg, velocity in m/s.
pub fn translational_kinetic_energy(mass: f32, velocity: &Vec3) -> f64 {
    0.5 * f64::from(mass) * wide(velocity).norm_squared()
}

/// Rotational kinetic energy `w . (I w) / 2` (J) for the inertia tensor
/// `inertia` (kg m^2) and angular velocity `angular_velocity` (rad/s) in the
/// same frame (use the world tensor `R I R^T` with a world-frame velocity).
pub fn rotational_kinetic_energy(inertia: &Mat3, angular_velocity: &Vec3) -> f64 {
    0.5 * wide(angular_velocity).dot(&angular_momentum(inertia, angular_velocity))
}

/// Total kinetic energy (J): translational plus rotational, with a
/// world-frame `world_inertia` (kg m^2) and world-frame velocities.
pub fn kinetic_energy(
    mass: f32,
    velocity: &Vec3,
    world_inertia: &Mat3,
    angular_velocity: &Vec3,
) -> f64 {
    translational_kinetic_energy(mass, velocity)
        + rotational_kinetic_energy(world_inertia, angular_velocity)
}

/// Force of a linear spring `-k x` (N) for stiffness `stiffness` (N/m) and
/// displacement `displacement` (m) from its rest position. Exact.
pub fn spring_force(stiffness: f32, displacement: &Vec3) -> Vec3d {
    wide(displacement) * -f64::from(stiffness)
}

/// Potential energy `k |x|^2 / 2` (J) of a linear spring of stiffness
/// `stiffness` (N/m) displaced by `displacement` (m).
pub fn spring_potential_energy(stiffness: f32, displacement: &Vec3) -> f64 {
    0.5 * f64::from(stiffness) * wide(displacement).norm_squared()
}

/// Stiffness `k = m (2 pi f)^2` (N/m) that makes a mass `mass` (kg) oscillate
/// at the natural frequency `frequency` (Hz).
pub fn stiffness_for_frequency(mass: f32, frequency: f32) -> f64 {
    let omega = 2.0 * core::f64::consts::PI * f64::from(frequency);
    f64::from(mass) * omega * omega
}

/// Natural angular frequency `sqrt(k / m)` (rad/s) of stiffness `stiffness`
/// (N/m) acting on mass `mass` (kg).
pub fn natural_angular_frequency(stiffness: f32, mass: f32) -> f64 {
    (f64::from(stiffness) / f64::from(mass)).sqrt()
}

/// Critical damping coefficient `2 sqrt(k m)` (N s/m) of a spring of stiffness
/// `stiffness` (N/m) on a mass `mass` (kg).
pub fn critical_damping(stiffness: f32, mass: f32) -> f64 {
    2.0 * (f64::from(stiffness) * f64::from(mass)).sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn torque_follows_the_right_hand_rule() {
        let t = torque(&Vec3::x(), &Vec3::y());
        assert_eq!(t, Vec3d::z());
    }

    #[test]
    fn energy_of_a_spinning_and_sliding_body() {
        // m = 2 kg at 3 m/s: 9 J; I = diag(1, 2, 3), w = (0, 0, 2): 6 J. Exact in f64.
        let inertia = Mat3::from_diagonal(&Vec3::new(1.0, 2.0, 3.0));
        let e = kinetic_energy(
            2.0,
            &Vec3::new(3.0, 0.0, 0.0),
            &inertia,
            &Vec3::new(0.0, 0.0, 2.0),
        );
        assert_eq!(e, 15.0);
    }

    #[test]
    fn off_diagonal_entries_enter_the_momentum() {
        let inertia = Mat3::new(2.0, 0.5, 0.0, 0.5, 2.0, 0.0, 0.0, 0.0, 1.0);
        let l = angular_momentum(&inertia, &Vec3::x());
        assert_eq!(l, Vec3d::new(2.0, 0.5, 0.0));
    }

    #[test]
    fn a_spring_tuned_to_one_hertz_oscillates_at_two_pi() {
        let k = stiffness_for_frequency(3.0, 1.0);
        let w = natural_angular_frequency(k as f32, 3.0);
        // k rounds once to f32 (relative 6e-8): w within 1e-6 relative of 2 pi.
        assert!((w / (2.0 * core::f64::consts::PI) - 1.0).abs() < 1e-6);
        assert_eq!(spring_force(10.0, &Vec3::new(0.5, 0.0, 0.0)).x, -5.0);
    }

    #[test]
    fn unit_constants_convert_to_base_units() {
        assert_eq!(250.0 * units::MILLIMETER, 0.25);
        assert!((180.0 * units::DEGREE - core::f32::consts::PI).abs() < 1e-6);
    }
}
