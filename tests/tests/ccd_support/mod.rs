//! Shared helpers of the continuous-collision scenario tests (`ccd_*.rs`):
//! meshes (floors, walls, slopes, V troughs, tessellations, rough terrain),
//! materials, and an *independent* clearance computation used as the oracle
//! of "never behind a front face": plain `f64` closest-point geometry
//! (Ericson, Real-Time Collision Detection 5.1.5), sharing no code with
//! parapet's sweeps or contacts.

#![allow(dead_code)]

use parapet_geometry::{Material, Shape};
use parapet_math::Vec3;
use parapet_solver::RigidBody;

/// A material with friction, restitution and bounce threshold.
pub fn mat(friction: f32, restitution: f32, bounce_threshold: f32) -> Material {
    Material::new(friction, restitution, bounce_threshold).unwrap()
}

/// A static mesh body from vertices and counter-clockwise triangles.
pub fn mesh(vertices: Vec<Vec3>, triangles: Vec<[u32; 3]>, material: Material) -> RigidBody {
    RigidBody::new_static(Shape::mesh(vertices, triangles).unwrap()).with_material(material)
}

/// A square plate of half size `half` through `center`, facing `normal`
/// (unit), two triangles.
pub fn plate(center: Vec3, normal: Vec3, half: f32, material: Material) -> RigidBody {
    let n = normal.normalize();
    let helper = if n.x.abs() < 0.9 {
        Vec3::x()
    } else {
        Vec3::y()
    };
    let u = n.cross(&helper).normalize();
    let w = n.cross(&u);
    let v = vec![
        center + (-u - w) * half,
        center + (u - w) * half,
        center + (u + w) * half,
        center + (-u + w) * half,
    ];
    // (v1 - v0) x (v2 - v0) = 2h u x 2h (u + w)... oriented along n:
    let tri = if (v[1] - v[0]).cross(&(v[2] - v[0])).dot(&n) > 0.0 {
        vec![[0, 1, 2], [0, 2, 3]]
    } else {
        vec![[0, 2, 1], [0, 3, 2]]
    };
    mesh(v, tri, material)
}

/// A rough terrain: a `cells x cells` grid of spacing `step` (m) centred on
/// the origin, heights from a sum of sines plus deterministic noise of
/// amplitude `rough` (m), two upward-facing triangles per cell.
pub fn terrain(cells: usize, step: f32, rough: f32, seed: u64) -> (Vec<Vec3>, Vec<[u32; 3]>) {
    let mut rng = parapet_tests::meshes::SplitMix64::new(seed);
    let n = cells + 1;
    let half = cells as f32 * step * 0.5;
    let mut v = Vec::with_capacity(n * n);
    for j in 0..n {
        for i in 0..n {
            let x = i as f32 * step - half;
            let y = j as f32 * step - half;
            let z = 0.3 * (0.7 * x).sin() * (0.5 * y).cos() + rng.range_f32(-rough, rough);
            v.push(Vec3::new(x, y, z));
        }
    }
    let mut t = Vec::with_capacity(2 * cells * cells);
    for j in 0..cells {
        for i in 0..cells {
            let a = (j * n + i) as u32;
            let b = a + 1;
            let c = a + n as u32 + 1;
            let d = a + n as u32;
            t.push([a, b, c]);
            t.push([a, c, d]);
        }
    }
    (v, t)
}

