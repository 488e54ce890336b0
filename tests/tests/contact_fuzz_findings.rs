//! Regression tests of the `contacts` fuzz target's findings: each input
//! kept in `fuzz/findings/contacts/` is replayed through the target's own
//! run (`parapet_tests::hostile::narrow::contacts`), whose assertions are
//! the contact tests' promises: every point finite and within the margin,
//! a unit normal, and for ordinary inputs every point within half its depth
//! (plus a tolerance of 1e-4 of the scene's size) of both shapes, so that
//! no point lies farther from a triangle than its depth.
//!
//! What broke (all 16 failed before the fix): a capsule whose core crosses
//! a triangle, most often through a vertex, took its point from an edge
//! that is not the triangle's extreme feature along the chosen axis (up to
//! about 2 m from the capsule); a cuboid's point could lie farther from the
//! triangle than its depth (the wrong one of four parallel edges, a deepest
//! vertex beside the face); beyond the precision domain points left both
//! shapes or overflowed. Now an edge axis counts only where its edges meet
//! along it, a face patch keeps only points over the face, and the queries
//! refuse coordinates and sizes beyond `MAX_CONTACT_COORDINATE`
//! (`contact_domain_refusals` below).
//!
//! The six of the later 30-minute run (the last six cases; all six failed
//! on the code before their fixes): a capsule deep in a box whose edge-axis
//! point was built on the wrong one of four parallel edges; a box collapsed
//! to a segment whose collapsed faces counted as planes; a collinear
//! triangle given a front by the rounding of the box's frame; and raw pair
//! functions at 1e19 to 1e29 m, now refused
//! (`pair_functions_refuse_outside_the_precision_domain` below). Their
//! causes are tested beside the code, with the decoded shapes as literals.

use parapet_geometry::Shape;
use parapet_math::nalgebra::{Isometry3, Translation3, UnitQuaternion};
use parapet_math::Vec3;
use parapet_narrow::contact::{self, ContactError, PlacedShape, MAX_CONTACT_COORDINATE};
use parapet_tests::hostile::{self, narrow, Unstructured};
use rstest::rstest;

/// Replays one kept input; the run panics on a broken promise.
#[rstest]
#[case("crash-0e71761f1cd2b08dab4e893e0fa3cc0ef20ab5e4")]
#[case("crash-100cdd02a865cf29473016b1516d51ca5c3e1e42")]
#[case("crash-2f2df387851ca658ca53e6d3fbe60a5b0490ca90")]
#[case("crash-6a9ae163133e450cb398afbf851c860717211c43")]
#[case("crash-6dd0462fcaac39629043fdaf3dbb9307042c08ee")]
#[case("crash-718379d53c9d2b0b7115638819f7a67cb43c6f63")]
#[case("crash-74b6bf1090f77c40f45e5ca8e38838beaf76ce08")]
#[case("crash-79f4dd5f7ac3260bd0dbd0bdce0427a2a6fc0ffa")]
#[case("crash-9ac0900f9527878f37ffaa6efd4203f372a4feaa")]
#[case("crash-a03e64164422989d8ef9ef9610fd07f3e5e48569")]
#[case("crash-b87f1b09b1b4e8e110e5c87e4dc786f93cf3abcb")]
#[case("crash-e135a6c202788fd5ae63434181325c5e56c33a78")]
#[case("crash-eb73569ad79e776cddb01c28e3e6fde3035c506e")]
#[case("crash-efc665622d458970bdbef055bcb9e840036e2579")]
#[case("crash-f086ef8e7cb6b1275803bd05230f4a2db2eab850")]
#[case("crash-f62e63ba117ee88d6a2362c40418423aa7b4cf7d")]
#[case("crash-91e4d4dde8ca7ffe7d5a8aef8958795e929d42b5")]
#[case("crash-8e3cf10cbc26ec3895c2e3ad008111e9f97d4f40")]
#[case("crash-27f691ece041066a9fc9fbe5dbaf48dacaf92568")]
#[case("crash-145ffc5b7acca9a9eb6093e98719bebc1a4c3df6")]
#[case("crash-03df11140131497d904fd43c5242efb737b699e8")]
#[case("crash-02d957517b897624768ff91f5e4e8e8f6f4df1e8")]
fn the_contacts_finding_keeps_every_promise(#[case] name: &str) {
    let data = hostile::finding("contacts", name);
    let _ = narrow::contacts(&mut Unstructured::new(&data));
}

#[test]
fn contact_domain_refusals() {
    let pose = |t: Vec3| Isometry3::from_parts(Translation3::from(t), UnitQuaternion::identity());
    let cube = Shape::cuboid(Vec3::new(0.5, 0.5, 0.5)).unwrap();
    let huge = Shape::cuboid(Vec3::new(1.7e38, 1.0, 1.0)).unwrap();
    let far = Vec3::new(2.0e6, 0.0, 0.0);
    let tri = [Vec3::zeros(), Vec3::x(), Vec3::y()];
    let outside = |r: Result<contact::Manifold, ContactError>| {
        matches!(
            r,
            Err(ContactError::OutsidePrecisionDomain { value, limit, .. })
                if value > limit && limit == MAX_CONTACT_COORDINATE
        )
    };
    // A size, a translation, a triangle vertex beyond 1,000,000 m: refused,
    // naming the value and the limit.
    assert!(outside(contact::shapes(
        &huge,
        &pose(Vec3::zeros()),
        &cube,
        &pose(Vec3::x()),
        0.02
    )));
    assert!(outside(contact::shapes(
        &cube,
        &pose(far),
        &cube,
        &pose(far),
        0.02
    )));
    assert!(outside(contact::shape_triangle(
        &cube,
        &pose(Vec3::zeros()),
        &[far, Vec3::x(), Vec3::y()],
        0.02
    )));
    assert!(outside(contact::shape_triangle(
        &huge,
        &pose(Vec3::zeros()),
        &tri,
        0.02
    )));
    assert!(matches!(
        PlacedShape::new(&cube, &pose(far)),
        Err(ContactError::OutsidePrecisionDomain { .. })
    ));
    // At the limit itself the query answers.
    let edge = Vec3::new(MAX_CONTACT_COORDINATE as f32, 0.0, 0.0);
    let at_limit = contact::shapes(
        &cube,
        &pose(edge),
        &cube,
        &pose(edge - Vec3::x() * 0.99),
        0.02,
    )
    .unwrap();
    assert!(!at_limit.is_empty());
}

