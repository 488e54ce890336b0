//! Sweep of a translating, rotation-locked capsule against a static one-sided
//! triangle: `sweep_capsule_triangle`, and its earliest hit over a slice.
//!
//! # Method
//! The capsule is the segment `e0 e1` grown by radius `r`, translating by `d`
//! over the step. Its first contact with the triangle is the earliest of:
//! - the two **cap spheres** against the face, edge cylinders and vertex
//!   spheres (the sphere kernel of [`super::sphere_triangle`]);
//! - **segment interior vs triangle edge interior**: for non-parallel lines
//!   the distance between the two lines is `|h(t)| / |w|` with
//!   `w = (e1 - e0) x edge` and `h(t) = (e0 + t d - v_i) . w`, linear in time;
//!   the contact counts when the closest points of the two lines at that time
//!   lie within both segments;
//! - **triangle vertex vs the capsule's cylinder**: the earlier root of
//!   `|(e0 + t d - v) x (e1 - e0)|^2 = r^2 |e1 - e0|^2`, when the closest axis
//!   point lies within the segment;
//! - the **parallel case**: when the segment is parallel to the face plane
//!   (within the approach bound), its whole length reaches the plane at once;
//!   the contact counts when the segment, dropped onto the plane at that
//!   time, overlaps the triangle (a segment interior can reach the face
//!   interior first only in this case).
//!
//! Every root obeys the sphere sweep's rules: crossing, not grazing, and an
//! approach resolved beyond [`super::APPROACH_EPS_FACTOR`]. Equal times keep
//! face, then edge, then vertex order, then the lower triangle feature index,
//! then cap 0, cap 1, cylinder.
//!
//! # One-sided rule and endpoint order
//! A capsule is behind the face, and not caught, only when both segment ends
//! start behind the face plane. A capsule admitted in front is caught by
//! every feature that it approaches. The endpoints are put in a canonical
//! (lexicographic) order before any arithmetic, so reversing them changes
//! nothing but the cap labels, bit for bit.
//!
//! # Source and precision domain
//! The features, the parallel case and the admission rule above are the
//! capsule contract of docs/continuous-collision.md, "How a step works";
//! closest points of segments after Ericson, *Real-Time Collision
//! Detection* 5.1.9. `f64` intermediates on `f32` inputs, re-centred on the
//! canonical first endpoint. The radius limits, coordinate limits (both ends,
//! start and end of the step) and reach (travel plus half length plus radius)
//! of [`super::domain`] apply; triangles are checked around the segment
//! midpoint.

use parapet_math::{promote, Vec3, Vec3d};

use super::domain::{self, Checked};
use super::sphere_triangle::{first_entry, initial_contact, tag, unit_or};
use super::{
    approaches, cylinder_entry, earlier_of, unresolved_dot, Impact, OnTriangle, SweepOutcome,
    SweptBounds, TriangleFeature,
};
use crate::triangle::TriangleFrame;

/// Which part of a capsule is in contact.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum CapsulePart {
    /// The cap sphere around endpoint `0` or `1` (as given by the caller).
    Cap(u8),
    /// The cylinder around the segment's interior.
    Cylinder,
}

/// The features of a capsule-triangle contact.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CapsuleTriangleFeature {
    /// The capsule's part.
    pub capsule: CapsulePart,
    /// The triangle's feature.
    pub triangle: TriangleFeature,
}

/// Tie rank of a candidate: class (face, edge, vertex), triangle feature
/// index, then canonical capsule part (cap 0, cap 1, cylinder).
fn rank(f: &CapsuleTriangleFeature) -> (u8, u8, u8) {
    let (class, index) = match f.triangle {
        TriangleFeature::Face => (0, 0),
        TriangleFeature::Edge(i) => (1, i),
        TriangleFeature::Vertex(i) => (2, i),
    };
    let part = match f.capsule {
        CapsulePart::Cap(k) => k,
        CapsulePart::Cylinder => 2,
    };
    (class, index, part)
}

