//! The tangent basis of a contact normal, shared by the sequential-impulse
//! contact rows and the impact responses.
//!
//! # Method
//! Erin Catto, "Computing a Basis" (Box2D blog, 2014): of the two crosses
//! `n × z = (n_y, −n_x, 0)` and `n × x = (0, n_z, −n_y)`, take the first
//! when `|n_x| >= 1/√3` and the second otherwise, normalize it to `t1`,
//! and complete the right-handed basis with `t2 = n × t1`. The choice is a
//! pure function of `n`, so every solve is deterministic.
//!
//! Which results depend on the basis:
//! - The contact rows (`contact::row`) solve each tangent axis with its own
//!   diagonal effective mass; for an off-centre contact the 2 x 2 tangential
//!   effective mass is not diagonal, so the converged friction impulse
//!   depends on the axes. Their results need exactly this basis.
//! - The impact responses (`impact`) solve the full 2 x 2 tangential block
//!   and clamp the impulse onto the round Coulomb cone: the impulse is the
//!   same vector in any basis, and the basis changes only its `f64`
//!   rounding (checked when the responses adopted this basis: the `f64`
//!   impulses of 100 000 random sliding contacts differed in their last
//!   bits in a third of the cases from the helper-axis basis they used
//!   before, their new velocities rounded to `f32` in none, and no digest
//!   of the `step_profile` and `scene_digests` bench examples moved).
//!
//! # Precision domain
//! `n` a unit `f64` vector; the normalized cross has length at least
//! `1/√3` before normalization, so `t1` and `t2` are unit within a few ulps
//! and orthogonal to `n` within a few ulps.

use parapet_math::Vec3d;

/// The `|n_x|` (dimensionless component of the unit normal) from which the
/// basis crosses the normal with `z` instead of `x`: `0.57735`, just below
/// `1/√3 = 0.5773502…`. Either cross then has squared length at least
/// `1/3` (`n_x² + n_y² >= 0.57735²` on one side, `1 − n_x² > 2/3` on the
/// other), so normalizing it is well conditioned. Warning: the contact
/// rows' friction depends on the axes this value selects; changing it
/// changes their results.
pub(crate) const TANGENT_AXIS_THRESHOLD: f64 = 0.57735;

/// A unit tangent basis `[t1, t2]` perpendicular to the unit normal `n`,
/// with `(t1, t2, n)` right-handed (see the module docs).
pub(crate) fn tangent_basis(n: &Vec3d) -> [Vec3d; 2] {
    let t1 = if n.x.abs() >= TANGENT_AXIS_THRESHOLD {
        Vec3d::new(n.y, -n.x, 0.0)
    } else {
        Vec3d::new(0.0, n.z, -n.y)
    };
    let t1 = t1 / t1.norm();
    [t1, n.cross(&t1)]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tangent_basis_is_orthonormal_and_right_handed() {
        for n in [
            Vec3d::z(),
            Vec3d::x(),
            -Vec3d::y(),
            Vec3d::new(1.0, 2.0, -3.0).normalize(),
            Vec3d::new(1.0, 1.0, 1.0).normalize(),
            Vec3d::new(-0.57735, 0.7, 0.1).normalize(),
        ] {
            let [t1, t2] = tangent_basis(&n);
            // Unit vectors built from one division: within a few ulps of 1.
            assert!((t1.norm() - 1.0).abs() < 1e-15 && (t2.norm() - 1.0).abs() < 1e-15);
            assert!(t1.dot(&n).abs() < 1e-15 && t2.dot(&n).abs() < 1e-15);
            assert!((t1.cross(&t2) - n).norm() < 1e-15);
        }
    }
}
