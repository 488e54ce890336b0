//! The knobs of inclusion CCD: the tolerance delta, the iteration cap m_I and
//! the minimum separation d (delta trades precision for speed), with
//! their defaults and validation.

use super::error::InclusionError;

/// Default relative tolerance delta (dimensionless): the accepted box's image
/// is about `1e-6` of the length scale wide. Wang et al. 2021 use an absolute
/// `1e-6` on unit-size scenes; relative to the scale it stays meaningful when
/// the scene is scaled (delta and m_I are normalised by the scene's scale).
/// Warning: below about `1e-12` the parameter resolution
/// [`MIN_PARAMETER_WIDTH`] is reached first and the extra precision is not
/// delivered (the reported `precision` says so).
pub(crate) const DEFAULT_TOLERANCE: f64 = 1e-6;

/// Default iteration cap m_I (boxes evaluated per query), after which the
/// query answers [`super::InclusionStatus::IterationLimit`] with the earliest
/// time still possible: 1,000,000 (Wang et al. 2021's value).
///
/// What it costs: a query evaluates at most m_I boxes, each about 3,000
/// instructions (2,700 vertex-face, 3,100 edge-edge, counted by callgrind),
/// about 1 µs on a 3 GHz core, and queues at most m_I + 1 boxes of 88 bytes.
/// The default therefore bounds a query to about `3e9` instructions and
/// 90 MB of queue (180 MB with the queue's growth): 1 to 2 s measured on
/// the worst queries we could construct (coplanar sliding at tolerance
/// `1e-300`, where no box can be accepted and none refuted before the cap).
/// Ordinary queries need far less: the 7,279 sample queries of Wang et al.
/// at most 2,337 boxes (delta `1e-8`, either order); random coplanar queries
/// at the default tolerance and order 1 box at the median and 15,701 at the 99.9th
/// percentile (at most 96,806 of 6,000).
///
/// Warning: for a latency bound, set `max_iterations` yourself: 10,000
/// bounds a query to about `3e7` instructions, a few tens of milliseconds
/// (10 to 35 ms measured), at the price of an `IterationLimit` answer
/// (conservative, but only as precise as the box it stopped at) on about
/// 0.15% of random coplanar queries at the default tolerance.
pub(crate) const DEFAULT_MAX_ITERATIONS: u64 = 1_000_000;

/// Smallest width (dimensionless, in t, u or v) of a parameter box that is
/// still split: `2^-40`, about `9.1e-13`. Every box bound is then a multiple
/// of `2^-40` in `[0, 1]`, so midpoints, `1 - t` and `u + v` are exact in
/// `f64`, and a query terminates even when the tolerance asks for more.
pub(crate) const MIN_PARAMETER_WIDTH: f64 = 1.0 / (1u64 << 40) as f64;

/// In which order the candidate boxes are examined. Both orders return the
/// same kind of conservative answer; they differ in work done.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub enum SearchOrder {
    /// Breadth-first by bisection level, then by lower time bound (Wang et
    /// al. 2021): refinement is uniform, so at the iteration cap every
    /// surviving box is about equally refined.
    LevelThenTime,
    /// Best-first by lower time bound (Snyder 1992: the queue ordered by t),
    /// the bound rounded down to time buckets (a power of two no wider
    /// than the t tolerance), deeper boxes first within a bucket: the first
    /// accepted box ends the search and its bucket's floor is the answer
    /// (earlier than the box's own bound by less than the t tolerance), and
    /// contact sets that are whole curves or surfaces (sliding, coplanar
    /// parallel motion, a positive d) are resolved along one path instead of
    /// along the whole set.
    #[default]
    TimeThenDepth,
}

