//! Sweep of a translating sphere against a static one-sided triangle:
//! `sweep_sphere_triangle`, and its earliest hit over a slice of triangles.
//!
//! # Method
//! The sphere's centre moves on the segment `p(t) = p0 + t d`, `t in [0, 1]`.
//! It touches the triangle when it enters the triangle grown by the radius,
//! which is the union of the face slab, three finite edge cylinders and three
//! vertex spheres. The first entry into the union is the earliest of:
//! - **face**: the plane at height `r` in front of the face, crossed at
//!   `t = (s0 - r) / -(n . d)`, when the touching point lies inside the face;
//! - **edge cylinder** `i`: the earlier root of `|(m + t d) x e|^2 = r^2 |e|^2`
//!   (`m = p0 - v_i`, `e` the edge) in the stable form
//!   `c / (-b + sqrt(b^2 - a c))`, when the closest edge point is within the
//!   edge;
//! - **vertex sphere** `i`: the earlier root of `|m + t d|^2 = r^2`.
//!
//! A root counts only when the sphere crosses the surface (strictly positive
//! discriminant: exact tangency is no hit) and the approach test
//! resolves the sign of `normal . d` ([`super::APPROACH_EPS_FACTOR`]). Equal
//! times keep face, then edge, then vertex order, lower indices first.
//!
//! # One-sided rule
//! A sphere whose centre starts behind the face plane (signed distance < 0,
//! beyond the rounding of its computation: a centre in the plane to within
//! rounding counts as in front) is not caught, whatever feature it would
//! reach, and an initial overlap of the back of the face is not reported.
//! A sphere that starts in front is caught by every feature that it
//! approaches, so it can never pass through the triangle from the front.
//!
//! # Source and precision domain
//! The contract of docs/continuous-collision.md, "How a step works" and
//! "Precision limits"; the closest-point regions follow Ericson, *Real-Time Collision Detection*
//! 5.1.5. `f64` intermediates on `f32` inputs, re-centred on the sphere's start
//! position; inputs outside the limits of [`super::domain`] are refused.

use parapet_geometry::bvh::{Bounds, TriangleBoundsTree};
use parapet_math::{promote, Vec3, Vec3d};

use super::domain::{self, Checked};
use super::{
    approaches, cylinder_entry, earlier_of, sphere_entry, Impact, OnTriangle, SweepOutcome,
    SweptBounds, TriangleFeature,
};
use crate::triangle::TriangleFrame;

/// What the point-sweep kernel found (relative frame).
#[derive(Debug, Clone, Copy)]
pub(crate) enum Found {
    Initial(Impact<TriangleFeature>),
    Hit(Impact<TriangleFeature>),
    Nothing,
}

/// Unit direction of `v`, or `fallback` when `v` is zero.
#[inline]
pub(crate) fn unit_or(v: Vec3d, fallback: Vec3d) -> Vec3d {
    let n = v.norm();
    if n > 0.0 && n.is_finite() {
        v / n
    } else {
        fallback
    }
}

/// The initial contact of a sphere at `p0` with radius `r`, if it touches or
/// overlaps the triangle (either side): the closest of the touching features,
/// face before edges before vertices on equal distance. The face normal is
/// always the front normal.
pub(crate) fn initial_contact(
    tri: &TriangleFrame,
    p0: Vec3d,
    r: f64,
) -> Option<Impact<TriangleFeature>> {
    let mut best: Option<(f64, Impact<TriangleFeature>)> = None;
    let mut offer = |dist2: f64, point: Vec3d, normal: Vec3d, feature: TriangleFeature| {
        if best.as_ref().is_none_or(|(d, _)| dist2 < *d) {
            best = Some((
                dist2,
                Impact {
                    time: 0.0,
                    point,
                    normal,
                    feature,
                },
            ));
        }
    };
    let s0 = tri.raw_height(p0) / tri.n_len;
    // Farther from the face plane than r: farther from every feature too
    // (clear cases only, see `CLEAR_SEPARATION_MARGIN`).
    if s0.abs() > r * (1.0 + super::CLEAR_SEPARATION_MARGIN) {
        return None;
    }
    // The face's test is `first_entry`'s complement in the same raw
    // quantities (`|h_raw| <= r n_len` here, `h_raw > r n_len` there): a
    // centre at height r to within rounding is touching or enters at once,
    // never neither (a sphere resting 1 nm above a floor, driven into it,
    // was caught only by the next triangle's edge 11 mm later).
    if tri.raw_height(p0).abs() <= r * tri.n_len && tri.projects_inside(p0) {
        offer(s0 * s0, p0 - s0 * tri.n, tri.n, TriangleFeature::Face);
    }
    for i in 0..3 {
        let (a, e) = tri.edge(i);
        let m = p0 - a;
        let ee = e.norm_squared();
        let mxe = m.cross(&e);
        let c = mxe.norm_squared() - r * r * ee;
        let u = m.dot(&e) / ee;
        if c <= 0.0 && (0.0..=1.0).contains(&u) {
            let q = a + u * e;
            offer(
                mxe.norm_squared() / ee,
                q,
                unit_or(p0 - q, tri.n),
                TriangleFeature::Edge(i as u8),
            );
        }
    }
    for i in 0..3 {
        let m = p0 - tri.v[i];
        let d2 = m.norm_squared();
        if d2 <= r * r {
            offer(
                d2,
                tri.v[i],
                unit_or(m, tri.n),
                TriangleFeature::Vertex(i as u8),
            );
        }
    }
    best.map(|(_, i)| i)
}

