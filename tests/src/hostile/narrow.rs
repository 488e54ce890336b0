//! The runs of the narrow-phase targets: every public sweep, contact and
//! ray function of `parapet_narrow` on hostile and ordinary input. No
//! panic; what is reported is finite and in range; and, on finite input
//! that the function does not refuse, the brute-force oracles of
//! [`super::oracle`] agree with it (a reported miss never hides an overlap,
//! a hit is never later than the first overlap, a contact point lies on
//! both shapes within its depth).

use std::sync::Arc;

use arbitrary::{Result, Unstructured};
use parapet_geometry::bvh::TriangleBoundsTree;
use parapet_geometry::{ActiveEdges, Shape};
use parapet_math::nalgebra::{Isometry3, Translation3};
use parapet_math::{promote, Quat, Vec3, Vec3d};
use parapet_narrow::contact::{self, Manifold, Pose, MAX_CONTACT_COORDINATE, MAX_CONTACT_POINTS};
use parapet_narrow::ray;
use parapet_narrow::solid::ConvexSolid;
use parapet_narrow::sweep::{self, Impact, MovingSegment, Placement, SweepOutcome, SweptShape};

use super::build::{any_shape, solid_shape};
use super::oracle::{
    front_to_back_crossing, segment_segment_distance, segment_triangle_distance, triangle_distance,
    SAMPLES,
};
use super::values::{any_dt, any_f32, any_quat, any_vec, finite, length, ordinary_vec};

/// A triangle: ordinary (vertices within 3 m), thin, degenerate, or any.
fn any_triangle(u: &mut Unstructured<'_>) -> Result<[Vec3; 3]> {
    Ok(match u.int_in_range(0u8..=7)? {
        0..=4 => [
            ordinary_vec(u, 3.0)?,
            ordinary_vec(u, 3.0)?,
            ordinary_vec(u, 3.0)?,
        ],
        5 => {
            let a = ordinary_vec(u, 3.0)?;
            let b = ordinary_vec(u, 3.0)?;
            [a, b, a + (b - a) * 0.5 + ordinary_vec(u, 1e-4)?]
        }
        6 => {
            let a = ordinary_vec(u, 3.0)?;
            [a, a, ordinary_vec(u, 3.0)?]
        }
        _ => [any_vec(u, 3.0)?, any_vec(u, 3.0)?, any_vec(u, 3.0)?],
    })
}

/// A pose: ordinary or hostile.
fn any_pose(u: &mut Unstructured<'_>) -> Result<Pose> {
    Ok(Isometry3::from_parts(
        Translation3::from(any_vec(u, 3.0)?),
        any_quat(u)?,
    ))
}

/// Whether all the given scalars and vectors are finite.
fn all_finite(vectors: &[Vec3], scalars: &[f32]) -> bool {
    vectors.iter().all(finite) && scalars.iter().all(|s| s.is_finite())
}

/// The common checks of a reported impact: time in `[0, 1]`, unit normal,
/// finite point.
fn check_impact<F: std::fmt::Debug>(what: &str, i: &Impact<F>) {
    assert!(
        (0.0..=1.0).contains(&i.time)
            && i.point.iter().all(|c| c.is_finite())
            && (i.normal.norm() - 1.0).abs() <= 1e-9,
        "{what}: {i:?}"
    );
}

fn check_outcome<F: std::fmt::Debug + Copy>(what: &str, o: &SweepOutcome<F>) {
    match o {
        SweepOutcome::Hit(i) | SweepOutcome::InitiallyTouching(i) => check_impact(what, i),
        SweepOutcome::Refused(r) => {
            let _ = r.to_string();
        }
        SweepOutcome::Miss => {}
    }
}

/// The earliest time (fraction) at which a sampled clearance falls below
/// `reach - tol`, over `SAMPLES + 1` times in `[0, 1]`, if any.
fn first_overlap(gap: impl Fn(f64) -> f64, reach: f64, tol: f64) -> Option<f64> {
    (0..=SAMPLES)
        .map(|k| k as f64 / SAMPLES as f64)
        .find(|&s| gap(s) < reach - tol)
}

