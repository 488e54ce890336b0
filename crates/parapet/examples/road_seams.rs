//! A box sliding over a tessellated road: the same 1 m grid of triangles
//! built with `Shape::mesh` (the plain mesh: no adjacency, every edge a
//! feature) and with `Shape::mesh_with_active_edges` (the seams of the
//! tessellation give no edge normals). The frictionless box slides at 3 m/s
//! across the rows; on the plain mesh it stops dead at the first seam it
//! meets face-on (a ghost contact), on the mesh with active edges it slides
//! on, in both collision modes. Run with
//! `cargo run -p parapet --example road_seams`.

use parapet::prelude::*;

/// A flat road of `n` x `n` one-metre cells centred on the origin, two
/// counter-clockwise triangles per cell (front faces +z).
fn road(n: u32) -> (Vec<Vec3>, Vec<[u32; 3]>) {
    let half = n as f32 / 2.0;
    let mut vertices = Vec::new();
    for j in 0..=n {
        for i in 0..=n {
            vertices.push(Vec3::new(i as f32 - half, j as f32 - half, 0.0));
        }
    }
    let id = |i: u32, j: u32| j * (n + 1) + i;
    let mut triangles = Vec::new();
    for j in 0..n {
        for i in 0..n {
            triangles.push([id(i, j), id(i + 1, j), id(i + 1, j + 1)]);
            triangles.push([id(i, j), id(i + 1, j + 1), id(i, j + 1)]);
        }
    }
    (vertices, triangles)
}

/// How far (m) the box slides along +y in one second (60 steps) on the road
/// built with or without active edges, in `mode`.
pub fn slide(
    mode: CollisionDetection,
    active_edges: bool,
) -> Result<f32, Box<dyn std::error::Error>> {
    let mut world = PhysicsWorld::new();
    world.collision_detection = mode;
    let ice = Material::new(0.0, 0.0, 0.5)?;
    let (vertices, triangles) = road(20);
    let shape = if active_edges {
        Shape::mesh_with_active_edges(vertices, triangles)?
    } else {
        Shape::mesh(vertices, triangles)?
    };
    world.add_body(RigidBody::new_static(shape).with_material(ice))?;
    // A 0.5 m crate resting on the road, its front face 5 cm short of the
    // seam y = -5, sliding at 3 m/s: after one step (5 cm) its front face
    // lies exactly on the seam.
    let mut crate_body = RigidBody::new_dynamic(Shape::cuboid(Vec3::new(0.25, 0.25, 0.25))?, 1.0)?
        .with_material(ice)
        .with_position(Vec3::new(-5.1, -5.3, 0.25))
        .with_linear_velocity(Vec3::new(0.0, 3.0, 0.0));
    crate_body.set_inverse_inertia(Mat3::zeros())?; // it slides, it does not tip
    let id = world.add_body(crate_body)?;
    for _ in 0..60 {
        world.step(1.0 / 60.0)?;
    }
    let y = world
        .body(id)
        .ok_or("the crate left the world")?
        .position()
        .y;
    Ok(y - (-5.3))
}

/// Prints what the example shows (the test `tests/tests/examples_demo.rs`
/// runs it too).
pub fn main() -> Result<(), Box<dyn std::error::Error>> {
    println!("distance slid in 1 s at 3 m/s on a frictionless 1 m triangle grid:");
    for (label, mode) in [("DISCRETE", DISCRETE), ("SPHERE_MESH_CCD", SPHERE_MESH_CCD)] {
        println!(
            "  {label:<16} Shape::mesh: {:.3} m   Shape::mesh_with_active_edges: {:.3} m",
            slide(mode, false)?,
            slide(mode, true)?
        );
    }
    Ok(())
}