/// The first approaching entry of a sphere of radius `r`, centre moving from
/// `p0` by `d`, into the triangle grown by `r`, after the start (the caller
/// has excluded initial contact). Face, edges, vertices; strict `<` keeps the
/// earlier feature on equal times.
pub(crate) fn first_entry(
    tri: &TriangleFrame,
    p0: Vec3d,
    r: f64,
    d: Vec3d,
) -> Option<Impact<TriangleFeature>> {
    let mut best: Option<Impact<TriangleFeature>> = None;
    let mut offer = |imp: Impact<TriangleFeature>| {
        if best.as_ref().is_none_or(|b| imp.time < b.time) {
            best = Some(imp);
        }
    };

    // Face: the plane at height r in front.
    let s0_raw = tri.raw_height(p0);
    let r_raw = r * tri.n_len;
    if s0_raw > r_raw && approaches(tri.n_raw, d) {
        let t = (s0_raw - r_raw) / -tri.n_raw.dot(&d);
        if t <= 1.0 {
            let q = p0 + t * d - r * tri.n;
            if tri.projects_inside(q) {
                offer(Impact {
                    time: t,
                    point: q,
                    normal: tri.n,
                    feature: TriangleFeature::Face,
                });
            }
        }
    }

    // Edge cylinders.
    for i in 0..3 {
        let (a, e) = tri.edge(i);
        let ee = e.norm_squared();
        let Some(t) = cylinder_entry(p0 - a, e, ee, d, r) else {
            continue;
        };
        if t > 1.0 {
            continue;
        }
        let p = p0 + t * d;
        let u = (p - a).dot(&e) / ee;
        if !(0.0..=1.0).contains(&u) {
            continue;
        }
        let q = a + u * e;
        let nrm = p - q;
        if approaches(nrm, d) {
            offer(Impact {
                time: t,
                point: q,
                normal: unit_or(nrm, tri.n),
                feature: TriangleFeature::Edge(i as u8),
            });
        }
    }

    // Vertex spheres.
    for i in 0..3 {
        let m = p0 - tri.v[i];
        let Some(t) = sphere_entry(m, d, r) else {
            continue;
        };
        if t > 1.0 {
            continue;
        }
        let nrm = m + t * d;
        if approaches(nrm, d) {
            offer(Impact {
                time: t,
                point: tri.v[i],
                normal: unit_or(nrm, tri.n),
                feature: TriangleFeature::Vertex(i as u8),
            });
        }
    }
    best
}

/// The point-sweep kernel without the one-sided admission: initial contact,
/// else first entry (relative frame).
pub(crate) fn point_sweep(tri: &TriangleFrame, p0: Vec3d, r: f64, d: Vec3d) -> Found {
    if let Some(i) = initial_contact(tri, p0, r) {
        return Found::Initial(i);
    }
    match first_entry(tri, p0, r, d) {
        Some(i) => Found::Hit(i),
        None => Found::Nothing,
    }
}

