//! parapet-cli: scene files and the `parapet` command, so that a world can be
//! described, run, batched and replayed without writing Rust.
//!
//! | module | what |
//! |---|---|
//! | [`scene`] | the scene format (`"format": "parapet-scene/1"`): read, validate, write |
//!
//! The schema and the command are described for users in `docs/scenes.md`.

pub mod scene;
