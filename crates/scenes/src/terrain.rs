//! Deterministic terrains: a regular height field of `nx` by `ny` square cells,
//! heights from smoothed value noise drawn by [`SplitMix64`], triangulated two
//! triangles per cell, counter-clockwise seen from above (the one-sided front
//! faces up, +z).
//!
//! [`HeightField::height_at`] is the independent ground truth of the clearance
//! checks: it interpolates the same triangulation in `f64` with its own
//! barycentric formula and shares no code with parapet's narrow phase.

use parapet::math::Vec3;
use parapet::shape::{Shape, ShapeError};

use crate::prng::SplitMix64;

/// A height field over `[x0, x0 + nx * cell] x [y0, y0 + ny * cell]`.
#[derive(Debug, Clone, PartialEq)]
pub struct HeightField {
    /// Corner of the field with the smallest x and y (m).
    pub origin: [f64; 2],
    /// Cell edge length (m).
    pub cell: f64,
    /// Number of cells along x.
    pub nx: usize,
    /// Number of cells along y.
    pub ny: usize,
    /// `(nx + 1) * (ny + 1)` vertex heights (m), row-major in y then x; stored
    /// as the f32 values the mesh holds, so both views describe one surface.
    pub heights: Vec<f32>,
}

impl HeightField {
    /// A field centred on the origin with heights in about `[-amplitude,
    /// amplitude]`: a coarse lattice of random heights (one every four cells)
    /// interpolated bilinearly, so slopes stay walkable, plus a small per-vertex
    /// roughness of a tenth of the amplitude.
    pub fn generate(seed: u64, nx: usize, ny: usize, cell: f64, amplitude: f64) -> Self {
        let mut rng = SplitMix64::new(seed);
        let coarse = 4usize;
        let (cx, cy) = (nx / coarse + 2, ny / coarse + 2);
        let lattice: Vec<f64> = (0..cx * cy)
            .map(|_| rng.range(-amplitude, amplitude))
            .collect();
        let mut heights = Vec::with_capacity((nx + 1) * (ny + 1));
        for j in 0..=ny {
            for i in 0..=nx {
                let (gx, gy) = (i as f64 / coarse as f64, j as f64 / coarse as f64);
                let (ix, iy) = (gx.floor() as usize, gy.floor() as usize);
                let (fx, fy) = (gx - ix as f64, gy - iy as f64);
                let at = |a: usize, b: usize| lattice[b * cx + a];
                let smooth = (1.0 - fy) * ((1.0 - fx) * at(ix, iy) + fx * at(ix + 1, iy))
                    + fy * ((1.0 - fx) * at(ix, iy + 1) + fx * at(ix + 1, iy + 1));
                let rough = rng.range(-0.1 * amplitude, 0.1 * amplitude);
                heights.push((smooth + rough) as f32);
            }
        }
        let half = [nx as f64 * cell / 2.0, ny as f64 * cell / 2.0];
        Self {
            origin: [-half[0], -half[1]],
            cell,
            nx,
            ny,
            heights,
        }
    }

    fn height(&self, i: usize, j: usize) -> f32 {
        self.heights[j * (self.nx + 1) + i]
    }

    fn vertex(&self, i: usize, j: usize) -> Vec3 {
        Vec3::new(
            (self.origin[0] + i as f64 * self.cell) as f32,
            (self.origin[1] + j as f64 * self.cell) as f32,
            self.height(i, j),
        )
    }

    /// The vertices and counter-clockwise triangles (front up) of the field:
    /// each cell `(i, j)` is split along its diagonal from `(i, j)` to
    /// `(i + 1, j + 1)`.
    pub fn triangles(&self) -> (Vec<Vec3>, Vec<[u32; 3]>) {
        let mut vertices = Vec::with_capacity((self.nx + 1) * (self.ny + 1));
        for j in 0..=self.ny {
            for i in 0..=self.nx {
                vertices.push(self.vertex(i, j));
            }
        }
        let id = |i: usize, j: usize| (j * (self.nx + 1) + i) as u32;
        let mut triangles = Vec::with_capacity(2 * self.nx * self.ny);
        for j in 0..self.ny {
            for i in 0..self.nx {
                triangles.push([id(i, j), id(i + 1, j), id(i + 1, j + 1)]);
                triangles.push([id(i, j), id(i + 1, j + 1), id(i, j + 1)]);
            }
        }
        (vertices, triangles)
    }

