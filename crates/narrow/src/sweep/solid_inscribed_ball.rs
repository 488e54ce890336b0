//! The inscribed-ball test of a hull's edge-pair axes, a layer of
//! `sweep_solid_triangle` (see `solid_triangle`).
//!
//! Method: a ball of radius `rho` around the shape origin inside the solid
//! projects on any axis `c` onto `[-rho |c|, rho |c|]`, which the solid's
//! true projection contains. The entry time of that inner interval is no
//! earlier than the true one and its exit no later, so when even the inner
//! interval neither enters after the latest entry so far nor leaves before
//! the earliest exit (nor, for an axis along which the solid does not move,
//! fails to overlap), the true interval cannot change the outcome either,
//! and the axis is skipped before the solid's silhouette is projected on it
//! (a conservative bound in the manner of Ericson, *Real-Time Collision
//! Detection* 4.3, bounding spheres). The test costs two products and is
//! worth it only for silhouettes of at least
//! [`SLACK_TEST_MIN_SILHOUETTE`](crate::solid::inscribed_ball::SLACK_TEST_MIN_SILHOUETTE)
//! vertices; the ball's radius and the edge directions worth the test are
//! tables of the solid (`solid/inscribed_ball.rs`).
//!
//! Precision domain: the ball's radius is the smallest distance from the
//! origin to a face plane shrunk by a relative `1e-9`, far above the
//! rounding of the face intervals, so the ball lies inside the solid.

use parapet_math::Vec3d;

use super::solid_sat::{resolved_dot, Sat};

impl Sat {
    /// Whether an axis is certainly irrelevant given an interval `inner`
    /// that the solid's true projection contains: the true entry is no later
    /// than the inner one and the true exit no earlier, so when the inner
    /// entry does not pass the current latest entry, the inner exit does not
    /// undercut the current earliest exit, and (for a still axis) the inner
    /// interval strictly overlaps, folding the axis in would change nothing.
    #[inline]
    pub(crate) fn slack(
        &self,
        axis: Vec3d,
        (smin, smax): (f64, f64),
        (tmin, tmax): (f64, f64),
        d: Vec3d,
    ) -> bool {
        self.slack_moving(resolved_dot(axis, d), (smin, smax), (tmin, tmax))
    }

    /// [`Sat::slack`] given `resolved_dot(axis, d)`.
    #[inline]
    pub(crate) fn slack_moving(
        &self,
        v: Option<f64>,
        (smin, smax): (f64, f64),
        (tmin, tmax): (f64, f64),
    ) -> bool {
        let Some(v) = v else {
            return smin < tmax && smax > tmin;
        };
        let (t_in, t_out) = if v < 0.0 {
            ((smin - tmax) / -v, (smax - tmin) / -v)
        } else {
            ((tmin - smax) / v, (tmax - smin) / v)
        };
        t_in <= self.enter.0 && t_out >= self.exit
    }
}