/// Validates a sphere and its motion; returns `(centre, radius, displacement)`
/// in `f64`.
pub(super) fn checked_sphere(
    center: Vec3,
    radius: f32,
    velocity: Vec3,
    dt: f32,
) -> Checked<(Vec3d, f64, Vec3d)> {
    domain::finite_vec("sphere centre", center)?;
    domain::finite_scalar("sphere radius", radius)?;
    domain::finite_vec("sphere velocity", velocity)?;
    domain::step(dt)?;
    let r = radius as f64;
    domain::radius("sphere radius", r)?;
    let c = promote(center);
    let d = promote(velocity) * dt as f64;
    domain::moving_coordinate("sphere centre at step start", c, r)?;
    domain::moving_coordinate("sphere centre at step end", c + d, r)?;
    domain::reach(d.norm() + r, r)?;
    Ok((c, r, d))
}

/// One triangle against an already validated sphere.
pub(super) fn sphere_vs(
    c: Vec3d,
    r: f64,
    d: Vec3d,
    triangle: &[Vec3; 3],
) -> SweepOutcome<TriangleFeature> {
    if let Err(e) = domain::triangle(triangle, c, r) {
        return SweepOutcome::Refused(e);
    }
    sphere_vs_promoted(c, r, d, &triangle.map(promote))
}

/// [`sphere_vs`] on a triangle given in `f64` whose precision domain the
/// caller has checked: for a triangle promoted from `f32`, the same outcome
/// bit for bit (the same operations on the same values).
pub(crate) fn sphere_vs_promoted(
    c: Vec3d,
    r: f64,
    d: Vec3d,
    triangle: &[Vec3d; 3],
) -> SweepOutcome<TriangleFeature> {
    let tri = TriangleFrame::new(triangle.map(|v| v - c));
    if let Err(e) = domain::shifted_triangle(&tri) {
        return SweepOutcome::Refused(e);
    }
    // One-sided admission: a centre that starts behind the face plane
    // (beyond the rounding of its height) is not caught, and its overlap
    // with the back of the face is not reported.
    if tri.behind(Vec3d::zeros()) {
        return SweepOutcome::Miss;
    }
    let to_world = |i: Impact<TriangleFeature>| Impact {
        point: i.point + c,
        ..i
    };
    match point_sweep(&tri, Vec3d::zeros(), r, d) {
        Found::Initial(i) => SweepOutcome::InitiallyTouching(to_world(i)),
        Found::Hit(i) => SweepOutcome::Hit(to_world(i)),
        Found::Nothing => SweepOutcome::Miss,
    }
}

/// Sweeps a sphere (centre `center`, radius `radius`, metres) moving at
/// `velocity` (m/s) for `dt` seconds against one static one-sided triangle.
///
/// Returns the first approaching front-side contact as a fraction of the
/// step, the contact point on the triangle, the unit normal from the triangle
/// towards the sphere, and the feature (face, edge `i` from vertex `i` to
/// `i + 1`, or vertex `i`). A sphere already within its radius of the
/// triangle (front side) gives [`SweepOutcome::InitiallyTouching`] with the
/// closest-point normal; a sphere whose centre starts behind the face plane
/// gives [`SweepOutcome::Miss`]. Inputs outside the precision domain give
/// [`SweepOutcome::Refused`].
///
/// ```
/// use parapet_math::Vec3;
/// use parapet_narrow::sweep::{sweep_sphere_triangle, SweepOutcome, TriangleFeature};
/// // The tunnelling example of the README: r = 0.1 m, z = 0.15 m, v = -30 m/s, dt = 0.01 s.
/// let floor = [Vec3::new(-1.0, -1.0, 0.0), Vec3::new(1.0, -1.0, 0.0), Vec3::new(0.0, 1.0, 0.0)];
/// let hit = sweep_sphere_triangle(Vec3::new(0.0, 0.0, 0.15), 0.1, Vec3::new(0.0, 0.0, -30.0), 0.01, &floor);
/// let SweepOutcome::Hit(impact) = hit else { panic!("{hit:?}") };
/// assert!((impact.time - 1.0 / 6.0).abs() < 1e-6);
/// assert_eq!(impact.feature, TriangleFeature::Face);
/// ```
pub fn sweep_sphere_triangle(
    center: Vec3,
    radius: f32,
    velocity: Vec3,
    dt: f32,
    triangle: &[Vec3; 3],
) -> SweepOutcome<TriangleFeature> {
    match checked_sphere(center, radius, velocity, dt) {
        Ok((c, r, d)) => sphere_vs(c, r, d, triangle),
        Err(e) => SweepOutcome::Refused(e),
    }
}