    /// The field as a one-sided triangle mesh shape whose seams slide
    /// ([`Shape::mesh_with_active_edges`]): the edges between its cells
    /// are seams of a tessellated surface, so a box sliding over them (a
    /// car on a road) is not stopped and thrown up by a contact at a seam
    /// that only its triangle test sees as the rim of a cliff; the field's
    /// rim and creases sharper than `ACTIVE_EDGE_ANGLE` stay features.
    ///
    /// # Errors
    ///
    /// The mesh validation of [`Shape::mesh`] (never for a generated field
    /// with finite heights).
    pub fn mesh(&self) -> Result<Shape, ShapeError> {
        let (v, t) = self.triangles();
        Shape::mesh_with_active_edges(v, t)
    }

    /// The number of triangles, `2 nx ny`.
    pub fn triangle_count(&self) -> usize {
        2 * self.nx * self.ny
    }

    /// The surface height (m) above `(x, y)`, interpolated on the same
    /// triangulation as [`HeightField::triangles`] in `f64`; `None` outside the field.
    pub fn height_at(&self, x: f64, y: f64) -> Option<f64> {
        let u = (x - self.origin[0]) / self.cell;
        let v = (y - self.origin[1]) / self.cell;
        if !(u >= 0.0 && v >= 0.0 && u <= self.nx as f64 && v <= self.ny as f64) {
            return None;
        }
        let i = (u.floor() as usize).min(self.nx - 1);
        let j = (v.floor() as usize).min(self.ny - 1);
        let (fu, fv) = (u - i as f64, v - j as f64);
        let h = |a: usize, b: usize| self.height(a, b) as f64;
        // Below the diagonal (fu >= fv): triangle (i,j), (i+1,j), (i+1,j+1).
        Some(if fu >= fv {
            h(i, j) + fu * (h(i + 1, j) - h(i, j)) + fv * (h(i + 1, j + 1) - h(i + 1, j))
        } else {
            h(i, j) + fv * (h(i, j + 1) - h(i, j)) + fu * (h(i + 1, j + 1) - h(i, j + 1))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_seed_gives_the_same_field_and_another_seed_another() {
        let a = HeightField::generate(3, 8, 8, 0.5, 0.4);
        assert_eq!(a, HeightField::generate(3, 8, 8, 0.5, 0.4));
        assert_ne!(a, HeightField::generate(4, 8, 8, 0.5, 0.4));
    }

    #[test]
    fn heights_at_vertices_are_the_mesh_vertices_and_faces_point_up() {
        let f = HeightField::generate(11, 6, 5, 0.5, 0.3);
        let (v, t) = f.triangles();
        for p in &v {
            let h = f.height_at(p.x as f64, p.y as f64).unwrap();
            // Vertex coordinates are f32 multiples of the cell; exact to f32 rounding.
            assert!((h - p.z as f64).abs() < 1e-6, "{h} vs {}", p.z);
        }
        for tri in &t {
            let [a, b, c] = tri.map(|k| v[k as usize]);
            assert!((b - a).cross(&(c - a)).z > 0.0, "a triangle faces down");
        }
        assert_eq!(t.len(), f.triangle_count());
        assert!(f.height_at(100.0, 0.0).is_none());
    }

    #[test]
    fn interpolation_is_linear_inside_each_triangle() {
        let f = HeightField::generate(5, 4, 4, 1.0, 0.5);
        let (v, t) = f.triangles();
        for tri in &t {
            let [a, b, c] = tri.map(|k| v[k as usize].cast::<f64>());
            let p = (a + b + c) / 3.0;
            let h = f.height_at(p.x, p.y).unwrap();
            assert!((h - p.z).abs() < 1e-6, "centroid height {h} vs {}", p.z);
        }
    }
}