/// Keeps the earlier candidate, the lower rank on equal times.
fn offer(best: &mut Option<Impact<CapsuleTriangleFeature>>, c: Impact<CapsuleTriangleFeature>) {
    let better = match best {
        None => true,
        Some(b) => c.time < b.time || (c.time == b.time && rank(&c.feature) < rank(&b.feature)),
    };
    if better {
        *best = Some(c);
    }
}

fn with_part(i: Impact<TriangleFeature>, capsule: CapsulePart) -> Impact<CapsuleTriangleFeature> {
    Impact {
        time: i.time,
        point: i.point,
        normal: i.normal,
        feature: CapsuleTriangleFeature {
            capsule,
            triangle: i.feature,
        },
    }
}

/// Closest points of segments `p + s a` and `q + u b`, `s, u in [0, 1]`
/// (Ericson 5.1.9, clamped); returns `(s, u)`.
pub(crate) fn closest_params(p: Vec3d, a: Vec3d, q: Vec3d, b: Vec3d) -> (f64, f64) {
    let r = p - q;
    let aa = a.norm_squared();
    let bb = b.norm_squared();
    let f = b.dot(&r);
    if aa <= 0.0 && bb <= 0.0 {
        return (0.0, 0.0);
    }
    if aa <= 0.0 {
        return (0.0, (f / bb).clamp(0.0, 1.0));
    }
    let c = a.dot(&r);
    if bb <= 0.0 {
        return ((-c / aa).clamp(0.0, 1.0), 0.0);
    }
    let ab = a.dot(&b);
    let denom = aa * bb - ab * ab;
    let mut s = if denom > 0.0 {
        ((ab * f - c * bb) / denom).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let mut u = (ab * s + f) / bb;
    if u < 0.0 {
        u = 0.0;
        s = (-c / aa).clamp(0.0, 1.0);
    } else if u > 1.0 {
        u = 1.0;
        s = ((ab - c) / aa).clamp(0.0, 1.0);
    }
    (s, u)
}

/// A validated capsule in canonical endpoint order: origin (first endpoint,
/// world), axis `e1 - e0`, radius, displacement, and whether the caller's
/// endpoints were swapped.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Capsule {
    origin: Vec3d,
    axis: Vec3d,
    mid: Vec3d,
    r: f64,
    d: Vec3d,
    swapped: bool,
}

pub(super) fn checked_capsule(
    p0: Vec3,
    p1: Vec3,
    radius: f32,
    velocity: Vec3,
    dt: f32,
) -> Checked<Capsule> {
    domain::finite_vec("capsule endpoint 0", p0)?;
    domain::finite_vec("capsule endpoint 1", p1)?;
    domain::finite_scalar("capsule radius", radius)?;
    domain::finite_vec("capsule velocity", velocity)?;
    domain::step(dt)?;
    let r = radius as f64;
    domain::radius("capsule radius", r)?;
    let (e0, e1, swapped) = canonical_ends(promote(p0), promote(p1));
    let d = promote(velocity) * dt as f64;
    for (name, p) in [
        ("capsule endpoint at step start", e0),
        ("capsule endpoint at step start", e1),
        ("capsule endpoint at step end", e0 + d),
        ("capsule endpoint at step end", e1 + d),
    ] {
        domain::moving_coordinate(name, p, r)?;
    }
    let axis = e1 - e0;
    domain::reach(d.norm() + 0.5 * axis.norm() + r, r)?;
    Ok(Capsule::canonical(e0, e1, r, d, swapped))
}

/// The ends in canonical order (lexicographic by coordinates), and whether
/// they were swapped. For ends promoted from `f32` the order is that of the
/// `f32` values.
pub(crate) fn canonical_ends(p0: Vec3d, p1: Vec3d) -> (Vec3d, Vec3d, bool) {
    let key = |v: Vec3d| (v.x, v.y, v.z);
    let swapped = key(p1) < key(p0);
    if swapped {
        (p1, p0, true)
    } else {
        (p0, p1, false)
    }
}

