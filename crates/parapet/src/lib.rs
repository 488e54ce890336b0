//! parapet: rigid-body physics whose continuous collision detection never lets
//! a supported body pass through a surface, and refuses with an error (rolling
//! the step back) where it cannot promise that.
//!
//! This facade is the one dependency users need. Its modules re-export the
//! workspace crates under the names of the public API contract:
//!
//! | module | what |
//! |---|---|
//! | [`math`] | `Vec3`, `Mat3`, `Quat` (f32 storage), f64 counterparts and the conversions between them; re-exports `nalgebra` |
//! | [`shape`] | [`Shape`](shape::Shape), [`Material`](shape::Material), [`MassProperties`](shape::MassProperties), triangles and bounds |
//! | [`body`] | [`RigidBody`](body::RigidBody), [`BodyKind`](body::BodyKind), [`BodyId`](body::BodyId), [`BodyError`](body::BodyError) |
//! | [`collide`] | narrow-phase contacts, ray casts, continuous sweeps and the world's contact and sensor reports |
//! | [`world`] | [`PhysicsWorld`](world::PhysicsWorld): bodies, the step, events, rays, errors |
//! | [`ccd`] | the collision-detection mode: [`CollisionDetection`](ccd::CollisionDetection), [`DISCRETE`](ccd::DISCRETE), [`SPHERE_MESH_CCD`](ccd::SPHERE_MESH_CCD), the per-body [`CcdMode`](ccd::CcdMode), the step's [`CcdReport`](ccd::CcdReport) and the dry run's [`CcdRefusal`](ccd::CcdRefusal) |
//! | `snapshot` | (feature `serde`) world snapshots: JSON and CBOR, read back to the same bits |
//! | [`quantities`] | torque, energy, momentum, stiffness and SI unit constants |
//! | [`prelude`] | everything a scene needs, in one `use` |
//!
//! The user pages are `docs/continuous-collision.md` (the continuous mode:
//! what it supports, what it refuses, its precision limits) and
//! `docs/physics.md` (frames, units, mass properties, motion modes).
//!
//! # A complete scene
//!
//! The tunneling sphere: radius 0.1 m at height 0.15 m falling at
//! 30 m/s onto a static one-sided triangle, one step of 0.01 s. The discrete
//! mode lets it through; the continuous mode stops it on the surface.
//!
//! ```
//! use parapet::prelude::*;
//!
//! fn drop_ball(mode: CollisionDetection) -> Result<f32, Box<dyn std::error::Error>> {
//!     let mut world = PhysicsWorld::new(); // gravity (0, 0, -9.8) m/s^2
//!     world.collision_detection = mode;
//!     // One counter-clockwise triangle seen from +z: its front faces up.
//!     let floor = Shape::mesh(
//!         vec![Vec3::new(-10.0, -10.0, 0.0), Vec3::new(10.0, -10.0, 0.0), Vec3::new(0.0, 10.0, 0.0)],
//!         vec![[0, 1, 2]],
//!     )?;
//!     world.add_body(RigidBody::new_static(floor))?;
//!     let ball = RigidBody::new_dynamic(Shape::sphere(0.1)?, 1.0)?
//!         .with_position(Vec3::new(0.0, 0.0, 0.15))
//!         .with_linear_velocity(Vec3::new(0.0, 0.0, -30.0));
//!     let id = world.add_body(ball)?;
//!     world.step(0.01)?;
//!     Ok(world.body(id).expect("the ball is in the world").position().z)
//! }
//!
//! // DISCRETE: 0.15 - 30 * 0.01 = -0.15 m, through the floor.
//! assert!(drop_ball(DISCRETE)? < 0.0);
//! // SPHERE_MESH_CCD: stopped with its centre one radius above the surface
//! // (1e-4 m: the f32 rounding of the impact position, far below the radius).
//! assert!((drop_ball(SPHERE_MESH_CCD)? - 0.1).abs() < 1e-4);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! A step the continuous mode cannot promise within its limits is refused,
//! and the world is left exactly as it was: here an elastic ball between
//! two walls would need two impacts in one step, and `ccd_max_impacts`
//! allows one.
//!
//! ```
//! use parapet::prelude::*;
//!
//! let mut world = PhysicsWorld::new();
//! world.collision_detection = SPHERE_MESH_CCD;
//! world.gravity = Vec3::zeros();
//! world.ccd_max_impacts = 1;
//! let bouncy = Material::new(0.0, 1.0, 0.0)?;
//! for x in [-0.35, 0.35] {
//!     let wall = RigidBody::new_static(Shape::cuboid(Vec3::new(0.1, 1.0, 1.0))?)
//!         .with_position(Vec3::new(x, 0.0, 0.0))
//!         .with_material(bouncy);
//!     world.add_body(wall)?;
//! }
//! // 0.6 m in the step: the right wall after 0.15 m, the left after 0.45 m.
//! let ball = RigidBody::new_dynamic(Shape::sphere(0.1)?, 1.0)?
//!     .with_material(bouncy)
//!     .with_linear_velocity(Vec3::new(60.0, 0.0, 0.0));
//! let ball = world.add_body(ball)?;
//! let before = world.body(ball).cloned();
//! let err = world.step(0.01).unwrap_err();
//! assert!(matches!(err, StepError::ImpactLimit { body, impacts: 1, limit: 1 } if body == ball), "{err}");
//! assert_eq!(world.body(ball).cloned(), before);
//! // Two impacts allowed: it bounces off both walls within the step.
//! world.ccd_max_impacts = 2;
//! world.step(0.01)?;
//! assert_eq!(world.events().len(), 2);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

