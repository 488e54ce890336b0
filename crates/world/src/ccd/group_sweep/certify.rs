//! The group sweep's miss certificates ([`super::memo`]): proofs that a
//! member pair, or a sphere member and a triangle, stay apart for the rest
//! of the step while the members keep their velocities, so that a pass
//! sweeps neither again although every member moved.
//!
//! # Method
//! When a member's velocity is set (at the step's start, after an impulse,
//! or when its drift exceeds its allowance) it takes a certificate: its
//! `f32` position `o`, its swept velocity `v` and the elapsed time `e0`.
//! Its ideal path is `o + v (t - e0)`; the pass loop moves it along that
//! path, rounding its position to `f32` at every pass, so its position
//! drifts from the ideal path by the accumulated roundoff. The certificate
//! stands while the velocity's bits are unchanged and the drift (measured
//! each pass) stays within the member's allowance `A` ([`allowance`]).
//!
//! A pair whose ideal paths (centre lines) keep, over the rest of the step
//! up to the horizon `H` ([`horizon`]), a distance above both half axes,
//! both radii, both allowances and the pair cull's margin
//! ([`super::cull::PAIR_CULL_MARGIN`], twice) is a miss of the exact pair
//! sweep at every later pass while both certificates stand: each member's
//! segment lies within its half axis of its centre, its centre within `A`
//! of its ideal path, and a pass sweeps a sub-interval of `[now, H]`; the
//! pair sweep reports no contact farther apart than the cull's margin
//! ([`super::cull::swept_bounds`], "Why the cull is conservative"). The
//! closest approach of two lines is `|Δc + Δv s*|`,
//! `s* = clamp(-Δc·Δv / |Δv|², 0, H - now)`.
//!
//! A sphere member and a triangle whose own checks passed are a miss while
//! the member's certificate stands when both ends of its ideal path (over
//! `[now, H]`) lie on the same side of the triangle's plane, farther than
//! the radius, the allowance and the triangle cull's margin
//! ([`super::cull::TriangleCull::misses`]), and every vertex lies within
//! [`MAX_TRIANGLE_DISTANCE_RADII`] radii of both ends less the allowance
//! (the sweep's one member-dependent triangle check; the distance along
//! the path is convex, so its ends bound it).
//!
//! # Source
//! docs/continuous-collision.md, "Performance" (group sweeps are event
//! driven); certificates for kinetic events as in kinetic data structures
//! (Basch, Guibas and Hershberger, "Data structures for mobile data", 1999).
//!
//! # Precision domain
//! The culls' margins (the sweeps' own roundoff) doubled, plus `2^-30` of
//! the coordinate scale for this file's own `f64` arithmetic; the horizon
//! covers the `f32` rounding of the remaining time for `2^14` passes, and a
//! pass beyond it certifies nothing.

use parapet_math::{promote, Vec3, Vec3d};
use parapet_narrow::sweep::MAX_TRIANGLE_DISTANCE_RADII;

use super::cull::{PAIR_CULL_MARGIN, PAIR_CULL_WORLD_MARGIN};
use super::state::State;

/// A member's allowance (m): `radius / 16 + 2^-16 |coordinates|`. A pass
/// rounds each coordinate by at most half an `f32` ulp (`2^-24` of its
/// magnitude), so the allowance lasts at least 256 passes at the largest
/// coordinates the sweeps accept (65,536 radii) and far more near the
/// origin; a member beyond it takes a new certificate.
pub(super) fn allowance(radius: f32, at: &Vec3d) -> f64 {
    radius as f64 / 16.0 + at.amax() / 65536.0
}

/// The horizon (s after the step's start) of every certificate: the step
/// widened by `2^-10`. The remaining time is rounded to `f32` at each pass
/// (half an ulp, `2^-24` of the step, at most), so the end of the step
/// stays within it for `2^14` passes.
pub(super) fn horizon(dt: f32) -> f64 {
    dt as f64 * (1.0 + 1.0 / 1024.0)
}