impl Capsule {
    /// The capsule of the canonical ends `e0`, `e1` ([`canonical_ends`]),
    /// radius `r` and displacement `d`, whose precision domain the caller
    /// has checked.
    pub(crate) fn canonical(e0: Vec3d, e1: Vec3d, r: f64, d: Vec3d, swapped: bool) -> Capsule {
        let axis = e1 - e0;
        Capsule {
            origin: e0,
            axis,
            mid: e0 + 0.5 * axis,
            r,
            d,
            swapped,
        }
    }
}

/// Initial contact of the capsule (relative frame, canonical order): the
/// segment crossing the triangle, or the closest touching feature pair.
fn capsule_initial(tri: &TriangleFrame, cap: &Capsule) -> Option<Impact<CapsuleTriangleFeature>> {
    let e0 = Vec3d::zeros();
    let a = cap.axis;
    let r = cap.r;
    // The segment crossing the closed triangle: distance zero.
    let h0 = tri.raw_height(e0);
    let h1 = tri.raw_height(a);
    // Both ends farther than r from the face plane on the same side: the
    // whole segment is, so no feature is within r (clear cases only, see
    // `CLEAR_SEPARATION_MARGIN`).
    let far = r * tri.n_len * (1.0 + super::CLEAR_SEPARATION_MARGIN);
    if (h0 > far && h1 > far) || (h0 < -far && h1 < -far) {
        return None;
    }
    if (h0 <= 0.0 && h1 >= 0.0) || (h0 >= 0.0 && h1 <= 0.0) {
        let s = if h0 == h1 { 0.0 } else { h0 / (h0 - h1) };
        let x = e0 + s.clamp(0.0, 1.0) * a;
        if tri.projects_inside(x) {
            let part = if s <= 0.0 {
                CapsulePart::Cap(0)
            } else if s >= 1.0 {
                CapsulePart::Cap(1)
            } else {
                CapsulePart::Cylinder
            };
            return Some(Impact {
                time: 0.0,
                point: x,
                normal: tri.n,
                feature: CapsuleTriangleFeature {
                    capsule: part,
                    triangle: TriangleFeature::Face,
                },
            });
        }
    }
    let mut best: Option<(f64, Impact<CapsuleTriangleFeature>)> = None;
    let mut take = |dist2: f64, imp: Impact<CapsuleTriangleFeature>| {
        let better = match &best {
            None => true,
            Some((b, bi)) => dist2 < *b || (dist2 == *b && rank(&imp.feature) < rank(&bi.feature)),
        };
        if better {
            best = Some((dist2, imp));
        }
    };
    for (k, p) in [e0, a].into_iter().enumerate() {
        if let Some(i) = initial_contact(tri, p, r) {
            take(
                (p - i.point).norm_squared(),
                with_part(i, CapsulePart::Cap(k as u8)),
            );
        }
    }
    for i in 0..3 {
        let (va, e) = tri.edge(i);
        let (s, u) = closest_params(e0, a, va, e);
        let (x, y) = (e0 + s * a, va + u * e);
        let dist2 = (x - y).norm_squared();
        if dist2 <= r * r {
            let part = if s <= 0.0 {
                CapsulePart::Cap(0)
            } else if s >= 1.0 {
                CapsulePart::Cap(1)
            } else {
                CapsulePart::Cylinder
            };
            let feature = if u <= 0.0 {
                TriangleFeature::Vertex(i as u8)
            } else if u >= 1.0 {
                TriangleFeature::Vertex(((i + 1) % 3) as u8)
            } else {
                TriangleFeature::Edge(i as u8)
            };
            take(
                dist2,
                Impact {
                    time: 0.0,
                    point: y,
                    normal: unit_or(x - y, tri.n),
                    feature: CapsuleTriangleFeature {
                        capsule: part,
                        triangle: feature,
                    },
                },
            );
        }
    }
    best.map(|(_, i)| i)
}

