//! World snapshots: a [`PhysicsWorld`] written to JSON or to CBOR (RFC 8949)
//! and read back to a world that steps to the same bits as the original
//! (see docs/scenes.md, "World snapshots"). Behind the `serde` feature.
//!
//! A snapshot holds everything the next step reads: the configuration, every
//! body with its id and generation, the free slots and the insertion
//! counter, the mesh snapshots, the pending forces and torques and the CCD
//! mode (part of each body), the last step's contact and sensor events
//! (and whether they were drained), contact count, turning
//! sub-steps, continuous-stage report with per-body stats, work counters and
//! length, and the warm-starting contact cache. The mesh index is rebuilt on load (the
//! same deterministic build, so the same tree); the classification cache and
//! the continuous stage's scratch, which never change a result, start empty.
//! Writing, reading and writing again gives the same bytes.
//!
//! The first field is the format, [`FORMAT`]; a snapshot of another format
//! or version is refused for that, before anything else is read.
//!
//! ```
//! use parapet_world::{snapshot, PhysicsWorld};
//! use parapet_solver::RigidBody;
//! use parapet_geometry::Shape;
//! use parapet_math::Vec3;
//!
//! let mut world = PhysicsWorld::new();
//! let ball = RigidBody::new_dynamic(Shape::sphere(0.5)?, 1.0)?
//!     .with_position(Vec3::new(0.0, 0.0, 2.0));
//! let id = world.add_body(ball)?;
//! world.step(1.0 / 60.0)?;
//! let mut copy = snapshot::from_bytes(&snapshot::to_bytes(&world)?)?;
//! world.step(1.0 / 60.0)?;
//! copy.step(1.0 / 60.0)?;
//! assert_eq!(world.body(id), copy.body(id));
//! assert_eq!(snapshot::to_json(&world)?, snapshot::to_json(&copy)?);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod state;

use serde::de::Error as _;

use crate::PhysicsWorld;
use state::State;

/// The format string of the snapshots this build writes and reads: the
/// first field of every snapshot.
pub const FORMAT: &str = "parapet-world/2";

/// Why a snapshot could not be written or read. Every variant names what is
/// wrong: the format found, or the field (a path such as
/// `slots[2].body.position`) with the position in the input where the format
/// gives one.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SnapshotError {
    /// The snapshot is of another format or version (or names none).
    #[error("format {found} is not a world snapshot this build reads (expected \"{expected}\")")]
    Format {
        /// The format found (JSON text of the value, `none` when absent).
        found: String,
        /// [`FORMAT`].
        expected: &'static str,
    },
    /// The JSON text is malformed, or a field is missing, unknown or of the
    /// wrong type.
    #[error("JSON snapshot, line {line} column {column}, field `{field}`: {message}")]
    Json {
        /// 1-based line (0 when the text ended early at no line).
        line: usize,
        /// 1-based column.
        column: usize,
        /// The field being read.
        field: String,
        /// What is wrong.
        message: String,
    },
    /// The CBOR bytes are malformed, or a field is missing, unknown or of
    /// the wrong type.
    #[error("CBOR snapshot, field `{field}`: {message}")]
    Cbor {
        /// The field being read.
        field: String,
        /// What is wrong (with the byte offset where CBOR gives one).
        message: String,
    },
    /// The snapshot reads, but describes no state a world can be in (an id
    /// in the wrong slot, a free list that misses an empty slot, a mesh
    /// snapshot that is not its mesh's, ...).
    #[error("inconsistent snapshot, field `{field}`: {message}")]
    Inconsistent {
        /// The field that breaks the invariant.
        field: String,
        /// Which invariant, with the values.
        message: String,
    },
    /// The world holds a value the format cannot keep (JSON has no NaN or
    /// infinity), so its snapshot would not read back; CBOR keeps every
    /// value.
    #[error("the world cannot be written as JSON, field `{field}`: {message}")]
    NotRepresentable {
        /// The field holding the value.
        field: String,
        /// What is wrong.
        message: String,
    },
}

impl serde::Serialize for PhysicsWorld {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        State::of(self).serialize(serializer)
    }
}

impl<'de> serde::Deserialize<'de> for PhysicsWorld {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        State::deserialize(deserializer)?
            .into_world()
            .map_err(D::Error::custom)
    }
}

/// Only the `format` field (the others are skipped): read first, so that a
/// snapshot of another format is refused for its format.
#[derive(serde::Deserialize)]
struct FormatProbe<V> {
    format: Option<V>,
}

