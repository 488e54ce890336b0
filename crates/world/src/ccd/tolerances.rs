//! The named lengths of the continuous step (see docs/continuous-collision.md,
//! "How a step works"): where an impact stops two surfaces, how deep a
//! resting contact may sink before it counts as an impact, and the
//! arbiter's tolerance; each scaled down for small shapes.
//!
//! # Method
//! Every length is the smaller of an absolute value and a fraction of the
//! pair's *inner size* ([`inner_size`]: a sphere's or capsule's radius, a
//! box's smallest half extent, a hull's inradius; unbounded for a mesh),
//! so that a 2 mm needle and a 4 m car box both keep their margins small
//! against their own size.
//!
//! # Precision domain
//! Lengths in metres, `f64`.

use parapet_geometry::Shape;

use super::policy::smallest_extent;

/// The gap (m) at which an approaching pair is struck: 0, touching. The
/// arbiter stops the pair when its distance reaches the gap (never later),
/// within [`CONTACT_TOLERANCE`] above it, so an impact leaves the surfaces
/// touching or a hair apart; a struck pair is non-closing, and the
/// discrete contacts of the next step take it from there.
pub const IMPACT_GAP: f64 = 0.0;

/// The arbiter's tolerance (m): how far above the target gap a hit may
/// stop: 50 µm, or a sixty-fourth of the pair's inner size if smaller.
/// Warning: much smaller costs the arbiter iterations on turning pairs,
/// much larger leaves visible air between struck bodies.
pub const CONTACT_TOLERANCE: f64 = 5.0e-5;

/// The fraction of the pair's inner size that bounds [`CONTACT_TOLERANCE`]
/// (dimensionless): 1/64.
pub const TOLERANCE_FRACTION: f64 = 1.0 / 64.0;

/// The fraction of the pair's inner size that bounds [`HELD_DEPTH`]
/// (dimensionless): 1/16.
pub const INNER_FRACTION: f64 = 1.0 / 16.0;

/// How far (m) a resting pair (one that is not closing fast: it would
/// sink less than half this by the end of the step at its present closing
/// speed) may sink before it counts as an impact: 5 mm (the contact solver's penetration slop), or a sixteenth of
/// the pair's inner size if smaller. A resting contact is the discrete
/// solver's; the continuous step only guarantees it sinks no deeper than
/// this within a step ("held"), so a box resting on a floor or a stack of
/// boxes makes no event. This is the depth docs/continuous-collision.md
/// promises: no body ends inside another deeper than its start depth plus
/// this.
pub const HELD_DEPTH: f64 = 5.0e-3;

/// The inner size (m) of a shape: half its smallest width (the radius of a
/// sphere or capsule, a box's smallest half extent, a lower bound of a
/// hull's inradius); infinite for a mesh.
pub fn inner_size(shape: &Shape) -> f64 {
    0.5 * smallest_extent(shape)
}

/// The held depth (m) of `shape` against a mesh or a larger shape: how deep
/// a resting contact of it may sink within a step ([`HELD_DEPTH`], scaled
/// down for small shapes).
pub fn held_depth(shape: &Shape) -> f64 {
    HELD_DEPTH.min(inner_size(shape) * INNER_FRACTION)
}

/// Contact tolerances (count) a pair may sink beyond its held depth: 16.
/// A pair that reached its held floor and hardly closes there is let sink
/// a reserve of 8 tolerances once per step, then a quarter tolerance per
/// hold, and is struck (a micro-collision) rather than held beyond this;
/// a pair that starts a step deeper than its held depth (before the
/// discrete solver's correction) keeps to it too.
pub const DEPTH_TOLERANCES: f64 = 16.0;

/// The contact tolerance (m) of `shape` against a mesh or a larger shape
/// ([`CONTACT_TOLERANCE`], scaled down for small shapes).
pub fn contact_tolerance(shape: &Shape) -> f64 {
    CONTACT_TOLERANCE.min(inner_size(shape) * TOLERANCE_FRACTION)
}

/// The depth (m) that no body of shape `shape` ends behind a surface or
/// inside a larger body beyond, after a step of the continuous mode: its
/// held depth plus [`DEPTH_TOLERANCES`] contact tolerances (see
/// docs/continuous-collision.md, "How a step works").
pub fn promised_depth(shape: &Shape) -> f64 {
    held_depth(shape) + DEPTH_TOLERANCES * contact_tolerance(shape)
}

/// The impact gap, held depth and tolerance (m) of a pair of shapes with
/// inner sizes `a` and `b`.
pub(crate) fn pair_lengths(a: f64, b: f64) -> PairLengths {
    let inner = a.min(b);
    let held = HELD_DEPTH.min(inner * INNER_FRACTION);
    let tolerance = CONTACT_TOLERANCE.min(inner * TOLERANCE_FRACTION);
    PairLengths {
        gap: IMPACT_GAP,
        held,
        tolerance,
        promised: held + DEPTH_TOLERANCES * tolerance,
    }
}

/// The lengths of one pair (m).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct PairLengths {
    /// The impact gap.
    pub gap: f64,
    /// The held depth.
    pub held: f64,
    /// The arbiter's tolerance.
    pub tolerance: f64,
    /// The promised depth: no hold takes the pair deeper.
    pub promised: f64,
}

#[cfg(test)]
mod tests {
    use super::*;
    use parapet_math::Vec3;

    #[test]
    fn small_shapes_scale_the_lengths_down() {
        let needle = Shape::capsule(0.0025, 1.0).unwrap();
        let floor = f64::INFINITY;
        let l = pair_lengths(inner_size(&needle), floor);
        assert!((l.held - 0.0025f32 as f64 / 16.0).abs() < 1e-12);
        assert!((l.tolerance - 0.0025f32 as f64 / 64.0).abs() < 1e-12);
        let car = Shape::cuboid(Vec3::new(2.2, 0.9, 0.7)).unwrap();
        let l = pair_lengths(inner_size(&car), floor);
        assert_eq!(
            (l.gap, l.held, l.tolerance),
            (IMPACT_GAP, HELD_DEPTH, CONTACT_TOLERANCE)
        );
    }
}
