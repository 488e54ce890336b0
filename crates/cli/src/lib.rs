//! parapet-cli: scene files and the `parapet` command, so that a world can be
//! described, run, batched and replayed without writing Rust.
//!
//! | module | what |
//! |---|---|
//! | [`scene`] | the scene format (`"format": "parapet-scene/1"`): read, validate, write |
//! | [`run`] | stepping a scene and observing every body's state |
//! | [`snapshot`] | world snapshots for `run --snapshot` and `--from-snapshot` |
//! | [`trajectory`] | the trajectory CSV (`step,time,body,name,x,...,wz`): write and read |
//! | [`events`] | the events CSV (`step,time,fraction,event,a,b,...`): each step's contact and sensor events |
//! | [`plot`] | the SVG plot of positions over time |
//! | [`batch`] | shards of scene lists, run in parallel, with a summary |
//! | [`browser`] | finding a headless Chromium for the replay page |
//! | [`check`] | the dry run: the bodies a scene's first step would refuse |
//! | [`view`] | the self-contained 3D replay page |
//! | [`cli`] | the command's arguments and exit status |
//!
//! The schema and the command are described for users in `docs/scenes.md`.

pub mod batch;
pub mod browser;
pub mod check;
pub mod cli;
pub mod events;
pub mod plot;
pub mod run;
pub mod scene;
pub mod snapshot;
pub mod trajectory;
pub mod view;