/// Sweeps a sphere against every triangle of a slice and returns the earliest
/// contact, ties kept in insertion order (the lower index). Triangles whose
/// bounds are disjoint from the bounds of the sphere's whole path (grown by
/// its radius, rounded outward) are rejected first, before any precision check;
/// every other triangle is validated, and a refusal of any of them is
/// returned even if another triangle is hit earlier. An initial contact
/// (time 0) precedes a hit. Brute force: O(T) per query.
pub fn sweep_sphere_triangles(
    center: Vec3,
    radius: f32,
    velocity: Vec3,
    dt: f32,
    triangles: &[[Vec3; 3]],
) -> SweepOutcome<OnTriangle<TriangleFeature>> {
    let (c, r, d) = match checked_sphere(center, radius, velocity, dt) {
        Ok(x) => x,
        Err(e) => return SweepOutcome::Refused(e),
    };
    let bounds = SweptBounds::new(&[c], d, r);
    let mut best = SweepOutcome::Miss;
    for (index, tri) in triangles.iter().enumerate() {
        if bounds.misses(tri) {
            continue;
        }
        let next = tag(sphere_vs(c, r, d, tri), index);
        best = earlier_of(best, next);
        if best.is_refused() {
            break;
        }
    }
    best
}

/// [`sweep_sphere_triangles`] with the triangles' bounds tree: the same
/// outcome, bit for bit (same candidates, same insertion order, same
/// refusals), found in O(log T + k) for k candidates instead of O(T). The
/// tree must be built from `triangles` (as a world builds its index once per
/// mesh snapshot); a tree of another size is ignored and every triangle is
/// tested.
///
/// The candidates are the triangles whose bounds meet the bounds of the
/// sphere's whole path, grown by its radius and rounded outward (the box
/// that [`sweep_sphere_triangles`] rejects by): a tree query by that box,
/// then the same rejection test, so that no triangle enters or leaves the
/// set through the tree.
///
/// ```
/// use parapet_geometry::bvh::TriangleBoundsTree;
/// use parapet_math::Vec3;
/// use parapet_narrow::sweep::{sweep_sphere_triangles, sweep_sphere_triangles_indexed};
/// let floor: Vec<[Vec3; 3]> = (0..64)
///     .map(|i| {
///         let x = i as f32;
///         [Vec3::new(x, 0.0, 0.0), Vec3::new(x + 1.0, 0.0, 0.0), Vec3::new(x, 1.0, 0.0)]
///     })
///     .collect();
/// let tree = TriangleBoundsTree::build(&floor)?;
/// let (c, v) = (Vec3::new(10.2, 0.2, 0.5), Vec3::new(0.0, 0.0, -40.0));
/// assert_eq!(
///     sweep_sphere_triangles_indexed(c, 0.1, v, 0.02, &floor, &tree),
///     sweep_sphere_triangles(c, 0.1, v, 0.02, &floor),
/// );
/// # Ok::<(), parapet_geometry::bvh::BvhError>(())
/// ```
pub fn sweep_sphere_triangles_indexed(
    center: Vec3,
    radius: f32,
    velocity: Vec3,
    dt: f32,
    triangles: &[[Vec3; 3]],
    tree: &TriangleBoundsTree,
) -> SweepOutcome<OnTriangle<TriangleFeature>> {
    if tree.triangle_count() != triangles.len() {
        return sweep_sphere_triangles(center, radius, velocity, dt, triangles);
    }
    let (c, r, d) = match checked_sphere(center, radius, velocity, dt) {
        Ok(x) => x,
        Err(e) => return SweepOutcome::Refused(e),
    };
    let bounds = SweptBounds::new(&[c], d, r);
    let Ok(query) = Bounds::new(bounds.lo(), bounds.hi()) else {
        return sweep_sphere_triangles(center, radius, velocity, dt, triangles);
    };
    CANDIDATES.with(|cell| {
        let mut best = SweepOutcome::Miss;
        let mut candidates = cell.take();
        tree.query(&query, &mut candidates);
        for &index in &candidates {
            let index = index as usize;
            let tri = &triangles[index];
            if bounds.misses(tri) {
                continue;
            }
            best = earlier_of(best, tag(sphere_vs(c, r, d, tri), index));
            if best.is_refused() {
                break;
            }
        }
        cell.set(candidates);
        best
    })
}

