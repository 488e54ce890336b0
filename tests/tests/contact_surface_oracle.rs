//! Regression test of the edge-contact bug: every contact point
//! of a solid against a triangle or another solid lies on both surfaces.
//!
//! What broke: when an edge-pair axis won against a triangle
//! (`solid_solid.rs`, the `Axis::Edges` branch), the point was taken from
//! whichever of a box's four parallel edges came first, often the far one:
//! 3,262 of 6,459 single-point edge manifolds in random box-triangle tests
//! put the point 0.05-0.45 m away from the contact, and boxes came to rest
//! propped on an edge.
//!
//! The oracle shares no code with `parapet_narrow::contact`: it places the
//! shapes' vertices and face polygons in `f64` itself, measures the
//! distance of a point to a surface by brute force over the face polygons,
//! decides overlap by its own separating-axis test over every face normal
//! and every cross product of edges (full projections), and finds the exact
//! distance of disjoint solids by brute force over vertex-face and
//! edge-edge pairs (Ericson, *Real-Time Collision Detection* 5.1.9).
//!
//! For each random pair within the margin it asserts:
//! - each point's surface points (`point +- normal * depth / 2`, see
//!   `ContactPoint`) lie within [`SURFACE_TOL`] of A's and of B's surface
//!   (for a triangle: of the triangle itself), so no point is farther from
//!   the triangle than its depth;
//! - a disjoint pair's deepest depth is minus the exact distance;
//! - an overlapping pair's deepest depth is the translation of B along the
//!   normal that separates the pair (found by bisection on the oracle's
//!   own separating-axis test), so moving B by it leaves the shapes
//!   touching, neither overlapping nor apart. It is at most the overlap of
//!   the projections on the normal, and less when the part of one shape
//!   that is deepest along the normal lies beside the other (a solid pushed
//!   deep through a one-sided triangle's front, a face resting on a face at
//!   a fraction of a degree);
//! - a pair the oracle finds within the margin (a solid centred in front
//!   of a triangle) gets a contact.

use parapet_geometry::Shape;
use parapet_math::nalgebra::{Isometry3, Translation3, UnitQuaternion};
use parapet_math::Vec3;
use parapet_narrow::contact::{self, Manifold, Pose};
use parapet_scenes::prng::SplitMix64;

type V = parapet_math::nalgebra::Vector3<f64>;

/// Tolerance (m) of the issue: a contact point's surface points lie within
/// 1e-3 m of the surfaces, and depths agree with the oracle to 1e-3 m. The
/// implementation rounds its points to `f32` once (about 1e-7 m at the
/// few-metre coordinates generated here) and prefers face axes over edge
/// axes within 1e-6 m of the pair size, so a correct contact is well inside.
const SURFACE_TOL: f64 = 1.0e-3;

/// The speculative margin of the tests (m), the world's `CONTACT_MARGIN`.
const MARGIN: f32 = 0.02;

/// Random pairs per family (10,000 run in about 15 s; 60,000 passed once).
/// Before the fix, 757 of the first 2,434 box-triangle contacts failed.
const CASES: usize = 10_000;

/// A convex polytope (or a one-sided triangle, one face) in the world
/// frame, in `f64`: vertices, face loops counter-clockwise from outside,
/// outward unit normals.
struct Poly {
    verts: Vec<V>,
    faces: Vec<Vec<usize>>,
    normals: Vec<V>,
}

fn promote(v: Vec3) -> V {
    V::new(v.x as f64, v.y as f64, v.z as f64)
}

/// The rotation of `pose` in `f64`, normalised.
fn rotation(pose: &Pose) -> parapet_math::nalgebra::Matrix3<f64> {
    let q = pose.rotation.into_inner();
    let q = parapet_math::nalgebra::Quaternion::new(q.w as f64, q.i as f64, q.j as f64, q.k as f64);
    UnitQuaternion::from_quaternion(q)
        .to_rotation_matrix()
        .into_inner()
}

fn placed(local: &[V], faces: Vec<Vec<usize>>, pose: &Pose) -> Poly {
    let r = rotation(pose);
    let t = promote(pose.translation.vector);
    let verts: Vec<V> = local.iter().map(|v| r * v + t).collect();
    let normals = faces
        .iter()
        .map(|l| {
            let mut n = V::zeros();
            for k in 0..l.len() {
                n += verts[l[k]].cross(&verts[l[(k + 1) % l.len()]]);
            }
            n.normalize()
        })
        .collect();
    Poly {
        verts,
        faces,
        normals,
    }
}

