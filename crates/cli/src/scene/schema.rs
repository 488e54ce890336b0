//! The typed form of a scene file (`"format": "parapet-scene/1"`): one Rust
//! type per JSON object, read and written by serde with unknown fields
//! refused. Field names are the file's names; `docs/scenes.md` is the user's
//! description of the same schema.
//!
//! Every optional field is an `Option` (or has a `#[serde(default)]`): an
//! absent field takes the default of the `RigidBody` builder or of
//! `PhysicsWorld::new`, and [`crate::scene::scene_from_world`] leaves out the
//! fields that equal those defaults, so that a written scene reads like a
//! hand-written one.

use serde::{Deserialize, Serialize};

/// The value of the `format` field this build reads and writes.
pub const FORMAT: &str = "parapet-scene/1";

/// A 3-vector `[x, y, z]` (SI units of its field).
pub type Vector = [f32; 3];

/// A quaternion `[w, x, y, z]` (scalar first).
pub type Quaternion = [f32; 4];

/// A 3x3 matrix as three rows `[[m00, m01, m02], [m10, ...], [m20, ...]]`.
pub type Matrix = [[f32; 3]; 3];

/// A whole scene file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SceneFile {
    /// Always [`FORMAT`].
    pub format: String,
    /// The step (s), finite and positive.
    pub dt: f32,
    /// How many steps `parapet run` takes.
    pub steps: u64,
    /// World settings; absent: the defaults of `PhysicsWorld::new`.
    #[serde(default, skip_serializing_if = "WorldSpec::is_default")]
    pub world: WorldSpec,
    /// The bodies, in insertion order (trajectory rows follow it).
    pub bodies: Vec<BodySpec>,
    /// Pairs of body names that never interact, whatever their collision
    /// groups (`PhysicsWorld::ignore_pair`: the parts of one machine);
    /// default none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ignored_pairs: Vec<[String; 2]>,
}

/// The `world` object: the public configuration fields of `PhysicsWorld`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WorldSpec {
    /// Gravity (m/s², world frame); default `[0, 0, -9.8]`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gravity: Option<Vector>,
    /// The collision-detection mode; default `DISCRETE`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub collision_detection: Option<ModeName>,
    /// Impacts a body may take in one continuous step; default 16, valid 1..=1024.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ccd_max_impacts: Option<u32>,
    /// Sub-steps a turning body may take in one continuous step; default
    /// 256, valid 1..=65536.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ccd_max_substeps: Option<u32>,
    /// Whether bodies at rest fall asleep; default `true`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sleeping: Option<bool>,
    /// Speed (m/s) at or below which a body is at rest; default 0.05,
    /// finite and >= 0.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sleep_linear_threshold: Option<f32>,
    /// Angular speed (rad/s) at or below which a body is at rest; default
    /// 0.05, finite and >= 0.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sleep_angular_threshold: Option<f32>,
    /// Time (s) an island must rest before it sleeps; default 0.5, finite
    /// and >= 0.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_to_sleep: Option<f32>,
}

impl WorldSpec {
    /// Whether every field is absent (the world of `PhysicsWorld::new`).
    pub fn is_default(&self) -> bool {
        *self == WorldSpec::default()
    }
}

/// The collision-detection mode by its constant's name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum ModeName {
    /// `parapet::ccd::DISCRETE`: contacts at the end pose only.
    #[serde(rename = "DISCRETE")]
    Discrete,
    /// `parapet::ccd::SPHERE_MESH_CCD`: the continuous mode.
    #[serde(rename = "SPHERE_MESH_CCD")]
    SphereMeshCcd,
}

/// A body's motion mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum KindName {
    /// Moved by gravity, forces and contacts; needs a `mass`.
    Dynamic,
    /// Moved by its prescribed velocity only.
    Kinematic,
    /// Never moves.
    Static,
}

/// The per-body continuous-collision policy (`parapet::ccd::CcdMode`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum CcdName {
    /// Follow the world's `collision_detection` (the default).
    #[default]
    Inherit,
    /// Discrete contacts only, whatever the world's mode; never refused by
    /// the continuous stage.
    Discrete,
    /// Swept, whatever the world's mode.
    Continuous,
    /// Swept in the steps where the body moves far for its size or can
    /// reach a continuous body.
    Auto,
}

impl From<CcdName> for parapet::ccd::CcdMode {
    fn from(name: CcdName) -> Self {
        use parapet::ccd::CcdMode;
        match name {
            CcdName::Inherit => CcdMode::Inherit,
            CcdName::Discrete => CcdMode::Discrete,
            CcdName::Continuous => CcdMode::Continuous,
            CcdName::Auto => CcdMode::Auto,
        }
    }
}

impl From<parapet::ccd::CcdMode> for CcdName {
    fn from(mode: parapet::ccd::CcdMode) -> Self {
        use parapet::ccd::CcdMode;
        match mode {
            CcdMode::Inherit => CcdName::Inherit,
            CcdMode::Discrete => CcdName::Discrete,
            CcdMode::Continuous => CcdName::Continuous,
            CcdMode::Auto => CcdName::Auto,
        }
    }
}