/// The first approaching contact after the start (relative frame).
fn capsule_entry(tri: &TriangleFrame, cap: &Capsule) -> Option<Impact<CapsuleTriangleFeature>> {
    let e0 = Vec3d::zeros();
    let a = cap.axis;
    let (r, d) = (cap.r, cap.d);
    let aa = a.norm_squared();
    let mut best = None;

    // Cap spheres.
    for (k, p) in [e0, a].into_iter().enumerate() {
        if let Some(i) = first_entry(tri, p, r, d) {
            offer(&mut best, with_part(i, CapsulePart::Cap(k as u8)));
        }
    }
    if aa <= 0.0 {
        return best;
    }

    // The parallel case: the whole segment reaches the face plane at once.
    if unresolved_dot(tri.n_raw, a) && approaches(tri.n_raw, d) {
        let hmin = tri.raw_height(e0).min(tri.raw_height(a));
        let r_raw = r * tri.n_len;
        if hmin > r_raw {
            let t = (hmin - r_raw) / -tri.n_raw.dot(&d);
            if t <= 1.0 {
                // Clip the dropped segment to the triangle (Cyrus-Beck on the
                // three edge functions, linear in the segment parameter).
                let base = t * d - r * tri.n;
                let (mut lo, mut hi) = (0.0f64, 1.0f64);
                for i in 0..3 {
                    let f0 = tri.edge_side(i, base);
                    let f1 = tri.edge_side(i, base + a);
                    if f0 < 0.0 && f1 < 0.0 {
                        hi = -1.0;
                        break;
                    }
                    if f0 < 0.0 {
                        lo = lo.max(f0 / (f0 - f1));
                    } else if f1 < 0.0 {
                        hi = hi.min(f0 / (f0 - f1));
                    }
                }
                if lo <= hi {
                    offer(
                        &mut best,
                        Impact {
                            time: t,
                            point: base + 0.5 * (lo + hi) * a,
                            normal: tri.n,
                            feature: CapsuleTriangleFeature {
                                capsule: CapsulePart::Cylinder,
                                triangle: TriangleFeature::Face,
                            },
                        },
                    );
                }
            }
        }
    }

    // Segment interior vs edge interior: the line distance is linear in time.
    for i in 0..3 {
        let (va, e) = tri.edge(i);
        let w = a.cross(&e);
        let ww = w.norm_squared();
        // Parallel lines: the caps and the vertex cylinders cover them.
        if !(ww > aa * e.norm_squared() * f64::EPSILON) {
            continue;
        }
        let wl = ww.sqrt();
        let m = e0 - va;
        let h0 = m.dot(&w);
        let side = if h0 > r * wl {
            1.0
        } else if h0 < -r * wl {
            -1.0
        } else {
            continue;
        };
        let nrm = side * w;
        if !approaches(nrm, d) {
            continue;
        }
        let t = (side * h0 - r * wl) / -nrm.dot(&d);
        if !(t <= 1.0) {
            continue;
        }
        let (s, u) = line_params(e0 + t * d, a, va, e);
        if (0.0..=1.0).contains(&s) && (0.0..=1.0).contains(&u) {
            offer(
                &mut best,
                Impact {
                    time: t,
                    point: va + u * e,
                    normal: nrm / wl,
                    feature: CapsuleTriangleFeature {
                        capsule: CapsulePart::Cylinder,
                        triangle: TriangleFeature::Edge(i as u8),
                    },
                },
            );
        }
    }

    // Triangle vertex vs the capsule's cylinder.
    for i in 0..3 {
        let v = tri.v[i];
        let Some(t) = cylinder_entry(e0 - v, a, aa, d, r) else {
            continue;
        };
        if t > 1.0 {
            continue;
        }
        let p = e0 + t * d;
        let s = (v - p).dot(&a) / aa;
        if !(0.0..=1.0).contains(&s) {
            continue;
        }
        let nrm = p + s * a - v;
        if approaches(nrm, d) {
            offer(
                &mut best,
                Impact {
                    time: t,
                    point: v,
                    normal: unit_or(nrm, tri.n),
                    feature: CapsuleTriangleFeature {
                        capsule: CapsulePart::Cylinder,
                        triangle: TriangleFeature::Vertex(i as u8),
                    },
                },
            );
        }
    }
    best
}