/// A reported outcome against the first sampled overlap and the centre's
/// front-to-back crossing (both lower bounds of the true first contact).
fn agree<F: std::fmt::Debug + Copy>(what: &str, o: &SweepOutcome<F>, overlap: Option<f64>) {
    let Some(s) = overlap else { return };
    match o {
        SweepOutcome::Hit(i) => assert!(
            i.time <= s + 1e-9,
            "{what}: hit at {} but overlapping at {s}: {o:?}",
            i.time
        ),
        SweepOutcome::InitiallyTouching(_) | SweepOutcome::Refused(_) => {}
        SweepOutcome::Miss => panic!("{what}: a miss, but overlapping at {s}"),
    }
}

/// Relative tolerance of the sweep oracles: the sweeps are `f64` analytic
/// to about 1e-12 of their operands; 1e-6 of the scene's size keeps the
/// oracle clear of their documented tangency rule (a graze is no impact).
const ORACLE_RELATIVE: f64 = 1e-6;

/// The sphere and capsule sweeps against one triangle and against lists,
/// with their oracles.
fn round_sweeps(u: &mut Unstructured<'_>) -> Result<()> {
    let tri = any_triangle(u)?;
    let capsule = u.arbitrary::<bool>()?;
    let p0 = if u.ratio(3u8, 4u8)? {
        ordinary_vec(u, 4.0)?
    } else {
        any_vec(u, 4.0)?
    };
    let p1 = if capsule { p0 + any_vec(u, 1.0)? } else { p0 };
    let r = length(u)?;
    let target = tri[0] + (tri[1] - tri[0]) * 0.3 + (tri[2] - tri[0]) * 0.3;
    let v = if u.ratio(1u8, 2u8)? {
        (target - p0) * (60.0 * crate::hostile::values::in_range(u, 0.0, 3.0, 30)?)
    } else {
        any_vec(u, 60.0)?
    };
    let dt = any_dt(u)?;
    let outcome = if capsule {
        sweep::sweep_capsule_triangle(p0, p1, r, v, dt, &tri).map_feature(|_| ())
    } else {
        sweep::sweep_sphere_triangle(p0, r, v, dt, &tri).map_feature(|_| ())
    };
    check_outcome("round sweep", &outcome);
    // Lists: the earliest of the single sweeps (a refusal of any wins).
    let tris = [tri, any_triangle(u)?, any_triangle(u)?];
    let list = if capsule {
        sweep::sweep_capsule_triangles(p0, p1, r, v, dt, &tris).map_feature(|f| f.triangle)
    } else {
        sweep::sweep_sphere_triangles(p0, r, v, dt, &tris).map_feature(|f| f.triangle)
    };
    check_outcome("round sweep over a list", &list);
    if !capsule {
        if let Ok(tree) = TriangleBoundsTree::build(&tris) {
            let indexed = sweep::sweep_sphere_triangles_indexed(p0, r, v, dt, &tris, &tree)
                .map_feature(|f| f.triangle);
            // Compared as text: a refusal may carry a NaN value.
            assert_eq!(
                format!("{indexed:?}"),
                format!("{list:?}"),
                "the indexed sweep differs from the list sweep"
            );
        }
    }
    if outcome.is_refused() || !all_finite(&[p0, p1, v, tri[0], tri[1], tri[2]], &[r, dt]) {
        return Ok(());
    }
    let (a, b) = (promote(p0), promote(p1));
    let d = promote(v) * dt as f64;
    let t = tri.map(promote);
    let scale = (t[0] - a)
        .norm()
        .max((t[1] - a).norm())
        .max((t[2] - a).norm())
        + d.norm()
        + (b - a).norm()
        + r as f64;
    let tol = ORACLE_RELATIVE * scale;
    let n = (t[1] - t[0]).cross(&(t[2] - t[0]));
    let side = |p: Vec3d| n.dot(&(p - t[0]));
    // One-sided admission: a shape whose centre (a capsule: both ends)
    // starts behind the plane is not caught.
    if side(a) < 0.0 && side(b) < 0.0 {
        return Ok(());
    }
    let gap = |s: f64| segment_triangle_distance(a + d * s, b + d * s, &t);
    let mut overlap = first_overlap(gap, r as f64, tol);
    for end in [a, b] {
        if let Some(s) = front_to_back_crossing(end, end + d, &t, 1e-3) {
            overlap = Some(overlap.map_or(s, |o: f64| o.min(s)));
        }
    }
    agree("round sweep", &outcome, overlap);
    Ok(())
}

