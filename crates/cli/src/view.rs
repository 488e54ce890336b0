//! `parapet view`: a self-contained HTML page that replays a trajectory in
//! 3D. The page holds everything it needs: three.js (vendored under
//! `crates/cli/assets/three`, MIT) and the viewer script inlined, the scene's
//! shapes and the trajectory's poses as JSON in the page; it fetches
//! nothing, so it opens from a file with no network.
//!
//! The shapes come from the scene file (mesh and hull triangles from the
//! built shapes); the poses from the trajectory. Both must list the same
//! bodies, in the same order, under the same names. Sensors are drawn
//! translucent, sleeping bodies dimmed (the trajectory's `sleeping`
//! column); the sensor events of the run's events file, when given,
//! become marks ([`sensor_marks`]): where the body was when it entered,
//! crossed or left the sensor, shown from that step on.

use serde::Serialize;

use crate::events::EventRow;
use crate::scene::build::build_shape;
use crate::scene::{FieldPath, KindName, LoadedScene};
use crate::trajectory::Trajectory;
use parapet::prelude::Shape;

/// three.js (`build/three.min.js` of the npm package `three` 0.160.1, MIT).
pub const THREE_JS: &str = include_str!("../assets/three/three.min.js");
/// three.js's licence, carried in every page beside the library.
pub const THREE_LICENSE: &str = include_str!("../assets/three/LICENSE");
/// The viewer script (this crate's).
pub const VIEWER_JS: &str = include_str!("../assets/viewer.js");

#[derive(Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum ShapeData {
    Sphere {
        radius: f32,
    },
    Capsule {
        radius: f32,
        half_height: f32,
    },
    Cuboid {
        half_extents: [f32; 3],
    },
    ConvexHull {
        vertices: Vec<[f32; 3]>,
        triangles: Vec<[u32; 3]>,
    },
    Mesh {
        vertices: Vec<[f32; 3]>,
        triangles: Vec<[u32; 3]>,
    },
}

#[derive(Serialize)]
struct BodyData {
    name: String,
    shape: ShapeData,
    offset_position: [f32; 3],
    offset_rotation: [f32; 4],
    moving: bool,
    sensor: bool,
    size: f64,
}

/// One sensor event to mark on the replay page.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Mark {
    /// The frame (index into the trajectory's frames) whose step the event
    /// happened in: the mark is placed between the frame before it and
    /// this one, and shown from this one on.
    pub frame: usize,
    /// The fraction of the step.
    pub fraction: f32,
    /// `entered`, `crossed` or `left`.
    pub kind: &'static str,
    /// The sensor, by body index.
    pub sensor: usize,
    /// The body that entered, crossed or left it, by body index.
    pub body: usize,
}

#[derive(Serialize)]
struct ReplayData {
    title: String,
    dt: f32,
    steps: Vec<u64>,
    times: Vec<f32>,
    bodies: Vec<BodyData>,
    /// Per frame, per body: x, y, z, qw, qx, qy, qz.
    poses: Vec<f32>,
    /// Per frame, per body: 1 when the body sleeps (drawn dimmed), else 0.
    sleeping: Vec<u8>,
    marks: Vec<Mark>,
}

fn shape_data(shape: &Shape) -> ShapeData {
    let v = |p: &parapet::prelude::Vec3| [p.x, p.y, p.z];
    match shape {
        Shape::Sphere(s) => ShapeData::Sphere { radius: s.radius() },
        Shape::Capsule(c) => ShapeData::Capsule {
            radius: c.radius(),
            half_height: c.half_height(),
        },
        Shape::Cuboid(c) => ShapeData::Cuboid {
            half_extents: v(&c.half_extents()),
        },
        Shape::ConvexHull(h) => ShapeData::ConvexHull {
            vertices: h.vertices().iter().map(v).collect(),
            triangles: h.triangles().collect(),
        },
        Shape::Mesh(m) => ShapeData::Mesh {
            vertices: m.vertices().iter().map(v).collect(),
            triangles: m.indices().to_vec(),
        },
        // A shape kind the page has no drawing for yet is drawn as its
        // bounding sphere: it still shows where the body is and how far it
        // reaches.
        other => ShapeData::Sphere {
            radius: other.bounding_radius() as f32,
        },
    }
}

/// Why a trajectory does not fit its scene.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct Mismatch(pub String);