fn box_poly(half: Vec3, pose: &Pose) -> Poly {
    let h = promote(half);
    let local: Vec<V> = (0..8)
        .map(|i| {
            let s = |bit: usize| if i & bit == 0 { -1.0 } else { 1.0 };
            V::new(s(1) * h.x, s(2) * h.y, s(4) * h.z)
        })
        .collect();
    let faces = [
        [1, 3, 7, 5],
        [0, 4, 6, 2],
        [2, 6, 7, 3],
        [0, 1, 5, 4],
        [4, 5, 7, 6],
        [0, 2, 3, 1],
    ];
    placed(&local, faces.iter().map(|f| f.to_vec()).collect(), pose)
}

fn hull_poly(shape: &Shape, pose: &Pose) -> Poly {
    let Shape::ConvexHull(h) = shape else {
        unreachable!("hull_poly takes a hull")
    };
    let local: Vec<V> = h.vertices().iter().map(|v| promote(*v)).collect();
    let faces = h
        .faces()
        .iter()
        .map(|f| f.vertices().iter().map(|&i| i as usize).collect())
        .collect();
    placed(&local, faces, pose)
}

fn triangle_poly(t: &[Vec3; 3]) -> Poly {
    let verts: Vec<V> = t.iter().map(|v| promote(*v)).collect();
    let n = (verts[1] - verts[0])
        .cross(&(verts[2] - verts[0]))
        .normalize();
    Poly {
        verts,
        faces: vec![vec![0, 1, 2]],
        normals: vec![n],
    }
}

impl Poly {
    fn edges(&self) -> Vec<(V, V)> {
        let mut out = Vec::new();
        for l in &self.faces {
            for k in 0..l.len() {
                out.push((self.verts[l[k]], self.verts[l[(k + 1) % l.len()]]));
            }
        }
        out
    }

    fn interval(&self, axis: V) -> (f64, f64) {
        self.verts.iter().fold((f64::MAX, f64::MIN), |(lo, hi), v| {
            (lo.min(axis.dot(v)), hi.max(axis.dot(v)))
        })
    }

    fn centroid(&self) -> V {
        self.verts.iter().sum::<V>() / self.verts.len() as f64
    }

    /// Distance (m) of `p` to the polygon of face `f`.
    fn face_distance(&self, f: usize, p: V) -> f64 {
        let (l, n) = (&self.faces[f], self.normals[f]);
        let h = n.dot(&(p - self.verts[l[0]]));
        let q = p - n * h;
        let mut inside = true;
        let mut best = f64::MAX;
        for k in 0..l.len() {
            let (a, b) = (self.verts[l[k]], self.verts[l[(k + 1) % l.len()]]);
            if (b - a).cross(&n).dot(&(q - a)) > 0.0 {
                inside = false;
            }
            best = best.min(point_segment(p, a, b));
        }
        if inside {
            h.abs()
        } else {
            best
        }
    }

    /// Distance (m) of `p` to the surface (for a triangle: to the triangle).
    fn surface_distance(&self, p: V) -> f64 {
        (0..self.faces.len())
            .map(|f| self.face_distance(f, p))
            .fold(f64::MAX, f64::min)
    }
}

fn point_segment(p: V, a: V, b: V) -> f64 {
    let ab = b - a;
    let t = if ab.norm_squared() > 0.0 {
        ((p - a).dot(&ab) / ab.norm_squared()).clamp(0.0, 1.0)
    } else {
        0.0
    };
    (p - (a + ab * t)).norm()
}