/// The segment pair sweep and its checked form, with the oracle.
fn pair_sweeps(u: &mut Unstructured<'_>) -> Result<()> {
    let member = |u: &mut Unstructured<'_>| -> Result<MovingSegment> {
        let p0 = if u.ratio(3u8, 4u8)? {
            ordinary_vec(u, 3.0)?
        } else {
            any_vec(u, 3.0)?
        };
        Ok(MovingSegment {
            p0,
            p1: if u.arbitrary()? {
                p0
            } else {
                p0 + ordinary_vec(u, 1.0)?
            },
            radius: length(u)?,
            velocity: any_vec(u, 60.0)?,
        })
    };
    let (a, b) = (member(u)?, member(u)?);
    let dt = any_dt(u)?;
    let outcome = sweep::sweep_segment_pair(&a, &b, dt);
    check_outcome("pair sweep", &outcome);
    if let (Ok(ca), Ok(cb)) = (
        sweep::CheckedSegment::new(&a, dt),
        sweep::CheckedSegment::new(&b, dt),
    ) {
        // Compared as text: a refusal may carry a NaN value.
        assert_eq!(
            format!("{:?}", sweep::sweep_checked_pair(&ca, &cb)),
            format!("{outcome:?}"),
            "checked pair differs"
        );
    }
    if outcome.is_refused() {
        return Ok(());
    }
    let (da, db) = (
        promote(a.velocity) * dt as f64,
        promote(b.velocity) * dt as f64,
    );
    let (a0, a1, b0, b1) = (promote(a.p0), promote(a.p1), promote(b.p0), promote(b.p1));
    let reach = a.radius as f64 + b.radius as f64;
    let scale =
        (b0 - a0).norm() + da.norm() + db.norm() + (a1 - a0).norm() + (b1 - b0).norm() + reach;
    let gap = |s: f64| segment_segment_distance(a0 + da * s, a1 + da * s, b0 + db * s, b1 + db * s);
    agree(
        "pair sweep",
        &outcome,
        first_overlap(gap, reach, ORACLE_RELATIVE * scale),
    );
    Ok(())
}

/// A box or hull solid of ordinary size, with its vertex centroid (shape
/// frame), or `None` when the generator drew a sphere or capsule.
fn any_solid(u: &mut Unstructured<'_>) -> Result<Option<(ConvexSolid, Vec3d)>> {
    Ok(match solid_shape(u)? {
        Shape::Cuboid(c) => ConvexSolid::from_cuboid(c.half_extents())
            .ok()
            .map(|s| (s, Vec3d::zeros())),
        Shape::ConvexHull(h) => {
            let centroid =
                h.vertices().iter().map(|v| promote(*v)).sum::<Vec3d>() / h.vertices().len() as f64;
            Some((ConvexSolid::from_hull(&h), centroid))
        }
        _ => None,
    })
}

/// The solid sweep, its prepared form and the dispatcher, with the
/// centroid-crossing oracle (a solid whose centroid crosses a triangle
/// front to back through its interior has met it by then).
fn solid_sweeps(u: &mut Unstructured<'_>) -> Result<()> {
    let Some((solid, centroid)) = any_solid(u)? else {
        return Ok(());
    };
    let tri = any_triangle(u)?;
    let placement = Placement::at(
        if u.ratio(3u8, 4u8)? {
            ordinary_vec(u, 4.0)?
        } else {
            any_vec(u, 4.0)?
        },
        any_quat(u)?,
    );
    let v = any_vec(u, 60.0)?;
    let dt = any_dt(u)?;
    let outcome = sweep::sweep_solid_triangle(&solid, &placement, v, dt, &tri);
    check_outcome("solid sweep", &outcome);
    let shape = SweptShape::Solid {
        solid: Arc::new(solid.clone()),
    };
    let dispatched = shape.prepare(&placement, v, dt).triangle(&tri);
    check_outcome("dispatched solid sweep", &dispatched);
    // Compared as text: a refusal may carry a NaN value.
    assert_eq!(
        format!("{:?}", dispatched.clone().map_feature(|_| ())),
        format!("{:?}", outcome.clone().map_feature(|_| ())),
        "the dispatcher differs from the solid sweep"
    );
    if outcome.is_refused()
        || !all_finite(&[placement.body_position, v, tri[0], tri[1], tri[2]], &[dt])
    {
        return Ok(());
    }
    let q = parapet_math::promote_quat(placement.body_rotation);
    let c0 = promote(placement.body_position) + q.transform_vector(&centroid);
    let d = promote(v) * dt as f64;
    let t = tri.map(promote);
    agree(
        "solid sweep",
        &outcome,
        front_to_back_crossing(c0, c0 + d, &t, 1e-3),
    );
    Ok(())
}

