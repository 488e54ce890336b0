//! World snapshots on the command line: `parapet run --snapshot` writes the
//! world after the last step, `parapet run --from-snapshot` starts from one
//! (the format by the file's extension: `.json` for JSON, `.bin` or `.cbor`
//! for CBOR; see `parapet::snapshot` and docs/scenes.md, "World snapshots").
//! A snapshot that cannot be read is one line naming the file, line, column
//! and field, like a scene file's errors (line and column 0 where the format
//! has none: CBOR, and the checks made after reading).

use std::path::Path;

use parapet::prelude::PhysicsWorld;
use parapet::snapshot::{from_bytes, from_json, to_bytes, to_json, SnapshotError};

use crate::scene::LoadedScene;

/// A snapshot file's format, chosen by its extension.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SnapshotFormat {
    /// `.json`: [`to_json`] / [`from_json`].
    Json,
    /// `.bin` or `.cbor`: [`to_bytes`] / [`from_bytes`].
    Cbor,
}

impl SnapshotFormat {
    /// The format of `path` by its extension.
    ///
    /// # Errors
    /// Any other extension, as a message naming the file.
    pub fn of(path: &Path) -> Result<SnapshotFormat, String> {
        match path.extension().and_then(|e| e.to_str()) {
            Some("json") => Ok(SnapshotFormat::Json),
            Some("bin" | "cbor") => Ok(SnapshotFormat::Cbor),
            _ => Err(format!(
                "{}:0:0: (file): a snapshot's name ends in .json (JSON), .bin or .cbor (CBOR)",
                path.display()
            )),
        }
    }
}

/// `error` of the snapshot file `file` as one line: file, line, column,
/// field, message.
pub fn snapshot_error_line(file: &Path, error: &SnapshotError) -> String {
    let file = file.display();
    match error {
        SnapshotError::Json {
            line,
            column,
            field,
            message,
        } => format!("{file}:{line}:{column}: {field}: {message}"),
        SnapshotError::Cbor { field, message }
        | SnapshotError::Inconsistent { field, message }
        | SnapshotError::NotRepresentable { field, message } => {
            format!("{file}:0:0: {field}: {}", crate::scene::one_line(message))
        }
        other => format!("{file}:0:0: format: {other}"),
    }
}

/// The world of the snapshot file at `path`.
///
/// # Errors
/// A bad extension, an unreadable file or a snapshot that does not load,
/// as one line.
pub fn read_snapshot(path: &Path) -> Result<PhysicsWorld, String> {
    let format = SnapshotFormat::of(path)?;
    let unreadable = |e: std::io::Error| {
        format!(
            "{}:0:0: (file): cannot read the snapshot: {e}",
            path.display()
        )
    };
    let world = match format {
        SnapshotFormat::Json => from_json(&std::fs::read_to_string(path).map_err(unreadable)?),
        SnapshotFormat::Cbor => from_bytes(&std::fs::read(path).map_err(unreadable)?),
    };
    world.map_err(|e| snapshot_error_line(path, &e))
}

/// Writes `world` to `path` in the format of its extension.
///
/// # Errors
/// A bad extension, a world the format cannot hold or a file that cannot
/// be written, as one line.
pub fn write_snapshot(path: &Path, world: &PhysicsWorld) -> Result<(), String> {
    let bytes = match SnapshotFormat::of(path)? {
        SnapshotFormat::Json => to_json(world).map(String::into_bytes),
        SnapshotFormat::Cbor => to_bytes(world),
    }
    .map_err(|e| snapshot_error_line(path, &e))?;
    std::fs::write(path, bytes).map_err(|e| format!("{}: cannot write: {e}", path.display()))
}

/// Replaces `loaded`'s world by `world`, the snapshot read from `path`,
/// after checking that it holds exactly the scene's bodies (the same ids:
/// a snapshot of a run of this scene).
///
/// # Errors
/// A snapshot of another scene, as one line naming the first body it lacks.
pub fn resume_from(
    loaded: &mut LoadedScene,
    world: PhysicsWorld,
    path: &Path,
) -> Result<(), String> {
    if let Some((name, id)) = loaded
        .names
        .iter()
        .zip(&loaded.ids)
        .find(|(_, &id)| world.body(id).is_none())
    {
        return Err(format!(
            "{}:0:0: slots: the snapshot has no body {name} ({id}): not a snapshot of this scene",
            path.display()
        ));
    }
    if world.body_count() != loaded.ids.len() {
        return Err(format!(
            "{}:0:0: slots: the snapshot has {} bodies, the scene {}: not a snapshot of this scene",
            path.display(),
            world.body_count(),
            loaded.ids.len()
        ));
    }
    loaded.world = world;
    Ok(())
}
