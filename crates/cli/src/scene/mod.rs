//! Scene files: a world, its step and its step count as JSON
//! (`"format": "parapet-scene/1"`), read into a [`PhysicsWorld`] and written
//! back from one. `docs/scenes.md` is the user's description of the schema.
//!
//! - [`parse_scene`] / [`load_scene`]: text or file to a [`LoadedScene`].
//!   Every refusal is one [`SceneError`] line naming the file, line, column
//!   and field: serde_json positions syntax and type errors (unknown fields
//!   included, through `deny_unknown_fields`) and `serde_path_to_error`
//!   names their field; the semantic checks of [`build`] name the field and
//!   [`locate`] finds it in the text.
//! - [`scene_from_world`] / [`write_scene`]: a world to a scene that reads
//!   back to the same bodies, bit for bit.

pub mod build;
pub mod error;
pub mod json;
pub mod locate;
pub mod schema;
pub mod write;

use std::path::Path;

use parapet::prelude::PhysicsWorld;

pub use build::{build_scene, LoadedScene};
pub use error::{one_line, FieldError, FieldPath, SceneError, Segment};
pub use schema::{
    BodySpec, CcdName, KindName, MaterialSpec, ModeName, OffsetSpec, SceneFile, ShapeSpec,
    WorldSpec, FORMAT,
};
pub use write::{scene_from_world, write_scene};

/// Only the `format` member: read first, so that a file of another format
/// is refused for its format rather than for the first field it does not
/// share with this one.
#[derive(serde::Deserialize)]
struct FormatProbe {
    format: Option<serde_json::Value>,
}

/// Reads the scene in `text`; `file` names it in errors.
///
/// # Errors
/// A [`SceneError`] naming the file, line, column and field.
pub fn parse_scene(text: &str, file: &str) -> Result<LoadedScene, SceneError> {
    let refuse = |error: FieldError| {
        let (line, column) = locate::locate(text, &error.path);
        SceneError {
            file: file.to_owned(),
            line,
            column,
            field: one_line(&error.path.to_string()),
            message: one_line(&error.message),
        }
    };
    if let Ok(FormatProbe {
        format: Some(format),
    }) = serde_json::from_str(text)
    {
        if format.as_str() != Some(FORMAT) {
            return Err(refuse(FieldError::new(
                FieldPath::root().key("format"),
                format!("{format} is not a format this build reads (expected \"{FORMAT}\")"),
            )));
        }
    }
    let mut deserializer = serde_json::Deserializer::from_str(text);
    let scene: SceneFile = serde_path_to_error::deserialize(&mut deserializer)
        .map_err(|e| serde_error(file, e.inner(), &e.path().to_string()))?;
    deserializer.end().map_err(|e| serde_error(file, &e, "."))?;
    build_scene(scene).map_err(refuse)
}

/// The scene file at `path`.
///
/// # Errors
/// A [`SceneError`]: line and column 0 when the file cannot be read.
pub fn load_scene(path: &Path) -> Result<LoadedScene, SceneError> {
    let file = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| SceneError {
        file: file.clone(),
        line: 0,
        column: 0,
        field: FieldPath::root().to_string(),
        message: format!("cannot read the scene file: {e}"),
    })?;
    parse_scene(&text, &file)
}

/// A serde_json error as a [`SceneError`]: its position, the path that
/// serde_path_to_error followed, and the message without serde_json's own
/// " at line L column C" suffix. A missing field is named in the path.
fn serde_error(file: &str, inner: &serde_json::Error, path: &str) -> SceneError {
    let full = inner.to_string();
    let suffix = format!(" at line {} column {}", inner.line(), inner.column());
    let message = full.strip_suffix(&suffix).unwrap_or(&full).to_owned();
    // serde_path_to_error writes `?` for a segment it could not name (a
    // syntax error inside an object): the enclosing field is the name.
    let mut field = path.replace(".?", "");
    if let Some(missing) = message
        .strip_prefix("missing field `")
        .and_then(|rest| rest.split('`').next())
    {
        field = if field == "." {
            missing.to_owned()
        } else {
            format!("{field}.{missing}")
        };
    }
    if field == "." {
        field = FieldPath::root().to_string();
    }
    SceneError {
        file: file.to_owned(),
        line: inner.line(),
        column: inner.column(),
        field: one_line(&field),
        message: one_line(&message),
    }
}

/// The scene of `world` as JSON text (see [`scene_from_world`] and
/// [`write_scene`]).
///
/// # Errors
/// What [`scene_from_world`] refuses, as a message.
pub fn world_to_json(world: &PhysicsWorld, dt: f32, steps: u64) -> Result<String, String> {
    let scene = scene_from_world(world, dt, steps).map_err(|e| e.to_string())?;
    write_scene(&scene).map_err(|e| e.to_string())
}
