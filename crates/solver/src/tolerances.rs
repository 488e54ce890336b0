//! Named tolerances of the solver crate, with unit and reason.

/// How far the squared norm of a stored unit quaternion (a body rotation or a
/// shape rotation) may be from 1 before [`crate::body::RigidBody::validate`]
/// refuses it (unitless, on `|q|²`).
///
/// The value is 1e-5 ("Numeric boundaries" in docs/physics.md): it accepts the rounding that `f32` storage and
/// user-side composition of rotations accumulate (a normalized `f32`
/// quaternion is within about 1e-7 of unit norm; hundreds of `f32` products
/// stay far below 1e-5), while a quaternion that was never normalized (for
/// example a hand-built `new_unchecked` value) is refused before it scales
/// positions and tensors. Warning: the integrators renormalize every pose they
/// write, so a larger value never helps a valid body; a smaller one refuses
/// legitimate user input.
pub const UNIT_QUATERNION_SQUARED_NORM_TOLERANCE: f32 = 1.0e-5;
