//! The segment core: a capsule is its core segment grown by its radius, a
//! sphere a segment of zero length. Its separating planes and floors are
//! those of the world's turning-capsule loop
//! ([`crate::sweep::certified_advance`]), bit for bit, so that a turning
//! capsule is one case of the driver.
//!
//! # Method
//! Among the triangle's face plane, its three edge side planes (through an
//! edge, orthogonal to the face, facing away from the triangle) and the
//! closest-feature plane (through the triangle's closest point, normal along
//! the closest direction), the plane that separates the segment most;
//! strictly larger separations win, so ties keep that order. Every one of
//! them leaves the whole triangle on its back side; the closest-feature
//! plane separates by exactly the segment-triangle distance (Ericson,
//! *Real-Time Collision Detection*, 5.1.10, for the closest points). The
//! shape touches a triangle when that distance is at most its radius; its
//! touch points are the two ends of the part of the segment within the
//! radius of the triangle (one point for a sphere, or where the part is a
//! point), each grown to the surface along its own closest direction.
//!
//! # Precision domain
//! That of [`crate::sweep::certified_advance`]: radii within
//! [`crate::sweep::MIN_RADIUS`] and [`crate::sweep::MAX_RADIUS`], triangles
//! within 1048576 radii of the mass centre, `f64` closest points in the
//! working frame (about `1e-10` radii of noise, far below the tolerance).
//! The plane slack is zero: the segment's plane points lie on the triangle,
//! whose rounding the plane distances' own slack covers.

use parapet_math::{Quatd, Vec3d};

use super::bound::{BendMode, ADVANCE_ROUNDING_FACTOR};
use super::{CoreShape, Placement, Plane, Separation, Touch, TOLERANCE_FRACTION};
use crate::contact::closest::{point_triangle, segment_triangle};

/// Distance (in radii, dimensionless) below which the closest direction of
/// a segment to a triangle is not used as a contact normal: the core then
/// (nearly) meets the triangle and the face normal is used, which pushes
/// the shape to the front. The value of `CORE_CONTACT_RADII` in
/// `sweep/certified_advance.rs` (crate-private).
pub const CORE_CONTACT_RADII: f64 = crate::sweep::certified_advance::CORE_CONTACT_RADII;

/// Bisections (a count) that locate each end of the touching part of a
/// segment: relative error `2^-48` of the segment length, far below the
/// tolerance for every segment within the domain.
const SPAN_BISECTIONS: u32 = 48;

/// A capsule's or sphere's core: the two ends of its segment relative to the
/// mass centre (body frame), and its radius.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SegmentCore {
    arms: [Vec3d; 2],
    radius: f64,
}

impl SegmentCore {
    /// The core with end arms `arms` (m, body frame, from the mass centre;
    /// equal for a sphere) and radius `radius` (m).
    pub fn new(arms: [Vec3d; 2], radius: f64) -> Self {
        SegmentCore { arms, radius }
    }

    /// A capsule of radius `radius` and half height `half_height` (m) along
    /// its shape frame's `z` axis, placed by `placement`: the ends are
    /// `translation ∓ rotation (0, 0, half_height)`.
    pub fn capsule(radius: f64, half_height: f64, placement: &Placement) -> Self {
        let axis = placement.rotation * Vec3d::new(0.0, 0.0, half_height);
        let base = placement.translation;
        SegmentCore::new([base - axis, base + axis], radius)
    }

    /// The end arms (m, body frame, from the mass centre).
    pub fn arms(&self) -> &[Vec3d; 2] {
        &self.arms
    }

    /// The radius (m).
    pub fn radius(&self) -> f64 {
        self.radius
    }
}

fn plane_separation(ends: &[Vec3d; 2], n: &Vec3d, o: &Vec3d) -> f64 {
    n.dot(&(ends[0] - o)).min(n.dot(&(ends[1] - o)))
}