/// Parameters `(s, u)` of the closest points of the non-parallel lines
/// `p + s a` and `q + u b` (unclamped).
fn line_params(p: Vec3d, a: Vec3d, q: Vec3d, b: Vec3d) -> (f64, f64) {
    let r = p - q;
    let (aa, bb, ab) = (a.norm_squared(), b.norm_squared(), a.dot(&b));
    let (c, f) = (a.dot(&r), b.dot(&r));
    let denom = aa * bb - ab * ab;
    let s = (ab * f - c * bb) / denom;
    let u = (aa * f - ab * c) / denom;
    (s, u)
}

pub(super) fn capsule_vs(
    cap: &Capsule,
    triangle: &[Vec3; 3],
) -> SweepOutcome<CapsuleTriangleFeature> {
    if let Err(e) = domain::triangle(triangle, cap.mid, cap.r) {
        return SweepOutcome::Refused(e);
    }
    capsule_vs_promoted(cap, &triangle.map(promote))
}

/// [`capsule_vs`] on a triangle given in `f64` whose precision domain the
/// caller has checked: for a triangle promoted from `f32`, the same outcome
/// bit for bit.
pub(crate) fn capsule_vs_promoted(
    cap: &Capsule,
    triangle: &[Vec3d; 3],
) -> SweepOutcome<CapsuleTriangleFeature> {
    let tri = TriangleFrame::new(triangle.map(|v| v - cap.origin));
    if let Err(e) = domain::shifted_triangle(&tri) {
        return SweepOutcome::Refused(e);
    }
    // Behind only when both ends start behind the face plane (beyond the
    // rounding of their heights, `TriangleFrame::behind`).
    if tri.behind(Vec3d::zeros()) && tri.behind(cap.axis) {
        return SweepOutcome::Miss;
    }
    let swapped = cap.swapped;
    let to_caller = |i: Impact<CapsuleTriangleFeature>| {
        let capsule = match i.feature.capsule {
            CapsulePart::Cap(k) if swapped => CapsulePart::Cap(1 - k),
            other => other,
        };
        Impact {
            point: i.point + cap.origin,
            feature: CapsuleTriangleFeature {
                capsule,
                ..i.feature
            },
            ..i
        }
    };
    if let Some(i) = capsule_initial(&tri, cap) {
        return SweepOutcome::InitiallyTouching(to_caller(i));
    }
    match capsule_entry(&tri, cap) {
        Some(i) => SweepOutcome::Hit(to_caller(i)),
        None => SweepOutcome::Miss,
    }
}

/// Sweeps a rotation-locked capsule, the segment `p0 p1` (world, metres) grown
/// by `radius`, translating at `velocity` (m/s) for `dt` seconds, against one
/// static one-sided triangle.
///
/// Returns the first approaching contact (time as a fraction of the step,
/// point on the triangle, unit normal from the triangle towards the capsule,
/// capsule part and triangle feature), an initial contact, a miss (including
/// a capsule whose two ends both start behind the face) or a refusal.
/// Reversing `p0` and `p1` changes only the cap labels.
pub fn sweep_capsule_triangle(
    p0: Vec3,
    p1: Vec3,
    radius: f32,
    velocity: Vec3,
    dt: f32,
    triangle: &[Vec3; 3],
) -> SweepOutcome<CapsuleTriangleFeature> {
    match checked_capsule(p0, p1, radius, velocity, dt) {
        Ok(cap) => capsule_vs(&cap, triangle),
        Err(e) => SweepOutcome::Refused(e),
    }
}