/// Distance between segments `p1 q1` and `p2 q2` (Ericson 5.1.9).
fn segment_segment(p1: V, q1: V, p2: V, q2: V) -> f64 {
    let (d1, d2, r) = (q1 - p1, q2 - p2, p1 - p2);
    let (a, e, f) = (d1.norm_squared(), d2.norm_squared(), d2.dot(&r));
    let (s, t);
    if a <= 1e-30 && e <= 1e-30 {
        return r.norm();
    }
    if a <= 1e-30 {
        s = 0.0;
        t = (f / e).clamp(0.0, 1.0);
    } else {
        let c = d1.dot(&r);
        if e <= 1e-30 {
            t = 0.0;
            s = (-c / a).clamp(0.0, 1.0);
        } else {
            let b = d1.dot(&d2);
            let denom = a * e - b * b;
            let s0 = if denom > 0.0 {
                ((b * f - c * e) / denom).clamp(0.0, 1.0)
            } else {
                0.0
            };
            let t0 = (b * s0 + f) / e;
            if t0 < 0.0 {
                t = 0.0;
                s = (-c / a).clamp(0.0, 1.0);
            } else if t0 > 1.0 {
                t = 1.0;
                s = ((b - c) / a).clamp(0.0, 1.0);
            } else {
                t = t0;
                s = s0;
            }
        }
    }
    ((p1 + d1 * s) - (p2 + d2 * t)).norm()
}

/// The candidate separating axes of the pair: every face normal and every
/// cross product of an edge of A with an edge of B.
fn axes(a: &Poly, b: &Poly) -> Vec<V> {
    let mut out: Vec<V> = a.normals.iter().chain(&b.normals).copied().collect();
    for (pa, qa) in a.edges() {
        for (pb, qb) in b.edges() {
            let c = (qa - pa).cross(&(qb - pb));
            if c.norm() > 1e-9 * (qa - pa).norm() * (qb - pb).norm() {
                out.push(c.normalize());
            }
        }
    }
    out
}

/// Whether the interiors of the two solids overlap (separating-axis test).
fn overlapping(a: &Poly, b: &Poly) -> bool {
    axes(a, b).iter().all(|&n| {
        let ((la, ha), (lb, hb)) = (a.interval(n), b.interval(n));
        lb < ha && la < hb
    })
}

/// How far B must move along `u` (unit, from A to B) for the projections
/// on `u` to separate (m).
fn directed_overlap(a: &Poly, b: &Poly, u: V) -> f64 {
    a.interval(u).1 - b.interval(u).0
}

