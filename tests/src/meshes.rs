//! Deterministic mesh and query workloads shared by the tests and the benches:
//! the triangle-index workloads (a terrain grid and a random soup of
//! 2,048, 8,192 and 32,768 triangles) and short sphere sweeps near the surface.
//!
//! Everything derives from a seed through [`SplitMix64`] (the scenes' one
//! generator, re-exported here; Steele, Lea and Flood 2014), so a workload is
//! the same on every machine and run.

use parapet_math::Vec3;

/// The workload sizes, in triangles.
pub const WORKLOAD_TRIANGLES: [usize; 3] = [2_048, 8_192, 32_768];

pub use parapet_scenes::prng::SplitMix64;

/// Random directions drawn from the one generator ([`SplitMix64`]).
pub trait Directions {
    /// A uniformly random unit vector: components from
    /// [`SplitMix64::range_f32`] in `[-1, 1]`, kept when the norm is in
    /// `(0.1, 1]`, then normalized in `f32`.
    fn direction(&mut self) -> Vec3;
}

impl Directions for SplitMix64 {
    fn direction(&mut self) -> Vec3 {
        loop {
            let v = Vec3::new(
                self.range_f32(-1.0, 1.0),
                self.range_f32(-1.0, 1.0),
                self.range_f32(-1.0, 1.0),
            );
            let n = v.norm();
            if n > 0.1 && n <= 1.0 {
                return v / n;
            }
        }
    }
}

/// A mesh as parry's `TriMesh` takes it: shared vertices and index triples.
#[derive(Debug, Clone, PartialEq)]
pub struct IndexedMesh {
    /// Vertex positions (m).
    pub vertices: Vec<Vec3>,
    /// Counter-clockwise index triples into `vertices`.
    pub indices: Vec<[u32; 3]>,
}

impl IndexedMesh {
    /// The triangle snapshot: three positions per triangle, in index order.
    pub fn triangles(&self) -> Vec<[Vec3; 3]> {
        self.indices
            .iter()
            .map(|t| t.map(|i| self.vertices[i as usize]))
            .collect()
    }
}

/// A heightfield terrain of `cells_x * cells_y` unit cells (1 m), two
/// triangles per cell (`2 * cells_x * cells_y` triangles), heights a sum of
/// rolling hills (amplitude about 2.5 m) plus uniform noise of +-0.1 m.
pub fn terrain(cells_x: usize, cells_y: usize, seed: u64) -> IndexedMesh {
    let mut rng = SplitMix64::new(seed);
    let mut vertices = Vec::with_capacity((cells_x + 1) * (cells_y + 1));
    for j in 0..=cells_y {
        for i in 0..=cells_x {
            let (x, y) = (i as f32, j as f32);
            let hills = 2.0 * (0.15 * x).sin() * (0.11 * y).cos() + 0.5 * (0.7 * x + 0.3 * y).sin();
            let noise = rng.range_f32(-0.1, 0.1);
            vertices.push(Vec3::new(x, y, hills + noise));
        }
    }
    let row = (cells_x + 1) as u32;
    let mut indices = Vec::with_capacity(2 * cells_x * cells_y);
    for j in 0..cells_y as u32 {
        for i in 0..cells_x as u32 {
            let a = j * row + i;
            let (b, c, d) = (a + 1, a + row, a + row + 1);
            indices.push([a, b, d]);
            indices.push([a, d, c]);
        }
    }
    IndexedMesh { vertices, indices }
}

/// The square-ish terrain with `triangles` triangles (`triangles / 2` must
/// be a product `cells_x * cells_y` with `cells_x` the largest power of two
/// not above its square root; true for the [`WORKLOAD_TRIANGLES`]).
pub fn terrain_with(triangles: usize, seed: u64) -> IndexedMesh {
    let cells = triangles / 2;
    let mut cells_x = 1;
    while (cells_x * 2) * (cells_x * 2) <= cells {
        cells_x *= 2;
    }
    terrain(cells_x, cells / cells_x, seed)
}

/// A random soup of `count` independent triangles: centres uniform in a cube
/// sized so that the soup's density matches a unit-cell terrain's area
/// density (side `2 * count^(1/3)` m), vertices within 0.75 m of the centre
/// on each axis. No vertex is shared.
pub fn soup(count: usize, seed: u64) -> IndexedMesh {
    let mut rng = SplitMix64::new(seed);
    let side = 2.0 * (count as f32).cbrt();
    let mut vertices = Vec::with_capacity(3 * count);
    let mut indices = Vec::with_capacity(count);
    for t in 0..count as u32 {
        let centre = Vec3::new(
            rng.range_f32(0.0, side),
            rng.range_f32(0.0, side),
            rng.range_f32(0.0, side),
        );
        for _ in 0..3 {
            let offset = Vec3::new(
                rng.range_f32(-0.75, 0.75),
                rng.range_f32(-0.75, 0.75),
                rng.range_f32(-0.75, 0.75),
            );
            vertices.push(centre + offset);
        }
        indices.push([3 * t, 3 * t + 1, 3 * t + 2]);
    }
    IndexedMesh { vertices, indices }
}