thread_local! {
    /// The candidate list of [`sweep_sphere_triangles_indexed`], reused per
    /// thread so that a query allocates nothing once warm.
    static CANDIDATES: std::cell::Cell<Vec<u32>> = const { std::cell::Cell::new(Vec::new()) };
}

/// Attaches a triangle index to a single-triangle outcome.
pub(crate) fn tag<F: Copy>(o: SweepOutcome<F>, triangle: usize) -> SweepOutcome<OnTriangle<F>> {
    o.map_feature(|feature| OnTriangle { triangle, feature })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sweep::test_fixtures::{floor, hit};

    #[test]
    fn seed_tunnelling_example_stops_at_one_radius() {
        let i = hit(sweep_sphere_triangle(
            Vec3::new(0.0, 0.0, 0.15),
            0.1,
            Vec3::new(0.0, 0.0, -30.0),
            0.01,
            &floor(),
        ));
        // Travel 0.3 m (v*dt in f64 from f32 inputs: -30 * 0.0099999998 m), gap 0.05 m.
        let travel = 30.0 * (0.01f32 as f64);
        let gap = 0.15f32 as f64 - 0.1f32 as f64;
        assert!((i.time - gap / travel).abs() < 1e-15, "{}", i.time);
        assert_eq!(i.feature, TriangleFeature::Face);
        assert_eq!(i.normal, Vec3d::new(0.0, 0.0, 1.0));
    }

    /// A centre exactly on the line of an edge (here between vertices 1
    /// and 2, on the diagonal) lies in the plane; its computed height's
    /// sign is rounding noise. It counts as in front: the sphere overlaps
    /// the edge (distance 0 < r) and is touching, not a miss (found by
    /// the `sweeps` fuzz target: 143 such inputs, all answered `Miss`).
    #[test]
    fn a_sphere_centred_on_an_edge_line_is_touching_not_behind() {
        let tri = [
            Vec3::new(10000.0, 5.323266e-10, 6.663039e-28),
            Vec3::new(-10.0, -10.0, -10.0),
            Vec3::new(-3.0, -3.0, -3.0),
        ];
        let o = sweep_sphere_triangle(Vec3::repeat(-4.0), 0.05, Vec3::zeros(), 1.0 / 60.0, &tri);
        let SweepOutcome::InitiallyTouching(i) = o else {
            panic!("{o:?}")
        };
        // The closest point is the centre itself, on edge 1.
        assert!((i.point - Vec3d::repeat(-4.0)).norm() < 1e-12, "{i:?}");
        assert!((i.normal.norm() - 1.0).abs() < 1e-12, "{i:?}");
    }

    /// A triangle 1.7e-20 m across, 2.9 m from the centre, passes the
    /// domain's thin-triangle test on its own vertices, but subtracting
    /// the sweep's origin rounds its three vertices to one point: its
    /// normal would be 0 / 0 (the `sweeps` fuzz target found touching
    /// impacts with NaN normals). The check on the shifted vertices
    /// refuses it.
    #[test]
    fn a_triangle_that_loses_its_area_when_shifted_is_refused() {
        let tri = [
            Vec3::new(-1.679466e-20, 1e-45, 1e-45),
            Vec3::new(1e-45, -1.6794351e-20, 1e-45),
            Vec3::new(1e-45, 1e-45, 1e-45),
        ];
        assert!(domain::triangle(&tri, Vec3d::repeat(-1.6559999), 1.63).is_ok());
        let o = sweep_sphere_triangle(
            Vec3::repeat(-1.6559999),
            1.63,
            Vec3::repeat(29.807999),
            0.059,
            &tri,
        );
        assert!(
            matches!(
                o,
                SweepOutcome::Refused(domain::SweepRefusal::ThinTriangle { .. })
            ),
            "{o:?}"
        );
    }

    #[test]
    fn a_sphere_starting_behind_the_face_is_not_caught() {
        let o = sweep_sphere_triangle(
            Vec3::new(0.0, 0.0, -0.15),
            0.1,
            Vec3::new(0.0, 0.0, 30.0),
            0.01,
            &floor(),
        );
        assert_eq!(o, SweepOutcome::Miss);
        // Overlapping the back of the face: not reported either.
        let o = sweep_sphere_triangle(
            Vec3::new(0.0, 0.0, -0.05),
            0.1,
            Vec3::zeros(),
            0.01,
            &floor(),
        );
        assert_eq!(o, SweepOutcome::Miss);
    }

    #[test]
    fn a_sphere_admitted_in_front_is_caught_by_an_edge_it_reaches_from_below_the_plane() {
        // Starts in front (z = 0.2) beside edge 0, dives below the plane and
        // reaches the edge from underneath: admission is by start position,
        // so the edge still catches it (it would otherwise pass through).
        let o = sweep_sphere_triangle(
            Vec3::new(0.0, -3.0, 0.2),
            0.25,
            Vec3::new(0.0, 2.5, -0.5),
            1.0,
            &floor(),
        );
        let i = hit(o);
        assert_eq!(i.feature, TriangleFeature::Edge(0));
        // Hand formula: (2.5 t - 2)^2 + (0.2 - 0.5 t)^2 = 0.25^2, earlier root.
        let t = (10.2 - (10.2f64 * 10.2 - 4.0 * 6.5 * 3.9775).sqrt()) / 13.0;
        // f32 inputs (0.2, 0.25 are not exact): about 1e-8 of the step.
        assert!((i.time - t).abs() < 1e-6, "{} vs {t}", i.time);
        assert!(i.normal.z < 0.0, "contact from below the plane: {i:?}");
    }

    #[test]
    fn sliding_at_exactly_one_radius_is_no_hit() {
        // Parallel motion at height r: n . d = 0, exact tangency with the face.
        let o = sweep_sphere_triangle(
            Vec3::new(-3.0, 0.0, 0.5),
            0.5,
            Vec3::new(100.0, 0.0, 0.0),
            0.06,
            &floor(),
        );
        assert_eq!(o, SweepOutcome::Miss);
    }

    #[test]
    fn edge_cylinder_time_matches_the_hand_formula() {
        // Edge 0 runs along y = -1 from x = -1 to 1 in the plane z = 0. A
        // sphere of radius 0.5 in the plane z = 0 at y = -2 moves +y: it
        // touches the edge when its centre is 0.5 from it: y = -1.5, t = 0.5.
        let i = hit(sweep_sphere_triangle(
            Vec3::new(0.0, -2.0, 0.0),
            0.5,
            Vec3::new(0.0, 1.0, 0.0),
            1.0,
            &floor(),
        ));
        assert_eq!(i.feature, TriangleFeature::Edge(0));
        assert!((i.time - 0.5).abs() < 1e-15);
        assert!((i.normal - Vec3d::new(0.0, -1.0, 0.0)).norm() < 1e-15);
        // Above the plane: centre (0, -2, 1) moving
        // along +y: the distance to the edge line is sqrt((y+1)^2 + 1) = r
        // = 1.25 at y + 1 = -0.75, t = 0.25.
        let i = hit(sweep_sphere_triangle(
            Vec3::new(0.0, -2.0, 1.0),
            1.25,
            Vec3::new(0.0, 1.0, 0.0),
            1.0,
            &floor(),
        ));
        assert_eq!(i.feature, TriangleFeature::Edge(0));
        assert!((i.time - 0.25).abs() < 1e-15, "{}", i.time);
        assert!((i.normal - Vec3d::new(0.0, -0.6, 0.8)).norm() < 1e-15);
    }

    #[test]
    fn vertex_sphere_time_matches_the_hand_formula() {
        // Vertex 2 at (0, 1, 0). Centre (0, 3, 0) moving -y with r = 0.5:
        // touch at y = 1.5, t = 1.5 / 2 = 0.75.
        let i = hit(sweep_sphere_triangle(
            Vec3::new(0.0, 3.0, 0.0),
            0.5,
            Vec3::new(0.0, -2.0, 0.0),
            1.0,
            &floor(),
        ));
        assert_eq!(i.feature, TriangleFeature::Vertex(2));
        assert!((i.time - 0.75).abs() < 1e-15);
        assert_eq!(i.point, Vec3d::new(0.0, 1.0, 0.0));
    }

    #[test]
    fn grazing_a_vertex_at_exactly_the_radius_is_no_hit() {
        // Passes vertex 2 at distance exactly 0.5 (tangency).
        let o = sweep_sphere_triangle(
            Vec3::new(-3.0, 1.0, 0.5),
            0.5,
            Vec3::new(6.0, 0.0, 0.0),
            1.0,
            &floor(),
        );
        assert_eq!(o, SweepOutcome::Miss);
        // Passing 1e-4 closer is a hit.
        let o = sweep_sphere_triangle(
            Vec3::new(-3.0, 1.0, 0.4999),
            0.5,
            Vec3::new(6.0, 0.0, 0.0),
            1.0,
            &floor(),
        );
        assert!(o.is_hit(), "{o:?}");
    }

    #[test]
    fn face_wins_an_equal_time_tie_with_an_edge() {
        // A sphere falling straight onto the midpoint of edge 0 at height r:
        // the face's touching point lies on the edge, so face and edge give
        // the same time; face order wins.
        let i = hit(sweep_sphere_triangle(
            Vec3::new(0.0, -1.0, 2.0),
            0.5,
            Vec3::new(0.0, 0.0, -3.0),
            1.0,
            &floor(),
        ));
        assert_eq!(i.feature, TriangleFeature::Face);
        assert!((i.time - 0.5).abs() < 1e-15);
    }

    #[test]
    fn an_initial_front_overlap_is_reported_with_its_closest_feature() {
        let o = sweep_sphere_triangle(
            Vec3::new(0.0, 0.0, 0.05),
            0.1,
            Vec3::new(0.0, 0.0, -1.0),
            0.01,
            &floor(),
        );
        let SweepOutcome::InitiallyTouching(i) = o else {
            panic!("{o:?}")
        };
        assert_eq!((i.time, i.feature), (0.0, TriangleFeature::Face));
        assert_eq!(i.normal, Vec3d::new(0.0, 0.0, 1.0));
    }

    #[test]
    fn refusals_name_their_quantity() {
        let o = sweep_sphere_triangle(
            Vec3::new(0.0, 0.0, 1.0),
            1.0e-5,
            Vec3::zeros(),
            0.01,
            &floor(),
        );
        assert!(matches!(
            o,
            SweepOutcome::Refused(domain::SweepRefusal::RadiusOutOfRange { .. })
        ));
        let o = sweep_sphere_triangle(
            Vec3::new(0.0, 0.0, f32::NAN),
            1.0,
            Vec3::zeros(),
            0.01,
            &floor(),
        );
        assert!(matches!(
            o,
            SweepOutcome::Refused(domain::SweepRefusal::NotFinite { .. })
        ));
        // 65536 radii: a 1 mm sphere at x = 70 m is too coarse.
        let o = sweep_sphere_triangle(
            Vec3::new(70.0, 0.0, 1.0),
            1.0e-3,
            Vec3::zeros(),
            0.01,
            &floor(),
        );
        assert!(matches!(
            o,
            SweepOutcome::Refused(domain::SweepRefusal::CoordinateTooCoarse { .. })
        ));
    }

    #[test]
    fn the_mesh_helper_keeps_insertion_order_on_ties() {
        let f = floor();
        let tris = [
            f,
            f,
            [
                f[0] + Vec3::new(0.0, 0.0, 0.01),
                f[1] + Vec3::new(0.0, 0.0, 0.01),
                f[2] + Vec3::new(0.0, 0.0, 0.01),
            ],
        ];
        let o = sweep_sphere_triangles(
            Vec3::new(0.0, 0.0, 1.0),
            0.1,
            Vec3::new(0.0, 0.0, -2.0),
            1.0,
            &tris,
        );
        let SweepOutcome::Hit(i) = o else {
            panic!("{o:?}")
        };
        assert_eq!(i.feature.triangle, 2, "the raised copy is reached first");
        let o = sweep_sphere_triangles(
            Vec3::new(0.0, 0.0, 1.0),
            0.1,
            Vec3::new(0.0, 0.0, -2.0),
            1.0,
            &tris[..2],
        );
        let SweepOutcome::Hit(i) = o else {
            panic!("{o:?}")
        };
        assert_eq!(i.feature.triangle, 0, "equal times keep the first inserted");
    }
}
