//! Regression test (boxes propped on an edge): boxes of every proportion, dropped a few
//! centimetres with a few degrees of tilt onto flat floors of every
//! tessellation, come to rest flat, in both collision-detection modes.
//!
//! What broke: an edge-axis contact took its point from the wrong one of a
//! box's four parallel edges, so about a third of crates and car bodies
//! dropped this way came to rest propped on an edge, tilted by up to 4
//! degrees (one car at 1.08 degrees, 4 cm high).
//!
//! Each world holds one floor (z = 0, flat, in one of several
//! tessellations: two large triangles, square grids of several cell sizes
//! and orientations, a jittered irregular grid; as a plain mesh and as a
//! mesh with active edges) and boxes of several proportions (a cube, a
//! crate, a car body, a plank, a tall post, a flat slab), each at a random
//! position, yaw and tilt. Over the last of 8 s at 60 Hz every box must
//! rest flat: its face nearest to the floor within [`MAX_TILT_DEG`] of level
//! at every step of that second, and nearly still at its end.
//!
//! DISCRETE only, for now: in SPHERE_MESH_CCD the continuous stage's
//! turning loop refuses a car body on the finer grids (170 simultaneous
//! touch points against the settling limit of 64), which the per-body
//! reduction of its touch points is to fix.

use parapet_geometry::{Material, Shape};
use parapet_math::nalgebra::UnitQuaternion;
use parapet_math::Vec3;
use parapet_scenes::prng::SplitMix64;
use parapet_solver::RigidBody;
use parapet_world::{BodyId, CollisionDetection, PhysicsWorld, DISCRETE};

/// Tilt (degrees) a box at rest may keep: 0.25, the bound. Every
/// resting contact point settles at the resting depth (`PENETRATION_SLOP`),
/// so a box lying on a face is level to within the solver's residual; a box
/// propped on an edge (the bug) tilts by degrees.
const MAX_TILT_DEG: f32 = 0.25;

/// Speed (m/s) below which a box counts as settled after 8 s: 5 cm/s (a
/// box propped on an edge rocks or settles slowly, a resting one is still
/// to within the solver's residual).
const REST_SPEED: f32 = 0.05;

/// The most slender a box is stood (height over its base's narrower side,
/// dimensionless): 4. A slenderer block dropped with a tilt rocks on its
/// edges for many seconds, as Housner's rocking block does (each landing
/// keeps most of its spin: 99% for the 12:1 slab standing), so it is laid
/// on a wider face instead; every proportion still rests on two faces.
const MAX_SLENDERNESS: f32 = 4.0;

/// Height over the narrower base side of a box of half extents `half`
/// standing with its axis `up` vertical.
fn slenderness(half: &[f32; 3], up: usize) -> f32 {
    let base = (0..3)
        .filter(|&i| i != up)
        .map(|i| half[i])
        .fold(f32::MAX, f32::min);
    half[up] / base
}

/// Half extents (m) of the proportions tested.
const PROPORTIONS: [[f32; 3]; 6] = [
    [0.5, 0.5, 0.5],
    [0.6, 0.4, 0.3],
    [2.2, 0.9, 0.7],
    [1.0, 0.15, 0.05],
    [0.15, 0.15, 0.8],
    [1.2, 1.0, 0.1],
];

/// Placements per proportion and world.
const PLACEMENTS: usize = 3;

/// Spacing (m) of the boxes on the floor: more than the longest box (4.4 m).
const SPACING: f32 = 6.0;

/// Half side (m) of the square floor.
const FLOOR_HALF: f32 = 20.0;

/// The tessellations of the flat floor.
#[derive(Clone, Copy, Debug)]
enum Tessellation {
    /// Two triangles over the whole floor.
    TwoTriangles,
    /// A square grid of `cell` m cells, turned by `yaw` degrees.
    Grid { cell: f32, yaw: f32 },
    /// A grid of `cell` m cells whose inner vertices are moved in the plane
    /// by up to a third of a cell (irregular triangles).
    Jittered { cell: f32 },
}