/// `world` as compact JSON text. The text is read back before it is
/// returned, so a world that JSON cannot hold is refused here rather than
/// at load.
///
/// # Errors
/// [`SnapshotError::NotRepresentable`] naming the field of a non-finite
/// value (JSON writes it as `null`, which does not read back).
pub fn to_json(world: &PhysicsWorld) -> Result<String, SnapshotError> {
    let text =
        serde_json::to_string(&State::of(world)).map_err(|e| SnapshotError::NotRepresentable {
            field: ".".into(),
            message: e.to_string(),
        })?;
    let mut de = serde_json::Deserializer::from_str(&text);
    if let Err(e) = serde_path_to_error::deserialize::<_, State>(&mut de) {
        return Err(SnapshotError::NotRepresentable {
            field: e.path().to_string(),
            message: strip_position(e.inner()),
        });
    }
    Ok(text)
}

/// The world of the JSON snapshot `text`.
///
/// # Errors
/// [`SnapshotError::Format`] for another format, [`SnapshotError::Json`]
/// for malformed text or a missing, unknown or mistyped field,
/// [`SnapshotError::Inconsistent`] for a state no world can be in.
pub fn from_json(text: &str) -> Result<PhysicsWorld, SnapshotError> {
    if let Ok(probe) = serde_json::from_str::<FormatProbe<serde_json::Value>>(text) {
        check_format(probe.format.map(|f| f.as_str().map(str::to_owned).ok_or(f)))?;
    }
    let mut de = serde_json::Deserializer::from_str(text);
    let state: State = serde_path_to_error::deserialize(&mut de).map_err(|e| json_error(&e))?;
    de.end().map_err(|e| SnapshotError::Json {
        line: e.line(),
        column: e.column(),
        field: ".".into(),
        message: strip_position(&e),
    })?;
    state.into_world()
}

/// `world` as CBOR bytes (RFC 8949; every `f32` kept bit for bit).
///
/// # Errors
/// None in practice (the bytes go to memory); a serializer error would be
/// [`SnapshotError::Cbor`].
pub fn to_bytes(world: &PhysicsWorld) -> Result<Vec<u8>, SnapshotError> {
    let mut bytes = Vec::new();
    ciborium::ser::into_writer(&State::of(world), &mut bytes).map_err(|e| SnapshotError::Cbor {
        field: ".".into(),
        message: e.to_string(),
    })?;
    Ok(bytes)
}

/// The world of the CBOR snapshot `bytes`.
///
/// # Errors
/// [`SnapshotError::Format`] for another format, [`SnapshotError::Cbor`]
/// for malformed bytes or a missing, unknown or mistyped field,
/// [`SnapshotError::Inconsistent`] for a state no world can be in.
pub fn from_bytes(bytes: &[u8]) -> Result<PhysicsWorld, SnapshotError> {
    if let Ok(probe) = ciborium::de::from_reader::<FormatProbe<ciborium::Value>, _>(bytes) {
        check_format(
            probe
                .format
                .map(|f| f.as_text().map(str::to_owned).ok_or(f)),
        )?;
    }
    let Tracked(state) = ciborium::de::from_reader(bytes).map_err(|e| {
        let text = match e {
            ciborium::de::Error::Semantic(_, message) => message,
            other => format!(".{PATH_END}{other}"),
        };
        let (field, message) = text.split_once(PATH_END).unwrap_or((".", &text));
        SnapshotError::Cbor {
            field: field.to_owned(),
            message: message.to_owned(),
        }
    })?;
    state.into_world()
}

/// Refuses a format that is not [`FORMAT`] (`Err`: a value that is not
/// even text, shown as its debug form).
fn check_format<V: std::fmt::Debug>(
    format: Option<Result<String, V>>,
) -> Result<(), SnapshotError> {
    let found = match format {
        Some(Ok(text)) if text == FORMAT => return Ok(()),
        Some(Ok(text)) => format!("{text:?}"),
        Some(Err(value)) => format!("{value:?}"),
        None => "none".to_owned(),
    };
    Err(SnapshotError::Format {
        found,
        expected: FORMAT,
    })
}

/// Separates the field path from the message inside a CBOR semantic error
/// (ciborium's deserializer is not public, so the path is carried in the
/// message of the error that [`Tracked`] raises).
const PATH_END: char = '\u{1f}';

/// A [`State`] read through `serde_path_to_error`, its errors prefixed by
/// the path of the field being read.
struct Tracked(State);

impl<'de> serde::Deserialize<'de> for Tracked {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        serde_path_to_error::deserialize(deserializer)
            .map(Tracked)
            .map_err(|e| D::Error::custom(format!("{}{PATH_END}{}", e.path(), e.inner())))
    }
}

/// A serde_json error as [`SnapshotError::Json`], the message without
/// serde_json's own position suffix.
fn json_error(e: &serde_path_to_error::Error<serde_json::Error>) -> SnapshotError {
    SnapshotError::Json {
        line: e.inner().line(),
        column: e.inner().column(),
        field: e.path().to_string(),
        message: strip_position(e.inner()),
    }
}

fn strip_position(e: &serde_json::Error) -> String {
    let full = e.to_string();
    let suffix = format!(" at line {} column {}", e.line(), e.column());
    full.strip_suffix(&suffix).unwrap_or(&full).to_owned()
}