/// The pair dispatcher over round shapes.
fn shape_pair_sweeps(u: &mut Unstructured<'_>) -> Result<()> {
    let shape = |u: &mut Unstructured<'_>| -> Result<SweptShape> {
        Ok(if u.arbitrary()? {
            SweptShape::Sphere { radius: length(u)? }
        } else {
            SweptShape::Capsule {
                radius: length(u)?,
                half_height: length(u)?,
            }
        })
    };
    let (a, b) = (shape(u)?, shape(u)?);
    let pa = Placement::at(any_vec(u, 3.0)?, any_quat(u)?);
    let pb = Placement::at(any_vec(u, 3.0)?, any_quat(u)?);
    let outcome = sweep::sweep_shape_pair(
        &a,
        &pa,
        any_vec(u, 60.0)?,
        &b,
        &pb,
        any_vec(u, 60.0)?,
        any_dt(u)?,
    );
    check_outcome("shape pair sweep", &outcome);
    Ok(())
}

/// Every public translational sweep: sphere, capsule, pair, solid and the
/// dispatchers (turning motions are the `toi` target's: the arbiter).
pub fn sweeps(u: &mut Unstructured<'_>) -> Result<()> {
    match u.int_in_range(0u8..=4)? {
        0 | 1 => round_sweeps(u),
        2 => pair_sweeps(u),
        3 => solid_sweeps(u),
        _ => shape_pair_sweeps(u),
    }
}

/// Distance (m) from `p` to a solid primitive at `pose` (0 inside), for
/// spheres, capsules and cuboids; `None` otherwise.
fn shape_distance(shape: &Shape, pose: &Pose, p: Vec3d) -> Option<f64> {
    let q = parapet_math::promote_quat(pose.rotation);
    let local = q.inverse_transform_vector(&(p - promote(pose.translation.vector)));
    Some(match shape {
        Shape::Sphere(s) => (local.norm() - s.radius() as f64).max(0.0),
        Shape::Capsule(c) => {
            let h = c.half_height() as f64;
            let axis = Vec3d::new(0.0, 0.0, local.z.clamp(-h, h));
            ((local - axis).norm() - c.radius() as f64).max(0.0)
        }
        Shape::Cuboid(b) => {
            let h = promote(b.half_extents());
            let outside = Vec3d::new(
                (local.x.abs() - h.x).max(0.0),
                (local.y.abs() - h.y).max(0.0),
                (local.z.abs() - h.z).max(0.0),
            );
            outside.norm()
        }
        _ => return None,
    })
}

/// The checks of a manifold: at most the documented point count, unit
/// finite normal, finite points, depths within the margin; with `near`,
/// each point lies within its half depth (plus `tol`) of both shapes.
/// The distances (m) from a point to shapes A and B, where the oracle has
/// them.
type Distances<'a> = &'a dyn Fn(Vec3d) -> Option<[f64; 2]>;