/// The README's code blocks, compiled and run as doctests so that the first
/// example a user reads cannot rot.
#[doc = include_str!("../../../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;

/// Number types (`f32` storage, `f64` counterparts) and the conversions
/// between them; re-exports [`nalgebra`](math::nalgebra) itself, so that
/// users reach `Quaternion`, `Isometry3` and friends without pinning a version.
/// Outward rounding and exact signs stay in the `parapet-math` crate.
pub mod math {
    pub use parapet_math::nalgebra;
    pub use parapet_math::{demote, demote_scalar, promote, promote_quat, DemoteError};
    pub use parapet_math::{Mat3, Mat3d, Quat, Quatd, Vec3, Vec3d};
}

/// Shapes, materials, mass properties, triangles and bounds.
pub mod shape {
    #[cfg(feature = "serde")]
    pub use parapet_geometry::ShapeDescription;
    pub use parapet_geometry::{inverse_inertia, MassProperties};
    pub use parapet_geometry::{mix_friction, Material, MaterialError};
    pub use parapet_geometry::{validate_triangles, Triangle, TriangleError};
    pub use parapet_geometry::{Aabb, Aabbd, WORLD_BOUNDS_RELATIVE_MARGIN};
    pub use parapet_geometry::{ActiveEdges, ACTIVE_EDGE_ANGLE};
    pub use parapet_geometry::{Capsule, ConvexHull, Cuboid, HullFace, Sphere, TriangleMesh};
    pub use parapet_geometry::{Shape, ShapeError};
    pub use parapet_geometry::{MAX_COORDINATE, THIN_TRIANGLE_RATIO};
}

/// Rigid bodies: motion modes, mass properties, forces and impulses, and the
/// id a world gives a body ([`BodyId`](body::BodyId)).
pub mod body {
    pub use parapet_solver::body::{BodyError, BodyKind, CollisionGroups, RigidBody};
    pub use parapet_world::BodyId;
}