/// Sweeps a capsule against every triangle of a slice and returns the
/// earliest contact, ties in insertion order. Triangles whose bounds are
/// disjoint from the bounds of the capsule's whole path are rejected first;
/// every other triangle is validated and any refusal is returned.
pub fn sweep_capsule_triangles(
    p0: Vec3,
    p1: Vec3,
    radius: f32,
    velocity: Vec3,
    dt: f32,
    triangles: &[[Vec3; 3]],
) -> SweepOutcome<OnTriangle<CapsuleTriangleFeature>> {
    let cap = match checked_capsule(p0, p1, radius, velocity, dt) {
        Ok(c) => c,
        Err(e) => return SweepOutcome::Refused(e),
    };
    let bounds = SweptBounds::new(&[cap.origin, cap.origin + cap.axis], cap.d, cap.r);
    let mut best = SweepOutcome::Miss;
    for (index, tri) in triangles.iter().enumerate() {
        if bounds.misses(tri) {
            continue;
        }
        best = earlier_of(best, tag(capsule_vs(&cap, tri), index));
        if best.is_refused() {
            break;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sweep::test_fixtures::{floor, hit};

    /// One end exactly on the line through vertices 0 and 2 (in the
    /// plane to within rounding, which put it behind) and the other
    /// behind: not both behind, so the capsule is admitted, and it reaches
    /// the triangle no later than the fuzz oracle's first sampled overlap
    /// (t = 0.171875, exact distances); it was answered `Miss`.
    #[test]
    fn a_capsule_with_an_end_in_the_plane_is_caught() {
        let tri = [
            Vec3::new(-3.0, -3.0, -3.0),
            Vec3::new(-5.65, 3.41e-9, -8.57e-9),
            Vec3::new(2.8099998e-9, 3.41e-9, 3.41e-9),
        ];
        let i = hit(sweep_capsule_triangle(
            Vec3::repeat(1.2080002),
            Vec3::new(-6.272, 1.2080002, 1.2080002),
            1.09,
            Vec3::new(-270.798, -158.928, -158.928),
            1.0 / 60.0,
            &tri,
        ));
        assert!(i.time > 0.0 && i.time <= 0.171875, "{i:?}");
    }

    #[test]
    fn a_standing_capsule_lands_on_its_lower_cap() {
        let i = hit(sweep_capsule_triangle(
            Vec3::new(0.0, 0.0, 1.0),
            Vec3::new(0.0, 0.0, 2.0),
            0.25,
            Vec3::new(0.0, 0.0, -3.0),
            1.0,
            &floor(),
        ));
        // Lower cap at z = 1 reaches z = 0.25 after 0.75 m of 3 m.
        assert!((i.time - 0.25).abs() < 1e-15);
        assert_eq!(i.feature.capsule, CapsulePart::Cap(0));
        assert_eq!(i.feature.triangle, TriangleFeature::Face);
    }

    #[test]
    fn a_lying_capsule_across_the_triangle_reaches_the_face_all_at_once() {
        // Both ends outside the triangle (x = +-3), the segment across it: no
        // cap is over the face; the segment crosses edges 1 and 2 at once.
        let i = hit(sweep_capsule_triangle(
            Vec3::new(-3.0, 0.0, 1.0),
            Vec3::new(3.0, 0.0, 1.0),
            0.5,
            Vec3::new(0.0, 0.0, -1.0),
            1.0,
            &floor(),
        ));
        assert!((i.time - 0.5).abs() < 1e-15, "{i:?}");
        // The parallel-face candidate wins the tie by face order.
        assert_eq!(i.feature.capsule, CapsulePart::Cylinder);
        assert_eq!(i.feature.triangle, TriangleFeature::Face);
        assert_eq!(i.normal, Vec3d::new(0.0, 0.0, 1.0));
    }

    #[test]
    fn segment_edge_time_matches_the_hand_formula() {
        // A standing capsule (axis along z) beside edge 0 (y = -1), straddling
        // the plane, moves +y: its cylinder reaches the edge.
        let i = hit(sweep_capsule_triangle(
            Vec3::new(0.0, -3.0, -1.0),
            Vec3::new(0.0, -3.0, 1.0),
            0.5,
            Vec3::new(0.0, 4.0, 0.0),
            1.0,
            &floor(),
        ));
        // Axis line x = 0, y = -3 + 4t; edge line y = -1, z = 0; distance
        // |2 - 4t| = 0.5 at t = 0.375.
        assert!((i.time - 0.375).abs() < 1e-15, "{i:?}");
        assert_eq!(i.feature.capsule, CapsulePart::Cylinder);
        assert_eq!(i.feature.triangle, TriangleFeature::Edge(0));
        assert!((i.normal - Vec3d::new(0.0, -1.0, 0.0)).norm() < 1e-15);
    }

    #[test]
    fn a_vertex_reaches_the_cylinder_at_the_hand_formula_time() {
        // Capsule along x at y = 3, z = 0, moving -y onto vertex 2 (0, 1, 0):
        // distance 2 - 4t = 0.5 at t = 0.375.
        let i = hit(sweep_capsule_triangle(
            Vec3::new(-2.0, 3.0, 0.0),
            Vec3::new(2.0, 3.0, 0.0),
            0.5,
            Vec3::new(0.0, -4.0, 0.0),
            1.0,
            &floor(),
        ));
        assert!((i.time - 0.375).abs() < 1e-15, "{i:?}");
        assert_eq!(i.feature.capsule, CapsulePart::Cylinder);
        assert_eq!(i.feature.triangle, TriangleFeature::Vertex(2));
    }

    #[test]
    fn behind_only_when_both_ends_start_behind() {
        let up = Vec3::new(0.0, 0.0, 3.0);
        let both_behind = sweep_capsule_triangle(
            Vec3::new(0.0, 0.0, -2.0),
            Vec3::new(0.0, 0.0, -1.0),
            0.25,
            up,
            1.0,
            &floor(),
        );
        assert_eq!(both_behind, SweepOutcome::Miss);
        // One end in front, beside the triangle, moving sideways into edge 0.
        let straddling = sweep_capsule_triangle(
            Vec3::new(0.0, -3.0, -1.0),
            Vec3::new(0.0, -3.0, 1.0),
            0.25,
            Vec3::new(0.0, 4.0, 0.0),
            1.0,
            &floor(),
        );
        assert!(straddling.is_hit(), "{straddling:?}");
    }

    #[test]
    fn reversing_the_endpoints_changes_only_the_cap_label() {
        let (p0, p1) = (Vec3::new(0.3, -0.2, 1.0), Vec3::new(-0.1, 0.4, 2.5));
        let v = Vec3::new(0.7, -0.3, -4.0);
        let a = sweep_capsule_triangle(p0, p1, 0.2, v, 0.5, &floor());
        let b = sweep_capsule_triangle(p1, p0, 0.2, v, 0.5, &floor());
        let (ia, ib) = (hit(a), hit(b));
        assert_eq!(
            (ia.time, ia.point, ia.normal),
            (ib.time, ib.point, ib.normal)
        );
        assert_eq!(ia.feature.capsule, CapsulePart::Cap(0));
        assert_eq!(ib.feature.capsule, CapsulePart::Cap(1));
    }

    #[test]
    fn a_capsule_piercing_the_triangle_is_initially_touching() {
        let o = sweep_capsule_triangle(
            Vec3::new(0.0, 0.0, -3.0),
            Vec3::new(0.0, 0.0, 3.0),
            0.1,
            Vec3::zeros(),
            1.0,
            &floor(),
        );
        let SweepOutcome::InitiallyTouching(i) = o else {
            panic!("{o:?}")
        };
        assert_eq!(i.feature.capsule, CapsulePart::Cylinder);
        assert_eq!(i.point, Vec3d::zeros());
    }

    #[test]
    fn sliding_a_lying_capsule_at_exactly_one_radius_is_no_hit() {
        let o = sweep_capsule_triangle(
            Vec3::new(-3.0, -0.5, 0.5),
            Vec3::new(-2.0, 0.5, 0.5),
            0.5,
            Vec3::new(5.0, 0.0, 0.0),
            1.0,
            &floor(),
        );
        assert_eq!(o, SweepOutcome::Miss);
    }
}
