//! The arbiter's precision domain, its rounding slack and its refusals.
//!
//! # Method
//! Every bound the arbiter certifies is computed from `f64` positions of the
//! cores' points at one instant. Those positions differ from the exact
//! motion's by the rounding of `c(t) = c + v t`, of `exp(ω t)` and of one
//! rotation of each arm: a few `ε` of `|c| + |v t| + r (1 + |ω t|)`
//! (`position_slack`, with the generous factor [`ROUNDING_FACTOR`]). The
//! slack is subtracted from every gap, so the bounds hold for the exact
//! motion. Where the slack would exceed [`MAX_SLACK_FRACTION`] of the
//! query's tolerance, no certificate can make progress, and the query is
//! refused ([`Refusal::PrecisionDomain`]) rather than answered late.
//!
//! # Limits
//! Coordinates of mass centres over the window within [`MAX_COORDINATE`]
//! (1e6 m, the mesh limit of the continuous mode), a core's reach from its
//! mass centre and its skin within [`MAX_SIZE`], and the slack above.

use parapet_math::Vec3d;

/// Multiple of `f64::EPSILON` of a position's magnitude by which the
/// arbiter's positions may differ from the exact motion (dimensionless):
/// `c + v t` rounds twice, `exp(ω t)` carries an angle error of about
/// `2 ε |ω t|` plus a few `ε`, and a rotation of an arm rounds about ten
/// times; 64 covers the sum with a margin of four.
pub const ROUNDING_FACTOR: f64 = 64.0;

/// The largest slack, as a fraction of the query's tolerance
/// (dimensionless, 1/16): beyond it the arbiter refuses, since every
/// sub-step must keep most of the tolerance as progress.
pub const MAX_SLACK_FRACTION: f64 = 1.0 / 16.0;

/// The largest coordinate of a mass centre during a query (m): the world's
/// coordinate limit ([`parapet_geometry::MAX_COORDINATE`]).
pub const MAX_COORDINATE: f64 = parapet_geometry::MAX_COORDINATE;

/// The largest reach of a core's points from its mass centre, and the
/// largest skin radius (m): 1e4 m, the sweeps' largest radius.
pub const MAX_SIZE: f64 = 1.0e4;

/// Why the arbiter did not answer. Each variant names the quantity, its
/// value and the limit it broke.
#[derive(Debug, Clone, Copy, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum Refusal {
    /// An input is NaN or infinite.
    #[error("{quantity} is not finite ({value})")]
    NotFinite {
        /// What the value is.
        quantity: &'static str,
        /// The value.
        value: f64,
    },
    /// An input is outside its valid range (a window that ends before it
    /// starts, a tolerance that is not positive).
    #[error("{quantity} = {value} is invalid (limit: {limit})")]
    Invalid {
        /// What the value is.
        quantity: &'static str,
        /// The value.
        value: f64,
        /// The limit it broke.
        limit: f64,
    },
    /// An input is beyond the precision domain (module docs).
    #[error("{quantity} = {value} is beyond the precision domain (limit {limit})")]
    PrecisionDomain {
        /// What the value is.
        quantity: &'static str,
        /// The value.
        value: f64,
        /// The limit.
        limit: f64,
    },
    /// A shape kind the moving-shape layer does not know.
    #[error("a {shape} has no moving core")]
    UnsupportedShape {
        /// The shape kind.
        shape: &'static str,
    },
    /// The query used up its work budget (advancement iterations).
    #[error("the time of impact took {iterations} iterations, beyond its budget of {limit}")]
    WorkBudget {
        /// Iterations done.
        iterations: u32,
        /// The budget.
        limit: u32,
    },
}

/// `Ok` when every component of `v` is finite.
pub(crate) fn finite_vec(quantity: &'static str, v: &Vec3d) -> Result<(), Refusal> {
    match v.iter().find(|x| !x.is_finite()) {
        Some(x) => Err(Refusal::NotFinite {
            quantity,
            value: *x,
        }),
        None => Ok(()),
    }
}

/// `Ok` when `x` is finite.
pub(crate) fn finite(quantity: &'static str, x: f64) -> Result<(), Refusal> {
    if x.is_finite() {
        Ok(())
    } else {
        Err(Refusal::NotFinite { quantity, value: x })
    }
}

/// `Ok` when `|x| <= limit` (a NaN is refused).
pub(crate) fn within(quantity: &'static str, x: f64, limit: f64) -> Result<(), Refusal> {
    if x.abs() <= limit {
        Ok(())
    } else {
        Err(Refusal::PrecisionDomain {
            quantity,
            value: x,
            limit,
        })
    }
}

/// A bound (m) of the difference between a computed position and the exact
/// one for a point at distance `reach` (m) from a mass centre at distance
/// `center` (m) from the working origin, moving at `speed` (m/s) and turning
/// at `spin` (rad/s) for `|t|` seconds from the motion's reference: see the
/// module docs.
pub(crate) fn position_slack(center: f64, speed: f64, spin: f64, reach: f64, t: f64) -> f64 {
    let t = t.abs();
    ROUNDING_FACTOR * f64::EPSILON * (center + speed * t + reach * (1.0 + spin * t))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refusals_name_the_quantity_value_and_limit() {
        let r = within("mass centre coordinate", 1e30, MAX_COORDINATE).unwrap_err();
        let text = r.to_string();
        assert!(text.contains("mass centre coordinate"), "{text}");
        assert!(text.contains("1000000000000000000000000000000"), "{text}");
        assert!(text.contains("1000000"), "{text}");
        assert!(within("x", f64::NAN, 1.0).is_err());
        assert!(finite_vec("v", &Vec3d::new(0.0, f64::INFINITY, 0.0)).is_err());
        assert_eq!(finite("t", 2.0), Ok(()));
    }

    #[test]
    fn the_slack_grows_with_every_magnitude() {
        let base = position_slack(1.0, 1.0, 1.0, 1.0, 1.0);
        assert!(position_slack(2.0, 1.0, 1.0, 1.0, 1.0) > base);
        assert!(position_slack(1.0, 2.0, 1.0, 1.0, 1.0) > base);
        assert!(position_slack(1.0, 1.0, 2.0, 1.0, 1.0) > base);
        assert!(position_slack(1.0, 1.0, 1.0, 2.0, 1.0) > base);
        assert_eq!(position_slack(1.0, 1.0, 1.0, 1.0, -1.0), base);
    }
}