/// `f64` closest point on triangle `abc` to `p` (Ericson 5.1.5).
pub fn closest_on_triangle(p: [f64; 3], a: [f64; 3], b: [f64; 3], c: [f64; 3]) -> [f64; 3] {
    let sub = |x: [f64; 3], y: [f64; 3]| [x[0] - y[0], x[1] - y[1], x[2] - y[2]];
    let dot = |x: [f64; 3], y: [f64; 3]| x[0] * y[0] + x[1] * y[1] + x[2] * y[2];
    let add_s =
        |x: [f64; 3], y: [f64; 3], s: f64| [x[0] + s * y[0], x[1] + s * y[1], x[2] + s * y[2]];
    let ab = sub(b, a);
    let ac = sub(c, a);
    let ap = sub(p, a);
    let d1 = dot(ab, ap);
    let d2 = dot(ac, ap);
    if d1 <= 0.0 && d2 <= 0.0 {
        return a;
    }
    let bp = sub(p, b);
    let d3 = dot(ab, bp);
    let d4 = dot(ac, bp);
    if d3 >= 0.0 && d4 <= d3 {
        return b;
    }
    let vc = d1 * d4 - d3 * d2;
    if vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 {
        return add_s(a, ab, d1 / (d1 - d3));
    }
    let cp = sub(p, c);
    let d5 = dot(ab, cp);
    let d6 = dot(ac, cp);
    if d6 >= 0.0 && d5 <= d6 {
        return c;
    }
    let vb = d5 * d2 - d1 * d6;
    if vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 {
        return add_s(a, ac, d2 / (d2 - d6));
    }
    let va = d3 * d6 - d5 * d4;
    if va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0 {
        let w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
        return add_s(b, sub(c, b), w);
    }
    let denom = 1.0 / (va + vb + vc);
    let v = vb * denom;
    let w = vc * denom;
    let q = add_s(a, ab, v);
    add_s(q, ac, w)
}

fn f(v: Vec3) -> [f64; 3] {
    [v.x as f64, v.y as f64, v.z as f64]
}

/// Distance (m) from point `p` to triangle `t`, `f64`.
pub fn point_triangle_distance(p: Vec3, t: &[Vec3; 3]) -> f64 {
    let q = closest_on_triangle(f(p), f(t[0]), f(t[1]), f(t[2]));
    let pp = f(p);
    ((pp[0] - q[0]).powi(2) + (pp[1] - q[1]).powi(2) + (pp[2] - q[2]).powi(2)).sqrt()
}

/// Signed height (m) of `p` above triangle `t`'s plane, along its front normal.
pub fn plane_height(p: Vec3, t: &[Vec3; 3]) -> f64 {
    let (a, b, c) = (f(t[0]), f(t[1]), f(t[2]));
    let ab = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
    let ac = [c[0] - a[0], c[1] - a[1], c[2] - a[2]];
    let n = [
        ab[1] * ac[2] - ab[2] * ac[1],
        ab[2] * ac[0] - ab[0] * ac[2],
        ab[0] * ac[1] - ab[1] * ac[0],
    ];
    let len = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt();
    let pp = f(p);
    ((pp[0] - a[0]) * n[0] + (pp[1] - a[1]) * n[1] + (pp[2] - a[2]) * n[2]) / len
}

/// Whether the projection of `p` along the normal falls inside triangle `t`
/// (barycentric, closed).
pub fn projects_inside(p: Vec3, t: &[Vec3; 3]) -> bool {
    let h = plane_height(p, t);
    let (a, b, c) = (f(t[0]), f(t[1]), f(t[2]));
    let ab = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
    let ac = [c[0] - a[0], c[1] - a[1], c[2] - a[2]];
    let n = [
        ab[1] * ac[2] - ab[2] * ac[1],
        ab[2] * ac[0] - ab[0] * ac[2],
        ab[0] * ac[1] - ab[1] * ac[0],
    ];
    let len = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt();
    let pp = f(p);
    let q = [
        pp[0] - h * n[0] / len,
        pp[1] - h * n[1] / len,
        pp[2] - h * n[2] / len,
    ];
    let side = |u: [f64; 3], v: [f64; 3]| {
        let e = [v[0] - u[0], v[1] - u[1], v[2] - u[2]];
        let m = [q[0] - u[0], q[1] - u[1], q[2] - u[2]];
        let x = [
            e[1] * m[2] - e[2] * m[1],
            e[2] * m[0] - e[0] * m[2],
            e[0] * m[1] - e[1] * m[0],
        ];
        x[0] * n[0] + x[1] * n[1] + x[2] * n[2] >= 0.0
    };
    side(a, b) && side(b, c) && side(c, a)
}

/// The world triangles of a mesh body added at its pose (identity here).
pub fn world_triangles(body: &RigidBody) -> Vec<[Vec3; 3]> {
    let Shape::Mesh(m) = body.shape() else {
        panic!("not a mesh")
    };
    m.triangles()
        .map(|t| {
            let v = t.vertices();
            [
                v[0] + body.position(),
                v[1] + body.position(),
                v[2] + body.position(),
            ]
        })
        .collect()
}