/// The worst case for any bounds tree: `count` large triangles whose
/// vertices are uniform in one cube of side `side` (m), so that nearly every
/// triangle's bounds overlap nearly every other's and a query near the
/// cube's middle can prune almost nothing. No vertex is shared.
pub fn overlapping(count: usize, side: f32, seed: u64) -> IndexedMesh {
    let mut rng = SplitMix64::new(seed);
    let mut vertices = Vec::with_capacity(3 * count);
    let mut indices = Vec::with_capacity(count);
    for t in 0..count as u32 {
        for _ in 0..3 {
            vertices.push(Vec3::new(
                rng.range_f32(0.0, side),
                rng.range_f32(0.0, side),
                rng.range_f32(0.0, side),
            ));
        }
        indices.push([3 * t, 3 * t + 1, 3 * t + 2]);
    }
    IndexedMesh { vertices, indices }
}

/// A short sphere sweep: a ball of `radius` (m) moving from `start` to `end`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sweep {
    /// Centre at the start of the step (m).
    pub start: Vec3,
    /// Centre at the end of the step (m).
    pub end: Vec3,
    /// Ball radius (m).
    pub radius: f32,
}

/// `count` random short sweeps near the mesh surface, as a CCD step makes
/// them: start within 1 m of a random point of a random triangle, travel
/// up to 0.5 m (30 m/s for 1/60 s) in a random direction, radius 0.1 to 0.5 m.
pub fn sweeps_near(mesh: &IndexedMesh, count: usize, seed: u64) -> Vec<Sweep> {
    let mut rng = SplitMix64::new(seed);
    (0..count)
        .map(|_| {
            let tri = mesh.indices[rng.below_scaled(mesh.indices.len())];
            let [a, b, c] = tri.map(|i| mesh.vertices[i as usize]);
            let (mut u, mut v) = (rng.range_f32(0.0, 1.0), rng.range_f32(0.0, 1.0));
            if u + v > 1.0 {
                (u, v) = (1.0 - u, 1.0 - v);
            }
            let on_surface = a + (b - a) * u + (c - a) * v;
            let start = on_surface + rng.direction() * rng.range_f32(0.0, 1.0);
            let end = start + rng.direction() * rng.range_f32(0.0, 0.5);
            Sweep {
                start,
                end,
                radius: rng.range_f32(0.1, 0.5),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn workloads_have_the_seed_sizes() {
        for t in WORKLOAD_TRIANGLES {
            assert_eq!(terrain_with(t, 1).indices.len(), t);
            assert_eq!(soup(t, 1).indices.len(), t);
        }
    }

    #[test]
    fn workloads_are_deterministic() {
        assert_eq!(terrain_with(2048, 7), terrain_with(2048, 7));
        assert_eq!(soup(100, 7), soup(100, 7));
        assert_ne!(soup(100, 7), soup(100, 8));
    }

    #[test]
    fn overlapping_triangles_fill_their_cube() {
        let mesh = overlapping(500, 4.0, 9);
        assert_eq!(mesh.indices.len(), 500);
        assert!(mesh
            .vertices
            .iter()
            .all(|v| v.iter().all(|&x| (0.0..=4.0).contains(&x))));
        // Large: the mean bounds edge of three uniform points in [0, 4] is
        // 4 / 2 = 2 m (the expected range of 3 uniforms is half the side);
        // 1.5 m leaves room for sampling noise over 1,500 edges.
        let mean_edge: f32 = mesh
            .triangles()
            .iter()
            .map(|t| {
                (0..3)
                    .map(|k| {
                        let xs = t.map(|v| v[k]);
                        xs.iter().copied().fold(f32::MIN, f32::max)
                            - xs.iter().copied().fold(f32::MAX, f32::min)
                    })
                    .sum::<f32>()
            })
            .sum::<f32>()
            / 1500.0;
        assert!(mean_edge > 1.5, "mean bounds edge {mean_edge} m");
    }

    #[test]
    fn sweeps_are_short_and_near_the_mesh() {
        let mesh = terrain_with(2048, 3);
        for s in sweeps_near(&mesh, 1000, 4) {
            // Travel at most 0.5 m (plus f32 rounding of a few ulps).
            assert!((s.end - s.start).norm() <= 0.5 + 1e-5);
            assert!((0.1..0.5).contains(&s.radius));
            // The terrain spans [0, 32] x [0, 32]; a start is within 1 m of it.
            assert!(s.start.x >= -1.0 && s.start.x <= 33.0);
        }
    }
}