/// Relative margin for this file's own `f64` arithmetic (dimensionless,
/// of the coordinate scale): a few dozen operations, each within `2^-53`.
const OWN_ROUNDING: f64 = 1.0 / 1_073_741_824.0;

/// A member's certificate: its ideal path since `e0`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Cert {
    /// Position at `e0` (m).
    pub(super) origin: Vec3d,
    /// Swept velocity (m/s) and its bits.
    pub(super) velocity: Vec3,
    /// Elapsed time at the certificate (s).
    pub(super) e0: f64,
    /// The allowance (m).
    pub(super) allowance: f64,
}

impl Cert {
    /// A new certificate of member `st` at `elapsed`.
    pub(super) fn new(st: &State, elapsed: f64) -> Cert {
        let origin = promote(st.p);
        Cert {
            origin,
            velocity: st.sweep_v,
            e0: elapsed,
            allowance: allowance(st.radius, &origin),
        }
    }

    /// The ideal position at `elapsed`.
    pub(super) fn at(&self, elapsed: f64) -> Vec3d {
        self.origin + promote(self.velocity) * (elapsed - self.e0)
    }

    /// Whether the certificate stands for `st` at `elapsed`: the same
    /// velocity bits, and the position within the allowance of the ideal
    /// path (less this file's rounding).
    pub(super) fn stands(&self, st: &State, elapsed: f64) -> bool {
        let same = st.sweep_v.map(f32::to_bits) == self.velocity.map(f32::to_bits);
        if !same {
            return false;
        }
        let ideal = self.at(elapsed);
        let drift = (promote(st.p) - ideal).norm();
        drift + OWN_ROUNDING * ideal.amax() < self.allowance
    }
}

/// A member as the certificates see it: its ideal centre now, velocity,
/// radius, half axis length, allowance.
#[derive(Debug, Clone, Copy)]
pub(super) struct Path {
    pub(super) center: Vec3d,
    pub(super) velocity: Vec3d,
    pub(super) radius: f64,
    pub(super) half: f64,
    pub(super) allowance: f64,
}

impl Path {
    /// Member `st` with certificate `cert` at `elapsed`.
    pub(super) fn of(st: &State, cert: &Cert, elapsed: f64) -> Path {
        Path {
            center: cert.at(elapsed),
            velocity: promote(cert.velocity),
            radius: st.radius as f64,
            half: if st.capsule { st.half_axis.norm() } else { 0.0 },
            allowance: cert.allowance,
        }
    }

    /// Its local scale over `span` seconds (path length, size), as the
    /// culls' margins take it.
    fn scale(&self, span: f64) -> f64 {
        self.velocity.norm() * span + 2.0 * self.half + 3.0 * self.radius
    }

    /// Its largest coordinate over `span` seconds.
    fn world(&self, span: f64) -> f64 {
        self.center.amax() + self.velocity.amax() * span + self.half + self.radius
    }
}

/// Whether the pair of paths `a`, `b` is certainly apart over the next
/// `span` seconds (see the module docs). `false` for any NaN.
pub(super) fn pair_apart(a: &Path, b: &Path, span: f64) -> bool {
    if !(span >= 0.0) {
        return false;
    }
    let dc = b.center - a.center;
    let dv = b.velocity - a.velocity;
    let vv = dv.norm_squared();
    let s = if vv > 0.0 {
        (-dc.dot(&dv) / vv).clamp(0.0, span)
    } else {
        0.0
    };
    let closest = (dc + dv * s).norm();
    let world = a.world(span).max(b.world(span));
    let slack = 2.0 * PAIR_CULL_MARGIN * (a.scale(span) + b.scale(span))
        + 4.0 * PAIR_CULL_WORLD_MARGIN * world
        + OWN_ROUNDING * (world + closest);
    let need = a.half + b.half + a.radius + b.radius + a.allowance + b.allowance + slack;
    closest > need
}

