//! The time-of-impact workload of `benches/benches/toi.rs` and of the
//! callgrind example `benches/examples/toi_profile.rs`: every convex pair
//! of shapes both libraries have (ball, capsule, box, hull, triangle),
//! translating and turning, as fixed sets of deterministic queries (hits,
//! grazes and misses), answered by parapet's arbiter (shapes prepared once,
//! as a world calls it), by the public `parapet::collide::time_of_impact`
//! (shapes converted per call) and by parry3d 0.31 (`cast_shapes` for a
//! translating pair, `cast_shapes_nonlinear` for a turning one; shapes
//! built once).

use parapet::collide::{
    time_of_impact, Motion as PublicMotion, ToiOptions, TOI_DISTANCE_TOLERANCE,
};
use parapet_geometry::{ConvexHull, Shape};
use parapet_math::{Quat, Quatd, Vec3, Vec3d};
use parapet_narrow::moving::{self, Motion, MovingShape, ToiRequest};
use parapet_scenes::prng::SplitMix64;
use parapet_tests::parry::{parry3d, pose_to_parry, to_parry};
use parry3d::query::{cast_shapes, cast_shapes_nonlinear, NonlinearRigidMotion, ShapeCastOptions};
use parry3d::shape::{Ball, Capsule, ConvexPolyhedron, Cuboid, Triangle};

/// Queries per set (one criterion iteration answers them all).
pub const QUERIES: usize = 128;

/// The window of every query (s).
pub const WINDOW: f32 = 1.0 / 60.0;

/// The pairs of the workload: (name, shape A, shape B).
pub const PAIRS: [(&str, Kind, Kind); 12] = [
    ("ball_ball", Kind::Ball, Kind::Ball),
    ("ball_capsule", Kind::Ball, Kind::Capsule),
    ("capsule_capsule", Kind::Capsule, Kind::Capsule),
    ("ball_box", Kind::Ball, Kind::Box),
    ("capsule_box", Kind::Capsule, Kind::Box),
    ("box_box", Kind::Box, Kind::Box),
    ("box_hull", Kind::Box, Kind::Hull),
    ("hull_hull", Kind::Hull, Kind::Hull),
    ("ball_triangle", Kind::Ball, Kind::Triangle),
    ("capsule_triangle", Kind::Capsule, Kind::Triangle),
    ("box_triangle", Kind::Box, Kind::Triangle),
    ("hull_triangle", Kind::Hull, Kind::Triangle),
];

/// A shape kind of the workload.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A ball of radius 0.3 m.
    Ball,
    /// A capsule of radius 0.2 m and half height 0.5 m.
    Capsule,
    /// A box of half extents (0.4, 0.3, 0.2) m.
    Box,
    /// A hull of 12 points on an ellipsoid.
    Hull,
    /// A front-facing (+z) triangle about 3 m across in the plane z = 0.
    Triangle,
}

/// A shape in both libraries' forms.
pub struct Both {
    /// parapet's shape.
    pub shape: Shape,
    /// parapet's moving shape, prepared once.
    pub moving: MovingShape,
    /// parry3d's shape.
    pub parry: Box<dyn parry3d::shape::Shape>,
}

/// The shape of `kind`.
pub fn shape(kind: Kind) -> Both {
    let (shape, parry): (Shape, Box<dyn parry3d::shape::Shape>) = match kind {
        Kind::Ball => (Shape::sphere(0.3).unwrap(), Box::new(Ball::new(0.3))),
        Kind::Capsule => (
            Shape::capsule(0.2, 0.5).unwrap(),
            Box::new(Capsule::new_z(0.5, 0.2)),
        ),
        Kind::Box => {
            let h = Vec3::new(0.4, 0.3, 0.2);
            (
                Shape::cuboid(h).unwrap(),
                Box::new(Cuboid::new(to_parry(h))),
            )
        }
        Kind::Hull => {
            let mut rng = SplitMix64::new(12);
            let pts: Vec<Vec3> = (0..12)
                .map(|_| {
                    let v = Vec3::new(
                        rng.range(-1.0, 1.0) as f32,
                        rng.range(-1.0, 1.0) as f32,
                        rng.range(-1.0, 1.0) as f32,
                    );
                    v.normalize().component_mul(&Vec3::new(0.4, 0.3, 0.25))
                })
                .collect();
            let poly = ConvexPolyhedron::from_convex_hull(
                &pts.iter().map(|p| to_parry(*p)).collect::<Vec<_>>(),
            )
            .expect("a hull");
            (
                Shape::ConvexHull(ConvexHull::new(&pts).unwrap()),
                Box::new(poly),
            )
        }
        Kind::Triangle => {
            let t = [
                Vec3::new(-1.5, -1.5, 0.0),
                Vec3::new(1.5, -1.5, 0.0),
                Vec3::new(0.0, 1.5, 0.0),
            ];
            (
                Shape::mesh(t.to_vec(), vec![[0, 1, 2]]).unwrap(),
                Box::new(Triangle::new(
                    to_parry(t[0]),
                    to_parry(t[1]),
                    to_parry(t[2]),
                )),
            )
        }
    };
    let moving = MovingShape::from_shape(&shape, Vec3::zeros(), Quat::identity()).unwrap();
    Both {
        shape,
        moving,
        parry,
    }
}