/// Collision queries without a world: the time of impact of any two shapes
/// under any two motions, contact manifolds between shapes and one-sided
/// triangles ([`contact`](collide::contact)), ray casts against shapes
/// ([`ray`](collide::ray)), inclusion-based CCD of moving triangles
/// ([`inclusion`](collide::inclusion)), and the contact reports of a world
/// step. The building blocks behind them (polytopes, exact sweeps, the
/// moving cores) stay in the `parapet-narrow` crate.
///
/// A user who only
/// wants a time of impact calls [`time_of_impact`](collide::time_of_impact):
/// any two shapes, each under its own [`Motion`](collide::Motion) (fixed,
/// translating, or turning at a constant angular velocity), the first time
/// their distance reaches a target, never late.
///
/// ```
/// use parapet::collide::{time_of_impact, Motion, ToiOptions, TOI_DISTANCE_TOLERANCE};
/// use parapet::math::{Quat, Vec3};
/// use parapet::shape::Shape;
///
/// // A 2 m stick turning end over end at 10 rad/s, its centre 1.5 m above
/// // a floor and falling at 2 m/s, against a static box floor.
/// let stick = Shape::capsule(0.05, 1.0)?;
/// let floor = Shape::cuboid(Vec3::new(10.0, 10.0, 0.5))?;
/// let falling = Motion::new(
///     Vec3::new(0.0, 0.0, 1.5),
///     Quat::identity(),
///     Vec3::new(0.0, 0.0, -2.0),
///     Vec3::new(10.0, 0.0, 0.0),
/// );
/// let still = Motion::fixed(Vec3::new(0.0, 0.0, -0.5), Quat::identity());
/// let toi = time_of_impact(&stick, &falling, &floor, &still, &ToiOptions::new(1.0))?
///     .expect("the stick lands");
/// // The stick's lowest point at that time is within the tolerance of the floor.
/// let (p, q) = falling.pose_at(toi.time);
/// let low = [-1.0f32, 1.0].map(|z| (p + q * Vec3::new(0.0, 0.0, z)).z - 0.05);
/// assert!(low[0].min(low[1]) <= TOI_DISTANCE_TOLERANCE + 1e-5);
/// assert!(toi.normal.z < -0.99); // from the stick towards the floor
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub mod collide {
    pub use parapet_inclusion as inclusion;
    pub use parapet_narrow::query::{
        time_of_impact, Motion, TimeOfImpact, ToiError, ToiOptions, TOI_DISTANCE_TOLERANCE,
        TOI_MAX_ITERATIONS,
    };
    // The world's reports, documented once under `world`.
    #[doc(no_inline)]
    pub use parapet_world::{
        ContactEvent, ContactKind, RayHit, SensorEvent, SensorEventKind, WorldEvent, CONTACT_MARGIN,
    };

    /// Contact manifolds between two placed shapes ([`shapes`](contact::shapes)),
    /// a shape and one one-sided triangle ([`shape_triangle`](contact::shape_triangle))
    /// or a mesh ([`shape_mesh`](contact::shape_mesh)), within a margin.
    pub mod contact {
        pub use parapet_narrow::contact::{
            shape_mesh, shape_triangle, shapes, ContactError, ContactPoint, Manifold, MeshContact,
            Pose, MAX_CONTACT_POINTS,
        };
    }

    /// Ray casts against one placed shape ([`cast_shape`](ray::cast_shape))
    /// or a mesh ([`cast_mesh`](ray::cast_mesh)); a world's ray cast is
    /// `PhysicsWorld::cast_ray`.
    pub mod ray {
        pub use parapet_narrow::ray::{
            cast_mesh, cast_shape, validate_ray, RayError, RayIntersection,
        };
    }
}

/// The physics world: bodies, the step pipeline (forces, contacts, the
/// continuous stage, integration), contact events, ray casts and the step's
/// errors, with the collision-detection mode type and constants.
pub mod world {
    // Documented once, under `ccd`, `body` and `collide::ray`.
    #[doc(no_inline)]
    pub use parapet_world::ccd::{
        CollisionDetection, UnknownCollisionDetection, DISCRETE, SPHERE_MESH_CCD,
    };
    #[doc(no_inline)]
    pub use parapet_world::{BodyId, RayError};
    pub use parapet_world::{
        ContactEvent, ContactKind, PhysicsWorld, RayHit, SensorEvent, SensorEventKind, StepError,
        WorldError, WorldEvent, CCD_MAX_IMPACTS_LIMIT, CCD_MAX_SUBSTEPS_LIMIT, CONTACT_MARGIN,
        DEFAULT_CCD_MAX_IMPACTS, DEFAULT_CCD_MAX_SUBSTEPS, DEFAULT_GRAVITY,
        DEFAULT_SLEEP_ANGULAR_THRESHOLD, DEFAULT_SLEEP_LINEAR_THRESHOLD, DEFAULT_TIME_TO_SLEEP,
    };
}