/// Whether sphere path `a` certainly misses triangle `tri` (whose own
/// checks passed) over the next `span` seconds (see the module docs).
/// `false` for any NaN or a degenerate normal.
pub(super) fn triangle_apart(a: &Path, tri: &[Vec3; 3], span: f64) -> bool {
    if !(span >= 0.0) || a.half != 0.0 {
        return false;
    }
    let [p, q, r] = tri.map(promote);
    let n = (q - p).cross(&(r - p));
    let len = n.norm();
    if !(len > 0.0) {
        return false;
    }
    let n = n / len;
    let ends = [a.center, a.center + a.velocity * span];
    let world = a.world(span).max(p.amax()).max(q.amax()).max(r.amax());
    let slack = 2.0 * PAIR_CULL_MARGIN * a.scale(span)
        + 4.0 * PAIR_CULL_WORLD_MARGIN * world
        + OWN_ROUNDING * world;
    let need = a.radius + a.allowance + slack;
    let d0 = n.dot(&(ends[0] - p));
    let d1 = n.dot(&(ends[1] - p));
    let side = (d0 > need && d1 > need) || (d0 < -need && d1 < -need);
    let limit = MAX_TRIANGLE_DISTANCE_RADII * a.radius - a.allowance;
    let near = ends
        .iter()
        .all(|e| [p, q, r].iter().all(|v| (v - e).amax() < limit));
    side && near
}

#[cfg(test)]
mod tests {
    use super::*;

    fn path(c: [f64; 3], v: [f64; 3], r: f64) -> Path {
        Path {
            center: Vec3d::from(c),
            velocity: Vec3d::from(v),
            radius: r,
            half: 0.0,
            allowance: r / 16.0,
        }
    }

    /// Two spheres passing 1 m apart (r 0.2 each) are apart; aimed at each
    /// other they are not; moving apart they are.
    #[test]
    fn pair_certificates_follow_the_closest_approach() {
        let a = path([0.0, 0.0, 0.0], [10.0, 0.0, 0.0], 0.2);
        let b = path([5.0, 1.0, 0.0], [-10.0, 0.0, 0.0], 0.2);
        assert!(pair_apart(&a, &b, 1.0));
        let c = path([5.0, 0.0, 0.0], [-10.0, 0.0, 0.0], 0.2);
        assert!(!pair_apart(&a, &c, 1.0));
        // Too short a span to meet: apart (4.6 m between surfaces, closing
        // 20 m/s for 0.2 s).
        assert!(pair_apart(&a, &c, 0.2));
        let d = path([-5.0, 0.0, 0.0], [-10.0, 0.0, 0.0], 0.2);
        assert!(pair_apart(&a, &d, 1.0));
        // The allowances count: 0.45 m apart at closest, 0.4 of radii and
        // 0.025 of allowances fit; 0.42 m do not.
        let e = path([5.0, 0.45, 0.0], [-10.0, 0.0, 0.0], 0.2);
        assert!(pair_apart(&a, &e, 1.0));
        let f = path([5.0, 0.42, 0.0], [-10.0, 0.0, 0.0], 0.2);
        assert!(!pair_apart(&a, &f, 1.0));
    }

    /// A sphere flying parallel to a floor triangle above it is apart;
    /// one whose path reaches the plane is not; one far from the triangle's
    /// vertices (beyond the distance limit) is not.
    #[test]
    fn triangle_certificates_need_one_side_and_nearby_vertices() {
        let tri = [
            Vec3::new(-5.0, -5.0, 0.0),
            Vec3::new(5.0, -5.0, 0.0),
            Vec3::new(0.0, 5.0, 0.0),
        ];
        let a = path([0.0, 0.0, 1.0], [3.0, 0.0, 0.0], 0.2);
        assert!(triangle_apart(&a, &tri, 1.0));
        let b = path([0.0, 0.0, 1.0], [0.0, 0.0, -1.0], 0.2);
        assert!(!triangle_apart(&b, &tri, 1.0));
        assert!(triangle_apart(&b, &tri, 0.7));
        let tiny = path([0.0, 0.0, 1.0], [0.0; 3], 1.0e-6);
        assert!(!triangle_apart(&tiny, &tri, 1.0));
    }
}