/// Configuration of inclusion CCD queries.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct InclusionConfig {
    /// Relative tolerance delta (dimensionless, > 0, default
    /// `1e-6`). The absolute tolerance is `tolerance *
    /// length_scale`: a box is accepted when F's image over it lies in the
    /// cube of that half-width (plus `min_separation`), or when its parameter
    /// widths are below the per-dimension tolerances derived from it. Larger:
    /// faster, earlier (more conservative) times and more false positives.
    pub tolerance: f64,
    /// Iteration cap m_I (boxes evaluated, >= 1, default 1,000,000): a
    /// query costs at most about 3,000 instructions (about 1 µs) and 88
    /// bytes of queue per box, so the default allows up to about 2 s and
    /// 180 MB; 10,000 bounds a query to a few tens of milliseconds (see the
    /// crate docs, "Cost").
    pub max_iterations: u64,
    /// Minimum separation d (length, >= 0, default 0): contact is reported
    /// when the primitives come within d in the L-infinity norm (the
    /// minimum-separation variant of Wang et al. 2021), i.e. when F enters the cube `[-d, d]^3`. Absolute, in the
    /// query's units.
    pub min_separation: f64,
    /// The length scale that `tolerance` is relative to (length, > 0).
    /// `None` (default): each query's own extent, the largest side of the
    /// axis-aligned box around its 8 points. Give the scene's size to make
    /// the tolerance uniform over a scene.
    pub length_scale: Option<f64>,
    /// Order in which candidate boxes are examined (default
    /// [`SearchOrder::TimeThenDepth`]: on the 7,279 handcrafted sample
    /// queries it evaluates 1.72 boxes per query on average at delta = 1e-6
    /// (worst 255) and 1.96 at 1e-8 (worst 312), against 1.95 (worst 397)
    /// and 2.56 (worst 2,337) for [`SearchOrder::LevelThenTime`], with the
    /// same false positives).
    pub search_order: SearchOrder,
}

impl Default for InclusionConfig {
    fn default() -> Self {
        Self {
            tolerance: DEFAULT_TOLERANCE,
            max_iterations: DEFAULT_MAX_ITERATIONS,
            min_separation: 0.0,
            length_scale: None,
            search_order: SearchOrder::default(),
        }
    }
}

impl InclusionConfig {
    /// Checks every field; the first invalid one is reported.
    pub fn validate(&self) -> Result<(), InclusionError> {
        if !(self.tolerance.is_finite() && self.tolerance > 0.0) {
            return Err(InclusionError::InvalidTolerance {
                value: self.tolerance,
            });
        }
        if self.max_iterations == 0 {
            return Err(InclusionError::InvalidMaxIterations {
                value: self.max_iterations,
            });
        }
        if !(self.min_separation.is_finite() && self.min_separation >= 0.0) {
            return Err(InclusionError::InvalidMinSeparation {
                value: self.min_separation,
            });
        }
        if let Some(scale) = self.length_scale {
            if !(scale.is_finite() && scale > 0.0) {
                return Err(InclusionError::InvalidLengthScale { value: scale });
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_config_is_valid() {
        assert_eq!(InclusionConfig::default().validate(), Ok(()));
    }

    #[test]
    fn invalid_fields_are_named() {
        let base = InclusionConfig::default();
        let cases = [
            InclusionConfig {
                tolerance: 0.0,
                ..base
            },
            InclusionConfig {
                tolerance: f64::NAN,
                ..base
            },
            InclusionConfig {
                max_iterations: 0,
                ..base
            },
            InclusionConfig {
                min_separation: -1e-3,
                ..base
            },
            InclusionConfig {
                length_scale: Some(f64::INFINITY),
                ..base
            },
        ];
        for (config, expected) in cases.iter().zip([
            "tolerance",
            "tolerance",
            "max_iterations",
            "minimum separation",
            "length_scale",
        ]) {
            let message = config.validate().unwrap_err().to_string();
            assert!(message.contains(expected), "{message}");
        }
    }

    #[test]
    fn min_parameter_width_is_a_power_of_two() {
        assert_eq!(MIN_PARAMETER_WIDTH, 2f64.powi(-40));
    }
}