fn check_manifold(what: &str, m: &Manifold, margin: f32, near: Option<(Distances<'_>, f64)>) {
    assert!(m.len() <= MAX_CONTACT_POINTS, "{what}: {m:?}");
    if m.is_empty() {
        return;
    }
    assert!(
        finite(&m.normal()) && (m.normal().norm() - 1.0).abs() <= 1e-4,
        "{what}: {m:?}"
    );
    for p in m.points() {
        assert!(finite(&p.point) && p.depth.is_finite(), "{what}: {m:?}");
        assert!(
            p.depth >= -margin.max(0.0) * (1.0 + 1e-5) - 1e-6,
            "{what}: depth beyond the margin {margin}: {m:?}"
        );
        if let Some((distances, tol)) = &near {
            if let Some([da, db]) = distances(promote(p.point)) {
                let allowed = (p.depth as f64).abs() * 0.5 + tol;
                assert!(
                    da <= allowed && db <= allowed,
                    "{what}: point {:?} lies {da} m from A and {db} m from B (depth {}): {m:?}",
                    p.point,
                    p.depth
                );
            }
        }
    }
}

/// Every public contact function: the dispatchers on any two shapes (and
/// a mesh), and the pair functions, with the point-on-both-shapes oracle
/// for spheres, capsules, cuboids and triangles.
pub fn contacts(u: &mut Unstructured<'_>) -> Result<()> {
    let margin = if u.ratio(3u8, 4u8)? {
        0.02
    } else {
        any_f32(u)?
    };
    let (Ok(a), Ok(b)) = (any_shape(u)?, any_shape(u)?) else {
        return Ok(());
    };
    let (pa, pb) = (any_pose(u)?, any_pose(u)?);
    let tri = any_triangle(u)?;
    // The oracle's frame is a rotation only for unit quaternions (the
    // generator also draws raw ones, which the raw functions do not check).
    let unit = |p: &Pose| (p.rotation.coords.norm() - 1.0).abs() <= 1e-6;
    let ordinary = all_finite(
        &[
            pa.translation.vector,
            pb.translation.vector,
            tri[0],
            tri[1],
            tri[2],
        ],
        &[margin],
    ) && margin >= 0.0
        && unit(&pa)
        && unit(&pb);
    let scale = |x: &Vec3| x.norm() as f64;
    let size = a.bounding_radius()
        + b.bounding_radius()
        + scale(&pa.translation.vector)
        + scale(&pb.translation.vector)
        + tri.iter().map(scale).fold(0.0, f64::max);
    let tol = 1e-4 * size + 1e-5;
    if let Ok(m) = contact::shapes(&a, &pa, &b, &pb, margin) {
        let near = |p: Vec3d| Some([shape_distance(&a, &pa, p)?, shape_distance(&b, &pb, p)?]);
        check_manifold(
            &format!("shapes {a:?} at {pa:?} and {b:?} at {pb:?}"),
            &m,
            margin,
            ordinary.then_some((&near as Distances<'_>, tol)),
        );
    }
    let t = tri.map(promote);
    let edges = ActiveEdges::from_edges([u.arbitrary()?, u.arbitrary()?, u.arbitrary()?]);
    for (what, result) in [
        (
            "shape_triangle",
            contact::shape_triangle(&a, &pa, &tri, margin),
        ),
        (
            "shape_mesh_triangle",
            contact::shape_mesh_triangle(&a, &pa, &tri, edges, margin),
        ),
    ] {
        if let Ok(m) = result {
            let near = |p: Vec3d| Some([shape_distance(&a, &pa, p)?, triangle_distance(p, &t)]);
            check_manifold(
                &format!("{what} {a:?} at {pa:?} and {tri:?}"),
                &m,
                margin,
                ordinary.then_some((&near as Distances<'_>, tol)),
            );
        }
    }
    if let Shape::Mesh(mesh) = &b {
        if let Ok(list) = contact::shape_mesh(&a, &pa, mesh, &pb, margin) {
            for c in list {
                assert!(c.triangle < mesh.triangle_count(), "{c:?}");
                check_manifold("shape_mesh", &c.manifold, margin, None);
            }
        }
    }
    pair_functions(u, margin)
}

/// The pair contact functions on raw parameters (any floats): each either
/// refuses (outside the precision domain: a negative or NaN size, a
/// non-finite pose, a size or coordinate beyond `MAX_CONTACT_COORDINATE`,
/// an invalid margin) or answers with a manifold that keeps the checks of
/// [`check_manifold`]; inside the domain nothing is refused.
fn pair_functions(u: &mut Unstructured<'_>, margin: f32) -> Result<()> {
    let c = [
        any_vec(u, 3.0)?,
        any_vec(u, 3.0)?,
        any_vec(u, 3.0)?,
        any_vec(u, 3.0)?,
    ];
    let (ra, rb) = (length(u)?, length(u)?);
    let (pa, pb) = (any_pose(u)?, any_pose(u)?);
    let tri = any_triangle(u)?;
    let half = Vec3::new(length(u)?, length(u)?, length(u)?);
    let (sa, sb) = ([c[0], c[1]], [c[2], c[3]]);
    let all = [
        contact::contact_sphere_sphere(c[0], ra, c[2], rb, margin),
        contact::contact_sphere_capsule(c[0], ra, sb, rb, margin),
        contact::contact_capsule_sphere(sa, ra, c[2], rb, margin),
        contact::contact_capsule_capsule(sa, ra, sb, rb, margin),
        contact::contact_sphere_triangle(c[0], ra, &tri, margin),
        contact::contact_capsule_triangle(sa, ra, &tri, margin),
        contact::contact_cuboid_cuboid(half, &pa, half * 0.7, &pb, margin),
        contact::contact_sphere_cuboid(c[0], ra, half, &pb, margin),
        contact::contact_cuboid_sphere(half, &pa, c[2], rb, margin),
        contact::contact_capsule_cuboid(sa, ra, half, &pb, margin),
        contact::contact_cuboid_capsule(half, &pa, sb, rb, margin),
        contact::contact_cuboid_triangle(half, &pa, &tri, margin),
    ];
    let limit = MAX_CONTACT_COORDINATE as f32;
    let coordinate = |v: &Vec3| v.iter().all(|x| x.abs() <= limit);
    let size = |x: f32| (0.0..=limit).contains(&x);
    let pose = |p: &Pose| {
        coordinate(&p.translation.vector) && p.rotation.coords.iter().all(|x| x.is_finite())
    };
    let in_domain = margin.is_finite()
        && margin >= 0.0
        && c.iter().chain(&tri).all(coordinate)
        && [
            ra,
            rb,
            half.x,
            half.y,
            half.z,
            half.x * 0.7,
            half.y * 0.7,
            half.z * 0.7,
        ]
        .into_iter()
        .all(size)
        && pose(&pa)
        && pose(&pb);
    for (k, m) in all.iter().enumerate() {
        match m {
            Ok(m) => check_manifold(&format!("pair function {k}"), m, margin, None),
            Err(e) => assert!(
                !in_domain,
                "pair function {k} refused inside the domain: {e}"
            ),
        }
    }
    Ok(())
}

/// Every public ray function: a refusal for input without meaning, a
/// finite hit within the distance otherwise, and the primitive casts
/// agree with the dispatcher on the same shape.
pub fn shape_rays(u: &mut Unstructured<'_>) -> Result<()> {
    let Ok(shape) = any_shape(u)? else {
        return Ok(());
    };
    let pose = any_pose(u)?;
    let origin = any_vec(u, 5.0)?;
    let direction = any_vec(u, 1.0)?;
    let max = if u.arbitrary()? { 20.0 } else { any_f32(u)? };
    let dispatched = ray::cast_shape(&shape, &pose, origin, direction, max);
    if let Ok(Some(h)) = &dispatched {
        assert!(
            h.distance >= 0.0 && h.distance <= max && finite(&h.point) && finite(&h.normal),
            "{h:?}"
        );
    }
    let direct = match &shape {
        Shape::Sphere(s) if pose.rotation == Quat::identity() => Some(ray::cast_sphere(
            pose.translation.vector,
            s.radius(),
            origin,
            direction,
            max,
        )),
        Shape::Capsule(c) => Some(ray::cast_capsule(
            c.radius(),
            c.half_height(),
            &pose,
            origin,
            direction,
            max,
        )),
        Shape::Cuboid(c) => Some(ray::cast_cuboid(
            c.half_extents(),
            &pose,
            origin,
            direction,
            max,
        )),
        Shape::Mesh(m) => {
            Some(ray::cast_mesh(m, &pose, origin, direction, max).map(|h| h.map(|(_, h)| h)))
        }
        _ => None,
    };
    // The same refusals (hits may differ at a graze: the casts round in
    // different frames).
    if let Some(direct) = direct {
        assert_eq!(
            direct.is_ok(),
            dispatched.is_ok(),
            "{direct:?} vs {dispatched:?}"
        );
    }
    let tri = any_triangle(u)?;
    if let Ok(Some(h)) = ray::cast_triangle(&tri, origin, direction, max) {
        assert!(
            finite(&h.point) && finite(&h.normal) && h.distance <= max,
            "{h:?}"
        );
    }
    Ok(())
}