/// One query: A's motion; B stays at the origin with the identity pose.
#[derive(Debug, Clone, Copy)]
pub struct Query {
    /// A's motion (public form).
    pub a: PublicMotion,
}

/// The fixed queries of a pair: A starts 1 to 3 m above B and is aimed at
/// a point near it, so that it reaches it within the window in about half
/// the queries; turning queries spin at up to 20 rad/s.
pub fn queries(seed: u64, turning: bool) -> Vec<Query> {
    let mut rng = SplitMix64::new(seed);
    let mut r = |lo: f64, hi: f64| rng.range(lo, hi) as f32;
    (0..QUERIES)
        .map(|_| {
            let start = Vec3::new(r(-1.0, 1.0), r(-1.0, 1.0), r(1.0, 3.0));
            let aim = Vec3::new(r(-0.8, 0.8), r(-0.8, 0.8), r(-0.2, 0.2));
            let velocity = (aim - start) * (r(0.3, 1.6) / WINDOW);
            let rotation =
                Quat::from_scaled_axis(Vec3::new(r(-3.0, 3.0), r(-3.0, 3.0), r(-3.0, 3.0)));
            let spin = if turning {
                Vec3::new(r(-20.0, 20.0), r(-20.0, 20.0), r(-20.0, 20.0))
            } else {
                Vec3::zeros()
            };
            Query {
                a: PublicMotion::new(start, rotation, velocity, spin),
            }
        })
        .collect()
}

fn arbiter_motion(m: &PublicMotion) -> Motion {
    Motion::new(
        m.position.cast::<f64>(),
        Quatd::new_unchecked(m.rotation.into_inner().cast::<f64>()),
        m.local_center.cast::<f64>(),
        m.linear_velocity.cast::<f64>(),
        m.angular_velocity.cast::<f64>(),
    )
}

/// parapet's arbiter on prepared shapes: the time of each query (the
/// window's end for no hit), as the public query would round it.
pub fn parapet(a: &Both, b: &Both, queries: &[Query]) -> Vec<f32> {
    let fixed = Motion::fixed(Vec3d::zeros(), Quatd::identity());
    let req = ToiRequest::new(
        0.0,
        f64::from(WINDOW),
        0.0,
        f64::from(TOI_DISTANCE_TOLERANCE) / 4.0,
    );
    queries
        .iter()
        .map(|q| {
            match moving::time_of_impact(&a.moving, &arbiter_motion(&q.a), &b.moving, &fixed, &req)
            {
                Ok(t) => t.hit().map_or(WINDOW, |h| h.time as f32),
                Err(_) => f32::NAN,
            }
        })
        .collect()
}

/// The public `parapet::collide::time_of_impact` (shapes converted per call).
pub fn parapet_public(a: &Both, b: &Both, queries: &[Query]) -> Vec<f32> {
    let fixed = PublicMotion::fixed(Vec3::zeros(), Quat::identity());
    queries
        .iter()
        .map(
            |q| match time_of_impact(&a.shape, &q.a, &b.shape, &fixed, &ToiOptions::new(WINDOW)) {
                Ok(t) => t.map_or(WINDOW, |h| h.time),
                Err(_) => f32::NAN,
            },
        )
        .collect()
}

/// parry3d: `cast_shapes` for a translating query, `cast_shapes_nonlinear`
/// for a turning one (stop at penetration, as parapet's start hits).
pub fn parry(a: &Both, b: &Both, queries: &[Query]) -> Vec<f32> {
    let origin = pose_to_parry(Vec3::zeros(), Quat::identity());
    queries
        .iter()
        .map(|q| {
            let m = &q.a;
            let hit = if m.angular_velocity == Vec3::zeros() {
                let opts = ShapeCastOptions {
                    max_time_of_impact: WINDOW,
                    stop_at_penetration: true,
                    ..ShapeCastOptions::default()
                };
                cast_shapes(
                    &pose_to_parry(m.position, m.rotation),
                    to_parry(m.linear_velocity),
                    a.parry.as_ref(),
                    &origin,
                    to_parry(Vec3::zeros()),
                    b.parry.as_ref(),
                    opts,
                )
            } else {
                let motion = NonlinearRigidMotion::new(
                    pose_to_parry(m.position, m.rotation),
                    to_parry(m.local_center),
                    to_parry(m.linear_velocity),
                    to_parry(m.angular_velocity),
                );
                cast_shapes_nonlinear(
                    &motion,
                    a.parry.as_ref(),
                    &NonlinearRigidMotion::constant_position(origin),
                    b.parry.as_ref(),
                    0.0,
                    WINDOW,
                    true,
                )
            };
            hit.ok().flatten().map_or(WINDOW, |h| h.time_of_impact)
        })
        .collect()
}