const TESSELLATIONS: [Tessellation; 5] = [
    Tessellation::TwoTriangles,
    Tessellation::Grid {
        cell: 1.0,
        yaw: 0.0,
    },
    Tessellation::Grid {
        cell: 0.35,
        yaw: 0.0,
    },
    Tessellation::Grid {
        cell: 0.8,
        yaw: 27.0,
    },
    Tessellation::Jittered { cell: 0.6 },
];

/// The floor's vertices and counter-clockwise (from +z) triangles.
fn floor_mesh(t: Tessellation) -> (Vec<Vec3>, Vec<[u32; 3]>) {
    let h = FLOOR_HALF;
    let (cell, yaw, jitter) = match t {
        Tessellation::TwoTriangles => (2.0 * h, 0.0, false),
        Tessellation::Grid { cell, yaw } => (cell, yaw, false),
        Tessellation::Jittered { cell } => (cell, 0.0, true),
    };
    // A turned grid covers the floor's square with a larger one.
    let reach = if yaw == 0.0 { h } else { h * 1.5 };
    let n = (2.0 * reach / cell).ceil() as usize;
    let step = 2.0 * reach / n as f32;
    let (s, c) = yaw.to_radians().sin_cos();
    let mut rng = SplitMix64::new(7);
    let mut vertices = Vec::with_capacity((n + 1) * (n + 1));
    for j in 0..=n {
        for i in 0..=n {
            let (mut x, mut y) = (-reach + i as f32 * step, -reach + j as f32 * step);
            if jitter && i > 0 && j > 0 && i < n && j < n {
                x += rng.range_f32(-step / 3.0, step / 3.0);
                y += rng.range_f32(-step / 3.0, step / 3.0);
            }
            vertices.push(Vec3::new(c * x - s * y, s * x + c * y, 0.0));
        }
    }
    let mut triangles = Vec::with_capacity(2 * n * n);
    let at = |i: usize, j: usize| (j * (n + 1) + i) as u32;
    for j in 0..n {
        for i in 0..n {
            // Alternate the diagonal, as terrains do.
            if (i + j) % 2 == 0 {
                triangles.push([at(i, j), at(i + 1, j), at(i + 1, j + 1)]);
                triangles.push([at(i, j), at(i + 1, j + 1), at(i, j + 1)]);
            } else {
                triangles.push([at(i, j), at(i + 1, j), at(i, j + 1)]);
                triangles.push([at(i + 1, j), at(i + 1, j + 1), at(i, j + 1)]);
            }
        }
    }
    (vertices, triangles)
}

/// The angle (degrees) between the box's local axis nearest to vertical
/// and the vertical.
fn tilt_deg(rotation: &UnitQuaternion<f32>) -> f32 {
    let up = (0..3)
        .map(|k| {
            let mut axis = Vec3::zeros();
            axis[k] = 1.0;
            (rotation * axis).z.abs()
        })
        .fold(0.0_f32, f32::max);
    up.min(1.0).acos().to_degrees()
}