/// One entry of `bodies`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BodySpec {
    /// A label for trajectories and replays; default `body<index>`; unique.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The motion mode.
    pub kind: KindName,
    /// Mass (kg), finite and positive. Required for a dynamic body; on a
    /// kinematic or static body it makes a body created dynamic and then
    /// switched, which keeps this mass (and its tensor) for a later return
    /// to dynamic mode.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mass: Option<f32>,
    /// The collision shape, in shape coordinates.
    pub shape: ShapeSpec,
    /// The pose of the shape in the body frame; default: centred, unrotated.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shape_offset: Option<OffsetSpec>,
    /// The mass centre as an offset from the body origin (m, body frame);
    /// default: the shape's own mass centre (the origin for centred shapes).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub center_of_mass: Option<Vector>,
    /// A solid inertia tensor about the mass centre (kg m², body frame),
    /// symmetric positive definite; default: the shape's uniform solid.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub inertia: Option<Matrix>,
    /// A custom inverse inertia tensor (1/(kg m²), body frame), any finite
    /// matrix: zero rows and columns lock rotation about those axes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub inverse_inertia: Option<Matrix>,
    /// Locks every rotation: a zero inverse inertia (a character body).
    #[serde(default, skip_serializing_if = "is_false")]
    pub lock_rotation: bool,
    /// The body origin in world coordinates (m); default the world origin.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub position: Option<Vector>,
    /// Body-to-world rotation `[w, x, y, z]`, unit; default `[1, 0, 0, 0]`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rotation: Option<Quaternion>,
    /// World velocity of the mass centre (m/s); default zero.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub linear_velocity: Option<Vector>,
    /// World angular velocity about the mass centre (rad/s); default zero.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub angular_velocity: Option<Vector>,
    /// Surface coefficients; absent ones take `Material::default()`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub material: Option<MaterialSpec>,
    /// Whether the body takes part in contacts; default `true`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub collides: Option<bool>,
    /// The per-body continuous-collision policy; default `Inherit`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ccd: Option<CcdName>,
    /// Which bodies it may touch (`parapet::body::CollisionGroups`);
    /// default: member of every group, accepting every group.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub collision_groups: Option<GroupsSpec>,
    /// Whether the body is a sensor (reports what enters, leaves or crosses
    /// it, stops nothing); default `false`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sensor: Option<bool>,
    /// Linear damping (1/s), finite and non-negative; default 0.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub linear_damping: Option<f32>,
    /// Angular damping (1/s), finite and non-negative; default 0.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub angular_damping: Option<f32>,
    /// A pending force (N, world frame) that the first step consumes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub force: Option<Vector>,
    /// A pending torque (N m, world frame) that the first step consumes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub torque: Option<Vector>,
    /// The pose-only (split) linear velocity (m/s) of the contact solver's
    /// position correction, applied by the first pose update; default zero.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub split_linear_velocity: Option<Vector>,
    /// The pose-only (split) angular velocity (rad/s); default zero.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub split_angular_velocity: Option<Vector>,
    /// Whether the body may fall asleep; default `true`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub can_sleep: Option<bool>,
    /// The time (s) the body has been at rest, finite and >= 0; default 0.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sleep_timer: Option<f32>,
    /// Whether the body starts asleep (dynamic bodies that may sleep
    /// only); default `false`.
    #[serde(default, skip_serializing_if = "is_false")]
    pub sleeping: bool,
}

fn is_false(value: &bool) -> bool {
    !*value
}

/// The `collision_groups` object: 32-bit memberships and filter; two
/// bodies interact when each one's memberships meet the other's filter.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GroupsSpec {
    /// The groups the body belongs to (one bit per group).
    pub memberships: u32,
    /// The groups it interacts with (one bit per group).
    pub filter: u32,
}

/// The `shape_offset` object: the shape's pose in the body frame.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OffsetSpec {
    /// Translation (m); default zero.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub position: Option<Vector>,
    /// Rotation `[w, x, y, z]`, normalized on reading; default identity.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rotation: Option<Quaternion>,
}

/// The `material` object; absent fields take `Material::default()`
/// (friction 0.5, restitution 0, bounce threshold 0.5 m/s).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MaterialSpec {
    /// Coulomb friction coefficient, finite and `>= 0`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub friction: Option<f32>,
    /// Coefficient of restitution in `[0, 1]`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub restitution: Option<f32>,
    /// Closing speed (m/s) below which restitution is not applied, `>= 0`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bounce_threshold: Option<f32>,
}

/// The `shape` object: exactly one of its keys.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum ShapeSpec {
    /// A ball centred on the shape origin.
    Sphere {
        /// Radius (m), finite and positive.
        radius: f32,
    },
    /// The points within `radius` of the local Z segment from
    /// `-half_height` to `+half_height`.
    Capsule {
        /// Radius (m), finite and positive.
        radius: f32,
        /// Half the segment's length (m), the caps excluded.
        half_height: f32,
    },
    /// A box centred on the shape origin.
    Cuboid {
        /// Half extents along local x, y, z (m), each finite and positive.
        half_extents: Vector,
    },
    /// The convex hull of the points (m): at least four, not coplanar.
    ConvexHull {
        /// The points.
        points: Vec<Vector>,
    },
    /// A one-sided triangle mesh (static bodies only): a triangle's front is
    /// the side its counter-clockwise normal `(b - a) x (c - a)` points to.
    Mesh {
        /// Vertices (m).
        vertices: Vec<Vector>,
        /// Vertex index triples.
        triangles: Vec<[u32; 3]>,
        /// Whether the seams of the tessellation slide (contacts touching
        /// only flat or gentle seams take the face normal); default `false`.
        #[serde(default)]
        active_edges: bool,
    },
}