/// The pair functions (public building blocks of `parapet-narrow`, taking
/// raw sizes and coordinates) refuse what lies outside the precision
/// domain, naming the quantity (with the role the caller gave it) and its
/// value: the fuzzing's 273 inputs of this kind fed them coordinates and
/// sizes of 1e30 to 3.4e38 m and got points beyond `f32`. At the domain's
/// edge they answer.
#[test]
fn pair_functions_refuse_outside_the_precision_domain() {
    let pose = |t: Vec3| Isometry3::from_parts(Translation3::from(t), UnitQuaternion::identity());
    let half = Vec3::new(0.5, 0.5, 0.5);
    let tri = [Vec3::zeros(), Vec3::x(), Vec3::y()];
    let core = [Vec3::zeros(), Vec3::z()];
    let limit = MAX_CONTACT_COORDINATE;
    let far = |r: Result<contact::Manifold, ContactError>, name: &str, at: f64| {
        matches!(
            r,
            Err(ContactError::OutsidePrecisionDomain { quantity, value, limit: l })
                if quantity == name && value == at && l == limit
        )
    };
    assert!(far(
        contact::contact_sphere_sphere(Vec3::new(1.0e30, 0.0, 0.0), 0.5, Vec3::zeros(), 0.5, 0.02),
        "centre of A",
        1.0e30f32 as f64
    ));
    assert!(far(
        contact::contact_sphere_capsule(Vec3::zeros(), 0.5, core, 3.4e38, 0.02),
        "radius of B",
        3.4e38f32 as f64
    ));
    assert!(far(
        contact::contact_cuboid_cuboid(
            half,
            &pose(Vec3::zeros()),
            half * 4.0e6,
            &pose(Vec3::x()),
            0.02
        ),
        "half extent of B",
        2.0e6
    ));
    // The reversed pair names the roles as the caller gave them.
    assert!(far(
        contact::contact_cuboid_sphere(
            half,
            &pose(Vec3::new(0.0, -2.0e6, 0.0)),
            Vec3::zeros(),
            0.5,
            0.02
        ),
        "translation of A",
        2.0e6
    ));
    assert!(far(
        contact::contact_capsule_triangle(
            core,
            0.5,
            &[Vec3::new(0.0, 0.0, f32::INFINITY), Vec3::x(), Vec3::y()],
            0.02
        ),
        "triangle vertex",
        f64::INFINITY
    ));
    assert!(matches!(
        contact::contact_sphere_triangle(Vec3::zeros(), 0.5, &[Vec3::new(f32::NAN, 0.0, 0.0), Vec3::x(), Vec3::y()], 0.02),
        Err(ContactError::OutsidePrecisionDomain { quantity: "triangle vertex", value, .. }) if value.is_nan()
    ));
    assert!(matches!(
        contact::contact_capsule_capsule(core, -1.0, core, 0.5, 0.02),
        Err(ContactError::InvalidSize {
            quantity: "radius of A",
            value: -1.0
        })
    ));
    assert!(matches!(
        contact::contact_capsule_cuboid(core, 0.5, Vec3::new(0.5, f32::NAN, 0.5), &pose(Vec3::zeros()), 0.02),
        Err(ContactError::InvalidSize { quantity: "half extent of B", value }) if value.is_nan()
    ));
    assert!(matches!(
        contact::contact_cuboid_triangle(half, &pose(Vec3::new(0.0, f32::NAN, 0.0)), &tri, 0.02),
        Err(ContactError::NonFinitePose { which: "A", .. })
    ));
    assert!(matches!(
        contact::contact_cuboid_capsule(half, &pose(Vec3::zeros()), core, 0.5, -0.1),
        Err(ContactError::InvalidMargin { margin }) if margin == -0.1
    ));
    // At the edge of the domain: answered, finite.
    let edge = Vec3::new(limit as f32, 0.0, 0.0);
    let m = contact::contact_sphere_cuboid(edge, 0.5, half, &pose(edge - Vec3::x() * 0.9), 0.02)
        .unwrap();
    assert!(
        !m.is_empty()
            && m.points()
                .iter()
                .all(|p| p.point.iter().all(|x| x.is_finite()))
    );
    // A triangle vertex with no finite value is refused by the queries too
    // (it was answered with no contact before).
    assert!(matches!(
        contact::shape_triangle(
            &Shape::sphere(0.5).unwrap(),
            &pose(Vec3::zeros()),
            &[Vec3::new(f32::NAN, 0.0, 0.0), Vec3::x(), Vec3::y()],
            0.02
        ),
        Err(ContactError::OutsidePrecisionDomain {
            quantity: "triangle vertex",
            ..
        })
    ));
}