/// The parameter (fraction from `ends[0]`) of the segment point `point`.
fn segment_parameter(ends: &[Vec3d; 2], point: &Vec3d) -> f64 {
    let d = ends[1] - ends[0];
    let l2 = d.norm_squared();
    if l2.is_nan() || l2 <= 0.0 {
        return 0.0;
    }
    ((point - ends[0]).dot(&d) / l2).clamp(0.0, 1.0)
}

/// The parameters `[λ0, λ1]` of the part of the segment within `radius` of
/// the triangle, around the closest point's parameter `lambda`: distance to
/// a convex set is convex along the segment, so that part is one interval.
fn touching_span(ends: &[Vec3d; 2], tri: &[Vec3d; 3], radius: f64, lambda: f64) -> [f64; 2] {
    let d = ends[1] - ends[0];
    let inside = |l: f64| {
        let p = ends[0] + d * l;
        (point_triangle(p, tri).0 - p).norm() <= radius
    };
    let search = |target: f64| {
        if inside(target) {
            return target;
        }
        let (mut good, mut bad) = (lambda, target);
        for _ in 0..SPAN_BISECTIONS {
            let mid = 0.5 * (good + bad);
            if inside(mid) {
                good = mid;
            } else {
                bad = mid;
            }
        }
        good
    };
    if ends[0] == ends[1] {
        return [0.0, 0.0];
    }
    [search(0.0), search(1.0)]
}

impl CoreShape for SegmentCore {
    type Posed = [Vec3d; 2];

    fn pose(&self, rotation: &Quatd) -> [Vec3d; 2] {
        [rotation * self.arms[0], rotation * self.arms[1]]
    }

    fn points(posed: &[Vec3d; 2]) -> &[Vec3d] {
        posed
    }

    fn skin(&self) -> f64 {
        self.radius
    }

    fn tolerance(&self) -> f64 {
        self.radius * TOLERANCE_FRACTION
    }

    fn domain_radius(&self) -> f64 {
        self.radius
    }

    fn reach(&self) -> f64 {
        let far = super::bound::norm_up(&self.arms[0]).max(super::bound::norm_up(&self.arms[1]));
        // A relative 1e-12 covers the rotation of the arms.
        parapet_math::rounding::add_up(far * (1.0 + 1.0e-12), self.radius)
    }

    fn bend_mode(&self) -> BendMode {
        BendMode::Isotropic
    }

    fn separation(&self, ends: &[Vec3d; 2], tri: &[Vec3d; 3]) -> Option<Separation> {
        let radius = self.radius;
        let raw = (tri[1] - tri[0]).cross(&(tri[2] - tri[0]));
        let len = raw.norm();
        if !(len > 0.0 && len.is_finite()) {
            return None;
        }
        let face = raw / len;
        let h0 = face.dot(&(ends[0] - tri[0]));
        let h1 = face.dot(&(ends[1] - tri[0]));
        if h0 < 0.0 && h1 < 0.0 {
            return None;
        }
        let (on_core, on_triangle) = if ends[0] == ends[1] {
            (ends[0], point_triangle(ends[0], tri).0)
        } else {
            let (s, q, _) = segment_triangle(ends[0], ends[1], tri);
            (s, q)
        };
        let distance = (on_core - on_triangle).norm();

        // Face plane, then the three edge side planes, then the
        // closest-feature plane; strictly larger separations win.
        let mut best_n = face;
        let mut best_o = tri[0];
        let mut best = h0.min(h1);
        for i in 0..3 {
            let a = tri[i];
            let b = tri[(i + 1) % 3];
            let m = (b - a).cross(&face);
            let ml = m.norm();
            if ml.is_nan() || ml <= 0.0 {
                continue;
            }
            let m = m / ml;
            let s = plane_separation(ends, &m, &a);
            if s > best {
                best = s;
                best_n = m;
                best_o = a;
            }
        }
        let core = distance <= CORE_CONTACT_RADII * radius;
        let normal = if core || distance == 0.0 {
            face
        } else {
            (on_core - on_triangle) / distance
        };
        if distance > 0.0 {
            let n = (on_core - on_triangle) / distance;
            let s = plane_separation(ends, &n, &on_triangle);
            if s > best {
                best = s;
                best_n = n;
                best_o = on_triangle;
            }
        }
        let eps = ADVANCE_ROUNDING_FACTOR * f64::EPSILON;
        let scale = ends[0].amax().max(ends[1].amax()) + best_o.amax() + best.abs();
        Some(Separation {
            plane: Plane {
                normal: best_n,
                point: best_o,
                slack: 0.0,
            },
            separation: best,
            lower_bound: best - eps * scale,
            distance,
            on_core,
            on_triangle,
            normal,
            face_normal: face,
        })
    }