/// Drops every proportion [`PLACEMENTS`] times onto the floor and returns
/// the failures (a box tilted or still moving after 4 s).
fn drop_boxes(t: Tessellation, active_edges: bool, mode: CollisionDetection) -> Vec<String> {
    let mut w = PhysicsWorld::new();
    w.collision_detection = mode;
    let (vertices, triangles) = floor_mesh(t);
    let shape = if active_edges {
        Shape::mesh_with_active_edges(vertices, triangles).unwrap()
    } else {
        Shape::mesh(vertices, triangles).unwrap()
    };
    let material = Material::new(0.5, 0.0, 0.5).unwrap();
    w.add_body(RigidBody::new_static(shape).with_material(material))
        .unwrap();
    let mut rng = SplitMix64::new(29);
    let mut boxes: Vec<(BodyId, [f32; 3])> = Vec::new();
    let columns = (2.0 * FLOOR_HALF / SPACING) as usize;
    for (p, half) in PROPORTIONS.iter().enumerate() {
        for k in 0..PLACEMENTS {
            let slot = p * PLACEMENTS + k;
            let (col, row) = (slot % columns, slot / columns);
            let x = -FLOOR_HALF + SPACING * (col as f32 + 0.5) + rng.range_f32(-0.5, 0.5);
            let y = -FLOOR_HALF + SPACING * (row as f32 + 0.5) + rng.range_f32(-0.5, 0.5);
            // Lying on a face: the box's z, x or y axis up, the next one
            // when that would stand it slender (see `MAX_SLENDERNESS`).
            let up = (0..3)
                .map(|j| (k + j) % 3)
                .find(|&axis| slenderness(half, axis) <= MAX_SLENDERNESS)
                .unwrap_or(2);
            let lie = match up {
                2 => UnitQuaternion::identity(),
                1 => UnitQuaternion::from_scaled_axis(Vec3::x() * std::f32::consts::FRAC_PI_2),
                _ => UnitQuaternion::from_scaled_axis(Vec3::y() * std::f32::consts::FRAC_PI_2),
            };
            let yaw = UnitQuaternion::from_scaled_axis(
                Vec3::z() * rng.range_f32(0.0, std::f32::consts::TAU),
            );
            let tilt_axis = Vec3::new(rng.range_f32(-1.0, 1.0), rng.range_f32(-1.0, 1.0), 0.0);
            let tilt = UnitQuaternion::from_scaled_axis(
                tilt_axis.normalize() * rng.range_f32(1.0, 5.0).to_radians(),
            );
            let rotation = tilt * yaw * lie;
            let h = Vec3::from(*half);
            // Lowest corner 1 to 5 cm above the floor.
            let reach = (0..8)
                .map(|i| {
                    let s = |bit: usize| if i & bit == 0 { -1.0 } else { 1.0 };
                    -(rotation * Vec3::new(s(1) * h.x, s(2) * h.y, s(4) * h.z)).z
                })
                .fold(f32::MIN, f32::max);
            let z = reach + rng.range_f32(0.01, 0.05);
            let mass = 8.0 * h.x * h.y * h.z * 500.0;
            let body = RigidBody::new_dynamic(Shape::cuboid(h).unwrap(), mass)
                .unwrap()
                .with_material(material)
                .with_position(Vec3::new(x, y, z))
                .with_rotation(rotation);
            boxes.push((w.add_body(body).unwrap(), *half));
        }
    }
    let mut worst_tilt = vec![0.0f32; boxes.len()];
    for step in 0..480 {
        if let Err(e) = w.step(1.0 / 60.0) {
            return vec![format!(
                "{t:?} active edges {active_edges} mode {}: step {step} refused: {e}",
                mode.code()
            )];
        }
        if step >= 480 - 60 {
            for ((id, _), worst) in boxes.iter().zip(worst_tilt.iter_mut()) {
                *worst = worst.max(tilt_deg(&w.body(*id).unwrap().rotation()));
            }
        }
    }
    let mut failures = Vec::new();
    for ((id, half), tilt) in boxes.into_iter().zip(worst_tilt) {
        let b = w.body(id).unwrap();
        let speed = b.linear_velocity().norm();
        if tilt >= MAX_TILT_DEG || speed >= REST_SPEED {
            failures.push(format!(
                "{t:?} active edges {active_edges} mode {}: box {half:?} at {:?} tilted {tilt:.3} deg, speed {speed:.3} m/s",
                mode.code(),
                b.position().as_slice()
            ));
        }
    }
    failures
}

fn every_floor(mode: CollisionDetection) {
    let mut failures = Vec::new();
    for t in TESSELLATIONS {
        for active_edges in [false, true] {
            failures.extend(drop_boxes(t, active_edges, mode));
        }
    }
    assert!(
        failures.is_empty(),
        "{} boxes not flat:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn boxes_dropped_on_tessellated_floors_rest_flat_in_discrete() {
    every_floor(DISCRETE);
}