/// Continuous collision detection: the world's mode ([`CollisionDetection`](ccd::CollisionDetection),
/// [`DISCRETE`](ccd::DISCRETE), [`SPHERE_MESH_CCD`](ccd::SPHERE_MESH_CCD)), a
/// body's own policy ([`CcdMode`](ccd::CcdMode), with `Auto`'s
/// [`AUTO_MOTION_FRACTION`](ccd::AUTO_MOTION_FRACTION)), what the last
/// successful step did ([`CcdReport`](ccd::CcdReport),
/// [`BodyCcdStats`](ccd::BodyCcdStats)), what the next step would refuse
/// ([`CcdRefusal`](ccd::CcdRefusal), from `PhysicsWorld::check_ccd`), the
/// reasons the continuous stage refuses a body and the limits of its support
/// rules (the policy itself is internal to the world). See
/// `docs/continuous-collision.md`.
///
/// ```
/// use parapet::ccd::{CcdMode, CollisionDetection, DISCRETE, SPHERE_MESH_CCD};
///
/// assert_eq!(CollisionDetection::default(), DISCRETE);
/// assert_eq!(CcdMode::default(), CcdMode::Inherit); // follow the world's mode
/// // A stored numeric code converts back; an unknown value is an error, never a mode.
/// assert_eq!(CollisionDetection::try_from(SPHERE_MESH_CCD.code()), Ok(SPHERE_MESH_CCD));
/// assert!(CollisionDetection::try_from(7u8).is_err());
/// assert_eq!(CcdMode::try_from(CcdMode::Auto.code()), Ok(CcdMode::Auto));
/// assert!(CcdMode::try_from(9u8).is_err());
/// ```
pub mod ccd {
    pub use parapet_world::ccd::tolerances;
    pub use parapet_world::ccd::{
        BodyCcdStats, CcdMode, CcdRefusal, CcdReport, CollisionDetection, UnknownCcdMode,
        UnknownCollisionDetection, UnsupportedReason, AUTO_MOTION_FRACTION, DISCRETE,
        SPHERE_MESH_CCD,
    };
    pub use parapet_world::CHECK_CCD_DEFAULT_DT;
}

/// World snapshots (feature `serde`): a [`PhysicsWorld`](world::PhysicsWorld)
/// written to JSON ([`to_json`](snapshot::to_json)) or CBOR
/// ([`to_bytes`](snapshot::to_bytes)) and read back
/// ([`from_json`](snapshot::from_json), [`from_bytes`](snapshot::from_bytes))
/// to a world that steps to the same bits as the original; a snapshot of
/// another [`FORMAT`](snapshot::FORMAT), or a corrupt one, is a
/// [`SnapshotError`](snapshot::SnapshotError) naming what is wrong. See
/// `docs/scenes.md`, "World snapshots".
#[cfg(feature = "serde")]
pub mod snapshot {
    pub use parapet_world::snapshot::{
        from_bytes, from_json, to_bytes, to_json, SnapshotError, FORMAT,
    };
}

/// Torque, kinetic energy, momentum, stiffness and SI unit constants
/// (docs/physics.md, "Frames and units").
pub mod quantities {
    pub use parapet_math::quantities::units;
    pub use parapet_math::quantities::{
        angular_momentum, critical_damping, kinetic_energy, linear_momentum,
        natural_angular_frequency, orbital_angular_momentum, rotational_kinetic_energy,
        spring_force, spring_potential_energy, stiffness_for_frequency, torque,
        translational_kinetic_energy,
    };
}

/// The names a scene needs, in one `use parapet::prelude::*;`.
pub mod prelude {
    #[doc(no_inline)]
    pub use crate::body::{BodyError, BodyId, BodyKind, CollisionGroups, RigidBody};
    #[doc(no_inline)]
    pub use crate::ccd::{
        BodyCcdStats, CcdMode, CcdRefusal, CcdReport, CollisionDetection, DISCRETE, SPHERE_MESH_CCD,
    };
    #[doc(no_inline)]
    pub use crate::collide::{
        ContactEvent, ContactKind, RayHit, SensorEvent, SensorEventKind, WorldEvent,
    };
    #[doc(no_inline)]
    pub use crate::math::{Mat3, Quat, Vec3};
    #[doc(no_inline)]
    pub use crate::shape::{MassProperties, Material, Shape, ShapeError};
    #[doc(no_inline)]
    pub use crate::world::{PhysicsWorld, RayError, StepError, WorldError};
}