    fn touches(&self, separation: &Separation) -> bool {
        separation.distance <= self.radius
    }

    fn touch_points(
        &self,
        ends: &[Vec3d; 2],
        tri: &[Vec3d; 3],
        separation: &Separation,
        out: &mut Vec<Touch>,
    ) {
        let radius = self.radius;
        let lambda = segment_parameter(ends, &separation.on_core);
        let span = touching_span(ends, tri, radius, lambda);
        let at = |l: f64| ends[0] + (ends[1] - ends[0]) * l;
        let count = if span[0] == span[1] { 1 } else { 2 };
        for &l in &span[..count] {
            let x = at(l);
            let q = point_triangle(x, tri).0;
            let d = (x - q).norm();
            let n = if d > CORE_CONTACT_RADII * radius {
                (x - q) / d
            } else {
                separation.face_normal
            };
            out.push(Touch {
                on_shape: x - n * radius,
                on_triangle: q,
                gap: d - radius,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::advance::bound::{admissible_time, sub_step_floor, PointMotion};
    use crate::advance::test_rng::Lcg;
    use crate::sweep::certified_advance as ca;

    /// The world loop's motion bound for the two ends (`turning.rs`).
    fn world_segment(ends: [Vec3d; 2], v: Vec3d, w: Vec3d, radius: f64) -> ca::TurningSegment {
        let wn = super::super::bound::norm_up(&w);
        let lever = super::super::bound::norm_up(&w.cross(&ends[0]))
            .max(super::super::bound::norm_up(&w.cross(&ends[1])));
        ca::TurningSegment {
            ends,
            velocities: [v + w.cross(&ends[0]), v + w.cross(&ends[1])],
            bend: parapet_math::rounding::mul_up(parapet_math::rounding::mul_up(wn, lever), 0.5)
                * (1.0 + 8.0 * f64::EPSILON),
            radius,
        }
    }

    fn random_case(rng: &mut Lcg) -> (SegmentCore, Quatd, Vec3d, Vec3d, [Vec3d; 3]) {
        let radius = 10f64.powf(rng.range(-3.0, 1.0));
        let h = if rng.range(0.0, 1.0) < 0.2 {
            0.0
        } else {
            radius * rng.range(0.0, 8.0)
        };
        let placement = Placement {
            translation: rng.vec(radius * 2.0),
            rotation: Quatd::from_scaled_axis(rng.vec(3.0)),
        };
        let core = SegmentCore::capsule(radius, h, &placement);
        let rotation = Quatd::from_scaled_axis(rng.vec(3.0));
        let v = rng.vec(20.0);
        let w = rng.vec(50.0);
        let scale = radius * (1.0 + h / radius) * 4.0;
        let c = rng.vec(scale);
        let tri = [
            c + rng.vec(scale * 3.0),
            c + rng.vec(scale * 3.0),
            c + rng.vec(scale * 3.0),
        ];
        (core, rotation, v, w, tri)
    }

    #[test]
    fn the_segment_core_gives_the_world_loops_planes_and_sub_steps_bit_for_bit() {
        let mut rng = Lcg::new(21);
        let mut compared = 0;
        for _ in 0..20000 {
            let (core, rotation, v, w, tri) = random_case(&mut rng);
            let ends = core.pose(&rotation);
            let ours = core.separation(&ends, &tri);
            let theirs = ca::clearance(&ends, &tri, core.radius());
            let (Some(s), Some(c)) = (ours, theirs) else {
                assert_eq!(ours.is_none(), theirs.is_none());
                continue;
            };
            assert_eq!(s.plane.normal, c.plane_normal);
            assert_eq!(s.plane.point, c.plane_point);
            assert_eq!(s.separation.to_bits(), c.separation.to_bits());
            assert_eq!(s.distance.to_bits(), c.distance.to_bits());
            assert_eq!((s.on_core, s.on_triangle), (c.on_segment, c.on_triangle));
            assert_eq!((s.normal, s.face_normal), (c.normal, c.face_normal));
            assert_eq!(core.touches(&s), c.distance <= core.radius());
            let tol = core.tolerance();
            assert_eq!(
                tol.to_bits(),
                ca::turning_tolerance(core.radius()).to_bits()
            );
            let floor = sub_step_floor(s.separation - s.plane.slack, core.skin(), tol);
            let world_floor = ca::sub_step_floor(c.separation, core.radius(), tol);
            assert_eq!(floor.to_bits(), world_floor.to_bits());
            let motion = PointMotion::new(&ends, v, w, core.bend_mode());
            let t = admissible_time(&ends, &motion, &s.plane, floor);
            let world = world_segment(ends, v, w, core.radius());
            assert_eq!(motion.bend.to_bits(), world.bend.to_bits());
            let t_world = ca::admissible_time(&world, &c, world_floor);
            assert_eq!(t.to_bits(), t_world.to_bits(), "{t} vs {t_world}");
            compared += 1;
        }
        // The generator keeps most triangles in front of the segment.
        assert!(compared > 10000, "{compared}");
    }

    #[test]
    fn the_touch_points_of_a_lying_capsule_are_its_two_ends() {
        let r = 0.1;
        let core = SegmentCore::new([Vec3d::new(-0.5, 0.0, 0.0), Vec3d::new(0.5, 0.0, 0.0)], r);
        let tri = [
            Vec3d::new(-10.0, -10.0, -0.0999),
            Vec3d::new(10.0, -10.0, -0.0999),
            Vec3d::new(0.0, 10.0, -0.0999),
        ];
        let ends = core.pose(&Quatd::identity());
        let s = core.separation(&ends, &tri).unwrap();
        assert!(core.touches(&s));
        let mut out = Vec::new();
        core.touch_points(&ends, &tri, &s, &mut out);
        assert_eq!(out.len(), 2);
        for (t, x) in out.iter().zip([-0.5, 0.5]) {
            // The surface point below each end, 1e-4 m into the triangle.
            assert!((t.on_shape - Vec3d::new(x, 0.0, -0.1)).norm() < 1e-12);
            assert!((t.gap + 1e-4).abs() < 1e-12);
        }
    }

    #[test]
    fn a_segment_wholly_behind_the_face_has_no_separation() {
        let core = SegmentCore::new([Vec3d::zeros(), Vec3d::x()], 0.1);
        let tri = [
            Vec3d::new(-5.0, -5.0, 1.0),
            Vec3d::new(5.0, -5.0, 1.0),
            Vec3d::new(0.0, 5.0, 1.0),
        ];
        let ends = core.pose(&Quatd::identity());
        assert!(core.separation(&ends, &tri).is_none());
        // Reversed winding faces the segment: the face plane separates by 1.
        let flipped = [tri[0], tri[2], tri[1]];
        let s = core.separation(&ends, &flipped).unwrap();
        assert_eq!(s.separation, 1.0);
        assert!(s.lower_bound < 1.0 && s.lower_bound > 1.0 - 1e-12);
    }
}
