//! Scene errors: one line naming the file, the line and column (1-based, as
//! serde_json counts them: columns in bytes) and the field, then what is
//! wrong, e.g.
//!
//! ```text
//! scenes/drop.json:14:17: bodies[1].mass: mass = -1 kg must be finite and greater than 0
//! ```
//!
//! A [`FieldError`] is the position-free form that building a world from a
//! [`crate::scene::SceneFile`] returns; [`crate::scene::parse_scene`] turns it
//! into a [`SceneError`] by finding the field in the source text
//! ([`crate::scene::locate`]).

use std::fmt;

/// One step of a path into the JSON document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Segment {
    /// An object member.
    Key(String),
    /// An array element.
    Index(usize),
}

/// A path to a field, e.g. `bodies[1].shape.mesh.triangles[3][2]`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FieldPath(pub Vec<Segment>);

impl FieldPath {
    /// The document itself.
    pub fn root() -> Self {
        FieldPath(Vec::new())
    }

    /// This path followed by object member `key`.
    #[must_use]
    pub fn key(&self, key: &str) -> Self {
        let mut segments = self.0.clone();
        segments.push(Segment::Key(key.to_owned()));
        FieldPath(segments)
    }

    /// This path followed by array element `index`.
    #[must_use]
    pub fn index(&self, index: usize) -> Self {
        let mut segments = self.0.clone();
        segments.push(Segment::Index(index));
        FieldPath(segments)
    }
}

impl fmt::Display for FieldPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_empty() {
            return f.write_str("(document)");
        }
        for (i, segment) in self.0.iter().enumerate() {
            match segment {
                Segment::Key(key) if i == 0 => write!(f, "{key}")?,
                Segment::Key(key) => write!(f, ".{key}")?,
                Segment::Index(index) => write!(f, "[{index}]")?,
            }
        }
        Ok(())
    }
}

/// A refused field, without its position in a file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{path}: {message}")]
pub struct FieldError {
    /// The refused field.
    pub path: FieldPath,
    /// What is wrong with it, with the value and the limit where there is one.
    pub message: String,
}

impl FieldError {
    /// A refusal of `path`.
    pub fn new(path: FieldPath, message: impl Into<String>) -> Self {
        FieldError {
            path,
            message: message.into(),
        }
    }
}

/// `text` with its control characters (a newline in a JSON key, say)
/// written as escapes, so that an error stays one line.
pub fn one_line(text: &str) -> String {
    text.chars()
        .flat_map(|c| {
            let escaped: Vec<char> = if c.is_control() {
                c.escape_default().collect()
            } else {
                vec![c]
            };
            escaped
        })
        .collect()
}

/// Why a scene file was refused: the file, line, column and field, and what
/// is wrong. Its `Display` is one line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{file}:{line}:{column}: {field}: {message}")]
pub struct SceneError {
    /// The file as named by the caller.
    pub file: String,
    /// 1-based line (0 when the file could not be read at all).
    pub line: usize,
    /// 1-based column in bytes (0 when the file could not be read at all).
    pub column: usize,
    /// The field, as a path (`bodies[1].mass`).
    pub field: String,
    /// What is wrong.
    pub message: String,
}