/// The marks of the sensor events among `rows` (an events file of the run
/// that wrote `trajectory`; contacts are not marked), in file order.
///
/// # Errors
/// A sensor event that names a body the trajectory does not hold, or a
/// step that is not one of its frames (after the first).
pub fn sensor_marks(trajectory: &Trajectory, rows: &[EventRow]) -> Result<Vec<Mark>, Mismatch> {
    let index = |name: &str| {
        trajectory
            .names
            .iter()
            .position(|n| n == name)
            .ok_or_else(|| {
                Mismatch(format!(
                    "the events name `{name}`, not a body of the trajectory"
                ))
            })
    };
    rows.iter()
        .filter(|r| r.kind.is_sensor())
        .map(|r| {
            let frame = trajectory
                .steps
                .iter()
                .position(|&s| s == r.step)
                .filter(|&f| f > 0 && trajectory.steps[f - 1] + 1 == r.step)
                .ok_or_else(|| {
                    Mismatch(format!(
                        "the events' step {} is not a step of the trajectory",
                        r.step
                    ))
                })?;
            Ok(Mark {
                frame,
                fraction: r.fraction,
                kind: r.kind.name(),
                sensor: index(&r.a)?,
                body: index(&r.b)?,
            })
        })
        .collect()
}

/// The replay page of `trajectory` with the shapes of `loaded`, titled
/// `title`, with `marks` ([`sensor_marks`]).
///
/// # Errors
/// The trajectory's bodies are not the scene's (count or names), or it has
/// no frame.
pub fn replay_html(
    title: &str,
    loaded: &LoadedScene,
    trajectory: &Trajectory,
    marks: &[Mark],
) -> Result<String, Mismatch> {
    if trajectory.steps.is_empty() {
        return Err(Mismatch("the trajectory has no rows".to_owned()));
    }
    if trajectory.names != loaded.names {
        return Err(Mismatch(format!(
            "the trajectory's bodies {:?} are not the scene's {:?}",
            trajectory.names, loaded.names
        )));
    }
    let mut bodies = Vec::with_capacity(loaded.names.len());
    for (i, spec) in loaded.scene.bodies.iter().enumerate() {
        let path = FieldPath::root().key("bodies").index(i).key("shape");
        let shape = build_shape(&spec.shape, &path).map_err(|e| Mismatch(e.to_string()))?;
        let body = loaded.world.body(loaded.ids[i]);
        let (position, rotation) = body.map(|b| b.shape_offset()).unzip();
        let q = rotation.map(|q| q.into_inner());
        bodies.push(BodyData {
            name: loaded.names[i].clone(),
            offset_position: position.map_or([0.0; 3], |p| [p.x, p.y, p.z]),
            offset_rotation: q.map_or([1.0, 0.0, 0.0, 0.0], |q| [q.w, q.i, q.j, q.k]),
            moving: spec.kind != KindName::Static,
            sensor: body.is_some_and(|b| b.is_sensor()),
            size: shape.bounding_radius(),
            shape: shape_data(&shape),
        });
    }
    let poses = trajectory
        .states
        .iter()
        .flatten()
        .flat_map(|s| {
            let q = s.rotation.quaternion();
            [s.position.x, s.position.y, s.position.z, q.w, q.i, q.j, q.k]
        })
        .collect();
    let sleeping = trajectory
        .states
        .iter()
        .flatten()
        .map(|s| u8::from(s.sleeping))
        .collect();
    let dt = match trajectory.times.as_slice() {
        [a, b, ..] if b > a => b - a,
        _ => loaded.scene.dt,
    };
    let data = ReplayData {
        title: title.to_owned(),
        dt,
        steps: trajectory.steps.clone(),
        times: trajectory.times.clone(),
        bodies,
        poses,
        sleeping,
        marks: marks.to_vec(),
    };
    let json = serde_json::to_string(&data).map_err(|e| Mismatch(e.to_string()))?;
    Ok(page(title, &json))
}

/// Escapes text for HTML element content.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

fn page(title: &str, json: &str) -> String {
    // Inside <script>, only "</" can end the element early: JSON has it in
    // strings only, where "<\/" is the same string.
    let json = json.replace("</", "<\\/");
    let license = THREE_LICENSE.replace("*/", "* /");
    let title = escape(title);
    format!(
        r#"<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>parapet replay: {title}</title>
<style>
  html, body {{ margin: 0; height: 100%; background: #1d2733; color: #e8edf2; font: 14px sans-serif; overflow: hidden; }}
  #controls {{ height: 48px; display: flex; align-items: center; gap: 12px; padding: 0 12px; box-sizing: border-box; background: #121a23; }}
  #timeline {{ flex: 1; }}
  #status {{ opacity: 0.6; }}
</style>
</head>
<body>
<div id="view"></div>
<div id="controls">
  <button id="play">Play</button>
  <input id="timeline" type="range" min="0" max="0" step="1" value="0">
  <span id="label"></span>
  <span id="status">loading</span>
</div>
<script>
/* three.js 0.160.1, bundled so that this page needs no network.
{license}*/
{three}
</script>
<script type="application/json" id="replay-data">{json}</script>
<script>
{viewer}
</script>
</body>
</html>
"#,
        three = THREE_JS,
        viewer = VIEWER_JS,
    )
}