/// The shortest translation of B along `u` (unit, from A to B) after which
/// the pair no longer overlaps (m): bisection on the separating-axis test
/// between 0 and the overlap of the projections on `u` (beyond which the
/// projections, hence the solids, are apart; the translations that leave
/// two convex solids overlapping form one interval), to 1e-7 m.
fn separating_translation(a: &Poly, b: &Poly, u: V) -> f64 {
    let moved = |t: f64| Poly {
        verts: b.verts.iter().map(|v| v + u * t).collect(),
        faces: b.faces.clone(),
        normals: b.normals.clone(),
    };
    let (mut lo, mut hi) = (0.0, directed_overlap(a, b, u).max(0.0));
    if !overlapping(a, b) {
        return 0.0;
    }
    while hi - lo > 1e-7 {
        let mid = 0.5 * (lo + hi);
        if overlapping(a, &moved(mid)) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    hi
}

/// Exact distance of two disjoint solids (brute force over features).
fn distance(a: &Poly, b: &Poly) -> f64 {
    let mut d = f64::MAX;
    for &v in &b.verts {
        d = d.min(a.surface_distance(v));
    }
    for &v in &a.verts {
        d = d.min(b.surface_distance(v));
    }
    for (pa, qa) in a.edges() {
        for (pb, qb) in b.edges() {
            d = d.min(segment_segment(pa, qa, pb, qb));
        }
    }
    d
}

/// Checks `m` (A's contact with B) against the oracle; `expect_contact`
/// says whether a pair within the margin must get one (false for a solid
/// centred behind a one-sided triangle). Returns a failure message.
fn check(a: &Poly, b: &Poly, m: &Manifold, expect_contact: bool) -> Result<(), String> {
    let n = promote(m.normal());
    for p in m.points() {
        let (x, depth) = (promote(p.point), p.depth as f64);
        let (on_a, on_b) = (x + n * (depth / 2.0), x - n * (depth / 2.0));
        let (da, db) = (a.surface_distance(on_a), b.surface_distance(on_b));
        if da > SURFACE_TOL || db > SURFACE_TOL {
            return Err(format!(
                "point {x:?} depth {depth}: {da} m from A's surface, {db} m from B's"
            ));
        }
    }
    let deepest = m.max_depth().map(|d| d as f64);
    if overlapping(a, b) {
        let Some(deepest) = deepest else {
            return if expect_contact {
                Err("overlapping pair without contact".into())
            } else {
                Ok(())
            };
        };
        let overlap = directed_overlap(a, b, n);
        if deepest > overlap + SURFACE_TOL {
            return Err(format!(
                "deepest depth {deepest} beyond the overlap along the normal {overlap}"
            ));
        }
        let separating = separating_translation(a, b, n);
        if (deepest - separating).abs() > SURFACE_TOL {
            return Err(format!(
                "deepest depth {deepest}, separating translation along the normal {separating}"
            ));
        }
    } else {
        let d = distance(a, b);
        match deepest {
            Some(deepest) if (deepest + d).abs() > SURFACE_TOL => {
                return Err(format!("deepest depth {deepest}, exact distance {d}"));
            }
            None if expect_contact && d < MARGIN as f64 - SURFACE_TOL => {
                return Err(format!("no contact at distance {d}"));
            }
            _ => {}
        }
    }
    Ok(())
}

fn random_pose(rng: &mut SplitMix64, reach: f32) -> Pose {
    let t = Vec3::new(
        rng.range_f32(-reach, reach),
        rng.range_f32(-reach, reach),
        rng.range_f32(-reach, reach),
    );
    let axis = Vec3::new(
        rng.range_f32(-1.0, 1.0),
        rng.range_f32(-1.0, 1.0),
        rng.range_f32(-1.0, 1.0),
    );
    let angle = rng.range_f32(0.0, std::f32::consts::PI);
    let rotation = if axis.norm() > 1e-3 {
        UnitQuaternion::from_scaled_axis(axis.normalize() * angle)
    } else {
        UnitQuaternion::identity()
    };
    Isometry3::from_parts(Translation3::from(t), rotation)
}

fn random_half(rng: &mut SplitMix64) -> Vec3 {
    Vec3::new(
        rng.log_range(0.05, 2.0) as f32,
        rng.log_range(0.05, 2.0) as f32,
        rng.log_range(0.05, 2.0) as f32,
    )
}

/// A random convex hull of 6 to 14 points in a box of the given half size.
fn random_hull(rng: &mut SplitMix64) -> Shape {
    loop {
        let half = random_half(rng);
        let count = 6 + rng.below(9);
        let points: Vec<Vec3> = (0..count)
            .map(|_| {
                Vec3::new(
                    rng.range_f32(-half.x, half.x),
                    rng.range_f32(-half.y, half.y),
                    rng.range_f32(-half.z, half.z),
                )
            })
            .collect();
        if let Ok(shape) = Shape::convex_hull(&points) {
            return shape;
        }
    }
}

/// A random triangle near the origin whose edges are 0.2 to 6 m long.
fn random_triangle(rng: &mut SplitMix64) -> [Vec3; 3] {
    loop {
        let t: [Vec3; 3] = std::array::from_fn(|_| {
            Vec3::new(
                rng.range_f32(-3.0, 3.0),
                rng.range_f32(-3.0, 3.0),
                rng.range_f32(-3.0, 3.0),
            )
        });
        let (a, b, c) = (promote(t[0]), promote(t[1]), promote(t[2]));
        let area = (b - a).cross(&(c - a)).norm();
        let longest = (b - a).norm().max((c - b).norm()).max((a - c).norm());
        if area > 0.04 && longest > 0.2 {
            return t;
        }
    }
}

/// Runs `family` for [`CASES`] seeds; counts the pairs within the margin
/// and panics with the first failures.
fn run(
    name: &str,
    seed: u64,
    mut family: impl FnMut(&mut SplitMix64) -> Option<Result<(), String>>,
) {
    let mut rng = SplitMix64::new(seed);
    let mut failures = Vec::new();
    let mut contacts = 0;
    for case in 0..CASES {
        if let Some(result) = family(&mut rng) {
            contacts += 1;
            if let Err(e) = result {
                failures.push(format!("case {case}: {e}"));
            }
        }
    }
    // The generator must exercise the contacts, not only misses.
    assert!(contacts > CASES / 4, "{name}: only {contacts} contacts");
    assert!(
        failures.is_empty(),
        "{name}: {} of {contacts} contacts fail the oracle, first: {:#?}",
        failures.len(),
        &failures[..failures.len().min(5)]
    );
}

/// Pose of a solid of bounding radius `r` placed around a triangle so that
/// it mostly touches or overlaps it: centred on a random point of the
/// triangle, pushed out along a random direction by up to its radius.
fn near_triangle(rng: &mut SplitMix64, tri: &[Vec3; 3], r: f32) -> Pose {
    let (u, v) = (rng.next_unit_f32(), rng.next_unit_f32());
    let (u, v) = if u + v > 1.0 {
        (1.0 - u, 1.0 - v)
    } else {
        (u, v)
    };
    let on = tri[0] + (tri[1] - tri[0]) * u + (tri[2] - tri[0]) * v;
    let mut pose = random_pose(rng, 1.0);
    let n = (tri[1] - tri[0]).cross(&(tri[2] - tri[0])).normalize();
    let offset = n * rng.range_f32(0.0, 1.1 * r) + pose.translation.vector * (0.3 * r);
    pose.translation = Translation3::from(on + offset);
    pose
}

fn front(solid: &Poly, tri: &Poly) -> bool {
    tri.normals[0].dot(&(solid.centroid() - tri.verts[0])) >= 0.0
}

#[test]
fn box_triangle_contact_points_lie_on_both_surfaces() {
    run("box-triangle", 29, |rng| {
        let half = random_half(rng);
        let tri = random_triangle(rng);
        let pose = near_triangle(rng, &tri, half.norm());
        let shape = Shape::cuboid(half).unwrap();
        let m = contact::shape_triangle(&shape, &pose, &tri, MARGIN).unwrap();
        let (a, b) = (box_poly(half, &pose), triangle_poly(&tri));
        let touching = !m.is_empty() || overlapping(&a, &b) || distance(&a, &b) < MARGIN as f64;
        touching.then(|| check(&a, &b, &m, front(&a, &b)))
    });
}

#[test]
fn hull_triangle_contact_points_lie_on_both_surfaces() {
    run("hull-triangle", 30, |rng| {
        let shape = random_hull(rng);
        let tri = random_triangle(rng);
        let pose = near_triangle(rng, &tri, shape.bounding_radius() as f32);
        let m = contact::shape_triangle(&shape, &pose, &tri, MARGIN).unwrap();
        let (a, b) = (hull_poly(&shape, &pose), triangle_poly(&tri));
        let touching = !m.is_empty() || overlapping(&a, &b) || distance(&a, &b) < MARGIN as f64;
        touching.then(|| check(&a, &b, &m, front(&a, &b)))
    });
}

#[test]
fn box_box_contact_points_lie_on_both_surfaces() {
    run("box-box", 31, |rng| {
        let (ha, hb) = (random_half(rng), random_half(rng));
        let pose_a = random_pose(rng, 0.0);
        let mut pose_b = random_pose(rng, 1.0);
        pose_b.translation.vector *= (ha.norm() + hb.norm()) * 0.5;
        let (sa, sb) = (Shape::cuboid(ha).unwrap(), Shape::cuboid(hb).unwrap());
        let m = contact::shapes(&sa, &pose_a, &sb, &pose_b, MARGIN).unwrap();
        let (a, b) = (box_poly(ha, &pose_a), box_poly(hb, &pose_b));
        let touching = !m.is_empty() || overlapping(&a, &b) || distance(&a, &b) < MARGIN as f64;
        touching.then(|| check(&a, &b, &m, true))
    });
}

#[test]
fn hull_hull_contact_points_lie_on_both_surfaces() {
    run("hull-hull", 32, |rng| {
        let (sa, sb) = (random_hull(rng), random_hull(rng));
        let pose_a = random_pose(rng, 0.0);
        let mut pose_b = random_pose(rng, 1.0);
        pose_b.translation.vector *= (sa.bounding_radius() + sb.bounding_radius()) as f32 * 0.4;
        let m = contact::shapes(&sa, &pose_a, &sb, &pose_b, MARGIN).unwrap();
        let (a, b) = (hull_poly(&sa, &pose_a), hull_poly(&sb, &pose_b));
        let touching = !m.is_empty() || overlapping(&a, &b) || distance(&a, &b) < MARGIN as f64;
        touching.then(|| check(&a, &b, &m, true))
    });
}
